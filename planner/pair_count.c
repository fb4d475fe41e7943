/* Whether a plan's last two positions can be counted as pairs (planner.h,
 * wm_pair_mode).  With a = k-2, b = k-1 and S their common candidate set:
 * under v[b] < v[a], b's candidates below v[a] must be exactly a's
 * candidates below v[a], so b needs a's lower bounds and no upper bound
 * that a's do not imply, and the same distinct positions apart from a;
 * the count is then C(n, 2) over a's n candidates.  Unbounded (embeddings),
 * the two ranges must be equal and b != a is all that is left: n(n-1). */
#include "planner.h"

unsigned wm_plan_pair_mode(const wm_plan *p) {
  if (!p->count_only || p->k < 3) return WM_PAIRS_NONE;
  const unsigned a = p->k - 2, b = p->k - 1, bit = 1u << a;
  if (p->cand[a] != p->cand[b] || p->op_begin[a] != p->op_begin[a + 1]) return WM_PAIRS_NONE;
  if (p->label[a] != WM_ANY_LABEL || p->label[b] != WM_ANY_LABEL) return WM_PAIRS_NONE;
  if ((p->distinct[b] & ~bit) != p->distinct[a]) return WM_PAIRS_NONE;
  const unsigned lo_a = p->lower[a], hi_a = p->upper[a], lo_b = p->lower[b], hi_b = p->upper[b];
  if (hi_b & bit) /* v[b] < v[a] */
    return lo_b == lo_a && !(hi_b & ~bit & ~hi_a) ? WM_PAIRS_UNORDERED : WM_PAIRS_NONE;
  if (lo_b & bit) /* v[b] > v[a] */
    return hi_b == hi_a && !(lo_b & ~bit & ~lo_a) ? WM_PAIRS_UNORDERED : WM_PAIRS_NONE;
  return lo_b == lo_a && hi_b == hi_a && (p->distinct[b] & bit) ? WM_PAIRS_ORDERED : WM_PAIRS_NONE;
}
