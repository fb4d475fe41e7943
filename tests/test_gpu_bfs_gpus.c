/* BFS over several GPUs (bfs --gpus N, the 1-D partition) against the CPU
 * BFS: levels equal and parents pass the Graph500 checks, on 2 GPUs and on
 * every GPU present, top-down only and direction-optimising, on random,
 * power-law, Kronecker, directed, grid and disconnected graphs, a graph
 * smaller than one bitmap word per GPU (empty parts), multi-source,
 * max_depth balls and a target, and a search with both kinds of top-down
 * level (lists and bitmaps).  A host with one GPU skips every case
 * (cr_skip: reported, never passed). */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matcher.h"
#include "test_bfs_graphs.h"

static int devices(void) {
  int n = wm_gpu_count();
  if (n < 2) cr_skip("BFS over GPUs needs 2 GPUs; this host has %d", n);
  return n;
}

static wm_bfs_result cpu_levels(const wm_graph *g, const uint32_t *src, uint32_t ns, const wm_bfs_options *o) {
  wm_bfs_options c = *o;
  c.gpus = 0;
  c.want_parents = 0;
  wm_bfs_result r;
  wm_error err;
  cr_assert_eq(wm_bfs_cpu(g, src, ns, &c, &r, &err), WM_OK, "cpu: %s", err.msg);
  return r;
}

/* One search on `gpus` GPUs equals the CPU's. */
static void check_on(const wm_graph *g, const uint32_t *src, uint32_t ns, const wm_bfs_options *base, int gpus,
                     const char *name) {
  wm_bfs_options o = *base;
  o.gpus = gpus;
  wm_bfs_result want = cpu_levels(g, src, ns, base), got;
  wm_error err;
  char what[256];
  snprintf(what, sizeof what, "%s, %d GPUs, source %u%s%s", name, gpus, src[0], ns > 1 ? " (several)" : "",
           base->direction_opt ? "" : ", top-down only");
  cr_assert_eq(wm_bfs_gpu(g, src, ns, &o, &got, &err), WM_OK, "%s: %s", what, err.msg);
  tb_same_levels(g, want.level, got.level, what);
  cr_assert_eq(got.reached, want.reached, "%s: reached", what);
  cr_assert_eq(got.depth, want.depth, "%s: depth", what);
  cr_assert_not_null(got.parent, "%s: parents", what);
  tb_valid(g, src, ns, &got, what);
  wm_bfs_result_free(&want);
  wm_bfs_result_free(&got);
}

/* From vertex 0 and the highest-degree vertex, both directions' rules, on 2
 * GPUs and on all of them. */
static void check_graph(wm_graph *g, const char *name) {
  int n = devices();
  uint32_t hi = 0;
  for (uint32_t v = 0; v < g->n; v++)
    if (wm_degree(g, v) > wm_degree(g, hi)) hi = v;
  uint32_t roots[] = {0, hi};
  for (int dopt = 0; dopt <= 1; dopt++)
    for (int r = 0; r < 2; r++) {
      wm_bfs_options o;
      wm_bfs_options_init(&o);
      o.direction_opt = dopt;
      check_on(g, &roots[r], 1, &o, 2, name);
      if (n > 2) check_on(g, &roots[r], 1, &o, n, name);
    }
  wm_graph_destroy(g);
}

Test(gpu_bfs_gpus, er) { check_graph(wm_test_er(5000, 0.002, 1), "ER(5000, 0.002)"); }
Test(gpu_bfs_gpus, disconnected) { check_graph(wm_test_er(5000, 0.0002, 2), "ER(5000, 0.0002)"); }
Test(gpu_bfs_gpus, powerlaw) { check_graph(wm_test_powerlaw(6000, 12, 4, 0.3, 3), "power-law with hubs"); }
Test(gpu_bfs_gpus, directed) { check_graph(tb_directed(6000, 4, 4), "directed"); }
Test(gpu_bfs_gpus, grid) { check_graph(tb_grid(60, 70), "grid"); }
Test(gpu_bfs_gpus, hub) { check_graph(tb_hub(70000, 2, 100, 6), "hub of degree 70,000"); }
Test(gpu_bfs_gpus, tiny) { check_graph(tb_path(20), "path of 20 (empty parts)"); }

/* Top-down levels go two ways: a sparse frontier's candidates as lists, a
 * dense one's as bitmaps.  From one vertex of ER(5000, 0.002), top-down
 * only, the first levels are sparse and the middle ones dense, so a search
 * covers both; a change of the threshold that leaves one kind untested
 * fails here. */
Test(gpu_bfs_gpus, both_top_down_kinds) {
  devices();
  wm_graph *g = wm_test_er(5000, 0.002, 1);
  wm_bfs_options o;
  wm_bfs_options_init(&o);
  o.direction_opt = 0;
  o.gpus = 2;
  const uint32_t src = 0;
  wm_bfs_result r;
  wm_error err;
  cr_assert_eq(wm_bfs_gpu(g, &src, 1, &o, &r, &err), WM_OK, "%s", err.msg);
  cr_assert_eq(r.bottom_up_levels, 0u);
  cr_assert(r.list_levels >= 1 && r.list_levels < r.depth, "list levels %u of %u: both kinds wanted", r.list_levels,
            r.depth);
  wm_bfs_result_free(&r);
  wm_graph_destroy(g);
}

Test(gpu_bfs_gpus, kronecker, .timeout = 600) {
  for (unsigned scale = 14; scale <= 18; scale += 2) {
    char name[64];
    snprintf(name, sizeof name, "Kronecker scale %u", scale);
    check_graph(tb_kron(scale, 100 + scale), name);
  }
}

Test(gpu_bfs_gpus, multi_source_balls_target) {
  int n = devices();
  wm_graph *g = wm_test_powerlaw(5000, 8, 3, 0.2, 11);
  uint32_t src[] = {7, 4999, 7, 1500, 42};
  wm_bfs_options o;
  wm_bfs_options_init(&o);
  check_on(g, src, 5, &o, n, "power-law");
  for (uint32_t h = 0; h <= 3; h++) {
    o.max_depth = h;
    check_on(g, src, 1, &o, 2, "power-law ball");
  }
  wm_graph *grid = tb_grid(70, 70);
  wm_bfs_options_init(&o);
  o.gpus = 2;
  o.target = 5 * 70 + 9; /* 14 hops from vertex 0 */
  uint32_t s = 0;
  wm_bfs_result r;
  wm_error err;
  cr_assert_eq(wm_bfs_gpu(grid, &s, 1, &o, &r, &err), WM_OK, "%s", err.msg);
  cr_assert_eq(r.level[o.target], 14);
  cr_assert_eq(r.depth, 15, "stops on the level that reaches the target");
  cr_assert(r.truncated);
  tb_valid(grid, &s, 1, &r, "grid with a target");
  wm_bfs_result_free(&r);
  wm_graph_destroy(grid);
  wm_graph_destroy(g);
}

/* A GPU that fails mid-search (WM_GPU_FAULT_DEVICE: a trapping kernel
 * ahead of its first level) ends the search on every GPU with WM_EDEVICE
 * naming it, instead of leaving the other waiting in an NCCL exchange.
 * Criterion runs each test in its own process, so the failed device's
 * context does not reach the other cases. */
Test(gpu_bfs_gpus, failing_gpu, .timeout = 120) {
  devices();
  wm_graph *g = tb_kron(14, 3);
  wm_error err;
  setenv("WM_GPU_FAULT_DEVICE", "1", 1);
  wm_bfs_options o;
  wm_bfs_options_init(&o);
  o.gpus = 2;
  uint32_t s = 0;
  wm_bfs_result r;
  int rc = wm_bfs_gpu(g, &s, 1, &o, &r, &err);
  unsetenv("WM_GPU_FAULT_DEVICE");
  cr_assert_eq(rc, WM_EDEVICE, "rc %d: %s", rc, err.msg);
  cr_assert(strstr(err.msg, "GPU 1"), "message: %s", err.msg);
  wm_graph_destroy(g);
}

/* One context, many searches (the Graph500 protocol), and the asks it
 * refuses. */
Test(gpu_bfs_gpus, context_and_errors) {
  int n = devices();
  wm_graph *g = wm_test_powerlaw(4000, 10, 3, 0.3, 5);
  wm_bfs_options o;
  wm_bfs_options_init(&o);
  o.gpus = 2;
  wm_bfs_gpu_ctx *ctx = NULL;
  wm_error err;
  cr_assert_eq(wm_bfs_gpu_create(g, &o, &ctx, &err), WM_OK, "%s", err.msg);
  cr_assert(strstr(wm_bfs_gpu_describe(ctx), "2 x "), "describe: %s", wm_bfs_gpu_describe(ctx));
  for (uint32_t s = 0; s < 4000; s += 997) {
    wm_bfs_result want = cpu_levels(g, &s, 1, &o), got;
    cr_assert_eq(wm_bfs_gpu_run(ctx, &s, 1, &o, &got, &err), WM_OK, "%s", err.msg);
    tb_same_levels(g, want.level, got.level, "context reuse");
    tb_valid(g, &s, 1, &got, "context reuse");
    wm_bfs_result_free(&want);
    wm_bfs_result_free(&got);
  }
  wm_bfs_gpu_destroy(ctx);
  o.gpus = n + 1;
  cr_assert_eq(wm_bfs_gpu_create(g, &o, &ctx, &err), WM_EDEVICE);
  cr_assert(strstr(err.msg, "present"), "message: %s", err.msg);
  wm_graph_destroy(g);
}
