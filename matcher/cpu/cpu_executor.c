/* The CPU executor: runs any plan (planner.h's execution model) with OpenMP
 * over the first level.  Vertices of high degree are split into chunks of
 * their level-1 candidates so that one hub does not leave a single thread
 * with most of the work; hubs go first (the largest tasks), then the other
 * vertices in dynamic chunks.  Each thread owns one buffer per set slot,
 * grown on demand to the size its operands bound.  Hoisted ops run on
 * first use (cpu_schedule.h); the last level is counted, not listed, when
 * nothing needs the matches themselves.  With a wm_share (matcher.h) the
 * hub tasks and the roots are claimed from counters common to several
 * processes, and the counts are added over them.
 *
 * Counts are exact: a fast last level adds up to C(2^32, 2) at a time, so
 * a hub's counts pass 2^64 (the 5-stars of a 150,000-leaf star number
 * 2.1e19); each thread sums in 128 bits, as do the totals over threads
 * and processes.  Per-vertex counts stay 64-bit (the API's arrays): each
 * add is checked, and one that would pass 2^64 - 1 stops the run with an
 * error naming the vertex. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "base.h"
#include "cpu_schedule.h"
#include "matcher.h"
#include "set_ops.h"

#define HUB_DEGREE 256u  /* default: vertices above this are split */
#define VERTEX_CHUNK 32  /* ordinary vertices per scheduling step */
#define HUB_GRAB 1       /* hub tasks per claim of a shared counter */

void wm_match_options_init(wm_match_options *o) {
  memset(o, 0, sizeof *o);
  o->gpu_steal = -1;
  o->gpu_clique_kernels = 1;
  o->trials = 1;
}

typedef struct exec {
  const wm_graph *g;
  const wm_plan *plan;
  const wm_match_options *o;
  unsigned k;
  int fast_count; /* last level counted, not enumerated */
  unsigned tail;  /* the position counted: k-1, or k-2 when counting pairs */
  unsigned pairs; /* wm_pair_mode applied to tail's count */
  int split;      /* hubs' roots split into tasks (not under a pair count at position 1) */
  int count_op;   /* op computed as a count at the tail, or -1 */
  int within;     /* product: the tail's set lies within the last position's */
  int stop;       /* listing finished, out of memory or a per-vertex count full (read/written
                     atomically) */
  uint64_t full;  /* 1 + the vertex whose per-vertex count would pass 2^64 - 1, or 0 */
  uint32_t hub_degree, hub_chunk;
  uint32_t level1_every; /* position 1's sample (o->cpu_level1_every), 1: every candidate */
  int level1_rest;       /* the sample's complement instead (o->cpu_level1_rest) */
  uint64_t listed;
  double deadline;       /* wm_now() past which no root is started (o->time_limit_s), or 0 */
  int cut;               /* the deadline stopped the run: the count is partial (read/written atomically) */
  wm_cpu_schedule sched; /* hoisted ops computed on first use */
  wm_progress progress;  /* in the roots' degrees */
} exec;

typedef struct worker {
  uint32_t v[WM_MAX_K];
  const uint32_t *set[WM_MAX_SLOTS];
  uint32_t len[WM_MAX_SLOTS];
  uint32_t *buf[WM_MAX_SLOTS];
  uint32_t cap[WM_MAX_SLOTS];
  wm_u128 count;  /* < 2^128: each add is below 2^64, and 2^64 adds take centuries */
  uint64_t set_ops;
  uint64_t clock, bound[WM_MAX_K]; /* bound[L]: when v[L] was last bound */
  uint64_t stamp[WM_MAX_OPS];      /* lazy ops: bound[level] they were computed for */
  uint32_t visits;                 /* candidates taken below level 1 since the last look at the clock */
  int oom;
  int halt; /* a deadline or another thread stopped the run: this one leaves its subtree */
} worker;

typedef struct hub_task {
  uint32_t v, from, to;
} hub_task;

static void operand(const exec *e, const worker *w, uint8_t x, const uint32_t **p, uint32_t *n) {
  if (WM_IS_NBR(x)) {
    uint32_t v = w->v[WM_NBR_POS(x)];
    *p = e->g->adj + e->g->offsets[v];
    *n = (uint32_t)wm_degree(e->g, v);
  } else {
    *p = w->set[x];
    *n = w->len[x];
  }
}

/* [lo, hi) allowed by "c > v[j], j in lower" and "c < v[j], j in upper". */
static void range_of(const worker *w, unsigned lower, unsigned upper, uint32_t *lo, uint32_t *hi) {
  uint32_t l = 0, h = UINT32_MAX;
  for (unsigned j = 0; lower >> j; j++)
    if (((lower >> j) & 1u) && w->v[j] + 1u > l) l = w->v[j] + 1u;
  for (unsigned j = 0; upper >> j; j++)
    if (((upper >> j) & 1u) && w->v[j] < h) h = w->v[j];
  *lo = l;
  *hi = h;
}

static int reserve(worker *w, unsigned slot, uint32_t need) {
  if (need <= w->cap[slot]) return 1;
  uint32_t cap = w->cap[slot] ? w->cap[slot] : 64;
  while (cap < need) cap = cap > UINT32_MAX / 2 ? need : cap * 2;
  uint32_t *p = realloc(w->buf[slot], (size_t)cap * sizeof *p);
  if (!p) return w->oom = 1, 0;
  w->buf[slot] = p;
  w->cap[slot] = cap;
  return 1;
}

static void run_op(const exec *e, worker *w, const wm_plan_op *op) {
  const uint32_t *a, *b;
  uint32_t na, nb, lo, hi;
  operand(e, w, op->a, &a, &na);
  operand(e, w, op->b, &b, &nb);
  if (op->lower | op->upper) {
    /* The result lies within a, so b needs trimming only where a merge or
     * a gallop would otherwise walk over it: below lo. */
    range_of(w, op->lower, op->upper, &lo, &hi);
    wm_set_trim(&a, &na, lo, hi);
    wm_set_trim(&b, &nb, lo, UINT32_MAX);
  }
  uint32_t need = op->kind == WM_OP_INTERSECT && nb < na ? nb : na;
  if (!reserve(w, op->dst, need)) return;
  uint32_t *out = w->buf[op->dst];
  w->len[op->dst] = op->kind == WM_OP_INTERSECT ? wm_set_intersect(a, na, b, nb, out)
                                                : wm_set_subtract(a, na, b, nb, out);
  w->set[op->dst] = out;
  w->set_ops++;
}

/* Candidates of the tail position, counted without being listed: only the
 * range and the distinct vertices filter them (fast_count's conditions).
 * [from, to) is the hub split's window, for a tail at position 1. */
static uint64_t count_last(const exec *e, worker *w, uint32_t from, uint32_t to) {
  const wm_plan *plan = e->plan;
  unsigned p = e->tail;
  uint32_t lo, hi, na, nb;
  const uint32_t *a, *b = NULL;
  range_of(w, plan->lower[p], plan->upper[p], &lo, &hi);
  int kind = 0;
  if (e->count_op >= 0) {
    const wm_plan_op *op = &plan->ops[e->count_op];
    kind = op->kind;
    operand(e, w, op->a, &a, &na);
    operand(e, w, op->b, &b, &nb);
    wm_set_trim(&a, &na, lo, hi);
    wm_set_trim(&b, &nb, lo, UINT32_MAX); /* as in run_op */
    w->set_ops++;
  } else {
    operand(e, w, plan->cand[p], &a, &na);
    if (to < na) na = to;
    if (from >= na) return 0;
    a += from;
    na -= from;
    wm_set_trim(&a, &na, lo, hi);
  }
  uint64_t c = kind == WM_OP_INTERSECT  ? wm_set_intersect_count(a, na, b, nb)
               : kind == WM_OP_SUBTRACT ? wm_set_subtract_count(a, na, b, nb)
                                        : na;
  for (unsigned j = 0; j < p; j++) {
    if (!((plan->distinct[p] >> j) & 1u)) continue;
    uint32_t x = w->v[j];
    if (x < lo || x >= hi || !wm_set_contains(a, na, x)) continue;
    if (kind == WM_OP_INTERSECT && !wm_set_contains(b, nb, x)) continue;
    if (kind == WM_OP_SUBTRACT && wm_set_contains(b, nb, x)) continue;
    c--;
  }
  return c;
}

static void run_deferred(const exec *e, worker *w, unsigned L);

/* The product's factor a = the tail's accepted candidates: its set within
 * [from, to) (the hub split) and its range, less the bound vertices it
 * must differ from; *s, *n: that set. */
static uint64_t tail_factor(const exec *e, worker *w, uint32_t from, uint32_t to, const uint32_t **s, uint32_t *n) {
  const wm_plan *plan = e->plan;
  const unsigned a = e->tail;
  uint32_t lo, hi;
  operand(e, w, plan->cand[a], s, n);
  if (to < *n) *n = to;
  if (from >= *n) return *n = 0, 0;
  *s += from;
  *n -= from;
  range_of(w, plan->lower[a], plan->upper[a], &lo, &hi);
  wm_set_trim(s, n, lo, hi);
  uint64_t in = *n;
  for (unsigned j = 0; j < a; j++)
    if (((plan->distinct[a] >> j) & 1u) && w->v[j] >= lo && w->v[j] < hi && wm_set_contains(*s, *n, w->v[j])) in--;
  return in;
}

/* Factor b, the last position's: its set within its range [*lo, *hi),
 * less the vertices bound before the tail it must differ from. */
static uint64_t last_factor(const exec *e, worker *w, const uint32_t **s, uint32_t *n, uint32_t *lo, uint32_t *hi) {
  const wm_plan *plan = e->plan;
  const unsigned a = e->tail, b = a + 1;
  operand(e, w, plan->cand[b], s, n);
  range_of(w, plan->lower[b], plan->upper[b], lo, hi);
  wm_set_trim(s, n, *lo, *hi);
  uint64_t in = *n;
  for (unsigned j = 0; j < a; j++)
    if (((plan->distinct[b] >> j) & 1u) && wm_set_contains(*s, *n, w->v[j])) in--;
  return in;
}

/* The product of the last two positions (planner.h, WM_PAIRS_PRODUCT):
 * a = the tail's accepted candidates (within [from, to) of its set, the
 * hub split), b = the last position's, |a| * |b| - |a & b|.  The tail's
 * set is materialised (no count_op), as a's members are tested in b.  The
 * factor whose sets are at hand is counted first, the other's sets
 * computed only where it is not zero (cpu_schedule.h: tail_op). */
static uint64_t count_product(const exec *e, worker *w, uint32_t from, uint32_t to) {
  const wm_plan *plan = e->plan;
  const unsigned a = e->tail;
  const uint32_t *sa, *sb;
  uint32_t na, nb, blo, bhi;
  uint64_t in_a = 0, in_b;
  const unsigned ta = e->sched.tail_op;
  if (ta == WM_CPU_NO_OP && !(in_a = tail_factor(e, w, from, to, &sa, &na))) return 0;
  /* b's deferred sets are needed at level a, which is not visited. */
  run_deferred(e, w, a);
  if (w->oom) return 0;
  if (!(in_b = last_factor(e, w, &sb, &nb, &blo, &bhi))) return 0;
  if (ta != WM_CPU_NO_OP) {
    if (w->stamp[ta] != w->bound[plan->ops[ta].level]) {
      run_op(e, w, &plan->ops[ta]);
      w->stamp[ta] = w->bound[plan->ops[ta].level];
    }
    if (w->oom || !(in_a = tail_factor(e, w, from, to, &sa, &na))) return 0;
  }
  /* Both members of a & b; a's exclusions, as b's, are no members of a.
   * Where a's set lies within b's, b's range alone decides. */
  uint64_t both;
  if (e->within) {
    wm_set_trim(&sa, &na, blo, bhi);
    both = na;
  } else {
    both = wm_set_intersect_count(sa, na, sb, nb);
    w->set_ops++;
  }
  for (unsigned j = 0; j < a; j++)
    if (((plan->distinct[a] >> j) & 1u) && wm_set_contains(sa, na, w->v[j]) && wm_set_contains(sb, nb, w->v[j]))
      both--;
  return in_a * in_b - both;
}

static int accept(const exec *e, const worker *w, unsigned p, uint32_t c) {
  const wm_plan *plan = e->plan;
  for (unsigned j = 0; plan->distinct[p] >> j; j++)
    if (((plan->distinct[p] >> j) & 1u) && w->v[j] == c) return 0;
  if (plan->label[p] != WM_ANY_LABEL && e->o->vertex_labels[c] != plan->label[p]) return 0;
  return !e->o->allowed || e->o->allowed[c];
}

static int stopped(exec *e) {
  int s;
#pragma omp atomic read
  s = e->stop;
  return s;
}

/* Whether o->time_limit_s has passed, which then stops the run (the
 * others give up at their next task): checked before each root, after
 * each level-1 candidate's work and every DEADLINE_VISITS candidates
 * below (a level-1 candidate of a hub holds many milliseconds of a
 * 7-vertex count: kron-14 p19's slices overran their cut by 3-5x), a
 * clock read each where a limit is set. */
#define DEADLINE_VISITS 1024u
static int past_deadline(exec *e) {
  if (!(e->deadline > 0.0) || wm_now() < e->deadline) return 0;
#pragma omp atomic write
  e->cut = 1;
#pragma omp atomic write
  e->stop = 1;
  return 1;
}

/* Adds the match in w to its vertices' counts; one already at 2^64 - 1
 * stops the run (the others give up at their next task). */
static void count_vertices(exec *e, const worker *w) {
  uint64_t *pv = e->o->per_vertex;
  for (unsigned i = 0; i < e->k; i++) {
    uint64_t old;
#pragma omp atomic capture
    old = pv[w->v[i]]++;
    if (old == UINT64_MAX) {
#pragma omp atomic write
      e->full = (uint64_t)w->v[i] + 1;
#pragma omp atomic write
      e->stop = 1;
    }
  }
}

static void emit(exec *e, worker *w) {
  const wm_match_options *o = e->o;
  if (o->per_vertex) count_vertices(e, w);
  if (!o->sink) {
    w->count++;
    return;
  }
#pragma omp critical(wm_match_sink)
  {
    if (!e->stop) {
      uint32_t match[WM_MAX_K];
      for (unsigned i = 0; i < e->k; i++) match[e->plan->order[i]] = w->v[i];
      e->listed++;
      w->count++;
      int halt = o->sink(o->sink_ctx, match, e->k) != 0 || (o->limit && e->listed >= o->limit);
      if (halt) {
#pragma omp atomic write
        e->stop = 1;
      }
    }
  }
}

/* The deferred ops level L needs, unless already computed for the current
 * binding of their own level. */
static void run_deferred(const exec *e, worker *w, unsigned L) {
  const wm_plan *plan = e->plan;
  for (unsigned i = e->sched.need_begin[L]; i < e->sched.need_begin[L + 1] && !w->oom; i++) {
    unsigned o = e->sched.by_need[i], level = plan->ops[o].level;
    if (w->stamp[o] == w->bound[level]) continue;
    run_op(e, w, &plan->ops[o]);
    w->stamp[o] = w->bound[level];
  }
}

/* v[0..L] are bound: run the ops of level L, then extend to position L+1
 * over its candidates (only those with index in [from, to) at L = 0, the
 * hub split). */
static void run_level_ops(const exec *e, worker *w, unsigned L) {
  const wm_plan *plan = e->plan;
  run_deferred(e, w, L);
  unsigned end = plan->op_begin[L + 1];
  if (L + 1 == e->tail && e->count_op >= 0) end--;
  for (unsigned o = plan->op_begin[L]; o < end && !w->oom; o++)
    if (!e->sched.lazy[o]) run_op(e, w, &plan->ops[o]);
}

static void descend(exec *e, worker *w, unsigned L, uint32_t from, uint32_t to) {
  const wm_plan *plan = e->plan;
  run_level_ops(e, w, L);
  if (w->oom) return;
  unsigned p = L + 1;
  if (p == e->tail && e->fast_count) {
    w->count += e->pairs == WM_PAIRS_PRODUCT ? count_product(e, w, from, to)
                                             : wm_pairs_of(e->pairs, count_last(e, w, from, to));
    return;
  }
  const uint32_t *c;
  uint32_t n, lo, hi;
  operand(e, w, plan->cand[p], &c, &n);
  const uint32_t *list = c;
  if (to < n) n = to;
  if (from >= n) return;
  c += from;
  n -= from;
  range_of(w, plan->lower[p], plan->upper[p], &lo, &hi);
  wm_set_trim(&c, &n, lo, hi);
  uint64_t i = 0, step = 1, skip = 0, arc = 0;
  if (!L && e->level1_every > 1) {
    /* The sample's arcs by their index in the CSR, not in each list: a
     * root of fewer candidates than the stride has its share of them, not
     * always its first (on a graph numbered by degree, its largest). */
    arc = e->g->offsets[w->v[0]] + (uint64_t)(c - list);
    if (e->level1_rest)
      skip = e->level1_every;
    else
      step = e->level1_every, i = (step - arc % step) % step;
  }
  for (; i < n; i += step) {
    if (skip && (arc + i) % skip == 0) continue;
    if (!accept(e, w, p, c[i])) continue;
    w->v[p] = c[i];
    w->bound[p] = ++w->clock;
    if (p + 1 == e->k)
      emit(e, w);
    else
      descend(e, w, p, 0, UINT32_MAX);
    if (w->oom || w->halt || (e->o->sink && stopped(e)) || (!L && past_deadline(e))) return;
    if (L && e->deadline > 0.0 && ++w->visits >= DEADLINE_VISITS) {
      w->visits = 0;
      if (stopped(e) || past_deadline(e)) {
        w->halt = 1;
        return;
      }
    }
  }
}

static void run_root(exec *e, worker *w, uint32_t v, uint32_t from, uint32_t to) {
  const wm_plan *plan = e->plan;
  if (plan->label[0] != WM_ANY_LABEL && e->o->vertex_labels[v] != plan->label[0]) return;
  if (e->o->allowed && !e->o->allowed[v]) return;
  if (stopped(e)) return;
  if (wm_progress_stopped(&e->progress)) { /* the caller's interrupt */
#pragma omp atomic write
    e->stop = 1;
    return;
  }
  if (past_deadline(e)) return;
  w->v[0] = v;
  w->bound[0] = ++w->clock;
  descend(e, w, 0, from, to);
  if (w->oom) {
#pragma omp atomic write
    e->stop = 1; /* the others give up at their next task */
  }
}

static uint32_t root_at(const wm_match_options *o, uint64_t i) {
  return o->first ? o->first[i] : (uint32_t)i;
}

/* Whether root v is run as hub tasks rather than whole. */
static int is_hub(const exec *e, uint32_t v) {
  return e->split && wm_degree(e->g, v) > e->hub_degree;
}

/* Hub tasks: each hub root in chunks of hub_chunk level-1 candidates. */
static int make_hub_tasks(const exec *e, uint64_t roots, hub_task **out, uint64_t *count) {
  uint64_t n = 0;
  for (uint64_t i = 0; i < roots; i++) {
    uint32_t v = root_at(e->o, i);
    if (is_hub(e, v)) n += (wm_degree(e->g, v) + e->hub_chunk - 1) / e->hub_chunk;
  }
  *count = n;
  *out = NULL;
  if (!n) return 1;
  hub_task *t = malloc(n * sizeof *t);
  if (!t) return 0;
  uint64_t c = 0;
  for (uint64_t i = 0; i < roots; i++) {
    uint32_t v = root_at(e->o, i);
    uint64_t d = wm_degree(e->g, v);
    if (!is_hub(e, v)) continue;
    for (uint64_t f = 0; f < d; f += e->hub_chunk) {
      t[c].v = v;
      t[c].from = (uint32_t)f;
      t[c].to = (uint32_t)(f + e->hub_chunk < d ? f + e->hub_chunk : d);
      c++;
    }
  }
  *out = t;
  return 1;
}


static void setup(exec *e, const wm_graph *g, const wm_plan *plan, const wm_match_options *o) {
  memset(e, 0, sizeof *e);
  e->g = g;
  e->plan = plan;
  e->o = o;
  e->k = plan->k;
  unsigned last = plan->k - 1;
  e->fast_count = plan->count_only && !o->sink && !o->per_vertex && !o->allowed &&
                  plan->label[last] == WM_ANY_LABEL;
  e->hub_degree = o->cpu_hub_degree ? o->cpu_hub_degree : HUB_DEGREE;
  e->hub_chunk = e->hub_degree / 4 ? e->hub_degree / 4 : 1;
  e->pairs = e->fast_count ? plan->pair_count : WM_PAIRS_NONE;
  e->tail = e->pairs ? last - 1 : last;
  /* A pair count over part of a set is not a function of that part's
   * size (a product is: a sum over the part); counting a root is one range
   * anyway. */
  e->split = !(e->pairs && e->pairs != WM_PAIRS_PRODUCT && e->tail == 1);
  e->level1_every = o->cpu_level1_every > 1 && !(e->fast_count && e->tail == 1) ? o->cpu_level1_every : 1;
  e->level1_rest = o->cpu_level1_rest;
  e->count_op = -1;
  e->within = e->pairs == WM_PAIRS_PRODUCT && wm_plan_product_within(plan);
  wm_cpu_schedule_build(plan, e->pairs == WM_PAIRS_PRODUCT, &e->sched);
  unsigned t = e->tail, b = plan->op_begin[t - 1], end = plan->op_begin[t];
  if (e->fast_count && e->pairs != WM_PAIRS_PRODUCT && end > b && plan->ops[end - 1].dst == plan->cand[t] &&
      !WM_IS_NBR(plan->cand[t]))
    e->count_op = (int)end - 1;
}

/* Ordinary roots go out in tasks of consecutive roots, at most
 * VERTEX_CHUNK of them and about an equal share of the wedges (a root's
 * squared degree, a measure of the work under it), some TASKS_PER_THREAD a
 * thread: a graph numbered by descending degree puts its heavy roots first,
 * where a chunk of 32 could hold most of a count's work (the bowtie from
 * its centre on the corpus's ba, degrees up to 159, none split as a hub:
 * 17.0 ms on one thread, 13.5 on two).  Processes sharing the work
 * (o->share) cut the same tasks, for SHARE_THREADS threads whatever each
 * has.  *ends gets the tasks' ends (malloc'd), *n their number; 0 where
 * memory ran out.  Two tasks in a row weigh more than the target unless
 * the first holds VERTEX_CHUNK roots, so there are at most roots /
 * VERTEX_CHUNK + 2 x threads x TASKS_PER_THREAD + 2 of them. */
#define TASKS_PER_THREAD 64
#define SHARE_THREADS 64
static int root_tasks(const exec *e, uint64_t roots, double wedges, int threads, uint64_t **ends, uint64_t *n) {
  const double parts = (double)threads * TASKS_PER_THREAD, target = wedges / parts;
  uint64_t *end = malloc((roots / VERTEX_CHUNK + 2 * (uint64_t)parts + 2) * sizeof *end), in = 0;
  double sum = 0.0;
  *ends = end, *n = 0;
  if (!end) return 0;
  for (uint64_t i = 0; i < roots; i++) {
    const double d = (double)wm_degree(e->g, root_at(e->o, i));
    if (in && (in == VERTEX_CHUNK || sum + d * d > target)) end[(*n)++] = i, in = 0, sum = 0.0;
    in++, sum += d * d;
  }
  if (in) end[(*n)++] = roots;
  return 1;
}

/* One thread's share: the hub chunks first, then the ordinary roots'
 * tasks (root_tasks: ends[t] is task t's end); nowait lets a thread done
 * with hubs start on the rest at once. */
static void work(exec *e, worker *w, const hub_task *hubs, uint64_t nhubs, const uint64_t *ends, uint64_t ntasks) {
#pragma omp for schedule(dynamic, 1) nowait
  for (uint64_t t = 0; t < nhubs; t++) {
    if (stopped(e)) continue; /* the progress counts the work done */
    run_root(e, w, hubs[t].v, hubs[t].from, hubs[t].to);
    wm_progress_add(&e->progress, hubs[t].to - hubs[t].from);
  }
#pragma omp for schedule(dynamic, 1) nowait
  for (uint64_t t = 0; t < ntasks; t++)
    for (uint64_t i = t ? ends[t - 1] : 0; i < ends[t]; i++) {
      uint32_t v = root_at(e->o, i);
      if (is_hub(e, v) || stopped(e)) continue;
      run_root(e, w, v, 0, UINT32_MAX);
      wm_progress_add(&e->progress, wm_degree(e->g, v));
    }
}

/* The same share of work when other processes take part (o->share):
 * both lists are claimed in chunks from counters common to all of them,
 * hub tasks first, so the processes balance as the threads do.  A run
 * stopped here (interrupted, out of memory) halts both lists for every
 * process. */
static int stopped_before_claim(exec *e) {
  if (wm_progress_stopped(&e->progress)) { /* the caller's interrupt, before this process claims more */
#pragma omp atomic write
    e->stop = 1;
  }
  return stopped(e);
}

static void work_shared(exec *e, worker *w, const hub_task *hubs, uint64_t nhubs, const uint64_t *ends,
                        uint64_t ntasks, const unsigned loop[2]) {
  const wm_share *s = e->o->share;
  for (uint64_t t; !stopped_before_claim(e) && (t = s->grab(s->ctx, loop[0], HUB_GRAB)) < nhubs;)
    for (uint64_t end = t + HUB_GRAB < nhubs ? t + HUB_GRAB : nhubs; t < end; t++) {
      run_root(e, w, hubs[t].v, hubs[t].from, hubs[t].to);
      wm_progress_add(&e->progress, hubs[t].to - hubs[t].from);
    }
  for (uint64_t t; !stopped_before_claim(e) && (t = s->grab(s->ctx, loop[1], 1)) < ntasks;)
    for (uint64_t i = t ? ends[t - 1] : 0; i < ends[t]; i++) {
      uint32_t v = root_at(e->o, i);
      if (is_hub(e, v)) continue;
      run_root(e, w, v, 0, UINT32_MAX);
      wm_progress_add(&e->progress, wm_degree(e->g, v));
    }
  if (stopped(e)) wm_share_halt(s, loop[0], 2);
}

#define WM_FULL_SOMEWHERE UINT64_MAX

/* Adds the processes' partial results (o->share): every process returns
 * the totals.  Called by every process, whatever its own outcome, so that
 * none waits for another.  *full becomes any process's: its vertex where
 * one process found one, else WM_FULL_SOMEWHERE; *interrupted, whether
 * any process was (then the counts are left alone: none is returned). */
static int share_totals(const wm_share *s, const wm_graph *g, uint64_t *per_vertex, wm_u128 *count,
                        uint64_t *set_ops, int *oom, uint64_t *full, int *interrupted) {
  uint64_t t[5] = {*set_ops, (uint64_t)*oom, *full != 0, *full, (uint64_t)*interrupted};
  int rc = s->sum_u64(s->ctx, t, 5);
  *set_ops = t[0];
  *oom = t[1] != 0;
  if (!*full && t[2]) *full = t[2] == 1 ? t[3] : WM_FULL_SOMEWHERE;
  *interrupted = t[4] != 0;
  if (rc || *interrupted) return rc;
  rc = wm_share_count(s, count);
  if (!rc && per_vertex) {
    uint64_t mine = 0;
    rc = wm_share_per_vertex(s, per_vertex, g->n, *count, &mine); /* the count includes the start */
    if (mine) *full = mine;
  }
  return rc;
}

/* The roots' degrees (progress is measured in them: a hub weighs more
 * than a leaf) and squared degrees (root_tasks' wedges), summed. */
static uint64_t degree_sums(const exec *e, uint64_t roots, double *wedges) {
  uint64_t sum = 0;
  *wedges = 0.0;
  for (uint64_t i = 0; i < roots; i++) {
    const uint64_t d = wm_degree(e->g, root_at(e->o, i));
    sum += d, *wedges += (double)d * (double)d;
  }
  return sum;
}

/* What one more thread costs, in the planner's CPU work units (0.36 ns
 * each, engine.c: the elements set operations read, visits and counts
 * weighed as planner_internal.h says): on a quiet 16-core host, with the
 * team warm from the call before, a fraction of a microsecond.  There,
 * 100 back-to-back triangle counts of G(500, 2000) (estimate 4.1e4 in the
 * elements alone, when it was measured; 256 of those units a thread, about
 * 1.23 ns each, which this keeps: 3.4 times as many of today's) took a
 * median 138 / 102 / 85 / 77 us on 1 / 4 / 8 / 16 threads
 * (scripts/bench-calls.sh), so only calls of a few thousand elements stay
 * on one thread.  A machine whose cores are busy with other work is
 * another matter (a descheduled thread holds the join for a time slice):
 * there the caller's warpmatch_set_threads(ctx, 1) is the remedy. */
#define WM_CPU_THREAD_COST 875.0

/* The threads that finish the call soonest, at most `threads`: t threads
 * take about work / t + t * cost, least at t = sqrt(work / cost).  The
 * work is the planner's estimate, or the level-0 rows' lengths (each
 * root's row is read at least once) where those are more. */
static int threads_for_work(int threads, const wm_plan *plan, uint64_t root_degrees) {
  const double work = plan->est_cost > (double)root_degrees ? plan->est_cost : (double)root_degrees;
  const double best = sqrt(work / WM_CPU_THREAD_COST);
  return best >= threads ? threads : best < 1.0 ? 1 : (int)best;
}

uint32_t wm_match_cpu_level1_every(const wm_plan *plan, const wm_match_options *o) {
  exec e;
  setup(&e, NULL, plan, o);
  return e.level1_every;
}

int wm_match_cpu(const wm_graph *g, const wm_plan *plan, const wm_match_options *o,
                 wm_match_result *r, wm_error *err) {
  wm_match_options defaults;
  if (!o) wm_match_options_init(&defaults), o = &defaults;
  memset(r, 0, sizeof *r);
  int rc = wm_match_check_inputs(g, plan, o, err);
  if (rc) return rc;
  if (o->time_limit_s > 0 && (o->sink || o->per_vertex || o->share))
    return wm_fail(err, WM_EUSAGE, "a time limit is for one count (no listing, per-vertex counts or share)");
  exec e;
  setup(&e, g, plan, o);
  uint64_t roots = o->first ? o->n_first : g->n, nhubs;
  if (e.level1_rest && e.level1_every == 1) roots = 0; /* a sample of all leaves nothing */
  hub_task *hubs;
  if (!make_hub_tasks(&e, roots, &hubs, &nhubs)) return wm_fail(err, WM_EINPUT, "out of memory");
  const wm_share *share = o->sink ? NULL : o->share;
  /* the test hook's start (exact_count.h), in the first process only */
  const uint64_t start = share && share->process ? 0 : wm_count_start();
  for (uint32_t v = 0; o->per_vertex && v < g->n; v++) o->per_vertex[v] = start;
  int threads = o->threads > 0 ? o->threads : omp_get_max_threads(), oom = 0;
  wm_u128 count = start;
  uint64_t set_ops = 0;
  double wedges;
  const uint64_t root_degrees = degree_sums(&e, roots, &wedges);
  /* a module caller's o->threads is taken as given; the library's default
   * (0) is cut to what the work can use */
  if (o->threads <= 0) threads = threads_for_work(threads, plan, root_degrees);
  wm_progress_init(&e.progress, o->progress_label ? o->progress_label : "counting", root_degrees, 1);
  unsigned loop[2] = {0, 0};
  if (share) loop[0] = share->loops(share->ctx, 2), loop[1] = loop[0] + 1;
  uint64_t *ends, ntasks;
  if (!root_tasks(&e, roots, wedges, share ? SHARE_THREADS : threads, &ends, &ntasks)) {
    free(hubs);
    return wm_fail(err, WM_EINPUT, "out of memory");
  }
  double t0 = wm_now();
  if (o->time_limit_s > 0) e.deadline = t0 + o->time_limit_s;
#pragma omp parallel num_threads(threads) if (threads > 1) reduction(+ : set_ops) reduction(| : oom)
  {
    worker w;
    memset(&w, 0, sizeof w);
    if (share)
      work_shared(&e, &w, hubs, nhubs, ends, ntasks, loop);
    else
      work(&e, &w, hubs, nhubs, ends, ntasks);
#pragma omp critical(wm_match_count)
    count += w.count;
    set_ops += w.set_ops;
    oom |= w.oom;
    for (unsigned s = 0; s < WM_MAX_SLOTS; s++) free(w.buf[s]);
  }
  /* read once: with a share, what every process returns is agreed on it */
  const int here = wm_progress_stopped(&e.progress);
  int interrupted = here;
  free(ends);
  if (share && share_totals(share, g, o->per_vertex, &count, &set_ops, &oom, &e.full, &interrupted)) {
    free(hubs);
    return wm_fail(err, WM_EINPUT, "adding up the processes' counts failed (MPI)");
  }
  r->seconds = wm_now() - t0;
  wm_progress_finish(&e.progress);
  free(hubs);
  if (interrupted) return wm_share_interrupted(err, "matching", here);
  if (oom) return wm_fail(err, WM_EINPUT, "out of memory while matching");
  if (e.full == WM_FULL_SOMEWHERE)
    return wm_fail(err, WM_EINPUT, "per-vertex counts: several processes found vertices whose counts pass 2^64 - 1");
  if (e.full) return wm_per_vertex_overflow(g, (uint32_t)(e.full - 1), err);
  r->count = count;
  r->set_ops = set_ops;
  r->listed = e.listed;
  r->cut_short = e.cut;
  char procs[64] = "";
  if (share) snprintf(procs, sizeof procs, " in each of %d processes sharing the roots", share->processes);
  if (e.split)
    snprintf(r->launch, sizeof r->launch, "cpu: %d threads%s, roots above degree %u split into %u-candidate tasks",
             threads, procs, e.hub_degree, e.hub_chunk);
  else
    snprintf(r->launch, sizeof r->launch, "cpu: %d threads%s, roots not split (pairs counted at position 1)",
             threads, procs);
  return WM_OK;
}
