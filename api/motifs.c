/* warpmatch_motifs: every connected 3-5 vertex pattern counted
 * vertex-induced: on the degree-renumbered graph, by formula unless the
 * method says enumerate; with trials, medians of timed runs. */
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

/* One timed call of wm_motifs, for wm_match_trials. */
typedef struct rerun {
  const wm_graph *g;
  unsigned k;
  int use_gpu;
  const wm_match_options *mo;
  wm_u128 *counts; /* a scratch table: the warm-up's stays as the answer */
} rerun;

static int run_once(void *c, wm_match_result *x, wm_error *err) {
  const rerun *r = c;
  return wm_motifs(r->g, r->k, r->use_gpu, r->mo, r->counts, NULL, x, err);
}

/* trials > 1: the enumerate method on the GPU repeats each plan's launch
 * in the driver (a warm-up, then the timed ones; wm_match_options.trials)
 * and reports kernel times; otherwise (the CPU, or the formula, whose call
 * mixes host work with its kernels) a warm-up call, then that many calls
 * that must count the same, whose wall seconds give the median. */
static int timed(const wm_graph *g, unsigned k, unsigned n, int use_gpu, wm_match_options *mo, unsigned trials,
                 wm_u128 *counts, int *how, wm_match_result *r, wm_error *err) {
  const int in_driver = use_gpu && mo->motif_method == WM_MOTIF_ENUMERATE;
  if (in_driver) mo->trials = (int)trials;
  int rc = wm_motifs(g, k, use_gpu, mo, counts, how, r, err);
  if (rc || trials <= 1) return rc;
  if (in_driver) {
    r->trials = trials;
    return WM_OK;
  }
  rerun c = {g, k, use_gpu, mo, calloc(n, sizeof *c.counts)};
  if (!c.counts) return wm_fail(err, WM_EINPUT, "out of memory");
  rc = wm_match_trials(run_once, &c, trials, r->count, 0, r, err);
  free(c.counts);
  return rc;
}

/* The edge-induced counts: each class's copies inside every vertex-induced
 * class (N = M I, M the spanning-subgraph matrix). */
static int edge_induced_rows(warpmatch_context *ctx, const char *who, const wm_pattern *pats, unsigned n,
                             const wm_u128 *counts, warpmatch_motif *out) {
  uint64_t *M = calloc((size_t)n * n, sizeof *M);
  wm_error err;
  if (!M) return wm_api_fail(ctx, WARPMATCH_EINPUT, "%s: out of memory", who);
  int rc = wm_api_status(ctx, wm_spanning_matrix(pats, n, M, &err), &err);
  for (unsigned i = 0; !rc && i < n; i++) {
    wm_u128 sum = 0;
    for (unsigned c = i; c < n; c++) sum += (wm_u128)M[(size_t)i * n + c] * counts[c];
    rc = fill(ctx, who, &pats[i], sum, &out[i]);
  }
  free(M);
  return rc;
}

typedef struct motif_out {
  warpmatch_motif *rows;
  const char **how;
  warpmatch_motif *edge_induced;
  warpmatch_match_result *result;
} motif_out;

static int report(warpmatch_context *ctx, const char *who, const wm_pattern *pats, unsigned n, const wm_u128 *counts,
                  const int *how, const wm_match_result *r, const motif_out *out) {
  int rc = WARPMATCH_OK;
  for (unsigned i = 0; !rc && i < n; i++) rc = fill(ctx, who, &pats[i], counts[i], &out->rows[i]);
  for (unsigned i = 0; out->how && i < n; i++) out->how[i] = wm_motif_how_name(how[i]);
  if (!rc && out->edge_induced) rc = edge_induced_rows(ctx, who, pats, n, counts, out->edge_induced);
  warpmatch_match_result *x = out->result;
  if (rc || !x) return rc;
  x->count.count = (uint64_t)r->count; /* the classes' total */
  x->count.count_high = (uint64_t)(r->count >> 64);
  x->count.seconds = r->seconds;
  x->count.kernel_ms = r->kernel_ms;
  x->set_ops = r->set_ops;
  x->formula_paths = r->formula_paths;
  x->trials = r->trials;
  memcpy(x->launch, r->launch, sizeof x->launch);
  return WARPMATCH_OK;
}

static int count_all(warpmatch_context *ctx, const char *who, uint64_t serial, const wm_graph *g, unsigned size,
                     int use_gpu, const warpmatch_match_options *o, const motif_out *out) {
  wm_pattern *pats = NULL;
  unsigned n = 0;
  wm_error err;
  int rc = wm_connected_patterns(size, &pats, &n, &err);
  if (rc) return wm_api_status(ctx, rc, &err);
  wm_u128 *counts = calloc(n, sizeof *counts);
  int *how = calloc(n, sizeof *how);
  if (!counts || !how) rc = wm_api_fail(ctx, WARPMATCH_EINPUT, "%s: out of memory", who);
  wm_match_options mo;
  wm_api_executor_options(ctx, o, NULL, &mo);
  if (use_gpu && size >= 4) wm_api_gpu_graph(ctx, serial, g, &mo);
  mo.motif_method = o->count.method; /* WARPMATCH_METHOD_* are wm_motif_method's values */
  wm_match_result r;
  memset(&r, 0, sizeof r);
  if (!rc) rc = wm_api_status(ctx, timed(g, size, n, use_gpu, &mo, o->trials, counts, how, &r, &err), &err);
  for (unsigned t = 0; !rc && o->trial_ms && t < r.trials && t < o->trials; t++) o->trial_ms[t] = r.trial_ms[t];
  if (!rc) rc = report(ctx, who, pats, n, counts, how, &r, out);
  free(how);
  free(counts);
  free(pats);
  return rc;
}

static int motifs(warpmatch_context *ctx, const char *who, const warpmatch_graph *g, unsigned size,
                  const warpmatch_match_options *o, const motif_out *out) {
  if (size < 3 || size > 5) return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: size %u; motifs have 3, 4 or 5 vertices", who, size);
  if (g->g->flags & WM_GRAPH_DIRECTED)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: needs an undirected graph (this one was loaded as directed)", who);
  int use_gpu = 0;
  int rc = wm_api_use_gpu(ctx, who, o->count.device, &use_gpu);
  if (rc) return rc;
  if (out->result) out->result->count.device = use_gpu ? WARPMATCH_DEVICE_GPU : WARPMATCH_DEVICE_CPU;
  if (out->result)
    out->result->count.method = o->count.method == WARPMATCH_METHOD_ENUMERATE ? WARPMATCH_METHOD_ENUMERATE
                                                                              : WARPMATCH_METHOD_FORMULA;
  wm_api_threads t;
  wm_api_threads_enter(ctx, &t);
  wm_api_matching m;
  double relabel_s = 0, stats_s = 0;
  rc = wm_api_matching_of(ctx, g, o->relabel, 0, &m, &relabel_s, &stats_s);
  if (out->result) out->result->relabel_seconds = relabel_s, out->result->stats_seconds = stats_s;
  if (!rc) rc = count_all(ctx, who, g->serial, m.g, size, use_gpu, o, out);
  wm_api_threads_leave(&t);
  return rc;
}

int warpmatch_motifs(warpmatch_context *ctx, const warpmatch_graph *g, unsigned size,
                     const warpmatch_count_options *opt, warpmatch_motif *out) {
  static const char who[] = "warpmatch_motifs";
  if (!ctx) return WARPMATCH_EUSAGE;
  if (!g) return wm_api_null(ctx, who, "g");
  if (!out) return wm_api_null(ctx, who, "out");
  warpmatch_count_options defaults;
  if (!opt) warpmatch_count_options_init(&defaults), opt = &defaults;
  warpmatch_match_options o;
  int rc = wm_api_match_options(ctx, who, NULL, opt, &o);
  motif_out mo = {out, NULL, NULL, NULL};
  return rc ? rc : motifs(ctx, who, g, size, &o, &mo);
}

int warpmatch_motifs_ex(warpmatch_context *ctx, const warpmatch_graph *g, unsigned size,
                        const warpmatch_match_options *opt, warpmatch_motif *out, const char **how,
                        warpmatch_motif *edge_induced, warpmatch_match_result *result) {
  static const char who[] = "warpmatch_motifs_ex";
  if (!ctx) return WARPMATCH_EUSAGE;
  if (!g) return wm_api_null(ctx, who, "g");
  if (!out) return wm_api_null(ctx, who, "out");
  warpmatch_match_options o;
  warpmatch_match_result r;
  int rc = wm_api_ex_begin(ctx, who, opt, &o, &r);
  if (!rc && o.order) rc = wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: a matching order is for one pattern, not motifs", who);
  motif_out mo = {out, how, edge_induced, &r};
  if (!rc) rc = motifs(ctx, who, g, size, &o, &mo);
  int out_rc = result ? wm_api_struct_out(ctx, who, result, &r, sizeof r) : WARPMATCH_OK;
  return rc ? rc : out_rc;
}
