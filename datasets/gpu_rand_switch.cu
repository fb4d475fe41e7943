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
 * context's GPU copy of a graph is made from one).
 *
 * A switcher (randomize.h) keeps every buffer, g's edges and offsets and
 * the sort's temporary on its device between graphs: a graph then costs
 * two device copies of g's edges, the rounds, the sort and one wait for
 * its rows, its accepted swaps and the check's flag. */
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

#include <cub/cub.cuh>
#include <new>

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

/* map (or NULL): each vertex's id in the rows' numbering (a switcher's
 * renumbering by degree). */
__global__ void emit_arcs(const uint32_t *src, const uint32_t *dst, uint64_t k, bool directed, const uint32_t *map,
                          ull *arcs) {
  for (uint64_t e = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; e < k; e += (uint64_t)gridDim.x * blockDim.x) {
    const uint32_t u = map ? map[src[e]] : src[e], v = map ? map[dst[e]] : dst[e];
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

/* Everything one switcher holds on its device, sized once for its graph
 * (every graph it makes has g's edges and rows), so that a run of graphs
 * allocates nothing past the first. */
struct Buffers {
  cudaStream_t s = nullptr;
  uint32_t *src0 = nullptr, *dst0 = nullptr; /* g's edges: each graph's chain starts from them */
  uint32_t *src = nullptr, *dst = nullptr, *adj = nullptr;
  ull *set = nullptr, *ckey = nullptr, *cpair = nullptr, *arcs = nullptr, *sorted = nullptr, *accepted = nullptr;
  unsigned char *cand = nullptr;
  uint64_t *off = nullptr; /* the rows' offsets: g's, or its renumbering's */
  uint32_t *map = nullptr;  /* g's vertex -> the rows' id, or none */
  void *tmp = nullptr;
  size_t tmp_bytes = 0;
  int *bad = nullptr;
};

void release(Buffers *b) {
  cudaFree(b->src0), cudaFree(b->dst0);
  cudaFree(b->src), cudaFree(b->dst), cudaFree(b->adj), cudaFree(b->set), cudaFree(b->ckey), cudaFree(b->cpair);
  cudaFree(b->arcs), cudaFree(b->sorted), cudaFree(b->accepted), cudaFree(b->cand), cudaFree(b->off);
  cudaFree(b->tmp), cudaFree(b->bad), cudaFree(b->map);
  if (b->s) cudaStreamDestroy(b->s);
  cudaGetLastError();
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

/* The arcs (renumbered by b->map where there is one) sorted into out's
 * rows (g's offsets: the renumbering's), checked, copied back with the
 * accepted swaps: one wait for the whole graph. */
int build_rows(Buffers *b, int dev, const wm_graph *g, uint64_t k, bool directed, wm_graph *out, ull *accepted,
               wm_error *err) {
  const uint64_t arcs = g->m;
  cudaStream_t stream = b->s;
  const uint32_t *map = b->map;
  emit_arcs<<<blocks_for(k), kBlock, 0, stream>>>(b->src, b->dst, k, directed, map, b->arcs);
  size_t tmp_bytes = b->tmp_bytes;
  const long long items = (long long)arcs;
  WM_CUD(dev, cub::DeviceRadixSort::SortKeys(b->tmp, tmp_bytes, b->arcs, b->sorted, items, 0, 64, b->s));
  rows_of<<<blocks_for(arcs), kBlock, 0, stream>>>(b->sorted, arcs, g->n, b->off, b->adj, b->bad);
  WM_CUD(dev, cudaGetLastError());
  int bad = 0;
  WM_CUD(dev, cudaMemcpyAsync(&bad, b->bad, sizeof bad, cudaMemcpyDeviceToHost, b->s));
  WM_CUD(dev, cudaMemcpyAsync(accepted, b->accepted, sizeof *accepted, cudaMemcpyDeviceToHost, b->s));
  if (arcs) WM_CUD(dev, cudaMemcpyAsync(out->adj, b->adj, arcs * sizeof(uint32_t), cudaMemcpyDeviceToHost, b->s));
  WM_CUD(dev, cudaStreamSynchronize(b->s));
  if (bad || 2 * k != arcs * (directed ? 2 : 1))
    return wm_fail(err, WM_EDEVICE,
                   "randomize: device %d: the GPU's edge switching changed a degree or made a loop or a repeated "
                   "edge (a bug: please report it)", dev);
  return WM_OK;
}

} // namespace

struct wm_gpu_switcher {
  const wm_graph *g;     /* the chain's edges */
  const wm_graph *shape; /* the rows': g, or g renumbered (its offsets) */
  const uint32_t *old_of; /* shape's vertex -> g's, or NULL: open_switcher's */
  int dev;
  bool directed;
  uint64_t k, slots;
  Buffers b;
};

namespace {

/* The device buffers for g's graphs on dev, g's edges and the rows'
 * offsets (and renumbering) uploaded, the sort's temporary sized. */
int open_switcher(wm_gpu_switcher *w, wm_error *err) {
  const wm_graph *g = w->g;
  const int dev = w->dev;
  Buffers *b = &w->b;
  const uint64_t m = g->m; /* arcs: room for every edge whatever the graph holds */
  uint32_t *hsrc = (uint32_t *)malloc((m ? m : 1) * sizeof(uint32_t)), *hdst = (uint32_t *)malloc((m ? m : 1) * sizeof(uint32_t));
  if (!hsrc || !hdst) {
    free(hsrc), free(hdst);
    return wm_fail(err, WM_EINPUT, "randomize: out of memory for %llu edges", (unsigned long long)m);
  }
  const uint64_t k = w->k = collect(g, w->directed, hsrc, hdst);
  uint64_t slots = 16;
  while (slots < 2 * k) slots <<= 1;
  w->slots = slots;
  int rc = WM_OK;
  const size_t eb = (k ? k : 1) * sizeof(uint32_t), ab = (m ? m : 1);
  cudaError_t e = cudaSetDevice(dev);
  if (e == cudaSuccess) e = cudaStreamCreateWithFlags(&b->s, cudaStreamNonBlocking);
  void **bufs[] = {(void **)&b->src0, (void **)&b->dst0, (void **)&b->src, (void **)&b->dst};
  for (void **p : bufs)
    if (e == cudaSuccess) e = cudaMalloc(p, eb);
  if (e == cudaSuccess) e = cudaMalloc(&b->set, slots * sizeof(ull));
  if (e == cudaSuccess) e = cudaMalloc(&b->ckey, slots * sizeof(ull));
  if (e == cudaSuccess) e = cudaMalloc(&b->cpair, slots * sizeof(ull));
  if (e == cudaSuccess) e = cudaMalloc(&b->cand, k / 2 + 1);
  if (e == cudaSuccess) e = cudaMalloc(&b->accepted, sizeof(ull));
  if (e == cudaSuccess) e = cudaMalloc(&b->bad, sizeof(int));
  if (e == cudaSuccess) e = cudaMalloc(&b->arcs, ab * sizeof(ull));
  if (e == cudaSuccess) e = cudaMalloc(&b->sorted, ab * sizeof(ull));
  if (e == cudaSuccess) e = cudaMalloc(&b->adj, ab * sizeof(uint32_t));
  if (e == cudaSuccess) e = cudaMalloc(&b->off, ((size_t)g->n + 1) * sizeof(uint64_t));
  if (e == cudaSuccess)
    e = cudaMemcpyAsync(b->off, w->shape->offsets, ((size_t)g->n + 1) * sizeof(uint64_t), cudaMemcpyHostToDevice,
                        b->s);
  uint32_t *new_of = nullptr; /* the inverse of old_of, for emit_arcs */
  if (e == cudaSuccess && w->old_of) {
    new_of = (uint32_t *)malloc(((size_t)g->n + 1) * sizeof *new_of);
    if (!new_of) e = cudaErrorMemoryAllocation;
    for (uint32_t v = 0; new_of && v < g->n; v++) new_of[w->old_of[v]] = v;
    if (e == cudaSuccess) e = cudaMalloc(&b->map, ((size_t)g->n + 1) * sizeof(uint32_t));
    if (e == cudaSuccess && g->n)
      e = cudaMemcpyAsync(b->map, new_of, (size_t)g->n * sizeof(uint32_t), cudaMemcpyHostToDevice, b->s);
  }
  if (e == cudaSuccess && k) e = cudaMemcpyAsync(b->src0, hsrc, k * sizeof(uint32_t), cudaMemcpyHostToDevice, b->s);
  if (e == cudaSuccess && k) e = cudaMemcpyAsync(b->dst0, hdst, k * sizeof(uint32_t), cudaMemcpyHostToDevice, b->s);
  if (e == cudaSuccess)
    e = cub::DeviceRadixSort::SortKeys(nullptr, b->tmp_bytes, b->arcs, b->sorted, (long long)m, 0, 64, b->s);
  if (e == cudaSuccess) e = cudaMalloc(&b->tmp, b->tmp_bytes ? b->tmp_bytes : 1);
  if (e == cudaSuccess) e = cudaStreamSynchronize(b->s); /* the host arrays go next */
  if (e != cudaSuccess) rc = wm_cuda_fail_dev(err, dev, e, "randomize: the switcher's buffers", __FILE__, __LINE__);
  free(hsrc), free(hdst), free(new_of);
  return rc;
}

/* One graph: g's edges, the rounds, the rows. */
int run(wm_gpu_switcher *w, uint64_t key, uint64_t attempts, const wm_progress *stop, wm_graph *out,
        wm_randomize_stats *st, wm_error *err) {
  Buffers *b = &w->b;
  const int dev = w->dev;
  const uint64_t k = w->k;
  WM_CUD(dev, cudaSetDevice(dev));
  WM_CUD(dev, cudaMemsetAsync(b->accepted, 0, sizeof(ull), b->s));
  WM_CUD(dev, cudaMemsetAsync(b->bad, 0, sizeof(int), b->s));
  if (k) {
    WM_CUD(dev, cudaMemcpyAsync(b->src, b->src0, k * sizeof(uint32_t), cudaMemcpyDeviceToDevice, b->s));
    WM_CUD(dev, cudaMemcpyAsync(b->dst, b->dst0, k * sizeof(uint32_t), cudaMemcpyDeviceToDevice, b->s));
  }
  int rc = k >= 2 ? switch_rounds(b, dev, k, w->directed, w->slots - 1, key, attempts, stop, err) : WM_OK;
  ull accepted = 0;
  if (!rc) rc = build_rows(b, dev, w->shape, k, w->directed, out, &accepted, err); /* synchronises b->s */
  st->attempted = k >= 2 ? attempts : 0;
  st->accepted = accepted;
  return rc;
}

} // namespace

extern "C" void wm_gpu_switcher_destroy(wm_gpu_switcher *w) {
  if (!w) return;
  int prev = 0;
  cudaGetDevice(&prev);
  if (cudaSetDevice(w->dev) == cudaSuccess) release(&w->b);
  cudaSetDevice(prev);
  cudaGetLastError();
  delete w;
}

extern "C" int wm_gpu_switcher_create_renumbered(const wm_graph *g, const wm_graph *sorted, const uint32_t *old_of,
                                                 int dev, wm_gpu_switcher **out, wm_error *err) {
  *out = nullptr;
  if (sorted->n != g->n || sorted->m != g->m)
    return wm_fail(err, WM_EUSAGE, "randomize: a renumbering of %u vertices and %llu arcs for a graph of %u and %llu",
                   sorted->n, (unsigned long long)sorted->m, g->n, (unsigned long long)g->m);
  wm_gpu_switcher *w = new (std::nothrow) wm_gpu_switcher();
  if (!w) return wm_fail(err, WM_EINPUT, "randomize: out of memory");
  w->g = g, w->shape = sorted, w->old_of = old_of, w->dev = dev, w->directed = (g->flags & WM_GRAPH_DIRECTED) != 0;
  int prev = 0;
  cudaGetDevice(&prev);
  const int rc = open_switcher(w, err);
  cudaSetDevice(prev);
  cudaGetLastError();
  if (rc) {
    wm_gpu_switcher_destroy(w);
    return rc;
  }
  w->old_of = nullptr; /* uploaded: the caller's may go */
  *out = w;
  return WM_OK;
}

extern "C" int wm_gpu_switcher_create(const wm_graph *g, int dev, wm_gpu_switcher **out, wm_error *err) {
  return wm_gpu_switcher_create_renumbered(g, g, nullptr, dev, out, err);
}

extern "C" int wm_gpu_switcher_run(wm_gpu_switcher *w, const wm_graph *g, uint64_t key, uint64_t attempts,
                                   const wm_progress *stop, wm_graph *out, wm_randomize_stats *st, wm_error *err) {
  if (w->shape != g) return wm_fail(err, WM_EUSAGE, "randomize: a GPU switcher made for another graph");
  int prev = 0;
  cudaGetDevice(&prev);
  const int rc = run(w, key, attempts, stop, out, st, err);
  cudaSetDevice(prev);
  cudaGetLastError();
  return rc;
}

extern "C" int wm_gpu_rand_switch(const wm_graph *g, uint64_t key, uint64_t attempts, int dev, const wm_progress *stop,
                                  wm_graph *out, wm_randomize_stats *st, wm_error *err) {
  wm_gpu_switcher *w = nullptr;
  int rc = wm_gpu_switcher_create(g, dev, &w, err);
  if (!rc) rc = wm_gpu_switcher_run(w, g, key, attempts, stop, out, st, err);
  wm_gpu_switcher_destroy(w);
  return rc;
}
