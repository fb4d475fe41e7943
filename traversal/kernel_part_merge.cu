/* After the top-down swap: this part's new frontier from every part's
 * candidates for its words, (OR of the candidates) & ~V, written whole into
 * Fn.  A warp takes one word, a lane one vertex of it: level L + 1 and,
 * when parents are wanted, the first in-arc whose tail is in F (there is
 * one: some frontier vertex marked it), searched as in the bottom-up step
 * so that a long row is scanned by the whole warp, or, when the whole
 * frontier is listed in a.few, by a binary search for each of them in the
 * sorted row: the hubs a small frontier reaches have long rows, and
 * scanning them for a handful of vertices costs more than the level. */
#include "bfs_part.cuh"

namespace wm_bfs {
namespace {

using P = PartPolicy;

__device__ __forceinline__ uint32_t find_few(const PartLevel &a, uint32_t v) {
  const PartRows &in = a.in;
  const uint32_t *row = in.adj + (in.off[v - in.lo] - in.base);
  const uint64_t len = in.off[v - in.lo + 1] - in.off[v - in.lo];
  const uint32_t n = a.stats->nfew < P::FEW ? a.stats->nfew : P::FEW;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t u = a.few[i];
    uint64_t lo = 0, hi = len;
    while (lo < hi) {
      uint64_t mid = (lo + hi) / 2;
      if (row[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    if (lo < len && row[lo] == u) return u;
  }
  return kNoVertex;
}

__global__ void part_few_kernel(PartLevel a, uint64_t words) {
  for (uint64_t k = global_thread(); k < words; k += grid_threads())
    for (uint32_t b = a.F[k]; b; b &= b - 1) {
      unsigned at = atomicAdd(&a.stats->nfew, 1u);
      if (at < P::FEW) a.few[at] = 32 * (uint32_t)k + (__ffs(b) - 1);
    }
}

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
    if (PARENT && a.few) parent = hit ? find_few(a, v) : kNoVertex;
    else if (PARENT) parent = find_in_frontier(in, a.F, v, hit);
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

cudaError_t part_few_launch(const PartLevel &a, uint64_t words, int sms, cudaStream_t st) {
  uint64_t want = (words + 255) / 256, cap = (uint64_t)sms * 8;
  part_few_kernel<<<(unsigned)(want < cap ? (want ? want : 1) : cap), 256, 0, st>>>(a, words);
  return cudaGetLastError();
}

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
