/* The sums over processes (wm_share) that both executors make, exact:
 * counts in 128 bits, per-vertex counts checked; and how a process that
 * gives up tells the others. */
#include "base.h"
#include "matcher.h"

int wm_share_count(const wm_share *s, wm_u128 *count) {
  wm_i128 c = (wm_i128)*count;
  int overflow = 0;
  int rc = s->sum_i128(s->ctx, &c, 1, &overflow);
  *count = (wm_u128)c;
  return rc || overflow;
}

#define PV_SLICE 4096u

int wm_share_per_vertex(const wm_share *s, uint64_t *pv, uint32_t n, wm_u128 bound, uint64_t *full) {
  if (bound <= UINT64_MAX) return s->sum_u64(s->ctx, pv, n);
  wm_i128 part[PV_SLICE];
  int overflow = 0;
  for (uint32_t at = 0; at < n; at += PV_SLICE) {
    const unsigned m = n - at < PV_SLICE ? n - at : PV_SLICE;
    for (unsigned i = 0; i < m; i++) part[i] = pv[at + i];
    if (s->sum_i128(s->ctx, part, m, &overflow)) return 1;
    for (unsigned i = 0; i < m; i++) {
      if (part[i] > (wm_i128)UINT64_MAX && !*full) *full = (uint64_t)at + i + 1;
      pv[at + i] = (uint64_t)part[i];
    }
  }
  return 0;
}

void wm_share_halt(const wm_share *s, unsigned first, unsigned count) {
  if (s->halt) s->halt(s->ctx, first, count);
}

int wm_share_interrupted(wm_error *err, const char *what, int here) {
  if (here) return wm_interrupted(err, what);
  return wm_fail(err, WM_EINTERRUPTED, "%s: interrupted (warpmatch_interrupt on another process sharing the work)",
                 what);
}
