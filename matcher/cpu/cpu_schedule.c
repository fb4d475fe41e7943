/* Which ops the CPU executor may defer (see cpu_schedule.h). */
#include <string.h>

#include "cpu_schedule.h"

/* A deferred op reads its slot operands later than planned, so no op after
 * their writers may reuse those slots. */
static int operands_stay(const wm_plan *plan, unsigned o) {
  uint8_t src[2] = {plan->ops[o].a, plan->ops[o].b};
  for (int s = 0; s < 2; s++) {
    if (WM_IS_NBR(src[s])) continue;
    int w = wm_plan_writer(plan, src[s], o);
    for (unsigned i = (unsigned)w + 1; w >= 0 && i < plan->n_ops; i++)
      if (i != (unsigned)w && plan->ops[i].dst == src[s]) return 0;
    if (w < 0) return 0;
  }
  return 1;
}

void wm_cpu_schedule_build(const wm_plan *plan, wm_cpu_schedule *s) {
  memset(s, 0, sizeof *s);
  /* Readers come after their writers, so walking backwards knows every
   * reader's own timing before the op's. */
  for (int o = (int)plan->n_ops - 1; o >= 0; o--) {
    const wm_plan_op *op = &plan->ops[o];
    unsigned need = 0xFF;
    for (unsigned p = 1; p < plan->k; p++)
      if (plan->cand[p] == op->dst && wm_plan_writer(plan, op->dst, plan->op_begin[p]) == o && p - 1 < need)
        need = p - 1;
    for (unsigned r = (unsigned)o + 1; r < plan->n_ops; r++) {
      const wm_plan_op *rd = &plan->ops[r];
      int reads = (!WM_IS_NBR(rd->a) && rd->a == op->dst) || (!WM_IS_NBR(rd->b) && rd->b == op->dst);
      if (!reads || wm_plan_writer(plan, op->dst, r) != o) continue;
      unsigned when = s->lazy[r] ? s->need[r] : rd->level;
      if (when < need) need = when;
    }
    if (need != 0xFF && need > op->level && operands_stay(plan, (unsigned)o)) {
      s->lazy[o] = 1;
      s->need[o] = (uint8_t)need;
    }
  }
  unsigned n = 0;
  for (unsigned L = 0; L < WM_MAX_K; L++) {
    s->need_begin[L] = (uint8_t)n;
    for (unsigned o = 0; o < plan->n_ops; o++)
      if (s->lazy[o] && s->need[o] == L) s->by_need[n++] = (uint8_t)o;
  }
  s->need_begin[WM_MAX_K] = (uint8_t)n;
}
