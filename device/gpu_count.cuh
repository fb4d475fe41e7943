/* Exact counts on the GPU: a device total is two words, low and high
 * (total = high * 2^64 + low), and every add to it carries.  A per-lane
 * partial stays 64-bit, but the kernels add to it through
 * wm_partial_add, which sends it to the total before it would wrap; a
 * warp's lanes are added with the carry kept (wm_count_warp_flush), so no
 * sum on the way wraps.  The host reads both words (wm_count_value). */
#ifndef WM_GPU_COUNT_CUH
#define WM_GPU_COUNT_CUH

#include <cuda_runtime.h>
#include <stdint.h>

/* Adds v to the total at t[0] (low), t[1] (high).  Concurrent adds are
 * exact: the low word's atomic adds form one sequence, and the add that
 * wraps it is the one whose old value plus v passes 2^64, so each wrap
 * carries once. */
__device__ __forceinline__ void wm_count_add(unsigned long long *t, unsigned long long v) {
  if (!v) return;
  const unsigned long long old = atomicAdd(t, v);
  if (old + v < old) atomicAdd(t + 1, 1ull);
}

/* Adds x to a lane's 64-bit partial *p; where the sum would pass 2^64 - 1
 * the partial goes to the total t first (rare: a partial takes hubs'
 * pair counts, of up to 2^63 each). */
__device__ __forceinline__ void wm_partial_add(unsigned long long *p, unsigned long long x,
                                               unsigned long long *t) {
  if (x > ~0ull - *p) {
    wm_count_add(t, *p);
    *p = x;
  } else {
    *p += x;
  }
}

/* Whole warp: adds the lanes' partials v to the total t in 128 bits. */
__device__ __forceinline__ void wm_count_warp_flush(unsigned long long *t, unsigned long long v, int lane) {
  unsigned long long lo = v, hi = 0;
  for (int d = 16; d; d >>= 1) {
    const unsigned long long l = __shfl_xor_sync(0xFFFFFFFFu, lo, d), h = __shfl_xor_sync(0xFFFFFFFFu, hi, d);
    lo += l;
    hi += h + (lo < l ? 1ull : 0ull);
  }
  if (lane == 0) {
    wm_count_add(t, lo);
    if (hi) atomicAdd(t + 1, hi);
  }
}

#endif
