/* Timed slices (api/slices.c, wm_engine_slice_policy/_roots): the slice
 * is the same vertices every time and the rest of level 0 its complement;
 * the policy times orders only where 5% of the count's predicted time
 * pays for slices of at least WM_SLICE_MIN_SECONDS; a count by slices
 * equals the count without them (the test hook's start once); on a hub
 * graph where the model's order of p13 is far slower, the order counted
 * with is not it, and it is the fastest of those timed; with trials the
 * trials count the order the slices chose. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "datasets.h"
#include "engine.h"
#include "json_check.h"
#include "matcher.h"
#include "testutil.h"
#include "warpmatch.h"

/* The slice's parts: the head 0..every-1 (the largest hub first), the
 * tail v >= every with v % every == 0 (one vertex in each later run of
 * every), the rest the others, each ascending, together every vertex once;
 * the same again. */
Test(planner_slices, slice_roots_partition_and_repeat) {
  wm_graph *raw = wm_test_powerlaw(300, 8, 8, 0.6, 7), *g = wm_test_by_degree(raw);
  const uint32_t every = 7;
  uint32_t *part[3], *again;
  uint64_t n[3], n_again;
  wm_error err;
  for (int p = 0; p < 3; p++)
    cr_assert_eq(wm_engine_slice_roots(g, every, p, &part[p], &n[p], &err), WM_OK, "%s", err.msg);
  cr_assert_eq(wm_engine_slice_roots(g, every, WM_SLICE_TAIL, &again, &n_again, &err), WM_OK, "%s", err.msg);
  cr_assert_eq(n[WM_SLICE_TAIL], n_again);
  cr_assert(!memcmp(part[WM_SLICE_TAIL], again, n_again * sizeof *again), "two slices differ");
  cr_assert_eq(n[WM_SLICE_HEAD], every);
  cr_assert_eq(n[WM_SLICE_TAIL], (g->n + every - 1) / every - 1);
  cr_assert_eq(n[0] + n[1] + n[2], g->n);
  cr_assert_eq(part[WM_SLICE_HEAD][0], 0u, "the largest hub is not in the head");
  const uint32_t *tail = part[WM_SLICE_TAIL];
  cr_assert_geq(tail[n[WM_SLICE_TAIL] - 1] + every, g->n, "the tail's last run is not in the slice");
  uint8_t *seen = calloc(g->n, 1);
  for (int p = 0; p < 3; p++)
    for (uint64_t i = 0; i < n[p]; i++) {
      const uint32_t v = part[p][i];
      cr_assert(i == 0 || part[p][i - 1] < v, "part %d not ascending", p);
      cr_assert_eq(p == WM_SLICE_HEAD ? v < every : p == WM_SLICE_TAIL ? v >= every && v % every == 0
                                                                       : v >= every && v % every != 0,
                   1, "vertex %u in part %d", v, p);
      seen[v]++;
    }
  for (uint32_t v = 0; v < g->n; v++) cr_assert_eq(seen[v], 1, "vertex %u in %u of the parts", v, seen[v]);
  free(seen), free(again);
  for (int p = 0; p < 3; p++) free(part[p]);
  wm_graph_destroy(raw), wm_graph_destroy(g);
}

/* A count of roots under a sample of their level-1 arcs (the slices'
 * head): the sample and its complement (cpu_level1_rest) add up to the
 * roots' count, hub tasks or not, edge- or vertex-induced; where a plan
 * iterates position 1 the sample is a proper part, and where it counts
 * position 1 (3-path's pairs) the sample takes all and the complement
 * none, as wm_match_cpu_level1_every says. */
Test(planner_slices, level1_sample_and_rest_partition, .timeout = 120) {
  wm_graph *raw = wm_test_powerlaw(400, 6, 4, 0.5, 3), *g = wm_test_by_degree(raw);
  wm_graph_summary gs;
  wm_graph_summary_compute(g, &gs);
  const uint32_t every = 7, head[] = {0, 1, 2, 3, 4, 5, 6};
  const char *names[] = {"3-path", "triangle", "4-star", "4-cycle", "house", "bowtie"};
  unsigned pairs_at_1 = 0, sampled = 0;
  for (unsigned i = 0; i < sizeof names / sizeof *names + 1; i++)
    for (int induced = 0; induced < 2; induced++)
      for (int hubs = 0; hubs < 2; hubs++) {
        wm_pattern p;
        wm_error err;
        if (i < sizeof names / sizeof *names)
          cr_assert_eq(wm_pattern_from_name(names[i], &p, &err), WM_OK, "%s", err.msg);
        else
          p = wm_test_stmatch_pattern(1);
        wm_plan_options po;
        wm_plan_options_init(&po);
        po.induced = induced;
        wm_plan plan;
        cr_assert_eq(wm_plan_build(&p, &gs, &po, &plan, &err), WM_OK, "%s", err.msg);
        wm_match_options o;
        wm_match_options_init(&o);
        o.first = head, o.n_first = every, o.threads = 2, o.cpu_hub_degree = hubs ? 8 : 0;
        wm_match_result whole, sample, rest;
        cr_assert_eq(wm_match_cpu(g, &plan, &o, &whole, &err), WM_OK, "%s", err.msg);
        o.cpu_level1_every = every;
        const uint32_t stride = wm_match_cpu_level1_every(&plan, &o);
        cr_assert_eq(wm_match_cpu(g, &plan, &o, &sample, &err), WM_OK, "%s", err.msg);
        o.cpu_level1_rest = 1;
        cr_assert_eq(wm_match_cpu(g, &plan, &o, &rest, &err), WM_OK, "%s", err.msg);
        const char *what = i < sizeof names / sizeof *names ? names[i] : "p1";
        cr_assert(sample.count + rest.count == whole.count, "%s induced %d hubs %d: %llu + %llu != %llu", what,
                  induced, hubs, (unsigned long long)sample.count, (unsigned long long)rest.count,
                  (unsigned long long)whole.count);
        const int counted = plan.k == 2 || (plan.k == 3 && plan.pair_count != WM_PAIRS_NONE);
        cr_assert_eq(stride, counted ? 1u : every, "%s: stride %u", what, stride);
        pairs_at_1 += counted;
        if (stride == 1) {
          cr_assert(rest.count == 0, "%s: a complement of all", what);
        } else if (whole.count >= 1000) {
          cr_assert(sample.count > 0 && rest.count > sample.count, "%s: the sample %llu of %llu", what,
                    (unsigned long long)sample.count, (unsigned long long)whole.count);
          sampled++;
        }
      }
  cr_assert_gt(pairs_at_1, 0u, "no plan counted position 1");
  cr_assert_geq(sampled, 8u, "too few counts large enough to sample");
  wm_graph_destroy(raw), wm_graph_destroy(g);
}

/* A plan whose predicted work is W: est_cost W, nothing sampled. */
static wm_plan plan_of_work(double W) {
  wm_plan p;
  memset(&p, 0, sizeof p);
  p.est_cost = W;
  return p;
}

/* The slices' cost stays within 4% of the predicted time (the CPU's aim,
 * below the 5% planning may take: engine.c; the others' k - 1 slices:
 * the winner's is counted), each slice at least
 * WM_SLICE_MIN_SECONDS, at least 4 slice vertices, at most the orders
 * available; a short count, a tiny graph or one order times nothing;
 * the GPU's faster units need a larger count. */
Test(planner_slices, policy_budget) {
  const double unit = 3.6e-10; /* engine.c's CPU unit: the test checks the rule's arithmetic */
  for (double W = 1e8; W <= 1e13; W *= 10) {
    const wm_plan p = plan_of_work(W);
    const double T = W * unit;
    uint32_t every = 0;
    double budget = 0.0;
    const unsigned k = wm_engine_slice_policy(&p, 0, WM_CPU_UNIT_THREADS, 1u << 20, 5, 0.0, &every, &budget);
    if (T * 0.04 < WM_SLICE_MIN_SECONDS * (2 * WM_SLICE_ROUNDS - 1)) {
      cr_assert_eq(k, 0u, "W %g: %u orders", W, k);
      continue;
    }
    cr_assert(k >= 2 && k <= 5, "W %g: %u orders", W, k);
    const double slice = T / every;
    cr_assert_leq((WM_SLICE_ROUNDS * k - 1) * slice, 0.04 * T * 1.0001, "W %g: %u slices of %g s", W, k, slice);
    cr_assert_geq(slice * every / (every - 1.0), WM_SLICE_MIN_SECONDS, "W %g: a slice of %g s", W, slice);
    cr_assert(fabs(budget - 0.04 * T) <= 1e-9 * T, "W %g: budget %g", W, budget);
    cr_assert_geq((1u << 20) / every, 4u);
  }
  uint32_t every;
  double budget;
  const wm_plan big = plan_of_work(1e10);
  cr_assert_eq(wm_engine_slice_policy(&big, 0, WM_CPU_UNIT_THREADS, 1u << 20, 1, 0.0, &every, &budget), 0u, "one order");
  cr_assert_eq(wm_engine_slice_policy(&big, 0, WM_CPU_UNIT_THREADS, 6, 5, 0.0, &every, &budget), 0u, "six vertices");
  const wm_plan mid = plan_of_work(1e9);
  cr_assert_geq(wm_engine_slice_policy(&mid, 0, WM_CPU_UNIT_THREADS, 1u << 20, 5, 0.0, &every, &budget), 2u, "the CPU's 0.36 s count");
}

/* The GPU's: k runs of a stripe of 1/every of the count, each with about
 * a millisecond of set-up, cost at most 5% of the predicted time, every at
 * least 2, each stripe at least 0.1 ms; a count predicted under 40 ms (two
 * runs' set-up alone over 5%), a tiny graph or one order times nothing;
 * where the probes measured the plan, the GPU predicts by their measure. */
Test(planner_slices, gpu_policy_budget) {
  const double unit = 5.41e-12; /* engine.c's GPU unit */
  unsigned some = 0;
  for (double W = 1e6; W <= 1e15; W *= 10) {
    const wm_plan p = plan_of_work(W);
    const double T = W * unit;
    uint32_t every = 0;
    double budget = 0.0;
    const unsigned k = wm_engine_slice_policy(&p, 1, WM_CPU_UNIT_THREADS, 1u << 20, 5, 0.0, &every, &budget);
    if (T * 0.05 <= 2 * 1e-3) {
      cr_assert_eq(k, 0u, "W %g: %u orders", W, k);
      continue;
    }
    if (!k) continue; /* a stripe under 0.1 ms at every stride the set-up leaves */
    some++;
    cr_assert(k >= 2 && k <= 5, "W %g: %u orders", W, k);
    cr_assert_geq(every, 2u);
    cr_assert_leq(k * (1e-3 + T / every), 0.05 * T * 1.0001, "W %g: %u stripes of 1/%u", W, k, every);
    cr_assert_geq(T / every, 1e-4 * 0.9999, "W %g: a stripe of %g s", W, T / every);
    cr_assert(fabs(budget - 0.05 * T) <= 1e-9 * T, "W %g: budget %g", W, budget);
  }
  cr_assert_geq(some, 4u);
  uint32_t every;
  double budget;
  const wm_plan big = plan_of_work(1e12);
  cr_assert_eq(wm_engine_slice_policy(&big, 1, WM_CPU_UNIT_THREADS, 1u << 20, 1, 0.0, &every, &budget), 0u, "one order");
  cr_assert_eq(wm_engine_slice_policy(&big, 1, WM_CPU_UNIT_THREADS, 6, 5, 0.0, &every, &budget), 0u, "six vertices");
  cr_assert(fabs(wm_engine_slice_budget(10.0) - 0.5) < 1e-12);
  /* where the probes measured the plan, both predict by them alone, not
   * by the model's far larger estimate (54 s on the GPU, an hour on the
   * CPU): the GPU's 5.4 ms times nothing, the CPU's 0.36 s does, its 0.36
   * ms does not */
  wm_plan measured = plan_of_work(1e13);
  measured.sampled_cost = 1e9;
  cr_assert_eq(wm_engine_slice_policy(&measured, 1, WM_CPU_UNIT_THREADS, 1u << 20, 5, 0.0, &every, &budget), 0u, "the probes' 5.4 ms");
  cr_assert_geq(wm_engine_slice_policy(&measured, 0, WM_CPU_UNIT_THREADS, 1u << 20, 5, 0.0, &every, &budget), 2u, "the probes' 0.36 s");
  measured.sampled_cost = 1e6;
  cr_assert_eq(wm_engine_slice_policy(&measured, 0, WM_CPU_UNIT_THREADS, 1u << 20, 5, 0.0, &every, &budget), 0u, "the probes' 0.36 ms");
  measured.sampled_cost = 0.0;
  cr_assert_geq(wm_engine_slice_policy(&measured, 1, WM_CPU_UNIT_THREADS, 1u << 20, 5, 0.0, &every, &budget), 2u, "the model's 54 s");
  cr_assert_geq(wm_engine_slice_policy(&measured, 0, WM_CPU_UNIT_THREADS, 1u << 20, 5, 0.0, &every, &budget), 2u, "the model's hours");
  /* the planning spent before is charged to the budget: the GPU's 5.4 s
   * count (270 ms), the CPU's 3.6 s (144 ms: its 4%) */
  const wm_plan long_count = plan_of_work(1e12);
  cr_assert_geq(wm_engine_slice_policy(&long_count, 1, WM_CPU_UNIT_THREADS, 1u << 20, 5, 0.1, &every, &budget), 2u);
  cr_assert(fabs(budget - (0.05 * 1e12 * unit - 0.1)) <= 1e-9, "budget %g", budget);
  cr_assert_eq(wm_engine_slice_policy(&long_count, 1, WM_CPU_UNIT_THREADS, 1u << 20, 5, 0.27, &every, &budget), 0u, "nothing left");
  const wm_plan cpu_count = plan_of_work(1e10);
  cr_assert_geq(wm_engine_slice_policy(&cpu_count, 0, WM_CPU_UNIT_THREADS, 1u << 20, 5, 0.02, &every, &budget), 2u);
  cr_assert(fabs(budget - (0.04 * 1e10 * 3.6e-10 - 0.02)) <= 1e-9, "budget %g", budget);
  cr_assert_eq(wm_engine_slice_policy(&cpu_count, 0, WM_CPU_UNIT_THREADS, 1u << 20, 5, 0.144, &every, &budget), 0u, "nothing left");
}

static warpmatch_match_result count_trials(warpmatch_context *ctx, const warpmatch_graph *g,
                                           const warpmatch_pattern *p, int planner, const unsigned *order,
                                           unsigned trials) {
  warpmatch_match_options o;
  warpmatch_match_options_init(&o);
  o.planner = planner;
  o.order = order;
  o.trials = trials;
  o.count.method = WARPMATCH_METHOD_ENUMERATE;
  o.count.device = WARPMATCH_DEVICE_CPU; /* the CPU's slices, also where a GPU is usable (test_gpu_slices: the GPU's) */
  return wm_test_count(ctx, g, p, &o);
}

static warpmatch_match_result count_with(warpmatch_context *ctx, const warpmatch_graph *g,
                                         const warpmatch_pattern *p, int planner, const unsigned *order) {
  return count_trials(ctx, g, p, planner, order, 1);
}

/* A context on one thread, raw as the library's graph, and a pattern file. */
static void one_thread_case(const wm_graph *raw, const char *pattern, warpmatch_context **ctx, warpmatch_graph **g,
                            warpmatch_pattern **p) {
  cr_assert_eq(warpmatch_context_create(ctx), WARPMATCH_OK);
  cr_assert_eq(warpmatch_set_threads(*ctx, 1), WARPMATCH_OK);
  *g = wm_test_api_graph(*ctx, raw, 0);
  char path[4096];
  wm_test_pattern_file(path, sizeof path, pattern);
  cr_assert_eq(warpmatch_pattern_create(*ctx, path, p), WARPMATCH_OK, "%s", warpmatch_last_error(*ctx));
}

static wm_u128 count_of(const warpmatch_match_result *r) {
  return (wm_u128)r->count.count_high << 64 | r->count.count;
}

/* One hub joined to 90% of n vertices over a tail of mean degree 2 (the
 * planner corpus's hub-small at n = 20000) and a pattern file on one
 * thread; returns the graph as generated. */
static wm_graph *hub_case(uint64_t n, const char *pattern, warpmatch_context **ctx, warpmatch_graph **g,
                          warpmatch_pattern **p) {
  wm_gen_model gm;
  wm_gen_model_defaults(&gm, WM_GEN_HUB, n, 5);
  gm.hub_fraction = 0.9, gm.mean_degree = 2;
  wm_graph *raw;
  wm_error err;
  cr_assert_eq(wm_generate_model(&gm, &raw, &err), WM_OK, "%s", err.msg);
  one_thread_case(raw, pattern, ctx, g, p);
  return raw;
}

/* The hub graph below and p13 on one thread, the test hook's start set;
 * returns the graph as generated. */
static wm_graph *hub_p13_case(warpmatch_context **ctx, warpmatch_graph **g, warpmatch_pattern **p) {
  setenv("WM_TEST_COUNT_START", "5", 1);
  wm_graph *raw = wm_test_powerlaw(500, 8, 8, 0.6, 7);
  one_thread_case(raw, "stmatch/p13.txt", ctx, g, p);
  return raw;
}

/* A hub graph like test_planner_auto's (8 hubs each joined to 60% of 500
 * vertices over a heavy tail) and p13, planned by a model of mean sizes
 * (WM_TEST_MEAN_SIZES: blind to the hubs, as the moment model is not),
 * whose order counts several times slower (checked).  Auto's count by
 * slices (one thread; planning may take half the count, a test hook: at
 * 5% of a count of some 100 ms the probes leave the slices nothing)
 * equals the count without them (--planner probes, the model's) with the
 * test hook's start taken once, the order counted with is the fastest of
 * those timed, and it is not the model's. */
Test(planner_slices, hub_graph_count_and_order, .timeout = 300) {
  warpmatch_context *ctx;
  warpmatch_graph *g;
  warpmatch_pattern *p;
  setenv("WM_TEST_MEAN_SIZES", "1", 1);
  setenv("WM_TEST_SLICE_SHARE", "0.5", 1);
  wm_graph *raw = hub_p13_case(&ctx, &g, &p);
  const warpmatch_match_result sliced = count_with(ctx, g, p, WARPMATCH_PLANNER_AUTO, NULL);
  const warpmatch_match_result probes = count_with(ctx, g, p, WARPMATCH_PLANNER_PROBES, NULL);
  const warpmatch_match_result model = count_with(ctx, g, p, WARPMATCH_PLANNER_MODEL, NULL);
  cr_assert(count_of(&sliced) == count_of(&probes) && count_of(&sliced) == count_of(&model), "the counts differ");
  cr_assert_eq(probes.slice_orders, 0u, "--planner probes timed slices");
  cr_assert_eq(model.slice_orders, 0u, "--planner model timed slices");
  cr_assert_geq(sliced.slice_orders, 2u, "no slices: the count was not predicted long enough");
  cr_assert_leq(sliced.slice_orders, WARPMATCH_MAX_SLICE_ORDERS);
  cr_assert_eq(sliced.slice_vertices, sliced.slice_every + (500 + sliced.slice_every - 1) / sliced.slice_every - 1);
  for (unsigned i = 0; i < sliced.slice_orders; i++)
    cr_assert_geq(sliced.slice_ms[i], sliced.slice_ms[sliced.slice_chosen], "order %u beat the one chosen", i);
  /* the model's order (of the graph as the library numbers it) */
  wm_graph *g2 = wm_test_by_degree(raw);
  wm_graph_summary gs;
  wm_graph_summary_compute(g2, &gs);
  wm_pattern wp = wm_test_stmatch_pattern(13);
  wm_plan mp;
  wm_error err;
  cr_assert_eq(wm_plan_build(&wp, &gs, NULL, &mp, &err), WM_OK, "%s", err.msg);
  unsigned chosen[WARPMATCH_MAX_PATTERN_VERTICES], model_order[WARPMATCH_MAX_PATTERN_VERTICES];
  for (unsigned i = 0; i < wp.k; i++) chosen[i] = sliced.slice_order[sliced.slice_chosen][i], model_order[i] = mp.order[i];
  cr_assert(memcmp(chosen, model_order, wp.k * sizeof *chosen), "auto counted with the model's order");
  double t_chosen = HUGE_VAL; /* the model's: its count above */
  for (int t = 0; t < 2; t++) {
    const double a = count_with(ctx, g, p, WARPMATCH_PLANNER_AUTO, chosen).count.seconds;
    t_chosen = a < t_chosen ? a : t_chosen;
  }
  cr_assert_leq(t_chosen, model.count.seconds / 2, "the order counted with %.1f ms, the model's %.1f ms",
                t_chosen * 1e3, model.count.seconds * 1e3);
  warpmatch_pattern_destroy(p);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
  wm_graph_destroy(raw), wm_graph_destroy(g2);
}

/* With trials the slices still choose the order (a benchmark times the
 * plan a single count runs), and the trials time that order's whole
 * count: on the hub graph above (planning half the count, as there), auto
 * with 3 trials times slices, counts what the model's order counts, and
 * its set operations are those of a count with the order it chose. */
Test(planner_slices, trials_time_the_order_the_slices_chose, .timeout = 300) {
  warpmatch_context *ctx;
  warpmatch_graph *g;
  warpmatch_pattern *p;
  setenv("WM_TEST_SLICE_SHARE", "0.5", 1);
  wm_graph *raw = hub_p13_case(&ctx, &g, &p);
  const warpmatch_match_result timed = count_trials(ctx, g, p, WARPMATCH_PLANNER_AUTO, NULL, 3);
  const warpmatch_match_result model = count_with(ctx, g, p, WARPMATCH_PLANNER_MODEL, NULL);
  cr_assert_geq(timed.slice_orders, 2u, "no slices with trials");
  cr_assert_eq(timed.trials, 3u);
  cr_assert(count_of(&timed) == count_of(&model), "the counts differ");
  unsigned chosen[WARPMATCH_MAX_PATTERN_VERTICES];
  for (unsigned i = 0; i < WARPMATCH_MAX_PATTERN_VERTICES; i++) chosen[i] = timed.slice_order[timed.slice_chosen][i];
  const warpmatch_match_result whole = count_with(ctx, g, p, WARPMATCH_PLANNER_AUTO, chosen);
  cr_assert_eq(timed.set_ops, whole.set_ops, "the trials counted another order: %llu set operations, %llu",
               (unsigned long long)timed.set_ops, (unsigned long long)whole.set_ops);
  cr_assert_gt(timed.plan_seconds, 0.0);
  warpmatch_pattern_destroy(p);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
  wm_graph_destroy(raw);
}

/* The corpus's hub-small (one hub joined to 90% of 2,000 vertices over a
 * sparse tail: gen hub) and p1, two triangles sharing a vertex: an order
 * rooted at the shared vertex does its work on the hub, one rooted at a
 * wing spreads it over every vertex, and their counts take about as long.
 * A raw slice held the hub whole and 1/every of the rest, so it timed the
 * first 25x slower (every x its time was 40x its count) and timing it
 * cost about a whole count.  Now (one thread): every x each order's slice
 * time is within 5x of its count (the least of four; one slice timed once,
 * a pause of a loaded machine took 3.2x), the order counted
 * with is within 2x of the fastest of those timed (the six timed count
 * in 127-217 ms, their slices in 1.5-3.6 ms, and the slices do not rank
 * orders within 1.5x of each other reliably: on the 2-core development
 * machine, --jobs=1, the one chosen took 1.0-1.53x the fastest over
 * eight runs, at 8e88e2b alike; the flaw this guards against was 25x),
 * the count is that
 * without slices (the test hook's start once), and planning takes at most
 * max(20 ms, the count): a test hook lets planning take the count's
 * predicted time, about half of it (at 5%, what the probes take leaves the
 * slices nothing; at half of that, on a loaded machine the plan's slice
 * now and then took all of the budget, and no second order was timed).
 * The model of mean sizes (a test hook) leaves the probes
 * an order from the hub as the plan, so the slices time both kinds. */
Test(planner_slices, hub_graph_estimates_whole_counts, .timeout = 300) {
  setenv("WM_TEST_COUNT_START", "5", 1);
  setenv("WM_TEST_SLICE_SHARE", "1", 1);
  setenv("WM_TEST_MEAN_SIZES", "1", 1);
  warpmatch_context *ctx;
  warpmatch_graph *g;
  warpmatch_pattern *p;
  wm_graph *raw = hub_case(2000, "stmatch/p1.txt", &ctx, &g, &p);
  const warpmatch_match_result sliced = count_with(ctx, g, p, WARPMATCH_PLANNER_AUTO, NULL);
  const warpmatch_match_result probes = count_with(ctx, g, p, WARPMATCH_PLANNER_PROBES, NULL);
  cr_assert(count_of(&sliced) == count_of(&probes), "the counts differ");
  cr_assert_geq(sliced.slice_orders, 2u, "no slices: the count was not predicted long enough");
  unsigned on_hub = 0;
  double whole[WARPMATCH_MAX_SLICE_ORDERS], best = HUGE_VAL;
  for (unsigned i = 0; i < sliced.slice_orders; i++) whole[i] = HUGE_VAL;
  /* the least of four counts of each, the orders in turn: a pause of a
   * loaded machine (a parallel ctest) hits one run, not one order's all
   * (the least of two, each order's back to back, once put one of two
   * orders within 10% of each other 1.29x behind) */
  for (int t = 0; t < 4; t++)
    for (unsigned i = 0; i < sliced.slice_orders; i++) {
      const warpmatch_match_result w = count_with(ctx, g, p, WARPMATCH_PLANNER_AUTO, sliced.slice_order[i]);
      cr_assert(count_of(&w) == count_of(&probes), "order %u's count differs", i);
      whole[i] = w.count.seconds < whole[i] ? w.count.seconds : whole[i];
    }
  for (unsigned i = 0; i < sliced.slice_orders; i++) {
    on_hub += sliced.slice_order[i][0] == 2; /* p1's shared vertex */
    best = whole[i] < best ? whole[i] : best;
    const double estimate = sliced.slice_every * sliced.slice_ms[i] / 1e3;
    cr_assert(estimate <= 5 * whole[i] && estimate >= whole[i] / 5,
              "order %u: every %u x %.2f ms on the slice, %.1f ms counted", i, sliced.slice_every, sliced.slice_ms[i],
              whole[i] * 1e3);
  }
  cr_assert(on_hub > 0 && on_hub < sliced.slice_orders, "%u of the %u orders timed from the hub", on_hub,
            sliced.slice_orders);
  cr_assert_leq(whole[sliced.slice_chosen], 2.0 * best, "the order counted with %.1f ms, the fastest timed %.1f ms",
                whole[sliced.slice_chosen] * 1e3, best * 1e3);
  const double count_s = sliced.count.seconds, limit = count_s > 0.02 ? count_s : 0.02;
  cr_assert_leq(sliced.plan_seconds, limit, "planned in %.1f ms, counted in %.1f ms", sliced.plan_seconds * 1e3,
                count_s * 1e3);
  warpmatch_pattern_destroy(p);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
  wm_graph_destroy(raw);
}

/* Near-ties (matching_order.c): kron-14 p19's fastest order on the CPU,
 * 2-3-4-5-0-1-6, which fell out of the three shortlists of six by a few
 * percent of estimate, is a candidate of the auto plan on the corpus's
 * kron-14 (scripts/make-corpus.sh with SMALL=1: gen kron --scale 9
 * --seed 1), and the list stays within its bound. */
Test(planner_slices, kron_p19_best_is_a_candidate, .timeout = 120) {
  wm_gen_options go;
  wm_gen_kron_defaults(&go, 9, 1);
  wm_graph *raw;
  wm_error err;
  cr_assert_eq(wm_generate(&go, &raw, &err), WM_OK, "%s", err.msg);
  wm_graph *g = wm_test_by_degree(raw);
  cr_assert_eq(g->n, 512u);
  cr_assert_eq(g->m, 2u * 4830u, "not the corpus's kron-14: %llu arcs", (unsigned long long)g->m);
  wm_graph_summary gs;
  wm_graph_summary_compute(g, &gs);
  const wm_pattern p = wm_test_stmatch_pattern(19);
  wm_plan_candidates cands;
  wm_plan_options po;
  wm_plan_options_init(&po);
  po.sample_graph = g;
  po.candidates = &cands;
  wm_engine_plan_policy(&po, 0, 1);
  wm_plan plan;
  cr_assert_eq(wm_plan_build(&p, &gs, &po, &plan, &err), WM_OK, "%s", err.msg);
  const uint8_t best[] = {2, 3, 4, 5, 0, 1, 6};
  int found = 0;
  for (unsigned i = 0; i < cands.n; i++) found |= !memcmp(cands.c[i].order, best, sizeof best);
  cr_assert(found, "2-3-4-5-0-1-6 is not among the %u candidates", cands.n);
  cr_assert(cands.n > 3u * 6u + 1u && cands.n <= WM_PLAN_MAX_CANDIDATES, "%u candidates", cands.n);
  for (unsigned i = 0; i < cands.n; i++) cr_assert(cands.c[i].tie >= 1.0, "candidate %u: tie %g", i, cands.c[i].tie);
  wm_graph_destroy(raw), wm_graph_destroy(g);
}

/* count --json reports the slices (the orders timed, their ms, the one
 * chosen) and its text a "slices" line; --planner probes times none; the
 * counts agree.  Planning may take half the count (a test hook, as above). */
Test(planner_slices, count_json_reports_slices, .timeout = 120) {
  setenv("WM_TEST_SLICE_SHARE", "0.5", 1);
  wm_graph *raw = wm_test_powerlaw(500, 8, 8, 0.6, 7);
  size_t cap = 64 + raw->m * 24, len = 0;
  char *text = malloc(cap);
  for (uint32_t u = 0; u < raw->n; u++)
    for (uint64_t i = raw->offsets[u]; i < raw->offsets[u + 1]; i++)
      if (u < raw->adj[i]) len += (size_t)snprintf(text + len, cap - len, "%u %u\n", u, raw->adj[i]);
  wm_test_files f;
  wm_test_graph_file(&f, text);
  char pattern[4096], *out, *err;
  wm_test_pattern_file(pattern, sizeof pattern, "stmatch/p13.txt");
  int rc = wm_test_run(&out, &err, "count %s --pattern %s --no-cache --device cpu --threads 1 --json", f.graph, pattern);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(json_valid_object(out), "%s", out);
  const uint64_t sliced = json_u64(out, "count");
  cr_assert(strstr(out, "\"slices\":{\"every\":") && strstr(out, "\"orders\":[{\"order\":[") &&
                strstr(out, "\"ms\":") && strstr(out, "\"chosen\":true"),
            "%s", out);
  free(out), free(err);
  rc = wm_test_run(&out, &err, "count %s --pattern %s --no-cache --device cpu --threads 1 --json --planner probes",
                   f.graph, pattern);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(json_valid_object(out) && !strstr(out, "\"slices\""), "%s", out);
  cr_assert_eq(json_u64(out, "count"), sliced);
  free(out), free(err);
  rc = wm_test_run(&out, &err, "count %s --pattern %s --no-cache --device cpu --threads 1", f.graph, pattern);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(strstr(out, "slices     ") && strstr(out, " (chosen)"), "%s", out);
  free(out), free(err);
  wm_test_rmdir(f.dir);
  free(text);
  wm_graph_destroy(raw);
}

/* The CPU executor's time limit (wm_match_options.time_limit_s): far below
 * the count's time the count stops short (cut_short, a partial count), far
 * above it the count is whole; listing or per-vertex counts under a limit
 * are a usage error. */
Test(planner_slices, cpu_time_limit_cuts_a_count_short, .timeout = 120) {
  wm_graph *raw = wm_test_powerlaw(3000, 12, 8, 0.5, 5), *g = wm_test_by_degree(raw);
  wm_graph_summary gs;
  wm_graph_summary_compute(g, &gs);
  const wm_pattern p = wm_test_stmatch_pattern(13);
  wm_plan plan;
  wm_error err;
  cr_assert_eq(wm_plan_build(&p, &gs, NULL, &plan, &err), WM_OK, "%s", err.msg);
  wm_match_options o;
  wm_match_options_init(&o);
  o.threads = 1;
  wm_match_result whole, cut, roomy;
  cr_assert_eq(wm_match_cpu(g, &plan, &o, &whole, &err), WM_OK, "%s", err.msg);
  cr_assert(whole.count > 0 && !whole.cut_short);
  o.time_limit_s = 1e-9;
  cr_assert_eq(wm_match_cpu(g, &plan, &o, &cut, &err), WM_OK, "%s", err.msg);
  cr_assert_eq(cut.cut_short, 1, "not cut short");
  cr_assert(cut.count < whole.count, "a count cut short is whole");
  o.time_limit_s = 100.0;
  cr_assert_eq(wm_match_cpu(g, &plan, &o, &roomy, &err), WM_OK, "%s", err.msg);
  cr_assert(!roomy.cut_short && roomy.count == whole.count);
  uint64_t *pv = calloc(g->n, sizeof *pv);
  o.per_vertex = pv;
  cr_assert_eq(wm_match_cpu(g, &plan, &o, &roomy, &err), WM_EUSAGE, "per-vertex counts under a limit ran");
  cr_assert(strstr(err.msg, "time limit"), "%s", err.msg);
  free(pv);
  wm_graph_destroy(raw), wm_graph_destroy(g);
}

/* One hub over a sparse tail (the planner corpus's hub-small) and p11 on
 * the CPU: the orders auto times include one whose slice, unbounded, ran
 * for minutes (its work under the hub's level-1 candidates) where the
 * plan's took a tenth of a millisecond; each slice after the plan's stops
 * where it would overrun, so the count ends (this test's timeout) and
 * equals the model's.  Planning may take four times the count (a test
 * hook: the probes' prediction is a few milliseconds, about what the
 * probes themselves take). */
Test(planner_slices, a_slow_orders_slice_is_stopped, .timeout = 120) {
  setenv("WM_TEST_SLICE_SHARE", "4", 1);
  warpmatch_context *ctx;
  warpmatch_graph *g;
  warpmatch_pattern *p;
  wm_graph *raw = hub_case(20000, "stmatch/p11.txt", &ctx, &g, &p);
  const warpmatch_match_result sliced = count_with(ctx, g, p, WARPMATCH_PLANNER_AUTO, NULL);
  const warpmatch_match_result model = count_with(ctx, g, p, WARPMATCH_PLANNER_MODEL, NULL);
  cr_assert(count_of(&sliced) == count_of(&model) && count_of(&model) > 0, "the counts differ");
  cr_assert_geq(sliced.slice_orders, 2u, "no slices: the case is gone");
  for (unsigned i = 0; i < sliced.slice_orders; i++)
    cr_assert_geq(sliced.slice_ms[i], sliced.slice_ms[sliced.slice_chosen], "order %u beat the one chosen", i);
  warpmatch_pattern_destroy(p);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
  wm_graph_destroy(raw);
}
