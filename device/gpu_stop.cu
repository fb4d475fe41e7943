/* The stop word the kernels see (gpu_stop.cuh): warpmatch_interrupt may
 * come from any thread, even a signal handler, while the call's thread
 * waits on the device, so the flag reaches the kernels through host
 * memory they can read directly (pinned, mapped into every device:
 * portable) rather than through a copy the waiting thread would have to
 * queue; each device reads it through its own record (wm_stop), which
 * paces the reads. */
#include <cuda_runtime.h>
#include <stdlib.h>

#include "device.h"
#include "gpu_check.h"
#include "gpu_stop.h"

static_assert(WM_MONITOR_GPUS >= WM_MAX_GPUS, "a monitor keeps a stop record per device");

/* The word's page: a page of our own, registered (pinned and mapped),
 * rather than cudaHostAlloc's.  A process's first cudaHostAlloc costs
 * 0.8-2.0 ms on an H200 host, registering a page 0.10-0.13 ms
 * (.gpu-data/calls/pin.cu, 2026-12-01), and a one-shot command pays it
 * inside its first count.  Where registering is refused, cudaHostAlloc's
 * word. */
enum { kWordPage = 4096 };

static cudaError_t pinned_word(int **out) {
  int *w = (int *)aligned_alloc(kWordPage, kWordPage);
  if (w && cudaHostRegister(w, kWordPage, cudaHostRegisterMapped | cudaHostRegisterPortable) == cudaSuccess) {
    *out = w;
    return cudaSuccess;
  }
  free(w);
  cudaGetLastError();
  return cudaHostAlloc((void **)out, sizeof **out, cudaHostAllocMapped | cudaHostAllocPortable);
}

static void free_word(int *w) {
  if (!w) return;
  if (cudaHostUnregister(w) == cudaSuccess) {
    free(w);
  } else { /* cudaHostAlloc's */
    cudaGetLastError();
    cudaFreeHost(w);
  }
}

/* Made once per monitor: a pinned allocation may wait for the device, so
 * it is not made again per call.  Where threads share a monitor (a call's
 * own worker threads), the first word published is kept. */
static int make_word(wm_monitor *m, wm_error *err) {
  int *w = NULL, *none = NULL;
  WM_CU(pinned_word(&w));
  *w = 0;
  if (!__atomic_compare_exchange_n(&m->gpu_word, &none, w, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) free_word(w);
  return WM_OK;
}

/* The current device's record of m, made at its first use there (kept,
 * like the word: threads sharing m on one device keep the first). */
static int device_record(wm_monitor *m, int dev, wm_stop **out, wm_error *err) {
  wm_stop *s = (wm_stop *)__atomic_load_n(&m->gpu_stop[dev], __ATOMIC_SEQ_CST);
  if (!s) {
    void *none = NULL;
    WM_CU(cudaMalloc((void **)&s, sizeof *s));
    if (!__atomic_compare_exchange_n(&m->gpu_stop[dev], &none, (void *)s, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
      cudaFree(s);
      s = (wm_stop *)none;
    }
  }
  *out = s;
  return WM_OK;
}

int wm_gpu_stop_word(wm_monitor *m, wm_stop **dev_stop, wm_error *err) {
  *dev_stop = NULL;
  if (!m) return WM_OK;
  if (!__atomic_load_n(&m->gpu_word, __ATOMIC_SEQ_CST)) {
    int rc = make_word(m, err);
    if (rc) return rc;
  }
  /* The word follows the flag from the call's start.  warpmatch_interrupt
   * stores the flag, then the word: reading the flag again after our store
   * catches one that came in between (else our store could undo it). */
  int *w = __atomic_load_n(&m->gpu_word, __ATOMIC_SEQ_CST);
  for (int s = -1; s != __atomic_load_n(&m->stop, __ATOMIC_SEQ_CST);) {
    s = __atomic_load_n(&m->stop, __ATOMIC_SEQ_CST);
    __atomic_store_n(w, s, __ATOMIC_SEQ_CST);
  }
  int dev = 0;
  WM_CU(cudaGetDevice(&dev));
  if (dev < 0 || dev >= WM_MAX_GPUS) return wm_fail(err, WM_EDEVICE, "device %d: past the %d a call can use", dev, WM_MAX_GPUS);
  wm_stop *s = NULL;
  int rc = device_record(m, dev, &s, err);
  if (rc) return rc;
  /* A fresh record for the call (seen from an earlier call's stop
   * cleared).  In a 64-bit process (unified addressing) every device
   * reads pinned host memory at its host address, whatever the flags: the
   * mapped pointer where the runtime gives one, else that address.  The
   * copy is waited for on its own stream (the calls' streams do not wait
   * for the legacy one): a launch must never see a stale `seen`. */
  wm_stop fresh = {w, 0, 0, 0, 0, 0};
  void *mapped = NULL;
  if (cudaHostGetDevicePointer(&mapped, w, 0) == cudaSuccess)
    fresh.word = (const int *)mapped;
  else
    cudaGetLastError();
  WM_CU(cudaMemcpyAsync(s, &fresh, sizeof fresh, cudaMemcpyHostToDevice, cudaStreamPerThread));
  WM_CU(cudaStreamSynchronize(cudaStreamPerThread));
  *dev_stop = s;
  return WM_OK;
}

int wm_gpu_stop_limit(wm_stop *dev_stop, double seconds, wm_error *err) {
  if (!dev_stop || !(seconds > 0)) return WM_OK;
  const unsigned long long ns = seconds * 1e9 < 1.0 ? 1ull : (unsigned long long)(seconds * 1e9);
  WM_CU(cudaMemcpyAsync(&dev_stop->limit_ns, &ns, sizeof ns, cudaMemcpyHostToDevice, cudaStreamPerThread));
  WM_CU(cudaStreamSynchronize(cudaStreamPerThread));
  return WM_OK;
}

int wm_gpu_stop_seen(const wm_stop *dev_stop, int *seen, wm_error *err) {
  *seen = 0;
  if (!dev_stop) return WM_OK;
  WM_CU(cudaMemcpyAsync(seen, &dev_stop->seen, sizeof *seen, cudaMemcpyDeviceToHost, cudaStreamPerThread));
  WM_CU(cudaStreamSynchronize(cudaStreamPerThread));
  return WM_OK;
}

int wm_gpu_stop_span(const wm_stop *dev_stop, uint64_t warps, double *span_s, double *busy_s, wm_error *err) {
  *span_s = *busy_s = 0.0;
  if (!dev_stop || !warps) return WM_OK;
  wm_stop s;
  WM_CU(cudaMemcpyAsync(&s, dev_stop, sizeof s, cudaMemcpyDeviceToHost, cudaStreamPerThread));
  WM_CU(cudaStreamSynchronize(cudaStreamPerThread));
  if (s.begin_ns && s.end_ns > s.begin_ns) *span_s = (double)(s.end_ns - s.begin_ns) * 1e-9;
  *busy_s = (double)s.busy_ns * 1e-9 / (double)warps;
  return WM_OK;
}

void wm_gpu_stop_word_free(wm_monitor *m) {
  /* a context that never used a GPU: no CUDA call (it would start the runtime) */
  if (!m || !m->gpu_word) return;
  int cur = -1;
  cudaGetDevice(&cur);
  for (int d = 0; d < WM_MAX_GPUS; d++)
    if (m->gpu_stop[d]) {
      cudaSetDevice(d);
      cudaFree(m->gpu_stop[d]);
      m->gpu_stop[d] = NULL;
    }
  if (cur >= 0) cudaSetDevice(cur);
  free_word(m->gpu_word);
  cudaGetLastError();
  m->gpu_word = NULL;
}
