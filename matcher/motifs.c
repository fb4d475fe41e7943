/* Motif counts: the vertex-induced count of every connected k-vertex
 * pattern, one plan each, run on the CPU executor or the GPU. */
#include <stdlib.h>

#include "matcher.h"

int wm_motifs(const wm_graph *g, unsigned k, int use_gpu, const wm_match_options *o,
              uint64_t *counts, wm_error *err) {
  if (k < 3 || k > 5) return wm_fail(err, WM_EUSAGE, "motifs: size must be 3, 4 or 5 (got %u)", k);
  wm_pattern *pats = NULL;
  unsigned n = 0;
  int rc = wm_connected_patterns(k, &pats, &n, err);
  if (rc) return rc;
  wm_graph_summary gs;
  wm_graph_summary_compute(g, &gs);
  wm_plan_options po;
  wm_plan_options_init(&po);
  po.induced = 1;
  for (unsigned i = 0; i < n && rc == WM_OK; i++) {
    wm_plan plan;
    wm_match_result r;
    rc = wm_plan_build(&pats[i], &gs, &po, &plan, err);
    if (rc == WM_OK)
      rc = use_gpu ? wm_match_gpu(g, &plan, o, &r, err) : wm_match_cpu(g, &plan, o, &r, err);
    if (rc == WM_OK) counts[i] = r.count;
  }
  free(pats);
  return rc;
}
