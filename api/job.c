/* What count, list, plan and motifs share: checking the options, and the
 * pattern, graph, labels, ball and plan a match runs with: on the
 * degree-renumbered graph unless told otherwise, planned from its
 * statistics, with the GPU's plan when it runs there. */
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "engine.h"
#include "match_knobs.h"
#include "matcher.h"
#include "base.h"

_Static_assert(WARPMATCH_MAX_TRIALS == WM_MAX_TRIALS, "the public bound is the matcher's");
_Static_assert(WARPMATCH_GPU_MAX_TABLE_WORDS == WM_GPU_MAX_TABLE_WORDS, "the public bound is the policy's");
_Static_assert(WARPMATCH_GPU_MAX_UNROLL == WM_GPU_MAX_UNROLL && WARPMATCH_GPU_MAX_WARPS == WM_GPU_MAX_WARPS,
               "the public bounds are the policy's");
_Static_assert(WARPMATCH_MAX_GPUS == WM_MAX_GPUS, "the public bound is the GPU drivers' table size");

void warpmatch_count_options_init(warpmatch_count_options *o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->device = WARPMATCH_DEVICE_AUTO;
  o->method = WARPMATCH_METHOD_AUTO;
}

void warpmatch_match_options_init(warpmatch_match_options *o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->size = sizeof *o;
  warpmatch_count_options_init(&o->count);
  o->relabel = 1;
  o->code_motion = 1;
  o->pair_count = 1;
  o->trials = 1;
  o->gpu_steal = -1;
  o->gpu_dedicated = 1;
  o->planner = WARPMATCH_PLANNER_AUTO;
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

/* One option outside its range: EUSAGE naming it. */
static int out_of_range(warpmatch_context *ctx, const char *who, const char *what, long long v, long long lo,
                        long long hi) {
  if (v >= lo && v <= hi) return WARPMATCH_OK;
  return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: %s %lld; expected %lld to %lld", who, what, v, lo, hi);
}

int wm_api_match_options(warpmatch_context *ctx, const char *who, const warpmatch_match_options *in,
                         const warpmatch_count_options *count, warpmatch_match_options *o) {
  warpmatch_match_options_init(o);
  int rc = in ? wm_api_struct_in(ctx, who, o, sizeof *o, in) : WARPMATCH_OK;
  if (!rc && count) o->count = *count;
  if (!rc) rc = wm_api_count_options(ctx, who, &o->count, &o->count);
  if (!rc) rc = out_of_range(ctx, who, "trials", o->trials, 0, WARPMATCH_MAX_TRIALS);
  if (!rc) rc = out_of_range(ctx, who, "gpu_steal", o->gpu_steal, -1, 2);
  if (!rc) rc = out_of_range(ctx, who, "gpu_level0", o->gpu_level0, 0, 2);
  for (unsigned i = 0; !rc && i < wm_match_knob_count; i++) { /* 0, the default, or the knob's range */
    const wm_match_knob *k = &wm_match_knobs[i];
    const long long v = wm_match_knob_get(k, o);
    if (v) rc = out_of_range(ctx, who, k->field, v, k->lo == 1 ? 0 : k->lo, k->hi);
  }
  if (!rc) rc = out_of_range(ctx, who, "gpu_table_words", o->gpu_table_words, -1, WARPMATCH_GPU_MAX_TABLE_WORDS);
  if (!rc) rc = out_of_range(ctx, who, "planner", o->planner, WARPMATCH_PLANNER_MODEL, WARPMATCH_PLANNER_PROBES);
  if (rc) return rc;
  if (o->trials == 0) o->trials = 1;
  if (o->per_vertex && o->trials > 1)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: per-vertex counts run once: trials must be 1", who);
  return WARPMATCH_OK;
}

int wm_api_ex_begin(warpmatch_context *ctx, const char *who, const warpmatch_match_options *in,
                    warpmatch_match_options *o, warpmatch_match_result *r) {
  memset(r, 0, sizeof *r);
  r->size = sizeof *r;
  return wm_api_match_options(ctx, who, in, NULL, o);
}

void wm_api_executor_options(const warpmatch_context *ctx, const warpmatch_match_options *o, const wm_api_job *job,
                             wm_match_options *mo) {
  wm_match_options_init(mo);
  mo->threads = ctx->share_one_thread ? 1 : ctx->threads; /* only this thread may call MPI */
  mo->gpus = o->gpus ? o->gpus : ctx->gpus;
  mo->share = ctx->share;
  mo->gpu_steal = o->gpu_steal; /* WM_STEAL_NONE, _BLOCK, _TWO_LEVEL in order, -1 the default */
  mo->gpu_level0 = o->gpu_level0; /* WM_LEVEL0_AUTO, _VERTICES, _EDGES in order */
  mo->gpu_table_words = o->gpu_table_words;
  if (o->gpu_chunk) mo->gpu_chunk = o->gpu_chunk;
  if (o->gpu_unroll) mo->gpu_unroll = o->gpu_unroll;
  if (o->gpu_blocks) mo->gpu_blocks = o->gpu_blocks;
  if (o->gpu_warps) mo->gpu_warps_per_block = o->gpu_warps;
  if (!o->gpu_dedicated) mo->gpu_clique_kernels = 0;
  if (!job) return;
  mo->vertex_labels = job->labels;
  mo->allowed = job->allowed;
  mo->first = job->first;
  mo->n_first = job->n_first;
}

void wm_api_gpu_graph_drop(warpmatch_context *ctx) {
  wm_gpu_graph_destroy(ctx->match);
  ctx->match = NULL;
  ctx->match_serial = 0;
  ctx->match_g = NULL;
}

void wm_api_gpu_graph(warpmatch_context *ctx, uint64_t serial, const wm_graph *g, wm_match_options *mo) {
  const int gpus = mo->gpus > 1 ? mo->gpus : 1;
  if (!(ctx->match && ctx->match_serial == serial && ctx->match_g == g && ctx->match_gpus == gpus)) {
    wm_api_gpu_graph_drop(ctx); /* one graph on the devices at a time */
    wm_error err;
    if (wm_gpu_graph_create(g, gpus, &ctx->match, &err) != WM_OK) return;
    ctx->match_serial = serial, ctx->match_g = g, ctx->match_gpus = gpus;
  }
  mo->gpu_graph = ctx->match;
}

void wm_api_job_result(const wm_api_job *job, const wm_match_result *r, warpmatch_match_result *out) {
  out->count.seconds = r->seconds;
  out->count.kernel_ms = job->use_gpu ? r->kernel_ms : 0.0;
  out->count.device = job->use_gpu ? WARPMATCH_DEVICE_GPU : WARPMATCH_DEVICE_CPU;
  out->set_ops = r->set_ops;
  out->ball_vertices = job->first ? job->n_first : 0;
  out->formula_paths = r->formula_paths;
  out->relabel_seconds = job->relabel_seconds;
  out->stats_seconds = job->stats_seconds;
  out->plan_seconds = job->plan_seconds;
  out->transfer_ms = r->transfer_ms;
  out->lane_util = r->lane_util;
  out->trials = r->trials;
  memcpy(out->launch, r->launch, sizeof out->launch);
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
  double t0 = wm_now();
  int rc = wm_match_move_labels(labels, job->m.old_of, g->n, &job->moved, &err);
  if (rc) return wm_api_status(ctx, rc, &err);
  job->relabel_seconds += wm_now() - t0;
  job->labels = job->moved;
  return WARPMATCH_OK;
}

/* The ball around index `seed` (wm_engine_ball), on the graph matched on. */
static int ball(warpmatch_context *ctx, const char *who, const warpmatch_match_options *o, wm_api_job *job) {
  const wm_graph *g = job->m.g;
  if (o->seed >= g->n)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: ball seed %u is outside the graph's %u vertices", who, o->seed,
                       g->n);
  uint32_t v = o->seed;
  for (uint32_t u = 0; job->m.old_of && u < g->n; u++)
    if (job->m.old_of[u] == o->seed) v = u;
  wm_error err;
  int rc = wm_engine_ball(g, v, o->hops, ctx->threads, who, &job->allowed, &job->first, &job->n_first, &err);
  return wm_api_status(ctx, rc, &err);
}

/* The planner's options for a job's plan (order: a forced one, or NULL). */
static void plan_options(const warpmatch_context *ctx, const warpmatch_match_options *o, int purpose, int gpu_plan,
                         wm_api_job *job, const uint8_t *order, wm_plan_options *po) {
  wm_plan_options_init(po);
  po->induced = o->count.induced != 0;
  po->embeddings = o->count.embeddings != 0;
  po->code_motion = o->code_motion != 0;
  po->pair_count = o->pair_count != 0;
  po->count_only = purpose == WM_API_COUNT || purpose == WM_API_PLAN_COUNT;
  /* a plan shown lists the orders it was chosen among (plan --json), and
   * auto's count times some of them (slices.c) */
  const int listed = purpose == WM_API_PLAN_COUNT || purpose == WM_API_PLAN_LIST ||
                     (purpose == WM_API_COUNT && o->planner == WARPMATCH_PLANNER_AUTO);
  po->candidates = listed ? &job->candidates : NULL;
  _Static_assert(WARPMATCH_MAX_PATTERN_VERTICES == WM_MAX_K, "the API's pattern size is the planner's");
  po->sample_graph = o->planner != WARPMATCH_PLANNER_MODEL ? job->m.g : NULL;
  po->sample_threads = ctx->threads;
  wm_engine_plan_policy(po, job->use_gpu || gpu_plan,
                        o->planner == WARPMATCH_PLANNER_AUTO || o->planner == WARPMATCH_PLANNER_PROBES);
  po->forced_order = order;
  /* --order O --planner sampled: what the probes make of O, in the plan */
  po->measure_forced = order && o->planner == WARPMATCH_PLANNER_SAMPLED;
}

static int plan(warpmatch_context *ctx, const warpmatch_match_options *o, int purpose, int gpu_plan,
                wm_api_job *job) {
  wm_graph_summary defaults;
  const wm_graph_summary *gs = job->m.summary;
  if (!gs) wm_graph_summary_default(&defaults), gs = &defaults;
  wm_plan_options po;
  uint8_t order[WM_MAX_K];
  for (unsigned i = 0; o->order && i < job->pattern.k && i < WM_MAX_K; i++)
    order[i] = o->order[i] < WM_MAX_K ? (uint8_t)o->order[i] : 0xFF;
  plan_options(ctx, o, purpose, gpu_plan, job, o->order ? order : NULL, &po);
  wm_error err;
  double t0 = wm_now();
  int rc = wm_plan_build(&job->pattern, gs, &po, &job->plan, &err);
  job->plan_seconds = wm_now() - t0;
  return wm_api_status(ctx, rc, &err);
}

int wm_api_job_replan(const warpmatch_context *ctx, const warpmatch_match_options *o, wm_api_job *job,
                      const uint8_t *order, wm_plan *out, wm_error *err) {
  wm_graph_summary defaults;
  const wm_graph_summary *gs = job->m.summary;
  if (!gs) wm_graph_summary_default(&defaults), gs = &defaults;
  wm_plan_options po;
  plan_options(ctx, o, WM_API_COUNT, 0, job, order, &po);
  po.candidates = NULL;
  return wm_plan_build(&job->pattern, gs, &po, out, err);
}

int wm_api_job_prepare(warpmatch_context *ctx, const char *who, const warpmatch_graph *g,
                       const warpmatch_pattern *p, const warpmatch_match_options *o, int purpose, int gpu_plan,
                       wm_api_job *job) {
  memset(job, 0, sizeof *job);
  job->pattern = p->p;
  job->serial = g ? g->serial : 0;
  if ((purpose & WM_API_GIVEN_NAME) && p->given[0]) memcpy(job->pattern.name, p->given, sizeof p->given);
  purpose &= ~WM_API_GIVEN_NAME;
  /* Pattern files of STMatch label vertex i with i: their shape is wanted. */
  for (unsigned v = 0; o->count.ignore_labels && v < job->pattern.k; v++)
    wm_pattern_set_label(&job->pattern, v, WM_ANY_LABEL);
  const int matching = g && (purpose == WM_API_COUNT || purpose == WM_API_LIST);
  if (job->pattern.labeled && matching && !o->count.labels)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE,
                       "%s: pattern '%s' has vertex labels: give the graph's (count options' labels, one per "
                       "vertex) or match its shape only (ignore_labels)",
                       who, job->pattern.name);
  int rc = wm_api_use_gpu(ctx, who, o->count.device, &job->use_gpu);
  if (!rc && g) rc = wm_api_matching_of(ctx, g, o->relabel, 1, &job->m, &job->relabel_seconds, &job->stats_seconds);
  if (!rc && matching && o->count.labels && job->pattern.labeled) rc = labels_for(ctx, who, o->count.labels, job);
  if (!rc && matching && o->ball) rc = ball(ctx, who, o, job);
  if (!rc) rc = plan(ctx, o, purpose, gpu_plan, job);
  if (rc) wm_api_job_free(job);
  return rc;
}

void wm_api_job_free(wm_api_job *job) {
  free(job->moved);
  free(job->allowed);
  free(job->first);
  job->moved = NULL;
  job->labels = NULL;
  job->allowed = NULL;
  job->first = NULL;
}
