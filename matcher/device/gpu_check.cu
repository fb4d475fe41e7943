/* The checked CUDA call's failure, and the progress line's wait
 * (gpu_check.h). */
#include <time.h>

#include "gpu_check.h"

int wm_gpu_watch(cudaStream_t s, wm_progress *p, wm_gpu_amount_fn amount, void *ctx, wm_error *err) {
  const struct timespec pause = {0, 100 * 1000 * 1000};
  while (p->enabled) {
    cudaError_t e = cudaStreamQuery(s);
    if (e == cudaSuccess) break;
    if (e != cudaErrorNotReady) return wm_cuda_fail(err, e, "waiting for the kernels", __FILE__, __LINE__);
    uint64_t done = __atomic_load_n(&p->done, __ATOMIC_RELAXED);
    if (amount) {
      int rc = amount(ctx, &done, err);
      if (rc) return rc;
    }
    wm_progress_update(p, done);
    nanosleep(&pause, NULL);
  }
  return WM_OK;
}

int wm_cuda_fail(wm_error *err, cudaError_t e, const char *what, const char *file, int line) {
  cudaGetLastError(); /* clear a non-sticky error so that cleanup can run */
  if (e == cudaErrorMemoryAllocation)
    return wm_fail(err, WM_EDEVICE, "%s:%d: device out of memory (%s)", file, line, what);
  return wm_fail(err, WM_EDEVICE, "%s:%d: %s failed: %s", file, line, what, cudaGetErrorString(e));
}
