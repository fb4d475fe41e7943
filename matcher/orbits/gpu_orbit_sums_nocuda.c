/* The orbit aggregates' GPU passes (gpu_orbit_sums.cu) when the build has no CUDA. */
#include "orbits.h"

int wm_orbit_aggregates_gpu(const wm_graph *g, unsigned k, const struct wm_gpu_graph *gg, wm_orbit_aggregates *a,
                            double *kernel_ms, wm_error *err) {
  (void)g, (void)k, (void)gg, (void)a, (void)kernel_ms;
  return wm_fail(err, WM_EDEVICE, "orbits: this warpmatch was built without CUDA; use --device cpu");
}
