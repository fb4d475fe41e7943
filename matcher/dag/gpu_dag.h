/* The GPU's dedicated counting kernels on the degree DAG (dag_split.h):
 * triangles (gpu_triangle_kernel.cu), k-cliques, k = 4..WM_CLQ_KMAX
 * (gpu_clique_kernel.cu) and diamonds (gpu_diamond_kernel.cu), all driven
 * by gpu_dag.cu.  CUDA C++ only.  wm_match_gpu takes this path for a
 * clique or a diamond counted as subgraphs without labels,
 * seeds, ball, per-vertex counts or listing (wm_gpu_plan_clique_k,
 * wm_gpu_plan_is_diamond and the options); the stack kernel runs
 * everything else. */
#ifndef WM_GPU_DAG_H
#define WM_GPU_DAG_H

#include <cuda_runtime.h>
#include <stdint.h>

#include "dag_split.h"
#include "matcher.h"

typedef unsigned long long wm_u64;

struct wm_dag_args {
  const wm_u64 *off;
  const uint32_t *adj;
  const uint32_t *dplus; /* |N+(v)|: neighbours below v, a prefix of v's row */
  uint16_t *adj16;       /* triangles, or NULL: adj at the same indices, each id clamped to
                            WM_TRI_NARROW - 1 (filled by the heavy stream before its kernel) */
  wm_u64 m;              /* entries of adj */
  uint32_t n, k;
  uint32_t light_chunk;  /* consecutive light pivots per grab */
  uint32_t light_in;     /* triangles: wm_tri_is_heavy's bound (wm_dag_split) */
  const wm_dag_item *items; /* heavy items (this batch's, for cliques) */
  wm_u64 n_items;
  wm_u64 *next_light, *next_heavy; /* work counters */
  uint32_t dev, ndev;    /* static deal: light chunks, triangle and diamond items and clique
                            pivots t with t % ndev == dev are this device's */
  int shared;            /* next_light, and next_heavy of triangles and diamonds, are counters
                            in device 0's memory that every device grabs from (system-scope
                            atomics over peer access): dynamic, not the static deal; a clique
                            pivot's matrix is built and counted on one device, so clique
                            pivots keep the static deal */
  wm_u64 *count;
  /* cliques: this batch's heavy pivots [p0, p1) and their matrices */
  const uint32_t *pivots;
  const wm_u64 *base;    /* pivot p's matrix: pool + base[p] - base[p0] */
  wm_u64 p0, p1;
  uint32_t *pool;        /* diamonds: each heavy block's bitmap of every id, or NULL */
  wm_u64 *next_count;    /* the count kernel's item counter */
  uint32_t *stacks;      /* level sets of each count-kernel warp when |N+| > WM_CLQ_STACK_D
                            (else NULL) */
  uint32_t stack_words;  /* words of one warp's sets there */
};

/* One kernel family, as the driver sees it.  launch_heavy runs on its own
 * stream beside launch_light, and is launched first: the heavy work is the
 * long pole, and light blocks launched first would fill every SM. */
struct wm_dag_kernels {
  const char *name;
  size_t (*light_smem)(unsigned k);
  size_t (*heavy_smem)(unsigned k);
  int light_warps, heavy_warps;
  /* Opts the kernels into their shared memory for k; blocks per SM of each. */
  cudaError_t (*prepare)(unsigned k, int *light_per_sm, int *heavy_per_sm);
  /* Timed work both kernels read, on one stream before either (NULL: none). */
  cudaError_t (*launch_first)(const wm_dag_args *a, unsigned blocks, cudaStream_t s);
  cudaError_t (*launch_light)(const wm_dag_args *a, unsigned blocks, cudaStream_t s);
  cudaError_t (*launch_heavy)(const wm_dag_args *a, unsigned blocks, cudaStream_t s);
};

extern const wm_dag_kernels wm_triangle_kernels;
extern const wm_dag_kernels wm_clique_kernels;
extern const wm_dag_kernels wm_diamond_kernels;

/* The dedicated path of wm_match_gpu for a k-clique, k = 3..WM_CLQ_KMAX
 * (same contract).  *declined is set, with nothing run, when one pivot's
 * clique matrix would not fit the device (a graph far from degree order):
 * the caller then runs the stack kernel. */
int wm_match_gpu_dag(const wm_graph *g, unsigned k, const wm_match_options *o,
                     wm_match_result *r, int *declined, wm_error *err);

/* The same for the diamond counted as a subgraph: edge-induced, the sum
 * over edges of C(t(e), 2); vertex-induced, that less six per 4-clique (the
 * clique kernel's count; times are the two runs' sums).  Declined when the
 * heavy blocks' bitmaps or the clique pool would not fit the device. */
int wm_match_gpu_diamonds(const wm_graph *g, int induced, const wm_match_options *o, wm_match_result *r,
                          int *declined, wm_error *err);

#endif
