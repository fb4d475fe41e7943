/* What every GPU host driver shares (CUDA C++ only): the checked CUDA call.
 * (The timed-trials loop is wm_match_trials, shared with the CPU.) */
#ifndef WM_GPU_CHECK_H
#define WM_GPU_CHECK_H

#include <cuda_runtime.h>
#include <stdint.h>

#include "device.h"
#include "base.h"
#include "gpu_stop.h"
#include "wm_error.h"

/* Checked CUDA call inside a function that has `wm_error *err` and returns
 * a status: out of memory and every other failure become WM_EDEVICE. */
#define WM_CU(call)                                                                  \
  do {                                                                               \
    cudaError_t e_ = (call);                                                         \
    if (e_ != cudaSuccess) return wm_cuda_fail(err, e_, #call, __FILE__, __LINE__); \
  } while (0)

int wm_cuda_fail(wm_error *err, cudaError_t e, const char *what, const char *file, int line);

/* WM_CU on one of several devices: the message names the device index. */
#define WM_CUD(dev, call)                                                                      \
  do {                                                                                         \
    cudaError_t e_ = (call);                                                                   \
    if (e_ != cudaSuccess) return wm_cuda_fail_dev(err, (dev), e_, #call, __FILE__, __LINE__); \
  } while (0)

int wm_cuda_fail_dev(wm_error *err, int dev, cudaError_t e, const char *what, const char *file, int line);
/* rc, with err's message led by "device DEV: " when rc is a failure whose
 * message names no device yet (a step of one device's setup). */
int wm_gpu_on_device(wm_error *err, int dev, int rc);

/* Whether devices 1..ndev-1 can share one work counter in device 0's
 * memory: each must reach device 0 by peer access with native atomics
 * (cudaDeviceGetP2PAttribute), and peer access is then enabled from each
 * to device 0.  *shared is 1 when so (always 0 for one device, and when
 * the environment sets WM_GPU_STATIC_SPLIT=1, which tests use to run the
 * fallback); else 0 with the reason in why (the callers deal work
 * statically then). */
int wm_gpu_share_counter(int ndev, int *shared, char *why, size_t why_size, wm_error *err);

/* Waits for the work queued on stream s[i] of device ids[i], i < n: the
 * first device whose stream reports an error ends the wait with
 * WM_EDEVICE naming that device, without waiting for the others.  While p
 * is enabled, the line is updated every 0.1 s with the amount `amount`
 * reads (as wm_gpu_watch).  The caller synchronises afterwards. */
typedef int (*wm_gpu_amount_fn)(void *ctx, uint64_t *done, wm_error *err);
int wm_gpu_watch_all(int n, const int *ids, const cudaStream_t *s, wm_progress *p, wm_gpu_amount_fn amount,
                     void *ctx, wm_error *err);

/* Waits for the work queued on stream s while p is shown (does nothing
 * when p is disabled: the caller then synchronises as usual): every 0.1 s
 * the line is updated with the amount `amount` reads (may be NULL: the
 * amount stays as it is), without touching the kernels.  The caller
 * synchronises afterwards, which reports the kernels' own errors. */
int wm_gpu_watch(cudaStream_t s, wm_progress *p, wm_gpu_amount_fn amount, void *ctx, wm_error *err);

/* The stop record of monitor m on the current device (m may be NULL:
 * *dev_stop is NULL, no stop), reset for a new call: its word is made on
 * m's first GPU call and set to m's flag (warpmatch_interrupt keeps the
 * two together from then on); the kernels check it with gpu_stop.cuh, the
 * host checks wm_monitor_stopped between launches and after them. */
int wm_gpu_stop_word(wm_monitor *m, wm_stop **dev_stop, wm_error *err);
/* A time limit for the call whose record dev_stop is (may be NULL: none;
 * seconds 0: none): its kernels stop claiming work once `seconds` have
 * passed since their first check, as at an interrupt, but the monitor is
 * not stopped; wm_gpu_stop_seen then says whether they stopped (the
 * caller's count is partial). */
int wm_gpu_stop_limit(wm_stop *dev_stop, double seconds, wm_error *err);
int wm_gpu_stop_seen(const wm_stop *dev_stop, int *seen, wm_error *err);
/* The stack kernel's span in the call whose record dev_stop is (NULL: both
 * 0): *span_s from its first block's start to its last warp's end,
 * *busy_s its `warps` warps' mean time with work (outside wm_acquire). */
int wm_gpu_stop_span(const wm_stop *dev_stop, uint64_t warps, double *span_s, double *busy_s, wm_error *err);
/* The end of a timed run of kernels on the current device's default
 * stream: records `end`, waits for it and everything queued before it (a
 * kernel's fault is WM_EDEVICE here), then WM_EINTERRUPTED (`who`) where
 * the calling thread's monitor was stopped, else *ms = start to end (CUDA
 * events), also added to *kernel_ms where not NULL. */
int wm_gpu_end_timed(cudaEvent_t start, cudaEvent_t end, const char *who, float *ms, double *kernel_ms,
                     wm_error *err);

/* Tests' fault injection: 1 when the environment's WM_GPU_FAULT_DEVICE
 * names device dev, whose drivers then queue wm_gpu_fault_launch (a
 * kernel that traps: the device's context fails as on a real fault) on
 * its stream ahead of the work, so that a run over several GPUs meets a
 * failing one.  The BFS over several GPUs passes its part instead, the
 * device in one process, the search's GPU number across processes (part i
 * of G GPUs a process: process i / G's GPU i % G), so that one rank's GPU
 * fails under mpirun. */
int wm_gpu_fault_here(int dev);
cudaError_t wm_gpu_fault_launch(cudaStream_t s);

/* Holds streams until a timed launch is queued behind them (gpu_hold.cu):
 * arm, hold each stream, queue the start events, kernels and end events,
 * release.  The flag is shared by every device and stream it holds. */
typedef struct wm_gpu_hold wm_gpu_hold;
int wm_gpu_hold_create(wm_gpu_hold **out, wm_error *err);
void wm_gpu_hold_destroy(wm_gpu_hold *h);
void wm_gpu_hold_arm(wm_gpu_hold *h);
/* Queues the hold on s (the current device's stream). */
int wm_gpu_hold_stream(wm_gpu_hold *h, cudaStream_t s, wm_error *err);
void wm_gpu_hold_release(wm_gpu_hold *h);

#ifdef __cplusplus
/* *dst = cudaMalloc(bytes, at least 1) holding a copy of src. */
template <class T>
static inline cudaError_t wm_cuda_upload(T **dst, const void *src, size_t bytes) {
  cudaError_t e = cudaMalloc((void **)dst, bytes ? bytes : 1);
  if (e == cudaSuccess && bytes) e = cudaMemcpy(*dst, src, bytes, cudaMemcpyHostToDevice);
  return e;
}
#endif

#endif
