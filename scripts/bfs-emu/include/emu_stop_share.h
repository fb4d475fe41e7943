/* Two emulated processes sharing a GPU call (wm_share, matcher.h), one of
 * them interrupted, for the emulators' checks (dag-emu, motif-emu).  The
 * emulated kernels cannot run two calls at once, so the processes run one
 * after the other: process 1 first, under a monitor whose flag is set at
 * its stop_at-th call of the share (0: before the call), its contributions
 * to every sum recorded; then process 0, never interrupted, whose sums add
 * process 1's recorded ones in order, as an all-reduce of the two would
 * (process 1 only needs its own flag back).  The loops' counters are
 * common, and halted as share_mpi.c's.  A check then asks that both
 * returned WM_EINTERRUPTED, process 0 naming another process, that both
 * made the same collective calls (kind and length: else one would wait in
 * vain for the other under MPI), and that process 0 took no item of a loop
 * once process 1 had halted it. */
#ifndef EMU_STOP_SHARE_H
#define EMU_STOP_SHARE_H

#include <string.h>

#include <vector>

#include "base.h"
#include "matcher.h"

struct stop_share {
  struct call {
    int kind; /* the width of the sum's numbers: 4, 8 or 16 */
    std::vector<wm_i128> v;
  };
  struct proc {
    wm_share share;
    stop_share *c;
    unsigned next = 0;  /* loops */
    unsigned calls = 0; /* of the share, any kind */
    size_t sums = 0;    /* sums made */
    uint64_t taken = 0; /* items claimed below a halted counter */
    wm_monitor *stop = nullptr; /* set at the stop_at-th call */
    unsigned stop_at = 0;
  };
  static constexpr uint64_t kHalted = (uint64_t)1 << 40;
  uint64_t counter[64] = {};
  std::vector<call> recorded; /* process 1's */
  bool mismatch = false;      /* process 0 made a sum that process 1 did not, or another kind */
  proc p[2];

  static proc *of(void *ctx) { return (proc *)ctx; }
  static void tick(proc *q) {
    if (q->stop && ++q->calls == q->stop_at) __atomic_store_n(&q->stop->stop, 1, __ATOMIC_SEQ_CST);
  }
  static unsigned loops(void *ctx, unsigned count) {
    proc *q = of(ctx);
    tick(q);
    q->next += count;
    return q->next - count;
  }
  static uint64_t grab(void *ctx, unsigned id, uint64_t chunk) {
    proc *q = of(ctx);
    tick(q);
    const uint64_t first = __atomic_fetch_add(&q->c->counter[id % 64], chunk, __ATOMIC_RELAXED);
    if (first < kHalted) q->taken += chunk;
    return first;
  }
  static void halt(void *ctx, unsigned first, unsigned count) {
    proc *q = of(ctx);
    for (unsigned id = first; id < first + count; id++) __atomic_fetch_or(&q->c->counter[id % 64], kHalted, __ATOMIC_RELAXED);
  }
  /* process 1 records, process 0 adds the record */
  template <class T>
  static int sum(void *ctx, T *a, uint64_t n, int *overflow) {
    proc *q = of(ctx);
    tick(q);
    stop_share *c = q->c;
    const size_t at = q->sums++;
    if (q->share.process == 1) {
      c->recorded.push_back({(int)sizeof(T), std::vector<wm_i128>(a, a + n)});
      return 0;
    }
    if (at >= c->recorded.size() || c->recorded[at].kind != (int)sizeof(T) || c->recorded[at].v.size() != n) {
      c->mismatch = true;
      return 0;
    }
    for (uint64_t i = 0; i < n; i++) {
      const wm_i128 x = (wm_i128)a[i] + c->recorded[at].v[i];
      if (overflow && (x < 0 || (sizeof(T) < 16 && x > (wm_i128)(T)-1))) *overflow = 1;
      a[i] = (T)x;
    }
    return 0;
  }
  static int sum_u32(void *ctx, uint32_t *a, uint64_t n) { return sum(ctx, a, n, nullptr); }
  static int sum_u64(void *ctx, uint64_t *a, uint64_t n) { return sum(ctx, a, n, nullptr); }
  static int sum_i128(void *ctx, wm_i128 *a, unsigned n, int *overflow) { return sum(ctx, a, n, overflow); }

  /* mon: process 1's monitor, its flag set at its stop_at-th call (0:
   * now) */
  stop_share(wm_monitor *mon, unsigned stop_at) {
    for (int i = 0; i < 2; i++) {
      p[i].c = this;
      p[i].share = wm_share{&p[i], 2, i, loops, grab, sum_u32, sum_u64, sum_i128, halt};
    }
    memset(mon, 0, sizeof *mon);
    mon->stop = stop_at == 0;
    p[1].stop = mon;
    p[1].stop_at = stop_at;
  }
  stop_share(const stop_share &) = delete;

  /* What is wrong once both ran (rc: each one's return, msg: process 0's
   * message), or NULL. */
  const char *verdict(const int rc[2], const char *msg0) const {
    if (rc[1] != WM_EINTERRUPTED) return "the interrupted process did not return WM_EINTERRUPTED";
    if (rc[0] != WM_EINTERRUPTED) return "the other process did not return WM_EINTERRUPTED";
    if (!strstr(msg0, "another process")) return "the other process's message does not name another process";
    if (mismatch || p[0].sums != recorded.size()) return "the processes' collective calls differ (one would wait)";
    if (p[0].taken) return "the other process took work after the interrupted one halted its loops";
    return nullptr;
  }
};

#endif
