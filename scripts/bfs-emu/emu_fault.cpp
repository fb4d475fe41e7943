/* gpu_check.h's fault injection for the BFS emulator: WM_GPU_FAULT_DEVICE=i
 * names the emulated device whose stream then fails (emu_fail_stream). */
#include <stdlib.h>

#include "cuda_runtime.h"

void emu_fail_stream(cudaStream_t s);

int wm_gpu_fault_here(int dev) {
  const char *s = getenv("WM_GPU_FAULT_DEVICE");
  return s && *s && atoi(s) == dev;
}

cudaError_t wm_gpu_fault_launch(cudaStream_t s) {
  emu_fail_stream(s);
  return cudaSuccess;
}
