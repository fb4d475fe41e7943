/* Builds the triangle path's row split and heavy items (triangle_split.h). */
#include "triangle_split.h"

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

int wm_tri_split_build(const wm_graph *g, wm_tri_split *s, wm_error *err) {
  memset(s, 0, sizeof *s);
  s->dplus = malloc(((size_t)g->n + 1) * sizeof *s->dplus);
  if (!s->dplus) return wm_fail(err, WM_EINPUT, "triangles: out of host memory");
  uint64_t pairs = 0, n_items = 0;
#pragma omp parallel for schedule(dynamic, 4096) reduction(+ : pairs, n_items)
  for (int64_t v = 0; v < (int64_t)g->n; v++) {
    uint32_t deg = (uint32_t)(g->offsets[v + 1] - g->offsets[v]);
    uint32_t d = count_below(g->adj + g->offsets[v], deg, (uint32_t)v), din = deg - d;
    s->dplus[v] = d;
    if (d == 0 || din == 0) continue;
    pairs += din;
    if (wm_tri_is_heavy(d, din)) n_items += (din + WM_TRI_SPLIT - 1) / WM_TRI_SPLIT;
  }
  s->pairs = pairs;
  s->items = malloc((n_items ? n_items : 1) * sizeof *s->items);
  if (!s->items) {
    wm_tri_split_free(s);
    return wm_fail(err, WM_EINPUT, "triangles: out of host memory");
  }
  uint64_t k = 0;
  for (uint32_t v = 0; v < g->n; v++) {
    uint32_t d = s->dplus[v], din = (uint32_t)(g->offsets[v + 1] - g->offsets[v]) - d;
    if (d == 0 || din == 0 || !wm_tri_is_heavy(d, din)) continue;
    for (uint32_t lo = 0; lo < din; lo += WM_TRI_SPLIT) {
      wm_tri_item it = {v, lo, din - lo < WM_TRI_SPLIT ? din : lo + WM_TRI_SPLIT};
      s->items[k++] = it;
    }
  }
  s->n_items = n_items;
  return WM_OK;
}

void wm_tri_split_free(wm_tri_split *s) {
  free(s->dplus);
  free(s->items);
  memset(s, 0, sizeof *s);
}
