/* warpmatch count: the number of occurrences of a pattern (subgraphs, or
 * embeddings), with times per phase, matches/s and set operations; per
 * vertex with --per-vertex; the plan with --dump-plan; with --trials N an
 * untimed warm-up and N timed matches, reporting medians (GAP-style). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "match_cli.h"

static const wm_optspec spec[] = {
    WM_MATCH_OPTSPEC,
    {"per-vertex", NULL, "also print, for each vertex, the matches containing it ('ID COUNT' lines)"},
    {"dump-plan", NULL, "print the plan (nested loops, hoisted sets) before the result"},
    {"trials", "N", "time N matches (1-1000) after an untimed warm-up; report medians "
                    "(default 1: one run; not with --per-vertex)"},
    {"method", "auto|formula|enumerate",
     "formula: a 3-5 vertex pattern's count from vertex, edge and triangle aggregates (no\n"
     "listing of matches); enumerate: the plan; auto: the formula where one applies, except\n"
     "for the triangle, cliques and diamond, which the dedicated kernels count"},
    WM_DEVICE_OPTSPEC,
    WM_GPU_OPTSPEC,
    WM_GRAPH_OPTSPEC,
    {NULL, NULL, NULL},
};

typedef struct outcome {
  warpmatch_match_result r;
  double trial_ms[WARPMATCH_MAX_TRIALS];
  uint64_t *per_vertex;
  uint32_t *by_file_id; /* indices in ascending file-id order, for --per-vertex */
  char *plan;           /* --dump-plan of an enumeration: the plan's text or JSON */
} outcome;

static const warpmatch_graph *sort_graph;
static int by_file_id(const void *a, const void *b) {
  uint64_t x = warpmatch_graph_id(sort_graph, *(const uint32_t *)a);
  uint64_t y = warpmatch_graph_id(sort_graph, *(const uint32_t *)b);
  return (x > y) - (x < y);
}

/* Per-vertex lines come in the file's id order whatever the numbering. */
static int file_order(const warpmatch_graph *g, outcome *o, wm_error *err) {
  const uint32_t n = warpmatch_graph_vertices(g);
  o->by_file_id = malloc((n ? n : 1) * sizeof *o->by_file_id);
  if (!o->by_file_id) return wm_fail(err, WM_EINPUT, "out of memory");
  for (uint32_t v = 0; v < n; v++) o->by_file_id[v] = v;
  sort_graph = g;
  qsort(o->by_file_id, n, sizeof *o->by_file_id, by_file_id);
  return WM_OK;
}

static int formula(const outcome *o) { return o->r.count.method == WARPMATCH_METHOD_FORMULA; }
static int on_gpu(const outcome *o) { return o->r.count.device == WARPMATCH_DEVICE_GPU; }
static wm_u128 count_of(const outcome *o) { return (wm_u128)o->r.count.count_high << 64 | o->r.count.count; }

/* matches/s of the count saturated at 2^64 - 1. */
static double rate(const outcome *o) {
  const double c = o->r.count.count_high ? (double)UINT64_MAX : (double)o->r.count.count;
  return o->r.count.seconds > 0 ? c / o->r.count.seconds : 0.0;
}

static void json_plan(const wm_match_job *job, const outcome *o, wm_json *j) {
  wm_json_object(j, "plan");
  if (formula(o)) {
    wm_json_str(j, "formula", o->r.formula);
    wm_json_bool(j, "from_motif_table", job->o.count.induced);
  } else {
    wm_json_members(j, o->plan);
  }
  wm_json_str(j, "launch", o->r.launch);
  wm_json_close(j);
}

/* The orders the auto planner timed on a slice of level 0, and which won. */
static void slices_json(wm_json *j, const wm_match_job *job, const warpmatch_match_result *r) {
  wm_json_object(j, "slices");
  wm_json_u64(j, "every", r->slice_every);
  wm_json_u64(j, "vertices", r->slice_vertices);
  wm_json_array(j, "orders");
  for (unsigned i = 0; i < r->slice_orders; i++) {
    wm_json_object(j, NULL);
    wm_json_array(j, "order");
    for (unsigned p = 0; p < warpmatch_pattern_vertices(job->p); p++) wm_json_u64(j, NULL, r->slice_order[i][p]);
    wm_json_close(j);
    wm_json_double(j, "ms", r->slice_ms[i]);
    wm_json_bool(j, "chosen", i == r->slice_chosen);
    wm_json_close(j);
  }
  wm_json_close(j);
  wm_json_close(j);
}

static void print_json(const wm_cli *cli, const wm_match_job *job, const outcome *o) {
  wm_json j;
  char edges[256];
  warpmatch_pattern_edges(job->p, edges, sizeof edges);
  wm_json_begin(&j, stdout);
  wm_json_str(&j, "graph", job->graph_path);
  wm_json_u64(&j, "vertices", warpmatch_graph_vertices(job->g));
  wm_json_u64(&j, "edges", warpmatch_graph_edges(job->g));
  wm_json_str(&j, "pattern", wm_match_pattern_name(job));
  wm_json_u64(&j, "k", warpmatch_pattern_vertices(job->p));
  wm_json_str(&j, "pattern_edges", edges);
  wm_json_bool(&j, "induced", job->o.count.induced);
  wm_json_bool(&j, "embeddings", job->o.count.embeddings);
  wm_json_bool(&j, "code_motion", job->o.code_motion);
  wm_json_str(&j, "device", on_gpu(o) ? "gpu" : "cpu");
  wm_json_u64(&j, "threads", (uint64_t)warpmatch_threads(job->ctx));
  if (wm_mpi_ranks() > 1) wm_json_u64(&j, "mpi_ranks", (uint64_t)wm_mpi_ranks()); /* threads are per rank */
  if (job->o.ball) wm_json_u64(&j, "ball_vertices", o->r.ball_vertices);
  wm_json_u128(&j, "count", count_of(o));
  wm_json_str(&j, "method", formula(o) ? "formula" : "enumerate");
  wm_json_str(&j, "executor", o->r.executor ? o->r.executor : "");
  if (formula(o)) wm_json_str(&j, "how", o->r.launch);
  wm_json_double(&j, "seconds", o->r.count.seconds);
  wm_json_double(&j, "load_seconds", job->load_seconds);
  wm_json_double(&j, "relabel_seconds", o->r.relabel_seconds);
  wm_json_double(&j, "plan_seconds", o->r.stats_seconds + o->r.plan_seconds);
  if (o->r.slice_orders) slices_json(&j, job, &o->r);
  wm_json_double(&j, "matches_per_second", rate(o));
  wm_json_u64(&j, "set_ops", o->r.set_ops);
  if (on_gpu(o)) {
    wm_json_double(&j, "kernel_ms", o->r.count.kernel_ms);
    wm_json_double(&j, "transfer_ms", o->r.transfer_ms);
    wm_json_double(&j, "lane_util", o->r.lane_util);
  }
  if (o->r.trials > 1) {
    wm_json_u64(&j, "trials", o->r.trials);
    wm_json_array(&j, "trial_ms");
    for (unsigned t = 0; t < o->r.trials; t++) wm_json_double(&j, NULL, o->trial_ms[t]);
    wm_json_close(&j);
  }
  if (wm_cli_flag(cli, "dump-plan")) json_plan(job, o, &j);
  if (o->per_vertex) {
    wm_json_array(&j, "per_vertex");
    for (uint32_t i = 0; i < warpmatch_graph_vertices(job->g); i++) {
      uint32_t v = o->by_file_id[i];
      wm_json_object(&j, NULL);
      wm_json_u64(&j, "vertex", warpmatch_graph_id(job->g, v));
      wm_json_u64(&j, "count", o->per_vertex[v]);
      wm_json_close(&j);
    }
    wm_json_close(&j);
  }
  wm_json_end(&j);
}

/* The engine's row first: which of its executors ran the job
 * (docs/engine.md), then what that executor ran. */
static void print_plan(const wm_match_job *job, const outcome *o) {
  printf("executor: %s (the engine's row that counted)\n", o->r.executor ? o->r.executor : "?");
  if (!formula(o)) {
    printf("%slaunch: %s\n\n", o->plan, o->r.launch);
    return;
  }
  printf("formula: %s edge-induced = %s\n", wm_match_pattern_name(job), o->r.formula);
  if (job->o.count.induced)
    printf("vertex-induced: the %u-vertex motif table, each class's edge-induced count less its copies inside\n"
           "the denser classes (the spanning-subgraph matrix)\n",
           warpmatch_pattern_vertices(job->p));
  printf("pieces: %s\n\n", o->r.launch);
}

/* With --per-vertex the summary lines start with '#', so that the output
 * stays a plain "ID COUNT" table for scripts. */
static void print_text(const wm_cli *cli, const wm_match_job *job, const outcome *o) {
  const char *c = o->per_vertex ? "# " : "";
  char edges[256];
  const unsigned nedges = warpmatch_pattern_edges(job->p, edges, sizeof edges);
  if (wm_cli_flag(cli, "dump-plan")) print_plan(job, o);
  printf("%sgraph      %s: %u vertices, %" PRIu64 " edges%s\n", c, wm_cli_base_name(job->graph_path),
         warpmatch_graph_vertices(job->g), warpmatch_graph_edges(job->g), job->info.from_cache ? " (from cache)" : "");
  if (job->o.ball) printf("%sball       %" PRIu64 " vertices within --hops of --seed\n", c, o->r.ball_vertices);
  printf("%spattern    %s: %u vertices, %u edges (%s), %s, %s\n", c, wm_match_pattern_name(job),
         warpmatch_pattern_vertices(job->p), nedges, edges, job->o.count.induced ? "vertex-induced" : "edge-induced",
         job->o.count.embeddings ? "embeddings" : "subgraphs");
  char num[WM_I128_CHARS];
  printf("%scount      %s\n", c, wm_u128_str(count_of(o), num));
  printf("%stime       load %.3f s, relabel %.3f s, plan %.3f s, match %.3f s%s\n", c, job->load_seconds,
         o->r.relabel_seconds, o->r.stats_seconds + o->r.plan_seconds, o->r.count.seconds,
         o->r.trials > 1 ? " (median)" : "");
  if (o->r.trials > 1) {
    printf("%strials     median of %u after a warm-up; %s ms:", c, o->r.trials, on_gpu(o) ? "kernel" : "match");
    for (unsigned t = 0; t < o->r.trials; t++) printf(" %.3f", o->trial_ms[t]);
    printf("\n");
  }
  if (o->r.slice_orders) {
    if (on_gpu(o)) /* a stripe of the stack kernel's level-0 chunks */
      printf("%sslices     %u orders timed on 1 in %u of the level-0 chunks, ms:", c, o->r.slice_orders,
             o->r.slice_every);
    else
      printf("%sslices     %u orders timed on %" PRIu64 " level-0 vertices (1 in %u), ms:", c, o->r.slice_orders,
             o->r.slice_vertices, o->r.slice_every);
    for (unsigned i = 0; i < o->r.slice_orders; i++) {
      printf(" ");
      for (unsigned p = 0; p < warpmatch_pattern_vertices(job->p); p++) printf("%s%u", p ? "-" : "", o->r.slice_order[i][p]);
      printf(" %.1f%s", o->r.slice_ms[i], i == o->r.slice_chosen ? " (chosen)" : "");
    }
    printf("\n");
  }
  printf("%srate       %.4g matches/s\n", c, rate(o));
  printf("%sset ops    %" PRIu64 " (code motion %s)\n", c, o->r.set_ops, job->o.code_motion ? "on" : "off");
  if (formula(o))
    printf("%smethod     %s\n", c, o->r.launch);
  else if (on_gpu(o))
    printf("%sdevice     gpu (kernel %.3f ms%s, transfers %.3f ms)\n", c, o->r.count.kernel_ms,
           o->r.trials > 1 ? " median" : "", o->r.transfer_ms);
  else
    printf("%sdevice     %s\n", c, o->r.launch);
  if (wm_mpi_ranks() > 1) printf("%smpi        %d ranks sharing the first level\n", c, wm_mpi_ranks());
  for (uint32_t i = 0; o->per_vertex && i < warpmatch_graph_vertices(job->g); i++)
    printf("%" PRIu64 " %" PRIu64 "\n", warpmatch_graph_id(job->g, o->by_file_id[i]), o->per_vertex[o->by_file_id[i]]);
}

/* --dump-plan of an enumeration: the plan the count ran (the same options
 * plan the same way; where the auto planner timed slices, with the order
 * they chose), as text or as JSON members. */
static int dump_plan(const wm_cli *cli, wm_match_job *job, outcome *o, wm_error *err) {
  if (!wm_cli_flag(cli, "dump-plan") || formula(o)) return WM_OK;
  const int format = (cli->json ? WARPMATCH_PLAN_JSON : WARPMATCH_PLAN_TEXT) | WARPMATCH_PLAN_NO_STATS;
  warpmatch_match_options po = job->o;
  if (o->r.slice_orders) po.order = o->r.slice_order[o->r.slice_chosen];
  size_t len = 0;
  int rc = warpmatch_plan_ex(job->ctx, job->g, job->p, &po, format, NULL, 0, &len, NULL);
  if (!rc && !(o->plan = malloc(len + 1))) return wm_fail(err, WM_EINPUT, "out of memory");
  if (!rc) rc = warpmatch_plan_ex(job->ctx, job->g, job->p, &po, format, o->plan, len + 1, NULL, NULL);
  return wm_cli_api(job->ctx, rc, err);
}

static int run(const wm_cli *cli, wm_match_job *job, outcome *o, wm_error *err) {
  if (wm_cli_flag(cli, "per-vertex")) {
    const uint32_t n = warpmatch_graph_vertices(job->g);
    if (!(o->per_vertex = calloc(n ? n : 1, sizeof *o->per_vertex))) return wm_fail(err, WM_EINPUT, "out of memory");
    job->o.per_vertex = o->per_vertex;
    int rc = file_order(job->g, o, err);
    if (rc) return rc;
  }
  job->o.trial_ms = o->trial_ms;
  o->r.size = sizeof o->r;
  int rc = wm_cli_api(job->ctx, warpmatch_count_ex(job->ctx, job->g, job->p, &job->o, &o->r), err);
  return rc ? rc : dump_plan(cli, job, o, err);
}

/* --trials N: 1..1000; per-vertex counts are an output, not a timing, so
 * they run once. */
static int trials_option(const wm_cli *cli, unsigned *trials, wm_error *err) {
  uint64_t n;
  int rc = wm_cli_u64(cli, "trials", 1, 1, WARPMATCH_MAX_TRIALS, &n, err);
  if (rc) return rc;
  if (n > 1 && wm_cli_flag(cli, "per-vertex"))
    return wm_fail(err, WM_EUSAGE, "%s: --per-vertex runs once: drop --trials %llu (or --per-vertex)",
                   cli->command, (unsigned long long)n);
  *trials = (unsigned)n;
  return WM_OK;
}

/* --method: formula where asked (or, with auto, where it applies and no
 * dedicated kernel counts the pattern), over the whole graph only; the
 * library's engine checks it once the pattern is read. */
static int method_option(const wm_cli *cli, warpmatch_match_options *o, wm_error *err) {
  static const char *const methods[] = {"auto", "formula", "enumerate", NULL};
  int method = 0;
  int rc = wm_cli_choice(cli, "method", methods, 0, &method, err);
  o->count.method = method; /* WARPMATCH_METHOD_AUTO, _FORMULA, _ENUMERATE in order */
  return rc;
}

int wm_cmd_count(int argc, char **argv) {
  wm_cli cli;
  wm_error err;
  wm_error_clear(&err);
  if (wm_cli_parse(&cli, "count", "GRAPH --pattern P [options]",
                   "Count the occurrences of a pattern: subgraphs found once each (or embeddings),\n"
                   "edge- or vertex-induced, optionally labeled; times per phase, matches/s and the\n"
                   "number of set operations executed.",
                   spec, 1, 1, argc, argv, &err))
    return wm_cli_report(&err);
  if (cli.help) return WM_OK;
  outcome o = {0};
  wm_match_job job;
  int rc = wm_match_job_options(&cli, &job, &err);
  if (!rc) rc = trials_option(&cli, &job.o.trials, &err);
  if (!rc) rc = method_option(&cli, &job.o, &err);
  /* under mpirun every rank loads the graph; all stop if one fails */
  if (!rc) rc = wm_mpi_agree(wm_match_job_load(&cli, &job, &err), &err);
  /* the library refuses a --method it cannot honour */
  if (!rc) rc = wm_mpi_after_work(run(&cli, &job, &o, &err), &err);
  if (rc == WM_OK) {
    if (cli.json)
      print_json(&cli, &job, &o);
    else
      print_text(&cli, &job, &o);
  }
  free(o.per_vertex);
  free(o.by_file_id);
  free(o.plan);
  wm_match_job_free(&job);
  return rc ? wm_cli_report(&err) : WM_OK;
}
