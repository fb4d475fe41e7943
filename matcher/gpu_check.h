/* What every GPU host driver shares (CUDA C++ only): the checked CUDA call.
 * (The timed-trials loop is wm_match_trials, shared with the CPU.) */
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

#endif
