/* Stand-ins for the GPU matcher when the build has no CUDA. */
#include "matcher.h"
#include "motif_sums.h"

int wm_gpu_available(void) { return 0; }
int wm_gpu_count(void) { return 0; }

int wm_match_gpu_stack(const wm_graph *g, const wm_plan *plan, const wm_match_options *o, wm_match_result *r,
                       wm_error *err);
int wm_match_gpu_stack(const wm_graph *g, const wm_plan *plan, const wm_match_options *o, wm_match_result *r,
                       wm_error *err) {
  (void)g, (void)plan, (void)o, (void)r;
  return wm_fail(err, WM_EDEVICE, "this warpmatch was built without CUDA; use --device cpu");
}

int wm_motif_sums_gpu(const wm_graph *g, unsigned k, const wm_motif_gpu_policy *policy, wm_motif_sums *out,
                      double *kernel_ms, wm_error *err) {
  (void)g, (void)k, (void)policy, (void)out, (void)kernel_ms;
  return wm_fail(err, WM_EDEVICE, "this warpmatch was built without CUDA; use --device cpu");
}
