/* Counts on the real graph in datasets/real against its published
 * figures (README there): 1,612,010 triangles, 30,004,668 4-cliques and
 * 4,478,819 induced open wedges on SNAP ego-Facebook. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "matcher.h"
#include "testutil.h"

static wm_graph *facebook(void) {
  wm_graph *g = wm_test_load_real("facebook_combined.txt");
  cr_assert_eq(g->n, 4039);
  cr_assert_eq(wm_graph_edges(g), 88234);
  return g;
}

static uint64_t count(const wm_graph *g, const char *name, int induced, int motion, uint64_t *set_ops) {
  wm_plan plan;
  wm_test_plan(g, name, induced, motion, 1, &plan);
  wm_error err;
  wm_match_options mo;
  wm_match_options_init(&mo);
  mo.threads = 2;
  wm_match_result r;
  cr_assert_eq(wm_match_cpu(g, &plan, &mo, &r, &err), WM_OK, "%s", err.msg);
  if (set_ops) *set_ops = r.set_ops;
  return r.count;
}

Test(real_counts, facebook_published_figures, .timeout = 120) {
  wm_graph *g = facebook();
  for (int motion = 0; motion < 2; motion++) {
    cr_assert_eq(count(g, "triangle", 0, motion, NULL), 1612010);
    cr_assert_eq(count(g, "4-clique", 0, motion, NULL), 30004668);
    cr_assert_eq(count(g, "3-path", 1, motion, NULL), 4478819, "induced open wedges");
  }
  /* Hoisting N(v0) & N(v1) out of the v2 loop: one intersection per edge
   * and one per triangle, against one per edge and two per triangle. */
  uint64_t on, off;
  count(g, "4-clique", 0, 1, &on);
  count(g, "4-clique", 0, 0, &off);
  cr_assert_eq(on, 88234 + 1612010, "set ops with code motion: %lu", (unsigned long)on);
  cr_assert_eq(off, 88234 + 2 * 1612010, "set ops without code motion: %lu", (unsigned long)off);
  wm_graph_destroy(g);
}

/* The size-3 motif table is the same two figures. */
Test(real_counts, facebook_motifs3, .timeout = 120) {
  wm_graph *g = facebook();
  wm_pattern *pats;
  unsigned n;
  wm_error err;
  cr_assert_eq(wm_connected_patterns(3, &pats, &n, &err), WM_OK);
  wm_u128 counts[2];
  cr_assert_eq(wm_motifs(g, 3, 0, NULL, counts, NULL, NULL, &err), WM_OK, "%s", err.msg);
  for (unsigned i = 0; i < n; i++) {
    uint64_t want = wm_pattern_edges(&pats[i]) == 3 ? 1612010 : 4478819;
    cr_assert_eq(counts[i], want, "%s: %lu", pats[i].name, (unsigned long)counts[i]);
  }
  free(pats);
  wm_graph_destroy(g);
}
