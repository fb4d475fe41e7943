/* Synthetic graphs: Graph500 Kronecker and R-MAT.
 *
 * Both draw each edge's endpoints bit by bit: at every level the edge falls
 * into one quadrant of the adjacency matrix (A top-left, B top-right, C
 * bottom-left, D bottom-right), exactly as the Graph500 reference
 * (kronecker_generator.m) does it, with P(A) = a, P(B) = b, P(C) = c,
 * P(D) = 1 - a - b - c.  Kronecker then relabels the vertices by a
 * random permutation so that the ids carry no locality.
 *
 * Every random number is a pure function of (seed, purpose, edge index,
 * level): a counter-based splitmix64 stream.  The graph therefore depends
 * only on the options, never on the number of OpenMP threads or on how the
 * edge loop is scheduled. */
#include <math.h>
#include <stdlib.h>

#include "base.h"
#include "datasets.h"
#include "gen_random.h"

/* Separate streams for the edges and the permutation, so that changing one
 * never shifts the other. */
static const uint64_t STREAM_EDGES = 0x6564676573ull; /* "edges" */
static const uint64_t STREAM_PERM = 0x7065726dull;    /* "perm" */

void wm_gen_kron_defaults(wm_gen_options *o, unsigned scale, uint64_t seed) {
  o->scale = scale;
  o->edge_factor = 16;
  o->a = 0.57;
  o->b = 0.19;
  o->c = 0.19;
  o->seed = seed;
  o->permute = 1;
}

void wm_gen_rmat_defaults(wm_gen_options *o, unsigned scale, uint64_t seed) {
  o->scale = scale;
  o->edge_factor = 16;
  o->a = 0.45;
  o->b = 0.15;
  o->c = 0.15;
  o->seed = seed;
  o->permute = 0;
}

static int check_options(const wm_gen_options *o, wm_error *err) {
  if (o->scale < 1 || o->scale > WM_GEN_MAX_SCALE)
    return wm_fail(err, WM_EUSAGE,
                   "generator: scale must be 1..%u (n = 2^scale vertices with 32-bit ids), got %u",
                   WM_GEN_MAX_SCALE, o->scale);
  if (o->edge_factor < 1 || o->edge_factor > WM_GEN_MAX_EDGE_FACTOR)
    return wm_fail(err, WM_EUSAGE, "generator: edge factor must be 1..%u, got %u",
                   WM_GEN_MAX_EDGE_FACTOR, o->edge_factor);
  const double p[3] = {o->a, o->b, o->c};
  const char *name[3] = {"a", "b", "c"};
  for (int i = 0; i < 3; i++)
    if (!(p[i] >= 0.0 && p[i] <= 1.0))
      return wm_fail(err, WM_EUSAGE, "generator: probability %s must be in [0, 1], got %g",
                     name[i], p[i]);
  if (o->a + o->b + o->c > 1.0 + 1e-9)
    return wm_fail(err, WM_EUSAGE,
                   "generator: a + b + c must be at most 1 (d = 1 - a - b - c), got %g",
                   o->a + o->b + o->c);
  return WM_OK;
}

/* Probability p as a threshold on a uniform 32-bit number: u < t  <=>  true
 * with probability p (to 2^-32). */
static uint64_t threshold32(double p) {
  if (p <= 0.0) return 0;
  if (p >= 1.0) return 1ull << 32;
  return (uint64_t)llround(p * 4294967296.0);
}

/* One level picks a quadrant with one uniform 32-bit number x: A when
 * x < ta, B when x < tab, C when x < tabc, else D.  This is the Graph500
 * distribution (row bit, then column bit given the row) in one draw. */
typedef struct quadrant_thresholds {
  uint64_t ta, tab, tabc;
} quadrant_thresholds;

static quadrant_thresholds make_thresholds(const wm_gen_options *o) {
  quadrant_thresholds t;
  t.ta = threshold32(o->a);
  t.tab = threshold32(o->a + o->b);
  t.tabc = threshold32(o->a + o->b + o->c);
  return t;
}

/* Fisher-Yates over 0..n-1.  Sequential, but n is 16x smaller than the edge
 * count and one pass costs far less than generating the edges. */
static uint32_t *random_permutation(uint64_t n, uint64_t seed) {
  uint32_t *perm = malloc(n * sizeof *perm);
  if (!perm) return NULL;
  for (uint64_t i = 0; i < n; i++) perm[i] = (uint32_t)i;
  uint64_t key = wm_gen_stream_key(seed, STREAM_PERM), ctr = 0;
  for (uint64_t i = n - 1; i > 0; i--) {
    uint32_t j = wm_gen_below32(key, &ctr, (uint32_t)(i + 1));
    uint32_t t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  return perm;
}

/* Quadrant 0..3 (A, B, C, D) for the uniform 32-bit number x. */
static inline uint32_t quadrant(uint64_t x, const quadrant_thresholds *t) {
  return (uint32_t)(x >= t->ta) + (uint32_t)(x >= t->tab) + (uint32_t)(x >= t->tabc);
}

/* Edge e's endpoints: one 64-bit draw serves two levels.  The quadrant's
 * high bit is the row (source) bit, its low bit the column (target) bit. */
static inline void draw_edge(uint64_t key, uint64_t e, unsigned scale,
                             const quadrant_thresholds *t, uint32_t *src, uint32_t *dst) {
  uint64_t base = wm_gen_item_key(key, e);
  uint32_t u = 0, v = 0;
  for (unsigned level = 0; level < scale; level += 2) {
    uint64_t r = wm_gen_mix64(base + (uint64_t)(level + 1) * WM_GEN_GOLDEN);
    uint32_t q0 = quadrant(r & 0xFFFFFFFFull, t), q1 = quadrant(r >> 32, t);
    u |= (q0 >> 1) << level | (q1 >> 1) << (level + 1);
    v |= (q0 & 1) << level | (q1 & 1) << (level + 1);
  }
  /* An odd scale drew one level too many (level + 1 <= 31: no overflow). */
  uint32_t mask = (uint32_t)((1ull << scale) - 1);
  *src = u & mask;
  *dst = v & mask;
}

int wm_generate(const wm_gen_options *o, wm_graph **out, wm_error *err) {
  *out = NULL;
  int rc = check_options(o, err);
  if (rc) return rc;
  uint64_t n = 1ull << o->scale;
  uint64_t count = (uint64_t)o->edge_factor * n;
  if (count > SIZE_MAX / sizeof(uint32_t))
    return wm_fail(err, WM_EINPUT, "generator: %llu edges do not fit in memory on this host",
                   (unsigned long long)count);

  uint32_t *src = malloc(count * sizeof *src);
  uint32_t *dst = malloc(count * sizeof *dst);
  uint32_t *perm = o->permute ? random_permutation(n, o->seed) : NULL;
  if (!src || !dst || (o->permute && !perm)) {
    free(src);
    free(dst);
    free(perm);
    return wm_fail(err, WM_EINPUT,
                   "generator: out of host memory for %llu edges at scale %u (needs about %llu MiB)",
                   (unsigned long long)count, o->scale,
                   (unsigned long long)((count * 8 + n * 4) >> 20));
  }

  const quadrant_thresholds t = make_thresholds(o);
  const uint64_t key = wm_gen_stream_key(o->seed, STREAM_EDGES);
  const unsigned scale = o->scale;
  /* Each edge is a pure function of its index, so the schedule is free. */
  const int64_t block = 1 << 16;
  const int64_t blocks = ((int64_t)count + block - 1) / block;
  wm_progress progress;
  wm_progress_init(&progress, "generating edges", count, 1);
#pragma omp parallel for schedule(static)
  for (int64_t b = 0; b < blocks; b++) {
    const int64_t end = (b + 1) * block < (int64_t)count ? (b + 1) * block : (int64_t)count;
    if (wm_progress_stopped(&progress)) continue;
    for (int64_t e = b * block; e < end; e++) {
      uint32_t u, v;
      draw_edge(key, (uint64_t)e, scale, &t, &u, &v);
      if (perm) {
        u = perm[u];
        v = perm[v];
      }
      src[e] = u;
      dst[e] = v;
    }
    wm_progress_add(&progress, (uint64_t)(end - b * block));
  }
  wm_progress_finish(&progress);
  free(perm);
  if (wm_progress_stopped(&progress)) {
    free(src);
    free(dst);
    return wm_interrupted(err, "generating edges");
  }

  rc = wm_graph_from_arcs(src, dst, count, n, 0, out, err);
  free(src);
  free(dst);
  return rc;
}
