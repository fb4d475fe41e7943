/* The GPU triangle path (gpu_triangle_kernel.cu, driven by gpu_triangles.cu):
 * what the host driver and the two kernels share.  CUDA C++ only.
 * wm_match_gpu takes this path for a triangle counted as subgraphs without
 * labels, seeds, ball, per-vertex counts or listing (wm_gpu_plan_is_triangle
 * and the options); the stack kernel runs everything else. */
#ifndef WM_GPU_TRIANGLES_H
#define WM_GPU_TRIANGLES_H

#include <cuda_runtime.h>
#include <stdint.h>

#include "matcher.h"
#include "triangle_split.h"

typedef unsigned long long wm_u64;

struct wm_tri_args {
  const wm_u64 *off;
  const uint32_t *adj;
  const uint32_t *dplus; /* |N+(v)|: neighbours below v, a prefix of v's row */
  uint32_t n;
  const wm_tri_item *heavy;
  wm_u64 n_heavy;
  uint32_t light_chunk;            /* consecutive pivots per light grab */
  wm_u64 *next_light, *next_heavy; /* item counters of this device */
  uint32_t dev, ndev;              /* items t with t % ndev == dev are this device's */
  wm_u64 *count;
};

size_t wm_tri_light_smem(void);
size_t wm_tri_heavy_smem(void);
/* Opts the kernels into their shared memory; blocks per SM of each. */
cudaError_t wm_tri_prepare(int *light_per_sm, int *heavy_per_sm);
/* Both kernels, on their own streams (asynchronous). */
cudaError_t wm_tri_launch(const wm_tri_args *a, unsigned light_blocks, unsigned heavy_blocks,
                          cudaStream_t light, cudaStream_t heavy);

/* The triangle path of wm_match_gpu (same contract). */
int wm_match_gpu_triangles(const wm_graph *g, const wm_plan *plan, const wm_match_options *o,
                           wm_match_result *r, wm_error *err);

#endif
