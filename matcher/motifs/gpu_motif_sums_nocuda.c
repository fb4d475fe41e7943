/* The motif sums on the GPU (gpu_motif_sums.cu) when the build has no CUDA. */
#include "matcher.h"
#include "motif_sums.h"

int wm_motif_sums_gpu(const wm_graph *g, unsigned k, const wm_motif_gpu_policy *policy, wm_motif_sums *out,
                      double *kernel_ms, wm_error *err) {
  (void)g, (void)k, (void)policy, (void)out, (void)kernel_ms;
  return wm_fail(err, WM_EDEVICE, "this warpmatch was built without CUDA; use --device cpu");
}
