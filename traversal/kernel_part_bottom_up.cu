/* Partitioned bottom-up step at level L over this part's queue of
 * unvisited vertices with in-arcs (bq, in vertex order): each looks among
 * its in-arcs for one in the frontier bitmap F, stopping at the first
 * (find_in_frontier, bfs_part.cuh).  Found vertices get level L + 1, their
 * parent and their bit in Fn (whose own words the host cleared); the others
 * go on, in order within each warp, to bq_next, so each step only visits
 * vertices still open.  The queue starts from the own words of V at the
 * switch to bottom-up (part_unvisited_kernel), leaving out vertices without
 * in-arcs (of which a Kronecker graph has many), which no step can reach. */
#include "bfs_part.cuh"

namespace wm_bfs {
namespace {

using P = PartPolicy;

/* Loops run whole blocks together (block_append synchronises them); the
 * frontier figures are summed per thread and added once per warp, at the
 * end, so that the three counters see a few atomics, not one per step. */
template <bool PARENT>
__global__ void __launch_bounds__(P::BLOCK) part_bottom_up_kernel(PartLevel a) {
  const PartRows &in = a.in;
  const uint64_t len = *a.bq_len, rounds = (len + P::BLOCK - 1) / P::BLOCK * P::BLOCK;
  unsigned long long count = 0, edges = 0, hubs = 0;
  for (uint64_t i = global_thread(); i < rounds; i += grid_threads()) {
    const bool open = i < len;
    const uint32_t v = open ? a.bq[i] : kNoVertex;
    const uint32_t found = find_in_frontier(in, a.F, v, open);
    const bool hit = found != kNoVertex;
    if (hit) {
      a.level[v - in.lo] = a.L + 1;
      if (PARENT) a.parent[v - in.lo] = found;
      atomicOr(&a.Fn[v >> 5], 1u << (v & 31));
      uint64_t d = part_degree(a.out, v);
      count++, edges += d, hubs += d >= a.hub_tau;
      if (v == a.target) a.stats->target_hit = 1;
    }
    block_append(open && !hit, v, a.bq_next, a.bq_next_len);
  }
  add_stats(a.stats, count, edges, hubs);
}

__global__ void __launch_bounds__(P::BLOCK) part_unvisited_kernel(PartLevel a) {
  const PartRows &in = a.in;
  const uint64_t n = in.hi - in.lo, rounds = (n + P::BLOCK - 1) / P::BLOCK * P::BLOCK;
  for (uint64_t i = global_thread(); i < rounds; i += grid_threads()) {
    const uint32_t v = in.lo + (uint32_t)i;
    const bool open = i < n && !((a.V[v >> 5] >> (v & 31)) & 1u) && part_degree(in, v) > 0;
    block_append(open, v, a.bq_next, a.bq_next_len);
  }
}

}  // namespace

cudaError_t part_bottom_up_launch(const PartLevel &a, int sms, cudaStream_t st) {
  if (a.in.hi == a.in.lo) return cudaSuccess;
  unsigned blocks = part_grid(a.in.hi - a.in.lo, sms); /* the queue's length is on the device */
  if (a.parent)
    part_bottom_up_kernel<true><<<blocks, P::BLOCK, 0, st>>>(a);
  else
    part_bottom_up_kernel<false><<<blocks, P::BLOCK, 0, st>>>(a);
  return cudaGetLastError();
}

cudaError_t part_unvisited_launch(const PartLevel &a, int sms, cudaStream_t st) {
  if (a.in.hi == a.in.lo) return cudaSuccess;
  part_unvisited_kernel<<<part_grid(a.in.hi - a.in.lo, sms), P::BLOCK, 0, st>>>(a);
  return cudaGetLastError();
}

}  // namespace wm_bfs
