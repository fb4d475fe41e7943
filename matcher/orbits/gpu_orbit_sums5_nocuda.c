/* The 5-vertex walk's GPU sums (gpu_orbit_sums5.cu) when the build has no CUDA. */
#include "orbit_equations5.h"

int wm_o5_sums_gpu(const wm_graph *g, const wm_o5_equations *q, const uint32_t *tri, const uint64_t *bits,
                   const wm_o5_task *tasks, uint32_t ntasks, int gpus, const struct wm_gpu_graph *gg, wm_i128 *sums,
                   int *of, double *kernel_ms, wm_error *err) {
  (void)g, (void)q, (void)tri, (void)bits, (void)tasks, (void)ntasks, (void)gpus, (void)gg, (void)sums, (void)of;
  (void)kernel_ms;
  return wm_fail(err, WM_EDEVICE, "orbits: this warpmatch was built without CUDA; use --device cpu");
}
