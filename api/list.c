/* warpmatch_list: the executors hand over one match at a time; the caller
 * gets them in batches, as the graph's indices in pattern-vertex order. */
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "engine.h"

/* Matches per call of the caller's function: large enough that the call
 * costs little per match, small enough (k <= 8: 128 KiB) to stay cheap. */
enum { BATCH = 4096 };

typedef struct batcher {
  const uint32_t *old_of; /* matched-on vertex -> index, or NULL */
  warpmatch_match_fn fn;
  void *user;
  unsigned k;
  uint32_t *buf; /* BATCH * k indices */
  uint64_t n;    /* matches in buf */
  uint64_t handed;
  int stopped;   /* fn asked to stop */
} batcher;

static int flush(batcher *b) {
  if (b->n == 0 || b->stopped) return b->stopped;
  b->stopped = b->fn(b->user, b->buf, b->n, b->k) != 0;
  b->handed += b->n;
  b->n = 0;
  return b->stopped;
}

/* wm_match_sink: the executors serialise calls, so no lock. */
static int collect(void *ctx, const uint32_t *match, unsigned k) {
  batcher *b = ctx;
  uint32_t *to = b->buf + b->n * k;
  for (unsigned i = 0; i < k; i++) to[i] = b->old_of ? b->old_of[match[i]] : match[i];
  return ++b->n == BATCH ? flush(b) : 0;
}

static int run(warpmatch_context *ctx, const warpmatch_match_options *o, const wm_api_job *job, uint64_t limit,
               batcher *b, warpmatch_match_result *out) {
  wm_match_options mo;
  wm_api_executor_options(ctx, o, job, &mo);
  if (job->use_gpu) wm_api_gpu_graph(ctx, job->serial, job->m.g, &mo);
  mo.limit = limit;
  mo.sink = collect;
  mo.sink_ctx = b;
  wm_match_result r;
  wm_error err;
  const wm_executor *by = NULL;
  int rc = wm_engine_match(job->m.g, &job->plan, job->use_gpu, &mo, &r, &by, &err);
  if (rc) return wm_api_status(ctx, rc, &err);
  out->executor = by->name;
  flush(b); /* the last, partial batch */
  wm_api_job_result(job, &r, out);
  out->count.count = b->handed;
  out->count.method = WARPMATCH_METHOD_ENUMERATE;
  return WARPMATCH_OK;
}

static int list(warpmatch_context *ctx, const char *who, const warpmatch_graph *g, const warpmatch_pattern *p,
                const warpmatch_match_options *o, int naming, uint64_t limit, warpmatch_match_fn fn, void *user,
                warpmatch_match_result *out) {
  if (o->count.method == WARPMATCH_METHOD_FORMULA)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: method FORMULA counts without finding the matches; listing "
                                              "enumerates (method AUTO or ENUMERATE)", who);
  if (o->per_vertex || o->trials > 1)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: per-vertex counts and trials are for counting, not listing", who);
  batcher b = {.fn = fn, .user = user, .k = p->p.k};
  b.buf = malloc((size_t)BATCH * b.k * sizeof *b.buf);
  if (!b.buf) return wm_api_fail(ctx, WARPMATCH_EINPUT, "%s: out of memory", who);
  wm_api_job job;
  wm_api_threads t;
  wm_api_threads_enter(ctx, &t);
  int rc = wm_api_job_prepare(ctx, who, g, p, o, WM_API_LIST | naming, 0, &job);
  if (!rc) {
    b.old_of = job.m.old_of;
    rc = run(ctx, o, &job, limit, &b, out);
    wm_api_job_free(&job);
  }
  wm_api_threads_leave(&t);
  free(b.buf);
  out->listed = b.handed;
  return rc;
}

int warpmatch_list(warpmatch_context *ctx, const warpmatch_graph *g, const warpmatch_pattern *p,
                   const warpmatch_count_options *opt, uint64_t limit, warpmatch_match_fn fn, void *user,
                   uint64_t *listed) {
  static const char who[] = "warpmatch_list";
  if (!ctx) return WARPMATCH_EUSAGE;
  if (listed) *listed = 0;
  if (!g) return wm_api_null(ctx, who, "g");
  if (!p) return wm_api_null(ctx, who, "p");
  if (!fn) return wm_api_null(ctx, who, "fn");
  warpmatch_count_options defaults;
  if (!opt) warpmatch_count_options_init(&defaults), opt = &defaults;
  warpmatch_match_options o;
  warpmatch_match_result r;
  memset(&r, 0, sizeof r);
  int rc = wm_api_match_options(ctx, who, NULL, opt, &o);
  if (!rc) rc = list(ctx, who, g, p, &o, 0, limit, fn, user, &r);
  if (listed) *listed = r.listed;
  return rc;
}

int warpmatch_list_ex(warpmatch_context *ctx, const warpmatch_graph *g, const warpmatch_pattern *p,
                      const warpmatch_match_options *opt, uint64_t limit, warpmatch_match_fn fn, void *user,
                      warpmatch_match_result *out) {
  static const char who[] = "warpmatch_list_ex";
  if (!ctx) return WARPMATCH_EUSAGE;
  if (!g) return wm_api_null(ctx, who, "g");
  if (!p) return wm_api_null(ctx, who, "p");
  if (!fn) return wm_api_null(ctx, who, "fn");
  warpmatch_match_options o;
  warpmatch_match_result r;
  int rc = wm_api_ex_begin(ctx, who, opt, &o, &r);
  if (!rc) rc = list(ctx, who, g, p, &o, WM_API_GIVEN_NAME, limit, fn, user, &r);
  int out_rc = out ? wm_api_struct_out(ctx, who, out, &r, sizeof r) : WARPMATCH_OK;
  return rc ? rc : out_rc;
}
