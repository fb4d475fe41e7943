/* Edge switching on the GPU (randomize.h, wm_gpu_rand_switch).
 *
 * The edges live in two arrays (src, dst; each undirected edge once).  A
 * round:
 *   1. the hash set of the round's edges is rebuilt from the arrays (a
 *      rebuild costs what one pass over the edges does, and leaves no
 *      tombstones behind, which deletions over hundreds of rounds would);
 *   2. a keyed Feistel permutation of the edge indices pairs edge
 *      perm(2p) with perm(2p + 1): pair p proposes a-b, c-d -> a-d, c-b
 *      (undirected, a key bit picks c-d or d-c first, so that a-c, b-d is
 *      proposed as often); a proposal that would make a loop or an edge of
 *      the round's graph is rejected, and each surviving one claims its two
 *      new edges in a claim table, the lowest pair index winning;
 *   3. the pairs that won both their claims swap.
 * Every pair's edges are its own (a permutation deals each edge once), and
 * a new edge is absent at the round's start and claimed by one pair only,
 * so the round keeps every degree and makes no loop or multi-edge; and
 * what a round does depends on the key and the round's graph alone: never
 * on the GPU or on the threads' timing.
 *
 * The edges then go back to rows: each arc as a 64-bit (source, target)
 * key, CUB's radix sort, and one pass that checks every arc lies in its
 * source's row of g's offsets with no loop and no repeat (an internal
 * check: the rounds above promise it) while it writes the targets.  The
 * rows are copied back to the host: the counters take a host graph (the
 * context's GPU copy of a graph is made from one). */
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

#include <cub/cub.cuh>

#include "gpu_check.h"
#include "randomize.h"

namespace {

typedef unsigned long long ull;

constexpr ull kEmpty = ~0ull; /* never a key: no vertex is 2^32 - 1 */
constexpr uint64_t kGolden = 0x9E3779B97F4A7C15ull;
constexpr int kBlock = 256;
constexpr unsigned kPollRounds = 16; /* rounds between two looks at the caller's stop */

/* splitmix64's finaliser, as gen_random.h's wm_gen_mix64. */
__host__ __device__ inline uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

__device__ inline ull edge_key(uint32_t u, uint32_t v, bool directed) {
  if (!directed && u > v) {
    const uint32_t t = u;
    u = v;
    v = t;
  }
  return (ull)u << 32 | v;
}

__device__ inline uint64_t home(ull key, uint64_t mask) { return mix64(key) & mask; }

/* Linear probing, at most half full: inserts race only on empty slots. */
__device__ void set_insert(ull *slot, uint64_t mask, ull key) {
  for (uint64_t i = home(key, mask);; i = (i + 1) & mask) {
    const ull prev = atomicCAS(&slot[i], kEmpty, key);
    if (prev == kEmpty || prev == key) return;
  }
}

__device__ bool set_has(const ull *slot, uint64_t mask, ull key) {
  for (uint64_t i = home(key, mask);; i = (i + 1) & mask) {
    const ull s = slot[i];
    if (s == key) return true;
    if (s == kEmpty) return false;
  }
}

/* Pair p's claim on a new edge: the slot's key, and the lowest claimant. */
__device__ void claim(ull *ckey, ull *cpair, uint64_t mask, ull key, ull p) {
  for (uint64_t i = home(key, mask);; i = (i + 1) & mask) {
    const ull prev = atomicCAS(&ckey[i], kEmpty, key);
    if (prev == kEmpty || prev == key) {
      atomicMin(&cpair[i], p);
      return;
    }
  }
}

/* The winner of a claimed edge (the claim was made in an earlier kernel). */
__device__ ull claimant(const ull *ckey, const ull *cpair, uint64_t mask, ull key) {
  for (uint64_t i = home(key, mask);; i = (i + 1) & mask)
    if (ckey[i] == key) return cpair[i];
}

/* One round's randomness: a permutation of [0, n) by a four-round Feistel
 * network on 2 * half bits (4^half >= n, so a walk leaves [0, n) less
 * than 3 times in 4 on average) and cycle walking back into [0, n). */
struct Round {
  uint64_t perm_key, flip_key, n, active;
  unsigned half;
};

__device__ uint64_t feistel(uint64_t x, uint64_t key, unsigned half) {
  const uint64_t mask = (1ull << half) - 1;
  uint64_t l = x >> half, r = x & mask;
  for (uint64_t k = 0; k < 4; k++) {
    const uint64_t t = l ^ (mix64(key ^ mix64(r + (k + 1) * kGolden)) & mask);
    l = r;
    r = t;
  }
  return l << half | r;
}

__device__ uint64_t permute(uint64_t x, const Round &r) {
  do x = feistel(x, r.perm_key, r.half);
  while (x >= r.n);
  return x;
}

/* Pair p's edges i, j and the proposal a-b, c-d -> a-d, c-b. */
struct Swap {
  uint64_t i, j;
  uint32_t a, b, c, d;
};

__device__ Swap swap_of(const uint32_t *src, const uint32_t *dst, uint64_t p, const Round &r, bool directed) {
  Swap s;
  s.i = permute(2 * p, r);
  s.j = permute(2 * p + 1, r);
  s.a = src[s.i], s.b = dst[s.i];
  const bool flip = !directed && (mix64(r.flip_key ^ (p * kGolden)) & 1);
  s.c = flip ? dst[s.j] : src[s.j];
  s.d = flip ? src[s.j] : dst[s.j];
  return s;
}

__global__ void fill_set(const uint32_t *src, const uint32_t *dst, uint64_t k, bool directed, ull *set,
                         uint64_t mask) {
  for (uint64_t e = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; e < k; e += (uint64_t)gridDim.x * blockDim.x)
    set_insert(set, mask, edge_key(src[e], dst[e], directed));
}

__global__ void propose(const uint32_t *src, const uint32_t *dst, Round r, bool directed, const ull *set,
                        uint64_t mask, ull *ckey, ull *cpair, unsigned char *cand) {
  for (uint64_t p = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; p < r.active;
       p += (uint64_t)gridDim.x * blockDim.x) {
    const Swap s = swap_of(src, dst, p, r, directed);
    const ull ad = edge_key(s.a, s.d, directed), cb = edge_key(s.c, s.b, directed);
    const bool ok = s.a != s.d && s.c != s.b && ad != cb && !set_has(set, mask, ad) && !set_has(set, mask, cb);
    cand[p] = ok;
    if (ok) {
      claim(ckey, cpair, mask, ad, p);
      claim(ckey, cpair, mask, cb, p);
    }
  }
}

/* The loop steps a warp at a time (blockDim a multiple of 32), so that
 * every lane of a warp takes part in each step's ballot. */
__global__ void apply(uint32_t *src, uint32_t *dst, Round r, bool directed, const ull *ckey, const ull *cpair,
                      uint64_t mask, const unsigned char *cand, ull *accepted) {
  for (uint64_t base = blockIdx.x * (uint64_t)blockDim.x; base < r.active; base += (uint64_t)gridDim.x * blockDim.x) {
    const uint64_t p = base + threadIdx.x;
    bool won = false;
    if (p < r.active && cand[p]) {
      /* pair p's edges are changed by p alone, so they still read as in propose */
      const Swap s = swap_of(src, dst, p, r, directed);
      won = claimant(ckey, cpair, mask, edge_key(s.a, s.d, directed)) == p &&
            claimant(ckey, cpair, mask, edge_key(s.c, s.b, directed)) == p;
      if (won) {
        dst[s.i] = s.d;
        src[s.j] = s.c, dst[s.j] = s.b;
      }
    }
    /* one atomic a warp, not one a swap */
    const unsigned wins = __ballot_sync(0xFFFFFFFFu, won);
    if ((threadIdx.x & 31) == 0 && wins) atomicAdd(accepted, (ull)__popc(wins));
  }
}

__global__ void emit_arcs(const uint32_t *src, const uint32_t *dst, uint64_t k, bool directed, ull *arcs) {
  for (uint64_t e = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; e < k; e += (uint64_t)gridDim.x * blockDim.x) {
    const uint32_t u = src[e], v = dst[e];
    if (directed) {
      arcs[e] = (ull)u << 32 | v;
    } else {
      arcs[2 * e] = (ull)u << 32 | v;
      arcs[2 * e + 1] = (ull)v << 32 | u;
    }
  }
}

/* The targets of the sorted arcs; *bad set where an arc is out of its
 * source's row of `off` (a degree changed), a loop, or a repeat. */
__global__ void rows_of(const ull *sorted, uint64_t arcs, uint32_t n, const uint64_t *off, uint32_t *adj, int *bad) {
  for (uint64_t e = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; e < arcs;
       e += (uint64_t)gridDim.x * blockDim.x) {
    const ull key = sorted[e];
    const uint32_t s = (uint32_t)(key >> 32), t = (uint32_t)key;
    const bool ok = s < n && t < n && off[s] <= e && e < off[s + 1] && s != t && (e == off[s] || sorted[e - 1] != key);
    if (!ok) atomicOr(bad, 1);
    adj[e] = t;
  }
}

unsigned blocks_for(uint64_t n) {
  const uint64_t b = (n + kBlock - 1) / kBlock;
  return b < 1 ? 1u : b > (1u << 20) ? (1u << 20) : (unsigned)b;
}

/* Everything one call holds on the device. */
struct Buffers {
  cudaStream_t s = nullptr;
  uint32_t *src = nullptr, *dst = nullptr, *adj = nullptr;
  ull *set = nullptr, *ckey = nullptr, *cpair = nullptr, *arcs = nullptr, *sorted = nullptr, *accepted = nullptr;
  unsigned char *cand = nullptr;
  uint64_t *off = nullptr;
  void *tmp = nullptr;
  int *bad = nullptr;
  uint32_t *hsrc = nullptr, *hdst = nullptr; /* the host's edge list */
};

void release(Buffers *b) {
  cudaFree(b->src), cudaFree(b->dst), cudaFree(b->adj), cudaFree(b->set), cudaFree(b->ckey), cudaFree(b->cpair);
  cudaFree(b->arcs), cudaFree(b->sorted), cudaFree(b->accepted), cudaFree(b->cand), cudaFree(b->off);
  cudaFree(b->tmp), cudaFree(b->bad);
  if (b->s) cudaStreamDestroy(b->s);
  cudaGetLastError();
  free(b->hsrc), free(b->hdst);
}

/* The edges (each once when symmetric: u < v) into the host's arrays. */
uint64_t collect(const wm_graph *g, bool directed, uint32_t *src, uint32_t *dst) {
  uint64_t k = 0;
  for (uint32_t u = 0; u < g->n; u++)
    for (uint64_t i = g->offsets[u]; i < g->offsets[u + 1]; i++) {
      const uint32_t v = g->adj[i];
      if (!directed && v < u) continue;
      src[k] = u, dst[k] = v;
      k++;
    }
  return k;
}

/* The rounds (module comment): `attempts` pairs in all, as many a round as
 * the edges make. */
int switch_rounds(Buffers *b, int dev, uint64_t k, bool directed, uint64_t mask, uint64_t key, uint64_t attempts,
                  const wm_progress *stop, wm_error *err) {
  const uint64_t pairs = k / 2, rounds = (attempts + pairs - 1) / pairs, slots = mask + 1;
  cudaStream_t stream = b->s; /* (a launch's configuration without "->": scripts/rand-emu.sh rewrites it) */
  unsigned half = 1;
  while (half < 32 && (1ull << (2 * half)) < k) half++;
  for (uint64_t t = 0; t < rounds; t++) {
    if (t % kPollRounds == 0 && stop) {
      if (t) WM_CUD(dev, cudaStreamSynchronize(b->s)); /* else the host would run ahead of the rounds */
      if (wm_progress_stopped(stop)) return wm_interrupted(err, "randomize");
    }
    const Round r = {mix64(key + (2 * t + 1) * kGolden), mix64(key + (2 * t + 2) * kGolden), k,
                     attempts - t * pairs < pairs ? attempts - t * pairs : pairs, half};
    WM_CUD(dev, cudaMemsetAsync(b->set, 0xFF, slots * sizeof(ull), b->s));
    WM_CUD(dev, cudaMemsetAsync(b->ckey, 0xFF, slots * sizeof(ull), b->s));
    WM_CUD(dev, cudaMemsetAsync(b->cpair, 0xFF, slots * sizeof(ull), b->s));
    fill_set<<<blocks_for(k), kBlock, 0, stream>>>(b->src, b->dst, k, directed, b->set, mask);
    propose<<<blocks_for(r.active), kBlock, 0, stream>>>(b->src, b->dst, r, directed, b->set, mask, b->ckey, b->cpair,
                                                        b->cand);
    apply<<<blocks_for(r.active), kBlock, 0, stream>>>(b->src, b->dst, r, directed, b->ckey, b->cpair, mask, b->cand,
                                                      b->accepted);
    WM_CUD(dev, cudaGetLastError());
  }
  return WM_OK;
}

/* The arcs sorted into out's rows (g's offsets), checked, copied back. */
int build_rows(Buffers *b, int dev, const wm_graph *g, uint64_t k, bool directed, wm_graph *out, wm_error *err) {
  const uint64_t arcs = g->m;
  cudaStream_t stream = b->s;
  WM_CUD(dev, cudaMalloc(&b->arcs, (arcs ? arcs : 1) * sizeof(ull)));
  WM_CUD(dev, cudaMalloc(&b->sorted, (arcs ? arcs : 1) * sizeof(ull)));
  WM_CUD(dev, cudaMalloc(&b->adj, (arcs ? arcs : 1) * sizeof(uint32_t)));
  WM_CUD(dev, cudaMalloc(&b->off, ((size_t)g->n + 1) * sizeof(uint64_t)));
  WM_CUD(dev, cudaMemcpyAsync(b->off, g->offsets, ((size_t)g->n + 1) * sizeof(uint64_t), cudaMemcpyHostToDevice, b->s));
  emit_arcs<<<blocks_for(k), kBlock, 0, stream>>>(b->src, b->dst, k, directed, b->arcs);
  size_t tmp_bytes = 0;
  const long long items = (long long)arcs;
  WM_CUD(dev, cub::DeviceRadixSort::SortKeys(nullptr, tmp_bytes, b->arcs, b->sorted, items, 0, 64, b->s));
  WM_CUD(dev, cudaMalloc(&b->tmp, tmp_bytes ? tmp_bytes : 1));
  WM_CUD(dev, cub::DeviceRadixSort::SortKeys(b->tmp, tmp_bytes, b->arcs, b->sorted, items, 0, 64, b->s));
  rows_of<<<blocks_for(arcs), kBlock, 0, stream>>>(b->sorted, arcs, g->n, b->off, b->adj, b->bad);
  WM_CUD(dev, cudaGetLastError());
  int bad = 0;
  WM_CUD(dev, cudaMemcpyAsync(&bad, b->bad, sizeof bad, cudaMemcpyDeviceToHost, b->s));
  if (arcs) WM_CUD(dev, cudaMemcpyAsync(out->adj, b->adj, arcs * sizeof(uint32_t), cudaMemcpyDeviceToHost, b->s));
  WM_CUD(dev, cudaStreamSynchronize(b->s));
  if (bad || 2 * k != arcs * (directed ? 2 : 1))
    return wm_fail(err, WM_EDEVICE,
                   "randomize: device %d: the GPU's edge switching changed a degree or made a loop or a repeated "
                   "edge (a bug: please report it)", dev);
  return WM_OK;
}

int run(const wm_graph *g, uint64_t key, uint64_t attempts, int dev, const wm_progress *stop, wm_graph *out,
        wm_randomize_stats *st, Buffers *b, wm_error *err) {
  const bool directed = (g->flags & WM_GRAPH_DIRECTED) != 0;
  const uint64_t m = g->m; /* arcs: room for every edge whatever the graph holds */
  b->hsrc = (uint32_t *)malloc((m ? m : 1) * sizeof(uint32_t));
  b->hdst = (uint32_t *)malloc((m ? m : 1) * sizeof(uint32_t));
  if (!b->hsrc || !b->hdst)
    return wm_fail(err, WM_EINPUT, "randomize: out of memory for %llu edges", (unsigned long long)m);
  const uint64_t k = collect(g, directed, b->hsrc, b->hdst);
  uint64_t slots = 16;
  while (slots < 2 * k) slots <<= 1;
  WM_CUD(dev, cudaSetDevice(dev));
  WM_CUD(dev, cudaStreamCreateWithFlags(&b->s, cudaStreamNonBlocking));
  WM_CUD(dev, cudaMalloc(&b->src, (k ? k : 1) * sizeof(uint32_t)));
  WM_CUD(dev, cudaMalloc(&b->dst, (k ? k : 1) * sizeof(uint32_t)));
  WM_CUD(dev, cudaMalloc(&b->set, slots * sizeof(ull)));
  WM_CUD(dev, cudaMalloc(&b->ckey, slots * sizeof(ull)));
  WM_CUD(dev, cudaMalloc(&b->cpair, slots * sizeof(ull)));
  WM_CUD(dev, cudaMalloc(&b->cand, k / 2 + 1));
  WM_CUD(dev, cudaMalloc(&b->accepted, sizeof(ull)));
  WM_CUD(dev, cudaMalloc(&b->bad, sizeof(int)));
  WM_CUD(dev, cudaMemsetAsync(b->accepted, 0, sizeof(ull), b->s));
  WM_CUD(dev, cudaMemsetAsync(b->bad, 0, sizeof(int), b->s));
  if (k) {
    WM_CUD(dev, cudaMemcpyAsync(b->src, b->hsrc, k * sizeof(uint32_t), cudaMemcpyHostToDevice, b->s));
    WM_CUD(dev, cudaMemcpyAsync(b->dst, b->hdst, k * sizeof(uint32_t), cudaMemcpyHostToDevice, b->s));
  }
  int rc = k >= 2 ? switch_rounds(b, dev, k, directed, slots - 1, key, attempts, stop, err) : WM_OK;
  if (!rc) rc = build_rows(b, dev, g, k, directed, out, err); /* synchronises b->s */
  ull accepted = 0;
  if (!rc) WM_CUD(dev, cudaMemcpy(&accepted, b->accepted, sizeof accepted, cudaMemcpyDeviceToHost));
  st->attempted = k >= 2 ? attempts : 0;
  st->accepted = accepted;
  return rc;
}

} // namespace

extern "C" int wm_gpu_rand_switch(const wm_graph *g, uint64_t key, uint64_t attempts, int dev, const wm_progress *stop,
                                  wm_graph *out, wm_randomize_stats *st, wm_error *err) {
  Buffers b;
  int prev = 0;
  cudaGetDevice(&prev);
  const int rc = run(g, key, attempts, dev, stop, out, st, &b, err);
  release(&b);
  cudaSetDevice(prev);
  cudaGetLastError();
  return rc;
}
