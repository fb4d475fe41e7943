/* Whether a plan's last two positions can be counted as pairs (planner.h,
 * wm_pair_mode).  With a = k-2, b = k-1 and S their common candidate set:
 * under v[b] < v[a], b's candidates below v[a] must be exactly a's
 * candidates below v[a], so b needs a's lower bounds and no upper bound
 * that a's do not imply, and the same distinct positions apart from a;
 * the count is then C(n, 2) over a's n candidates.  Unbounded (embeddings),
 * the two ranges must be equal and b != a is all that is left: n(n-1).
 * Else, when b's candidates do not depend on v[a] at all, the product. */
#include "planner.h"

/* b's candidates, range and exclusions are fixed before v[a] is bound, and
 * every earlier vertex b excludes is one a's candidates cannot be (a
 * excludes it too, or a is drawn from its neighbours: no self-loops), so
 * that "x in B" needs no test of the exclusions. */
static int independent(const wm_plan *p, unsigned a, unsigned b) {
  const unsigned bit = 1u << a;
  if (p->cand[b] == WM_NBR(a) || ((p->lower[b] | p->upper[b]) & bit) || !(p->distinct[b] & bit))
    return 0;
  for (unsigned m = p->distinct[b] & ~bit, j; m; m &= m - 1) {
    j = (unsigned)__builtin_ctz(m);
    if (!((p->distinct[a] >> j) & 1u) && !wm_pattern_has_edge(&p->pattern, p->order[a], p->order[j]))
      return 0;
  }
  return 1;
}

unsigned wm_plan_pair_mode(const wm_plan *p) {
  if (!p->count_only || p->k < 3) return WM_PAIRS_NONE;
  const unsigned a = p->k - 2, b = p->k - 1, bit = 1u << a;
  if (p->op_begin[a] != p->op_begin[a + 1]) return WM_PAIRS_NONE;
  if (p->label[a] != WM_ANY_LABEL || p->label[b] != WM_ANY_LABEL) return WM_PAIRS_NONE;
  const unsigned product = independent(p, a, b) ? WM_PAIRS_PRODUCT : WM_PAIRS_NONE;
  if (p->cand[a] != p->cand[b] || (p->distinct[b] & ~bit) != p->distinct[a]) return product;
  const unsigned lo_a = p->lower[a], hi_a = p->upper[a], lo_b = p->lower[b], hi_b = p->upper[b];
  if (hi_b & bit) /* v[b] < v[a] */
    return lo_b == lo_a && !(hi_b & ~bit & ~hi_a) ? WM_PAIRS_UNORDERED : WM_PAIRS_NONE;
  if (lo_b & bit) /* v[b] > v[a] */
    return hi_b == hi_a && !(lo_b & ~bit & ~lo_a) ? WM_PAIRS_UNORDERED : WM_PAIRS_NONE;
  return lo_b == lo_a && hi_b == hi_a && (p->distinct[b] & bit) ? WM_PAIRS_ORDERED : product;
}

/* Operand x's set, read before op index xb, within y's, read before yb. */
static int within(const wm_plan *p, uint8_t x, unsigned xb, uint8_t y, unsigned yb) {
  if (WM_IS_NBR(x)) return x == y;
  const int o = wm_plan_writer(p, x, xb);
  if (o < 0) return 0;
  if (x == y && o == wm_plan_writer(p, y, yb)) return 1;
  const wm_plan_op *op = &p->ops[o];
  return within(p, op->a, (unsigned)o, y, yb) || (op->kind == WM_OP_INTERSECT && within(p, op->b, (unsigned)o, y, yb));
}

int wm_plan_product_within(const wm_plan *p) {
  if (p->k < 3) return 0;
  const unsigned a = p->k - 2, b = p->k - 1;
  return within(p, p->cand[a], p->op_begin[a], p->cand[b], p->op_begin[b]);
}
