/* wm_plan_build: pattern + graph statistics + options -> plan.
 * Symmetry restrictions come from the pattern's automorphism group (pairs of
 * pattern vertices) and are mapped onto positions of the chosen order as
 * lower / upper bounds; labels and semantics are copied in as flags. */
#include <string.h>

#include "planner_internal.h"

void wm_plan_options_init(wm_plan_options *o) {
  memset(o, 0, sizeof *o);
  o->code_motion = 1;
  o->count_only = 1;
  o->pair_count = 1;
}

/* Transitive closure of "v[x] < v[y]" over positions (Floyd-Warshall on
 * bitmasks); lt[x] holds the y's. */
static void close_relation(uint8_t lt[WM_MAX_K]) {
  for (unsigned z = 0; z < WM_MAX_K; z++) /* rows past k are empty */
    for (unsigned x = 0; x < WM_MAX_K; x++)
      if ((lt[x] >> z) & 1u) lt[x] |= lt[z];
}

/* Keeps, of position i's bounds, only those not implied through another
 * earlier position: v[i] > v[j] and v[j] > v[x] make v[i] > v[x]
 * redundant.  This is the transitive reduction of the (acyclic) relation,
 * so the kept bounds still imply every restriction in a complete match; a
 * partial match that breaks a dropped one dies at a later position. */
static void drop_implied(wm_plan *plan, const uint8_t lt[WM_MAX_K]) {
  for (unsigned i = 0; i < plan->k; i++) {
    uint8_t lo = plan->lower[i], hi = plan->upper[i];
    for (unsigned x = 0; x < i; x++) {
      if (((lo >> x) & 1u) && (lt[x] & lo & ~(1u << x))) plan->lower[i] &= (uint8_t)~(1u << x);
      /* v[i] < v[j] < v[x]: drop x from upper */
      for (unsigned j = 0; j < i; j++)
        if (j != x && ((hi >> x) & 1u) && ((hi >> j) & 1u) && ((lt[j] >> x) & 1u))
          plan->upper[i] &= (uint8_t)~(1u << x);
    }
  }
}

/* Restriction pairs as a relation on pattern vertices: bit b of less[a]
 * means v(a) < v(b). */
static void restriction_relation(const wm_pattern *p, const wm_automorphisms *aut, const uint8_t *order,
                                 uint8_t less[WM_MAX_K]) {
  wm_restriction r[WM_MAX_K * WM_MAX_K];
  unsigned n = aut ? wm_pattern_restrictions_in_group(aut, p->k, order, r) : wm_pattern_restrictions_ordered(p, order, r);
  for (unsigned i = 0; i < n; i++) less[r[i].a] |= (uint8_t)(1u << r[i].b);
}

/* Whether positions 0 and 1 may take either side of their restriction:
 * swapping them maps the ordered pattern onto itself (same label, same
 * neighbours among the later positions) and no other restriction names
 * either.  The swap then maps the matches under v1 < v0 one to one onto
 * those under v1 > v0, with the other restrictions unchanged. */
static int interchangeable01(const wm_pattern *p, const uint8_t *order, const uint8_t *pos,
                             const uint8_t less[WM_MAX_K]) {
  unsigned k = p->k;
  if (k < 2 || p->label[order[0]] != p->label[order[1]]) return 0;
  for (unsigned j = 2; j < k; j++)
    if (wm_pattern_has_edge(p, order[0], order[j]) != wm_pattern_has_edge(p, order[1], order[j])) return 0;
  for (unsigned a = 0; a < k; a++)
    for (unsigned b = 0; b < k; b++)
      if (((less[a] >> b) & 1u) && (pos[a] < 2) != (pos[b] < 2)) return 0;
  return 1;
}

int wm_plan_fill_order(wm_plan *plan, int symmetry, const wm_automorphisms *aut, int induced, int code_motion,
                       int first_edge_up, wm_error *err) {
  const wm_pattern *p = &plan->pattern;
  unsigned k = plan->k;
  uint8_t pos[WM_MAX_K], lt[WM_MAX_K] = {0}, less[WM_MAX_K] = {0};
  if (symmetry) restriction_relation(p, aut, plan->order, less);
  for (unsigned i = 0; i < k; i++) pos[plan->order[i]] = (uint8_t)i;
  /* For the GPU, interchangeable positions 0 and 1 (the diamond's spine)
   * are bounded v1 > v0, against the mirroring below: v0 is then the
   * higher-degree end of the edge, whose row every v1 of it reads, and the
   * GPU keeps that row in its probe table and walks each v1's shorter one
   * (gpu_set_ops.cuh).  Not for the CPU: its hub roots would then carry
   * the work, which is slower there (diamonds, tailed triangles; see
   * BENCHMARKS.md). */
  const int up01 = first_edge_up && symmetry && interchangeable01(p, plan->order, pos, less);
  memset(plan->lower, 0, sizeof plan->lower);
  memset(plan->upper, 0, sizeof plan->upper);
  memset(plan->distinct, 0, sizeof plan->distinct);
  for (unsigned a = 0; a < k; a++)
    for (unsigned b = 0; b < k; b++) {
      if (!((less[a] >> b) & 1u)) continue;
      /* Mirrored: the pair is applied as v[pa] > v[pb] (reversing every
       * restriction keeps exactly one embedding per class, too).  On a
       * graph relabelled by descending degree this makes the later
       * positions the higher-degree vertices, so a bounded neighbour list
       * keeps only the few neighbours of higher degree. */
      unsigned pa = pos[a], pb = pos[b];
      if (up01 && pa + pb == 1) pa = 1, pb = 0;
      lt[pb] |= (uint8_t)(1u << pa); /* v[pb] < v[pa] */
      if (pa < pb)
        plan->upper[pb] |= (uint8_t)(1u << pa);
      else
        plan->lower[pa] |= (uint8_t)(1u << pb);
    }
  for (unsigned i = 0; i < k; i++) {
    unsigned nonadj = 0;
    for (unsigned j = 0; j < i; j++)
      if (!wm_pattern_has_edge(p, plan->order[i], plan->order[j])) nonadj |= 1u << j;
    /* A restriction already makes c differ from v[j]. */
    plan->distinct[i] = (uint8_t)(nonadj & ~(unsigned)(plan->lower[i] | plan->upper[i]));
    plan->label[i] = p->label[plan->order[i]];
  }
  close_relation(lt);
  uint8_t cl[WM_MAX_K] = {0}, cu[WM_MAX_K] = {0};
  for (unsigned x = 0; x < k; x++)
    for (unsigned y = 0; y < k; y++)
      if ((lt[x] >> y) & 1u) {
        cl[y] |= (uint8_t)(1u << x); /* v[x] < v[y] */
        cu[x] |= (uint8_t)(1u << y);
      }
  drop_implied(plan, lt);
  return wm_program_build(plan, cl, cu, induced, code_motion, err);
}

/* The first vertex of order with no neighbour before it, or k: none. */
static unsigned first_unconnected(const wm_pattern *p, const uint8_t *order) {
  unsigned seen = 1u << order[0];
  for (unsigned i = 1; i < p->k; i++) {
    if (!(p->adj[order[i]] & seen)) return order[i];
    seen |= 1u << order[i];
  }
  return p->k;
}

static int check_forced_order(const wm_pattern *p, const uint8_t *order, wm_error *err) {
  unsigned seen = 0;
  for (unsigned i = 0; i < p->k; i++) {
    if (order[i] >= p->k || ((seen >> order[i]) & 1u))
      return wm_fail(err, WM_EUSAGE, "pattern '%s': the matching order given is not a permutation of 0..%u",
                     p->name, p->k - 1);
    seen |= 1u << order[i];
  }
  const unsigned lone = first_unconnected(p, order);
  if (lone < p->k)
    return wm_fail(err, WM_EUSAGE, "pattern '%s': in the matching order given, vertex %u has no earlier neighbour",
                   p->name, lone);
  return WM_OK;
}

/* The probes' seed: the same orders measured alike in every call. */
static const uint64_t kSampleSeed = 0x5eed;

/* Probes per order (wm_plan_options.sample_probes, default 4096). */
static unsigned sample_probes(const wm_plan_options *o) { return o->sample_probes ? o->sample_probes : 4096u; }

/* A forced order's work as sampled measures each order it weighs (the
 * same probes: plan --order O --planner sampled shows what they make of
 * O); none where the probes' memory cannot be had. */
static void measure_forced(wm_plan *out, const wm_plan_options *o) {
  double reads = 0.0;
  const double work = wm_plan_sampled_cost_within(out, o->sample_graph, wm_graph_max_degree(o->sample_graph),
                                                  sample_probes(o), kSampleSeed,
                                                  WM_SAMPLE_MAX_READS, o->sample_op_latency, &reads);
  const int ok = work < HUGE_VAL;
  out->sampled_cost = ok ? work : 0.0;
  out->sampled_orders = ok;
  out->sampled_reads = ok ? reads : 0.0;
}

int wm_plan_build(const wm_pattern *p, const wm_graph_summary *gs, const wm_plan_options *o,
                  wm_plan *out, wm_error *err) {
  wm_plan_options defaults;
  wm_graph_summary default_summary;
  if (!o) wm_plan_options_init(&defaults), o = &defaults;
  if (!gs) wm_graph_summary_default(&default_summary), gs = &default_summary;
  int rc = wm_pattern_validate(p, err);
  if (rc) return rc;
  memset(out, 0, sizeof *out);
  out->k = p->k;
  out->pattern = *p;
  out->count_only = o->count_only ? 1u : 0u;
  out->flags = (o->induced ? WM_PLAN_INDUCED : 0u) | (o->embeddings ? WM_PLAN_EMBEDDINGS : 0u) |
               (o->code_motion ? WM_PLAN_CODE_MOTION : 0u) | (p->labeled ? WM_PLAN_LABELED : 0u) |
               (o->first_edge_up ? WM_PLAN_GPU : 0u);

  wm_automorphisms aut;
  if ((rc = wm_pattern_automorphisms(p, &aut, err))) return rc;
  out->automorphisms = aut.count;
  int symmetry = !o->embeddings;
  if (o->candidates) memset(o->candidates, 0, sizeof *o->candidates);
  if (o->forced_order) {
    rc = check_forced_order(p, o->forced_order, err);
    if (rc == WM_OK) memcpy(out->order, o->forced_order, p->k);
  } else {
    /* The order is chosen for the hoisted program even without code
     * motion, so --no-code-motion is the same plan minus the hoisting. */
    const wm_order_sampling sampling = {o->sample_graph, sample_probes(o), kSampleSeed,
                                        o->code_motion, o->first_edge_up, o->count_only && o->pair_count,
                                        o->sample_margin > 1.0 ? o->sample_margin : 1.0, o->sample_share,
                                        o->sample_read_cost > 0.0 ? o->sample_read_cost : 1.0,
                                        o->sample_max_orders, o->sample_threads,
                                        o->sample_doubt, o->sample_doubt_reads, o->sample_doubt_margin,
                                        o->sample_op_latency, o->sample_confidence};
    rc = wm_choose_order(out, &aut, symmetry, gs, o->induced, 1, o->count_only && o->pair_count,
                         o->sample_graph ? &sampling : NULL,
                         o->candidates, err);
  }
  if (!rc) rc = wm_plan_fill_order(out, symmetry, &aut, o->induced, o->code_motion, o->first_edge_up, err);
  wm_automorphisms_free(&aut);
  if (rc) return rc;
  if (o->count_only && o->pair_count) out->pair_count = wm_plan_pair_mode(out);
  if (o->forced_order && o->measure_forced && o->sample_graph) measure_forced(out, o);
  out->est_cost = wm_plan_estimate_cost(out, gs);
  wm_canonical canon;
  wm_pattern_canonical(p, &canon);
  out->pattern_hash = canon.hash;
  return WM_OK;
}
