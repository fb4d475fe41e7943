/* The 5-cycles per vertex on the GPU (gpu_orbit_cycles5.cu) when the build has no CUDA. */
#include "orbit_cycles5.h"

int wm_orbit_cycles5_gpu(const wm_graph *g, const struct wm_gpu_graph *gg, int gpus, uint64_t start, uint64_t *c5,
                         double *kernel_ms, wm_error *err) {
  (void)g, (void)gg, (void)gpus, (void)start, (void)c5, (void)kernel_ms;
  return wm_fail(err, WM_EDEVICE, "orbits: this warpmatch was built without CUDA; use --device cpu");
}
