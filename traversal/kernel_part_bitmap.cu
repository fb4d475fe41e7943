/* Bitmap upkeep of the partitioned BFS: the end of a level after the
 * gather, and the sources seeded into F and V on every part (level 0 and
 * parent = itself on the part that owns them). */
#include "bfs_part.cuh"

namespace wm_bfs {
namespace {

/* A thread per word of the whole graph: the word's owner's Fn word from
 * the gathered slots (this part's own are in place), V |= it, and what the
 * next level expects zero (bfs_part.cuh) cleared. */
template <bool TOP_DOWN>
__global__ void part_visit_kernel(PartLevel a, uint64_t words) {
  if (global_thread() == 0) *a.next_stats = PartStats{};
  for (uint64_t i = global_thread(); i < words; i += grid_threads()) {
    const uint32_t w = (uint32_t)i;
    int q = 0;
    while (w >= a.wlo[q + 1]) q++;
    uint32_t f;
    if (q == a.self) {
      f = a.Fn[w];
    } else {
      f = a.stage[(uint64_t)q * a.slot + (w - a.wlo[q])];
      a.Fn[w] = f;
    }
    a.V[w] |= f;
    a.Fdone[w] = 0;
    if (TOP_DOWN) a.cand[w] = 0;
  }
}

__global__ void part_seed_kernel(PartLevel a, uint32_t *F, uint32_t *V, const uint32_t *src, uint32_t count) {
  for (uint64_t i = global_thread(); i < count; i += grid_threads()) {
    uint32_t v = src[i], bit = 1u << (v & 31);
    atomicOr(&F[v >> 5], bit);
    atomicOr(&V[v >> 5], bit);
    if (v >= a.out.lo && v < a.out.hi) {
      a.level[v - a.out.lo] = 0;
      if (a.parent) a.parent[v - a.out.lo] = v;
    }
  }
}

}  // namespace

cudaError_t part_visit_launch(const PartLevel &a, uint64_t words, bool top_down, int sms, cudaStream_t st) {
  if (words == 0) return cudaSuccess;
  if (top_down)
    part_visit_kernel<true><<<part_grid(words, sms), PartPolicy::BLOCK, 0, st>>>(a, words);
  else
    part_visit_kernel<false><<<part_grid(words, sms), PartPolicy::BLOCK, 0, st>>>(a, words);
  return cudaGetLastError();
}

cudaError_t part_seed_launch(const PartLevel &a, uint32_t *F, uint32_t *V, const uint32_t *src, uint32_t count,
                             cudaStream_t st) {
  if (count == 0) return cudaSuccess;
  uint64_t blocks = ((uint64_t)count + 255) / 256;
  part_seed_kernel<<<(unsigned)(blocks < 1024 ? blocks : 1024), 256, 0, st>>>(a, F, V, src, count);
  return cudaGetLastError();
}

}  // namespace wm_bfs
