/* warpmatch_plan: the plan count (or list) runs when it enumerates, as
 * `plan` prints it (planner/plan_dump.c), into the caller's buffer. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "base.h"

static void dump(const wm_api_job *job, int format, FILE *f) {
  wm_graph_summary defaults;
  const wm_graph_summary *gs = job->m.summary;
  if (!gs) wm_graph_summary_default(&defaults), gs = &defaults;
  const int stats = !(format & WARPMATCH_PLAN_NO_STATS);
  if (format & WARPMATCH_PLAN_JSON) {
    wm_json j;
    wm_json_begin(&j, f);
    wm_plan_dump_json(&job->plan, &j);
    wm_plan_candidates_dump_json(&job->candidates, &job->plan, &j);
    if (stats) wm_graph_summary_dump_json(gs, &j);
    wm_json_end(&j);
    return;
  }
  wm_plan_dump_text(&job->plan, f);
  if (!stats) return;
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

static int plan(warpmatch_context *ctx, const char *who, const warpmatch_graph *g, const warpmatch_pattern *p,
                const warpmatch_match_options *o, int naming, int format, char *buf, size_t size, size_t *needed,
                warpmatch_match_result *out) {
  wm_api_job job;
  wm_api_threads t;
  wm_api_threads_enter(ctx, &t);
  const int purpose = format & WARPMATCH_PLAN_FOR_LIST ? WM_API_PLAN_LIST : WM_API_PLAN_COUNT;
  int rc = wm_api_job_prepare(ctx, who, g, p, o, purpose | naming, (format & WARPMATCH_PLAN_FOR_GPU) != 0, &job);
  wm_api_threads_leave(&t);
  if (rc) return rc;
  out->relabel_seconds = job.relabel_seconds;
  out->stats_seconds = job.stats_seconds;
  out->plan_seconds = job.plan_seconds;
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

/* NULL arguments and the format: allowed are the text or JSON formats with
 * the flags `flags`. */
static int check(warpmatch_context *ctx, const char *who, const warpmatch_pattern *p, char *buf, size_t size,
                 int format, int flags) {
  if (!p) return wm_api_null(ctx, who, "p");
  if (!buf && size) return wm_api_null(ctx, who, "buf (with a non-zero size)");
  if ((format & ~flags) != WARPMATCH_PLAN_TEXT && (format & ~flags) != WARPMATCH_PLAN_JSON)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: format %d: expected WARPMATCH_PLAN_TEXT or _JSON%s", who, format,
                       flags ? " (with the flags of warpmatch_plan_ex)" : "");
  return WARPMATCH_OK;
}

int warpmatch_plan(warpmatch_context *ctx, const warpmatch_graph *g, const warpmatch_pattern *p,
                   const warpmatch_count_options *opt, int format, char *buf, size_t size, size_t *needed) {
  static const char who[] = "warpmatch_plan";
  if (!ctx) return WARPMATCH_EUSAGE;
  if (needed) *needed = 0;
  int rc = check(ctx, who, p, buf, size, format, 0);
  if (rc) return rc;
  warpmatch_count_options defaults;
  if (!opt) warpmatch_count_options_init(&defaults), opt = &defaults;
  warpmatch_match_options o;
  warpmatch_match_result r;
  rc = wm_api_match_options(ctx, who, NULL, opt, &o);
  return rc ? rc : plan(ctx, who, g, p, &o, 0, format, buf, size, needed, &r);
}

int warpmatch_plan_ex(warpmatch_context *ctx, const warpmatch_graph *g, const warpmatch_pattern *p,
                      const warpmatch_match_options *opt, int format, char *buf, size_t size, size_t *needed,
                      warpmatch_match_result *out) {
  static const char who[] = "warpmatch_plan_ex";
  if (!ctx) return WARPMATCH_EUSAGE;
  if (needed) *needed = 0;
  const int flags = WARPMATCH_PLAN_NO_STATS | WARPMATCH_PLAN_FOR_LIST | WARPMATCH_PLAN_FOR_GPU;
  int rc = check(ctx, who, p, buf, size, format, flags);
  warpmatch_match_options o;
  warpmatch_match_result r;
  if (!rc) rc = wm_api_ex_begin(ctx, who, opt, &o, &r);
  else memset(&r, 0, sizeof r), r.size = sizeof r;
  if (!rc) rc = plan(ctx, who, g, p, &o, WM_API_GIVEN_NAME, format, buf, size, needed, &r);
  int out_rc = out ? wm_api_struct_out(ctx, who, out, &r, sizeof r) : WARPMATCH_OK;
  return rc ? rc : out_rc;
}
