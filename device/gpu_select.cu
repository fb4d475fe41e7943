/* The calling thread's device (device.h, wm_gpu_select): a file of its
 * own, as its stand-in, so that an emulator that brings its own device
 * discovery links neither twice. */
#include <cuda_runtime.h>

#include "device.h"

extern "C" int wm_gpu_select(int dev, wm_error *err) {
  const int n = wm_gpu_count();
  if (dev < 0 || dev >= n) return wm_fail(err, WM_EDEVICE, "GPU %d asked for, but this host has %d", dev, n);
  const cudaError_t e = cudaSetDevice(dev);
  if (e != cudaSuccess) {
    cudaGetLastError();
    return wm_fail(err, WM_EDEVICE, "GPU %d: cudaSetDevice: %s", dev, cudaGetErrorString(e));
  }
  return WM_OK;
}
