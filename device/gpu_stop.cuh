/* The kernels' side of warpmatch_interrupt (gpu_stop.cu): a word in host
 * memory that the host sets, seen by the kernels through a small record
 * in each device's memory (wm_stop), after which a kernel claims no more
 * work and its host driver reports WM_EINTERRUPTED instead of a partial
 * count.  NULL: a call with no monitor, which never stops.
 *
 * Why a record and not the host word itself: every read of host memory
 * crosses the bus, and reads of one address are served one after
 * another.  When each warp read the word at its claims (even paced to one
 * read per warp every 2^20 cycles, 16 million reads a second from an
 * H200's 8,448 warps, or all at once as every warp claims its first
 * item), the queue held the stack kernel 2.7-20x longer (facebook: p13
 * 128 -> 336 ms, p3 17 -> 334 ms) and the 5-vertex motif sums 1.4x.  Now
 * the host word is read at most once per WM_STOP_READ_NS per device, by
 * whichever caller wins that interval's compare-and-swap, and every
 * other check reads device memory. */
#ifndef WM_GPU_STOP_CUH
#define WM_GPU_STOP_CUH

#include <time.h>

#include "gpu_stop.h"

/* At most one read of the host's word per device per this many ns: a
 * stop is seen within it plus the time to the next check site. */
#define WM_STOP_READ_NS 50000ull

__device__ __forceinline__ unsigned long long wm_stop_clock_ns() {
#ifdef __CUDA_ARCH__
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
#else /* the emulators run kernels on the host */
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
#endif
}

/* Whether a call with a time limit has run past it (its first check
 * starts the clock). */
__device__ __forceinline__ bool wm_stop_past_limit(wm_stop *s, unsigned long long now) {
  const unsigned long long limit = *(volatile unsigned long long *)&s->limit_ns;
  if (!limit) return false;
  unsigned long long start = *(volatile unsigned long long *)&s->start_ns;
  if (!start) {
    start = atomicCAS(&s->start_ns, 0ull, now);
    if (!start) start = now;
  }
  return now - start >= limit;
}

/* Whether the call was asked to stop: one read of device memory, and now
 * and then (see above) one of the host's word. */
__device__ __forceinline__ bool wm_stop_asked(wm_stop *s) {
  if (!s) return false;
  if (*(volatile int *)&s->seen) return true;
  const unsigned long long last = *(volatile unsigned long long *)&s->last_ns, now = wm_stop_clock_ns();
  if (now - last < WM_STOP_READ_NS || atomicCAS(&s->last_ns, last, now) != last) return false;
  if (!*(const volatile int *)s->word && !wm_stop_past_limit(s, now)) return false;
  *(volatile int *)&s->seen = 1;
  return true;
}

/* Cycles between two checks by one warp where it claims often (a level-0
 * item of microseconds): about 0.5 ms at 2 GHz, far inside the 0.5 s
 * promised. */
#define WM_STOP_POLL_CYCLES (1u << 20)

/* The same for check sites that every warp of a full device passes every
 * few microseconds (the clique kernels' pivots and rows): about 8 ms.
 * (Measured when each check read the host's word: a 6-clique count of
 * Kronecker 17 took 381 ms unpolled, 1,309 ms at 2^20, 387 ms at 2^24.) */
#define WM_STOP_POLL_CYCLES_HOT (1u << 24)

/* wm_stop_asked at most once per `cycles` of the SM's clock (*last: the
 * 32-bit clock at the caller's last check, 0 at first: checks at once;
 * the difference is taken modulo 2^32, well above the interval). */
__device__ __forceinline__ bool wm_stop_due_every(wm_stop *s, unsigned *last, unsigned cycles) {
  if (!s) return false;
  const unsigned now = (unsigned)clock();
  if (*last && now - *last < cycles) return false;
  *last = now ? now : 1u;
  return wm_stop_asked(s);
}

__device__ __forceinline__ bool wm_stop_due(wm_stop *s, unsigned *last) {
  return wm_stop_due_every(s, last, WM_STOP_POLL_CYCLES);
}

/* The span's marks: wm_stop.begin_ns the first caller's clock (a read
 * first: most callers find it set); at a warp's end, end_ns the last's
 * and busy_ns += the warp's time with work. */
__device__ __forceinline__ void wm_stop_mark_begin(wm_stop *s) {
  if (s && !*(volatile unsigned long long *)&s->begin_ns) atomicCAS(&s->begin_ns, 0ull, wm_stop_clock_ns());
}
__device__ __forceinline__ void wm_stop_mark_end(wm_stop *s, unsigned long long busy_ns) {
  if (!s) return;
  atomicMax(&s->end_ns, wm_stop_clock_ns());
  atomicAdd(&s->busy_ns, busy_ns);
}

#endif
