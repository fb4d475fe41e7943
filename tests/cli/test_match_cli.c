/* The matching commands end to end (count, list, motifs, plan): exit codes,
 * --json keys, file ids in the output, --limit, --output written whole or
 * not at all, --per-vertex, --seed/--hops, --dump-plan, labels. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_check.h"
#include "matcher.h"
#include "testutil.h"

/* K4 on file ids 10 20 30 40, a tail 40-50 and a path 50-60-70. */
static const char graph_text[] =
    "# test graph\n10 20\n10 30\n10 40\n20 30\n20 40\n30 40\n40 50\n50 60\n60 70\n";

static unsigned lines(const char *s) {
  unsigned n = 0;
  for (; *s; s++) n += *s == '\n';
  return n;
}

/* No stray temporary or output files in dir besides `keep`. */
static unsigned files_in(const char *dir) {
  DIR *d = opendir(dir);
  unsigned n = 0;
  for (struct dirent *e; (e = readdir(d));) n += e->d_name[0] != '.';
  closedir(d);
  return n;
}

Test(match_cli, count_text_and_json) {
  wm_test_files f;
  wm_test_graph_file(&f, graph_text);
  char *out, *err;
  int rc = wm_test_run(&out, &err, "count %s --pattern triangle --no-cache --device cpu", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(strstr(out, "count      4\n"), "%s", out);
  cr_assert(strstr(out, "matches/s") && strstr(out, "set ops") && strstr(out, "load"), "%s", out);
  free(out), free(err);
  rc = wm_test_run(&out, &err, "count %s --pattern 4-clique --no-cache --device cpu --json --threads 2", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(json_valid_object(out), "%s", out);
  cr_assert_eq(json_u64(out, "count"), 1);
  cr_assert_eq(json_u64(out, "vertices"), 7);
  cr_assert_eq(json_u64(out, "edges"), 9);
  static const char *keys[] = {"seconds", "load_seconds", "plan_seconds", "matches_per_second", "set_ops",
                               "device", "pattern", "induced", "code_motion", NULL};
  for (int i = 0; keys[i]; i++) {
    char k[64];
    snprintf(k, sizeof k, "\"%s\":", keys[i]);
    cr_assert(strstr(out, k), "no %s in %s", keys[i], out);
  }
  free(out), free(err);
  /* vertex-induced open wedges: 10-40-50, 20-40-50, 30-40-50, 40-50-60, 50-60-70 */
  rc = wm_test_run(&out, &err, "count %s --pattern 3-path --induced --no-cache --device cpu --json", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert_eq(json_u64(out, "count"), 5, "%s", out);
  free(out), free(err);
  /* embeddings: 4 triangles x 6 */
  rc = wm_test_run(&out, &err, "count %s --pattern triangle --embeddings --no-cache --device cpu --json", f.graph);
  cr_assert_eq(json_u64(out, "count"), 24, "%s", out);
  free(out), free(err);
  wm_test_rmdir(f.dir);
}

/* The catalogue: one row per connected graph on 3-5 vertices, each name
 * accepted by --pattern, and the JSON form. */
Test(match_cli, patterns_catalogue) {
  char *out = NULL;
  cr_assert_eq(wm_test_run(&out, NULL, "patterns"), 0);
  const char *const *names = wm_catalogue_names();
  int rows = 0;
  for (int i = 0; names[i]; i++, rows++) {
    char line[96];
    snprintf(line, sizeof line, "\n%s ", names[i]);
    cr_assert(strstr(out, line), "row for %s in:\n%s", names[i], out);
  }
  cr_assert_eq(rows, 29, "2 + 6 + 21 connected graphs");
  cr_assert(strstr(out, "\ntriangle                    3      3              6  0-1 0-2 1-2\n"), "%s", out);
  free(out);
  cr_assert_eq(wm_test_run(&out, NULL, "patterns --json"), 0);
  cr_assert(strstr(out, "{\"name\":\"5-clique\",\"vertices\":5,\"edges\":10,\"automorphisms\":120,"), "%s", out);
  free(out);
  char *err = NULL;
  cr_assert_eq(wm_test_run(NULL, &err, "count /dev/null --pattern no-such-shape"), 1);
  cr_assert(strstr(err, "warpmatch patterns"), "the error points to the catalogue: %s", err);
  free(err);
}

Test(match_cli, count_errors) {
  wm_test_files f;
  wm_test_graph_file(&f, graph_text);
  char *out, *err;
  cr_assert_eq(wm_test_run(&out, &err, "count %s --no-cache", f.graph), 2, "no --pattern");
  free(out), free(err);
  cr_assert_eq(wm_test_run(&out, &err, "count --pattern triangle"), 2, "no GRAPH");
  free(out), free(err);
  cr_assert_eq(wm_test_run(&out, &err, "count %s --pattern no-such-thing --no-cache", f.graph), 1);
  cr_assert(strstr(err, "no-such-thing"), "%s", err);
  free(out), free(err);
  cr_assert_eq(wm_test_run(&out, &err, "count %s/missing.txt --pattern triangle", f.dir), 1);
  free(out), free(err);
  cr_assert_eq(wm_test_run(&out, &err, "count %s --pattern triangle --device tpu --no-cache", f.graph), 2);
  free(out), free(err);
  cr_assert_eq(wm_test_run(&out, &err, "count %s --pattern triangle --seed 10 --no-cache", f.graph), 2,
               "--seed without --hops");
  free(out), free(err);
  cr_assert_eq(wm_test_run(&out, &err, "count %s --pattern triangle --seed 11 --hops 1 --no-cache", f.graph), 1,
               "no vertex 11 in the file");
  free(out), free(err);
  if (!wm_gpu_available()) {
    int rc = wm_test_run(&out, &err, "count %s --pattern triangle --device gpu --no-cache", f.graph);
    cr_assert_eq(rc, 3, "--device gpu without a GPU: exit %d", rc);
    cr_assert(strstr(err, "--device cpu"), "%s", err);
    free(out), free(err);
  }
  wm_test_rmdir(f.dir);
}

Test(match_cli, count_per_vertex) {
  wm_test_files f;
  wm_test_graph_file(&f, graph_text);
  char *out, *err;
  int rc = wm_test_run(&out, &err, "count %s --pattern triangle --per-vertex --no-cache --device cpu", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  /* summary lines are comments; then "ID COUNT" in file ids */
  cr_assert(strstr(out, "# count      4\n"), "%s", out);
  cr_assert(strstr(out, "\n10 3\n") && strstr(out, "\n40 3\n") && strstr(out, "\n50 0\n") &&
                strstr(out, "\n70 0\n"),
            "%s", out);
  free(out), free(err);
  rc = wm_test_run(&out, &err, "count %s --pattern triangle --per-vertex --json --no-cache --device cpu", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(json_valid_object(out), "%s", out);
  cr_assert(strstr(out, "\"per_vertex\":[{\"vertex\":10,\"count\":3}"), "%s", out);
  free(out), free(err);
  wm_test_rmdir(f.dir);
}

Test(match_cli, count_seed_ball_and_labels) {
  wm_test_files f;
  wm_test_graph_file(&f, graph_text);
  char *out, *err, lab[512], pat[512];
  /* within 1 hop of 40: 10 20 30 40 50 -> all 4 triangles; 2-paths (edges) 7 */
  int rc = wm_test_run(&out, &err, "count %s --pattern 2-path --seed 40 --hops 1 --json --no-cache --device cpu",
                       f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert_eq(json_u64(out, "count"), 7, "%s", out);
  cr_assert_eq(json_u64(out, "ball_vertices"), 5, "%s", out);
  free(out), free(err);
  rc = wm_test_run(&out, &err, "count %s --pattern 2-path --seed 70 --hops 2 --json --no-cache --device cpu",
                   f.graph);
  cr_assert_eq(json_u64(out, "count"), 2, "%s", out);
  free(out), free(err);
  /* a labeled triangle: u0 label 1, u1 label 0, u2 any */
  wm_test_write(lab, sizeof lab, f.dir, "lab.txt", "10 1\n20 1\n30 0\n40 0\n50 1\n");
  wm_test_write(pat, sizeof pat, f.dir, "tri.pat", "0 1\n1 2\n2 0\nv 0 1\nv 1 0\n");
  rc = wm_test_run(&out, &err, "count %s --pattern %s --labels %s --json --no-cache --device cpu", f.graph, pat,
                   lab);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert_eq(json_u64(out, "count"), 8, "%s", out);
  free(out), free(err);
  rc = wm_test_run(&out, &err, "count %s --pattern %s --no-cache --device cpu", f.graph, pat);
  cr_assert_eq(rc, 2, "labeled pattern without --labels");
  cr_assert(strstr(err, "--labels"), "%s", err);
  free(out), free(err);
  wm_test_rmdir(f.dir);
}

Test(match_cli, count_dump_plan) {
  wm_test_files f;
  wm_test_graph_file(&f, graph_text);
  char *out, *err;
  int rc = wm_test_run(&out, &err, "count %s --pattern 4-clique --dump-plan --no-cache --device cpu", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(strstr(out, "for v0 in V") && strstr(out, "hoisted from level 2") && strstr(out, "count      1\n"),
            "%s", out);
  free(out), free(err);
  /* the engine's row that counted, named first; a formula's too */
  rc = wm_test_run(&out, &err, "count %s --pattern 4-clique --dump-plan --no-cache --device cpu", f.graph);
  cr_assert(rc == 0 && !strncmp(out, "executor: cpu ", 14), "%s", out);
  free(out), free(err);
  rc = wm_test_run(&out, &err, "count %s --pattern house --dump-plan --no-cache --device cpu", f.graph);
  cr_assert(rc == 0 && !strncmp(out, "executor: formula ", 18), "%s", out);
  free(out), free(err);
  rc = wm_test_run(&out, &err, "count %s --pattern house --method enumerate --json --no-cache --device cpu", f.graph);
  cr_assert(rc == 0 && json_valid_object(out) && strstr(out, "\"executor\":\"cpu\""), "%s", out);
  free(out), free(err);
  rc = wm_test_run(&out, &err, "count %s --pattern 4-clique --dump-plan --no-code-motion --json --no-cache --device cpu",
                   f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(json_valid_object(out), "%s", out);
  cr_assert(strstr(out, "\"plan\":{") && strstr(out, "\"code_motion\":false"), "%s", out);
  cr_assert_null(strstr(out, "\"hoisted\":true"), "%s", out);
  free(out), free(err);
  wm_test_rmdir(f.dir);
}

/* The array after the first "order":[ at or after from, as its text (static). */
static const char *order_after(const char *from) {
  static char buf[64];
  const char *p = strstr(from, "\"order\":[");
  cr_assert_not_null(p, "no order in %s", from);
  p += strlen("\"order\":[");
  const char *e = strchr(p, ']');
  cr_assert(e && (size_t)(e - p) < sizeof buf, "%s", p);
  memcpy(buf, p, (size_t)(e - p));
  buf[e - p] = 0;
  return buf;
}

/* --dump-plan shows the plan that counted: where the auto planner timed
 * slices and took another order than its first (the corpus's hub-small
 * and p1 on one thread, as test_planner_slices times them, planning up to
 * the count: a test hook; at half of it, probes slowed to 30 ms by a
 * loaded machine left the slices nothing), the chosen order's plan. */
Test(match_cli, dump_plan_after_slices, .timeout = 300) {
  setenv("WM_TEST_SLICE_SHARE", "1", 1);
  wm_test_files f;
  wm_test_graph_file(&f, graph_text);
  char hub[600], pattern[4096], *out, *err;
  snprintf(hub, sizeof hub, "%s/hub.wmg", f.dir);
  wm_test_pattern_file(pattern, sizeof pattern, "stmatch/p1.txt");
  int rc = wm_test_run(&out, &err, "gen hub --vertices 2000 --hub-fraction 0.9 --mean-degree 2 --seed 5 --output %s",
                       hub);
  cr_assert_eq(rc, 0, "%s", err);
  free(out), free(err);
  rc = wm_test_run(&out, &err, "count %s --pattern %s --device cpu --threads 1 --method enumerate --json --dump-plan",
                   hub, pattern);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(json_valid_object(out), "%s", out);
  const char *slices = strstr(out, "\"slices\":{"), *plan = strstr(out, "\"plan\":{");
  cr_assert(slices && plan, "no slices or no plan: %s", out);
  const char *chosen = strstr(slices, "\"chosen\":true");
  cr_assert_not_null(chosen, "%s", out);
  const char *at = chosen; /* the chosen entry's own order, the last before its flag */
  while (at > slices && strncmp(at, "\"order\":[", 9)) at--;
  char want[64];
  snprintf(want, sizeof want, "%s", order_after(at));
  cr_assert_str_eq(order_after(plan), want, "the plan shown is not the order counted: %s", out);
  free(out), free(err);
  wm_test_rmdir(f.dir);
}

/* Pairs counted from one set's size, shown in the plan, switched off by
 * --no-pair-count with the same counts (K4: 6 diamonds; 17 wedges). */
Test(match_cli, pair_count) {
  wm_test_files f;
  wm_test_graph_file(&f, graph_text);
  static const struct { const char *pattern, *want; } cases[] = {
      {"diamond", "count      6\n"}, {"3-path", "count      17\n"}};
  for (unsigned i = 0; i < 2; i++) {
    char *out, *err;
    int rc = wm_test_run(&out, &err, "count %s --pattern %s --dump-plan --no-cache --device cpu --method enumerate",
                         f.graph, cases[i].pattern);
    cr_assert_eq(rc, 0, "%s", err);
    cr_assert(strstr(out, "n(n-1)/2 pairs (v") && strstr(out, cases[i].want), "%s", out);
    free(out), free(err);
    rc = wm_test_run(&out, &err,
                     "count %s --pattern %s --dump-plan --no-pair-count --no-cache --device cpu --method enumerate",
                     f.graph, cases[i].pattern);
    cr_assert_eq(rc, 0, "%s", err);
    cr_assert(!strstr(out, "pairs (v") && strstr(out, cases[i].want), "%s", out);
    free(out), free(err);
  }
  char *out, *err;
  int rc = wm_test_run(&out, &err, "count %s --pattern diamond --dump-plan --json --no-cache --device cpu", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(json_valid_object(out) && strstr(out, "\"pair_count\":\"unordered\""), "%s", out);
  free(out), free(err);
  rc = wm_test_run(&out, &err, "plan --pattern diamond --embeddings");
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(strstr(out, "n(n-1) pairs (v2, v3)"), "%s", out);
  free(out), free(err);
  wm_test_rmdir(f.dir);
}

/* --order: the plan follows it (count, list, plan), the count is the
 * same, and a wrong one is a usage error naming what is wrong. */
Test(match_cli, order) {
  wm_test_files f;
  wm_test_graph_file(&f, graph_text);
  char *out, *err;
  int rc = wm_test_run(&out, &err, "count %s --pattern tailed-triangle --no-cache --device cpu --json", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  const uint64_t want = json_u64(out, "count");
  cr_assert(want > 0, "%s", out);
  free(out), free(err);
  static const char *orders[] = {"0,1,2,3", "3,2,0,1", "1,2,3,0"}; /* 0-1 0-2 1-2 2-3 */
  for (unsigned i = 0; i < 3; i++) {
    rc = wm_test_run(&out, &err, "count %s --pattern tailed-triangle --order %s --no-cache --device cpu --json",
                     f.graph, orders[i]);
    cr_assert_eq(rc, 0, "%s", err);
    cr_assert_eq(json_u64(out, "count"), want, "%s: %s", orders[i], out);
    free(out), free(err);
  }
  rc = wm_test_run(&out, &err, "plan --pattern tailed-triangle --order 3,2,0,1");
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(strstr(out, "order: v0=u3 v1=u2 v2=u0 v3=u1"), "%s", out);
  free(out), free(err);
  rc = wm_test_run(&out, &err, "list %s --pattern triangle --order 2,0,1 --no-cache --device cpu", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert_eq(lines(out), 4, "%s", out);
  free(out), free(err);
  static const struct { const char *args, *says; } bad[] = {
      {"--order 0,1,2", "--order lists 3 vertices; the pattern has 4"},
      {"--order 0,0,1,2", "not a permutation of 0..3"},
      {"--order 3,0,1,2", "vertex 0 has no earlier neighbour"},
      {"--order 0,x,1,2", "expected pattern vertex ids"},
      {"--order 3,2,0,1 --method formula", "matching order"},
  };
  for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    rc = wm_test_run(&out, &err, "count %s --pattern tailed-triangle %s --no-cache --device cpu", f.graph, bad[i].args);
    cr_assert_eq(rc, 2, "%s: rc %d", bad[i].args, rc);
    cr_assert(strstr(err, bad[i].says), "%s: %s", bad[i].args, err);
    free(out), free(err);
  }
  wm_test_rmdir(f.dir);
}

/* --planner sampled: the same count, the measured work in the plan's text
 * and JSON; the model alone measures nothing; the default (auto) glimpses
 * the model's order alone on a graph this small; plan needs a graph to
 * measure on; an unknown planner is a usage error. */
Test(match_cli, planner_sampled) {
  wm_test_files f;
  wm_test_graph_file(&f, graph_text);
  char *out, *err;
  int rc = wm_test_run(&out, &err, "count %s --pattern house --method enumerate --planner sampled --dump-plan --no-cache --device cpu",
                       f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(strstr(out, "sampled on the graph: "), "%s", out);
  char *plain;
  free(err);
  rc = wm_test_run(&plain, &err, "count %s --pattern house --method enumerate --planner model --dump-plan --no-cache --device cpu",
                   f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(strstr(plain, "sampled on the graph") == NULL);
  const char *c1 = strstr(out, "count      "), *c2 = strstr(plain, "count      ");
  cr_assert(c1 && c2 && strtoull(c1 + 11, NULL, 10) == strtoull(c2 + 11, NULL, 10), "%s\n%s", out, plain);
  free(out), free(err), free(plain);
  rc = wm_test_run(&out, &err, "count %s --pattern house --method enumerate --dump-plan --no-cache --device cpu", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(strstr(out, "(1 order measured)"), "%s", out);
  free(out), free(err);
  rc = wm_test_run(&out, &err, "plan --pattern house --graph %s --planner sampled --json --no-cache", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(json_valid_object(out) && strstr(out, "\"sampled_cost\":"), "%s", out);
  free(out), free(err);
  rc = wm_test_run(&out, &err, "plan --pattern house --planner sampled");
  cr_assert_eq(rc, 2);
  cr_assert(strstr(err, "give --graph"), "%s", err);
  free(out), free(err);
  rc = wm_test_run(&out, &err, "count %s --pattern house --planner random --no-cache --device cpu", f.graph);
  cr_assert_eq(rc, 2);
  cr_assert(strstr(err, "planner"), "%s", err);
  free(out), free(err);
  wm_test_rmdir(f.dir);
}

/* plan --order O --planner sampled: O measured as sampled measures the
 * orders it weighs (the same probes: the same figure where sampled takes
 * O), with --gpu too, and in the plan count --dump-plan shows; --order
 * with any other planner measures nothing. */
Test(match_cli, plan_order_sampled) {
  wm_test_files f;
  wm_test_graph_file(&f, graph_text);
  for (int gpu = 0; gpu < 2; gpu++) {
    const char *flag = gpu ? "--gpu" : "";
    char *out, *err;
    int rc = wm_test_run(&out, &err, "plan --pattern house --graph %s --planner sampled --json --no-cache %s", f.graph,
                         flag);
    cr_assert_eq(rc, 0, "%s", err);
    const double chosen = json_double(out, "sampled_cost");
    const char *o = strstr(out, "\"order\":[");
    cr_assert(chosen > 0.0 && o, "%s", out);
    char order[64] = "";
    for (const char *c = o + 9; *c && *c != ']' && strlen(order) + 2 < sizeof order; c++)
      strncat(order, c, 1);
    free(out), free(err);
    rc = wm_test_run(&out, &err, "plan --pattern house --graph %s --planner sampled --order %s --json --no-cache %s",
                     f.graph, order, flag);
    cr_assert_eq(rc, 0, "%s", err);
    cr_assert_eq(json_double(out, "sampled_cost"), chosen, "--order %s %s: %s", order, flag, out);
    cr_assert_eq(json_u64(out, "sampled_orders"), 1, "%s", out);
    free(out), free(err);
    rc = wm_test_run(&out, &err, "plan --pattern house --graph %s --order %s --json --no-cache %s", f.graph, order,
                     flag);
    cr_assert_eq(rc, 0, "%s", err);
    cr_assert(!strstr(out, "sampled_cost"), "auto measured a forced order: %s", out);
    free(out), free(err);
  }
  for (int sampled = 0; sampled < 2; sampled++) {
    char *out, *err;
    int rc = wm_test_run(&out, &err, "count %s --pattern house --order 0,1,2,3,4 --planner %s --dump-plan --no-cache "
                         "--device cpu --method enumerate", f.graph, sampled ? "sampled" : "auto");
    cr_assert_eq(rc, 0, "%s", err);
    cr_assert_eq(!!strstr(out, "sampled on the graph: "), sampled, "--planner %s: %s", sampled ? "sampled" : "auto",
                 out);
    free(out), free(err);
  }
  wm_test_rmdir(f.dir);
}

/* count by formula: the same counts as the plans', edge- and
 * vertex-induced; the method in the text, the JSON and the dumped plan;
 * --method formula refused where it does not apply; a count past 2^64
 * printed exactly. */
Test(match_cli, count_by_formula) {
  wm_test_files f;
  wm_test_graph_file(&f, graph_text);
  static const char *patterns[] = {"3-path", "4-path", "4-star", "tailed-triangle", "5-path", "fork", "bull",
                                   "house", "5-cycle", "K2,3", "W4", "gem"};
  for (unsigned i = 0; i < sizeof patterns / sizeof patterns[0]; i++)
    for (int induced = 0; induced <= 1; induced++) {
      char *out, *err;
      const char *ind = induced ? "--induced" : "";
      int rc = wm_test_run(&out, &err, "count %s --pattern %s %s --json --no-cache --device cpu", f.graph,
                           patterns[i], ind);
      cr_assert_eq(rc, 0, "%s", err);
      cr_assert(strstr(out, "\"method\":\"formula\""), "%s", out);
      const uint64_t by_formula = json_u64(out, "count");
      free(out), free(err);
      rc = wm_test_run(&out, &err, "count %s --pattern %s %s --json --no-cache --device cpu --method enumerate", f.graph,
                       patterns[i], ind);
      cr_assert_eq(rc, 0, "%s", err);
      cr_assert(strstr(out, "\"method\":\"enumerate\""), "%s", out);
      cr_assert_eq(json_u64(out, "count"), by_formula, "%s %s: formula %lu, plan %lu", patterns[i], ind,
                   (unsigned long)by_formula, (unsigned long)json_u64(out, "count"));
      free(out), free(err);
    }
  char *out, *err;
  int rc = wm_test_run(&out, &err, "count %s --pattern house --induced --dump-plan --no-cache --device cpu", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(strstr(out, "formula: house edge-induced = ") && strstr(out, "5-vertex motif table"), "%s", out);
  free(out), free(err);
  /* the dedicated kernels keep the triangle, cliques and diamond */
  rc = wm_test_run(&out, &err, "count %s --pattern diamond --json --no-cache --device cpu", f.graph);
  cr_assert(rc == 0 && strstr(out, "\"method\":\"enumerate\""), "%s", out);
  free(out), free(err);
  cr_assert_eq(wm_test_run(&out, &err, "count %s --pattern triangle --method formula --no-cache", f.graph), 2);
  free(out), free(err);
  cr_assert_eq(wm_test_run(&out, &err, "count %s --pattern 4-path --method formula --per-vertex --no-cache", f.graph),
               2);
  free(out), free(err);
  /* C(200000, 4) 5-stars, past 2^64 */
  char star[512];
  snprintf(star, sizeof star, "%s/star.txt", f.dir);
  FILE *sf = fopen(star, "w");
  for (unsigned v = 1; v <= 200000; v++) fprintf(sf, "0 %u\n", v);
  fclose(sf);
  rc = wm_test_run(&out, &err, "count %s --pattern 5-star --json --no-cache --device cpu", star);
  cr_assert_eq(rc, 0, "%s", err);
  wm_u128 want = (wm_u128)200000 * 199999 / 2 * 199998 / 3 * 199997 / 4;
  char digits[WM_I128_CHARS], key[80];
  cr_assert(want > (wm_u128)UINT64_MAX);
  snprintf(key, sizeof key, "\"count\":%s,", wm_u128_str(want, digits));
  cr_assert(strstr(out, key), "want %s in %s", key, out);
  free(out), free(err);
  wm_test_rmdir(f.dir);
}

Test(match_cli, list_matches) {
  wm_test_files f;
  wm_test_graph_file(&f, graph_text);
  char *out, *err;
  int rc = wm_test_run(&out, &err, "list %s --pattern triangle --no-cache", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert_eq(lines(out), 4, "%s", out);
  /* every line is a triangle of K4, in file ids */
  for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
    unsigned a, b, c;
    cr_assert_eq(sscanf(line, "%u %u %u", &a, &b, &c), 3, "%s", line);
    cr_assert(a % 10 == 0 && a >= 10 && a <= 40 && b >= 10 && b <= 40 && c >= 10 && c <= 40 && a != b && b != c &&
                  a != c,
              "%s", line);
  }
  cr_assert(strstr(err, "listed 4"), "%s", err);
  free(out), free(err);
  rc = wm_test_run(&out, &err, "list %s --pattern 2-path --limit 3 --no-cache", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert_eq(lines(out), 3, "--limit 3: %s", out);
  free(out), free(err);
  /* induced 4-path: pattern vertex order, so the ends are the path's ends */
  rc = wm_test_run(&out, &err, "list %s --pattern 4-path --induced --json --no-cache", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(json_valid_object(out), "%s", out);
  cr_assert_eq(json_u64(out, "listed"), 4, "%s", out);
  cr_assert(strstr(out, "[40,50,60,70]") || strstr(out, "[70,60,50,40]"), "%s", out);
  free(out), free(err);
  cr_assert_eq(wm_test_run(&out, &err, "list %s --pattern triangle --limit 0 --no-cache", f.graph), 2);
  free(out), free(err);
  wm_test_rmdir(f.dir);
}

Test(match_cli, list_output_file) {
  wm_test_files f;
  wm_test_graph_file(&f, graph_text);
  char *out, *err, path[600];
  snprintf(path, sizeof path, "%s/matches.txt", f.dir);
  int rc = wm_test_run(&out, &err, "list %s --pattern triangle --output %s --no-cache", f.graph, path);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(strstr(out, "listed 4") && strstr(out, path), "%s", out);
  free(out), free(err);
  FILE *fp = fopen(path, "r");
  cr_assert_not_null(fp);
  char buf[256];
  unsigned n = 0;
  while (fgets(buf, sizeof buf, fp)) n++;
  fclose(fp);
  cr_assert_eq(n, 4);
  cr_assert_eq(files_in(f.dir), 2, "only the graph and the output remain");
  /* failures leave neither the output nor a temporary file */
  remove(path);
  rc = wm_test_run(&out, &err, "list %s --pattern no-such-pattern --output %s --no-cache", f.graph, path);
  cr_assert_eq(rc, 1);
  free(out), free(err);
  rc = wm_test_run(&out, &err, "list %s/missing.txt --pattern triangle --output %s", f.dir, path);
  cr_assert_eq(rc, 1);
  free(out), free(err);
  rc = wm_test_run(&out, &err, "list %s --pattern triangle --output %s/no/such/dir/m.txt --no-cache", f.graph,
                   f.dir);
  cr_assert_eq(rc, 1);
  free(out), free(err);
  cr_assert_eq(files_in(f.dir), 1, "a failed list left files behind");
  /* --json with --output: the summary is JSON, the file has the lines */
  rc = wm_test_run(&out, &err, "list %s --pattern 2-path --limit 5 --output %s --json --no-cache", f.graph, path);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(json_valid_object(out), "%s", out);
  cr_assert_eq(json_u64(out, "listed"), 5);
  free(out), free(err);
  wm_test_rmdir(f.dir);
}

Test(match_cli, motifs_table) {
  wm_test_files f;
  wm_test_graph_file(&f, graph_text);
  char *out, *err;
  int rc = wm_test_run(&out, &err, "motifs %s --size 3 --no-cache --device cpu", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(strstr(out, "triangle") && strstr(out, "3-path") && strstr(out, "0-1 0-2 1-2"), "%s", out);
  free(out), free(err);
  rc = wm_test_run(&out, &err, "motifs %s --size 4 --json --no-cache --device cpu --threads 2", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(json_valid_object(out), "%s", out);
  cr_assert(strstr(out, "{\"name\":\"4-clique\",\"edges\":\"0-1 0-2 0-3 1-2 1-3 2-3\",\"count\":1,"
                        "\"counted_by\":\"enumerated\",\"edge_induced_count\":1}"),
            "%s", out);
  /* edge-induced 4-paths: the 4 induced ones, 2 in each of the 3 tailed
     triangles and 12 in the 4-clique */
  cr_assert(strstr(out, "{\"name\":\"4-path\",\"edges\":\"0-1 0-2 1-3\",\"count\":4,\"counted_by\":\"formula\","
                        "\"edge_induced_count\":22}"),
            "%s", out);
  cr_assert(strstr(out, "\"counted_by\":\"formula\"") && strstr(out, "\"method\":\"formula\""), "%s", out);
  /* connected 4-subsets: K4 (1), K4 minus one + 50 (3), 40-50-60 + one of 10 20 30 (3),
   * 40-50-60-70 (1) */
  cr_assert_eq(json_u64(out, "total"), 8, "%s", out);
  free(out), free(err);
  /* the enumeration gives the same total */
  rc = wm_test_run(&out, &err, "motifs %s --size 4 --json --no-cache --device cpu --method enumerate", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert_eq(json_u64(out, "total"), 8, "%s", out);
  cr_assert(strstr(out, "\"method\":\"enumerate\"") && strstr(out, "\"counted_by\":\"enumerated-induced\""),
            "%s", out);
  free(out), free(err);
  /* --trials: medians of repeated runs, the same counts; the wedges from degrees. */
  rc = wm_test_run(&out, &err, "motifs %s --size 3 --json --trials 3 --no-cache --device cpu", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(json_valid_object(out), "%s", out);
  cr_assert_eq(json_u64(out, "trials"), 3, "%s", out);
  cr_assert(strstr(out, "\"how\":\"formula: "), "%s", out);
  free(out), free(err);
  cr_assert_eq(wm_test_run(&out, &err, "motifs %s --size 3 --method sideways --no-cache", f.graph), 2);
  free(out), free(err);
  cr_assert_eq(wm_test_run(&out, &err, "motifs %s --size 3 --trials 0 --no-cache", f.graph), 2);
  free(out), free(err);
  cr_assert_eq(wm_test_run(&out, &err, "motifs %s --size 6 --no-cache", f.graph), 2);
  free(out), free(err);
  cr_assert_eq(wm_test_run(&out, &err, "motifs %s --no-cache", f.graph), 2);
  free(out), free(err);
  wm_test_rmdir(f.dir);
}

Test(match_cli, plan_command) {
  wm_test_files f;
  wm_test_graph_file(&f, graph_text);
  char *out, *err;
  int rc = wm_test_run(&out, &err, "plan --pattern 4-clique");
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(strstr(out, "hoisted from level 2") && strstr(out, "estimated cost") && strstr(out, "restrictions"),
            "%s", out);
  free(out), free(err);
  rc = wm_test_run(&out, &err, "plan --pattern 4-clique --no-code-motion");
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert_null(strstr(out, "hoisted from"), "%s", out);
  free(out), free(err);
  rc = wm_test_run(&out, &err, "plan --pattern house --induced --graph %s --no-cache --json", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(json_valid_object(out), "%s", out);
  cr_assert(strstr(out, "\"induced\":true") && strstr(out, "\"from_graph\":true") && strstr(out, "\"ops\":["),
            "%s", out);
  free(out), free(err);
  cr_assert_eq(wm_test_run(&out, &err, "plan"), 2);
  free(out), free(err);
  cr_assert_eq(wm_test_run(&out, &err, "plan --pattern nope"), 1);
  free(out), free(err);
  wm_test_rmdir(f.dir);
}

/* Occurrences of needle in s. */
static unsigned occurrences(const char *s, const char *needle) {
  unsigned n = 0;
  for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle)) n++;
  return n;
}

/* plan --json lists the orders it chose among: each with the model's
 * estimate, measured ones (--planner sampled) with their work too, the
 * plan's own marked chosen once; a forced order lists none; count
 * --dump-plan --json carries the same list. */
Test(match_cli, plan_candidates) {
  wm_test_files f;
  wm_test_graph_file(&f, graph_text);
  char *out, *err;
  int rc = wm_test_run(&out, &err, "plan --pattern house --graph %s --planner sampled --json --no-cache", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(json_valid_object(out), "%s", out);
  const char *list = strstr(out, "\"candidate_orders\":[");
  cr_assert(list && json_u64(out, "orders_scored") > 0, "%s", out);
  const unsigned n = occurrences(list, "\"model_cost\":");
  cr_assert(n > 1, "%s", out);
  cr_assert_eq(occurrences(list, "\"sampled_cost\":"), n, "every candidate measured: %s", out);
  cr_assert_eq(occurrences(list, "\"chosen\":true"), 1u, "%s", out);
  free(out), free(err);
  rc = wm_test_run(&out, &err, "plan --pattern house --graph %s --planner model --json --no-cache", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  list = strstr(out, "\"candidate_orders\":[");
  cr_assert(list && occurrences(list, "\"model_cost\":") == n, "the same shortlists: %s", out);
  cr_assert(!strstr(list, "\"sampled_cost\":") && occurrences(list, "\"chosen\":true") == 1, "%s", out);
  free(out), free(err);
  rc = wm_test_run(&out, &err, "plan --pattern house --graph %s --order 0,1,2,3,4 --json --no-cache", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(json_valid_object(out) && !strstr(out, "\"candidate_orders\"") && !strstr(out, "orders_scored"), "%s", out);
  free(out), free(err);
  rc = wm_test_run(&out, &err, "count %s --pattern house --method enumerate --dump-plan --json --no-cache --device cpu",
                   f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(json_valid_object(out) && strstr(out, "\"candidate_orders\":[{\"order\":["), "%s", out);
  free(out), free(err);
  wm_test_rmdir(f.dir);
}

/* plan --graph plans as count does: on a skewed graph, where auto
 * measures orders by random probes rooted by the graph's numbering, the
 * plan's measured work, orders measured and reads equal those of count
 * --dump-plan (both renumber the graph by degree first). */
Test(match_cli, plan_as_count_plans) {
  wm_test_files f;
  wm_test_graph_file(&f, graph_text);
  char path[600], *out, *err, *dumped;
  snprintf(path, sizeof path, "%s/cl.wmg", f.dir);
  int rc = wm_test_run(&out, &err, "gen chung-lu --vertices 2000 --mean-degree 4 --exponent 2.1 --seed 3 --output %s",
                       path);
  cr_assert_eq(rc, 0, "%s", err);
  free(out), free(err);
  rc = wm_test_run(&out, &err, "plan --graph %s --pattern 5-path --json", path);
  cr_assert_eq(rc, 0, "%s", err);
  free(err);
  rc = wm_test_run(&dumped, &err, "count %s --pattern 5-path --method enumerate --dump-plan --json --device cpu", path);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(json_u64(out, "sampled_orders") > 1, "no orders measured: %s", out);
  const char *keys[] = {"sampled_cost", "sampled_orders", "sampled_reads", "\"order\""};
  for (unsigned i = 0; i < 4; i++) {
    const char *a = strstr(out, keys[i]), *b = strstr(dumped, keys[i]);
    cr_assert(a && b, "%s: %s | %s", keys[i], out, dumped);
    cr_assert(!strncmp(a, b, strcspn(a, "]}") < 40 ? strcspn(a, "]}") : 40), "%s differs: %.60s | %.60s", keys[i], a, b);
  }
  free(out), free(err), free(dumped);
  wm_test_rmdir(f.dir);
}

/* GPU tuning flags: checked before anything is loaded (a bad value is a
 * usage error even when the graph is missing), ignored by the CPU path. */
Test(match_cli, gpu_tuning_flags) {
  wm_test_files f;
  wm_test_graph_file(&f, graph_text);
  char *out, *err;
  cr_assert_eq(wm_test_run(&out, &err, "count %s/missing.txt --pattern triangle --steal sideways", f.dir), 2);
  cr_assert(strstr(err, "none|block|two-level"), "%s", err);
  free(out), free(err);
  cr_assert_eq(wm_test_run(&out, &err, "count %s --pattern triangle --unroll 0 --no-cache", f.graph), 2);
  free(out), free(err);
  cr_assert_eq(wm_test_run(&out, &err, "motifs %s --size 3 --gpus 0 --no-cache", f.graph), 2);
  free(out), free(err);
  cr_assert_eq(wm_test_run(&out, &err, "count %s --pattern triangle --level0 arcs --no-cache", f.graph), 2);
  cr_assert(strstr(err, "auto|vertices|edges"), "%s", err);
  free(out), free(err);
  cr_assert_eq(wm_test_run(&out, &err, "list %s --pattern triangle --gpu-chunk 0 --no-cache", f.graph), 2);
  free(out), free(err);
  cr_assert_eq(wm_test_run(&out, &err, "count %s --pattern diamond --gpu-table 9000 --no-cache", f.graph), 2);
  cr_assert(strstr(err, "gpu-table"), "%s", err);
  free(out), free(err);
  int rc = wm_test_run(&out, &err,
                       "count %s --pattern 4-clique --device cpu --steal block --unroll 4 --gpus 1 --level0 vertices "
                       "--gpu-chunk 8 --gpu-table 0 --no-cache --json",
                       f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert_eq(json_u64(out, "count"), 1, "one K4 in the graph: %s", out);
  free(out), free(err);
  wm_test_rmdir(f.dir);
}
