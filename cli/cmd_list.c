/* warpmatch list: writes the matches of a pattern, one per line as the
 * graph file's vertex ids in pattern-vertex order.  Without --output the
 * matches go to stdout and the summary to stderr; --output goes through
 * wm_outfile (a file appears only when complete; a FIFO or device is
 * streamed).  A write error stops the listing at the batch where it
 * happened. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "match_cli.h"

static const wm_optspec spec[] = {
    WM_MATCH_OPTSPEC,
    {"limit", "N", "stop after N matches (default: all)"},
    {"output", "F", "write the matches to F (default: stdout)"},
    WM_DEVICE_OPTSPEC,
    WM_GPU_OPTSPEC,
    WM_GRAPH_OPTSPEC,
    {NULL, NULL, NULL},
};

typedef struct writer {
  FILE *f;
  const warpmatch_graph *g;
  wm_json *json; /* matches as a JSON array, or NULL for lines */
  int error;     /* errno of the first failed write, else 0 */
} writer;

/* warpmatch_match_fn: a batch of matches as the file's ids. */
static int write_matches(void *user, const uint32_t *matches, uint64_t n, unsigned k) {
  writer *w = user;
  for (const uint32_t *m = matches; m < matches + n * k; m += k) {
    if (w->json) wm_json_array(w->json, NULL);
    for (unsigned i = 0; i < k; i++) {
      const uint64_t id = warpmatch_graph_id(w->g, m[i]);
      if (w->json)
        wm_json_u64(w->json, NULL, id);
      else
        fprintf(w->f, "%" PRIu64 "%c", id, i + 1 < k ? ' ' : '\n');
    }
    if (w->json) wm_json_close(w->json);
  }
  /* stop at the first write error, keeping its cause (errno is the failed
   * write's: nothing since has set it) */
  if (ferror(w->f) && !w->error) w->error = errno ? errno : EIO;
  return w->error != 0;
}

static void summary(const wm_cli *cli, const wm_match_job *job, const warpmatch_match_result *r, uint64_t limit,
                    const char *output, FILE *f) {
  if (cli->json && output) {
    wm_json j;
    wm_json_begin(&j, f);
    wm_json_str(&j, "pattern", wm_match_pattern_name(job));
    wm_json_u64(&j, "listed", r->listed);
    wm_json_u64(&j, "limit", limit);
    wm_json_str(&j, "output", output);
    wm_json_double(&j, "seconds", r->count.seconds);
    wm_json_end(&j);
    return;
  }
  fprintf(f, "listed %" PRIu64 " matches of %s%s in %s (%.3f s)%s\n", r->listed, wm_match_pattern_name(job),
          job->o.count.induced ? " (vertex-induced)" : "", wm_cli_base_name(job->graph_path), r->count.seconds,
          limit && r->listed >= limit ? ", stopped at --limit" : "");
  if (output) fprintf(f, "written to %s\n", output);
}

static int list(const wm_cli *cli, wm_match_job *job, uint64_t limit, FILE *f, const char *output,
                warpmatch_match_result *r, wm_error *err) {
  wm_json j;
  writer w = {f, job->g, NULL, 0};
  if (cli->json && f == stdout) {
    w.json = &j;
    wm_json_begin(&j, f);
    wm_json_str(&j, "pattern", wm_match_pattern_name(job));
    wm_json_array(&j, "matches");
  }
  r->size = sizeof *r;
  int rc = warpmatch_list_ex(job->ctx, job->g, job->p, &job->o, limit, write_matches, &w, r);
  if (w.json) {
    wm_json_close(&j);
    wm_json_u64(&j, "listed", r->listed);
    wm_json_u64(&j, "limit", limit);
    wm_json_double(&j, "seconds", r->count.seconds);
    wm_json_end(&j);
  }
  if (!w.error) w.error = wm_flush_errno(f); /* before the summary says "listed" */
  if (rc == WM_OK && w.error)
    return wm_fail(err, WM_EINPUT, "list: writing the matches to %s: %s", output ? output : "standard output",
                   strerror(w.error));
  return wm_cli_api(job->ctx, rc, err);
}

int wm_cmd_list(int argc, char **argv) {
  wm_cli cli;
  wm_error err;
  wm_error_clear(&err);
  if (wm_cli_parse(&cli, "list", "GRAPH --pattern P [options]",
                   "List the matches of a pattern, one per line: the graph's vertex ids in the order\n"
                   "of the pattern's vertices.  On the GPU when one is usable (matches drained from a\n"
                   "device buffer in batches), else on the CPU.",
                   spec, 1, 1, argc, argv, &err))
    return wm_cli_report(&err);
  if (cli.help) return WM_OK;
  uint64_t limit;
  const char *output = wm_cli_str(&cli, "output");
  wm_match_job job = {0};
  int rc = wm_cli_u64(&cli, "limit", 0, 1, UINT64_MAX, &limit, &err);
  if (!rc) rc = wm_match_job_options(&cli, &job, &err);
  if (!rc) rc = wm_match_job_load(&cli, &job, &err);
  wm_outfile out;
  if (!rc && output) rc = wm_outfile_open(&out, output, 0, &err);
  warpmatch_match_result r;
  if (rc == WM_OK) {
    rc = list(&cli, &job, limit, output ? out.f : stdout, output, &r, &err);
    if (output) rc = rc ? (wm_outfile_abort(&out), rc) : wm_outfile_commit(&out, &err);
  }
  if (rc == WM_OK) summary(&cli, &job, &r, limit, output, output ? stdout : stderr);
  wm_match_job_free(&job);
  return rc ? wm_cli_report(&err) : WM_OK;
}
