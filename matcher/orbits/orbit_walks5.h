/* The per-vertex walks of the 5-vertex non-induced counts
 * (orbit_noninduced5.c reads them): each vertex x walks its triangles'
 * far edges, its 2-hop tally, its diamonds by their tips and the 4-cycles
 * inside its neighbourhood, and leaves what it found in one struct, so
 * that the CPU walks (orbit_walks5.c, the oracle) and the GPU walks
 * (gpu_orbit_walks5.cu) fill the same thing.  Every arc's values are
 * written by its tail's walk (c4e by its larger end's, into both arcs),
 * every vertex's sums by its own (63 by the smaller of each pair, into
 * both). */
#ifndef WM_ORBIT_WALKS5_H
#define WM_ORBIT_WALKS5_H

#include "base.h"
#include "orbits.h"

#ifdef __cplusplus
extern "C" {
#endif

/* x's own sums: over its triangles' far edges (25, 40, 54, 60), over the
 * vertices two steps away (36, 50, 51) and over the 4-cycles inside
 * G[N(x)] (69, four times each). */
enum { WM_O5N_S25, WM_O5N_S40, WM_O5N_S54, WM_O5N_S60, WM_O5N_S36, WM_O5N_S50, WM_O5N_S51, WM_O5N_S69,
       WM_O5N_WALKED };
/* What a vertex's walk owes the far end y of each of its arcs, where the
 * count is y's but the pieces are in the walker's tally. */
enum { WM_O5N_TO49, WM_O5N_TO62, WM_O5N_TO64, WM_O5N_TO68, WM_O5N_TOWARD };

typedef struct wm_o5n_walks {
  /* per arc x -> y: over the third vertices z of the edge's triangles, the
   * sum of d_z (tdeg) and of t_xz - 1 (F); the 4-cycles through the edge
   * (c4e) */
  uint64_t *tdeg, *F, *c4e;
  wm_i128 (*toward)[WM_O5N_TOWARD]; /* per arc: written by its tail, read by its head */
  wm_acc (*walked)[WM_O5N_WALKED];  /* per vertex; an overflowed sum has its flag set */
  /* 63 per vertex x: over its diamonds by tip, the sum over the other tips
   * q of E(x, q) (cn(x, q) - 2).  The pair {x, q} is walked from its
   * smaller vertex only, which credits both: tips[v] the low words,
   * tips[n + v] the high ones (each sum below 2^127), added atomically. */
  uint64_t *tips;
} wm_o5n_walks;

/* Vertex v's 63 (n vertices) from w->tips. */
static inline wm_i128 wm_o5n_tips(const wm_o5n_walks *w, uint32_t n, uint32_t v) {
  return (wm_i128)((wm_u128)w->tips[(size_t)n + v] << 64 | w->tips[v]);
}

/* The arrays for g (m arcs, n vertices; at least one entry each), zeroed,
 * or -1 when out of memory (then freed). */
int wm_o5n_walks_alloc(const wm_graph *g, wm_o5n_walks *w);
void wm_o5n_walks_free(wm_o5n_walks *w);

/* b before a in the order the lists, the tip pairs and the wheels orient
 * their walks by: the later id.  The walks' graph is numbered by degree,
 * the largest first (the matcher's copy), so b's degree is no larger: each
 * triangle x, a, b is walked from the end whose row is the longer, so that
 * the row scanned is the shorter, with no read of the degrees.  Any strict
 * order gives the same sums (each diamond and each 4-cycle credits all its
 * vertices); the GPU's walks use the same one. */
static inline int wm_o5n_shorter(uint32_t b, uint32_t a) { return b > a; }

/* The walks of every vertex on the CPU's threads (orbit_walks5.c), from
 * tri (the triangles per arc) and each arc's common neighbours, ascending
 * (the arc f's are cn_list[cn_at[f] .. cn_at[f + 1])).  progress gets a
 * vertex per walk done; a stop seen there leaves the rest unwalked (the
 * caller asks wm_progress_stopped).  Only out of memory fails. */
int wm_o5n_walks_cpu(const wm_graph *g, const uint32_t *tri, const uint64_t *cn_at, const uint32_t *cn_list,
                     wm_o5n_walks *w, wm_progress *progress, wm_error *err);

/* The same with the vertices' blocks shared with the other processes of s
 * (NULL: wm_o5n_walks_cpu), which call it alike: w must hold zeros where
 * this process does not walk (as wm_o5n_walks_alloc leaves it), and holds
 * every process's walks on return.  The result is the processes' common
 * one (wm_o5s_agree): an interrupt of any of them is WM_EINTERRUPTED here. */
struct wm_share;
int wm_o5n_walks_cpu_shared(const wm_graph *g, const uint32_t *tri, const uint64_t *cn_at, const uint32_t *cn_list,
                            const struct wm_share *s, wm_o5n_walks *w, wm_progress *progress, wm_error *err);

/* The same on the current CUDA device (gpu_orbit_walks5.cu), or with
 * gpus > 1 over devices 0..gpus-1 (the vertices and arcs split between
 * them, their values added exactly), reading g where gg (may be NULL)
 * holds it on a device, else uploading it there; *kernel_ms (may be NULL)
 * gets the kernels' time added (the slowest device's).  Every CUDA failure
 * is WM_EDEVICE, naming the device where several run (without CUDA:
 * "built without CUDA"); more GPUs than the host has WM_EDEVICE; an
 * interrupt WM_EINTERRUPTED. */
int wm_o5n_walks_gpu(const wm_graph *g, const struct wm_gpu_graph *gg, int gpus, const uint32_t *tri,
                     const uint64_t *cn_at, const uint32_t *cn_list, wm_o5n_walks *w, double *kernel_ms,
                     wm_error *err);

/* The same in two calls, so that the CPU can use what the vertex walks
 * leave while the wheels run on one device: start returns once w holds
 * all but toward and the wheels' sum (S69), *run the device's state (NULL
 * where nothing is left to wait for: over several devices, or an empty
 * graph, start has done it all); finish waits for the wheels, fills the
 * rest and frees *run.  finish is called whatever start returned, with its
 * result (rc; a failure is kept, after the device is waited for). */
typedef struct wm_o5n_walks_run wm_o5n_walks_run;
int wm_o5n_walks_gpu_start(const wm_graph *g, const struct wm_gpu_graph *gg, int gpus, const uint32_t *tri,
                           const uint64_t *cn_at, const uint32_t *cn_list, wm_o5n_walks *w, double *kernel_ms,
                           wm_o5n_walks_run **run, wm_error *err);
int wm_o5n_walks_gpu_finish(wm_o5n_walks_run *run, const wm_graph *g, wm_o5n_walks *w, int rc, wm_error *err);

#ifdef __cplusplus
}
#endif

#endif
