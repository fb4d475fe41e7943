/* When the CPU executor runs each op of a plan.  A hoisted op (one whose
 * readers all sit at deeper levels) is computed lazily: on the first visit
 * of the level that needs it after its own level's vertex was bound, not
 * eagerly at its level.  It is still computed once per binding of its
 * level, as code motion intends, but never for a binding whose inner loops
 * turn out empty, so code motion can never run more set operations than
 * the same plan without it. */
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
} wm_cpu_schedule;

void wm_cpu_schedule_build(const wm_plan *plan, wm_cpu_schedule *s);

#endif
