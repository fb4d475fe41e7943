/* Graphlet orbit counts: the formula against the enumerator on random graphs
 * and on shapes with closed forms (stars, cliques, paths, cycles, isolated
 * vertices, a hub); the enumerator against a brute force over every vertex
 * subset; the identity sum over vertices = (the graphlet's induced count,
 * from warpmatch_motifs) x (its vertices in the orbit); overflow past 2^64
 * detected; the API's refusals; the command line's ORCA and CSV output
 * parsed back, its --json summary and its usage errors. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <criterion/criterion.h>
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_check.h"
#include "orbit_equations5.h"
#include "orbits.h"
#include "patterns.h"
#include "testutil.h"
#include "warpmatch.h"

/* ---- graphs through the API ------------------------------------------ */

typedef struct edges {
  uint32_t n;
  uint64_t m;
  uint32_t src[4096], dst[4096];
} edges;

static void add_edge(edges *e, uint32_t a, uint32_t b) {
  cr_assert_lt(e->m, 4096);
  e->src[e->m] = a, e->dst[e->m] = b, e->m++;
}

static void er(edges *e, uint32_t n, double p, uint64_t seed) {
  e->n = n, e->m = 0;
  for (uint32_t a = 0; a < n; a++)
    for (uint32_t b = a + 1; b < n; b++)
      if ((double)(wm_test_rand(&seed) >> 11) / (double)(1ull << 53) < p) add_edge(e, a, b);
}

static void star(edges *e, uint32_t leaves) {
  e->n = leaves + 1, e->m = 0;
  for (uint32_t v = 1; v <= leaves; v++) add_edge(e, 0, v);
}

static void clique(edges *e, uint32_t k) {
  e->n = k, e->m = 0;
  for (uint32_t a = 0; a < k; a++)
    for (uint32_t b = a + 1; b < k; b++) add_edge(e, a, b);
}

static void path(edges *e, uint32_t n, int cycle) {
  e->n = n, e->m = 0;
  for (uint32_t v = 0; v + 1 < n; v++) add_edge(e, v, v + 1);
  if (cycle) add_edge(e, n - 1, 0);
}

/* counts (n x orbits, malloc'd) of e's graph by `method`; asserts success. */
static uint64_t *orbits_of(const edges *e, unsigned size, int method, int threads, warpmatch_orbit_result *r) {
  warpmatch_context *ctx;
  warpmatch_graph *g;
  cr_assert_eq(warpmatch_context_create(&ctx), 0);
  cr_assert_eq(warpmatch_set_threads(ctx, threads), 0);
  cr_assert_eq(warpmatch_graph_from_edges(ctx, e->n, e->src, e->dst, e->m, 0, &g), 0, "%s", warpmatch_last_error(ctx));
  warpmatch_orbit_options o;
  warpmatch_orbit_options_init(&o);
  o.graphlet_size = size, o.method = method;
  uint64_t *counts = malloc(((size_t)e->n * warpmatch_orbit_count(size) + 1) * sizeof *counts);
  warpmatch_orbit_result mine;
  if (!r) r = &mine;
  r->size = sizeof *r;
  cr_assert_eq(warpmatch_orbits(ctx, g, &o, counts, r), 0, "%s", warpmatch_last_error(ctx));
  cr_assert_eq(r->orbits, warpmatch_orbit_count(size));
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
  return counts;
}

static void assert_same(const edges *e, unsigned size, const uint64_t *a, const uint64_t *b, const char *what) {
  const unsigned orbits = warpmatch_orbit_count(size);
  for (uint32_t v = 0; v < e->n; v++)
    for (unsigned o = 0; o < orbits; o++)
      cr_assert_eq(a[(size_t)v * orbits + o], b[(size_t)v * orbits + o], "%s: vertex %u orbit %u: %llu != %llu", what, v,
                   o, (unsigned long long)a[(size_t)v * orbits + o], (unsigned long long)b[(size_t)v * orbits + o]);
}

/* The formula (sizes 2..5) equals the enumerator, on one and two threads. */
static void formula_vs_enumerator(const edges *e, const char *what) {
  for (unsigned size = 2; size <= 5; size++) {
    warpmatch_orbit_result rf, re;
    uint64_t *f = orbits_of(e, size, WARPMATCH_METHOD_FORMULA, 1, &rf);
    uint64_t *x = orbits_of(e, size, WARPMATCH_METHOD_ENUMERATE, 2, &re);
    cr_assert_eq(rf.method, WARPMATCH_METHOD_FORMULA);
    cr_assert_eq(re.method, WARPMATCH_METHOD_ENUMERATE);
    assert_same(e, size, f, x, what);
    free(f);
    free(x);
  }
}

/* ---- the enumerator against every vertex subset ------------------------ */

static int has(const edges *e, uint32_t a, uint32_t b) {
  for (uint64_t i = 0; i < e->m; i++)
    if ((e->src[i] == a && e->dst[i] == b) || (e->src[i] == b && e->dst[i] == a)) return 1;
  return 0;
}

/* The vertices of `set` (at most 5) in ascending order into pos, and the
 * edge mask of the subgraph they induce, in position order (bit
 * b(b-1)/2 + a for the edge a-b, a < b), as the orbit tables index it. */
static unsigned subset_mask(const edges *e, uint32_t set, uint32_t *pos) {
  unsigned k = 0, mask = 0;
  for (uint32_t v = 0; v < e->n; v++)
    if (set >> v & 1u) pos[k++] = v;
  for (unsigned b = 1; b < k; b++)
    for (unsigned a = 0; a < b; a++)
      if (has(e, pos[a], pos[b])) mask |= 1u << (b * (b - 1) / 2 + a);
  return mask;
}

/* Each subset of 2..size vertices (n <= 14), its edge mask in position order
 * looked up in the orbit tables; disconnected ones skipped. */
static uint64_t *brute_force(const edges *e, unsigned size) {
  const wm_orbit_tables *t = wm_orbit_tables_get(NULL);
  cr_assert_not_null(t);
  const unsigned orbits = wm_orbit_count(size);
  uint64_t *counts = calloc((size_t)e->n * orbits + 1, sizeof *counts);
  for (uint32_t set = 1; set < 1u << e->n; set++) {
    const unsigned k = (unsigned)__builtin_popcount(set);
    if (k < 2 || k > size) continue;
    uint32_t pos[5];
    const unsigned mask = subset_mask(e, set, pos);
    if (t->orbit[k][mask][0] == WM_ORBIT_NONE) continue;
    for (unsigned p = 0; p < k; p++) counts[(size_t)pos[p] * orbits + t->orbit[k][mask][p]]++;
  }
  return counts;
}

Test(orbits, enumerator_equals_brute_force_over_subsets) {
  edges e;
  for (uint64_t seed = 1; seed <= 4; seed++) {
    er(&e, 13, 0.2 + 0.15 * (double)seed, seed);
    uint64_t *b = brute_force(&e, 5), *x = orbits_of(&e, 5, WARPMATCH_METHOD_ENUMERATE, 2, NULL);
    assert_same(&e, 5, b, x, "brute force");
    free(b);
    free(x);
  }
}

Test(orbits, formula_equals_enumerator_on_random_graphs) {
  edges e;
  const double density[] = {0.05, 0.15, 0.4, 0.8};
  for (uint64_t seed = 1; seed <= 3; seed++)
    for (unsigned d = 0; d < 4; d++) {
      er(&e, 40, density[d], seed * 31 + d);
      char what[64];
      snprintf(what, sizeof what, "G(40, %.2f) seed %llu", density[d], (unsigned long long)seed);
      formula_vs_enumerator(&e, what);
    }
}

Test(orbits, formula_equals_enumerator_on_shapes) {
  edges e;
  star(&e, 9);
  formula_vs_enumerator(&e, "star");
  for (uint32_t k = 5; k <= 7; k++) clique(&e, k), formula_vs_enumerator(&e, "clique");
  path(&e, 9, 0);
  formula_vs_enumerator(&e, "path");
  path(&e, 9, 1);
  formula_vs_enumerator(&e, "cycle");
  /* isolated vertices around a triangle with a tail */
  e.n = 8, e.m = 0;
  add_edge(&e, 2, 3), add_edge(&e, 3, 4), add_edge(&e, 2, 4), add_edge(&e, 4, 6);
  formula_vs_enumerator(&e, "isolated");
}

/* The 4-clique pass has two ways (rows of N+(a) as bit sets, a walk
 * walk for hubs past the rows' size); the hook sends every vertex down the
 * second, which the graphs here would never reach. */
Test(orbits, both_ways_of_the_clique_pass_equal_the_enumerator) {
  edges e;
  for (int marked = 0; marked <= 1; marked++) {
    if (marked) setenv("WM_TEST_ORBIT_WALKED", "1", 1);
    for (uint64_t seed = 1; seed <= 2; seed++) {
      er(&e, 40, 0.6, seed * 7);
      formula_vs_enumerator(&e, marked ? "G(40, 0.6), clique walk" : "G(40, 0.6), rows");
    }
    clique(&e, 8);
    formula_vs_enumerator(&e, marked ? "K8, clique walk" : "K8, rows");
    unsetenv("WM_TEST_ORBIT_WALKED");
  }
}

/* The formula on 1, 2 and 3 threads, with each thread's own sums and with
 * atomic adds into one set, equals the enumerator (sizes 3 to 5). */
static void every_way_vs_enumerator(const edges *e, const char *graph) {
  for (int shared = 0; shared <= 2; shared++) { /* 2: own sums, every vertex solved in 128 bits */
    if (shared == 1) cr_assert_eq(setenv("WM_TEST_ORBIT_SHARED", "1", 1), 0);
    if (shared == 2) cr_assert_eq(setenv("WM_TEST_ORBIT_SOLVE128", "1", 1), 0);
    for (unsigned size = 3; size <= 5; size++) {
      uint64_t *x = orbits_of(e, size, WARPMATCH_METHOD_ENUMERATE, 2, NULL);
      for (int threads = 1; threads <= 3; threads++) {
        uint64_t *f = orbits_of(e, size, WARPMATCH_METHOD_FORMULA, threads, NULL);
        char what[128];
        snprintf(what, sizeof what, "%s, size %u, %d threads, %s", graph, size, threads,
                 shared == 1 ? "atomic sums" : shared ? "own sums, 128-bit solve" : "own sums");
        assert_same(e, size, f, x, what);
        free(f);
      }
      free(x);
    }
    cr_assert_eq(unsetenv("WM_TEST_ORBIT_SHARED"), 0);
    cr_assert_eq(unsetenv("WM_TEST_ORBIT_SOLVE128"), 0);
  }
}

/* The CPU's aggregates relabel the vertices by degree (ties by index) and
 * credit them plainly on one thread, in each thread's own sums on several,
 * or atomically (WM_TEST_ORBIT_SHARED=1, as past their memory cap): on a
 * graph whose low ids have the high degrees (the order reversed) and whose
 * other degrees tie, and on a cycle (all tied), every way equals the
 * enumerator. */
Test(orbits, every_way_of_crediting_the_aggregates_equals_the_enumerator) {
  edges e;
  uint64_t seed = 99;
  e.n = 48, e.m = 0;
  for (uint32_t a = 0; a < e.n; a++)
    for (uint32_t b = a + 1; b < e.n; b++) {
      const double pa = 1.0 - a / 48.0, pb = 1.0 - b / 48.0;
      if ((double)(wm_test_rand(&seed) >> 11) / (double)(1ull << 53) < pa * pb * 0.9) add_edge(&e, a, b);
    }
  for (uint32_t v = 40; v + 1 < e.n; v += 2) add_edge(&e, v, v + 1); /* more ties among the low degrees */
  every_way_vs_enumerator(&e, "degrees reversed");
  path(&e, 10, 1); /* 20 arcs over 3 threads: the last share ends past the last row's start */
  every_way_vs_enumerator(&e, "10-cycle");
}

/* A hub joined to every vertex of a sparse random graph: its degree is
 * far above the rest, and its rows run through every vertex's. */
Test(orbits, hub_far_above_the_rest) {
  edges e;
  er(&e, 60, 0.04, 7);
  for (uint32_t v = 1; v < e.n; v++)
    if (!has(&e, 0, v)) add_edge(&e, 0, v);
  formula_vs_enumerator(&e, "hub");
  uint64_t *x = orbits_of(&e, 5, WARPMATCH_METHOD_AUTO, 2, NULL);
  cr_assert_eq(x[0], 59); /* orbit 0 is the degree */
  free(x);
}

/* ---- hubs: the 5-vertex walk skips the 3-stars ------------------------- */

static uint64_t choose(uint64_t n, unsigned r);

/* The equations read no 3-star set S (the walk never makes one): only the
 * 4-star's orbits, which have no other, are closed (from the degrees). */
Test(orbits, the_5_vertex_equations_read_no_3_star_set) {
  wm_error err;
  const wm_orbit_tables *t = wm_orbit_tables_get(&err);
  cr_assert_not_null(t);
  wm_o5_equations *q = calloc(1, sizeof *q);
  cr_assert_eq(wm_o5_derive(t, q, &err), WM_OK, "%s", err.msg);
  unsigned stars = 0;
  for (unsigned mask = 0; mask < MASKS4; mask++) {
    stars += (unsigned)wm_o5_is_star(mask);
    cr_assert(!wm_o5_is_star(mask) || q->nuse[mask] == 0, "star mask %#x has %u uses", mask, q->nuse[mask]);
  }
  cr_assert_eq(stars, 4); /* x the centre, or a leaf with the centre at position 1, 2 or 3 */
  cr_assert(wm_o5_is_star(0x0b) && !wm_o5_is_star(0x07) && !wm_o5_is_star(0x0d), "centre 0; triangle; path");
  for (unsigned r = 0; r < ORBITS5; r++) {
    const unsigned want = r + FIRST5 == 23 ? WM_O5_CENTRE : r + FIRST5 == 22 ? WM_O5_LEAF : 0;
    cr_assert_eq(q->closed[r], want, "orbit %u", r + FIRST5);
    cr_assert_eq(q->key[r] == WM_O5_CLOSED, want != 0, "orbit %u", r + FIRST5);
  }
  free(q);
}

/* A hub whose spokes are hubs of their own: C(d, 3) star sets at each,
 * with a few triangles among the spokes and their leaves, so that every
 * way the walk's last level is built (x the middle of v1-x-v2, v1 the
 * middle of x-v1-v2, a triangle) meets sets it keeps and stars it skips. */
static void star_of_stars(edges *e, uint32_t spokes, uint32_t leaves) {
  e->n = 1 + spokes * (1 + leaves), e->m = 0;
  for (uint32_t s = 0; s < spokes; s++) {
    const uint32_t hub = 1 + s * (1 + leaves);
    add_edge(e, 0, hub);
    for (uint32_t l = 1; l <= leaves; l++) add_edge(e, hub, hub + l);
    if (s % 3 == 0 && s + 1 < spokes) add_edge(e, hub, hub + 1 + leaves); /* a spoke triangle with 0 */
    if (s % 2 == 0) add_edge(e, hub + 1, hub + 2);                      /* a leaf triangle with the spoke */
    if (s % 4 == 1) add_edge(e, 0, hub + 3);                            /* a leaf also on the centre */
  }
}

/* The Kronecker generator's graph (Graph500's skew: a few hubs, most
 * vertices of degree 1 or 2) through the API into e. */
static void kronecker(edges *e, unsigned scale, unsigned edge_factor, uint64_t seed) {
  warpmatch_context *ctx;
  warpmatch_graph *g;
  warpmatch_gen_options o;
  cr_assert_eq(warpmatch_context_create(&ctx), 0);
  warpmatch_gen_options_init(&o, WARPMATCH_GEN_KRON, scale, seed);
  o.edge_factor = edge_factor;
  cr_assert_eq(warpmatch_generate(ctx, &o, &g), 0, "%s", warpmatch_last_error(ctx));
  const uint64_t m = warpmatch_graph_edges(g);
  cr_assert_leq(m, 4096);
  e->n = 1u << scale, e->m = m;
  warpmatch_graph_edge_ends(g, e->src, e->dst);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

Test(orbits, formula_equals_enumerator_on_hub_heavy_graphs) {
  edges e;
  star_of_stars(&e, 12, 7);
  formula_vs_enumerator(&e, "star of stars");
  for (uint64_t seed = 1; seed <= 2; seed++) {
    kronecker(&e, 8, 6, seed);
    formula_vs_enumerator(&e, "Kronecker scale 8");
  }
}

/* Size 5's formula is the non-induced counts; the walk over 4-vertex sets
 * (WM_ORBIT5_WALK=1) is kept equal to the enumerator too, through its
 * switch. */
Test(orbits, the_walk_over_4_vertex_sets_equals_the_enumerator) {
  cr_assert_eq(setenv("WM_ORBIT5_WALK", "1", 1), 0);
  edges e;
  er(&e, 40, 0.15, 5);
  formula_vs_enumerator(&e, "G(40, 0.15) by the walk");
  kronecker(&e, 8, 6, 3);
  formula_vs_enumerator(&e, "Kronecker scale 8 by the walk");
  cr_assert_eq(unsetenv("WM_ORBIT5_WALK"), 0);
}

/* Two and three hubs sharing their leaves (K(2, k), K(3, k) and an edge
 * between the hubs): every leaf is in C(k - 1, 3) 4-stars of each hub, and
 * the hubs in C(k, 4); the denser graphlets holding a 4-star (G14, G17, ...)
 * come from the hubs' edge and the leaves' few edges, so the closed rows'
 * subtractions are exercised. */
Test(orbits, formula_equals_enumerator_where_4_stars_abound) {
  edges e;
  for (uint32_t hubs = 2; hubs <= 3; hubs++) {
    const uint32_t k = 11;
    e.n = hubs + k, e.m = 0;
    for (uint32_t h = 0; h < hubs; h++)
      for (uint32_t l = 0; l < k; l++) add_edge(&e, h, hubs + l);
    add_edge(&e, 0, 1);
    add_edge(&e, hubs, hubs + 1), add_edge(&e, hubs + 2, hubs + 3), add_edge(&e, hubs + 3, hubs + 4);
    formula_vs_enumerator(&e, hubs == 2 ? "K(2, 11) and more" : "K(3, 11) and more");
  }
  star(&e, 14);
  uint64_t *x = orbits_of(&e, 5, WARPMATCH_METHOD_FORMULA, 2, NULL);
  cr_assert_eq(x[23], choose(14, 4));
  cr_assert_eq(x[73 + 22], choose(13, 3));
  free(x);
}

/* ---- closed forms ------------------------------------------------------ */

static uint64_t choose(uint64_t n, unsigned r) {
  uint64_t c = 1;
  for (unsigned i = 0; i < r; i++) c = c * (n - i) / (i + 1);
  return n < r ? 0 : c;
}

/* Orbit o of vertex v is `want` and every orbit not listed is 0. */
static void assert_row(const uint64_t *row, const unsigned *orbit, const uint64_t *want, unsigned n, const char *what) {
  for (unsigned o = 0; o < 73; o++) {
    uint64_t w = 0;
    for (unsigned i = 0; i < n; i++)
      if (orbit[i] == o) w = want[i];
    cr_assert_eq(row[o], w, "%s: orbit %u is %llu, expected %llu", what, o, (unsigned long long)row[o],
                 (unsigned long long)w);
  }
}

Test(orbits, stars_cliques_paths_and_cycles_have_their_closed_forms) {
  edges e;
  star(&e, 8);
  uint64_t *x = orbits_of(&e, 5, WARPMATCH_METHOD_AUTO, 2, NULL);
  const unsigned centre_orbits[] = {0, 2, 7, 23}, leaf_orbits[] = {0, 1, 6, 22};
  const uint64_t centre[] = {8, choose(8, 2), choose(8, 3), choose(8, 4)}, leaf[] = {1, 7, choose(7, 2), choose(7, 3)};
  assert_row(x, centre_orbits, centre, 4, "star centre");
  for (uint32_t v = 1; v <= 8; v++) assert_row(x + 73 * v, leaf_orbits, leaf, 4, "star leaf");
  free(x);
  for (uint32_t k = 5; k <= 7; k++) {
    clique(&e, k);
    x = orbits_of(&e, 5, WARPMATCH_METHOD_AUTO, 2, NULL);
    const unsigned orbits[] = {0, 3, 14, 72};
    const uint64_t want[] = {k - 1, choose(k - 1, 2), choose(k - 1, 3), choose(k - 1, 4)};
    for (uint32_t v = 0; v < k; v++) assert_row(x + 73 * v, orbits, want, 4, "clique");
    free(x);
  }
  path(&e, 10, 1); /* a 10-cycle: each vertex ends two paths of each length and is inside the rest */
  x = orbits_of(&e, 5, WARPMATCH_METHOD_AUTO, 2, NULL);
  const unsigned cyc_orbits[] = {0, 1, 2, 4, 5, 15, 16, 17};
  const uint64_t cyc[] = {2, 2, 1, 2, 2, 2, 2, 1};
  for (uint32_t v = 0; v < 10; v++) assert_row(x + 73 * v, cyc_orbits, cyc, 8, "cycle");
  free(x);
  path(&e, 6, 0); /* 0-1-2-3-4-5: vertex 2 ends 2-1-0 and 2-3-4 and 2-3-4-5, sits in 1-2-3, 0-1-2-3, 1-2-3-4 */
  x = orbits_of(&e, 5, WARPMATCH_METHOD_AUTO, 2, NULL);
  const unsigned p2_orbits[] = {0, 1, 2, 4, 5, 16, 17}; /* second of 1-2-3-4-5, centre of 0-1-2-3-4 */
  const uint64_t p2[] = {2, 2, 1, 1, 2, 1, 1};
  assert_row(x + 73 * 2, p2_orbits, p2, 7, "path vertex 2");
  free(x);
}

Test(orbits, isolated_vertices_and_the_empty_graph) {
  edges e;
  e.n = 5, e.m = 0;
  add_edge(&e, 1, 2);
  uint64_t *x = orbits_of(&e, 5, WARPMATCH_METHOD_AUTO, 2, NULL);
  for (unsigned o = 0; o < 73; o++) cr_assert_eq(x[o] + x[73 * 3 + o] + x[73 * 4 + o], 0);
  cr_assert_eq(x[73 * 1], 1);
  free(x);
  e.n = 0, e.m = 0;
  warpmatch_orbit_result r;
  x = orbits_of(&e, 4, WARPMATCH_METHOD_AUTO, 1, &r);
  cr_assert_eq(r.orbits, 15);
  cr_assert_eq(r.method, WARPMATCH_METHOD_FORMULA);
  free(x);
}

/* ---- the identity with the motif totals ------------------------------- */

static void pattern_of_edges(const char *text, wm_pattern *p) {
  unsigned a, b, k = 0;
  wm_pattern q;
  wm_pattern_init(&q, 5);
  for (const char *s = text; sscanf(s, "%u-%u", &a, &b) == 2;) {
    wm_pattern_add_edge(&q, a, b);
    k = a + 1 > k ? a + 1 : k, k = b + 1 > k ? b + 1 : k;
    s = strchr(s, ' ');
    if (!s) break;
    s++;
  }
  wm_pattern_init(p, k);
  for (unsigned i = 0; i < k; i++)
    for (unsigned j = i + 1; j < k; j++)
      if (wm_pattern_has_edge(&q, i, j)) wm_pattern_add_edge(p, i, j);
}

/* The motif row of graphlet gid, found by canonical form. */
static uint64_t motif_count_of(const warpmatch_motif *rows, unsigned n, unsigned gid) {
  char text[64];
  wm_orbit_graphlet_edges(gid, text, sizeof text);
  wm_pattern p;
  wm_canonical cp;
  pattern_of_edges(text, &p);
  wm_pattern_canonical(&p, &cp);
  for (unsigned i = 0; i < n; i++) {
    wm_pattern q;
    wm_canonical cq;
    pattern_of_edges(rows[i].edges, &q);
    wm_pattern_canonical(&q, &cq);
    if (q.k == p.k && wm_canonical_same(&cp, &cq)) {
      cr_assert_eq(rows[i].count_high, 0);
      return rows[i].count;
    }
  }
  cr_assert_fail("graphlet G%u (%s) is no motif class", gid, text);
  return 0;
}

Test(orbits, vertex_sums_are_the_motif_totals_times_the_orbit_sizes) {
  const wm_orbit_tables *t = wm_orbit_tables_get(NULL);
  cr_assert_not_null(t);
  edges e;
  for (uint64_t seed = 1; seed <= 2; seed++) {
    er(&e, 45, 0.18 * (double)seed, seed);
    uint64_t *x = orbits_of(&e, 5, WARPMATCH_METHOD_AUTO, 2, NULL);
    warpmatch_context *ctx;
    warpmatch_graph *g;
    cr_assert_eq(warpmatch_context_create(&ctx), 0);
    cr_assert_eq(warpmatch_graph_from_edges(ctx, e.n, e.src, e.dst, e.m, 0, &g), 0);
    warpmatch_count_options co;
    warpmatch_count_options_init(&co);
    co.device = WARPMATCH_DEVICE_CPU;
    for (unsigned size = 3; size <= 5; size++) {
      warpmatch_motif rows[21];
      const unsigned n = warpmatch_motif_classes(size);
      cr_assert_eq(warpmatch_motifs(ctx, g, size, &co, rows), 0, "%s", warpmatch_last_error(ctx));
      for (unsigned o = 0; o < 73; o++) {
        const unsigned gid = t->graphlet_of_orbit[o];
        if (t->graphlet_vertices[gid] != size) continue;
        uint64_t sum = 0;
        for (uint32_t v = 0; v < e.n; v++) sum += x[(size_t)v * 73 + o];
        cr_assert_eq(sum, motif_count_of(rows, n, gid) * t->orbit_vertices[o], "orbit %u of G%u", o, gid);
      }
    }
    uint64_t edges_twice = 0;
    for (uint32_t v = 0; v < e.n; v++) edges_twice += x[(size_t)v * 73];
    cr_assert_eq(edges_twice, 2 * e.m); /* orbit 0: the degree */
    warpmatch_graph_destroy(g);
    warpmatch_context_destroy(ctx);
    free(x);
  }
}

/* ---- exactness -------------------------------------------------------- */

/* The store every count passes through, with a real hub's number: the
 * 4-vertex stars around a vertex of degree 2.1 million (C(d, 4) = 8.1e23)
 * cannot be a uint64: an error without the high words, kept whole with
 * them; a degree of 100000 still fits, exactly. */
Test(orbits, the_store_keeps_a_star_centre_past_2_to_the_64_whole_or_refuses_it) {
  wm_graph *g = wm_test_er(3, 0.0, 1);
  wm_error err;
  uint64_t out[2] = {0, 0}, high[2] = {0, 0};
  wm_orbit_run narrow = {0}, wide = {0};
  wide.high = high, wide.low = out;
  const wm_i128 hub = wm_choose(2100000, 4);
  cr_assert_eq(wm_orbit_store(g, 1, 23, hub, &narrow, &out[1], &err), WM_EINPUT);
  cr_assert(strstr(err.msg, "vertex 1") && strstr(err.msg, "orbit 23") && strstr(err.msg, "2^64"), "%s", err.msg);
  cr_assert_eq(wm_orbit_store(g, 1, 23, hub, &wide, &out[1], &err), WM_OK);
  cr_assert(((wm_u128)high[1] << 64 | out[1]) == (wm_u128)hub && high[1] > 0 && high[0] == 0);
  cr_assert_eq(wm_orbit_store(g, 1, 23, wm_choose(100000, 4), &narrow, &out[0], &err), WM_OK);
  cr_assert_eq(out[0], 4166416671249975000ull);
  narrow.start = wide.start = UINT64_MAX - 5;
  cr_assert_eq(wm_orbit_store(g, 2, 7, 5, &narrow, &out[0], &err), WM_OK);
  cr_assert_eq(out[0], UINT64_MAX);
  cr_assert_eq(wm_orbit_store(g, 2, 7, 6, &narrow, &out[0], &err), WM_EINPUT);
  cr_assert_eq(wm_orbit_store(g, 2, 7, 6, &wide, &out[0], &err), WM_OK);
  cr_assert(out[0] == 0 && high[0] == 1, "2^64 is high word 1, low word 0");
  cr_assert_eq(wm_orbit_store(g, 2, 7, -1, &wide, &out[0], &err), WM_EINPUT, "a negative count is a bug, named");
  wm_graph_destroy(g);
}

/* Through the executors: the test hook starts every count near 2^64, so a
 * star's centre (orbit 23: C(10, 4) = 210, its largest count) passes it by
 * one; one less and the count is exactly 2^64 - 1. */
static int run_with_start(const edges *e, unsigned size, int method, int edge_rows, const char *start,
                          uint64_t *counts, uint64_t *high, char *msg, size_t msg_size) {
  cr_assert_eq(setenv("WM_TEST_COUNT_START", start, 1), 0);
  warpmatch_context *ctx;
  warpmatch_graph *g;
  cr_assert_eq(warpmatch_context_create(&ctx), 0);
  cr_assert_eq(warpmatch_graph_from_edges(ctx, e->n, e->src, e->dst, e->m, 0, &g), 0);
  warpmatch_orbit_options o;
  warpmatch_orbit_options_init(&o);
  o.graphlet_size = size, o.method = method, o.edges = edge_rows, o.counts_high = high;
  const int rc = warpmatch_orbits(ctx, g, &o, counts, NULL);
  snprintf(msg, msg_size, "%s", warpmatch_last_error(ctx));
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
  cr_assert_eq(unsetenv("WM_TEST_COUNT_START"), 0);
  return rc;
}

/* The star's centre holds `count` subgraphs of orbit `orbit` at this size:
 * started `count` below 2^64 its count is an error naming vertex 0 and the
 * orbit, or with the high words exactly 2^64 (high 1, low 0) and no other
 * count past 2^64 - 1; one lower, exactly UINT64_MAX. */
static void assert_overflow_at(const edges *e, unsigned size, int method, unsigned orbit, uint64_t count,
                               uint64_t *counts, uint64_t *high) {
  char msg[1024], start[32], want[32];
  const size_t cells = (size_t)e->n * warpmatch_orbit_count(size);
  snprintf(start, sizeof start, "%llu", (unsigned long long)(UINT64_MAX - count + 1));
  cr_assert_eq(run_with_start(e, size, method, 0, start, counts, NULL, msg, sizeof msg), WARPMATCH_EINPUT);
  snprintf(want, sizeof want, "orbit %u ", orbit);
  cr_assert(strstr(msg, "vertex 0 ") && strstr(msg, want) && strstr(msg, "counts_high"), "size %u method %d: %s",
            size, method, msg);
  memset(high, 0xAB, cells * sizeof *high); /* overwritten whole */
  cr_assert_eq(run_with_start(e, size, method, 0, start, counts, high, msg, sizeof msg), 0, "%s", msg);
  for (size_t i = 0; i < cells; i++)
    cr_assert_eq(high[i], i == orbit, "size %u method %d: cell %zu's high word", size, method, i);
  cr_assert_eq(counts[orbit], 0);
  snprintf(start, sizeof start, "%llu", (unsigned long long)(UINT64_MAX - count));
  cr_assert_eq(run_with_start(e, size, method, 0, start, counts, NULL, msg, sizeof msg), 0, "%s", msg);
  cr_assert_eq(counts[orbit], UINT64_MAX);
}

Test(orbits, past_2_to_the_64_a_count_is_kept_whole_or_an_error_naming_the_vertex_and_the_orbit) {
  edges e;
  star(&e, 10);
  uint64_t counts[11 * 73], high[11 * 73];
  for (int method = WARPMATCH_METHOD_FORMULA; method <= WARPMATCH_METHOD_ENUMERATE; method++) {
    assert_overflow_at(&e, 5, method, 23, choose(10, 4), counts, high); /* the centre's 4-stars */
    cr_assert_eq(counts[73 + 22], UINT64_MAX - choose(10, 4) + choose(9, 3));
    assert_overflow_at(&e, 4, method, 7, choose(10, 3), counts, high); /* its 3-stars */
  }
}

/* ---- the API's refusals ------------------------------------------------ */

Test(orbits, the_api_refuses_what_it_cannot_do) {
  warpmatch_context *ctx;
  warpmatch_graph *g, *d;
  const uint32_t src[] = {0, 1}, dst[] = {1, 2};
  cr_assert_eq(warpmatch_context_create(&ctx), 0);
  cr_assert_eq(warpmatch_graph_from_edges(ctx, 3, src, dst, 2, 0, &g), 0);
  cr_assert_eq(warpmatch_graph_from_edges(ctx, 3, src, dst, 2, 1, &d), 0);
  uint64_t counts[3 * 73];
  warpmatch_orbit_options o;
  cr_assert_eq(warpmatch_orbit_count(1), 0);
  cr_assert_eq(warpmatch_orbit_count(4), 15);
  cr_assert_eq(warpmatch_orbit_count(5), 73);
  cr_assert_eq(warpmatch_orbit_count(6), 0);
  warpmatch_orbit_options_init(&o);
  o.graphlet_size = 6;
  cr_assert_eq(warpmatch_orbits(ctx, g, &o, counts, NULL), WARPMATCH_EUSAGE);
  cr_assert(strstr(warpmatch_last_error(ctx), "graphlet_size 6"), "%s", warpmatch_last_error(ctx));
  warpmatch_orbit_options_init(&o);
  o.method = WARPMATCH_METHOD_FORMULA;
  o.device = WARPMATCH_DEVICE_CPU;
  o.graphlet_size = 5; /* every size has its formula */
  warpmatch_orbit_result r;
  memset(&r, 0, sizeof r);
  r.size = sizeof r;
  cr_assert_eq(warpmatch_orbits(ctx, g, &o, counts, &r), 0, "%s", warpmatch_last_error(ctx));
  cr_assert_eq(r.method, WARPMATCH_METHOD_FORMULA);
  cr_assert_eq(r.device, WARPMATCH_DEVICE_CPU);
  cr_assert_eq(counts[15], 0);
  warpmatch_orbit_options_init(&o);
  o.device = WARPMATCH_DEVICE_GPU; /* without a usable GPU (test_gpu_orbits.c runs it with one) */
  cr_assert_eq(warpmatch_orbits(ctx, g, &o, counts, NULL), warpmatch_gpu_available(ctx) ? 0 : WARPMATCH_EDEVICE);
  warpmatch_orbit_options_init(&o);
  cr_assert_eq(warpmatch_orbits(ctx, d, &o, counts, NULL), WARPMATCH_EUSAGE);
  cr_assert(strstr(warpmatch_last_error(ctx), "undirected"), "%s", warpmatch_last_error(ctx));
  cr_assert_eq(warpmatch_orbits(ctx, g, &o, NULL, NULL), WARPMATCH_EUSAGE);
  o.counts_high = counts + 3 * 73 - 1; /* its first cell is counts' last */
  cr_assert_eq(warpmatch_orbits(ctx, g, &o, counts, NULL), WARPMATCH_EUSAGE);
  cr_assert(strstr(warpmatch_last_error(ctx), "counts_high overlaps"), "%s", warpmatch_last_error(ctx));
  o.counts_high = NULL;
  o.size = 0;
  cr_assert_eq(warpmatch_orbits(ctx, g, &o, counts, NULL), WARPMATCH_EUSAGE);
  memset(&r, 0, sizeof r);
  r.size = sizeof r;
  cr_assert_eq(warpmatch_orbits(ctx, g, NULL, counts, &r), 0); /* the defaults: size 5, by formula */
  cr_assert_eq(r.orbits, 73);
  cr_assert_eq(r.method, WARPMATCH_METHOD_FORMULA);
  /* AUTO counts size 5 on the GPU where one is usable */
  cr_assert_eq(r.device, warpmatch_gpu_available(ctx) ? WARPMATCH_DEVICE_GPU : WARPMATCH_DEVICE_CPU);
  cr_assert_eq(counts[73 + 2], 1); /* the middle of the path 0-1-2 */
  warpmatch_graph_destroy(g);
  warpmatch_graph_destroy(d);
  warpmatch_context_destroy(ctx);
}

/* trials: a warm-up and that many timed calls give the one call's counts
 * (size 5's rows pass through the renumbering), with their medians; past
 * WARPMATCH_MAX_TRIALS is refused. */
Test(orbits, trials_count_what_one_call_counts) {
  edges e;
  er(&e, 40, 0.2, 17);
  warpmatch_context *ctx;
  warpmatch_graph *g;
  cr_assert_eq(warpmatch_context_create(&ctx), 0);
  cr_assert_eq(warpmatch_graph_from_edges(ctx, e.n, e.src, e.dst, e.m, 0, &g), 0, "%s", warpmatch_last_error(ctx));
  for (unsigned size = 4; size <= 5; size++) {
    uint64_t *one = orbits_of(&e, size, WARPMATCH_METHOD_FORMULA, 0, NULL);
    const size_t cells = (size_t)e.n * warpmatch_orbit_count(size);
    uint64_t *many = malloc(cells * sizeof *many), *high = malloc(cells * sizeof *high);
    memset(many, 0xA5, cells * sizeof *many);
    warpmatch_orbit_options o;
    warpmatch_orbit_options_init(&o);
    o.graphlet_size = size, o.device = WARPMATCH_DEVICE_CPU, o.trials = 3, o.counts_high = high;
    warpmatch_orbit_result r;
    memset(&r, 0, sizeof r);
    r.size = sizeof r;
    cr_assert_eq(warpmatch_orbits(ctx, g, &o, many, &r), 0, "%s", warpmatch_last_error(ctx));
    cr_assert_eq(r.trials, 3);
    cr_assert(r.seconds > 0 && r.first_seconds > 0, "seconds %g, first %g", r.seconds, r.first_seconds);
    assert_same(&e, size, many, one, size == 4 ? "size 4, 3 trials" : "size 5, 3 trials");
    for (size_t i = 0; i < cells; i++) cr_assert_eq(high[i], 0);
    o.trials = 0; /* one call */
    cr_assert_eq(warpmatch_orbits(ctx, g, &o, many, &r), 0, "%s", warpmatch_last_error(ctx));
    cr_assert_eq(r.trials, 1);
    cr_assert_eq(r.first_seconds, r.seconds);
    o.trials = WARPMATCH_MAX_TRIALS + 1;
    cr_assert_eq(warpmatch_orbits(ctx, g, &o, many, &r), WARPMATCH_EUSAGE);
    cr_assert(strstr(warpmatch_last_error(ctx), "trials 1001"), "%s", warpmatch_last_error(ctx));
    free(one);
    free(many);
    free(high);
  }
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

/* ---- the command line -------------------------------------------------- */

/* The rows of ORCA's layout (n lines of `orbits` numbers) parsed back. */
static void parse_orca(const char *text, uint32_t n, unsigned orbits, uint64_t *out) {
  const char *s = text;
  for (size_t i = 0; i < (size_t)n * orbits; i++) {
    char *end;
    out[i] = strtoull(s, &end, 10);
    cr_assert(end != s, "short output at number %zu", i);
    cr_assert(*end == (i % orbits == orbits - 1 ? '\n' : ' '), "bad separator after number %zu", i);
    s = end + 1;
  }
  cr_assert_eq(*s, '\0', "more than %u lines", n);
}

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  cr_assert_not_null(f, "%s", path);
  static char buf[1 << 20];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  return buf;
}

Test(orbits_cli, orca_output_parses_back_equal_to_the_api) {
  edges e;
  er(&e, 30, 0.25, 5);
  char text[65536];
  size_t len = 0;
  for (uint64_t i = 0; i < e.m; i++) len += (size_t)snprintf(text + len, sizeof text - len, "%u %u\n", e.src[i], e.dst[i]);
  wm_test_files f;
  wm_test_graph_file(&f, text);
  for (unsigned size = 4; size <= 5; size++) {
    char *out = NULL, *err = NULL;
    int rc = wm_test_run(&out, &err, "orbits %s --size %u --no-cache --threads 2", f.graph, size);
    cr_assert_eq(rc, 0, "%s", err);
    const unsigned orbits = warpmatch_orbit_count(size);
    uint64_t *back = malloc((size_t)30 * orbits * sizeof *back);
    parse_orca(out, 30, orbits, back); /* the file's ids 0..29 */
    uint64_t *x = orbits_of(&e, size, WARPMATCH_METHOD_AUTO, 1, NULL);
    assert_same(&e, size, back, x, "orca output");
    free(back);
    free(x);
    free(out);
    free(err);
  }
  wm_test_rmdir(f.dir);
}

Test(orbits_cli, csv_keeps_the_file_ids_and_orca_fills_the_missing_ones) {
  wm_test_files f;
  wm_test_graph_file(&f, "# a triangle on ids 10 20 30 with a tail to 40\n10 20\n20 30\n10 30\n30 40\n");
  char *out = NULL, *err = NULL, dest[600];
  snprintf(dest, sizeof dest, "%s/o.csv", f.dir);
  int rc = wm_test_run(&out, &err, "orbits %s --size 4 --format csv --output %s --no-cache", f.graph, dest);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(strstr(out, "written to"), "%s", out);
  const char *csv = read_file(dest);
  cr_assert(!strncmp(csv, "vertex,o0,o1,o2,", 16), "%s", csv);
  cr_assert(strstr(csv, ",o14\n10,2,"), "%s", csv);
  /* 30: degree 3, the middle of 10-30-40 and 20-30-40, one triangle, the paw's degree-3 vertex (orbit 11);
   * 40: the end of two 3-paths and the paw's tail (orbit 9) */
  cr_assert(strstr(csv, "\n30,3,0,2,1,0,0,0,0,0,0,0,1,0,0,0\n"), "%s", csv);
  cr_assert(strstr(csv, "\n40,1,2,0,0,0,0,0,0,0,1,0,0,0,0,0\n"), "%s", csv);
  free(out);
  free(err);
  rc = wm_test_run(&out, &err, "orbits %s --size 4 --no-cache", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  unsigned lines = 0;
  for (const char *s = out; *s; s++) lines += *s == '\n';
  cr_assert_eq(lines, 41, "ids 0..40, one line each");
  cr_assert(!strncmp(out, "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n", 30), "%s", out);
  free(out);
  free(err);
  wm_test_rmdir(f.dir);
}

Test(orbits_cli, json_summary_with_per_orbit_totals) {
  wm_test_files f;
  char text[8192];
  wm_test_clique_text(text, sizeof text, 6, 0, 1);
  wm_test_graph_file(&f, text);
  char *out = NULL, *err = NULL;
  int rc = wm_test_run(&out, &err, "orbits %s --size 5 --json --no-cache --method enumerate", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(json_valid_object(out), "%s", out);
  cr_assert_eq(json_u64(out, "vertices"), 6);
  cr_assert_eq(json_u64(out, "orbits"), 73);
  cr_assert(strstr(out, "\"method\":\"enumerate\""), "%s", out);
  /* K6: every vertex in 10 triangles, 10 4-cliques, 5 5-cliques */
  cr_assert(strstr(out, "\"totals\":[30,0,0,60,0,0,0,0,0,0,0,0,0,0,60,"), "%s", out);
  cr_assert(strstr(out, ",30]"), "%s", out);
  cr_assert_null(strstr(out, "\"trials\""), "%s", out); /* one call: no medians */
  free(out);
  free(err);
  rc = wm_test_run(&out, &err, "orbits %s --size 4 --json --no-cache --device cpu --trials 3", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(json_valid_object(out), "%s", out);
  cr_assert_eq(json_u64(out, "trials"), 3);
  cr_assert(strstr(out, "\"first_seconds\":"), "%s", out);
  free(out);
  free(err);
  wm_test_rmdir(f.dir);
}

Test(orbits_cli, usage_errors_exit_2_with_the_message) {
  wm_test_files f;
  wm_test_graph_file(&f, "0 1\n1 2\n");
  const char *bad[][2] = {
      {"--size 6", "--size"},
      {"--size 4 --format xml", "--format"},
      {"--size 5 --method sum", "--method"},
      {"", "--size"},
      {"--size 4 --device tpu", "--device"},
      {"--size 5 --device cpu --gpus 2", "runs on the CPU"},
      {"--size 5 --gpus 0", "--gpus"},
      {"--size 5 --gpus 99", "--gpus"},
  };
  for (unsigned i = 0; i < sizeof bad / sizeof *bad; i++) {
    char *out = NULL, *err = NULL;
    int rc = wm_test_run(&out, &err, "orbits %s %s --no-cache", f.graph, bad[i][0]);
    cr_assert_eq(rc, 2, "%s: exit %d", bad[i][0], rc);
    cr_assert(strstr(err, bad[i][1]), "%s: %s", bad[i][0], err);
    free(out);
    free(err);
  }
  char *out = NULL, *err = NULL, dest[600];
  snprintf(dest, sizeof dest, "%s/none.txt", f.dir);
  int rc = wm_test_run(&out, &err, "orbits %s/missing.txt --size 4 --output %s", f.dir, dest);
  cr_assert_eq(rc, 1);
  cr_assert(strstr(err, "missing.txt"), "%s", err);
  cr_assert_null(fopen(dest, "r"), "no output left behind");
  free(out);
  free(err);
  wm_test_rmdir(f.dir);
}

/* The text layouts spell every count in full, whatever its number of
 * digits (1 to 20, and past 2^64 - 1): the path 0-1-2 with every count
 * started at S (so that its rows are S + 1 or S + 2 at degree and the
 * 3-path orbits, S elsewhere). */
Test(orbits_cli, text_spells_counts_of_every_length) {
  wm_test_files f;
  wm_test_graph_file(&f, "0 1\n1 2\n");
  static const uint64_t starts[] = {0, 8, 98, 998, 99999998, 9999999999999999998ull, 18446744073709551613ull,
                                    UINT64_MAX};
  for (unsigned i = 0; i < sizeof starts / sizeof *starts; i++) {
    const uint64_t S = starts[i];
    char start[32], want[1024], csv[1024], digits[WM_I128_CHARS];
    snprintf(start, sizeof start, "%" PRIu64, S);
    size_t len = 0;
    for (unsigned v = 0; v < 3; v++) /* the ends: degree 1, one 3-path end (orbit 1); the middle: 2, orbit 2 */
      for (unsigned o = 0; o < 15; o++) {
        const wm_u128 x = (wm_u128)S + (o == 0 ? (v == 1 ? 2 : 1) : (o == 1 && v != 1) || (o == 2 && v == 1));
        len += (size_t)snprintf(want + len, sizeof want - len, "%s%c", wm_u128_str(x, digits), o < 14 ? ' ' : '\n');
      }
    cr_assert_eq(setenv("WM_TEST_COUNT_START", start, 1), 0);
    char *out = NULL, *err = NULL, *out_csv = NULL, *err_csv = NULL;
    int rc = wm_test_run(&out, &err, "orbits %s --size 4 --no-cache", f.graph);
    int rc_csv = wm_test_run(&out_csv, &err_csv, "orbits %s --size 4 --no-cache --format csv", f.graph);
    cr_assert_eq(unsetenv("WM_TEST_COUNT_START"), 0);
    cr_assert_eq(rc, 0, "%s", err);
    cr_assert_eq(rc_csv, 0, "%s", err_csv);
    cr_assert_str_eq(out, want, "start %s", start);
    size_t at = (size_t)snprintf(csv, sizeof csv, "vertex");
    for (unsigned o = 0; o < 15; o++) at += (size_t)snprintf(csv + at, sizeof csv - at, ",o%u", o);
    csv[at++] = '\n';
    for (unsigned v = 0, line = 0; v < 3; v++, line++) { /* the orca rows with the id in front, commas between */
      at += (size_t)snprintf(csv + at, sizeof csv - at, "%u,", v);
      const char *row = want;
      for (unsigned skip = 0; skip < line; skip++) row = strchr(row, '\n') + 1;
      for (; *row != '\n'; row++) csv[at++] = *row == ' ' ? ',' : *row;
      csv[at++] = '\n';
    }
    csv[at] = '\0';
    cr_assert_str_eq(out_csv, csv, "start %s", start);
    if (S == UINT64_MAX) cr_assert(strstr(out, "18446744073709551617"), "2^64 + 1 spelt whole");
    free(out);
    free(err);
    free(out_csv);
    free(err_csv);
  }
  wm_test_rmdir(f.dir);
}

/* WM_ORBIT_TRACE=1 names each phase's time on stderr and changes nothing
 * else; --output replaces a file whole (renamed into place, without the
 * fsyncs: docs/orbits.md) and leaves no temporary. */
Test(orbits_cli, trace_names_the_phases_and_output_replaces_the_file_whole) {
  wm_test_files f;
  char text[8192];
  wm_test_clique_text(text, sizeof text, 7, 0, 1);
  wm_test_graph_file(&f, text);
  char *plain = NULL, *out = NULL, *err = NULL, dest[600];
  cr_assert_eq(wm_test_run(&plain, &err, "orbits %s --size 4 --no-cache --threads 2", f.graph), 0, "%s", err);
  cr_assert_null(strstr(err, "orbits"), "no trace unless asked: %s", err);
  free(err);
  cr_assert_eq(setenv("WM_ORBIT_TRACE", "1", 1), 0);
  int rc = wm_test_run(&out, &err, "orbits %s --size 4 --no-cache --threads 2", f.graph);
  cr_assert_eq(unsetenv("WM_ORBIT_TRACE"), 0);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert_str_eq(out, plain, "the trace changed the counts");
  static const char *const phases[] = {"orbits: options ", " ms, load ", " ms, count ", " ms, write ", " ms, free ",
                                       "orbits (formula, size 4): tables ", " ms, aggregates ", " ms, rows ",
                                       "threads): by degree ", " ms, triangles ", " ms, diamonds and 4-cycles ",
                                       " ms, back "};
  for (unsigned i = 0; i < sizeof phases / sizeof *phases; i++)
    cr_assert(strstr(err, phases[i]), "no '%s' in: %s", phases[i], err);
  free(out);
  free(err);
  snprintf(dest, sizeof dest, "%s/counts.txt", f.dir);
  FILE *old = fopen(dest, "w");
  cr_assert_not_null(old);
  fputs("an older and much longer file than the counts of a 7-clique, which must not show through\n", old);
  for (int i = 0; i < 64; i++) fputs("0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n", old);
  fclose(old);
  rc = wm_test_run(&out, &err, "orbits %s --size 4 --no-cache --output %s", f.graph, dest);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert_str_eq(read_file(dest), plain, "the file is not the counts alone");
  DIR *d = opendir(f.dir);
  cr_assert_not_null(d);
  for (struct dirent *e = readdir(d); e; e = readdir(d))
    cr_assert_null(strstr(e->d_name, ".wmtmp."), "a temporary is left: %s", e->d_name);
  closedir(d);
  free(out);
  free(err);
  wm_test_rmdir(f.dir);
  free(plain);
}

/* --device cpu runs on the CPU; --device gpu without a usable GPU is a
 * device error (exit 3) that leaves no output (test_gpu_orbits.c runs it
 * where there is one). */
Test(orbits_cli, device_cpu_and_gpu) {
  wm_test_files f;
  wm_test_graph_file(&f, "0 1\n1 2\n2 0\n2 3\n");
  char *out = NULL, *err = NULL, dest[600];
  cr_assert_eq(wm_test_run(&out, &err, "orbits %s --size 4 --device cpu --json --no-cache", f.graph), 0, "%s", err);
  cr_assert(strstr(out, "\"device\": \"cpu\"") || strstr(out, "\"device\":\"cpu\""), "%s", out);
  free(out);
  free(err);
  warpmatch_context *ctx;
  cr_assert_eq(warpmatch_context_create(&ctx), 0);
  const int gpu = warpmatch_gpu_available(ctx);
  warpmatch_context_destroy(ctx);
  if (!gpu) {
    snprintf(dest, sizeof dest, "%s/out.txt", f.dir);
    const int rc = wm_test_run(&out, &err, "orbits %s --size 4 --device gpu --output %s --no-cache", f.graph, dest);
    cr_assert_eq(rc, 3, "exit %d: %s", rc, err);
    cr_assert(strstr(err, "--device gpu"), "%s", err);
    cr_assert_null(fopen(dest, "r"), "no output left behind");
    free(out);
    free(err);
  }
  wm_test_rmdir(f.dir);
}

/* ---- --format npy ------------------------------------------------------ */

/* A .npy file of `len` bytes parsed as NumPy reads format 1.0: the magic,
 * the header dict (its length little-endian, data aligned to 64 bytes),
 * then rows x cols little-endian uint64; checks the header says so. */
static const unsigned char *parse_npy(const unsigned char *b, size_t len, uint64_t rows, unsigned cols) {
  cr_assert(len >= 10 && !memcmp(b, "\x93NUMPY\x01\x00", 8), "not a .npy 1.0 file");
  const size_t hlen = (size_t)b[8] | (size_t)b[9] << 8;
  cr_assert_eq((10 + hlen) % 64, 0, "the data is not 64-byte aligned");
  cr_assert(10 + hlen <= len && b[10 + hlen - 1] == '\n', "the header ends in a newline");
  char want[160], header[1024];
  snprintf(want, sizeof want, "{'descr': '<u8', 'fortran_order': False, 'shape': (%llu, %u), }",
           (unsigned long long)rows, cols);
  cr_assert_lt(hlen, sizeof header);
  memcpy(header, b + 10, hlen), header[hlen] = '\0';
  cr_assert(!strncmp(header, want, strlen(want)), "%s", header);
  for (size_t i = strlen(want); i + 1 < hlen; i++) cr_assert_eq(header[i], ' ', "padding");
  cr_assert_eq(len, 10 + hlen + rows * cols * 8, "the data's length");
  return b + 10 + hlen;
}

static uint64_t le64(const unsigned char *p) {
  uint64_t x = 0;
  for (unsigned i = 0; i < 8; i++) x |= (uint64_t)p[i] << (8 * i);
  return x;
}

static unsigned char *read_binary(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  cr_assert_not_null(f, "%s", path);
  static unsigned char buf[1 << 20];
  *len = fread(buf, 1, sizeof buf, f);
  fclose(f);
  return buf;
}

/* The npy file holds the orca output's numbers, row for row: here ids
 * 3..40 of which some are missing (their rows zeros, row i is id i). */
Test(orbits_cli, npy_parses_back_equal_to_the_orca_output) {
  edges e;
  er(&e, 38, 0.2, 9);
  char text[65536];
  size_t len = 0;
  for (uint64_t i = 0; i < e.m; i++)
    if (e.src[i] % 7 != 5 && e.dst[i] % 7 != 5) /* leave some ids out */
      len += (size_t)snprintf(text + len, sizeof text - len, "%u %u\n", e.src[i] + 3, e.dst[i] + 3);
  wm_test_files f;
  wm_test_graph_file(&f, text);
  for (unsigned size = 2; size <= 5; size++) {
    char *out = NULL, *err = NULL, dest[600];
    snprintf(dest, sizeof dest, "%s/o.npy", f.dir);
    int rc = wm_test_run(&out, &err, "orbits %s --size %u --no-cache --format npy --output %s", f.graph, size, dest);
    cr_assert_eq(rc, 0, "%s", err);
    free(out), free(err);
    rc = wm_test_run(&out, &err, "orbits %s --size %u --no-cache", f.graph, size);
    cr_assert_eq(rc, 0, "%s", err);
    uint64_t rows = 0;
    for (const char *s = out; *s; s++) rows += *s == '\n';
    const unsigned orbits = warpmatch_orbit_count(size);
    uint64_t *orca = malloc((size_t)rows * orbits * sizeof *orca);
    parse_orca(out, (uint32_t)rows, orbits, orca);
    size_t bytes = 0;
    const unsigned char *file = read_binary(dest, &bytes);
    const unsigned char *data = parse_npy(file, bytes, rows, orbits);
    for (size_t i = 0; i < rows * orbits; i++)
      cr_assert_eq(le64(data + 8 * i), orca[i], "size %u: row %zu orbit %zu", size, i / orbits, i % orbits);
    cr_assert_eq(orca[1 * orbits], 0, "id 1 is not in the file");
    free(orca), free(out), free(err);
  }
  wm_test_rmdir(f.dir);
}

/* A Matrix Market graph of one edge 1-2: its ids 1..3 and row 0 (zeros);
 * and the bytes through stdout (a pipe here; a terminal is refused). */
Test(orbits_cli, npy_of_a_graph_without_edges_and_through_stdout) {
  wm_test_files f;
  wm_test_graph_file(&f, "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 1\n1 2\n");
  char *out = NULL, *err = NULL, dest[600];
  snprintf(dest, sizeof dest, "%s/o.npy", f.dir);
  int rc = wm_test_run(&out, &err, "orbits %s --size 4 --no-cache --format npy --output %s", f.graph, dest);
  cr_assert_eq(rc, 0, "%s", err);
  size_t bytes = 0;
  const unsigned char *file = read_binary(dest, &bytes);
  const unsigned char *data = parse_npy(file, bytes, 4, 15);
  for (size_t i = 0; i < 4 * 15; i++) /* orbit 0 (the degree) of ids 1 and 2 is 1; the rest 0 */
    cr_assert_eq(le64(data + 8 * i), (uint64_t)(i == 15 || i == 30), "row %zu orbit %zu", i / 15, i % 15);
  free(out), free(err);
  wm_test_rmdir(f.dir);
  wm_test_graph_file(&f, "0 1\n");
  rc = wm_test_run(&out, &err, "orbits %s --size 3 --no-cache --format npy", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(!memcmp(out, "\x93NUMPY\x01\x00", 8), "the magic on stdout");
  cr_assert(strstr(out + 10, "'shape': (2, 4), }"), "%s", out + 10);
  free(out), free(err);
  wm_test_rmdir(f.dir);
}

/* A count past 2^64 - 1 does not fit .npy's uint64: refused before
 * anything is written, naming the count whole and the layouts that hold
 * it; the same file spelt by csv. */
Test(orbits_cli, npy_refuses_a_count_past_2_to_the_64) {
  wm_test_files f;
  wm_test_graph_file(&f, "0 1\n1 2\n");
  char *out = NULL, *err = NULL, dest[600];
  snprintf(dest, sizeof dest, "%s/o.npy", f.dir);
  cr_assert_eq(setenv("WM_TEST_COUNT_START", "18446744073709551615", 1), 0); /* 2^64 - 1 */
  int rc = wm_test_run(&out, &err, "orbits %s --size 3 --no-cache --format npy --output %s", f.graph, dest);
  cr_assert_eq(rc, 1, "%s", err);
  cr_assert(strstr(err, "vertex 0: orbit 0 is 18446744073709551616") && strstr(err, "--format orca or csv"), "%s",
            err);
  cr_assert_null(fopen(dest, "r"), "no output left behind");
  free(out), free(err);
  rc = wm_test_run(&out, &err, "orbits %s --size 3 --no-cache --format csv --json", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(strstr(out, "\"wide_counts\":6"), "degrees and the 3-path orbits pass: %s", out);
  free(out), free(err);
  cr_assert_eq(unsetenv("WM_TEST_COUNT_START"), 0);
  wm_test_rmdir(f.dir);
}

/* ---- edge orbits (ORCA's edge mode) ------------------------------------ */

/* ORCA's edge orbits 0..11 by the vertex orbits of their ends (orca.cpp's
 * "edge-orbit 2 = (4,5)" comments), written out again here so that the
 * library's table is checked against them. */
static unsigned orca_edge_orbit(unsigned a, unsigned b) {
  static const unsigned ends[12][2] = {{1, 2}, {3, 3},  {4, 5},   {5, 5},   {6, 7},   {8, 8},
                                       {9, 11}, {10, 10}, {10, 11}, {12, 13}, {13, 13}, {14, 14}};
  for (unsigned e = 0; e < 12; e++)
    if ((ends[e][0] == a && ends[e][1] == b) || (ends[e][0] == b && ends[e][1] == a)) return e;
  cr_assert_fail("no edge orbit has ends in orbits %u and %u", a, b);
  return 0;
}

/* The rows of edge mode: e's edges as u < v in ascending order. */
static uint64_t sorted_edges(const edges *e, uint32_t *u, uint32_t *v) {
  uint64_t m = 0;
  for (uint32_t a = 0; a < e->n; a++)
    for (uint32_t b = a + 1; b < e->n; b++)
      if (has(e, a, b)) u[m] = a, v[m] = b, m++;
  return m;
}

static uint64_t edge_row_of(const uint32_t *u, const uint32_t *v, uint64_t m, uint32_t a, uint32_t b) {
  for (uint64_t i = 0; i < m; i++)
    if ((u[i] == a && v[i] == b) || (u[i] == b && v[i] == a)) return i;
  cr_assert_fail("no edge %u-%u", a, b);
  return 0;
}

/* Every connected subset of 3..size vertices credits each of its edges the
 * edge orbit its ends' vertex orbits name (this file's table up to 4
 * vertices; the library's for 5, which its closed forms below pin). */
static uint64_t *edge_brute_force(const edges *e, unsigned size, uint64_t *rows) {
  const wm_orbit_tables *t = wm_orbit_tables_get(NULL);
  static uint32_t u[4096], v[4096];
  const uint64_t m = sorted_edges(e, u, v);
  const unsigned orbits = warpmatch_edge_orbit_count(size);
  uint64_t *counts = calloc(m * orbits + 1, sizeof *counts);
  for (uint32_t set = 1; set < 1u << e->n; set++) {
    const unsigned k = (unsigned)__builtin_popcount(set);
    if (k < 3 || k > size) continue;
    uint32_t pos[5];
    const unsigned mask = subset_mask(e, set, pos);
    const uint8_t *orbit = t->orbit[k][mask];
    if (orbit[0] == WM_ORBIT_NONE) continue;
    for (unsigned b = 1; b < k; b++)
      for (unsigned a = 0; a < b; a++) {
        const unsigned bit = b * (b - 1) / 2 + a;
        if (!(mask >> bit & 1u)) continue;
        const unsigned eo = k <= 4 ? orca_edge_orbit(orbit[a], orbit[b]) : t->edge_orbit[5][mask][bit];
        counts[edge_row_of(u, v, m, pos[a], pos[b]) * orbits + eo]++;
      }
  }
  *rows = m;
  return counts;
}

/* Edge counts through the API (rows checked against warpmatch_graph_edge_ends). */
static uint64_t *edge_orbits_by(const edges *e, unsigned size, int method, int threads, uint64_t *rows) {
  warpmatch_context *ctx;
  warpmatch_graph *g;
  cr_assert_eq(warpmatch_context_create(&ctx), 0);
  cr_assert_eq(warpmatch_set_threads(ctx, threads), 0);
  cr_assert_eq(warpmatch_graph_from_edges(ctx, e->n, e->src, e->dst, e->m, 0, &g), 0, "%s", warpmatch_last_error(ctx));
  static uint32_t u[4096], v[4096], gu[4096], gv[4096];
  *rows = warpmatch_graph_edges(g);
  cr_assert_eq(sorted_edges(e, u, v), *rows);
  warpmatch_graph_edge_ends(g, gu, gv);
  for (uint64_t i = 0; i < *rows; i++) cr_assert(gu[i] == u[i] && gv[i] == v[i], "edge %llu", (unsigned long long)i);
  warpmatch_orbit_options o;
  warpmatch_orbit_options_init(&o);
  o.graphlet_size = size, o.edges = 1, o.method = method;
  uint64_t *counts = malloc((*rows * warpmatch_edge_orbit_count(size) + 1) * sizeof *counts);
  warpmatch_orbit_result r;
  r.size = sizeof r;
  cr_assert_eq(warpmatch_orbits(ctx, g, &o, counts, &r), 0, "%s", warpmatch_last_error(ctx));
  cr_assert_eq(r.orbits, warpmatch_edge_orbit_count(size));
  const int enumerated = method == WARPMATCH_METHOD_ENUMERATE;
  cr_assert_eq(r.method, enumerated ? WARPMATCH_METHOD_ENUMERATE : WARPMATCH_METHOD_FORMULA);
  cr_assert_eq(r.device, WARPMATCH_DEVICE_CPU);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
  return counts;
}

static uint64_t *edge_orbits_of(const edges *e, unsigned size, int threads, uint64_t *rows) {
  return edge_orbits_by(e, size, WARPMATCH_METHOD_AUTO, threads, rows);
}

/* Both methods (the formula: AUTO, up to 4 vertices), on one and two threads. */
static void edges_vs_brute_force(const edges *e, const char *what) {
  for (unsigned size = 3; size <= 5; size++)
    for (int threads = 1; threads <= 2; threads++)
      for (int method = WARPMATCH_METHOD_AUTO; method <= WARPMATCH_METHOD_ENUMERATE; method += 2) {
        uint64_t m, m2;
        uint64_t *b = edge_brute_force(e, size, &m), *x = edge_orbits_by(e, size, method, threads, &m2);
        const unsigned orbits = warpmatch_edge_orbit_count(size);
        for (uint64_t i = 0; i < m * orbits; i++)
          cr_assert_eq(x[i], b[i], "%s size %u method %d: edge row %llu orbit %u: %llu != %llu", what, size, method,
                       (unsigned long long)(i / orbits), (unsigned)(i % orbits), (unsigned long long)x[i],
                       (unsigned long long)b[i]);
        free(b);
        free(x);
      }
}

Test(edge_orbits, equal_a_brute_force_over_subsets) {
  edges e;
  for (uint64_t seed = 1; seed <= 5; seed++) {
    er(&e, 12, 0.1 + 0.17 * (double)seed, seed + 40);
    edges_vs_brute_force(&e, "G(12, p)");
  }
  e.n = 9, e.m = 0; /* a triangle with a tail, a 4-cycle, an isolated vertex, a diamond */
  add_edge(&e, 0, 1), add_edge(&e, 1, 2), add_edge(&e, 0, 2), add_edge(&e, 2, 3);
  add_edge(&e, 4, 5), add_edge(&e, 5, 6), add_edge(&e, 6, 7), add_edge(&e, 7, 4), add_edge(&e, 4, 6);
  edges_vs_brute_force(&e, "shapes");
  er(&e, 60, 0.04, 7); /* a hub joined to a sparse graph */
  for (uint32_t v = 1; v < e.n; v++)
    if (!has(&e, 0, v)) add_edge(&e, 0, v);
  for (int method = WARPMATCH_METHOD_FORMULA; method <= WARPMATCH_METHOD_ENUMERATE; method++) {
    uint64_t m;
    uint64_t *f = edge_orbits_by(&e, 4, WARPMATCH_METHOD_FORMULA, 2, &m), *x = edge_orbits_by(&e, 4, method, 1, &m);
    for (uint64_t i = 0; i < m * 12; i++) cr_assert_eq(f[i], x[i], "hub: row %llu", (unsigned long long)(i / 12));
    free(f), free(x);
  }
}

/* Closed forms: in K_k every edge is in k-2 triangles and C(k-2, 2)
 * 4-cliques; in a star of l leaves every edge ends l-1 3-paths (orbit 0)
 * and is in C(l-1, 2) 3-stars (orbit 4). */
/* Cliques' and stars' edges at sizes 4 and 5, which pin ORCA's numbers: an
 * edge of K_k lies in k - 2 triangles (edge orbit 1), C(k-2, 2) 4-cliques
 * (11) and C(k-2, 3) 5-cliques (67); an edge of a star of 9 leaves in 8
 * 3-paths (0), C(8, 2) 3-stars (4) and C(8, 3) 4-stars (17); a 5-path's
 * end and inner edges in one 5-path each (12 and 13). */
Test(edge_orbits, cliques_stars_and_paths_have_their_closed_forms) {
  edges e;
  uint64_t m, *x;
  for (unsigned size = 4; size <= 5; size++) {
    const unsigned orbits = warpmatch_edge_orbit_count(size);
    for (uint32_t k = size; k <= 7; k++) {
      clique(&e, k);
      x = edge_orbits_of(&e, size, 2, &m);
      cr_assert_eq(m, choose(k, 2));
      for (uint64_t i = 0; i < m * orbits; i++) {
        const unsigned o = (unsigned)(i % orbits);
        const uint64_t want = o == 1 ? k - 2 : o == 11 ? choose(k - 2, 2) : o == 67 ? choose(k - 2, 3) : 0;
        cr_assert_eq(x[i], want, "size %u K%u orbit %u", size, k, o);
      }
      free(x);
    }
    star(&e, 9);
    x = edge_orbits_of(&e, size, 1, &m);
    for (uint64_t i = 0; i < m * orbits; i++) {
      const unsigned o = (unsigned)(i % orbits);
      cr_assert_eq(x[i], o == 0 ? 8 : o == 4 ? choose(8, 2) : o == 17 ? choose(8, 3) : 0, "size %u star orbit %u",
                   size, o);
    }
    free(x);
  }
  path(&e, 5, 0); /* 0-1-2-3-4: rows 0-1, 1-2, 2-3, 3-4 */
  x = edge_orbits_of(&e, 5, 1, &m);
  cr_assert_eq(m, 4);
  for (uint64_t i = 0; i < m; i++) {
    const int end = i == 0 || i == 3;
    cr_assert_eq(x[i * 68 + 12], end ? 1 : 0, "row %llu", (unsigned long long)i);
    cr_assert_eq(x[i * 68 + 13], end ? 0 : 1, "row %llu", (unsigned long long)i);
  }
  free(x);
}

/* ---- the 5-vertex edge formula ---------------------------------------- */

/* The formula (two threads) against the enumerator (one), all 68 orbits of
 * every edge. */
static void edges5_vs_enumerator(const edges *e, const char *what) {
  uint64_t m, m2;
  uint64_t *f = edge_orbits_by(e, 5, WARPMATCH_METHOD_FORMULA, 2, &m);
  uint64_t *x = edge_orbits_by(e, 5, WARPMATCH_METHOD_ENUMERATE, 1, &m2);
  cr_assert_eq(m, m2);
  for (uint64_t i = 0; i < m * 68; i++)
    cr_assert_eq(f[i], x[i], "%s: edge row %llu orbit %u: formula %llu, enumerator %llu", what,
                 (unsigned long long)(i / 68), (unsigned)(i % 68), (unsigned long long)f[i],
                 (unsigned long long)x[i]);
  free(f), free(x);
}

Test(edge_orbits5, formula_equals_enumerator_on_random_graphs) {
  edges e;
  const double p[] = {0.06, 0.12, 0.25, 0.45};
  for (uint64_t seed = 1; seed <= 4; seed++) {
    er(&e, 36, p[seed - 1], seed + 70);
    edges5_vs_enumerator(&e, "G(36, p)");
  }
  er(&e, 18, 0.8, 9); /* dense: K5 and its near neighbours abound */
  edges5_vs_enumerator(&e, "G(18, 0.8)");
}

/* Stars, cliques K5..K8, a hub with many leaves beside a dense part, and
 * isolated vertices (vertices of no edge: ids past the edges' own). */
Test(edge_orbits5, formula_equals_enumerator_on_stars_cliques_and_hubs) {
  edges e;
  star(&e, 30);
  edges5_vs_enumerator(&e, "star of 30");
  for (uint32_t k = 5; k <= 8; k++) {
    clique(&e, k);
    edges5_vs_enumerator(&e, "clique");
  }
  er(&e, 16, 0.6, 3); /* the dense part: vertices 0..15; the hub 16; its leaves 17.. */
  e.n = 90;
  for (uint32_t v = 0; v < 16; v += 2) add_edge(&e, 16, v);
  for (uint32_t v = 17; v < 80; v++) add_edge(&e, 16, v);
  for (uint32_t v = 17; v < 30; v++) add_edge(&e, v, v + 1); /* a few leaves joined in a path */
  edges5_vs_enumerator(&e, "hub, leaves and a dense part"); /* 80..89 isolated */
}

static unsigned edges_in_orbit(const wm_orbit_tables *t, unsigned gid, unsigned o) {
  const unsigned mask = t->graphlet_mask[gid];
  unsigned c = 0;
  for (unsigned bit = 0; bit < 10; bit++) c += (mask >> bit & 1u) && t->edge_orbit[5][mask][bit] == o;
  return c;
}

/* Summed over the edges, orbit o's counts are the induced count of its
 * graphlet (the motif totals) times the graphlet's edges in orbit o; the
 * random graphs meet every one of the 68 orbits; columns 0..11 are the
 * size-4 rows. */
Test(edge_orbits5, sums_are_the_motif_totals_times_the_orbits_edges) {
  const wm_orbit_tables *t = wm_orbit_tables_get(NULL);
  cr_assert_not_null(t);
  edges e;
  uint64_t met[68] = {0};
  for (uint64_t seed = 1; seed <= 3; seed++) {
    er(&e, 40, 0.12 * (double)seed, seed + 90);
    uint64_t m, m4;
    uint64_t *x = edge_orbits_by(&e, 5, WARPMATCH_METHOD_FORMULA, 2, &m);
    uint64_t *four = edge_orbits_by(&e, 4, WARPMATCH_METHOD_FORMULA, 1, &m4);
    for (uint64_t i = 0; i < m; i++)
      for (unsigned o = 0; o < 12; o++) cr_assert_eq(x[i * 68 + o], four[i * 12 + o], "row %llu orbit %u", (unsigned long long)i, o);
    warpmatch_context *ctx;
    warpmatch_graph *g;
    cr_assert_eq(warpmatch_context_create(&ctx), 0);
    cr_assert_eq(warpmatch_graph_from_edges(ctx, e.n, e.src, e.dst, e.m, 0, &g), 0);
    warpmatch_count_options co;
    warpmatch_count_options_init(&co);
    co.device = WARPMATCH_DEVICE_CPU;
    warpmatch_motif rows[21];
    const unsigned n = warpmatch_motif_classes(5);
    cr_assert_eq(warpmatch_motifs(ctx, g, 5, &co, rows), 0, "%s", warpmatch_last_error(ctx));
    for (unsigned gid = 9; gid < 30; gid++) {
      const uint64_t total = motif_count_of(rows, n, gid);
      for (unsigned o = 12; o < 68; o++) {
        const unsigned k = edges_in_orbit(t, gid, o);
        if (!k) continue;
        uint64_t sum = 0;
        for (uint64_t i = 0; i < m; i++) sum += x[i * 68 + o];
        cr_assert_eq(sum, total * k, "seed %llu: edge orbit %u of G%u", (unsigned long long)seed, o, gid);
      }
    }
    for (uint64_t i = 0; i < m * 68; i++) met[i % 68] += x[i];
    warpmatch_graph_destroy(g);
    warpmatch_context_destroy(ctx);
    free(x), free(four);
  }
  for (unsigned o = 0; o < 68; o++) cr_assert(met[o] > 0, "edge orbit %u is met by none of the graphs", o);
}

/* With the high words, the start that made `orbit` pass 2^64 - 1 makes it
 * exactly 2^64 in every row (high 1, low 0), and no other count carries. */
static void assert_edge_rows_carry(const edges *e, unsigned size, int method, const char *start, unsigned orbit,
                                   uint64_t *counts) {
  const unsigned orbits = warpmatch_edge_orbit_count(size);
  const size_t cells = (size_t)e->m * orbits;
  uint64_t *high = malloc(cells * sizeof *high);
  char msg[1024];
  cr_assert_eq(run_with_start(e, size, method, 1, start, counts, high, msg, sizeof msg), 0, "%s", msg);
  for (size_t i = 0; i < cells; i++) {
    cr_assert_eq(high[i], i % orbits == orbit, "size %u method %d: cell %zu's high word", size, method, i);
    if (i % orbits == orbit) cr_assert_eq(counts[i], 0);
  }
  free(high);
}

/* K8: each edge is in C(6, 3) = 20 5-cliques (orbit 67), 15 4-cliques (11). */
Test(edge_orbits5, overflow_names_the_edge_and_the_orbit) {
  edges e;
  clique(&e, 8);
  uint64_t counts[28 * 68];
  char start[32], msg[1024];
  for (int past = 0; past <= 1; past++) {
    snprintf(start, sizeof start, "%llu", (unsigned long long)(UINT64_MAX - 20 + (uint64_t)past));
    const int rc = run_with_start(&e, 5, WARPMATCH_METHOD_FORMULA, 1, start, counts, NULL, msg, sizeof msg);
    if (!past) {
      cr_assert_eq(rc, 0, "%s", msg);
      cr_assert(counts[67] == UINT64_MAX && counts[11] == UINT64_MAX - 5 && counts[66] == UINT64_MAX - 20);
    } else {
      cr_assert_eq(rc, WARPMATCH_EINPUT);
      cr_assert(strstr(msg, "edge ") && strstr(msg, "edge orbit 67 ") && strstr(msg, "2^64"), "%s", msg);
    }
  }
  assert_edge_rows_carry(&e, 5, WARPMATCH_METHOD_FORMULA, start, 67, counts);
}

Test(edge_orbits, overflow_names_the_edge_and_the_orbit) {
  edges e;
  clique(&e, 6); /* each edge: C(4, 2) = 6 4-cliques (orbit 11), 4 triangles */
  uint64_t counts[15 * 12];
  char start[32], msg[1024];
  for (int i = 0; i < 4; i++) {
    const int past = i & 1, method = i < 2 ? WARPMATCH_METHOD_FORMULA : WARPMATCH_METHOD_ENUMERATE;
    snprintf(start, sizeof start, "%llu", (unsigned long long)(UINT64_MAX - 6 + (uint64_t)past));
    const int rc = run_with_start(&e, 4, method, 1, start, counts, NULL, msg, sizeof msg);
    if (!past) {
      cr_assert_eq(rc, 0, "%s", msg);
      cr_assert_eq(counts[11], UINT64_MAX);
      cr_assert_eq(counts[1], UINT64_MAX - 2);
    } else {
      cr_assert_eq(rc, WARPMATCH_EINPUT);
      cr_assert(strstr(msg, "edge ") && strstr(msg, "edge orbit 11 ") && strstr(msg, "2^64"), "%s", msg);
      assert_edge_rows_carry(&e, 4, method, start, 11, counts);
    }
  }
}

Test(edge_orbits, the_api_refuses_what_it_cannot_do) {
  cr_assert_eq(warpmatch_edge_orbit_count(2), 0);
  cr_assert_eq(warpmatch_edge_orbit_count(3), 2);
  cr_assert_eq(warpmatch_edge_orbit_count(4), 12);
  cr_assert_eq(warpmatch_edge_orbit_count(5), 68);
  cr_assert_eq(warpmatch_edge_orbit_count(6), 0);
  warpmatch_context *ctx;
  warpmatch_graph *g;
  const uint32_t src[] = {0, 1}, dst[] = {1, 2};
  cr_assert_eq(warpmatch_context_create(&ctx), 0);
  cr_assert_eq(warpmatch_graph_from_edges(ctx, 3, src, dst, 2, 0, &g), 0);
  uint64_t counts[2 * 12];
  warpmatch_orbit_options o;
  warpmatch_orbit_options_init(&o);
  o.edges = 1, o.graphlet_size = 2;
  cr_assert_eq(warpmatch_orbits(ctx, g, &o, counts, NULL), WARPMATCH_EUSAGE);
  cr_assert(strstr(warpmatch_last_error(ctx), "edge orbits"), "%s", warpmatch_last_error(ctx));
  o.graphlet_size = 6, o.method = WARPMATCH_METHOD_FORMULA;
  cr_assert_eq(warpmatch_orbits(ctx, g, &o, counts, NULL), WARPMATCH_EUSAGE);
  warpmatch_orbit_options_init(&o);
  o.edges = 1, o.graphlet_size = 3, o.device = WARPMATCH_DEVICE_GPU; /* the edge formula runs on the CPU */
  warpmatch_orbit_result r;
  r.size = sizeof r;
  cr_assert_eq(warpmatch_orbits(ctx, g, &o, counts, &r), warpmatch_gpu_available(ctx) ? 0 : WARPMATCH_EDEVICE);
  o.device = WARPMATCH_DEVICE_AUTO;
  cr_assert_eq(warpmatch_orbits(ctx, g, &o, counts, &r), 0, "%s", warpmatch_last_error(ctx));
  cr_assert(r.device == WARPMATCH_DEVICE_CPU && r.method == WARPMATCH_METHOD_FORMULA && r.orbits == 2);
  cr_assert(counts[0] == 1 && counts[1] == 0 && counts[2] == 1 && counts[3] == 0, "the path 0-1-2: orbit 0 each");
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

Test(edge_orbits_cli, orca_csv_and_npy_rows_are_the_edges_in_id_order) {
  wm_test_files f;
  /* the input's order is not the output's: rows by (u, v), u < v, by file id */
  wm_test_graph_file(&f, "40 30\n20 10\n30 20\n10 30\n");
  char *out = NULL, *err = NULL, dest[600];
  int rc = wm_test_run(&out, &err, "orbits %s --size 4 --edges --no-cache", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  /* 10-20, 10-30, 20-30 (triangle edges: 1 triangle; 10-30 and 20-30 hold the paw's triangle edge at the tail's
   * vertex, 10-20 the one away from it), 30-40 (the tail: two 3-paths, the paw's tail) */
  cr_assert_str_eq(out, "0 1 0 0 0 0 0 1 0 0 0 0\n"
                        "1 1 0 0 0 0 0 0 1 0 0 0\n"
                        "1 1 0 0 0 0 0 0 1 0 0 0\n"
                        "2 0 0 0 0 0 1 0 0 0 0 0\n");
  free(out), free(err);
  snprintf(dest, sizeof dest, "%s/e.csv", f.dir);
  rc = wm_test_run(&out, &err, "orbits %s --size 3 --edges --format csv --output %s --no-cache", f.graph, dest);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert_str_eq(read_file(dest), "u,v,e0,e1\n10,20,0,1\n10,30,1,1\n20,30,1,1\n30,40,2,0\n");
  free(out), free(err);
  snprintf(dest, sizeof dest, "%s/e.npy", f.dir);
  rc = wm_test_run(&out, &err, "orbits %s --size 4 --edges --format npy --output %s --no-cache", f.graph, dest);
  cr_assert_eq(rc, 0, "%s", err);
  size_t bytes = 0;
  const unsigned char *file = read_binary(dest, &bytes);
  const unsigned char *data = parse_npy(file, bytes, 4, 12);
  cr_assert(le64(data + 8 * (3 * 12 + 0)) == 2 && le64(data + 8 * (3 * 12 + 6)) == 1, "the tail's row");
  free(out), free(err);
  rc = wm_test_run(&out, &err, "orbits %s --size 4 --edges --json --no-cache", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(json_valid_object(out), "%s", out);
  cr_assert_eq(json_u64(out, "orbits"), 12);
  cr_assert(strstr(out, "\"rows\":\"edges\"") || strstr(out, "\"rows\": \"edges\""), "%s", out);
  cr_assert(strstr(out, "\"totals\":[4,3,0,0,0,0,1,1,2,0,0,0]"), "%s", out);
  free(out), free(err);
  const char *bad[][2] = {
      {"--size 2 --edges", "--size 3, 4 or 5"},
  };
  for (unsigned i = 0; i < sizeof bad / sizeof *bad; i++) {
    rc = wm_test_run(&out, &err, "orbits %s %s --no-cache", f.graph, bad[i][0]);
    cr_assert_eq(rc, 2, "%s: exit %d", bad[i][0], rc);
    cr_assert(strstr(err, bad[i][1]), "%s: %s", bad[i][0], err);
    free(out), free(err);
  }
  wm_test_rmdir(f.dir);
}

/* The CLI's rows against the API's on a random graph (ids 0..n-1). */
Test(edge_orbits_cli, output_parses_back_equal_to_the_api) {
  edges e;
  er(&e, 30, 0.3, 6);
  char text[65536];
  size_t len = 0;
  for (uint64_t i = 0; i < e.m; i++) len += (size_t)snprintf(text + len, sizeof text - len, "%u %u\n", e.dst[i], e.src[i]);
  wm_test_files f;
  wm_test_graph_file(&f, text);
  char *out = NULL, *err = NULL;
  int rc = wm_test_run(&out, &err, "orbits %s --size 4 --edges --no-cache --threads 2", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  uint64_t m;
  uint64_t *x = edge_orbits_of(&e, 4, 1, &m);
  uint64_t *back = malloc(m * 12 * sizeof *back);
  parse_orca(out, (uint32_t)m, 12, back);
  for (uint64_t i = 0; i < m * 12; i++) cr_assert_eq(back[i], x[i], "row %llu", (unsigned long long)(i / 12));
  free(back), free(x), free(out), free(err);
  wm_test_rmdir(f.dir);
}
