/* The generators: Kronecker and R-MAT, and the models of gen_*.c
 * (chung-lu, ba, hub, sbm, regular, grid): determinism, thread
 * independence, the shape each promises, their refusals, and the `gen`
 * command. */
#include <criterion/criterion.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datasets.h"
#include "json_check.h"
#include "testutil.h"

static wm_graph *gen(const wm_gen_options *o) {
  wm_graph *g = NULL;
  wm_error err;
  int rc = wm_generate(o, &g, &err);
  cr_assert_eq(rc, WM_OK, "wm_generate failed: %s", err.msg);
  cr_assert_not_null(g);
  return g;
}

static wm_graph *kron(unsigned scale, uint64_t seed) {
  wm_gen_options o;
  wm_gen_kron_defaults(&o, scale, seed);
  return gen(&o);
}

static int same_graph(const wm_graph *x, const wm_graph *y) {
  return x->n == y->n && x->m == y->m && x->flags == y->flags &&
         memcmp(x->offsets, y->offsets, (x->n + 1ull) * sizeof *x->offsets) == 0 &&
         memcmp(x->adj, y->adj, x->m * sizeof *x->adj) == 0;
}

/* No self-loop, rows strictly ascending (no duplicate), every arc with its
 * reverse. */
static void check_simple_symmetric(const wm_graph *g) {
  cr_assert_eq(g->flags & WM_GRAPH_DIRECTED, 0u, "generated graphs are undirected");
  cr_assert_eq(g->offsets[g->n], g->m);
  for (uint32_t v = 0; v < g->n; v++)
    for (uint64_t i = g->offsets[v]; i < g->offsets[v + 1]; i++) {
      uint32_t w = g->adj[i];
      cr_assert_neq(w, v, "self-loop at %u", v);
      if (i > g->offsets[v]) cr_assert_gt(w, g->adj[i - 1], "row %u not strictly ascending", v);
      cr_assert(wm_graph_has_arc(g, w, v), "arc %u->%u has no reverse", v, w);
    }
}

Test(generators, defaults_follow_graph500) {
  wm_gen_options o;
  wm_gen_kron_defaults(&o, 10, 7);
  cr_assert_eq(o.scale, 10u);
  cr_assert_eq(o.seed, 7u);
  cr_assert_eq(o.edge_factor, 16u);
  cr_assert_float_eq(o.a, 0.57, 1e-12);
  cr_assert_float_eq(o.b, 0.19, 1e-12);
  cr_assert_float_eq(o.c, 0.19, 1e-12);
  cr_assert(o.permute);
  wm_gen_rmat_defaults(&o, 10, 7);
  cr_assert_float_eq(o.a, 0.45, 1e-12);
  cr_assert_float_eq(o.b, 0.15, 1e-12);
  cr_assert_float_eq(o.c, 0.15, 1e-12);
  cr_assert(!o.permute);
}

Test(generators, same_seed_same_graph_other_seed_other_graph) {
  wm_graph *x = kron(12, 42), *y = kron(12, 42), *z = kron(12, 43);
  cr_assert(same_graph(x, y), "seed 42 twice gave different graphs");
  cr_assert(!same_graph(x, z), "seeds 42 and 43 gave the same graph");
  wm_graph_destroy(x);
  wm_graph_destroy(y);
  wm_graph_destroy(z);
}

Test(generators, independent_of_thread_count) {
  const char *kinds[2] = {"kron", "rmat"};
  for (int k = 0; k < 2; k++) {
    wm_gen_options o;
    if (k == 0)
      wm_gen_kron_defaults(&o, 13, 5);
    else
      wm_gen_rmat_defaults(&o, 13, 5);
    omp_set_num_threads(1);
    wm_graph *one = gen(&o);
    omp_set_num_threads(2);
    wm_graph *two = gen(&o);
    omp_set_num_threads(3); /* uneven split of the edge range */
    wm_graph *three = gen(&o);
    cr_assert(same_graph(one, two), "%s: 1 and 2 threads differ", kinds[k]);
    cr_assert(same_graph(one, three), "%s: 1 and 3 threads differ", kinds[k]);
    wm_graph_destroy(one);
    wm_graph_destroy(two);
    wm_graph_destroy(three);
  }
}

Test(generators, n_is_two_to_the_scale_and_graph_is_simple) {
  for (unsigned scale = 1; scale <= 14; scale += 13) {
    wm_graph *g = kron(scale, 1);
    cr_assert_eq(g->n, 1u << scale, "scale %u: n = %u", scale, g->n);
    cr_assert_eq(g->orig_ids, NULL, "ids are 0..n-1, no mapping expected");
    check_simple_symmetric(g);
    /* Duplicates are dropped, so at most edge_factor * n undirected edges. */
    cr_assert_leq(wm_graph_edges(g), 16ull << scale);
    wm_graph_destroy(g);
  }
}

Test(generators, kronecker_degrees_are_skewed) {
  wm_graph *g = kron(14, 3);
  wm_degree_stats st;
  wm_graph_degree_stats(g, &st);
  cr_assert_gt(wm_graph_edges(g), 8ull << 14, "far too many duplicates: %llu edges",
               (unsigned long long)wm_graph_edges(g));
  cr_assert_gt((double)st.max_degree, 20.0 * st.mean_degree, "max degree %llu, mean %.1f",
               (unsigned long long)st.max_degree, st.mean_degree);
  cr_assert_gt(st.isolated, 0u, "Graph500 Kronecker graphs leave many vertices isolated");
  wm_graph_destroy(g);
}

/* The largest degree: a scan of the rows, or on a graph relabelled by
 * descending degree (not oriented) the first row; the same value either
 * way, the degree statistics' too.  An oriented graph keeps the scan (its
 * rows lost the order). */
Test(generators, max_degree_of_sorted_graphs) {
  wm_graph *g = kron(12, 5), *s = NULL, *o = NULL;
  wm_error err;
  cr_assert_eq(wm_graph_relabel_by_degree(g, &s, &err), WM_OK, "%s", err.msg);
  cr_assert_eq(wm_graph_orient_by_degree(s, &o, &err), WM_OK, "%s", err.msg);
  wm_graph *all[] = {g, s, o};
  for (int i = 0; i < 3; i++) {
    uint64_t scan = 0;
    for (uint32_t v = 0; v < all[i]->n; v++)
      if (wm_degree(all[i], v) > scan) scan = wm_degree(all[i], v);
    wm_degree_stats st;
    wm_graph_degree_stats(all[i], &st);
    cr_assert_eq(wm_graph_max_degree(all[i]), scan, "graph %d", i);
    cr_assert_eq(st.max_degree, scan, "graph %d", i);
  }
  cr_assert(s->flags & WM_GRAPH_DEGREE_SORTED);
  cr_assert_gt(wm_degree(s, 0), wm_degree(o, 0), "the oriented copy's first row is not its longest");
  for (int i = 0; i < 3; i++) wm_graph_destroy(all[i]);
}

Test(generators, rmat_uniform_quadrants_give_uniform_degrees) {
  wm_gen_options o;
  wm_gen_rmat_defaults(&o, 14, 9);
  o.a = o.b = o.c = 0.25;
  wm_graph *g = gen(&o);
  wm_degree_stats st;
  wm_graph_degree_stats(g, &st);
  /* An Erdos-Renyi-like graph: mean ~32, Poisson spread. */
  cr_assert_gt(st.mean_degree, 30.0, "mean %.2f", st.mean_degree);
  cr_assert_lt((double)st.max_degree, 2.0 * st.mean_degree, "max %llu, mean %.2f",
               (unsigned long long)st.max_degree, st.mean_degree);
  cr_assert_eq(st.isolated, 0u);
  wm_graph_destroy(g);

  wm_gen_rmat_defaults(&o, 14, 9);
  g = gen(&o);
  wm_graph_degree_stats(g, &st);
  cr_assert_gt((double)st.max_degree, 10.0 * st.mean_degree, "default R-MAT should be skewed");
  wm_graph_destroy(g);
}

/* Share of arcs whose source lies in the lower half of the ids: about
 * a + (b + c) / 2 for an unpermuted graph (each edge is stored both ways). */
static double low_half_share(const wm_graph *g) {
  return (double)g->offsets[g->n / 2] / (double)g->m;
}

Test(generators, rmat_quadrant_probabilities_are_honoured) {
  wm_gen_options o;
  wm_gen_rmat_defaults(&o, 14, 11);
  o.edge_factor = 4; /* few duplicates, so the shares stay close to the model */
  o.a = 0.40;
  o.b = o.c = 0.20;
  wm_graph *g = gen(&o);
  double s = low_half_share(g);
  cr_assert(s > 0.57 && s < 0.63, "a=.4 b=c=.2: low-half share %.3f, expected ~0.60", s);
  wm_graph_destroy(g);

  o.a = 0.10;
  o.b = o.c = 0.20; /* d = 0.5: the high ids get the mass */
  g = gen(&o);
  s = low_half_share(g);
  cr_assert(s > 0.27 && s < 0.33, "a=.1 b=c=.2: low-half share %.3f, expected ~0.30", s);
  wm_graph_destroy(g);
}

static int cmp_u64(const void *x, const void *y) {
  uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
  return a < b ? -1 : a > b;
}

static uint64_t *sorted_degrees(const wm_graph *g) {
  uint64_t *d = malloc(g->n * sizeof *d);
  cr_assert_not_null(d);
  for (uint32_t v = 0; v < g->n; v++) d[v] = wm_degree(g, v);
  qsort(d, g->n, sizeof *d, cmp_u64);
  return d;
}

Test(generators, permutation_relabels_without_changing_the_graph) {
  wm_gen_options o;
  wm_gen_kron_defaults(&o, 12, 21);
  wm_graph *p = gen(&o);
  o.permute = 0;
  wm_graph *q = gen(&o);
  cr_assert_eq(p->m, q->m, "a relabelling keeps the edge count");
  cr_assert(!same_graph(p, q), "the permutation changed nothing");
  uint64_t *dp = sorted_degrees(p), *dq = sorted_degrees(q);
  cr_assert_eq(memcmp(dp, dq, p->n * sizeof *dp), 0, "degree multisets differ");
  /* Unpermuted, vertex 0 is the A-corner hub; permuted, it is not in general. */
  cr_assert_eq(wm_degree(q, 0), dq[q->n - 1], "vertex 0 should be the hub without permutation");
  free(dp);
  free(dq);
  wm_graph_destroy(p);
  wm_graph_destroy(q);
}

Test(generators, bad_options_are_rejected) {
  wm_gen_options o;
  wm_graph *g = (wm_graph *)1;
  wm_error err;
  wm_gen_kron_defaults(&o, 0, 1);
  cr_assert_eq(wm_generate(&o, &g, &err), WM_EUSAGE);
  cr_assert_null(g);
  cr_assert(strstr(err.msg, "scale"), "message: %s", err.msg);
  wm_gen_kron_defaults(&o, 32, 1);
  cr_assert_eq(wm_generate(&o, &g, &err), WM_EUSAGE);
  wm_gen_kron_defaults(&o, 4, 1);
  o.a = 0.6;
  o.b = o.c = 0.3;
  cr_assert_eq(wm_generate(&o, &g, &err), WM_EUSAGE);
  cr_assert(strstr(err.msg, "a + b + c"), "message: %s", err.msg);
  wm_gen_kron_defaults(&o, 4, 1);
  o.b = -0.1;
  cr_assert_eq(wm_generate(&o, &g, &err), WM_EUSAGE);
  wm_gen_kron_defaults(&o, 4, 1);
  o.edge_factor = 0;
  cr_assert_eq(wm_generate(&o, &g, &err), WM_EUSAGE);
}

/* ---- the models of gen_*.c ----------------------------------------- */

static wm_graph *gen_model(const wm_gen_model *o) {
  wm_graph *g = NULL;
  wm_error err;
  int rc = wm_generate_model(o, &g, &err);
  cr_assert_eq(rc, WM_OK, "wm_generate_model(%d) failed: %s", o->model, err.msg);
  cr_assert_not_null(g);
  return g;
}

static wm_gen_model model(int kind, uint64_t n, uint64_t seed) {
  wm_gen_model o;
  wm_gen_model_defaults(&o, kind, n, seed);
  return o;
}

static const char *const model_names[] = {"chung-lu", "ba", "hub", "sbm", "regular", "grid"};

/* A small instance of each model, every random choice in play (grid with
 * shortcuts, else its seed would not matter). */
static wm_gen_model small_model(int kind, uint64_t seed) {
  wm_gen_model o = model(kind, 20000, seed);
  if (kind == WM_GEN_SBM) o.communities = 20;
  if (kind == WM_GEN_GRID) {
    o.width = 150;
    o.height = 130;
    o.shortcuts = 0.05;
  }
  return o;
}

Test(generator_models, deterministic_by_seed_whatever_the_threads, .timeout = 120) {
  for (int kind = WM_GEN_CHUNG_LU; kind <= WM_GEN_GRID; kind++) {
    const char *name = model_names[kind - WM_GEN_CHUNG_LU];
    wm_gen_model o = small_model(kind, 7);
    omp_set_num_threads(1);
    wm_graph *one = gen_model(&o);
    omp_set_num_threads(2);
    wm_graph *two = gen_model(&o);
    omp_set_num_threads(3); /* an uneven split */
    wm_graph *three = gen_model(&o);
    cr_assert(same_graph(one, two), "%s: 1 and 2 threads differ", name);
    cr_assert(same_graph(one, three), "%s: 1 and 3 threads differ", name);
    check_simple_symmetric(one);
    cr_assert_gt(one->m, 0u, "%s: no edges", name);
    o.seed = 8;
    wm_graph *other = gen_model(&o);
    cr_assert(!same_graph(one, other), "%s: seeds 7 and 8 gave the same graph", name);
    wm_graph_destroy(one);
    wm_graph_destroy(two);
    wm_graph_destroy(three);
    wm_graph_destroy(other);
  }
}

/* Share of the vertices of degree >= k. */
static double share_at_least(const wm_graph *g, uint64_t k) {
  uint64_t c = 0;
  for (uint32_t v = 0; v < g->n; v++) c += wm_degree(g, v) >= k;
  return (double)c / g->n;
}

Test(generator_models, chung_lu_mean_and_power_law_tail, .timeout = 120) {
  double ratio[2];
  const double gamma[2] = {2.1, 3.0};
  for (int i = 0; i < 2; i++) {
    wm_gen_model o = model(WM_GEN_CHUNG_LU, 100000, 4);
    o.exponent = gamma[i];
    wm_graph *g = gen_model(&o);
    wm_degree_stats st;
    wm_graph_degree_stats(g, &st);
    cr_assert(st.mean_degree > 14.4 && st.mean_degree < 17.6, "gamma %g: mean %.2f, asked 16 (10%%)", gamma[i],
              st.mean_degree);
    /* P(deg >= k) ~ k^-(gamma - 1): doubling k keeps 2^-(gamma - 1) of the tail. */
    ratio[i] = share_at_least(g, 64) / share_at_least(g, 32);
    if (i == 0) {
      cr_assert_gt((double)st.max_degree, 50.0 * st.mean_degree, "gamma 2.1: max %llu, mean %.2f",
                   (unsigned long long)st.max_degree, st.mean_degree);
      cr_assert_leq((double)st.max_degree, sqrt(100000.0 * 16), "the weights are capped at sqrt(n d)");
    }
    wm_graph_destroy(g);
  }
  cr_assert(ratio[0] > 0.38 && ratio[0] < 0.56, "gamma 2.1: P(>=64)/P(>=32) = %.3f, expected ~2^-1.1 = 0.47", ratio[0]);
  cr_assert(ratio[1] > 0.15 && ratio[1] < 0.33, "gamma 3: P(>=64)/P(>=32) = %.3f, expected ~2^-2 = 0.25", ratio[1]);
}

Test(generator_models, ba_attaches_k_distinct_edges_preferentially) {
  wm_gen_model o = model(WM_GEN_BA, 20000, 5);
  o.attach = 4;
  wm_graph *g = gen_model(&o);
  const uint64_t k = 4, n = 20000;
  /* Targets drawn again when repeated: no duplicate, nothing dropped. */
  cr_assert_eq(wm_graph_edges(g), k * (k + 1) / 2 + (n - k - 1) * k);
  cr_assert_eq(wm_graph_edges(g), wm_gen_model_drawn(&o));
  for (uint32_t v = (uint32_t)k + 1; v < g->n; v++)
    cr_assert_geq(wm_degree(g, v), k, "vertex %u has degree %llu < k", v, (unsigned long long)wm_degree(g, v));
  wm_degree_stats st;
  wm_graph_degree_stats(g, &st);
  cr_assert(fabs(st.mean_degree - 2.0 * k) < 0.01, "mean %.3f, expected ~2k = 8", st.mean_degree);
  /* Preferential: the hubs are the oldest, far above the mean (k sqrt(n) ~ 565). */
  cr_assert_gt((double)st.max_degree, 20.0 * st.mean_degree, "max %llu", (unsigned long long)st.max_degree);
  cr_assert_gt(wm_degree(g, 0), 10 * 2 * k, "vertex 0 (seed) has degree %llu", (unsigned long long)wm_degree(g, 0));
  wm_graph_destroy(g);
}

Test(generator_models, hub_joins_its_share_over_a_sparse_tail) {
  wm_gen_model o = model(WM_GEN_HUB, 50000, 6);
  o.hub_fraction = 0.3;
  o.mean_degree = 4;
  wm_graph *g = gen_model(&o);
  /* Exactly round(0.3 x 49999) spokes; the tail never touches the hub. */
  cr_assert_eq(wm_degree(g, 0), 15000u);
  uint64_t tail_max = 0;
  for (uint32_t v = 1; v < g->n; v++)
    if (wm_degree(g, v) > tail_max) tail_max = wm_degree(g, v);
  cr_assert_lt(tail_max, 25u, "the tail is sparse: max %llu", (unsigned long long)tail_max);
  const double tail_mean = 2.0 * (double)(wm_graph_edges(g) - 15000) / 49999;
  cr_assert(tail_mean > 3.9 && tail_mean <= 4.0, "tail mean %.3f, asked 4", tail_mean);
  wm_graph_destroy(g);
}

Test(generator_models, sbm_keeps_its_share_inside_communities) {
  wm_gen_model o = model(WM_GEN_SBM, 60000, 7);
  o.communities = 30;
  o.degree_in = 10;
  o.degree_out = 5;
  wm_graph *g = gen_model(&o);
  uint64_t inside = 0;
  for (uint32_t v = 0; v < g->n; v++)
    for (uint64_t i = g->offsets[v]; i < g->offsets[v + 1]; i++) inside += v / 2000 == g->adj[i] / 2000;
  const double share = (double)inside / g->m;
  cr_assert(share > 0.65 && share < 0.685, "share inside %.4f, expected ~10 / 15 = 0.667", share);
  wm_degree_stats st;
  wm_graph_degree_stats(g, &st);
  cr_assert(st.mean_degree > 14.7 && st.mean_degree <= 15.0, "mean %.3f, asked 15", st.mean_degree);
  wm_graph_destroy(g);

  o.degree_out = 0; /* no edge may cross */
  g = gen_model(&o);
  for (uint32_t v = 0; v < g->n; v++)
    for (uint64_t i = g->offsets[v]; i < g->offsets[v + 1]; i++)
      cr_assert_eq(v / 2000, g->adj[i] / 2000, "edge %u-%u crosses communities", v, g->adj[i]);
  wm_graph_destroy(g);
}

Test(generator_models, regular_degrees_are_d_but_for_the_few_dropped) {
  wm_gen_model o = model(WM_GEN_REGULAR, 30000, 8);
  o.degree = 6;
  wm_graph *g = gen_model(&o);
  const uint64_t drawn = wm_gen_model_drawn(&o), dropped = drawn - wm_graph_edges(g);
  cr_assert_eq(drawn, 90000u);
  uint64_t below = 0;
  for (uint32_t v = 0; v < g->n; v++) {
    cr_assert_leq(wm_degree(g, v), 6u, "vertex %u above d", v);
    below += wm_degree(g, v) < 6;
  }
  /* About (d^2 - 1) / 4 ~ 9 collisions whatever n; each leaves at most 2
   * vertices short. */
  cr_assert(dropped >= 1 && dropped < 40, "%llu dropped", (unsigned long long)dropped);
  cr_assert(below >= 1 && below <= 2 * dropped, "%llu vertices below d for %llu dropped", (unsigned long long)below,
            (unsigned long long)dropped);
  wm_graph_destroy(g);
}

Test(generator_models, grid_is_the_lattice_plus_its_shortcuts) {
  wm_gen_model o = model(WM_GEN_GRID, 0, 9);
  const uint64_t w = 37, h = 23;
  o.width = w;
  o.height = h;
  wm_graph *g = gen_model(&o);
  cr_assert_eq(g->n, w * h);
  cr_assert_eq(wm_graph_edges(g), 2 * w * h - w - h);
  for (uint32_t v = 0; v < g->n; v++) {
    const uint64_t x = v % w, y = v / w;
    const uint64_t want = (x > 0) + (x + 1 < w) + (y > 0) + (y + 1 < h);
    cr_assert_eq(wm_degree(g, v), want, "vertex (%llu, %llu)", (unsigned long long)x, (unsigned long long)y);
    if (x + 1 < w) cr_assert(wm_graph_has_arc(g, v, v + 1));
    if (y + 1 < h) cr_assert(wm_graph_has_arc(g, v, v + (uint32_t)w));
  }
  wm_graph_destroy(g);

  o.shortcuts = 0.1;
  g = gen_model(&o);
  const uint64_t lattice = 2 * w * h - w - h, extra = wm_graph_edges(g) - lattice;
  cr_assert(extra > 0.08 * lattice && extra <= (uint64_t)llround(0.1 * lattice), "%llu shortcuts kept of %lld",
            (unsigned long long)extra, (long long)llround(0.1 * lattice));
  wm_graph_destroy(g);

  o.width = 1; /* a path, and a lone vertex */
  g = gen_model(&o);
  cr_assert_eq(g->n, h);
  wm_graph_destroy(g);
  o.height = 1;
  o.shortcuts = 0;
  g = gen_model(&o);
  cr_assert_eq(g->n, 1u);
  cr_assert_eq(g->m, 0u);
  wm_graph_destroy(g);
}

/* o refused as WM_EUSAGE with a message holding `says`, no graph made. */
static void model_refused(const wm_gen_model *o, const char *says) {
  wm_graph *g = (wm_graph *)1;
  wm_error err;
  cr_assert_eq(wm_generate_model(o, &g, &err), WM_EUSAGE, "model %d: not refused (want '%s')", o->model, says);
  cr_assert_null(g);
  cr_assert(strstr(err.msg, says), "'%s' does not say '%s'", err.msg, says);
}

Test(generator_models, each_range_is_refused_by_name) {
  wm_gen_model o = model(WM_GEN_CHUNG_LU, 1, 1);
  model_refused(&o, "vertices must be 2..4294967295");
  o.n = 4294967296ull;
  model_refused(&o, "got 4294967296");
  o = model(WM_GEN_CHUNG_LU, 1000, 1);
  o.exponent = 2.0;
  model_refused(&o, "exponent must be in [2.1, 3.5]");
  o.exponent = NAN;
  model_refused(&o, "exponent");
  o.exponent = 2.5;
  o.mean_degree = 0;
  model_refused(&o, "mean degree must be in (0, vertices - 1 = 999]");
  o.mean_degree = 1000;
  model_refused(&o, "got 1000");
  o = model(WM_GEN_BA, 10, 1);
  o.attach = 10;
  model_refused(&o, "attach must be 1..vertices - 1 = 9");
  o.attach = 0;
  model_refused(&o, "attach");
  o = model(WM_GEN_HUB, 100, 1);
  o.hub_fraction = 1.01;
  model_refused(&o, "hub fraction must be in [0, 1]");
  o.hub_fraction = 0.5;
  o.mean_degree = 99;
  model_refused(&o, "mean degree must be in [0, vertices - 2 = 98]");
  o = model(WM_GEN_SBM, 100, 1);
  o.communities = 51;
  model_refused(&o, "communities must be 1..vertices/2 = 50");
  o.communities = 10;
  o.degree_in = 10;
  model_refused(&o, "degree in must be 0..9");
  o.degree_in = 5;
  o.degree_out = 91;
  model_refused(&o, "degree out must be 0..90");
  o.communities = 1;
  o.degree_out = 1;
  model_refused(&o, "degree out must be 0..0");
  o = model(WM_GEN_REGULAR, 101, 1);
  o.degree = 3;
  model_refused(&o, "vertices x degree must be even");
  o.degree = 101;
  model_refused(&o, "degree must be 1..vertices - 1 = 100");
  o = model(WM_GEN_REGULAR, 4000000000ull, 1);
  o.degree = 1000;
  model_refused(&o, "at most 2^40");
  o = model(WM_GEN_GRID, 0, 1);
  o.width = 65536;
  o.height = 65536;
  model_refused(&o, "width x height at most 4294967295");
  o.width = 0;
  o.height = 5;
  model_refused(&o, "width and height must be 1 or more");
  o.width = 5;
  o.shortcuts = -0.5;
  model_refused(&o, "shortcuts must be in [0, 1]");
  o = model(WM_GEN_GRID + 1, 100, 1);
  model_refused(&o, "model 9");
}

/* ---- the command ---------------------------------------------------- */

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  cr_assert_not_null(f, "cannot open %s", path);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc(n + 1);
  cr_assert_not_null(s);
  cr_assert_eq(fread(s, 1, n, f), (size_t)n);
  s[n] = 0;
  fclose(f);
  *len = (size_t)n;
  return s;
}

/* Drops JSON members whose key ends in "seconds": timings differ run to run. */
static void drop_timings(char *s) {
  char *p;
  while ((p = strstr(s, "seconds\":"))) {
    char *start = p;
    while (start > s && *start != ',' && *start != '{') start--;
    char *end = p + strlen("seconds\":");
    while (*end && *end != ',' && *end != '}') end++;
    if (*start == '{' && *end == ',') end++; /* keep the object well formed */
    memmove(*start == '{' ? start + 1 : start, end, strlen(end) + 1);
  }
}

Test(generators_cli, same_seed_gives_byte_identical_files, .timeout = 120) {
  char dir[256], x[512], y[512], *out = NULL, *err = NULL;
  wm_test_tmpdir(dir, sizeof dir);
  snprintf(x, sizeof x, "%s/x.wmg", dir);
  snprintf(y, sizeof y, "%s/y.wmg", dir);
  int rc = wm_test_run(&out, &err, "gen kron --scale 12 --seed 1 --output %s --json", x);
  cr_assert_eq(rc, 0, "gen failed (%d): %s", rc, err);
  cr_assert_eq(json_u64(out, "vertices"), 4096u, "gen --json: %s", out);
  uint64_t edges = json_u64(out, "edges");
  free(out);
  free(err);
  rc = wm_test_run(&out, &err, "gen kron --scale 12 --seed 1 --output %s", y);
  cr_assert_eq(rc, 0, "second gen failed (%d): %s", rc, err);
  cr_assert(strstr(out, "4096"), "the summary names the vertex count: %s", out);
  free(out);
  free(err);

  size_t lx, ly;
  char *bx = slurp(x, &lx), *by = slurp(y, &ly);
  cr_assert_eq(lx, ly, "file sizes differ");
  cr_assert_eq(memcmp(bx, by, lx), 0, "same seed, different bytes");
  free(bx);
  free(by);

  /* The file holds the very graph the library generates. */
  wm_graph *file = NULL, *mem = kron(12, 1);
  wm_error e;
  cr_assert_eq(wm_read_wmg(x, &file, NULL, &e), WM_OK, "%s", e.msg);
  cr_assert(same_graph(file, mem), "file and in-memory graph differ");
  cr_assert_eq(wm_graph_edges(mem), edges);
  wm_graph_destroy(file);
  wm_graph_destroy(mem);

  char *i1 = NULL, *i2 = NULL;
  cr_assert_eq(wm_test_run(&i1, NULL, "info %s --json", x), 0, "info failed");
  cr_assert_eq(wm_test_run(&i2, NULL, "info %s --json", y), 0, "info failed");
  drop_timings(i1);
  drop_timings(i2);
  cr_assert_str_eq(i1, i2, "info differs between two files of the same seed");
  cr_assert_eq(json_u64(i1, "vertices"), 4096u, "info: %s", i1);
  cr_assert_eq(json_u64(i1, "edges"), edges, "info: %s", i1);
  free(i1);
  free(i2);
  wm_test_rmdir(dir);
}

Test(generators_cli, other_seed_other_file_and_rmat_options) {
  char dir[256], x[512], y[512];
  wm_test_tmpdir(dir, sizeof dir);
  snprintf(x, sizeof x, "%s/x.wmg", dir);
  snprintf(y, sizeof y, "%s/y.wmg", dir);
  cr_assert_eq(wm_test_run(NULL, NULL, "gen rmat --scale 10 --seed 1 --output %s", x), 0);
  cr_assert_eq(wm_test_run(NULL, NULL, "gen rmat --scale 10 --seed 2 --output %s", y), 0);
  size_t lx, ly;
  char *bx = slurp(x, &lx), *by = slurp(y, &ly);
  cr_assert(lx != ly || memcmp(bx, by, lx) != 0, "seeds 1 and 2 wrote the same file");
  free(bx);
  free(by);

  char *out = NULL;
  int rc = wm_test_run(&out, NULL,
                       "gen rmat --scale 10 --edge-factor 4 --a 0.25 --b 0.25 --c 0.25 --permute "
                       "--seed 3 --output %s --json",
                       x);
  cr_assert_eq(rc, 0);
  cr_assert(strstr(out, "\"permuted\":true"), "%s", out);
  cr_assert(strstr(out, "\"edge_factor\":4"), "%s", out);
  cr_assert_leq(json_u64(out, "edges"), 4096u, "%s", out);
  cr_assert_gt(json_u64(out, "edges"), 3500u, "uniform quadrants give few duplicates: %s", out);
  free(out);
  wm_test_rmdir(dir);
}

Test(generators_cli, bad_arguments_exit_2) {
  char dir[256], x[512];
  wm_test_tmpdir(dir, sizeof dir);
  snprintf(x, sizeof x, "%s/x.wmg", dir);
  const char *bad[] = {
      "gen kron --scale 0 --output %s",
      "gen kron --scale 32 --output %s",
      "gen kron --scale twelve --output %s",
      "gen kron --scale 10",
      "gen kron --output %s",
      "gen erdos --scale 10 --output %s",
      "gen --scale 10 --output %s",
      "gen kron --scale 10 --a 0.9 --b 0.9 --output %s",
      "gen kron --scale 10 --edge-factor 0 --output %s",
      "gen kron --scale 10 --permute --no-permute --output %s",
      "gen kron --scale 10 --bogus --output %s",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char *err = NULL;
    int rc = wm_test_run(NULL, &err, bad[i], x);
    cr_assert_eq(rc, 2, "'%s' exited %d, expected 2", bad[i], rc);
    cr_assert(strlen(err) > 0, "'%s' printed no message", bad[i]);
    free(err);
    FILE *f = fopen(x, "rb");
    cr_assert_null(f, "'%s' left an output file", bad[i]);
  }
  char *err = NULL;
  cr_assert_eq(wm_test_run(NULL, &err, "gen kron --scale 0 --output %s", x), 2);
  cr_assert(strstr(err, "scale"), "the message names the scale: %s", err);
  free(err);
  wm_test_rmdir(dir);
}

Test(generators_cli, each_model_writes_its_graph_and_counts_what_it_dropped, .timeout = 120) {
  static const struct {
    const char *args;
    int kind;
  } runs[] = {
      {"chung-lu --vertices 5000 --mean-degree 8 --exponent 2.2", WM_GEN_CHUNG_LU},
      {"ba --vertices 5000 --attach 3", WM_GEN_BA},
      {"hub --vertices 5000 --hub-fraction 0.25 --mean-degree 3", WM_GEN_HUB},
      {"sbm --vertices 5000 --communities 10 --degree-in 12 --degree-out 2", WM_GEN_SBM},
      {"regular --vertices 5000 --degree 5", WM_GEN_REGULAR},
      {"grid --width 70 --height 60 --shortcuts 0.02", WM_GEN_GRID},
  };
  char dir[256], x[512], y[512];
  wm_test_tmpdir(dir, sizeof dir);
  snprintf(x, sizeof x, "%s/x.wmg", dir);
  snprintf(y, sizeof y, "%s/y.wmg", dir);
  for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
    char *out = NULL, *err = NULL;
    int rc = wm_test_run(&out, &err, "gen %s --seed 3 --output %s --json", runs[i].args, x);
    cr_assert_eq(rc, 0, "'%s' exited %d: %s", runs[i].args, rc, err);
    const uint64_t edges = json_u64(out, "edges"), drawn = json_u64(out, "edges_drawn");
    cr_assert_eq(json_u64(out, "dropped"), drawn - edges, "%s", out);
    free(out);
    free(err);
    cr_assert_eq(wm_test_run(NULL, NULL, "gen %s --seed 3 --output %s --quiet", runs[i].args, y), 0);
    size_t lx, ly;
    char *bx = slurp(x, &lx), *by = slurp(y, &ly);
    cr_assert(lx == ly && memcmp(bx, by, lx) == 0, "'%s': same seed, different files", runs[i].args);
    free(bx);
    free(by);

    /* The file is the model's graph for the same options. */
    wm_graph *file = NULL;
    wm_error e;
    cr_assert_eq(wm_read_wmg(x, &file, NULL, &e), WM_OK, "%s", e.msg);
    cr_assert_eq(wm_graph_edges(file), edges);
    if (runs[i].kind == WM_GEN_REGULAR) {
      cr_assert_eq(drawn, 12500u);
      uint64_t short_by = 0;
      for (uint32_t v = 0; v < file->n; v++) short_by += 5 - wm_degree(file, v);
      cr_assert_eq(short_by, 2 * (drawn - edges), "each dropped pairing leaves two stubs unmatched");
    }
    if (runs[i].kind == WM_GEN_GRID) cr_assert_eq(file->n, 4200u);
    wm_graph_destroy(file);
  }
  char *out = NULL;
  cr_assert_eq(wm_test_run(&out, NULL, "gen regular --vertices 1000 --degree 4 --output %s", x), 0);
  cr_assert(strstr(out, "drawn") && strstr(out, "dropped"), "the summary says what was dropped: %s", out);
  free(out);
  wm_test_rmdir(dir);
}

Test(generators_cli, model_arguments_out_of_range_exit_2) {
  char dir[256], x[512];
  wm_test_tmpdir(dir, sizeof dir);
  snprintf(x, sizeof x, "%s/x.wmg", dir);
  static const struct {
    const char *args, *says;
  } bad[] = {
      {"gen chung-lu --output %s", "--vertices N is required"},
      {"gen chung-lu --vertices 1 --output %s", "--vertices expects a whole number from 2 to 4294967295"},
      {"gen chung-lu --vertices 4294967296 --output %s", "got '4294967296'"},
      {"gen chung-lu --vertices 1000 --exponent 1.5 --output %s", "exponent must be in [2.1, 3.5]"},
      {"gen chung-lu --vertices 1000 --mean-degree 0 --output %s", "mean degree"},
      {"gen chung-lu --vertices 1000 --attach 3 --output %s", "--attach is not one of its options"},
      {"gen ba --vertices 1000 --attach 1000 --output %s", "attach must be 1..vertices - 1 = 999"},
      {"gen ba --vertices 1000 --scale 10 --output %s", "--scale is not one of its options"},
      {"gen hub --vertices 1000 --hub-fraction 2 --output %s", "hub fraction must be in [0, 1]"},
      {"gen sbm --vertices 1000 --communities 501 --output %s", "communities must be 1..vertices/2 = 500"},
      {"gen sbm --vertices 1000 --communities 100 --degree-in 10 --output %s", "degree in must be 0..9"},
      {"gen regular --vertices 999 --degree 3 --output %s", "must be even"},
      {"gen regular --vertices 4000000000 --degree 4000 --output %s", "at most 2^40"},
      {"gen grid --height 4 --output %s", "--width W is required"},
      {"gen grid --width 70000 --height 70000 --output %s", "at most 4294967295"},
      {"gen grid --width 7 --shortcuts 1.5 --output %s", "shortcuts must be in [0, 1]"},
      {"gen grid --width 7 --vertices 49 --output %s", "--vertices is not one of its options"},
      {"gen kron --scale 10 --vertices 5 --output %s", "--vertices is not one of its options"},
      {"gen erdos --vertices 10 --output %s", "expected kron, rmat, chung-lu, ba, hub, sbm, regular or grid"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char *err = NULL;
    int rc = wm_test_run(NULL, &err, bad[i].args, x);
    cr_assert_eq(rc, 2, "'%s' exited %d, expected 2", bad[i].args, rc);
    cr_assert(strstr(err, bad[i].says), "'%s' says '%s', not '%s'", bad[i].args, err, bad[i].says);
    free(err);
    FILE *f = fopen(x, "rb");
    cr_assert_null(f, "'%s' left an output file", bad[i].args);
  }
  wm_test_rmdir(dir);
}
