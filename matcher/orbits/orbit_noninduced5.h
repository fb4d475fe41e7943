/* The 5-vertex orbits through their non-induced counts (issue 43; EVOKE's
 * idea, Pashanasangi & Seshadhri 2020, the formulas here this project's):
 * for each vertex x and orbit o of 15..72, N_o(x) is the number of
 * subgraphs (edge sets, not necessarily induced) shaped as o's graphlet
 * with x in orbit o.  N comes from pieces the walks count per vertex, per
 * edge or per triangle (degrees, triangles, 4-cycles, cliques) with no
 * enumeration of 4-vertex sets, and the induced counts follow as
 * I = M^-1 N, M from the drawings (wm_orbit_copies_in) and unit triangular
 * by edge count, as the 4-vertex formula does (orbit_formula.c).
 *
 * `orbits --size 5 --method formula` runs this (orbit_formula5.c says
 * when the older walk over 4-vertex sets runs instead).  Every one of the
 * 58 orbits has its formula (wm_o5n_has), since a tree orbit's induced
 * count needs N of every denser graphlet that holds the tree.  The pieces:
 * the 4-vertex formula's aggregates (triangles per arc, 4-cycles,
 * 4-cliques and Topp per vertex) and O(m) sums of them; the clique sums
 * (orbit_cliques5.c) and the 5-cycles (orbit_cycles5.c), each from an
 * oriented walk that credits every vertex involved; and each vertex's own
 * walks over its triangles, 2-paths, diamonds by their tips (K2,3's
 * 3-side, W4 less a spoke) and the 4-cycles inside its neighbourhood (the
 * wheel), which cost the sum of d^2 and the sum over edges of t^2. */
#ifndef WM_ORBIT_NONINDUCED5_H
#define WM_ORBIT_NONINDUCED5_H

#include "orbit_equations5.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wm_o5n_matrix {
  uint16_t coef[ORBITS5][ORBITS5]; /* M[a - FIRST5][b - FIRST5]: N_a = sum over b of M[a][b] I_b */
  uint8_t order[ORBITS5];          /* orbits - FIRST5, densest graphlet first */
} wm_o5n_matrix;

/* M from the drawings (t built for 5 vertices), checked unit triangular
 * by edge count (else WM_EINPUT naming the orbit: a bug). */
int wm_o5n_derive(const wm_orbit_tables *t, wm_o5n_matrix *m, wm_error *err);
/* I[o - FIRST5] = (M^-1 N)[o] for x, in checked 128-bit arithmetic (a
 * value past 2^127 is the overflow error naming x and the orbit). */
int wm_o5n_solve(const wm_graph *g, const wm_o5n_matrix *m, uint32_t x, const wm_i128 *N, wm_i128 *I,
                 wm_error *err);

/* 1 when orbit o (15..72) has its non-induced formula here. */
int wm_o5n_has(unsigned o);
/* N[x * ORBITS5 + o - FIRST5] for every vertex x of the undirected g and
 * every orbit o with wm_o5n_has(o); 0 for the others.  A value past 2^127
 * is WM_EINPUT naming the vertex and the orbit. */
int wm_o5n_counts(const wm_graph *g, wm_i128 *N, wm_error *err);
/* Every vertex's 73 orbit counts into counts[v * wm_orbit_count(5) + o]
 * (start added): 0..14 by the 4-vertex formula and 15..72 from the
 * non-induced counts, both from one pass of aggregates; a count past
 * 2^64 - 1 is WM_EINPUT naming the vertex and the orbit, an interrupt
 * WM_EINTERRUPTED.  Where run->gpu, the aggregates, the clique sums, the
 * 5-cycles and the per-vertex walks (orbit_walks5.h) run on the current
 * CUDA device (g read where run->gpu_graph holds it, the kernels' time
 * added to *run->kernel_ms), the last three over devices 0..run->gpus-1
 * where run->gpus > 1; the solve stays on the CPU.  Else, where
 * run->share, the walks, the clique sums and the 5-cycles are shared with
 * the other processes (which call it alike), every one returning every
 * vertex's counts and the same result (an interrupt of any is
 * WM_EINTERRUPTED on all); the GPU with several processes is WM_EUSAGE. */
int wm_o5n_orbits(const wm_graph *g, const wm_orbit_run *run, uint64_t *counts, wm_error *err);
/* wm_o5n_counts with those pieces on the GPU where gpu (the tests' twin):
 * on the current device for 1, over devices 0..gpu-1 for more. */
int wm_o5n_counts_on(const wm_graph *g, int gpu, wm_i128 *N, wm_error *err);

#ifdef __cplusplus
}
#endif

#endif
