/* Timed trials (GAP's benchmark mode): the median and the loop that both
 * executors' --trials go through (count on the CPU and the GPU, motifs on
 * the CPU; the GPU drivers repeat their own launches through it). */
#include <stdlib.h>
#include <string.h>

#include "matcher.h"

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int wm_per_vertex_overflow(const wm_graph *g, uint32_t v, wm_error *err) {
  const unsigned long long id = g->orig_ids ? (unsigned long long)g->orig_ids[v] : v;
  return wm_fail(err, WM_EINPUT,
                 "per-vertex counts: vertex %llu's count passes 2^64 - 1, the most a per-vertex count holds (the "
                 "total count has no such limit)",
                 id);
}

double wm_match_median(const double *x, unsigned n) {
  double s[WM_MAX_TRIALS];
  if (n == 0) return 0.0;
  if (n > WM_MAX_TRIALS) n = WM_MAX_TRIALS; /* callers never pass more: trials are capped */
  memcpy(s, x, n * sizeof *s);
  qsort(s, n, sizeof *s, cmp_double);
  return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

int wm_match_trials(wm_trial_fn run, void *ctx, unsigned trials, wm_u128 warm, int kernel,
                    wm_match_result *r, wm_error *err) {
  double secs[WM_MAX_TRIALS] = {0}, kms[WM_MAX_TRIALS] = {0};
  if (trials > WM_MAX_TRIALS) return wm_fail(err, WM_EUSAGE, "trials %u: at most %d", trials, WM_MAX_TRIALS);
  for (unsigned t = 0; t < trials; t++) {
    wm_match_result x;
    memset(&x, 0, sizeof x);
    int rc = run(ctx, &x, err);
    if (rc) return rc;
    if (x.count != warm) {
      char a[WM_I128_CHARS], b[WM_I128_CHARS];
      return wm_fail(err, WM_EDEVICE, "--trials: %s trial %u counted %s, the warm-up %s: not repeatable",
                     kernel ? "GPU" : "CPU", t + 1, wm_u128_str(x.count, a), wm_u128_str(warm, b));
    }
    r->trial_ms[t] = kernel ? x.kernel_ms : x.seconds * 1e3;
    secs[t] = x.seconds;
    kms[t] = x.kernel_ms;
  }
  r->trials = trials;
  r->seconds = wm_match_median(secs, trials);
  /* the timed calls' kernels, not the warm-up's, where a call reports them */
  if (kernel || r->kernel_ms > 0) r->kernel_ms = wm_match_median(kms, trials);
  return WM_OK;
}
