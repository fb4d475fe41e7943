/* Stand-in for the dedicated kernels' driver when the build has no CUDA. */
#include "dag_table.h"

int wm_match_gpu_dedicated(unsigned row, const wm_graph *g, unsigned k, int induced, const wm_match_options *o,
                           wm_match_result *r, int *declined, wm_error *err) {
  (void)row, (void)g, (void)k, (void)induced, (void)o, (void)r;
  *declined = 0;
  return wm_fail(err, WM_EDEVICE, "this warpmatch was built without CUDA; use --device cpu");
}
