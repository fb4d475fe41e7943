/* After the top-down swap: this part's new frontier from every part's
 * candidates for its words, (OR of the candidates) & ~V, written whole into
 * Fn.  A lane takes one word and settles its new vertices: level L + 1 and,
 * when parents are wanted, the first in-arc whose tail is in F (there is
 * one: some frontier vertex marked it). */
#include "bfs_part.cuh"

namespace wm_bfs {
namespace {

using P = PartPolicy;

template <bool PARENT>
__global__ void __launch_bounds__(P::BLOCK) part_merge_kernel(PartLevel a) {
  const PartRows &in = a.in;
  const uint64_t words = ((uint64_t)(in.hi - in.lo) + 31) / 32;
  const uint64_t rounds = (words + 31) / 32 * 32; /* whole warps reach add_stats */
  for (uint64_t k = global_thread(); k < rounds; k += grid_threads()) {
    unsigned long long count = 0, edges = 0, hubs = 0;
    if (k < words) {
      const uint32_t gw = in.lo / 32 + (uint32_t)k;
      uint32_t c = a.cand[gw];
      for (int q = 0; q < a.parts; q++)
        if (q != a.self) c |= a.recv[(uint64_t)q * a.slot + k];
      c &= ~a.V[gw];
      a.Fn[gw] = c;
      for (uint32_t b = c; b; b &= b - 1) {
        uint32_t v = 32 * gw + (__ffs(b) - 1);
        a.level[v - in.lo] = a.L + 1;
        if (PARENT) {
          uint32_t p = kNoVertex;
          for (uint64_t j = in.off[v - in.lo] - in.base, e = in.off[v - in.lo + 1] - in.base; j < e; j++)
            if (bit_of(a.F, in.adj[j])) {
              p = in.adj[j];
              break;
            }
          a.parent[v - in.lo] = p;
        }
        uint64_t d = part_degree(a.out, v);
        count++, edges += d, hubs += d >= a.hub_tau;
        if (v == a.target) a.stats->target_hit = 1;
      }
    }
    add_stats(a.stats, count, edges, hubs);
  }
}

}  // namespace

cudaError_t part_merge_launch(const PartLevel &a, int sms, cudaStream_t st) {
  uint64_t words = ((uint64_t)(a.in.hi - a.in.lo) + 31) / 32;
  if (words == 0) return cudaSuccess;
  uint64_t cap = (uint64_t)sms * P::BLOCKS_PER_SM, want = (words + P::BLOCK - 1) / P::BLOCK;
  unsigned blocks = (unsigned)(want < cap ? want : cap);
  if (a.parent)
    part_merge_kernel<true><<<blocks, P::BLOCK, 0, st>>>(a);
  else
    part_merge_kernel<false><<<blocks, P::BLOCK, 0, st>>>(a);
  return cudaGetLastError();
}

}  // namespace wm_bfs
