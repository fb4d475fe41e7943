/* The 5-vertex orbits' agreement and exact sums across processes
 * (orbit_share5.h). */
#include "base.h"
#include "orbit_share5.h"

enum { INTERRUPTED, FAILED, FLAGS };

int wm_o5s_agree(const wm_share *s, int rc, const char *what, wm_error *err) {
  uint32_t flags[FLAGS] = {rc == WM_EINTERRUPTED, rc != WM_OK && rc != WM_EINTERRUPTED};
  const int here = (int)flags[INTERRUPTED];
  if (s->sum_u32(s->ctx, flags, FLAGS)) return wm_fail(err, WM_EINPUT, "%s: MPI: agreeing on the shared step failed", what);
  if (flags[INTERRUPTED]) return wm_share_interrupted(err, what, here);
  if (rc) return rc;
  if (flags[FAILED]) return wm_fail(err, WM_EINPUT, "%s: failed on another process sharing the work", what);
  return WM_OK;
}

int wm_o5s_sum_owned(const wm_share *s, void *a, uint64_t bytes) {
  return s->sum_u64(s->ctx, (uint64_t *)a, bytes / sizeof(uint64_t));
}

/* The halves of a slice are summed in one call: the low halves, then the
 * high ones; each total is below 2^32 times the processes.  The slice is
 * on the stack, so that no process can miss a collective for want of
 * memory. */
#define SLICE ((uint64_t)4096)

int wm_o5s_sum_exact(const wm_share *s, uint64_t *a, uint64_t n, int64_t *carry, int *over) {
  uint64_t half[2 * SLICE];
  uint32_t flag = (uint32_t)(*over != 0);
  int rc = s->sum_u32(s->ctx, &flag, 1);
  for (uint64_t at = 0; !rc && at < n; at += SLICE) {
    const uint64_t len = n - at < SLICE ? n - at : SLICE;
    for (uint64_t i = 0; i < len; i++) half[i] = a[at + i] & UINT32_MAX, half[len + i] = a[at + i] >> 32;
    rc = s->sum_u64(s->ctx, half, 2 * len);
    for (uint64_t i = 0; !rc && i < len; i++) {
      const wm_u128 total = ((wm_u128)half[len + i] << 32) + half[i];
      a[at + i] = (uint64_t)total;
      if (carry) carry[at + i] += (int64_t)(total >> 64);
      else if (total >> 64) flag = 1;
    }
  }
  *over = flag != 0;
  return rc;
}
