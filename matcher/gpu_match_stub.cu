/* FRAME ONLY: replaced by the GPU matcher issue. */
#include "matcher.h"

extern "C" int wm_match_gpu(const wm_graph *g, const wm_plan *plan, const wm_match_options *o,
                            wm_match_result *r, wm_error *err) {
  (void)g, (void)plan, (void)o, (void)r;
  return wm_fail(err, WM_EDEVICE, "the GPU matcher is not built yet; use --device cpu");
}
