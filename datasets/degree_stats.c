/* Degree summary (out-degrees for a directed graph): the `info` figures and
 * the planner's cost model.  Median and p99 use nearest rank (the smallest
 * degree d with at least p% of the vertices at degree <= d), read off a
 * degree histogram so that no copy of n degrees is sorted. */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "datasets.h"
#include "graph_internal.h"

/* Degrees below this are counted in per-thread histograms (no contention on
 * the many low-degree vertices); the rare larger ones with atomics. */
enum { LOCAL_BINS = 4096 };

static uint64_t nearest_rank(const uint64_t *hist, uint64_t maxd, uint64_t n, double p) {
  uint64_t k = (uint64_t)ceil(p * (double)n);
  if (k == 0) k = 1;
  uint64_t seen = 0;
  for (uint64_t d = 0; d <= maxd; d++) {
    seen += hist[d];
    if (seen >= k) return d;
  }
  return maxd;
}

uint64_t wm_graph_max_degree(const wm_graph *g) {
  /* Rows in descending order of length (checked when a .wmg says so):
   * the first is the longest, without a pass over n vertices, which is
   * the planner's probes' whole cost on a graph of millions. */
  if ((g->flags & WM_GRAPH_DEGREE_SORTED) && !(g->flags & WM_GRAPH_ORIENTED)) return g->n ? wm_degree(g, 0) : 0;
  uint64_t maxdeg = 0;
  for (uint32_t v = 0; v < g->n; v++)
    if (wm_degree(g, v) > maxdeg) maxdeg = wm_degree(g, v);
  return maxdeg;
}

void wm_graph_degree_stats(const wm_graph *g, wm_degree_stats *st) {
  memset(st, 0, sizeof *st);
  uint32_t n = g->n;
  st->degree_sum = g->m;
  if (n == 0) return;
  uint64_t mx = 0, mn = UINT64_MAX, iso = 0;
#pragma omp parallel for reduction(max : mx) reduction(min : mn) reduction(+ : iso) schedule(static) num_threads(wm_par_threads(n, WM_PAR_GRAIN))
  for (uint32_t v = 0; v < n; v++) {
    uint64_t d = wm_degree(g, v);
    if (d > mx) mx = d;
    if (d < mn) mn = d;
    iso += d == 0;
  }
  st->max_degree = mx;
  st->min_degree = mn;
  st->isolated = iso;
  st->mean_degree = (double)g->m / n;
  uint64_t *hist = calloc(mx + 1, sizeof *hist);
  if (!hist) { /* no memory for the histogram: report the mean instead */
    st->median_degree = st->p99_degree = (uint64_t)st->mean_degree;
    return;
  }
  uint64_t local_bins = mx + 1 < LOCAL_BINS ? mx + 1 : LOCAL_BINS;
#pragma omp parallel num_threads(wm_par_threads(n, WM_PAR_GRAIN))
  {
    uint64_t local[LOCAL_BINS] = {0};
#pragma omp for schedule(static)
    for (uint32_t v = 0; v < n; v++) {
      uint64_t d = wm_degree(g, v);
      if (d < local_bins) local[d]++;
      else __atomic_fetch_add(&hist[d], 1, __ATOMIC_RELAXED);
    }
    for (uint64_t d = 0; d < local_bins; d++)
      if (local[d]) __atomic_fetch_add(&hist[d], local[d], __ATOMIC_RELAXED);
  }
  st->median_degree = nearest_rank(hist, mx, n, 0.5);
  st->p99_degree = nearest_rank(hist, mx, n, 0.99);
  free(hist);
}
