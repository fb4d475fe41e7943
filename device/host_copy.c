/* The host's side of large transfers (device.h). */
#include <omp.h>
#include <string.h>

#include "device.h"

/* Below this one thread copies: waking the others costs more. */
#define SPLIT_MIN ((size_t)4 << 20)

void wm_host_copy(void *dst, const void *src, size_t n) {
  if (n < SPLIT_MIN) {
    memcpy(dst, src, n);
    return;
  }
#pragma omp parallel
  {
    const size_t t = (size_t)omp_get_thread_num(), T = (size_t)omp_get_num_threads();
    const size_t lo = n / T * t, hi = t + 1 == T ? n : n / T * (t + 1);
    memcpy((char *)dst + lo, (const char *)src + lo, hi - lo);
  }
}
