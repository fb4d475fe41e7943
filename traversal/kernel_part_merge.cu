/* After the top-down swap, in two launches:
 *   words:  a thread per own word writes the new frontier's word, (OR of
 *           every part's candidates) & ~V, into Fn and lists the words that
 *           gained vertices;
 *   settle: a warp per listed word, a lane per new vertex: level L + 1 and,
 *           when parents are wanted, the parent.  A vertex this part marked
 *           has it from the mark (tparent); the others look for the first
 *           in-arc whose tail is in F (there is one: some frontier vertex
 *           marked it), searched as in the bottom-up step so that a long
 *           row is scanned by the whole warp, or, when the whole
 * frontier is listed in a.few, by a binary search for each of them in the
 * sorted row: the hubs a small frontier reaches have long rows, and
 * scanning them for a handful of vertices costs more than the level. */
#include "bfs_part.cuh"

namespace wm_bfs {
namespace {

using P = PartPolicy;

__device__ __forceinline__ uint32_t find_few(const PartLevel &a, uint32_t v) {
  const PartRows &in = a.in;
  const uint32_t *row = in.adj + part_row(in, v);
  const uint64_t len = part_degree(in, v);
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

__global__ void __launch_bounds__(P::BLOCK) part_merge_words_kernel(PartLevel a) {
  const PartRows &in = a.in;
  const uint64_t words = ((uint64_t)(in.hi - in.lo) + 31) / 32, rounds = (words + 31) / 32 * 32;
  for (uint64_t k = global_thread(); k < rounds; k += grid_threads()) {
    uint32_t c = 0;
    if (k < words) {
      const uint32_t gw = in.lo / 32 + (uint32_t)k;
      c = a.cand[gw];
      for (int q = 0; q < a.parts; q++)
        if (q != a.self) c |= a.recv[(uint64_t)q * a.slot + k];
      c &= ~a.V[gw];
      a.Fn[gw] = c;
    }
    warp_append(c != 0, (uint32_t)k, a.work, &a.stats->nwork);
  }
}

template <bool PARENT>
__global__ void __launch_bounds__(P::BLOCK) part_merge_settle_kernel(PartLevel a) {
  const unsigned lane = threadIdx.x & 31;
  const PartRows &in = a.in;
  const uint64_t count = a.stats->nwork, warps = grid_threads() / 32;
  unsigned long long n = 0, edges = 0, hubs = 0; /* added once per warp, at the end */
  for (uint64_t i = global_thread() / 32; i < count; i += warps) {
    const uint32_t gw = in.lo / 32 + a.work[i], v = 32 * gw + lane;
    const uint32_t c = a.Fn[gw], mine = a.cand[gw];
    const bool hit = (c >> lane) & 1u, marked_here = (mine >> lane) & 1u;
    uint32_t parent = kNoVertex;
    if (PARENT) {
      if (marked_here) parent = a.tparent[v];
      if (a.few) {
        if (hit && !marked_here) parent = find_few(a, v);
      } else {
        uint32_t p = find_in_frontier(in, a.F, v, hit && !marked_here);
        if (!marked_here) parent = p;
      }
    }
    if (hit) {
      a.level[v - in.lo] = a.L + 1;
      if (PARENT) a.parent[v - in.lo] = parent;
      uint64_t d = part_degree(a.out, v);
      n++, edges += d, hubs += d >= a.hub_tau;
      if (v == a.target) a.stats->target_hit = 1;
    }
  }
  add_stats(a.stats, n, edges, hubs);
}

}  // namespace

cudaError_t part_few_launch(const PartLevel &a, uint64_t words, int sms, cudaStream_t st) {
  part_few_kernel<<<part_grid(words, sms), P::BLOCK, 0, st>>>(a, words);
  return cudaGetLastError();
}

cudaError_t part_merge_launch(const PartLevel &a, int sms, cudaStream_t st) {
  uint64_t words = ((uint64_t)(a.in.hi - a.in.lo) + 31) / 32;
  if (words == 0) return cudaSuccess;
  part_merge_words_kernel<<<part_grid(words, sms), P::BLOCK, 0, st>>>(a);
  unsigned blocks = part_grid(words * 32, sms); /* the list's length is on the device */
  if (a.parent)
    part_merge_settle_kernel<true><<<blocks, P::BLOCK, 0, st>>>(a);
  else
    part_merge_settle_kernel<false><<<blocks, P::BLOCK, 0, st>>>(a);
  return cudaGetLastError();
}

}  // namespace wm_bfs
