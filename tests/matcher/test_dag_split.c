/* The dedicated kernels' host-side split (matcher/dag/dag_split.h): each row's
 * N+ prefix; for triangles and diamonds, heavy items that cover exactly
 * the in-neighbours of the heavy pivots, in order, WM_TRI_SPLIT
 * (wm_dia_split) at most each;
 * for cliques, the heavy pivots by descending N+, their matrices' places in
 * the pool and items that cover each one's rows, heaviest first. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "testutil.h"
#include "dag_split.h"

/* The triangle split or the diamond split (which also takes pivots with
 * N+ empty). */
static void check_split(const wm_graph *g, uint64_t warps, int diamonds) {
  wm_dag_split s;
  wm_error err;
  int rc = diamonds ? wm_dag_split_diamonds(g, warps, &s, &err) : wm_dag_split_triangles(g, warps, &s, &err);
  cr_assert_eq(rc, WM_OK, "%s", err.msg);
  cr_assert(s.light_in >= WM_TRI_LIGHT_IN_MIN && s.light_in <= WM_TRI_LIGHT_IN, "light_in %u", s.light_in);
  uint64_t pairs = 0, k = 0;
  uint32_t max_d = 0;
  for (uint32_t v = 0; v < g->n; v++) {
    uint32_t deg = (uint32_t)(g->offsets[v + 1] - g->offsets[v]), below = 0;
    for (uint32_t i = 0; i < deg; i++) below += g->adj[g->offsets[v] + i] < v;
    cr_assert_eq(s.dplus[v], below, "vertex %u: dplus %u, %u neighbours below it", v, s.dplus[v], below);
    uint32_t din = deg - below;
    if ((below == 0 && !diamonds) || din == 0) continue;
    pairs += din;
    if (diamonds ? !wm_dia_is_heavy(g->n, deg, din, s.light_in) : !wm_tri_is_heavy(below, din, s.light_in))
      continue;
    if (deg > max_d) max_d = deg;
    const uint32_t split = diamonds ? wm_dia_split(deg) : WM_TRI_SPLIT;
    cr_assert(split >= (diamonds ? WM_DIA_SPLIT : WM_TRI_SPLIT) && (!diamonds || split >= deg / WM_DIA_BUILD));
    for (uint32_t lo = 0; lo < din; lo += split, k++) {
      cr_assert(k < s.n_items, "vertex %u: items end early", v);
      uint32_t hi = din - lo < split ? din : lo + split;
      cr_assert(s.items[k].v == v && s.items[k].lo == lo && s.items[k].hi == hi,
                "item %llu: (%u, %u, %u), expected (%u, %u, %u)", (unsigned long long)k, s.items[k].v,
                s.items[k].lo, s.items[k].hi, v, lo, hi);
    }
  }
  cr_assert_eq(k, s.n_items, "%llu items, expected %llu", (unsigned long long)s.n_items, (unsigned long long)k);
  cr_assert_eq(s.work, pairs);
  cr_assert_eq(s.max_heavy_d, max_d);
  uint64_t share = warps ? pairs / warps : WM_TRI_LIGHT_IN;
  uint32_t want = share < WM_TRI_LIGHT_IN_MIN ? WM_TRI_LIGHT_IN_MIN : share > WM_TRI_LIGHT_IN ? WM_TRI_LIGHT_IN : (uint32_t)share;
  cr_assert_eq(s.light_in, want, "light_in %u with %llu pairs over %llu warps, expected %u", s.light_in,
               (unsigned long long)pairs, (unsigned long long)warps, want);
  wm_dag_split_free(&s);
}

static void check_splits(int diamonds) {
  wm_graph *er = wm_test_er(400, 0.05, 11);
  check_split(er, 0, diamonds);
  check_split(er, 100, diamonds); /* ~20 pairs a warp: in between */
  check_split(er, 100000, diamonds);
  wm_graph_destroy(er);
  /* hubs of degree ~ 3000: heavy pivots with several items each */
  wm_graph *pl = wm_test_powerlaw(6000, 12, 4, 0.5, 7);
  check_split(pl, 0, diamonds);
  check_split(pl, 1000, diamonds);
  wm_graph *r = wm_test_by_degree(pl);
  wm_error err;
  check_split(r, 0, diamonds);
  check_split(r, 3000, diamonds);
  wm_dag_split s;
  cr_assert_eq(diamonds ? wm_dag_split_diamonds(r, 0, &s, &err) : wm_dag_split_triangles(r, 0, &s, &err), WM_OK,
               "%s", err.msg);
  cr_assert(s.n_items > 0, "the hubs should give heavy items");
  wm_dag_split_free(&s);
  wm_graph_destroy(r);
  wm_graph_destroy(pl);
}

Test(dag_split, triangles_on_random_and_hub_graphs) { check_splits(0); }

Test(dag_split, diamonds_on_random_and_hub_graphs) { check_splits(1); }

static uint32_t below(const wm_graph *g, uint32_t v) {
  uint32_t b = 0;
  for (uint64_t i = g->offsets[v]; i < g->offsets[v + 1]; i++) b += g->adj[i] < v;
  return b;
}

static void check_cliques(const wm_graph *g, unsigned k) {
  wm_dag_split s;
  wm_error err;
  cr_assert_eq(wm_dag_split_cliques(g, k, &s, &err), WM_OK, "%s", err.msg);
  uint64_t rows = 0, heavy = 0;
  uint32_t max_d = 0;
  for (uint32_t v = 0; v < g->n; v++) {
    uint32_t d = below(g, v);
    cr_assert_eq(s.dplus[v], d, "vertex %u: dplus %u, %u neighbours below it", v, s.dplus[v], d);
    if (d > max_d) max_d = d;
    if (d + 1 < k) continue;
    rows += d;
    heavy += d > WM_CLQ_LIGHT_D;
  }
  cr_assert_eq(s.max_dplus, max_d);
  cr_assert_eq(s.work, rows);
  cr_assert_eq(s.n_pivots, heavy, "%llu heavy pivots, expected %llu", (unsigned long long)s.n_pivots,
               (unsigned long long)heavy);
  uint64_t t = 0;
  cr_assert_eq(s.base[0], 0);
  for (uint64_t p = 0; p < s.n_pivots; p++) {
    uint32_t v = s.pivots[p], d = s.dplus[v];
    cr_assert(d > WM_CLQ_LIGHT_D && d + 1 >= k, "pivot %u (N+ %u) is not heavy", v, d);
    if (p) {
      uint32_t u = s.pivots[p - 1];
      cr_assert(s.dplus[u] > d || (s.dplus[u] == d && u < v), "pivots %u, %u out of order", u, v);
    }
    cr_assert_eq(s.base[p + 1] - s.base[p], wm_clq_row_offset(d));
    for (uint32_t hi = d; hi > 0; t++) {
      cr_assert(t < s.n_items, "pivot %u: items end early", v);
      const wm_dag_item *it = &s.items[t];
      cr_assert(it->v == p && it->hi == hi && it->lo < hi && hi - it->lo <= WM_CLQ_ROWS &&
                    (it->lo == 0 || hi - it->lo == WM_CLQ_ROWS),
                "item %llu: (%u, %u, %u) for pivot %llu, rows below %u", (unsigned long long)t, it->v,
                it->lo, it->hi, (unsigned long long)p, hi);
      hi = it->lo;
    }
  }
  cr_assert_eq(t, s.n_items);
  wm_dag_split_free(&s);
}

Test(dag_split, clique_matrix_rows) {
  uint64_t sum = 0;
  for (uint64_t i = 0; i < 5000; i++) {
    cr_assert_eq(wm_clq_row_offset(i), sum, "row %llu", (unsigned long long)i);
    sum += (i + 31) / 32;
  }
}

Test(dag_split, cliques_on_random_and_hub_graphs) {
  wm_graph *er = wm_test_er(600, 0.3, 5); /* N+ up to ~200: heavy pivots of two items */
  check_cliques(er, 4);
  check_cliques(er, 8);
  wm_dag_split s;
  wm_error err;
  cr_assert_eq(wm_dag_split_cliques(er, 4, &s, &err), WM_OK, "%s", err.msg);
  cr_assert(s.n_pivots > 0 && s.n_items > s.n_pivots, "expected heavy pivots of several items");
  wm_dag_split_free(&s);
  wm_graph_destroy(er);
  wm_graph *pl = wm_test_powerlaw(6000, 12, 4, 0.5, 7);
  wm_graph *r = wm_test_by_degree(pl);
  check_cliques(pl, 5);
  check_cliques(r, 5);
  wm_graph_destroy(r);
  wm_graph_destroy(pl);
}
