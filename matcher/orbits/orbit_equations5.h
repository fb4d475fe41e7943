/* The equations of the 5-vertex orbit formula (orbit_equations5.c), shared
 * by its executors (orbit_formula5.c): for each labelled connected 4-vertex
 * set S with x at position 0 (its edge mask over positions 0..3), which
 * parts U of S add to which equation, and how the equations give the
 * induced counts of orbits 15..72. */
#ifndef WM_ORBIT_EQUATIONS5_H
#define WM_ORBIT_EQUATIONS5_H

#include "orbits.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FIRST5 15
#define ORBITS5 (WM_ORBIT_MAX - FIRST5) /* 58: orbits 15..72 */
#define MASKS4 64                       /* the pairs of 4 positions */

static inline unsigned wm_o5_pair_bit(unsigned i, unsigned j) { return j * (j - 1) / 2 + i; } /* i < j */
/* The bit of the pair {i, j} in either order. */
static inline unsigned wm_o5_pair_bit_of(unsigned i, unsigned j) {
  return i < j ? wm_o5_pair_bit(i, j) : wm_o5_pair_bit(j, i);
}

/* A 4-vertex set's edge mask, or its subset of positions, with position i
 * moved to p[i]. */
static inline unsigned wm_o5_permute_mask(unsigned mask, const unsigned *p) {
  unsigned out = 0;
  for (unsigned j = 1; j < 4; j++)
    for (unsigned i = 0; i < j; i++)
      if (mask >> wm_o5_pair_bit(i, j) & 1u) out |= 1u << wm_o5_pair_bit_of(p[i], p[j]);
  return out;
}

static inline unsigned wm_o5_permute_set(unsigned set, const unsigned *p) {
  unsigned out = 0;
  for (unsigned i = 0; i < 4; i++)
    if (set >> i & 1u) out |= 1u << p[i];
  return out;
}

/* The class of (S's mask, U) under the relabellings perms[0..k) (those
 * that keep the counted vertex or edge in place): the least of the keys
 * mask | U << 6. */
static inline unsigned wm_o5_least_key(unsigned mask, unsigned u, const unsigned (*perms)[4], unsigned k) {
  unsigned best = ~0u;
  for (unsigned i = 0; i < k; i++) {
    const unsigned key = wm_o5_permute_mask(mask, perms[i]) | wm_o5_permute_set(u, perms[i]) << 6;
    if (key < best) best = key;
  }
  return best;
}

/* Whether the 4 positions are connected by mask's edges. */
static inline int wm_o5_connected4(unsigned mask) {
  unsigned seen = 1, grown = 1;
  while (grown) {
    grown = 0;
    for (unsigned j = 1; j < 4; j++)
      for (unsigned i = 0; i < j; i++)
        if ((mask >> wm_o5_pair_bit(i, j) & 1u) && ((seen >> i ^ seen >> j) & 1u)) seen |= 1u << i | 1u << j, grown = 1;
  }
  return seen == 15u;
}

typedef struct wm_o5_use {
  uint8_t u;      /* U as a bit set of S's positions */
  uint8_t row;    /* the equation it adds to (its orbit - FIRST5) */
  uint8_t inside; /* S's own vertices adjacent to all of U */
  uint8_t size;   /* |U| */
} wm_o5_use;

/* The 4-star's orbits have no class whose S is not a 3-star (the walk
 * skips those sets): their equations are the non-induced 4-stars with x as
 * centre, C(d(x), 4), or as a leaf, the sum over x's neighbours c of
 * C(d(c) - 1, 3), from the degrees (wm_o5_solve). */
#define WM_O5_CLOSED UINT32_MAX
enum { WM_O5_CENTRE = 1, WM_O5_LEAF = 2 };

typedef struct wm_o5_equations {
  /* uses[mask][0, nuse): those with position 3 in U first (the first nper3
   * with at most one other position, counted per v3; then those counted per
   * pattern of v3), those without it from nuse3 on */
  uint8_t nuse[MASKS4], nuse3[MASKS4], nper3[MASKS4];
  wm_o5_use uses[MASKS4][15];
  uint32_t key[ORBITS5];          /* each equation's class of (S, x, U), or WM_O5_CLOSED */
  uint8_t closed[ORBITS5];        /* the 4-star's rows: WM_O5_CENTRE or WM_O5_LEAF, else 0 */
  uint16_t coef[ORBITS5][ORBITS5]; /* M[row][orbit - FIRST5] */
  uint8_t order[ORBITS5];          /* orbits - FIRST5, densest graphlet first */
} wm_o5_equations;

/* The equations from the drawings (t), checked triangular by edge count. */
int wm_o5_derive(const wm_orbit_tables *t, wm_o5_equations *q, wm_error *err);
/* I[o - FIRST5] for x from its sums e[row] (the closed rows' added from
 * the degrees), each division checked (a count past 2^127 is the overflow
 * error naming x and the orbit). */
int wm_o5_solve(const wm_graph *g, const wm_o5_equations *q, uint32_t x, const wm_i128 *e, wm_i128 *I, wm_error *err);
/* The same for any M (coef, rows by orbit - FIRST5) triangular in `order`
 * (orbits - FIRST5, solved first to last); closed: q->closed's rows, or
 * NULL where none adds the 4-stars. */
int wm_o5_solve_rows(const wm_graph *g, const uint16_t (*coef)[ORBITS5], const uint8_t *order, const uint8_t *closed,
                     uint32_t x, const wm_i128 *e, wm_i128 *I, wm_error *err);
/* The positions of S (mask) adjacent to position v. */
unsigned wm_o5_neighbours_in(unsigned mask, unsigned v);
/* S (mask) is a 3-star: no equation reads these sets, so the walk never
 * makes them. */
int wm_o5_is_star(unsigned mask);

/* A task of the walk: the sets of x whose v1 is N(x)[begin, end); part
 * indexes its sums where they are kept apart (a hub's parts; every task
 * on the GPU), else WM_O5_WHOLE. */
#define WM_O5_WHOLE UINT32_MAX
typedef struct wm_o5_task {
  uint32_t x, begin, end, part;
} wm_o5_task;

/* Every task's sums (sums[i * ORBITS5 + row], of[i] set where one passed
 * 2^127) on the current CUDA device, or with gpus > 1 on devices
 * 0..gpus-1 (the tasks dealt in turn; fewer devices than that is
 * WM_EDEVICE), reading g where gg (may be NULL) holds it on a device;
 * tri: the triangles per arc; bits: the adjacency matrix or NULL.
 * *kernel_ms gets the slowest device's kernel time added.  Every CUDA
 * failure is WM_EDEVICE (gpu_orbit_sums5.cu; without CUDA, "built without
 * CUDA"). */
int wm_o5_sums_gpu(const wm_graph *g, const wm_o5_equations *q, const uint32_t *tri, const uint64_t *bits,
                   const wm_o5_task *tasks, uint32_t ntasks, int gpus, const struct wm_gpu_graph *gg, wm_i128 *sums,
                   int *of, double *kernel_ms, wm_error *err);

#ifdef __cplusplus
}
#endif

#endif
