/* Chung-Lu: vertex i gets the weight (i + 1)^(-1 / (gamma - 1)), so that
 * the weights, hence the expected degrees, follow P(deg = k) ~ k^-gamma;
 * the weights are scaled to sum to n d (mean degree d) with the largest
 * capped at sqrt(n d), the most for which the model's edge probabilities
 * w_i w_j / (n d) stay at most 1 (the structural cutoff: without it the
 * top vertices would draw the same neighbours again and again, and the
 * duplicates dropped would take the mean far below d).  Then round(n d / 2)
 * edges are drawn, each endpoint by weight (binary search over the
 * cumulative weights), edge e a pure function of (seed, e); self-loops and
 * duplicates are dropped.  Vertex 0 has the largest weight. */
#include <math.h>
#include <stdlib.h>

#include "gen_random.h"

static const uint64_t STREAM_CL = 0x636c75ull; /* "clu" */

/* The scale s and the number p of capped vertices: the weights are then
 * cap for i < p and s raw[i] after, summing to total.  The raw weights
 * decrease, so the capped ones are a prefix: the first p whose scale keeps
 * raw[p] under the cap. */
static double scale_under_cap(const double *raw, uint64_t n, double total, double cap, uint64_t *capped) {
  double all = 0, prefix = 0;
  for (uint64_t i = n; i-- > 0;) all += raw[i]; /* smallest first: less rounding */
  for (uint64_t p = 0; p < n; p++) {
    double s = (total - (double)p * cap) / (all - prefix);
    if (s * raw[p] <= cap) {
      *capped = p;
      return s;
    }
    prefix += raw[p];
  }
  *capped = n; /* n cap >= n d whenever d <= n - 1: not reached */
  return 0;
}

/* w[i] becomes the cumulative weight of vertices 0..i. */
static void cumulative_weights(double *w, uint64_t n, double gamma, double d) {
  const double e = -1.0 / (gamma - 1.0);
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < (int64_t)n; i++) w[i] = pow((double)(i + 1), e);
  const double total = (double)n * d, cap = sqrt(total);
  uint64_t capped;
  const double s = scale_under_cap(w, n, total, cap, &capped);
  double sum = 0;
  for (uint64_t i = 0; i < n; i++) {
    sum += i < capped ? cap : s * w[i];
    w[i] = sum;
  }
}

/* The first i with cum[i] > x. */
static uint32_t by_weight(const double *cum, uint64_t n, double x) {
  uint64_t lo = 0, hi = n - 1;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (cum[mid] > x)
      hi = mid;
    else
      lo = mid + 1;
  }
  return (uint32_t)lo;
}

int wm_gen_chung_lu(const wm_gen_model *o, wm_graph **out, wm_error *err) {
  const uint64_t n = o->n, count = wm_gen_model_drawn(o);
  double *cum = malloc(n * sizeof *cum);
  uint32_t *src = NULL, *dst = NULL;
  int rc = cum ? wm_gen_alloc_arcs("chung-lu", count, &src, &dst, err)
               : wm_fail(err, WM_EINPUT, "generator chung-lu: out of host memory for %llu weights",
                         (unsigned long long)n);
  if (rc) {
    free(cum);
    return rc;
  }
  cumulative_weights(cum, n, o->exponent, o->mean_degree);
  const double total = cum[n - 1];
  const uint64_t key = wm_gen_stream_key(o->seed, STREAM_CL);
#pragma omp parallel for schedule(static)
  for (int64_t e = 0; e < (int64_t)count; e++) {
    uint64_t k = wm_gen_item_key(key, (uint64_t)e), ctr = 0;
    src[e] = by_weight(cum, n, wm_gen_unit(k, &ctr) * total);
    dst[e] = by_weight(cum, n, wm_gen_unit(k, &ctr) * total);
  }
  free(cum);
  return wm_gen_finish(src, dst, count, n, out, err);
}
