/* Degree-preserving randomisation (datasets/randomize.h): switch and
 * curveball, undirected and directed, keep every degree (in and out), make
 * no loop or multi-edge, repeat by (seed, index), and mix: a ring
 * lattice's 3n triangles fall to about the random regular graph's. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "randomize.h"
#include "testutil.h"

static const int methods[] = {WM_RANDOMIZE_SWITCH, WM_RANDOMIZE_CURVEBALL};

static wm_graph *randomized(const wm_graph *g, int method, uint64_t seed, uint64_t index, wm_randomize_stats *st) {
  const wm_randomize_options o = {.method = method, .seed = seed, .index = index,
                                 .swaps_per_edge = WM_RANDOMIZE_DEFAULT_SWAPS};
  wm_graph *r = NULL;
  wm_error err;
  wm_randomize_stats local;
  cr_assert_eq(wm_randomize(g, &o, &r, st ? st : &local, &err), WM_OK, "%s", err.msg);
  return r;
}

Test(randomize, keeps_degrees_and_makes_no_loop_or_multi_edge) {
  wm_graph *graphs[] = {wm_test_powerlaw(400, 8, 3, 0.3, 7), wm_test_ring(300, 4, 1), wm_test_ring(300, 2, 0)};
  for (size_t k = 0; k < 3; k++)
    for (int m = 0; m < 2; m++)
      for (uint64_t seed = 1; seed <= 3; seed++) {
        wm_randomize_stats st;
        wm_graph *r = randomized(graphs[k], methods[m], seed, 0, &st);
        wm_test_assert_randomized(graphs[k], r);
        cr_assert_gt(st.accepted, 0, "graph %zu method %d: nothing moved", k, methods[m]);
        cr_assert_leq(st.accepted, st.attempted);
        cr_assert_lt(st.edges_kept, wm_graph_edges(graphs[k]), "graph %zu method %d: every edge kept", k, methods[m]);
        wm_graph_destroy(r);
      }
  for (size_t k = 0; k < 3; k++) wm_graph_destroy(graphs[k]);
}

Test(randomize, switch_attempts_ten_swaps_per_edge_by_default) {
  wm_graph *g = wm_test_powerlaw(200, 6, 2, 0.2, 3);
  wm_randomize_stats st;
  wm_graph *r = randomized(g, WM_RANDOMIZE_SWITCH, 9, 0, &st);
  cr_assert_eq(st.attempted, WM_RANDOMIZE_DEFAULT_SWAPS * wm_graph_edges(g));
  wm_graph_destroy(r);
  r = randomized(g, WM_RANDOMIZE_CURVEBALL, 9, 0, &st);
  cr_assert_eq(st.attempted, WM_RANDOMIZE_DEFAULT_SWAPS * (uint64_t)(g->n / 2), "a round pairs every vertex");
  wm_graph_destroy(r);
  wm_graph_destroy(g);
}

Test(randomize, same_seed_and_index_same_graph_others_differ) {
  wm_graph *gs[] = {wm_test_powerlaw(300, 6, 2, 0.2, 5), wm_test_ring(300, 3, 1)};
  for (int k = 0; k < 2; k++)
    for (int m = 0; m < 2; m++) {
      wm_graph *a = randomized(gs[k], methods[m], 42, 3, NULL), *b = randomized(gs[k], methods[m], 42, 3, NULL);
      wm_graph *c = randomized(gs[k], methods[m], 43, 3, NULL), *d = randomized(gs[k], methods[m], 42, 4, NULL);
      cr_assert(wm_test_same_graph(a, b), "graph %d method %d: the same seed and index, another graph", k, methods[m]);
      cr_assert(!wm_test_same_graph(a, c), "graph %d method %d: another seed, the same graph", k, methods[m]);
      cr_assert(!wm_test_same_graph(a, d), "graph %d method %d: another index, the same graph", k, methods[m]);
      wm_graph_destroy(a), wm_graph_destroy(b), wm_graph_destroy(c), wm_graph_destroy(d);
    }
  wm_graph_destroy(gs[0]);
  wm_graph_destroy(gs[1]);
}

/* The ring lattice of degree 6 on 2000 vertices has 3n = 6000 triangles; a
 * random 6-regular graph about (d - 1)^3 / 6 = 20.8, whatever n.  Mixed
 * graphs must be near the latter (a wide bound: 100), with about the
 * configuration model's share of the lattice's edges left. */
Test(randomize, mixes_a_ring_lattice_undirected) {
  wm_graph *g = wm_test_ring(2000, 3, 0);
  cr_assert_eq(wm_test_triangles(g), 6000);
  for (int m = 0; m < 2; m++) {
    wm_randomize_stats st;
    wm_graph *r = randomized(g, methods[m], 1, 0, &st);
    const uint64_t t = wm_test_triangles(r);
    cr_assert_lt(t, 100, "method %d: %lu triangles after mixing (random 6-regular: about 21)", methods[m],
                 (unsigned long)t);
    cr_assert_lt(st.edges_kept, 5 * st.edges_kept_expected + 10, "method %d: %lu lattice edges kept, %.1f expected",
                 methods[m], (unsigned long)st.edges_kept, st.edges_kept_expected);
    wm_graph_destroy(r);
  }
  wm_graph_destroy(g);
}

/* Directed: arcs i -> i+1..i+3 make the same 6000 triangles (directions
 * ignored); mixed with in- and out-degree 3 kept, the closure is close to a
 * random graph of degree 6 (some pairs joined both ways), so again tens. */
Test(randomize, mixes_a_ring_lattice_directed) {
  wm_graph *g = wm_test_ring(2000, 3, 1);
  cr_assert_eq(wm_test_triangles(g), 6000);
  for (int m = 0; m < 2; m++) {
    wm_randomize_stats st;
    wm_graph *r = randomized(g, methods[m], 2, 0, &st);
    const uint64_t t = wm_test_triangles(r);
    cr_assert_lt(t, 100, "method %d: %lu triangles after mixing", methods[m], (unsigned long)t);
    cr_assert_lt(st.edges_kept, 5 * st.edges_kept_expected + 10);
    wm_graph_destroy(r);
  }
  wm_graph_destroy(g);
}

Test(randomize, refuses_an_oriented_graph_and_bad_options) {
  wm_graph *g = wm_test_powerlaw(100, 4, 1, 0.2, 1), *o = NULL, *r = NULL;
  wm_error err;
  cr_assert_eq(wm_graph_orient_by_degree(g, &o, &err), WM_OK);
  wm_randomize_stats st;
  wm_randomize_options opt = {.method = WM_RANDOMIZE_SWITCH, .seed = 1, .swaps_per_edge = 10};
  cr_assert_eq(wm_randomize(o, &opt, &r, &st, &err), WM_EINPUT);
  cr_assert(strstr(err.msg, "oriented"), "%s", err.msg);
  cr_assert_null(r);
  opt.method = 3;
  cr_assert_eq(wm_randomize(g, &opt, &r, &st, &err), WM_EUSAGE);
  opt.method = WM_RANDOMIZE_CURVEBALL, opt.swaps_per_edge = 0;
  cr_assert_eq(wm_randomize(g, &opt, &r, &st, &err), WM_EUSAGE);
  cr_assert(strstr(err.msg, "1 to 10000"), "%s", err.msg);
  wm_graph_destroy(o);
  wm_graph_destroy(g);
}

/* Too few edges to swap, or vertices to pair: the graph comes back as is. */
Test(randomize, tiny_graphs_come_back_unchanged) {
  wm_graph *g = wm_test_ring(2, 1, 0);
  for (int m = 0; m < 2; m++) {
    wm_randomize_stats st;
    wm_graph *r = randomized(g, methods[m], 1, 0, &st);
    cr_assert(wm_test_same_graph(g, r));
    cr_assert_eq(st.accepted, 0);
    cr_assert_eq(st.edges_kept, 1);
    wm_graph_destroy(r);
  }
  wm_graph_destroy(g);
}
