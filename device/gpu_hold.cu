/* The hold kernel (NVBench's "blocking kernel"): a timed launch's streams
 * wait behind it until the host has queued the start event, the kernels
 * and the end event, so that the events time the GPU's work and not the
 * host's calls that queue it.  Without it, a start event recorded on an
 * idle stream fires at once and the launch's host overhead (the attribute
 * call, a kernel with a 2 KB parameter block, a second stream's wait) lands
 * inside the timed window, a noticeable share of a kernel that runs for
 * tens of microseconds.  The stack kernel's driver holds its
 * launches; the dedicated kernels' driver (gpu_dag.cu) replays a CUDA
 * graph instead, one call that queues the whole trial. */
#include <stdlib.h>

#include "gpu_check.h"

struct wm_gpu_hold {
  volatile int *flag; /* pinned, mapped: the host writes it, every device reads it */
};

/* Spins until the flag is set, or for at most max_ns (a host that fails
 * between arming and releasing leaves no kernel spinning for long). */
__global__ void wm_hold_kernel(const volatile int *flag, unsigned long long max_ns) {
  unsigned long long t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do {
    if (*flag) return;
    __nanosleep(256);
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  } while (t - t0 < max_ns);
}

/* One pinned flag for the process, allocated at the first use and kept:
 * a pinned allocation costs milliseconds, and the GPU tests match
 * thousands of times.  Matches run one at a time, so holds never overlap. */
static volatile int *hold_flag;

int wm_gpu_hold_create(wm_gpu_hold **out, wm_error *err) {
  *out = NULL;
  if (!hold_flag) {
    void *p = NULL;
    cudaError_t e = cudaHostAlloc(&p, sizeof(int), cudaHostAllocMapped | cudaHostAllocPortable);
    if (e != cudaSuccess) return wm_cuda_fail(err, e, "cudaHostAlloc (hold flag)", __FILE__, __LINE__);
    hold_flag = (volatile int *)p;
    *hold_flag = 1;
  }
  wm_gpu_hold *h = (wm_gpu_hold *)calloc(1, sizeof *h);
  if (!h) return wm_fail(err, WM_EINPUT, "out of host memory");
  h->flag = hold_flag;
  *out = h;
  return WM_OK;
}

void wm_gpu_hold_destroy(wm_gpu_hold *h) { free(h); }

void wm_gpu_hold_arm(wm_gpu_hold *h) {
  *h->flag = 0;
  __sync_synchronize();
}

int wm_gpu_hold_stream(wm_gpu_hold *h, cudaStream_t s, wm_error *err) {
  wm_hold_kernel<<<1, 1, 0, s>>>(h->flag, 1000000000ull); /* 1 s */
  WM_CU(cudaGetLastError());
  return WM_OK;
}

void wm_gpu_hold_release(wm_gpu_hold *h) {
  __sync_synchronize();
  *h->flag = 1;
}

/* wm_gpu_fault_launch's kernel (gpu_check.h): one thread that traps. */
__global__ void wm_fault_kernel(void) { asm volatile("trap;"); }

cudaError_t wm_gpu_fault_launch(cudaStream_t s) {
  wm_fault_kernel<<<1, 1, 0, s>>>();
  return cudaGetLastError();
}
