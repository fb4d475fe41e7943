/* planner: turns a pattern into a plan, the nested loops that both executors
 * (matcher/cpu/cpu_executor.c and the GPU kernel) run unchanged.
 *
 * Execution model of a plan (both executors follow it exactly):
 *   positions 0..k-1; position i matches pattern vertex order[i];
 *   v[0] ranges over all data vertices (or the seed list);
 *   after v[L] is bound (L = 0..k-2) the ops with level == L run in order,
 *   each writing one set slot; then v[L+1] ranges over the set named by
 *   cand[L+1], keeping a candidate c only when
 *     c > v[j] for every j in lower[L+1]   (symmetry restrictions)
 *     c < v[j] for every j in upper[L+1]
 *     c != v[j] for every j in distinct[L+1] (earlier, non-adjacent positions)
 *     label(c) == label[L+1] when label[L+1] != WM_ANY_LABEL.
 *   Sets are sorted ascending, so the restrictions are a range [lo, hi).
 *   At the last level, when plan->count_only, only the number of such
 *   candidates is needed (no set is materialised for it if avoidable).
 *
 * An operand is either a slot (0..WM_MAX_SLOTS-1) or the neighbour list of
 * an earlier position j, written WM_NBR(j).  The plan is plain arrays, no
 * pointers, so it is copied to the GPU as it is.
 *
 * How the program is built (planner/code_motion.c), and what executors may
 * rely on:
 *   - position i's candidate set is the chain over its earlier positions j in
 *     ascending order: start from N(v[p]) (p = first back-neighbour), then
 *     intersect N(v[j]) for each other back-neighbour and, when induced,
 *     subtract N(v[j]) for each earlier non-neighbour.  A chain of one term
 *     is cand[i] = WM_NBR(p) (no op, no copy).
 *   - with code motion an op runs at the level of its latest operand and
 *     identical prefixes share one op and slot; without it every op of
 *     position i runs at level i-1 (natural_level) in a slot of its own.
 *   - dst is never one of the op's own operands, and a slot is not
 *     rewritten while a later reader (op or candidate loop) still needs it,
 *     so executors keep one buffer per slot and never copy.
 *   - an op's result holds at most min(|a|,|b|) (intersect) or |a|
 *     (subtract) elements: size slot buffers from the operands.
 *   - op range (optional to use): the result of an op may be trimmed to the
 *     values c with c > v[j] for j in op.lower and c < v[j] for j in
 *     op.upper (all those j <= op.level); every position that reads it keeps
 *     only such candidates anyway.  Executors that ignore it get the same
 *     counts, with more work.
 *   - count-only last level: when count_only and the last op of level k-2
 *     (index op_begin[k-1]-1) writes cand[k-1], an executor that only counts
 *     may compute |a op b| within position k-1's range (minus the excluded
 *     distinct vertices) instead of materialising it.  Ops of level k-2 are
 *     only ever read by position k-1.
 *   - set_ops (wm_match_result) counts the ops executed, a count-only op
 *     included; iterating a candidate set is not an op.  Running an op of
 *     level L later than planned (on first use by a deeper level, for the
 *     same v[0..L]) gives the same sets; the CPU executor does so for
 *     hoisted ops (matcher/cpu/cpu_schedule.h), so code motion never costs it
 *     more ops than the same plan without.
 *   - symmetry restrictions point downwards: of the pair "pattern vertex a
 *     before b" the later position gets the smaller id (v[later] < v[earlier]).
 *     On a graph numbered by descending degree (what the commands match on)
 *     the later positions are then the higher-degree vertices and a bounded
 *     neighbour list keeps only the few neighbours of higher degree. */
#ifndef WM_PLANNER_H
#define WM_PLANNER_H

#include <stdint.h>
#include <stdio.h>

#include "datasets.h"
#include "patterns.h"
#include "wm_error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WM_MAX_SLOTS 32
#define WM_MAX_OPS 64
#define WM_NBR(j) ((uint8_t)(0x80u | (j))) /* operand: N(v[j]) */
#define WM_IS_NBR(x) (((x)&0x80u) != 0)
#define WM_NBR_POS(x) ((x)&0x7Fu)

enum wm_op_kind {
  WM_OP_INTERSECT = 1, /* dst = a ∩ b */
  WM_OP_SUBTRACT = 2,  /* dst = a \ b */
};

typedef struct wm_plan_op {
  uint8_t kind;          /* wm_op_kind */
  uint8_t level;         /* runs right after v[level] is bound */
  uint8_t natural_level; /* where it would run without code motion (for the dump) */
  uint8_t dst;           /* slot written */
  uint8_t a, b;          /* operands: slot or WM_NBR(j) */
  uint8_t for_position;  /* first position whose candidate set needs it */
  uint8_t lower;         /* op range (optional): result may keep only c > v[j], j in lower */
  uint8_t upper;         /* ... and c < v[j], j in upper; both masks hold positions <= level */
} wm_plan_op;

/* Pair counting, the two-vertex case of GraphPi's inclusion-exclusion
 * counting: when the last two positions draw from the same set with
 * nothing computed between them, the same range (apart from the bound of
 * one by the other) and the same distinct and label filters, an executor
 * that only counts may stop at position k-2: with n its candidates, there
 * are n(n-1)/2 pairs (one bounded by the other) or n(n-1) (unbounded,
 * embeddings).  No set is iterated for them.  plan_build sets it only on
 * count-only plans; an executor that needs the matches themselves, or
 * filters candidates beyond the plan (a ball, per-vertex counts), runs the
 * two positions as usual. */
enum wm_pair_mode {
  WM_PAIRS_NONE = 0,
  WM_PAIRS_UNORDERED = 1, /* n(n-1)/2: v[k-1] bounded by v[k-2] */
  WM_PAIRS_ORDERED = 2,   /* n(n-1) */
  WM_PAIRS_PRODUCT = 3,   /* independent sets: n*m less the shared candidates (below) */
};

/* The product, the two-set case of the same counting: when position k-1's
 * candidates do not depend on v[k-2] (nothing computed at level k-2, no
 * bound between the two, k-1 not drawn from N(v[k-2])), then for one
 * binding of v[0..k-3], with A the accepted candidates of k-2 and B those
 * of k-1 before "!= v[k-2]",
 *     pairs = sum over x in A of (|B| - [x in B]) = |A| * |B| - |A & B|,
 * where x in B needs only B's operand and range: x already differs from
 * every earlier vertex that B excludes (wm_plan_pair_mode checks that a's
 * candidates exclude them too).  Executors iterate A once, each member
 * costing a membership test in B, instead of a level of their own. */

enum wm_plan_flags {
  WM_PLAN_INDUCED = 1u << 0,     /* vertex-induced semantics */
  WM_PLAN_EMBEDDINGS = 1u << 1,  /* no symmetry breaking: count embeddings */
  WM_PLAN_CODE_MOTION = 1u << 2, /* sets hoisted to their outermost level */
  WM_PLAN_LABELED = 1u << 3,
  WM_PLAN_GPU = 1u << 4,         /* planned for the GPU (wm_plan_options.first_edge_up): what its cost
                                    model scores differently (matching_order.c, bound_shares) */
};

typedef struct wm_plan {
  uint32_t k;
  uint32_t flags;                /* wm_plan_flags */
  uint32_t count_only;           /* last level only counts */
  uint32_t n_ops;
  uint32_t n_slots;
  uint8_t order[WM_MAX_K];       /* pattern vertex at each position */
  uint8_t cand[WM_MAX_K];        /* operand holding position i's candidates (i >= 1) */
  uint8_t lower[WM_MAX_K];       /* bitmask of earlier positions j: v[i] > v[j] */
  uint8_t upper[WM_MAX_K];       /* bitmask of earlier positions j: v[i] < v[j] */
  uint8_t distinct[WM_MAX_K];    /* bitmask of earlier positions j: v[i] != v[j] */
  uint8_t op_begin[WM_MAX_K + 1];/* ops of level L: [op_begin[L], op_begin[L+1]) */
  int32_t label[WM_MAX_K];       /* required label per position or WM_ANY_LABEL */
  wm_plan_op ops[WM_MAX_OPS];    /* sorted by level */
  uint32_t pair_count;           /* wm_pair_mode: the last two positions counted as pairs */
  uint32_t automorphisms;        /* |Aut(pattern)|, embeddings = count * this */
  double est_cost;               /* cost model's estimate (set operations' work) */
  double sampled_cost;           /* the order's work measured on the graph (wm_plan_options
                                    sample_graph), or 0 when the model alone chose it */
  uint32_t sampled_orders;       /* how many orders were measured (0: none) */
  double sampled_reads;          /* list elements the probes read, all orders measured (0: none) */
  uint64_t pattern_hash;         /* canonical hash of the pattern */
  wm_pattern pattern;            /* the pattern planned, for dumps and listing */
} wm_plan;

/* Statistics the cost model reads; wm_graph_summary_compute fills them from
 * a graph (sampled where exact would be costly). */
typedef struct wm_graph_summary {
  uint64_t n, m;                 /* vertices, arcs */
  double mean_degree;
  double mean_sq_degree;         /* E[d^2], for wedge counts */
  uint64_t max_degree;
  double triangle_density;       /* P(u~w | u~v~w), sampled */
  double moment[WM_MAX_K + 2];   /* E[d^j], j = 0..WM_MAX_K+1 (0: not known, see the model) */
  int mean_sizes;                /* score orders by mean sizes alone, blind to hubs: the model before
                                    the moments, which tests use to reach the probes' corrections
                                    (set by WM_TEST_MEAN_SIZES=1) */
  int known;                     /* 0: defaults for a typical social graph */
  int by_degree;                 /* 1: ids follow descending degree (the graph the commands match on) */
} wm_graph_summary;

void wm_graph_summary_default(wm_graph_summary *s);
void wm_graph_summary_compute(const wm_graph *g, wm_graph_summary *s);

/* The orders a plan was chosen among (wm_plan_options.candidates), for
 * judging the planner (scripts/bench-planner.sh runs each with a forced
 * order): the distinct orders of the model's shortlists, the model's own
 * choice among them, each with the model's estimate and, where they were
 * measured on the graph, the probes' work.  Cheapest by the model first. */
#define WM_PLAN_MAX_CANDIDATES 25 /* 4 shortlists of 6 and the model's choice, or near-ties */
typedef struct wm_plan_candidate {
  uint8_t order[WM_MAX_K];
  double model_cost;   /* the cost model's estimate at the graph's statistics, as orders are
                          ranked (the hoisted program, the CPU's first-edge bound) */
  int sampled;         /* 1: measured on the graph */
  double sampled_cost; /* then the probes' work (a glimpse's, where only that was measured;
                          HUGE_VAL where the order could not be planned) */
  unsigned pick;       /* its place in the shortlists' round (0: the model's choice, then each
                          model's near-ties best first): the order the probes took them in */
  double tie;          /* the least ratio of its estimate to a shortlist's best, among the
                          shortlists that hold it (1: a model's best) */
} wm_plan_candidate;

typedef struct wm_plan_candidates {
  uint32_t orders_scored; /* connected orders the model scored (one per class of orders
                             equivalent under the pattern's automorphisms) */
  uint32_t n;
  wm_plan_candidate c[WM_PLAN_MAX_CANDIDATES];
} wm_plan_candidates;

typedef struct wm_plan_options {
  int induced;      /* vertex-induced (default: edge-induced) */
  int embeddings;   /* count embeddings, no symmetry breaking */
  int code_motion;  /* default 1 */
  int count_only;   /* default 1; 0 when matches are listed */
  int pair_count;   /* default 1: count the last two positions as pairs where they allow it */
  int first_edge_up; /* default 0; 1 (the GPU's plans): interchangeable positions 0 and 1 are
                        bounded v1 > v0, not v1 < v0 (wm_plan_fill_order).  The same count,
                        unless v[0] alone is restricted (wm_match_options.first) */
  const uint8_t *forced_order; /* NULL, or a matching order to use as is */
  int measure_forced;          /* with forced_order and sample_graph: the order measured by the
                                  probes as sampled measures each order (sampled_cost) */
  const wm_graph *sample_graph; /* NULL (default): the cost model alone picks the order; else
                                   the model's best few are measured on this graph (numbered
                                   as matched) by random probes, and the least work wins
                                   (within sample_margin) */
  unsigned sample_probes;       /* probes per order (default 4096) */
  double sample_margin;         /* another order than the model's wins only at 1/margin of its
                                   work or less (default 0: 1, the least work wins) */
  double sample_share;          /* 0 (default): every shortlisted order is measured in full; else
                                   (auto) a glimpse of the model's order predicts the count's work
                                   and the probes may cost at most this share of it: as many orders
                                   (up to sample_max_orders) and probes as that pays for, nothing
                                   else where fewer than two orders fit (matching_order.c) */
  double sample_read_cost;      /* with a share: the time of one element a probe reads, in the
                                   count's work units (what the executor does per unit of the
                                   plan's work; default 1) */
  unsigned sample_max_orders;   /* with a share: at most this many orders measured (0: no bound) */
  int sample_threads;           /* orders measured at once (default 0: all cores) */
  double sample_doubt;          /* with a share: where the glimpse finds this many times the work
                                   the model gave its order (default 0: never) and the share pays
                                   for no measuring, the model is in doubt: the other shortlisted
                                   orders are glimpsed too and measured in the order of their
                                   glimpses, the probes may read sample_doubt_reads elements (at
                                   most what the count's whole predicted work pays for), and
                                   another order wins at sample_doubt_margin (where less than
                                   sample_margin) */
  double sample_doubt_reads;
  double sample_doubt_margin;
  double sample_op_latency;     /* the probes' work of a set op also counts this many units per
                                   level of a binary search of its larger set (default 0; the
                                   GPU's policy sets it: there an op's searches are chains of
                                   dependent loads, and many small ops cost their latency) */
  double sample_confidence;     /* z > 0: a measured order overrules another only where the ratio
                                   of their works is also z standard errors of the probes'
                                   estimates past 1 (default 0: the margin alone) */
  wm_plan_candidates *candidates; /* NULL (default), or filled with the orders weighed (n = 0
                                     with a forced_order: none was) */
} wm_plan_options;

void wm_plan_options_init(wm_plan_options *o);

int wm_plan_build(const wm_pattern *p, const wm_graph_summary *gs, const wm_plan_options *o,
                  wm_plan *out, wm_error *err);

/* The wm_pair_mode a count-only plan's last two positions allow (whatever
 * plan->pair_count says). */
unsigned wm_plan_pair_mode(const wm_plan *plan);

/* Whether position k-2's candidate set lies within position k-1's (k-2's
 * is an intersection with k-1's, or a difference from it, an op's range
 * only narrowing): under WM_PAIRS_PRODUCT, a candidate of k-2 in k-1's
 * range is then one of k-1's, with no search. */
int wm_plan_product_within(const wm_plan *plan);

/* The op that last wrote slot x before op index `before` (the one a reader
 * at that point sees), or -1. */
int wm_plan_writer(const wm_plan *plan, uint8_t x, unsigned before);

/* Small functions that both the host and the GPU kernels call. */
#ifdef __CUDACC__
#define WM_HD_INLINE __host__ __device__ static inline
#else
#define WM_HD_INLINE static inline
#endif
/* n(n-1)/2 or n(n-1) for mode, n otherwise (the count of a plain last
 * position); the GPU kernel applies the same formula per group member.
 * Not for WM_PAIRS_PRODUCT, whose count needs the two sets. */
WM_HD_INLINE uint64_t wm_pairs_of(unsigned mode, uint64_t n) {
  if (mode == WM_PAIRS_NONE) return n;
  uint64_t pairs = n ? n * (n - 1) : 0;
  return mode == WM_PAIRS_UNORDERED ? pairs / 2 : pairs;
}

/* Readable nested loops: order, restrictions, each set op at its level,
 * hoisted ops marked with the level they came from, estimated cost. */
void wm_plan_dump_text(const wm_plan *plan, FILE *f);
struct wm_json;
void wm_plan_dump_json(const wm_plan *plan, struct wm_json *j); /* as members of the open object */
/* The statistics a plan was made from: one "graph statistics: ..." line
 * (the defaults are named as `plan` without --graph), and as the member
 * "graph_summary" of the open JSON object. */
/* The orders weighed, as the members "orders_scored" and "candidate_orders"
 * (each: "order", "model_cost", "sampled_cost" where measured, "chosen":
 * the plan's order) of the open JSON object; nothing when c->n is 0. */
void wm_plan_candidates_dump_json(const wm_plan_candidates *c, const wm_plan *plan, struct wm_json *j);
void wm_graph_summary_dump_text(const wm_graph_summary *gs, FILE *f);
void wm_graph_summary_dump_json(const wm_graph_summary *gs, struct wm_json *j);

#ifdef __cplusplus
}
#endif
#endif
