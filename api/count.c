/* warpmatch_count: the job prepared (job.c) and counted by the engine's
 * table (matcher/engine.h), which picks the formula, a dedicated GPU
 * kernel, the stack kernel or the CPU executor; with trials, an untimed
 * warm-up and that many timed runs that must agree (GAP-style medians). */
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "engine.h"
#include "matcher.h"

static void fill(const wm_api_job *job, const wm_match_result *r, wm_u128 exact, int formula,
                 warpmatch_match_result *out) {
  wm_api_job_result(job, r, out);
  out->count.count = (uint64_t)exact;
  out->count.count_high = (uint64_t)(exact >> 64);
  out->count.method = formula ? WARPMATCH_METHOD_FORMULA : WARPMATCH_METHOD_ENUMERATE;
  out->formula = formula ? wm_motif_formula_text(&job->pattern) : NULL;
}

/* Per-vertex counts in the numbering matched on, back to indices. */
static void per_vertex_back(const wm_api_job *job, const uint64_t *counted, uint64_t *out) {
  for (uint32_t v = 0; counted != out && v < job->m.g->n; v++) out[job->m.old_of[v]] = counted[v];
}

static int run(warpmatch_context *ctx, const char *who, const warpmatch_match_options *o, wm_api_job *job,
               warpmatch_match_result *out) {
  wm_match_options mo;
  wm_api_executor_options(ctx, o, job, &mo);
  mo.per_vertex = o->per_vertex; /* for the engine's refusal; the buffer counted into comes below */
  wm_engine_job ej = {job->m.g, &job->pattern, &job->plan, job->use_gpu, o->count.method, o->count.labels != NULL,
                      o->order != NULL, o->trials, &mo};
  char why[256];
  if (wm_engine_refuses(&ej, why, sizeof why))
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: method FORMULA %s", who, why);
  if (job->use_gpu) wm_api_gpu_graph(ctx, job->serial, job->m.g, &mo);
  const uint32_t n = job->m.g->n;
  uint64_t *counted = o->per_vertex;
  if (counted && job->m.old_of && !(counted = calloc(n ? n : 1, sizeof *counted)))
    return wm_api_fail(ctx, WARPMATCH_EINPUT, "%s: out of memory", who);
  mo.per_vertex = counted;
  wm_match_result r;
  memset(&r, 0, sizeof r);
  wm_error err;
  const wm_executor *by = NULL;
  int sliced = 0;
  int rc = wm_api_count_sliced(ctx, o, job, &ej, &r, &by, out, &sliced, &err);
  if (!rc && !sliced) rc = wm_engine_count(&ej, &r, &by, &err);
  if (!rc && counted) per_vertex_back(job, counted, o->per_vertex);
  if (counted != o->per_vertex) free(counted);
  if (rc) return wm_api_status(ctx, rc, &err);
  for (unsigned t = 0; o->trial_ms && t < r.trials && t < o->trials; t++) o->trial_ms[t] = r.trial_ms[t];
  fill(job, &r, r.count, by->formula, out);
  out->executor = by->name;
  return WARPMATCH_OK;
}

static int count(warpmatch_context *ctx, const char *who, const warpmatch_graph *g, const warpmatch_pattern *p,
                 const warpmatch_match_options *o, int naming, warpmatch_match_result *out) {
  wm_api_job job;
  wm_api_threads t;
  wm_api_threads_enter(ctx, &t);
  int rc = wm_api_job_prepare(ctx, who, g, p, o, WM_API_COUNT | naming, 0, &job);
  if (!rc) rc = run(ctx, who, o, &job, out);
  wm_api_threads_leave(&t);
  wm_api_job_free(&job);
  return rc;
}

int warpmatch_count(warpmatch_context *ctx, const warpmatch_graph *g, const warpmatch_pattern *p,
                    const warpmatch_count_options *opt, warpmatch_count_result *out) {
  static const char who[] = "warpmatch_count";
  if (!ctx) return WARPMATCH_EUSAGE;
  if (!g) return wm_api_null(ctx, who, "g");
  if (!p) return wm_api_null(ctx, who, "p");
  if (!out) return wm_api_null(ctx, who, "out");
  memset(out, 0, sizeof *out);
  warpmatch_count_options defaults;
  if (!opt) warpmatch_count_options_init(&defaults), opt = &defaults;
  warpmatch_match_options o;
  warpmatch_match_result r;
  memset(&r, 0, sizeof r);
  int rc = wm_api_match_options(ctx, who, NULL, opt, &o);
  if (!rc) rc = count(ctx, who, g, p, &o, 0, &r);
  if (!rc) *out = r.count;
  return rc;
}

int warpmatch_count_ex(warpmatch_context *ctx, const warpmatch_graph *g, const warpmatch_pattern *p,
                       const warpmatch_match_options *opt, warpmatch_match_result *out) {
  static const char who[] = "warpmatch_count_ex";
  if (!ctx) return WARPMATCH_EUSAGE;
  if (!g) return wm_api_null(ctx, who, "g");
  if (!p) return wm_api_null(ctx, who, "p");
  if (!out) return wm_api_null(ctx, who, "out");
  warpmatch_match_options o;
  warpmatch_match_result r;
  int rc = wm_api_ex_begin(ctx, who, opt, &o, &r);
  if (!rc) rc = count(ctx, who, g, p, &o, WM_API_GIVEN_NAME, &r);
  if (rc) memset(&r.count, 0, sizeof r.count);
  int out_rc = wm_api_struct_out(ctx, who, out, &r, sizeof r);
  return rc ? rc : out_rc;
}
