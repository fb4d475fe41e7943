/* Cluster search: a small graph's whole search in one launch of a thread
 * block cluster (sm_90), its levels separated by the cluster's barrier, a
 * fraction of a microsecond, where the small-level kernel's grid tier pays
 * 1-2 us for a grid-wide one and a level of the pipeline a host round trip.
 *
 * Each of the cluster's C blocks (rank r) owns the vertices of the words
 * k = r mod C of the graph's bitmaps (dealt round, so that a run of dense
 * vertex numbers, such as an ego network's, is shared by all blocks) and
 * keeps two whole bitmaps in its shared memory: F, the frontier of the
 * level, and V, the vertices visited up to it.  A level, in either
 * direction:
 * - top-down: the block lists its own vertices of F with their rows and
 *   the prefix sums of their out-degrees, then expands their edges, ITEMS a
 *   thread in flight; a head not in V is claimed by an atomic OR on its
 *   owner's slice of the next frontier, in the owner's shared memory
 *   (distributed shared memory), and the claim's winner writes its level and
 *   parent, so no vertex is written twice;
 * - bottom-up: the block lists its own unvisited vertices and looks for a
 *   parent of each in F, first by a group of lanes a vertex over its first
 *   in-arcs, then by the whole block over the arcs left (bottom_up), and
 *   writes the level, parent and bit of each it finds in its own slice;
 * - each block adds its claims (count and out-degrees) to every block's
 *   tally of the level; the cluster's barrier; then every block copies the
 *   C slices into F and adds them to V, and takes the same decisions
 *   (direction, end) as every other from the same figures: no block waits
 *   for another to decide.
 * A slice and a tally rotate over three levels: their owner clears them the
 * level after the copies that read them, with a barrier in between, and
 * before the barrier that lets the next writers in.  The direction follows
 * the pipeline's rules (bfs_gpu.cu) on the frontier's edges alone: a level
 * here is cheap either way, and the hubs' share is not counted.
 *
 * At the end each block writes kUnreached to the level (and parent) of its
 * vertices never reached: the search needs no reset of those arrays. */
#include <cooperative_groups.h>

#include "bfs_gpu_internal.cuh"
#include "gpu_stop.cuh"

namespace wm_bfs {
namespace {

namespace cg = cooperative_groups;
using P = ClusterPolicy;
constexpr unsigned FULL = 0xffffffffu;
constexpr int K = P::ITEMS;
enum { T_STOP = 1 }; /* Tally::flags: rank 0 saw the stop word */

/* A level's claims by the cluster: (count << 32) + their out-degrees (the
 * graph has fewer than 2^32 arcs), and flags. */
struct Tally {
  unsigned long long packed;
  unsigned flags, pad;
};

/* The block's shared memory, all of it dynamic (the CPU emulator keeps a
 * static __shared__ variable once for every block): a head of the tallies
 * of three levels and the block-wide scans' words; the list (cap = 32 Wb
 * entries: row starts, vertices, prefix sums, out-degrees); the bitmaps F
 * and V (W words each); the slices of three levels (Wb words each). */
struct Shared {
  Tally *tally;
  uint32_t *scan;              /* BLOCK / 32 + 1 */
  unsigned long long *partial; /* BLOCK / 32 */
  unsigned long long *beg;
  uint32_t *lv, *lp, *ld, *F, *V, *NF;
};
constexpr int kWarps = P::BLOCK / 32;
constexpr size_t kScanAt = 3 * sizeof(Tally), kPartialAt = (kScanAt + 4 * (kWarps + 1) + 7) / 8 * 8;
constexpr size_t kHeadBytes = (kPartialAt + 8 * kWarps + 63) / 64 * 64;

__device__ inline Shared carve(unsigned char *p, uint32_t W, uint32_t Wb) {
  const size_t cap = 32 * (size_t)Wb;
  Shared s;
  s.tally = (Tally *)p;
  s.scan = (uint32_t *)(p + kScanAt);
  s.partial = (unsigned long long *)(p + kPartialAt);
  s.beg = (unsigned long long *)(p + kHeadBytes);
  s.lv = (uint32_t *)(s.beg + cap);
  s.lp = s.lv + cap;
  s.ld = s.lp + cap + 1;
  s.F = s.ld + cap;
  s.V = s.F + W;
  s.NF = s.V + W;
  return s;
}

/* Exclusive prefix sum of x over the block; *total gets the sum.  Every
 * thread calls it.  (CUB's BlockScan at 1,024 threads spills this kernel
 * past its 64 registers: 324-1,188 bytes, sm_90.) */
__device__ uint32_t block_scan(const Shared &s, uint32_t x, uint32_t *total) {
  const unsigned lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  uint32_t inc = x;
  for (int d = 1; d < 32; d <<= 1) {
    uint32_t y = __shfl_up_sync(FULL, inc, d);
    if ((int)lane >= d) inc += y;
  }
  if (lane == 31) s.scan[w] = inc;
  __syncthreads();
  if (w == 0) {
    uint32_t t = lane < kWarps ? s.scan[lane] : 0, ti = t;
    for (int d = 1; d < 32; d <<= 1) {
      uint32_t y = __shfl_up_sync(FULL, ti, d);
      if ((int)lane >= d) ti += y;
    }
    if (lane < kWarps) s.scan[lane] = ti - t;
    if (lane == 31) s.scan[kWarps] = ti;
  }
  __syncthreads();
  const uint32_t r = s.scan[w] + inc - x;
  *total = s.scan[kWarps];
  __syncthreads(); /* the words again at the next call */
  return r;
}

/* Sum of x over the block, on every thread. */
__device__ unsigned long long block_sum(const Shared &s, unsigned long long x) {
  const unsigned lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  for (int d = 16; d; d >>= 1) x += __shfl_down_sync(FULL, x, d);
  if (lane == 0) s.partial[w] = x;
  __syncthreads();
  unsigned long long t = 0;
  for (int i = 0; i < kWarps; i++) t += s.partial[i];
  __syncthreads();
  return t;
}

/* Whether v's bit is set in a bitmap of shared memory. */
__device__ inline bool has(const uint32_t *bits, uint32_t v) { return (bits[v >> 5] >> (v & 31)) & 1u; }

/* Word k of a bitmap's complement, within the n vertices. */
__device__ inline uint32_t clear_word(const uint32_t *bits, uint32_t k, uint32_t n) {
  const uint32_t x = ~bits[k];
  return 32 * (uint64_t)k + 32 > n ? x & ((1u << (n - 32 * k)) - 1) : x; /* n - 32 k < 32 there */
}

/* WM_BFS_TRACE: rank 0's thread 0 marks level L's step k (SmallMark;
 * MARK_TIER holds v: 4 top-down, 5 bottom-up; MARK_APPEND the end of the
 * copies after the barrier). */
__device__ inline void mark(const ClusterArgs &a, uint32_t L, int k, unsigned long long v = 0) {
  if (!a.clk || threadIdx.x || L - a.trace_from >= (uint32_t)kSmallTraceLevels) return;
  if (cg::this_cluster().block_rank()) return;
  a.clk[1 + kMarks * (L - a.trace_from) + k] = k == MARK_TIER ? v : (unsigned long long)clock64();
}

/* A block's words of the bitmaps: k = r + (i << shift) for i < words
 * (C = 2^shift blocks); word k's owner is k & mask, its place in the
 * owner's slice k >> shift. */
struct Own {
  uint32_t r, shift, mask, words;
  __device__ uint32_t word(uint32_t i) const { return r + (i << shift); }
};

/* The vertices of the block's words whose bit is set in `bits` (inverted:
 * clear, below n), into s.lv; returns their number.  At most one word a
 * thread (Wb <= BLOCK). */
__device__ uint32_t list_own(const Shared &s, const uint32_t *bits, bool invert, const Own &o, uint32_t n) {
  const uint32_t k = o.word(threadIdx.x);
  uint32_t x = 0;
  if (threadIdx.x < o.words) x = invert ? clear_word(bits, k, n) : bits[k];
  uint32_t cnt, at = block_scan(s, (uint32_t)__popc(x), &cnt);
  while (x) {
    const int b = __ffs(x) - 1;
    x &= x - 1;
    s.lv[at++] = 32 * k + (uint32_t)b;
  }
  __syncthreads();
  return cnt;
}

/* The level L + 1 of w and its parent u. */
__device__ inline void settle(const ClusterArgs &a, uint32_t w, uint32_t u, uint32_t L) {
  a.s.status[w] = L + 1;
  if (a.s.parent) a.s.parent[w] = u;
}

/* The lengths in lp[0, cnt) into their exclusive prefix sums, lp[cnt] the
 * total (returned); a run of entries a thread. */
__device__ uint32_t prefix_in_place(const Shared &s, uint32_t cnt) {
  const uint32_t q = (cnt + P::BLOCK - 1) / P::BLOCK, i0 = min(cnt, threadIdx.x * q), i1 = min(cnt, i0 + q);
  uint32_t sum = 0;
  for (uint32_t i = i0; i < i1; i++) sum += s.lp[i];
  uint32_t E, at = block_scan(s, sum, &E);
  for (uint32_t i = i0; i < i1; i++) {
    const uint32_t d = s.lp[i];
    s.lp[i] = at;
    at += d;
  }
  if (threadIdx.x == 0) s.lp[cnt] = E;
  __syncthreads();
  return E;
}

/* The entry of item e < lp[cnt]: the last with lp <= e. */
__device__ inline uint32_t entry_of(const Shared &s, uint32_t cnt, uint32_t e) {
  uint32_t lo = 0, hi = cnt;
  while (hi - lo > 1) {
    const uint32_t mid = (lo + hi) >> 1;
    if (s.lp[mid] <= e) lo = mid;
    else hi = mid;
  }
  return lo;
}

/* Top-down from the block's frontier vertices: each edge's head, if not
 * visited, is claimed in its owner's slice `slot`. */
__device__ void top_down(const ClusterArgs &a, const Shared &s, cg::cluster_group &cl, const Own &o, uint32_t L,
                         uint32_t slot, unsigned &count, unsigned long long &edges) {
  const uint32_t cnt = list_own(s, s.F, false, o, a.out.n);
  for (uint32_t i = threadIdx.x; i < cnt; i += P::BLOCK) {
    const uint32_t v = s.lv[i];
    const uint64_t b = a.out.offsets[v];
    s.beg[i] = b;
    s.lp[i] = (uint32_t)(a.out.offsets[v + 1] - b);
  }
  __syncthreads();
  const uint32_t E = prefix_in_place(s, cnt), Wb = a.words_per_block;
  for (uint32_t base = 0; base < E; base += P::BLOCK * K) {
    uint32_t w[K], u[K];
#pragma unroll
    for (int j = 0; j < K; j++) {
      const uint32_t e = base + threadIdx.x + j * P::BLOCK;
      w[j] = u[j] = kNoVertex;
      if (e >= E) continue;
      const uint32_t i = entry_of(s, cnt, e);
      u[j] = s.lv[i];
      w[j] = a.out.adj[s.beg[i] + (e - s.lp[i])];
    }
#pragma unroll
    for (int j = 0; j < K; j++) {
      const uint32_t x = w[j];
      if (x == kNoVertex) continue;
      const uint32_t word = x >> 5, bit = 1u << (x & 31);
      if (s.V[word] & bit) continue;
      /* the head's out-degree for the tally, loaded beside the claim */
      const uint64_t d = degree_of(a.out, x);
      uint32_t *to = cl.map_shared_rank(s.NF + slot * Wb, word & o.mask) + (word >> o.shift);
      if (atomicOr(to, bit) & bit) continue;
      settle(a, x, u[j], L);
      count++;
      edges += d;
    }
  }
}

/* Bottom-up over the block's unvisited vertices, in two phases.  First a
 * group of G lanes a vertex (as many as the block's threads allow, up to a
 * warp) reads its first 2 G in-arcs, where most vertices that have a parent
 * in F find it; then the arcs the vertices still open have left, K a
 * thread in flight in rounds of the whole block, so that a long row without
 * a parent costs its share of a few rounds and not a chain of round trips
 * (a vertex found in one round skips its arcs in the next). */
__device__ void bottom_up(const ClusterArgs &a, const Shared &s, const Own &o, uint32_t L, uint32_t slot,
                          unsigned &count, unsigned long long &edges) {
  constexpr int kFirstRounds = 2;
  const uint32_t cnt = list_own(s, s.V, true, o, a.out.n);
  uint32_t G = 32;
  while (G > 1 && (uint64_t)cnt * G > P::BLOCK) G >>= 1;
  const uint32_t lane = threadIdx.x & 31, gl = lane & (G - 1), per = 32 / G;
  const unsigned gmask = G == 32 ? FULL : ((1u << G) - 1) << (lane & ~(G - 1));
  uint32_t *own = s.NF + slot * a.words_per_block; /* word k at k >> shift */
  for (uint32_t i0 = (threadIdx.x >> 5) * per; i0 < cnt; i0 += kWarps * per) {
    const uint32_t i = i0 + lane / G;
    bool open = false;
    uint32_t v = 0;
    uint64_t j = 0, e = 0, d = 0;
    if (i < cnt) {
      v = s.lv[i];
      const uint64_t b = a.in.offsets[v];
      e = a.in.offsets[v + 1];
      d = a.symmetric ? e - b : degree_of(a.out, v);
      j = b + gl;
      open = b < e;
    }
    for (int round = 0; round < kFirstRounds && __any_sync(FULL, open); round++) {
      uint32_t x = 0;
      bool hit = false;
      if (open && j < e) {
        x = a.in.adj[j];
        hit = has(s.F, x);
      }
      const unsigned hits = __ballot_sync(FULL, hit) & gmask;
      if (!open) continue;
      if (hits) {
        if ((int)lane == __ffs(hits) - 1) {
          settle(a, v, x, L);
          atomicOr(&own[v >> 5 >> o.shift], 1u << (v & 31));
          count++;
          edges += d;
        }
        open = false;
      } else {
        j += G;
        open = j - gl < e;
      }
    }
    if (i < cnt && gl == 0) {
      s.ld[i] = (uint32_t)d;
      s.beg[i] = j;
      s.lp[i] = open ? (uint32_t)(e - j) : 0;
    }
  }
  __syncthreads();
  const uint32_t E = prefix_in_place(s, cnt);
  for (uint32_t base = 0; base < E; base += P::BLOCK * K) {
    uint32_t x[K], at[K];
#pragma unroll
    for (int q = 0; q < K; q++) {
      const uint32_t t = base + threadIdx.x + q * P::BLOCK;
      x[q] = kNoVertex;
      if (t >= E) continue;
      const uint32_t i = entry_of(s, cnt, t), v = s.lv[i];
      at[q] = i;
      if ((own[v >> 5 >> o.shift] >> (v & 31)) & 1u) continue; /* found in an earlier round */
      x[q] = a.in.adj[s.beg[i] + (t - s.lp[i])];
    }
#pragma unroll
    for (int q = 0; q < K; q++) {
      const uint32_t w = x[q];
      if (w == kNoVertex || !has(s.F, w)) continue;
      const uint32_t v = s.lv[at[q]], bit = 1u << (v & 31);
      if (atomicOr(&own[v >> 5 >> o.shift], bit) & bit) continue;
      settle(a, v, w, L);
      count++;
      edges += s.ld[at[q]];
    }
  }
}

__global__ void __launch_bounds__(P::BLOCK, 1) cluster_search_kernel(ClusterArgs a) {
  extern __shared__ uint64_t smem_words[];
  cg::cluster_group cl = cg::this_cluster();
  const uint32_t n = a.out.n, W = (n + 31) / 32, Wb = a.words_per_block, C = cl.num_blocks();
  const uint32_t r = cl.block_rank(), shift = (uint32_t)(__ffs((int)C) - 1);
  const Own o{r, shift, C - 1, W > r ? ((W - r - 1) >> shift) + 1 : 0};
  const Shared s = carve((unsigned char *)smem_words, W, Wb);
  if (a.clk && r == 0 && threadIdx.x == 0) a.clk[0] = (unsigned long long)clock64();

  /* level 0: the sources, in every block's F and V; their owners write them */
  for (uint32_t k = threadIdx.x; k < W; k += P::BLOCK) s.F[k] = s.V[k] = 0;
  for (uint32_t k = threadIdx.x; k < 3 * Wb; k += P::BLOCK) s.NF[k] = 0;
  if (threadIdx.x < 3) s.tally[threadIdx.x] = Tally{0, 0, 0};
  __syncthreads();
  unsigned long long e0 = 0;
  for (uint32_t i = threadIdx.x; i < a.count; i += P::BLOCK) {
    const uint32_t v = a.sources[i];
    atomicOr(&s.F[v >> 5], 1u << (v & 31));
    atomicOr(&s.V[v >> 5], 1u << (v & 31));
    e0 += degree_of(a.out, v);
    if (((v >> 5) & o.mask) == r) {
      a.s.status[v] = 0;
      if (a.s.parent) a.s.parent[v] = v;
    }
  }
  const unsigned long long edges0 = block_sum(s, e0);
  /* every block is running, its slices clear, before the first claim */
  cl.sync();

  uint32_t L = 0, count = a.count, prev = 0, unvisited = n - a.count;
  unsigned long long edges = edges0, explored = 0;
  /* the stop word is first read after WM_STOP_POLL_CYCLES: a search is
   * shorter, and the host checks its monitor before and after */
  unsigned polled = (unsigned)clock() | 1u, levels_bu = 0;
  bool bu = false, stopped = false;
  int why;
  for (;;) {
    if (count == 0) { why = SMALL_DONE; break; }
    if (a.target != kNoVertex && has(s.V, a.target)) { why = SMALL_TARGET; break; }
    if (L >= a.max_depth) { why = SMALL_DEPTH; break; }
    if (stopped) { why = SMALL_STOPPED; break; }
    /* a symmetric graph's frontier past level 0 of vertices with one arc
     * each, their parents': no next level */
    if (a.symmetric && L > 0 && edges == count) { why = SMALL_DONE; count = 0; break; }
    explored += edges;
    if (!bu && a.dir_opt && count >= prev && a.edge_ratio > 0 &&
        (double)edges * a.edge_ratio > (double)(a.m > explored ? a.m - explored : 0))
      bu = true;
    else if (bu && count < prev && count < n / kBackToTopDownBeta && edges < unvisited)
      bu = false;
    prev = count;

    mark(a, L, MARK_BEGIN);
    mark(a, L, MARK_TIER, bu ? 5 : 4);
    const uint32_t slot = (L + 1) % 3, spare = (L + 2) % 3;
    for (uint32_t k = threadIdx.x; k < Wb; k += P::BLOCK) s.NF[spare * Wb + k] = 0;
    if (threadIdx.x == 0) s.tally[spare] = Tally{0, 0, 0};
    unsigned mine = 0;
    unsigned long long my_edges = 0;
    if (bu) bottom_up(a, s, o, L, slot, mine, my_edges), levels_bu++;
    else top_down(a, s, cl, o, L, slot, mine, my_edges);
    /* the block's claims into every block's tally */
    const unsigned long long total = block_sum(s, (unsigned long long)mine << 32 | my_edges);
    if (threadIdx.x < C && total) atomicAdd(&cl.map_shared_rank(s.tally + slot, threadIdx.x)->packed, total);
    if (r == 0 && threadIdx.x == 0 && wm_stop_due(a.stop, &polled))
      for (uint32_t b = 0; b < C; b++) atomicOr(&cl.map_shared_rank(s.tally + slot, b)->flags, (unsigned)T_STOP);
    mark(a, L, MARK_EXPANDED);
    cl.sync();
    mark(a, L, MARK_PAST);

    /* the next frontier from the C slices */
    for (uint32_t k = threadIdx.x; k < W; k += P::BLOCK) {
      const uint32_t x = cl.map_shared_rank(s.NF + slot * Wb, k & o.mask)[k >> shift];
      s.F[k] = x;
      s.V[k] |= x;
    }
    const Tally t = s.tally[slot];
    __syncthreads();
    mark(a, L, MARK_APPEND);
    L++;
    count = (uint32_t)(t.packed >> 32);
    edges = t.packed & 0xFFFFFFFFull;
    stopped = t.flags & T_STOP;
    unvisited -= count;
  }

  /* the vertices never reached: level kUnreached, parent none */
  for (uint32_t i = threadIdx.x; i < o.words; i += P::BLOCK) {
    const uint32_t k = o.word(i);
    uint32_t x = clear_word(s.V, k, n);
    while (x) {
      const uint32_t v = 32 * k + (uint32_t)(__ffs(x) - 1);
      x &= x - 1;
      a.s.status[v] = kUnreached;
      if (a.s.parent) a.s.parent[v] = kNoVertex;
    }
  }
  if (r == 0 && threadIdx.x == 0) {
    a.stats->small_level = L;
    a.stats->small_count = count;
    a.stats->small_exit = (unsigned)why;
    a.stats->levels_bottom_up = levels_bu;
    a.stats->target_level = why == SMALL_TARGET ? L : kUnreached;
  }
  /* no block leaves while another may still read its slices */
  cl.sync();
}

/* A launch of one cluster of C blocks (by position: the CPU emulator's
 * gridDim and blockDim are macros). */
cudaLaunchConfig_t cluster_config(int C, size_t bytes, cudaStream_t st, cudaLaunchAttribute *attr) {
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = (unsigned)C;
  attr[0].val.clusterDim.y = attr[0].val.clusterDim.z = 1;
  return cudaLaunchConfig_t{dim3((unsigned)C), dim3(P::BLOCK), bytes, st, attr, 1};
}

}  // namespace

size_t cluster_search_smem(uint32_t n, uint32_t words_per_block) {
  const size_t W = ((size_t)n + 31) / 32, cap = 32 * (size_t)words_per_block;
  return kHeadBytes + 8 * cap + 4 * (3 * cap + 1 + 2 * W + 3 * (size_t)words_per_block);
}

cudaError_t cluster_search_prepare(int device, uint32_t n, int want, int *blocks, uint32_t *words_per_block,
                                   size_t *smem_bytes) {
  *blocks = 0;
  int optin = 0, launch = 0;
  cudaError_t e = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&launch, cudaDevAttrClusterLaunch, device);
  if (e != cudaSuccess) return e;
  if (!launch || n == 0) return cudaSuccess;
  cudaFuncAttributes fa;
  if ((e = cudaFuncGetAttributes(&fa, cluster_search_kernel)) != cudaSuccess) return e;
  /* beyond 8 blocks a cluster is not portable: the device says whether it
   * can; the shared memory allowed is all there is, since contexts of
   * other graphs launch the kernel with other amounts */
  if (cudaFuncSetAttribute(cluster_search_kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1) != cudaSuccess)
    cudaGetLastError();
  if ((size_t)optin <= fa.sharedSizeBytes) return cudaSuccess;
  if ((e = cudaFuncSetAttribute(cluster_search_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                optin - (int)fa.sharedSizeBytes)) != cudaSuccess)
    return e;
  const uint32_t W = (n + 31) / 32;
  for (int C = want > 0 ? want : P::MAX_CLUSTER; C >= 2; C >>= 1) {
    const uint32_t Wb = (W + C - 1) / C;
    const size_t bytes = cluster_search_smem(n, Wb);
    if (Wb > (uint32_t)P::BLOCK || bytes + fa.sharedSizeBytes > (size_t)optin) continue;
    cudaLaunchAttribute attr[1];
    const cudaLaunchConfig_t cfg = cluster_config(C, bytes, 0, attr);
    int clusters = 0;
    if (cudaOccupancyMaxActiveClusters(&clusters, cluster_search_kernel, &cfg) != cudaSuccess) {
      cudaGetLastError(); /* this size not possible here: a smaller one may be */
      continue;
    }
    if (clusters < 1) continue;
    *blocks = C;
    *words_per_block = Wb;
    *smem_bytes = bytes;
    return cudaSuccess;
  }
  return cudaSuccess;
}

cudaError_t cluster_search_launch(const ClusterArgs &a, int blocks, size_t smem_bytes, cudaStream_t st) {
  cudaLaunchAttribute attr[1];
  const cudaLaunchConfig_t cfg = cluster_config(blocks, smem_bytes, st, attr);
  cudaError_t e = cudaLaunchKernelEx(&cfg, cluster_search_kernel, a);
  return e != cudaSuccess ? e : cudaGetLastError();
}

}  // namespace wm_bfs
