/* The graph by degree order (orbit_ranked.h).  Each row is filled and
 * sorted by one thread, the rows shared among the threads. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "orbit_ranked.h"

static uint64_t deg(const wm_graph *g, uint32_t v) { return g->offsets[v + 1] - g->offsets[v]; }

/* The ranks by a counting sort on the degree (stable: ties by index). */
static int rank_vertices(const wm_graph *g, wm_orbit_ranked *r, uint32_t *rank) {
  uint64_t top = 0;
  for (uint32_t v = 0; v < g->n; v++) top = deg(g, v) > top ? deg(g, v) : top;
  uint64_t *at = calloc(top + 2, sizeof *at);
  if (!at) return -1;
  for (uint32_t v = 0; v < g->n; v++) at[deg(g, v) + 1]++;
  for (uint64_t d = 0; d <= top; d++) at[d + 1] += at[d];
  for (uint32_t v = 0; v < g->n; v++) {
    const uint32_t s = (uint32_t)at[deg(g, v)]++;
    rank[v] = s, r->old[s] = v;
  }
  free(at);
  return 0;
}

/* The first row of thread t's share of the arcs (of T threads; n for
 * t = T, whatever the rounding). */
uint32_t wm_orbit_share_start(const uint64_t *offsets, uint32_t n, int t, int T) {
  if (t >= T) return n;
  const uint64_t want = offsets[n] / (uint64_t)T * (uint64_t)t;
  uint32_t lo = 0, hi = n;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (offsets[mid] < want) lo = mid + 1;
    else hi = mid;
  }
  return t ? lo : 0;
}

/* A row's keys (a neighbour's rank in the high word, its place in g's row
 * in the low) ascending: insertion for short rows, else least significant
 * byte first over the rank's bytes that n can set (tmp as long as keys). */
#define SHORT_ROW 32

static void sort_keys(uint64_t *keys, uint64_t *tmp, uint64_t d, unsigned rank_bytes) {
  if (d <= SHORT_ROW) {
    for (uint64_t i = 1; i < d; i++) {
      const uint64_t x = keys[i];
      uint64_t j = i;
      for (; j > 0 && keys[j - 1] > x; j--) keys[j] = keys[j - 1];
      keys[j] = x;
    }
    return;
  }
  for (unsigned b = 0; b < rank_bytes; b++) {
    const unsigned shift = 32 + 8 * b;
    uint64_t at[257] = {0};
    for (uint64_t i = 0; i < d; i++) at[(keys[i] >> shift & 0xFF) + 1]++;
    for (unsigned x = 0; x < 256; x++) at[x + 1] += at[x];
    for (uint64_t i = 0; i < d; i++) tmp[at[keys[i] >> shift & 0xFF]++] = keys[i];
    uint64_t *swap = keys;
    keys = tmp, tmp = swap;
  }
  if (rank_bytes % 2) memcpy(tmp, keys, d * sizeof *keys); /* the last pass wrote tmp: back to the caller's keys */
}

/* The rows by rank: row s is old[s]'s row of g, each neighbour by its rank,
 * sorted (from: each entry's place in g's row).  Rows go to the threads in
 * chunks, each sorting its own; a thread's scratch grows to its longest
 * row. */
static int fill_rows(const wm_graph *g, wm_orbit_ranked *r, const uint32_t *rank) {
  r->offsets[0] = 0;
  for (uint32_t s = 0; s < r->n; s++) r->offsets[s + 1] = r->offsets[s] + deg(g, r->old[s]);
  unsigned rank_bytes = 0;
  while (rank_bytes < 4 && (uint64_t)r->n > (uint64_t)1 << (8 * rank_bytes)) rank_bytes++;
  int oom = 0;
#pragma omp parallel
  {
    uint64_t *keys = NULL, cap = 0;
#pragma omp for schedule(dynamic, 16)
    for (int64_t i = 0; i < (int64_t)r->n; i++) {
      const uint32_t s = r->n - 1 - (uint32_t)i; /* the longest rows first: none left alone at the end */
      const uint32_t v = r->old[s];
      const uint64_t d = deg(g, v), base = r->offsets[s];
      if (d > cap) {
        free(keys);
        cap = d > 2 * cap ? d : 2 * cap;
        keys = malloc(2 * cap * sizeof *keys);
        if (!keys) cap = 0, __atomic_store_n(&oom, 1, __ATOMIC_RELAXED);
      }
      r->up[s] = base;
      if (!d || !keys) continue; /* no row, or out of memory */
      for (uint64_t i = 0; i < d; i++) keys[i] = (uint64_t)rank[g->adj[g->offsets[v] + i]] << 32 | i;
      sort_keys(keys, keys + cap, d, rank_bytes);
      uint64_t below = 0;
      for (uint64_t i = 0; i < d; i++) {
        r->adj[base + i] = (uint32_t)(keys[i] >> 32);
        if (r->from) r->from[base + i] = (uint32_t)keys[i]; /* a degree is below 2^32 */
        below += (uint64_t)(keys[i] >> 32) < (uint64_t)s;
      }
      r->up[s] = base + below;
    }
    free(keys);
  }
  return oom ? -1 : 0;
}

void wm_orbit_ranked_free(wm_orbit_ranked *r) {
  free(r->old);
  free(r->offsets);
  free(r->up);
  free(r->adj);
  free(r->from);
  memset(r, 0, sizeof *r); /* freed twice is harmless */
}

int wm_orbit_ranked_init(const wm_graph *g, int with_from, wm_orbit_ranked *r) {
  const size_t n = g->n ? g->n : 1, m = g->m ? g->m : 1;
  memset(r, 0, sizeof *r);
  r->n = g->n, r->g_offsets = g->offsets;
  r->old = malloc(n * sizeof *r->old);
  r->offsets = malloc((n + 1) * sizeof *r->offsets);
  r->up = malloc(n * sizeof *r->up);
  r->adj = malloc(m * sizeof *r->adj);
  r->from = with_from ? malloc(m * sizeof *r->from) : NULL;
  uint32_t *rank = malloc(n * sizeof *rank);
  const int ok = r->old && r->offsets && r->up && r->adj && (r->from || !with_from) && rank &&
                 !rank_vertices(g, r, rank) && !fill_rows(g, r, rank);
  free(rank);
  if (!ok) wm_orbit_ranked_free(r);
  return ok ? 0 : -1;
}
