/* The stage without CUDA (device.h): none, and no copy. */
#include "device.h"

wm_stage *wm_stage_create(void) { return NULL; }

void wm_stage_destroy(wm_stage *s) { (void)s; }

int wm_stage_copy(wm_stage *s, void *dst, const void *src, size_t bytes, wm_copy_way way, wm_error *err) {
  (void)s, (void)dst, (void)src, (void)bytes, (void)way;
  return wm_fail(err, WM_EDEVICE, "no CUDA device (built without CUDA)");
}
