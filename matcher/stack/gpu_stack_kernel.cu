/* The per-warp stack kernel (STMatch): every warp runs its own backtracking
 * loop over the plan's positions with an explicit stack in shared memory
 * (per position: the unconsumed index range [it, end) of its candidate
 * array, the unrolled group of up to U bound vertices and the active
 * member), and keeps the sets of the ops in its own slice of global memory.
 * No global synchronisation between levels and no materialised partial
 * matches: level 0 is handed out in chunks from a global counter, and idle
 * warps steal (gpu_steal.cuh).
 *
 * One position's step: pick the next group of up to U candidates that pass
 * the filters, run the ops of that level for the whole group together
 * (gpu_set_ops.cuh), then either count the last position in bulk for the
 * whole group (position k-2) or descend into each member in turn.
 *
 * Control flow is warp-uniform: lane 0 writes the shared stack and the
 * other lanes read it after __syncwarp(); the only block-wide barrier is
 * the one after initialisation, before any lane can diverge. */
#include "gpu_kernel.h"
#include "gpu_stop.cuh"
#include "gpu_set_ops.cuh"
#include "gpu_steal.cuh"

extern __shared__ __align__(16) unsigned char wm_smem[];

#define WM_MAX_THREADS 512 /* at most 16 warps per block: at WM_STACK_MAX_REGS, half an SM's registers */

enum { WM_S_PICK = 0, WM_S_NEXT = 1 };

#ifdef WM_GPU_PROFILE
#define WM_PROF_START() long long prof_t0_ = clock64()
#define WM_PROF_ADD(ph) prof[ph] += clock64() - prof_t0_
#else
#define WM_PROF_START() (void)0
#define WM_PROF_ADD(ph) (void)0
#endif

/* Thieves may read position q's range. */
__device__ __forceinline__ bool wm_shared_level(const wm_gpu_args *A, int q) {
  return A->steal != WM_STEAL_NONE && q <= A->stop_level;
}

/* Lane 0: publishes position q's unconsumed range. */
__device__ void wm_set_range(wm_kctx &c, int q, uint32_t lo, uint32_t hi) {
  bool lk = wm_shared_level(c.A, q);
  if (lk) wm_lock(&c.ws->lock);
  c.ws->it[q] = lo;
  c.ws->end[q] = hi;
  if (lk) wm_unlock(&c.ws->lock);
}

/* Whole warp: binds the candidate array of position q >= 1 for the active
 * prefix and returns its index range within q's value range (searched by
 * the whole warp: this runs once per descent). */
__device__ void wm_bind_position(wm_kctx &c, int q, uint32_t &lo, uint32_t &hi) {
  wm_set R = wm_resolve(c, c.P->cand[q], -1, 0);
  uint32_t vlo, vhi;
  wm_value_range(c, c.P->lower[q], c.P->upper[q], -1, 0, vlo, vhi);
  lo = vlo ? wm_warp_lower_bound(R.p, R.lo, R.hi, vlo, c.lane) : R.lo;
  hi = vhi != 0xFFFFFFFFu ? wm_warp_lower_bound(R.p, lo, R.hi, vhi, c.lane) : R.hi;
  if (c.lane == 0) {
    c.ws->base[q] = R.p;
    c.ws->vs[q] = R.vs;
  }
}

/* Whole warp: the active member of position p is chosen; enter p+1. */
__device__ void wm_descend(wm_kctx &c, int p) {
  uint32_t lo, hi;
  wm_bind_position(c, p + 1, lo, hi);
  if (c.lane == 0) wm_set_range(c, p + 1, lo, hi);
  __syncwarp();
}

/* Work a group may bring to the next level, as a sum of its members'
 * degrees: a hub's group is cut short so that no single unrolled set
 * operation (which nobody can steal) becomes the kernel's critical path. */
#define WM_GROUP_BUDGET 2048u

/* Whole warp: whether this pick of position p looks for idle blocks (a
 * global read).  At positions <= 1, once the work that wm_acquire last gave
 * the warp has run WM_GPU_PUSH_CYCLES: work that ends sooner is not worth a
 * mailbox round trip (on a small graph most blocks fall idle early, and
 * pushing at every pick would flood them with short work; the threshold is
 * chosen by measurement, see BENCHMARKS.md).
 * Deeper (when detect_level allows) only once the warp has spent
 * WM_GPU_DEEP_PUSH_CYCLES since its last pick at positions <= 1, so that a
 * hub's subtree reaches other blocks while short subtrees, whose receiver
 * would recompute more than it gets, are not pushed. */
#ifndef WM_GPU_PUSH_CYCLES
#define WM_GPU_PUSH_CYCLES 80000
#endif
#ifndef WM_GPU_DEEP_PUSH_CYCLES
#define WM_GPU_DEEP_PUSH_CYCLES 80000
#endif
__device__ __forceinline__ bool wm_detect_due(wm_kctx &c, int p) {
  const long long now = clock64();
  if (p <= 1) {
    c.shallow_pick = now;
    return __shfl_sync(WM_FULL, now - c.acquired > WM_GPU_PUSH_CYCLES, 0);
  }
  return __shfl_sync(WM_FULL, now - c.shallow_pick > WM_GPU_DEEP_PUSH_CYCLES, 0);
}

/* Whole warp: takes the next group of up to U (at position k-2: G; at a
 * position whose level runs no op, one: wm_gpu_plan.single) candidates of
 * position p that pass its filters, in order, into g[p][]; returns the group size
 * (0: p is exhausted).  Windows of 32 are read under the lock when thieves
 * may split p's range.  Busy warps look for idle blocks here. */
__device__ int wm_pick(wm_kctx &c, int p) {
  if (c.A->steal == WM_STEAL_TWO_LEVEL && p <= c.A->detect_level && wm_detect_due(c, p))
    wm_try_push(c.A, c.ws, c.g, c.G, c.A->stop_level, c.lane);
  volatile wm_wstate *ws = c.ws;
  const int lim = p == (int)c.P->k - 2 ? c.G : (c.P->single >> p) & 1u ? 1 : c.U; /* the group's size limit */
  const bool lk = wm_shared_level(c.A, p);
  const uint32_t *base = ws->base[p];
  const int vs = ws->vs[p];
  const bool plain = vs < 0 && c.P->distinct[p] == 0 && c.P->label[p] == WM_ANY_LABEL && !c.A->allowed;
  const bool weigh = (c.P->weigh >> p) & 1u;
  const unsigned lt = (1u << c.lane) - 1u;
  int have = 0;
  wm_u64 used = 0; /* degree budget spent by the group */
  bool closed = false;
  while (have < lim && !closed) {
    uint32_t i0 = 0, e = 0;
    if (c.lane == 0) {
      if (lk) wm_lock(&ws->lock);
      i0 = ws->it[p];
      e = ws->end[p];
    }
    i0 = __shfl_sync(WM_FULL, i0, 0);
    e = __shfl_sync(WM_FULL, e, 0);
    if (i0 >= e) {
      if (c.lane == 0 && lk) wm_unlock(&ws->lock);
      break;
    }
    uint32_t w = e - i0 < 32u ? e - i0 : 32u;
    if (plain && lim == 1) {
      if (c.lane == 0) {
        ws->it[p] = i0 + 1;
        if (lk) wm_unlock(&ws->lock);
        c.g[p * c.G] = base ? __ldg(base + i0) : i0;
      }
      have = 1;
      break;
    }
    bool ok = false;
    uint32_t x = 0;
    wm_u64 deg = 0;
    if ((uint32_t)c.lane < w) {
      x = base ? __ldg(base + i0 + c.lane) : i0 + c.lane;
      ok = plain || ((vs < 0 || wm_member(c, vs, x, -1, 0)) && wm_accept(c, p, x, -1, 0));
      if (ok && weigh) deg = c.A->off[x + 1] - c.A->off[x];
    }
    unsigned mask = __ballot_sync(WM_FULL, ok);
    wm_u64 tot;
    wm_u64 incl = wm_warp_exclusive_scan(deg, c.lane, tot) + deg;
    int rank = __popc(mask & lt);
    bool keep = ok && rank < lim - have && (have + rank == 0 || used + incl <= WM_GROUP_BUDGET);
    unsigned kmask = __ballot_sync(WM_FULL, keep);
    int kept = __popc(kmask);
    uint32_t next;
    if (kmask == mask) {
      next = i0 + w;
    } else {
      closed = true; /* full, or over budget: the rest waits for the next group */
      next = kept ? i0 + (uint32_t)(31 - __clz(kmask)) + 1u : i0;
    }
    if (c.lane == 0) {
      ws->it[p] = next;
      if (lk) wm_unlock(&ws->lock);
    }
    if (keep) c.g[p * c.G + have + rank] = x;
    if (kept) used += __shfl_sync(WM_FULL, incl, 31 - __clz(kmask));
    have += kept;
  }
  __threadfence_block(); /* g[p] before anything a thief may read after it */
  __syncwarp();
  if (c.lane == 0) {
    ws->n[p] = have;
    ws->a[p] = 0;
  }
  __syncwarp();
  return have;
}

/* Whole warp: installs stolen or received work (steal_q, steal_lo/hi and
 * the prefix in pref): the prefix becomes groups of one, the sets of its
 * levels are recomputed, and position q gets the stolen range within q's
 * value range (a published range lies inside it already; a piece of a row
 * from wm_next_edges need not). */
__device__ int wm_install(wm_kctx &c) {
  __syncwarp();
  volatile wm_wstate *ws = c.ws;
  const int q = ws->steal_q;
  const uint32_t lo = ws->steal_lo, hi = ws->steal_hi;
  if (c.lane == 0) {
    for (int j = 0; j < q; j++) {
      c.g[j * c.G] = ws->pref[j];
      ws->n[j] = 1;
      ws->a[j] = 0;
    }
  }
  __syncwarp();
  for (int L = 0; L < q; L++) wm_run_level_ops(c, L, 1, false);
  uint32_t a = 0, b = 0xFFFFFFFFu;
  if (q > 0) wm_bind_position(c, q, a, b); /* the base array, and q's value range */
  if (c.lane == 0) {
    if (q == 0) {
      ws->base[0] = c.A->first;
      ws->vs[0] = -1;
    }
    uint32_t l = a > lo ? a : lo, h = b < hi ? b : hi;
    wm_set_range(c, q, l, h > l ? h : l);
  }
  __syncwarp();
  return q;
}

/* The c-th chunk of a stripe of level 0 (wm_gpu_args.l0_every): chunk
 * c*every, or (rest) the c-th of the chunks that are not. */
__device__ __forceinline__ wm_u64 wm_stripe_chunk(wm_u64 c, uint32_t every, int rest) {
  if (!rest) return c * every;
  const wm_u64 q = c / (every - 1), r = c % (every - 1);
  return q * every + r + 1;
}

/* Lane 0: the next chunk [lo, hi) of level 0 from the global counter (the
 * counter shared by every device, or this device's own under the static
 * interleave: its chunk c is global chunk c*ndev+dev); false, with the
 * block's l0_done set, when none is left. */
__device__ bool wm_grab_chunk(const wm_gpu_args *A, volatile wm_bstate *bs, wm_u64 &lo, wm_u64 &hi) {
  wm_u64 c;
  if (A->l0_shared) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 600
    c = atomicAdd_system(A->l0_next, 1ull); /* atomic across the devices that share it */
#else
    c = atomicAdd(A->l0_next, 1ull); /* never shared below sm_60 (no peer atomics) */
#endif
  } else {
    c = atomicAdd(A->l0_next, 1ull) * A->ndev + A->dev;
  }
  if (A->l0_every > 1) c = wm_stripe_chunk(c, A->l0_every, A->l0_rest);
  lo = A->l0_base + c * (wm_u64)A->chunk;
  if (lo >= A->n0) {
    bs->l0_done = 1;
    return false;
  }
  hi = lo + A->chunk < A->n0 ? lo + A->chunk : A->n0;
  return true;
}

/* Whole warp, level 0 as edges: the next piece of this warp's chunk of arcs
 * that lies in one row (a new chunk when it is used up), as work to install
 * at position 1: the prefix v0 and a range of N(v0).  A hub's row is split
 * over many warps from the start, rather than left to stealing (on small
 * graphs most warps would otherwise wait in wm_acquire).  Position 0 stays
 * exhausted, as it is whenever a warp acquires.  False: no arcs are left. */
__device__ bool wm_next_edges(wm_kctx &c, volatile wm_bstate *bs, int l0_done) {
  const wm_gpu_args *A = c.A;
  volatile wm_wstate *ws = c.ws;
  for (;;) {
    wm_u64 lo = ws->arc_lo, hi = ws->arc_hi;
    if (lo >= hi) {
      if (l0_done) return false; /* the rest of this warp's chunk is done first */
      int got = 0;
      if (c.lane == 0) got = wm_grab_chunk(A, bs, lo, hi);
      if (!__shfl_sync(WM_FULL, got, 0)) return false;
      lo = __shfl_sync(WM_FULL, lo, 0);
      hi = __shfl_sync(WM_FULL, hi, 0);
    }
    const uint32_t v = wm_warp_row_of(A->off, A->n, lo, c.lane);
    const wm_u64 row = A->off[v], end = A->off[v + 1] < hi ? A->off[v + 1] : hi;
    bool ok = wm_accept(c, 0, v, -1, 0); /* v0's label and ball (nothing is bound before it) */
    /* A piece wholly outside position 1's value range, which only v0 can
     * bound, is skipped rather than installed (under v1 < v0, half the arcs). */
    if ((c.P->upper[1] & 1u) && __ldg(A->adj + lo) >= v) ok = false;
    if ((c.P->lower[1] & 1u) && __ldg(A->adj + end - 1) <= v) ok = false;
    __syncwarp();
    if (c.lane == 0) {
      ws->arc_lo = end;
      ws->arc_hi = hi;
      if (ok) {
        ws->steal_q = 1;
        ws->pref[0] = v;
        ws->steal_lo = (uint32_t)(lo - row);
        ws->steal_hi = (uint32_t)(end - row);
      }
    }
    __syncwarp();
    if (ok) return true;
  }
}

/* Whole warp: whether the call was asked to stop; lane 0 looks at most
 * every WM_STOP_POLL_CYCLES (the loop asks at every step). */
__device__ bool wm_warp_stop(wm_kctx &c) {
  int s = 0;
  if (c.lane == 0) s = wm_stop_due(c.A->stop, (unsigned *)&c.ws->stop_poll);
  return __shfl_sync(WM_FULL, s, 0) != 0;
}

/* Whole warp, out of work: the next level-0 chunk, else stolen or received
 * work; returns the position to continue at, or -1 when the warp is done. */
__device__ int wm_acquire(wm_kctx &c, volatile wm_bstate *bs, unsigned char *warps_base,
                          const wm_warp_layout &Ly, int wid) {
  const wm_gpu_args *A = c.A;
  /* Read once and broadcast: another warp may set it while lanes read. */
  int l0_done = 0;
  if (c.lane == 0) l0_done = bs->l0_done;
  l0_done = __shfl_sync(WM_FULL, l0_done, 0);
  if (A->l0_edges) {
    if (wm_next_edges(c, bs, l0_done)) return wm_install(c);
  } else if (!l0_done) {
    int got = 0;
    if (c.lane == 0) {
      wm_u64 lo = 0, hi = 0;
      got = wm_grab_chunk(A, bs, lo, hi);
      if (got) {
        c.ws->base[0] = A->first;
        c.ws->vs[0] = -1;
        wm_set_range(c, 0, (uint32_t)lo, (uint32_t)hi);
      }
    }
    got = __shfl_sync(WM_FULL, got, 0);
    __syncwarp();
    if (got) return 0;
  }
  if (c.lane == 0) wm_go_idle(A, bs, c.ws, A->warps);
  __syncwarp();
  unsigned backoff = 32;
  for (;;) {
    int got = 0;
    if (c.lane == 0) {
      /* stopped: the busy warps leave without going idle, so no count of
       * idle warps or active blocks would ever say done */
      if (wm_stop_due(A->stop, (unsigned *)&c.ws->stop_poll))
        got = -1;
      else if (A->steal != WM_STEAL_NONE &&
          wm_steal_intra(bs, warps_base, Ly.bytes, Ly.g, A->warps, wid, c.G, A->stop_level))
        got = 1;
      else if (A->steal == WM_STEAL_TWO_LEVEL && wm_try_receive(A, bs, c.ws))
        got = 1;
      else if (A->steal == WM_STEAL_NONE)
        got = -1;
      else if (A->steal == WM_STEAL_BLOCK && bs->idle_warps >= A->warps)
        got = -1;
      else if (A->steal == WM_STEAL_TWO_LEVEL && wm_two_level_done(A))
        got = -1;
    }
    got = __shfl_sync(WM_FULL, got, 0);
    if (got < 0) return -1;
    if (got > 0) return wm_install(c);
    if (c.lane == 0) {
      __nanosleep(backoff);
      if (backoff < 2048) backoff *= 2;
    }
    __syncwarp();
  }
}

/* Whole warp, listing buffer full: saves the stack (the sets stay in the
 * warp's global buffers) so that the next launch resumes at batch t of the
 * last level; the warp then leaves. */
__device__ void wm_suspend(wm_kctx &c, volatile wm_bstate *bs, wm_u64 t, const uint32_t *region,
                           uint32_t bytes, uint32_t *save) {
  if (c.lane == 0) {
    wm_lock(&c.ws->lock); /* no thief splits a suspended stack */
    c.ws->status = WM_W_SUSPENDED;
    c.ws->bulk_t = t;
    wm_unlock(&c.ws->lock);
  }
  __syncwarp();
  for (uint32_t i = c.lane; i < bytes / 4; i += 32) save[i] = ((const volatile uint32_t *)region)[i];
  __threadfence();
  __syncwarp();
  if (c.lane == 0) {
    atomicAdd((int *)&bs->idle_warps, 1);
    atomicAdd(c.A->suspended, 1ull);
  }
  __syncwarp();
}

/* Registers per thread: the kernel is latency-bound (a chain of dependent
 * loads per step), so more resident warps beat the spills that a cap
 * causes; the occupancy API then sizes the grid. */
#ifndef WM_STACK_MAX_REGS
#define WM_STACK_MAX_REGS 64
#endif
template <bool TAB, bool PROD>
__global__ void __maxnreg__(WM_STACK_MAX_REGS) wm_stack_kernel(const __grid_constant__ wm_gpu_plan plan, const __grid_constant__ wm_gpu_args args) {
  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
  const wm_warp_layout Ly = wm_warp_layout_of(plan.n_ops, (unsigned)args.unroll, (unsigned)args.group);
  volatile wm_bstate *bs = (volatile wm_bstate *)wm_smem;
  unsigned char *warps_base = wm_smem + WM_BLOCK_SHARED_BYTES;
  unsigned char *region = warps_base + (size_t)wid * Ly.bytes;
  const wm_u64 gwarp = (wm_u64)blockIdx.x * (wm_u64)args.warps + (wm_u64)wid;

  wm_kctx c;
  c.P = &plan;
  c.A = &args;
  c.ws = (volatile wm_wstate *)region;
  c.g = (volatile uint32_t *)(region + Ly.g);
  c.dlo = (uint32_t *)(region + Ly.dlo);
  c.dhi = (uint32_t *)(region + Ly.dhi);
  c.dbase = (uint8_t *)(region + Ly.dbase);
  c.its = (wm_iter *)(region + Ly.its);
  c.pre = (wm_u64 *)(region + Ly.pre);
  c.cnt = (uint32_t *)(region + Ly.cnt);
  c.tr = (uint32_t *)(region + Ly.tr);
  c.sets = args.sets + gwarp * args.warp_elems;
  c.U = args.unroll;
  c.G = args.group;
  c.lane = lane;
  c.count = c.set_ops = c.used = c.issued = 0;
  c.shallow_pick = c.acquired = 0;
  c.tab = NULL;
  if (TAB && args.table_words) {
    c.tab = (uint32_t *)(warps_base + (size_t)args.warps * Ly.bytes) +
            (size_t)wid * (args.table_words + WM_TAB_HEAD_WORDS);
    if (lane == 0) {
      ((wm_tab_head *)c.tab)->key = 0xFFFFFFFFu; /* no vertex */
      ((wm_tab_head *)c.tab)->mode = WM_TAB_NONE;
    }
  }

  if (threadIdx.x == 0) {
    bs->idle_warps = 0;
    bs->blk_lock = 0;
    bs->counted = 1;
    bs->l0_done = 0;
    if (args.steal == WM_STEAL_TWO_LEVEL) atomicAdd(args.active, 1);
    wm_stop_mark_begin(args.stop);
  }
  uint32_t *save = args.save ? (uint32_t *)(args.save + gwarp * args.warp_state_bytes) : NULL;
  const bool resumed = args.resume && save && ((volatile wm_wstate *)save)->status == WM_W_SUSPENDED;
  for (uint32_t i = lane; i < Ly.bytes / 4; i += 32) ((uint32_t *)region)[i] = resumed ? save[i] : 0u;
  __syncwarp();
  if (lane == 0) {
    c.ws->lock = 0;
    c.ws->status = WM_W_BUSY;
    if (resumed) ((volatile wm_wstate *)save)->status = WM_W_BUSY; /* resumed once only */
  }
  __syncthreads(); /* every stack initialised before any thief looks */

#ifdef WM_GPU_PROFILE
  long long prof[WM_PROF_N] = {0, 0, 0, 0, 0, 0};
  long long prof_begin = clock64();
#endif
  const int last = (int)plan.k - 2;
  /* the warp's time and its time in wm_acquire (wm_stop_mark_end): how
   * long a stripe's work would take spread evenly (api/slices.c) */
  const unsigned long long warp_t0 = wm_stop_clock_ns();
  unsigned long long idle_ns = 0;
  int p = -1, st = WM_S_PICK;
  bool stopped = false;
  if (resumed) {
    p = last;
    wm_u64 r = wm_bulk_last<TAB, PROD>(c, c.ws->n[last], c.ws->bulk_t);
    if (r != ~0ull) {
      wm_suspend(c, bs, r, (const uint32_t *)region, Ly.bytes, save);
      stopped = true;
    }
  }
  while (!stopped) {
    /* Every step, paced per warp (wm_warp_stop): a warp may stay under one
     * hub's item for seconds, and once the others have stopped no thief
     * shares it.  Checks at fewer sites were late on house over Kronecker
     * 17: 13 s checking only before claims, 1.2 s at every ascent too. */
    if (wm_warp_stop(c)) break; /* claims nothing more: the host reports the stop */
    if (p < 0) {
      WM_PROF_START();
      const unsigned long long a0 = wm_stop_clock_ns();
      p = wm_acquire(c, bs, warps_base, Ly, wid);
      idle_ns += wm_stop_clock_ns() - a0;
      WM_PROF_ADD(WM_PROF_ACQUIRE);
      if (p < 0) break;
      c.shallow_pick = c.acquired = clock64(); /* new work: its clocks start */
      st = WM_S_PICK;
      continue;
    }
    if (st == WM_S_NEXT) {
      st = WM_S_PICK;
      int a = c.ws->a[p] + 1;
      __syncwarp();
      if (lane == 0) c.ws->a[p] = a;
      __syncwarp();
      if (a < c.ws->n[p]) {
        WM_PROF_START();
        wm_descend(c, p);
        WM_PROF_ADD(WM_PROF_DESCEND);
        p++;
        continue;
      }
    }
    int n;
    {
      WM_PROF_START();
      n = wm_pick(c, p);
      WM_PROF_ADD(WM_PROF_PICK);
    }
    if (n == 0) {
      if (p == 0) {
        p = -1;
      } else {
        p--;
        st = WM_S_NEXT;
      }
      continue;
    }
    {
      WM_PROF_START();
      wm_run_level_ops(c, p, n, true);
      WM_PROF_ADD(WM_PROF_OPS);
    }
    if (p == last) {
      WM_PROF_START();
      wm_u64 r = wm_bulk_last<TAB, PROD>(c, n, 0);
      WM_PROF_ADD(WM_PROF_BULK);
      if (r != ~0ull) {
        wm_suspend(c, bs, r, (const uint32_t *)region, Ly.bytes, save);
        break;
      }
      continue;
    }
    {
      WM_PROF_START();
      wm_descend(c, p); /* into member 0 (wm_pick made it the active one) */
      WM_PROF_ADD(WM_PROF_DESCEND);
    }
    p++;
  }
#ifdef WM_GPU_PROFILE
  prof[WM_PROF_TOTAL] = clock64() - prof_begin;
  if (lane == 0 && args.prof)
    for (int i = 0; i < WM_PROF_N; i++) atomicAdd(args.prof + i, (wm_u64)prof[i]);
#endif

  wm_count_warp_flush(args.count, c.count, lane); /* in 128 bits: args.count[0..1] */
  if (lane == 0) {
    wm_stop_mark_end(args.stop, wm_stop_clock_ns() - warp_t0 - idle_ns);
    if (c.set_ops) atomicAdd(args.set_ops, c.set_ops);
    if (c.used) atomicAdd(args.lanes_used, c.used);
    if (c.issued) atomicAdd(args.lanes_issued, c.issued);
  }
}

/* The kernel built for the plan: the probe table's code and the product's
 * cost registers (and, spilled, time) even where the plan does not use them. */
static void *wm_stack_entry(bool table, bool product) {
  if (product) return table ? (void *)wm_stack_kernel<true, true> : (void *)wm_stack_kernel<false, true>;
  return table ? (void *)wm_stack_kernel<true, false> : (void *)wm_stack_kernel<false, false>;
}

cudaError_t wm_gpu_launch_stack(const wm_gpu_plan *plan, const wm_gpu_args *args, unsigned blocks,
                                cudaStream_t stream) {
  if (args->warps < 1 || args->warps * 32 > WM_MAX_THREADS) return cudaErrorInvalidConfiguration;
  size_t smem = wm_gpu_stack_smem(plan->n_ops, (unsigned)args->unroll, (unsigned)args->group, (unsigned)args->warps,
                                  args->table_words);
  const void *fn = wm_stack_entry(args->table_words != 0, plan->pairs == WM_PAIRS_PRODUCT);
  cudaError_t e = cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
  if (e != cudaSuccess) return e;
  void *params[] = {(void *)plan, (void *)args};
  return cudaLaunchKernel(fn, dim3(blocks), dim3((unsigned)args->warps * 32u), params, smem, stream);
}

cudaError_t wm_gpu_stack_occupancy(unsigned W, bool table, size_t smem, int *blocks_per_sm) {
  if (W < 1 || W * 32 > WM_MAX_THREADS) return cudaErrorInvalidConfiguration;
  /* Both product builds have the same register cap and shared memory. */
  const void *fn = wm_stack_entry(table, false);
  cudaError_t e = cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
  if (e != cudaSuccess) return e;
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks_per_sm, fn, (int)W * 32, smem);
}
