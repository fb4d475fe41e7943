/* Device discovery when the build has no CUDA: no device. */
#include "device.h"

int wm_gpu_available(void) { return 0; }
int wm_gpu_count(void) { return 0; }

int wm_gpu_select(int dev, wm_error *err) {
  return wm_fail(err, WM_EDEVICE, "GPU %d asked for, but this build has no CUDA", dev);
}
