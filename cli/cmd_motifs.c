/* warpmatch motifs: vertex-induced counts of every connected pattern of 3,
 * 4 or 5 vertices, as a table (name, edges, count, how it was counted);
 * with --trials N the match time is the median of N runs after a warm-up. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "match_cli.h"
#include "motifs_random.h"

static const wm_optspec spec[] = {
    {"size", "3|4|5", "pattern size (required; 3|4 with --directed)"},
    {"method", "auto|formula|enumerate|switch|curveball",
     "formula: counts from vertex, edge and triangle aggregates, enumerating only what does\n"
     "not decompose; enumerate: one plan per class (the cross-check); auto = formula;\n"
     "with --random, switch (default) or curveball makes the random graphs"},
    {"threads", "N", "CPU threads (default: all)"},
    {"trials", "N", "time N runs (1-1000) after an untimed warm-up; report the median (default 1)"},
    WM_DEVICE_OPTSPEC,
    WM_GPU_OPTSPEC,
    WM_RELABEL_OPTSPEC,
    WM_GRAPH_OPTSPEC,
    WM_MOTIFS_RANDOM_OPTSPEC,
    {"all-classes", NULL, "with --directed: the disconnected classes too (16 or 218 rows, not 13 or 199)"},
    {NULL, NULL, NULL},
};

typedef struct table {
  unsigned n;
  warpmatch_motif *rows, *edge_induced;
  const char **how;
  int method;
  double load_seconds;
  warpmatch_match_result r; /* total count, match seconds and kernel ms (medians with --trials), method */
} table;

static wm_u128 count_of(const warpmatch_motif *m) { return (wm_u128)m->count_high << 64 | m->count; }
static int on_gpu(const table *t) { return t->r.count.device == WARPMATCH_DEVICE_GPU; }

static void print_text(const char *path, const warpmatch_graph *g, unsigned k, const table *t) {
  printf("motifs of size %u in %s (%u vertices, %" PRIu64 " edges), vertex-induced counts\n\n", k, path,
         warpmatch_graph_vertices(g), warpmatch_graph_edges(g));
  printf("%-22s %-40s %26s  %s\n", "name", "edges", "count", "counted by");
  wm_u128 total = 0;
  char num[WM_I128_CHARS];
  for (unsigned i = 0; i < t->n; i++) {
    printf("%-22s %-40s %26s  %s\n", t->rows[i].name, t->rows[i].edges, wm_u128_str(count_of(&t->rows[i]), num),
           t->how[i]);
    total += count_of(&t->rows[i]);
  }
  printf("%-22s %-40s %26s\n\ntime: load %.3f s, relabel %.3f s, match %.3f s%s\n", "total",
         "(connected induced subgraphs)", wm_u128_str(total, num), t->load_seconds, t->r.relabel_seconds,
         t->r.count.seconds, t->r.trials > 1 ? " (median)" : "");
  if (on_gpu(t)) printf("kernels: %.3f ms\n", t->r.count.kernel_ms);
  printf("method: %s\n", t->r.launch);
  if (wm_mpi_ranks() > 1) printf("mpi: %d ranks sharing the tops of each pass\n", wm_mpi_ranks());
}

/* Paths of length 2: the sum of d(v)(d(v)-1)/2. */
static wm_u128 wedges(const warpmatch_graph *g) {
  wm_u128 sum = 0;
  for (uint32_t v = 0; v < warpmatch_graph_vertices(g); v++) {
    const uint64_t d = warpmatch_graph_degree(g, v);
    sum += (wm_u128)d * (d - (d > 0)) / 2;
  }
  return sum;
}

static void print_json(const char *path, const warpmatch_graph *g, unsigned k, const table *t) {
  wm_json j;
  wm_json_begin(&j, stdout);
  wm_json_str(&j, "graph", path);
  wm_json_u64(&j, "vertices", warpmatch_graph_vertices(g));
  wm_json_u64(&j, "edges", warpmatch_graph_edges(g));
  wm_json_u64(&j, "size", k);
  wm_u128 total = 0;
  wm_json_array(&j, "motifs");
  for (unsigned i = 0; i < t->n; i++) {
    wm_json_object(&j, NULL);
    wm_json_str(&j, "name", t->rows[i].name);
    wm_json_str(&j, "edges", t->rows[i].edges);
    wm_json_u128(&j, "count", count_of(&t->rows[i]));
    wm_json_str(&j, "counted_by", t->how[i]);
    wm_json_u128(&j, "edge_induced_count", count_of(&t->edge_induced[i]));
    wm_json_close(&j);
    total += count_of(&t->rows[i]);
  }
  wm_json_close(&j);
  wm_json_u128(&j, "total", total);
  wm_json_u128(&j, "wedges", wedges(g));
  if (t->method != WARPMATCH_METHOD_ENUMERATE && k >= 4) wm_json_u64(&j, "dag_paths", t->r.formula_paths);
  wm_json_double(&j, "seconds", t->r.count.seconds);
  if (on_gpu(t)) wm_json_double(&j, "kernel_ms", t->r.count.kernel_ms);
  if (t->r.trials > 1) wm_json_u64(&j, "trials", t->r.trials);
  wm_json_str(&j, "method", t->method == WARPMATCH_METHOD_ENUMERATE ? "enumerate" : "formula");
  if (wm_mpi_ranks() > 1) wm_json_u64(&j, "mpi_ranks", (uint64_t)wm_mpi_ranks());
  wm_json_str(&j, "how", t->r.launch);
  wm_json_double(&j, "load_seconds", t->load_seconds);
  wm_json_double(&j, "relabel_seconds", t->r.relabel_seconds);
  wm_json_end(&j);
}

static int count_all(warpmatch_context *ctx, const warpmatch_graph *g, unsigned k, warpmatch_match_options *o,
                     table *t, wm_error *err) {
  t->n = warpmatch_motif_classes(k);
  t->rows = calloc(t->n, sizeof *t->rows);
  t->edge_induced = calloc(t->n, sizeof *t->edge_induced);
  t->how = calloc(t->n, sizeof *t->how);
  if (!t->rows || !t->edge_induced || !t->how) return wm_fail(err, WM_EINPUT, "out of memory");
  t->r.size = sizeof t->r;
  return wm_cli_api(ctx, warpmatch_motifs_ex(ctx, g, k, o, t->rows, t->how, t->edge_induced, &t->r), err);
}

/* Every option before anything is loaded. */
static int options(const wm_cli *cli, warpmatch_context **ctx, uint64_t *k, warpmatch_match_options *o,
                   warpmatch_significance_options *sig, wm_error *err) {
  static const char *const methods[] = {"auto", "formula", "enumerate", "switch", "curveball", NULL};
  uint64_t trials;
  if (!wm_cli_str(cli, "size")) return wm_fail(err, WM_EUSAGE, "motifs: --size 3|4|5 is required");
  int rc = wm_cli_u64(cli, "size", 0, 3, 5, k, err);
  if (!rc) rc = wm_cli_context(cli, ctx, err);
  if (!rc) rc = wm_cli_match_options(cli, *ctx, o, err);
  if (!rc) rc = wm_cli_choice(cli, "method", methods, 0, &o->count.method, err);
  if (!rc) rc = wm_motifs_random_options(cli, o, sig, err);
  if (!rc) rc = wm_cli_u64(cli, "trials", 1, 1, WARPMATCH_MAX_TRIALS, &trials, err);
  o->trials = (unsigned)trials;
  return rc;
}

int wm_cmd_motifs(int argc, char **argv) {
  wm_cli cli;
  wm_error err;
  wm_error_clear(&err);
  if (wm_cli_parse(&cli, "motifs", "GRAPH --size 3|4|5 [options]",
                   "Count every connected pattern of 3, 4 or 5 vertices (vertex-induced): one row per\n"
                   "pattern with its catalogue name and edges.  With --directed, every weakly connected\n"
                   "directed class of 3 or 4 vertices (13 or 199), named by MAN code (size 3) and igraph id.",
                   spec, 1, 1, argc, argv, &err))
    return wm_cli_report(&err);
  if (cli.help) return WM_OK;
  /* directed motifs: their own table (cmd_motifs_directed.c); with --random the significance table below */
  if (wm_cli_flag(&cli, "directed") && !wm_cli_str(&cli, "random"))
    return wm_cmd_motifs_directed(&cli, &err) ? wm_cli_report(&err) : WM_OK;
  if (wm_cli_flag(&cli, "all-classes")) {
    wm_fail(&err, WM_EUSAGE, "motifs: --all-classes is for directed motifs (add --directed)");
    return wm_cli_report(&err);
  }
  uint64_t k = 0;
  warpmatch_context *ctx = NULL;
  warpmatch_graph *g = NULL;
  warpmatch_match_options o;
  warpmatch_significance_options sig;
  table t = {0};
  int rc = options(&cli, &ctx, &k, &o, &sig, &err);
  t.method = o.count.method;
  double t0 = wm_now();
  if (!rc) rc = wm_cli_open_graph(&cli, ctx, cli.positional[0], &g, NULL, &err);
  t.load_seconds = wm_now() - t0;
  if (!rc && sig.graphs) { /* --random: significance, directed or not (the library says what it counts) */
    rc = wm_motifs_random(&cli, ctx, g, (unsigned)k, &sig, t.load_seconds, &err);
    warpmatch_graph_destroy(g);
    warpmatch_context_destroy(ctx);
    return rc ? wm_cli_report(&err) : WM_OK;
  }
  if (!rc && warpmatch_graph_directed(g))
    rc = wm_fail(&err, WM_EUSAGE,
                 "motifs: %s is a directed graph; count its directed motifs with --directed --size 3|4",
                 cli.positional[0]);
  rc = wm_mpi_agree(rc, &err); /* under mpirun all ranks stop if one failed to load */
  if (!rc) rc = wm_mpi_after_work(count_all(ctx, g, (unsigned)k, &o, &t, &err), &err);
  if (!rc) {
    if (cli.json)
      print_json(cli.positional[0], g, (unsigned)k, &t);
    else
      print_text(cli.positional[0], g, (unsigned)k, &t);
  }
  free(t.rows);
  free(t.edge_induced);
  free(t.how);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
  return rc ? wm_cli_report(&err) : WM_OK;
}
