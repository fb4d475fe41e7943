/* BFS over several GPUs (bfs --gpus N, the 1-D partition) against the CPU
 * BFS: levels equal and parents pass the Graph500 checks, on 2 GPUs and on
 * every GPU present, top-down only and direction-optimising, on random,
 * power-law, Kronecker, directed, grid and disconnected graphs, a graph
 * smaller than one bitmap word per GPU (empty parts), multi-source,
 * max_depth balls and a target, and a search with both kinds of top-down
 * level (lists and bitmaps); and the same search shared by several
 * processes (wm_bfs_procs, the program's MPI ranks), here threads each
 * with GPUs of its own, whose process 0 must get the CPU's levels and a
 * failing GPU of one of which must end the search on all, as must an
 * interrupt of one (warpmatch_interrupt's flag).  A host with one
 * GPU skips every case (cr_skip: reported, never passed). */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "matcher.h"
#include "test_bfs_graphs.h"
#include "traversal.h"

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
  uint32_t hi = tb_highest_degree(g);
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

/* NCCL is opened at the first search over several GPUs, not linked: where
 * the build found it, it opens and every call the search makes resolves
 * (on any host with a GPU, one or more). */
Test(gpu_bfs_gpus, nccl_opens) {
  const char *why = NULL;
  const int r = wm_nccl_open(&why);
  if (r < 0) cr_skip_test("%s", why);
  cr_assert_eq(r, 1, "%s", why);
  cr_assert_null(why);
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

/* ---- several processes: threads of this test stand for them ---------- */

#define MAX_PROCS 8

/* The processes' meeting point: each call posts its buffer, then the
 * calls meet twice at the barrier (read the others', then write one's own). */
typedef struct world {
  pthread_barrier_t bar;
  void *buf[MAX_PROCS];
  atomic_int alarm;
} world;

typedef struct proc {
  wm_bfs_procs p;
  world *w;
  const wm_graph *g;
  const uint32_t *src;
  uint32_t ns;
  wm_bfs_options o;
  wm_bfs_result r;
  wm_error err;
  int rc;
  char desc[512]; /* the context's description */
} proc;

static void meet(proc *m) { pthread_barrier_wait(&m->w->bar); }

static int w_bcast(void *ctx, void *buf, size_t bytes, int root) {
  proc *m = ctx;
  m->w->buf[m->p.process] = buf;
  meet(m);
  if (m->p.process != root) memcpy(buf, m->w->buf[root], bytes);
  meet(m);
  return 0;
}

static int w_sum_u64(void *ctx, uint64_t *a, unsigned n) {
  proc *m = ctx;
  uint64_t *sum = calloc(n ? n : 1, sizeof *sum);
  m->w->buf[m->p.process] = a;
  meet(m);
  for (int q = 0; sum && q < m->p.processes; q++)
    for (unsigned i = 0; i < n; i++) sum[i] += ((const uint64_t *)m->w->buf[q])[i];
  meet(m);
  if (sum) memcpy(a, sum, n * sizeof *a);
  free(sum);
  return !sum;
}

static int w_gather_u32(void *ctx, uint32_t *a, const uint32_t *lo, const uint32_t *hi) {
  proc *m = ctx;
  m->w->buf[m->p.process] = a;
  meet(m);
  for (int q = 1; m->p.process == 0 && q < m->p.processes; q++)
    memcpy(a + lo[q], (const uint32_t *)m->w->buf[q] + lo[q], 4 * (size_t)(hi[q] - lo[q]));
  meet(m);
  return 0;
}

static void w_alarm(void *ctx, const char *why) {
  (void)why;
  atomic_store(&((proc *)ctx)->w->alarm, 1);
}
static int w_alarmed(void *ctx) { return atomic_load(&((proc *)ctx)->w->alarm); }

/* Each process's monitor during its search (the API's, whose flag
 * warpmatch_interrupt sets), or NULL. */
static wm_monitor *proc_monitor[MAX_PROCS];

/* One process: its context over its GPUs, one search, the context gone. */
static void *proc_main(void *arg) {
  proc *m = arg;
  wm_bfs_gpu_ctx *ctx = NULL;
  m->rc = wm_bfs_gpu_create(m->g, &m->o, &ctx, &m->err);
  if (!m->rc) snprintf(m->desc, sizeof m->desc, "%s", wm_bfs_gpu_describe(ctx));
  wm_monitor *previous = wm_monitor_enter(proc_monitor[m->p.process]);
  if (!m->rc) m->rc = wm_bfs_gpu_run(ctx, m->src, m->ns, &m->o, &m->r, &m->err);
  wm_monitor_leave(previous);
  wm_bfs_gpu_destroy(ctx);
  return NULL;
}

/* The search of `procs` processes of `gpus` GPUs each (devices p x gpus
 * ..), every process's result and error in m[p]. */
static void run_procs(const wm_graph *g, const uint32_t *src, uint32_t ns, const wm_bfs_options *base, int procs,
                      int gpus, proc *m) {
  world w;
  memset(&w, 0, sizeof w);
  pthread_barrier_init(&w.bar, NULL, (unsigned)procs);
  pthread_t th[MAX_PROCS];
  for (int q = 0; q < procs; q++) {
    memset(&m[q], 0, sizeof m[q]);
    m[q].p = (wm_bfs_procs){.ctx = &m[q], .processes = procs, .process = q, .first_device = q * gpus,
                            .bcast = w_bcast, .sum_u64 = w_sum_u64, .gather_u32 = w_gather_u32,
                            .alarm = w_alarm, .alarmed = w_alarmed};
    m[q].w = &w, m[q].g = g, m[q].src = src, m[q].ns = ns, m[q].o = *base;
    m[q].o.gpus = gpus;
    m[q].o.procs = &m[q].p;
    cr_assert_eq(pthread_create(&th[q], NULL, proc_main, &m[q]), 0);
  }
  for (int q = 0; q < procs; q++) pthread_join(th[q], NULL);
  pthread_barrier_destroy(&w.bar);
}

/* Process 0's result equals the CPU's; every process's own vertices too. */
static void check_procs(const wm_graph *g, const uint32_t *src, uint32_t ns, const wm_bfs_options *base, int procs,
                        int gpus, const char *name) {
  proc m[MAX_PROCS];
  char what[256];
  snprintf(what, sizeof what, "%s, %d processes x %d GPUs, source %u%s", name, procs, gpus, src[0],
           base->direction_opt ? "" : ", top-down only");
  run_procs(g, src, ns, base, procs, gpus, m);
  wm_bfs_result want = cpu_levels(g, src, ns, base);
  char split[64];
  snprintf(split, sizeof split, "%d processes x %d x ", procs, gpus);
  for (int q = 0; q < procs; q++) {
    cr_assert_eq(m[q].rc, WM_OK, "%s: process %d: %s", what, q, m[q].err.msg);
    cr_assert(strstr(m[q].desc, split), "%s: process %d searched on %s", what, q, m[q].desc);
  }
  tb_same_levels(g, want.level, m[0].r.level, what);
  cr_assert_eq(m[0].r.reached, want.reached, "%s: reached", what);
  cr_assert_eq(m[0].r.depth, want.depth, "%s: depth", what);
  tb_valid(g, src, ns, &m[0].r, what);
  for (int q = 1; q < procs; q++) /* its own range, the rest unreached */
    for (uint32_t v = 0; v < g->n; v++)
      cr_assert(m[q].r.level[v] == WM_UNREACHED || m[q].r.level[v] == want.level[v],
                "%s: process %d: vertex %u at level %u, the CPU's %u", what, q, v, m[q].r.level[v], want.level[v]);
  for (int q = 0; q < procs; q++) wm_bfs_result_free(&m[q].r);
  wm_bfs_result_free(&want);
}

static void check_graph_procs(wm_graph *g, const char *name) {
  int n = devices();
  uint32_t hi = tb_highest_degree(g);
  for (int dopt = 0; dopt <= 1; dopt++) {
    wm_bfs_options o;
    wm_bfs_options_init(&o);
    o.direction_opt = dopt;
    check_procs(g, &hi, 1, &o, 2, 1, name);
    if (n >= 3) check_procs(g, &hi, 1, &o, n < MAX_PROCS ? n : MAX_PROCS, 1, name);
    if (n >= 4) check_procs(g, &hi, 1, &o, 2, n / 2 < 8 ? n / 2 : 8, name);
  }
  wm_graph_destroy(g);
}

Test(gpu_bfs_gpus, processes_er) { check_graph_procs(wm_test_er(3000, 0.003, 1), "ER(3000, 0.003)"); }
Test(gpu_bfs_gpus, processes_directed) { check_graph_procs(tb_directed(3000, 4, 4), "directed"); }
Test(gpu_bfs_gpus, processes_tiny) { check_graph_procs(tb_path(20), "path of 20 (empty parts)"); }
Test(gpu_bfs_gpus, processes_kronecker, .timeout = 600) { check_graph_procs(tb_kron(12, 112), "Kronecker scale 12"); }

/* Several sources, balls and a target: the stops every process must take
 * from the summed figures. */
Test(gpu_bfs_gpus, processes_balls_target) {
  devices();
  wm_graph *g = wm_test_powerlaw(4000, 8, 3, 0.2, 11);
  uint32_t src[] = {7, 3999, 7, 1500, 42};
  wm_bfs_options o;
  wm_bfs_options_init(&o);
  check_procs(g, src, 5, &o, 2, 1, "power-law, several sources");
  for (uint32_t h = 0; h <= 2; h++) {
    o.max_depth = h;
    check_procs(g, src, 1, &o, 2, 1, "power-law ball");
  }
  wm_graph *grid = tb_grid(50, 50);
  wm_bfs_options_init(&o);
  o.target = 5 * 50 + 9; /* 14 hops from vertex 0 */
  uint32_t s0 = 0;
  proc m[MAX_PROCS];
  run_procs(grid, &s0, 1, &o, 2, 1, m);
  for (int q = 0; q < 2; q++) {
    cr_assert_eq(m[q].rc, WM_OK, "process %d: %s", q, m[q].err.msg);
    cr_assert(m[q].r.truncated, "process %d stops on the level that reaches the target", q);
  }
  cr_assert_eq(m[0].r.level[o.target], 14);
  cr_assert_eq(m[0].r.depth, 15);
  for (int q = 0; q < 2; q++) wm_bfs_result_free(&m[q].r);
  wm_graph_destroy(grid);
  wm_graph_destroy(g);
}

/* A GPU of process 1 failing (WM_GPU_FAULT_DEVICE names the part, here
 * process 1's only GPU) ends the search on both processes, each with
 * WM_EDEVICE naming it, instead of leaving process 0 waiting. */
Test(gpu_bfs_gpus, processes_failing_gpu, .timeout = 120) {
  devices();
  wm_graph *g = tb_kron(12, 3);
  setenv("WM_GPU_FAULT_DEVICE", "1", 1);
  wm_bfs_options o;
  wm_bfs_options_init(&o);
  uint32_t s0 = 0;
  proc m[MAX_PROCS];
  run_procs(g, &s0, 1, &o, 2, 1, m);
  unsetenv("WM_GPU_FAULT_DEVICE");
  for (int q = 0; q < 2; q++) {
    cr_assert_eq(m[q].rc, WM_EDEVICE, "process %d: rc %d: %s", q, m[q].rc, m[q].err.msg);
    cr_assert(strstr(m[q].err.msg, "GPU 1 (process 1's GPU 0) failed"), "process %d: message: %s", q, m[q].err.msg);
    cr_assert(strstr(m[q].err.msg, "2 GPUs of 2 processes"), "process %d: message: %s", q, m[q].err.msg);
    cr_log_info("process %d: %s", q, m[q].err.msg);
  }
  wm_graph_destroy(g);
}

/* Process 1 of 2 interrupted before the search: both processes end it at
 * the same level (the first level's sums carry the flag) with
 * WM_EINTERRUPTED, process 0 naming another process, instead of process 0
 * searching on while process 1 has left (or waiting for it). */
Test(gpu_bfs_gpus, processes_interrupted, .timeout = 120) {
  devices();
  wm_graph *g = tb_grid(60, 70); /* 128 levels from a corner */
  wm_bfs_options o;
  wm_bfs_options_init(&o);
  wm_monitor stopped;
  memset(&stopped, 0, sizeof stopped);
  stopped.stop = 1;
  proc_monitor[1] = &stopped;
  uint32_t s0 = 0;
  proc m[MAX_PROCS];
  run_procs(g, &s0, 1, &o, 2, 1, m);
  proc_monitor[1] = NULL;
  for (int q = 0; q < 2; q++) {
    cr_assert_eq(m[q].rc, WM_EINTERRUPTED, "process %d: rc %d: %s", q, m[q].rc, m[q].err.msg);
    cr_assert_null(m[q].r.level, "process %d: no partial levels", q);
    cr_log_info("process %d: %s", q, m[q].err.msg);
  }
  cr_assert(strstr(m[0].err.msg, "another process"), "process 0 names the other: %s", m[0].err.msg);
  cr_assert_not(strstr(m[1].err.msg, "another process"), "process 1 was interrupted itself: %s", m[1].err.msg);
  for (int q = 0; q < 2; q++) wm_bfs_result_free(&m[q].r);
  wm_graph_destroy(g);
}
