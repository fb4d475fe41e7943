/* The GPU's edge switching (datasets/gpu_rand_switch.cu) and motif
 * significance on it: every degree (in and out) kept, no loop or
 * multi-edge, the same (seed, index) the same graph on any GPU, another
 * seed or index another graph, a ring lattice mixed to a random regular
 * graph's triangles, exactly swaps-per-edge x m attempts, the interrupt
 * flag heard; and the significance call's random counts are those of the
 * graphs warpmatch_randomize makes on the GPU counted on the CPU, the same
 * with 2 GPUs as with 1. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "randomize.h"
#include "testutil.h"
#include "warpmatch.h"

static int on_gpu_rc(const wm_graph *g, uint64_t seed, uint64_t index, int dev, unsigned swaps,
                     const wm_progress *stop, wm_graph **r, wm_randomize_stats *st, wm_error *err) {
  const wm_randomize_options o = {.method = WM_RANDOMIZE_SWITCH, .seed = seed, .index = index,
                                  .swaps_per_edge = swaps, .use_gpu = 1, .gpu = dev, .stop = stop};
  return wm_randomize(g, &o, r, st, err);
}

static wm_graph *on_gpu(const wm_graph *g, uint64_t seed, uint64_t index, int dev, unsigned swaps,
                        wm_randomize_stats *st) {
  wm_graph *r = NULL;
  wm_error err;
  wm_randomize_stats local;
  cr_assert_eq(on_gpu_rc(g, seed, index, dev, swaps, NULL, &r, st ? st : &local, &err), WM_OK, "%s", err.msg);
  return r;
}

Test(gpu_randomize, keeps_degrees_and_makes_no_loop_or_multi_edge) {
  /* the last has ~120k edges: many blocks, many claims racing each round */
  wm_graph *graphs[] = {wm_test_powerlaw(400, 8, 3, 0.3, 7), wm_test_ring(300, 4, 1), wm_test_ring(300, 2, 0),
                        wm_test_powerlaw(20000, 12, 20, 0.3, 3)};
  for (size_t k = 0; k < 4; k++)
    for (uint64_t seed = 1; seed <= 3; seed++) {
      wm_randomize_stats st;
      wm_graph *r = on_gpu(graphs[k], seed, 0, 0, WM_RANDOMIZE_DEFAULT_SWAPS, &st);
      wm_test_assert_randomized(graphs[k], r);
      cr_assert_eq(st.attempted, WM_RANDOMIZE_DEFAULT_SWAPS * wm_graph_edges(graphs[k]));
      cr_assert_gt(st.accepted, 0, "graph %zu: nothing moved", k);
      cr_assert_leq(st.accepted, st.attempted);
      cr_assert_lt(st.edges_kept, wm_graph_edges(graphs[k]), "graph %zu: every edge kept", k);
      wm_graph_destroy(r);
    }
  for (size_t k = 0; k < 4; k++) wm_graph_destroy(graphs[k]);
}

/* The last round pairs only the attempts left: exactly swaps x m, odd m too. */
Test(gpu_randomize, attempts_are_swaps_per_edge_times_edges) {
  wm_graph *g = wm_test_ring(101, 1, 0); /* a 101-cycle: 101 edges, 50 pairs a round */
  const unsigned swaps[] = {1, 3, 7, 10};
  for (int i = 0; i < 4; i++) {
    wm_randomize_stats st;
    wm_graph *r = on_gpu(g, 4, 0, 0, swaps[i], &st);
    cr_assert_eq(st.attempted, (uint64_t)swaps[i] * 101, "%u swaps per edge: %lu attempted", swaps[i],
                 (unsigned long)st.attempted);
    wm_test_assert_randomized(g, r);
    wm_graph_destroy(r);
  }
  wm_graph_destroy(g);
}

Test(gpu_randomize, same_seed_and_index_same_graph_others_differ) {
  wm_graph *gs[] = {wm_test_powerlaw(300, 6, 2, 0.2, 5), wm_test_ring(300, 3, 1), wm_test_powerlaw(20000, 10, 10, 0.2, 8)};
  for (int k = 0; k < 3; k++) {
    wm_randomize_stats sa, sb;
    wm_graph *a = on_gpu(gs[k], 42, 3, 0, 10, &sa), *b = on_gpu(gs[k], 42, 3, 0, 10, &sb);
    wm_graph *c = on_gpu(gs[k], 43, 3, 0, 10, NULL), *d = on_gpu(gs[k], 42, 4, 0, 10, NULL);
    cr_assert(wm_test_same_graph(a, b), "graph %d: the same seed and index, another graph", k);
    cr_assert_eq(sa.accepted, sb.accepted, "graph %d: the same graph, another number of swaps", k);
    cr_assert(!wm_test_same_graph(a, c), "graph %d: another seed, the same graph", k);
    cr_assert(!wm_test_same_graph(a, d), "graph %d: another index, the same graph", k);
    wm_graph_destroy(a), wm_graph_destroy(b), wm_graph_destroy(c), wm_graph_destroy(d);
  }
  for (int k = 0; k < 3; k++) wm_graph_destroy(gs[k]);
}

/* As tests/datasets/test_randomize.c: the lattice's 6000 triangles fall to
 * about a random 6-regular graph's 21 (bound 100), with about the
 * configuration model's share of its edges left. */
Test(gpu_randomize, mixes_a_ring_lattice) {
  for (int directed = 0; directed < 2; directed++) {
    wm_graph *g = wm_test_ring(2000, 3, directed);
    cr_assert_eq(wm_test_triangles(g), 6000);
    wm_randomize_stats st;
    wm_graph *r = on_gpu(g, 1 + directed, 0, 0, WM_RANDOMIZE_DEFAULT_SWAPS, &st);
    wm_test_assert_randomized(g, r);
    const uint64_t t = wm_test_triangles(r);
    cr_assert_lt(t, 100, "directed %d: %lu triangles after mixing (random 6-regular: about 21)", directed,
                 (unsigned long)t);
    cr_assert_lt(st.edges_kept, 5 * st.edges_kept_expected + 10, "directed %d: %lu lattice edges kept, %.1f expected",
                 directed, (unsigned long)st.edges_kept, st.edges_kept_expected);
    wm_graph_destroy(r);
    wm_graph_destroy(g);
  }
}

/* One edge: nothing to pair, the graph as it was; two: they do swap. */
Test(gpu_randomize, tiny_graphs) {
  wm_graph *g = wm_test_ring(2, 1, 0);
  wm_randomize_stats st;
  wm_graph *r = on_gpu(g, 1, 0, 0, 10, &st);
  cr_assert(wm_test_same_graph(g, r));
  cr_assert_eq(st.attempted, 0);
  cr_assert_eq(st.accepted, 0);
  wm_graph_destroy(r);
  wm_graph_destroy(g);
  uint32_t src[] = {0, 2}, dst[] = {1, 3};
  wm_error err;
  cr_assert_eq(wm_graph_from_arcs(src, dst, 2, 4, 0, &g, &err), WM_OK, "%s", err.msg);
  r = on_gpu(g, 1, 0, 0, 10, &st);
  wm_test_assert_randomized(g, r);
  cr_assert_eq(st.attempted, 20);
  cr_assert_gt(st.accepted, 0, "two disjoint edges never swapped in 20 attempts");
  wm_graph_destroy(r);
  wm_graph_destroy(g);
}

/* The caller's stop (warpmatch_interrupt's flag) ends the rounds. */
Test(gpu_randomize, stops_when_interrupted) {
  wm_graph *g = wm_test_powerlaw(2000, 8, 4, 0.2, 2), *r = NULL;
  wm_monitor mon;
  memset(&mon, 0, sizeof mon);
  mon.stop = 1;
  wm_monitor *prev = wm_monitor_enter(&mon);
  wm_progress stop;
  wm_progress_init(&stop, "test", 0, 0);
  wm_monitor_leave(prev);
  wm_randomize_stats st;
  wm_error err;
  cr_assert_eq(on_gpu_rc(g, 1, 0, 0, 10, &stop, &r, &st, &err), WM_EINTERRUPTED, "%s", err.msg);
  cr_assert_null(r);
  cr_assert(strstr(err.msg, "interrupted"), "%s", err.msg);
  wm_graph_destroy(g);
}

/* ---- significance on the GPU ------------------------------------------- */

/* h's classes counted on the CPU. */
static void cpu_counts(warpmatch_context *ctx, const warpmatch_graph *h, unsigned size, int directed,
                       warpmatch_motif *out) {
  if (!directed) {
    warpmatch_count_options co;
    warpmatch_count_options_init(&co);
    co.device = WARPMATCH_DEVICE_CPU;
    cr_assert_eq(warpmatch_motifs(ctx, h, size, &co, out), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
    return;
  }
  const unsigned n = warpmatch_motif_classes_directed(size, 1);
  warpmatch_directed_motif *d = calloc(n, sizeof *d);
  warpmatch_directed_motif_options o;
  warpmatch_directed_motif_options_init(&o);
  o.device = WARPMATCH_DEVICE_CPU;
  cr_assert_eq(warpmatch_motifs_directed(ctx, h, size, &o, d, NULL), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  for (unsigned c = 0; c < n; c++) out[c].count = d[c].count, out[c].count_high = d[c].count_high;
  free(d);
}

/* The call's random counts, made and counted on `gpus` GPUs (GPU d making
 * and counting graphs d, d + gpus, ...), are those of warpmatch_randomize's
 * GPU graphs (seed, i) counted on the CPU, and the means are theirs. */
static void significance_is_its_graphs(unsigned size, int directed, int gpus) {
  if (wm_gpu_count() < gpus) cr_skip("this host has %d GPU: %d GPUs need %d", wm_gpu_count(), gpus, gpus);
  warpmatch_context *ctx = NULL;
  cr_assert_eq(warpmatch_context_create(&ctx), WARPMATCH_OK);
  cr_assert_eq(warpmatch_set_gpus(ctx, gpus), WARPMATCH_OK);
  wm_graph *w = wm_test_powerlaw(300, 6, 3, 0.25, 11);
  warpmatch_graph *g = wm_test_api_graph(ctx, w, directed);
  wm_graph_destroy(w);
  enum { GRAPHS = 6 };
  const unsigned classes = warpmatch_significance_classes(size, directed);
  warpmatch_significance_row *rows = calloc(classes, sizeof *rows);
  warpmatch_motif *random = calloc((size_t)GRAPHS * classes, sizeof *random), *mine = calloc(classes, sizeof *mine);
  warpmatch_significance_options o;
  warpmatch_significance_options_init(&o);
  o.graphs = GRAPHS, o.seed = 5, o.device = WARPMATCH_DEVICE_GPU;
  o.directed = directed;
  warpmatch_significance_result res = {.size = sizeof res};
  cr_assert_eq(warpmatch_motif_significance(ctx, g, size, &o, rows, random, &res), WARPMATCH_OK, "%s",
               warpmatch_last_error(ctx));
  cr_assert_eq(res.randomize_device, WARPMATCH_DEVICE_GPU);
  cr_assert_eq(res.randomize_gpus, gpus);
  cr_assert_eq(res.device, WARPMATCH_DEVICE_GPU);
  cr_assert_eq(res.attempted, (uint64_t)GRAPHS * 10 * warpmatch_graph_edges(g));
  double *sum = calloc(classes, sizeof *sum);
  for (unsigned i = 0; i < GRAPHS; i++) {
    warpmatch_randomize_options ro;
    warpmatch_randomize_options_init(&ro);
    ro.seed = 5, ro.index = i, ro.device = WARPMATCH_DEVICE_GPU;
    warpmatch_graph *h = NULL;
    cr_assert_eq(warpmatch_randomize(ctx, g, &ro, &h, NULL), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
    cpu_counts(ctx, h, size, directed, mine);
    for (unsigned c = 0; c < classes; c++) {
      const warpmatch_motif *x = &random[(size_t)i * classes + c];
      cr_assert(x->count == mine[c].count && x->count_high == mine[c].count_high,
                "size %u%s, %d GPU(s), graph %u (GPU %d) class %s: the call counted %llu, its graph has %llu", size,
                directed ? " directed" : "", gpus, i, (int)(i % (unsigned)gpus), rows[c].motif.name,
                (unsigned long long)x->count, (unsigned long long)mine[c].count);
      sum[c] += (double)mine[c].count;
    }
    warpmatch_graph_destroy(h);
  }
  for (unsigned c = 0; c < classes; c++)
    cr_assert_float_eq(rows[c].mean, sum[c] / GRAPHS, 1e-9 * (1 + sum[c]), "class %s", rows[c].motif.name);
  free(sum), free(rows), free(random), free(mine);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

Test(gpu_randomize, significance_is_its_graphs_counted_on_the_cpu) { significance_is_its_graphs(4, 0, 1); }
Test(gpu_randomize, directed_significance_is_its_graphs_counted_on_the_cpu) { significance_is_its_graphs(3, 1, 1); }
Test(gpu_randomize, significance_3_is_its_graphs) { significance_is_its_graphs(3, 0, 1); }
Test(gpu_randomize, significance_5_is_its_graphs, .timeout = 600) { significance_is_its_graphs(5, 0, 1); }
Test(gpu_randomize, directed_significance_4_is_its_graphs) { significance_is_its_graphs(4, 1, 1); }
/* two GPUs: each counts its own graphs, and every count is the CPU's */
Test(gpu_randomize, two_gpus_count_their_graphs_3) { significance_is_its_graphs(3, 0, 2); }
Test(gpu_randomize, two_gpus_count_their_graphs_4) { significance_is_its_graphs(4, 0, 2); }
Test(gpu_randomize, two_gpus_count_their_graphs_5, .timeout = 600) { significance_is_its_graphs(5, 0, 2); }
Test(gpu_randomize, two_gpus_count_their_directed_graphs_3) { significance_is_its_graphs(3, 1, 2); }
Test(gpu_randomize, two_gpus_count_their_directed_graphs_4) { significance_is_its_graphs(4, 1, 2); }

/* A switcher (the maker's buffers kept between graphs) makes, graph after
 * graph, what one call each makes: the buffers start every graph afresh.
 * A graph it was not made for is refused.  One that renumbers by degree
 * makes each graph renumbered exactly as the host would. */
static void switcher_is_one_call_each(int directed) {
  const int dev = wm_gpu_count() - 1;
  wm_graph *g = wm_test_powerlaw(800, 6, 4, 0.25, directed ? 17 : 16);
  if (directed) { /* the powerlaw graph's arcs one way: u -> v for u < v */
    uint32_t *src = malloc(g->m * sizeof *src), *dst = malloc(g->m * sizeof *dst);
    uint64_t k = 0;
    for (uint32_t u = 0; u < g->n; u++)
      for (uint64_t i = g->offsets[u]; i < g->offsets[u + 1]; i++)
        if (g->adj[i] > u) src[k] = u, dst[k++] = g->adj[i];
    wm_graph *d = NULL;
    wm_error err;
    cr_assert_eq(wm_graph_from_arcs(src, dst, k, g->n, 1, &d, &err), WM_OK, "%s", err.msg);
    free(src), free(dst);
    wm_graph_destroy(g);
    g = d;
  }
  wm_gpu_switcher *w = NULL;
  wm_error err;
  cr_assert_eq(wm_gpu_switcher_create(g, dev, &w, &err), WM_OK, "%s", err.msg);
  for (uint64_t i = 0; i < 4; i++) {
    wm_randomize_stats one, kept;
    wm_graph *a = on_gpu(g, 9, i, dev, 10, &one), *b = NULL;
    const wm_randomize_options o = {.method = WM_RANDOMIZE_SWITCH, .seed = 9, .index = i, .swaps_per_edge = 10,
                                    .use_gpu = 1, .gpu = dev, .switcher = w};
    cr_assert_eq(wm_randomize(g, &o, &b, &kept, &err), WM_OK, "%s", err.msg);
    cr_assert(wm_test_same_graph(a, b), "graph %llu: the switcher made another graph", (unsigned long long)i);
    cr_assert_eq(kept.accepted, one.accepted, "graph %llu", (unsigned long long)i);
    cr_assert_eq(kept.edges_kept, one.edges_kept, "graph %llu", (unsigned long long)i);
    wm_graph_destroy(a), wm_graph_destroy(b);
  }
  wm_graph *other = wm_test_ring(50, 3, directed);
  const wm_randomize_options o = {.method = WM_RANDOMIZE_SWITCH, .seed = 9, .swaps_per_edge = 10, .use_gpu = 1,
                                  .gpu = dev, .switcher = w};
  wm_graph *r = NULL;
  wm_randomize_stats st;
  cr_assert_eq(wm_randomize(other, &o, &r, &st, &err), WM_EUSAGE);
  cr_assert(strstr(err.msg, "another graph"), "%s", err.msg);
  cr_assert_null(r);
  wm_graph_destroy(other);
  wm_gpu_switcher_destroy(w);
  /* renumbered by degree on the device: the one-shot graph renumbered on the host */
  wm_graph *sorted = NULL;
  uint32_t *old_of = NULL;
  cr_assert_eq(wm_graph_relabel_by_degree_map(g, &sorted, &old_of, &err), WM_OK, "%s", err.msg);
  cr_assert_eq(wm_gpu_switcher_create_renumbered(g, sorted, old_of, dev, &w, &err), WM_OK, "%s", err.msg);
  free(old_of);
  for (uint64_t i = 0; i < 3; i++) {
    wm_randomize_stats one, kept;
    wm_graph *a = on_gpu(g, 9, i, dev, 10, &one), *as = NULL, *b = NULL;
    cr_assert_eq(wm_graph_relabel_by_degree(a, &as, &err), WM_OK, "%s", err.msg);
    const wm_randomize_options o = {.method = WM_RANDOMIZE_SWITCH, .seed = 9, .index = i, .swaps_per_edge = 10,
                                    .use_gpu = 1, .gpu = dev, .switcher = w};
    cr_assert_eq(wm_randomize(sorted, &o, &b, &kept, &err), WM_OK, "%s", err.msg);
    cr_assert(wm_test_same_graph(as, b) && !memcmp(as->offsets, b->offsets, ((size_t)g->n + 1) * sizeof *b->offsets),
              "graph %llu: not the one-shot graph renumbered", (unsigned long long)i);
    cr_assert_eq(kept.accepted, one.accepted, "graph %llu", (unsigned long long)i);
    cr_assert_eq(kept.edges_kept, one.edges_kept, "graph %llu", (unsigned long long)i);
    cr_assert(b->flags & WM_GRAPH_DEGREE_SORTED);
    wm_graph_destroy(a), wm_graph_destroy(as), wm_graph_destroy(b);
  }
  wm_gpu_switcher_destroy(w);
  wm_graph_destroy(sorted);
  wm_graph_destroy(g);
}

Test(gpu_randomize, switcher_is_one_call_each) { switcher_is_one_call_each(0); }
Test(gpu_randomize, directed_switcher_is_one_call_each) { switcher_is_one_call_each(1); }

/* Curveball stays on the CPU: the call says so. */
Test(gpu_randomize, curveball_is_made_on_the_cpu) {
  warpmatch_context *ctx = NULL;
  cr_assert_eq(warpmatch_context_create(&ctx), WARPMATCH_OK);
  wm_graph *w = wm_test_powerlaw(200, 6, 2, 0.25, 3);
  warpmatch_graph *g = wm_test_api_graph(ctx, w, 0);
  wm_graph_destroy(w);
  warpmatch_significance_row rows[2];
  warpmatch_significance_options o;
  warpmatch_significance_options_init(&o);
  o.graphs = 3, o.method = WARPMATCH_RANDOMIZE_CURVEBALL, o.device = WARPMATCH_DEVICE_GPU;
  warpmatch_significance_result res = {.size = sizeof res};
  cr_assert_eq(warpmatch_motif_significance(ctx, g, 3, &o, rows, NULL, &res), WARPMATCH_OK, "%s",
               warpmatch_last_error(ctx));
  cr_assert_eq(res.randomize_device, WARPMATCH_DEVICE_CPU);
  cr_assert_eq(res.randomize_gpus, 0);
  cr_assert_eq(res.device, WARPMATCH_DEVICE_GPU);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

/* Graph i's randomness is (seed, i)'s alone: GPU 1 makes GPU 0's graph,
 * and 2 GPUs give 1 GPU's table and random counts. */
Test(gpu_randomize, two_gpus_give_one_gpus_answer) {
  if (wm_gpu_count() < 2) cr_skip("this host has %d GPU: two GPUs need two", wm_gpu_count());
  wm_graph *w = wm_test_powerlaw(3000, 8, 5, 0.25, 21);
  wm_graph *a = on_gpu(w, 7, 5, 0, 10, NULL), *b = on_gpu(w, 7, 5, 1, 10, NULL);
  cr_assert(wm_test_same_graph(a, b), "GPU 1 made another graph than GPU 0 of the same (seed, index)");
  wm_graph_destroy(a), wm_graph_destroy(b);
  warpmatch_context *ctx = NULL;
  cr_assert_eq(warpmatch_context_create(&ctx), WARPMATCH_OK);
  warpmatch_graph *g = wm_test_api_graph(ctx, w, 0);
  wm_graph_destroy(w);
  enum { GRAPHS = 7, CLASSES = 6 };
  warpmatch_significance_row r1[CLASSES], r2[CLASSES];
  warpmatch_motif m1[GRAPHS * CLASSES], m2[GRAPHS * CLASSES];
  warpmatch_significance_options o;
  warpmatch_significance_options_init(&o);
  o.graphs = GRAPHS, o.seed = 3, o.device = WARPMATCH_DEVICE_GPU;
  warpmatch_significance_result s1 = {.size = sizeof s1}, s2 = {.size = sizeof s2};
  cr_assert_eq(warpmatch_motif_significance(ctx, g, 4, &o, r1, m1, &s1), WARPMATCH_OK, "%s",
               warpmatch_last_error(ctx));
  cr_assert_eq(warpmatch_set_gpus(ctx, 2), WARPMATCH_OK);
  cr_assert_eq(warpmatch_motif_significance(ctx, g, 4, &o, r2, m2, &s2), WARPMATCH_OK, "%s",
               warpmatch_last_error(ctx));
  cr_assert_eq(s1.randomize_gpus, 1);
  cr_assert_eq(s2.randomize_gpus, 2);
  cr_assert_eq(s1.accepted, s2.accepted);
  cr_assert_eq(s1.edges_kept, s2.edges_kept);
  for (int i = 0; i < GRAPHS * CLASSES; i++)
    cr_assert(m1[i].count == m2[i].count && m1[i].count_high == m2[i].count_high, "graph %d class %s", i / CLASSES,
              m1[i].name);
  for (int c = 0; c < CLASSES; c++)
    cr_assert(r1[c].mean == r2[c].mean && r1[c].sd == r2[c].sd, "class %s", r1[c].motif.name);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

/* The program: the randomisation line and the JSON say where the graphs
 * were made; the same seed gives the same table twice; more GPUs than the
 * host has is a device error (exit 3). */
Test(gpu_randomize, cli_says_where_the_graphs_were_made) {
  char *text = malloc(1 << 16);
  size_t len = 0;
  uint64_t s = 99;
  for (int e = 0; e < 800; e++)
    len += (size_t)sprintf(text + len, "%u %u\n", (unsigned)(wm_test_rand(&s) % 200), (unsigned)(wm_test_rand(&s) % 200));
  wm_test_files f;
  wm_test_graph_file(&f, text);
  free(text);
  char *out, *err, *out2, *err2;
  int rc = wm_test_run(&out, &err, "motifs %s --size 3 --random 4 --seed 2 --device gpu --no-cache", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(strstr(out, "randomisation: switch on 1 GPU (rounds of disjoint pairs), 10 swaps per edge: "), "%s", out);
  cr_assert(strstr(out, "randomise ") && strstr(out, " s (GPU), count "), "%s", out);
  rc = wm_test_run(&out2, &err2, "motifs %s --size 3 --random 4 --seed 2 --device gpu --no-cache", f.graph);
  cr_assert_eq(rc, 0, "%s", err2);
  const char *t1 = strstr(out, "\nname"), *t2 = strstr(out2, "\nname");
  cr_assert(t1 && t2);
  cr_assert(!strncmp(t1, t2, (size_t)(strstr(t1, "\np(>=)") - t1)), "the same seed, another table:\n%s\n%s", out, out2);
  free(out), free(err), free(out2), free(err2);
  rc = wm_test_run(&out, &err, "motifs %s --size 3 --random 4 --device gpu --json --quiet --no-cache", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(strstr(out, "\"randomize_device\":\"gpu\"") && strstr(out, "\"randomize_gpus\":1"), "%s", out);
  free(out), free(err);
  rc = wm_test_run(&out, &err, "motifs %s --size 3 --random 4 --device gpu --gpus %d --no-cache", f.graph,
                   wm_gpu_count() + 1);
  cr_assert_eq(rc, 3, "%s", err);
  cr_assert(strstr(err, "GPUs asked for, but this host has"), "%s", err);
  free(out), free(err);
  wm_test_rmdir(f.dir);
}
