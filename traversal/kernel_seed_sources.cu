/* Puts the sources on level 0, each its own parent (the list has no
 * duplicates: the host removes them). */
#include "bfs_gpu_internal.cuh"

namespace wm_bfs {
namespace {

__global__ void seed_sources_kernel(DevState s, const uint32_t *src, uint32_t count) {
  for (uint64_t i = global_thread(); i < count; i += grid_threads()) {
    uint32_t v = src[i];
    s.status[v] = 0;
    if (s.parent) s.parent[v] = v;
  }
}

}  // namespace

cudaError_t seed_sources_launch(const DevState &s, const uint32_t *src, uint32_t count, cudaStream_t st) {
  if (count == 0) return cudaSuccess;
  uint64_t blocks = ((uint64_t)count + 255) / 256;
  seed_sources_kernel<<<(unsigned)(blocks < 1024 ? blocks : 1024), 256, 0, st>>>(s, src, count);
  return cudaGetLastError();
}

}  // namespace wm_bfs
