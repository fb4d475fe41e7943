/* Graph500 validation: a correct BFS passes; each planted error is caught
 * with a message naming the check and the vertex (wrong parent, parent on
 * the wrong level, skipped vertex, wrong level, root not its own parent,
 * unreached part of the component, tree edge that is not a graph edge, a
 * vertex of another component reached, an edge spanning two levels, wrong
 * summary figures), with and without parents, directed and truncated. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "test_bfs_graphs.h"

/* An ER component on 0..499, a path on 500..519, isolated 520..529. */
static wm_graph *two_components(void) {
  uint64_t seed = 99, k = 0, cap = 500 * 500;
  uint32_t *s = malloc(cap * 4), *d = malloc(cap * 4);
  for (uint32_t u = 0; u < 500; u++)
    for (uint32_t v = u + 1; v < 500; v++)
      if (wm_test_rand(&seed) % 1000 < 15) s[k] = u, d[k++] = v;
  for (uint32_t v = 500; v < 519; v++) s[k] = v, d[k++] = v + 1;
  wm_graph *g = tb_build(s, d, k, 530, 0);
  free(s);
  free(d);
  return g;
}

static wm_bfs_result bfs(const wm_graph *g, uint32_t src, uint32_t max_depth) {
  wm_bfs_options o;
  wm_bfs_options_init(&o);
  o.max_depth = max_depth;
  wm_bfs_result r;
  wm_error err;
  cr_assert_eq(wm_bfs_cpu(g, &src, 1, &o, &r, &err), WM_OK, "%s", err.msg);
  return r;
}

static wm_bfs_result copy(const wm_graph *g, const wm_bfs_result *r) {
  wm_bfs_result c = *r;
  c.level = malloc(g->n * 4);
  c.parent = malloc(g->n * 4);
  c.per_level = malloc(r->depth * 8);
  memcpy(c.level, r->level, g->n * 4);
  memcpy(c.parent, r->parent, g->n * 4);
  memcpy(c.per_level, r->per_level, r->depth * 8);
  return c;
}

static void expect_caught(const wm_graph *g, uint32_t src, wm_bfs_result *bad, const char *check,
                          const char *words, const char *what) {
  wm_error err;
  wm_error_clear(&err);
  int rc = wm_bfs_validate(g, &src, 1, bad, &err);
  cr_assert_eq(rc, WM_EINPUT, "%s: not caught", what);
  cr_assert(strstr(err.msg, check), "%s: expected the %s check, got: %s", what, check, err.msg);
  cr_assert(strstr(err.msg, words), "%s: expected '%s' in: %s", what, words, err.msg);
  wm_bfs_result_free(bad);
}

static int adjacent(const wm_graph *g, uint32_t u, uint32_t v) {
  for (uint64_t j = g->offsets[u]; j < g->offsets[u + 1]; j++)
    if (g->adj[j] == v) return 1;
  return 0;
}

static int has_children(const wm_graph *g, const wm_bfs_result *r, uint32_t v) {
  for (uint32_t w = 0; w < g->n; w++)
    if (w != v && r->parent[w] == v) return 1;
  return 0;
}

/* A reached vertex at level >= 2 without tree children. */
static uint32_t leaf(const wm_graph *g, const wm_bfs_result *r) {
  for (uint32_t v = 0; v < g->n; v++)
    if (r->level[v] != WM_UNREACHED && r->level[v] >= 2 && !has_children(g, r, v)) return v;
  cr_assert_fail("no leaf at level >= 2");
  return 0;
}

Test(bfs_validate, correct_result_passes) {
  wm_graph *g = two_components();
  wm_bfs_result r = bfs(g, 0, UINT32_MAX);
  cr_assert_leq(r.reached, 500, "only the first component");
  cr_assert_geq(r.reached, 450, "ER(500, 0.015) is (nearly) connected");
  tb_valid(g, (uint32_t[]){0}, 1, &r, "correct result");
  wm_bfs_result_free(&r);
  r = bfs(g, 505, UINT32_MAX);
  cr_assert_eq(r.reached, 20, "the path component");
  tb_valid(g, (uint32_t[]){505}, 1, &r, "path component");
  wm_bfs_result_free(&r);
  wm_graph_destroy(g);
}

Test(bfs_validate, wrong_parent_not_an_edge) {
  wm_graph *g = two_components();
  wm_bfs_result r = bfs(g, 0, UINT32_MAX), bad = copy(g, &r);
  uint32_t v = leaf(g, &r), p = WM_NO_VERTEX;
  for (uint32_t u = 0; u < g->n && p == WM_NO_VERTEX; u++)
    if (r.level[u] == r.level[v] - 1 && !adjacent(g, u, v)) p = u;
  cr_assert_neq(p, WM_NO_VERTEX);
  bad.parent[v] = p;
  expect_caught(g, 0, &bad, "(parents)", "not an edge of the graph", "wrong parent");
  wm_bfs_result_free(&r);
  wm_graph_destroy(g);
}

Test(bfs_validate, parent_on_the_wrong_level) {
  wm_graph *g = two_components();
  wm_bfs_result r = bfs(g, 0, UINT32_MAX), bad = copy(g, &r);
  uint32_t v = leaf(g, &r), p = WM_NO_VERTEX;
  for (uint64_t j = g->offsets[v]; j < g->offsets[v + 1] && p == WM_NO_VERTEX; j++)
    if (r.level[g->adj[j]] >= r.level[v]) p = g->adj[j];
  cr_assert_neq(p, WM_NO_VERTEX, "leaf %u has no neighbour on its level or below", v);
  bad.parent[v] = p;
  expect_caught(g, 0, &bad, "(parents)", "expected", "parent on the wrong level");
  wm_bfs_result_free(&r);
  wm_graph_destroy(g);
}

Test(bfs_validate, skipped_vertex) {
  wm_graph *g = two_components();
  wm_bfs_result r = bfs(g, 0, UINT32_MAX), bad = copy(g, &r);
  uint32_t v = leaf(g, &r);
  bad.level[v] = bad.parent[v] = WM_UNREACHED;
  expect_caught(g, 0, &bad, "(edges)", "not fully reached", "skipped vertex");
  wm_bfs_result_free(&r);
  wm_graph_destroy(g);
}

Test(bfs_validate, wrong_level) {
  wm_graph *g = two_components();
  wm_bfs_result r = bfs(g, 0, UINT32_MAX), bad = copy(g, &r);
  uint32_t v = leaf(g, &r);
  bad.level[v] += 1;
  expect_caught(g, 0, &bad, "(parents)", "its parent", "wrong level");
  wm_bfs_result_free(&r);
  wm_graph_destroy(g);
}

Test(bfs_validate, root_not_its_own_parent) {
  wm_graph *g = two_components();
  wm_bfs_result r = bfs(g, 0, UINT32_MAX), bad = copy(g, &r);
  bad.parent[0] = g->adj[g->offsets[0]];
  expect_caught(g, 0, &bad, "(sources)", "expected itself", "root's parent");
  bad = copy(g, &r);
  bad.level[0] = 1;
  expect_caught(g, 0, &bad, "(sources)", "expected 0", "root's level");
  wm_bfs_result_free(&r);
  wm_graph_destroy(g);
}

Test(bfs_validate, level_zero_not_a_source) {
  wm_graph *g = two_components();
  wm_bfs_result r = bfs(g, 0, UINT32_MAX), bad = copy(g, &r);
  uint32_t v = leaf(g, &r);
  bad.level[v] = 0;
  bad.parent[v] = v;
  expect_caught(g, 0, &bad, "(sources)", "not a source", "second root");
  wm_bfs_result_free(&r);
  wm_graph_destroy(g);
}

Test(bfs_validate, unreached_part_of_the_component) {
  wm_graph *g = two_components();
  wm_bfs_result r = bfs(g, 0, UINT32_MAX), bad = copy(g, &r);
  /* cut the tree below a level-1 vertex: it and all its descendants */
  uint32_t cut = WM_NO_VERTEX;
  for (uint32_t v = 0; v < g->n && cut == WM_NO_VERTEX; v++)
    if (r.level[v] == 1 && has_children(g, &r, v)) cut = v;
  cr_assert_neq(cut, WM_NO_VERTEX);
  for (uint32_t v = 0; v < g->n; v++) {
    uint32_t a = v;
    while (r.level[a] != WM_UNREACHED && r.level[a] > 1) a = r.parent[a];
    if (r.level[a] != WM_UNREACHED && a == cut) bad.level[v] = bad.parent[v] = WM_UNREACHED;
  }
  expect_caught(g, 0, &bad, "(edges)", "not fully reached", "subtree cut off");
  wm_bfs_result_free(&r);
  wm_graph_destroy(g);
}

Test(bfs_validate, vertex_of_another_component) {
  wm_graph *g = two_components();
  wm_bfs_result r = bfs(g, 0, UINT32_MAX), bad = copy(g, &r);
  bad.level[510] = 1;
  bad.parent[510] = 0;
  expect_caught(g, 0, &bad, "(parents)", "not an edge of the graph", "vertex of the path component");
  wm_bfs_result_free(&r);
  wm_graph_destroy(g);
}

Test(bfs_validate, edge_spanning_two_levels) {
  /* triangle 0-1-2 plus 2-3: a tree that puts 2 below 1 is a valid tree
   * whose levels are wrong: the edge 0-2 spans two levels */
  uint32_t s[] = {0, 1, 0, 2}, d[] = {1, 2, 2, 3};
  wm_graph *g = tb_build(s, d, 4, 4, 0);
  wm_bfs_result r = bfs(g, 0, UINT32_MAX), bad = copy(g, &r);
  bad.level[2] = 2, bad.parent[2] = 1;
  bad.level[3] = 3, bad.parent[3] = 2;
  bad.depth = 4;
  expect_caught(g, 0, &bad, "(edges)", "spans more than one level", "spanning edge");
  wm_bfs_result_free(&r);
  wm_graph_destroy(g);
}

Test(bfs_validate, wrong_summary) {
  wm_graph *g = two_components();
  wm_bfs_result r = bfs(g, 0, UINT32_MAX), bad = copy(g, &r);
  bad.reached++;
  expect_caught(g, 0, &bad, "(summary)", "level array has", "reached count");
  wm_bfs_result_free(&r);
  wm_graph_destroy(g);
}

Test(bfs_validate, without_parents) {
  wm_graph *g = two_components();
  wm_bfs_result r = bfs(g, 0, UINT32_MAX);
  uint32_t *par = r.parent, v = leaf(g, &r), src = 0;
  r.parent = NULL;
  wm_error err;
  cr_assert_eq(wm_bfs_validate(g, &src, 1, &r, &err), WM_OK, "%s", err.msg);
  r.level[v] += 2; /* no neighbour one level up any more */
  cr_assert_eq(wm_bfs_validate(g, &src, 1, &r, &err), WM_EINPUT);
  cr_assert(strstr(err.msg, "(levels)") && strstr(err.msg, "no in-neighbour"), "%s", err.msg);
  r.parent = par;
  wm_bfs_result_free(&r);
  wm_graph_destroy(g);
}

Test(bfs_validate, truncated_search) {
  wm_graph *g = two_components();
  wm_bfs_result r = bfs(g, 0, 2);
  cr_assert(r.truncated);
  tb_valid(g, (uint32_t[]){0}, 1, &r, "ball of radius 2");
  r.truncated = 0; /* claiming a complete search: its frontier is open */
  wm_error err;
  uint32_t src = 0;
  cr_assert_eq(wm_bfs_validate(g, &src, 1, &r, &err), WM_EINPUT);
  cr_assert(strstr(err.msg, "not fully reached"), "%s", err.msg);
  wm_bfs_result_free(&r);
  wm_graph_destroy(g);
}

Test(bfs_validate, directed_back_arcs) {
  /* cycle 0 -> 1 -> 2 -> 0: the back arc 2 -> 0 spans two levels, which a
   * directed search allows */
  uint32_t s[] = {0, 1, 2}, d[] = {1, 2, 0};
  wm_graph *g = tb_build(s, d, 3, 3, 1);
  wm_bfs_result r = bfs(g, 0, UINT32_MAX);
  cr_assert_eq(r.level[2], 2);
  tb_valid(g, (uint32_t[]){0}, 1, &r, "directed cycle");
  wm_bfs_result bad = copy(g, &r);
  bad.level[2] = WM_UNREACHED, bad.parent[2] = WM_UNREACHED;
  expect_caught(g, 0, &bad, "(edges)", "not fully reached", "directed, skipped vertex");
  wm_bfs_result_free(&r);
  wm_graph_destroy(g);
}

Test(bfs_validate, multi_source_and_bad_sources) {
  wm_graph *g = two_components();
  uint32_t src[] = {0, 505, 0};
  wm_bfs_options o;
  wm_bfs_options_init(&o);
  wm_bfs_result r;
  wm_error err;
  cr_assert_eq(wm_bfs_cpu(g, src, 3, &o, &r, &err), WM_OK);
  tb_valid(g, src, 3, &r, "two sources in two components");
  cr_assert_eq(wm_bfs_validate(g, src, 1, &r, &err), WM_EINPUT, "505 is a root the list does not name");
  cr_assert(strstr(err.msg, "not a source"), "%s", err.msg);
  uint32_t bad = 9999;
  cr_assert_eq(wm_bfs_validate(g, &bad, 1, &r, &err), WM_EINPUT);
  wm_bfs_result_free(&r);
  wm_graph_destroy(g);
}
