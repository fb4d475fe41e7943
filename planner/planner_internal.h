/* Pieces shared by the planner's files (not part of the public contract). */
#ifndef WM_PLANNER_INTERNAL_H
#define WM_PLANNER_INTERNAL_H

#include <math.h>

#include "planner.h"
#include "base.h"

/* Everything about a plan that depends on the matching order: position
 * masks, symmetry restrictions (when `symmetry`; taken with the orbit
 * representatives in matching order so that they bind early; from `aut`,
 * the pattern's group listed, or searched where it is NULL) and the
 * set-operation program.  plan->order and plan->pattern must be set. */
int wm_plan_fill_order(wm_plan *plan, int symmetry, const wm_automorphisms *aut, int induced, int code_motion,
                       int first_edge_up, wm_error *err);

/* Builds the op program (ops, op_begin, cand, n_ops, n_slots) for the order
 * and position masks already in plan; closure[i] = positions j with
 * v[j] < v[i] implied by the restrictions (transitively). */
int wm_program_build(wm_plan *plan, const uint8_t closure_lower[WM_MAX_K],
                     const uint8_t closure_upper[WM_MAX_K], int induced, int code_motion,
                     wm_error *err);

/* Estimated work of a plan on a graph like gs (arbitrary units: list
 * elements touched), its last levels counted as the plan says
 * (count_only, pair_count). */
double wm_plan_estimate_cost(const wm_plan *plan, const wm_graph_summary *gs);

/* The elements one set operation reads: a merge walks both sets, a
 * gallop searches the larger for each of the smaller's where it is over
 * 16 times larger.  The cost models (expected sizes) and the probes (real
 * sizes) count work alike. */
static inline double wm_op_work(double a, double b) {
  const double lo = a < b ? a : b, hi = a < b ? b : a;
  return hi > 16.0 * lo ? lo * log2(hi + 2.0) + 1.0 : a + b + 1.0;
}

/* The CPU executor's costs beside the elements its set operations read,
 * in the same units: a visit of a position (a candidate bound: its checks,
 * its level's ops' bookkeeping and its own loop) WM_CPU_VISIT_UNITS for
 * each candidate and the visit, and an element a count's searches read
 * WM_CPU_COUNT_UNITS.  Fitted on the small corpus's timed orders (every
 * order of its cells timed whole on the 2-core development machine,
 * scripts/bench-planner.sh --device cpu): the weights that rank each
 * cell's orders best lie on a plateau, visits 20 to 80 and counts 1.5 to
 * 3 (least squares on one half of the graphs: 54 and 2.0, on the other
 * 42 and 1.7); the elements alone put the probes' least-work order within
 * 1.25x of the fastest in 104 of 114 cells, these weights with the lazy
 * ops charged where they run (order_sample.c) 111.  On the GPU, whose
 * warps share a level's candidates, both stay one unit. */
#define WM_CPU_VISIT_UNITS 40.0
#define WM_CPU_COUNT_UNITS 2.0
static inline double wm_visit_units(const wm_plan *plan) {
  return plan->flags & WM_PLAN_GPU ? 1.0 : WM_CPU_VISIT_UNITS;
}
static inline double wm_count_units(const wm_plan *plan) {
  return plan->flags & WM_PLAN_GPU ? 1.0 : WM_CPU_COUNT_UNITS;
}

/* Binary searches a count of position p's set makes: its two bounds and
 * the earlier vertices it excludes. */
static inline double wm_count_searches(const wm_plan *plan, unsigned p) {
  return (double)(__builtin_popcount(plan->distinct[p]) + 2 * ((plan->lower[p] | plan->upper[p]) != 0));
}

/* The elements the searches of position p's set read, where it holds n:
 * log2(n + 1) each (none where the set is empty). */
static inline double wm_search_work(const wm_plan *plan, unsigned p, double n) {
  return wm_count_searches(plan, p) * log2(n + 1.0);
}

/* The work of visiting a position once to count its n candidates from
 * their set's size: the visit (a unit, what a visit that iterates them
 * pays beside the n) and the set's searches; no walk. */
static inline double wm_count_work(const wm_plan *plan, unsigned p, double n) {
  return 1.0 + wm_search_work(plan, p, n);
}

/* The work of visiting position k-2 once to count the last two positions
 * as pairs (plan->pair_count), with na accepted candidates of k-2 and a
 * set of nb for k-1: k-2's set is counted; a product, where that count is
 * not 0 (a share na of the time, where na < 1 is a mean), also counts
 * k-1's and looks each of k-2's candidates up in it, unless k-2's set lies
 * within k-1's (`within`, wm_plan_product_within): two searches of k-2's
 * set for k-1's range then find the shared ones.  Nothing is iterated and
 * k-1 is never visited: the level the pair folds away. */
static inline double wm_pair_work(const wm_plan *plan, int within, double na, double nb) {
  const unsigned a = plan->k - 2, b = plan->k - 1;
  double w = wm_count_work(plan, a, na);
  if (plan->pair_count == WM_PAIRS_PRODUCT) {
    const double find = within ? 2.0 * log2(na + 1.0) : na * log2(nb + 1.0);
    w += (na < 1.0 ? na : 1.0) * (wm_search_work(plan, b, nb) + find);
  }
  return w;
}

/* Measuring orders on the graph (order_sample.c): the plans as they will
 * run (code motion, the GPU's first-edge bound, pair counting), probes
 * random paths from a fixed seed. */
typedef struct wm_order_sampling {
  const wm_graph *graph;
  unsigned probes;
  uint64_t seed;
  int code_motion, first_edge_up, pair_count;
  /* The model's order stays unless another measured order does at most
   * 1/margin of its work (sampled: 1). */
  double margin;
  /* share > 0 (auto): the orders measured, and their probes, are what
   * share of the count's predicted time pays for, the probes' reads
   * weighed at read_cost count work units each; at most max_orders.
   * share 0 (sampled): every shortlisted order, in full. */
  double share, read_cost;
  unsigned max_orders;
  int threads; /* measuring orders at once (0: OpenMP's default) */
  /* with a share: the model in doubt (wm_plan_options' sample_doubt; 0:
   * never), the reads then allowed, and the margin then */
  double doubt, doubt_reads, doubt_margin;
  /* Work units an op costs per level of a binary search of its larger set
   * (wm_plan_options.sample_op_latency; 0: none). */
  double op_latency;
  /* z > 0: a measured order wins only where its work is also z standard
   * errors of the probes' estimates below the other's
   * (wm_plan_options.sample_confidence; 0: the margin alone). */
  double confidence;
} wm_order_sampling;

/* Probes per order and elements read per order, the most a measurement
 * takes (huge graphs plan in bounded time), and the fewest probes an
 * order is measured with. */
#define WM_SAMPLE_MAX_READS 4e7
#define WM_SAMPLE_MIN_PROBES 256u
/* auto: the fewest probes an order is measured with, an eighth of
 * sampled's: with roots drawn by degree, 512 probes already set apart
 * orders whose work differs by the margin of 2 (a p13 order of 5e9 units
 * measured 1.6e9-2.2e9 there, another of 1.4e8 1.1e8); fewer orders are
 * measured rather than each on fewer probes. */
#define WM_SAMPLE_AFFORD_PROBES 512u

/* Searches every connected matching order (one per class of orders
 * equivalent under `aut`, which may be NULL) and keeps the cheapest (ties:
 * more back-edges earlier, then lexicographically smaller order); with
 * `sampling`, the cheapest few of the model at the graph's triangle
 * density, at two higher ones and without pair terms (and their
 * near-ties) are measured on the graph and the least
 * work wins, within the sampling's margin (plan->sampled_cost,
 * plan->sampled_orders).  `cands` (may be NULL) gets the shortlisted
 * orders, with their measured work where they were measured.  Each order
 * is scored as it will run: with its last two positions counted as pairs
 * where pair_count is set and the order allows it (wm_plan_pair_mode). */
int wm_choose_order(wm_plan *plan, const wm_automorphisms *aut, int symmetry,
                    const wm_graph_summary *gs, int induced, int code_motion, int pair_count,
                    const wm_order_sampling *sampling, wm_plan_candidates *cands, wm_error *err);

/* Knuth's estimate of a plan's work on g (set elements touched and
 * candidates iterated), the mean of `probes` random root-to-leaf paths;
 * maxdeg, g's largest degree, sizes the probes' sets. */
double wm_plan_sampled_cost(const wm_plan *plan, const wm_graph *g, uint64_t maxdeg, unsigned probes, uint64_t seed);
/* The same, stopping once max_reads elements are read (after at least
 * WM_SAMPLE_MIN_PROBES probes, or `probes` where fewer); *reads (may be
 * NULL) gets the elements read; each set op also costs op_latency units
 * per level of a binary search of its larger set (the GPU's: the
 * sampling's op_latency).  HUGE_VAL where the probes' memory cannot be
 * had. */
double wm_plan_sampled_cost_within(const wm_plan *plan, const wm_graph *g, uint64_t maxdeg, unsigned probes,
                                   uint64_t seed, double max_reads, double op_latency, double *reads);

/* An order's probes are dealt to WM_SAMPLE_STREAMS streams, each with its
 * own generator (seeded from the order's seed and its index), 1/streams
 * of the probes, of the fewest probes and of the reads allowed, so that
 * one order's measure runs on as many cores, and a constant (not the
 * thread count) so that every machine measures the same: the estimate is
 * the streams' work summed in their order over their probes.  A stream's
 * sums: */
#define WM_SAMPLE_STREAMS 16u
typedef struct wm_probe_sum {
  double work;     /* the probes' estimates, summed */
  double work_sq;  /* their squares, summed (the estimate's spread) */
  double reads;    /* the elements they read */
  double ops;      /* their estimates of the set operations run, summed */
  unsigned probes; /* probes taken */
} wm_probe_sum;
/* The probes' estimate of the set operations a run of the plan makes (the
 * CPU executor's set_ops, for a CPU plan), by `probes` probes from seed:
 * what tests set beside a count's set_ops. */
double wm_plan_sampled_ops(const wm_plan *plan, const wm_graph *g, uint64_t maxdeg, unsigned probes, uint64_t seed);
/* Stream `stream` of wm_plan_sampled_cost_within's probes into *sum;
 * WM_EINPUT where its sets' memory cannot be had.  Streams share nothing:
 * any may run on any thread. */
int wm_plan_probe_stream(const wm_plan *plan, const wm_graph *g, uint64_t maxdeg, unsigned probes, uint64_t seed,
                         unsigned stream, double max_reads, double op_latency, wm_probe_sum *sum);
/* The estimate of an order's streams (0 without a probe); *reads (may be
 * NULL) gets their reads, *rse (may be NULL) the estimate's relative
 * standard error (HUGE_VAL with fewer than two probes or no work). */
double wm_probe_estimate(const wm_probe_sum streams[WM_SAMPLE_STREAMS], double *reads, double *rse);

#endif
