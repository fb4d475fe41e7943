/* The 5-cycles through each vertex by the oriented walk (orbit_cycles5.c):
 * equal to a brute force (every 5-vertex subset, every 5-cycle on it) for
 * every vertex of random graphs sparse to dense, a hub graph, a 5-cycle, a
 * tree and graphs without edges, on 1, 2 and 3 threads; the closed form
 * 12 C(n - 1, 4) on K5..K7; on larger heavy-tailed graphs, equal to the
 * 2-hop tally of orbit_noninduced5.c per vertex and to five times the
 * motif code's 5-cycle total; a count past 2^64 - 1 is an error naming the
 * first such vertex, 2^64 - 1 itself is not.  And the graph by degree
 * order that the walk (and the 4-vertex aggregates) read: rows sorted by
 * rank, labels of one to three bytes, on 1 and 3 threads. */
#include <criterion/criterion.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "motif_sums.h"
#include "orbit_cycles5.h"
#include "orbit_noninduced5.h"
#include "orbit_ranked.h"
#include "testutil.h"

/* ---- the graphs ---------------------------------------------------------- */

static wm_graph *of_edges(uint32_t n, const uint32_t (*e)[2], uint64_t cnt) {
  uint32_t *src = malloc((cnt + 1) * sizeof *src), *dst = malloc((cnt + 1) * sizeof *dst);
  for (uint64_t i = 0; i < cnt; i++) src[i] = e[i][0], dst[i] = e[i][1];
  return wm_test_graph_of_arcs(n, src, dst, cnt);
}

static wm_graph *complete(uint32_t n) {
  uint32_t(*e)[2] = malloc(((size_t)n * n / 2 + 1) * sizeof *e);
  uint64_t cnt = 0;
  for (uint32_t a = 0; a < n; a++)
    for (uint32_t b = a + 1; b < n; b++) e[cnt][0] = a, e[cnt++][1] = b;
  wm_graph *g = of_edges(n, (const uint32_t(*)[2])e, cnt);
  free(e);
  return g;
}

/* Sparse to dense G(n, p), n 10..25, then the hub graph, a 5-cycle, a tree,
 * 7 vertices without an edge and none at all. */
#define GRAPHS 15
static wm_graph *graph(unsigned i, char *what, size_t size) {
  static const struct {
    uint32_t n;
    double p;
  } gnp[] = {{10, 0.5}, {12, 0.7}, {14, 0.35}, {18, 0.25}, {20, 0.3}, {22, 0.18}, {25, 0.15}, {13, 0.8},
             {16, 0.95}, {24, 0.4}};
  static const uint32_t c5[][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}};
  static const uint32_t tree[][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 4}, {1, 5}, {2, 6}, {6, 7}, {6, 8}, {8, 9}};
  const unsigned ng = sizeof gnp / sizeof *gnp;
  if (i < ng) {
    snprintf(what, size, "G(%u, %.2f)", gnp[i].n, gnp[i].p);
    return wm_test_er(gnp[i].n, gnp[i].p, 4000 + i);
  }
  switch (i - ng) {
  case 0: snprintf(what, size, "hub: vertex 0 joined to ~90%% of 24, the rest G(23, 0.3)"); return wm_test_hub_graph(24, 0.9, 0.3, 91);
  case 1: snprintf(what, size, "a 5-cycle"); return of_edges(5, c5, 5);
  case 2: snprintf(what, size, "a tree of 10 vertices"); return of_edges(10, tree, 9);
  case 3: snprintf(what, size, "7 vertices, no edge"); return wm_test_er(7, 0.0, 1);
  default: snprintf(what, size, "no vertex"); return wm_test_er(0, 0.0, 1);
  }
}

/* ---- brute force ----------------------------------------------------------- */

/* The 5-cycles on v[0..4]: the 12 orders 0, p1, p2, p3, p4 with p1 < p4
 * (each cycle once, whatever its direction) whose 5 edges are all there. */
static unsigned cycles_on(const wm_graph *g, const uint32_t *v) {
  static const unsigned perm[24][4] = {
      {1, 2, 3, 4}, {1, 2, 4, 3}, {1, 3, 2, 4}, {1, 3, 4, 2}, {1, 4, 2, 3}, {1, 4, 3, 2},
      {2, 1, 3, 4}, {2, 1, 4, 3}, {2, 3, 1, 4}, {2, 3, 4, 1}, {2, 4, 1, 3}, {2, 4, 3, 1},
      {3, 1, 2, 4}, {3, 1, 4, 2}, {3, 2, 1, 4}, {3, 2, 4, 1}, {3, 4, 1, 2}, {3, 4, 2, 1},
      {4, 1, 2, 3}, {4, 1, 3, 2}, {4, 2, 1, 3}, {4, 2, 3, 1}, {4, 3, 1, 2}, {4, 3, 2, 1}};
  unsigned found = 0;
  for (unsigned k = 0; k < 24; k++) {
    const unsigned *p = perm[k];
    if (p[0] > p[3]) continue;
    const uint32_t c[5] = {v[0], v[p[0]], v[p[1]], v[p[2]], v[p[3]]};
    unsigned ok = 1;
    for (unsigned s = 0; s < 5 && ok; s++) ok = (unsigned)wm_graph_has_arc(g, c[s], c[(s + 1) % 5]);
    found += ok;
  }
  return found;
}

typedef struct brute {
  const wm_graph *g;
  uint64_t *c5;
} brute;

static void subset_cycles(const uint32_t *v, void *ctx) {
  brute *b = ctx;
  const unsigned c = cycles_on(b->g, v);
  for (unsigned p = 0; p < 5; p++) b->c5[v[p]] += c;
}

static uint64_t *brute_cycles5(const wm_graph *g) {
  brute b = {g, calloc((size_t)g->n + 1, sizeof *b.c5)};
  wm_test_each_5_subset(g, subset_cycles, &b);
  return b.c5;
}

static uint64_t *walked(const wm_graph *g) {
  uint64_t *c5 = malloc(((size_t)g->n + 1) * sizeof *c5);
  wm_error err;
  cr_assert_eq(wm_orbit_cycles5(g, c5, &err), WM_OK, "%s", err.msg);
  return c5;
}

/* ---- the counts -------------------------------------------------------------- */

Test(orbit_cycles5, equal_the_brute_force_on_1_2_and_3_threads) {
  static const int threads[] = {1, 2, 3};
  const int before = omp_get_max_threads();
  uint64_t nonzero = 0, hub_cycles = 0;
  for (unsigned i = 0; i < GRAPHS; i++) {
    char what[96];
    wm_graph *g = graph(i, what, sizeof what);
    uint64_t *want = brute_cycles5(g);
    for (uint32_t x = 0; x < g->n; x++) nonzero += want[x] != 0;
    if (strncmp(what, "hub", 3) == 0) hub_cycles = want[0];
    if (strcmp(what, "a 5-cycle") == 0)
      for (uint32_t x = 0; x < 5; x++) cr_assert_eq(want[x], 1, "the brute force on a 5-cycle, vertex %u", x);
    for (unsigned t = 0; t < sizeof threads / sizeof *threads; t++) {
      omp_set_num_threads(threads[t]);
      uint64_t *got = walked(g);
      for (uint32_t x = 0; x < g->n; x++)
        cr_assert_eq(got[x], want[x], "%s, %d threads: vertex %u: %llu != %llu", what, threads[t], x,
                     (unsigned long long)got[x], (unsigned long long)want[x]);
      free(got);
    }
    free(want);
    wm_graph_destroy(g);
  }
  omp_set_num_threads(before);
  cr_assert_gt(nonzero, 150, "vertices on a 5-cycle: %llu", (unsigned long long)nonzero);
  cr_assert_gt(hub_cycles, 1000, "the hub's 5-cycles: %llu", (unsigned long long)hub_cycles);
}

/* A vertex of K_n lies on 12 C(n - 1, 4) 5-cycles: C(n - 1, 4) sets of 4
 * others, 4! / 2 cycles through each. */
Test(orbit_cycles5, a_vertex_of_k5_k6_k7_lies_on_12_choose_n_minus_1_4) {
  for (uint32_t n = 5; n <= 7; n++) {
    wm_graph *g = complete(n);
    uint64_t *got = walked(g);
    const uint64_t want = 12 * (uint64_t)wm_choose(n - 1, 4);
    for (uint32_t x = 0; x < n; x++) cr_assert_eq(got[x], want, "K%u vertex %u: %llu", n, x, (unsigned long long)got[x]);
    free(got);
    wm_graph_destroy(g);
  }
}

/* Hubs over 300 and 3000 vertices: per vertex the 2-hop tally of
 * orbit_noninduced5.c (orbit 34, non-induced), and in all five times the
 * motif code's 5-cycles (each cycle has five vertices). */
Test(orbit_cycles5, equal_the_two_hop_tally_and_the_motif_total_on_heavy_tailed_graphs) {
  wm_graph *g = wm_test_powerlaw(300, 12, 3, 0.5, 17);
  uint64_t *got = walked(g);
  wm_i128 *N = malloc((size_t)g->n * ORBITS5 * sizeof *N);
  wm_error err;
  cr_assert_eq(wm_o5n_counts(g, N, &err), WM_OK, "%s", err.msg);
  for (uint32_t x = 0; x < g->n; x++)
    cr_assert(N[(size_t)x * ORBITS5 + 34 - FIRST5] == (wm_i128)got[x], "vertex %u: %llu", x,
              (unsigned long long)got[x]);
  free(N);
  free(got);
  wm_graph_destroy(g);

  g = wm_test_powerlaw(3000, 40, 6, 0.3, 5);
  got = walked(g);
  wm_motif_sums sums;
  cr_assert_eq(wm_motif_sums_cpu(g, 5, 2, 0, &sums, &err), WM_OK, "%s", err.msg);
  wm_i128 all = 0;
  for (uint32_t x = 0; x < g->n; x++) all += got[x];
  cr_assert(sums.s[WM_SUM_C5] > 1000000, "5-cycles in all: %lld", (long long)sums.s[WM_SUM_C5]);
  cr_assert(all == 5 * sums.s[WM_SUM_C5], "%lld != 5 x %lld", (long long)all, (long long)sums.s[WM_SUM_C5]);
  free(got);
  wm_graph_destroy(g);
}

/* ---- errors ------------------------------------------------------------------ */

/* A 5-cycle on vertices 3..7, 0..2 apart: from 2^64 - 1 the cycle's
 * vertices pass it (the first named), the others stay; K5's 12 from
 * 2^64 - 13 reach 2^64 - 1 exactly, from 2^64 - 12 they pass it.  (From 0,
 * as in the tests above, a vertex with a triangle goes below 0 and back:
 * the triangles' terms are taken off before the walk adds.) */
Test(orbit_cycles5, a_count_past_2_to_the_64_names_the_vertex) {
  static const uint32_t c5[][2] = {{3, 4}, {4, 5}, {5, 6}, {6, 7}, {7, 3}, {0, 1}};
  wm_graph *g = of_edges(8, c5, 6), *k5 = complete(5);
  uint64_t got[8];
  wm_error err;
  cr_assert_eq(wm_orbit_cycles5_from(g, UINT64_MAX, got, &err), WM_EINPUT);
  cr_assert(strstr(err.msg, "vertex 3 ") && strstr(err.msg, "2^64 - 1"), "%s", err.msg);
  cr_assert_eq(wm_orbit_cycles5_from(g, UINT64_MAX - 1, got, &err), WM_OK, "%s", err.msg);
  for (uint32_t x = 0; x < 8; x++) cr_assert_eq(got[x], x < 3 ? UINT64_MAX - 1 : UINT64_MAX, "vertex %u", x);
  cr_assert_eq(wm_orbit_cycles5_from(k5, UINT64_MAX - 12, got, &err), WM_OK, "%s", err.msg);
  for (uint32_t x = 0; x < 5; x++) cr_assert_eq(got[x], UINT64_MAX, "K5 vertex %u", x);
  cr_assert_eq(wm_orbit_cycles5_from(k5, UINT64_MAX - 11, got, &err), WM_EINPUT);
  cr_assert(strstr(err.msg, "vertex 0 "), "%s", err.msg);
  wm_graph_destroy(g);
  wm_graph_destroy(k5);
}

Test(orbit_cycles5, a_directed_graph_is_refused) {
  wm_graph *g = wm_test_ring(8, 2, 1);
  uint64_t got[8];
  wm_error err;
  cr_assert_eq(wm_orbit_cycles5(g, got, &err), WM_EUSAGE);
  cr_assert(strstr(err.msg, "undirected"), "%s", err.msg);
  wm_graph_destroy(g);
}

/* ---- the graph by degree order (orbit_ranked.c) --------------------------- */

/* Every row ascending by rank and holding exactly the ranks of g's row,
 * from the arcs' places in g's rows, up where the ranks above begin, and
 * the ranks a permutation ascending by degree. */
static void assert_ranked(const wm_graph *g, const char *what) {
  wm_orbit_ranked r;
  cr_assert_eq(wm_orbit_ranked_init(g, 1, &r), 0, "%s: ranked", what);
  uint32_t *rank = malloc((g->n ? g->n : 1) * sizeof *rank);
  for (uint32_t s = 0; s < g->n; s++) rank[r.old[s]] = s;
  for (uint32_t s = 0; s < g->n; s++) {
    const uint32_t v = r.old[s];
    const uint64_t d = g->offsets[v + 1] - g->offsets[v];
    if (s) cr_assert_geq(d, g->offsets[r.old[s - 1] + 1] - g->offsets[r.old[s - 1]], "%s: rank %u by degree", what, s);
    cr_assert_eq(r.offsets[s + 1] - r.offsets[s], d, "%s: row %u's length", what, s);
    for (uint64_t e = r.offsets[s]; e < r.offsets[s + 1]; e++) {
      if (e > r.offsets[s]) cr_assert_lt(r.adj[e - 1], r.adj[e], "%s: row %u ascending at %llu", what, s, (unsigned long long)e);
      cr_assert_eq(g->adj[g->offsets[v] + r.from[e]], r.old[r.adj[e]], "%s: row %u's from at %llu", what, s,
                   (unsigned long long)e);
      cr_assert_eq(r.adj[e] > s, e >= r.up[s], "%s: row %u's up", what, s);
    }
  }
  free(rank);
  wm_orbit_ranked_free(&r);
}

Test(orbit_ranked, rows_sorted_by_rank_with_their_places_in_g_on_one_to_three_label_bytes) {
  wm_graph *small = wm_test_hub_graph(200, 0.9, 0.2, 5);       /* one byte, the hub's row past 32 */
  wm_graph *mid = wm_test_powerlaw(3000, 20, 3, 0.5, 6);        /* two */
  wm_graph *large = wm_test_powerlaw(70000, 6, 4, 0.05, 7);     /* three (n > 2^16) */
  for (int threads = 1; threads <= 3; threads += 2) {
    omp_set_num_threads(threads);
    assert_ranked(small, "hub graph of 200");
    assert_ranked(mid, "power law of 3,000");
    assert_ranked(large, "power law of 70,000");
  }
  wm_graph *none = wm_test_er(7, 0.0, 1);
  assert_ranked(none, "7 vertices, no edge");
  wm_graph_destroy(small), wm_graph_destroy(mid), wm_graph_destroy(large), wm_graph_destroy(none);
}
