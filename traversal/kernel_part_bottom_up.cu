/* Partitioned bottom-up step at level L: each unvisited vertex of this part
 * looks among its in-arcs for one in the frontier bitmap F, stopping at the
 * first.  A warp takes 32 consecutive vertices (one word of every bitmap):
 * its ballot of "found" is the new frontier's word, which the warp writes
 * whole (Enterprise's ballot-compressed status), so the words need no
 * atomics and the gather sends them as they are.
 * The search of each row is find_in_frontier's (bfs_part.cuh). */
#include "bfs_part.cuh"

namespace wm_bfs {
namespace {

using P = PartPolicy;

template <bool PARENT>
__global__ void __launch_bounds__(P::BLOCK) part_bottom_up_kernel(PartLevel a) {
  const unsigned lane = threadIdx.x & 31;
  const PartRows &in = a.in;
  const uint64_t words = ((uint64_t)(in.hi - in.lo) + 31) / 32, warps = grid_threads() / 32;
  for (uint64_t k = global_thread() / 32; k < words; k += warps) {
    const uint32_t gw = in.lo / 32 + (uint32_t)k, v = in.lo + 32 * (uint32_t)k + lane;
    const uint32_t seen = a.V[gw];
    const bool open = v < in.hi && !((seen >> lane) & 1u);
    const uint32_t found = find_in_frontier(in, a.F, v, open);
    const bool hit = found != kNoVertex;
    const unsigned word = __ballot_sync(0xffffffffu, hit);
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
