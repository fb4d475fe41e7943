/* Stand-ins for the graph kept on the GPUs (gpu_graph.cu) when the build
 * has no CUDA; apart from gpu_device_nocuda.c so that the emulator runs, which
 * bring their own device discovery, can link the real drivers without it. */
#include "device.h"

int wm_gpu_graph_create(const wm_graph *g, int gpus, wm_gpu_graph **out, wm_error *err) {
  (void)g, (void)gpus;
  *out = NULL;
  return wm_fail(err, WM_EDEVICE, "this warpmatch was built without CUDA; use --device cpu");
}

void wm_gpu_graph_destroy(wm_gpu_graph *gg) { (void)gg; }

int wm_gpu_graph_on(const wm_gpu_graph *gg, const wm_graph *g, int dev, void **off, void **adj) {
  (void)gg, (void)g, (void)dev, (void)off, (void)adj;
  return 0;
}

void *wm_gpu_graph_pool(const wm_gpu_graph *gg, int dev) {
  (void)gg, (void)dev;
  return NULL;
}

void *wm_gpu_graph_take(const wm_gpu_graph *gg, int dev, size_t bytes, uint64_t tag) {
  (void)gg, (void)dev, (void)bytes, (void)tag;
  return NULL;
}

int wm_gpu_graph_keep(const wm_gpu_graph *gg, int dev, void *p, size_t bytes, uint64_t tag) {
  (void)gg, (void)dev, (void)p, (void)bytes, (void)tag;
  return 0;
}

int wm_gpu_graph_create_on(const wm_graph *g, int dev, wm_gpu_graph **out, wm_error *err) {
  (void)g, (void)dev;
  *out = NULL;
  return wm_fail(err, WM_EDEVICE, "no CUDA device (this build has no CUDA)");
}

int wm_gpu_graph_reload(wm_gpu_graph *gg, const wm_graph *g, wm_error *err) {
  (void)gg, (void)g;
  return wm_fail(err, WM_EDEVICE, "no CUDA device (this build has no CUDA)");
}
