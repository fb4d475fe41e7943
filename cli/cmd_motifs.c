/* warpmatch motifs: vertex-induced counts of every connected pattern of 3,
 * 4 or 5 vertices, as a table (name, edges, count, how it was counted);
 * with --trials N the match time is the median of N runs after a warm-up. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "match_cli.h"
#include "motifs_internal.h"

static const wm_optspec spec[] = {
    {"size", "3|4|5", "pattern size (required)"},
    {"method", "auto|formula|enumerate",
     "formula: counts from vertex, edge and triangle aggregates, enumerating only what does\n"
     "not decompose; enumerate: one plan per class (the cross-check); auto = formula"},
    {"threads", "N", "CPU threads (default: all)"},
    {"trials", "N", "time N runs (1-1000) after an untimed warm-up; report the median (default 1)"},
    WM_DEVICE_OPTSPEC,
    WM_GPU_OPTSPEC,
    WM_RELABEL_OPTSPEC,
    WM_GRAPH_OPTSPEC,
    {NULL, NULL, NULL},
};

typedef struct table {
  wm_pattern *pats;
  unsigned n;
  wm_u128 *counts;
  int *how; /* wm_motif_how_name's code per class */
  int method;
  double load_seconds, relabel_seconds;
  wm_match_result r; /* total count, match seconds and kernel ms (medians with --trials), method */
  int use_gpu;
} table;

static void print_text(const char *path, const wm_graph *g, unsigned k, const table *t) {
  printf("motifs of size %u in %s (%u vertices, %" PRIu64 " edges), vertex-induced counts\n\n", k, path,
         g->n, wm_graph_edges(g));
  printf("%-22s %-40s %26s  %s\n", "name", "edges", "count", "counted by");
  wm_u128 total = 0;
  char num[WM_I128_CHARS];
  for (unsigned i = 0; i < t->n; i++) {
    char edges[256];
    wm_pattern_edge_string(&t->pats[i], edges, sizeof edges);
    printf("%-22s %-40s %26s  %s\n", t->pats[i].name, edges, wm_u128_str(t->counts[i], num),
           wm_motif_how_name(t->how[i]));
    total += t->counts[i];
  }
  printf("%-22s %-40s %26s\n\ntime: load %.3f s, relabel %.3f s, match %.3f s%s\n", "total",
         "(connected induced subgraphs)", wm_u128_str(total, num), t->load_seconds, t->relabel_seconds,
         t->r.seconds, t->r.trials > 1 ? " (median)" : "");
  if (t->use_gpu) printf("kernels: %.3f ms\n", t->r.kernel_ms);
  printf("method: %s\n", t->r.launch);
  if (wm_mpi_ranks() > 1) printf("mpi: %d ranks sharing the tops of each pass\n", wm_mpi_ranks());
}

static void print_json(const char *path, const wm_graph *g, unsigned k, const table *t) {
  wm_json j;
  wm_json_begin(&j, stdout);
  wm_json_str(&j, "graph", path);
  wm_json_u64(&j, "vertices", g->n);
  wm_json_u64(&j, "edges", wm_graph_edges(g));
  wm_json_u64(&j, "size", k);
  wm_u128 total = 0;
  uint64_t *M = calloc((size_t)t->n * t->n, sizeof *M);
  wm_error err;
  if (M && wm_spanning_matrix(t->pats, t->n, M, &err) != WM_OK) free(M), M = NULL;
  wm_json_array(&j, "motifs");
  for (unsigned i = 0; i < t->n; i++) {
    char edges[256];
    wm_pattern_edge_string(&t->pats[i], edges, sizeof edges);
    wm_json_object(&j, NULL);
    wm_json_str(&j, "name", t->pats[i].name);
    wm_json_str(&j, "edges", edges);
    wm_json_u128(&j, "count", t->counts[i]);
    wm_json_str(&j, "counted_by", wm_motif_how_name(t->how[i]));
    if (M) { /* the edge-induced count: the copies inside every induced class (N = M I) */
      wm_u128 edge_induced = 0;
      for (unsigned c = i; c < t->n; c++) edge_induced += (wm_u128)M[(size_t)i * t->n + c] * t->counts[c];
      wm_json_u128(&j, "edge_induced_count", edge_induced);
    }
    wm_json_close(&j);
    total += t->counts[i];
  }
  wm_json_close(&j);
  free(M);
  wm_json_u128(&j, "total", total);
  wm_u128 wedges = 0;
  for (uint32_t v = 0; v < g->n; v++) wedges += (wm_u128)wm_degree(g, v) * (wm_degree(g, v) - (wm_degree(g, v) > 0)) / 2;
  wm_json_u128(&j, "wedges", wedges);
  if (t->method != WM_MOTIF_ENUMERATE && k >= 4) wm_json_u64(&j, "dag_paths", t->r.formula_paths);
  wm_json_double(&j, "seconds", t->r.seconds);
  if (t->use_gpu) wm_json_double(&j, "kernel_ms", t->r.kernel_ms);
  if (t->r.trials > 1) wm_json_u64(&j, "trials", t->r.trials);
  wm_json_str(&j, "method", t->method == WM_MOTIF_ENUMERATE ? "enumerate" : "formula");
  if (wm_mpi_ranks() > 1) wm_json_u64(&j, "mpi_ranks", (uint64_t)wm_mpi_ranks());
  wm_json_str(&j, "how", t->r.launch);
  wm_json_double(&j, "load_seconds", t->load_seconds);
  wm_json_double(&j, "relabel_seconds", t->relabel_seconds);
  wm_json_end(&j);
}

/* --trials N: the enumerate method on the GPU repeats each plan's launch
 * in the driver (a warm-up, then N timed; wm_match_options.trials), as
 * `count` does, and reports kernel times; otherwise (the CPU, or the
 * formula, whose call mixes host work with its kernels) a warm-up call,
 * then N calls that must count the same, whose wall seconds give the
 * median. */
typedef struct rerun {
  const wm_graph *g;
  unsigned k;
  int use_gpu;
  const wm_match_options *mo;
  wm_u128 *counts; /* a scratch table: the warm-up's stays as printed */
} rerun;

/* One timed call (wm_trial_fn). */
static int run_once(void *ctx, wm_match_result *x, wm_error *err) {
  const rerun *c = ctx;
  return wm_motifs(c->g, c->k, c->use_gpu, c->mo, c->counts, NULL, x, err);
}

static int timed_runs(const wm_graph *g, unsigned k, int use_gpu, wm_match_options *mo, int trials,
                      table *t, wm_error *err) {
  const int in_driver = use_gpu && mo->motif_method == WM_MOTIF_ENUMERATE;
  if (in_driver) mo->trials = trials;
  int rc = wm_motifs(g, k, use_gpu, mo, t->counts, t->how, &t->r, err);
  if (rc || trials <= 1) return rc;
  if (in_driver) {
    t->r.trials = (unsigned)trials;
    return WM_OK;
  }
  rerun c = {g, k, use_gpu, mo, calloc(t->n, sizeof *c.counts)};
  if (!c.counts) return wm_fail(err, WM_EINPUT, "out of memory");
  rc = wm_match_trials(run_once, &c, (unsigned)trials, t->r.count, 0, &t->r, err);
  free(c.counts);
  return rc;
}

static int count_all(const wm_cli *cli, const wm_graph *g, unsigned k, int use_gpu, table *t,
                     wm_error *err) {
  uint64_t threads, trials;
  int rc = wm_cli_u64(cli, "threads", 0, 0, 4096, &threads, err);
  if (!rc) rc = wm_cli_u64(cli, "trials", 1, 1, WM_MAX_TRIALS, &trials, err);
  if (!rc) rc = wm_connected_patterns(k, &t->pats, &t->n, err);
  if (rc) return rc;
  t->counts = calloc(t->n, sizeof *t->counts);
  t->how = calloc(t->n, sizeof *t->how);
  if (!t->counts || !t->how) return wm_fail(err, WM_EINPUT, "out of memory");
  wm_match_options mo;
  wm_match_options_init(&mo);
  mo.threads = (int)threads;
  mo.motif_method = t->method;
  mo.share = wm_mpi_share(); /* under mpirun: the tops shared across ranks */
  if ((rc = wm_cli_gpu_options(cli, &mo, err))) return rc;
  t->use_gpu = use_gpu;
  return timed_runs(g, k, use_gpu, &mo, (int)trials, t, err);
}

int wm_cmd_motifs(int argc, char **argv) {
  wm_cli cli;
  wm_error err;
  wm_error_clear(&err);
  if (wm_cli_parse(&cli, "motifs", "GRAPH --size 3|4|5 [options]",
                   "Count every connected pattern of 3, 4 or 5 vertices (vertex-induced): one row per\n"
                   "pattern with its catalogue name and edges.",
                   spec, 1, 1, argc, argv, &err))
    return wm_cli_report(&err);
  if (cli.help) return WM_OK;
  uint64_t k;
  int use_gpu = 0;
  if (!wm_cli_str(&cli, "size")) {
    wm_fail(&err, WM_EUSAGE, "motifs: --size 3|4|5 is required");
    return wm_cli_report(&err);
  }
  wm_match_options check; /* usage errors before any loading */
  wm_match_options_init(&check);
  static const char *const methods[] = {"auto", "formula", "enumerate", NULL};
  table t = {0};
  if (wm_cli_u64(&cli, "size", 0, 3, 5, &k, &err) || wm_cli_use_gpu(&cli, &use_gpu, &err) ||
      wm_cli_gpu_options(&cli, &check, &err) || wm_cli_choice(&cli, "method", methods, 0, &t.method, &err))
    return wm_cli_report(&err);
  wm_graph *g = NULL;
  double t0 = wm_now();
  int rc = wm_cli_load_graph(&cli, cli.positional[0], &g, NULL, &err);
  t.load_seconds = wm_now() - t0;
  if (!rc && (g->flags & WM_GRAPH_DIRECTED))
    rc = wm_fail(&err, WM_EUSAGE, "motifs: needs an undirected graph (drop --directed)");
  if (!rc) rc = wm_match_relabel(&cli, &g, NULL, &t.relabel_seconds, &err);
  rc = wm_mpi_agree(rc, &err); /* under mpirun all ranks stop if one failed to load */
  if (!rc) rc = wm_mpi_after_work(count_all(&cli, g, (unsigned)k, use_gpu, &t, &err), &err);
  if (!rc) {
    if (cli.json)
      print_json(cli.positional[0], g, (unsigned)k, &t);
    else
      print_text(cli.positional[0], g, (unsigned)k, &t);
  }
  free(t.pats);
  free(t.counts);
  free(t.how);
  wm_graph_destroy(g);
  return rc ? wm_cli_report(&err) : WM_OK;
}
