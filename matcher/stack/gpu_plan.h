/* The plan as the GPU kernel reads it: the planner's plan with every op
 * writing its own slot (slot i = op i), so that a set stays addressable as
 * long as any deeper level or a thief that recomputes a stolen prefix may
 * read it, plus the op of the last level that is only ever counted (never
 * materialised).  Plain data, passed to the kernel by value.  Plain C: the
 * compilation is unit-tested on the CPU. */
#ifndef WM_GPU_PLAN_H
#define WM_GPU_PLAN_H

#include <stdint.h>

#include "planner.h"
#include "wm_error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WM_GPU_NO_BUF 0xFFu

typedef struct wm_gpu_op {
  uint8_t kind;         /* wm_op_kind */
  uint8_t level;        /* runs right after v[level] is bound */
  uint8_t a, b;         /* operands: op index (its slot) or WM_NBR(j) */
  uint8_t lower, upper; /* op range: result keeps c > v[j] (j in lower), c < v[j] (j in upper) */
  uint8_t buf;          /* buffer index, or WM_GPU_NO_BUF for the counted last op */
  uint8_t pad;
} wm_gpu_op;

typedef struct wm_gpu_plan {
  uint32_t k;
  uint32_t n_ops;
  uint32_t n_bufs;      /* materialised slots (every op but the fused one) */
  int32_t fused_op;     /* op whose only reader is position k-1: counted in place, or -1 */
  uint8_t cand[WM_MAX_K];     /* operand of position i's candidates (i >= 1) */
  uint8_t lower[WM_MAX_K];
  uint8_t upper[WM_MAX_K];
  uint8_t distinct[WM_MAX_K];
  uint8_t order[WM_MAX_K];    /* pattern vertex at each position */
  uint8_t op_begin[WM_MAX_K + 1];
  int32_t label[WM_MAX_K];
  uint32_t labeled;           /* some position has a label */
  uint32_t weigh;             /* bit p: the work right after binding position p reads
                                 N(v[p]), so unrolled groups there are sized by degree */
  uint32_t single;            /* bit p: position p (1 <= p <= k-3) takes groups of one: no op
                                 runs at its level, so a group has nothing to share and
                                 only keeps its members' subtrees from thieves */
  uint32_t pairs;             /* wm_pair_mode: position k-1's count for each member of
                                 k-2's group becomes its pairs (wm_gpu_plan_fold_pairs);
                                 WM_PAIRS_PRODUCT: the folded position, k, is counted
                                 from cand[k], lower[k], upper[k], distinct[k] */
  uint32_t product_subset;    /* wm_plan_product_within: read under WM_PAIRS_PRODUCT, when
                                 (folded) cand[k-1] lies within cand[k], so a candidate of
                                 k-1 is one of k's when in k's range */
  wm_gpu_op ops[WM_MAX_OPS];
} wm_gpu_plan;

/* k when the plan counts k-cliques, k = 3..WM_CLQ_KMAX, as subgraphs
 * without labels (either semantics: a clique's edge- and vertex-induced
 * matches are the same), the shape the dedicated triangle and clique
 * kernels run (gpu_dag.h); else 0. */
unsigned wm_gpu_plan_clique_k(const wm_plan *plan);

/* Whether the plan counts diamonds (4 vertices, 5 edges) as subgraphs
 * without labels, in either semantics: the dedicated diamond kernel's
 * shape (vertex-induced: less six per 4-clique). */
int wm_gpu_plan_is_diamond(const wm_plan *plan);

/* Whether position k-1 (k >= 3) is counted with no set op at level k-2,
 * fused or not, and no label: a member of k-2's group then counts as a
 * range size less the distinct vertices in it, one lane's work
 * (wm_gpu_policy_fit_plan; a hub-sized, virtual candidate set still scans). */
int wm_gpu_plan_lane_count(const wm_gpu_plan *P);

/* The operand of op (0: a, 1: b) that is the neighbour list of a position
 * below op's level: one row for every member of that level's unrolled
 * group, which the stack kernel keeps in its warp's probe table and probes
 * instead of binary-searching (gpu_set_ops.cuh); -1 when there is none.  A
 * difference can only table its b, the side it removes.  Nor when the op's
 * range moves with the member (the cliques' "below v1"): each member then
 * reads a short stretch of the row, less than filling the table costs. */
WM_HD_INLINE int wm_gpu_op_table_side(const wm_gpu_op *op) {
  if ((op->lower | op->upper) >> op->level) return -1;
  if (WM_IS_NBR(op->b) && WM_NBR_POS(op->b) < op->level) return 1;
  if (op->kind == WM_OP_INTERSECT && WM_IS_NBR(op->a) && WM_NBR_POS(op->a) < op->level) return 0;
  return -1;
}

/* A member's side is probed in the table when it is at most this many
 * times the row's length (else the shorter side is searched in the other,
 * as without a table); a difference's always is. */
#ifndef WM_GPU_TABLE_RATIO
#define WM_GPU_TABLE_RATIO 4u
#endif

/* The table side of the op fused into the last level's count, the one op
 * the stack kernel probes a table for (gpu_set_ops.cuh says why); -1 when
 * there is none, and the kernel gets no table. */
int wm_gpu_plan_table_side(const wm_gpu_plan *P);

/* Validates plan and renames its slots (WM_EINPUT naming the flaw). */
int wm_gpu_plan_compile(const wm_plan *plan, wm_gpu_plan *out, wm_error *err);

/* For plain counts of a plan with pair_count (planner.h): drops its last
 * position, whose pairs with the new last one are then counted from that
 * one's count, n(n-1)/2 or n(n-1), or as the product with the dropped
 * position's count, without iterating either. */
void wm_gpu_plan_fold_pairs(wm_gpu_plan *P, unsigned pair_count);

#ifdef __cplusplus
}
#endif
#endif
