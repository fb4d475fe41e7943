/* Device discovery when the build has no CUDA: no device. */
#include "device.h"

int wm_gpu_available(void) { return 0; }
int wm_gpu_count(void) { return 0; }
