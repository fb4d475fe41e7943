/* The 5-vertex orbits' GPU clique sums (gpu_orbit_cliques5.cu) when the build has no CUDA. */
#include "orbit_cliques5.h"

int wm_orbit_clique_sums_gpu(const wm_graph *g, const struct wm_gpu_graph *gg, int gpus, wm_orbit_clique_sums *s,
                             double *kernel_ms, wm_error *err) {
  (void)g, (void)gg, (void)gpus, (void)s, (void)kernel_ms;
  return wm_fail(err, WM_EDEVICE, "orbits: this warpmatch was built without CUDA; use --device cpu");
}
