/* The engine's table of executors (matcher/engine.h): its rows in order,
 * which row accepts which job and why the others do not, and a count run
 * through it against the CPU executor's. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "patterns.h"
#include "planner.h"

static void plan_of(const char *name, int induced, int embeddings, wm_pattern *p, wm_plan *plan) {
  wm_error err;
  cr_assert_eq(wm_pattern_from_name(name, p, &err), WM_OK, "%s", err.msg);
  wm_graph_summary gs;
  wm_graph_summary_default(&gs);
  wm_plan_options po;
  wm_plan_options_init(&po);
  po.induced = induced;
  po.embeddings = embeddings;
  po.count_only = 1;
  cr_assert_eq(wm_plan_build(p, &gs, &po, plan, &err), WM_OK, "planning %s: %s", name, err.msg);
}

/* The row that would count `name` (options as given), and its refusals. */
typedef struct chosen {
  const char *row;
  char formula_why[256];
  char diamond_why[256];
} chosen;

static chosen choose(const char *name, int use_gpu, int method, const wm_match_options *mo) {
  wm_pattern p;
  wm_plan plan;
  plan_of(name, 0, 0, &p, &plan);
  wm_engine_job job = {NULL, &p, &plan, use_gpu, method, 0, 0, 1, mo};
  chosen c;
  memset(&c, 0, sizeof c);
  const wm_executor *e = wm_engine_choose(&job, NULL, 0);
  cr_assert(e, "%s: no row", name);
  c.row = e->name;
  unsigned n;
  const wm_executor *t = wm_engine_table(&n);
  t[0].accepts(&t[0], &job, c.formula_why, sizeof c.formula_why);
  for (unsigned i = 0; i < n; i++)
    if (!strcmp(t[i].name, "diamond")) t[i].accepts(&t[i], &job, c.diamond_why, sizeof c.diamond_why);
  return c;
}

Test(engine, table_rows_in_order) {
  static const char *const want[] = {"formula", "triangle", "clique", "diamond", "stack", "cpu"};
  unsigned n;
  const wm_executor *t = wm_engine_table(&n);
  cr_assert_eq(n, sizeof want / sizeof want[0]);
  for (unsigned i = 0; i < n; i++) {
    cr_assert_str_eq(t[i].name, want[i]);
    cr_assert_eq(t[i].formula, i == 0, "%s", t[i].name);
    cr_assert_eq(t[i].gpu, i >= 1 && i <= 4, "%s", t[i].name);
  }
}

Test(engine, rows_accept_by_shape_device_and_options) {
  wm_match_options mo;
  wm_match_options_init(&mo);
  /* auto leaves the dedicated kernels' shapes to them, on either device */
  chosen c = choose("diamond", 0, WM_MOTIF_AUTO, &mo);
  cr_assert_str_eq(c.row, "cpu");
  cr_assert(strstr(c.formula_why, "diamond kernel counts"), "%s", c.formula_why);
  cr_assert(strstr(c.diamond_why, "not on the GPU"), "%s", c.diamond_why);
  cr_assert_str_eq(choose("diamond", 1, WM_MOTIF_AUTO, &mo).row, "diamond");
  cr_assert_str_eq(choose("diamond", 1, WM_MOTIF_FORMULA, &mo).row, "formula");
  cr_assert_str_eq(choose("triangle", 1, WM_MOTIF_AUTO, &mo).row, "triangle");
  cr_assert_str_eq(choose("4-clique", 1, WM_MOTIF_AUTO, &mo).row, "clique");
  cr_assert_str_eq(choose("7-clique", 1, WM_MOTIF_AUTO, &mo).row, "clique");
  cr_assert_str_eq(choose("house", 1, WM_MOTIF_AUTO, &mo).row, "formula");
  cr_assert_str_eq(choose("house", 1, WM_MOTIF_ENUMERATE, &mo).row, "stack");
  cr_assert_str_eq(choose("house", 0, WM_MOTIF_ENUMERATE, &mo).row, "cpu");
  cr_assert_str_eq(choose("6-cycle", 0, WM_MOTIF_AUTO, &mo).row, "cpu");
  c = choose("house", 1, WM_MOTIF_ENUMERATE, &mo);
  cr_assert(strstr(c.diamond_why, "counts the diamond as subgraphs"), "%s", c.diamond_why);
  /* per-vertex counts: neither the formula nor a dedicated kernel */
  uint64_t pv[4];
  mo.per_vertex = pv;
  c = choose("diamond", 1, WM_MOTIF_AUTO, &mo);
  cr_assert_str_eq(c.row, "stack");
  cr_assert(strstr(c.diamond_why, "whole graph only"), "%s", c.diamond_why);
  mo.per_vertex = NULL;
  mo.gpu_clique_kernels = 0; /* the ablation */
  c = choose("diamond", 1, WM_MOTIF_AUTO, &mo);
  cr_assert_str_eq(c.row, "stack");
  cr_assert(strstr(c.diamond_why, "off"), "%s", c.diamond_why);
}

Test(engine, formula_refused_says_why) {
  wm_match_options mo;
  wm_match_options_init(&mo);
  wm_pattern p;
  wm_plan plan;
  plan_of("triangle", 0, 0, &p, &plan);
  wm_engine_job job = {NULL, &p, &plan, 0, WM_MOTIF_FORMULA, 0, 0, 1, &mo};
  char why[256] = "";
  cr_assert(wm_engine_refuses(&job, why, sizeof why));
  cr_assert(strstr(why, "other than the triangle and the cliques"), "%s", why);
  plan_of("4-path", 0, 0, &p, &plan);
  cr_assert(!wm_engine_refuses(&job, why, sizeof why));
  job.order_given = 1;
  cr_assert(wm_engine_refuses(&job, why, sizeof why), "a matching order is a plan's");
  job.order_given = 0, job.labels_given = 1;
  cr_assert(wm_engine_refuses(&job, why, sizeof why), "data labels");
  job.labels_given = 0, job.method = WM_MOTIF_AUTO;
  cr_assert(!wm_engine_refuses(&job, why, sizeof why), "auto never refuses");
}

/* A 6-vertex wheel-ish graph: the engine's count equals the CPU
 * executor's, by the row it names, with its trials. */
Test(engine, count_runs_the_chosen_row) {
  static const uint32_t e[][2] = {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 1}, {1, 3}};
  const unsigned m = sizeof e / sizeof e[0];
  uint32_t s[sizeof e / sizeof e[0]], d[sizeof e / sizeof e[0]];
  for (unsigned i = 0; i < m; i++) s[i] = e[i][0], d[i] = e[i][1];
  wm_graph *g;
  wm_error err;
  cr_assert_eq(wm_graph_from_arcs(s, d, m, 6, 0, &g, &err), WM_OK, "%s", err.msg);
  static const char *const names[] = {"diamond", "house", "4-cycle", "triangle"};
  for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
    for (int method = WM_MOTIF_AUTO; method <= WM_MOTIF_ENUMERATE; method++) {
      wm_pattern p;
      wm_plan plan;
      plan_of(names[i], 0, 0, &p, &plan);
      wm_match_options mo;
      wm_match_options_init(&mo);
      wm_match_result want, got;
      cr_assert_eq(wm_match_cpu(g, &plan, &mo, &want, &err), WM_OK, "%s", err.msg);
      wm_engine_job job = {g, &p, &plan, 0, method, 0, 0, 3, &mo};
      if (wm_engine_refuses(&job, NULL, 0)) {
        cr_assert(method == WM_MOTIF_FORMULA && !wm_motif_formula_applies(&p), "%s", names[i]);
        cr_assert_eq(wm_engine_count(&job, &got, NULL, &err), WM_EUSAGE, "%s", names[i]);
        continue;
      }
      const wm_executor *by = NULL;
      cr_assert_eq(wm_engine_count(&job, &got, &by, &err), WM_OK, "%s: %s", names[i], err.msg);
      cr_assert(got.count == want.count, "%s by %s", names[i], by->name);
      cr_assert_eq(got.trials, 3u, "%s by %s", names[i], by->name);
      cr_assert_eq(by, wm_engine_choose(&job, NULL, 0));
      cr_assert_str_eq(by->name, method == WM_MOTIF_ENUMERATE ? "cpu"
                                 : method == WM_MOTIF_FORMULA   ? "formula"
                                 : i == 1 || i == 2             ? "formula"
                                                                : "cpu",
                       "%s", names[i]);
    }
  wm_graph_destroy(g);
}

/* A plan run by the table's plan rows (listing, the motifs' enumerated
 * classes): the CPU executor on the CPU, the same count, and never the
 * formula, which finds no matches to hand over. */
static int count_sink(void *ctx, const uint32_t *match, unsigned k) {
  (void)match, (void)k;
  ++*(uint64_t *)ctx;
  return 0;
}

Test(engine, plan_rows_run_listing) {
  uint32_t s[] = {0, 0, 0, 1, 1, 2}, d[] = {1, 2, 3, 2, 3, 3};
  wm_graph *g;
  wm_error err;
  cr_assert_eq(wm_graph_from_arcs(s, d, 6, 4, 0, &g, &err), WM_OK, "%s", err.msg);
  wm_pattern p;
  cr_assert_eq(wm_pattern_from_name("4-cycle", &p, &err), WM_OK, "%s", err.msg);
  wm_graph_summary gs;
  wm_graph_summary_default(&gs);
  wm_plan_options po;
  wm_plan_options_init(&po); /* not count-only: every match reaches the sink */
  wm_plan plan;
  cr_assert_eq(wm_plan_build(&p, &gs, &po, &plan, &err), WM_OK, "%s", err.msg);
  wm_match_options mo;
  wm_match_options_init(&mo);
  uint64_t seen = 0;
  mo.sink = count_sink;
  mo.sink_ctx = &seen;
  wm_match_result r;
  const wm_executor *by = NULL;
  cr_assert_eq(wm_engine_match(g, &plan, 0, &mo, &r, &by, &err), WM_OK, "%s", err.msg);
  cr_assert_str_eq(by->name, "cpu");
  cr_assert_eq(seen, 3, "K4 holds 3 4-cycles, %llu handed over", (unsigned long long)seen);
  char why[256] = "";
  wm_engine_job job = {g, &p, &plan, 0, WM_MOTIF_AUTO, 0, 0, 1, &mo};
  unsigned n;
  const wm_executor *t = wm_engine_table(&n);
  cr_assert_str_eq(t[0].name, "formula");
  cr_assert_eq(t[0].accepts(&t[0], &job, why, sizeof why), 0);
  cr_assert(strstr(why, "listing"), "%s", why);
  wm_graph_destroy(g);
}
