/* The generators' counter-based random streams (generate.c and the
 * gen_*.c models share them).
 *
 * Every random number is a pure function of (seed, stream, index, counter):
 * a stream's key mixes the seed with the stream's name, an item's key mixes
 * the stream key with the item's index, and the item's draws are that key
 * plus a counter, mixed.  A graph therefore depends on its options only,
 * never on the number of OpenMP threads or on the loop's schedule. */
#ifndef WM_GEN_RANDOM_H
#define WM_GEN_RANDOM_H

#include <stdint.h>

#include "datasets.h"
#include "exact_count.h"

#define WM_GEN_GOLDEN 0x9E3779B97F4A7C15ull

/* splitmix64's finaliser: a bijective 64-bit mix. */
static inline uint64_t wm_gen_mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* The key of one stream (one purpose: edges, permutation, ...) of a seed,
 * so that changing how one is used never shifts another. */
static inline uint64_t wm_gen_stream_key(uint64_t seed, uint64_t stream) {
  return wm_gen_mix64(wm_gen_mix64(seed + WM_GEN_GOLDEN) ^ (stream * WM_GEN_GOLDEN));
}

/* The key of item `index` (an edge, a vertex) within a stream. */
static inline uint64_t wm_gen_item_key(uint64_t key, uint64_t index) {
  return wm_gen_mix64(key ^ (index * WM_GEN_GOLDEN));
}

/* The next 64 random bits of (key, *ctr). */
static inline uint64_t wm_gen_next(uint64_t key, uint64_t *ctr) {
  return wm_gen_mix64(key + (++*ctr) * WM_GEN_GOLDEN);
}

/* Uniform in [0, 1) with 53 random bits. */
static inline double wm_gen_unit(uint64_t key, uint64_t *ctr) {
  return (double)(wm_gen_next(key, ctr) >> 11) * 0x1p-53;
}

/* Uniform integer in [0, range), range >= 1, exactly (Lemire's method with
 * rejection); two 32-bit tries per 64-bit draw. */
static inline uint32_t wm_gen_below32(uint64_t key, uint64_t *ctr, uint32_t range) {
  for (;;) {
    uint64_t r = wm_gen_next(key, ctr);
    for (int half = 0; half < 2; half++) {
      uint64_t m = (uint64_t)(uint32_t)(r >> (32 * half)) * range;
      uint32_t low = (uint32_t)m;
      if (low >= range || low >= (uint32_t)(-range) % range) return (uint32_t)(m >> 32);
    }
  }
}

/* The same for a 64-bit range >= 1. */
static inline uint64_t wm_gen_below64(uint64_t key, uint64_t *ctr, uint64_t range) {
  for (;;) {
    wm_u128 m = (wm_u128)wm_gen_next(key, ctr) * range;
    uint64_t low = (uint64_t)m;
    if (low >= range || low >= (uint64_t)(-range) % range) return (uint64_t)(m >> 64);
  }
}

/* ---- shared by the models (gen_model.c) ---------------------------- */

/* The edge arrays a model fills (count may be 0), or an error naming their
 * size. */
int wm_gen_alloc_arcs(const char *model, uint64_t count, uint32_t **src, uint32_t **dst, wm_error *err);
/* The simple symmetric graph on 0..n-1 of the drawn edges (self-loops and
 * duplicates dropped); consumes src and dst. */
int wm_gen_finish(uint32_t *src, uint32_t *dst, uint64_t count, uint64_t n, wm_graph **out, wm_error *err);

#endif
