/* Bitmap upkeep of the partitioned BFS: V |= Fn after each gather, and the
 * sources seeded into F and V on every part (level 0 and parent = itself on
 * the part that owns them). */
#include "bfs_part.cuh"

namespace wm_bfs {
namespace {

__global__ void part_visit_kernel(uint32_t *V, const uint32_t *Fn, uint64_t words) {
  for (uint64_t i = global_thread(); i < words; i += grid_threads()) V[i] |= Fn[i];
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

cudaError_t part_visit_launch(uint32_t *V, const uint32_t *Fn, uint64_t words, int sms, cudaStream_t st) {
  if (words == 0) return cudaSuccess;
  part_visit_kernel<<<part_grid(words, sms), PartPolicy::BLOCK, 0, st>>>(V, Fn, words);
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
