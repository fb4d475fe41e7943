/* warpmatch count: the number of occurrences of a pattern (subgraphs, or
 * embeddings), with times per phase, matches/s and set operations; per
 * vertex with --per-vertex; the plan with --dump-plan; with --trials N an
 * untimed warm-up and N timed matches, reporting medians (GAP-style). */
#include <inttypes.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "match_cli.h"
#include "motifs_internal.h"

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
  wm_match_result r;
  int use_gpu;
  int trials;
  int formula;  /* counted by the motif formula, not the plan */
  wm_u128 exact; /* the count, exact past 2^64 (formula) */
  uint64_t *per_vertex;
  uint32_t *by_file_id; /* internal ids in ascending file-id order, for --per-vertex */
} outcome;

static const wm_graph *sort_graph;
static int by_file_id(const void *a, const void *b) {
  uint32_t x = wm_graph_file_id(sort_graph, *(const uint32_t *)a);
  uint32_t y = wm_graph_file_id(sort_graph, *(const uint32_t *)b);
  return (x > y) - (x < y);
}

/* Per-vertex lines come in the file's id order even when the graph was
 * renumbered for matching. */
static int file_order(const wm_graph *g, outcome *o, wm_error *err) {
  o->by_file_id = malloc((g->n ? g->n : 1) * sizeof *o->by_file_id);
  if (!o->by_file_id) return wm_fail(err, WM_EINPUT, "out of memory");
  for (uint32_t v = 0; v < g->n; v++) o->by_file_id[v] = v;
  sort_graph = g;
  if (g->flags & WM_GRAPH_DEGREE_SORTED) qsort(o->by_file_id, g->n, sizeof *o->by_file_id, by_file_id);
  return WM_OK;
}

static double rate(const outcome *o) { return o->r.seconds > 0 ? (double)o->r.count / o->r.seconds : 0.0; }

static void print_json(const wm_cli *cli, const wm_match_job *job, const outcome *o) {
  wm_json j;
  char edges[256];
  wm_pattern_edge_string(&job->pattern, edges, sizeof edges);
  wm_json_begin(&j, stdout);
  wm_json_str(&j, "graph", job->graph_path);
  wm_json_u64(&j, "vertices", job->g->n);
  wm_json_u64(&j, "edges", wm_graph_edges(job->g));
  wm_json_str(&j, "pattern", job->pattern.name);
  wm_json_u64(&j, "k", job->pattern.k);
  wm_json_str(&j, "pattern_edges", edges);
  wm_json_bool(&j, "induced", (job->plan.flags & WM_PLAN_INDUCED) != 0);
  wm_json_bool(&j, "embeddings", (job->plan.flags & WM_PLAN_EMBEDDINGS) != 0);
  wm_json_bool(&j, "code_motion", (job->plan.flags & WM_PLAN_CODE_MOTION) != 0);
  wm_json_str(&j, "device", o->use_gpu ? "gpu" : "cpu");
  wm_json_u64(&j, "threads", (uint64_t)(job->threads > 0 ? job->threads : omp_get_max_threads()));
  if (wm_mpi_ranks() > 1) wm_json_u64(&j, "mpi_ranks", (uint64_t)wm_mpi_ranks()); /* threads are per rank */
  if (job->first) wm_json_u64(&j, "ball_vertices", job->n_first);
  wm_json_u128(&j, "count", o->formula ? o->exact : o->r.count);
  wm_json_str(&j, "method", o->formula ? "formula" : "enumerate");
  if (o->formula) wm_json_str(&j, "how", o->r.launch);
  wm_json_double(&j, "seconds", o->r.seconds);
  wm_json_double(&j, "load_seconds", job->load_seconds);
  wm_json_double(&j, "relabel_seconds", job->relabel_seconds);
  wm_json_double(&j, "plan_seconds", job->plan_seconds);
  wm_json_double(&j, "matches_per_second", rate(o));
  wm_json_u64(&j, "set_ops", o->r.set_ops);
  if (o->use_gpu) {
    wm_json_double(&j, "kernel_ms", o->r.kernel_ms);
    wm_json_double(&j, "transfer_ms", o->r.transfer_ms);
    wm_json_double(&j, "lane_util", o->r.lane_util);
  }
  if (o->r.trials > 1) {
    wm_json_u64(&j, "trials", o->r.trials);
    wm_json_array(&j, "trial_ms");
    for (unsigned t = 0; t < o->r.trials; t++) wm_json_double(&j, NULL, o->r.trial_ms[t]);
    wm_json_close(&j);
  }
  if (wm_cli_flag(cli, "dump-plan")) {
    wm_json_object(&j, "plan");
    if (o->formula) {
      wm_json_str(&j, "formula", wm_motif_formula_text(&job->pattern));
      wm_json_bool(&j, "from_motif_table", (job->plan.flags & WM_PLAN_INDUCED) != 0);
    } else {
      wm_plan_dump_json(&job->plan, &j);
    }
    wm_json_str(&j, "launch", o->r.launch);
    wm_json_close(&j);
  }
  if (o->per_vertex) {
    wm_json_array(&j, "per_vertex");
    for (uint32_t i = 0; i < job->g->n; i++) {
      uint32_t v = o->by_file_id[i];
      wm_json_object(&j, NULL);
      wm_json_u64(&j, "vertex", wm_graph_file_id(job->g, v));
      wm_json_u64(&j, "count", o->per_vertex[v]);
      wm_json_close(&j);
    }
    wm_json_close(&j);
  }
  wm_json_end(&j);
}

/* With --per-vertex the summary lines start with '#', so that the output
 * stays a plain "ID COUNT" table for scripts. */
static void print_text(const wm_cli *cli, const wm_match_job *job, const outcome *o) {
  const char *c = o->per_vertex ? "# " : "";
  char edges[256];
  wm_pattern_edge_string(&job->pattern, edges, sizeof edges);
  if (wm_cli_flag(cli, "dump-plan") && o->formula) {
    printf("formula: %s edge-induced = %s\n", job->pattern.name, wm_motif_formula_text(&job->pattern));
    if (job->plan.flags & WM_PLAN_INDUCED)
      printf("vertex-induced: the %u-vertex motif table, each class's edge-induced count less its copies inside\n"
             "the denser classes (the spanning-subgraph matrix)\n",
             job->pattern.k);
    printf("pieces: %s\n\n", o->r.launch);
  } else if (wm_cli_flag(cli, "dump-plan")) {
    wm_plan_dump_text(&job->plan, stdout);
    printf("launch: %s\n\n", o->r.launch);
  }
  printf("%sgraph      %s: %u vertices, %" PRIu64 " edges%s\n", c, wm_match_graph_name(job), job->g->n,
         wm_graph_edges(job->g), job->info.from_cache ? " (from cache)" : "");
  if (job->first) printf("%sball       %" PRIu64 " vertices within --hops of --seed\n", c, job->n_first);
  printf("%spattern    %s: %u vertices, %u edges (%s), %s, %s\n", c, job->pattern.name, job->pattern.k,
         wm_pattern_edges(&job->pattern), edges,
         (job->plan.flags & WM_PLAN_INDUCED) ? "vertex-induced" : "edge-induced",
         (job->plan.flags & WM_PLAN_EMBEDDINGS) ? "embeddings" : "subgraphs");
  char num[WM_I128_CHARS];
  printf("%scount      %s\n", c, wm_u128_str(o->formula ? o->exact : (wm_u128)o->r.count, num));
  printf("%stime       load %.3f s, relabel %.3f s, plan %.3f s, match %.3f s%s\n", c, job->load_seconds,
         job->relabel_seconds, job->plan_seconds, o->r.seconds, o->r.trials > 1 ? " (median)" : "");
  if (o->r.trials > 1) {
    printf("%strials     median of %u after a warm-up; %s ms:", c, o->r.trials, o->use_gpu ? "kernel" : "match");
    for (unsigned t = 0; t < o->r.trials; t++) printf(" %.3f", o->r.trial_ms[t]);
    printf("\n");
  }
  printf("%srate       %.4g matches/s\n", c, rate(o));
  printf("%sset ops    %" PRIu64 " (code motion %s)\n", c, o->r.set_ops,
         (job->plan.flags & WM_PLAN_CODE_MOTION) ? "on" : "off");
  if (o->formula)
    printf("%smethod     %s\n", c, o->r.launch);
  else if (o->use_gpu)
    printf("%sdevice     gpu (kernel %.3f ms%s, transfers %.3f ms)\n", c, o->r.kernel_ms,
           o->r.trials > 1 ? " median" : "", o->r.transfer_ms);
  else
    printf("%sdevice     %s\n", c, o->r.launch);
  if (wm_mpi_ranks() > 1) printf("%smpi        %d ranks sharing the first level\n", c, wm_mpi_ranks());
  for (uint32_t i = 0; o->per_vertex && i < job->g->n; i++)
    printf("%u %" PRIu64 "\n", wm_graph_file_id(job->g, o->by_file_id[i]), o->per_vertex[o->by_file_id[i]]);
}

typedef struct cpu_trial {
  const wm_match_job *job;
  const wm_match_options *mo;
} cpu_trial;

/* One timed CPU run (wm_trial_fn). */
static int cpu_once(void *ctx, wm_match_result *x, wm_error *err) {
  const cpu_trial *c = ctx;
  return wm_match_cpu(c->job->g, &c->job->plan, c->mo, x, err);
}

/* --trials N > 1 on the CPU: an untimed warm-up (its count is the
 * reference), then N timed runs that must count the same; seconds becomes
 * their median.  The GPU driver does the same itself (wm_match_options.trials). */
static int cpu_trials(const wm_match_job *job, const wm_match_options *mo, int trials, wm_match_result *r,
                      wm_error *err) {
  int rc = wm_match_cpu(job->g, &job->plan, mo, r, err);
  if (rc) return rc;
  cpu_trial c = {job, mo};
  return wm_match_trials(cpu_once, &c, (unsigned)trials, r->count, 0, r, err);
}

typedef struct formula_trial {
  const wm_match_job *job;
  const wm_match_options *mo;
  int use_gpu;
} formula_trial;

/* One timed count by formula (wm_trial_fn). */
static int formula_once(void *ctx, wm_match_result *x, wm_error *err) {
  const formula_trial *f = ctx;
  wm_u128 exact;
  return wm_count_by_formula(f->job->g, &f->job->pattern, (f->job->plan.flags & WM_PLAN_INDUCED) != 0, f->use_gpu,
                             f->mo, &exact, x, err);
}

/* --method: formula where asked (or, with auto, where it applies and no
 * dedicated kernel counts the pattern), over the whole graph only. */
static int choose_formula(const wm_cli *cli, const wm_match_job *job, int *formula, wm_error *err) {
  static const char *const methods[] = {"auto", "formula", "enumerate", NULL};
  int method = 0;
  int rc = wm_cli_choice(cli, "method", methods, 0, &method, err);
  if (rc) return rc;
  const int whole = !job->first && !job->labels && !wm_cli_flag(cli, "per-vertex") &&
                    !(job->plan.flags & WM_PLAN_EMBEDDINGS);
  const int how = wm_count_method(&job->pattern, method, whole);
  if (how < 0)
    return wm_fail(err, WM_EUSAGE,
                   "count: --method formula needs an unlabeled 3-5 vertex pattern other than the triangle and "
                   "cliques, counted over the whole graph (no --seed, --labels, --per-vertex or --embeddings)");
  *formula = how;
  return WM_OK;
}

static int run(const wm_cli *cli, wm_match_job *job, outcome *o, wm_error *err) {
  wm_match_options mo;
  wm_match_job_options(job, &mo);
  mo.share = wm_mpi_share(); /* under mpirun: the roots shared across ranks */
  int rc = wm_cli_gpu_options(cli, &mo, err);
  if (!rc) rc = choose_formula(cli, job, &o->formula, err);
  if (rc) return rc;
  if (o->formula) {
    const int induced = (job->plan.flags & WM_PLAN_INDUCED) != 0;
    rc = wm_count_by_formula(job->g, &job->pattern, induced, o->use_gpu, &mo, &o->exact, &o->r, err);
    if (rc || o->trials <= 1) return rc;
    formula_trial f = {job, &mo, o->use_gpu};
    return wm_match_trials(formula_once, &f, (unsigned)o->trials, o->r.count, 0, &o->r, err);
  }
  mo.trials = o->trials;
  if (wm_cli_flag(cli, "per-vertex")) {
    o->per_vertex = calloc(job->g->n ? job->g->n : 1, sizeof *o->per_vertex);
    if (!o->per_vertex) return wm_fail(err, WM_EINPUT, "out of memory");
    mo.per_vertex = o->per_vertex;
    if ((rc = file_order(job->g, o, err))) return rc;
  }
  if (o->use_gpu) return wm_match_gpu(job->g, &job->plan, &mo, &o->r, err);
  if (o->trials > 1) return cpu_trials(job, &mo, o->trials, &o->r, err);
  return wm_match_cpu(job->g, &job->plan, &mo, &o->r, err);
}

/* --trials N: 1..WM_MAX_TRIALS; per-vertex counts are an output, not a
 * timing, so they run once. */
static int trials_option(const wm_cli *cli, int *trials, wm_error *err) {
  uint64_t n;
  int rc = wm_cli_u64(cli, "trials", 1, 1, WM_MAX_TRIALS, &n, err);
  if (rc) return rc;
  if (n > 1 && wm_cli_flag(cli, "per-vertex"))
    return wm_fail(err, WM_EUSAGE, "%s: --per-vertex runs once: drop --trials %llu (or --per-vertex)",
                   cli->command, (unsigned long long)n);
  *trials = (int)n;
  return WM_OK;
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
  wm_match_options check; /* usage errors before any loading */
  wm_match_options_init(&check);
  if (wm_cli_use_gpu(&cli, &o.use_gpu, &err) || wm_cli_gpu_options(&cli, &check, &err) ||
      trials_option(&cli, &o.trials, &err))
    return wm_cli_report(&err);
  /* under mpirun every rank loads the graph; all stop if one fails */
  int prepared = wm_match_job_prepare(&cli, 1, o.use_gpu, &job, &err);
  if (wm_mpi_agree(prepared, &err)) {
    if (!prepared) wm_match_job_free(&job);
    return wm_cli_report(&err);
  }
  int rc = wm_mpi_after_work(run(&cli, &job, &o, &err), &err);
  if (rc == WM_OK) {
    if (cli.json)
      print_json(&cli, &job, &o);
    else
      print_text(&cli, &job, &o);
  }
  free(o.per_vertex);
  free(o.by_file_id);
  wm_match_job_free(&job);
  return rc ? wm_cli_report(&err) : WM_OK;
}
