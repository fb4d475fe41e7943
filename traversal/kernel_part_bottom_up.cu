/* Partitioned bottom-up step at level L: each unvisited vertex of this part
 * looks among its in-arcs for one in the frontier bitmap F, stopping at the
 * first.  A warp takes 32 consecutive vertices (one word of every bitmap):
 * its ballot of "found" is the new frontier's word, which the warp writes
 * whole (Enterprise's ballot-compressed status), so the words need no
 * atomics and the gather sends them as they are.
 *
 * Load balance as in the single-GPU step: a lane checks THREAD_SCAN in-arcs
 * of its own vertex; rows still open after that are taken by the whole warp,
 * one row at a time, 32 arcs per step. */
#include "bfs_part.cuh"

namespace wm_bfs {
namespace {

using P = PartPolicy;

template <bool PARENT>
__global__ void __launch_bounds__(P::BLOCK) part_bottom_up_kernel(PartLevel a) {
  const unsigned full = 0xffffffffu, lane = threadIdx.x & 31;
  const PartRows &in = a.in;
  const uint64_t words = ((uint64_t)(in.hi - in.lo) + 31) / 32, warps = grid_threads() / 32;
  for (uint64_t k = global_thread() / 32; k < words; k += warps) {
    const uint32_t gw = in.lo / 32 + (uint32_t)k, v = in.lo + 32 * (uint32_t)k + lane;
    const uint32_t seen = a.V[gw];
    const bool open = v < in.hi && !((seen >> lane) & 1u);
    uint32_t found = kNoVertex;
    uint64_t j = 0, e = 0;
    if (open) {
      j = in.off[v - in.lo] - in.base;
      e = in.off[v - in.lo + 1] - in.base;
      uint64_t stop = e - j > (uint64_t)P::THREAD_SCAN ? j + P::THREAD_SCAN : e;
      for (; j < stop; j++) {
        uint32_t w = in.adj[j];
        if (bit_of(a.F, w)) {
          found = w;
          break;
        }
      }
    }
    unsigned pending = __ballot_sync(full, open && found == kNoVertex && j < e);
    while (pending) {
      int leader = __ffs(pending) - 1;
      pending &= pending - 1;
      uint64_t lj = __shfl_sync(full, j, leader), le = __shfl_sync(full, e, leader);
      uint32_t hit_w = kNoVertex;
      for (uint64_t chunk = lj; chunk < le; chunk += 32) {
        uint64_t t = chunk + lane;
        uint32_t w = 0;
        bool hit = false;
        if (t < le) {
          w = in.adj[t];
          hit = bit_of(a.F, w);
        }
        unsigned hits = __ballot_sync(full, hit);
        if (hits) {
          hit_w = __shfl_sync(full, w, __ffs(hits) - 1);
          break;
        }
      }
      if ((int)lane == leader) found = hit_w;
    }
    const bool hit = found != kNoVertex;
    const unsigned word = __ballot_sync(full, hit);
    if (lane == 0) a.Fn[gw] = word;
    unsigned long long edges = 0, hubs = 0;
    if (hit) {
      a.level[v - in.lo] = a.L + 1;
      if (PARENT) a.parent[v - in.lo] = found;
      edges = part_degree(a.out, v);
      hubs = edges >= a.hub_tau;
      if (v == a.target) a.stats->target_hit = 1;
    }
    add_stats(a.stats, hit, edges, hubs);
  }
}

}  // namespace

cudaError_t part_bottom_up_launch(const PartLevel &a, int sms, cudaStream_t st) {
  uint64_t words = ((uint64_t)(a.in.hi - a.in.lo) + 31) / 32;
  if (words == 0) return cudaSuccess;
  uint64_t want = (words * 32 + P::BLOCK - 1) / P::BLOCK, cap = (uint64_t)sms * P::BLOCKS_PER_SM;
  unsigned blocks = (unsigned)(want < cap ? want : cap);
  if (a.parent)
    part_bottom_up_kernel<true><<<blocks, P::BLOCK, 0, st>>>(a);
  else
    part_bottom_up_kernel<false><<<blocks, P::BLOCK, 0, st>>>(a);
  return cudaGetLastError();
}

}  // namespace wm_bfs
