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

/* Cycles between two reads by one warp where it claims often (a level-0
 * item of microseconds): about 0.5 ms at 2 GHz, far inside the 0.5 s
 * promised, and a few million reads a second from a full device. */
#define WM_STOP_POLL_CYCLES (1u << 20)

/* The same for poll sites that every warp of a full device passes every
 * few microseconds (the clique kernels' pivots and rows): about 8 ms.  At
 * 2^20 cycles there, some 8,000 warps of an H200 read 16 million times a
 * second over the bus and held the kernels 3.4x longer (a 6-clique count
 * of Kronecker 17: 381 ms unpolled, 1,309 ms at 2^20, 387 ms at 2^24, its
 * interrupt answered in 0.05 s). */
#define WM_STOP_POLL_CYCLES_HOT (1u << 24)

/* wm_stop_asked at most once per `cycles` of the SM's clock (*last: the
 * 32-bit clock at the caller's last read, 0 at first: read at once; the
 * difference is taken modulo 2^32, well above the interval). */
__device__ __forceinline__ bool wm_stop_due_every(const int *stop, unsigned *last, unsigned cycles) {
  if (!stop) return false;
  const unsigned now = (unsigned)clock();
  if (*last && now - *last < cycles) return false;
  *last = now ? now : 1u;
  return *(const volatile int *)stop != 0;
}

__device__ __forceinline__ bool wm_stop_due(const int *stop, unsigned *last) {
  return wm_stop_due_every(stop, last, WM_STOP_POLL_CYCLES);
}

/* For take sites without a warp's own clock (a counter's next item, taken
 * by whichever warp comes): the SM's warps share one clock of their last
 * read, so the word crosses the bus at most about once per
 * WM_STOP_POLL_CYCLES per SM (a few hundred thousand reads a second from a
 * full device) however often items are taken, and a warp still sees a set
 * word within that many cycles times the SM's warps, milliseconds.  Reading
 * on one take in 16 instead (the earlier rule) could be tens of millions of
 * reads a second where items take microseconds, the rate that held the
 * clique kernels 3.4x longer (WM_STOP_POLL_CYCLES_HOT). */
static __device__ unsigned wm_stop_sm_clock[256];

__device__ __forceinline__ bool wm_stop_paced(const int *stop) {
  if (!stop) return false;
  unsigned sm = 0;
#ifdef __CUDA_ARCH__
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
#endif
  volatile unsigned *at = &wm_stop_sm_clock[sm & 255u];
  const unsigned now = (unsigned)clock();
  if (now - *at < WM_STOP_POLL_CYCLES) return false;
  *at = now; /* racing warps of the SM may each read once: a few reads */
  return *(const volatile int *)stop != 0;
}

#endif
