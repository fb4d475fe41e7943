/* The 5-vertex orbits' per-vertex walks on the GPU (gpu_orbit_walks5.cu) when the build has no CUDA. */
#include "orbit_walks5.h"

int wm_o5n_walks_gpu(const wm_graph *g, const struct wm_gpu_graph *gg, int gpus, const uint32_t *tri,
                     const uint64_t *cn_at, const uint32_t *cn_list, wm_o5n_walks *w, double *kernel_ms,
                     wm_error *err) {
  (void)g, (void)gg, (void)gpus, (void)tri, (void)cn_at, (void)cn_list, (void)w, (void)kernel_ms;
  return wm_fail(err, WM_EDEVICE, "orbits: this warpmatch was built without CUDA; use --device cpu");
}

int wm_o5n_walks_gpu_start(const wm_graph *g, const struct wm_gpu_graph *gg, int gpus, const uint32_t *tri,
                           const uint64_t *cn_at, const uint32_t *cn_list, wm_o5n_walks *w, double *kernel_ms,
                           wm_o5n_walks_run **run, wm_error *err) {
  *run = NULL;
  return wm_o5n_walks_gpu(g, gg, gpus, tri, cn_at, cn_list, w, kernel_ms, err);
}

int wm_o5n_walks_gpu_finish(wm_o5n_walks_run *run, const wm_graph *g, wm_o5n_walks *w, int rc, wm_error *err) {
  (void)run, (void)g, (void)w, (void)err;
  return rc;
}
