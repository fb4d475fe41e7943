/* The 5-vertex orbits through their non-induced counts (orbit_noninduced5.c):
 * the matrix M from the drawings (unit
 * triangular, densest first, and facts of K5 counted by hand); per-vertex
 * non-induced counts found here by brute force (every 5-vertex subset,
 * every connected spanning edge subset of it) and converted by the solve
 * equal the enumerator's induced counts for every vertex and orbit; each
 * non-induced formula equals that brute force (on graphs where each is
 * non-zero at 10 vertices at least), and on the wheel W4 the six from
 * diamonds and wheels equal a count by hand; the solve's overflow names
 * the vertex and the orbit. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "orbit_noninduced5.h"
#include "testutil.h"

static const wm_orbit_tables *tables(void) {
  wm_error err;
  const wm_orbit_tables *t = wm_orbit_tables_get(&err);
  cr_assert_not_null(t, "%s", err.msg);
  return t;
}

static wm_o5n_matrix matrix(void) {
  wm_o5n_matrix m;
  wm_error err;
  cr_assert_eq(wm_o5n_derive(tables(), &m, &err), WM_OK, "%s", err.msg);
  return m;
}

static unsigned edges_of(unsigned o) {
  const wm_orbit_tables *t = tables();
  return t->graphlet_edges[t->graphlet_of_orbit[o]];
}

/* ---- the graphs ---------------------------------------------------------- */

/* Sparse to dense (G(13, 0.8) so that K5s meet 10 vertices), and a hub. */
#define GRAPHS 9
static wm_graph *graph(unsigned i, char *what, size_t size) {
  static const struct {
    uint32_t n;
    double p;
  } gnp[GRAPHS - 1] = {{10, 0.5}, {12, 0.7}, {14, 0.35}, {18, 0.25}, {20, 0.3}, {22, 0.18}, {25, 0.15}, {13, 0.8}};
  if (i == GRAPHS - 1) {
    snprintf(what, size, "hub: vertex 0 joined to ~90%% of 22, the rest G(21, 0.15)");
    return wm_test_hub_graph(22, 0.9, 0.15, 77);
  }
  snprintf(what, size, "G(%u, %.2f)", gnp[i].n, gnp[i].p);
  return wm_test_er(gnp[i].n, gnp[i].p, 1000 + i);
}

/* ---- brute force ----------------------------------------------------------- */

/* For each mask of 5 positions (position order, as the tables index it)
 * and each position: its non-induced copies per orbit, i.e. the
 * connected spanning edge subsets of the mask with that position's orbit
 * in each. */
static uint8_t (*copies_per_mask(void))[5][ORBITS5] {
  const wm_orbit_tables *t = tables();
  uint8_t(*c)[5][ORBITS5] = calloc(WM_ORBIT_MASKS, sizeof *c);
  for (unsigned m = 0; m < WM_ORBIT_MASKS; m++)
    for (unsigned s = m;; s = (s - 1) & m) {
      for (unsigned p = 0; p < 5; p++)
        if (t->orbit[5][s][p] != WM_ORBIT_NONE) c[m][p][t->orbit[5][s][p] - FIRST5]++;
      if (!s) break;
    }
  return c;
}

/* The edge mask of the 5 vertices v[0..4] (ascending), from the rows. */
static unsigned mask_of(const wm_graph *g, const uint32_t *v) {
  unsigned mask = 0;
  for (unsigned b = 1; b < 5; b++)
    for (unsigned a = 0; a < b; a++)
      if (wm_graph_has_arc(g, v[a], v[b])) mask |= 1u << (b * (b - 1) / 2 + a);
  return mask;
}

/* N[x * ORBITS5 + o - FIRST5]: every 5-vertex subset, every copy in it. */
typedef struct brute {
  const wm_graph *g;
  uint8_t (*c)[5][ORBITS5];
  wm_i128 *N;
} brute;

static void subset_copies(const uint32_t *v, void *ctx) {
  brute *b = ctx;
  const unsigned m = mask_of(b->g, v);
  for (unsigned p = 0; p < 5; p++)
    for (unsigned o = 0; o < ORBITS5; o++) b->N[(size_t)v[p] * ORBITS5 + o] += b->c[m][p][o];
}

static wm_i128 *brute_noninduced(const wm_graph *g) {
  brute b = {g, copies_per_mask(), calloc((size_t)g->n * ORBITS5 + 1, sizeof *b.N)};
  wm_test_each_5_subset(g, subset_copies, &b);
  free(b.c);
  return b.N;
}

/* The enumerator's induced counts (what `orbits --method enumerate` runs). */
static uint64_t *enumerated(const wm_graph *g) {
  wm_orbit_run run;
  memset(&run, 0, sizeof run);
  run.k = 5, run.method = WM_ORBIT_ENUMERATE;
  uint64_t *counts = malloc(((size_t)g->n * WM_ORBIT_MAX + 1) * sizeof *counts);
  wm_error err;
  cr_assert_eq(wm_orbits_enumerate(g, &run, counts, &err), WM_OK, "%s", err.msg);
  return counts;
}

/* ---- M ------------------------------------------------------------------- */

Test(orbits_noninduced5, the_matrix_is_unit_triangular_densest_first) {
  const wm_o5n_matrix m = matrix();
  unsigned seen[ORBITS5] = {0};
  for (unsigned i = 0; i < ORBITS5; i++) {
    seen[m.order[i]]++;
    if (i) cr_assert_geq(edges_of(m.order[i - 1] + FIRST5), edges_of(m.order[i] + FIRST5));
  }
  for (unsigned a = 0; a < ORBITS5; a++) {
    cr_assert_eq(seen[a], 1, "orbit %u appears %u times in the order", a + FIRST5, seen[a]);
    cr_assert_eq(m.coef[a][a], 1, "orbit %u", a + FIRST5);
    for (unsigned b = 0; b < ORBITS5; b++)
      if (b != a && m.coef[a][b])
        cr_assert_gt(edges_of(b + FIRST5), edges_of(a + FIRST5), "M[%u][%u] = %u below the diagonal", a + FIRST5,
                     b + FIRST5, m.coef[a][b]);
  }
}

/* Facts of K5 (orbit 72) and of the trees, counted by hand. */
Test(orbits_noninduced5, the_matrix_counts_the_copies_in_k5_and_in_the_trees) {
  const wm_o5n_matrix m = matrix();
  const unsigned K5 = 72 - FIRST5;
  cr_assert_eq(m.coef[23 - FIRST5][K5], 1);  /* the one 4-star centred at x */
  cr_assert_eq(m.coef[22 - FIRST5][K5], 4);  /* x a leaf: the 4 others as centre */
  cr_assert_eq(m.coef[17 - FIRST5][K5], 12); /* 5-paths centred at x: 4! / 2 */
  cr_assert_eq(m.coef[15 - FIRST5][K5], 24); /* 5-paths from x: 4! */
  cr_assert_eq(m.coef[34 - FIRST5][K5], 12); /* 5-cycles: 4! / 2 */
  cr_assert_eq(m.coef[70 - FIRST5][K5], 4);  /* K5 less an edge at x */
  cr_assert_eq(m.coef[71 - FIRST5][K5], 6);  /* K5 less an edge away from x */
  unsigned connected = 0;
  for (unsigned a = 0; a < ORBITS5; a++) connected += m.coef[a][K5];
  cr_assert_eq(connected, 728); /* the connected graphs on 5 labelled vertices */
  for (unsigned b = 0; b < ORBITS5; b++)
    if (edges_of(b + FIRST5) == 4) /* a tree holds no other spanning tree */
      for (unsigned a = 0; a < ORBITS5; a++) cr_assert_eq(m.coef[a][b], a == b, "M[%u][%u]", a + FIRST5, b + FIRST5);
}

/* ---- the solve ------------------------------------------------------------- */

Test(orbits_noninduced5, brute_force_non_induced_counts_solve_to_the_enumerator) {
  const wm_o5n_matrix m = matrix();
  for (unsigned i = 0; i < GRAPHS; i++) {
    char what[96];
    wm_graph *g = graph(i, what, sizeof what);
    wm_i128 *N = brute_noninduced(g);
    uint64_t *want = enumerated(g);
    for (uint32_t x = 0; x < g->n; x++) {
      wm_i128 I[ORBITS5];
      wm_error err;
      cr_assert_eq(wm_o5n_solve(g, &m, x, N + (size_t)x * ORBITS5, I, &err), WM_OK, "%s", err.msg);
      for (unsigned o = 0; o < ORBITS5; o++) {
        const uint64_t w = want[(size_t)x * WM_ORBIT_MAX + o + FIRST5];
        cr_assert(I[o] == (wm_i128)w, "%s: vertex %u orbit %u: %lld != %llu", what, x, o + FIRST5, (long long)I[o],
                  (unsigned long long)w);
      }
    }
    free(N);
    free(want);
    wm_graph_destroy(g);
  }
}

/* 4 (M[70][72]) times 2^126 passes 2^127 - 1: orbit 70 is the first row the
 * densest-first solve reaches that reads orbit 72. */
Test(orbits_noninduced5, an_overflow_in_the_solve_names_the_vertex_and_the_orbit) {
  const wm_o5n_matrix m = matrix();
  wm_graph *g = wm_test_er(8, 0.5, 3);
  wm_i128 N[ORBITS5] = {0}, I[ORBITS5];
  N[72 - FIRST5] = (wm_i128)1 << 126;
  wm_error err;
  cr_assert_eq(wm_o5n_solve(g, &m, 5, N, I, &err), WM_EINPUT);
  cr_assert(strstr(err.msg, "vertex 5 ") && strstr(err.msg, "orbit 70"), "%s", err.msg);
  wm_graph_destroy(g);
}

/* ---- the formulas ---------------------------------------------------------- */

Test(orbits_noninduced5, each_formula_equals_the_brute_force) {
  unsigned with = 0;
  for (unsigned o = FIRST5; o < WM_ORBIT_MAX; o++) with += (unsigned)wm_o5n_has(o);
  cr_assert_eq(with, ORBITS5, "orbits with a formula: %u", with);
  cr_assert(!wm_o5n_has(14) && !wm_o5n_has(73));
  unsigned nonzero[ORBITS5] = {0}; /* vertices where a count is not 0, over the graphs */
  for (unsigned i = 0; i < GRAPHS; i++) {
    char what[96];
    wm_graph *g = graph(i, what, sizeof what);
    wm_i128 *want = brute_noninduced(g), *got = malloc(((size_t)g->n * ORBITS5 + 1) * sizeof *got);
    wm_error err;
    cr_assert_eq(wm_o5n_counts(g, got, &err), WM_OK, "%s", err.msg);
    for (uint32_t x = 0; x < g->n; x++)
      for (unsigned o = FIRST5; o < WM_ORBIT_MAX; o++) {
        const size_t at = (size_t)x * ORBITS5 + o - FIRST5;
        const wm_i128 expect = wm_o5n_has(o) ? want[at] : 0;
        nonzero[o - FIRST5] += expect != 0;
        cr_assert(got[at] == expect, "%s: vertex %u orbit %u: %lld != %lld", what, x, o, (long long)got[at],
                  (long long)expect);
      }
    free(want);
    free(got);
    wm_graph_destroy(g);
  }
  for (unsigned o = FIRST5; o < WM_ORBIT_MAX; o++) /* so that every formula was put to the test */
    if (wm_o5n_has(o)) cr_assert_geq(nonzero[o - FIRST5], 10, "orbit %u: %u vertices", o, nonzero[o - FIRST5]);
}

/* No edges, and a star: the counts of what is absent are 0, the 4-stars'
 * are C(d, 4) at the centre and C(d - 1, 3) at a leaf. */
Test(orbits_noninduced5, a_graph_without_edges_and_a_star) {
  uint32_t *src = malloc(8 * sizeof *src), *dst = malloc(8 * sizeof *dst);
  for (uint32_t i = 0; i < 7; i++) src[i] = 0, dst[i] = i + 1;
  wm_graph *star = wm_test_graph_of_arcs(8, src, dst, 7), *empty = wm_test_er(6, 0.0, 1);
  wm_i128 N[8 * ORBITS5];
  wm_error err;
  cr_assert_eq(wm_o5n_counts(empty, N, &err), WM_OK, "%s", err.msg);
  for (unsigned i = 0; i < 6 * ORBITS5; i++) cr_assert(N[i] == 0);
  cr_assert_eq(wm_o5n_counts(star, N, &err), WM_OK, "%s", err.msg);
  for (uint32_t x = 0; x < 8; x++)
    for (unsigned o = FIRST5; o < WM_ORBIT_MAX; o++) {
      const wm_i128 want = x == 0 && o == 23 ? 35 : x && o == 22 ? 20 : 0;
      cr_assert(N[x * ORBITS5 + o - FIRST5] == want, "vertex %u orbit %u", x, o);
    }
  wm_graph_destroy(star);
  wm_graph_destroy(empty);
}

/* The wheel W4 (hub 0, rim 1-2-3-4), counted by hand: one wheel; two
 * K2,3s (2-sides {1, 3} and {2, 4}, the hub on both 3-sides, each rim
 * vertex on one); W4 less a spoke four times (drop the spoke to r: r the
 * third common neighbour, r's rim neighbours the tips, the hub and r's
 * opposite the chord). */
Test(orbits_noninduced5, the_wheel_by_hand) {
  uint32_t *src = malloc(8 * sizeof *src), *dst = malloc(8 * sizeof *dst);
  for (uint32_t i = 0; i < 4; i++) src[i] = 0, dst[i] = i + 1, src[4 + i] = i + 1, dst[4 + i] = (i + 1) % 4 + 1;
  wm_graph *g = wm_test_graph_of_arcs(5, src, dst, 8);
  wm_i128 N[5 * ORBITS5];
  wm_error err;
  cr_assert_eq(wm_o5n_counts(g, N, &err), WM_OK, "%s", err.msg);
  static const struct {
    unsigned orbit, hub, rim;
  } want[] = {{49, 2, 1}, {62, 0, 1}, {63, 0, 2}, {64, 4, 1}, {68, 0, 1}, {69, 1, 0}};
  for (unsigned i = 0; i < sizeof want / sizeof *want; i++)
    for (uint32_t x = 0; x < 5; x++) {
      const wm_i128 got = N[x * ORBITS5 + want[i].orbit - FIRST5];
      cr_assert(got == (x ? want[i].rim : want[i].hub), "vertex %u orbit %u: %lld", x, want[i].orbit, (long long)got);
    }
  wm_graph_destroy(g);
}
