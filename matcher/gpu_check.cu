/* The checked CUDA call's failure and the timed-trials loop (gpu_check.h). */
#include "gpu_check.h"

int wm_cuda_fail(wm_error *err, cudaError_t e, const char *what, const char *file, int line) {
  cudaGetLastError(); /* clear a non-sticky error so that cleanup can run */
  if (e == cudaErrorMemoryAllocation)
    return wm_fail(err, WM_EDEVICE, "%s:%d: device out of memory (%s)", file, line, what);
  return wm_fail(err, WM_EDEVICE, "%s:%d: %s failed: %s", file, line, what, cudaGetErrorString(e));
}

int wm_gpu_trials(wm_gpu_trial_fn run, void *ctx, unsigned trials, uint64_t warm,
                  wm_match_result *r, wm_error *err) {
  double secs[WM_MAX_TRIALS];
  if (trials > WM_MAX_TRIALS)
    return wm_fail(err, WM_EUSAGE, "trials %u: at most %d", trials, WM_MAX_TRIALS);
  for (unsigned t = 0; t < trials; t++) {
    uint64_t c = 0;
    int rc = run(ctx, &c, &r->trial_ms[t], &secs[t], err);
    if (rc) return rc;
    if (c != warm)
      return wm_fail(err, WM_EDEVICE, "--trials: GPU trial %u counted %llu, the warm-up %llu: not repeatable",
                     t + 1, (unsigned long long)c, (unsigned long long)warm);
  }
  r->trials = trials;
  r->kernel_ms = wm_match_median(r->trial_ms, trials);
  r->seconds = wm_match_median(secs, trials);
  return WM_OK;
}
