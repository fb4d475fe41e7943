/* The end of a sparse top-down level (bfs_part.cuh): every part's list of
 * (vertex, parent) candidates, all-gathered, is applied on every part, so
 * that each builds the same new frontier Fn without a bitmap exchange.  A
 * candidate already in V is old; of the copies of a new vertex (several
 * parts may list it) the one whose atomicOr sets its Fn bit wins, adds it
 * to V and, on the owner, gives it level L + 1 and its parent.  The same
 * launch clears what the next level expects zero: F's buffer, this part's
 * candidate bits and list, and the next level's stats. */
#include "bfs_part.cuh"

namespace wm_bfs {
namespace {

using P = PartPolicy;

__global__ void __launch_bounds__(P::BLOCK) part_sparse_apply_kernel(PartLevel a, uint64_t words) {
  unsigned long long count = 0, edges = 0, hubs = 0; /* added once per warp, at the end */
  if (global_thread() == 0) *a.next_stats = PartStats{};
  for (uint64_t i = global_thread(); i < words; i += grid_threads()) a.Fdone[i] = 0;
  for (int q = 0; q < a.parts; q++) {
    const uint32_t *list = a.lists + (uint64_t)q * a.lslot;
    const uint32_t n = list[0];
    if (n > a.lcap) {
      if (global_thread() == 0) a.stats->overflow = 1;
      continue;
    }
    for (uint64_t k = global_thread(); k < n; k += grid_threads()) {
      const uint32_t v = list[1 + 2 * k], u = list[2 + 2 * k], word = v >> 5, bit = 1u << (v & 31);
      if (q == a.self) a.cand[word] = 0;
      if ((a.V[word] & bit) || (atomicOr(&a.Fn[word], bit) & bit)) continue;
      atomicOr(&a.V[word], bit);
      if (v < a.out.lo || v >= a.out.hi) continue;
      a.level[v - a.out.lo] = a.L + 1;
      if (a.parent) a.parent[v - a.out.lo] = u;
      uint64_t d = part_degree(a.out, v);
      count++, edges += d, hubs += d >= a.hub_tau;
      if (v == a.target) a.stats->target_hit = 1;
    }
  }
  add_stats(a.stats, count, edges, hubs);
  if (global_thread() == 0) a.list[0] = 0;
}

}  // namespace

cudaError_t part_sparse_apply_launch(const PartLevel &a, uint64_t words, int sms, cudaStream_t st) {
  uint64_t most = (uint64_t)a.lcap * a.parts;
  part_sparse_apply_kernel<<<part_grid(most > words ? most : words, sms), P::BLOCK, 0, st>>>(a, words);
  return cudaGetLastError();
}

}  // namespace wm_bfs
