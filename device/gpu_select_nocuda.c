/* Stand-in for wm_gpu_select (gpu_select.cu) when the build has no CUDA. */
#include "device.h"

int wm_gpu_select(int dev, wm_error *err) {
  return wm_fail(err, WM_EDEVICE, "GPU %d asked for, but this build has no CUDA", dev);
}
