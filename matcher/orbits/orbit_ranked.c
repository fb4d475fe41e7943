/* The graph by degree order (orbit_ranked.h).  Rows are filled by every
 * thread at once, each its share of the arcs. */
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

/* The rows by rank: each rank s, in ascending order, appended to its
 * neighbours' rows, which come out sorted; a row's entries below it are
 * those present when its own turn comes.  Each thread fills the rows of
 * its share of the arcs, reading every rank's (the writes, scattered, are
 * the cost). */
static void fill_rows(const wm_graph *g, wm_orbit_ranked *r, const uint32_t *rank, uint64_t *pos) {
  r->offsets[0] = 0;
  for (uint32_t s = 0; s < r->n; s++) r->offsets[s + 1] = r->offsets[s] + deg(g, r->old[s]);
  memcpy(pos, r->offsets, (size_t)r->n * sizeof *pos);
#pragma omp parallel
  {
    const int t = omp_get_thread_num(), T = omp_get_num_threads();
    const uint32_t lo = wm_orbit_share_start(r->offsets, r->n, t, T);
    const uint32_t hi = wm_orbit_share_start(r->offsets, r->n, t + 1, T);
    for (uint32_t s = 0; s < r->n; s++) {
      const uint32_t v = r->old[s];
      if (s >= lo && s < hi) r->up[s] = pos[s];
      for (uint64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++) {
        const uint32_t to = rank[g->adj[e]];
        if (to < lo || to >= hi) continue;
        const uint64_t q = pos[to]++;
        r->adj[q] = s;
        if (r->from) r->from[q] = (uint32_t)(e - g->offsets[v]); /* a degree is below 2^32 */
      }
    }
  }
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
  uint64_t *pos = malloc(n * sizeof *pos);
  int ok = r->old && r->offsets && r->up && r->adj && (r->from || !with_from) && rank && pos &&
           !rank_vertices(g, r, rank);
  if (ok) fill_rows(g, r, rank, pos);
  free(rank);
  free(pos);
  if (!ok) wm_orbit_ranked_free(r);
  return ok ? 0 : -1;
}
