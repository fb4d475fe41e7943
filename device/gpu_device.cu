/* Device discovery for the GPU executors. */
#include <cuda_runtime.h>

#include "device.h"

extern "C" int wm_gpu_count(void) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return n;
}

extern "C" int wm_gpu_available(void) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError(); /* clear the sticky "no device" error */
    return 0;
  }
  return n > 0;
}

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
