/* The record through which a device's kernels see warpmatch_interrupt
 * (gpu_stop.cuh reads it, gpu_stop.cu makes it): one per monitor and
 * device, in the device's memory, reset at each call's start. */
#ifndef WM_GPU_STOP_H
#define WM_GPU_STOP_H

typedef struct wm_stop {
  const int *word;              /* the monitor's pinned host word, as the device reads it */
  int seen;                     /* 1 once a read found the word set: every check then says stop */
  int pad;
  unsigned long long last_ns;   /* the device's clock at the last read of `word` */
  unsigned long long limit_ns;  /* a call's time limit (wm_gpu_stop_limit), or 0: none */
  unsigned long long start_ns;  /* the device's clock at the call's first check (with a limit) */
  /* The stack kernel's span, for a stripe's time (wm_gpu_stop_span): the
   * clock at its first block's start and at its last warp's end (0: not
   * yet), and its warps' time outside wm_acquire, summed */
  unsigned long long begin_ns, end_ns, busy_ns;
} wm_stop;

#endif
