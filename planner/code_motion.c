/* The set-operation program of a plan, with loop-invariant code motion.
 *
 * Position i's candidates are a chain over its earlier positions in
 * ascending order (intersect back-neighbours, subtract non-neighbours when
 * induced).  Ordering the terms by position makes the prefixes of two
 * chains identical whenever they involve the same earlier positions, so
 * with code motion a prefix is computed once, at the level of its latest
 * operand, and every deeper chain reuses its slot. */
#include <string.h>

#include "planner_internal.h"

#define VIRT_NONE 0xFFu

typedef struct vop {
  uint8_t kind, a, b;   /* operands: WM_NBR(j) or a virtual op index (< WM_MAX_OPS) */
  uint8_t level, natural_level, for_position;
  uint8_t users;        /* positions whose chain passes through this op */
} vop;

typedef struct program {
  vop op[WM_MAX_OPS];
  unsigned n;
  uint8_t cand[WM_MAX_K]; /* WM_NBR(j) or a virtual op index */
} program;

static int find_op(const program *pr, uint8_t kind, uint8_t a, uint8_t b) {
  for (unsigned o = 0; o < pr->n; o++)
    if (pr->op[o].kind == kind && pr->op[o].a == a && pr->op[o].b == b) return (int)o;
  return -1;
}

static unsigned first_bit(unsigned mask) {
  unsigned j = 0;
  while (!((mask >> j) & 1u)) j++;
  return j;
}

/* Appends position i's chain to the program; returns the op index or
 * WM_NBR operand that holds its candidates, or VIRT_NONE when full. */
static uint8_t build_chain(program *pr, unsigned i, unsigned back, unsigned nonadj, int code_motion) {
  unsigned p = first_bit(back);
  uint8_t cur = WM_NBR(p);
  unsigned cur_level = p;
  for (unsigned j = 0; j < i; j++) {
    int plus = (back >> j) & 1u, minus = (nonadj >> j) & 1u;
    if (j == p || (!plus && !minus)) continue;
    uint8_t kind = plus ? WM_OP_INTERSECT : WM_OP_SUBTRACT;
    unsigned level = cur_level > j ? cur_level : j;
    int o = code_motion ? find_op(pr, kind, cur, WM_NBR(j)) : -1;
    if (o < 0) {
      if (pr->n >= WM_MAX_OPS) return VIRT_NONE;
      o = (int)pr->n++;
      vop *v = &pr->op[o];
      v->kind = kind;
      v->a = cur;
      v->b = WM_NBR(j);
      v->level = (uint8_t)(code_motion ? level : i - 1);
      v->natural_level = (uint8_t)(i - 1);
      v->for_position = (uint8_t)i;
      v->users = 0;
    }
    pr->op[o].users |= (uint8_t)(1u << i);
    cur = (uint8_t)o;
    cur_level = level;
  }
  return cur;
}

/* Live range end of each op's slot, as an index in the sorted op list:
 * read only by ops of its own level -> the last such reader; read by a
 * deeper level or as a candidate set -> forever (the loops in between
 * re-read it on every iteration). */
static void live_ends(const wm_plan *plan, int end[WM_MAX_OPS]) {
  const int forever = WM_MAX_OPS + 1;
  for (unsigned o = 0; o < plan->n_ops; o++) end[o] = (int)o;
  for (unsigned r = 0; r < plan->n_ops; r++) {
    const wm_plan_op *op = &plan->ops[r];
    uint8_t src[2] = {op->a, op->b};
    for (int s = 0; s < 2; s++) {
      if (WM_IS_NBR(src[s])) continue;
      unsigned o = src[s];
      if (plan->ops[o].level < op->level)
        end[o] = forever;
      else if ((int)r > end[o] && end[o] != forever)
        end[o] = (int)r;
    }
  }
  for (unsigned i = 1; i < plan->k; i++)
    if (!WM_IS_NBR(plan->cand[i])) end[plan->cand[i]] = forever;
}

/* Greedy interval colouring in op order (optimal for intervals): a slot is
 * free once its previous holder's range has ended before this op. */
static int assign_slots(wm_plan *plan, wm_error *err) {
  int end[WM_MAX_OPS], slot_end[WM_MAX_SLOTS];
  uint8_t slot_of[WM_MAX_OPS];
  live_ends(plan, end);
  unsigned n_slots = 0;
  for (unsigned o = 0; o < plan->n_ops; o++) {
    unsigned s = 0;
    while (s < n_slots && slot_end[s] >= (int)o) s++;
    if (s == n_slots) {
      if (n_slots == WM_MAX_SLOTS)
        return wm_fail(err, WM_EINPUT, "pattern '%s': the plan needs more than %d set slots",
                       plan->pattern.name, WM_MAX_SLOTS);
      n_slots++;
    }
    slot_end[s] = end[o];
    slot_of[o] = (uint8_t)s;
  }
  /* Rewrite op-index operands as slots. */
  for (unsigned o = 0; o < plan->n_ops; o++) {
    wm_plan_op *op = &plan->ops[o];
    if (!WM_IS_NBR(op->a)) op->a = slot_of[op->a];
    if (!WM_IS_NBR(op->b)) op->b = slot_of[op->b];
  }
  for (unsigned o = 0; o < plan->n_ops; o++) plan->ops[o].dst = slot_of[o];
  for (unsigned i = 1; i < plan->k; i++)
    if (!WM_IS_NBR(plan->cand[i])) plan->cand[i] = slot_of[plan->cand[i]];
  plan->n_slots = n_slots;
  return WM_OK;
}

/* The op range: values every reading position excludes anyway, known at
 * the op's level. */
static void op_range(const vop *v, const uint8_t cl[WM_MAX_K], const uint8_t cu[WM_MAX_K],
                     unsigned k, uint8_t *lower, uint8_t *upper) {
  unsigned bound = (2u << v->level) - 1u, lo = bound, hi = bound;
  for (unsigned p = 0; p < k; p++)
    if ((v->users >> p) & 1u) lo &= cl[p], hi &= cu[p];
  /* v > v[j] > v[x] makes "> v[x]" redundant (and likewise below). */
  unsigned rlo = lo, rhi = hi;
  for (unsigned x = 0; x < k; x++) {
    if (((lo >> x) & 1u) && (cu[x] & lo)) rlo &= ~(1u << x);
    if (((hi >> x) & 1u) && (cl[x] & hi)) rhi &= ~(1u << x);
  }
  *lower = (uint8_t)rlo;
  *upper = (uint8_t)rhi;
}

/* Sorts the ops by level (stable, so an op still follows the ops it reads)
 * and stores them in the plan with operands as sorted indices. */
static void emit_sorted(const program *pr, wm_plan *plan, const uint8_t cl[WM_MAX_K],
                        const uint8_t cu[WM_MAX_K]) {
  uint8_t new_index[WM_MAX_OPS];
  unsigned n = 0;
  for (unsigned level = 0; level < plan->k; level++) {
    plan->op_begin[level] = (uint8_t)n;
    for (unsigned o = 0; o < pr->n; o++)
      if (pr->op[o].level == level) new_index[o] = (uint8_t)n++;
  }
  for (unsigned level = plan->k; level <= WM_MAX_K; level++) plan->op_begin[level] = (uint8_t)n;
  plan->n_ops = n;
  for (unsigned o = 0; o < pr->n; o++) {
    const vop *v = &pr->op[o];
    wm_plan_op *op = &plan->ops[new_index[o]];
    memset(op, 0, sizeof *op);
    op->kind = v->kind;
    op->level = v->level;
    op->natural_level = v->natural_level;
    op->for_position = v->for_position;
    op->a = WM_IS_NBR(v->a) ? v->a : new_index[v->a];
    op->b = WM_IS_NBR(v->b) ? v->b : new_index[v->b];
    op_range(v, cl, cu, plan->k, &op->lower, &op->upper);
  }
  for (unsigned i = 1; i < plan->k; i++)
    plan->cand[i] = WM_IS_NBR(pr->cand[i]) ? pr->cand[i] : new_index[pr->cand[i]];
  plan->cand[0] = 0;
}

int wm_program_build(wm_plan *plan, const uint8_t closure_lower[WM_MAX_K],
                     const uint8_t closure_upper[WM_MAX_K], int induced, int code_motion,
                     wm_error *err) {
  program pr;
  memset(&pr, 0, sizeof pr);
  const wm_pattern *p = &plan->pattern;
  for (unsigned i = 1; i < plan->k; i++) {
    unsigned back = 0, nonadj = 0;
    for (unsigned j = 0; j < i; j++) {
      if (wm_pattern_has_edge(p, plan->order[i], plan->order[j]))
        back |= 1u << j;
      else if (induced)
        nonadj |= 1u << j;
    }
    if (!back)
      return wm_fail(err, WM_EINPUT, "pattern '%s': position %u of the order has no earlier neighbour",
                     p->name, i);
    pr.cand[i] = build_chain(&pr, i, back, nonadj, code_motion);
    if (pr.cand[i] == VIRT_NONE)
      return wm_fail(err, WM_EINPUT, "pattern '%s': the plan needs more than %d set operations",
                     p->name, WM_MAX_OPS);
  }
  emit_sorted(&pr, plan, closure_lower, closure_upper);
  return assign_slots(plan, err);
}

int wm_plan_writer(const wm_plan *plan, uint8_t x, unsigned before) {
  for (int o = (int)before - 1; o >= 0; o--)
    if (plan->ops[o].dst == x) return o;
  return -1;
}
