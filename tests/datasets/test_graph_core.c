/* The CSR builder: dedupe, self-loops, symmetrising, directed arcs, sparse
 * id compaction and the file-id round trip, n_hint. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "datasets.h"
#include "testutil.h"

static wm_graph *build(const uint32_t *s, const uint32_t *d, uint64_t cnt, uint64_t n_hint,
                       int directed) {
  uint32_t *src = malloc((cnt ? cnt : 1) * 4), *dst = malloc((cnt ? cnt : 1) * 4);
  if (cnt) {
    memcpy(src, s, cnt * 4);
    memcpy(dst, d, cnt * 4);
  }
  wm_graph *g = NULL;
  wm_error err;
  int rc = wm_graph_from_arcs(src, dst, cnt, n_hint, directed, &g, &err);
  free(src);
  free(dst);
  cr_assert_eq(rc, WM_OK, "build failed: %s", err.msg);
  return g;
}

/* Every row sorted, no duplicates, no self-loops, offsets consistent. */
static void check_csr(const wm_graph *g) {
  cr_assert_eq(g->offsets[0], 0);
  cr_assert_eq(g->offsets[g->n], g->m);
  for (uint32_t v = 0; v < g->n; v++) {
    cr_assert_leq(g->offsets[v], g->offsets[v + 1]);
    for (uint64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++) {
      cr_assert_lt(g->adj[e], g->n);
      cr_assert_neq(g->adj[e], v, "self-loop at %u", v);
      if (e > g->offsets[v]) cr_assert_lt(g->adj[e - 1], g->adj[e], "row %u not strictly ascending", v);
    }
  }
}

static int has_arc(const wm_graph *g, uint32_t u, uint32_t v) {
  for (uint64_t e = g->offsets[u]; e < g->offsets[u + 1]; e++)
    if (g->adj[e] == v) return 1;
  return 0;
}

Test(graph_core, dedupe_selfloops_symmetrise) {
  /* triangle 0-1-2 given with duplicates in both directions and loops */
  uint32_t s[] = {0, 1, 1, 2, 0, 2, 2, 1, 1};
  uint32_t d[] = {1, 0, 2, 1, 1, 0, 2, 1, 2};
  wm_graph *g = build(s, d, 9, 0, 0);
  check_csr(g);
  cr_assert_eq(g->n, 3);
  cr_assert_eq(g->m, 6);
  cr_assert_eq(wm_graph_edges(g), 3);
  cr_assert_null(g->orig_ids, "ids 0..2 need no orig_ids");
  cr_assert(has_arc(g, 0, 2) && has_arc(g, 2, 0));
  cr_assert_eq(g->flags & WM_GRAPH_DIRECTED, 0);
  wm_graph_destroy(g);
}

Test(graph_core, directed_keeps_arcs) {
  uint32_t s[] = {0, 0, 1, 2, 2};
  uint32_t d[] = {1, 1, 2, 0, 2};
  wm_graph *g = build(s, d, 5, 0, 1);
  check_csr(g);
  cr_assert_eq(g->m, 3);
  cr_assert_eq(wm_graph_edges(g), 3);
  cr_assert(has_arc(g, 0, 1) && !has_arc(g, 1, 0));
  cr_assert(has_arc(g, 2, 0) && !has_arc(g, 0, 2));
  cr_assert_neq(g->flags & WM_GRAPH_DIRECTED, 0);
  wm_graph_destroy(g);
}

Test(graph_core, sparse_ids_compacted_in_order) {
  uint32_t s[] = {1000, 7, 4000000000u, 7};
  uint32_t d[] = {7, 55, 1000, 4294967294u};
  wm_graph *g = build(s, d, 4, 0, 0);
  check_csr(g);
  cr_assert_eq(g->n, 5);
  cr_assert_not_null(g->orig_ids);
  uint32_t want[] = {7, 55, 1000, 4000000000u, 4294967294u};
  for (uint32_t v = 0; v < 5; v++) {
    cr_assert_eq(wm_graph_file_id(g, v), want[v]);
    cr_assert_eq(wm_graph_internal_id(g, want[v]), v);
  }
  cr_assert_eq(wm_graph_internal_id(g, 8), WM_NO_VERTEX);
  cr_assert_eq(wm_graph_internal_id(g, 5000000000ull), WM_NO_VERTEX);
  cr_assert_eq(wm_graph_file_id(g, 5), WM_NO_VERTEX);
  /* edge 1000-7 becomes 2-0 */
  cr_assert(has_arc(g, 2, 0) && has_arc(g, 0, 2));
  cr_assert(has_arc(g, 0, 4));
  wm_graph_destroy(g);
}

Test(graph_core, bitmap_and_sort_paths_agree) {
  /* Same edge structure with ids spread out (sort path: max id far above
   * 32 x arcs) and packed (bitmap path): the graphs must be identical. */
  enum { E = 5000 };
  uint32_t *s1 = malloc(E * 4), *d1 = malloc(E * 4), *s2 = malloc(E * 4), *d2 = malloc(E * 4);
  uint64_t seed = 42;
  for (int i = 0; i < E; i++) {
    uint32_t a = wm_test_rand(&seed) % 3000, b = wm_test_rand(&seed) % 3000;
    s1[i] = a * 1000003u + 17, d1[i] = b * 1000003u + 17;
    s2[i] = a * 3 + 1, d2[i] = b * 3 + 1;
  }
  wm_graph *g1 = build(s1, d1, E, 0, 0), *g2 = build(s2, d2, E, 0, 0);
  check_csr(g1);
  cr_assert_eq(g1->n, g2->n);
  cr_assert_eq(g1->m, g2->m);
  cr_assert(memcmp(g1->offsets, g2->offsets, (g1->n + 1) * 8ull) == 0);
  cr_assert(memcmp(g1->adj, g2->adj, g1->m * 4) == 0);
  for (uint32_t v = 0; v < g1->n; v++) {
    cr_assert_eq((g1->orig_ids[v] - 17) / 1000003u, (g2->orig_ids[v] - 1) / 3);
    cr_assert_eq(wm_graph_internal_id(g1, g1->orig_ids[v]), v);
  }
  free(s1), free(d1), free(s2), free(d2);
  wm_graph_destroy(g1);
  wm_graph_destroy(g2);
}

Test(graph_core, n_hint_keeps_isolated_vertices) {
  uint32_t s[] = {1, 3};
  uint32_t d[] = {3, 1};
  wm_graph *g = build(s, d, 2, 6, 0);
  check_csr(g);
  cr_assert_eq(g->n, 6);
  cr_assert_eq(g->m, 2);
  cr_assert_null(g->orig_ids);
  cr_assert_eq(wm_degree(g, 0), 0);
  cr_assert_eq(wm_degree(g, 5), 0);
  cr_assert_eq(wm_graph_internal_id(g, 5), 5);
  cr_assert_eq(wm_graph_internal_id(g, 6), WM_NO_VERTEX);
  wm_graph_destroy(g);
}

Test(graph_core, n_hint_rejects_ids_beyond) {
  uint32_t s[] = {1}, d[] = {6};
  wm_graph *g = NULL;
  wm_error err;
  cr_assert_eq(wm_graph_from_arcs(s, d, 1, 6, 0, &g, &err), WM_EINPUT);
  cr_assert_null(g);
  cr_assert(strstr(err.msg, "6") != NULL, "message should name the id: %s", err.msg);
}

Test(graph_core, id_above_max_rejected) {
  uint32_t s[] = {1}, d[] = {WM_NO_VERTEX};
  wm_graph *g = NULL;
  wm_error err;
  cr_assert_eq(wm_graph_from_arcs(s, d, 1, 0, 0, &g, &err), WM_EINPUT);
  cr_assert(strstr(err.msg, "4294967295") != NULL, "message: %s", err.msg);
}

Test(graph_core, empty_input) {
  wm_graph *g = build(NULL, NULL, 0, 0, 0);
  cr_assert_eq(g->n, 0);
  cr_assert_eq(g->m, 0);
  wm_graph_destroy(g);
}

/* A large random multigraph with a hub checked against a simple oracle:
 * each row must equal the sorted distinct neighbour set. */
Test(graph_core, random_multigraph_matches_oracle, .timeout = 60) {
  enum { N = 2000, E = 200000 };
  uint32_t *s = malloc(E * 4), *d = malloc(E * 4);
  uint64_t seed = 7;
  for (int i = 0; i < E; i++) {
    s[i] = (i % 5 == 0) ? 0 : (uint32_t)(wm_test_rand(&seed) % N); /* vertex 0 is a hub */
    d[i] = (uint32_t)(wm_test_rand(&seed) % N);
  }
  unsigned char *adjm = calloc((size_t)N * N, 1);
  for (int i = 0; i < E; i++)
    if (s[i] != d[i]) adjm[(size_t)s[i] * N + d[i]] = adjm[(size_t)d[i] * N + s[i]] = 1;
  wm_graph *g = build(s, d, E, N, 0);
  check_csr(g);
  uint64_t m = 0;
  for (uint32_t u = 0; u < N; u++)
    for (uint32_t v = 0; v < N; v++)
      if (adjm[(size_t)u * N + v]) {
        m++;
        cr_assert(has_arc(g, u, v), "missing arc %u-%u", u, v);
      }
  cr_assert_eq(g->m, m);
  free(adjm), free(s), free(d);
  wm_graph_destroy(g);
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* Big buckets (hub rows, ids needing several radix digits) and many small
 * ones, directed so each row is exactly the sorted distinct targets given;
 * checked against qsort of the (source, target) pairs. */
Test(graph_core, radix_and_small_rows_match_qsort, .timeout = 60) {
  enum { N = 300000, E = 1200000 };
  uint32_t *s = malloc(E * 4), *d = malloc(E * 4);
  uint64_t *key = malloc(E * 8ull), k = 0, seed = 99;
  for (int i = 0; i < E; i++) {
    uint64_t r = wm_test_rand(&seed);
    s[i] = (r & 3) == 0 ? (uint32_t)(r >> 8) % 16 : (uint32_t)((r >> 8) % N); /* 16 hubs */
    d[i] = (uint32_t)((r >> 32) % N);
    if (s[i] != d[i]) key[k++] = ((uint64_t)s[i] << 32) | d[i];
  }
  wm_graph *g = build(s, d, E, N, 1);
  check_csr(g);
  qsort(key, k, 8, cmp_u64);
  uint64_t e = 0;
  for (uint64_t i = 0; i < k; i++) {
    if (i && key[i] == key[i - 1]) continue;
    uint32_t u = (uint32_t)(key[i] >> 32), v = (uint32_t)key[i];
    cr_assert_lt(e, g->m);
    cr_assert(g->offsets[u] <= e && e < g->offsets[u + 1], "arc %llu not in row %u", (unsigned long long)e, u);
    cr_assert_eq(g->adj[e], v, "row %u: expected %u at %llu, got %u", u, v, (unsigned long long)e, g->adj[e]);
    e++;
  }
  cr_assert_eq(e, g->m);
  cr_assert_gt(wm_degree(g, 3), 4096, "the hubs must take the radix path");
  free(key), free(s), free(d);
  wm_graph_destroy(g);
}
