/* Rewrites of a built graph that plans ask for: relabelling by descending
 * degree (hubs get the small ids, so hub rows sit together and symmetry
 * restrictions prune early) and the degree orientation used by cliques. */
#include <stdlib.h>
#include <string.h>

#include "datasets.h"
#include "graph_internal.h"

/* new -> old order: descending degree, ties by ascending id (a stable
 * counting sort over the degree histogram). */
static uint32_t *degree_order(const wm_graph *g) {
  const uint64_t maxd = wm_graph_max_degree(g);
  uint64_t *start = calloc(maxd + 2, sizeof *start);
  uint32_t *order = malloc(((size_t)g->n + 1) * sizeof *order);
  if (!start || !order) {
    free(start);
    free(order);
    return NULL;
  }
  for (uint32_t v = 0; v < g->n; v++) start[maxd - wm_degree(g, v)]++;
  wm_prefix_sum_u64(start, maxd + 1);
  for (uint32_t v = 0; v < g->n; v++) order[start[maxd - wm_degree(g, v)]++] = v;
  free(start);
  return order;
}

int wm_graph_relabel_by_degree(const wm_graph *g, wm_graph **out, wm_error *err) {
  return wm_graph_relabel_by_degree_map(g, out, NULL, err);
}

int wm_graph_relabel_by_degree_map(const wm_graph *g, wm_graph **out, uint32_t **old_of, wm_error *err) {
  *out = NULL;
  if (old_of) *old_of = NULL;
  uint32_t n = g->n;
  uint32_t *order = degree_order(g);
  uint32_t *inv = malloc(((size_t)n + 1) * sizeof *inv);
  wm_graph *h = wm_graph_create(n, g->m);
  if (h) h->orig_ids = malloc(((size_t)n + 1) * sizeof *h->orig_ids);
  if (!order || !inv || !h || !h->orig_ids) {
    free(order);
    free(inv);
    wm_graph_destroy(h);
    return wm_fail(err, WM_EINPUT, "out of memory relabelling %lu vertices", (unsigned long)n);
  }
  for (uint32_t i = 0; i < n; i++) {
    inv[order[i]] = i;
    h->offsets[i] = wm_degree(g, order[i]);
    h->orig_ids[i] = wm_graph_file_id(g, order[i]);
  }
  h->offsets[n] = 0;
  wm_prefix_sum_u64(h->offsets, (size_t)n + 1);
#pragma omp parallel for schedule(dynamic, 256) num_threads(wm_par_threads(16 * (uint64_t)n, WM_PAR_GRAIN))
  for (uint32_t i = 0; i < n; i++) {
    const uint32_t *row = g->adj + g->offsets[order[i]];
    uint32_t *to = h->adj + h->offsets[i];
    size_t d = (size_t)(h->offsets[i + 1] - h->offsets[i]);
    for (size_t k = 0; k < d; k++) to[k] = inv[row[k]];
    wm_sort_u32(to, d);
  }
  if (old_of)
    *old_of = order; /* new -> old is exactly the order the rows were laid out in */
  else
    free(order);
  free(inv);
  h->flags = g->flags | WM_GRAPH_DEGREE_SORTED;
  *out = h;
  return WM_OK;
}

static inline int before(const wm_graph *g, uint32_t u, uint32_t v) {
  uint64_t du = wm_degree(g, u), dv = wm_degree(g, v);
  return du < dv || (du == dv && u < v);
}

int wm_graph_orient_by_degree(const wm_graph *g, wm_graph **out, wm_error *err) {
  *out = NULL;
  if (g->flags & (WM_GRAPH_DIRECTED | WM_GRAPH_ORIENTED))
    return wm_fail(err, WM_EINPUT, "orientation by degree needs an undirected (symmetric) graph");
  uint32_t n = g->n;
  wm_graph *h = wm_graph_create(n, g->m / 2);
  if (h && g->orig_ids) h->orig_ids = malloc(((size_t)n + 1) * sizeof *h->orig_ids);
  if (!h || (g->orig_ids && !h->orig_ids)) {
    wm_graph_destroy(h);
    return wm_fail(err, WM_EINPUT, "out of memory orienting %llu edges", (unsigned long long)g->m / 2);
  }
  if (g->orig_ids) memcpy(h->orig_ids, g->orig_ids, (size_t)n * sizeof *h->orig_ids);
#pragma omp parallel for schedule(dynamic, 256) num_threads(wm_par_threads(16 * (uint64_t)n, WM_PAR_GRAIN))
  for (uint32_t v = 0; v < n; v++) {
    uint64_t k = 0;
    for (uint64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++) k += before(g, v, g->adj[e]);
    h->offsets[v] = k;
  }
  h->offsets[n] = 0;
  h->m = wm_prefix_sum_u64(h->offsets, (size_t)n + 1);
  /* Rows of g are sorted, so the kept neighbours stay sorted. */
#pragma omp parallel for schedule(dynamic, 256) num_threads(wm_par_threads(16 * (uint64_t)n, WM_PAR_GRAIN))
  for (uint32_t v = 0; v < n; v++) {
    uint32_t *to = h->adj + h->offsets[v];
    for (uint64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++)
      if (before(g, v, g->adj[e])) *to++ = g->adj[e];
  }
  h->flags = g->flags | WM_GRAPH_ORIENTED | WM_GRAPH_DIRECTED;
  *out = h;
  return WM_OK;
}
