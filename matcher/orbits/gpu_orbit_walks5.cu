/* The 5-vertex orbits' per-vertex walks on the GPU (orbit_walks5.h says
 * what they leave; orbit_walks5.c, the CPU's, is their oracle, value by
 * value), in two kernels of persistent blocks.
 * vertex_walks: each block takes a vertex x at a time from an atomic
 * counter over the vertices ordered by cost (the largest first, so that a
 * hub does not start last), and walks it with the whole block, in phases
 * split by the block's barriers:
 *   1. x's row marked (mark[y] = y's place in it + 1);
 *   2. x's 2-paths x-a-z: tdeg and F of the arc x -> a where z is in N(x),
 *      the sums 25, 40, 54, 60 over x's triangles, and the 2-hop tally
 *      cn[z], s[z] (the sum of t_az) with the vertices touched listed;
 *   3. over the touched z: 36, 50, 51; s cleared for E;
 *   4. the tip pairs: over G[N(x)]'s arcs a -> b (b before a) the common
 *      neighbours q > x of a and b (the end of the arc's ascending list),
 *      E[q]++ and cn(q) - 2 owed to the arcs x -> a and x -> b (64);
 *   5. x's 2-paths again, each pair {x, o} from the smaller: what x owes
 *      y on x -> y for 49 and 62, and where y < x the edge's c4e into both
 *      arcs; 63 over the touched q, credited to x and to q;
 *   6. the scratch cleared, the block's sums reduced into walked[x].
 * wheels: each block takes an arc x -> u at a time, and counts the
 * 4-cycles of G[N(x)] whose top (in degree order) is u, crediting all four
 * of their vertices (68, and x's 69): a hub's neighbourhood spread over
 * the device by arc.
 * G[N(x)]'s lists are the arcs' common-neighbour lists (cn_list): the
 * list of x -> a is N(x) and N(a), ascending, as the CPU's inner lists.
 * The block walks the rows (or lists) of 256 items at a time as one range
 * (their lengths' prefix across the threads) dealt to its warps 32
 * entries a round, so that short rows keep the lanes busy and a long one
 * every warp; what an item's entries add to one arc is summed across the
 * lanes that hold them (a segmented sum) and added once by the first of
 * them.  Per-arc values are atomics into zeroed arrays (tdeg, F, c4e: 64
 * bits; toward: 128 bits as two words with the carry), each arc's only
 * from its tail's block (68: its own block's; c4e: its larger end's); the
 * tips (63) likewise into a vertex's two words, from both ends of each
 * pair; the per-vertex sums are
 * 128-bit with the CPU's overflow flag: every term is at least 0, so a
 * sum passes 2^127 - 1 in some order exactly when it does in any.
 * Each block has its own dense scratch: cn (32 bits), s (64), mark (32)
 * and touched (32) per vertex; the blocks are as many as the device runs
 * at once, fewer where their scratch would pass 3/4 of the free memory.
 * Every buffer is allocated before the start event and freed on every
 * path.
 * Over several devices (gpu_orbit_devices.cuh) each holds the graph and
 * the lists and runs both kernels: the vertices from device 0's counter
 * (or its deal of them), the wheels' arcs dealt in turn.  Every per-arc
 * value is then one device's but 68, every vertex's sum its walker's but
 * 69: those two are sums of the wheels' non-negative credits, from
 * whichever devices met the cycles; the host adds the devices' arrays. */
#include <new>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "device.h"
#include "gpu_check.h"
#include "gpu_orbit_devices.cuh"
#include "gpu_stop.cuh"
#include "orbit_walks5.h"

namespace {

typedef __int128 i128;
typedef unsigned __int128 u128;
typedef unsigned long long ull;

constexpr int kThreads = 256;
/* vertex_walks' blocks resident per SM: 3 holds it to 80 registers with no
 * spill (2 at its natural 106); its walks are latency-bound, and on an H200
 * the third block made them 7-12% faster on Kronecker 16 and 18. */
constexpr int kWalkBlocksPerSm = 3;
constexpr int kWarps = kThreads / 32;
constexpr unsigned kFull = 0xffffffffu;
constexpr uint32_t kNone = 0xffffffffu;

/* wm_acc as the device writes it. */
struct acc {
  i128 v;
  int of;
};
static_assert(sizeof(acc) == sizeof(wm_acc) && offsetof(acc, of) == offsetof(wm_acc, overflow),
              "the device's sums are the host's wm_acc");
static_assert(sizeof(i128) == 16 && WM_O5N_TOWARD == 4, "toward: four 128-bit words per arc");

/* What the kernel reads and writes. */
struct walk_args {
  const uint64_t *off;
  const uint32_t *adj;
  uint32_t n;
  const uint32_t *tri, *cn_list, *order;
  const uint64_t *cn_at;
  ull *next;
  ull *tdeg, *F, *c4e, *toward; /* toward: 8 words per arc, low word first */
  acc *walked; /* WM_O5N_WALKED per vertex */
  ull *tips;   /* 63: n low words, then n high words */
  unsigned char *scratch; /* the blocks' scratch, stride bytes each */
  uint64_t stride;
  wm_stop *stop;
  o5_deal deal; /* over several devices: this device's share of next's items */
  int system;   /* over several devices: next is device 0's, taken by every device */
  ull *clocks;  /* WM_ORBIT_TRACE: the blocks' SM clocks in each of vertex_walks' kPhases, or NULL */
};

/* The next item of p's counter: on one device a plain take, over several
 * (Dealt) this device's deal of a take that may be system-wide.  Two
 * instances of each kernel, so that one device's code is as it was. */
template <bool Dealt>
__device__ __forceinline__ ull claim(const walk_args &p) {
  return Dealt ? o5_dealt(p.deal, o5_take(p.next, p.system)) : atomicAdd(p.next, 1ull);
}

/* One block's scratch: a vertex's tally, mark and sum share a sector, so
 * that a walk's entry touches one line for all three. */
struct cell {
  uint32_t cn, mark;
  ull s;
};
struct block_scratch {
  cell *c;
  uint32_t *touched;
};

__host__ __device__ uint64_t align16(uint64_t b) { return (b + 15) & ~15ull; }

/* The scratch's layout for n vertices: its bytes per block, and its
 * arrays at base. */
__host__ __device__ uint64_t scratch_bytes(uint64_t n, unsigned char *base, block_scratch *out) {
  const uint64_t cells = align16(n * sizeof(cell)), at = cells + align16(n * 4);
  if (out) *out = {(cell *)base, (uint32_t *)(base + cells)};
  return at ? at : 16;
}

__device__ __forceinline__ uint64_t deg(const uint64_t *off, uint32_t v) { return off[v + 1] - off[v]; }

/* Whether b comes before a in the order that the tip pairs and the wheels
 * orient their walks by: the later id, as the walks' graph is numbered by
 * degree, largest first (the matcher's copy), so that b's degree is no
 * larger and its list the one to walk; it costs no read of the degrees.
 * Any strict order gives the same sums (each diamond and each 4-cycle
 * credits all its vertices); the CPU's walks use the same one
 * (wm_o5n_shorter). */
__device__ __forceinline__ bool shorter(uint32_t b, uint32_t a) { return b > a; }

/* The arc a -> b (b in a's row, which is ascending). */
__device__ __forceinline__ uint64_t arc_of(const uint64_t *off, const uint32_t *adj, uint32_t a, uint32_t b) {
  uint64_t lo = off[a], hi = off[a + 1];
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (adj[mid] < b) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* The entries of the ascending a[0, n) at or below x. */
__device__ __forceinline__ uint64_t first_above(const uint32_t *a, uint64_t n, uint32_t x) {
  uint64_t lo = 0, hi = n;
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (a[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* C(x, r) for 0 <= x < 2^32 as the CPU's wm_choose. */
__device__ __forceinline__ i128 choose(i128 x, unsigned r) {
  if (x < (i128)r) return 0;
  return r == 2 ? x * (x - 1) / 2 : x * (x - 1) * (x - 2) / 6;
}

__device__ __forceinline__ void acc_add(acc &a, i128 x) {
  const i128 r = (i128)((u128)a.v + (u128)x);
  if ((x > 0 && r < a.v) || (x < 0 && r > a.v)) a.of = 1;
  a.v = r;
}

/* v added to the 128-bit value of words *lo and *hi: the low word, then
 * its carry and v's high word. */
__device__ __forceinline__ void atomic_add_words(ull *lo, ull *hi, u128 v) {
  if (!v) return;
  const ull low = (ull)v, old = atomicAdd(lo, low), up = (ull)(v >> 64) + (old + low < old);
  if (up) atomicAdd(hi, up);
}

__device__ __forceinline__ void atomic_add128(ull *w, u128 v) { atomic_add_words(w, w + 1, v); }

__device__ __forceinline__ u128 shfl_down128(u128 v, unsigned d) {
  const ull lo = __shfl_down_sync(kFull, (ull)v, d), hi = __shfl_down_sync(kFull, (ull)(v >> 64), d);
  return (u128)hi << 64 | lo;
}

__device__ __forceinline__ u128 shfl_xor128(u128 v, int d) {
  const ull lo = __shfl_xor_sync(kFull, (ull)v, d), hi = __shfl_xor_sync(kFull, (ull)(v >> 64), d);
  return (u128)hi << 64 | lo;
}

/* Whole warp: each lane's v becomes the sum over its own and the later
 * lanes of the same key (keys are runs of lanes), so that the first lane
 * of each run holds the run's sum. */
__device__ __forceinline__ void seg_sum(int key, ull &v) {
  const int lane = threadIdx.x & 31;
  for (unsigned d = 1; d < 32; d <<= 1) {
    const int k = __shfl_down_sync(kFull, key, d);
    const ull y = __shfl_down_sync(kFull, v, d);
    if (lane + (int)d < 32 && k == key) v += y;
  }
}

__device__ __forceinline__ void seg_sum(int key, u128 &v) {
  const int lane = threadIdx.x & 31;
  for (unsigned d = 1; d < 32; d <<= 1) {
    const int k = __shfl_down_sync(kFull, key, d);
    const u128 y = shfl_down128(v, d);
    if (lane + (int)d < 32 && k == key) v += y;
  }
}

/* A key that is no item's: each lane past the end of block_rounds' items
 * has its own, so that it joins no run. */
constexpr int kNoItem = kThreads;

/* Whole warp: whether the lane is the first of its key's run. */
__device__ __forceinline__ bool run_head(int key) {
  const int lane = threadIdx.x & 31, before = __shfl_up_sync(kFull, key, 1);
  return key < kNoItem && (lane == 0 || before != key);
}

/* block_rounds' shared part: each thread's item's range, its place in the
 * block's concatenation of them, a word of the caller's about it, and the
 * warps' sums for the scan. */
struct rounds_share {
  uint64_t start[kThreads], excl[kThreads + 1], tag[kThreads];
  uint64_t warp_sum[kWarps];
};

/* Whole block: the ranges [start, start + len) of the block's kThreads
 * items (one a thread) walked as one, 32 entries a round, the rounds
 * dealt to the warps in turn, so that a long row and many short ones keep
 * every warp busy up to the end; every lane of a warp calls
 * round(key, item, at, tag) each round its warp takes, at the entry it
 * holds, item the thread whose item holds it and tag that item's tag; key
 * is item, or kNoItem + lane past the end (then at is meaningless), so
 * that runs of one key are the entries of one item.  Ends at a barrier:
 * the block may call it again at once. */
template <class Round>
__device__ __forceinline__ void block_rounds(rounds_share &sh, uint64_t start, uint64_t len, uint64_t tag,
                                             Round round) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  uint64_t incl = len;
  for (int d = 1; d < 32; d <<= 1) {
    const uint64_t y = __shfl_up_sync(kFull, incl, d);
    if (lane >= d) incl += y;
  }
  if (lane == 31) sh.warp_sum[warp] = incl;
  __syncthreads();
  uint64_t before = 0;
  for (int v = 0; v < warp; v++) before += sh.warp_sum[v];
  sh.start[threadIdx.x] = start, sh.excl[threadIdx.x] = before + incl - len, sh.tag[threadIdx.x] = tag;
  if (threadIdx.x == kThreads - 1) sh.excl[kThreads] = before + incl;
  __syncthreads();
  const uint64_t total = sh.excl[kThreads];
  for (uint64_t i = (uint64_t)warp * 32 + lane; i - lane < total; i += kThreads) {
    int j = 0; /* the last item whose range starts at or before i: its len is not 0 */
    for (int h = kThreads / 2; h; h >>= 1)
      if (sh.excl[j + h] <= i) j += h;
    round(i < total ? j : kNoItem + lane, j, sh.start[j] + (i - sh.excl[j]), sh.tag[j]);
  }
  __syncthreads();
}

/* Whole block: for each kThreads of x's neighbours, their rows as
 * block_rounds' items, where a neighbour a > above only the end of its
 * ascending row above `above` (kNone: every row whole); round(key, i, f)
 * with i the neighbour's place in x's row and f the arc a -> z of the
 * entry. */
template <class Round>
__device__ __forceinline__ void each_two_path(const walk_args &p, rounds_share &sh, uint64_t first, uint64_t d,
                                              uint32_t above, Round round) {
  for (uint64_t c = 0; c < d; c += kThreads) {
    uint64_t start = 0, len = 0;
    if (c + threadIdx.x < d) {
      const uint32_t a = p.adj[first + c + threadIdx.x];
      start = p.off[a], len = p.off[a + 1] - start;
      if (a > above) {
        const uint64_t skip = first_above(p.adj + start, len, above);
        start += skip, len -= skip;
      }
    }
    block_rounds(sh, start, len, 0, [&](int key, int j, uint64_t f, uint64_t) { round(key, c + j, f); });
  }
}

/* The per-vertex sums of a thread. */
struct sums {
  acc s[WM_O5N_WALKED];
};

/* Phase 2: the first walk over x's 2-paths (far_edges, and two_hop with
 * the touched list). */
__device__ void first_walk(const walk_args &p, const block_scratch &w, rounds_share &sh, uint32_t x, uint32_t *nt,
                           sums &my) {
  const uint64_t first = p.off[x], d = p.off[x + 1] - first;
  each_two_path(p, sh, first, d, kNone, [&](int key, uint64_t i, uint64_t f) {
    ull td = 0, F = 0;
    if (key < kNoItem) {
      const uint32_t a = p.adj[first + i], z = p.adj[f];
      if (z != x) {
        if (!atomicAdd(&w.c[z].cn, 1u)) w.touched[atomicAdd(nt, 1u)] = z;
        atomicAdd(&w.c[z].s, (ull)p.tri[f]);
        const uint32_t mz = w.c[z].mark;
        if (mz) { /* the triangle x, a, z */
          const uint64_t h = first + mz - 1;
          td = deg(p.off, z), F = p.tri[h] - 1u;
          if (a < z) {
            const i128 tab = p.tri[f], da = (i128)deg(p.off, a), db = (i128)td;
            acc_add(my.s[WM_O5N_S25], (da - 2) * (db - 2) - tab + 1);
            acc_add(my.s[WM_O5N_S40], (tab - 1) * (da + db - 6));
            acc_add(my.s[WM_O5N_S54], choose(tab - 1, 2));
            acc_add(my.s[WM_O5N_S60], (tab - 1) * ((i128)p.tri[first + i] + p.tri[h] - 2));
          }
        }
      }
    }
    if (!__any_sync(kFull, td != 0 || F != 0)) return;
    seg_sum(key, td);
    seg_sum(key, F);
    const bool head = run_head(key);
    if (!head) return;
    if (td) atomicAdd(&p.tdeg[first + i], td);
    if (F) atomicAdd(&p.F[first + i], F);
  });
}

/* Phase 3: 36, 50, 51 over the touched; s cleared for E. */
__device__ void around_cycles(const walk_args &p, const block_scratch &w, uint32_t nt, sums &my) {
  for (uint32_t k = threadIdx.x; k < nt; k += kThreads) {
    const uint32_t z = w.touched[k];
    const i128 cn = w.c[z].cn;
    acc_add(my.s[WM_O5N_S36], choose(cn, 2) * ((i128)deg(p.off, z) - 2));
    acc_add(my.s[WM_O5N_S50], choose(cn, 3));
    acc_add(my.s[WM_O5N_S51], (cn - 1) * (i128)w.c[z].s);
    w.c[z].s = 0;
  }
}

/* Phase 4: the tip pairs.  The items are the entries of x's arcs' lists
 * (G[N(x)]'s arcs a -> b, the owner a found by a search of cn_at); an
 * item with b before a walks CN(a, b) above x, found by a search of the
 * arc's ascending list: each pair of tips once, from the smaller. */
__device__ void tip_pairs(const walk_args &p, const block_scratch &w, rounds_share &sh, uint32_t x) {
  const uint64_t first = p.off[x], d = p.off[x + 1] - first;
  const uint64_t base = p.cn_at[first], items = p.cn_at[first + d] - base;
  for (uint64_t c = 0; c < items; c += kThreads) {
    uint64_t start = 0, len = 0, arcs = 0; /* tag: the places of a and b in x's row */
    if (c + threadIdx.x < items) {
      const uint64_t at = base + c + threadIdx.x;
      uint64_t lo = 0, hi = d - 1; /* the last i with cn_at[first + i] <= at */
      while (lo < hi) {
        const uint64_t mid = lo + (hi - lo + 1) / 2;
        if (p.cn_at[first + mid] <= at) lo = mid;
        else hi = mid - 1;
      }
      const uint32_t a = p.adj[first + lo], b = p.cn_list[at];
      if (shorter(b, a)) {
        const uint64_t f = arc_of(p.off, p.adj, a, b);
        start = p.cn_at[f], len = p.cn_at[f + 1] - start;
        const uint64_t skip = first_above(p.cn_list + start, len, x);
        start += skip, len -= skip;
        arcs = lo << 32 | (w.c[b].mark - 1u);
      }
    }
    block_rounds(sh, start, len, arcs, [&](int key, int, uint64_t k, uint64_t tag) {
      ull thirds = 0; /* at most 32 terms below 2^32 */
      if (key < kNoItem) {
        const uint32_t q = p.cn_list[k];
        atomicAdd(&w.c[q].s, 1ull);
        thirds = (ull)w.c[q].cn - 2; /* q sees a and b: cn(q) >= 2 */
      }
      if (!__any_sync(kFull, thirds != 0)) return;
      seg_sum(key, thirds);
      const bool head = run_head(key);
      if (!head || !thirds) return;
      atomic_add128(p.toward + 8 * (first + (tag >> 32)) + 2 * WM_O5N_TO64, thirds);
      atomic_add128(p.toward + 8 * (first + (uint32_t)tag) + 2 * WM_O5N_TO64, thirds);
    });
  }
}

/* Phase 5's second walk over x's 2-paths x-y-o, each pair {x, o} from its
 * smaller vertex (orbit_walks5.c's second_walk): on x -> y, over the o > x
 * of N(y), what x owes y for 49 (C(cn(o) - 1, 2)) and 62 (E(o)); where y <
 * x, y's row whole, and the edge's c4e (cn(o) - 1 over every o) into both
 * of its arcs.  The rows as each_two_path's. */
__device__ void second_walk(const walk_args &p, const block_scratch &w, rounds_share &sh, uint32_t x) {
  const uint64_t first = p.off[x], d = p.off[x + 1] - first;
  each_two_path(p, sh, first, d, x, [&](int key, uint64_t i, uint64_t f) {
    ull c4 = 0;
    u128 k23 = 0, chords = 0;
    const uint32_t y = key < kNoItem ? p.adj[first + i] : 0;
    if (key < kNoItem) {
      const uint32_t o = p.adj[f], cn = w.c[o].cn;
      if (o != x && y < x) c4 = cn - 1ull;
      if (o > x) k23 = (u128)choose((i128)cn - 1, 2), chords = w.c[o].s;
    }
    if (!__any_sync(kFull, c4 != 0 || k23 != 0 || chords != 0)) return;
    seg_sum(key, c4);
    seg_sum(key, k23);
    seg_sum(key, chords);
    const bool head = run_head(key);
    if (!head) return;
    if (c4) atomicAdd(&p.c4e[first + i], c4), atomicAdd(&p.c4e[arc_of(p.off, p.adj, y, x)], c4);
    atomic_add128(p.toward + 8 * (first + i) + 2 * WM_O5N_TO49, k23);
    atomic_add128(p.toward + 8 * (first + i) + 2 * WM_O5N_TO62, chords);
  });
}

/* v's 63 credited with t. */
__device__ __forceinline__ void credit_tip(const walk_args &p, uint32_t v, u128 t) {
  atomic_add_words(&p.tips[v], &p.tips[(uint64_t)p.n + v], t);
}

/* 63 over the touched q > x: E(q) (cn(q) - 2), each term below 2^96, to q
 * and to x. */
__device__ void tips(const walk_args &p, const block_scratch &w, uint32_t x, uint32_t nt) {
  u128 mine = 0;
  for (uint32_t k = threadIdx.x; k < nt; k += kThreads) {
    const cell c = w.c[w.touched[k]];
    if (!c.s) continue;
    const u128 t = (u128)c.s * (c.cn - 2);
    credit_tip(p, w.touched[k], t);
    mine += t;
  }
  credit_tip(p, x, mine);
}

/* Phase 6's sum of the block's threads into walked[x]. */
__device__ void block_sums(const walk_args &p, uint32_t x, sums &my, acc (*part)[WM_O5N_WALKED]) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (int k = 0; k < WM_O5N_WALKED; k++) {
    acc a = my.s[k];
    for (int s = 16; s; s >>= 1) {
      const acc o = {(i128)shfl_xor128((u128)a.v, s), __shfl_xor_sync(kFull, a.of, s)};
      a.of |= o.of;
      acc_add(a, o.v);
    }
    if (lane == 0) part[warp][k] = a;
  }
  __syncthreads();
  if (threadIdx.x < WM_O5N_WALKED) {
    acc a = part[0][threadIdx.x];
    for (int v = 1; v < kWarps; v++) a.of |= part[v][threadIdx.x].of, acc_add(a, part[v][threadIdx.x].v);
    p.walked[(uint64_t)x * WM_O5N_WALKED + threadIdx.x] = a;
  }
}

/* vertex_walks' phases as WM_ORBIT_TRACE times them: the first walk, the
 * touched, the tip pairs, the second walk, the clearing and sums. */
constexpr int kPhases = 5;

/* Thread 0, where the clocks are kept: the clock since *t added to the
 * block's phase k. */
__device__ __forceinline__ void clock_phase(const walk_args &p, ull *mine, int k, long long *t) {
  if (!p.clocks || threadIdx.x) return;
  const long long now = clock64();
  mine[k] += (ull)(now - *t);
  *t = now;
}

__device__ void one_vertex(const walk_args &p, const block_scratch &w, rounds_share &sh, uint32_t x, uint32_t *nt,
                           acc (*part)[WM_O5N_WALKED], ull *mine) {
  const uint64_t first = p.off[x], d = p.off[x + 1] - first;
  long long t = p.clocks ? clock64() : 0;
  sums my = {};
  for (uint64_t i = threadIdx.x; i < d; i += kThreads) w.c[p.adj[first + i]].mark = (uint32_t)(i + 1);
  __syncthreads();
  first_walk(p, w, sh, x, nt, my);
  __syncthreads();
  clock_phase(p, mine, 0, &t);
  const uint32_t touched = *nt;
  around_cycles(p, w, touched, my);
  __syncthreads();
  clock_phase(p, mine, 1, &t);
  tip_pairs(p, w, sh, x);
  __syncthreads();
  clock_phase(p, mine, 2, &t);
  second_walk(p, w, sh, x);
  tips(p, w, x, touched);
  __syncthreads();
  clock_phase(p, mine, 3, &t);
  for (uint32_t k = threadIdx.x; k < touched; k += kThreads) w.c[w.touched[k]].cn = 0, w.c[w.touched[k]].s = 0;
  for (uint64_t i = threadIdx.x; i < d; i += kThreads) w.c[p.adj[first + i]].mark = 0;
  block_sums(p, x, my, part);
  clock_phase(p, mine, 4, &t);
}

/* Persistent blocks: each takes the next vertex of `order` (this device's
 * share of them) until none is left or the call is asked to stop (a
 * vertex taken is walked whole, so the scratch is left clean). */
template <bool Dealt>
__global__ void __launch_bounds__(kThreads, kWalkBlocksPerSm) vertex_walks(walk_args p) {
  __shared__ uint32_t x_now, nt;
  __shared__ acc part[kWarps][WM_O5N_WALKED];
  __shared__ rounds_share sh;
  block_scratch w;
  scratch_bytes(p.n, p.scratch + blockIdx.x * p.stride, &w);
  ull mine[kPhases] = {}; /* thread 0's */
  for (;;) {
    if (threadIdx.x == 0) {
      const ull k = claim<Dealt>(p);
      x_now = k < p.n && !wm_stop_asked(p.stop) ? p.order[k] : kNone;
      nt = 0;
    }
    __syncthreads();
    const uint32_t x = x_now;
    if (x == kNone) break;
    one_vertex(p, w, sh, x, &nt, part, mine);
    __syncthreads();
  }
  if (p.clocks && threadIdx.x == 0)
    for (int k = 0; k < kPhases; k++) atomicAdd(&p.clocks[k], mine[k]);
}

/* The row holding arc `arc`: the last v with off[v] <= arc (off[n] > arc). */
__device__ __forceinline__ uint32_t row_of(const uint64_t *off, uint32_t n, uint64_t arc) {
  uint32_t lo = 0, hi = n - 1;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo + 1) / 2;
    if (off[mid] <= arc) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/* Whole block: for each v of CN(x, u) (the list of the arc e = x -> u)
 * below u (shorter), the w of CN(x, v), kThreads v at a time as
 * block_rounds' items, the arc x -> v found by a search of x's row;
 * round(key, xv, l) with xv the arc x -> v of the entry cn_list[l] (every
 * lane calls it each round its warp takes, as block_rounds). */
template <class Round>
__device__ __forceinline__ void each_lower_rim(const walk_args &p, rounds_share &sh, uint32_t x, uint32_t u,
                                               uint64_t e, Round round) {
  const uint64_t lb = p.cn_at[e], le = p.cn_at[e + 1];
  for (uint64_t c = lb; c < le; c += kThreads) {
    uint64_t start = 0, len = 0, xv = 0;
    if (c + threadIdx.x < le && shorter(p.cn_list[c + threadIdx.x], u)) {
      xv = arc_of(p.off, p.adj, x, p.cn_list[c + threadIdx.x]);
      start = p.cn_at[xv], len = p.cn_at[xv + 1] - start;
    }
    block_rounds(sh, start, len, xv, [&](int key, int, uint64_t l, uint64_t arc) { round(key, arc, l); });
  }
}

/* The wheels, after vertex_walks (whose sum 69 they add to): the 4-cycles
 * of each G[N(x)], each met once, from its top u (the vertex of the four
 * first in id, shorter's order), whose two neighbours on the cycle, v and
 * v', and opposite vertex w are all below it.  A block per arc e = x -> u
 * with t_xu >= 2 (of this device's share of the arcs), so that a hub's
 * arcs spread over the device:
 *   1. over the paths u-v-w inside N(x) with v and w below u, the
 *      middles p(w) per w, tallied in the block's cn (clean after
 *      vertex_walks and after each arc) with the w touched listed;
 *   2. each w closes C(p(w), 2) cycles with u on top: owed to u and to w
 *      (68), and each middle v of w to v, p(w) - 1 times (once for each
 *      other middle): read from the same tally by a second walk of the
 *      paths.
 * Walking only the paths below their top costs, per edge v-u of G[N(x)],
 * the list of its lower end, where every path from every end (the sum
 * over arcs of t^2) did before; the price is that an arc's 68 comes from
 * several blocks (128-bit atomics).  x's 69 is its cycles' credits, four
 * each, below 2^127 (fewer than 2^32 arcs of fewer than 2^95 each): the
 * sum's overflow flag stays 0, as on the CPU. */
template <bool Dealt>
__global__ void __launch_bounds__(kThreads) wheels(walk_args p) {
  __shared__ ull arc_now;
  __shared__ uint32_t nt;
  __shared__ u128 part[kWarps];
  __shared__ rounds_share sh;
  block_scratch w;
  scratch_bytes(p.n, p.scratch + blockIdx.x * p.stride, &w);
  const uint64_t m = p.off[p.n];
  for (;;) {
    if (threadIdx.x == 0) {
      ull e;
      do e = claim<Dealt>(p);
      while (e < m && p.tri[e] < 2);
      arc_now = e < m && !wm_stop_asked(p.stop) ? e : ~0ull;
      nt = 0;
    }
    __syncthreads();
    const ull e = arc_now;
    if (e == ~0ull) return;
    const uint32_t x = row_of(p.off, p.n, e), u = p.adj[e];
    const uint64_t first = p.off[x], d = p.off[x + 1] - first;
    each_lower_rim(p, sh, x, u, e, [&](int key, uint64_t, uint64_t l) {
      const uint32_t z = key < kNoItem ? p.cn_list[l] : u;
      if (z != u && shorter(z, u) && !atomicAdd(&w.c[z].cn, 1u)) w.touched[atomicAdd(&nt, 1u)] = z;
    });
    __syncthreads();
    const uint32_t touched = nt; /* thread 0 resets nt at the next claim, maybe before the others clear */
    u128 cycles = 0;
    for (uint32_t k = threadIdx.x; k < touched; k += kThreads) {
      const uint32_t z = w.touched[k];
      const u128 c = (u128)choose((i128)w.c[z].cn, 2);
      if (!c) continue;
      cycles += c;
      const uint32_t *row = p.adj + first;
      uint64_t lo = 0, hi = d; /* z's place in x's row */
      while (lo < hi) {
        const uint64_t mid = lo + (hi - lo) / 2;
        if (row[mid] < z) lo = mid + 1;
        else hi = mid;
      }
      atomic_add128(p.toward + 8 * (first + lo) + 2 * WM_O5N_TO68, c);
    }
    each_lower_rim(p, sh, x, u, e, [&](int key, uint64_t xv, uint64_t l) {
      ull owed = 0;
      if (key < kNoItem) {
        const uint32_t z = p.cn_list[l];
        if (z != u && shorter(z, u)) owed = w.c[z].cn - 1u;
      }
      seg_sum(key, owed);
      if (run_head(key) && owed) atomic_add128(p.toward + 8 * xv + 2 * WM_O5N_TO68, owed);
    });
    for (int s = 16; s; s >>= 1) cycles += shfl_xor128(cycles, s);
    if ((threadIdx.x & 31) == 0) part[threadIdx.x >> 5] = cycles;
    __syncthreads(); /* the tally read; thread 0 reads part before the next claim's barrier, the others write it after */
    for (uint32_t k = threadIdx.x; k < touched; k += kThreads) w.c[w.touched[k]].cn = 0;
    if (threadIdx.x == 0) {
      u128 sum = 0;
      for (int v = 0; v < kWarps; v++) sum += part[v];
      atomic_add128(p.toward + 8 * e + 2 * WM_O5N_TO68, sum);
      atomic_add128((ull *)&p.walked[(uint64_t)x * WM_O5N_WALKED + WM_O5N_S69].v, 4 * sum);
    }
  }
}

/* ---- the host ------------------------------------------------------------ */

struct bufs {
  uint64_t *own_off;
  uint32_t *own_adj, *tri, *cn_list, *order;
  uint64_t *cn_at;
  ull *next, *tdeg, *F, *c4e, *toward, *clocks, *tips;
  acc *walked;
  unsigned char *scratch;
  cudaEvent_t start, mid, end;
};

void release(bufs &b) {
  void *p[] = {b.own_off, b.own_adj, b.tri, b.cn_list, b.order, b.cn_at, b.next,
               b.tdeg,    b.F,       b.c4e, b.toward,  b.walked, b.scratch, b.clocks, b.tips};
  for (void *x : p)
    if (x) cudaFree(x);
  if (b.start) cudaEventDestroy(b.start);
  if (b.mid) cudaEventDestroy(b.mid);
  if (b.end) cudaEventDestroy(b.end);
  cudaGetLastError();
}

/* The vertices by cost, the largest first: bucketed by the bit length of
 * their 2-paths plus the squares of their arcs' triangles (a vertex's
 * walks cost about that), which is order enough for the hubs to start
 * first, in O(n). */
int by_cost(const wm_graph *g, const uint32_t *tri, uint32_t *order, wm_error *err) {
  uint8_t *bits = (uint8_t *)malloc(g->n);
  if (!bits) return wm_fail(err, WM_EINPUT, "orbits: out of memory for the walks' order (%u vertices)", g->n);
  uint64_t count[66] = {0};
  for (uint32_t x = 0; x < g->n; x++) {
    u128 cost = 1;
    for (uint64_t e = g->offsets[x]; e < g->offsets[x + 1]; e++)
      cost += wm_degree(g, g->adj[e]) + (uint64_t)tri[e] * tri[e];
    const uint64_t c = cost >> 64 ? ~0ull : (uint64_t)cost;
    bits[x] = (uint8_t)(64 - __builtin_clzll(c));
    count[64 - bits[x] + 1]++;
  }
  for (int k = 1; k < 66; k++) count[k] += count[k - 1];
  for (uint32_t x = 0; x < g->n; x++) order[count[64 - bits[x]]++] = x;
  free(bits);
  return WM_OK;
}

/* What every device's walks read on the host. */
struct walk_in {
  const wm_graph *g;
  const struct wm_gpu_graph *gg;
  const uint32_t *tri, *order; /* order: by_cost's */
  const uint64_t *cn_at;
  const uint32_t *cn_list;
};

template <class T>
cudaError_t upload(T **dst, const void *src, size_t bytes) {
  return wm_cuda_upload(dst, src, bytes);
}

/* The graph (gg's or uploaded), the walks' inputs and outputs (zeroed)
 * and the blocks' scratch (zeroed), on the current device: as many blocks
 * as run at once, fewer where their scratch would pass 3/4 of the free
 * memory, for the kernels' instances of one device or of several (dealt).
 * p takes every vertex and arc from b's own counters.  The large inputs go
 * through stage where not NULL. */
int prepare(bufs &b, walk_args &p, const walk_in &in, bool dealt, uint64_t blocks[2], wm_error *err,
            wm_stage *stage = NULL) {
  const wm_graph *g = in.g;
  int dev = 0, sms = 0;
  WM_CU(cudaGetDevice(&dev));
  WM_CU(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  const size_t n = g->n, m = g->m;
  void *off = NULL, *adj = NULL;
  if (!wm_gpu_graph_on(in.gg, g, dev, &off, &adj)) {
    WM_CU(upload(&b.own_off, g->offsets, (n + 1) * sizeof(uint64_t)));
    WM_CU(upload(&b.own_adj, g->adj, m * sizeof(uint32_t)));
    off = b.own_off, adj = b.own_adj;
  }
  WM_CU(upload(&b.order, in.order, n * sizeof *in.order));
  const size_t lists = in.cn_at[m] ? in.cn_at[m] : 1;
  WM_CU(cudaMalloc(&b.tri, (m ? m : 1) * sizeof *b.tri));
  WM_CU(cudaMalloc(&b.cn_at, (m + 1) * sizeof *b.cn_at));
  WM_CU(cudaMalloc(&b.cn_list, lists * sizeof *b.cn_list));
  if (wm_stage_copy(stage, b.tri, in.tri, m * sizeof *in.tri, WM_TO_DEVICE, err) ||
      wm_stage_copy(stage, b.cn_at, in.cn_at, (m + 1) * sizeof *in.cn_at, WM_TO_DEVICE, err) ||
      wm_stage_copy(stage, b.cn_list, in.cn_list, in.cn_at[m] * sizeof *in.cn_list, WM_TO_DEVICE, err))
    return err->code;
  WM_CU(cudaMalloc(&b.next, 2 * sizeof *b.next)); /* vertex_walks', wheels' */
  WM_CU(cudaMalloc(&b.tdeg, (m ? m : 1) * sizeof *b.tdeg));
  WM_CU(cudaMalloc(&b.F, (m ? m : 1) * sizeof *b.F));
  WM_CU(cudaMalloc(&b.c4e, (m ? m : 1) * sizeof *b.c4e));
  WM_CU(cudaMalloc(&b.toward, (m ? m : 1) * 8 * sizeof *b.toward));
  WM_CU(cudaMalloc(&b.walked, n * WM_O5N_WALKED * sizeof *b.walked));
  WM_CU(cudaMalloc(&b.tips, 2 * n * sizeof *b.tips));
  WM_CU(cudaMemset(b.tips, 0, 2 * n * sizeof *b.tips));
  WM_CU(cudaMemset(b.next, 0, 2 * sizeof *b.next));
  WM_CU(cudaMemset(b.tdeg, 0, m * sizeof *b.tdeg));
  WM_CU(cudaMemset(b.F, 0, m * sizeof *b.F));
  WM_CU(cudaMemset(b.c4e, 0, m * sizeof *b.c4e));
  WM_CU(cudaMemset(b.toward, 0, m * 8 * sizeof *b.toward));
  /* the vertices another device walks stay zero here */
  WM_CU(cudaMemset(b.walked, 0, n * WM_O5N_WALKED * sizeof *b.walked));
  const uint64_t stride = scratch_bytes(n, NULL, NULL);
  size_t free_b = 0, total_b = 0;
  WM_CU(cudaMemGetInfo(&free_b, &total_b));
  /* as many blocks as are resident at once, for each kernel: more would only hold scratch */
  int per_sm[2] = {0, 0};
  WM_CU(dealt ? cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm[0], vertex_walks<true>, kThreads, 0)
              : cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm[0], vertex_walks<false>, kThreads, 0));
  WM_CU(dealt ? cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm[1], wheels<true>, kThreads, 0)
              : cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm[1], wheels<false>, kThreads, 0));
  const uint64_t fit = (uint64_t)(0.75 * (double)free_b) / stride;
  uint64_t want = 0;
  for (int k = 0; k < 2; k++) {
    blocks[k] = (uint64_t)sms * (per_sm[k] > 0 ? per_sm[k] : 1);
    if (blocks[k] > fit) blocks[k] = fit;
    want = blocks[k] > want ? blocks[k] : want;
  }
  if (blocks[0] > n) blocks[0] = n;
  if (!want)
    return wm_fail(err, WM_EDEVICE, "orbits: device out of memory: one block's walk scratch (%llu bytes, %zu free)",
                   (unsigned long long)stride, free_b);
  WM_CU(cudaMalloc(&b.scratch, want * stride));
  WM_CU(cudaMemset(b.scratch, 0, want * stride));
  p = walk_args{(const uint64_t *)off, (const uint32_t *)adj, g->n, b.tri, b.cn_list, b.order, b.cn_at, b.next,
                b.tdeg, b.F, b.c4e, b.toward, b.walked, b.tips, b.scratch, stride, NULL, o5_deal{0, 1}, 0, NULL};
  if (wm_trace_on("WM_ORBIT_TRACE")) {
    WM_CU(cudaMalloc(&b.clocks, kPhases * sizeof *b.clocks));
    WM_CU(cudaMemset(b.clocks, 0, kPhases * sizeof *b.clocks));
    p.clocks = b.clocks;
  }
  return WM_OK;
}

/* What the vertex walks leave (tdeg, F, c4e, the tips, the sums), through
 * stage where not NULL.  The single device's walks copy these while the
 * wheels run, so a vertex's S69 (the wheels') is copied again after them. */
int copy_vertex_walks(const bufs &b, wm_stage *stage, const wm_graph *g, wm_o5n_walks *w, wm_error *err) {
  const size_t m = g->m, n = g->n;
  const wm_copy_way back = WM_TO_HOST;
  if (wm_stage_copy(stage, w->tdeg, b.tdeg, m * sizeof *w->tdeg, back, err) ||
      wm_stage_copy(stage, w->F, b.F, m * sizeof *w->F, back, err) ||
      wm_stage_copy(stage, w->c4e, b.c4e, m * sizeof *w->c4e, back, err) ||
      wm_stage_copy(stage, w->tips, b.tips, 2 * n * sizeof *w->tips, back, err) ||
      wm_stage_copy(stage, w->walked, b.walked, n * sizeof *w->walked, back, err))
    return err->code;
  return WM_OK;
}

/* Everything, once both kernels are done. */
int copy_back(const bufs &b, const wm_graph *g, wm_o5n_walks *w, wm_error *err) {
  if (copy_vertex_walks(b, NULL, g, w, err)) return err->code;
  WM_CU(cudaMemcpy(w->toward, b.toward, g->m * sizeof *w->toward, cudaMemcpyDeviceToHost));
  return WM_OK;
}

/* The two kernels on the current device (their instances for one device
 * or several: dealt), between b's events: the vertex walks with p's
 * counter, the wheels with q's. */
int launch(bufs &b, const walk_args &p, const walk_args &q, bool dealt, const uint64_t blocks[2], wm_error *err) {
  WM_CU(cudaEventCreate(&b.start));
  WM_CU(cudaEventCreate(&b.mid));
  WM_CU(cudaEventCreate(&b.end));
  WM_CU(cudaEventRecord(b.start, 0));
  if (dealt) vertex_walks<true><<<(unsigned)blocks[0], kThreads>>>(p);
  else vertex_walks<false><<<(unsigned)blocks[0], kThreads>>>(p);
  WM_CU(cudaGetLastError());
  WM_CU(cudaEventRecord(b.mid, 0));
  if (dealt) wheels<true><<<(unsigned)blocks[1], kThreads>>>(q);
  else wheels<false><<<(unsigned)blocks[1], kThreads>>>(q);
  WM_CU(cudaGetLastError());
  return WM_OK;
}

/* One device's walks, begun (prepared, launched, the vertex walks' part
 * copied back while the wheels run) and finished (waited for, the
 * wheels' part copied back, every buffer freed). */
struct walk_run {
  bufs b;
  wm_stage *stage; /* NULL: plain copies */
  uint64_t blocks[2];
  double *kernel_ms;
  double began, launched, early; /* when prepare began and ended, the early copies' time (s) */
};

int begin(walk_run &r, const walk_in &in, wm_o5n_walks *w, wm_error *err) {
  walk_args p;
  r.began = wm_now();
  r.stage = wm_stage_create();
  int rc = prepare(r.b, p, in, false, r.blocks, err, r.stage);
  r.launched = wm_now();
  if (!rc) rc = wm_gpu_stop_word(wm_monitor_current(), &p.stop, err);
  walk_args q = p;
  q.next = r.b.next + 1;
  if (!rc) rc = launch(r.b, p, q, false, r.blocks, err);
  if (!rc) WM_CU(cudaEventSynchronize(r.b.mid));
  const double t = wm_now();
  if (!rc) rc = copy_vertex_walks(r.b, r.stage, in.g, w, err);
  r.early = wm_now() - t;
  return rc;
}

int finish(walk_run &r, const wm_graph *g, wm_o5n_walks *w, wm_error *err) {
  float ms = 0, walks_ms = 0;
  int rc = wm_gpu_end_timed(r.b.start, r.b.end, "orbits", &ms, r.kernel_ms, err);
  if (!rc && cudaEventElapsedTime(&walks_ms, r.b.start, r.b.mid) != cudaSuccess) walks_ms = 0;
  const double t = wm_now();
  if (!rc && (wm_stage_copy(r.stage, w->toward, r.b.toward, g->m * sizeof *w->toward, WM_TO_HOST, err) ||
              wm_stage_copy(r.stage, w->walked, r.b.walked, g->n * sizeof *w->walked, WM_TO_HOST, err)))
    rc = err->code;
  if (!rc && wm_trace_on("WM_ORBIT_TRACE"))
    fprintf(stderr, "orbits (walks, GPU): vertex walks %.3f ms (%llu blocks), wheels %.3f ms (%llu blocks); "
            "uploads and buffers %.3f ms, copies back %.3f ms beside the wheels and %.3f ms after\n", walks_ms,
            (unsigned long long)r.blocks[0], ms - walks_ms, (unsigned long long)r.blocks[1],
            1e3 * (r.launched - r.began), 1e3 * r.early, 1e3 * (wm_now() - t));
  if (!rc && r.b.clocks) {
    ull c[kPhases], all = 0;
    WM_CU(cudaMemcpy(c, r.b.clocks, sizeof c, cudaMemcpyDeviceToHost));
    for (int k = 0; k < kPhases; k++) all += c[k];
    if (all)
      fprintf(stderr, "orbits (walks, GPU): vertex walks' block clocks: first walk %.1f%%, touched %.1f%%, tip pairs "
              "%.1f%%, second walk %.1f%%, clearing and sums %.1f%%\n", 100.0 * c[0] / all, 100.0 * c[1] / all,
              100.0 * c[2] / all, 100.0 * c[3] / all, 100.0 * c[4] / all);
  }
  return rc;
}

/* ---- over several devices -------------------------------------------- */

/* Device d's walks: the vertices from device 0's counter where the devices
 * share it (sh), else its deal of its own; the wheels' arcs always its
 * deal of its own counter (an arc is a short item: a counter across the
 * devices would cost a remote atomic per arc, and a hub's arcs, dealt in
 * turn, weigh alike). */
int start_device(bufs &b, int d, const o5_devices &D, ull *sh, const walk_in &in, uint64_t blocks[2],
                 wm_error *err) {
  WM_CUD(d, cudaSetDevice(d));
  walk_args p;
  int rc = prepare(b, p, in, true, blocks, err);
  if (!rc) rc = wm_gpu_stop_word(wm_monitor_current(), &p.stop, err);
  if (rc) return rc;
  walk_args q = p;
  q.next = b.next + 1, q.deal = o5_deal{(unsigned)d, (unsigned)D.n};
  p.deal = o5_deal_of(D, d);
  if (D.shared) p.next = sh, p.system = 1;
  if (wm_gpu_fault_here(d)) WM_CUD(d, wm_gpu_fault_launch(0)); /* tests: a device that fails */
  return launch(b, p, q, true, blocks, err);
}

/* Each device's walks added into w (device 0's copied): an arc's tdeg,
 * F, 49, 62 and 64 are its tail's walk's, its c4e its larger end's, a vertex's sums its own
 * walk's, one device's each (the others hold zeros); an arc's 68, a
 * vertex's 69 and its tips (63) are sums of non-negative credits from
 * whichever devices met the cycles or walked the pairs, so the devices'
 * values added (128-bit, the flags or'd) are one device's sums.  tmp:
 * room for the largest array. */
int add_back(const bufs &b, int d, const wm_graph *g, wm_o5n_walks *w, void *tmp, wm_error *err) {
  const size_t n = g->n, m = g->m;
  WM_CUD(d, cudaSetDevice(d));
  uint64_t *words = (uint64_t *)tmp;
  uint64_t *to[3] = {w->tdeg, w->F, w->c4e};
  const ull *from[3] = {b.tdeg, b.F, b.c4e};
  for (int k = 0; k < 3; k++) {
    WM_CU(cudaMemcpy(words, from[k], m * sizeof *words, cudaMemcpyDeviceToHost));
    o5_add_words(to[k], words, m);
  }
  wm_i128 *wide = (wm_i128 *)tmp;
  WM_CU(cudaMemcpy(wide, b.toward, m * sizeof *w->toward, cudaMemcpyDeviceToHost));
  for (size_t e = 0; e < m; e++)
    for (int k = 0; k < WM_O5N_TOWARD; k++)
      w->toward[e][k] = (wm_i128)((wm_u128)w->toward[e][k] + (wm_u128)wide[e * WM_O5N_TOWARD + k]);
  wm_acc *sums = (wm_acc *)tmp;
  WM_CU(cudaMemcpy(sums, b.walked, n * sizeof *w->walked, cudaMemcpyDeviceToHost));
  for (size_t x = 0; x < n; x++)
    for (int k = 0; k < WM_O5N_WALKED; k++) {
      wm_acc *a = &w->walked[x][k];
      a->overflow |= sums[x * WM_O5N_WALKED + k].overflow;
      wm_acc_add(a, sums[x * WM_O5N_WALKED + k].v);
    }
  WM_CU(cudaMemcpy(words, b.tips, 2 * n * sizeof *words, cudaMemcpyDeviceToHost));
  for (size_t x = 0; x < n; x++) {
    const wm_u128 t = (wm_u128)wm_o5n_tips(w, (uint32_t)n, (uint32_t)x) + ((wm_u128)words[n + x] << 64 | words[x]);
    w->tips[x] = (uint64_t)t, w->tips[n + x] = (uint64_t)(t >> 64);
  }
  return WM_OK;
}

/* Every device's walks queued, then waited for at once; their values
 * added into w.  sh: device 0's counter where the devices share it. */
int walk_devices(bufs *b, const o5_devices &D, ull **sh, const walk_in &in, wm_o5n_walks *w, double *kernel_ms,
                 wm_error *err) {
  const wm_graph *g = in.g;
  uint64_t blocks[WM_MAX_GPUS][2];
  int rc;
  if (D.shared) {
    WM_CUD(0, cudaSetDevice(0));
    WM_CUD(0, cudaMalloc(sh, sizeof **sh));
    WM_CUD(0, cudaMemset(*sh, 0, sizeof **sh));
  }
  for (int d = 0; d < D.n; d++)
    if ((rc = wm_gpu_on_device(err, d, start_device(b[d], d, D, *sh, in, blocks[d], err)))) return rc;
  for (int d = 0; d < D.n; d++) {
    WM_CUD(d, cudaSetDevice(d));
    WM_CUD(d, cudaEventRecord(b[d].end, 0));
  }
  if ((rc = o5_wait_all(D.n, err))) return rc;
  const bool trace = wm_trace_on("WM_ORBIT_TRACE");
  cudaEvent_t starts[WM_MAX_GPUS], ends[WM_MAX_GPUS];
  for (int d = 0; d < D.n; d++) {
    float all = 0, walks_ms = 0;
    WM_CUD(d, cudaSetDevice(d));
    WM_CUD(d, cudaEventElapsedTime(&all, b[d].start, b[d].end));
    WM_CUD(d, cudaEventElapsedTime(&walks_ms, b[d].start, b[d].mid));
    starts[d] = b[d].start, ends[d] = b[d].end;
    if (trace)
      fprintf(stderr, "orbits (walks, GPU %d of %d, %s): vertex walks %.3f ms (%llu blocks), wheels %.3f ms (%llu "
              "blocks)\n", d, D.n, o5_how(D), walks_ms, (unsigned long long)blocks[d][0], all - walks_ms,
              (unsigned long long)blocks[d][1]);
  }
  float ms = 0;
  if ((rc = o5_slowest(D.n, starts, ends, &ms, err))) return rc;
  if (kernel_ms) *kernel_ms += ms;
  static_assert(sizeof *w->walked >= 2 * sizeof *w->tips, "a vertex's sums take more room than its tips");
  const size_t m = g->m ? g->m : 1, bytes = m * sizeof *w->toward, vbytes = (size_t)g->n * sizeof *w->walked;
  void *tmp = malloc(bytes > vbytes ? bytes : vbytes);
  if (!tmp) return wm_fail(err, WM_EINPUT, "orbits: out of memory for adding the devices' walks");
  WM_CUD(0, cudaSetDevice(0));
  rc = wm_gpu_on_device(err, 0, copy_back(b[0], g, w, err));
  for (int d = 1; !rc && d < D.n; d++) rc = wm_gpu_on_device(err, d, add_back(b[d], d, g, w, tmp, err));
  free(tmp);
  return rc;
}

/* The walks over D's devices; every buffer freed, the caller's device
 * current again, on every path. */
int walk_over(const o5_devices &D, const walk_in &in, wm_o5n_walks *w, double *kernel_ms, wm_error *err) {
  int was = 0;
  WM_CU(cudaGetDevice(&was));
  bufs b[WM_MAX_GPUS];
  memset(b, 0, sizeof b);
  ull *sh = NULL;
  int rc = walk_devices(b, D, &sh, in, w, kernel_ms, err);
  o5_release_all(D, b, sh, was, [](bufs &x) { release(x); });
  return rc;
}

}  // namespace

int wm_o5n_walks_gpu_start(const wm_graph *g, const struct wm_gpu_graph *gg, int gpus, const uint32_t *tri,
                           const uint64_t *cn_at, const uint32_t *cn_list, wm_o5n_walks *w, double *kernel_ms,
                           wm_o5n_walks_run **run, wm_error *err) {
  *run = NULL;
  if (!g->n) return WM_OK;
  o5_devices D;
  int rc = o5_devices_open(gpus, D, err);
  uint32_t *order = rc ? NULL : (uint32_t *)malloc(g->n * sizeof *order);
  if (!rc && !order) rc = wm_fail(err, WM_EINPUT, "orbits: out of memory for the walks' order (%u vertices)", g->n);
  const double t0 = wm_now();
  if (!rc) rc = by_cost(g, tri, order, err);
  if (!rc && wm_trace_on("WM_ORBIT_TRACE"))
    fprintf(stderr, "orbits (walks, GPU): the vertices by cost %.3f ms\n", 1e3 * (wm_now() - t0));
  const walk_in in = {g, gg, tri, order, cn_at, cn_list};
  if (!rc && D.n > 1) {
    rc = walk_over(D, in, w, kernel_ms, err);
  } else if (!rc) {
    walk_run *r = new (std::nothrow) walk_run();
    if (!r) rc = wm_fail(err, WM_EINPUT, "orbits: out of memory for the walks' state");
    else r->kernel_ms = kernel_ms, *run = (wm_o5n_walks_run *)r;
    if (r) rc = begin(*r, in, w, err);
  }
  free(order);
  return rc;
}

int wm_o5n_walks_gpu_finish(wm_o5n_walks_run *run, const wm_graph *g, wm_o5n_walks *w, int rc, wm_error *err) {
  walk_run *r = (walk_run *)run;
  if (!r) return rc;
  if (!rc) rc = finish(*r, g, w, err);
  else cudaDeviceSynchronize(); /* the wheels may still run into r's buffers */
  wm_stage_destroy(r->stage);
  release(r->b);
  delete r;
  return rc;
}

int wm_o5n_walks_gpu(const wm_graph *g, const struct wm_gpu_graph *gg, int gpus, const uint32_t *tri,
                     const uint64_t *cn_at, const uint32_t *cn_list, wm_o5n_walks *w, double *kernel_ms,
                     wm_error *err) {
  wm_o5n_walks_run *run = NULL;
  const int rc = wm_o5n_walks_gpu_start(g, gg, gpus, tri, cn_at, cn_list, w, kernel_ms, &run, err);
  return wm_o5n_walks_gpu_finish(run, g, w, rc, err);
}
