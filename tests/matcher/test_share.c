/* wm_share (matcher.h) without MPI: "processes" are threads of this test,
 * each calling the executor or the motif sums with its own wm_share over
 * common counters and a common sum buffer.  Every process must return the
 * one-process answer (counts, per-vertex counts, the 128-bit motif sums),
 * whatever share of the roots and tops it claimed; the MPI dispenser
 * (matcher/cpu/share_mpi.c) is checked the same way by mpi_cli and
 * api_mpi_app.  Totals past 2^64 (the test hook WM_TEST_COUNT_START) add
 * up exactly, and a per-vertex total past 2^64 - 1 is an error in every
 * process, as is one process's interrupt. */
#define _POSIX_C_SOURCE 200809L /* pthread barriers, setenv */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "matcher.h"
#include "motif_sums.h"
#include "testutil.h"

#define PROCS 3
#define LOOPS 64

typedef struct common {
  uint64_t counter[LOOPS];
  pthread_barrier_t bar;
  pthread_mutex_t mu;
  wm_i128 *sum; /* the totals being built, PROCS adding in turn */
  size_t cap;
  int overflow;
} common;

typedef struct proc {
  wm_share share;
  common *c;
  unsigned next; /* this process's next loop id */
  uint64_t claimed; /* items it took */
} proc;

static unsigned loops(void *ctx, unsigned count) {
  proc *p = ctx;
  cr_assert_leq(p->next + count, LOOPS);
  p->next += count;
  return p->next - count;
}

static uint64_t grab(void *ctx, unsigned id, uint64_t chunk) {
  proc *p = ctx;
  uint64_t first = __atomic_fetch_add(&p->c->counter[id], chunk, __ATOMIC_RELAXED);
  __atomic_fetch_add(&p->claimed, chunk, __ATOMIC_RELAXED);
  return first;
}

/* As share_mpi.c's: past any loop's length, so every later claim finds
 * nothing left. */
static void halt(void *ctx, unsigned first, unsigned count) {
  proc *p = ctx;
  for (unsigned id = first; id < first + count; id++)
    __atomic_fetch_or(&p->c->counter[id], (uint64_t)1 << 40, __ATOMIC_RELAXED);
}

/* All-reduce through the common buffer: zeroed by one, added by each,
 * read by each. */
static void all_sum(proc *p, size_t n, const void *in, void *out, size_t width) {
  common *c = p->c;
  if (pthread_barrier_wait(&c->bar) == PTHREAD_BARRIER_SERIAL_THREAD) {
    if (n > c->cap) c->sum = realloc(c->sum, n * sizeof *c->sum), c->cap = n;
    memset(c->sum, 0, n * sizeof *c->sum);
    c->overflow = 0;
  }
  pthread_barrier_wait(&c->bar);
  pthread_mutex_lock(&c->mu);
  for (size_t i = 0; i < n; i++) {
    wm_i128 x = width == 4 ? ((const uint32_t *)in)[i] : width == 8 ? ((const uint64_t *)in)[i] : ((const wm_i128 *)in)[i];
    c->sum[i] = wm_add_chk(c->sum[i], x, &c->overflow);
  }
  pthread_mutex_unlock(&c->mu);
  pthread_barrier_wait(&c->bar);
  for (size_t i = 0; i < n; i++) {
    if (width == 4) ((uint32_t *)out)[i] = (uint32_t)c->sum[i];
    else if (width == 8) ((uint64_t *)out)[i] = (uint64_t)c->sum[i];
    else ((wm_i128 *)out)[i] = c->sum[i];
  }
  pthread_barrier_wait(&c->bar);
}

static int sum_u32(void *ctx, uint32_t *a, uint64_t n) {
  all_sum(ctx, n, a, a, 4);
  return 0;
}
static int sum_u64(void *ctx, uint64_t *a, uint64_t n) {
  all_sum(ctx, n, a, a, 8);
  return 0;
}
static int sum_i128(void *ctx, wm_i128 *a, unsigned n, int *overflow) {
  all_sum(ctx, n, a, a, 16);
  *overflow |= ((proc *)ctx)->c->overflow;
  return 0;
}

typedef struct job {
  proc p;
  int interrupted; /* this process's calls run under a monitor asked to stop */
  const wm_graph *g;
  const wm_plan *plan; /* NULL: motif sums of size k */
  unsigned k;
  wm_match_result r;
  uint64_t *per_vertex;
  wm_motif_sums sums;
  int rc;
  wm_error err;
} job;

static void *run(void *arg) {
  job *j = arg;
  wm_error *err = &j->err;
  wm_monitor stop = {.stop = 1};
  wm_monitor *was = j->interrupted ? wm_monitor_enter(&stop) : NULL;
  if (j->plan) {
    wm_match_options o;
    wm_match_options_init(&o);
    o.threads = 2;
    o.share = &j->p.share;
    o.per_vertex = j->per_vertex;
    o.cpu_hub_degree = 8; /* many hub tasks as well as roots */
    j->rc = wm_match_cpu(j->g, j->plan, &o, &j->r, err);
  } else {
    j->rc = wm_motif_sums_cpu_shared(j->g, j->k, 2, 0, &j->p.share, &j->sums, err);
  }
  if (j->interrupted) wm_monitor_leave(was);
  return NULL;
}

/* Runs PROCS processes on g, the one numbered `interrupted` (-1: none)
 * under a stopped monitor; *halted: the loops it halted. */
static void run_some(const wm_graph *g, const wm_plan *plan, unsigned k, job *jobs, int interrupted,
                     unsigned *halted) {
  common c;
  memset(&c, 0, sizeof c);
  pthread_barrier_init(&c.bar, NULL, PROCS);
  pthread_mutex_init(&c.mu, NULL);
  pthread_t t[PROCS];
  for (int i = 0; i < PROCS; i++) {
    memset(&jobs[i], 0, sizeof jobs[i]);
    jobs[i].p.c = &c;
    jobs[i].p.share = (wm_share){.ctx = &jobs[i].p, .processes = PROCS, .process = i, .loops = loops,
                                 .grab = grab, .halt = halt, .sum_u32 = sum_u32, .sum_u64 = sum_u64,
                                 .sum_i128 = sum_i128};
    jobs[i].g = g, jobs[i].plan = plan, jobs[i].k = k, jobs[i].interrupted = i == interrupted;
    if (plan) jobs[i].per_vertex = calloc(g->n, sizeof *jobs[i].per_vertex);
    pthread_create(&t[i], NULL, run, &jobs[i]);
  }
  for (int i = 0; i < PROCS; i++) pthread_join(t[i], NULL);
  pthread_barrier_destroy(&c.bar);
  pthread_mutex_destroy(&c.mu);
  free(c.sum);
  for (int i = 0; halted && i < LOOPS; i++) *halted += c.counter[i] >= (uint64_t)1 << 40;
}

/* Runs PROCS processes on g and checks each one's answer against one. */
static void run_all(const wm_graph *g, const wm_plan *plan, unsigned k, job *jobs) {
  run_some(g, plan, k, jobs, -1, NULL);
}

static void count_case(const wm_graph *g, const char *pattern) {
  wm_plan plan;
  wm_test_plan(g, pattern, 0, 1, 1, &plan);
  wm_match_options o;
  wm_match_options_init(&o);
  uint64_t *want_pv = calloc(g->n, sizeof *want_pv);
  o.per_vertex = want_pv;
  wm_match_result want;
  wm_error err;
  cr_assert_eq(wm_match_cpu(g, &plan, &o, &want, &err), WM_OK, "%s", err.msg);
  job jobs[PROCS];
  run_all(g, &plan, 0, jobs);
  for (int i = 0; i < PROCS; i++) {
    cr_assert_eq(jobs[i].rc, WM_OK);
    cr_expect_eq(jobs[i].r.count, want.count, "%s: process %d counted %llu, one process %llu", pattern, i,
                 (unsigned long long)jobs[i].r.count, (unsigned long long)want.count);
    cr_expect_eq(memcmp(jobs[i].per_vertex, want_pv, g->n * sizeof *want_pv), 0, "%s: per-vertex counts", pattern);
    free(jobs[i].per_vertex);
  }
  free(want_pv);
}

Test(share, counts_over_three_processes_equal_one) {
  wm_graph *g = wm_test_powerlaw(400, 8, 3, 0.3, 5);
  wm_graph *h = wm_test_by_degree(g);
  count_case(h, "triangle");
  count_case(h, "4-cycle");
  count_case(h, "house");
  wm_graph_destroy(h);
  wm_graph_destroy(g);
}

Test(share, motif_sums_over_three_processes_equal_one) {
  wm_graph *g = wm_test_powerlaw(300, 6, 2, 0.3, 9);
  wm_graph *h = wm_test_by_degree(g);
  for (unsigned k = 3; k <= 5; k++) {
    wm_motif_sums want;
    wm_error err;
    cr_assert_eq(wm_motif_sums_cpu(h, k, 2, 0, &want, &err), WM_OK, "%s", err.msg);
    job jobs[PROCS];
    run_all(h, NULL, k, jobs);
    for (int i = 0; i < PROCS; i++) {
      cr_assert_eq(jobs[i].rc, WM_OK);
      for (int s = 0; s < WM_SUM_COUNT; s++)
        cr_expect(jobs[i].sums.s[s] == want.s[s], "size %u: process %d, sum %d differs", k, i, s);
    }
  }
  wm_graph_destroy(h);
  wm_graph_destroy(g);
}

/* Under the test hook the first process's total and per-vertex counts
 * start at 2^64 - 1 - (the largest per-vertex count): the 128-bit sums
 * over the processes give each the start plus the count, past 2^64, and
 * per-vertex counts up to 2^64 - 1 exactly (added in 128 bits, since the
 * total passes 2^64). */
Test(share, totals_past_2_64) {
  wm_graph *g = wm_test_powerlaw(400, 8, 3, 0.3, 5);
  wm_plan plan;
  wm_test_plan(g, "4-cycle", 0, 1, 1, &plan);
  wm_match_options o;
  wm_match_options_init(&o);
  uint64_t *want_pv = calloc(g->n, sizeof *want_pv), most = 0;
  o.per_vertex = want_pv;
  wm_match_result want;
  wm_error err;
  cr_assert_eq(wm_match_cpu(g, &plan, &o, &want, &err), WM_OK, "%s", err.msg);
  for (uint32_t v = 0; v < g->n; v++) most = want_pv[v] > most ? want_pv[v] : most;
  const uint64_t start = UINT64_MAX - most;
  cr_assert_gt(want.count, most + 1, "the total must pass 2^64");
  char s[32];
  snprintf(s, sizeof s, "%llu", (unsigned long long)start);
  cr_assert_eq(setenv("WM_TEST_COUNT_START", s, 1), 0);
  job jobs[PROCS];
  run_all(g, &plan, 0, jobs);
  char a[WM_I128_CHARS], b[WM_I128_CHARS];
  const wm_u128 total = want.count + start;
  for (int i = 0; i < PROCS; i++) {
    cr_assert_eq(jobs[i].rc, WM_OK, "%s", jobs[i].err.msg);
    cr_assert(jobs[i].r.count == total, "process %d: %s, want %s", i, wm_u128_str(jobs[i].r.count, a),
              wm_u128_str(total, b));
    for (uint32_t v = 0; v < g->n; v++)
      cr_assert_eq(jobs[i].per_vertex[v], start + want_pv[v], "process %d, vertex %u", i, v);
    free(jobs[i].per_vertex);
  }
  free(want_pv);
  wm_graph_destroy(g);
}

/* The first process's per-vertex counts start at 2^64 - 2: every vertex in
 * two or more 4-cycles passes 2^64 - 1 once the processes' counts are
 * added (in 128 bits), and every process fails naming a vertex. */
Test(share, per_vertex_past_2_64_fails_in_every_process) {
  wm_graph *g = wm_test_powerlaw(400, 8, 3, 0.3, 5);
  wm_plan plan;
  wm_test_plan(g, "4-cycle", 0, 1, 1, &plan);
  cr_assert_eq(setenv("WM_TEST_COUNT_START", "18446744073709551614", 1), 0);
  job jobs[PROCS];
  run_all(g, &plan, 0, jobs);
  for (int i = 0; i < PROCS; i++) {
    cr_assert_eq(jobs[i].rc, WM_EINPUT, "process %d: rc %d", i, jobs[i].rc);
    cr_assert(strstr(jobs[i].err.msg, "per-vertex counts: vertex") && strstr(jobs[i].err.msg, "passes 2^64 - 1"),
              "process %d: %s", i, jobs[i].err.msg);
    free(jobs[i].per_vertex);
  }
  wm_graph_destroy(g);
}

/* Process 1 interrupted (its own monitor's flag, from the start): every
 * process returns WM_EINTERRUPTED, none a partial answer, the others
 * naming another process, and it halted the call's loops (so that the
 * others took no more work). */
static void expect_interrupted(job *jobs, unsigned halted, unsigned loops, const char *what) {
  for (int i = 0; i < PROCS; i++) {
    cr_assert_eq(jobs[i].rc, WM_EINTERRUPTED, "%s: process %d: rc %d (%s)", what, i, jobs[i].rc, jobs[i].err.msg);
    cr_assert_eq(strstr(jobs[i].err.msg, "another process") != NULL, i != 1, "%s: process %d: %s", what, i,
                 jobs[i].err.msg);
    free(jobs[i].per_vertex);
  }
  cr_assert_eq(halted, loops, "%s: %u loops halted, want %u", what, halted, loops);
}

Test(share, one_process_interrupted_stops_every_count) {
  wm_graph *g = wm_test_powerlaw(400, 8, 3, 0.3, 5);
  wm_plan plan;
  wm_test_plan(g, "4-cycle", 0, 1, 1, &plan);
  job jobs[PROCS];
  unsigned halted = 0;
  run_some(g, &plan, 0, jobs, 1, &halted);
  expect_interrupted(jobs, halted, 2, "count"); /* hub tasks, roots */
  wm_graph_destroy(g);
}

Test(share, one_process_interrupted_stops_every_motif_sum) {
  wm_graph *g = wm_test_powerlaw(300, 6, 2, 0.3, 9);
  wm_graph *h = wm_test_by_degree(g);
  job jobs[PROCS];
  unsigned halted = 0;
  run_some(h, NULL, 5, jobs, 1, &halted);
  expect_interrupted(jobs, halted, 5, "motif sums"); /* motif_sums_cpu.c's LOOPS */
  wm_graph_destroy(h);
  wm_graph_destroy(g);
}
