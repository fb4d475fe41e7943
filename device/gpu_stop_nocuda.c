/* The stop word when the build has no CUDA: never made, nothing to free. */
#include "base.h"
#include "device.h"

void wm_gpu_stop_word_free(wm_monitor *m) { (void)m; }
