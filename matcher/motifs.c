/* Motif counts: the vertex-induced count of every connected k-vertex
 * pattern, one plan each, run on the CPU executor or the GPU.  The size-3
 * wedge comes from degrees instead (on both executors alike). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "matcher.h"

/* Every pair of neighbours of v is a wedge centred at v, open (an induced
 * 3-path) or closed; each triangle closes three of them. */
static uint64_t open_wedges(const wm_graph *g, uint64_t triangles) {
  uint64_t pairs = 0;
  for (uint32_t v = 0; v < g->n; v++) {
    uint64_t d = wm_degree(g, v);
    if (d > 1) pairs += d * (d - 1) / 2;
  }
  return pairs - 3 * triangles;
}

/* The degree formula counts the whole graph: not a seeded, ball-limited,
 * listed or per-vertex count. */
static int whole_graph_count(const wm_match_options *o) {
  return !o || (!o->first && !o->allowed && !o->sink && !o->per_vertex);
}

static void add_result(wm_match_result *sum, const wm_match_result *r) {
  sum->count += r->count;
  sum->set_ops += r->set_ops;
  sum->seconds += r->seconds;
  sum->kernel_ms += r->kernel_ms;
  sum->transfer_ms += r->transfer_ms;
}

int wm_motifs(const wm_graph *g, unsigned k, int use_gpu, const wm_match_options *o,
              uint64_t *counts, wm_match_result *sum, wm_error *err) {
  if (k < 3 || k > 5) return wm_fail(err, WM_EUSAGE, "motifs: size must be 3, 4 or 5 (got %u)", k);
  wm_pattern *pats = NULL;
  unsigned n = 0;
  int rc = wm_connected_patterns(k, &pats, &n, err);
  if (rc) return rc;
  wm_match_result total;
  memset(&total, 0, sizeof total);
  wm_graph_summary gs;
  wm_graph_summary_compute(g, &gs);
  wm_plan_options po;
  wm_plan_options_init(&po);
  po.induced = 1;
  po.first_edge_up = use_gpu;
  const int by_degrees = k == 3 && whole_graph_count(o);
  int wedge = -1, triangle = -1;
  char first[sizeof total.launch] = ""; /* the first plan's launch line */
  for (unsigned i = 0; i < n && rc == WM_OK; i++) {
    if (by_degrees && wm_pattern_edges(&pats[i]) == 2) {
      wedge = (int)i;
      continue;
    }
    wm_plan plan;
    wm_match_result r;
    rc = wm_plan_build(&pats[i], &gs, &po, &plan, err);
    if (rc == WM_OK)
      rc = use_gpu ? wm_match_gpu(g, &plan, o, &r, err) : wm_match_cpu(g, &plan, o, &r, err);
    if (rc == WM_OK) {
      counts[i] = r.count;
      add_result(&total, &r);
      if (wm_pattern_edges(&pats[i]) == 3) triangle = (int)i;
      if (!first[0]) memcpy(first, r.launch, sizeof first);
    }
  }
  if (rc == WM_OK && wedge >= 0 && triangle >= 0) {
    double t0 = wm_now();
    counts[wedge] = open_wedges(g, counts[triangle]);
    total.seconds += wm_now() - t0;
    total.count += counts[wedge];
    snprintf(total.launch, sizeof total.launch,
             "3-path from degrees (sum of C(d,2) less 3 per triangle); triangle: %.150s", first);
  } else {
    snprintf(total.launch, sizeof total.launch, "one plan per pattern; the first: %.200s", first);
  }
  free(pats);
  if (rc == WM_OK && sum) *sum = total;
  return rc;
}
