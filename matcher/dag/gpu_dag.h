/* The GPU's dedicated counting kernels on the degree DAG (dag_split.h):
 * one family per row of dag_kernels.def (triangles, k-cliques for k =
 * 4..WM_CLQ_KMAX, diamonds), each in its own gpu_<family>_kernel.cu, all
 * driven by gpu_dag.cu, which reads what differs between them from their
 * wm_dag_kernels.  CUDA C++ only.  The engine's table (matcher/engine.c)
 * runs a row for its shape counted as subgraphs without labels, seeds,
 * ball, per-vertex counts or listing (wm_match_gpu_dedicated,
 * dag_table.h); the stack kernel runs everything else. */
#ifndef WM_GPU_DAG_H
#define WM_GPU_DAG_H

#include <cuda_runtime.h>
#include <stdint.h>

#include "dag_split.h"
#include "dag_table.h"
#include "gpu_stop.h"
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
  wm_stop *stop;       /* the call's stop word (device/gpu_stop.cuh), or NULL: set, the kernels
                            take no more work */
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
  /* The host split of the graph's rows into light pivots and heavy items
   * (dag_split.h) for k and the light warps of every device. */
  int (*split)(const wm_graph *g, unsigned k, uint64_t warps, wm_dag_split *s, wm_error *err);
  /* Device bytes each device's heavy blocks need beside the split (the
   * diamonds' bitmaps of every id), zeroed, in wm_dag_args.pool; 0, or a
   * NULL hook: none.  Declined when over half the free memory. */
  size_t (*scratch_bytes)(const wm_graph *g, const wm_dag_split *s, unsigned heavy_blocks);
  int narrow_rows; /* the heavy kernel reads 16-bit ids (adj16) on large graphs */
  int matrices;    /* heavy pivots build matrices in a device pool (cliques): batched to fit it, and
                      dealt statically (a pivot's matrix lives on one device) */
  unsigned induced_less; /* vertex-induced count: the edge-induced one less this many per k-clique
                            (the clique family's count); 0: the two are the same */
};

#define WM_DAG_KERNEL(family, k_min, k_max, edges) extern const wm_dag_kernels wm_##family##_kernels;
#include "dag_kernels.def"
#undef WM_DAG_KERNEL

#endif
