/* Stand-ins for the GPU matcher when the build has no CUDA. */
#include "matcher.h"
#include "motif_sums.h"

int wm_gpu_available(void) { return 0; }
int wm_gpu_count(void) { return 0; }

int wm_gpu_graph_create(const wm_graph *g, int gpus, wm_gpu_graph **out, wm_error *err) {
  (void)g, (void)gpus;
  *out = NULL;
  return wm_fail(err, WM_EDEVICE, "this warpmatch was built without CUDA; use --device cpu");
}

void wm_gpu_graph_destroy(wm_gpu_graph *gg) { (void)gg; }

int wm_gpu_graph_on(const wm_gpu_graph *gg, const wm_graph *g, int dev, void **off, void **adj) {
  (void)gg, (void)g, (void)dev, (void)off, (void)adj;
  return 0;
}

int wm_match_gpu(const wm_graph *g, const wm_plan *plan, const wm_match_options *o,
                 wm_match_result *r, wm_error *err) {
  (void)g, (void)plan, (void)o, (void)r;
  return wm_fail(err, WM_EDEVICE, "this warpmatch was built without CUDA; use --device cpu");
}

int wm_motif_sums_gpu(const wm_graph *g, unsigned k, const wm_motif_gpu_policy *policy, wm_motif_sums *out,
                      double *kernel_ms, wm_error *err) {
  (void)g, (void)k, (void)policy, (void)out, (void)kernel_ms;
  return wm_fail(err, WM_EDEVICE, "this warpmatch was built without CUDA; use --device cpu");
}
