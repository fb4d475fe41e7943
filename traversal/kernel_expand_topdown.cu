/* Top-down expansion of one class of the frontier queue, the classes
 * running concurrently on their own streams (Enterprise, Merrill et al.):
 *   Small    (out-degree < 32):        a thread per vertex;
 *   Middle   (32 .. 255):              a warp per vertex;
 *   Large    (256 .. 65535):           a block per LARGE_CHUNK arcs of a row
 *                                      (a level of a few Large vertices,
 *                                      such as a Kronecker search's second,
 *                                      3-12 of them, still fills the GPU,
 *                                      and its longest row does not set the
 *                                      level's time: a block per vertex took
 *                                      0.25 ms there);
 *   Extreme  (>= 65536):               the whole grid per vertex, one after
 *                                      another (there are few of them).
 * Every variant strides over its rows so that consecutive threads read
 * consecutive adjacency entries.  Visits are plain stores (see visit()). */
#include "bfs_gpu_internal.cuh"

namespace wm_bfs {
namespace {

using P = ExpandPolicy;

__global__ void __launch_bounds__(P::THREAD_BLOCK) expand_thread_kernel(DevGraph g, DevState s,
                                                                        const uint32_t *q, uint32_t count,
                                                                        uint32_t next) {
  for (uint64_t i = global_thread(); i < count; i += grid_threads()) {
    uint32_t u = q[i];
    for (uint64_t j = g.offsets[u], e = g.offsets[u + 1]; j < e; j++) visit(s, g.adj[j], u, next);
  }
}

__global__ void __launch_bounds__(P::WARP_BLOCK) expand_warp_kernel(DevGraph g, DevState s,
                                                                    const uint32_t *q, uint32_t count,
                                                                    uint32_t next) {
  const unsigned lane = threadIdx.x & 31;
  const uint64_t warps = grid_threads() / 32;
  for (uint64_t w = global_thread() / 32; w < count; w += warps) {
    uint32_t u = q[w];
    for (uint64_t j = g.offsets[u] + lane, e = g.offsets[u + 1]; j < e; j += 32) visit(s, g.adj[j], u, next);
  }
}

/* Chunks a Large row can have: slot k of vertex i is item i * kLargeSlots + k. */
constexpr uint64_t kLargeSlots = (kLargeBelow + P::LARGE_CHUNK - 1) / P::LARGE_CHUNK;

__global__ void __launch_bounds__(P::CTA_BLOCK) expand_cta_kernel(DevGraph g, DevState s,
                                                                  const uint32_t *q, uint32_t count,
                                                                  uint32_t next) {
  for (uint64_t i = blockIdx.x; i < (uint64_t)count * kLargeSlots; i += gridDim.x) {
    const uint32_t u = q[i / kLargeSlots];
    const uint64_t first = g.offsets[u] + i % kLargeSlots * P::LARGE_CHUNK, e = g.offsets[u + 1];
    if (first >= e) continue; /* the row has fewer chunks (the whole block alike) */
    const uint64_t stop = e - first < P::LARGE_CHUNK ? e : first + P::LARGE_CHUNK;
    for (uint64_t j = first + threadIdx.x; j < stop; j += blockDim.x) visit(s, g.adj[j], u, next);
  }
}

__global__ void __launch_bounds__(P::GRID_BLOCK) expand_grid_kernel(DevGraph g, DevState s,
                                                                    const uint32_t *q, uint32_t count,
                                                                    uint32_t next) {
  for (uint32_t i = 0; i < count; i++) {
    uint32_t u = q[i];
    for (uint64_t j = g.offsets[u] + global_thread(), e = g.offsets[u + 1]; j < e; j += grid_threads())
      visit(s, g.adj[j], u, next);
  }
}

unsigned blocks_for(uint64_t items, uint64_t per_block, int sms) {
  uint64_t b = (items + per_block - 1) / per_block, cap = (uint64_t)sms * P::MAX_BLOCKS_PER_SM;
  return (unsigned)(b < cap ? (b ? b : 1) : cap);
}

}  // namespace

cudaError_t expand_topdown_launch(int cls, const DevGraph &g, const DevState &s, const uint32_t *q,
                                  uint32_t count, uint32_t level, int sms, cudaStream_t st) {
  if (count == 0) return cudaSuccess;
  uint32_t next = level + 1;
  switch (cls) {
  case Q_SMALL:
    expand_thread_kernel<<<blocks_for(count, P::THREAD_BLOCK, sms), P::THREAD_BLOCK, 0, st>>>(g, s, q, count, next);
    break;
  case Q_MIDDLE:
    expand_warp_kernel<<<blocks_for(count, P::WARP_BLOCK / 32, sms), P::WARP_BLOCK, 0, st>>>(g, s, q, count, next);
    break;
  case Q_LARGE:
    expand_cta_kernel<<<blocks_for(count * kLargeSlots, 1, sms), P::CTA_BLOCK, 0, st>>>(g, s, q, count, next);
    break;
  case Q_EXTREME:
    expand_grid_kernel<<<(unsigned)sms * P::GRID_BLOCKS_PER_SM, P::GRID_BLOCK, 0, st>>>(g, s, q, count, next);
    break;
  default:
    return cudaErrorInvalidValue;
  }
  return cudaGetLastError();
}

}  // namespace wm_bfs
