/* `warpmatch motifs GRAPH --size K --random N`: each class's count in the
 * graph against N random graphs of the same degrees (motifs_random.h). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "motifs_random.h"

enum { CHOICE_SWITCH = 3, CHOICE_CURVEBALL = 4 }; /* --method's indices of the two chains */

static int only_with_random(const wm_cli *cli, const char *name, wm_error *err) {
  if (!wm_cli_str(cli, name)) return WM_OK;
  return wm_fail(err, WM_EUSAGE, "motifs: --%s is for significance: give --random N too", name);
}

int wm_motifs_random_options(const wm_cli *cli, warpmatch_match_options *count, warpmatch_significance_options *o,
                             wm_error *err) {
  int *count_method = &count->count.method;
  warpmatch_significance_options_init(o);
  o->graphs = 0;
  if (!wm_cli_str(cli, "random")) {
    int rc = *count_method >= CHOICE_SWITCH
                 ? wm_fail(err, WM_EUSAGE, "motifs: --method switch|curveball randomises: give --random N too")
                 : WM_OK;
    if (!rc) rc = only_with_random(cli, "seed", err);
    if (!rc) rc = only_with_random(cli, "swaps-per-edge", err);
    if (!rc) rc = only_with_random(cli, "csv", err);
    return rc;
  }
  if (wm_mpi_ranks() > 1) return wm_fail(err, WM_EUSAGE, "motifs: --random runs in one process, not under mpirun");
  if (wm_cli_str(cli, "trials")) return wm_fail(err, WM_EUSAGE, "motifs: --trials times one count, not --random");
  uint64_t graphs, seed, swaps;
  int rc = wm_cli_u64(cli, "random", 0, 2, WARPMATCH_MAX_RANDOM_GRAPHS, &graphs, err);
  if (!rc) rc = wm_cli_u64(cli, "seed", 1, 0, UINT64_MAX, &seed, err);
  if (!rc) rc = wm_cli_u64(cli, "swaps-per-edge", 10, 1, WARPMATCH_MAX_SWAPS_PER_EDGE, &swaps, err);
  if (rc) return rc;
  if (*count_method >= CHOICE_SWITCH) {
    o->method = *count_method == CHOICE_SWITCH ? WARPMATCH_RANDOMIZE_SWITCH : WARPMATCH_RANDOMIZE_CURVEBALL;
    *count_method = WARPMATCH_METHOD_AUTO;
  }
  o->graphs = (unsigned)graphs;
  o->seed = seed;
  o->swaps_per_edge = (unsigned)swaps;
  o->count_method = *count_method;
  o->device = count->count.device;
  o->match = count;
  return WM_OK;
}

typedef struct sig_table {
  unsigned n;
  warpmatch_significance_row *rows;
  warpmatch_significance_result r;
  double load_seconds;
} sig_table;

static wm_u128 count_of(const warpmatch_motif *m) { return (wm_u128)m->count_high << 64 | m->count; }
static const char *method_name(int m) { return m == WARPMATCH_RANDOMIZE_CURVEBALL ? "curveball" : "switch"; }
static double per_graph(const sig_table *t, double x) { return x / t->r.graphs; }

static int any_nan_z(const sig_table *t) {
  for (unsigned c = 0; c < t->n; c++)
    if (isnan(t->rows[c].z)) return 1;
  return 0;
}

/* The randomisation's line: the swaps tried and made, and the check. */
static void print_chain(const warpmatch_significance_options *o, const warpmatch_graph *g, const sig_table *t) {
  const double m = (double)warpmatch_graph_edges(g), kept = per_graph(t, (double)t->r.edges_kept);
  if (o->method == WARPMATCH_RANDOMIZE_CURVEBALL)
    printf("randomisation: curveball, %u rounds of global trades a graph: %.0f trades, %.0f moved a neighbour",
           o->swaps_per_edge, per_graph(t, (double)t->r.attempted), per_graph(t, (double)t->r.accepted));
  else if (t->r.randomize_device == WARPMATCH_DEVICE_GPU)
    printf("randomisation: switch on %d GPU%s (rounds of disjoint pairs), %u swaps per edge: %.0f attempted, "
           "%.0f accepted a graph",
           t->r.randomize_gpus, t->r.randomize_gpus == 1 ? "" : "s", o->swaps_per_edge,
           per_graph(t, (double)t->r.attempted), per_graph(t, (double)t->r.accepted));
  else
    printf("randomisation: switch, %u swaps per edge: %.0f attempted, %.0f accepted a graph", o->swaps_per_edge,
           per_graph(t, (double)t->r.attempted), per_graph(t, (double)t->r.accepted));
  printf(" (mean); edges kept %.2f%% (%.2f%% expected at full mixing)\n\n", m ? 100 * kept / m : 0,
         m ? 100 * t->r.edges_kept_expected / m : 0);
}

static void print_text(const char *path, const warpmatch_graph *g, unsigned k, const warpmatch_significance_options *o,
                       const sig_table *t) {
  printf("motif significance of size %u in %s (%u vertices, %" PRIu64 " edges): %u random graphs, seed %" PRIu64
         "\n",
         k, path, warpmatch_graph_vertices(g), warpmatch_graph_edges(g), o->graphs, o->seed);
  print_chain(o, g, t);
  printf("%-22s %16s %16s %14s %10s %7s %7s %8s\n", "name", "real count", "random mean", "random sd", "z", "p(>=)",
         "p(<=)", "profile");
  char num[WM_I128_CHARS];
  for (unsigned c = 0; c < t->n; c++) {
    const warpmatch_significance_row *r = &t->rows[c];
    printf("%-22s %16s %16.1f %14.1f ", r->motif.name, wm_u128_str(count_of(&r->motif), num), r->mean, r->sd);
    if (isnan(r->z))
      printf("%10s %7.3f %7.3f %8s\n", "-", r->p_over, r->p_under, "-");
    else
      printf("%10.2f %7.3f %7.3f %8.3f\n", r->z, r->p_over, r->p_under, r->profile);
  }
  if (any_nan_z(t)) printf("\nz -: every random count equal (sd 0), so no z-score\n");
  printf("\np(>=), p(<=): the share of random counts at or above, at or below the real one "
         "(small: over-, under-represented)\n");
  printf("time: load %.3f s, real count %.3f s, per random graph: randomise %.3f s (%s), count %.3f s (%s)\n",
         t->load_seconds, t->r.real_seconds, per_graph(t, t->r.randomize_seconds),
         t->r.randomize_device == WARPMATCH_DEVICE_GPU ? "GPU" : "CPU", per_graph(t, t->r.count_seconds),
         t->r.device == WARPMATCH_DEVICE_GPU ? "GPU" : "CPU");
}

static void print_json(const char *path, const warpmatch_graph *g, unsigned k, const warpmatch_significance_options *o,
                       const sig_table *t) {
  wm_json j;
  wm_json_begin(&j, stdout);
  wm_json_str(&j, "graph", path);
  wm_json_u64(&j, "vertices", warpmatch_graph_vertices(g));
  wm_json_u64(&j, "edges", warpmatch_graph_edges(g));
  wm_json_u64(&j, "size", k);
  wm_json_u64(&j, "random_graphs", o->graphs);
  wm_json_str(&j, "method", method_name(o->method));
  wm_json_u64(&j, "seed", o->seed);
  wm_json_u64(&j, "swaps_per_edge", o->swaps_per_edge);
  wm_json_double(&j, "attempted_per_graph", per_graph(t, (double)t->r.attempted));
  wm_json_double(&j, "accepted_per_graph", per_graph(t, (double)t->r.accepted));
  wm_json_double(&j, "edges_kept_per_graph", per_graph(t, (double)t->r.edges_kept));
  wm_json_double(&j, "edges_kept_expected", t->r.edges_kept_expected);
  wm_json_array(&j, "motifs");
  for (unsigned c = 0; c < t->n; c++) {
    const warpmatch_significance_row *r = &t->rows[c];
    wm_json_object(&j, NULL);
    wm_json_str(&j, "name", r->motif.name);
    wm_json_str(&j, "edges", r->motif.edges);
    wm_json_u128(&j, "count", count_of(&r->motif));
    wm_json_double(&j, "random_mean", r->mean);
    wm_json_double(&j, "random_sd", r->sd);
    wm_json_double(&j, "z", r->z); /* null where sd is 0 */
    wm_json_double(&j, "p_over", r->p_over);
    wm_json_double(&j, "p_under", r->p_under);
    wm_json_double(&j, "profile", r->profile);
    wm_json_close(&j);
  }
  wm_json_close(&j);
  wm_json_str(&j, "device", t->r.device == WARPMATCH_DEVICE_GPU ? "gpu" : "cpu");
  wm_json_str(&j, "randomize_device", t->r.randomize_device == WARPMATCH_DEVICE_GPU ? "gpu" : "cpu");
  wm_json_u64(&j, "randomize_gpus", (uint64_t)t->r.randomize_gpus);
  wm_json_double(&j, "load_seconds", t->load_seconds);
  wm_json_double(&j, "real_seconds", t->r.real_seconds);
  wm_json_double(&j, "randomize_seconds_per_graph", per_graph(t, t->r.randomize_seconds));
  wm_json_double(&j, "count_seconds_per_graph", per_graph(t, t->r.count_seconds));
  wm_json_end(&j);
}

/* A double for CSV: empty where it is NaN (a missing value to readers). */
static void csv_double(FILE *f, double x, const char *sep) {
  if (isnan(x))
    fputs(sep, f);
  else
    fprintf(f, "%.10g%s", x, sep);
}

static int write_csv(const char *path, const sig_table *t, wm_error *err) {
  wm_outfile of;
  int rc = wm_outfile_open(&of, path, 0, err);
  if (rc) return rc;
  char num[WM_I128_CHARS];
  fputs("name,edges,count,random_mean,random_sd,z,p_over,p_under,profile\n", of.f);
  for (unsigned c = 0; c < t->n; c++) {
    const warpmatch_significance_row *r = &t->rows[c];
    fprintf(of.f, "%s,%s,%s,", r->motif.name, r->motif.edges, wm_u128_str(count_of(&r->motif), num));
    csv_double(of.f, r->mean, ",");
    csv_double(of.f, r->sd, ",");
    csv_double(of.f, r->z, ",");
    csv_double(of.f, r->p_over, ",");
    csv_double(of.f, r->p_under, ",");
    csv_double(of.f, r->profile, "\n");
  }
  return wm_outfile_commit(&of, err);
}

int wm_motifs_random(const wm_cli *cli, warpmatch_context *ctx, const warpmatch_graph *g, unsigned k,
                     const warpmatch_significance_options *o, double load_seconds, wm_error *err) {
  warpmatch_significance_options so = *o;
  so.directed = warpmatch_graph_directed(g); /* directed classes of a graph read with --directed */
  sig_table t = {warpmatch_significance_classes(k, so.directed), NULL, {.size = sizeof t.r}, load_seconds};
  t.rows = calloc(t.n ? t.n : 1, sizeof *t.rows);
  if (!t.rows) return wm_fail(err, WM_EINPUT, "out of memory");
  int rc = wm_cli_api(ctx, warpmatch_motif_significance(ctx, g, k, &so, t.rows, NULL, &t.r), err);
  if (!rc && wm_cli_str(cli, "csv")) rc = write_csv(wm_cli_str(cli, "csv"), &t, err);
  if (!rc && cli->json) print_json(cli->positional[0], g, k, &so, &t);
  else if (!rc) print_text(cli->positional[0], g, k, &so, &t);
  free(t.rows);
  return rc;
}
