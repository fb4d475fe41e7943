/* The orbit formula with its aggregates on the GPU (gpu_orbit_sums.cu)
 * against the CPU formula and the enumerator, vertex by vertex and orbit by
 * orbit: random graphs of several densities, stars, a hub of degree far
 * above the rest, cliques K5..K8, facebook, Kronecker graphs (also with
 * every 4-cycle top and arc of the aggregates walked by a block); the same for
 * the 5-vertex formula's sums on the GPU (gpu_orbit_sums5.cu); the API's
 * device choice, the overflow hook through the GPU path, and the command
 * line's --device gpu output. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "device.h"
#include "orbits.h"
#include "testutil.h"
#include "warpmatch.h"

static uint64_t *counts_on(const wm_graph *g, unsigned k, int method, int gpu, int gpus) {
  const size_t cells = (size_t)g->n * wm_orbit_count(k) + 1;
  uint64_t *c = malloc(cells * sizeof *c);
  cr_assert(c);
  memset(c, 0xA5, cells * sizeof *c); /* a row the executor leaves alone fails the comparison */
  wm_orbit_run run = {k, method, 0, gpu, 0, NULL, NULL, gpus, NULL, NULL, NULL};
  wm_error err;
  cr_assert_eq(wm_orbits(g, &run, c, &err), WM_OK, "%d GPU(s): %s", gpus, err.msg);
  return c;
}

static uint64_t *counts_of(const wm_graph *g, unsigned k, int method, int gpu) {
  return counts_on(g, k, method, gpu, 1);
}

static void assert_rows(const wm_graph *g, unsigned k, const uint64_t *a, const uint64_t *b, const char *what,
                        const char *who) {
  const unsigned orbits = wm_orbit_count(k);
  for (uint32_t v = 0; v < g->n; v++)
    for (unsigned o = 0; o < orbits; o++) {
      const size_t i = (size_t)v * orbits + o;
      cr_assert_eq(a[i], b[i], "%s, size %u, %s: vertex %u orbit %u: GPU %llu != %llu", what, k, who, v, o,
                   (unsigned long long)a[i], (unsigned long long)b[i]);
    }
}

/* GPU formula == CPU formula for sizes 2..4, and == the enumerator where
 * `enumerate` (the graph's connected subgraphs are few enough). */
static void same_orbits(wm_graph *g, const char *what, int enumerate) {
  for (unsigned k = 2; k <= 4; k++) {
    uint64_t *gpu = counts_of(g, k, WM_ORBIT_FORMULA, 1);
    uint64_t *cpu = counts_of(g, k, WM_ORBIT_FORMULA, 0);
    assert_rows(g, k, gpu, cpu, what, "CPU formula");
    if (enumerate) {
      uint64_t *en = counts_of(g, k, WM_ORBIT_ENUMERATE, 0);
      assert_rows(g, k, gpu, en, what, "enumerator");
      free(en);
    }
    free(gpu);
    free(cpu);
  }
  wm_graph_destroy(g);
}

/* The 5-vertex formula with its sums on the GPU == on the CPU, and == the
 * enumerator where `enumerate`; g is kept. */
static void same_orbits5(const wm_graph *g, const char *what, int enumerate) {
  uint64_t *gpu = counts_of(g, 5, WM_ORBIT_FORMULA, 1);
  uint64_t *cpu = counts_of(g, 5, WM_ORBIT_FORMULA, 0);
  assert_rows(g, 5, gpu, cpu, what, "CPU formula");
  if (enumerate) {
    uint64_t *en = counts_of(g, 5, WM_ORBIT_ENUMERATE, 0);
    assert_rows(g, 5, gpu, en, what, "enumerator");
    free(en);
  }
  free(gpu);
  free(cpu);
}

static wm_graph *of_arcs(uint32_t n, uint64_t cap, void (*fill)(uint32_t *, uint32_t *, uint64_t *, uint64_t *),
                         uint64_t seed) {
  uint32_t *src = malloc(cap * 4), *dst = malloc(cap * 4);
  uint64_t m = 0;
  fill(src, dst, &m, &seed);
  cr_assert_leq(m, cap);
  return wm_test_graph_of_arcs(n, src, dst, m);
}

Test(gpu_orbits, random_graphs_of_several_densities, .timeout = 600) {
  const struct {
    uint32_t n;
    double p;
  } cases[] = {{12, 0.5}, {40, 0.3}, {60, 0.6}, {200, 0.05}, {300, 0.02}, {150, 0.15}};
  for (unsigned i = 0; i < sizeof cases / sizeof *cases; i++)
    for (uint64_t seed = 1; seed <= 3; seed++) {
      char what[64];
      snprintf(what, sizeof what, "G(%u, %.2f) seed %llu", cases[i].n, cases[i].p, (unsigned long long)seed);
      same_orbits(wm_test_er(cases[i].n, cases[i].p, seed * 31 + i), what, 1);
    }
  same_orbits(wm_test_powerlaw(2000, 6, 6, 0.1, 4), "powerlaw-2000", 1);
}

Test(gpu_orbits, five_vertex_sums_on_random_graphs, .timeout = 900) {
  const struct {
    uint32_t n;
    double p;
  } cases[] = {{12, 0.5}, {40, 0.3}, {40, 0.8}, {60, 0.6}, {200, 0.05}, {300, 0.02}, {150, 0.15}};
  for (unsigned i = 0; i < sizeof cases / sizeof *cases; i++)
    for (uint64_t seed = 1; seed <= 2; seed++) {
      char what[64];
      snprintf(what, sizeof what, "G(%u, %.2f) seed %llu", cases[i].n, cases[i].p, (unsigned long long)seed);
      wm_graph *g = wm_test_er(cases[i].n, cases[i].p, seed * 31 + i);
      same_orbits5(g, what, cases[i].n <= 60);
      wm_graph_destroy(g);
    }
  wm_graph *g = wm_test_powerlaw(2000, 6, 6, 0.1, 4);
  same_orbits5(g, "powerlaw-2000", 0);
  wm_graph_destroy(g);
}

static void star_300(uint32_t *s, uint32_t *d, uint64_t *m, uint64_t *seed) {
  (void)seed;
  for (uint32_t v = 1; v <= 300; v++) s[*m] = 0, d[(*m)++] = v;
}

/* 20,000 leaves on vertex 0 and a sparse random graph on 2,000 more
 * vertices, some leaves joined to it: the hub's row is 10x any other, and
 * its two-hop walk and every leaf's run through its row. */
static void hub_and_tail(uint32_t *s, uint32_t *d, uint64_t *m, uint64_t *seed) {
  for (uint32_t v = 1; v <= 20000; v++) s[*m] = 0, d[(*m)++] = v;
  for (uint32_t i = 0; i < 8000; i++) {
    s[*m] = 20001 + (uint32_t)(wm_test_rand(seed) % 2000);
    d[(*m)++] = 1 + (uint32_t)(wm_test_rand(seed) % 22000);
  }
}

static void with_isolated(uint32_t *s, uint32_t *d, uint64_t *m, uint64_t *seed) {
  for (uint32_t i = 0; i < 400; i++) {
    s[*m] = (uint32_t)(wm_test_rand(seed) % 100) * 7;
    d[(*m)++] = (uint32_t)(wm_test_rand(seed) % 100) * 7;
  }
}

Test(gpu_orbits, stars_hubs_cliques_and_isolated_vertices, .timeout = 600) {
  same_orbits(of_arcs(301, 300, star_300, 0), "star of 300 leaves", 1);
  /* the enumerator would meet C(20000, 3) 3-stars: the CPU formula is its
   * stand-in here (test_orbits.c holds it to the enumerator on hubs) */
  same_orbits(of_arcs(22001, 28000, hub_and_tail, 7), "hub of 20,000 leaves and a tail", 0);
  same_orbits(of_arcs(700, 400, with_isolated, 5), "vertices mostly isolated", 1);
  for (uint32_t k = 5; k <= 8; k++) {
    char what[16];
    snprintf(what, sizeof what, "K%u", k);
    same_orbits(wm_test_er(k, 1.0, 1), what, 1);
    /* K_k's 4-cliques per vertex: C(k - 1, 3), orbit 14 */
    wm_graph *g = wm_test_er(k, 1.0, 1);
    uint64_t *c = counts_of(g, 4, WM_ORBIT_FORMULA, 1);
    const uint64_t want = (uint64_t)(k - 1) * (k - 2) * (k - 3) / 6;
    for (uint32_t v = 0; v < k; v++) cr_assert_eq(c[(size_t)v * 15 + 14], want, "K%u vertex %u", k, v);
    free(c);
    wm_graph_destroy(g);
  }
}

/* A hub of 1,500 leaves (C(1500, 3) sets of 4 on it: a warp's lists and
 * tallies at their longest, its tasks cut by ranges of v1) over a sparse
 * tail; a star; isolated vertices; cliques. */
static void hub_1500(uint32_t *s, uint32_t *d, uint64_t *m, uint64_t *seed) {
  for (uint32_t v = 1; v <= 1500; v++) s[*m] = 0, d[(*m)++] = v;
  for (uint32_t i = 0; i < 3000; i++) {
    s[*m] = 1 + (uint32_t)(wm_test_rand(seed) % 2500);
    d[(*m)++] = 1 + (uint32_t)(wm_test_rand(seed) % 2500);
  }
}

Test(gpu_orbits, five_vertex_sums_on_stars_hubs_cliques_and_isolated_vertices, .timeout = 900) {
  const struct {
    uint32_t n;
    uint64_t cap;
    void (*fill)(uint32_t *, uint32_t *, uint64_t *, uint64_t *);
    const char *what;
    int enumerate;
  } cases[] = {{301, 300, star_300, "star of 300 leaves", 0},
               {2501, 4500, hub_1500, "hub of 1,500 leaves and a tail", 0},
               {700, 400, with_isolated, "vertices mostly isolated", 1}};
  for (unsigned i = 0; i < sizeof cases / sizeof *cases; i++) {
    wm_graph *g = of_arcs(cases[i].n, cases[i].cap, cases[i].fill, 7);
    same_orbits5(g, cases[i].what, cases[i].enumerate);
    wm_graph_destroy(g);
  }
  for (uint32_t k = 5; k <= 8; k++) {
    char what[16];
    snprintf(what, sizeof what, "K%u", k);
    wm_graph *g = wm_test_er(k, 1.0, 1);
    same_orbits5(g, what, 1);
    /* K_k's 5-cliques per vertex: C(k - 1, 4), orbit 72 */
    uint64_t *c = counts_of(g, 5, WM_ORBIT_FORMULA, 1);
    const uint64_t want = (uint64_t)(k - 1) * (k - 2) * (k - 3) * (k - 4) / 24;
    for (uint32_t v = 0; v < k; v++) cr_assert_eq(c[(size_t)v * 73 + 72], want, "K%u vertex %u", k, v);
    free(c);
    wm_graph_destroy(g);
  }
}

Test(gpu_orbits, five_vertex_sums_on_facebook_and_kronecker, .timeout = 900) {
  wm_graph *g = wm_test_load_real("facebook_combined.txt");
  same_orbits5(g, "facebook", 0);
  wm_graph_destroy(g);
  g = wm_test_kron(9, 1);
  same_orbits5(g, "kronecker 9", 1);
  wm_graph_destroy(g);
  g = wm_test_kron(11, 3);
  same_orbits5(g, "kronecker 11", 0);
  wm_graph_destroy(g);
}

/* The 5-vertex orbits over every GPU of the host (the non-induced counts'
 * walks, clique sums and 5-cycles split between them) equal one GPU's, on
 * graphs with hubs and one with fewer vertices than GPUs. */
Test(gpu_orbits, five_vertex_sums_over_several_gpus, .timeout = 900) {
  int all = wm_gpu_count();
  if (all < 2) cr_skip_test("%d GPU(s) here: the multi-GPU cases need 2", all);
  if (all > 16) all = 16;
  wm_graph *graphs[] = {wm_test_load_real("facebook_combined.txt"), of_arcs(2501, 4500, hub_1500, 7), wm_test_kron(11, 3),
                        wm_test_er(3, 1.0, 1)};
  const char *names[] = {"facebook", "hub of 1,500 leaves", "kronecker 11", "a triangle"};
  for (unsigned i = 0; i < sizeof graphs / sizeof *graphs; i++) {
    uint64_t *one = counts_on(graphs[i], 5, WM_ORBIT_FORMULA, 1, 1);
    for (int gpus = 2; gpus <= all; gpus *= 2) {
      char what[64];
      snprintf(what, sizeof what, "%s on %d GPUs", names[i], gpus);
      uint64_t *several = counts_on(graphs[i], 5, WM_ORBIT_FORMULA, 1, gpus);
      assert_rows(graphs[i], 5, several, one, what, "one GPU");
      free(several);
    }
    free(one);
    wm_graph_destroy(graphs[i]);
  }
}

/* The 5-vertex orbits over two GPUs (the pieces' work from device 0's
 * counters, then with WM_GPU_STATIC_SPLIT=1 dealt statically) equal the
 * CPU's, on a hub graph and Kronecker graphs. */
Test(gpu_orbits, five_vertex_orbits_over_two_gpus_equal_the_cpu, .timeout = 900) {
  const int all = wm_gpu_count();
  if (all < 2) cr_skip_test("%d GPU(s) here: the two-GPU case needs 2", all);
  wm_graph *graphs[] = {wm_test_hub_graph(3000, 0.9, 0.002, 5), of_arcs(2501, 4500, hub_1500, 7), wm_test_kron(12, 2),
                        wm_test_kron(13, 3)};
  const char *names[] = {"hub-3000", "hub of 1,500 leaves", "kronecker 12", "kronecker 13"};
  for (unsigned i = 0; i < sizeof graphs / sizeof *graphs; i++) {
    uint64_t *cpu = counts_on(graphs[i], 5, WM_ORBIT_FORMULA, 0, 1);
    for (int split = 0; split < 2; split++) {
      if (split) setenv("WM_GPU_STATIC_SPLIT", "1", 1);
      char what[64];
      snprintf(what, sizeof what, "%s on 2 GPUs%s", names[i], split ? ", static" : "");
      uint64_t *two = counts_on(graphs[i], 5, WM_ORBIT_FORMULA, 1, 2);
      assert_rows(graphs[i], 5, two, cpu, what, "CPU");
      free(two);
      unsetenv("WM_GPU_STATIC_SPLIT");
    }
    free(cpu);
    wm_graph_destroy(graphs[i]);
  }
}

/* Asked to stop, the 5-vertex orbits on two GPUs end WM_EINTERRUPTED. */
Test(gpu_orbits, an_interrupt_ends_the_five_vertex_orbits_on_two_gpus) {
  const int all = wm_gpu_count();
  if (all < 2) cr_skip_test("%d GPU(s) here: the two-GPU case needs 2", all);
  wm_graph *g = wm_test_kron(11, 3);
  uint64_t *c = malloc((size_t)g->n * 73 * sizeof *c);
  wm_orbit_run run = {5, WM_ORBIT_FORMULA, 0, 1, 0, NULL, NULL, 2, NULL, NULL, NULL};
  wm_monitor mon;
  memset(&mon, 0, sizeof mon);
  mon.stop = 1;
  wm_monitor *was = wm_monitor_enter(&mon);
  wm_error err;
  const int rc = wm_orbits(g, &run, c, &err);
  wm_monitor_leave(was);
  wm_gpu_stop_word_free(&mon);
  cr_assert_eq(rc, WM_EINTERRUPTED, "%d: %s", rc, err.msg);
  free(c);
  wm_graph_destroy(g);
}

/* More GPUs than the host has: a device error that says so, not a count. */
Test(gpu_orbits, more_gpus_than_the_host_has_is_a_device_error) {
  wm_graph *g = wm_test_er(30, 0.3, 11);
  uint64_t *c = malloc(30 * 73 * sizeof *c);
  const int gpus = wm_gpu_count() + 1;
  wm_orbit_run run = {5, WM_ORBIT_FORMULA, 0, 1, 0, NULL, NULL, gpus, NULL, NULL, NULL};
  wm_error err;
  cr_assert_eq(wm_orbits(g, &run, c, &err), WM_EDEVICE);
  cr_assert(strstr(err.msg, "GPUs asked for") && strstr(err.msg, "this host has"), "%s", err.msg);
  free(c);
  wm_graph_destroy(g);
}

Test(gpu_orbits, facebook, .timeout = 900) {
  same_orbits(wm_test_load_real("facebook_combined.txt"), "facebook", 1);
}

Test(gpu_orbits, kronecker, .timeout = 900) {
  same_orbits(wm_test_kron(9, 1), "kronecker 9", 1);
  same_orbits(wm_test_kron(13, 2), "kronecker 13", 0);
}

/* The aggregates with every 4-cycle top and every arc of a triangle walked
 * by a block (the hook WM_TEST_ORBIT_HEAVY=1), where on their own only the
 * hubs and the dense core's arcs are: the blocks' barriers and shared
 * counters under real concurrency, against the CPU. */
Test(gpu_orbits, aggregates_with_every_top_and_arc_by_blocks, .timeout = 900) {
  setenv("WM_TEST_ORBIT_HEAVY", "1", 1);
  same_orbits(wm_test_kron(13, 2), "kronecker 13, all by blocks", 0);
  same_orbits(of_arcs(22001, 28000, hub_and_tail, 7), "hub of 20,000 leaves and a tail, all by blocks", 0);
  same_orbits(wm_test_powerlaw(2000, 6, 6, 0.1, 4), "powerlaw-2000, all by blocks", 0);
  unsetenv("WM_TEST_ORBIT_HEAVY");
}

/* ---- through the API -------------------------------------------------- */

static int api_orbits(const wm_graph *src, unsigned size, int device, uint64_t *counts, warpmatch_orbit_result *r,
                      char *msg, size_t msg_size) {
  warpmatch_context *ctx;
  warpmatch_graph *g;
  cr_assert_eq(warpmatch_context_create(&ctx), 0);
  uint32_t *s = malloc((src->m + 1) * 4), *d = malloc((src->m + 1) * 4);
  uint64_t m = 0;
  for (uint32_t v = 0; v < src->n; v++)
    for (uint64_t e = src->offsets[v]; e < src->offsets[v + 1]; e++)
      if (v < src->adj[e]) s[m] = v, d[m++] = src->adj[e];
  cr_assert_eq(warpmatch_graph_from_edges(ctx, src->n, s, d, m, 0, &g), 0, "%s", warpmatch_last_error(ctx));
  free(s);
  free(d);
  warpmatch_orbit_options o;
  warpmatch_orbit_options_init(&o);
  o.graphlet_size = size, o.device = device;
  r->size = sizeof *r;
  const int rc = warpmatch_orbits(ctx, g, &o, counts, r);
  snprintf(msg, msg_size, "%s", warpmatch_last_error(ctx));
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
  return rc;
}

Test(gpu_orbits, the_api_runs_the_formulas_on_the_gpu) {
  wm_graph *g = wm_test_er(30, 0.3, 11);
  uint64_t *gpu = malloc(30 * 73 * sizeof *gpu), *cpu = malloc(30 * 73 * sizeof *cpu);
  char msg[512];
  warpmatch_orbit_result r;
  for (int device = WARPMATCH_DEVICE_AUTO; device <= WARPMATCH_DEVICE_GPU; device += 2) { /* AUTO, GPU */
    cr_assert_eq(api_orbits(g, 4, device, gpu, &r, msg, sizeof msg), 0, "%s", msg);
    /* AUTO counts sizes 2-4 on the CPU (api/orbits.c) */
    cr_assert_eq(r.device, device == WARPMATCH_DEVICE_AUTO ? WARPMATCH_DEVICE_CPU : WARPMATCH_DEVICE_GPU,
                 "device option %d", device);
    cr_assert_eq(r.method, WARPMATCH_METHOD_FORMULA);
    cr_assert_eq(api_orbits(g, 4, WARPMATCH_DEVICE_CPU, cpu, &r, msg, sizeof msg), 0, "%s", msg);
    cr_assert_eq(r.device, WARPMATCH_DEVICE_CPU);
    assert_rows(g, 4, gpu, cpu, "G(30, 0.3) through the API", "device CPU");
    cr_assert_eq(api_orbits(g, 5, device, gpu, &r, msg, sizeof msg), 0, "%s", msg);
    /* at size 5 AUTO counts on the GPU where one is usable (this suite skips without one) */
    cr_assert_eq(r.device, WARPMATCH_DEVICE_GPU, "size 5, device option %d", device);
    cr_assert_eq(r.method, WARPMATCH_METHOD_FORMULA);
    cr_assert_eq(api_orbits(g, 5, WARPMATCH_DEVICE_CPU, cpu, &r, msg, sizeof msg), 0, "%s", msg);
    assert_rows(g, 5, gpu, cpu, "G(30, 0.3) size 5 through the API", "device CPU");
  }
  free(gpu);
  free(cpu);
  wm_graph_destroy(g);
}

/* Calls on one context: the first puts the graph on the device (the
 * context keeps it) and leaves the two-hop counters with it; the next
 * read that graph and take those counters as they are, which must be all
 * zeros again: every call equals the CPU's, sizes 3 and 4 in turn (size 3
 * neither takes nor keeps the counters).  kernel_ms is the kernels' time. */
Test(gpu_orbits, calls_on_one_context_reuse_the_graph_and_the_counters, .timeout = 600) {
  wm_graph *src = wm_test_load_real("facebook_combined.txt");
  warpmatch_context *ctx;
  warpmatch_graph *g;
  cr_assert_eq(warpmatch_context_create(&ctx), 0);
  uint32_t *s = malloc((src->m + 1) * 4), *d = malloc((src->m + 1) * 4);
  uint64_t m = 0;
  for (uint32_t v = 0; v < src->n; v++)
    for (uint64_t e = src->offsets[v]; e < src->offsets[v + 1]; e++)
      if (v < src->adj[e]) s[m] = v, d[m++] = src->adj[e];
  cr_assert_eq(warpmatch_graph_from_edges(ctx, src->n, s, d, m, 0, &g), 0, "%s", warpmatch_last_error(ctx));
  free(s);
  free(d);
  const size_t cells = (size_t)src->n * 15;
  uint64_t *gpu = malloc(cells * sizeof *gpu), *cpu = malloc(cells * sizeof *cpu);
  for (unsigned size = 3; size <= 4; size++) {
    warpmatch_orbit_options o;
    warpmatch_orbit_options_init(&o);
    o.graphlet_size = size, o.device = WARPMATCH_DEVICE_CPU;
    cr_assert_eq(warpmatch_orbits(ctx, g, &o, cpu, NULL), 0, "%s", warpmatch_last_error(ctx));
    o.device = WARPMATCH_DEVICE_GPU;
    for (int call = 0; call < 3; call++) {
      memset(gpu, 0xA5, cells * sizeof *gpu);
      warpmatch_orbit_result r;
      r.size = sizeof r;
      o.trials = call == 2 ? 3 : 0; /* the third: a warm-up and 3 timed calls */
      cr_assert_eq(warpmatch_orbits(ctx, g, &o, gpu, &r), 0, "%s", warpmatch_last_error(ctx));
      cr_assert_eq(r.device, WARPMATCH_DEVICE_GPU);
      cr_assert_eq(r.trials, call == 2 ? 3 : 1);
      cr_assert(r.kernel_ms > 0 && r.kernel_ms <= r.seconds * 1000, "kernel_ms %f, seconds %f", r.kernel_ms, r.seconds);
      char what[64];
      snprintf(what, sizeof what, "facebook, call %d on one context", call + 1);
      assert_rows(src, size, gpu, cpu, what, "device CPU");
    }
  }
  free(gpu);
  free(cpu);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
  wm_graph_destroy(src);
}

/* The test hook starts every count near 2^64: on a 10-star the centre's
 * largest count (`centre` in orbit `orbit`) passes it by one, through the
 * GPU path; one less and it lands on 2^64 - 1 exactly, a leaf's count in
 * `leaf_orbit` (`leaf`) beside it. */
static void star_overflow(unsigned size, unsigned orbit, uint64_t centre, unsigned leaf_orbit, uint64_t leaf) {
  uint32_t *s = malloc(10 * 4), *d = malloc(10 * 4);
  for (uint32_t v = 0; v < 10; v++) s[v] = 0, d[v] = v + 1;
  wm_graph *star = wm_test_graph_of_arcs(11, s, d, 10);
  const unsigned orbits = wm_orbit_count(size);
  uint64_t counts[11 * 73];
  char msg[512], start[32], want[32];
  warpmatch_orbit_result r;
  snprintf(start, sizeof start, "%llu", (unsigned long long)(UINT64_MAX - centre + 1));
  cr_assert_eq(setenv("WM_TEST_COUNT_START", start, 1), 0);
  cr_assert_eq(api_orbits(star, size, WARPMATCH_DEVICE_GPU, counts, &r, msg, sizeof msg), WARPMATCH_EINPUT);
  snprintf(want, sizeof want, "orbit %u ", orbit);
  cr_assert(strstr(msg, "vertex 0 ") && strstr(msg, want), "size %u: %s", size, msg);
  snprintf(start, sizeof start, "%llu", (unsigned long long)(UINT64_MAX - centre));
  cr_assert_eq(setenv("WM_TEST_COUNT_START", start, 1), 0);
  cr_assert_eq(api_orbits(star, size, WARPMATCH_DEVICE_GPU, counts, &r, msg, sizeof msg), 0, "%s", msg);
  cr_assert_eq(r.device, WARPMATCH_DEVICE_GPU);
  cr_assert_eq(counts[orbit], UINT64_MAX);
  cr_assert_eq(counts[orbits + leaf_orbit], UINT64_MAX - centre + leaf);
  cr_assert_eq(unsetenv("WM_TEST_COUNT_START"), 0);
  wm_graph_destroy(star);
}

/* The centre's 3-stars (orbit 7, C(10, 3) = 120), a leaf's C(9, 2) = 36
 * in orbit 6; at size 5 its 4-stars (orbit 23, C(10, 4) = 210), a leaf's
 * C(9, 3) = 84 in orbit 22. */
Test(gpu_orbits, overflow_through_the_gpu_paths_names_the_vertex_and_the_orbit) {
  star_overflow(4, 7, 120, 6, 36);
  star_overflow(5, 23, 210, 22, 84);
}

/* ---- the command line --------------------------------------------------- */

Test(gpu_orbits, the_cli_device_gpu_prints_what_device_cpu_prints) {
  char path[4096];
  wm_test_real_graph(path, sizeof path, "facebook_combined.txt");
  char *gpu = NULL, *cpu = NULL, *err = NULL;
  cr_assert_eq(wm_test_run(&gpu, &err, "orbits %s --size 4 --device gpu --no-cache", path), 0, "%s", err);
  free(err);
  cr_assert_eq(wm_test_run(&cpu, &err, "orbits %s --size 4 --device cpu --no-cache", path), 0, "%s", err);
  free(err);
  cr_assert_gt(strlen(cpu), 4039 * 30);
  cr_assert(strcmp(gpu, cpu) == 0, "the ORCA outputs differ");
  free(gpu);
  free(cpu);
  cr_assert_eq(wm_test_run(&gpu, &err, "orbits %s --size 4 --device gpu --json --no-cache", path), 0, "%s", err);
  cr_assert(strstr(gpu, "\"device\": \"gpu\"") || strstr(gpu, "\"device\":\"gpu\""), "%s", gpu);
  free(gpu);
  free(err);
}
