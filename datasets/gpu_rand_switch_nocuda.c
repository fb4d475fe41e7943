/* Stand-in for the GPU's edge switching (gpu_rand_switch.cu) when the
 * build has no CUDA. */
#include "randomize.h"

int wm_gpu_rand_switch(const wm_graph *g, uint64_t key, uint64_t attempts, int dev, const wm_progress *stop,
                       wm_graph *out, wm_randomize_stats *st, wm_error *err) {
  (void)g, (void)key, (void)attempts, (void)dev, (void)stop, (void)out, (void)st;
  return wm_fail(err, WM_EDEVICE, "randomize: this warpmatch was built without CUDA; use --device cpu");
}
