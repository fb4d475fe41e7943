/* Small levels (PMPP 15.7): levels whose frontier fits in shared memory run
 * inside one launch, without returning to the host, in two tiers.
 *
 * Block tier: block 0 runs consecutive top-down levels alone, the frontier
 * in its shared memory.  Each entry keeps its vertex's row (adj[beg, beg +
 * deg)) and pre, the edges of the entries before it, both written when the
 * vertex was claimed, so a level starts on its adjacency reads at once.  A
 * level's items are its edges (the entry of edge e: a binary search over
 * pre) or, when every degree is at most a power of two D and the padded
 * layout needs no more passes than the edges, slots (slot x is edge x % D
 * of entry x / D: no search).  Each thread has ITEMS items in flight: first
 * their adjacency loads, then their status loads, then the claims, since one
 * item after another would each wait out the whole chain of round trips.  A
 * claim is a compare-and-swap on the head's status (one entry per vertex);
 * a warp appends its claims with one atomic on a word that counts entries
 * and their out-degrees together, which gives each entry its position and
 * its pre in one order.  The counters of level L + 1 fill while those of
 * level L are read and those of level L + 2 are cleared, so a level ends at
 * one barrier.
 *
 * Grid tier (a cooperative launch, one block per SM): a level with more
 * edges than block 0 should expand alone (SmallLevelPolicy) goes to every
 * block: block 0 writes the frontier to a queue in global memory, a
 * grid-wide barrier, and each block expands an equal share of the items,
 * appending to the next queue; once a level is block-sized again, block 0
 * carries on alone while the others wait at the barrier.  A small graph
 * (facebook's) is searched in one launch; the host launches the grid tier
 * only for a graph whose arcs all fit one grid level's budget (bfs_gpu.cu).
 * Both tiers step top-down: a level that fits here is a few passes, where
 * skipping edges bottom-up saves little.
 *
 * It hands over to the full pipeline when the next frontier outgrows the
 * capacity (SMALL_OVERFLOW: that level is complete in the status array) or
 * the frontier has more edges than the kernel should expand (SMALL_EDGES:
 * the frontier is written to a.out); it stops at the end of the search
 * (SMALL_DONE), at max_depth (SMALL_DEPTH), once the target is reached
 * (SMALL_TARGET) or when the call is interrupted (SMALL_STOPPED).
 * stats->small_level and small_count describe the last frontier. */
#include <cooperative_groups.h>

#include "bfs_gpu_internal.cuh"
#include "gpu_stop.cuh"

namespace wm_bfs {
namespace {

namespace cg = cooperative_groups;
using P = SmallLevelPolicy;
constexpr int K = P::ITEMS;
constexpr unsigned FULL = 0xffffffffu;
constexpr unsigned long long EDGE_MASK = (1ull << P::COUNT_SHIFT) - 1;
enum { F_TARGET = 1, F_STOP = 2 };        /* Counters::flags */
enum { STEP_BLOCK = 64, STEP_GRID = 65 }; /* decide(): go on, beside SmallExit's reasons */

/* The claims of one level: packed = (entries << COUNT_SHIFT) + their
 * out-degree sum; degor = OR of (degree - 1), whose highest bit bounds
 * every degree; flags F_*. */
struct Counters {
  unsigned long long packed;
  unsigned degor, flags;
};

/* A frontier as arrays at p: vertex v[i], its row adj[beg[i], beg[i] +
 * deg[i]) and pre[i], the edges of entries 0..i-1 (pre and deg are read
 * only while the level's edges fit the budget, far below 2^32).  One
 * pointer, the arrays computed from it: registers are what limits the
 * kernel. */
struct Entries {
  char *p;
  uint32_t cap;
  __device__ uint64_t *beg() const { return (uint64_t *)p; }
  __device__ uint32_t *v() const { return (uint32_t *)(p + 8 * (size_t)cap); }
  __device__ uint32_t *deg() const { return v() + cap; }
  __device__ uint32_t *pre() const { return v() + 2 * (size_t)cap; }
};

__host__ __device__ inline size_t entries_bytes(uint32_t cap) { return (size_t)cap * (8 + 4 + 4 + 4); }

/* Level L's frontier among the two at p: the one of L's parity, so that
 * the tiers need not track which is which. */
__device__ inline Entries frontier(char *p, uint32_t L, uint32_t cap) {
  return Entries{p + (L & 1) * entries_bytes(cap), cap};
}

/* WM_BFS_TRACE: block 0's thread 0 marks level L's step k (SmallMark;
 * MARK_TIER holds v). */
__device__ inline void mark(const SmallArgs &a, uint32_t L, int k, unsigned long long v = 0) {
  if (!a.clk || blockIdx.x || threadIdx.x || L - a.trace_from >= (uint32_t)kSmallTraceLevels) return;
  a.clk[1 + kMarks * (L - a.trace_from) + k] = k == MARK_TIER ? v : (unsigned long long)clock64();
}
/* ... a mark inside a pass, once x is in a register: it waits for the
 * load that brings x */
__device__ inline void mark_after(const SmallArgs &a, uint32_t L, int k, uint32_t x) {
  if (!a.clk) return;
  asm volatile("" ::"r"(x));
  mark(a, L, k);
}

/* The grid tier's state in global memory, ahead of its two queues: the
 * counters of the grid levels, and block 0's word to the others at each
 * grid-wide barrier (step: STEP_GRID or the exit reason, from level). */
struct GridCtl {
  Counters lv[3];
  unsigned step, level;
};

/* A warp's claims of a pass (append): their count, degree sum and OR. */
struct WarpSum {
  unsigned long long d;
  uint32_t n;
  unsigned bits;
};
constexpr int kWarps = P::BLOCK / 32;

/* Ahead of the two frontiers: in shared memory the counters of three levels
 * (kCtl bytes) and the warps' sums (kHead in all); in global memory the
 * GridCtl (kCtl). */
constexpr size_t kCtl = 64, kHead = kCtl + kWarps * sizeof(WarpSum);
static_assert(sizeof(GridCtl) <= kCtl && 3 * sizeof(Counters) <= kCtl, "head too small");

/* Where a level's claims go. */
struct Sink {
  Entries q;
  Counters *c;
  uint32_t cap, target;
  WarpSum *ws;              /* the block's warp sums in shared memory (grid tier), or NULL (block 0 alone) */
  const uint64_t *offsets;  /* the graph's: a claimed row's start, read again (an L1 hit) */
};

/* One level's frontier as its counters describe it. */
struct Level {
  uint32_t f;
  uint64_t edges;
  unsigned degor, flags;
};

__device__ inline Level level_of(const Counters &c) {
  Level l;
  l.f = (uint32_t)(c.packed >> P::COUNT_SHIFT);
  l.edges = c.packed & EDGE_MASK;
  l.degor = c.degor;
  l.flags = c.flags;
  return l;
}
/* Counters in global memory are read past L1: other SMs wrote them. */
__device__ inline Counters load_global(const Counters *c) {
  return Counters{__ldcg(&c->packed), __ldcg(&c->degor), __ldcg(&c->flags)};
}

/* Whether and how level L goes on: STEP_BLOCK, STEP_GRID or a SmallExit. */
__device__ inline int decide(const SmallArgs &a, uint32_t L, const Level &l) {
  if (l.flags & F_TARGET) return SMALL_TARGET;
  if (L >= a.max_depth) return SMALL_DEPTH;
  if (l.f == 0) return SMALL_DONE;
  if (l.flags & F_STOP) return SMALL_STOPPED;
  if (l.f > a.capacity) return SMALL_OVERFLOW;
  if (l.edges > a.edge_budget) return SMALL_EDGES;
  return l.edges <= a.block_budget ? STEP_BLOCK : STEP_GRID;
}

/* log2 of the slot layout's D when its padded items need no more passes
 * (of `pass` items) than the edges themselves, else -1 (by edges). */
__device__ inline int slot_shift(const Level &l, uint64_t pass) {
  int sh = l.degor ? 32 - __clz((int)l.degor) : 0;
  uint64_t slots = (uint64_t)l.f << sh;
  return (slots + pass - 1) / pass <= (l.edges + pass - 1) / pass ? sh : -1;
}

/* Largest i in [lo, hi) with pre[i] <= e (pre[lo] <= e). */
__device__ inline uint32_t owner(const uint32_t *pre, uint32_t lo, uint32_t hi, uint32_t e) {
  while (hi - lo > 1) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (pre[mid] <= e) lo = mid;
    else hi = mid;
  }
  return lo;
}

/* A degree as the frontier keeps it: below 2^32, since a level with more
 * edges than that is handed over before its entries are read (a clamped
 * degree still counts more edges than any budget). */
__device__ inline uint32_t clamp_degree(uint64_t lo, uint64_t hi) {
  return hi - lo < 0xFFFFFFFFu ? (uint32_t)(hi - lo) : 0xFFFFFFFFu;
}

/* Whole warp: inclusive sums of n and d over the lanes up to this one,
 * and the OR of bits over the whole warp. */
__device__ inline void warp_scan(uint32_t lane, uint32_t &n, uint64_t &d, unsigned &bits) {
#pragma unroll
  for (int k = 1; k < 32; k <<= 1) {
    const uint32_t yn = __shfl_up_sync(FULL, n, k);
    const uint64_t yd = __shfl_up_sync(FULL, d, k);
    if ((int)lane >= k) n += yn, d += yd;
    bits |= __shfl_xor_sync(FULL, bits, k);
  }
}

/* Writes the won items from entry pos on, pre the edges before it. */
__device__ inline void write_entries(const Sink &s, const bool *won, const uint32_t *w, const uint32_t *dg,
                                     uint32_t pos, uint64_t pre) {
#pragma unroll
  for (int r = 0; r < K; r++)
    if (won[r]) {
      if (w[r] == s.target) atomicOr(&s.c->flags, F_TARGET);
      if (pos < s.cap) {
        s.q.v()[pos] = w[r];
        s.q.beg()[pos] = __ldg(&s.offsets[w[r]]);
        s.q.deg()[pos] = dg[r];
        s.q.pre()[pos] = (uint32_t)pre;
      }
      pos++, pre += dg[r];
    }
}

/* Appends this thread's won items (vertex w[r] of degree dg[r]) to the
 * sink.  Block 0 alone (no s.ws) takes room with one atomic per warp on its
 * counters in shared memory, no barrier; the grid tier's blocks with one
 * atomic per block, since they all append to one word in global memory,
 * where an atomic per warp would queue thousands at a level (every thread
 * of the block calls it then). */
__device__ void append(const Sink &s, const bool *won, const uint32_t *w, const uint32_t *dg) {
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  uint32_t n = 0;
  uint64_t d = 0;
  unsigned bits = 0;
#pragma unroll
  for (int r = 0; r < K; r++)
    if (won[r]) {
      n++, d += dg[r];
      if (dg[r]) bits |= dg[r] - 1 < 0x7FFFFFFFu ? dg[r] - 1 : 0x7FFFFFFFu;
    }
  /* inclusive scans over the warp (ni, di) and the warp's OR, then the
   * same over the warps by warp 0, which claims the block's room; a warp
   * that won nothing (most of them at a small level) skips its scan */
  uint32_t ni = n;
  uint64_t di = d;
  const bool any = __any_sync(FULL, n != 0);
  if (any) warp_scan(lane, ni, di, bits);
  WarpSum *ws = s.ws;
  if (!ws) {
    if (!any) return;
    unsigned long long old = 0;
    if (lane == 31) {
      old = atomicAdd(&s.c->packed, ((unsigned long long)ni << P::COUNT_SHIFT) + di);
      if (bits) atomicOr(&s.c->degor, bits);
    }
    old = __shfl_sync(FULL, old, 31);
    write_entries(s, won, w, dg, (uint32_t)(old >> P::COUNT_SHIFT) + ni - n, (old & EDGE_MASK) + di - d);
    return;
  }
  if (lane == 31) ws[warp] = WarpSum{di, ni, bits};
  __syncthreads();
  if (warp == 0) {
    const WarpSum t = ws[lane];
    uint32_t tn = t.n;
    uint64_t td = t.d;
    unsigned tb = t.bits;
    warp_scan(lane, tn, td, tb);
    unsigned long long old = 0;
    if (lane == 31 && tn) {
      old = atomicAdd(&s.c->packed, ((unsigned long long)tn << P::COUNT_SHIFT) + td);
      if (tb) atomicOr(&s.c->degor, tb);
    }
    old = __shfl_sync(FULL, old, 31);
    ws[lane].n = (uint32_t)(old >> P::COUNT_SHIFT) + tn - t.n; /* where warp `lane` starts */
    ws[lane].d = (old & EDGE_MASK) + td - t.d;
  }
  __syncthreads();
  write_entries(s, won, w, dg, ws[warp].n + ni - n, ws[warp].d + di - d);
}

/* Claims heads w[] of level L by compare-and-swap on their status, after
 * a plain read (most heads are taken); dg[] their degrees. */
__device__ inline void claim(const SmallArgs &a, uint32_t L, const uint32_t *w, bool *won, uint32_t *dg) {
  uint32_t st[K];
  uint64_t o0[K], o1[K];
#pragma unroll
  for (int r = 0; r < K; r++) st[r] = w[r] != kNoVertex ? a.s.status[w[r]] : 0;
#pragma unroll
  for (int r = 0; r < K; r++) {
    o0[r] = o1[r] = 0;
    if (w[r] == kNoVertex || st[r] != kUnreached) continue;
    o0[r] = __ldg(&a.g.offsets[w[r]]);
    o1[r] = __ldg(&a.g.offsets[w[r] + 1]);
    won[r] = atomicCAS(&a.s.status[w[r]], kUnreached, L + 1) == kUnreached;
  }
#pragma unroll
  for (int r = 0; r < K; r++) dg[r] = clamp_degree(o0[r], o1[r]);
}

/* Expands items [lo, hi) of level L, whose entries [ilo, ihi) are in cur:
 * item x is edge x (sh < 0) or slot x (sh >= 0). */
__device__ void expand(const SmallArgs &a, const Entries &cur, uint32_t ilo, uint32_t ihi, uint64_t lo,
                       uint64_t hi, int sh, uint32_t L, const Sink &sink) {
  for (uint64_t base = lo; base < hi; base += P::PASS) {
    uint32_t w[K], u[K], dg[K];
    bool won[K];
#pragma unroll
    for (int r = 0; r < K; r++) won[r] = false, w[r] = kNoVertex, u[r] = 0, dg[r] = 0;
    /* A warp whose first item is past the level's (items go to threads in
     * turn, BLOCK apart) has none: it goes straight to the append, so
     * that a level of a few items costs a few warps' instructions, not a
     * block's. */
    if (base + (threadIdx.x & ~31u) < hi) {
#pragma unroll
      for (int r = 0; r < K; r++) {
        uint64_t x = base + (uint64_t)r * P::BLOCK + threadIdx.x;
        if (x >= hi) continue;
        uint32_t i;
        uint64_t k;
        if (sh >= 0) {
          i = (uint32_t)(x >> sh), k = x & ((1ull << sh) - 1);
          if (k >= cur.deg()[i]) continue;
        } else {
          i = owner(cur.pre(), ilo, ihi, (uint32_t)x), k = x - cur.pre()[i];
        }
        u[r] = cur.v()[i];
        w[r] = __ldg(&a.g.adj[cur.beg()[i] + k]);
      }
      if (base == lo) mark_after(a, L, MARK_ROW, w[0]);
      claim(a, L, w, won, dg);
      if (base == lo) mark_after(a, L, MARK_CLAIM, dg[0] + won[0]);
    }
    /* after every claim is on its way: a store that waited for one result
     * would hold back the next item's */
    if (a.s.parent)
#pragma unroll
      for (int r = 0; r < K; r++)
        if (won[r]) a.s.parent[w[r]] = u[r];
    append(sink, won, w, dg);
    if (base == lo) mark(a, L, MARK_APPEND);
  }
}

/* Block 0 takes the host's frontier a.in[0, count) of level L into cur
 * (a.seed: puts them on level L first).  The target can be among them only
 * at the search's start: the host stops once a level reaches it. */
__device__ void take_sources(const SmallArgs &a, Counters *lv, const Entries &cur, uint32_t L) {
  if (threadIdx.x == 0) lv[0] = lv[1] = lv[2] = Counters{0, 0, 0};
  __syncthreads();
  const Sink sink{cur, &lv[L % 3], a.capacity, a.target, NULL, a.g.offsets};
  for (uint64_t base = 0; base < a.count; base += P::PASS) {
    bool won[K];
    uint32_t w[K], dg[K];
    uint64_t o0[K];
#pragma unroll
    for (int r = 0; r < K; r++) {
      uint64_t i = base + (uint64_t)r * P::BLOCK + threadIdx.x;
      won[r] = i < a.count;
      w[r] = won[r] ? a.in[i] : 0;
      o0[r] = won[r] ? a.g.offsets[w[r]] : 0;
      dg[r] = won[r] ? clamp_degree(o0[r], a.g.offsets[w[r] + 1]) : 0;
      if (won[r] && a.seed) {
        a.s.status[w[r]] = L;
        if (a.s.parent) a.s.parent[w[r]] = w[r];
      }
    }
    append(sink, won, w, dg);
  }
  __syncthreads();
}

/* Block 0 alone: levels from its frontier (level L, at the frontiers fs
 * in shared memory) while they are block-sized.  Returns what ended them
 * (STEP_GRID or an exit), with L and l describing the frontier then. */
__device__ int block_levels(const SmallArgs &a, Counters *lv, char *fs, uint32_t &L, Level &l, unsigned *polled) {
  for (;;) {
    l = level_of(lv[L % 3]);
    int step = decide(a, L, l);
    if (step != STEP_BLOCK) return step;
    mark(a, L, MARK_BEGIN);
    mark(a, L, MARK_TIER, 1);
    if (threadIdx.x == 0) {
      lv[(L + 2) % 3] = Counters{0, 0, 0};
      if (wm_stop_due(a.stop, polled)) atomicOr(&lv[(L + 1) % 3].flags, F_STOP);
    }
    int sh = slot_shift(l, P::PASS);
    expand(a, frontier(fs, L, a.capacity), 0, l.f, 0, sh >= 0 ? (uint64_t)l.f << sh : l.edges, sh, L,
           Sink{frontier(fs, L + 1, a.capacity), &lv[(L + 1) % 3], a.capacity, a.target, NULL, a.g.offsets});
    mark(a, L, MARK_EXPANDED);
    __syncthreads();
    mark(a, L, MARK_PAST);
    L++;
  }
}

/* Block 0 hands level L's frontier (f entries in cur) to the grid. */
__device__ void to_grid(const Entries &cur, const Entries &q, const Counters *lv, GridCtl *ctl, uint32_t L,
                        uint32_t f) {
  for (uint32_t i = threadIdx.x; i < f; i += P::BLOCK)
    q.v()[i] = cur.v()[i], q.beg()[i] = cur.beg()[i], q.deg()[i] = cur.deg()[i], q.pre()[i] = cur.pre()[i];
  if (threadIdx.x == 0) {
    ctl->lv[L % 3] = lv[L % 3];
    ctl->lv[(L + 1) % 3] = ctl->lv[(L + 2) % 3] = Counters{0, 0, 0};
    ctl->step = STEP_GRID;
    ctl->level = L;
  }
}

/* Block 0 takes level L's frontier (f entries of the queue q) back. */
__device__ void from_grid(const Entries &q, const Entries &cur, Counters *lv, const GridCtl *ctl, uint32_t L,
                          uint32_t f) {
  for (uint32_t i = threadIdx.x; i < f; i += P::BLOCK)
    cur.v()[i] = __ldcg(&q.v()[i]), cur.beg()[i] = __ldcg(&q.beg()[i]), cur.deg()[i] = __ldcg(&q.deg()[i]),
    cur.pre()[i] = __ldcg(&q.pre()[i]);
  if (threadIdx.x == 0) {
    lv[L % 3] = load_global(&ctl->lv[L % 3]);
    lv[(L + 1) % 3] = lv[(L + 2) % 3] = Counters{0, 0, 0};
  }
  __syncthreads();
}

/* Every block: its share of level L's items, the frontier in the queue q,
 * claims to nq; `local` is the block's shared memory for its entries. */
__device__ void grid_level(const SmallArgs &a, GridCtl *ctl, const Entries &q, const Entries &nq,
                           const Entries &local, WarpSum *ws, uint32_t L, const Level &l, unsigned *polled) {
  const uint32_t G = gridDim.x, b = blockIdx.x, f = l.f;
  const int sh = slot_shift(l, P::PASS * G);
  const uint64_t items = sh >= 0 ? (uint64_t)f << sh : l.edges, lo = items * b / G, hi = items * (b + 1) / G;
  uint32_t ilo = 0, ihi = 0;
  if (sh < 0) { /* the entries of edges [lo, hi): search pre */
    for (uint32_t i = threadIdx.x; i < f; i += P::BLOCK) local.pre()[i] = __ldcg(&q.pre()[i]);
    __syncthreads();
    if (lo < hi) {
      ilo = owner(local.pre(), 0, f, (uint32_t)lo);
      ihi = owner(local.pre(), ilo, f, (uint32_t)(hi - 1)) + 1;
    }
  } else if (lo < hi) {
    ilo = (uint32_t)(lo >> sh), ihi = (uint32_t)((hi - 1) >> sh) + 1;
  }
  for (uint32_t i = ilo + threadIdx.x; i < ihi; i += P::BLOCK)
    local.v()[i] = __ldcg(&q.v()[i]), local.beg()[i] = __ldcg(&q.beg()[i]), local.deg()[i] = __ldcg(&q.deg()[i]);
  if (b == 0 && threadIdx.x == 0) {
    ctl->lv[(L + 2) % 3] = Counters{0, 0, 0};
    if (wm_stop_due(a.stop, polled)) atomicOr(&ctl->lv[(L + 1) % 3].flags, F_STOP);
  }
  __syncthreads();
  expand(a, local, ilo, ihi, lo, hi, sh, L, Sink{nq, &ctl->lv[(L + 1) % 3], a.capacity, a.target, ws, a.g.offsets});
}

/* Block 0, at the exit: the frontier (vs, f entries) to a.out when the
 * pipeline takes it over, and the figures. */
__device__ void finish(const SmallArgs &a, int step, uint32_t L, uint32_t f, const uint32_t *vs, bool global) {
  if (step == SMALL_EDGES)
    for (uint32_t i = threadIdx.x; i < f; i += P::BLOCK) a.out[i] = global ? __ldcg(vs + i) : vs[i];
  if (threadIdx.x == 0) {
    a.stats->small_level = L;
    a.stats->small_count = f;
    a.stats->small_exit = (unsigned)step;
    a.stats->target_level = a.target == kNoVertex ? kUnreached : __ldcg(&a.s.status[a.target]);
  }
}

__global__ void __launch_bounds__(P::BLOCK, 1) small_levels_kernel(SmallArgs a) {
  extern __shared__ uint64_t smem_words[];
  char *smem = (char *)smem_words, *scratch = (char *)a.scratch;
  Counters *lv = (Counters *)smem;
  WarpSum *ws = (WarpSum *)(smem + kCtl);
  char *fs = smem + kHead, *fg = scratch + kCtl; /* the frontiers in shared and in global memory */
  GridCtl *ctl = (GridCtl *)scratch;
  const uint32_t cap = a.capacity;
  const bool lead = blockIdx.x == 0;
  uint32_t L = a.level;
  unsigned polled = 0; /* block 0 thread 0's clock at its last read of the stop word */
  Level l;
  int step = SMALL_NONE;
  if (lead && a.clk && threadIdx.x == 0) a.clk[0] = (unsigned long long)clock64();
  if (lead) take_sources(a, lv, frontier(fs, L, cap), L);
  for (;;) {
    if (lead) {
      step = block_levels(a, lv, fs, L, l, &polled);
      if (step == STEP_GRID) {
        to_grid(frontier(fs, L, cap), frontier(fg, L, cap), lv, ctl, L, l.f);
      } else {
        finish(a, step, L, l.f, frontier(fs, L, cap).v(), false);
        if (threadIdx.x == 0) ctl->step = (unsigned)step, ctl->level = L;
      }
    }
    if (gridDim.x == 1) break; /* block_levels cannot answer STEP_GRID (block_budget = edge_budget) */
    /* the others wait here while block 0 runs alone */
    cg::this_grid().sync();
    step = (int)__ldcg(&ctl->step);
    L = __ldcg(&ctl->level);
    if (step != STEP_GRID) break; /* block 0 has finished */
    for (;;) { /* every block decides the same from the same counters */
      l = level_of(load_global(&ctl->lv[L % 3]));
      step = decide(a, L, l);
      if (step != STEP_GRID) break;
      mark(a, L, MARK_BEGIN);
      mark(a, L, MARK_TIER, 2);
      grid_level(a, ctl, frontier(fg, L, cap), frontier(fg, L + 1, cap), frontier(fs, L, cap), ws, L, l, &polled);
      mark(a, L, MARK_EXPANDED);
      cg::this_grid().sync();
      mark(a, L, MARK_PAST);
      L++;
    }
    if (step != STEP_BLOCK) {
      if (lead) finish(a, step, L, l.f, frontier(fg, L, cap).v(), true);
      break;
    }
    if (lead) from_grid(frontier(fg, L, cap), frontier(fs, L, cap), lv, ctl, L, l.f);
  }
}

}  // namespace

cudaError_t small_levels_prepare(int device, uint32_t *capacity, size_t *smem_bytes, int *blocks) {
  int optin = 0, sms = 0, coop = 0, per_sm = 0;
  cudaError_t e = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, device);
  if (e != cudaSuccess) return e;
  cudaFuncAttributes fa;
  if ((e = cudaFuncGetAttributes(&fa, small_levels_kernel)) != cudaSuccess) return e;
  /* the counters, then two frontiers of capacity entries */
  size_t reserve = fa.sharedSizeBytes + kHead + 1024;
  size_t cap = (size_t)optin > reserve ? ((size_t)optin - reserve) / (2 * entries_bytes(1)) : 0;
  if (cap > P::MAX_FRONTIER) cap = P::MAX_FRONTIER;
  cap &= ~(size_t)31;
  if (cap < 32) return cudaErrorInvalidConfiguration;
  *capacity = (uint32_t)cap;
  *smem_bytes = kHead + 2 * entries_bytes((uint32_t)cap);
  e = cudaFuncSetAttribute(small_levels_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)*smem_bytes);
  if (e == cudaSuccess)
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, small_levels_kernel, P::BLOCK, *smem_bytes);
  if (e != cudaSuccess) return e;
  /* every block must be resident at once (the grid-wide barrier) */
  *blocks = coop && per_sm > 0 && sms > 1 ? per_sm * sms : 1;
  return cudaSuccess;
}

size_t small_levels_scratch_bytes(uint32_t capacity) { return kCtl + 2 * entries_bytes(capacity); }

cudaError_t small_levels_launch(const SmallArgs &a, size_t smem_bytes, int blocks, cudaStream_t st) {
  if (blocks > 1) {
    SmallArgs arg = a;
    void *params[] = {&arg};
    cudaError_t e = cudaLaunchCooperativeKernel(small_levels_kernel, dim3(blocks), dim3(P::BLOCK), params,
                                                smem_bytes, st);
    return e != cudaSuccess ? e : cudaGetLastError();
  }
  small_levels_kernel<<<1, P::BLOCK, smem_bytes, st>>>(a);
  return cudaGetLastError();
}

}  // namespace wm_bfs
