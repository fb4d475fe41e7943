/* The bfs and reach commands: output, --validate, --output files, the
 * Graph500 protocol, multi-source lists, exit codes (0 ok, 1 bad input,
 * 2 usage, 3 device). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matcher.h"
#include "test_bfs_graphs.h"

static char fb[1024];

static void setup(void) { wm_test_real_graph(fb, sizeof fb, "facebook_combined.txt"); }

static wm_graph *load_fb(void) {
  wm_load_options lo;
  wm_load_options_init(&lo);
  lo.use_cache = 0;
  wm_graph *g = NULL;
  wm_error err;
  cr_assert_eq(wm_graph_load(fb, &lo, &g, NULL, &err), WM_OK, "%s", err.msg);
  return g;
}

static uint64_t number_after(const char *text, const char *key) {
  const char *p = strstr(text, key);
  cr_assert_not_null(p, "'%s' missing in:\n%s", key, text);
  return strtoull(p + strlen(key), NULL, 10);
}

TestSuite(bfs_cli, .init = setup);

Test(bfs_cli, single_source_validated) {
  char *out, *err;
  int rc = wm_test_run(&out, &err, "bfs '%s' --no-cache --source 0 --validate --device cpu", fb);
  cr_assert_eq(rc, 0, "stderr: %s", err);
  cr_assert_eq(number_after(out, "reached    "), 4039);
  cr_assert(strstr(out, "valid      yes"), "%s", out);
  cr_assert(strstr(out, "GTEPS"), "%s", out);
  cr_assert(strstr(out, "levels     0:1 "), "%s", out);
  cr_assert_eq(number_after(out, "edges      "), 88234, "Graph500 edges of a connected graph");
  free(out);
  free(err);
}

Test(bfs_cli, json) {
  char *out;
  int rc = wm_test_run(&out, NULL, "bfs '%s' --no-cache --source 0 --validate --device cpu --json", fb);
  cr_assert_eq(rc, 0);
  cr_assert_eq(number_after(out, "\"reached\":"), 4039);
  cr_assert_eq(number_after(out, "\"valid\":"), 1, "%s", out);
  cr_assert(strstr(out, "\"teps_edges_convention\":\"Graph500"), "%s", out);
  cr_assert(strstr(out, "\"per_level\":[1,"), "%s", out);
  free(out);
}

Test(bfs_cli, output_levels_and_parents) {
  char dir[256], lv[512], pa[512], *out;
  wm_test_tmpdir(dir, sizeof dir);
  snprintf(lv, sizeof lv, "%s/levels.txt", dir);
  snprintf(pa, sizeof pa, "%s/parents.txt", dir);
  cr_assert_eq(wm_test_run(&out, NULL, "bfs '%s' --no-cache --source 0 --device cpu --output '%s'", fb, lv), 0);
  free(out);
  cr_assert_eq(wm_test_run(&out, NULL, "bfs '%s' --no-cache --source 0 --device cpu --output '%s' --write parents",
                           fb, pa), 0);
  free(out);
  wm_graph *g = load_fb();
  uint32_t *level = calloc(g->n, 4), *parent = calloc(g->n, 4), lines = 0;
  FILE *fl = fopen(lv, "r"), *fp = fopen(pa, "r");
  cr_assert(fl && fp);
  char buf[256];
  cr_assert(fgets(buf, sizeof buf, fl) && buf[0] == '#', "header line");
  cr_assert(fgets(buf, sizeof buf, fp) && buf[0] == '#', "header line");
  unsigned id, x, id2, y;
  while (fscanf(fl, "%u %u", &id, &x) == 2 && fscanf(fp, "%u %u", &id2, &y) == 2) {
    cr_assert_eq(id, id2);
    cr_assert_lt(id, g->n);
    level[id] = x, parent[id] = y, lines++;
  }
  fclose(fl);
  fclose(fp);
  cr_assert_eq(lines, g->n, "one line per vertex");
  /* the files form a valid BFS result */
  wm_bfs_result r = {0};
  r.level = level, r.parent = parent, r.reached = g->n, r.depth = 0;
  for (uint32_t v = 0; v < g->n; v++) r.depth = level[v] + 1 > r.depth ? level[v] + 1 : r.depth;
  uint32_t src = 0;
  tb_valid(g, &src, 1, &r, "levels and parents written by the command");
  free(level);
  free(parent);
  wm_graph_destroy(g);
  wm_test_rmdir(dir);
}

Test(bfs_cli, graph500_protocol) {
  char *out;
  int rc = wm_test_run(&out, NULL, "bfs '%s' --no-cache --sources 8 --seed 3 --validate --device cpu", fb);
  cr_assert_eq(rc, 0);
  cr_assert(strstr(out, "roots      8 random vertices"), "%s", out);
  cr_assert(strstr(out, "8/8"), "%s", out);
  free(out);
  rc = wm_test_run(&out, NULL, "bfs '%s' --no-cache --sources 4 --device cpu --ablation --json", fb);
  cr_assert_eq(rc, 0);
  cr_assert(strstr(out, "\"name\":\"top-down\"") && strstr(out, "\"name\":\"direction-optimising\""), "%s", out);
  free(out);
}

Test(bfs_cli, source_list_and_max_depth) {
  char dir[256], list[512], *out;
  wm_test_tmpdir(dir, sizeof dir);
  wm_test_write(list, sizeof list, dir, "src.txt", "# roots\n0 107\n348,  414\n");
  int rc = wm_test_run(&out, NULL, "bfs '%s' --no-cache --source-list '%s' --validate --device cpu", fb, list);
  cr_assert_eq(rc, 0);
  cr_assert(strstr(out, "sources    4 vertices (multi-source)"), "%s", out);
  cr_assert(strstr(out, "levels     0:4 "), "%s", out);
  free(out);
  wm_graph *g = load_fb();
  rc = wm_test_run(&out, NULL, "bfs '%s' --no-cache --source 0 --max-depth 1 --validate --device cpu", fb);
  cr_assert_eq(rc, 0);
  cr_assert_eq(number_after(out, "reached    "), 1 + wm_degree(g, 0), "the ball of radius 1");
  free(out);
  wm_test_write(list, sizeof list, dir, "bad.txt", "0 x1\n");
  rc = wm_test_run(&out, NULL, "bfs '%s' --no-cache --source-list '%s' --device cpu", fb, list);
  cr_assert_eq(rc, 1, "a malformed id is bad input");
  free(out);
  wm_graph_destroy(g);
  wm_test_rmdir(dir);
}

Test(bfs_cli, usage_errors) {
  const char *bad[] = {
      "--device cpu",                                       /* no source */
      "--source 0 --sources 4 --device cpu",                /* two modes */
      "--source 0 --write parents --device cpu",            /* --write without --output */
      "--sources 4 --output /tmp/x --device cpu",           /* --output with many searches */
      "--source 0 --alpha 2 --device cpu",                  /* alpha out of range */
      "--source 0 --device tpu",                            /* unknown device */
      "--source 0 --device cpu --probe-bandwidth",          /* probe needs the GPU */
      "--source 0 --device cpu --ablation --no-hub-cache",  /* ablation picks its variants */
      "--source 0 --frobnicate",                            /* unknown option */
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char *err;
    int rc = wm_test_run(NULL, &err, "bfs '%s' --no-cache %s", fb, bad[i]);
    cr_assert_eq(rc, 2, "'%s' should be a usage error, got %d: %s", bad[i], rc, err);
    cr_assert(strlen(err) > 0, "a message for '%s'", bad[i]);
    free(err);
  }
}

Test(bfs_cli, input_errors) {
  char *err;
  int rc = wm_test_run(NULL, &err, "bfs '%s' --no-cache --source 999999 --device cpu", fb);
  cr_assert_eq(rc, 1, "%s", err);
  cr_assert(strstr(err, "no vertex"), "%s", err);
  free(err);
  rc = wm_test_run(NULL, &err, "bfs /nonexistent/graph.txt --source 0 --device cpu");
  cr_assert_eq(rc, 1, "%s", err);
  free(err);
}

Test(bfs_cli, device_gpu) {
  char *out, *err;
  int rc = wm_test_run(&out, &err, "bfs '%s' --no-cache --source 0 --device gpu --validate", fb);
  if (wm_gpu_available()) {
    cr_assert_eq(rc, 0, "%s", err);
    cr_assert(strstr(out, "valid      yes"), "%s", out);
  } else {
    cr_assert_eq(rc, 3, "--device gpu without a device is a device error: %s", err);
    cr_assert(strstr(err, "no CUDA device"), "%s", err);
  }
  free(out);
  free(err);
}

Test(bfs_cli, reach) {
  wm_graph *g = load_fb();
  uint32_t s = 0;
  wm_bfs_options o;
  wm_bfs_options_init(&o);
  wm_bfs_result r;
  wm_error e;
  cr_assert_eq(wm_bfs_cpu(g, &s, 1, &o, &r, &e), WM_OK);
  char *out;
  int rc = wm_test_run(&out, NULL, "reach '%s' --no-cache --from 0 --to 4000 --path --device cpu", fb);
  cr_assert_eq(rc, 0);
  cr_assert(strstr(out, "reachable  yes"), "%s", out);
  uint64_t hops = number_after(out, "hops       ");
  cr_assert_eq(hops, r.level[4000], "the shortest distance");
  /* the path: hops + 1 vertices from 0 to 4000, each step an edge */
  const char *p = strstr(out, "path      ");
  cr_assert_not_null(p);
  p += 10;
  uint32_t prev = WM_NO_VERTEX, n = 0;
  for (char *end; *p && *p != '\n'; p = end) {
    uint32_t v = (uint32_t)strtoul(p, &end, 10);
    if (end == p) break;
    if (n == 0) cr_assert_eq(v, 0);
    if (prev != WM_NO_VERTEX) {
      int adj = 0;
      for (uint64_t j = g->offsets[prev]; j < g->offsets[prev + 1]; j++) adj |= g->adj[j] == v;
      cr_assert(adj, "path step %u - %u is not an edge", prev, v);
    }
    prev = v, n++;
  }
  cr_assert_eq(n, hops + 1);
  cr_assert_eq(prev, 4000);
  free(out);
  wm_bfs_result_free(&r);
  wm_graph_destroy(g);
}

Test(bfs_cli, reach_unreachable_and_directed) {
  char dir[256], path[512], *out, *err;
  wm_test_tmpdir(dir, sizeof dir);
  wm_test_write(path, sizeof path, dir, "g.txt", "# two components\n0 1\n1 2\n5 6\n");
  int rc = wm_test_run(&out, NULL, "reach '%s' --no-cache --from 0 --to 6 --device cpu", path);
  cr_assert_eq(rc, 0, "unreachable is an answer, not an error");
  cr_assert(strstr(out, "reachable  no"), "%s", out);
  free(out);
  rc = wm_test_run(&out, NULL, "reach '%s' --no-cache --from 0 --to 6 --device cpu --json", path);
  cr_assert_eq(rc, 0);
  cr_assert(strstr(out, "\"reachable\":false") && strstr(out, "\"hops\":null"), "%s", out);
  cr_assert(strstr(out, "\"complete\":true"), "the whole component was searched: %s", out);
  free(out);
  /* --max-hops stops short of W: not a no, but "not within H hops" */
  rc = wm_test_run(&out, NULL, "reach '%s' --no-cache --from 0 --to 2 --max-hops 1 --device cpu", path);
  cr_assert_eq(rc, 0);
  cr_assert(strstr(out, "reachable  not within 1 hop "), "%s", out);
  free(out);
  rc = wm_test_run(&out, NULL, "reach '%s' --no-cache --from 0 --to 2 --max-hops 1 --device cpu --json", path);
  cr_assert(strstr(out, "\"reachable\":false") && strstr(out, "\"complete\":false") &&
                strstr(out, "\"max_hops\":1"),
            "%s", out);
  free(out);
  rc = wm_test_run(&out, NULL, "reach '%s' --no-cache --from 0 --to 6 --max-hops 5 --device cpu", path);
  cr_assert(strstr(out, "reachable  no\n"), "the search ended before the limit: a plain no: %s", out);
  free(out);
  rc = wm_test_run(&out, NULL, "reach '%s' --no-cache --directed --from 2 --to 0 --device cpu", path);
  cr_assert_eq(rc, 0);
  cr_assert(strstr(out, "reachable  no"), "arcs point 0 -> 1 -> 2: %s", out);
  free(out);
  rc = wm_test_run(&out, NULL, "reach '%s' --no-cache --directed --from 0 --to 2 --device cpu", path);
  cr_assert_eq(rc, 0);
  cr_assert_eq(number_after(out, "hops       "), 2);
  free(out);
  rc = wm_test_run(&out, NULL, "bfs '%s' --no-cache --directed --source 1 --validate --device cpu", path);
  cr_assert_eq(rc, 0);
  cr_assert_eq(number_after(out, "reached    "), 2, "1 reaches only 2 along the arcs");
  free(out);
  rc = wm_test_run(NULL, &err, "reach '%s' --no-cache --from 0 --device cpu", path);
  cr_assert_eq(rc, 2, "--to is required: %s", err);
  free(err);
  rc = wm_test_run(NULL, &err, "reach '%s' --no-cache --from 0 --to 77 --device cpu", path);
  cr_assert_eq(rc, 1, "no vertex 77: %s", err);
  free(err);
  wm_test_rmdir(dir);
}
