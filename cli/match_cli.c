/* Shared set-up of the matching commands (see match_cli.h): their options
 * become the library's match options; the work is the library's. */
#include <stdlib.h>
#include <string.h>

#include "match_cli.h"

/* The library's table of numeric options (--gpus N, --unroll U, ...), each
 * read in its range; absent, it stays 0, the default. */
static int table_options(const wm_cli *cli, warpmatch_context *ctx, warpmatch_match_options *o, wm_error *err) {
  const unsigned count = warpmatch_match_option_count();
  int rc = WM_OK;
  for (unsigned i = 0; !rc && i < count; i++) {
    warpmatch_option_info k = {.size = sizeof k};
    if (warpmatch_match_option_info(i, &k) != WARPMATCH_OK)
      return wm_fail(err, WM_EUSAGE, "%s: the library has no option %u of %u", cli->command, i, count);
    uint64_t v = 0;
    rc = wm_cli_u64(cli, k.option, 0, (uint64_t)k.lo, (uint64_t)k.hi, &v, err);
    if (!rc) rc = wm_cli_api(ctx, warpmatch_match_option_set(ctx, o, i, (long long)v), err);
  }
  return rc;
}

static int gpu_options(const wm_cli *cli, warpmatch_context *ctx, warpmatch_match_options *o, wm_error *err) {
  static const char *const steal[] = {"none", "block", "two-level", NULL};
  static const char *const level0[] = {"auto", "vertices", "edges", NULL};
  int mode, l0;
  uint64_t table = 0;
  int rc = wm_cli_choice(cli, "steal", steal, -1, &mode, err);
  if (!rc) rc = wm_cli_choice(cli, "level0", level0, 0, &l0, err);
  if (!rc) rc = table_options(cli, ctx, o, err);
  if (!rc && wm_cli_str(cli, "gpu-table"))
    rc = wm_cli_u64(cli, "gpu-table", 0, 0, WARPMATCH_GPU_MAX_TABLE_WORDS, &table, err);
  if (rc) return rc;
  if (wm_cli_str(cli, "gpu-table")) o->gpu_table_words = table ? (int)table : -1;
  o->gpu_steal = mode; /* none, block, two-level in order; -1 the default */
  o->gpu_level0 = l0;
  o->gpu_dedicated = !wm_cli_flag(cli, "stack-kernel");
  return WM_OK;
}

int wm_cli_match_options(const wm_cli *cli, warpmatch_context *ctx, warpmatch_match_options *o, wm_error *err) {
  warpmatch_match_options_init(o);
  int use_gpu = 0;
  int rc = wm_cli_use_gpu(cli, ctx, &use_gpu, err);
  if (rc) return rc;
  o->count.device = use_gpu ? WARPMATCH_DEVICE_GPU : WARPMATCH_DEVICE_CPU;
  o->relabel = !wm_cli_flag(cli, "no-relabel");
  return gpu_options(cli, ctx, o, err);
}

/* --seed V --hops H: the hops now, the vertex once the graph is loaded. */
static int ball_options(const wm_cli *cli, warpmatch_match_options *o, wm_error *err) {
  const char *seed = wm_cli_str(cli, "seed"), *hops = wm_cli_str(cli, "hops");
  if (!seed && !hops) return WM_OK;
  if (!seed || !hops) return wm_fail(err, WM_EUSAGE, "%s: --seed V and --hops H go together", cli->command);
  uint64_t h;
  int rc = wm_cli_u64(cli, "hops", 0, 0, 1000000, &h, err);
  if (rc) return rc;
  o->ball = 1;
  o->hops = (uint32_t)h;
  return WM_OK;
}

int wm_cli_order(const wm_cli *cli, unsigned *order, unsigned *n, wm_error *err) {
  const char *s = wm_cli_str(cli, "order");
  *n = 0;
  for (const char *p = s; p && *p;) {
    char *end;
    unsigned long v = strtoul(p, &end, 10);
    if (end == p || (*end && *end != ',') || v >= WARPMATCH_MAX_PATTERN_VERTICES ||
        *n == WARPMATCH_MAX_PATTERN_VERTICES)
      return wm_fail(err, WM_EUSAGE, "%s: --order %s: expected pattern vertex ids 0..%d separated by commas",
                     cli->command, s, WARPMATCH_MAX_PATTERN_VERTICES - 1);
    order[(*n)++] = (unsigned)v;
    p = *end ? end + 1 : end;
  }
  if (s && !*n) return wm_fail(err, WM_EUSAGE, "%s: --order needs the pattern's vertex ids", cli->command);
  return WM_OK;
}

int wm_cli_planner(const wm_cli *cli, warpmatch_match_options *o, wm_error *err) {
  _Static_assert(WARPMATCH_PLANNER_MODEL == 0 && WARPMATCH_PLANNER_SAMPLED == 1 && WARPMATCH_PLANNER_AUTO == 2 &&
                     WARPMATCH_PLANNER_PROBES == 3,
                 "the choices' indices are the API's values");
  static const char *const planners[] = {"model", "sampled", "auto", "probes", NULL};
  return wm_cli_choice(cli, "planner", planners, WARPMATCH_PLANNER_AUTO, &o->planner, err);
}

int wm_cli_order_fits(const wm_cli *cli, unsigned n, unsigned k, wm_error *err) {
  if (!n || n == k) return WM_OK;
  return wm_fail(err, WM_EUSAGE, "%s: --order lists %u vertices; the pattern has %u", cli->command, n, k);
}

int wm_match_job_options(const wm_cli *cli, wm_match_job *job, wm_error *err) {
  memset(job, 0, sizeof *job);
  job->graph_path = cli->positional[0];
  int rc = wm_cli_context(cli, &job->ctx, err);
  if (!rc) rc = wm_cli_match_options(cli, job->ctx, &job->o, err);
  if (!rc) rc = ball_options(cli, &job->o, err);
  if (rc) return rc;
  job->o.count.induced = wm_cli_flag(cli, "induced");
  job->o.count.embeddings = wm_cli_flag(cli, "embeddings");
  job->o.code_motion = !wm_cli_flag(cli, "no-code-motion");
  job->o.pair_count = !wm_cli_flag(cli, "no-pair-count");
  if ((rc = wm_cli_order(cli, job->order, &job->order_n, err)) || (rc = wm_cli_planner(cli, &job->o, err))) return rc;
  job->o.order = job->order_n ? job->order : NULL;
  if (!wm_cli_str(cli, "pattern")) return wm_fail(err, WM_EUSAGE, "%s: --pattern NAME|FILE is required", cli->command);
  return WM_OK;
}

/* STMatch's unlabeled builds read the same .g files and drop their labels. */
static int make_pattern(const wm_cli *cli, wm_match_job *job, wm_error *err) {
  warpmatch_context *ctx = job->ctx;
  int rc = wm_cli_api(ctx, warpmatch_pattern_create(ctx, wm_cli_str(cli, "pattern"), &job->p), err);
  for (unsigned v = 0; !rc && wm_cli_flag(cli, "ignore-labels") && v < warpmatch_pattern_vertices(job->p); v++)
    rc = wm_cli_api(ctx, warpmatch_pattern_set_label(ctx, job->p, v, -1), err);
  if (rc || !warpmatch_pattern_labeled(job->p) || wm_cli_str(cli, "labels")) return rc;
  return wm_fail(err, WM_EUSAGE,
                 "%s: pattern '%s' has vertex labels: give the graph's with --labels F (or match its "
                 "shape only with --ignore-labels)",
                 cli->command, wm_match_pattern_name(job));
}

static int read_labels(const char *path, wm_match_job *job, wm_error *err) {
  const uint32_t n = warpmatch_graph_vertices(job->g);
  job->labels = malloc((n ? n : 1) * sizeof *job->labels);
  if (!job->labels) return wm_fail(err, WM_EINPUT, "out of memory");
  job->o.count.labels = job->labels;
  return wm_cli_api(job->ctx, warpmatch_graph_read_labels(job->ctx, job->g, path, job->labels), err);
}

int wm_match_job_load(const wm_cli *cli, wm_match_job *job, wm_error *err) {
  int rc = make_pattern(cli, job, err);
  if (!rc) rc = wm_cli_order_fits(cli, job->order_n, warpmatch_pattern_vertices(job->p), err);
  if (rc) return rc;
  double t0 = wm_now();
  const char *labels = wm_cli_str(cli, "labels");
  rc = wm_cli_open_graph(cli, job->ctx, job->graph_path, &job->g, &job->info, err);
  if (!rc && labels) rc = read_labels(labels, job, err);
  job->load_seconds = wm_now() - t0;
  if (!rc && job->o.ball) rc = wm_cli_vertex(cli, job->g, "seed", &job->o.seed, err);
  return rc;
}

void wm_match_job_free(wm_match_job *job) {
  warpmatch_pattern_destroy(job->p);
  warpmatch_graph_destroy(job->g);
  warpmatch_context_destroy(job->ctx);
  free(job->labels);
  memset(job, 0, sizeof *job);
}

const char *wm_match_pattern_name(const wm_match_job *job) { return warpmatch_pattern_given_name(job->p); }
