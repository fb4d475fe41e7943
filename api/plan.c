/* warpmatch_plan: the plan count runs when it enumerates, as `plan` prints
 * it (planner/plan_dump.c), into the caller's buffer. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "support.h"

static void dump(const wm_api_job *job, int format, FILE *f) {
  wm_graph_summary defaults;
  const wm_graph_summary *gs = job->m.summary;
  if (!gs) wm_graph_summary_default(&defaults), gs = &defaults;
  if (format == WARPMATCH_PLAN_JSON) {
    wm_json j;
    wm_json_begin(&j, f);
    wm_plan_dump_json(&job->plan, &j);
    wm_graph_summary_dump_json(gs, &j);
    wm_json_end(&j);
    return;
  }
  wm_plan_dump_text(&job->plan, f);
  fputc('\n', f);
  wm_graph_summary_dump_text(gs, f);
}

/* The dump as one malloc'd string (the dumps write to a FILE). */
static int render(warpmatch_context *ctx, const char *who, const wm_api_job *job, int format, char **text,
                  size_t *len) {
  *text = NULL;
  FILE *f = open_memstream(text, len);
  if (!f) return wm_api_fail(ctx, WARPMATCH_EINPUT, "%s: out of memory", who);
  dump(job, format, f);
  int bad = ferror(f);
  if (fclose(f) != 0 || bad || !*text) {
    free(*text);
    *text = NULL;
    return wm_api_fail(ctx, WARPMATCH_EINPUT, "%s: out of memory writing the plan", who);
  }
  return WARPMATCH_OK;
}

int warpmatch_plan(warpmatch_context *ctx, const warpmatch_graph *g, const warpmatch_pattern *p,
                   const warpmatch_count_options *opt, int format, char *buf, size_t size, size_t *needed) {
  static const char who[] = "warpmatch_plan";
  if (!ctx) return WARPMATCH_EUSAGE;
  if (needed) *needed = 0;
  if (!p) return wm_api_null(ctx, who, "p");
  if (!buf && size) return wm_api_null(ctx, who, "buf (with a non-zero size)");
  if (format != WARPMATCH_PLAN_TEXT && format != WARPMATCH_PLAN_JSON)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: format %d: expected WARPMATCH_PLAN_TEXT or _JSON", who, format);
  warpmatch_count_options o;
  wm_api_job job;
  int rc = wm_api_count_options(ctx, who, opt, &o);
  if (rc) return rc;
  wm_api_threads t;
  wm_api_threads_enter(ctx, &t);
  rc = wm_api_job_prepare(ctx, who, g, p, &o, 1, 1, &job);
  wm_api_threads_leave(&t);
  if (rc) return rc;
  char *text;
  size_t len;
  rc = render(ctx, who, &job, format, &text, &len);
  wm_api_job_free(&job);
  if (rc) return rc;
  if (size) {
    size_t keep = len < size ? len : size - 1;
    memcpy(buf, text, keep);
    buf[keep] = '\0';
  }
  if (needed) *needed = len;
  free(text);
  return WARPMATCH_OK;
}
