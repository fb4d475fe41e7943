/* Builds the degree DAG's row split and the heavy work items of the
 * triangle, diamond and clique kernels (dag_split.h). */
#include "dag_split.h"

#include <stdlib.h>
#include <string.h>

/* Entries of the sorted row[0, n) below x. */
static uint32_t count_below(const uint32_t *row, uint32_t n, uint32_t x) {
  uint32_t lo = 0, hi = n;
  while (lo < hi) {
    uint32_t mid = lo + ((hi - lo) >> 1);
    if (row[mid] < x)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

static uint32_t degree(const wm_graph *g, uint32_t v) {
  return (uint32_t)(g->offsets[v + 1] - g->offsets[v]);
}

static int fill_dplus(const wm_graph *g, wm_dag_split *s, wm_error *err) {
  memset(s, 0, sizeof *s);
  s->dplus = malloc(((size_t)g->n + 1) * sizeof *s->dplus);
  if (!s->dplus) return wm_fail(err, WM_EINPUT, "dag split: out of host memory");
  uint32_t max_d = 0;
#pragma omp parallel for schedule(dynamic, 4096) reduction(max : max_d)
  for (int64_t v = 0; v < (int64_t)g->n; v++) {
    uint32_t d = count_below(g->adj + g->offsets[v], degree(g, (uint32_t)v), (uint32_t)v);
    s->dplus[v] = d;
    if (d > max_d) max_d = d;
  }
  s->max_dplus = max_d;
  return WM_OK;
}

static int alloc_items(wm_dag_split *s, uint64_t n_items, wm_error *err) {
  s->items = malloc((n_items ? n_items : 1) * sizeof *s->items);
  if (!s->items) {
    wm_dag_split_free(s);
    return wm_fail(err, WM_EINPUT, "dag split: out of host memory");
  }
  s->n_items = n_items;
  return WM_OK;
}

/* The length of N-(v) when v is a heavy pivot, else 0. */
static uint32_t heavy_list(const wm_graph *g, const wm_dag_split *s, int diamonds, uint32_t v) {
  uint32_t d = s->dplus[v], din = degree(g, v) - d;
  if (diamonds) return din && wm_dia_is_heavy(g->n, d + din, din, s->light_in) ? din : 0;
  return d && din && wm_tri_is_heavy(d, din, s->light_in) ? din : 0;
}

/* Vertices of N-(v) per heavy item. */
static uint32_t item_size(const wm_graph *g, int diamonds, uint32_t v) {
  return diamonds ? wm_dia_split(degree(g, v)) : WM_TRI_SPLIT;
}

/* light_in from the work per light warp (`pairs` of them in all), then
 * the heavy pivots' items. */
static int split_pivots(const wm_graph *g, uint64_t pairs, uint64_t warps, int diamonds, wm_dag_split *s,
                        wm_error *err) {
  s->work = pairs;
  uint64_t share = warps ? pairs / warps : WM_TRI_LIGHT_IN, n_items = 0;
  s->light_in = share < WM_TRI_LIGHT_IN_MIN ? WM_TRI_LIGHT_IN_MIN
                : share > WM_TRI_LIGHT_IN   ? WM_TRI_LIGHT_IN
                                            : (uint32_t)share;
  uint32_t max_d = 0;
#pragma omp parallel for schedule(dynamic, 4096) reduction(+ : n_items) reduction(max : max_d)
  for (int64_t v = 0; v < (int64_t)g->n; v++) {
    uint32_t len = heavy_list(g, s, diamonds, (uint32_t)v), split = item_size(g, diamonds, (uint32_t)v);
    n_items += (len + split - 1) / split;
    if (len && degree(g, (uint32_t)v) > max_d) max_d = degree(g, (uint32_t)v);
  }
  s->max_heavy_d = max_d;
  int rc = alloc_items(s, n_items, err);
  if (rc) return rc;
  uint64_t k = 0;
  for (uint32_t v = 0; v < g->n; v++) {
    uint32_t len = heavy_list(g, s, diamonds, v), split = item_size(g, diamonds, v);
    for (uint32_t lo = 0; lo < len; lo += split) {
      wm_dag_item it = {v, lo, len - lo < split ? len : lo + split};
      s->items[k++] = it;
    }
  }
  return WM_OK;
}

int wm_dag_split_triangles(const wm_graph *g, uint64_t warps, wm_dag_split *s, wm_error *err) {
  int rc = fill_dplus(g, s, err);
  if (rc) return rc;
  uint64_t pairs = 0;
#pragma omp parallel for schedule(dynamic, 4096) reduction(+ : pairs)
  for (int64_t v = 0; v < (int64_t)g->n; v++) {
    uint32_t d = s->dplus[v], din = degree(g, (uint32_t)v) - d;
    if (d && din) pairs += din;
  }
  return split_pivots(g, pairs, warps, 0, s, err);
}

int wm_dag_split_diamonds(const wm_graph *g, uint64_t warps, wm_dag_split *s, wm_error *err) {
  int rc = fill_dplus(g, s, err);
  if (rc) return rc;
  uint64_t edges = 0;
#pragma omp parallel for schedule(dynamic, 4096) reduction(+ : edges)
  for (int64_t v = 0; v < (int64_t)g->n; v++) edges += degree(g, (uint32_t)v) - s->dplus[v];
  return split_pivots(g, edges, warps, 1, s, err);
}

static int u64_cmp(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* The pivots with |N+| > WM_CLQ_LIGHT_D (and >= k - 1) by descending |N+|,
 * ties by id: the largest matrices are counted first, so the tail is made
 * of small ones. */
static int heavy_pivots(const wm_graph *g, unsigned k, wm_dag_split *s, wm_error *err) {
  uint64_t n = 0;
  for (uint32_t v = 0; v < g->n; v++) n += s->dplus[v] > WM_CLQ_LIGHT_D && s->dplus[v] + 1 >= k;
  uint64_t *key = malloc((n ? n : 1) * sizeof *key);
  s->pivots = malloc((n ? n : 1) * sizeof *s->pivots);
  s->base = malloc((n + 1) * sizeof *s->base);
  if (!key || !s->pivots || !s->base) {
    free(key);
    wm_dag_split_free(s);
    return wm_fail(err, WM_EINPUT, "dag split: out of host memory");
  }
  uint64_t p = 0;
  for (uint32_t v = 0; v < g->n; v++)
    if (s->dplus[v] > WM_CLQ_LIGHT_D && s->dplus[v] + 1 >= k)
      key[p++] = (uint64_t)(UINT32_MAX - s->dplus[v]) << 32 | v;
  qsort(key, n, sizeof *key, u64_cmp);
  for (p = 0; p < n; p++) s->pivots[p] = (uint32_t)key[p];
  free(key);
  s->n_pivots = n;
  return WM_OK;
}

int wm_dag_split_cliques(const wm_graph *g, unsigned k, wm_dag_split *s, wm_error *err) {
  int rc = fill_dplus(g, s, err);
  if (rc) return rc;
  uint64_t rows = 0, n_items = 0;
  for (uint32_t v = 0; v < g->n; v++)
    if (s->dplus[v] + 1 >= k) rows += s->dplus[v];
  s->work = rows;
  if ((rc = heavy_pivots(g, k, s, err))) return rc;
  uint64_t p, n_piv = s->n_pivots;
  s->base[0] = 0;
  for (p = 0; p < n_piv; p++) {
    uint32_t d = s->dplus[s->pivots[p]];
    s->base[p + 1] = s->base[p] + wm_clq_row_offset(d);
    n_items += (d + WM_CLQ_ROWS - 1) / WM_CLQ_ROWS;
  }
  if ((rc = alloc_items(s, n_items, err))) return rc;
  uint64_t t = 0;
  for (p = 0; p < n_piv; p++) {
    uint32_t d = s->dplus[s->pivots[p]];
    for (uint32_t hi = d; hi > 0; hi = hi > WM_CLQ_ROWS ? hi - WM_CLQ_ROWS : 0) {
      wm_dag_item it = {(uint32_t)p, hi > WM_CLQ_ROWS ? hi - WM_CLQ_ROWS : 0, hi};
      s->items[t++] = it;
    }
  }
  return WM_OK;
}

void wm_dag_split_free(wm_dag_split *s) {
  free(s->dplus);
  free(s->items);
  free(s->pivots);
  free(s->base);
  memset(s, 0, sizeof *s);
}
