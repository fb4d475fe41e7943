/* Parallel exclusive prefix sum: the offsets of every CSR built here. */
#include <omp.h>
#include <stdlib.h>

#include "graph_internal.h"

uint64_t wm_prefix_sum_u64(uint64_t *a, size_t n) {
  int nt = wm_par_threads(n, WM_PAR_GRAIN);
  if (nt == 1) {
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++) {
      uint64_t x = a[i];
      a[i] = s;
      s += x;
    }
    return s;
  }
  /* Two passes over contiguous blocks, one per thread: block sums, then each
   * block rewritten from its starting total. */
  uint64_t part[257] = {0};
  if (nt > 256) nt = 256;
#pragma omp parallel num_threads(nt)
  {
    int t = omp_get_thread_num(), T = omp_get_num_threads();
    size_t lo = n * t / T, hi = n * (t + 1) / T;
    uint64_t s = 0;
    for (size_t i = lo; i < hi; i++) s += a[i];
    part[t + 1] = s;
#pragma omp barrier
#pragma omp single
    for (int k = 1; k <= T; k++) part[k] += part[k - 1];
    s = part[t];
    for (size_t i = lo; i < hi; i++) {
      uint64_t x = a[i];
      a[i] = s;
      s += x;
    }
  }
  uint64_t total = 0;
  /* part[T] holds the grand total; T may be below nt if the runtime gave fewer. */
  for (int k = 0; k <= nt; k++)
    if (part[k] > total) total = part[k];
  return total;
}
