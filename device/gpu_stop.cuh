/* The kernels' side of warpmatch_interrupt (gpu_stop.cu): a word in host
 * memory, read where a kernel claims its next task (never in inner loops:
 * each read crosses the bus), after which the kernel claims no more and
 * its host driver reports WM_EINTERRUPTED instead of a partial count.
 * NULL: a call with no monitor, which never stops. */
#ifndef WM_GPU_STOP_CUH
#define WM_GPU_STOP_CUH

__device__ __forceinline__ bool wm_stop_asked(const int *stop) {
  return stop && *(const volatile int *)stop != 0;
}

/* Cycles between two reads by one warp where it claims often: about 8 ms
 * at 2 GHz, far inside the 0.5 s promised.  Every warp of a full device
 * reads (some 8,000 on an H200), so the interval sets the traffic: at 2^20
 * cycles, 16 million reads a second held the clique kernels 3.4x longer
 * (a 6-clique count of Kronecker 17: 381 ms unpolled, 1,309 ms at 2^20,
 * 387 ms at 2^24, its interrupt answered in 0.05 s). */
#define WM_STOP_POLL_CYCLES (1u << 24)

/* wm_stop_asked at most once per WM_STOP_POLL_CYCLES of the SM's clock
 * (*last: the 32-bit clock at the caller's last read, 0 at first: read at
 * once; the difference is taken modulo 2^32, well above the interval). */
__device__ __forceinline__ bool wm_stop_due(const int *stop, unsigned *last) {
  if (!stop) return false;
  const unsigned now = (unsigned)clock();
  if (*last && now - *last < WM_STOP_POLL_CYCLES) return false;
  *last = now ? now : 1u;
  return *(const volatile int *)stop != 0;
}

#endif
