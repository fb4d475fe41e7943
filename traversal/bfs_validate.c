/* Graph500 validation of a BFS result (levels and, when present, parents):
 *   - every source has level 0 and is its own parent; level 0 holds only sources;
 *   - each tree edge parent[v] -> v is an arc of the graph and the parent is
 *     one level above v; unreached vertices have no parent;
 *   - the ends of every arc u -> v with u reached differ by at most one level
 *     (directed: level[v] <= level[u] + 1), and v is reached: so every vertex
 *     of the sources' component is reached and, through the parents, no other;
 *   - the summary figures (reached, depth) agree with the level array.
 * A truncated search (max_depth, target) may leave the neighbours of its
 * deepest level unreached.  Each check runs in parallel and reports the
 * smallest offending vertex, in the file's ids. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "traversal.h"

typedef struct vctx {
  const wm_graph *g;
  const wm_bfs_result *r;
  const uint32_t *src; /* sorted, unique */
  uint32_t nsrc;
  const uint8_t *has_pred; /* without parents: an in-neighbour one level up */
} vctx;

typedef int (*vertex_check)(const vctx *c, uint32_t v, char *why, size_t len);

static int is_source(const vctx *c, uint32_t v) {
  uint32_t lo = 0, hi = c->nsrc;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (c->src[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo < c->nsrc && c->src[lo] == v;
}

#define WHY(...) (why ? (void)snprintf(why, len, __VA_ARGS__) : (void)0, 0)

static int check_roots(const vctx *c, uint32_t v, char *why, size_t len) {
  uint32_t l = c->r->level[v];
  int src = is_source(c, v);
  if (src && l != 0) return WHY("a source has level %u, expected 0", l);
  if (!src && l == 0) return WHY("level 0 but not a source");
  if (src && c->r->parent && c->r->parent[v] != v)
    return WHY("a source whose parent is %u, expected itself", wm_graph_file_id(c->g, c->r->parent[v]));
  return 1;
}

static int check_parent(const vctx *c, uint32_t v, char *why, size_t len) {
  uint32_t l = c->r->level[v], p = c->r->parent[v];
  if (l == WM_UNREACHED) {
    if (p != WM_UNREACHED) return WHY("unreached but has parent %u", wm_graph_file_id(c->g, p));
    return 1;
  }
  if (l == 0) return 1; /* check_roots */
  if (p >= c->g->n) return WHY("reached at level %u without a parent", l);
  uint32_t lp = c->r->level[p];
  if (lp == WM_UNREACHED || lp + 1 != l)
    return WHY("level %u but its parent %u has level %s%u, expected %u", l, wm_graph_file_id(c->g, p),
               lp == WM_UNREACHED ? "(unreached) " : "", lp, l - 1);
  if (!wm_graph_has_arc(c->g, p, v))
    return WHY("tree edge from parent %u is not an edge of the graph", wm_graph_file_id(c->g, p));
  return 1;
}

static int check_pred(const vctx *c, uint32_t v, char *why, size_t len) {
  uint32_t l = c->r->level[v];
  if (l == WM_UNREACHED || l == 0 || c->has_pred[v]) return 1;
  return WHY("level %u but no in-neighbour has level %u", l, l - 1);
}

static int check_arcs(const vctx *c, uint32_t u, char *why, size_t len) {
  const wm_graph *g = c->g;
  uint32_t lu = c->r->level[u];
  if (lu == WM_UNREACHED) return 1;
  int directed = (g->flags & WM_GRAPH_DIRECTED) != 0;
  int frontier_may_be_open = c->r->truncated && lu + 1 == c->r->depth;
  for (uint64_t j = g->offsets[u]; j < g->offsets[u + 1]; j++) {
    uint32_t v = g->adj[j], lv = c->r->level[v];
    if (lv == WM_UNREACHED) {
      if (frontier_may_be_open) continue;
      return WHY("reached (level %u) but its neighbour %u is not: the component is not fully "
                 "reached", lu, wm_graph_file_id(g, v));
    }
    int bad = directed ? lv > lu + 1 : (lv > lu + 1 || lu > lv + 1);
    if (bad)
      return WHY("level %u, but its neighbour %u has level %u (edge spans more than one level)", lu,
                 wm_graph_file_id(g, v), lv);
  }
  return 1;
}

/* Runs check on every vertex in parallel; fills err for the smallest bad one. */
static int run_check(const vctx *c, vertex_check check, const char *what, wm_error *err) {
  uint64_t first = UINT64_MAX;
#pragma omp parallel for reduction(min : first) schedule(dynamic, 4096)
  for (uint64_t v = 0; v < c->g->n; v++)
    if (v < first && !check(c, (uint32_t)v, NULL, 0)) first = v;
  if (first == UINT64_MAX) return WM_OK;
  char why[768];
  check(c, (uint32_t)first, why, sizeof why);
  return wm_fail(err, WM_EINPUT, "bfs validation (%s): vertex %u: %s", what,
                 wm_graph_file_id(c->g, (uint32_t)first), why);
}

static int check_summary(const vctx *c, wm_error *err) {
  uint64_t reached = 0;
  uint32_t maxl = 0;
  const uint32_t *level = c->r->level;
#pragma omp parallel for reduction(+ : reached) reduction(max : maxl) schedule(static)
  for (uint64_t v = 0; v < c->g->n; v++)
    if (level[v] != WM_UNREACHED) {
      reached++;
      if (level[v] > maxl) maxl = level[v];
    }
  uint32_t depth = reached ? maxl + 1 : 0;
  if (reached != c->r->reached || depth != c->r->depth)
    return wm_fail(err, WM_EINPUT,
                   "bfs validation (summary): the result says %llu vertices on %u levels, the "
                   "level array has %llu on %u",
                   (unsigned long long)c->r->reached, c->r->depth, (unsigned long long)reached, depth);
  return WM_OK;
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

static uint8_t *mark_predecessors(const wm_graph *g, const uint32_t *level) {
  uint8_t *has = calloc(g->n ? g->n : 1, 1);
  if (!has) return NULL;
#pragma omp parallel for schedule(dynamic, 1024)
  for (uint64_t u = 0; u < g->n; u++) {
    if (level[u] == WM_UNREACHED) continue;
    for (uint64_t j = g->offsets[u]; j < g->offsets[u + 1]; j++)
      if (level[g->adj[j]] == level[u] + 1) __atomic_store_n(&has[g->adj[j]], 1, __ATOMIC_RELAXED);
  }
  return has;
}

int wm_bfs_validate(const wm_graph *g, const uint32_t *sources, uint32_t nsources,
                    const wm_bfs_result *r, wm_error *err) {
  if (!r->level) return wm_fail(err, WM_EINPUT, "bfs validation: the result has no level array");
  if (nsources == 0) return wm_fail(err, WM_EUSAGE, "bfs validation: no sources given");
  uint32_t *src = malloc(nsources * sizeof *src);
  if (!src) return wm_fail(err, WM_EINPUT, "bfs validation: out of memory");
  memcpy(src, sources, nsources * sizeof *src);
  qsort(src, nsources, sizeof *src, cmp_u32);
  uint32_t k = 0;
  for (uint32_t i = 0; i < nsources; i++) {
    if (src[i] >= g->n) {
      uint32_t bad = src[i];
      free(src);
      return wm_fail(err, WM_EINPUT, "bfs validation: source %u is not a vertex", bad);
    }
    if (k == 0 || src[k - 1] != src[i]) src[k++] = src[i];
  }
  vctx c = {g, r, src, k, NULL};
  uint8_t *has = NULL;
  int rc = run_check(&c, check_roots, "sources", err);
  if (!rc && r->parent) rc = run_check(&c, check_parent, "parents", err);
  if (!rc && !r->parent) {
    if (!(has = mark_predecessors(g, r->level))) rc = wm_fail(err, WM_EINPUT, "bfs validation: out of memory");
    c.has_pred = has;
    if (!rc) rc = run_check(&c, check_pred, "levels", err);
  }
  if (!rc) rc = run_check(&c, check_arcs, "edges", err);
  if (!rc) rc = check_summary(&c, err);
  free(has);
  free(src);
  return rc;
}
