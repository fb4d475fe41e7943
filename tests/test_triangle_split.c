/* The triangle path's host-side split (matcher/triangle_split.h): each
 * row's N+ prefix, and heavy items that cover exactly the in-neighbours of
 * the heavy pivots, in order, WM_TRI_SPLIT at most each. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "testutil.h"
#include "triangle_split.h"

static void check_split(const wm_graph *g) {
  wm_tri_split s;
  wm_error err;
  cr_assert_eq(wm_tri_split_build(g, &s, &err), WM_OK, "%s", err.msg);
  uint64_t pairs = 0, k = 0;
  for (uint32_t v = 0; v < g->n; v++) {
    uint32_t deg = (uint32_t)(g->offsets[v + 1] - g->offsets[v]), below = 0;
    for (uint32_t i = 0; i < deg; i++) below += g->adj[g->offsets[v] + i] < v;
    cr_assert_eq(s.dplus[v], below, "vertex %u: dplus %u, %u neighbours below it", v, s.dplus[v], below);
    uint32_t din = deg - below;
    if (below == 0 || din == 0) continue;
    pairs += din;
    if (!wm_tri_is_heavy(below, din)) continue;
    for (uint32_t lo = 0; lo < din; lo += WM_TRI_SPLIT, k++) {
      cr_assert(k < s.n_items, "vertex %u: items end early", v);
      uint32_t hi = din - lo < WM_TRI_SPLIT ? din : lo + WM_TRI_SPLIT;
      cr_assert(s.items[k].v == v && s.items[k].lo == lo && s.items[k].hi == hi,
                "item %llu: (%u, %u, %u), expected (%u, %u, %u)", (unsigned long long)k, s.items[k].v,
                s.items[k].lo, s.items[k].hi, v, lo, hi);
    }
  }
  cr_assert_eq(k, s.n_items, "%llu items, expected %llu", (unsigned long long)s.n_items, (unsigned long long)k);
  cr_assert_eq(s.pairs, pairs);
  wm_tri_split_free(&s);
}

Test(triangle_split, random_and_hub_graphs) {
  wm_graph *er = wm_test_er(400, 0.05, 11);
  check_split(er);
  wm_graph_destroy(er);
  /* hubs of degree ~ 3000: heavy pivots with several items each */
  wm_graph *pl = wm_test_powerlaw(6000, 12, 4, 0.5, 7);
  check_split(pl);
  wm_graph *r = NULL;
  wm_error err;
  cr_assert_eq(wm_graph_relabel_by_degree(pl, &r, &err), WM_OK, "%s", err.msg);
  check_split(r);
  wm_tri_split s;
  cr_assert_eq(wm_tri_split_build(r, &s, &err), WM_OK, "%s", err.msg);
  cr_assert(s.n_items > 0, "the hubs should give heavy items");
  wm_tri_split_free(&s);
  wm_graph_destroy(r);
  wm_graph_destroy(pl);
}
