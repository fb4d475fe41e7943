/* `warpmatch info` on the real SNAP graph against its published figures,
 * and the preprocessing rewrites (relabel by degree, orientation) checked
 * on the same graph and on a random power-law graph. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datasets.h"
#include "testutil.h"

static char dir[256];
static void setup(void) { wm_test_tmpdir(dir, sizeof dir); }
static void teardown(void) { wm_test_rmdir(dir); }
TestSuite(info_real, .init = setup, .fini = teardown);

/* Value of "key": in a flat JSON object, as text. */
static const char *json_value(const char *json, const char *key, char *buf, size_t size) {
  char pat[64];
  snprintf(pat, sizeof pat, "\"%s\":", key);
  const char *p = strstr(json, pat);
  cr_assert_not_null(p, "no key %s in %s", key, json);
  p += strlen(pat);
  size_t k = 0;
  while (*p && *p != ',' && *p != '}' && k + 1 < size) buf[k++] = *p++;
  buf[k] = '\0';
  return buf;
}

Test(info_real, facebook_matches_published_figures, .timeout = 60) {
  char src[512], path[512], v[64];
  wm_test_real_graph(src, sizeof src, "facebook_combined.txt");
  /* A copy in the suite's own folder, so that the first run finds no cache
   * whatever earlier runs left beside the checkout's file. */
  snprintf(path, sizeof path, "%s/facebook_combined.txt", dir);
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "cp '%s' '%s'", src, path);
  cr_assert_eq(system(cmd), 0, "%s failed", cmd);
  char *out = NULL, *err = NULL;
  int rc = wm_test_run(&out, &err, "info %s --json", path);
  cr_assert_eq(rc, 0, "info failed: %s", err);
  /* README: 4,039 vertices, 88,234 edges, max degree 1,045 */
  cr_assert_str_eq(json_value(out, "vertices", v, sizeof v), "4039");
  cr_assert_str_eq(json_value(out, "edges", v, sizeof v), "88234");
  cr_assert_str_eq(json_value(out, "max_degree", v, sizeof v), "1045");
  cr_assert_str_eq(json_value(out, "directed", v, sizeof v), "false");
  cr_assert_str_eq(json_value(out, "isolated", v, sizeof v), "0");
  double mean = atof(json_value(out, "mean_degree", v, sizeof v));
  cr_assert_float_eq(mean, 2.0 * 88234 / 4039, 1e-6);
  cr_assert_str_eq(json_value(out, "cache", v, sizeof v), "false");
  free(out);
  free(err);
  rc = wm_test_run(&out, &err, "info %s --json", path);
  cr_assert_eq(rc, 0);
  cr_assert_str_eq(json_value(out, "cache", v, sizeof v), "true", "second run must use the cache");
  cr_assert_str_eq(json_value(out, "edges", v, sizeof v), "88234");
  free(out);
  free(err);
  rc = wm_test_run(&out, &err, "info %s", path);
  cr_assert_eq(rc, 0);
  cr_assert(strstr(out, "4,039") && strstr(out, "88,234") && strstr(out, "1,045"), "text summary: %s", out);
  free(out);
  free(err);
}

static wm_graph *facebook(void) {
  char path[512];
  wm_test_real_graph(path, sizeof path, "facebook_combined.txt");
  wm_load_options o;
  wm_load_options_init(&o);
  o.use_cache = 0;
  wm_graph *g = NULL;
  wm_error err;
  cr_assert_eq(wm_graph_load(path, &o, &g, NULL, &err), WM_OK, "%s", err.msg);
  return g;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static void check_relabel(const wm_graph *g) {
  wm_graph *h = NULL;
  wm_error err;
  cr_assert_eq(wm_graph_relabel_by_degree(g, &h, &err), WM_OK, "%s", err.msg);
  cr_assert_eq(h->n, g->n);
  cr_assert_eq(h->m, g->m);
  cr_assert(h->flags & WM_GRAPH_DEGREE_SORTED);
  uint64_t *dg = malloc(g->n * 8ull), *dh = malloc(g->n * 8ull);
  for (uint32_t v = 0; v < g->n; v++) {
    dg[v] = wm_degree(g, v);
    dh[v] = wm_degree(h, v);
    if (v) cr_assert_geq(dh[v - 1], dh[v], "degrees must not increase with the new id");
  }
  qsort(dg, g->n, 8, cmp_u64);
  qsort(dh, g->n, 8, cmp_u64);
  cr_assert(memcmp(dg, dh, g->n * 8ull) == 0, "degree multiset changed");
  /* Each new arc is an old arc between the same file ids. */
  for (uint32_t i = 0; i < h->n; i++) {
    uint32_t u = wm_graph_internal_id(g, wm_graph_file_id(h, i));
    cr_assert_neq(u, WM_NO_VERTEX);
    cr_assert_eq(wm_graph_internal_id(h, wm_graph_file_id(h, i)), i);
    for (uint64_t e = h->offsets[i]; e < h->offsets[i + 1]; e++) {
      if (e > h->offsets[i]) cr_assert_lt(h->adj[e - 1], h->adj[e]);
      uint32_t w = wm_graph_internal_id(g, wm_graph_file_id(h, h->adj[e]));
      cr_assert(wm_graph_has_arc(g, u, w), "arc %u-%u is not in the input", u, w);
    }
  }
  free(dg);
  free(dh);
  wm_graph_destroy(h);
}

/* Kahn's algorithm: every vertex gets removed iff the digraph is acyclic. */
static int acyclic(const wm_graph *h) {
  uint64_t *indeg = calloc(h->n, 8);
  uint32_t *queue = malloc(h->n * 4ull), head = 0, tail = 0;
  for (uint64_t e = 0; e < h->m; e++) indeg[h->adj[e]]++;
  for (uint32_t v = 0; v < h->n; v++)
    if (!indeg[v]) queue[tail++] = v;
  while (head < tail) {
    uint32_t v = queue[head++];
    for (uint64_t e = h->offsets[v]; e < h->offsets[v + 1]; e++)
      if (--indeg[h->adj[e]] == 0) queue[tail++] = h->adj[e];
  }
  free(indeg);
  free(queue);
  return tail == h->n;
}

static void check_orient(const wm_graph *g) {
  wm_graph *h = NULL;
  wm_error err;
  cr_assert_eq(wm_graph_orient_by_degree(g, &h, &err), WM_OK, "%s", err.msg);
  cr_assert_eq(h->m, g->m / 2, "orientation keeps each edge once");
  cr_assert_eq(wm_graph_edges(h), wm_graph_edges(g));
  cr_assert(h->flags & WM_GRAPH_ORIENTED);
  cr_assert(acyclic(h), "oriented graph has a cycle");
  for (uint32_t u = 0; u < h->n; u++)
    for (uint64_t e = h->offsets[u]; e < h->offsets[u + 1]; e++) {
      uint32_t v = h->adj[e];
      cr_assert(wm_graph_has_arc(g, u, v), "arc %u->%u not in the input", u, v);
      cr_assert(!wm_graph_has_arc(h, v, u), "edge %u-%u kept in both directions", u, v);
    }
  wm_graph *again = NULL;
  cr_assert_eq(wm_graph_orient_by_degree(h, &again, &err), WM_EINPUT, "orienting twice must be refused");
  wm_graph_destroy(h);
}

Test(info_real, relabel_keeps_degrees_and_edges, .timeout = 60) {
  wm_graph *g = facebook();
  check_relabel(g);
  wm_graph_destroy(g);
  g = wm_test_powerlaw(500, 10, 4, 0.5, 11);
  check_relabel(g);
  wm_graph_destroy(g);
}

Test(info_real, orientation_is_acyclic_with_half_the_arcs, .timeout = 60) {
  wm_graph *g = facebook();
  check_orient(g);
  wm_graph *r = NULL;
  wm_error err;
  cr_assert_eq(wm_graph_relabel_by_degree(g, &r, &err), WM_OK);
  check_orient(r);
  wm_graph_destroy(r);
  wm_graph_destroy(g);
  g = wm_test_powerlaw(500, 10, 4, 0.5, 12);
  check_orient(g);
  wm_graph_destroy(g);
}

Test(info_real, degree_stats_against_sorted_degrees) {
  wm_graph *g = wm_test_powerlaw(777, 6, 3, 0.3, 13);
  wm_degree_stats st;
  wm_graph_degree_stats(g, &st);
  uint64_t *d = malloc(g->n * 8ull), sum = 0, iso = 0;
  for (uint32_t v = 0; v < g->n; v++) sum += d[v] = wm_degree(g, v), iso += d[v] == 0;
  qsort(d, g->n, 8, cmp_u64);
  cr_assert_eq(st.min_degree, d[0]);
  cr_assert_eq(st.max_degree, d[g->n - 1]);
  cr_assert_eq(st.degree_sum, sum);
  cr_assert_eq(st.isolated, iso);
  /* nearest rank: the ceil(p n)-th smallest */
  cr_assert_eq(st.median_degree, d[(g->n + 1) / 2 - 1]);
  cr_assert_eq(st.p99_degree, d[(uint32_t)((99ull * g->n + 99) / 100) - 1]);
  free(d);
  wm_graph_destroy(g);
}
