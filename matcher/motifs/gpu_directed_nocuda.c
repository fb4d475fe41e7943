/* The directed motifs' GPU part (gpu_directed.cu) when the build has no CUDA. */
#include "directed_internal.h"

int wm_dir_gpu(const wm_dir_skeleton *s, unsigned k, int gpus, wm_u128 *counts, double *kernel_ms, wm_error *err) {
  (void)s, (void)k, (void)gpus, (void)counts, (void)kernel_ms;
  return wm_fail(err, WM_EDEVICE, "directed motifs: this warpmatch was built without CUDA; use --device cpu");
}
