/* warpmatch_orbits: the graphlet orbit counts of every vertex, on the
 * graph's own numbering (rows in index order).  On the GPU (device GPU, or
 * AUTO where one is usable) the formula's aggregates are the device's; what
 * has no GPU executor (the enumerator, the 5-vertex formula) runs on
 * the CPU, as motifs' count runs what it cannot put on the GPU, and the
 * result says so. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "api_internal.h"
#include "base.h"
#include "device.h" /* wm_host_copy */
#include "matcher.h" /* wm_match_median */
#include "orbits.h"

unsigned warpmatch_orbit_count(unsigned size) { return wm_orbit_count(size); }
unsigned warpmatch_edge_orbit_count(unsigned size) { return wm_edge_orbit_count(size); }

void warpmatch_orbit_options_init(warpmatch_orbit_options *o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->size = sizeof *o;
  o->graphlet_size = 5;
  o->device = WARPMATCH_DEVICE_AUTO;
  o->method = WARPMATCH_METHOD_AUTO;
}

static int check(warpmatch_context *ctx, const char *who, const warpmatch_graph *g, const warpmatch_orbit_options *o) {
  if (o->graphlet_size < 2 || o->graphlet_size > 5)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: graphlet_size %u; orbits are counted for graphlets of up to 2..5 "
                       "vertices", who, o->graphlet_size);
  if (o->method < WARPMATCH_METHOD_AUTO || o->method > WARPMATCH_METHOD_ENUMERATE)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: method %d; use WARPMATCH_METHOD_AUTO, _FORMULA or _ENUMERATE", who,
                       o->method);
  if (o->edges && !wm_edge_orbit_count(o->graphlet_size))
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: edge orbits are counted for graphlet_size 3, 4 or 5 (not %u)",
                       who, o->graphlet_size);
  if (o->edges && o->method == WARPMATCH_METHOD_FORMULA && !wm_edge_orbit_has_formula(o->graphlet_size))
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: no formula for the edge orbits of %u-vertex graphlets yet; use "
                       "method AUTO or ENUMERATE", who, o->graphlet_size);
  if (g->g->flags & WM_GRAPH_DIRECTED)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: needs an undirected graph (this one was loaded as directed)", who);
  if (o->gpus < 0 || o->gpus > WARPMATCH_MAX_GPUS)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: gpus %d; give 1 to %d (0: the context's)", who, o->gpus,
                       WARPMATCH_MAX_GPUS);
  if (o->trials > WARPMATCH_MAX_TRIALS)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: trials %u; give 0 to %d", who, o->trials, WARPMATCH_MAX_TRIALS);
  return WARPMATCH_OK;
}

static unsigned orbits_per_row(const warpmatch_orbit_options *o) {
  return o->edges ? wm_edge_orbit_count(o->graphlet_size) : wm_orbit_count(o->graphlet_size);
}

/* Whether the cells of a and b (each `cells` words) share one. */
static int overlap(const uint64_t *a, const uint64_t *b, uint64_t cells) {
  const uintptr_t x = (uintptr_t)a, y = (uintptr_t)b, bytes = (uintptr_t)(cells * sizeof *a);
  return x < y + bytes && y < x + bytes;
}

/* Row i (of the renumbered graph's vertex i) moved to row old_of[i]: by
 * every thread through a copy of the rows, or where the copy cannot be
 * had, in place, each cycle of the permutation followed once with one row
 * in hand. */
static int rows_back(warpmatch_context *ctx, const char *who, uint64_t *counts, const uint32_t *old_of, uint32_t n,
                     unsigned orbits) {
  if (!counts) return WARPMATCH_OK;
  const size_t row = (size_t)orbits * sizeof *counts;
  uint64_t *copy = malloc((n ? n : 1) * row);
  if (copy) { /* every thread moves rows: a copy, then each row to its place */
    wm_host_copy(copy, counts, n * row);
#pragma omp parallel for schedule(static)
    for (int64_t s = 0; s < (int64_t)n; s++)
      memcpy(counts + (size_t)old_of[s] * orbits, copy + (size_t)s * orbits, row);
    free(copy);
    return WARPMATCH_OK;
  }
  /* else one cycle of the permutation after another, in place */
  uint64_t *hand = malloc(2 * (size_t)orbits * sizeof *hand);
  uint8_t *done = calloc(((size_t)n + 7) / 8, 1);
  if (!hand || !done) {
    free(hand);
    free(done);
    memset(counts, 0, (size_t)n * orbits * sizeof *counts);
    return wm_api_fail(ctx, WARPMATCH_EINPUT, "%s: out of memory putting %u rows back in order", who, n);
  }
  uint64_t *held = hand, *swap = hand + orbits;
  for (uint32_t s = 0; s < n; s++) {
    if (done[s / 8] >> (s % 8) & 1) continue;
    memcpy(held, counts + (size_t)s * orbits, row);
    for (uint32_t i = s;;) { /* held is row i's; it goes to old_of[i] */
      const uint32_t to = old_of[i];
      done[i / 8] |= (uint8_t)(1u << (i % 8));
      uint64_t *at = counts + (size_t)to * orbits;
      memcpy(swap, at, row);
      memcpy(at, held, row);
      uint64_t *t = held;
      held = swap, swap = t;
      if (to == s) break;
      i = to;
    }
  }
  free(hand);
  free(done);
  return WARPMATCH_OK;
}

/* What one call of the count needs, for count_once and timed_calls. */
typedef struct orbit_call {
  warpmatch_context *ctx;
  const char *who;
  const warpmatch_graph *g;
  const wm_api_matching *m;
  wm_orbit_run *run;
  const warpmatch_orbit_options *o;
  uint64_t *counts;
  uint64_t rows;
  unsigned orbits;
} orbit_call;

/* One count into c->counts (and counts_high): x's seconds, kernel_ms and
 * wide. */
static int count_once(const orbit_call *c, warpmatch_orbit_result *x) {
  double kernel_ms = 0;
  c->run->kernel_ms = &kernel_ms;
  const double t0 = wm_now();
  wm_error err;
  wm_error_clear(&err);
  const uint64_t cells = c->rows * c->orbits;
  int rc = wm_api_status(c->ctx, c->rows ? wm_orbits(c->m->g, c->run, c->counts, &err) : WM_OK, &err);
  const double t1 = wm_now();
  const uint32_t n = c->g->g->n;
  if (!rc && c->m->old_of) rc = rows_back(c->ctx, c->who, c->counts, c->m->old_of, n, c->orbits);
  if (!rc && c->m->old_of) rc = rows_back(c->ctx, c->who, c->o->counts_high, c->m->old_of, n, c->orbits);
  if (c->m->old_of && wm_trace_on("WM_ORBIT_TRACE"))
    fprintf(stderr, "orbits (rows): counted in %.3f ms, put back in the caller's order in %.3f ms\n", 1e3 * (t1 - t0),
            1e3 * (wm_now() - t1));
  /* no partial rows (size 5 writes the smaller orbits first) */
  if (rc && c->rows) memset(c->counts, 0, cells * sizeof *c->counts);
  if (rc && c->rows && c->o->counts_high) memset(c->o->counts_high, 0, cells * sizeof *c->counts);
  x->wide = 0;
  for (uint64_t i = 0; !rc && c->o->counts_high && i < cells; i++) x->wide += c->o->counts_high[i] != 0;
  x->seconds = wm_now() - t0;
  x->kernel_ms = c->run->gpu ? kernel_ms : 0;
  return rc;
}

/* The counts' hash (the high words' seeded by the low words'): a timed
 * call must give the warm-up's. */
static uint64_t counts_hash(const orbit_call *c) {
  const size_t bytes = (size_t)(c->rows * c->orbits) * sizeof *c->counts;
  const uint64_t low = XXH3_64bits(c->counts, bytes);
  return c->o->counts_high ? XXH3_64bits_withSeed(c->o->counts_high, bytes, low) : low;
}

/* An untimed warm-up, then `trials` timed calls that must count the same
 * (GAP-style medians, as count's and motifs' trials); the counts are the
 * last call's. */
static int timed_calls(const orbit_call *c, unsigned trials, warpmatch_orbit_result *x) {
  double secs[WARPMATCH_MAX_TRIALS], kms[WARPMATCH_MAX_TRIALS];
  int rc = count_once(c, x);
  x->first_seconds = x->seconds;
  const uint64_t warm = rc ? 0 : counts_hash(c);
  for (unsigned t = 0; !rc && t < trials; t++) {
    rc = count_once(c, x);
    secs[t] = x->seconds, kms[t] = x->kernel_ms;
    if (!rc && counts_hash(c) != warm)
      rc = wm_api_fail(c->ctx, WARPMATCH_EDEVICE, "%s: trial %u's counts differ from the warm-up's: not repeatable "
                       "(a bug: please report it)", c->who, t + 1);
  }
  if (rc) return rc;
  x->seconds = wm_match_median(secs, trials);
  x->kernel_ms = wm_match_median(kms, trials);
  return WARPMATCH_OK;
}

int warpmatch_orbits(warpmatch_context *ctx, const warpmatch_graph *g, const warpmatch_orbit_options *opt,
                     uint64_t *counts, warpmatch_orbit_result *r) {
  static const char who[] = "warpmatch_orbits";
  if (!ctx) return WARPMATCH_EUSAGE;
  if (!g) return wm_api_null(ctx, who, "g");
  warpmatch_orbit_options o;
  warpmatch_orbit_options_init(&o);
  int rc = opt ? wm_api_struct_in(ctx, who, &o, sizeof o, opt) : WARPMATCH_OK;
  if (!rc) rc = check(ctx, who, g, &o);
  const uint64_t rows = o.edges ? wm_graph_edges(g->g) : g->g->n;
  if (!rc && !counts && rows) rc = wm_api_null(ctx, who, "counts");
  if (!rc && o.counts_high && rows && overlap(counts, o.counts_high, rows * orbits_per_row(&o)))
    rc = wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: counts_high overlaps counts; give the high words an array of "
                     "their own", who);
  /* shared by MPI ranks, the 5-vertex orbits are the CPU's: AUTO means it */
  const int shared = ctx->share && ctx->share->processes > 1;
  if (!rc && shared && o.device == WARPMATCH_DEVICE_GPU)
    rc = wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: shared by MPI ranks, orbits are counted on the CPU; use "
                     "WARPMATCH_DEVICE_CPU or _AUTO", who);
  /* AUTO: size 5 on the GPU where one is usable, whose pieces beat 16
   * cores (count s against an H200: kron-14 0.38 / 1.53, kron-16 2.8 /
   * 9.8, kron-18 26 / 70 on 31 threads); sizes 2-4 on the CPU, whose
   * oriented aggregates take less than the GPU's context (~0.1-0.3 s a
   * process; size 4 on an H200 host, count s CPU 16 threads / GPU:
   * facebook 0.006 / 0.0075, kron-16 0.078 / 0.033) */
  const int gpu_size = o.graphlet_size == 5 && !o.edges && o.method != WARPMATCH_METHOD_ENUMERATE;
  const int device = o.device != WARPMATCH_DEVICE_AUTO ? o.device
                     : gpu_size                        ? WARPMATCH_DEVICE_AUTO
                                                       : WARPMATCH_DEVICE_CPU;
  int use_gpu = 0;
  if (!rc && !shared) rc = wm_api_use_gpu(ctx, who, device, &use_gpu);
  if (rc) return rc;
  wm_orbit_run run = {o.graphlet_size, WM_ORBIT_ENUMERATE, wm_count_start(), 0, o.edges != 0, NULL, NULL, 1, NULL,
                      o.counts_high, NULL};
  const int formula = o.edges ? wm_edge_orbit_has_formula(o.graphlet_size) : wm_orbit_has_formula(o.graphlet_size);
  if (o.method != WARPMATCH_METHOD_ENUMERATE && formula) run.method = WM_ORBIT_FORMULA;
  /* the edge formula is the CPU's */
  run.gpu = use_gpu && run.method == WM_ORBIT_FORMULA && !o.edges;
  warpmatch_orbit_result x;
  memset(&x, 0, sizeof x);
  x.size = sizeof x;
  x.orbits = orbits_per_row(&o);
  x.device = run.gpu ? WARPMATCH_DEVICE_GPU : WARPMATCH_DEVICE_CPU;
  x.method = run.method == WM_ORBIT_FORMULA ? WARPMATCH_METHOD_FORMULA : WARPMATCH_METHOD_ENUMERATE;
  /* Size 5's walks tally, per vertex, everything two steps away: numbered
   * by degree, the hubs that most of those paths reach share cache lines
   * (kron-16, the CPU's walks: 193 s in the generator's numbering, 69 s
   * so).  The rows are put back in g's order. */
  wm_api_matching m = {g->g, NULL, NULL};
  if (!rc && rows && run.k == 5 && run.method == WM_ORBIT_FORMULA && !o.edges)
    rc = wm_api_matching_of(ctx, g, 1, 0, &m, NULL, NULL);
  if (rc) return rc;
  if (run.gpu) { /* the CUDA context and g on the device, kept for the next calls, before the timer */
    wm_match_options mo;
    memset(&mo, 0, sizeof mo);
    run.gpus = o.gpus ? o.gpus : ctx->gpus;
    mo.gpus = run.k == 5 ? run.gpus : 1;
    wm_api_gpu_graph(ctx, g->serial, m.g, &mo);
    run.gpu_graph = mo.gpu_graph;
  }
  /* the ranks share the 5-vertex orbits' heavy loops; the rest is each rank's own */
  run.share = run.k == 5 && run.method == WM_ORBIT_FORMULA && !run.edges ? ctx->share : NULL;
  wm_api_threads t;
  wm_api_threads_enter(ctx, &t);
  const int threads = omp_get_max_threads();
  if (run.share && ctx->share_one_thread) omp_set_num_threads(1); /* only this thread may call MPI */
  const orbit_call call = {ctx, who, g, &m, &run, &o, counts, rows, x.orbits};
  if (o.trials > 1) {
    rc = timed_calls(&call, o.trials, &x);
  } else {
    rc = count_once(&call, &x);
    x.first_seconds = x.seconds;
  }
  x.trials = rc ? 0 : o.trials > 1 ? o.trials : 1;
  omp_set_num_threads(threads);
  wm_api_threads_leave(&t);
  int out_rc = r ? wm_api_struct_out(ctx, who, r, &x, sizeof x) : WARPMATCH_OK;
  return rc ? rc : out_rc;
}
