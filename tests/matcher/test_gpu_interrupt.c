/* warpmatch_interrupt on the GPU: a stack-kernel count (house,
 * enumerated), a dedicated-kernel count (6-clique), the 5-vertex motifs,
 * the 5-vertex orbits and a BFS (on a long grid), each on the smallest
 * graph on which the whole call takes at least MIN_CALL_S, interrupted
 * 0.3 s in from another thread: WARPMATCH_EINTERRUPTED within 0.5 s of the
 * flag, and the same context's next call answers as the uninterrupted one
 * did; a flag set before the call stops it at once; on one GPU and on
 * every GPU of the host. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "matcher.h"
#include "testutil.h"
#include "warpmatch.h"

/* Long enough that 0.3 s in is well before the end. */
#define MIN_CALL_S 1.5

enum kind { STACK, CLIQUE, MOTIFS, ORBITS, BFS };

/* One call and what it answered: a count, the 21 motifs or the orbits. */
typedef struct gcall {
  warpmatch_context *ctx;
  const warpmatch_graph *g;
  enum kind kind;
  int gpus;
  int rc;
  double started, ended;
  uint64_t count, count_high;
  warpmatch_motif motifs[21];
  uint64_t *orbits; /* n x 73 */
  int32_t *levels;  /* BFS: n */
} gcall;

/* The phase the call last reported (warpmatch_set_progress_callback), so
 * that a late return says where the call was when the flag came. */
typedef struct phase_seen {
  char name[64];
  uint64_t done, total;
} phase_seen;

static pthread_mutex_t seen_lock = PTHREAD_MUTEX_INITIALIZER;

static void on_progress(void *user, const char *phase, uint64_t done, uint64_t total) {
  phase_seen *s = user;
  pthread_mutex_lock(&seen_lock);
  snprintf(s->name, sizeof s->name, "%s", phase);
  s->done = done, s->total = total;
  pthread_mutex_unlock(&seen_lock);
}

static void *run_call(void *arg) {
  gcall *c = arg;
  c->started = wm_test_now();
  if (c->kind == BFS) {
    warpmatch_bfs_result r;
    c->rc = warpmatch_bfs(c->ctx, c->g, 0, WARPMATCH_DEVICE_GPU, c->levels, NULL, &r);
  } else if (c->kind == ORBITS) {
    warpmatch_orbit_options o;
    warpmatch_orbit_options_init(&o);
    o.device = WARPMATCH_DEVICE_GPU;
    o.method = WARPMATCH_METHOD_FORMULA;
    o.gpus = c->gpus;
    c->rc = warpmatch_orbits(c->ctx, c->g, &o, c->orbits, NULL);
  } else {
    warpmatch_count_options o;
    warpmatch_count_options_init(&o);
    o.device = WARPMATCH_DEVICE_GPU;
    if (c->kind == MOTIFS) {
      c->rc = warpmatch_motifs(c->ctx, c->g, 5, &o, c->motifs);
    } else {
      warpmatch_pattern *p = NULL;
      c->rc = warpmatch_pattern_create(c->ctx, c->kind == STACK ? "house" : "6-clique", &p);
      o.method = WARPMATCH_METHOD_ENUMERATE;
      warpmatch_count_result r;
      memset(&r, 0, sizeof r);
      if (c->rc == WARPMATCH_OK) c->rc = warpmatch_count(c->ctx, c->g, p, &o, &r);
      c->count = r.count, c->count_high = r.count_high;
      warpmatch_pattern_destroy(p);
    }
  }
  c->ended = wm_test_now();
  return NULL;
}

static void same_answer(const gcall *a, const gcall *b, uint32_t n) {
  if (a->kind == BFS) {
    cr_assert_eq(memcmp(a->levels, b->levels, (size_t)n * sizeof *a->levels), 0, "the levels differ");
  } else if (a->kind == ORBITS) {
    cr_assert_eq(memcmp(a->orbits, b->orbits, (size_t)n * 73 * sizeof *a->orbits), 0, "the orbits differ");
  } else if (a->kind == MOTIFS) {
    for (int i = 0; i < 21; i++)
      cr_assert(a->motifs[i].count == b->motifs[i].count && a->motifs[i].count_high == b->motifs[i].count_high,
                "%s", a->motifs[i].name);
  } else {
    cr_assert(a->count == b->count && a->count_high == b->count_high, "count %llu against %llu",
              (unsigned long long)a->count, (unsigned long long)b->count);
  }
}

static void prepare(gcall *c, warpmatch_context *ctx, const warpmatch_graph *g, enum kind kind, int gpus) {
  memset(c, 0, sizeof *c);
  c->ctx = ctx, c->g = g, c->kind = kind, c->gpus = gpus, c->rc = -1;
  if (kind == ORBITS) {
    c->orbits = calloc((size_t)warpmatch_graph_vertices(g) * 73, sizeof *c->orbits);
    cr_assert_not_null(c->orbits);
  }
  if (kind == BFS) {
    c->levels = calloc(warpmatch_graph_vertices(g), sizeof *c->levels);
    cr_assert_not_null(c->levels);
  }
}

/* The smallest scale from `scale` up to `most` whose call takes
 * MIN_CALL_S: its graph in *g and the call's answer in ref. */
static void long_enough(warpmatch_context *ctx, enum kind kind, int gpus, unsigned scale, unsigned most,
                        warpmatch_graph **g, gcall *ref) {
  for (;; scale++) {
    warpmatch_gen_options o;
    warpmatch_gen_options_init(&o, WARPMATCH_GEN_KRON, scale, 1);
    if (kind == BFS) { /* a level per row of a 2-wide grid: 2^(scale-1) levels */
      warpmatch_gen_options_init(&o, WARPMATCH_GEN_GRID, 0, 1);
      o.width = 2;
      o.height = 1ull << (scale - 1);
    }
    *g = NULL;
    cr_assert_eq(warpmatch_generate(ctx, &o, g), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
    prepare(ref, ctx, *g, kind, gpus);
    /* timed warm, as the interrupted call runs: the first call on a graph
     * also uploads it and makes the device's pools */
    for (int warm = 0; warm < 2; warm++) {
      run_call(ref);
      cr_assert_eq(ref->rc, WARPMATCH_OK, "scale %u: %s", scale, warpmatch_last_error(ctx));
    }
    const double took = ref->ended - ref->started;
    cr_log_info("kind %d on %d GPU(s), Kronecker scale %u: %.2f s", (int)kind, gpus, scale, took);
    if (took >= MIN_CALL_S) return;
    cr_assert_lt(scale, most, "scale %u takes %.2f s only: no graph up to it runs %.1f s", scale, took, MIN_CALL_S);
    free(ref->orbits);
    free(ref->levels);
    warpmatch_graph_destroy(*g);
  }
}

static void interrupt_gpu(enum kind kind, int gpus, unsigned scale, unsigned most) {
  if (gpus > wm_gpu_count()) cr_skip_test("needs %d GPUs, the host has %d", gpus, wm_gpu_count());
  warpmatch_context *ctx = NULL;
  cr_assert_eq(warpmatch_context_create(&ctx), WARPMATCH_OK);
  cr_assert_eq(warpmatch_set_gpus(ctx, gpus), WARPMATCH_OK);
  warpmatch_graph *g = NULL;
  gcall ref, c;
  long_enough(ctx, kind, gpus, scale, most, &g, &ref);
  prepare(&c, ctx, g, kind, gpus);
  phase_seen seen = {"(none reported)", 0, 0}, at_flag;
  cr_assert_eq(warpmatch_set_progress_callback(ctx, on_progress, &seen), WARPMATCH_OK);
  pthread_t t;
  cr_assert_eq(pthread_create(&t, NULL, run_call, &c), 0);
  wm_test_pause_ms(300);
  const double asked = wm_test_now();
  pthread_mutex_lock(&seen_lock);
  at_flag = seen;
  pthread_mutex_unlock(&seen_lock);
  warpmatch_interrupt(ctx, 1);
  pthread_join(t, NULL);
  cr_assert_eq(warpmatch_set_progress_callback(ctx, NULL, NULL), WARPMATCH_OK);
  cr_log_info("kind %d: at the flag '%s' %llu of %llu; last reported '%s' %llu of %llu", (int)kind, at_flag.name,
              (unsigned long long)at_flag.done, (unsigned long long)at_flag.total, seen.name,
              (unsigned long long)seen.done, (unsigned long long)seen.total);
  cr_assert_eq(c.rc, WARPMATCH_EINTERRUPTED, "rc %d: %s", c.rc, warpmatch_last_error(ctx));
  cr_assert(strstr(warpmatch_last_error(ctx), "interrupted"), "%s", warpmatch_last_error(ctx));
  cr_assert_lt(c.ended - asked, 0.5, "returned %.3f s after the interrupt", c.ended - asked);
  cr_log_info("kind %d on %d GPU(s): returned %.3f s after the flag", (int)kind, gpus, c.ended - asked);
  /* cleared: the next call answers as the uninterrupted one did */
  warpmatch_interrupt(ctx, 0);
  run_call(&c);
  cr_assert_eq(c.rc, WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  same_answer(&c, &ref, warpmatch_graph_vertices(g));
  /* set before the call: it stops at once, long before its MIN_CALL_S */
  warpmatch_interrupt(ctx, 1);
  run_call(&c);
  cr_assert_eq(c.rc, WARPMATCH_EINTERRUPTED, "rc %d: %s", c.rc, warpmatch_last_error(ctx));
  cr_assert_lt(c.ended - c.started, 0.5, "took %.3f s with the flag set", c.ended - c.started);
  warpmatch_interrupt(ctx, 0);
  free(c.orbits);
  free(ref.orbits);
  free(c.levels);
  free(ref.levels);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

Test(gpu_interrupt, stack_count, .timeout = 900) { interrupt_gpu(STACK, 1, 14, 24); }
Test(gpu_interrupt, clique_count, .timeout = 900) { interrupt_gpu(CLIQUE, 1, 14, 23); }
Test(gpu_interrupt, motifs_5, .timeout = 900) { interrupt_gpu(MOTIFS, 1, 13, 22); }
Test(gpu_interrupt, orbits_5, .timeout = 900) { interrupt_gpu(ORBITS, 1, 11, 20); }
/* BFS stops between levels (the host's loop; the small-level kernel returns
 * to it within its edge budget) */
Test(gpu_interrupt, bfs, .timeout = 900) { interrupt_gpu(BFS, 1, 16, 25); }

/* Every GPU of the host: each stops (a kernel per device polls the one
 * host word). */
static int all_gpus(void) { return wm_gpu_count() > 1 ? wm_gpu_count() : 2; }
Test(gpu_interrupt, stack_count_all_gpus, .timeout = 900) { interrupt_gpu(STACK, all_gpus(), 14, 24); }
Test(gpu_interrupt, motifs_5_all_gpus, .timeout = 900) { interrupt_gpu(MOTIFS, all_gpus(), 13, 22); }
Test(gpu_interrupt, orbits_5_all_gpus, .timeout = 900) { interrupt_gpu(ORBITS, all_gpus(), 11, 20); }
