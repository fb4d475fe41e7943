/* CPU BFS (direction-optimising, OpenMP) against a plain queue BFS, on
 * random, real, Kronecker, grid, directed and disconnected graphs, with and
 * without direction optimisation, over 1 and 2 threads; max_depth balls,
 * multi-source, target, the summary figures, the transpose. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_bfs_graphs.h"

/* Runs wm_bfs_cpu in every configuration and compares with the oracle. */
static void check_all(const wm_graph *g, const uint32_t *src, uint32_t ns, const char *name) {
  uint32_t *want = tb_plain_bfs(g, src, ns, UINT32_MAX);
  for (int dopt = 0; dopt <= 1; dopt++)
    for (int threads = 1; threads <= 2; threads++) {
      wm_bfs_options o;
      wm_bfs_options_init(&o);
      o.direction_opt = dopt;
      o.threads = threads;
      wm_bfs_result r;
      wm_error err;
      int rc = wm_bfs_cpu(g, src, ns, &o, &r, &err);
      cr_assert_eq(rc, WM_OK, "%s: %s", name, err.msg);
      char what[128];
      snprintf(what, sizeof what, "%s (direction_opt %d, %d threads)", name, dopt, threads);
      tb_same_levels(g, want, r.level, what);
      tb_valid(g, src, ns, &r, what);
      cr_assert_eq(r.truncated, 0, "%s: not truncated", what);
      if (!dopt) cr_assert_eq(r.bottom_up_levels, 0, "%s: top-down only", what);
      wm_bfs_result_free(&r);
    }
  free(want);
}

/* Levels with direction optimisation; returns the bottom-up level count. */
static uint32_t bottom_up_levels(const wm_graph *g, uint32_t s) {
  wm_bfs_options o;
  wm_bfs_options_init(&o);
  wm_bfs_result r;
  wm_error err;
  cr_assert_eq(wm_bfs_cpu(g, &s, 1, &o, &r, &err), WM_OK, "%s", err.msg);
  uint32_t b = r.bottom_up_levels;
  wm_bfs_result_free(&r);
  return b;
}

Test(bfs_cpu, er_connected) {
  wm_graph *g = wm_test_er(1500, 0.01, 11);
  uint32_t s[] = {0, 777, 1499};
  for (int i = 0; i < 3; i++) check_all(g, &s[i], 1, "ER(1500, 0.01)");
  wm_graph_destroy(g);
}

Test(bfs_cpu, er_disconnected) {
  /* mean degree ~0.9: many small components and isolated vertices */
  wm_graph *g = wm_test_er(3000, 0.0003, 5);
  uint32_t s[] = {0, 1, 2, 2999};
  for (int i = 0; i < 4; i++) check_all(g, &s[i], 1, "ER(3000, 0.0003)");
  wm_graph_destroy(g);
}

Test(bfs_cpu, powerlaw_goes_bottom_up) {
  wm_graph *g = wm_test_powerlaw(3000, 12, 4, 0.3, 3);
  uint32_t s[] = {0, 100, 2999};
  for (int i = 0; i < 3; i++) check_all(g, &s[i], 1, "power-law");
  cr_assert_gt(bottom_up_levels(g, 2999), 0, "hubs in the frontier should trigger bottom-up steps");
  wm_graph_destroy(g);
}

Test(bfs_cpu, directed) {
  wm_graph *g = tb_directed(4000, 4, 9);
  uint32_t s[] = {0, 17, 3999};
  for (int i = 0; i < 3; i++) check_all(g, &s[i], 1, "directed");
  /* the transpose handed in by the caller gives the same levels */
  wm_graph *t = NULL;
  wm_error err;
  cr_assert_eq(wm_graph_transpose(g, &t, &err), WM_OK);
  wm_bfs_options o;
  wm_bfs_options_init(&o);
  o.transpose = t;
  wm_bfs_result r;
  cr_assert_eq(wm_bfs_cpu(g, &s[1], 1, &o, &r, &err), WM_OK, "%s", err.msg);
  uint32_t *want = tb_plain_bfs(g, &s[1], 1, UINT32_MAX);
  tb_same_levels(g, want, r.level, "directed with a given transpose");
  tb_valid(g, &s[1], 1, &r, "directed with a given transpose");
  free(want);
  wm_bfs_result_free(&r);
  wm_graph_destroy(t);
  wm_graph_destroy(g);
}

Test(bfs_cpu, directed_bottom_up_uses_in_arcs) {
  /* vertices below n/64 are out-hubs; a search from one of them goes
   * bottom-up at once with alpha 0, which needs the in-arcs */
  wm_graph *g = tb_directed(3000, 6, 4);
  uint32_t s = 5;
  wm_bfs_options o;
  wm_bfs_options_init(&o);
  o.alpha = 0.0;
  wm_bfs_result r;
  wm_error err;
  cr_assert_eq(wm_bfs_cpu(g, &s, 1, &o, &r, &err), WM_OK, "%s", err.msg);
  uint32_t *want = tb_plain_bfs(g, &s, 1, UINT32_MAX);
  tb_same_levels(g, want, r.level, "directed, alpha 0");
  tb_valid(g, &s, 1, &r, "directed, alpha 0");
  cr_assert_gt(r.bottom_up_levels, 0, "alpha 0 must go bottom-up as soon as a hub is in the frontier");
  free(want);
  wm_bfs_result_free(&r);
  wm_graph_destroy(g);
}

Test(bfs_cpu, facebook) {
  wm_graph *g = wm_test_load_real("facebook_combined.txt");
  uint32_t s[] = {0, 107, 4038};
  for (int i = 0; i < 3; i++) check_all(g, &s[i], 1, "facebook");
  wm_bfs_options o;
  wm_bfs_options_init(&o);
  wm_bfs_result r;
  wm_error err;
  cr_assert_eq(wm_bfs_cpu(g, &s[0], 1, &o, &r, &err), WM_OK);
  /* SNAP: ego-Facebook is one connected component of 4,039 vertices and 88,234 edges */
  cr_assert_eq(r.reached, 4039);
  cr_assert_eq(r.teps_edges, 88234, "Graph500 TEPS edges of a connected graph = all its edges");
  cr_assert_eq(r.edges_traversed, 2 * 88234);
  wm_bfs_result_free(&r);
  wm_graph_destroy(g);
}

Test(bfs_cpu, kronecker) {
  wm_gen_options go;
  wm_gen_kron_defaults(&go, 15, 7); /* 32768 vertices: the parallel steps run */
  wm_graph *g = NULL;
  wm_error err;
  cr_assert_eq(wm_generate(&go, &g, &err), WM_OK, "%s", err.msg);
  uint32_t roots[3], k = 0;
  for (uint32_t v = 0; v < g->n && k < 3; v += 997)
    if (wm_degree(g, v) > 0) roots[k++] = v;
  cr_assert_eq(k, 3);
  for (uint32_t i = 0; i < k; i++) check_all(g, &roots[i], 1, "Kronecker scale 15");
  cr_assert_gt(bottom_up_levels(g, roots[0]), 0, "a Kronecker search should go bottom-up");
  wm_graph_destroy(g);
}

Test(bfs_cpu, grid_depth) {
  wm_graph *g = tb_grid(60, 70);
  uint32_t corner = 0, mid = 30 * 70 + 35;
  check_all(g, &corner, 1, "grid 60x70 from a corner");
  check_all(g, &mid, 1, "grid 60x70 from the middle");
  wm_bfs_options o;
  wm_bfs_options_init(&o);
  wm_bfs_result r;
  wm_error err;
  cr_assert_eq(wm_bfs_cpu(g, &corner, 1, &o, &r, &err), WM_OK);
  cr_assert_eq(r.depth, 60 + 70 - 1, "corner to corner is rows + cols - 2 hops");
  cr_assert_eq(r.level[60 * 70 - 1], 60 + 70 - 2);
  wm_bfs_result_free(&r);
  wm_graph_destroy(g);
}

Test(bfs_cpu, path_graph) {
  wm_graph *g = tb_path(5000);
  uint32_t s = 2500;
  check_all(g, &s, 1, "path of 5000");
  wm_graph_destroy(g);
}

Test(bfs_cpu, max_depth_ball) {
  wm_graph *g = wm_test_powerlaw(2000, 8, 2, 0.2, 21);
  uint32_t s = 1999;
  for (uint32_t h = 0; h <= 4; h++)
    for (int dopt = 0; dopt <= 1; dopt++) {
      wm_bfs_options o;
      wm_bfs_options_init(&o);
      o.max_depth = h;
      o.direction_opt = dopt;
      wm_bfs_result r;
      wm_error err;
      cr_assert_eq(wm_bfs_cpu(g, &s, 1, &o, &r, &err), WM_OK);
      uint32_t *want = tb_plain_bfs(g, &s, 1, h);
      char what[64];
      snprintf(what, sizeof what, "ball of radius %u (dopt %d)", h, dopt);
      tb_same_levels(g, want, r.level, what);
      for (uint32_t v = 0; v < g->n; v++)
        cr_assert(r.level[v] == WM_UNREACHED || r.level[v] <= h, "%s: level %u beyond the ball", what, r.level[v]);
      tb_valid(g, &s, 1, &r, what);
      free(want);
      wm_bfs_result_free(&r);
    }
  wm_graph_destroy(g);
}

Test(bfs_cpu, multi_source) {
  wm_graph *g = wm_test_er(2000, 0.002, 8);
  uint32_t s[] = {5, 900, 5, 1999, 42, 900}; /* duplicates are ignored */
  check_all(g, s, 6, "multi-source");
  wm_graph *grid = tb_grid(40, 40);
  uint32_t corners[] = {0, 39, 1560, 1599};
  check_all(grid, corners, 4, "grid from its four corners");
  wm_bfs_options o;
  wm_bfs_options_init(&o);
  wm_bfs_result r;
  wm_error err;
  cr_assert_eq(wm_bfs_cpu(grid, corners, 4, &o, &r, &err), WM_OK);
  cr_assert_eq(r.depth, 39, "the centre of a 40x40 grid is 38 hops from the nearest corner");
  cr_assert_eq(r.per_level[0], 4);
  wm_bfs_result_free(&r);
  wm_graph_destroy(grid);
  wm_graph_destroy(g);
}

Test(bfs_cpu, target_stops_early) {
  wm_graph *g = tb_grid(50, 50);
  uint32_t s = 0, t = 3 * 50 + 4; /* 7 hops away */
  wm_bfs_options o;
  wm_bfs_options_init(&o);
  o.target = t;
  wm_bfs_result r;
  wm_error err;
  cr_assert_eq(wm_bfs_cpu(g, &s, 1, &o, &r, &err), WM_OK);
  cr_assert_eq(r.level[t], 7);
  cr_assert_eq(r.depth, 8, "the search stops on the level that reaches the target");
  cr_assert(r.truncated);
  cr_assert_lt(r.reached, 2500);
  tb_valid(g, &s, 1, &r, "target");
  wm_bfs_result_free(&r);
  wm_graph_destroy(g);
}

Test(bfs_cpu, without_parents) {
  wm_graph *g = wm_test_powerlaw(1500, 10, 3, 0.3, 2);
  uint32_t s = 3;
  wm_bfs_options o;
  wm_bfs_options_init(&o);
  o.want_parents = 0;
  wm_bfs_result r;
  wm_error err;
  cr_assert_eq(wm_bfs_cpu(g, &s, 1, &o, &r, &err), WM_OK);
  cr_assert_null(r.parent);
  uint32_t *want = tb_plain_bfs(g, &s, 1, UINT32_MAX);
  tb_same_levels(g, want, r.level, "no parents");
  tb_valid(g, &s, 1, &r, "no parents");
  free(want);
  wm_bfs_result_free(&r);
  wm_graph_destroy(g);
}

Test(bfs_cpu, bad_arguments) {
  wm_graph *g = tb_path(10);
  wm_bfs_options o;
  wm_bfs_options_init(&o);
  wm_bfs_result r;
  wm_error err;
  uint32_t bad = 10, good = 0;
  cr_assert_eq(wm_bfs_cpu(g, &bad, 1, &o, &r, &err), WM_EINPUT);
  cr_assert(strstr(err.msg, "source 10"), "message: %s", err.msg);
  cr_assert_eq(wm_bfs_cpu(g, &good, 0, &o, &r, &err), WM_EUSAGE);
  o.target = 99;
  cr_assert_eq(wm_bfs_cpu(g, &good, 1, &o, &r, &err), WM_EUSAGE);
  wm_graph_destroy(g);
}

Test(bfs_cpu, summary_figures) {
  wm_graph *g = wm_test_er(800, 0.004, 13);
  uint32_t s = 1;
  wm_bfs_options o;
  wm_bfs_options_init(&o);
  wm_bfs_result r;
  wm_error err;
  cr_assert_eq(wm_bfs_cpu(g, &s, 1, &o, &r, &err), WM_OK);
  uint64_t reached = 0, degsum = 0, sum_levels = 0;
  for (uint32_t v = 0; v < g->n; v++)
    if (r.level[v] != WM_UNREACHED) reached++, degsum += wm_degree(g, v);
  for (uint32_t l = 0; l < r.depth; l++) sum_levels += r.per_level[l];
  cr_assert_eq(r.reached, reached);
  cr_assert_eq(sum_levels, reached);
  cr_assert_eq(r.edges_traversed, degsum);
  cr_assert_eq(r.teps_edges, degsum / 2);
  wm_bfs_result_free(&r);
  wm_graph_destroy(g);
}

Test(bfs_cpu, transpose) {
  wm_graph *g = tb_directed(500, 5, 77);
  wm_graph *t = NULL;
  wm_error err;
  cr_assert_eq(wm_graph_transpose(g, &t, &err), WM_OK);
  cr_assert_eq(t->m, g->m);
  for (uint32_t v = 0; v < t->n; v++)
    for (uint64_t j = t->offsets[v]; j < t->offsets[v + 1]; j++) {
      uint32_t u = t->adj[j];
      if (j > t->offsets[v]) cr_assert_lt(t->adj[j - 1], u, "row %u of the transpose not sorted", v);
      int found = 0;
      for (uint64_t k = g->offsets[u]; k < g->offsets[u + 1]; k++) found |= g->adj[k] == v;
      cr_assert(found, "transpose has %u -> %u but the graph has no arc %u -> %u", v, u, u, v);
    }
  wm_graph_destroy(t);
  wm_graph_destroy(g);
}

static uint64_t degree_at_least(const wm_graph *g, uint64_t t) {
  uint64_t c = 0;
  for (uint32_t v = 0; v < g->n; v++) c += wm_degree(g, v) >= t;
  return c;
}

Test(bfs_cpu, hub_threshold) {
  wm_graph *g = tb_hub(3000, 2, 0, 1); /* one vertex of degree 2999, the rest ~5 */
  uint64_t tau, nhubs;
  wm_bfs_hub_threshold(g, &tau, &nhubs);
  cr_assert_geq(nhubs, 1);
  cr_assert_geq(tau, 32);
  cr_assert_leq(tau, wm_degree(g, 0), "the star's centre is a hub");
  cr_assert_eq(degree_at_least(g, tau), nhubs);
  wm_graph_destroy(g);
  wm_graph *grid = tb_grid(40, 40);
  wm_bfs_hub_threshold(grid, &tau, &nhubs);
  cr_assert_eq(nhubs, 0, "a grid has no hubs (it stays top-down)");
  wm_graph_destroy(grid);
}
