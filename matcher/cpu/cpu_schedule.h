/* When the CPU executor runs each op of a plan.  A hoisted op (one whose
 * readers all sit at deeper levels) is computed lazily: on the first visit
 * of the level that needs it after its own level's vertex was bound, not
 * eagerly at its level.  It is still computed once per binding of its
 * level, as code motion intends, but never for a binding whose inner loops
 * turn out empty, so code motion can never run more set operations than
 * the same plan without it.  Likewise the tail's set under a product
 * whose other factor is known first (tail_op). */
#ifndef WM_CPU_SCHEDULE_H
#define WM_CPU_SCHEDULE_H

#include "planner.h"

typedef struct wm_cpu_schedule {
  uint8_t lazy[WM_MAX_OPS]; /* 1: computed on demand */
  uint8_t need[WM_MAX_OPS]; /* lazy ops: the level whose visit computes them */
  /* lazy ops needed at level L: by_need[need_begin[L] .. need_begin[L+1]),
   * in op order (an op's deferred operands come first) */
  uint8_t by_need[WM_MAX_OPS];
  uint8_t need_begin[WM_MAX_K + 1];
  /* Under a product of the last two positions (product != 0): the op that
   * writes the tail's set, where the last position's set is computed at a
   * shallower level; the product then counts the last position first and
   * runs this op only where that count is not zero (it is lazy, in no
   * by_need list).  WM_CPU_NO_OP otherwise. */
  uint8_t tail_op;
} wm_cpu_schedule;

#define WM_CPU_NO_OP 0xFFu

void wm_cpu_schedule_build(const wm_plan *plan, int product, wm_cpu_schedule *s);

#endif
