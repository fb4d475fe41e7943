/* Bottom-up step at level L: every unvisited vertex v looks among its
 * in-neighbours for one on level L, stopping at the first.  v alone writes
 * its status and parent, so there are no races on them.
 *
 * Hub cache (Enterprise): each block first copies the hub table (frontier
 * hubs of level L, direct-mapped, the highest degree per slot) into shared
 * memory.  A neighbour found there is a parent without a global read.  It
 * is sound because a cached hub w is on level L, so the arc w -> v proves
 * level[v] = L + 1.
 *
 * Load balance: first_hit_in_row's (bfs_gpu_internal.cuh), THREAD_SCAN
 * in-neighbours by a thread alone, then its warp.
 *
 * Two kernels.  The baseline (queue generation off) visits every vertex
 * and asks the status array whether a neighbour is on level L.  The step
 * of the pipeline (BottomUpArgs) asks a bitmap of the frontier instead (n /
 * 8 bytes, which stay in L2, where the status array's 4 bytes a vertex do
 * not: every miss read a sector from memory), and lists its own outputs,
 * the vertices it reached and those it left, with the new frontier's
 * figures, so that no queue generation (two passes over the queue, or
 * over the status array at the switch) follows a bottom-up level. */
#include "bfs_gpu_internal.cuh"

namespace wm_bfs {
namespace {

using P = BottomUpPolicy;

/* The hub table of level L into shared memory (kNoVertex: empty slot). */
template <bool CACHE>
__device__ __forceinline__ void load_cache(uint32_t *cache, const unsigned long long *hub_table) {
  if (CACHE) {
    for (int k = threadIdx.x; k < P::CACHE; k += P::BLOCK) {
      unsigned long long key = hub_table[k];
      cache[k] = key ? (uint32_t)key : kNoVertex; /* 0: empty slot */
    }
    __syncthreads();
  }
}

template <bool CACHE>
__global__ void __launch_bounds__(P::BLOCK) bottom_up_kernel(DevGraph in, DevState s, uint32_t level,
                                                             const unsigned long long *hub_table) {
  __shared__ uint32_t cache[CACHE ? P::CACHE : 1];
  load_cache<CACHE>(cache, hub_table);
  /* the bound depends on the block only, so whole warps iterate together
   * and the ballots below see every lane */
  for (uint64_t base = (uint64_t)blockIdx.x * P::BLOCK; base < in.n; base += grid_threads()) {
    uint64_t i = base + threadIdx.x;
    uint32_t v = i < in.n && s.status[i] == kUnreached ? (uint32_t)i : kNoVertex;
    const bool open = v != kNoVertex;
    const uint32_t found = first_hit_in_row(in.adj, open ? in.offsets[v] : 0, open ? in.offsets[v + 1] : 0, open,
                                            P::THREAD_SCAN, [&](uint32_t w) {
                                              return (CACHE && cache[w & (P::CACHE - 1)] == w) || s.status[w] == level;
                                            });
    if (found != kNoVertex) {
      s.status[v] = level + 1;
      if (s.parent) s.parent[v] = found;
    }
  }
}

/* v's bit in Fn for each lane with `hit`, one atomic per run of lanes
 * whose vertices share a word (a step lists each warp's vertices together
 * and in order, so a warp's vertices fall in a few runs): each lane ORs in
 * the bits of the lanes after it with its word (a doubling scan; a lane of
 * the same word past the run adds bits that are set anyway), and the first
 * lane of each run sets them.  Full-warp shuffles only. */
__device__ __forceinline__ void set_bits(uint32_t *Fn, uint32_t v, bool hit) {
  const unsigned full = 0xffffffffu, lane = threadIdx.x & 31;
  const uint32_t word = hit ? v >> 5 : kNoVertex; /* never a word: n < 2^32 */
  uint32_t bits = hit ? 1u << (v & 31) : 0u;
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    const uint32_t w = __shfl_down_sync(full, word, d), b = __shfl_down_sync(full, bits, d);
    if (w == word) bits |= b;
  }
  const uint32_t before = __shfl_sync(full, word, lane ? lane - 1 : 0);
  if (hit && (lane == 0 || before != word)) atomicOr(&Fn[word], bits);
}

/* The output slots of a tile's items: item k of every thread of the
 * block, for each output q where take[k][q], in one run per (q, k) (a
 * warp's lanes hold consecutive vertices of each k, which stay together
 * and in order), and one global atomic per output and tile.  Every thread
 * of the block calls it the same number of times (it synchronises the
 * block). */
template <int K, int ITEMS>
__device__ __forceinline__ void tile_slots(const bool (&take)[ITEMS][K], unsigned *const (&len)[K],
                                           unsigned (&at)[ITEMS][K]) {
  __shared__ unsigned s_count[K][ITEMS], s_base[K][ITEMS];
  const unsigned full = 0xffffffffu, lane = threadIdx.x & 31;
  if (threadIdx.x < K * ITEMS) s_count[threadIdx.x / ITEMS][threadIdx.x % ITEMS] = 0;
  __syncthreads();
  unsigned m[ITEMS][K];
#pragma unroll
  for (int k = 0; k < ITEMS; k++)
#pragma unroll
    for (int q = 0; q < K; q++) {
      m[k][q] = __ballot_sync(full, take[k][q]);
      at[k][q] = lane == 0 && m[k][q] ? atomicAdd(&s_count[q][k], (unsigned)__popc(m[k][q])) : 0;
    }
  __syncthreads();
  if (threadIdx.x < K) {
    unsigned total = 0;
#pragma unroll
    for (int k = 0; k < ITEMS; k++) total += s_count[threadIdx.x][k];
    unsigned base = total ? atomicAdd(len[threadIdx.x], total) : 0;
#pragma unroll
    for (int k = 0; k < ITEMS; k++) s_base[threadIdx.x][k] = base, base += s_count[threadIdx.x][k];
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < ITEMS; k++)
#pragma unroll
    for (int q = 0; q < K; q++)
      at[k][q] = s_base[q][k] + __shfl_sync(full, at[k][q], 0) + __popc(m[k][q] & ((1u << lane) - 1));
}

/* A tile is ITEMS vertices a thread, whose loads go out together: the
 * candidates, their rows' bounds, their rows' first arcs (one dependent
 * round trip each for all of them, where a vertex a round left a thread
 * idle while the block's barriers waited on it); then the rest of each row
 * as first_hit_in_row's.  Loops run whole blocks together (tile_slots
 * synchronises them); the figures are summed per thread and added once
 * per warp, at the end. */
template <bool CACHE>
__global__ void __launch_bounds__(P::BLOCK, P::MIN_BLOCKS) bottom_up_step_kernel(BottomUpArgs a) {
  __shared__ uint32_t cache[CACHE ? P::CACHE : 1];
  load_cache<CACHE>(cache, a.hub_table);
  constexpr int I = P::ITEMS;
  constexpr uint64_t TILE = (uint64_t)P::BLOCK * I;
  const uint64_t tiles = ((uint64_t)a.len + TILE - 1) / TILE;
  const auto parent = [&](uint32_t w) { return (CACHE && cache[w & (P::CACHE - 1)] == w) || bit_of(a.F, w); };
  /* a symmetric graph's out-degree is the row's length */
  const bool same = a.in.offsets == a.out.offsets;
  unsigned *const lens[2] = {&a.stats->found, &a.stats->left};
  unsigned long long edges = 0;
  unsigned hubs = 0;
  for (uint64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const uint64_t first = t * TILE + threadIdx.x;
    uint32_t v[I], found[I];
    uint64_t j[I], e[I];
#pragma unroll
    for (int k = 0; k < I; k++) {
      const uint64_t i = first + (uint64_t)k * P::BLOCK;
      v[k] = kNoVertex;
      if (i < a.len) {
        if (a.list) v[k] = a.list[i];
        else if (a.s.status[i] == kUnreached && bit_of(a.has_in, (uint32_t)i)) v[k] = (uint32_t)i;
      }
    }
#pragma unroll
    for (int k = 0; k < I; k++) {
      const bool open = v[k] != kNoVertex;
      j[k] = open ? a.in.offsets[v[k]] : 0;
      e[k] = open ? a.in.offsets[v[k] + 1] : 0;
    }
#pragma unroll
    for (int k = 0; k < I; k++) {
      found[k] = kNoVertex;
      if (j[k] < e[k]) {
        const uint32_t w = a.in.adj[j[k]];
        if (parent(w)) found[k] = w;
      }
    }
    bool take[I][2];
#pragma unroll
    for (int k = 0; k < I; k++) {
      const bool open = v[k] != kNoVertex;
      const uint32_t rest = first_hit_in_row(a.in.adj, j[k] + 1, e[k], open && found[k] == kNoVertex && j[k] < e[k],
                                             P::THREAD_SCAN - 1, parent);
      if (found[k] == kNoVertex) found[k] = rest;
      const bool hit = found[k] != kNoVertex;
      if (hit) {
        a.s.status[v[k]] = a.level + 1;
        if (a.s.parent) a.s.parent[v[k]] = found[k];
        const uint64_t d = same ? e[k] - j[k] : degree_of(a.out, v[k]);
        edges += d;
        if (d >= a.hub_tau) {
          hubs++;
          if (CACHE) record_hub(a.hub_next, v[k], d);
        }
        if (v[k] == a.target) a.stats->target_level = a.level + 1;
      }
      if (a.list) set_bits(a.Fn, v[k], hit);
      else { /* a warp's vertices are one word's */
        const unsigned word = __ballot_sync(0xffffffffu, hit);
        if ((threadIdx.x & 31) == 0 && word) a.Fn[(first + (uint64_t)k * P::BLOCK) >> 5] = word;
      }
      take[k][0] = hit, take[k][1] = open && !hit;
    }
    unsigned at[I][2];
    tile_slots<2, I>(take, lens, at);
#pragma unroll
    for (int k = 0; k < I; k++) {
      if (take[k][0]) a.frontier[at[k][0]] = v[k];
      else if (take[k][1]) a.left_end[-1 - (int64_t)at[k][1]] = v[k];
    }
  }
  for (int d = 16; d; d >>= 1) {
    edges += __shfl_down_sync(0xffffffffu, edges, d);
    hubs += __shfl_down_sync(0xffffffffu, hubs, d);
  }
  if ((threadIdx.x & 31) == 0 && edges) atomicAdd(&a.stats->frontier_edges, edges);
  if ((threadIdx.x & 31) == 0 && hubs) atomicAdd(&a.stats->hubs, hubs);
}

__global__ void bits_from_list_kernel(const uint32_t *list, uint32_t count, uint32_t *bits) {
  for (uint64_t i = global_thread(); i < count; i += grid_threads()) atomicOr(&bits[list[i] >> 5], 1u << (list[i] & 31));
}

unsigned blocks_for(uint64_t len, int sms) {
  uint64_t want = (len + P::BLOCK - 1) / P::BLOCK, cap = (uint64_t)sms * P::BLOCKS_PER_SM;
  return (unsigned)(want < cap ? (want ? want : 1) : cap);
}

}  // namespace

cudaError_t bottom_up_launch(const DevGraph &in, const DevState &s, uint32_t level,
                             const unsigned long long *hub_table, int sms, cudaStream_t st) {
  if (in.n == 0) return cudaSuccess;
  if (hub_table)
    bottom_up_kernel<true><<<blocks_for(in.n, sms), P::BLOCK, 0, st>>>(in, s, level, hub_table);
  else
    bottom_up_kernel<false><<<blocks_for(in.n, sms), P::BLOCK, 0, st>>>(in, s, level, hub_table);
  return cudaGetLastError();
}

cudaError_t bottom_up_step_launch(const BottomUpArgs &a, int sms, cudaStream_t st) {
  if (a.len == 0) return cudaSuccess;
  const uint64_t tiles = ((uint64_t)a.len + P::BLOCK * P::ITEMS - 1) / (P::BLOCK * P::ITEMS),
                 cap = (uint64_t)sms * P::MIN_BLOCKS;
  const unsigned blocks = (unsigned)(tiles < cap ? tiles : cap);
  if (a.hub_table)
    bottom_up_step_kernel<true><<<blocks, P::BLOCK, 0, st>>>(a);
  else
    bottom_up_step_kernel<false><<<blocks, P::BLOCK, 0, st>>>(a);
  return cudaGetLastError();
}

cudaError_t bits_from_list_launch(const uint32_t *list, uint32_t count, uint32_t *bits, int sms, cudaStream_t st) {
  if (count == 0) return cudaSuccess;
  bits_from_list_kernel<<<blocks_for(count, sms), P::BLOCK, 0, st>>>(list, count, bits);
  return cudaGetLastError();
}

}  // namespace wm_bfs
