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

/* The level whose binding a position's candidate set is computed for: its
 * writer's, or j for N(v[j]); -1 where no op before the position writes it. */
static int set_level(const wm_plan *plan, unsigned p) {
  if (WM_IS_NBR(plan->cand[p])) return WM_NBR_POS(plan->cand[p]);
  int o = wm_plan_writer(plan, plan->cand[p], plan->op_begin[p]);
  return o < 0 ? -1 : plan->ops[o].level;
}

/* A product counts |a| * |b| - |a & b| over the tail a = k-2 and the last
 * position b = k-1, a's count first, b's sets computed only where it is
 * not zero.  Where b's set is computed at a shallower level than a's (once
 * for many of a's), the order is turned: b's count first, a's set only
 * where it is not zero (a bowtie's order 2-0-3-4-1 otherwise computed its
 * tail's set for every prefix, also where the other wing had no candidate:
 * 1.46x the set operations of 0-2-3-1-4 on the corpus's cl-2.5). */
static void defer_tail(const wm_plan *plan, wm_cpu_schedule *s) {
  const unsigned a = plan->k - 2;
  if (plan->k < 4 || WM_IS_NBR(plan->cand[a])) return;
  const int oa = wm_plan_writer(plan, plan->cand[a], plan->op_begin[a]), lb = set_level(plan, a + 1);
  if (oa < 0 || s->lazy[oa] || plan->ops[oa].level != a - 1 || lb < 0 || lb >= (int)a - 1) return;
  for (unsigned r = (unsigned)oa + 1; r < plan->n_ops; r++) { /* the tail's set is read by no op */
    const wm_plan_op *rd = &plan->ops[r];
    const uint8_t dst = plan->ops[oa].dst;
    if (((!WM_IS_NBR(rd->a) && rd->a == dst) || (!WM_IS_NBR(rd->b) && rd->b == dst)) &&
        wm_plan_writer(plan, dst, r) == oa)
      return;
  }
  if (!operands_stay(plan, (unsigned)oa)) return;
  s->lazy[oa] = 1;
  s->need[oa] = WM_CPU_NO_OP; /* no level's visit runs it: the product does */
  s->tail_op = (uint8_t)oa;
}

void wm_cpu_schedule_build(const wm_plan *plan, int product, wm_cpu_schedule *s) {
  memset(s, 0, sizeof *s);
  s->tail_op = WM_CPU_NO_OP;
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
  if (product) defer_tail(plan, s);
  unsigned n = 0;
  for (unsigned L = 0; L < WM_MAX_K; L++) {
    s->need_begin[L] = (uint8_t)n;
    for (unsigned o = 0; o < plan->n_ops; o++)
      if (s->lazy[o] && s->need[o] == L) s->by_need[n++] = (uint8_t)o;
  }
  s->need_begin[WM_MAX_K] = (uint8_t)n;
}
