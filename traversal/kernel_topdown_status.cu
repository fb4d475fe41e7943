/* Baseline top-down step of the ablation (status-array BFS): a thread per
 * vertex scans the whole status array and expands the vertices on level L
 * itself, with no queue and no load balancing. */
#include "bfs_gpu_internal.cuh"

namespace wm_bfs {
namespace {

constexpr int kBlock = 256;

__global__ void __launch_bounds__(kBlock) topdown_status_kernel(DevGraph g, DevState s, uint32_t level) {
  for (uint64_t u = global_thread(); u < g.n; u += grid_threads()) {
    if (s.status[u] != level) continue;
    for (uint64_t j = g.offsets[u], e = g.offsets[u + 1]; j < e; j++) visit(s, g.adj[j], (uint32_t)u, level + 1);
  }
}

}  // namespace

cudaError_t topdown_status_launch(const DevGraph &g, const DevState &s, uint32_t level, int sms,
                                  cudaStream_t st) {
  uint64_t want = ((uint64_t)g.n + kBlock - 1) / kBlock, cap = (uint64_t)sms * 8;
  unsigned blocks = (unsigned)(want < cap ? (want ? want : 1) : cap);
  topdown_status_kernel<<<blocks, kBlock, 0, st>>>(g, s, level);
  return cudaGetLastError();
}

}  // namespace wm_bfs
