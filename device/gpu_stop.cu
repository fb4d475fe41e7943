/* The stop word the kernels poll (gpu_stop.cuh): warpmatch_interrupt may
 * come from any thread, even a signal handler, while the call's thread
 * waits on the device, so the flag reaches the kernels through host
 * memory they read directly (pinned, mapped into every device: portable)
 * rather than through a copy the waiting thread would have to queue. */
#include <cuda_runtime.h>

#include "gpu_check.h"

/* Made once per monitor: a pinned allocation may wait for the device, so
 * it is not made again per call.  Where threads share a monitor (a call's
 * own worker threads), the first word published is kept. */
static int make_word(wm_monitor *m, wm_error *err) {
  int *w = NULL, *none = NULL;
  WM_CU(cudaHostAlloc((void **)&w, sizeof *w, cudaHostAllocMapped | cudaHostAllocPortable));
  *w = 0;
  if (!__atomic_compare_exchange_n(&m->gpu_word, &none, w, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) cudaFreeHost(w);
  return WM_OK;
}

int wm_gpu_stop_word(wm_monitor *m, const int **dev_word, wm_error *err) {
  *dev_word = NULL;
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
  /* In a 64-bit process (unified addressing) every device reads pinned
   * host memory at its host address, whatever the flags: the mapped
   * pointer where the runtime gives one, else that address. */
  if (cudaHostGetDevicePointer((void **)dev_word, w, 0) != cudaSuccess) {
    cudaGetLastError();
    *dev_word = w;
  }
  return WM_OK;
}

void wm_gpu_stop_word_free(wm_monitor *m) {
  if (!m || !m->gpu_word) return;
  cudaFreeHost(m->gpu_word);
  cudaGetLastError();
  m->gpu_word = NULL;
}
