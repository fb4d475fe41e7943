/* Compaction of the vertex ids a file uses into 0..n-1, keeping their order
 * (so orig_ids is ascending and wm_graph_internal_id can binary-search it).
 *
 * Two ways, chosen by how sparse the ids are: a bitmap over 0..max_id with a
 * rank per 64-bit word (two memory touches per look-up, no sort), or, when
 * the bitmap would dwarf the arc arrays (ids spread up to 2^32 over a few
 * edges), a sort-unique of the ids and binary search. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "graph_internal.h"

static inline void mark(uint64_t *bits, uint32_t id) {
  uint64_t b = 1ull << (id & 63);
  /* Most ids repeat: a plain read first avoids a locked write per arc. */
  if (!(bits[id >> 6] & b)) __atomic_fetch_or(&bits[id >> 6], b, __ATOMIC_RELAXED);
}

/* Portable popcount: without -mpopcnt the builtin is a library call. */
static inline uint64_t popcount64(uint64_t x) {
  x = x - ((x >> 1) & 0x5555555555555555ull);
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
  return (x * 0x0101010101010101ull) >> 56;
}

static inline uint32_t rank_of(const uint64_t *bits, const uint64_t *rank, uint32_t id) {
  uint64_t below = bits[id >> 6] & ((1ull << (id & 63)) - 1);
  return (uint32_t)(rank[id >> 6] + popcount64(below));
}

static int compact_bitmap(uint32_t *src, uint32_t *dst, uint64_t count, uint32_t max_id,
                          uint32_t *n_out, uint32_t **orig_out) {
  size_t words = ((size_t)max_id >> 6) + 1;
  uint64_t *bits = calloc(words, sizeof *bits);
  uint64_t *rank = malloc(words * sizeof *rank);
  if (!bits || !rank) {
    free(bits);
    free(rank);
    return -1;
  }
#pragma omp parallel for schedule(static) num_threads(wm_par_threads(count, WM_PAR_GRAIN))
  for (uint64_t i = 0; i < count; i++) {
    mark(bits, src[i]);
    mark(bits, dst[i]);
  }
#pragma omp parallel for schedule(static) num_threads(wm_par_threads(words, WM_PAR_GRAIN))
  for (size_t w = 0; w < words; w++) rank[w] = popcount64(bits[w]);
  uint64_t n = wm_prefix_sum_u64(rank, words);
  *n_out = (uint32_t)n;
  *orig_out = NULL;
  if (n == (uint64_t)max_id + 1) { /* already 0..n-1: nothing to remap */
    free(bits);
    free(rank);
    return 0;
  }
  uint32_t *orig = malloc(n * sizeof *orig);
  if (!orig) {
    free(bits);
    free(rank);
    return -1;
  }
#pragma omp parallel for schedule(static) num_threads(wm_par_threads(words, WM_PAR_GRAIN))
  for (size_t w = 0; w < words; w++) {
    uint64_t x = bits[w], r = rank[w];
    while (x) {
      orig[r++] = (uint32_t)(w * 64 + (size_t)__builtin_ctzll(x));
      x &= x - 1;
    }
  }
#pragma omp parallel for schedule(static) num_threads(wm_par_threads(count, WM_PAR_GRAIN))
  for (uint64_t i = 0; i < count; i++) {
    src[i] = rank_of(bits, rank, src[i]);
    dst[i] = rank_of(bits, rank, dst[i]);
  }
  free(bits);
  free(rank);
  *orig_out = orig;
  return 0;
}

/* Merges T sorted, duplicate-free runs into out (duplicate-free); returns
 * the length.  T is the thread count (small), so a linear pick of the
 * smallest head is cheap. */
static size_t merge_runs(const uint32_t *buf, const size_t *lo, const size_t *hi, int T,
                         uint32_t *out) {
  size_t pos[257], w = 0;
  for (int t = 0; t < T; t++) pos[t] = lo[t];
  for (;;) {
    int best = -1;
    for (int t = 0; t < T; t++)
      if (pos[t] < hi[t] && (best < 0 || buf[pos[t]] < buf[pos[best]])) best = t;
    if (best < 0) break;
    uint32_t x = buf[pos[best]++];
    if (w == 0 || out[w - 1] != x) out[w++] = x;
  }
  return w;
}

static uint32_t find(const uint32_t *ids, size_t n, uint32_t x) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (ids[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return (uint32_t)lo;
}

static int compact_sorted(uint32_t *src, uint32_t *dst, uint64_t count, uint32_t *n_out,
                          uint32_t **orig_out) {
  size_t total = (size_t)count * 2;
  uint32_t *buf = malloc(total * sizeof *buf);
  if (!buf) return -1;
  memcpy(buf, src, count * sizeof *buf);
  memcpy(buf + count, dst, count * sizeof *buf);
  int T = wm_par_threads(count, WM_PAR_GRAIN);
  if (T > 256) T = 256;
  size_t lo[256], hi[256];
#pragma omp parallel for num_threads(T) schedule(static, 1)
  for (int t = 0; t < T; t++) {
    lo[t] = total * (size_t)t / (size_t)T;
    size_t len = total * (size_t)(t + 1) / (size_t)T - lo[t];
    wm_sort_u32(buf + lo[t], len);
    hi[t] = lo[t] + wm_unique_u32(buf + lo[t], len);
  }
  size_t distinct_bound = 0;
  for (int t = 0; t < T; t++) distinct_bound += hi[t] - lo[t];
  uint32_t *orig = malloc((distinct_bound ? distinct_bound : 1) * sizeof *orig);
  if (!orig) {
    free(buf);
    return -1;
  }
  size_t n = merge_runs(buf, lo, hi, T, orig);
  free(buf);
  uint32_t *shrunk = realloc(orig, (n ? n : 1) * sizeof *orig);
  if (shrunk) orig = shrunk;
#pragma omp parallel for schedule(static) num_threads(wm_par_threads(count, WM_PAR_GRAIN))
  for (uint64_t i = 0; i < count; i++) {
    src[i] = find(orig, n, src[i]);
    dst[i] = find(orig, n, dst[i]);
  }
  *n_out = (uint32_t)n;
  *orig_out = orig;
  return 0;
}

int wm_compact_ids(uint32_t *src, uint32_t *dst, uint64_t count, uint32_t max_id,
                   uint32_t *n_out, uint32_t **orig_out) {
  /* The bitmap plus ranks costs max_id/4 bytes and a pass over max_id/64
   * words; the sort path 8 bytes and a sort per arc.  At max_id <= 128 x
   * arcs the bitmap is at most 4x the arc arrays and its pass is shorter
   * than the sort; below 2^20 ids (256 KB) it is always cheap. */
  if (max_id <= (1u << 20) || (uint64_t)max_id / 128 <= count)
    return compact_bitmap(src, dst, count, max_id, n_out, orig_out);
  return compact_sorted(src, dst, count, n_out, orig_out);
}
