/* The 5-vertex orbits' GPU pieces against their CPU oracles, vertex by
 * vertex and arc by arc: the clique sums (wm_orbit_clique_sums_gpu ==
 * wm_orbit_clique_sums_cpu) and the 5-cycles through each vertex
 * (wm_orbit_cycles5_gpu == wm_orbit_cycles5_from, counts or error word for
 * word, from 0 and from starts near 2^64), on random graphs, a power-law
 * graph, a hub over a sparse graph, a star, K12, an empty and a 2-vertex
 * graph and Kronecker graphs; each as built (the call uploads it) and
 * renumbered by degree with the graph kept on the device (gg); the clique
 * sums also with every top edge walked by a block.  Then both over two
 * GPUs (shared counters, and the static deal), against the CPU on a hub
 * graph and Kronecker graphs, and the clique sums with every top edge by
 * blocks there too.  A GPU suite: without a device it reports SKIPPED
 * (gpu_main.c), the two-GPU case with one. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "orbit_cliques5.h"
#include "orbit_cycles5.h"
#include "testutil.h"

/* Five vertex arrays and an arc array, filled with a pattern that no
 * count has, so that an entry the call leaves alone fails. */
typedef struct sums {
  uint64_t *w[6];
  wm_orbit_clique_sums s;
} sums;

static void sums_init(sums *x, const wm_graph *g) {
  for (int i = 0; i < 6; i++) {
    const size_t len = (i < 5 ? g->n : g->m) + 1;
    x->w[i] = malloc(len * sizeof *x->w[i]);
    cr_assert(x->w[i]);
    memset(x->w[i], 0xA5, len * sizeof *x->w[i]);
  }
  x->s = (wm_orbit_clique_sums){x->w[0], x->w[1], x->w[2], x->w[3], x->w[4], x->w[5]};
}

static void sums_free(sums *x) {
  for (int i = 0; i < 6; i++) free(x->w[i]);
}

/* The devices the calls run over (0: the current one). */
static int gpus_now = 0;

static void same_cliques(const wm_graph *g, const struct wm_gpu_graph *gg, const char *what) {
  static const char *name[6] = {"s61", "s66", "s70", "s71", "k5", "k4e"};
  sums cpu, gpu;
  sums_init(&cpu, g), sums_init(&gpu, g);
  wm_error err;
  cr_assert_eq(wm_orbit_clique_sums_cpu(g, &cpu.s, &err), WM_OK, "%s: CPU: %s", what, err.msg);
  double ms = 0;
  cr_assert_eq(wm_orbit_clique_sums_gpu(g, gg, gpus_now, &gpu.s, &ms, &err), WM_OK, "%s: GPU: %s", what, err.msg);
  cr_assert_geq(ms, 0);
  for (int i = 0; i < 6; i++)
    for (uint64_t j = 0; j < (i < 5 ? g->n : g->m); j++)
      cr_assert_eq(gpu.w[i][j], cpu.w[i][j], "%s: %s[%llu]: GPU %llu != CPU %llu", what, name[i],
                   (unsigned long long)j, (unsigned long long)gpu.w[i][j], (unsigned long long)cpu.w[i][j]);
  sums_free(&cpu), sums_free(&gpu);
}

/* The same return code and message, or the same counts. */
static void same_cycles_from(const wm_graph *g, const struct wm_gpu_graph *gg, uint64_t start, const char *what) {
  uint64_t *cpu = calloc(g->n + 1, 8), *gpu = calloc(g->n + 1, 8);
  cr_assert(cpu && gpu);
  wm_error ce, ge;
  memset(&ce, 0, sizeof ce), memset(&ge, 0, sizeof ge);
  const int crc = wm_orbit_cycles5_from(g, start, cpu, &ce);
  const int grc = wm_orbit_cycles5_gpu(g, gg, gpus_now, start, gpu, NULL, &ge);
  cr_assert_eq(grc, crc, "%s, from %llu: GPU %d (%s), CPU %d (%s)", what, (unsigned long long)start, grc,
               grc ? ge.msg : "", crc, crc ? ce.msg : "");
  if (crc) cr_assert_str_eq(ge.msg, ce.msg, "%s, from %llu", what, (unsigned long long)start);
  else
    for (uint32_t v = 0; v < g->n; v++)
      cr_assert_eq(gpu[v], cpu[v], "%s, from %llu: c5[%u]: GPU %llu != CPU %llu", what, (unsigned long long)start, v,
                   (unsigned long long)gpu[v], (unsigned long long)cpu[v]);
  free(cpu), free(gpu);
}

/* From 0, from where the most at a vertex is 2^64 - 1, and one past. */
static void same_cycles(const wm_graph *g, const struct wm_gpu_graph *gg, const char *what) {
  uint64_t *c5 = calloc(g->n + 1, 8), most = 0;
  wm_error err;
  cr_assert_eq(wm_orbit_cycles5(g, c5, &err), WM_OK, "%s: %s", what, err.msg);
  for (uint32_t v = 0; v < g->n; v++) most = c5[v] > most ? c5[v] : most;
  free(c5);
  same_cycles_from(g, gg, 0, what);
  same_cycles_from(g, gg, UINT64_MAX - most, what);
  if (most) same_cycles_from(g, gg, UINT64_MAX - most + 1, what);
}

/* g as built, then by degree and kept on the device; g is freed. */
static void same_counts(wm_graph *g, const char *what) {
  same_cliques(g, NULL, what);
  same_cycles(g, NULL, what);
  wm_graph *d = wm_test_by_degree(g);
  wm_gpu_graph *gg = NULL;
  wm_error err;
  cr_assert_eq(wm_gpu_graph_create(d, gpus_now > 1 ? gpus_now : 1, &gg, &err), WM_OK, "%s", err.msg);
  same_cliques(d, gg, what);
  same_cycles(d, gg, what);
  wm_gpu_graph_destroy(gg);
  wm_graph_destroy(d);
  wm_graph_destroy(g);
}

static wm_graph *of_pairs(uint32_t n, const uint32_t *pairs, uint64_t count) {
  uint32_t *s = malloc((count + 1) * 4), *d = malloc((count + 1) * 4);
  for (uint64_t i = 0; i < count; i++) s[i] = pairs[2 * i], d[i] = pairs[2 * i + 1];
  return wm_test_graph_of_arcs(n, s, d, count);
}

Test(gpu_orbits5, random_and_power_law_graphs, .timeout = 900) {
  const struct {
    uint32_t n;
    double p;
  } cases[] = {{40, 0.3}, {120, 0.06}, {60, 0.5}, {400, 0.05}, {1000, 0.01}};
  for (unsigned i = 0; i < sizeof cases / sizeof *cases; i++) {
    char what[64];
    snprintf(what, sizeof what, "er(%u, %.2f)", cases[i].n, cases[i].p);
    same_counts(wm_test_er(cases[i].n, cases[i].p, 7 + i), what);
  }
  same_counts(wm_test_powerlaw(2000, 6, 6, 0.1, 4), "powerlaw-2000");
  /* three hubs of about 900 neighbours, 500 of them common to each two:
   * heavy top edges and 5-cycle tops, walked by blocks */
  same_counts(wm_test_powerlaw(1500, 20, 3, 0.6, 9), "powerlaw-1500, 3 hubs");
  same_counts(wm_test_powerlaw(400, 30, 2, 1.0, 11), "powerlaw-400, 2 hubs to all");
}

Test(gpu_orbits5, hubs_stars_cliques_and_tiny_graphs, .timeout = 900) {
  same_counts(wm_test_hub_graph(3000, 0.9, 0.002, 5), "hub-3000");
  same_counts(wm_test_hub_graph(800, 0.7, 0.05, 6), "hub-800");
  uint32_t *star = malloc(2 * 500 * 4);
  for (uint32_t v = 1; v <= 500; v++) star[2 * (v - 1)] = 0, star[2 * (v - 1) + 1] = v;
  same_counts(of_pairs(501, star, 500), "star-500");
  free(star);
  same_counts(wm_test_er(12, 1.0, 1), "K12");
  same_counts(wm_test_er(30, 1.0, 1), "K30");
  same_counts(of_pairs(5, NULL, 0), "empty-5");
  const uint32_t edge[2] = {0, 1};
  same_counts(of_pairs(2, edge, 1), "edge-2");
}

Test(gpu_orbits5, kronecker, .timeout = 900) {
  same_counts(wm_test_kron(9, 1), "kronecker 9");
  same_counts(wm_test_kron(12, 2), "kronecker 12");
}

/* g as built and by degree (kept on the device), the clique sums alone;
 * g is freed. */
static void same_cliques_both(wm_graph *g, const char *what) {
  same_cliques(g, NULL, what);
  wm_graph *d = wm_test_by_degree(g);
  wm_gpu_graph *gg = NULL;
  wm_error err;
  cr_assert_eq(wm_gpu_graph_create(d, gpus_now > 1 ? gpus_now : 1, &gg, &err), WM_OK, "%s", err.msg);
  same_cliques(d, gg, what);
  wm_gpu_graph_destroy(gg);
  wm_graph_destroy(d);
  wm_graph_destroy(g);
}

/* The clique sums with every top edge walked by a block (the hook
 * WM_TEST_ORBIT_HEAVY=1), where on their own only the edges of more than
 * 256 triangles are: the blocks' barriers, shared bitmaps and counters
 * under real concurrency, against the CPU. */
Test(gpu_orbits5, clique_sums_with_every_top_edge_by_blocks, .timeout = 900) {
  setenv("WM_TEST_ORBIT_HEAVY", "1", 1);
  same_cliques_both(wm_test_kron(12, 2), "kronecker 12, all by blocks");
  same_cliques_both(wm_test_powerlaw(2000, 6, 6, 0.1, 4), "powerlaw-2000, all by blocks");
  same_cliques_both(wm_test_er(40, 1.0, 1), "K40, all by blocks");
  unsetenv("WM_TEST_ORBIT_HEAVY");
}

/* Over two GPUs: the top edges, triangles and tops shared through device
 * 0's counters, then dealt statically (WM_GPU_STATIC_SPLIT=1: the clique
 * sums then run on one device), each device's sums added: the CPU's, on a
 * hub graph (a hub's 5-cycle top and heavy top edges by blocks) and
 * Kronecker graphs. */
Test(gpu_orbits5, over_two_gpus, .timeout = 900) {
  const int all = wm_gpu_count();
  if (all < 2) cr_skip_test("%d GPU(s) here: the two-GPU case needs 2", all);
  gpus_now = 2;
  for (int split = 0; split < 2; split++) {
    if (split) setenv("WM_GPU_STATIC_SPLIT", "1", 1);
    char what[96];
    snprintf(what, sizeof what, "hub-3000 on 2 GPUs%s", split ? ", static" : "");
    same_counts(wm_test_hub_graph(3000, 0.9, 0.002, 5), what);
    snprintf(what, sizeof what, "powerlaw-1500, 3 hubs, on 2 GPUs%s", split ? ", static" : "");
    same_counts(wm_test_powerlaw(1500, 20, 3, 0.6, 9), what);
    snprintf(what, sizeof what, "kronecker 12 on 2 GPUs%s", split ? ", static" : "");
    same_counts(wm_test_kron(12, 2), what);
    unsetenv("WM_GPU_STATIC_SPLIT");
  }
  same_counts(wm_test_er(30, 1.0, 1), "K30 on 2 GPUs");
  same_counts(wm_test_er(5, 0.0, 1), "empty-5 on 2 GPUs");
  /* device 0's heavy list walked by both devices' blocks, each ranking g itself */
  setenv("WM_TEST_ORBIT_HEAVY", "1", 1);
  same_cliques_both(wm_test_kron(12, 2), "kronecker 12 on 2 GPUs, all by blocks");
  same_cliques_both(wm_test_er(40, 1.0, 1), "K40 on 2 GPUs, all by blocks");
  unsetenv("WM_TEST_ORBIT_HEAVY");
}

/* More GPUs than the host has: WM_EDEVICE saying so, from each piece. */
Test(gpu_orbits5, more_gpus_than_the_host_has_is_a_device_error) {
  wm_graph *g = wm_test_er(30, 0.3, 11);
  const int gpus = wm_gpu_count() + 1;
  sums s;
  sums_init(&s, g);
  uint64_t *c5 = calloc(g->n + 1, 8);
  wm_error err;
  cr_assert_eq(wm_orbit_clique_sums_gpu(g, NULL, gpus, &s.s, NULL, &err), WM_EDEVICE);
  cr_assert(strstr(err.msg, "GPUs asked for"), "%s", err.msg);
  cr_assert_eq(wm_orbit_cycles5_gpu(g, NULL, gpus, 0, c5, NULL, &err), WM_EDEVICE);
  cr_assert(strstr(err.msg, "GPUs asked for"), "%s", err.msg);
  free(c5);
  sums_free(&s);
  wm_graph_destroy(g);
}
