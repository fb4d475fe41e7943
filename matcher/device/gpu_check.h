/* What every GPU host driver shares (CUDA C++ only): the checked CUDA call.
 * (The timed-trials loop is wm_match_trials, shared with the CPU.) */
#ifndef WM_GPU_CHECK_H
#define WM_GPU_CHECK_H

#include <cuda_runtime.h>
#include <stdint.h>

#include "matcher.h"
#include "support.h"
#include "wm_error.h"

/* Checked CUDA call inside a function that has `wm_error *err` and returns
 * a status: out of memory and every other failure become WM_EDEVICE. */
#define WM_CU(call)                                                                  \
  do {                                                                               \
    cudaError_t e_ = (call);                                                         \
    if (e_ != cudaSuccess) return wm_cuda_fail(err, e_, #call, __FILE__, __LINE__); \
  } while (0)

int wm_cuda_fail(wm_error *err, cudaError_t e, const char *what, const char *file, int line);

/* Waits for the work queued on stream s while p is shown (does nothing
 * when p is disabled: the caller then synchronises as usual): every 0.1 s
 * the line is updated with the amount `amount` reads (may be NULL: the
 * amount stays as it is), without touching the kernels.  The caller
 * synchronises afterwards, which reports the kernels' own errors. */
typedef int (*wm_gpu_amount_fn)(void *ctx, uint64_t *done, wm_error *err);
int wm_gpu_watch(cudaStream_t s, wm_progress *p, wm_gpu_amount_fn amount, void *ctx, wm_error *err);

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

#endif
