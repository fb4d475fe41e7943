/* What count, list and plan share: checking the options, and the pattern,
 * graph, labels and plan a match runs with, prepared as `count` and `list`
 * prepare theirs (matcher/match_cli.c): on the degree-renumbered graph,
 * planned from its statistics, with the GPU's plan when it runs there. */
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "matcher.h"

void warpmatch_count_options_init(warpmatch_count_options *o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->device = WARPMATCH_DEVICE_AUTO;
  o->method = WARPMATCH_METHOD_AUTO;
}

int wm_api_count_options(warpmatch_context *ctx, const char *who, const warpmatch_count_options *in,
                         warpmatch_count_options *o) {
  if (in)
    *o = *in;
  else
    warpmatch_count_options_init(o);
  if (o->method < WARPMATCH_METHOD_AUTO || o->method > WARPMATCH_METHOD_ENUMERATE)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE,
                       "%s: method %d: expected WARPMATCH_METHOD_AUTO, _FORMULA or _ENUMERATE", who, o->method);
  return WARPMATCH_OK;
}

/* The caller's labels (one per index) in the numbering matched on. */
static int labels_for(warpmatch_context *ctx, const char *who, const int32_t *labels, wm_api_job *job) {
  const wm_graph *g = job->m.g;
  for (uint32_t v = 0; v < g->n; v++)
    if (labels[v] < 0)
      return wm_api_fail(ctx, WARPMATCH_EINPUT, "%s: labels[%u] is %d; vertex labels are >= 0", who, v,
                         (int)labels[v]);
  if (!job->m.old_of) {
    job->labels = labels;
    return WARPMATCH_OK;
  }
  wm_error err;
  int rc = wm_match_move_labels(labels, job->m.old_of, g->n, &job->moved, &err);
  if (rc) return wm_api_status(ctx, rc, &err);
  job->labels = job->moved;
  return WARPMATCH_OK;
}

static int plan(warpmatch_context *ctx, const warpmatch_count_options *o, int count_only, wm_api_job *job) {
  wm_graph_summary defaults;
  const wm_graph_summary *gs = job->m.summary;
  if (!gs) wm_graph_summary_default(&defaults), gs = &defaults;
  wm_plan_options po;
  wm_plan_options_init(&po);
  po.induced = o->induced != 0;
  po.embeddings = o->embeddings != 0;
  po.count_only = count_only;
  po.first_edge_up = job->use_gpu;
  wm_error err;
  return wm_api_status(ctx, wm_plan_build(&job->pattern, gs, &po, &job->plan, &err), &err);
}

int wm_api_job_prepare(warpmatch_context *ctx, const char *who, const warpmatch_graph *g,
                       const warpmatch_pattern *p, const warpmatch_count_options *o, int count_only,
                       int plan_only, wm_api_job *job) {
  memset(job, 0, sizeof *job);
  job->pattern = p->p;
  /* Pattern files of STMatch label vertex i with i: their shape is wanted. */
  for (unsigned v = 0; o->ignore_labels && v < job->pattern.k; v++)
    wm_pattern_set_label(&job->pattern, v, WM_ANY_LABEL);
  const int matching = g && !plan_only;
  if (job->pattern.labeled && matching && !o->labels)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE,
                       "%s: pattern '%s' has vertex labels: give the graph's (count options' labels, one per "
                       "vertex) or match its shape only (ignore_labels)",
                       who, job->pattern.name);
  int rc = wm_api_use_gpu(ctx, who, o->device, &job->use_gpu);
  if (!rc && g) rc = wm_api_matching_of(ctx, g, &job->m);
  if (!rc && matching && o->labels && job->pattern.labeled) rc = labels_for(ctx, who, o->labels, job);
  if (!rc) rc = plan(ctx, o, count_only, job);
  if (rc) wm_api_job_free(job);
  return rc;
}

void wm_api_job_free(wm_api_job *job) {
  free(job->moved);
  job->moved = NULL;
  job->labels = NULL;
}
