/* Graph builders and the plain queue BFS shared by the BFS suites
 * (test_bfs_*.c, test_gpu_bfs.c).  Header-only: each suite is one program. */
#ifndef WM_TEST_BFS_GRAPHS_H
#define WM_TEST_BFS_GRAPHS_H

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "datasets.h"
#include "testutil.h"
#include "traversal.h"

/* Builds from arc lists (copied: the builder consumes its input). */
static inline wm_graph *tb_build(const uint32_t *s, const uint32_t *d, uint64_t cnt, uint32_t n,
                                 int directed) {
  uint32_t *src = malloc((cnt ? cnt : 1) * 4), *dst = malloc((cnt ? cnt : 1) * 4);
  cr_assert(src && dst, "out of memory");
  memcpy(src, s, cnt * 4);
  memcpy(dst, d, cnt * 4);
  wm_graph *g = NULL;
  wm_error err;
  int rc = wm_graph_from_arcs(src, dst, cnt, n, directed, &g, &err);
  free(src);
  free(dst);
  cr_assert_eq(rc, WM_OK, "building a test graph failed: %s", err.msg);
  return g;
}

/* rows x cols 4-neighbour grid; vertex r * cols + c. */
static inline wm_graph *tb_grid(uint32_t rows, uint32_t cols) {
  uint64_t cap = 2ull * rows * cols, k = 0;
  uint32_t *s = malloc(cap * 4), *d = malloc(cap * 4);
  for (uint32_t r = 0; r < rows; r++)
    for (uint32_t c = 0; c < cols; c++) {
      uint32_t v = r * cols + c;
      if (c + 1 < cols) s[k] = v, d[k++] = v + 1;
      if (r + 1 < rows) s[k] = v, d[k++] = v + cols;
    }
  wm_graph *g = tb_build(s, d, k, rows * cols, 0);
  free(s);
  free(d);
  return g;
}

/* Random directed graph: each vertex gets about `out` random out-arcs, the
 * vertices below n/64 sixteen times as many (hubs by out-degree). */
static inline wm_graph *tb_directed(uint32_t n, uint32_t out, uint64_t seed) {
  uint64_t cnt = (uint64_t)n * out * 2, k = 0;
  uint32_t *s = malloc(cnt * 4), *d = malloc(cnt * 4);
  for (uint32_t u = 0; u < n; u++)
    for (uint32_t i = 0; i < (u < n / 64 ? 16 * out : out); i++) {
      /* skewed targets so that some vertices collect many in-arcs (hubs
       * by in-degree) and some get none */
      uint64_t r = wm_test_rand(&seed);
      uint32_t v = (r & 3) ? (uint32_t)((r >> 8) % (n / 16 + 1)) : (uint32_t)((r >> 8) % n);
      s[k] = u, d[k++] = v;
    }
  wm_graph *g = tb_build(s, d, k, n, 1);
  free(s);
  free(d);
  return g;
}

/* A hub joined to every other vertex (degree n - 1) plus a sparse random
 * graph among the others, and `isolated` extra vertices with no edge. */
static inline wm_graph *tb_hub(uint32_t n, uint32_t extra_per_vertex, uint32_t isolated, uint64_t seed) {
  uint64_t cnt = (uint64_t)n * (1 + extra_per_vertex), k = 0;
  uint32_t *s = malloc(cnt * 4), *d = malloc(cnt * 4);
  for (uint32_t v = 1; v < n; v++) s[k] = 0, d[k++] = v;
  for (uint32_t v = 1; v < n; v++)
    for (uint32_t i = 0; i < extra_per_vertex; i++) s[k] = v, d[k++] = 1 + (uint32_t)(wm_test_rand(&seed) % (n - 1));
  wm_graph *g = tb_build(s, d, k, n + isolated, 0);
  free(s);
  free(d);
  return g;
}

/* Sparse random symmetric graph: each vertex joins k random others (mean
 * degree about 2k), O(n k) to build. */
static inline wm_graph *tb_sparse(uint32_t n, uint32_t k, uint64_t seed) {
  uint64_t cnt = (uint64_t)n * k, e = 0;
  uint32_t *s = malloc(cnt * 4), *d = malloc(cnt * 4);
  for (uint32_t u = 0; u < n; u++)
    for (uint32_t i = 0; i < k; i++) s[e] = u, d[e++] = (uint32_t)(wm_test_rand(&seed) % n);
  wm_graph *g = tb_build(s, d, e, n, 0);
  free(s);
  free(d);
  return g;
}

/* The Graph500 generator's graph of this scale (edge factor 16, seeded). */
static inline wm_graph *tb_kron(unsigned scale, uint64_t seed) {
  wm_gen_options go;
  wm_gen_kron_defaults(&go, scale, seed);
  wm_graph *g = NULL;
  wm_error err;
  cr_assert_eq(wm_generate(&go, &g, &err), WM_OK, "%s", err.msg);
  return g;
}

/* A path 0 - 1 - ... - (n-1), the deepest BFS there is (directed: arcs 0 -> 1 -> ...). */
static inline wm_graph *tb_path_of(uint32_t n, int directed) {
  uint32_t *s = malloc(n * 4), *d = malloc(n * 4);
  for (uint32_t v = 0; v + 1 < n; v++) s[v] = v, d[v] = v + 1;
  wm_graph *g = tb_build(s, d, n - 1, n, directed);
  free(s);
  free(d);
  return g;
}
static inline wm_graph *tb_path(uint32_t n) { return tb_path_of(n, 0); }

/* A chain of layers of sizes[0..k) vertices (in that order), each joined to
 * the whole next one: a layer of 1 is a path's vertex, a run of large ones
 * gives levels of few vertices and many edges. */
static inline wm_graph *tb_chain(const uint32_t *sizes, uint32_t k) {
  uint64_t cnt = 0;
  uint32_t n = 0;
  for (uint32_t i = 0; i < k; i++) {
    n += sizes[i];
    if (i + 1 < k) cnt += (uint64_t)sizes[i] * sizes[i + 1];
  }
  uint32_t *s = malloc((cnt ? cnt : 1) * 4), *d = malloc((cnt ? cnt : 1) * 4);
  uint64_t e = 0;
  for (uint32_t i = 0, first = 0; i + 1 < k; first += sizes[i++])
    for (uint32_t a = 0; a < sizes[i]; a++)
      for (uint32_t b = 0; b < sizes[i + 1]; b++) s[e] = first + a, d[e++] = first + sizes[i] + b;
  wm_graph *g = tb_build(s, d, e, n, 0);
  free(s);
  free(d);
  return g;
}

/* Plain sequential queue BFS along out-arcs: the oracle of the oracle. */
static inline uint32_t *tb_plain_bfs(const wm_graph *g, const uint32_t *src, uint32_t ns, uint32_t max_depth) {
  uint32_t *level = malloc((g->n ? g->n : 1) * 4), *q = malloc((g->n ? g->n : 1) * 4);
  cr_assert(level && q);
  for (uint32_t v = 0; v < g->n; v++) level[v] = WM_UNREACHED;
  uint64_t head = 0, tail = 0;
  for (uint32_t i = 0; i < ns; i++)
    if (level[src[i]] == WM_UNREACHED) level[src[i]] = 0, q[tail++] = src[i];
  while (head < tail) {
    uint32_t u = q[head++];
    if (level[u] >= max_depth) continue;
    for (uint64_t j = g->offsets[u]; j < g->offsets[u + 1]; j++)
      if (level[g->adj[j]] == WM_UNREACHED) level[g->adj[j]] = level[u] + 1, q[tail++] = g->adj[j];
  }
  free(q);
  return level;
}

static inline void tb_same_levels(const wm_graph *g, const uint32_t *want, const uint32_t *got, const char *what) {
  for (uint32_t v = 0; v < g->n; v++)
    cr_assert_eq(got[v], want[v], "%s: vertex %u has level %d, expected %d", what, v, (int)got[v], (int)want[v]);
}

/* The vertex of highest degree (the first such). */
static inline uint32_t tb_highest_degree(const wm_graph *g) {
  uint32_t hi = 0;
  for (uint32_t v = 0; v < g->n; v++)
    if (wm_degree(g, v) > wm_degree(g, hi)) hi = v;
  return hi;
}

static inline void tb_valid(const wm_graph *g, const uint32_t *src, uint32_t ns, const wm_bfs_result *r,
                            const char *what) {
  wm_error err;
  int rc = wm_bfs_validate(g, src, ns, r, &err);
  cr_assert_eq(rc, WM_OK, "%s: validation failed: %s", what, err.msg);
}

#endif
