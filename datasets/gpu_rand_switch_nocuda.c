/* Stand-in for the GPU's edge switching (gpu_rand_switch.cu) when the
 * build has no CUDA. */
#include "randomize.h"

int wm_gpu_rand_switch(const wm_graph *g, uint64_t key, uint64_t attempts, int dev, const wm_progress *stop,
                       wm_graph *out, wm_randomize_stats *st, wm_error *err) {
  (void)g, (void)key, (void)attempts, (void)dev, (void)stop, (void)out, (void)st;
  return wm_fail(err, WM_EDEVICE, "randomize: this warpmatch was built without CUDA; use --device cpu");
}

int wm_gpu_switcher_create(const wm_graph *g, int dev, wm_gpu_switcher **out, wm_error *err) {
  (void)g, (void)dev;
  *out = NULL;
  return wm_fail(err, WM_EDEVICE, "randomize: this warpmatch was built without CUDA; use --device cpu");
}

int wm_gpu_switcher_run(wm_gpu_switcher *w, const wm_graph *g, uint64_t key, uint64_t attempts,
                        const wm_progress *stop, wm_graph *out, wm_randomize_stats *st, wm_error *err) {
  (void)w, (void)g, (void)key, (void)attempts, (void)stop, (void)out, (void)st;
  return wm_fail(err, WM_EDEVICE, "randomize: this warpmatch was built without CUDA; use --device cpu");
}

void wm_gpu_switcher_destroy(wm_gpu_switcher *w) { (void)w; }

int wm_gpu_switcher_create_renumbered(const wm_graph *g, const wm_graph *sorted, const uint32_t *old_of, int dev,
                                      wm_gpu_switcher **out, wm_error *err) {
  (void)sorted, (void)old_of;
  return wm_gpu_switcher_create(g, dev, out, err);
}
