/* Stand-ins for the GPU BFS entry points when the build has no CUDA. */
#include "traversal.h"

struct wm_bfs_gpu_ctx {
  int unused;
};

static int no_cuda(wm_error *err) {
  return wm_fail(err, WM_EDEVICE, "bfs: this warpmatch was built without CUDA; use --device cpu");
}

int wm_bfs_gpu(const wm_graph *g, const uint32_t *sources, uint32_t nsources,
               const wm_bfs_options *o, wm_bfs_result *r, wm_error *err) {
  (void)g, (void)sources, (void)nsources, (void)o, (void)r;
  return no_cuda(err);
}

int wm_bfs_gpu_create(const wm_graph *g, const wm_bfs_options *o, wm_bfs_gpu_ctx **ctx,
                      wm_error *err) {
  (void)g, (void)o;
  *ctx = NULL;
  return no_cuda(err);
}

int wm_bfs_gpu_run(wm_bfs_gpu_ctx *ctx, const uint32_t *sources, uint32_t nsources,
                   const wm_bfs_options *o, wm_bfs_result *r, wm_error *err) {
  (void)ctx, (void)sources, (void)nsources, (void)o, (void)r;
  return no_cuda(err);
}

void wm_bfs_gpu_destroy(wm_bfs_gpu_ctx *ctx) { (void)ctx; }

const char *wm_bfs_gpu_describe(const wm_bfs_gpu_ctx *ctx) {
  (void)ctx;
  return "built without CUDA";
}

int wm_gpu_bandwidth_probe(double *gbps, wm_error *err) {
  *gbps = 0;
  return no_cuda(err);
}
