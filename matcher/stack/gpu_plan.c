/* Compiles a planner plan into the GPU kernel's form: one slot per op (the
 * planner reuses slots once their readers are done; the kernel keeps every
 * op's result because unrolled iterations and work stealing read sets of
 * several prefixes), and the last level's count-only op. */
#include "gpu_plan.h"

#include "dag_table.h"

#include <stdio.h>
#include <string.h>

/* The engine's rows say which shapes the dedicated kernels count
 * (dag_kernels.def); these read them. */
unsigned wm_gpu_plan_clique_k(const wm_plan *plan) {
  const int row = wm_dag_row_of_plan(plan);
  return row >= 0 && !wm_dag_rows[row].edges ? plan->k : 0;
}

int wm_gpu_plan_is_diamond(const wm_plan *plan) {
  const int row = wm_dag_row_of_plan(plan);
  return row >= 0 && strcmp(wm_dag_rows[row].family, "diamond") == 0;
}

int wm_gpu_plan_lane_count(const wm_gpu_plan *P) {
  if (P->k < 3) return 0;
  const unsigned p = P->k - 1;
  return P->fused_op < 0 && P->op_begin[p - 1] == P->op_begin[p] && P->label[p] == WM_ANY_LABEL;
}

int wm_gpu_plan_table_side(const wm_gpu_plan *P) {
  return P->fused_op < 0 ? -1 : wm_gpu_op_table_side(&P->ops[P->fused_op]);
}

/* Maps an operand read by something of level `level` (an op of that level,
 * or the candidates of position level+1) to its SSA form. */
static int rename_operand(const wm_plan *p, uint8_t x, unsigned level, unsigned before,
                          uint8_t *out, const char *what, wm_error *err) {
  if (WM_IS_NBR(x)) {
    unsigned j = WM_NBR_POS(x);
    if (j > level || j >= p->k)
      return wm_fail(err, WM_EINPUT, "plan: %s reads N(v[%u]) before position %u is bound", what,
                     j, j);
    *out = x;
    return WM_OK;
  }
  if (x >= WM_MAX_SLOTS)
    return wm_fail(err, WM_EINPUT, "plan: %s reads slot %u (at most %u)", what, x, WM_MAX_SLOTS);
  int w = wm_plan_writer(p, x, before);
  if (w < 0) return wm_fail(err, WM_EINPUT, "plan: %s reads slot %u before any op writes it", what, x);
  *out = (uint8_t)w;
  return WM_OK;
}

static int check_shape(const wm_plan *p, wm_error *err) {
  if (p->k < 2 || p->k > WM_MAX_K)
    return wm_fail(err, WM_EINPUT, "plan: k = %u (expected 2..%u)", p->k, WM_MAX_K);
  if (p->n_ops > WM_MAX_OPS)
    return wm_fail(err, WM_EINPUT, "plan: %u ops (at most %u)", p->n_ops, WM_MAX_OPS);
  for (unsigned o = 0; o < p->n_ops; o++) {
    const wm_plan_op *op = &p->ops[o];
    if (op->kind != WM_OP_INTERSECT && op->kind != WM_OP_SUBTRACT)
      return wm_fail(err, WM_EINPUT, "plan: op %u has unknown kind %u", o, op->kind);
    if (op->level + 2u > p->k)
      return wm_fail(err, WM_EINPUT, "plan: op %u runs at level %u, after the last position", o,
                     op->level);
    if (o && op->level < p->ops[o - 1].level)
      return wm_fail(err, WM_EINPUT, "plan: ops are not sorted by level (op %u)", o);
    unsigned bound = (1u << (op->level + 1)) - 1; /* positions <= level */
    if ((op->lower | op->upper) & ~bound)
      return wm_fail(err, WM_EINPUT, "plan: op %u's range names a position after its level", o);
  }
  for (unsigned i = 0; i < p->k; i++) {
    unsigned earlier = (1u << i) - 1;
    if ((p->lower[i] | p->upper[i] | p->distinct[i]) & ~earlier)
      return wm_fail(err, WM_EINPUT, "plan: position %u is restricted by a later position", i);
  }
  return WM_OK;
}

/* The op of level k-2 whose result is cand[k-1] and which nothing else reads. */
static int find_fused(const wm_gpu_plan *g) {
  uint8_t c = g->cand[g->k - 1];
  if (WM_IS_NBR(c)) return -1;
  if (g->ops[c].level + 2u != g->k) return -1;
  for (unsigned o = 0; o < g->n_ops; o++)
    if (g->ops[o].a == c || g->ops[o].b == c) return -1;
  return c;
}

/* What follows from k and the ops: the fused op, the weighed positions,
 * the buffers. */
static void derive(wm_gpu_plan *g) {
  g->fused_op = find_fused(g);
  /* A product reads the folded position's set too: it must exist. */
  if (g->pairs == WM_PAIRS_PRODUCT && g->fused_op >= 0 && g->cand[g->k] == (uint8_t)g->fused_op) g->fused_op = -1;
  g->weigh = 0;
  for (unsigned o = 0; o < g->n_ops; o++) {
    const wm_gpu_op *op = &g->ops[o];
    if (op->a == WM_NBR(op->level) || op->b == WM_NBR(op->level)) g->weigh |= 1u << op->level;
  }
  if (g->cand[g->k - 1] == WM_NBR(g->k - 2)) g->weigh |= 1u << (g->k - 2);
  /* A group runs its level's ops together; the members of a level without
   * ops are only descended into one by one, and those not yet entered are
   * out of thieves' reach (stealing splits a position's untaken range).  On
   * orders that iterate a hoisted set at such a level (STMatch's p10 as
   * 0-1-2-3-5-4, p2 as 0-1-2-4-3) groups of U kept 60-70% of the warps'
   * cycles waiting for work.  Position k-2 is counted in bulk for its whole
   * group, and position 0 is handed out in chunks, so neither is here. */
  g->single = 0;
  for (unsigned p = 1; p + 3 <= g->k; p++)
    if (g->op_begin[p] == g->op_begin[p + 1]) g->single |= 1u << p;
  unsigned nb = 0;
  for (unsigned i = 0; i < g->n_ops; i++)
    g->ops[i].buf = (int)i == g->fused_op ? WM_GPU_NO_BUF : (uint8_t)nb++;
  g->n_bufs = nb;
}

int wm_gpu_plan_compile(const wm_plan *p, wm_gpu_plan *g, wm_error *err) {
  memset(g, 0, sizeof *g);
  int rc = check_shape(p, err);
  if (rc) return rc;
  g->k = p->k;
  g->n_ops = p->n_ops;
  char what[48];
  for (unsigned o = 0; o < p->n_ops; o++) {
    const wm_plan_op *op = &p->ops[o];
    wm_gpu_op *d = &g->ops[o];
    d->kind = op->kind;
    d->level = op->level;
    d->lower = op->lower;
    d->upper = op->upper;
    snprintf(what, sizeof what, "op %u", o);
    if ((rc = rename_operand(p, op->a, op->level, o, &d->a, what, err)) ||
        (rc = rename_operand(p, op->b, op->level, o, &d->b, what, err)))
      return rc;
    if (!WM_IS_NBR(d->a) && p->ops[d->a].level > op->level) /* cannot happen when sorted */
      return wm_fail(err, WM_EINPUT, "plan: op %u reads a deeper op", o);
  }
  for (unsigned i = 1; i < p->k; i++) {
    /* Position i reads what the ops of levels < i left. */
    unsigned before = 0;
    while (before < p->n_ops && p->ops[before].level < i) before++;
    snprintf(what, sizeof what, "position %u's candidates", i);
    if ((rc = rename_operand(p, p->cand[i], i - 1, before, &g->cand[i], what, err))) return rc;
  }
  /* op_begin from the levels themselves (the plan's copy is not trusted). */
  unsigned o = 0;
  for (unsigned L = 0; L <= WM_MAX_K; L++) {
    while (o < p->n_ops && p->ops[o].level < L) o++;
    g->op_begin[L] = (uint8_t)o;
  }
  for (unsigned i = 0; i < p->k; i++) {
    g->lower[i] = p->lower[i];
    g->upper[i] = p->upper[i];
    g->distinct[i] = p->distinct[i];
    g->order[i] = p->order[i];
    g->label[i] = p->label[i];
    if (p->label[i] != WM_ANY_LABEL) g->labeled = 1;
  }
  g->product_subset = wm_plan_product_within(p);
  derive(g);
  return WM_OK;
}

void wm_gpu_plan_fold_pairs(wm_gpu_plan *P, unsigned pair_count) {
  if (pair_count == WM_PAIRS_NONE || P->k < 3 || P->op_begin[P->k - 2] != P->op_begin[P->k - 1]) return;
  /* No op runs at level k-2 (the planner's condition, checked): every op
   * still runs before the new last position. */
  P->k--;
  P->pairs = pair_count;
  derive(P);
}
