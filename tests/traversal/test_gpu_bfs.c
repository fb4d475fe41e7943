/* GPU BFS (the Enterprise pipeline) against the CPU BFS: levels equal and
 * the GPU's parents pass the Graph500 checks, on random, real, Kronecker
 * (scales 14-18), grid, path, star, directed and disconnected graphs, on a
 * graph with an Extreme-degree hub (>= 65536 neighbours) and on a chain of
 * dense layers (the small-level kernel's tiers by turns), on graphs of small
 * degrees that the deep-level kernel takes and hands over, with every
 * optimisation on, each one off, all off, and eager bottom-up; max_depth
 * balls, multi-source, target, interrupts, context reuse, errors, the
 * bandwidth probe.
 *
 * For the CPU emulator (scripts/bfs-emu.sh): WM_BFS_TEST_MAX_SCALE lowers
 * the largest Kronecker scale and WM_BFS_TEST_QUICK=1 shrinks the deep
 * graphs (grid, path, sparse).  WM_BFS_TRACE=1 prints the GPU's per-level
 * decisions to stderr. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"   /* wm_monitor */
#include "device.h" /* wm_gpu_stop_word_free */
#include "test_bfs_graphs.h"

typedef struct combo {
  const char *name;
  int dopt, queue_gen, classify, hub_cache, small, small_grid, cluster;
  double alpha, edge_ratio;
} combo;

/* The cluster search takes a graph's whole search where it can, but where
 * the deep-level kernel does (a grid, a path): with the small kernel off it
 * takes those too, in one combination (on the emulator their hundreds of
 * levels are its slowest cases); the combinations that test the pipeline's
 * stages leave it off. */
static const combo combos[] = {
    {"all on", 1, 1, 1, 1, 1, 1, 1, 0.3, 14},
    {"cluster kernel (no small kernel)", 1, 1, 1, 1, 0, 0, 1, 0.3, 14},
    {"cluster kernel, no direction-opt", 0, 1, 1, 1, 1, 1, 1, 0.3, 14},
    {"cluster kernel, eager bottom-up (edge ratio 1e6)", 1, 1, 1, 1, 1, 1, 1, 0.3, 1e6},
    {"no cluster kernel", 1, 1, 1, 1, 1, 1, 0, 0.3, 14},
    {"no direction-opt", 0, 1, 1, 1, 1, 1, 0, 0.3, 14},
    {"no queue-gen", 1, 0, 1, 1, 1, 1, 0, 0.3, 14},
    {"no classify", 1, 1, 0, 1, 1, 1, 0, 0.3, 14},
    {"no hub cache", 1, 1, 1, 0, 1, 1, 0, 0.3, 14},
    {"no small kernel", 1, 1, 1, 1, 0, 0, 0, 0.3, 14},
    {"small kernel on one block", 1, 1, 1, 1, 1, 0, 0, 0.3, 14},
    {"all off", 0, 0, 0, 0, 0, 0, 0, 0.3, 14},
    {"eager bottom-up (alpha 0)", 1, 1, 1, 1, 1, 1, 0, 0.0, 14},
    {"eager bottom-up, no small kernel", 1, 1, 1, 1, 0, 0, 0, 0.0, 14},
    {"status-array bottom-up (alpha 0, no queue-gen, hub cache)", 1, 0, 0, 1, 0, 0, 0, 0.0, 14},
};
enum { NCOMBOS = sizeof combos / sizeof combos[0] };

static void apply(wm_bfs_options *o, const combo *c) {
  o->direction_opt = c->dopt;
  o->queue_gen = c->queue_gen;
  o->classify = c->classify;
  o->hub_cache = c->hub_cache;
  o->small_kernel = c->small;
  o->small_grid = c->small_grid;
  o->cluster_kernel = c->cluster;
  o->alpha = c->alpha;
  o->edge_ratio = c->edge_ratio;
}

static wm_bfs_result cpu_result(const wm_graph *g, const uint32_t *src, uint32_t ns, const wm_bfs_options *base) {
  wm_bfs_options o = *base;
  o.want_parents = 0;
  wm_bfs_result r;
  wm_error err;
  cr_assert_eq(wm_bfs_cpu(g, src, ns, &o, &r, &err), WM_OK, "cpu: %s", err.msg);
  return r;
}

/* The GPU result equals the CPU's levels and its parents validate. */
static void check_gpu(const wm_graph *g, const wm_bfs_result *want, const wm_bfs_result *got,
                      const uint32_t *src, uint32_t ns, const char *what) {
  tb_same_levels(g, want->level, got->level, what);
  cr_assert_eq(got->reached, want->reached, "%s: reached", what);
  cr_assert_eq(got->depth, want->depth, "%s: depth", what);
  cr_assert_eq(got->teps_edges, want->teps_edges, "%s: TEPS edges", what);
  cr_assert_not_null(got->parent, "%s: parents asked for", what);
  tb_valid(g, src, ns, got, what);
  cr_assert_geq(got->seconds, 0.0);
}

/* Every combination of options, on one context, from each source set. */
static void check_graph(const wm_graph *g, const uint32_t *roots, uint32_t nroots, const char *name) {
  wm_bfs_options base;
  wm_bfs_options_init(&base);
  wm_bfs_gpu_ctx *ctx = NULL;
  wm_error err;
  cr_assert_eq(wm_bfs_gpu_create(g, &base, &ctx, &err), WM_OK, "%s: %s", name, err.msg);
  for (uint32_t i = 0; i < nroots; i++) {
    wm_bfs_result want = cpu_result(g, &roots[i], 1, &base);
    for (int k = 0; k < NCOMBOS; k++) {
      wm_bfs_options o = base;
      apply(&o, &combos[k]);
      wm_bfs_result got;
      char what[256];
      snprintf(what, sizeof what, "%s, root %u, %s", name, roots[i], combos[k].name);
      cr_assert_eq(wm_bfs_gpu_run(ctx, &roots[i], 1, &o, &got, &err), WM_OK, "%s: %s", what, err.msg);
      check_gpu(g, &want, &got, &roots[i], 1, what);
      cr_assert_eq(got.truncated, 0, "%s", what);
      wm_bfs_result_free(&got);
    }
    wm_bfs_result_free(&want);
  }
  wm_bfs_gpu_destroy(ctx);
}

/* Roots: vertex 0, the vertex of highest degree, and one of low degree. */
static uint32_t pick_roots(const wm_graph *g, uint32_t *roots) {
  uint32_t k = 0, hi = 0, lo = WM_NO_VERTEX;
  for (uint32_t v = 0; v < g->n; v++) {
    if (wm_degree(g, v) > wm_degree(g, hi)) hi = v;
    if (wm_degree(g, v) > 0 && (lo == WM_NO_VERTEX || wm_degree(g, v) < wm_degree(g, lo))) lo = v;
  }
  roots[k++] = 0;
  if (hi != 0) roots[k++] = hi;
  if (lo != WM_NO_VERTEX && lo != 0 && lo != hi) roots[k++] = lo;
  return k;
}

static void check_graph_roots(wm_graph *g, const char *name) {
  uint32_t roots[3], k = pick_roots(g, roots);
  check_graph(g, roots, k, name);
  wm_graph_destroy(g);
}

static int quick(void) {
  const char *s = getenv("WM_BFS_TEST_QUICK");
  return s && *s && *s != '0';
}

Test(gpu_bfs, er_connected) { check_graph_roots(wm_test_er(3000, 0.004, 1), "ER(3000, 0.004)"); }
Test(gpu_bfs, er_disconnected) { check_graph_roots(wm_test_er(5000, 0.0002, 2), "ER(5000, 0.0002), disconnected"); }
Test(gpu_bfs, powerlaw) { check_graph_roots(wm_test_powerlaw(4000, 12, 4, 0.3, 3), "power-law with 4 hubs"); }
Test(gpu_bfs, directed) { check_graph_roots(tb_directed(6000, 4, 4), "directed"); }
Test(gpu_bfs, grid) { check_graph_roots(quick() ? tb_grid(30, 40) : tb_grid(100, 120), "grid"); }
Test(gpu_bfs, path) { check_graph_roots(tb_path(quick() ? 400 : 3000), "path"); }
/* Arcs 0 -> 1 -> ...: every frontier has one out-arc a vertex, as the
 * leaves that end a symmetric graph's search do (bfs_gpu.cu), yet each
 * level but the last has a next one. */
Test(gpu_bfs, directed_path) {
  wm_graph *g = tb_path_of(quick() ? 300 : 2000, 1);
  uint32_t roots[] = {0, 7};
  check_graph(g, roots, 2, "directed path");
  wm_graph_destroy(g);
}
/* mean degree ~6: frontiers grow past the small kernel's shared-memory
 * capacity while their edges still fit its budget (the overflow hand-over) */
Test(gpu_bfs, sparse_overflow) { check_graph_roots(tb_sparse(quick() ? 20000 : 120000, 3, 5), "sparse random"); }

/* The deep-level kernel takes a graph of small out-degrees (a grid's rows
 * padded to 4 slots) where its bits fit the device's shared memory, never
 * one with a hub; on the grid it ran the searches above (and on the
 * emulator with EMU_SMEM_OPTIN=65536, scripts/emu-smoke.sh). */
Test(gpu_bfs, deep_level_kernel_takes_graphs_of_small_degrees) {
  wm_graph *grid = tb_grid(30, 40), *star = tb_hub(400, 0, 0, 1);
  wm_bfs_options o;
  wm_bfs_options_init(&o);
  wm_bfs_gpu_ctx *ctx = NULL;
  wm_error err;
  cr_assert_eq(wm_bfs_gpu_create(grid, &o, &ctx, &err), WM_OK, "%s", err.msg);
  const char *d = wm_bfs_gpu_describe(ctx);
  cr_assert(strstr(d, "deep levels: rows of 4;") || strstr(d, "deep levels: off (more vertices than"), "%s", d);
  wm_bfs_gpu_destroy(ctx);
  cr_assert_eq(wm_bfs_gpu_create(star, &o, &ctx, &err), WM_OK, "%s", err.msg);
  d = wm_bfs_gpu_describe(ctx);
  cr_assert(strstr(d, "deep levels: off (out-degrees above 16)"), "%s", d);
  wm_bfs_gpu_destroy(ctx);
  wm_graph_destroy(grid);
  wm_graph_destroy(star);
}

/* The cluster search takes a small graph (facebook: 4,039 vertices) on a
 * device with thread block clusters (sm_90 on), several blocks of it, so
 * that the searches above ran on it with claims across blocks; the graph
 * of too many arcs for it stays on the pipeline. */
Test(gpu_bfs, cluster_search_takes_small_graphs) {
  wm_graph *g = wm_test_load_real("facebook_combined.txt");
  wm_bfs_options o;
  wm_bfs_options_init(&o);
  wm_bfs_gpu_ctx *ctx = NULL;
  wm_error err;
  cr_assert_eq(wm_bfs_gpu_create(g, &o, &ctx, &err), WM_OK, "%s", err.msg);
  const char *d = wm_bfs_gpu_describe(ctx);
  const char *sm = strstr(d, "sm_");
  cr_assert_not_null(sm, "%s", d);
  if (atoi(sm + 3) >= 90) {
    const char *at = strstr(d, "cluster search: ");
    cr_assert_not_null(at, "%s", d);
    cr_assert_geq(atoi(at + 16), 2, "the cluster search should take facebook: %s", d);
  } else {
    cr_log_warn("SKIPPED the cluster check: the device has no thread block clusters (%s)", d);
  }
  wm_bfs_gpu_destroy(ctx);
  wm_graph_destroy(g);
}

/* A cycle and a random matching: degrees of at most 3 (rows of 4 slots),
 * a frontier that about doubles each level, so that the deep-level kernel's
 * next frontier outgrows its 4,096 entries (SMALL_OVERFLOW) and the
 * pipeline takes the level over from the status array. */
static wm_graph *cycle_and_matching(uint32_t n, uint64_t seed) {
  uint32_t *perm = malloc((size_t)n * 4), *s = malloc((size_t)n * 2 * 4), *d = malloc((size_t)n * 2 * 4);
  for (uint32_t v = 0; v < n; v++) perm[v] = v;
  for (uint32_t v = n - 1; v > 0; v--) {
    const uint32_t j = (uint32_t)(wm_test_rand(&seed) % (v + 1)), t = perm[v];
    perm[v] = perm[j], perm[j] = t;
  }
  uint64_t k = 0;
  for (uint32_t v = 0; v < n; v++) s[k] = v, d[k++] = (v + 1) % n;
  for (uint32_t i = 0; i + 1 < n; i += 2) s[k] = perm[i], d[k++] = perm[i + 1];
  wm_graph *g = tb_build(s, d, k, n, 0);
  free(perm);
  free(s);
  free(d);
  return g;
}
Test(gpu_bfs, deep_levels_overflow) {
  check_graph_roots(cycle_and_matching(quick() ? 20000 : 200000, 12), "cycle and matching");
}

Test(gpu_bfs, facebook) {
  wm_graph *g = wm_test_load_real("facebook_combined.txt");
  check_graph_roots(g, "facebook");
}

/* A star: one level of leaves of degree 1 (each finds the centre claimed),
 * or from a leaf the centre's one row. */
Test(gpu_bfs, star) { check_graph_roots(tb_hub(400, 0, 0, 1), "star"); }

/* Paths between runs of dense layers: levels of one vertex and levels of
 * 13k-36k edges by turns, 62k edges in all, so that with two SMs (the
 * emulator's) the small-level kernel takes the whole search: it goes from
 * block 0 alone to every block and back (the middle 128-vertex layer's
 * degrees are all 200, the slot layout's; the others' by edges), and the
 * 500-vertex layer outgrows the emulator's capacity after a grid level, so
 * the pipeline takes a level over and hands the search back.  From the
 * vertex of highest degree the first frontier is too large. */
static const uint32_t layer_sizes[] = {1, 1, 1, 1, 1, 1, 100, 128, 100, 1, 1, 1, 64, 64, 500, 1, 1};
enum { LAYER_128 = 6 + 100 }; /* the first vertex of the 128-vertex layer */
static wm_graph *layers(void) { return tb_chain(layer_sizes, sizeof layer_sizes / sizeof layer_sizes[0]); }
Test(gpu_bfs, layers) { check_graph_roots(layers(), "dense layers"); }

/* A hub of degree >= 65536 (the Extreme class: the whole grid expands it),
 * sparse edges among the others, and isolated vertices. */
Test(gpu_bfs, extreme_hub) {
  wm_graph *g = tb_hub(70000, 2, 100, 6);
  cr_assert_geq(wm_degree(g, 0), 65536, "the hub must be Extreme");
  uint32_t roots[] = {0, 12345, 70050 /* isolated */};
  check_graph(g, roots, 3, "extreme hub");
  wm_graph_destroy(g);
}

static int max_scale(void) {
  const char *s = getenv("WM_BFS_TEST_MAX_SCALE");
  return s && *s ? atoi(s) : 18;
}

Test(gpu_bfs, kronecker, .timeout = 900) {
  for (int scale = 14; scale <= max_scale(); scale++) {
    char name[64];
    snprintf(name, sizeof name, "Kronecker scale %d", scale);
    check_graph_roots(tb_kron((unsigned)scale, 100 + scale), name);
  }
}

Test(gpu_bfs, max_depth_balls) {
  wm_error err;
  wm_graph *graphs[] = {tb_kron(12, 9), tb_grid(60, 60), wm_test_powerlaw(3000, 10, 3, 0.3, 7)};
  for (int gi = 0; gi < 3; gi++) {
    wm_graph *g = graphs[gi];
    uint32_t roots[3], nr = pick_roots(g, roots);
    for (uint32_t h = 0; h <= 4; h++)
      for (int k = 0; k < NCOMBOS; k++) {
        wm_bfs_options o;
        wm_bfs_options_init(&o);
        apply(&o, &combos[k]);
        o.max_depth = h;
        wm_bfs_result want = cpu_result(g, &roots[nr - 1], 1, &o), got;
        char what[256];
        snprintf(what, sizeof what, "graph %d, ball of radius %u, %s", gi, h, combos[k].name);
        cr_assert_eq(wm_bfs_gpu(g, &roots[nr - 1], 1, &o, &got, &err), WM_OK, "%s: %s", what, err.msg);
        check_gpu(g, &want, &got, &roots[nr - 1], 1, what);
        for (uint32_t v = 0; v < g->n; v++)
          cr_assert(got.level[v] == WM_UNREACHED || got.level[v] <= h, "%s: level beyond the ball", what);
        wm_bfs_result_free(&want);
        wm_bfs_result_free(&got);
      }
    wm_graph_destroy(g);
  }
}

Test(gpu_bfs, multi_source) {
  wm_graph *g = wm_test_powerlaw(3000, 8, 3, 0.2, 11);
  wm_graph *grid = tb_grid(80, 80);
  uint32_t src[] = {7, 2999, 7, 1500, 42, 1500, 0}, corners[] = {0, 79, 6320, 6399};
  wm_bfs_options base;
  wm_bfs_options_init(&base);
  for (int k = 0; k < NCOMBOS; k++) {
    wm_bfs_options o = base;
    apply(&o, &combos[k]);
    wm_error err;
    wm_bfs_result want = cpu_result(g, src, 7, &o), got;
    cr_assert_eq(wm_bfs_gpu(g, src, 7, &o, &got, &err), WM_OK, "%s", err.msg);
    check_gpu(g, &want, &got, src, 7, combos[k].name);
    wm_bfs_result_free(&want);
    wm_bfs_result_free(&got);
    want = cpu_result(grid, corners, 4, &o);
    cr_assert_eq(wm_bfs_gpu(grid, corners, 4, &o, &got, &err), WM_OK, "%s", err.msg);
    check_gpu(grid, &want, &got, corners, 4, combos[k].name);
    cr_assert_eq(got.per_level[0], 4);
    wm_bfs_result_free(&want);
    wm_bfs_result_free(&got);
  }
  wm_graph_destroy(grid);
  wm_graph_destroy(g);
}

Test(gpu_bfs, target) {
  wm_graph *g = tb_grid(70, 70);
  wm_graph *p = wm_test_powerlaw(3000, 10, 3, 0.3, 13);
  for (int k = 0; k < NCOMBOS; k++) {
    wm_bfs_options o;
    wm_bfs_options_init(&o);
    apply(&o, &combos[k]);
    uint32_t s = 0;
    o.target = 5 * 70 + 9; /* 14 hops */
    wm_bfs_result r;
    wm_error err;
    cr_assert_eq(wm_bfs_gpu(g, &s, 1, &o, &r, &err), WM_OK, "%s", err.msg);
    cr_assert_eq(r.level[o.target], 14, "%s", combos[k].name);
    cr_assert_eq(r.depth, 15, "%s: stops on the level that reaches the target", combos[k].name);
    cr_assert(r.truncated);
    tb_valid(g, &s, 1, &r, combos[k].name);
    wm_bfs_result_free(&r);
    /* the source itself: level 0 reaches it */
    o.target = s;
    cr_assert_eq(wm_bfs_gpu(g, &s, 1, &o, &r, &err), WM_OK, "%s", err.msg);
    cr_assert_eq(r.depth, 1, "%s: the source is the target", combos[k].name);
    cr_assert_eq(r.reached, 1, "%s", combos[k].name);
    wm_bfs_result_free(&r);
    o.target = 5 * 70 + 9;
    /* on a power-law graph, where levels go bottom-up */
    wm_bfs_result full = cpu_result(p, &s, 1, &o);
    cr_assert_eq(wm_bfs_gpu(p, &s, 1, &o, &r, &err), WM_OK, "%s", err.msg);
    cr_assert_eq(r.level[o.target], full.level[o.target], "%s", combos[k].name);
    tb_valid(p, &s, 1, &r, combos[k].name);
    wm_bfs_result_free(&r);
    wm_bfs_result_free(&full);
  }
  wm_graph_destroy(p);
  wm_graph_destroy(g);
}

/* A call whose monitor was stopped before it ends with WM_EINTERRUPTED and
 * no result, in every combination: the small-level kernel sees the flag on
 * block 0 alone (a grid) or in its grid tier (the 128-vertex layer as the
 * sources: 25600 edges at once), the pipeline between levels. */
Test(gpu_bfs, interrupted) {
  wm_graph *grid = tb_grid(30, 40), *chain = layers();
  uint32_t corner = 0, layer[128];
  for (uint32_t i = 0; i < 128; i++) layer[i] = LAYER_128 + i;
  struct {
    const wm_graph *g;
    const uint32_t *src;
    uint32_t ns;
  } cases[] = {{grid, &corner, 1}, {chain, layer, 128}};
  for (int c = 0; c < 2; c++)
    for (int k = 0; k < NCOMBOS; k++) {
      wm_bfs_options o;
      wm_bfs_options_init(&o);
      apply(&o, &combos[k]);
      wm_monitor mon;
      memset(&mon, 0, sizeof mon);
      mon.stop = 1;
      wm_monitor *was = wm_monitor_enter(&mon);
      wm_bfs_result r;
      wm_error err;
      int rc = wm_bfs_gpu(cases[c].g, cases[c].src, cases[c].ns, &o, &r, &err);
      wm_monitor_leave(was);
      wm_gpu_stop_word_free(&mon);
      cr_assert_eq(rc, WM_EINTERRUPTED, "case %d, %s: rc %d: %s", c, combos[k].name, rc, err.msg);
      cr_assert_null(r.level, "case %d, %s: no partial levels", c, combos[k].name);
    }
  wm_graph_destroy(chain);
  wm_graph_destroy(grid);
}

Test(gpu_bfs, errors) {
  wm_graph *g = tb_path(100);
  wm_bfs_options o;
  wm_bfs_options_init(&o);
  wm_bfs_result r;
  wm_error err;
  uint32_t bad = 100, good = 0;
  cr_assert_eq(wm_bfs_gpu(g, &bad, 1, &o, &r, &err), WM_EINPUT);
  cr_assert(strstr(err.msg, "source 100"), "message: %s", err.msg);
  cr_assert_eq(wm_bfs_gpu(g, &good, 0, &o, &r, &err), WM_EUSAGE);
  o.target = 1000;
  cr_assert_eq(wm_bfs_gpu(g, &good, 1, &o, &r, &err), WM_EUSAGE);
  wm_graph_destroy(g);
}

Test(gpu_bfs, bandwidth_probe) {
  double gbps = 0;
  wm_error err;
  cr_assert_eq(wm_gpu_bandwidth_probe(&gbps, &err), WM_OK, "%s", err.msg);
  cr_assert_gt(gbps, 0.0);
}
