/* A plan's work measured on the graph itself: Knuth's estimator of a
 * search tree's size (Math. Comp. 29, 1975).  A probe picks a random root,
 * then at every level runs the level's set operations for real and picks
 * one random candidate of the next position; a level reached through
 * candidate sets of sizes s1, s2, ... stands for n * s1 * s2 * ... such
 * levels, so its work counts that many times.  The mean over probes is an
 * unbiased estimate of the plan's total work.  Unlike the cost model's
 * mean sizes (matching_order.c), it sees the dense cores of skewed graphs,
 * where the nested levels of a pattern's matches concentrate. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_schedule.h"
#include "gen_random.h"
#include "planner_internal.h"

#define kSampleBudget WM_SAMPLE_MAX_READS
#define kMinProbes WM_SAMPLE_MIN_PROBES

static uint64_t next_random(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

/* a & b or a - b into out; returns the result's size.  A hub's list is
 * searched rather than walked (a probe meets hubs at every level). */
static uint32_t set_op(int kind, const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb, uint32_t *out) {
  uint32_t n = 0;
  if (nb > 16u * (uint64_t)na) {
    for (uint32_t i = 0; i < na; i++)
      if (wm_sorted_contains(b, nb, a[i]) == (kind == WM_OP_INTERSECT)) out[n++] = a[i];
    return n;
  }
  if (kind == WM_OP_INTERSECT && na > 16u * (uint64_t)nb) {
    for (uint32_t j = 0; j < nb; j++)
      if (wm_sorted_contains(a, na, b[j])) out[n++] = b[j];
    return n;
  }
  for (uint32_t i = 0, j = 0; i < na; i++) {
    while (j < nb && b[j] < a[i]) j++;
    if ((j < nb && b[j] == a[i]) == (kind == WM_OP_INTERSECT)) out[n++] = a[i];
  }
  return n;
}

typedef struct probe_state {
  double touched; /* list elements read so far, over all probes (the budget) */
  const wm_graph *g;
  const wm_plan *plan;
  uint32_t v[WM_MAX_K];
  const uint32_t *set[WM_MAX_SLOTS];
  uint32_t len[WM_MAX_SLOTS];
  uint32_t *buf[WM_MAX_SLOTS]; /* max degree + 1 each */
  int within;                  /* wm_plan_product_within */
  double op_latency;           /* units per level of an op's search of its larger set */
  double visit_units, count_units; /* wm_visit_units, wm_count_units */
  /* The CPU's plan: the executor's schedule, whose lazy ops run at a later
   * level than planned (NULL on the GPU, which runs each op at its level),
   * and the work of each, held until the probe's path reaches where it runs */
  const wm_cpu_schedule *sched;
  double held[WM_MAX_OPS], held_ops[WM_MAX_OPS];
  double ops; /* the probe's estimate of the set operations run, as its work */
} probe_state;

static void operand(const probe_state *s, uint8_t x, const uint32_t **p, uint32_t *n) {
  if (WM_IS_NBR(x)) {
    uint32_t v = s->v[WM_NBR_POS(x)];
    *p = s->g->adj + s->g->offsets[v];
    *n = (uint32_t)wm_degree(s->g, v);
  } else {
    *p = s->set[x];
    *n = s->len[x];
  }
}

/* Position p's accepted candidates: the operand's range within the
 * position's bounds, less the earlier vertices it must differ from, found
 * by binary searches rather than by walking the list (a probe rooted at a
 * hub would otherwise walk its list at every level, where the executor
 * only searches it). */
typedef struct accepted {
  const uint32_t *x;
  uint64_t lo, hi;          /* the range [lo, hi) of x within the bounds */
  uint64_t out[WM_MAX_K];   /* indexes in the range of the excluded vertices, ascending */
  unsigned n_out;
} accepted;

/* The first index of x[0, n) above v. */
static uint64_t above(const uint32_t *x, uint64_t n, uint32_t v) {
  const uint64_t i = wm_sorted_lower_bound(x, n, v);
  return i < n && x[i] == v ? i + 1 : i;
}

static uint64_t candidates(const probe_state *s, unsigned p, accepted *a) {
  const wm_plan *plan = s->plan;
  uint32_t nx;
  operand(s, plan->cand[p], &a->x, &nx);
  uint64_t lo = 0, hi = nx;
  for (unsigned j = 0; j < p; j++) {
    const unsigned bit = 1u << j;
    if (plan->lower[p] & bit) {
      const uint64_t i = above(a->x, nx, s->v[j]);
      if (i > lo) lo = i;
    }
    if (plan->upper[p] & bit) {
      const uint64_t i = wm_sorted_lower_bound(a->x, nx, s->v[j]);
      if (i < hi) hi = i;
    }
  }
  if (lo > hi) lo = hi;
  a->lo = lo, a->hi = hi, a->n_out = 0;
  for (unsigned j = 0; j < p; j++) {
    if (!(plan->distinct[p] & (1u << j))) continue;
    const uint64_t i = lo + wm_sorted_lower_bound(a->x + lo, hi - lo, s->v[j]);
    if (i == hi || a->x[i] != s->v[j]) continue;
    unsigned k = 0;
    while (k < a->n_out && a->out[k] != i) k++;
    if (k < a->n_out) continue; /* excluded already */
    for (k = a->n_out++; k > 0 && a->out[k - 1] > i; k--) a->out[k] = a->out[k - 1];
    a->out[k] = i;
  }
  return hi - lo - a->n_out;
}

/* The r-th accepted candidate, counting in the list's order. */
static uint32_t accepted_at(const accepted *a, uint64_t r) {
  uint64_t i = a->lo + r;
  for (unsigned k = 0; k < a->n_out && a->out[k] <= i; k++) i++;
  return a->x[i];
}

/* A root drawn with probability (d(v) + 1) / (m + n), and its weight, the
 * inverse of that: Knuth's estimate stays unbiased for any root
 * distribution that reaches every vertex, and one leaning to the hubs,
 * below which the work of skewed graphs concentrates, sees them in a few
 * hundred probes where uniform roots would need many thousands (the
 * estimate of such a graph's heavy order then comes out far too low).
 * The graph's offsets are the cumulative degrees, so offsets[v] + v is
 * the cumulative weight. */
static uint32_t pick_root(const wm_graph *g, uint64_t *rng, double *weight) {
  const uint64_t total = g->m + g->n, r = next_random(rng) % total;
  uint32_t lo = 0, hi = g->n - 1; /* the last v with offsets[v] + v <= r */
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo + 1) / 2;
    if (g->offsets[mid] + mid <= r)
      lo = mid;
    else
      hi = mid - 1;
  }
  *weight = (double)total / (double)(wm_degree(g, lo) + 1);
  return lo;
}

/* Whether the CPU executor runs op o of level L where the probe's path
 * shows it runs at all: a lazy op needed at the next level runs where that
 * level has a candidate (the probe's count of them: exact), the tail's op
 * of a product where the last position's set is not empty.  One needed
 * deeper is charged at its level, as the GPU runs it: the path alone, one
 * of the candidates' subtrees, cannot tell whether any reaches it. */
static int held_op(const probe_state *s, unsigned o, unsigned L) {
  const wm_cpu_schedule *cs = s->sched;
  return cs && cs->lazy[o] && (cs->need[o] == L + 1 || o == cs->tail_op);
}

/* Held op o's work and its run into the probe's estimates. */
static double release(probe_state *s, unsigned o) {
  s->ops += s->held_ops[o];
  return s->held[o];
}

/* The held ops a visit of level L runs (cpu_schedule.h's by_need). */
static double release_level(probe_state *s, unsigned L) {
  const wm_cpu_schedule *cs = s->sched;
  double work = 0.0;
  for (unsigned i = cs->need_begin[L]; i < cs->need_begin[L + 1]; i++) work += release(s, cs->by_need[i]);
  return work;
}

/* One probe's estimate of the work below the root (and into s->ops, of
 * the set operations run). */
static double probe(probe_state *s, uint64_t *rng) {
  const wm_plan *plan = s->plan;
  const wm_cpu_schedule *cs = s->sched;
  double weight, work = 0.0;
  s->v[0] = pick_root(s->g, rng, &weight);
  for (unsigned L = 0; L + 1 < plan->k; L++) {
    if (cs) work += release_level(s, L);
    for (unsigned o = plan->op_begin[L]; o < plan->op_begin[L + 1]; o++) {
      const wm_plan_op *op = &plan->ops[o];
      const uint32_t *a, *b;
      uint32_t na, nb;
      operand(s, op->a, &a, &na);
      operand(s, op->b, &b, &nb);
      const double read = wm_op_work(na, nb);
      const double op_work = weight * (read + s->op_latency * log2((na > nb ? na : nb) + 2.0));
      const int held = held_op(s, o, L);
      s->held[o] = held ? op_work : 0.0, s->held_ops[o] = held ? weight : 0.0;
      if (!held) work += op_work, s->ops += weight;
      s->touched += read;
      s->len[op->dst] = set_op(op->kind, a, na, b, nb, s->buf[op->dst]);
      s->set[op->dst] = s->buf[op->dst];
    }
    const unsigned p = L + 1;
    accepted acc;
    const uint64_t n = candidates(s, p, &acc);
    /* A count from a set's size still searches it for its bounds and for
     * each earlier vertex it excludes (wm_count_work, wm_pair_work). */
    if (p + 2 == plan->k && plan->pair_count) {
      const uint32_t *b;
      uint32_t nb;
      operand(s, plan->cand[p + 1], &b, &nb);
      if (cs) { /* the product's (cpu_executor.c count_product): the ops it needs, then the tail's */
        if (cs->tail_op != WM_CPU_NO_OP || n) work += release_level(s, p);
        if (cs->tail_op != WM_CPU_NO_OP && nb) work += release(s, cs->tail_op);
      }
      /* a product not within one set intersects the two where both count */
      if (plan->pair_count == WM_PAIRS_PRODUCT && !s->within && n && nb) s->ops += weight;
      return work + weight * s->count_units * wm_pair_work(plan, s->within, (double)n, nb);
    }
    if (p + 1 == plan->k && plan->count_only) return work + weight * s->count_units * wm_count_work(plan, p, (double)n);
    work += weight * s->visit_units * (n + 1.0); /* the visit (as a count's) and the iterations themselves */
    if (!n) return work;
    weight *= n;
    s->v[p] = accepted_at(&acc, next_random(rng) % n);
  }
  return work;
}

double wm_plan_sampled_cost(const wm_plan *plan, const wm_graph *g, uint64_t maxdeg, unsigned probes, uint64_t seed) {
  return wm_plan_sampled_cost_within(plan, g, maxdeg, probes, seed, kSampleBudget, 0.0, NULL);
}

/* Stream i's seed: splitmix64 of the order's seed and i (the generators'
 * mix), so that the streams' draws are independent of each other. */
static uint64_t stream_seed(uint64_t seed, unsigned i) {
  return wm_gen_mix64(seed + (uint64_t)(i + 1) * WM_GEN_GOLDEN) | 1u;
}

/* Stream i's share of n: n / WM_SAMPLE_STREAMS, the first n % streams
 * one more. */
static unsigned stream_share(unsigned n, unsigned i) {
  return n / WM_SAMPLE_STREAMS + (i < n % WM_SAMPLE_STREAMS);
}

int wm_plan_probe_stream(const wm_plan *plan, const wm_graph *g, uint64_t maxdeg, unsigned probes, uint64_t seed,
                         unsigned stream, double max_reads, double op_latency, wm_probe_sum *sum) {
  memset(sum, 0, sizeof *sum);
  const unsigned mine = stream_share(probes, stream);
  const unsigned least = stream_share(probes < kMinProbes ? probes : kMinProbes, stream);
  if (!g->n || !mine) return WM_OK;
  probe_state s = {.g = g, .plan = plan, .op_latency = op_latency};
  s.visit_units = wm_visit_units(plan), s.count_units = wm_count_units(plan);
  s.within = plan->pair_count == WM_PAIRS_PRODUCT && wm_plan_product_within(plan);
  wm_cpu_schedule sched;
  if (!(plan->flags & WM_PLAN_GPU)) {
    wm_cpu_schedule_build(plan, plan->pair_count == WM_PAIRS_PRODUCT, &sched);
    s.sched = &sched;
  }
  uint32_t *mem = malloc((size_t)(plan->n_slots ? plan->n_slots : 1) * (maxdeg + 1) * sizeof *mem);
  if (!mem) return WM_EINPUT;
  for (unsigned i = 0; i < plan->n_slots; i++) s.buf[i] = mem + (size_t)i * (maxdeg + 1);
  uint64_t rng = stream_seed(seed, stream);
  /* At most max_reads elements read per order, so that huge graphs plan
   * in bounded time (at least kMinProbes probes); a budget, not a clock,
   * keeps the choice the same on every machine. */
  const double reads = max_reads / WM_SAMPLE_STREAMS;
  unsigned t = 0;
  while (t < mine && (t < least || s.touched < reads)) {
    const double w = probe(&s, &rng);
    sum->work += w, sum->work_sq += w * w, t++;
  }
  free(mem);
  sum->probes = t;
  sum->reads = s.touched;
  sum->ops = s.ops;
  return WM_OK;
}

double wm_probe_estimate(const wm_probe_sum streams[WM_SAMPLE_STREAMS], double *reads, double *rse) {
  double work = 0.0, sq = 0.0, read = 0.0;
  unsigned probes = 0;
  for (unsigned i = 0; i < WM_SAMPLE_STREAMS; i++)
    work += streams[i].work, sq += streams[i].work_sq, read += streams[i].reads, probes += streams[i].probes;
  if (reads) *reads = read;
  const double mean = probes ? work / probes : 0.0;
  if (rse) {
    const double var = probes > 1 ? (sq / probes - mean * mean) * probes / (probes - 1.0) : 0.0;
    *rse = probes > 1 && mean > 0.0 ? sqrt((var > 0.0 ? var : 0.0) / probes) / mean : HUGE_VAL;
  }
  return mean;
}

/* Every stream of the probes in turn, on this thread. */
static int probe_streams(const wm_plan *plan, const wm_graph *g, uint64_t maxdeg, unsigned probes, uint64_t seed,
                         double max_reads, double op_latency, wm_probe_sum sums[WM_SAMPLE_STREAMS]) {
  for (unsigned i = 0; i < WM_SAMPLE_STREAMS; i++)
    if (wm_plan_probe_stream(plan, g, maxdeg, probes, seed, i, max_reads, op_latency, &sums[i])) return WM_EINPUT;
  return WM_OK;
}

double wm_plan_sampled_cost_within(const wm_plan *plan, const wm_graph *g, uint64_t maxdeg, unsigned probes,
                                   uint64_t seed, double max_reads, double op_latency, double *reads) {
  wm_probe_sum sums[WM_SAMPLE_STREAMS];
  if (probe_streams(plan, g, maxdeg, probes, seed, max_reads, op_latency, sums)) {
    if (reads) *reads = 0.0;
    return HUGE_VAL;
  }
  return wm_probe_estimate(sums, reads, NULL);
}

double wm_plan_sampled_ops(const wm_plan *plan, const wm_graph *g, uint64_t maxdeg, unsigned probes, uint64_t seed) {
  wm_probe_sum sums[WM_SAMPLE_STREAMS];
  if (probe_streams(plan, g, maxdeg, probes, seed, kSampleBudget, 0.0, sums)) return HUGE_VAL;
  double ops = 0.0;
  unsigned taken = 0;
  for (unsigned i = 0; i < WM_SAMPLE_STREAMS; i++) ops += sums[i].ops, taken += sums[i].probes;
  return taken ? ops / taken : 0.0;
}
