/* Interrupting a call (warpmatch_interrupt) and its progress callback
 * (warpmatch_set_progress_callback): a CPU count and a motif count stopped
 * from another thread return WARPMATCH_EINTERRUPTED long before their work
 * is done (their progress short of its total) and within 2 s of the
 * interrupt, where the whole call takes seconds; the context and graph
 * then count as a fresh context does; a flag set before the call stops it
 * at once; the callback hears the phase's name with growing amounts up to
 * its total. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "testutil.h"
#include "warpmatch.h"

/* What the callback heard: the first phase's name, its calls, whether done
 * ever went down within a phase, the last amounts, and whether the phase
 * `want` (may be NULL) was reached. */
typedef struct heard {
  const char *want;
  int calls, went_down, reached;
  char first_phase[64], phase[64];
  uint64_t done, total;
} heard;

static void on_progress(void *user, const char *phase, uint64_t done, uint64_t total) {
  heard *h = user;
  int same = h->calls && strcmp(phase, h->phase) == 0;
  if (same && done < h->done) h->went_down = 1;
  if (!h->calls) snprintf(h->first_phase, sizeof h->first_phase, "%s", phase);
  snprintf(h->phase, sizeof h->phase, "%s", phase);
  h->done = done;
  h->total = total;
  if (h->want && strcmp(phase, h->want) == 0) __atomic_store_n(&h->reached, 1, __ATOMIC_RELEASE);
  __atomic_store_n(&h->calls, h->calls + 1, __ATOMIC_RELEASE);
}

static warpmatch_context *ctx_new(void) {
  warpmatch_context *ctx = NULL;
  cr_assert_eq(warpmatch_context_create(&ctx), WARPMATCH_OK);
  return ctx;
}

static warpmatch_graph *kron(warpmatch_context *ctx, unsigned scale) {
  warpmatch_gen_options o;
  warpmatch_gen_options_init(&o, WARPMATCH_GEN_KRON, scale, 1);
  warpmatch_graph *g = NULL;
  cr_assert_eq(warpmatch_generate(ctx, &o, &g), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  return g;
}

static uint64_t count_on(warpmatch_context *ctx, const warpmatch_graph *g, const char *name, int method) {
  warpmatch_pattern *p = NULL;
  cr_assert_eq(warpmatch_pattern_create(ctx, name, &p), WARPMATCH_OK);
  warpmatch_count_options o;
  warpmatch_count_options_init(&o);
  o.device = WARPMATCH_DEVICE_CPU;
  o.method = method;
  warpmatch_count_result r;
  cr_assert_eq(warpmatch_count(ctx, g, p, &o, &r), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  warpmatch_pattern_destroy(p);
  return r.count;
}

/* A call on another thread: a house count by enumeration (about 10 s on
 * Kronecker scale 12 with 2 threads) or the 5-vertex motifs (about 5 s on
 * scale 13). */
typedef struct call {
  warpmatch_context *ctx;
  const warpmatch_graph *g;
  int motifs;
  int rc;
  double ended;
} call;

static void *run_call(void *arg) {
  call *c = arg;
  warpmatch_count_options o;
  warpmatch_count_options_init(&o);
  o.device = WARPMATCH_DEVICE_CPU;
  if (c->motifs) {
    warpmatch_motif out[21];
    c->rc = warpmatch_motifs(c->ctx, c->g, 5, &o, out);
  } else {
    warpmatch_pattern *p = NULL;
    cr_assert_eq(warpmatch_pattern_create(c->ctx, "house", &p), WARPMATCH_OK);
    o.method = WARPMATCH_METHOD_ENUMERATE;
    warpmatch_count_result r;
    c->rc = warpmatch_count(c->ctx, c->g, p, &o, &r);
    warpmatch_pattern_destroy(p);
  }
  c->ended = wm_test_now();
  return NULL;
}

/* Starts the call, waits until its main phase reports (a loaded machine can
 * spend a while in the planner's timed slices first), interrupts it 0.3 s
 * later and checks that it stopped: in time, short of its total. */
static void interrupt_running(int motifs, unsigned scale, const char *phase) {
  warpmatch_context *ctx = ctx_new();
  cr_assert_eq(warpmatch_set_threads(ctx, 2), WARPMATCH_OK);
  warpmatch_graph *g = kron(ctx, scale);
  heard h;
  memset(&h, 0, sizeof h);
  h.want = phase;
  cr_assert_eq(warpmatch_set_progress_callback(ctx, on_progress, &h), WARPMATCH_OK);
  call c = {ctx, g, motifs, -1, 0};
  pthread_t t;
  cr_assert_eq(pthread_create(&t, NULL, run_call, &c), 0);
  for (int i = 0; i < 60000 && !__atomic_load_n(&h.reached, __ATOMIC_ACQUIRE); i++) wm_test_pause_ms(1);
  cr_assert(__atomic_load_n(&h.reached, __ATOMIC_ACQUIRE), "no progress reported in phase %s", phase);
  wm_test_pause_ms(300);
  const double asked = wm_test_now();
  warpmatch_interrupt(ctx, 1);
  pthread_join(t, NULL);
  cr_assert_eq(c.rc, WARPMATCH_EINTERRUPTED, "rc %d: %s", c.rc, warpmatch_last_error(ctx));
  cr_assert(strstr(warpmatch_last_error(ctx), "interrupted"), "%s", warpmatch_last_error(ctx));
  cr_assert_lt(c.ended - asked, 2.0, "returned %.2f s after the interrupt", c.ended - asked);
  cr_assert_str_eq(h.phase, phase);
  cr_assert_lt(h.done, h.total, "the phase ran to its end (%llu of %llu)", (unsigned long long)h.done,
               (unsigned long long)h.total);
  cr_log_info("%s interrupted: returned %.3f s after the flag", phase, c.ended - asked);

  /* cleared, the same context and graph count as a fresh context does */
  warpmatch_interrupt(ctx, 0);
  cr_assert_eq(warpmatch_set_progress_callback(ctx, NULL, NULL), WARPMATCH_OK);
  warpmatch_context *fresh = ctx_new();
  cr_assert_eq(count_on(ctx, g, "4-cycle", WARPMATCH_METHOD_ENUMERATE),
               count_on(fresh, g, "4-cycle", WARPMATCH_METHOD_ENUMERATE));
  warpmatch_motif a[6], b[6];
  cr_assert_eq(warpmatch_motifs(ctx, g, 4, NULL, a), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  cr_assert_eq(warpmatch_motifs(fresh, g, 4, NULL, b), WARPMATCH_OK);
  for (int i = 0; i < 6; i++) cr_assert_eq(a[i].count, b[i].count, "%s", a[i].name);
  warpmatch_context_destroy(fresh);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

Test(interrupt, count_from_another_thread, .timeout = 300) { interrupt_running(0, 12, "counting"); }

Test(interrupt, motifs_from_another_thread, .timeout = 300) { interrupt_running(1, 13, "motif sums"); }

/* Set before the call: it returns at its first check, long before the
 * 10 s it takes, and keeps returning so until cleared. */
Test(interrupt, flag_set_before_the_call) {
  warpmatch_context *ctx = ctx_new();
  cr_assert_eq(warpmatch_set_threads(ctx, 2), WARPMATCH_OK);
  warpmatch_graph *g = kron(ctx, 12);
  warpmatch_interrupt(ctx, 1);
  for (int motifs = 0; motifs < 2; motifs++) {
    call c = {ctx, g, motifs, -1, 0};
    const double t0 = wm_test_now();
    run_call(&c);
    cr_assert_eq(c.rc, WARPMATCH_EINTERRUPTED, "rc %d: %s", c.rc, warpmatch_last_error(ctx));
    cr_assert_lt(c.ended - t0, 2.0, "took %.2f s", c.ended - t0);
  }
  warpmatch_gen_options o;
  warpmatch_gen_options_init(&o, WARPMATCH_GEN_KRON, 12, 1);
  warpmatch_graph *g2 = NULL;
  cr_assert_eq(warpmatch_generate(ctx, &o, &g2), WARPMATCH_EINTERRUPTED);
  cr_assert_null(g2);
  warpmatch_interrupt(ctx, 0);
  warpmatch_context *fresh = ctx_new();
  cr_assert_eq(count_on(ctx, g, "triangle", WARPMATCH_METHOD_AUTO), count_on(fresh, g, "triangle", 0));
  warpmatch_context_destroy(fresh);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

/* The phase by name, done never going down, the last report its total. */
Test(interrupt, progress_callback) {
  warpmatch_context *ctx = ctx_new();
  cr_assert_eq(warpmatch_set_threads(ctx, 2), WARPMATCH_OK);
  warpmatch_graph *g = kron(ctx, 10);
  heard h;
  memset(&h, 0, sizeof h);
  cr_assert_eq(warpmatch_set_progress_callback(ctx, on_progress, &h), WARPMATCH_OK);
  count_on(ctx, g, "4-cycle", WARPMATCH_METHOD_ENUMERATE);
  cr_assert_geq(h.calls, 2, "the first update and the end");
  /* auto's timed slices, where the count pays for them, come first, each
   * order its own phase (api/slices.c) */
  cr_assert(!strcmp(h.first_phase, "counting") || !strncmp(h.first_phase, "timing order 1 of ", 18), "%s",
            h.first_phase);
  cr_assert_str_eq(h.phase, "counting");
  cr_assert_not(h.went_down);
  cr_assert_gt(h.total, 0);
  cr_assert_eq(h.done, h.total);
  /* turned off: no more calls */
  const int calls = h.calls;
  cr_assert_eq(warpmatch_set_progress_callback(ctx, NULL, NULL), WARPMATCH_OK);
  count_on(ctx, g, "4-cycle", WARPMATCH_METHOD_ENUMERATE);
  cr_assert_eq(h.calls, calls);
  cr_assert_eq(warpmatch_set_progress_callback(NULL, on_progress, &h), WARPMATCH_EUSAGE);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

/* The orbits (enumerated and by the 4- and 5-vertex formulas) and the directed
 * 4-vertex motifs stop too, and run again once the flag is cleared. */
Test(interrupt, orbits_and_directed_motifs) {
  warpmatch_context *ctx = ctx_new();
  cr_assert_eq(warpmatch_set_threads(ctx, 2), WARPMATCH_OK);
  warpmatch_graph *g = kron(ctx, 9);
  const uint32_t n = warpmatch_graph_vertices(g);
  uint64_t *counts = calloc((size_t)n * warpmatch_orbit_count(5), sizeof *counts);
  cr_assert_not_null(counts);
  enum { ARCS = 3000 };
  uint32_t src[ARCS], dst[ARCS];
  for (uint32_t i = 0; i < ARCS; i++) src[i] = i % 300, dst[i] = (i * 7919u + 13u) % 300;
  warpmatch_graph *d = NULL;
  cr_assert_eq(warpmatch_graph_from_edges(ctx, 300, src, dst, ARCS, 1, &d), WARPMATCH_OK, "%s",
               warpmatch_last_error(ctx));
  warpmatch_directed_motif out[218];
  for (int on = 1; on >= 0; on--) {
    const int want = on ? WARPMATCH_EINTERRUPTED : WARPMATCH_OK;
    warpmatch_interrupt(ctx, on);
    for (unsigned size = 4; size <= 5; size++)
      for (int method = WARPMATCH_METHOD_FORMULA; method <= WARPMATCH_METHOD_ENUMERATE; method++) {
        warpmatch_orbit_options o;
        warpmatch_orbit_options_init(&o);
        o.device = WARPMATCH_DEVICE_CPU;
        o.method = method;
        o.graphlet_size = size;
        cr_assert_eq(warpmatch_orbits(ctx, g, &o, counts, NULL), want, "size %u, method %d: %s", size, method,
                     warpmatch_last_error(ctx));
      }
    for (int method = WARPMATCH_METHOD_AUTO; method <= WARPMATCH_METHOD_ENUMERATE; method += 2) {
      warpmatch_directed_motif_options o;
      warpmatch_directed_motif_options_init(&o);
      o.method = method;
      cr_assert_eq(warpmatch_motifs_directed(ctx, d, 4, &o, out, NULL), want, "method %d: %s", method,
                   warpmatch_last_error(ctx));
    }
  }
  free(counts);
  warpmatch_graph_destroy(d);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

/* ---- BFS and the triad census, stopped from a second thread ----------- */

/* A call of several seconds on another thread: a CPU BFS from vertex 0 of
 * a long thin grid (a level per row: hundreds of thousands of levels), or
 * the directed triad census. */
typedef struct long_call {
  warpmatch_context *ctx;
  const warpmatch_graph *g;
  int census;
  int32_t *levels;
  warpmatch_directed_motif rows[16];
  warpmatch_bfs_result bfs;
  int rc;
  double ended;
} long_call;

static void *run_long(void *arg) {
  long_call *c = arg;
  if (c->census) { /* the CPU's census (AUTO would take a host's GPU: milliseconds) */
    warpmatch_directed_motif_options o;
    warpmatch_directed_motif_options_init(&o);
    o.device = WARPMATCH_DEVICE_CPU;
    c->rc = warpmatch_motifs_directed(c->ctx, c->g, 3, &o, c->rows, NULL);
  }
  else
    c->rc = warpmatch_bfs(c->ctx, c->g, 0, WARPMATCH_DEVICE_CPU, c->levels, NULL, &c->bfs);
  c->ended = wm_test_now();
  return NULL;
}

/* Runs c to its end on the calling thread (the reference), then again on
 * another thread interrupted 0.3 s in: EINTERRUPTED within 0.5 s of the
 * flag, and once cleared the same context's next call answers as the
 * reference did. */
static void interrupt_long(long_call *c, long_call *ref) {
  const double t0 = wm_test_now();
  run_long(ref);
  cr_assert_eq(ref->rc, WARPMATCH_OK, "%s", warpmatch_last_error(ref->ctx));
  cr_assert_gt(ref->ended - t0, 0.6, "the whole call takes %.2f s: too short to stop 0.3 s in", ref->ended - t0);
  pthread_t t;
  cr_assert_eq(pthread_create(&t, NULL, run_long, c), 0);
  wm_test_pause_ms(300);
  const double asked = wm_test_now();
  warpmatch_interrupt(c->ctx, 1);
  pthread_join(t, NULL);
  cr_assert_eq(c->rc, WARPMATCH_EINTERRUPTED, "rc %d: %s", c->rc, warpmatch_last_error(c->ctx));
  cr_assert(strstr(warpmatch_last_error(c->ctx), "interrupted"), "%s", warpmatch_last_error(c->ctx));
  cr_assert_lt(c->ended - asked, 0.5, "returned %.3f s after the interrupt", c->ended - asked);
  cr_log_info("%s interrupted: returned %.3f s after the flag (the whole call %.2f s)", c->census ? "census" : "bfs",
              c->ended - asked, ref->ended - t0);
  warpmatch_interrupt(c->ctx, 0);
  run_long(c);
  cr_assert_eq(c->rc, WARPMATCH_OK, "%s", warpmatch_last_error(c->ctx));
}

Test(interrupt, bfs_from_another_thread, .timeout = 300) {
  warpmatch_context *ctx = ctx_new(), *fresh = ctx_new();
  cr_assert_eq(warpmatch_set_threads(ctx, 2), WARPMATCH_OK);
  cr_assert_eq(warpmatch_set_threads(fresh, 2), WARPMATCH_OK);
  warpmatch_gen_options o;
  warpmatch_gen_options_init(&o, WARPMATCH_GEN_GRID, 0, 1);
  o.width = 2;
  o.height = 1000000;
  warpmatch_graph *g = NULL;
  cr_assert_eq(warpmatch_generate(ctx, &o, &g), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  const uint32_t n = warpmatch_graph_vertices(g);
  long_call c, ref;
  memset(&c, 0, sizeof c);
  c.ctx = ctx, c.g = g, c.levels = calloc(n, sizeof(int32_t));
  ref = c;
  ref.ctx = fresh, ref.levels = calloc(n, sizeof(int32_t));
  cr_assert(c.levels && ref.levels);
  interrupt_long(&c, &ref);
  /* vertex 0 is a corner: the far corner is width + height - 2 hops away,
   * the last of width + height - 1 levels */
  cr_assert_eq(ref.bfs.depth, (uint32_t)(o.width + o.height - 1));
  cr_assert_eq(ref.bfs.reached, n);
  cr_assert_eq(c.bfs.depth, ref.bfs.depth);
  cr_assert_eq(c.bfs.reached, ref.bfs.reached);
  cr_assert_eq(memcmp(c.levels, ref.levels, (size_t)n * sizeof(int32_t)), 0);
  free(c.levels);
  free(ref.levels);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(fresh);
  warpmatch_context_destroy(ctx);
}

/* The census of Kronecker scale 14's edges, each as an arc from its lower
 * end but every third, which is mutual (both arcs). */
Test(interrupt, triad_census_from_another_thread, .timeout = 300) {
  warpmatch_context *ctx = ctx_new(), *fresh = ctx_new();
  cr_assert_eq(warpmatch_set_threads(ctx, 2), WARPMATCH_OK);
  cr_assert_eq(warpmatch_set_threads(fresh, 2), WARPMATCH_OK);
  warpmatch_graph *u = kron(ctx, 14);
  const uint64_t m = warpmatch_graph_edges(u);
  uint32_t *src = malloc((size_t)(2 * m) * sizeof *src), *dst = malloc((size_t)(2 * m) * sizeof *dst);
  cr_assert(src && dst);
  warpmatch_graph_edge_ends(u, src, dst);
  uint64_t arcs = m;
  for (uint64_t i = 0; i < m; i += 3, arcs++) src[arcs] = dst[i], dst[arcs] = src[i];
  warpmatch_graph *d = NULL;
  cr_assert_eq(warpmatch_graph_from_edges(ctx, warpmatch_graph_vertices(u), src, dst, arcs, 1, &d), WARPMATCH_OK,
               "%s", warpmatch_last_error(ctx));
  free(src);
  free(dst);
  long_call c, ref;
  memset(&c, 0, sizeof c);
  c.ctx = ctx, c.g = d, c.census = 1;
  ref = c;
  ref.ctx = fresh;
  interrupt_long(&c, &ref);
  for (int i = 0; i < 16; i++) {
    cr_assert_str_eq(c.rows[i].name, ref.rows[i].name);
    cr_assert(c.rows[i].count == ref.rows[i].count && c.rows[i].count_high == ref.rows[i].count_high, "%s",
              c.rows[i].name);
  }
  warpmatch_graph_destroy(d);
  warpmatch_graph_destroy(u);
  warpmatch_context_destroy(fresh);
  warpmatch_context_destroy(ctx);
}

static volatile sig_atomic_t own_handler_calls;
static void own_handler(int sig) {
  (void)sig;
  own_handler_calls++;
}

/* warpmatch_catch_sigint: a SIGINT while caught interrupts the context
 * (a call then stops at once) and is reported, not passed to the handler
 * it replaced, which is back afterwards; one catch at a time; ignored
 * stays ignored. */
Test(interrupt, catch_sigint) {
  warpmatch_context *ctx = ctx_new(), *other = ctx_new();
  warpmatch_graph *g = kron(ctx, 10);
  struct sigaction sa, before;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = own_handler;
  sigemptyset(&sa.sa_mask);
  cr_assert_eq(sigaction(SIGINT, &sa, &before), 0);
  int caught = -1;
  cr_assert_eq(warpmatch_catch_sigint(ctx, 1, NULL), WARPMATCH_OK);
  cr_assert_eq(warpmatch_catch_sigint(other, 1, NULL), WARPMATCH_EUSAGE, "a second catch");
  cr_assert_eq(warpmatch_catch_sigint(other, 0, &caught), WARPMATCH_EUSAGE, "not the catching context");
  raise(SIGINT);
  cr_assert_eq(own_handler_calls, 0, "the replaced handler ran during the catch");
  call c = {ctx, g, 0, -1, 0};
  run_call(&c);
  cr_assert_eq(c.rc, WARPMATCH_EINTERRUPTED, "rc %d after a caught SIGINT", c.rc);
  cr_assert_eq(warpmatch_catch_sigint(ctx, 0, &caught), WARPMATCH_OK);
  cr_assert_eq(caught, 1);
  warpmatch_interrupt(ctx, 0);
  raise(SIGINT);
  cr_assert_eq(own_handler_calls, 1, "the handler is not back after the catch");
  /* no SIGINT: not caught, the calls run */
  cr_assert_eq(warpmatch_catch_sigint(other, 1, NULL), WARPMATCH_OK);
  cr_assert_eq(warpmatch_catch_sigint(other, 0, &caught), WARPMATCH_OK);
  cr_assert_eq(caught, 0);
  /* ignored: the catch leaves it so and hears nothing */
  sa.sa_handler = SIG_IGN;
  cr_assert_eq(sigaction(SIGINT, &sa, NULL), 0);
  cr_assert_eq(warpmatch_catch_sigint(ctx, 1, NULL), WARPMATCH_OK);
  raise(SIGINT);
  cr_assert_eq(warpmatch_catch_sigint(ctx, 0, &caught), WARPMATCH_OK);
  cr_assert_eq(caught, 0);
  call d = {ctx, g, 0, -1, 0};
  run_call(&d);
  cr_assert_eq(d.rc, WARPMATCH_OK, "rc %d: %s", d.rc, warpmatch_last_error(ctx));
  cr_assert_eq(sigaction(SIGINT, &before, NULL), 0);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(other);
  warpmatch_context_destroy(ctx);
}
