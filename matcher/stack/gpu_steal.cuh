/* Work stealing of the stack kernel (STMatch's two levels).
 *
 * Inside a block: an idle warp picks the busy warp whose shallowest
 * unconsumed range (positions <= stop_level) is shallowest, locks that
 * warp's stack, and takes the upper half of the range together with the
 * prefix v[0..q-1] that the range belongs to.  The owner changes a range at
 * a stealable position only under its own lock (picking the next unrolled
 * group, setting the range when it descends), and a position deeper than
 * the current one is always exhausted (it >= end), so a thief never sees a
 * range whose prefix is gone.  The thief recomputes the prefix's sets
 * itself (results are deterministic), which is how hoisted sets travel.
 *
 * Across blocks: a block whose warps are all idle sets its block_idle flag;
 * a busy warp picking its next group at a position <= detect_level claims
 * the idle block's mailbox (EMPTY -> CLAIMED), splits its own shallowest
 * range the same way and posts it (FULL); an idle warp of that block takes
 * it.  (Checking only when descending, as STMatch does, would leave most
 * blocks idle: a warp on a hub stays at one level for thousands of groups.)
 * `active` counts blocks with a busy warp plus posted but untaken mails:
 * a pusher is busy, so it never drops to zero while work exists, and a
 * block leaves only when it is zero, after closing its mailbox (EMPTY ->
 * CLOSED), so no mail can arrive at a block that has left.
 *
 * All of this runs on lane 0 of a warp (the other lanes wait at the next
 * __syncwarp / shuffle); shared state of other warps is read through
 * volatile pointers and locks pair atomics with fences. */
#ifndef WM_GPU_STEAL_CUH
#define WM_GPU_STEAL_CUH

#include "gpu_kernel.h"

/* Per-block counters at the start of shared memory. */
struct wm_bstate {
  int idle_warps; /* warps counted idle (or suspended, or gone) */
  int blk_lock;   /* guards `counted` against concurrent idle / receive transitions */
  int counted;    /* this block counts in args.active */
  int l0_done;    /* the level-0 counter is exhausted */
};

__device__ __forceinline__ void wm_lock(volatile int *l) {
  while (atomicCAS((int *)l, 0, 1) != 0) __nanosleep(20);
  __threadfence_block();
}

__device__ __forceinline__ void wm_unlock(volatile int *l) {
  __threadfence_block();
  atomicExch((int *)l, 0);
}

/* Shallowest position q <= stop with at least two unconsumed iterations. */
__device__ __forceinline__ int wm_shallowest(volatile wm_wstate *w, int stop, uint32_t &rem) {
  for (int q = 0; q <= stop; q++) {
    uint32_t i = w->it[q], e = w->end[q];
    if (e > i && e - i >= 2) {
      rem = e - i;
      return q;
    }
  }
  return -1;
}

/* Under w's lock: moves the upper half of w's shallowest range to
 * (q, pref[0..q-1], [lo, hi)).  false when nothing is worth taking. */
__device__ __forceinline__ bool wm_split(volatile wm_wstate *w, volatile const uint32_t *g, int G,
                                         int stop, int &q, uint32_t *pref, uint32_t &lo,
                                         uint32_t &hi) {
  if (w->status != WM_W_BUSY) return false;
  uint32_t rem = 0;
  q = wm_shallowest(w, stop, rem);
  if (q < 0) return false;
  uint32_t e = w->end[q];
  lo = e - rem / 2;
  hi = e;
  w->end[q] = lo;
  for (int j = 0; j < q; j++) pref[j] = g[j * G + w->a[j]];
  return true;
}

/* Lane 0 of an idle warp: steal from the busiest warp of the block.  On
 * success the stolen work is in me->steal_q / steal_lo / steal_hi / pref
 * and this warp is counted busy again. */
__device__ bool wm_steal_intra(volatile wm_bstate *bs, unsigned char *warps_base, uint32_t stride,
                               uint32_t goff, int W, int me, int G, int stop) {
  int best = -1, bestq = WM_MAX_K;
  uint32_t bestrem = 0;
  for (int w = 0; w < W; w++) {
    if (w == me) continue;
    volatile wm_wstate *v = (volatile wm_wstate *)(warps_base + (size_t)w * stride);
    if (v->status != WM_W_BUSY) continue;
    uint32_t rem = 0;
    int q = wm_shallowest(v, stop, rem); /* a hint; checked again under the lock */
    if (q >= 0 && (q < bestq || (q == bestq && rem > bestrem))) {
      best = w;
      bestq = q;
      bestrem = rem;
    }
  }
  if (best < 0) return false;
  volatile wm_wstate *v = (volatile wm_wstate *)(warps_base + (size_t)best * stride);
  volatile wm_wstate *mine = (volatile wm_wstate *)(warps_base + (size_t)me * stride);
  volatile const uint32_t *vg =
      (volatile const uint32_t *)(warps_base + (size_t)best * stride + goff);
  uint32_t pref[WM_MAX_K], lo = 0, hi = 0;
  int q = -1;
  wm_lock(&v->lock);
  bool ok = wm_split(v, vg, G, stop, q, pref, lo, hi);
  /* Counted busy while the victim (busy) is locked: the block's idle count
   * never reaches W while this work is in flight. */
  if (ok) atomicSub((int *)&bs->idle_warps, 1);
  wm_unlock(&v->lock);
  if (!ok) return false;
  mine->steal_q = q;
  mine->steal_lo = lo;
  mine->steal_hi = hi;
  for (int j = 0; j < q; j++) mine->pref[j] = pref[j];
  mine->status = WM_W_BUSY;
  return true;
}

/* Lane 0: this warp has no work left.  The last warp of a block to go idle
 * marks the block idle for pushers (two-level). */
__device__ void wm_go_idle(const wm_gpu_args *A, volatile wm_bstate *bs, volatile wm_wstate *me,
                           int W) {
  me->status = WM_W_IDLE;
  __threadfence_block();
  int now = atomicAdd((int *)&bs->idle_warps, 1) + 1;
  if (A->steal != WM_STEAL_TWO_LEVEL || now != W) return;
  wm_lock(&bs->blk_lock);
  if (bs->idle_warps == W && bs->counted) {
    bs->counted = 0;
    atomicExch(A->block_idle + blockIdx.x, 1);
    atomicAdd(A->idle_blocks, 1);
    __threadfence();
    atomicSub(A->active, 1);
  }
  wm_unlock(&bs->blk_lock);
}

/* Lane 0 of an idle warp: take this block's mail, if one was posted. */
__device__ bool wm_try_receive(const wm_gpu_args *A, volatile wm_bstate *bs, volatile wm_wstate *me) {
  volatile int *st = (volatile int *)A->mail_state + blockIdx.x;
  if (*st != WM_MAIL_FULL) return false;
  if (atomicCAS(A->mail_state + blockIdx.x, WM_MAIL_FULL, WM_MAIL_TAKEN) != WM_MAIL_FULL) return false;
  __threadfence();
  volatile wm_gpu_mail *m = (volatile wm_gpu_mail *)A->mail + blockIdx.x;
  int q = m->q;
  me->steal_q = q;
  me->steal_lo = m->lo;
  me->steal_hi = m->hi;
  for (int j = 0; j < q; j++) me->pref[j] = m->v[j];
  __threadfence();
  atomicExch(A->mail_state + blockIdx.x, WM_MAIL_EMPTY);
  wm_lock(&bs->blk_lock);
  /* Atomic even under blk_lock: wm_go_idle and thieves change the count
   * without it, and a lost update leaves the block short of W idle warps
   * forever, so that it never leaves `active` and the kernel never ends. */
  atomicSub((int *)&bs->idle_warps, 1);
  if (!bs->counted)
    bs->counted = 1; /* the mail's unit of `active` becomes the block's */
  else
    atomicSub(A->active, 1);
  wm_unlock(&bs->blk_lock);
  me->status = WM_W_BUSY;
  return true;
}

/* Lane 0 of an idle warp, two-level: true when every block is idle and no
 * mail is in flight; this block's mailbox is then closed. */
__device__ bool wm_two_level_done(const wm_gpu_args *A) {
  if (*(volatile int *)A->active != 0) return false;
  int old = atomicCAS(A->mail_state + blockIdx.x, WM_MAIL_EMPTY, WM_MAIL_CLOSED);
  return old == WM_MAIL_EMPTY || old == WM_MAIL_CLOSED;
}

__device__ void wm_post_mail(const wm_gpu_args *A, volatile wm_wstate *me, volatile const uint32_t *g,
                             int G, int stop, int target);

/* The whole (busy) warp: if some block is idle, push half of this warp's
 * shallowest range into its mailbox. */
__device__ void wm_try_push(const wm_gpu_args *A, volatile wm_wstate *me, volatile const uint32_t *g,
                            int G, int stop, int lane) {
  int idle = 0;
  if (lane == 0) idle = *(volatile int *)A->idle_blocks;
  if (__shfl_sync(WM_FULL, idle, 0) <= 0) return; /* one read for the whole warp */
  const int nb = (int)gridDim.x, mine = (int)blockIdx.x;
  int target = -1;
  for (int base = 1; base < nb && target < 0; base += 32) {
    int b = (mine + base + lane) % nb;
    bool cand = base + lane < nb && ((volatile int *)A->block_idle)[b] != 0;
    unsigned m = __ballot_sync(WM_FULL, cand);
    if (lane == 0) {
      for (; m; m &= m - 1) {
        int bb = (mine + base + __ffs(m) - 1) % nb;
        if (atomicCAS(A->mail_state + bb, WM_MAIL_EMPTY, WM_MAIL_CLAIMED) == WM_MAIL_EMPTY) {
          target = bb;
          break;
        }
      }
    }
    target = __shfl_sync(WM_FULL, target, 0);
  }
  if (target >= 0 && lane == 0) wm_post_mail(A, me, g, G, stop, target);
  __syncwarp();
}

/* Lane 0, holding the claim on target's mailbox: posts half of this warp's
 * shallowest range, or releases the claim when there is nothing to give. */
__device__ void wm_post_mail(const wm_gpu_args *A, volatile wm_wstate *me, volatile const uint32_t *g,
                             int G, int stop, int target) {
  atomicAdd(A->active, 1); /* the mail's unit; this block is counted, so active was >= 1 */
  int was_idle = atomicExch(A->block_idle + target, 0);
  if (was_idle) atomicSub(A->idle_blocks, 1);
  uint32_t pref[WM_MAX_K], lo = 0, hi = 0;
  int q = -1;
  wm_lock(&me->lock);
  bool ok = wm_split(me, g, G, stop, q, pref, lo, hi);
  wm_unlock(&me->lock);
  if (!ok) {
    if (was_idle) {
      atomicExch(A->block_idle + target, 1);
      atomicAdd(A->idle_blocks, 1);
    }
    __threadfence();
    atomicExch(A->mail_state + target, WM_MAIL_EMPTY);
    atomicSub(A->active, 1);
  } else {
    volatile wm_gpu_mail *m = (volatile wm_gpu_mail *)A->mail + target;
    m->q = q;
    m->lo = lo;
    m->hi = hi;
    for (int j = 0; j < q; j++) m->v[j] = pref[j];
    __threadfence();
    atomicExch(A->mail_state + target, WM_MAIL_FULL);
  }
}

#endif
