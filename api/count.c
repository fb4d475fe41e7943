/* warpmatch_count: as `count` counts (matcher/cmd_count.c): a 3-5 vertex
 * pattern by its formula where the method allows, else its plan on the
 * CPU executor or the GPU. */
#include <string.h>

#include "api_internal.h"
#include "matcher.h"

static int by_formula(warpmatch_context *ctx, const wm_api_job *job, const wm_match_options *mo,
                      warpmatch_count_result *out) {
  wm_u128 exact = 0;
  wm_match_result r;
  wm_error err;
  const int induced = (job->plan.flags & WM_PLAN_INDUCED) != 0;
  int rc = wm_count_by_formula(job->m.g, &job->pattern, induced, job->use_gpu, mo, &exact, &r, &err);
  if (rc) return wm_api_status(ctx, rc, &err);
  out->count = (uint64_t)exact;
  out->count_high = (uint64_t)(exact >> 64);
  out->seconds = r.seconds;
  out->kernel_ms = r.kernel_ms;
  out->method = WARPMATCH_METHOD_FORMULA;
  return WARPMATCH_OK;
}

static int by_plan(warpmatch_context *ctx, const wm_api_job *job, const wm_match_options *mo,
                   warpmatch_count_result *out) {
  wm_match_result r;
  wm_error err;
  int rc = job->use_gpu ? wm_match_gpu(job->m.g, &job->plan, mo, &r, &err)
                        : wm_match_cpu(job->m.g, &job->plan, mo, &r, &err);
  if (rc) return wm_api_status(ctx, rc, &err);
  out->count = r.count;
  out->count_high = 0;
  out->seconds = r.seconds;
  out->kernel_ms = job->use_gpu ? r.kernel_ms : 0.0;
  out->method = WARPMATCH_METHOD_ENUMERATE;
  return WARPMATCH_OK;
}

static int run(warpmatch_context *ctx, const char *who, const warpmatch_count_options *o, const wm_api_job *job,
               warpmatch_count_result *out) {
  /* As `count`: data labels, like seeds or embeddings, rule the formula out. */
  const int whole = !o->labels && !(job->plan.flags & WM_PLAN_EMBEDDINGS);
  const int how = wm_count_method(&job->pattern, o->method, whole);
  if (how < 0)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE,
                       "%s: method FORMULA needs an unlabeled 3-5 vertex pattern other than the triangle and the "
                       "cliques, and no labels or embeddings",
                       who);
  wm_match_options mo;
  wm_match_options_init(&mo);
  mo.threads = ctx->threads;
  mo.gpus = ctx->gpus;
  mo.vertex_labels = job->labels;
  out->device = job->use_gpu ? WARPMATCH_DEVICE_GPU : WARPMATCH_DEVICE_CPU;
  return how ? by_formula(ctx, job, &mo, out) : by_plan(ctx, job, &mo, out);
}

int warpmatch_count(warpmatch_context *ctx, const warpmatch_graph *g, const warpmatch_pattern *p,
                    const warpmatch_count_options *opt, warpmatch_count_result *out) {
  static const char who[] = "warpmatch_count";
  if (!ctx) return WARPMATCH_EUSAGE;
  if (!g) return wm_api_null(ctx, who, "g");
  if (!p) return wm_api_null(ctx, who, "p");
  if (!out) return wm_api_null(ctx, who, "out");
  memset(out, 0, sizeof *out);
  warpmatch_count_options o;
  wm_api_job job;
  int rc = wm_api_count_options(ctx, who, opt, &o);
  if (rc) return rc;
  wm_api_threads t;
  wm_api_threads_enter(ctx, &t);
  rc = wm_api_job_prepare(ctx, who, g, p, &o, 1, 0, &job);
  if (!rc) rc = run(ctx, who, &o, &job, out);
  wm_api_threads_leave(&t);
  wm_api_job_free(&job);
  return rc;
}
