/* Timed slices (issue 44): where the count is long enough to pay for it,
 * the auto planner's few best candidate orders are each run on the real
 * executor over one slice of level 0 (the same for every order,
 * wm_engine_slice_roots: 1 in every of the hubs' level-1 arcs and 1 in
 * every of the other vertices), timed by the wall clock, and the one whose
 * slice estimates the shortest count counts the graph.  Work units (the
 * model's, the probes') do not rank orders as time does; a slice does.
 * On the CPU the winner's slice is not counted again: the executor takes a
 * level-0 subset (wm_match_options.first) and a part of its level-1 arcs
 * (cpu_level1_every), so the rest is counted and the counts added (a match
 * has one v0 and one v1).  On the GPU the slice is a stripe of the stack
 * kernel's level-0 chunks (wm_match_options.gpu_l0_every), each order's
 * stripe timed by its launch and stopped where it would overrun
 * (time_limit_s), and the winner counts the whole graph. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "engine.h"
#include "matcher.h"

_Static_assert(WARPMATCH_MAX_SLICE_ORDERS == WM_SLICE_MAX_ORDERS, "the API's slices are the engine's");

/* An order the probes measured at over kWorse times the least work they
 * measured is not timed: the probes mis-rank orders by tens of percent,
 * not by that much. */
static const double kWorse = 2.0;

/* A GPU stripe that runs kCut times as long as the fastest's so far, plus
 * kCutSlack (the kernels see the limit within about half a millisecond),
 * is stopped: it would not win.  A CPU slice past both that and the
 * budget left is stopped too. */
static const double kCut = 1.5;
static const double kCutSlack = 0.5e-3;

/* Whether the job may count by slices: the auto planner's order (none
 * given), the whole graph counted by a plan on the CPU executor or the
 * stack kernel on one GPU.  With trials the slices only choose the order,
 * which the trials then time whole (the same plan as a single run's: a
 * benchmark times what a user gets). */
static int applies(const warpmatch_match_options *o, const wm_api_job *job, const wm_engine_job *ej) {
  const wm_match_options *mo = ej->mo;
  if (o->planner != WARPMATCH_PLANNER_AUTO || o->order || job->candidates.n < 2) return 0;
  if (mo->first || mo->allowed || mo->per_vertex || mo->sink || mo->share || mo->gpus > 1) return 0;
  const wm_executor *e = wm_engine_choose(ej, NULL, 0);
  return e && !e->formula && (!e->gpu || !strcmp(e->name, "stack"));
}

/* Whether an order's first vertex is that of one of out[0, n). */
static int root_taken(uint8_t out[][WM_MAX_K], unsigned n, const uint8_t *order) {
  for (unsigned i = 0; i < n; i++)
    if (out[i][0] == order[0]) return 1;
  return 0;
}

/* Whether candidate a goes before b among those of their kind: the probes'
 * less work where measured; else a root not timed yet first (the model
 * and the probes rank alike orders that share the outer loop and differ
 * inside; a different root is what the models' sizes and work units
 * mis-rank most: kron-14 p19's fastest, 2-3-4-5-0-1-6, among orders from
 * 0), then the nearer tie to a model's best. */
static int before(const wm_plan_candidate *a, const wm_plan_candidate *b, uint8_t out[][WM_MAX_K], unsigned n) {
  if (a->sampled) return a->sampled_cost < b->sampled_cost;
  const int ra = root_taken(out, n, a->order), rb = root_taken(out, n, b->order);
  return ra != rb ? ra < rb : a->tie < b->tie;
}

/* The orders to time, at most max: the plan's (the probes' least work),
 * then in turn the next shortlisted order they did not measure (the
 * near-ties their budget did not reach: work units, the probes' as the
 * model's, mis-rank orders, and one they never saw is what timing can add
 * most) and their next least work (within kWorse of the least). */
static unsigned pick_orders(const wm_api_job *job, unsigned max, uint8_t out[][WM_MAX_K]) {
  const wm_plan_candidates *c = &job->candidates;
  double least = HUGE_VAL;
  for (unsigned i = 0; i < c->n; i++)
    if (c->c[i].sampled && c->c[i].sampled_cost < least) least = c->c[i].sampled_cost;
  int taken[WM_PLAN_MAX_CANDIDATES] = {0};
  unsigned n = 0;
  memcpy(out[n++], job->plan.order, WM_MAX_K);
  for (unsigned i = 0; i < c->n; i++) taken[i] = !memcmp(c->c[i].order, job->plan.order, WM_MAX_K);
  for (int measured = 0, stuck = 0; n < max && stuck < 2; measured = !measured) {
    int best = -1;
    for (unsigned i = 0; i < c->n; i++) {
      const wm_plan_candidate *x = &c->c[i];
      if (taken[i] || x->sampled != measured || (measured && !(x->sampled_cost <= kWorse * least))) continue;
      if (best < 0 || before(x, &c->c[best], out, n)) best = (int)i;
    }
    stuck = best < 0 ? stuck + 1 : 0;
    if (best >= 0) taken[best] = 1, memcpy(out[n++], c->c[best].order, WM_MAX_K);
  }
  return n;
}

/* One order's run over the roots of mo (job's options otherwise), once
 * whatever the job's trials. */
static int run_order(const wm_engine_job *ej, const wm_plan *plan, const wm_match_options *mo, wm_match_result *r,
                     const wm_executor **by, wm_error *err) {
  wm_engine_job j = *ej;
  j.plan = plan;
  j.mo = mo;
  j.trials = 1;
  return wm_engine_count(&j, r, by, err);
}

/* The parts of level 0.  On the CPU (wm_engine_slice_roots) the slice is
 * the head's sample and the tail, the rest of the count the head's other
 * arcs and the rest; on the GPU the slice is 1 in every of the stack
 * kernel's level-0 chunks (wm_match_options.gpu_l0_every; a chunk of a
 * degree-ordered graph holds vertices of like degree, or arcs of one or a
 * few rows, so a stripe holds 1 in every of the hubs' work as of the
 * others'), and no rest: the winner counts the whole graph. */
typedef struct slice_parts {
  wm_match_options slice[2], rest[2];
  unsigned parts; /* of the slice and of the rest: 2 on the CPU, 1 on the GPU */
  uint32_t every;
  int gpu;
  double planned_s; /* the GPU's planning before the stripes, charged to their budget */
} slice_parts;

/* Adds a part's count into *r: the test hook's start (exact_count.h)
 * came with both counts and stays once. */
static void add_part(wm_match_result *r, const wm_match_result *x) {
  r->count += x->count - wm_count_start();
  r->set_ops += x->set_ops;
  r->seconds += x->seconds;
}

/* Runs o[0, n) of one order and adds them up into *r; seconds[i] gets
 * each run's wall time, counted[i] the time its result gives (the GPU's
 * launches, without the run's set-up).  With a CPU time limit each part
 * gets what the earlier ones left of it, and one cut short ends the runs
 * (r->cut_short). */
static int run_parts(const wm_engine_job *ej, const wm_plan *plan, const wm_match_options *o, unsigned n,
                     double cpu_limit_s, wm_match_result *r, double *seconds, double *counted,
                     const wm_executor **by, wm_error *err) {
  int rc = WM_OK;
  double spent = 0.0;
  for (unsigned i = 0; !rc && i < n && !(i && r->cut_short); i++) {
    wm_match_result x;
    wm_match_options part = o[i];
    if (cpu_limit_s > 0.0) part.time_limit_s = cpu_limit_s - spent > kCutSlack ? cpu_limit_s - spent : kCutSlack;
    const double t0 = wm_now();
    rc = run_order(ej, plan, &part, i ? &x : r, by, err);
    const double took = wm_now() - t0;
    if (seconds) seconds[i] = took;
    spent += took;
    if (counted && !rc) counted[i] = (i ? &x : r)->seconds;
    if (!rc && i) add_part(r, &x), r->cut_short |= x.cut_short;
  }
  return rc;
}

/* One order's time on the slice, as a 1/every sample of its count: the
 * tail's seconds plus the head's sample's (where the executor cannot
 * sample position 1 the head runs whole, and its time counts 1/every).
 * Raw slice time ranked orders by where they put their work: the slice
 * held the largest hub whole but 1/every of the rest, so an order that
 * does its work on the hub looked `every` times slower than one that
 * spreads it (hub-small p1: 199 ms against 7.9 ms on the slice, 186-264 ms
 * against 255 ms on the graph), and timing it cost a whole count.
 * Sampled alike, each part stands for `every` times itself, and every x
 * the slice's time estimates the order's count.  *part gets the slice's
 * count (reused if the order wins), *spent the seconds its runs took. */
static int time_slice(const wm_engine_job *ej, const wm_plan *plan, const slice_parts *sp, const char *label,
                      double limit_s, wm_match_result *part, double *slice_s, double *spent, wm_error *err) {
  const wm_executor *by;
  wm_match_options o[2] = {sp->slice[0], sp->slice[1]};
  if (sp->gpu) o[0].time_limit_s = limit_s;
  char hubs[64]; /* each run its own phase: a progress that starts over is another one */
  snprintf(hubs, sizeof hubs, "%s: hubs", label);
  o[0].progress_label = sp->gpu ? label : hubs, o[1].progress_label = label;
  double s[2] = {0.0, 0.0}, c[2] = {0.0, 0.0};
  const int rc = run_parts(ej, plan, o, sp->parts, sp->gpu ? 0.0 : limit_s, part, s, c, &by, err);
  /* the GPU's stripe by its launches alone: a run's set-up (streams,
   * buffers) is alike for every order, and longer than a short stripe */
  *slice_s = sp->gpu ? c[0] : s[1] + s[0] * wm_match_cpu_level1_every(plan, &sp->slice[0]) / sp->every;
  *spent = s[0] + s[1];
  return rc;
}

/* The count's time from its stripe's, to budget the others: 1/every of
 * the work, but a few heavy chunks whose work no other warp shares may set
 * a stripe's time (on the corpus 2-30x its share), and the count has that
 * tail once: every x the warps' mean time with work, plus the rest of the
 * stripe's time. */
static double stripe_count(const wm_match_result *x, double slice_s, uint32_t every) {
  if (!(x->busy_s > 0.0) || x->busy_s > slice_s) return slice_s * every;
  return every * x->busy_s + (slice_s - x->busy_s);
}

/* The GPU's timing: each order's stripe once, the plan's first, whose time
 * re-reads the budget (5% of its count, stripe_count, less the planning
 * before: the prediction from work units is a guess there, fitted on a few
 * graphs).  Each is stopped where it would overrun: the plan's at half the
 * budget (stopped, no other is timed and the plan's order counts), the
 * others at kCut times the fastest's (one order of the shortlist may take
 * hundreds of times the best's, and a stripe of it as long), and one is
 * started only where that cut, with a run's set-up as the plan's took,
 * fits in the budget left: one stopped sooner could not be told from a
 * faster one.  A stripe stopped cannot win.  Returns the orders timed. */
static unsigned time_stripes(const wm_engine_job *ej, const slice_parts *sp, const wm_plan *plans, unsigned n,
                             double budget_s, char label[][40], warpmatch_match_result *out, unsigned *fastest,
                             wm_match_result *x, int *rc, wm_error *err) {
  double spent = 0.0, best = HUGE_VAL, setup = 0.0;
  unsigned i = 0;
  for (; !*rc && i < n; i++) {
    const double limit = i ? kCut * best + kCutSlack : budget_s / 2;
    if (!(limit > kCutSlack) || (i && spent + setup + limit > budget_s)) break;
    snprintf(label[i], 40, "timing order %u of %u", i + 1, n);
    double slice, wall;
    *rc = time_slice(ej, &plans[i], sp, label[i], limit, &x[i], &slice, &wall, err);
    if (*rc) break;
    spent += wall;
    out->slice_ms[i] = slice * 1e3;
    if (!i && x[i].cut_short) return 1;
    if (!i) {
      setup = wall > slice ? wall - slice : 0.0;
      budget_s = fmin(budget_s, wm_engine_slice_budget(stripe_count(&x[0], slice, sp->every)) - sp->planned_s);
    }
    if (!x[i].cut_short && slice < best) best = slice, *fastest = i;
  }
  return i;
}

/* Times each order on the slice, WM_SLICE_ROUNDS times in turn (the least
 * of each; a slice stopped at its limit is not timed again and cannot
 * win), the plan's always (part of the count if it wins), the others
 * while the time spent, less the fastest's last run, and the next run, as
 * long as the longest so far, fit in budget_s: slices longer than
 * predicted end the timing early, and the orders timed so far compete
 * (kron-14 p19's slice of 1/117 of a 0.9 s count took 23 ms, three times
 * its share, on the 2-core development machine, where the budget left
 * after the probes was 9 ms; the second order, always timed then, took
 * planning to 8% of the count); *fastest gets the
 * winner's index, its plan and its slice's result.  The slice's counts
 * differ between orders (the vertex at position 0 is another pattern
 * vertex's, and the symmetry bounds pick another copy of each match):
 * only the winner's is reused, with its own rest.  On the GPU,
 * time_stripes.  Returns the orders timed. */
static unsigned time_orders(const warpmatch_context *ctx, const warpmatch_match_options *o, wm_api_job *job,
                            const wm_engine_job *ej, const slice_parts *sp, uint8_t orders[][WM_MAX_K], unsigned n,
                            double budget_s, warpmatch_match_result *out, unsigned *fastest, wm_plan *plan,
                            wm_match_result *r, int *rc, wm_error *err) {
  wm_plan *plans = malloc(n * sizeof *plans);
  wm_match_result *x = calloc(n, sizeof *x); /* cut_short 0 until timed */
  *rc = plans && x ? WM_OK : wm_fail(err, WM_EINPUT, "slices: out of memory");
  for (unsigned i = 0; !*rc && i < n; i++) {
    *rc = wm_api_job_replan(ctx, o, job, orders[i], &plans[i], err);
    out->slice_ms[i] = HUGE_VAL;
    for (unsigned p = 0; p < WM_MAX_K; p++) out->slice_order[i][p] = orders[i][p];
  }
  double spent = 0.0, longest = 0.0, last[WM_SLICE_MAX_ORDERS] = {0.0};
  unsigned timed = 0;
  *fastest = 0;
  /* each run its own phase: a progress that starts over is another one */
  char label[WM_SLICE_MAX_ORDERS][40];
  if (!*rc && sp->gpu) timed = time_stripes(ej, sp, plans, n, budget_s, label, out, fastest, x, rc, err);
  for (unsigned round = 0; !*rc && !sp->gpu && round < WM_SLICE_ROUNDS; round++)
    for (unsigned i = 0;
         !*rc && i < n && (round || i == timed) && (!i || spent - last[*fastest] + longest <= budget_s); i++) {
      if (x[i].cut_short) continue;
      snprintf(label[i], sizeof label[i], "timing order %u of %u", i + 1, n);
      /* the plan's slice whole; another stopped where it would overrun:
       * past kCut times the fastest's run, where its run is its estimate
       * (position 1 sampled, not counted whole), and past the budget that
       * let it start (the fastest's run is part of the count); one of the
       * shortlist may take thousands of times the plan's (hub-small p11's
       * sixth: minutes, against 0.1 ms).  Stopped so, its time is at
       * least the fastest's. */
      const int whole_head = wm_match_cpu_level1_every(&plans[i], &sp->slice[0]) < sp->every;
      const double granted = budget_s - (spent - last[*fastest]);
      double limit = i && !whole_head ? kCut * last[*fastest] : 0.0;
      if (i) limit = limit > 0.0 ? fmin(limit, granted) : granted;
      if (limit > 0.0) limit += kCutSlack;
      double slice;
      *rc = time_slice(ej, &plans[i], sp, label[i], limit, &x[i], &slice, &last[i], err);
      spent += last[i], longest = last[i] > longest ? last[i] : longest;
      timed += !round;
      if (!*rc && x[i].cut_short) { /* it cannot win; its time is what it ran */
        if (!round) out->slice_ms[i] = slice * 1e3;
        continue;
      }
      if (slice * 1e3 < out->slice_ms[i]) out->slice_ms[i] = slice * 1e3;
      if (out->slice_ms[i] < out->slice_ms[*fastest]) *fastest = i;
    }
  if (!*rc) *plan = plans[*fastest], *r = x[*fastest];
  free(plans);
  free(x);
  return timed;
}

/* The slice and the rest on the CPU (wm_engine_slice_roots' parts: head,
 * tail, rest; the head's sample and its complement by cpu_level1_every),
 * their vertex lists in *roots (three, malloc'd); with reuse the rest. */
static int cpu_parts(const wm_engine_job *ej, uint32_t every, int reuse, slice_parts *sp, uint32_t *roots[3],
                     wm_error *err) {
  const wm_graph *g = ej->g;
  wm_match_options *head = &sp->slice[0], *tail = &sp->slice[1], *head_rest = &sp->rest[0], *rest = &sp->rest[1];
  *head = *tail = *head_rest = *rest = *ej->mo;
  sp->parts = 2, sp->every = every, sp->gpu = 0;
  int rc = wm_engine_slice_roots(g, every, WM_SLICE_HEAD, &roots[0], &head->n_first, err);
  if (!rc) rc = wm_engine_slice_roots(g, every, WM_SLICE_TAIL, &roots[1], &tail->n_first, err);
  if (!rc && reuse) rc = wm_engine_slice_roots(g, every, WM_SLICE_REST, &roots[2], &rest->n_first, err);
  head->first = head_rest->first = roots[0], tail->first = roots[1], rest->first = roots[2];
  head_rest->n_first = head->n_first;
  head->cpu_level1_every = head_rest->cpu_level1_every = every;
  head_rest->cpu_level1_rest = 1;
  head_rest->progress_label = "counting hubs";
  return rc;
}

/* The slice on the GPU: a stripe of the stack kernel's level-0 chunks
 * (the winner then counts the whole graph). */
static void gpu_parts(const wm_engine_job *ej, uint32_t every, slice_parts *sp) {
  sp->slice[0] = *ej->mo;
  sp->slice[0].gpu_l0_every = every;
  sp->parts = 1, sp->every = every, sp->gpu = 1;
}

int wm_api_count_sliced(const warpmatch_context *ctx, const warpmatch_match_options *o, wm_api_job *job,
                        const wm_engine_job *ej, wm_match_result *r, const wm_executor **by,
                        warpmatch_match_result *out, int *sliced, wm_error *err) {
  *sliced = 0;
  if (!applies(o, job, ej)) return WM_OK;
  const uint32_t n = job->m.g->n;
  const int gpu = ej->use_gpu;
  uint32_t every = 0;
  double budget = 0.0;
  uint8_t orders[WM_SLICE_MAX_ORDERS][WM_MAX_K];
  const int threads = ej->mo->threads > 0 ? ej->mo->threads : omp_get_max_threads();
  const unsigned k = wm_engine_slice_policy(&job->plan, gpu, threads, n,
                                            pick_orders(job, WM_SLICE_MAX_ORDERS, orders), job->plan_seconds, &every,
                                            &budget);
  if (k < 2) return WM_OK;
  /* the winner's slice is counted and only the rest of its work after it;
   * with trials the caller times the winner's whole count (all was
   * planning), as on the GPU, where a count split in two runs is slower
   * than a whole one (engine.c) */
  const int reuse = ej->trials <= 1 && !gpu;
  slice_parts sp;
  memset(&sp, 0, sizeof sp);
  uint32_t *roots[3] = {NULL, NULL, NULL};
  int rc = WM_OK;
  if (gpu) gpu_parts(ej, every, &sp), sp.planned_s = job->plan_seconds;
  else rc = cpu_parts(ej, every, reuse, &sp, roots, err);
  wm_plan *plan = malloc(sizeof *plan);
  wm_match_result *part = malloc(sizeof *part);
  if (!rc && (!plan || !part)) rc = wm_fail(err, WM_EINPUT, "slices: out of memory");
  unsigned fastest = 0, timed = 0;
  const double t0 = wm_now();
  if (!rc) timed = time_orders(ctx, o, job, ej, &sp, orders, k, budget, out, &fastest, plan, part, &rc, err);
  double overhead = wm_now() - t0;
  if (!rc && reuse) rc = run_parts(ej, plan, sp.rest, sp.parts, 0.0, r, NULL, NULL, by, err);
  if (!rc && reuse) {
    add_part(r, part);
    overhead -= part->seconds; /* one of the winner's slices is counting, the rest planning */
  }
  *sliced = reuse;
  if (!rc) {
    job->plan_seconds += overhead > 0.0 ? overhead : 0.0;
    plan->sampled_cost = job->plan.sampled_cost; /* what the probes told, as without slices */
    plan->sampled_orders = job->plan.sampled_orders;
    plan->sampled_reads = job->plan.sampled_reads;
    job->plan = *plan;
    out->slice_orders = timed, out->slice_chosen = fastest, out->slice_every = every;
    out->slice_vertices = sp.gpu ? 0 : sp.slice[0].n_first + sp.slice[1].n_first;
  }
  for (int i = 0; i < 3; i++) free(roots[i]);
  free(plan);
  free(part);
  return rc;
}
