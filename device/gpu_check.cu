/* The checked CUDA call's failure, and the progress line's wait
 * (gpu_check.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int wm_cuda_fail_dev(wm_error *err, int dev, cudaError_t e, const char *what, const char *file, int line) {
  cudaGetLastError();
  if (e == cudaErrorMemoryAllocation)
    return wm_fail(err, WM_EDEVICE, "device %d: %s:%d: out of memory (%s)", dev, file, line, what);
  return wm_fail(err, WM_EDEVICE, "device %d: %s:%d: %s failed: %s", dev, file, line, what, cudaGetErrorString(e));
}

int wm_gpu_fault_here(int dev) {
  const char *env = getenv("WM_GPU_FAULT_DEVICE");
  return env && env[0] && atoi(env) == dev;
}

int wm_gpu_on_device(wm_error *err, int dev, int rc) {
  if (rc == WM_OK || !err || strncmp(err->msg, "device ", 7) == 0) return rc;
  char msg[sizeof err->msg];
  snprintf(msg, sizeof msg, "device %d: %.990s", dev, err->msg);
  memcpy(err->msg, msg, sizeof msg);
  return rc;
}

int wm_gpu_share_counter(int ndev, int *shared, char *why, size_t why_size, wm_error *err) {
  *shared = 0;
  if (why_size) why[0] = 0;
  if (ndev < 2) return WM_OK;
  const char *env = getenv("WM_GPU_STATIC_SPLIT");
  if (env && env[0] == '1') {
    snprintf(why, why_size, "WM_GPU_STATIC_SPLIT=1");
    return WM_OK;
  }
  /* Only the pairs (i, 0) matter: every device reaches the counter in
   * device 0's memory, and no other memory crosses devices. */
  for (int i = 1; i < ndev; i++) {
    int access = 0, atomics = 0;
    WM_CUD(i, cudaDeviceGetP2PAttribute(&access, cudaDevP2PAttrAccessSupported, i, 0));
    WM_CUD(i, cudaDeviceGetP2PAttribute(&atomics, cudaDevP2PAttrNativeAtomicSupported, i, 0));
    if (!access || !atomics) {
      snprintf(why, why_size, "no peer %s from device %d to device 0", access ? "atomics" : "access", i);
      return WM_OK;
    }
  }
  int cur = 0;
  WM_CU(cudaGetDevice(&cur));
  for (int i = 1; i < ndev; i++) {
    WM_CUD(i, cudaSetDevice(i));
    cudaError_t e = cudaDeviceEnablePeerAccess(0, 0);
    if (e == cudaErrorPeerAccessAlreadyEnabled)
      cudaGetLastError(); /* enabled by an earlier run of this process: stays so */
    else if (e != cudaSuccess)
      return wm_cuda_fail_dev(err, i, e, "cudaDeviceEnablePeerAccess(0)", __FILE__, __LINE__);
  }
  WM_CU(cudaSetDevice(cur));
  *shared = 1;
  return WM_OK;
}

int wm_gpu_watch_all(int n, const int *ids, const cudaStream_t *s, wm_progress *p, wm_gpu_amount_fn amount,
                     void *ctx, wm_error *err) {
  /* A short pause keeps the wall time close to the kernels' without the
   * progress line; with it, the line is updated every 0.1 s. */
  const struct timespec pause = {0, 50 * 1000};
  double shown = 0;
  for (;;) {
    int left = 0;
    for (int i = 0; i < n; i++) {
      WM_CUD(ids[i], cudaSetDevice(ids[i]));
      cudaError_t e = cudaStreamQuery(s[i]);
      if (e == cudaErrorNotReady)
        left++;
      else if (e != cudaSuccess)
        return wm_cuda_fail_dev(err, ids[i], e, "the device's kernels", __FILE__, __LINE__);
    }
    if (!left) return WM_OK;
    if (p && p->enabled && wm_now() - shown >= 0.1) {
      uint64_t done = __atomic_load_n(&p->done, __ATOMIC_RELAXED);
      if (amount) {
        int rc = amount(ctx, &done, err);
        if (rc) return rc;
      }
      wm_progress_update(p, done);
      shown = wm_now();
    }
    nanosleep(&pause, NULL);
  }
}

int wm_gpu_end_timed(cudaEvent_t start, cudaEvent_t end, const char *who, float *ms, double *kernel_ms,
                     wm_error *err) {
  WM_CU(cudaEventRecord(end, 0));
  WM_CU(cudaEventSynchronize(end));
  WM_CU(cudaDeviceSynchronize()); /* a kernel's fault, reported here */
  if (wm_monitor_stopped(wm_monitor_current())) return wm_interrupted(err, who);
  WM_CU(cudaEventElapsedTime(ms, start, end));
  if (kernel_ms) *kernel_ms += *ms;
  return WM_OK;
}
