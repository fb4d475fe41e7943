/* The hold of device/gpu_hold.cu, for the emulator: its launches run
 * when they are queued, so a hold kernel would spin before the host could
 * release it.  Nothing is held; the counts are what is checked here. */
#include "gpu_check.h"

struct wm_gpu_hold {
  int unused;
};

static wm_gpu_hold the_hold;

int wm_gpu_hold_create(wm_gpu_hold **out, wm_error *) {
  *out = &the_hold;
  return WM_OK;
}
void wm_gpu_hold_destroy(wm_gpu_hold *) {}
void wm_gpu_hold_arm(wm_gpu_hold *) {}
int wm_gpu_hold_stream(wm_gpu_hold *, cudaStream_t, wm_error *) { return WM_OK; }
void wm_gpu_hold_release(wm_gpu_hold *) {}

/* No fault is emulated: the injected kernel does nothing here. */
cudaError_t wm_gpu_fault_launch(cudaStream_t) { return cudaSuccess; }
