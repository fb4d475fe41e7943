/* warpmatch_motifs: every connected 3-5 vertex pattern counted
 * vertex-induced, as `motifs` counts them (matcher/cmd_motifs.c): on the
 * degree-renumbered graph, by formula unless the method says enumerate. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "matcher.h"

unsigned warpmatch_motif_classes(unsigned size) {
  if (size < 3 || size > 5) return 0;
  wm_pattern *pats = NULL;
  unsigned n = 0;
  wm_error err;
  if (wm_connected_patterns(size, &pats, &n, &err) != WM_OK) return 0;
  free(pats);
  return n;
}

/* One row: the class's name and edges (which fit: names of 3-5 vertex
 * classes are short, and 10 edges take 39 characters), and its count. */
static int fill(warpmatch_context *ctx, const char *who, const wm_pattern *p, wm_u128 count, warpmatch_motif *out) {
  memset(out, 0, sizeof *out);
  char edges[256];
  wm_pattern_edge_string(p, edges, sizeof edges);
  if (snprintf(out->name, sizeof out->name, "%s", p->name) >= (int)sizeof out->name ||
      snprintf(out->edges, sizeof out->edges, "%s", edges) >= (int)sizeof out->edges)
    return wm_api_fail(ctx, WARPMATCH_EINPUT, "%s: motif %s (%s) does not fit warpmatch_motif", who, p->name, edges);
  out->count = (uint64_t)count;
  out->count_high = (uint64_t)(count >> 64);
  return WARPMATCH_OK;
}

static int count_all(warpmatch_context *ctx, const char *who, const wm_graph *g, unsigned size, int use_gpu,
                     int method, warpmatch_motif *out) {
  wm_pattern *pats = NULL;
  unsigned n = 0;
  wm_error err;
  int rc = wm_connected_patterns(size, &pats, &n, &err);
  if (rc) return wm_api_status(ctx, rc, &err);
  wm_u128 *counts = calloc(n, sizeof *counts);
  if (!counts) {
    free(pats);
    return wm_api_fail(ctx, WARPMATCH_EINPUT, "%s: out of memory", who);
  }
  wm_match_options mo;
  wm_match_options_init(&mo);
  mo.threads = ctx->threads;
  mo.gpus = ctx->gpus;
  mo.motif_method = method; /* WARPMATCH_METHOD_* are wm_motif_method's values */
  rc = wm_api_status(ctx, wm_motifs(g, size, use_gpu, &mo, counts, NULL, NULL, &err), &err);
  for (unsigned i = 0; !rc && i < n; i++) rc = fill(ctx, who, &pats[i], counts[i], &out[i]);
  free(counts);
  free(pats);
  return rc;
}

int warpmatch_motifs(warpmatch_context *ctx, const warpmatch_graph *g, unsigned size,
                     const warpmatch_count_options *opt, warpmatch_motif *out) {
  static const char who[] = "warpmatch_motifs";
  if (!ctx) return WARPMATCH_EUSAGE;
  if (!g) return wm_api_null(ctx, who, "g");
  if (!out) return wm_api_null(ctx, who, "out");
  if (size < 3 || size > 5) return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: size %u; motifs have 3, 4 or 5 vertices", who, size);
  if (g->g->flags & WM_GRAPH_DIRECTED)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: needs an undirected graph (this one was loaded as directed)", who);
  warpmatch_count_options o;
  int use_gpu = 0;
  int rc = wm_api_count_options(ctx, who, opt, &o);
  if (!rc) rc = wm_api_use_gpu(ctx, who, o.device, &use_gpu);
  if (rc) return rc;
  wm_api_threads t;
  wm_api_threads_enter(ctx, &t);
  wm_api_matching m;
  rc = wm_api_matching_of(ctx, g, &m);
  if (!rc) rc = count_all(ctx, who, m.g, size, use_gpu, o.method, out);
  wm_api_threads_leave(&t);
  return rc;
}
