/* What every GPU host driver shares (CUDA C++ only): the checked CUDA call
 * and the timed-trials loop. */
#ifndef WM_GPU_CHECK_H
#define WM_GPU_CHECK_H

#include <cuda_runtime.h>
#include <stdint.h>

#include "matcher.h"
#include "wm_error.h"

/* Checked CUDA call inside a function that has `wm_error *err` and returns
 * a status: out of memory and every other failure become WM_EDEVICE. */
#define WM_CU(call)                                                                  \
  do {                                                                               \
    cudaError_t e_ = (call);                                                         \
    if (e_ != cudaSuccess) return wm_cuda_fail(err, e_, #call, __FILE__, __LINE__); \
  } while (0)

int wm_cuda_fail(wm_error *err, cudaError_t e, const char *what, const char *file, int line);

/* One timed run of a counting launch: its count, kernel ms and wall
 * seconds. */
typedef int (*wm_gpu_trial_fn)(void *ctx, uint64_t *count, double *kernel_ms, double *seconds,
                               wm_error *err);

/* After an untimed warm-up that counted `warm`, `trials` timed runs, each
 * of which must count the same; fills r's trials, trial_ms and the medians
 * kernel_ms and seconds. */
int wm_gpu_trials(wm_gpu_trial_fn run, void *ctx, unsigned trials, uint64_t warm,
                  wm_match_result *r, wm_error *err);

#endif
