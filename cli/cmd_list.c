/* warpmatch list: writes the matches of a pattern, one per line as the
 * graph file's vertex ids in pattern-vertex order.  Without --output the
 * matches go to stdout and the summary to stderr; --output is written to a
 * temporary name and renamed only when complete. */
#include <inttypes.h>
#include <stdio.h>

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
  const wm_graph *g;
  wm_json *json; /* matches as a JSON array, or NULL for lines */
} writer;

static int write_match(void *ctx, const uint32_t *match, unsigned k) {
  writer *w = ctx;
  if (w->json) {
    wm_json_array(w->json, NULL);
    for (unsigned i = 0; i < k; i++) wm_json_u64(w->json, NULL, wm_graph_file_id(w->g, match[i]));
    wm_json_close(w->json);
  } else {
    for (unsigned i = 0; i < k; i++)
      fprintf(w->f, "%u%c", wm_graph_file_id(w->g, match[i]), i + 1 < k ? ' ' : '\n');
  }
  return ferror(w->f) != 0; /* stop at the first write error */
}

static void summary(const wm_cli *cli, const wm_match_job *job, const wm_match_result *r,
                    uint64_t limit, const char *output, FILE *f) {
  if (cli->json && output) {
    wm_json j;
    wm_json_begin(&j, f);
    wm_json_str(&j, "pattern", job->pattern.name);
    wm_json_u64(&j, "listed", r->listed);
    wm_json_u64(&j, "limit", limit);
    wm_json_str(&j, "output", output);
    wm_json_double(&j, "seconds", r->seconds);
    wm_json_end(&j);
    return;
  }
  fprintf(f, "listed %" PRIu64 " matches of %s%s in %s (%.3f s)%s\n", r->listed, job->pattern.name,
          (job->plan.flags & WM_PLAN_INDUCED) ? " (vertex-induced)" : "", wm_match_graph_name(job),
          r->seconds, limit && r->listed >= limit ? ", stopped at --limit" : "");
  if (output) fprintf(f, "written to %s\n", output);
}

static int list(const wm_cli *cli, wm_match_job *job, int use_gpu, uint64_t limit, FILE *f,
                wm_match_result *r, wm_error *err) {
  wm_json j;
  writer w = {f, job->g, NULL};
  wm_match_options mo;
  wm_match_job_options(job, &mo);
  int rc = wm_cli_gpu_options(cli, &mo, err);
  if (rc) return rc;
  mo.limit = limit;
  mo.sink = write_match;
  mo.sink_ctx = &w;
  if (cli->json && f == stdout) {
    w.json = &j;
    wm_json_begin(&j, f);
    wm_json_str(&j, "pattern", job->pattern.name);
    wm_json_array(&j, "matches");
  }
  /* Both executors serialise the sink calls, so the writer needs no lock. */
  rc = use_gpu ? wm_match_gpu(job->g, &job->plan, &mo, r, err)
               : wm_match_cpu(job->g, &job->plan, &mo, r, err);
  if (w.json) {
    wm_json_close(&j);
    wm_json_u64(&j, "listed", r->listed);
    wm_json_u64(&j, "limit", limit);
    wm_json_double(&j, "seconds", r->seconds);
    wm_json_end(&j);
  }
  if (rc == WM_OK && ferror(f)) rc = wm_fail(err, WM_EINPUT, "list: error writing the matches");
  return rc;
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
  int use_gpu = 0;
  wm_match_options check; /* usage errors before any loading */
  wm_match_options_init(&check);
  if (wm_cli_u64(&cli, "limit", 0, 1, UINT64_MAX, &limit, &err) ||
      wm_cli_use_gpu(&cli, &use_gpu, &err) || wm_cli_gpu_options(&cli, &check, &err))
    return wm_cli_report(&err);
  wm_match_job job;
  if (wm_match_job_prepare(&cli, 0, use_gpu, &job, &err)) return wm_cli_report(&err);
  wm_outfile out;
  int rc = output ? wm_outfile_open(&out, output, &err) : WM_OK;
  wm_match_result r;
  if (rc == WM_OK) {
    rc = list(&cli, &job, use_gpu, limit, output ? out.f : stdout, &r, &err);
    if (output) rc = rc ? (wm_outfile_abort(&out), rc) : wm_outfile_commit(&out, &err);
  }
  if (rc == WM_OK) summary(&cli, &job, &r, limit, output, output ? stdout : stderr);
  wm_match_job_free(&job);
  return rc ? wm_cli_report(&err) : WM_OK;
}
