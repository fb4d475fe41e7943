/* Pieces both BFS executors share: option defaults, the result's summary
 * figures, the hub threshold of the direction heuristic, the transpose. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "traversal.h"

void wm_bfs_options_init(wm_bfs_options *o) {
  memset(o, 0, sizeof *o);
  o->max_depth = UINT32_MAX;
  o->target = WM_NO_VERTEX;
  o->want_parents = 1;
  o->direction_opt = 1;
  o->alpha = 0.3;
  o->edge_ratio = 14;
  o->queue_gen = 1;
  o->classify = 1;
  o->hub_cache = 1;
  o->small_kernel = 1;
  o->small_grid = 1;
  o->cluster_kernel = 1;
}

void wm_bfs_result_free(wm_bfs_result *r) {
  if (!r) return;
  free(r->level);
  free(r->parent);
  free(r->per_level);
  memset(r, 0, sizeof *r);
}

int wm_bfs_go_bottom_up(const wm_bfs_options *o, uint64_t f_hubs, uint64_t nhubs, uint64_t f_edges,
                        uint64_t unexplored_edges) {
  if (nhubs && (double)f_hubs > o->alpha * (double)nhubs) return 1;
  return o->edge_ratio > 0 && (double)f_edges * o->edge_ratio > (double)unexplored_edges;
}

void wm_bfs_hub_threshold(const wm_graph *g, uint64_t *tau, uint64_t *nhubs) {
  double mean = g->n ? (double)g->m / g->n : 0;
  uint64_t t = (uint64_t)(8.0 * mean + 0.999999);
  if (t < 32) t = 32;
  uint64_t count = 0;
#pragma omp parallel for reduction(+ : count) schedule(static) if (g->n >= WM_BFS_PARALLEL_VERTICES)
  for (uint64_t v = 0; v < g->n; v++) count += g->offsets[v + 1] - g->offsets[v] >= t;
  *tau = t;
  *nhubs = count;
}

int wm_bfs_result_stats(const wm_graph *g, wm_bfs_result *r, wm_error *err) {
  uint32_t maxl = 0;
  uint64_t reached = 0, degsum = 0;
  int any = 0;
#pragma omp parallel for reduction(max : maxl) reduction(+ : reached, degsum) reduction(| : any) \
    schedule(static) if (g->n >= WM_BFS_PARALLEL_VERTICES)
  for (uint64_t v = 0; v < g->n; v++) {
    uint32_t l = r->level[v];
    if (l == WM_UNREACHED) continue;
    any = 1;
    reached++;
    degsum += g->offsets[v + 1] - g->offsets[v];
    if (l > maxl) maxl = l;
  }
  free(r->per_level);
  r->per_level = NULL;
  r->depth = any ? maxl + 1 : 0;
  r->reached = reached;
  r->edges_traversed = degsum;
  r->teps_edges = (g->flags & WM_GRAPH_DIRECTED) ? degsum : degsum / 2;
  if (!any) return WM_OK;
  r->per_level = calloc(r->depth, sizeof *r->per_level);
  if (!r->per_level) return wm_fail(err, WM_EINPUT, "bfs: out of memory (%u levels)", r->depth);
  uint64_t *pl = r->per_level;
#pragma omp parallel for schedule(static) if (g->n >= WM_BFS_PARALLEL_VERTICES)
  for (uint64_t v = 0; v < g->n; v++) {
    uint32_t l = r->level[v];
    if (l != WM_UNREACHED) __atomic_fetch_add(&pl[l], 1, __ATOMIC_RELAXED);
  }
  return WM_OK;
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

int wm_graph_transpose(const wm_graph *g, wm_graph **out, wm_error *err) {
  *out = NULL;
  wm_graph *t = wm_graph_create(g->n, g->m);
  uint64_t *cursor = malloc(((size_t)g->n + 1) * sizeof *cursor);
  if (!t || !cursor) {
    wm_graph_destroy(t);
    free(cursor);
    return wm_fail(err, WM_EINPUT, "transpose: out of memory (%u vertices, %llu arcs)", g->n,
                   (unsigned long long)g->m);
  }
  t->flags = g->flags;
  uint64_t *off = t->offsets; /* zeroed by wm_graph_create */
#pragma omp parallel for schedule(dynamic, 1024)
  for (uint64_t u = 0; u < g->n; u++)
    for (uint64_t j = g->offsets[u]; j < g->offsets[u + 1]; j++)
      __atomic_fetch_add(&off[g->adj[j] + 1], 1, __ATOMIC_RELAXED);
  for (uint64_t v = 0; v < g->n; v++) off[v + 1] += off[v];
  memcpy(cursor, off, ((size_t)g->n + 1) * sizeof *cursor);
#pragma omp parallel for schedule(dynamic, 1024)
  for (uint64_t u = 0; u < g->n; u++)
    for (uint64_t j = g->offsets[u]; j < g->offsets[u + 1]; j++) {
      uint64_t at = __atomic_fetch_add(&cursor[g->adj[j]], 1, __ATOMIC_RELAXED);
      t->adj[at] = (uint32_t)u;
    }
  free(cursor);
  /* The fill order is racy; sorting each row restores the CSR invariant. */
#pragma omp parallel for schedule(dynamic, 256)
  for (uint64_t v = 0; v < g->n; v++)
    qsort(t->adj + off[v], off[v + 1] - off[v], sizeof *t->adj, cmp_u32);
  *out = t;
  return WM_OK;
}
