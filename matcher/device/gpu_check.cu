/* The checked CUDA call's failure (gpu_check.h). */
#include "gpu_check.h"

int wm_cuda_fail(wm_error *err, cudaError_t e, const char *what, const char *file, int line) {
  cudaGetLastError(); /* clear a non-sticky error so that cleanup can run */
  if (e == cudaErrorMemoryAllocation)
    return wm_fail(err, WM_EDEVICE, "%s:%d: device out of memory (%s)", file, line, what);
  return wm_fail(err, WM_EDEVICE, "%s:%d: %s failed: %s", file, line, what, cudaGetErrorString(e));
}
