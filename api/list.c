/* warpmatch_list: the executors hand over one match at a time; the caller
 * gets them in batches, as the graph's indices in pattern-vertex order. */
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "matcher.h"

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

static int run(warpmatch_context *ctx, const wm_api_job *job, uint64_t limit, batcher *b) {
  wm_match_options mo;
  wm_match_options_init(&mo);
  mo.threads = ctx->threads;
  mo.gpus = ctx->gpus;
  mo.vertex_labels = job->labels;
  mo.limit = limit;
  mo.sink = collect;
  mo.sink_ctx = b;
  wm_match_result r;
  wm_error err;
  int rc = job->use_gpu ? wm_match_gpu(job->m.g, &job->plan, &mo, &r, &err)
                        : wm_match_cpu(job->m.g, &job->plan, &mo, &r, &err);
  if (rc) return wm_api_status(ctx, rc, &err);
  flush(b); /* the last, partial batch */
  return WARPMATCH_OK;
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
  warpmatch_count_options o;
  int rc = wm_api_count_options(ctx, who, opt, &o);
  if (rc) return rc;
  if (o.method == WARPMATCH_METHOD_FORMULA)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: method FORMULA counts without finding the matches; listing "
                                              "enumerates (method AUTO or ENUMERATE)", who);
  batcher b = {.fn = fn, .user = user, .k = p->p.k};
  b.buf = malloc((size_t)BATCH * b.k * sizeof *b.buf);
  if (!b.buf) return wm_api_fail(ctx, WARPMATCH_EINPUT, "%s: out of memory", who);
  wm_api_job job;
  wm_api_threads t;
  wm_api_threads_enter(ctx, &t);
  rc = wm_api_job_prepare(ctx, who, g, p, &o, 0, 0, &job);
  if (!rc) {
    b.old_of = job.m.old_of;
    rc = run(ctx, &job, limit, &b);
    wm_api_job_free(&job);
  }
  wm_api_threads_leave(&t);
  free(b.buf);
  if (listed) *listed = b.handed;
  return rc;
}
