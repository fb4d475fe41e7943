/* How many devices a GPU call opens: one rule for every driver, built with
 * or without CUDA. */
#include "device.h"

int wm_gpu_devices(int gpus, int *ndev, wm_error *err) {
  *ndev = 1;
  if (gpus > WM_MAX_GPUS)
    return wm_fail(err, WM_EUSAGE, "%d GPUs asked for; one call uses at most %d", gpus, WM_MAX_GPUS);
  if (gpus > 1) *ndev = gpus;
  return WM_OK;
}
