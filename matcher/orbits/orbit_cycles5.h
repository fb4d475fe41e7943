/* The 5-cycles through each vertex (orbit 34's non-induced count, issue
 * 43), by the degree-oriented walk that finds each 5-cycle once from its
 * top vertex and credits all five (orbit_cycles5.c): the cost of the motif
 * code's 5-cycle total (five_cycles_from), not of a 2-hop walk per vertex. */
#ifndef WM_ORBIT_CYCLES5_H
#define WM_ORBIT_CYCLES5_H

#include <stdint.h>

#include "datasets.h"
#include "wm_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* c5[x] = the 5-cycles (as subgraphs, not necessarily induced) through
 * vertex x of the undirected g, for every x (g's indices; n entries).  A
 * count past 2^64 - 1 is WM_EINPUT naming the vertex (its file id), c5 then
 * unspecified; a directed g is WM_EUSAGE; out of memory WM_EINPUT;
 * warpmatch_interrupt WM_EINTERRUPTED. */
int wm_orbit_cycles5(const wm_graph *g, uint64_t *c5, wm_error *err);
/* The same with every count starting at `start` (wm_orbit_run's start, the
 * test hook wm_count_start): c5[x] = start + the 5-cycles through x, an
 * error past 2^64 - 1, so that a small graph carries a count past 2^64. */
int wm_orbit_cycles5_from(const wm_graph *g, uint64_t start, uint64_t *c5, wm_error *err);
/* wm_orbit_cycles5_from with the triangles and the tops shared with the
 * other processes of share (NULL: as above), which call it alike: each
 * gets every vertex's count (the start counted once) and the processes'
 * common result (orbit_share5.h: an interrupt of any is WM_EINTERRUPTED
 * on all). */
struct wm_share;
int wm_orbit_cycles5_shared(const wm_graph *g, uint64_t start, const struct wm_share *share, uint64_t *c5,
                            wm_error *err);
/* wm_orbit_cycles5_from on the current CUDA device (gpu_orbit_cycles5.cu),
 * or with gpus > 1 over devices 0..gpus-1 (the triangles and the tops
 * split between them, their credits added exactly), with the same counts
 * and errors; gg (g on the device, or NULL) is not read: the walk uploads
 * g by degree order.  kernel_ms (or NULL) gets the kernels' time added.
 * A build without CUDA, or fewer devices than gpus, is WM_EDEVICE. */
struct wm_gpu_graph;
int wm_orbit_cycles5_gpu(const wm_graph *g, const struct wm_gpu_graph *gg, int gpus, uint64_t start, uint64_t *c5,
                         double *kernel_ms, wm_error *err);

/* c5 in g's labels from the counts of its ranked copy r (orbit_ranked.h),
 * each low + 2^64 x carry: the first vertex (lowest index) past 2^64 - 1,
 * or below 0 (a bug), is the error.  The CPU walk's and the GPU's. */
struct wm_orbit_ranked;
int wm_orbit_cycles5_back(const wm_graph *g, const struct wm_orbit_ranked *r, const uint64_t *low,
                          const int64_t *carry, uint64_t *c5, wm_error *err);

#ifdef __cplusplus
}
#endif

#endif
