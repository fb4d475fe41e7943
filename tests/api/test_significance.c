/* warpmatch_randomize and warpmatch_motif_significance: the random graphs
 * the call counts are warpmatch_randomize's of the same (seed, index),
 * whatever the threads; each class's mean, sd, z, p-values and profile
 * equal the statistics this suite computes itself from those graphs'
 * counts (warpmatch_motifs); an sd of 0 gives a NaN z, not a division by
 * zero; directed classes are counted by warpmatch_motifs_directed; bad
 * options are refused with a message. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "warpmatch.h"

static warpmatch_context *ctx_new(int threads) {
  warpmatch_context *ctx = NULL;
  cr_assert_eq(warpmatch_context_create(&ctx), WARPMATCH_OK);
  cr_assert_eq(warpmatch_set_threads(ctx, threads), WARPMATCH_OK);
  return ctx;
}

/* A small power-law graph through the public API (ids 0..n-1). */
static warpmatch_graph *small_graph(warpmatch_context *ctx, uint64_t seed, int directed) {
  wm_graph *w = wm_test_powerlaw(120, 6, 2, 0.25, seed);
  warpmatch_graph *g = wm_test_api_graph(ctx, w, directed);
  wm_graph_destroy(w);
  return g;
}

static double count_of(const warpmatch_motif *m) { return ldexp((double)m->count_high, 64) + (double)m->count; }

static void options(warpmatch_significance_options *o, unsigned graphs, int method, uint64_t seed) {
  warpmatch_significance_options_init(o);
  o->graphs = graphs, o->method = method, o->seed = seed, o->device = WARPMATCH_DEVICE_CPU;
}

/* h's classes as the call counts them: the motifs, or the directed
 * classes (name and count) where directed. */
static void own_counts(warpmatch_context *ctx, const warpmatch_graph *h, unsigned size, int directed,
                       warpmatch_motif *out) {
  if (!directed) {
    cr_assert_eq(warpmatch_motifs(ctx, h, size, NULL, out), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
    return;
  }
  const unsigned n = warpmatch_motif_classes_directed(size, 1);
  warpmatch_directed_motif *d = calloc(n, sizeof *d);
  cr_assert_eq(warpmatch_motifs_directed(ctx, h, size, NULL, d, NULL), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  for (unsigned c = 0; c < n; c++) {
    memset(&out[c], 0, sizeof out[c]);
    strcpy(out[c].name, d[c].name);
    out[c].count = d[c].count, out[c].count_high = d[c].count_high;
  }
  free(d);
}

/* The call's statistics against this suite's own, from the counts of
 * warpmatch_randomize's graphs 0..N-1 of the seed. */
static void check_against_own(unsigned size, int method, int directed) {
  enum { N = 6, MOST = 199 };
  warpmatch_context *ctx = ctx_new(2);
  warpmatch_graph *g = small_graph(ctx, 11, directed);
  const unsigned classes = warpmatch_significance_classes(size, directed);
  cr_assert(classes > 0 && classes <= MOST);
  warpmatch_significance_options o;
  options(&o, N, method, 77);
  o.directed = directed;
  warpmatch_significance_row *rows = calloc(classes, sizeof *rows);
  warpmatch_motif *random = calloc((size_t)N * classes, sizeof *random), *mine = calloc(classes, sizeof *mine);
  warpmatch_significance_result r = {.size = sizeof r};
  cr_assert_eq(warpmatch_motif_significance(ctx, g, size, &o, rows, random, &r), WARPMATCH_OK, "%s",
               warpmatch_last_error(ctx));
  cr_assert_eq(r.graphs, N);
  cr_assert_eq(r.classes, classes);
  cr_assert_gt(r.accepted, 0);
  double sum[MOST] = {0}, sq[MOST] = {0}, x[N][MOST];
  for (unsigned i = 0; i < N; i++) {
    warpmatch_randomize_options ro;
    warpmatch_randomize_options_init(&ro);
    ro.method = method, ro.seed = 77, ro.index = i;
    warpmatch_graph *h = NULL;
    cr_assert_eq(warpmatch_randomize(ctx, g, &ro, &h, NULL), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
    own_counts(ctx, h, size, directed, mine);
    for (unsigned c = 0; c < classes; c++) {
      cr_assert_eq(count_of(&mine[c]), count_of(&random[i * classes + c]), "graph %u class %u", i, c);
      cr_assert_str_eq(random[i * classes + c].name, mine[c].name);
      x[i][c] = count_of(&mine[c]);
      sum[c] += x[i][c];
    }
    warpmatch_graph_destroy(h);
  }
  double norm = 0, z[MOST];
  for (unsigned c = 0; c < classes; c++) {
    const double mean = sum[c] / N, real = count_of(&rows[c].motif);
    unsigned over = 0, under = 0;
    for (unsigned i = 0; i < N; i++) {
      sq[c] += (x[i][c] - mean) * (x[i][c] - mean);
      over += x[i][c] >= real, under += x[i][c] <= real;
    }
    const double sd = sqrt(sq[c] / (N - 1));
    cr_assert_float_eq(rows[c].mean, mean, 1e-9 * (1 + mean), "class %u", c);
    cr_assert_float_eq(rows[c].sd, sd, 1e-9 * (1 + sd), "class %u", c);
    cr_assert_float_eq(rows[c].p_over, (double)over / N, 1e-12);
    cr_assert_float_eq(rows[c].p_under, (double)under / N, 1e-12);
    z[c] = sd > 0 ? (real - mean) / sd : NAN;
    if (sd > 0) {
      cr_assert_float_eq(rows[c].z, z[c], 1e-9 * (1 + fabs(z[c])), "class %u: z %g, expected %g", c, rows[c].z, z[c]);
      norm += z[c] * z[c];
    } else {
      cr_assert(isnan(rows[c].z), "class %u: sd 0 but z %g", c, rows[c].z);
    }
  }
  for (unsigned c = 0; c < classes; c++)
    if (!isnan(z[c])) cr_assert_float_eq(rows[c].profile, z[c] / sqrt(norm), 1e-9);
  free(rows), free(random), free(mine);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

Test(significance, size_3_switch_against_own_statistics) { check_against_own(3, WARPMATCH_RANDOMIZE_SWITCH, 0); }
Test(significance, size_4_curveball_against_own_statistics) { check_against_own(4, WARPMATCH_RANDOMIZE_CURVEBALL, 0); }
Test(significance, directed_size_3_switch_against_own_statistics) {
  check_against_own(3, WARPMATCH_RANDOMIZE_SWITCH, 1);
}
Test(significance, directed_size_4_curveball_against_own_statistics) {
  check_against_own(4, WARPMATCH_RANDOMIZE_CURVEBALL, 1);
}

/* The same seed gives the same random counts with 1 thread and with 2 (the
 * batches differ: one graph at a time, or two made at once). */
Test(significance, same_answer_whatever_the_threads) {
  enum { N = 5 };
  warpmatch_motif *counts[2];
  warpmatch_significance_row rows[2][6];
  for (int t = 0; t < 2; t++) {
    warpmatch_context *ctx = ctx_new(t + 1);
    warpmatch_graph *g = small_graph(ctx, 3, 0);
    warpmatch_significance_options o;
    options(&o, N, WARPMATCH_RANDOMIZE_SWITCH, 5);
    counts[t] = calloc(N * 6, sizeof **counts);
    cr_assert_eq(warpmatch_motif_significance(ctx, g, 4, &o, rows[t], counts[t], NULL), WARPMATCH_OK);
    warpmatch_graph_destroy(g);
    warpmatch_context_destroy(ctx);
  }
  cr_assert(!memcmp(counts[0], counts[1], N * 6 * sizeof **counts), "1 and 2 threads counted other graphs");
  cr_assert(!memcmp(rows[0], rows[1], sizeof rows[0]));
  free(counts[0]), free(counts[1]);
}

/* K5 is the only simple graph of its degrees: every random count equals
 * the real one, so sd is 0, z and the profile NaN, both p-values 1. */
Test(significance, zero_sd_gives_nan_z) {
  warpmatch_context *ctx = ctx_new(2);
  uint32_t src[10], dst[10], k = 0;
  for (uint32_t u = 0; u < 5; u++)
    for (uint32_t v = u + 1; v < 5; v++) src[k] = u, dst[k] = v, k++;
  warpmatch_graph *g = NULL;
  cr_assert_eq(warpmatch_graph_from_edges(ctx, 5, src, dst, k, 0, &g), WARPMATCH_OK);
  warpmatch_significance_options o;
  options(&o, 4, WARPMATCH_RANDOMIZE_SWITCH, 1);
  warpmatch_significance_row rows[2];
  cr_assert_eq(warpmatch_motif_significance(ctx, g, 3, &o, rows, NULL, NULL), WARPMATCH_OK);
  for (int c = 0; c < 2; c++) {
    cr_assert_eq(rows[c].sd, 0);
    cr_assert(isnan(rows[c].z) && isnan(rows[c].profile));
    cr_assert_eq(rows[c].p_over, 1);
    cr_assert_eq(rows[c].p_under, 1);
  }
  cr_assert_eq(rows[1].mean, 10, "K5 has 10 triangles");
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

Test(significance, randomize_keeps_ids_degrees_and_reports) {
  warpmatch_context *ctx = ctx_new(2);
  const uint32_t src[] = {10, 10, 10, 20, 30, 40, 50}, dst[] = {20, 30, 40, 30, 40, 50, 60};
  warpmatch_graph *g = NULL, *h = NULL;
  cr_assert_eq(warpmatch_graph_from_edges(ctx, 0, src, dst, 7, 1, &g), WARPMATCH_OK);
  warpmatch_randomize_options o;
  warpmatch_randomize_options_init(&o);
  o.method = WARPMATCH_RANDOMIZE_CURVEBALL;
  warpmatch_randomize_stats st = {.size = sizeof st};
  cr_assert_eq(warpmatch_randomize(ctx, g, &o, &h, &st), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  cr_assert_eq(warpmatch_graph_vertices(h), warpmatch_graph_vertices(g));
  cr_assert_eq(warpmatch_graph_edges(h), 7);
  cr_assert(warpmatch_graph_directed(h));
  cr_assert_eq(st.attempted, 10 * (warpmatch_graph_vertices(g) / 2));
  for (uint32_t v = 0; v < warpmatch_graph_vertices(g); v++) {
    cr_assert_eq(warpmatch_graph_id(h, v), warpmatch_graph_id(g, v));
    cr_assert_eq(warpmatch_graph_degree(h, v), warpmatch_graph_degree(g, v));
  }
  warpmatch_graph_destroy(h);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

Test(significance, refusals_name_the_problem) {
  warpmatch_context *ctx = ctx_new(2);
  warpmatch_graph *g = small_graph(ctx, 1, 0), *d = small_graph(ctx, 1, 1), *h = NULL;
  warpmatch_significance_row rows[21];
  warpmatch_significance_options o;
  options(&o, 1, WARPMATCH_RANDOMIZE_SWITCH, 1);
  cr_assert_eq(warpmatch_motif_significance(ctx, g, 3, &o, rows, NULL, NULL), WARPMATCH_EUSAGE);
  cr_assert(strstr(warpmatch_last_error(ctx), "give 2 to 100000"), "%s", warpmatch_last_error(ctx));
  options(&o, 4, 7, 1);
  cr_assert_eq(warpmatch_motif_significance(ctx, g, 3, &o, rows, NULL, NULL), WARPMATCH_EUSAGE);
  cr_assert(strstr(warpmatch_last_error(ctx), "method 7"), "%s", warpmatch_last_error(ctx));
  options(&o, 4, WARPMATCH_RANDOMIZE_SWITCH, 1);
  o.swaps_per_edge = 10001;
  cr_assert_eq(warpmatch_motif_significance(ctx, g, 3, &o, rows, NULL, NULL), WARPMATCH_EUSAGE);
  options(&o, 4, WARPMATCH_RANDOMIZE_SWITCH, 1);
  cr_assert_eq(warpmatch_motif_significance(ctx, g, 6, &o, rows, NULL, NULL), WARPMATCH_EUSAGE);
  cr_assert_eq(warpmatch_motif_significance(ctx, d, 3, &o, rows, NULL, NULL), WARPMATCH_EUSAGE);
  cr_assert(strstr(warpmatch_last_error(ctx), "ask for directed classes"), "%s", warpmatch_last_error(ctx));
  o.directed = 1;
  cr_assert_eq(warpmatch_motif_significance(ctx, d, 5, &o, rows, NULL, NULL), WARPMATCH_EUSAGE);
  cr_assert(strstr(warpmatch_last_error(ctx), "directed motifs have 3 or 4"), "%s", warpmatch_last_error(ctx));
  cr_assert_eq(warpmatch_motif_significance(ctx, g, 3, &o, rows, NULL, NULL), WARPMATCH_EUSAGE);
  o.size = 0;
  cr_assert_eq(warpmatch_motif_significance(ctx, g, 3, &o, rows, NULL, NULL), WARPMATCH_EUSAGE);
  cr_assert_eq(warpmatch_motif_significance(ctx, g, 3, NULL, NULL, NULL, NULL), WARPMATCH_EUSAGE);
  warpmatch_randomize_options ro;
  warpmatch_randomize_options_init(&ro);
  ro.swaps_per_edge = 0;
  cr_assert_eq(warpmatch_randomize(ctx, g, &ro, &h, NULL), WARPMATCH_EUSAGE);
  cr_assert_null(h);
  warpmatch_graph *oriented = NULL;
  cr_assert_eq(warpmatch_graph_rewrite(ctx, g, WARPMATCH_REWRITE_ORIENT, &oriented), WARPMATCH_OK);
  cr_assert_eq(warpmatch_randomize(ctx, oriented, NULL, &h, NULL), WARPMATCH_EINPUT);
  cr_assert(strstr(warpmatch_last_error(ctx), "oriented"), "%s", warpmatch_last_error(ctx));
  warpmatch_graph_destroy(oriented);
  warpmatch_graph_destroy(g);
  warpmatch_graph_destroy(d);
  warpmatch_context_destroy(ctx);
}

/* The counts' own options (o->match) pass through: without renumbering, and
 * with trials that a significance call does not time, the same table. */
Test(significance, match_options_pass_through) {
  warpmatch_context *ctx = ctx_new(2);
  warpmatch_graph *g = small_graph(ctx, 8, 0);
  warpmatch_significance_row a[6], b[6];
  warpmatch_significance_options o;
  options(&o, 3, WARPMATCH_RANDOMIZE_CURVEBALL, 4);
  cr_assert_eq(warpmatch_motif_significance(ctx, g, 4, &o, a, NULL, NULL), WARPMATCH_OK);
  warpmatch_match_options mo;
  warpmatch_match_options_init(&mo);
  mo.relabel = 0, mo.trials = 5, mo.count.device = WARPMATCH_DEVICE_GPU; /* device: o's wins */
  o.match = &mo;
  cr_assert_eq(warpmatch_motif_significance(ctx, g, 4, &o, b, NULL, NULL), WARPMATCH_OK, "%s",
               warpmatch_last_error(ctx));
  cr_assert(!memcmp(a, b, sizeof a));
  mo.size = 0;
  cr_assert_eq(warpmatch_motif_significance(ctx, g, 4, &o, b, NULL, NULL), WARPMATCH_EUSAGE);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

/* The CPU chains poll the context's interrupt flag (set before the call:
 * their first poll hears it), and leave no graph behind when they stop. */
Test(significance, randomize_stops_at_the_interrupt_flag) {
  warpmatch_context *ctx = ctx_new(2);
  warpmatch_graph *g = small_graph(ctx, 2, 0), *h = NULL;
  warpmatch_interrupt(ctx, 1);
  const int methods[] = {WARPMATCH_RANDOMIZE_SWITCH, WARPMATCH_RANDOMIZE_CURVEBALL};
  for (int m = 0; m < 2; m++) {
    warpmatch_randomize_options ro;
    warpmatch_randomize_options_init(&ro);
    ro.method = methods[m];
    cr_assert_eq(warpmatch_randomize(ctx, g, &ro, &h, NULL), WARPMATCH_EINTERRUPTED, "method %d: %s", methods[m],
                 warpmatch_last_error(ctx));
    cr_assert_null(h);
    cr_assert(strstr(warpmatch_last_error(ctx), "randomize: interrupted"), "%s", warpmatch_last_error(ctx));
  }
  warpmatch_interrupt(ctx, 0);
  cr_assert_eq(warpmatch_randomize(ctx, g, NULL, &h, NULL), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  warpmatch_graph_destroy(h);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

/* The random graphs are made where the counts run: on the CPU here, and
 * the result says so; a GPU asked for without one is refused. */
Test(significance, reports_where_the_graphs_were_made) {
  warpmatch_context *ctx = ctx_new(2);
  warpmatch_graph *g = small_graph(ctx, 3, 0), *h = NULL;
  warpmatch_significance_row rows[2];
  warpmatch_significance_options o;
  options(&o, 3, WARPMATCH_RANDOMIZE_SWITCH, 1);
  warpmatch_significance_result r = {.size = sizeof r};
  cr_assert_eq(warpmatch_motif_significance(ctx, g, 3, &o, rows, NULL, &r), WARPMATCH_OK, "%s",
               warpmatch_last_error(ctx));
  cr_assert_eq(r.randomize_device, WARPMATCH_DEVICE_CPU);
  cr_assert_eq(r.randomize_gpus, 0);
  warpmatch_randomize_options ro;
  warpmatch_randomize_options_init(&ro);
  cr_assert_eq(ro.device, WARPMATCH_DEVICE_CPU, "warpmatch_randomize's graphs stay the CPU chain's by default");
  ro.device = WARPMATCH_DEVICE_GPU;
  if (!warpmatch_gpu_available(ctx)) {
    cr_assert_eq(warpmatch_randomize(ctx, g, &ro, &h, NULL), WARPMATCH_EDEVICE);
    cr_assert_null(h);
    cr_assert(strstr(warpmatch_last_error(ctx), "no usable CUDA device"), "%s", warpmatch_last_error(ctx));
  } else {
    cr_assert_eq(warpmatch_randomize(ctx, g, &ro, &h, NULL), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
    cr_assert_eq(warpmatch_graph_edges(h), warpmatch_graph_edges(g));
    warpmatch_graph_destroy(h);
  }
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}
