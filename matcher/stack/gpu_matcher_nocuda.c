/* The stack kernel's driver (gpu_matcher.cu) when the build has no CUDA. */
#include "matcher.h"

int wm_match_gpu_stack(const wm_graph *g, const wm_plan *plan, const wm_match_options *o, wm_match_result *r,
                       wm_error *err);
int wm_match_gpu_stack(const wm_graph *g, const wm_plan *plan, const wm_match_options *o, wm_match_result *r,
                       wm_error *err) {
  (void)g, (void)plan, (void)o, (void)r;
  return wm_fail(err, WM_EDEVICE, "this warpmatch was built without CUDA; use --device cpu");
}
