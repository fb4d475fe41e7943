/* After the top-down swap: this part's new frontier from every part's
 * candidates for its words, (OR of the candidates) & ~V, written whole into
 * Fn.  A warp takes one word, a lane one vertex of it: level L + 1 and,
 * when parents are wanted, the first in-arc whose tail is in F (there is
 * one: some frontier vertex marked it), searched as in the bottom-up step
 * so that a long row is scanned by the whole warp. */
#include "bfs_part.cuh"

namespace wm_bfs {
namespace {

using P = PartPolicy;

template <bool PARENT>
__global__ void __launch_bounds__(P::BLOCK) part_merge_kernel(PartLevel a) {
  const unsigned lane = threadIdx.x & 31;
  const PartRows &in = a.in;
  const uint64_t words = ((uint64_t)(in.hi - in.lo) + 31) / 32, warps = grid_threads() / 32;
  for (uint64_t k = global_thread() / 32; k < words; k += warps) {
    const uint32_t gw = in.lo / 32 + (uint32_t)k, v = 32 * gw + lane;
    /* lane q reads part q's candidates (its own: cand), the warp ORs them */
    uint32_t c = 0;
    if ((int)lane < a.parts) c = (int)lane == a.self ? a.cand[gw] : a.recv[(uint64_t)lane * a.slot + k];
    c = __reduce_or_sync(0xffffffffu, c) & ~a.V[gw];
    if (lane == 0) a.Fn[gw] = c;
    const bool hit = (c >> lane) & 1u;
    uint32_t parent = kNoVertex;
    if (PARENT) parent = find_in_frontier(in, a.F, v, hit);
    unsigned long long edges = 0, hubs = 0;
    if (hit) {
      a.level[v - in.lo] = a.L + 1;
      if (PARENT) a.parent[v - in.lo] = parent;
      edges = part_degree(a.out, v);
      hubs = edges >= a.hub_tau;
      if (v == a.target) a.stats->target_hit = 1;
    }
    add_stats(a.stats, hit, edges, hubs);
  }
}

}  // namespace

cudaError_t part_merge_launch(const PartLevel &a, int sms, cudaStream_t st) {
  uint64_t words = ((uint64_t)(a.in.hi - a.in.lo) + 31) / 32;
  if (words == 0) return cudaSuccess;
  uint64_t want = (words * 32 + P::BLOCK - 1) / P::BLOCK, cap = (uint64_t)sms * P::BLOCKS_PER_SM;
  unsigned blocks = (unsigned)(want < cap ? want : cap);
  if (a.parent)
    part_merge_kernel<true><<<blocks, P::BLOCK, 0, st>>>(a);
  else
    part_merge_kernel<false><<<blocks, P::BLOCK, 0, st>>>(a);
  return cudaGetLastError();
}

}  // namespace wm_bfs
