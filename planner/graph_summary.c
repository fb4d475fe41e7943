/* Graph statistics for the planner's cost model: degree moments in one pass,
 * and the share of closed wedges (global clustering) from a few thousand
 * wedges sampled uniformly, so that planning stays cheap on large graphs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen_random.h"
#include "planner_internal.h"

#define WEDGE_SAMPLES 4096

void wm_graph_summary_default(wm_graph_summary *s) {
  /* A mid-sized social network: what a plan without --graph is tuned for. */
  memset(s, 0, sizeof *s);
  s->n = 1000000;
  s->m = 20000000;
  s->mean_degree = 20.0;
  s->mean_sq_degree = 2000.0;
  s->max_degree = 10000;
  s->triangle_density = 0.1;
  s->known = 0;
}

static uint64_t next_rand(uint64_t *state) { return wm_gen_mix64(*state += WM_GEN_GOLDEN); }

static int has_arc(const wm_graph *g, uint32_t u, uint32_t w) {
  return wm_sorted_contains(g->adj + g->offsets[u], wm_degree(g, u), w);
}

/* Picks two distinct neighbours of v at random and tests whether they are
 * adjacent. */
static int wedge_closed(const wm_graph *g, uint32_t v, uint64_t *rng) {
  uint64_t d = wm_degree(g, v);
  uint64_t i = next_rand(rng) % d, j = next_rand(rng) % (d - 1);
  if (j >= i) j++;
  const uint32_t *row = g->adj + g->offsets[v];
  return has_arc(g, row[i], row[j]);
}

/* Small graphs: every wedge. */
static double exact_triangle_density(const wm_graph *g) {
  uint64_t closed = 0, all = 0;
  for (uint32_t v = 0; v < g->n; v++) {
    const uint32_t *row = g->adj + g->offsets[v];
    uint64_t d = wm_degree(g, v);
    for (uint64_t i = 0; i < d; i++)
      for (uint64_t j = i + 1; j < d; j++) closed += (uint64_t)has_arc(g, row[i], row[j]);
    all += d * (d - 1) / 2;
  }
  return all ? (double)closed / (double)all : 0.0;
}

/* Wedges centred at v number d(d-1)/2.  Stratified targets (sample i in
 * [i, i+1) * total / S) are already sorted, so one walk over the vertices
 * picks wedges uniformly without a prefix-sum array of n entries. */
static double sample_triangle_density(const wm_graph *g, double total_wedges) {
  if (total_wedges < 1.0) return 0.0;
  if (total_wedges <= 4.0 * WEDGE_SAMPLES) return exact_triangle_density(g);
  uint64_t rng = 0x5EEDull ^ g->m;
  double stride = total_wedges / WEDGE_SAMPLES, acc = 0.0;
  int t = 0, closed = 0, tried = 0;
  double target = stride * (double)(next_rand(&rng) >> 11) * (1.0 / 9007199254740992.0);
  for (uint32_t v = 0; v < g->n && t < WEDGE_SAMPLES; v++) {
    double d = (double)wm_degree(g, v);
    acc += d * (d - 1.0) / 2.0;
    while (t < WEDGE_SAMPLES && target < acc) {
      if (wm_degree(g, v) >= 2) { /* rounding at a boundary may land on d < 2 */
        closed += wedge_closed(g, v, &rng);
        tried++;
      }
      t++;
      target = stride * (t + (double)(next_rand(&rng) >> 11) * (1.0 / 9007199254740992.0));
    }
  }
  return tried ? (double)closed / tried : 0.0;
}

void wm_graph_summary_compute(const wm_graph *g, wm_graph_summary *s) {
  memset(s, 0, sizeof *s);
  s->n = g->n;
  s->m = g->m;
  double sum[WM_MAX_K + 2] = {0}, wedges = 0.0;
  uint64_t maxd = 0, prev = UINT64_MAX;
  s->by_degree = 1;
  for (uint32_t v = 0; v < g->n; v++) {
    uint64_t d = wm_degree(g, v);
    if (d > prev) s->by_degree = 0;
    prev = d;
    double power = 1.0;
    for (unsigned j = 0; j < WM_MAX_K + 2; j++, power *= (double)d) sum[j] += power;
    wedges += (double)d * ((double)d - 1.0) / 2.0;
    if (d > maxd) maxd = d;
  }
  for (unsigned j = 0; j < WM_MAX_K + 2; j++) s->moment[j] = g->n ? sum[j] / g->n : 0.0;
  s->mean_degree = s->moment[1];
  s->mean_sq_degree = s->moment[2];
  s->max_degree = maxd;
  s->triangle_density = sample_triangle_density(g, wedges);
  const char *hook = getenv("WM_TEST_MEAN_SIZES"); /* docs/testing-hooks.md */
  s->mean_sizes = hook && strcmp(hook, "1") == 0;
  s->known = 1;
}
