/* The CSR graph: allocation, id mapping, and the builder from arc lists.
 *
 * The builder is the one path by which every reader and generator makes a
 * graph, so it is written for scale-25 Kronecker inputs (half a billion
 * arcs): peak memory is the caller's arc arrays plus 6 bytes per stored
 * entry (the adjacency array and 16-bit bucket keys), and no pass scatters
 * at random over the whole array. */
#define _DEFAULT_SOURCE /* madvise */
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "graph_internal.h"

uint64_t wm_graph_edges(const wm_graph *g) {
  return (g->flags & WM_GRAPH_DIRECTED) ? g->m : g->m / 2;
}

void *wm_alloc_big(size_t bytes) {
  enum { HUGE = 2 << 20 };
  if (bytes < 2 * HUGE) return malloc(bytes ? bytes : 1);
  size_t rounded = (bytes + HUGE - 1) / HUGE * HUGE;
  void *p = aligned_alloc(HUGE, rounded);
#ifdef MADV_HUGEPAGE
  if (p) madvise(p, rounded, MADV_HUGEPAGE); /* advice only: failure is harmless */
#endif
  return p;
}

wm_graph *wm_graph_alloc_offsets(uint32_t n) {
  wm_graph *g = calloc(1, sizeof *g);
  if (!g) return NULL;
  g->n = n;
  size_t bytes = ((size_t)n + 1) * sizeof *g->offsets;
  g->offsets = wm_alloc_big(bytes);
  if (g->offsets) memset(g->offsets, 0, bytes);
  if (!g->offsets) {
    free(g);
    return NULL;
  }
  return g;
}

wm_graph *wm_graph_create(uint32_t n, uint64_t m) {
  wm_graph *g = wm_graph_alloc_offsets(n);
  if (!g) return NULL;
  g->m = m;
  g->adj = wm_alloc_big((m ? m : 1) * sizeof *g->adj);
  if (!g->adj) {
    wm_graph_destroy(g);
    return NULL;
  }
  return g;
}

void wm_graph_destroy(wm_graph *g) {
  if (!g) return;
  free(g->offsets);
  free(g->adj);
  free(g->orig_ids);
  free(g);
}

uint32_t wm_graph_file_id(const wm_graph *g, uint32_t v) {
  if (v >= g->n) return WM_NO_VERTEX;
  return g->orig_ids ? g->orig_ids[v] : v;
}

uint32_t wm_graph_internal_id(const wm_graph *g, uint64_t file_id) {
  if (file_id > WM_MAX_VERTEX_ID) return WM_NO_VERTEX;
  if (!g->orig_ids) return file_id < g->n ? (uint32_t)file_id : WM_NO_VERTEX;
  if (g->flags & WM_GRAPH_DEGREE_SORTED) {
    /* Relabelled: orig_ids is a permutation, not ascending.  One look-up
     * per command line argument, so a scan is fine. */
    for (uint32_t v = 0; v < g->n; v++)
      if (g->orig_ids[v] == file_id) return v;
    return WM_NO_VERTEX;
  }
  uint32_t lo = 0, hi = g->n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (g->orig_ids[mid] < file_id) lo = mid + 1;
    else hi = mid;
  }
  return (lo < g->n && g->orig_ids[lo] == file_id) ? lo : WM_NO_VERTEX;
}

/* ---- builder -------------------------------------------------------- */

static uint32_t max_vertex(const uint32_t *src, const uint32_t *dst, uint64_t count) {
  uint32_t mx = 0;
#pragma omp parallel for reduction(max : mx) schedule(static) num_threads(wm_par_threads(count, WM_PAR_GRAIN))
  for (uint64_t i = 0; i < count; i++) {
    uint32_t a = src[i] > dst[i] ? src[i] : dst[i];
    if (a > mx) mx = a;
  }
  return mx;
}

/* The arcs are placed in two passes so that no pass scatters at random
 * over the whole adjacency array (a cache miss per arc, the cost that
 * dominates a naive counting sort at scale 25):
 *   1. radix partition by the source's high bits into B buckets of 2^shift
 *      vertices each, every thread writing its own sub-range of each bucket
 *      (histograms, then one scan: no atomics, deterministic);
 *   2. per bucket, radix passes by neighbour then a counting sort by the
 *      low bits (rows come out sorted), dedupe, all in a cache-sized region;
 * then the buckets, each now compact at its start, are moved to their final
 * place (in order: every destination lies at or before its source). */
typedef struct builder {
  const uint32_t *src, *dst;
  uint64_t count;
  int directed;
  uint32_t n, shift, buckets;
  uint32_t passes; /* radix passes of RADIX_BITS that cover ids < n */
  int threads;
  uint64_t *cursor; /* threads x buckets: pass 1 write positions */
  uint64_t *start;  /* buckets + 1: region of each bucket in adj */
  uint64_t *len;    /* buckets: entries left in each after dedupe */
  uint32_t *adj;    /* neighbour of each entry */
  uint16_t *low;    /* source's low bits of each entry, for pass 2 */
} builder;

static uint32_t pick_shift(uint32_t n) {
  uint32_t bits = 0;
  while (bits < 32 && ((uint64_t)1 << bits) < n) bits++;
  /* About 4096 buckets: few enough write streams per thread for pass 1,
   * small enough regions (for average degrees) to stay in cache in pass 2. */
  uint32_t shift = bits > 12 ? bits - 12 : 0;
  return shift > 16 ? 16 : shift;
}

static void thread_slice(const builder *b, int t, uint64_t *lo, uint64_t *hi) {
  *lo = b->count * (uint64_t)t / (uint64_t)b->threads;
  *hi = b->count * (uint64_t)(t + 1) / (uint64_t)b->threads;
}

/* Pass 1a: per-thread bucket histograms, then offsets of every sub-range. */
static uint64_t partition_plan(builder *b) {
#pragma omp parallel num_threads(b->threads)
  {
    int t = omp_get_thread_num();
    uint64_t *h = b->cursor + (size_t)t * b->buckets, lo, hi;
    thread_slice(b, t, &lo, &hi);
    for (uint64_t i = lo; i < hi; i++) {
      uint32_t s = b->src[i], d = b->dst[i];
      if (s == d) continue;
      h[s >> b->shift]++;
      if (!b->directed) h[d >> b->shift]++;
    }
  }
  uint64_t pos = 0;
  for (uint32_t k = 0; k < b->buckets; k++) {
    b->start[k] = pos;
    for (int t = 0; t < b->threads; t++) {
      uint64_t *c = b->cursor + (size_t)t * b->buckets + k, x = *c;
      *c = pos;
      pos += x;
    }
  }
  b->start[b->buckets] = pos;
  return pos;
}

/* Pass 1b: every thread rereads its slice and appends to its sub-ranges. */
static void partition_fill(builder *b) {
  uint16_t mask = (uint16_t)((1u << b->shift) - 1);
#pragma omp parallel num_threads(b->threads)
  {
    int t = omp_get_thread_num();
    uint64_t *c = b->cursor + (size_t)t * b->buckets, lo, hi;
    thread_slice(b, t, &lo, &hi);
    for (uint64_t i = lo; i < hi; i++) {
      uint32_t s = b->src[i], d = b->dst[i];
      if (s == d) continue;
      uint64_t p = c[s >> b->shift]++;
      b->adj[p] = d;
      b->low[p] = (uint16_t)(s & mask);
      if (!b->directed) {
        p = c[d >> b->shift]++;
        b->adj[p] = s;
        b->low[p] = (uint16_t)(d & mask);
      }
    }
  }
}

/* Per-thread scratch of pass 2, grown on demand (hub buckets are large):
 * two (neighbour, low bits) arrays to radix-sort between, and counters. */
typedef struct scratch {
  uint32_t *v[2];
  uint16_t *l[2];
  uint64_t cap;
  uint64_t *cnt; /* max(2^shift, RADIX) + 1 counters */
} scratch;

enum { RADIX_BITS = 11, RADIX = 1 << RADIX_BITS, RADIX_MIN_LEN = 4096 };

static int grow_scratch(scratch *sc, uint64_t len) {
  if (len <= sc->cap) return 0;
  uint64_t cap = len > 2 * sc->cap ? len : 2 * sc->cap;
  for (int i = 0; i < 2; i++) {
    free(sc->v[i]);
    free(sc->l[i]);
    sc->v[i] = malloc(cap * sizeof *sc->v[i]);
    sc->l[i] = malloc(cap * sizeof *sc->l[i]);
  }
  if (!sc->v[0] || !sc->v[1] || !sc->l[0] || !sc->l[1]) {
    sc->cap = 0;
    return -1;
  }
  sc->cap = cap;
  return 0;
}

/* Stable counting sort of `len` entries into out by the key each entry's
 * key() gives (< nkeys); cnt ends up holding the end of each key's run. */
#define COUNTING_SORT(len, nkeys, key, place)                        \
  do {                                                               \
    memset(sc->cnt, 0, ((size_t)(nkeys) + 1) * sizeof *sc->cnt);     \
    for (uint64_t e_ = 0; e_ < (len); e_++) sc->cnt[(key(e_)) + 1]++; \
    for (uint64_t r_ = 0; r_ < (nkeys); r_++) sc->cnt[r_ + 1] += sc->cnt[r_]; \
    for (uint64_t e_ = 0; e_ < (len); e_++) {                        \
      uint64_t at_ = sc->cnt[(key(e_))]++;                           \
      place(e_, at_);                                                \
    }                                                                \
  } while (0)

/* Orders the bucket's entries by (row, neighbour) into sc->v[*out]: LSD
 * radix passes over the neighbour (branch-free, unlike comparison sorts on
 * hub rows), then a stable pass by row.  Small buckets skip the neighbour
 * passes and sort each row instead. */
static int order_bucket(const builder *b, uint64_t s0, uint64_t len, uint32_t rows, scratch *sc,
                        int *out) {
  if (grow_scratch(sc, len) != 0) return -1;
  const uint32_t *sv = b->adj + s0;
  const uint16_t *sl = b->low + s0;
  int cur = 0, radix = len >= RADIX_MIN_LEN;
  for (uint32_t p = 0; radix && p < b->passes; p++) {
    uint32_t *dv = sc->v[cur];
    uint16_t *dl = sc->l[cur];
    uint32_t sh = p * RADIX_BITS;
#define DIGIT(e) ((sv[e] >> sh) & (RADIX - 1))
#define PUT(e, at) (dv[at] = sv[e], dl[at] = sl[e])
    COUNTING_SORT(len, RADIX, DIGIT, PUT);
#undef DIGIT
#undef PUT
    sv = dv;
    sl = dl;
    cur ^= 1;
  }
  uint32_t *dv = sc->v[cur];
#define ROW(e) (sl[e])
#define PUT(e, at) (dv[at] = sv[e])
  COUNTING_SORT(len, rows, ROW, PUT);
#undef ROW
#undef PUT
  if (!radix) {
    for (uint32_t r = 0, from = 0; r < rows; from = (uint32_t)sc->cnt[r++])
      wm_sort_u32(dv + from, (size_t)(sc->cnt[r] - from));
  }
  *out = cur;
  return 0;
}

/* Pass 2 for bucket k: order its entries, dedupe each row, write the rows
 * back compactly from the bucket's start; row degrees go to offsets[v] (a
 * prefix sum turns them into offsets). */
static int sort_bucket(builder *b, uint32_t k, scratch *sc, uint64_t *offsets) {
  uint64_t s0 = b->start[k], len = b->start[k + 1] - s0;
  uint32_t v0 = k << b->shift;
  uint32_t rows = b->n - v0 < (1u << b->shift) ? b->n - v0 : (1u << b->shift);
  if (len == 0) { /* no arcs: the scratch arrays may not exist yet (NULL) */
    memset(offsets + v0, 0, rows * sizeof *offsets);
    b->len[k] = 0;
    return 0;
  }
  int cur;
  if (order_bucket(b, s0, len, rows, sc, &cur) != 0) return -1;
  /* cnt[r] ends row r; row r starts where row r-1 ends. */
  uint64_t w = s0, from = 0;
  for (uint32_t r = 0; r < rows; r++) {
    uint32_t *row = sc->v[cur] + from;
    size_t d = wm_unique_u32(row, (size_t)(sc->cnt[r] - from));
    from = sc->cnt[r];
    if (d) memcpy(b->adj + w, row, d * sizeof *row);
    offsets[v0 + r] = d;
    w += d;
  }
  b->len[k] = w - s0;
  return 0;
}

static int sort_buckets(builder *b, uint64_t *offsets) {
  int bad = 0;
#pragma omp parallel num_threads(b->threads) reduction(| : bad)
  {
    size_t ncnt = ((size_t)1 << b->shift) > RADIX ? ((size_t)1 << b->shift) : RADIX;
    scratch sc = {.cnt = malloc((ncnt + 1) * sizeof(uint64_t))};
    if (!sc.cnt) bad = 1;
#pragma omp for schedule(dynamic, 1)
    for (uint32_t k = 0; k < b->buckets; k++)
      if (!bad && sort_bucket(b, k, &sc, offsets) != 0) bad = 1;
    for (int i = 0; i < 2; i++) {
      free(sc.v[i]);
      free(sc.l[i]);
    }
    free(sc.cnt);
  }
  return bad ? -1 : 0;
}

/* Closes the gaps the duplicates left and shrinks adj to m entries. */
static void close_gaps(builder *b, wm_graph *g) {
  g->offsets[b->n] = 0;
  g->m = wm_prefix_sum_u64(g->offsets, (size_t)b->n + 1);
  for (uint32_t k = 0; k < b->buckets; k++) {
    uint64_t to = g->offsets[k << b->shift];
    if (to != b->start[k]) memmove(b->adj + to, b->adj + b->start[k], b->len[k] * sizeof *b->adj);
  }
  g->adj = b->adj;
  if (g->m < b->start[b->buckets]) {
    uint32_t *shrunk = realloc(b->adj, (g->m ? g->m : 1) * sizeof *b->adj);
    if (shrunk) g->adj = shrunk;
  }
}

static int build_csr(const uint32_t *src, const uint32_t *dst, uint64_t count, int directed,
                     wm_graph *g) {
  builder b = {.src = src, .dst = dst, .count = count, .directed = directed, .n = g->n,
               .threads = wm_par_threads(count, WM_PAR_GRAIN)};
  b.shift = pick_shift(g->n);
  b.buckets = g->n ? ((g->n - 1) >> b.shift) + 1 : 0;
  for (uint64_t top = g->n > 1 ? g->n - 1 : 0; top; top >>= RADIX_BITS) b.passes++;
  b.cursor = calloc((size_t)b.threads * b.buckets + 1, sizeof *b.cursor);
  b.start = malloc(((size_t)b.buckets + 1) * sizeof *b.start);
  b.len = malloc(((size_t)b.buckets + 1) * sizeof *b.len);
  int rc = -1;
  if (b.cursor && b.start && b.len) {
    b.start[0] = 0; /* the end of no buckets, for a graph without vertices */
    uint64_t total = g->n ? partition_plan(&b) : 0;
    b.adj = wm_alloc_big((total ? total : 1) * sizeof *b.adj);
    b.low = wm_alloc_big((total ? total : 1) * sizeof *b.low);
    if (b.adj && b.low) {
      partition_fill(&b);
      free(b.cursor);
      b.cursor = NULL;
      rc = sort_buckets(&b, g->offsets);
    }
    free(b.low);
    if (rc == 0) close_gaps(&b, g);
    else free(b.adj);
  }
  free(b.cursor);
  free(b.start);
  free(b.len);
  return rc;
}

int wm_graph_from_arcs(uint32_t *src, uint32_t *dst, uint64_t count, uint64_t n_hint,
                       int directed, wm_graph **out, wm_error *err) {
  *out = NULL;
  if (n_hint > (uint64_t)WM_MAX_VERTEX_ID + 1)
    return wm_fail(err, WM_EINPUT, "%llu vertices declared, at most %llu are supported",
                   (unsigned long long)n_hint, (unsigned long long)WM_MAX_VERTEX_ID + 1);
  uint32_t max_id = count ? max_vertex(src, dst, count) : 0;
  if (count && max_id > WM_MAX_VERTEX_ID)
    return wm_fail(err, WM_EINPUT, "vertex id %lu is above the largest supported id %lu",
                   (unsigned long)max_id, (unsigned long)WM_MAX_VERTEX_ID);
  uint32_t n = 0, *orig = NULL;
  if (n_hint) {
    if (count && max_id >= n_hint)
      return wm_fail(err, WM_EINPUT, "vertex id %lu is out of range: the graph has %llu vertices (0..%llu)",
                     (unsigned long)max_id, (unsigned long long)n_hint,
                     (unsigned long long)n_hint - 1);
    n = (uint32_t)n_hint;
  } else if (count) {
    if (wm_compact_ids(src, dst, count, max_id, &n, &orig) != 0)
      return wm_fail(err, WM_EINPUT, "out of memory while numbering %llu arcs' vertices",
                     (unsigned long long)count);
  }
  wm_graph *g = wm_graph_alloc_offsets(n);
  if (!g || build_csr(src, dst, count, directed, g) != 0) {
    free(orig);
    wm_graph_destroy(g);
    return wm_fail(err, WM_EINPUT, "out of memory while building a graph of %llu arcs",
                   (unsigned long long)count);
  }
  g->orig_ids = orig;
  g->flags = directed ? WM_GRAPH_DIRECTED : 0;
  *out = g;
  return WM_OK;
}
