/* The 5-vertex orbits' sums over cliques (issue 43): per vertex and per
 * edge, what the non-induced counts of the graphlets made of 4-cliques and
 * triangles read (orbit_noninduced5.c), from one pass that finds each
 * triangle once, from its top edge, with the 4-cliques on that edge, as
 * the 5-vertex motif totals do (motif_sums_cpu.c, pass 4), and credits
 * each vertex and edge involved instead of adding one total.  The cost is
 * that pass's, not a walk of every vertex's own 4-cliques. */
#ifndef WM_ORBIT_CLIQUES5_H
#define WM_ORBIT_CLIQUES5_H

#include "orbits.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Per vertex x of g (w_T: the 4-cliques on triangle T, i.e. the common
 * neighbours of its three vertices; L_T those neighbours):
 *   s61 = the sum over x's triangles x, a, b of (t_xa - 1)(t_xb - 1) - w
 *   s66 = the sum over triangles T with x in L_T of the sum of T's t - 6
 *   s70 = the sum over triangles T with x in L_T of w_T - 1
 *   s71 = the sum over x's triangles of C(w, 2)
 *   k5  = x's 5-cliques
 * and per arc of g, k4e = the 4-cliques on its edge. */
typedef struct wm_orbit_clique_sums {
  uint64_t *s61, *s66, *s70, *s71, *k5; /* g->n each */
  uint64_t *k4e;                        /* g->m */
} wm_orbit_clique_sums;

/* Fills s (arrays allocated by the caller, any contents) for the
 * undirected g whose tri holds every arc's triangles.  A sum past
 * 2^64 - 1 is WM_EINPUT, an interrupt WM_EINTERRUPTED. */
int wm_orbit_clique_sums_cpu(const wm_graph *g, wm_orbit_clique_sums *s, wm_error *err);
/* The same with the top edges shared with the other processes of share
 * (NULL: as above), which call it alike; each returns the whole sums, and
 * the processes' common result (orbit_share5.h: an interrupt of any is
 * WM_EINTERRUPTED on all). */
struct wm_share;
int wm_orbit_clique_sums_cpu_shared(const wm_graph *g, const struct wm_share *share, wm_orbit_clique_sums *s,
                                    wm_error *err);
/* The same on the current CUDA device (gpu_orbit_cliques5.cu), s equal to
 * the CPU's: gg is g on the device (ranked by degree there), or NULL (g is
 * uploaded); kernel_ms (or NULL) gets the kernels' time added.
 * With gpus > 1, over devices 0..gpus-1 where they reach device 0 with
 * peer atomics (each ranks g itself; the top edges taken from device 0's
 * counters; the devices' sums added exactly), else on the current device
 * alone.  A build without CUDA, no device or fewer than gpus is
 * WM_EDEVICE. */
struct wm_gpu_graph;
int wm_orbit_clique_sums_gpu(const wm_graph *g, const struct wm_gpu_graph *gg, int gpus, wm_orbit_clique_sums *s,
                             double *kernel_ms, wm_error *err);

#ifdef __cplusplus
}
#endif

#endif
