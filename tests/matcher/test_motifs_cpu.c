/* Motif tables against brute force: every k-subset of a small random graph
 * whose induced subgraph is connected is classified by trying every vertex
 * bijection onto each motif; the tallies must equal wm_motifs' by both
 * methods (formula and enumerate), and their sum the number of connected
 * k-subsets.  Larger graphs with a hub compare the two methods; stars and
 * cliques have closed forms; the spanning matrix is checked against the
 * matcher on the patterns themselves; counts past 2^64 come out exact,
 * the enumerated classes' too (under the test hook WM_TEST_COUNT_START). */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "matcher.h"
#include "motif_sums.h"
#include "testutil.h"

typedef struct small {
  unsigned n;
  uint64_t adj[64];
} small;

static void to_small(const wm_graph *g, small *s) {
  cr_assert(g->n <= 64);
  memset(s, 0, sizeof *s);
  s->n = g->n;
  for (uint32_t v = 0; v < g->n; v++)
    for (uint64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++) s->adj[v] |= 1ull << g->adj[e];
}

/* Induced subgraph of the picked vertices as row bitmasks over 0..k-1. */
static void induced_rows(const small *s, const unsigned *pick, unsigned k, unsigned *row) {
  for (unsigned i = 0; i < k; i++) {
    row[i] = 0;
    for (unsigned j = 0; j < k; j++)
      if ((s->adj[pick[i]] >> pick[j]) & 1u) row[i] |= 1u << j;
  }
}

static int connected(const unsigned *row, unsigned k) {
  unsigned seen = 1, frontier = 1;
  while (frontier) {
    unsigned next = 0;
    for (unsigned i = 0; i < k; i++)
      if ((frontier >> i) & 1u) next |= row[i];
    frontier = next & ~seen;
    seen |= next;
  }
  return seen == (1u << k) - 1;
}

/* Is there a bijection pi with edge(a,b) in p <=> row[pi a] has pi b? */
static int iso_rec(const wm_pattern *p, const unsigned *row, unsigned a, unsigned *pi, unsigned used) {
  if (a == p->k) return 1;
  for (unsigned x = 0; x < p->k; x++) {
    if ((used >> x) & 1u) continue;
    int ok = 1;
    for (unsigned b = 0; b < a && ok; b++)
      ok = wm_pattern_has_edge(p, a, b) == (int)((row[x] >> pi[b]) & 1u);
    if (!ok) continue;
    pi[a] = x;
    if (iso_rec(p, row, a + 1, pi, used | (1u << x))) return 1;
  }
  return 0;
}

static void brute_force(const small *s, unsigned k, const wm_pattern *pats, unsigned np, uint64_t *tally,
                        uint64_t *connected_subsets) {
  unsigned pick[8], row[8], pi[8];
  for (unsigned j = 0; j < k; j++) pick[j] = j;
  memset(tally, 0, np * sizeof *tally);
  *connected_subsets = 0;
  for (;;) {
    induced_rows(s, pick, k, row);
    if (connected(row, k)) {
      ++*connected_subsets;
      unsigned hits = 0, degsum = 0;
      for (unsigned i = 0; i < k; i++) degsum += (unsigned)__builtin_popcount(row[i]);
      for (unsigned i = 0; i < np; i++)
        if (wm_pattern_edges(&pats[i]) * 2 == degsum && iso_rec(&pats[i], row, 0, pi, 0)) tally[i]++, hits++;
      cr_assert_eq(hits, 1, "a connected subset matches %u motifs", hits);
    }
    int j = (int)k - 1;
    while (j >= 0 && pick[j] == s->n - k + (unsigned)j) j--;
    if (j < 0) break;
    pick[j]++;
    for (unsigned x = (unsigned)j + 1; x < k; x++) pick[x] = pick[x - 1] + 1;
  }
}


static void run_motifs_k4(const wm_graph *g, unsigned k, int method, uint64_t k4_arcs, int threads, wm_u128 *got,
                          int *how, wm_match_result *sum) {
  wm_match_options mo;
  wm_match_options_init(&mo);
  mo.threads = threads;
  mo.motif_method = method;
  mo.motif_k4_arcs = k4_arcs;
  mo.cpu_hub_degree = 8; /* the enumerations split their hubs too */
  wm_error err;
  cr_assert_eq(wm_motifs(g, k, 0, &mo, got, how, sum, &err), WM_OK, "%s", err.msg);
}

static void run_motifs(const wm_graph *g, unsigned k, int method, int threads, wm_u128 *got, int *how,
                       wm_match_result *sum) {
  run_motifs_k4(g, k, method, 0, threads, got, how, sum);
}

static void check(unsigned k, unsigned ngraphs, unsigned nmin, unsigned nmax) {
  wm_pattern *pats;
  unsigned np;
  wm_error err;
  cr_assert_eq(wm_connected_patterns(k, &pats, &np, &err), WM_OK, "%s", err.msg);
  cr_assert_eq(np, k == 3 ? 2u : k == 4 ? 6u : 21u);
  uint64_t *want = calloc(np, sizeof *want);
  wm_u128 *got = calloc(np, sizeof *got);
  int *how = calloc(np, sizeof *how);
  for (unsigned gi = 0; gi < ngraphs; gi++) {
    uint32_t n = nmin + gi * (nmax - nmin) / (ngraphs - 1);
    wm_graph *g = gi % 2 ? wm_test_powerlaw(n, 6.0, 2, 0.6, 300 + gi) : wm_test_er(n, 0.2 + 0.04 * gi, 300 + gi);
    small s;
    to_small(g, &s);
    uint64_t conn;
    brute_force(&s, k, pats, np, want, &conn);
    /* the formula with size 4's 4-cliques counted in the sums (every test
     * graph is below WM_MOTIF_K4_ARCS), the formula with them left to a
     * plan, the enumeration */
    for (int v = 0; v < 3; v++) {
      const int method = v < 2 ? WM_MOTIF_FORMULA : WM_MOTIF_ENUMERATE;
      wm_match_result sum;
      run_motifs_k4(g, k, method, v == 1 ? 1 : 0, 1 + (int)(gi % 2), got, how, &sum);
      if (k == 4 && v < 2)
        cr_assert(strstr(sum.launch, v == 0 ? "4-clique (per edge" : "left to a plan"), "%s", sum.launch);
      uint64_t total = 0;
      for (unsigned i = 0; i < np; i++) {
        cr_assert(got[i] == want[i], "k=%u n=%u %s motif %s: %llu, brute force %llu", k, n,
                  v == 0 ? "formula" : v == 1 ? "formula, 4-cliques by a plan" : "enumerate", pats[i].name,
                  (unsigned long long)got[i], (unsigned long long)want[i]);
        total += (uint64_t)got[i];
      }
      cr_assert_eq(total, conn, "k=%u: motifs sum to %lu, connected subsets %lu", k, (unsigned long)total,
                   (unsigned long)conn);
      cr_assert_eq(sum.count, total);
      cr_assert(strstr(sum.launch, method == WM_MOTIF_FORMULA ? "formula" : "enumerate"), "%s", sum.launch);
    }
    wm_graph_destroy(g);
  }
  free(got);
  free(want);
  free(how);
  free(pats);
}

Test(motifs_cpu, size3) { check(3, 10, 10, 60); }
Test(motifs_cpu, size4) { check(4, 10, 10, 40); }
Test(motifs_cpu, size5) { check(5, 8, 10, 22); }

/* What the method says: every 5-vertex class by formula (the 3- and
 * 4-vertex cliques, which the clique kernels count, enumerated), every
 * class enumerated vertex-induced by the enumerate method. */
Test(motifs_cpu, how_each_class_is_counted) {
  wm_graph *g = wm_test_er(12, 0.4, 5);
  wm_u128 got[21];
  int how[21];
  wm_pattern *pats;
  unsigned np, formulas = 0;
  wm_error err;
  cr_assert_eq(wm_connected_patterns(5, &pats, &np, &err), WM_OK);
  run_motifs(g, 5, WM_MOTIF_AUTO, 1, got, how, NULL);
  for (unsigned i = 0; i < np; i++) {
    const char *h = wm_motif_how_name(how[i]);
    if (strcmp(pats[i].name, "5-star") == 0 || strcmp(pats[i].name, "5-path") == 0) cr_assert_str_eq(h, "formula");
    formulas += strcmp(h, "formula") == 0;
  }
  cr_assert_eq(formulas, 21u);
  run_motifs(g, 4, WM_MOTIF_AUTO, 1, got, how, NULL);
  cr_assert_str_eq(wm_motif_how_name(how[5]), "enumerated", "the 4-clique");
  cr_assert_str_eq(wm_motif_how_name(how[4]), "formula", "the diamond");
  run_motifs(g, 5, WM_MOTIF_ENUMERATE, 1, got, how, NULL);
  for (unsigned i = 0; i < np; i++) cr_assert_str_eq(wm_motif_how_name(how[i]), "enumerated-induced");
  free(pats);
  wm_graph_destroy(g);
}

/* Graphs far past the brute force: hubs whose degree is many times every
 * split and buffer size, in file order and by degree; the formula and the
 * enumeration must agree class by class. */
static void compare_methods(const wm_graph *g, unsigned k) {
  wm_u128 f[21], e[21];
  run_motifs(g, k, WM_MOTIF_FORMULA, 2, f, NULL, NULL);
  run_motifs(g, k, WM_MOTIF_ENUMERATE, 2, e, NULL, NULL);
  unsigned np = k == 3 ? 2 : k == 4 ? 6 : 21;
  for (unsigned i = 0; i < np; i++)
    cr_assert(f[i] == e[i], "k=%u class %u: formula %llu, enumerate %llu", k, i, (unsigned long long)f[i],
              (unsigned long long)e[i]);
}

Test(motifs_cpu, hub_graphs_formula_equals_enumeration, .timeout = 300) {
  wm_graph *g = wm_test_powerlaw(400, 5.0, 3, 0.35, 77);
  wm_graph *sorted = wm_test_by_degree(g);
  for (unsigned k = 3; k <= 5; k++) {
    compare_methods(g, k);
    compare_methods(sorted, k);
  }
  wm_graph_destroy(sorted);
  wm_graph_destroy(g);
}

/* wm_test_graph_of_arcs on copies (it takes the arrays). */
static wm_graph *graph_of(uint32_t n, const uint32_t *src, const uint32_t *dst, uint64_t cnt) {
  uint32_t *s = malloc((cnt ? cnt : 1) * sizeof *s), *d = malloc((cnt ? cnt : 1) * sizeof *d);
  memcpy(s, src, cnt * sizeof *s);
  memcpy(d, dst, cnt * sizeof *d);
  return wm_test_graph_of_arcs(n, s, d, cnt);
}

static wm_u128 choose(uint64_t n, unsigned r) {
  wm_u128 c = 1;
  for (unsigned i = 0; i < r; i++) c = c * (n - i) / (i + 1);
  return c;
}

/* A star has only stars and a clique only the clique: C(d, k-1) and
 * C(n, k), with every other class 0; an empty graph and one smaller than
 * k have no motifs at all. */
Test(motifs_cpu, stars_cliques_empty_tiny) {
  wm_pattern *pats;
  unsigned np;
  wm_error err;
  for (unsigned k = 3; k <= 5; k++) {
    cr_assert_eq(wm_connected_patterns(k, &pats, &np, &err), WM_OK);
    wm_u128 got[21];
    const uint32_t d = 37;
    uint32_t src[64], dst[64];
    for (uint32_t i = 0; i < d; i++) src[i] = 0, dst[i] = i + 1;
    wm_graph *star = graph_of(d + 1, src, dst, d);
    run_motifs(star, k, WM_MOTIF_AUTO, 2, got, NULL, NULL);
    for (unsigned i = 0; i < np; i++) {
      int is_star = 0; /* one vertex adjacent to all the others */
      for (unsigned v = 0; v < k; v++) is_star |= (unsigned)__builtin_popcount(pats[i].adj[v]) == k - 1;
      is_star &= wm_pattern_edges(&pats[i]) == k - 1;
      wm_u128 want = is_star ? choose(d, k - 1) : 0;
      cr_assert(got[i] == want, "star: %s %llu", pats[i].name, (unsigned long long)got[i]);
    }
    wm_graph_destroy(star);
    uint32_t m = 0;
    for (uint32_t a = 0; a < 9; a++)
      for (uint32_t b = a + 1; b < 9; b++) src[m] = a, dst[m++] = b;
    wm_graph *clique = graph_of(9, src, dst, m);
    run_motifs(clique, k, WM_MOTIF_AUTO, 2, got, NULL, NULL);
    for (unsigned i = 0; i < np; i++) {
      wm_u128 want = i == np - 1 ? choose(9, k) : 0; /* the clique is the densest class, last */
      cr_assert(got[i] == want, "clique: %s %llu", pats[i].name, (unsigned long long)got[i]);
    }
    wm_graph_destroy(clique);
    wm_graph *empty = graph_of(50, src, dst, 0);
    wm_graph *tiny = graph_of(k - 1, src, dst, 1); /* the edge 0-1 */
    for (int method = WM_MOTIF_FORMULA; method <= WM_MOTIF_ENUMERATE; method++) {
      run_motifs(empty, k, method, 1, got, NULL, NULL);
      for (unsigned i = 0; i < np; i++) cr_assert(got[i] == 0);
      run_motifs(tiny, k, method, 1, got, NULL, NULL);
      for (unsigned i = 0; i < np; i++) cr_assert(got[i] == 0);
    }
    wm_graph_destroy(empty);
    wm_graph_destroy(tiny);
    free(pats);
  }
}

/* M[i][j] is the edge-induced count of pattern i in pattern j taken as a
 * graph (all its copies span j's k vertices), which the matcher counts
 * independently; M is upper triangular with a unit diagonal. */
Test(motifs_cpu, spanning_matrix_against_the_matcher) {
  for (unsigned k = 3; k <= 5; k++) {
    wm_pattern *pats;
    unsigned np;
    wm_error err;
    cr_assert_eq(wm_connected_patterns(k, &pats, &np, &err), WM_OK);
    uint64_t *M = calloc((size_t)np * np, sizeof *M);
    cr_assert_eq(wm_spanning_matrix(pats, np, M, &err), WM_OK, "%s", err.msg);
    for (unsigned j = 0; j < np; j++) {
      uint32_t src[16], dst[16], m = 0;
      for (uint32_t a = 0; a < k; a++)
        for (uint32_t b = a + 1; b < k; b++)
          if (wm_pattern_has_edge(&pats[j], a, b)) src[m] = a, dst[m++] = b;
      wm_graph *g = graph_of(k, src, dst, m);
      wm_graph_summary gs;
      wm_graph_summary_compute(g, &gs);
      for (unsigned i = 0; i < np; i++) {
        wm_plan_options po;
        wm_plan_options_init(&po);
        wm_plan plan;
        cr_assert_eq(wm_plan_build(&pats[i], &gs, &po, &plan, &err), WM_OK, "%s", err.msg);
        wm_match_result r;
        cr_assert_eq(wm_match_cpu(g, &plan, NULL, &r, &err), WM_OK, "%s", err.msg);
        cr_assert_eq(M[(size_t)i * np + j], r.count, "M[%s][%s] = %lu, matcher %lu", pats[i].name, pats[j].name,
                     (unsigned long)M[(size_t)i * np + j], (unsigned long)r.count);
        if (i == j) cr_assert_eq(M[(size_t)i * np + j], 1u);
        if (i > j) cr_assert_eq(M[(size_t)i * np + j], 0u);
      }
      wm_graph_destroy(g);
    }
    free(M);
    free(pats);
  }
}

/* The matrix of each size is kept between calls (the first call counts
 * it): a second call, a call on other classes of the same size, a call on
 * a permuted list and one on a labeled class each get their own answer,
 * and clearing a class list the caller was given changes nothing after. */
Test(motifs_cpu, kept_matrix_and_classes_answer_each_call) {
  wm_pattern *pats, *again;
  unsigned np, n2;
  wm_error err;
  cr_assert_eq(wm_connected_patterns(5, &pats, &np, &err), WM_OK);
  uint64_t *full = calloc((size_t)np * np, sizeof *full), *M = calloc((size_t)np * np, sizeof *M);
  cr_assert_eq(wm_spanning_matrix(pats, np, full, &err), WM_OK, "%s", err.msg);
  cr_assert_eq(wm_spanning_matrix(pats, np, M, &err), WM_OK, "%s", err.msg);
  cr_assert(memcmp(M, full, (size_t)np * np * sizeof *M) == 0, "the second call's matrix differs");
  /* the last 8 classes only: M's lower-right block */
  const unsigned off = np - 8;
  cr_assert_eq(wm_spanning_matrix(pats + off, 8, M, &err), WM_OK, "%s", err.msg);
  for (unsigned i = 0; i < 8; i++)
    for (unsigned j = 0; j < 8; j++)
      cr_assert_eq(M[i * 8 + j], full[(size_t)(off + i) * np + off + j], "block M[%u][%u]", i, j);
  /* the classes swapped pairwise: rows and columns swapped */
  wm_pattern *swapped = malloc(np * sizeof *swapped);
  for (unsigned i = 0; i < np; i++) swapped[i] = pats[(i ^ 1u) < np ? i ^ 1u : i];
  cr_assert_eq(wm_spanning_matrix(swapped, np, M, &err), WM_OK, "%s", err.msg);
  for (unsigned i = 0; i < np; i++)
    for (unsigned j = 0; j < np; j++) {
      const unsigned si = (i ^ 1u) < np ? i ^ 1u : i, sj = (j ^ 1u) < np ? j ^ 1u : j;
      cr_assert_eq(M[(size_t)i * np + j], full[(size_t)si * np + sj], "swapped M[%u][%u]", i, j);
    }
  /* a labeled class is refused even where its shape was kept */
  swapped[0].labeled = 1;
  cr_assert_eq(wm_spanning_matrix(swapped, np, M, &err), WM_EUSAGE);
  memset(pats, 0, np * sizeof *pats);
  cr_assert_eq(wm_connected_patterns(5, &again, &n2, &err), WM_OK);
  cr_assert_eq(n2, 21);
  cr_assert_eq(wm_spanning_matrix(again, n2, M, &err), WM_OK, "%s", err.msg);
  cr_assert(memcmp(M, full, (size_t)np * np * sizeof *M) == 0, "the list after the caller's was cleared differs");
  free(swapped);
  free(again);
  free(pats);
  free(M);
  free(full);
}

/* A star of a million leaves has C(10^6, 4) > 2^64 5-stars: the count is
 * exact, and so is the 4-clique-free rest (0).  The aggregates' sums
 * detect overflow instead of wrapping. */
Test(motifs_cpu, counts_past_2_to_the_64, .timeout = 120) {
  const uint32_t d = 1000000;
  uint32_t *src = malloc(d * sizeof *src), *dst = malloc(d * sizeof *dst);
  for (uint32_t i = 0; i < d; i++) src[i] = 0, dst[i] = i + 1;
  wm_graph *star = wm_test_graph_of_arcs(d + 1, src, dst, d);
  wm_u128 got[21];
  run_motifs(star, 5, WM_MOTIF_FORMULA, 2, got, NULL, NULL);
  wm_pattern *pats;
  unsigned np;
  wm_error err;
  cr_assert_eq(wm_connected_patterns(5, &pats, &np, &err), WM_OK);
  wm_u128 want = (wm_u128)d * (d - 1) / 2 * (d - 2) / 3 * (d - 3) / 4;
  cr_assert(want > (wm_u128)UINT64_MAX);
  char a[WM_I128_CHARS], b[WM_I128_CHARS];
  /* C(10^6, 4) in decimal, as Python's math.comb gives it */
  cr_assert_str_eq(wm_u128_str(want, a), "41666416667124999750000");
  for (unsigned i = 0; i < np; i++) {
    wm_u128 expect = strcmp(pats[i].name, "5-star") == 0 ? want : 0;
    cr_assert(got[i] == expect, "%s %s, want %s", pats[i].name, wm_u128_str(got[i], a), wm_u128_str(expect, b));
  }
  free(pats);
  wm_graph_destroy(star);
}

Test(motifs_cpu, overflow_is_detected_not_wrapped) {
  /* the degree sequence of 2^12 vertices of degree 2^32 - 1: their C(d, 4)
     sum to about 2^133 */
  wm_acc acc = {0, 0};
  const wm_i128 d = ((wm_i128)1 << 32) - 1;
  for (int i = 0; i < 4096 && !acc.overflow; i++) wm_acc_add(&acc, wm_choose(d, 4));
  cr_assert(acc.overflow, "2^12 C(2^32-1, 4) fits 127 bits?");
  acc = (wm_acc){0, 0};
  for (int i = 0; i < 4; i++) wm_acc_add(&acc, wm_choose(d, 4));
  cr_assert(!acc.overflow);
  cr_assert(acc.v == 4 * wm_choose(d, 4));
  int overflow = 0;
  (void)wm_mul_chk((wm_i128)1 << 100, (wm_i128)1 << 30, &overflow);
  cr_assert(overflow);
  char buf[WM_I128_CHARS];
  cr_assert_str_eq(wm_i128_str(-(((wm_i128)1 << 100)), buf), "-1267650600228229401496703205376");
}

Test(motifs_cpu, bad_size) {
  wm_graph *g = wm_test_er(10, 0.5, 1);
  wm_u128 counts[32];
  wm_error err;
  cr_assert_eq(wm_motifs(g, 6, 0, NULL, counts, NULL, NULL, &err), WM_EUSAGE);
  cr_assert_eq(wm_motifs(g, 2, 0, NULL, counts, NULL, NULL, &err), WM_EUSAGE);
  /* the formula counts the whole graph */
  wm_match_options mo;
  wm_match_options_init(&mo);
  mo.motif_method = WM_MOTIF_FORMULA;
  uint8_t all[10] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
  mo.allowed = all;
  cr_assert_eq(wm_motifs(g, 4, 0, &mo, counts, NULL, NULL, &err), WM_EUSAGE);
  mo.motif_method = WM_MOTIF_AUTO; /* auto enumerates inside a ball */
  int how[6];
  cr_assert_eq(wm_motifs(g, 4, 0, &mo, counts, how, NULL, &err), WM_OK, "%s", err.msg);
  cr_assert_str_eq(wm_motif_how_name(how[0]), "enumerated-induced");
  wm_graph_destroy(g);
}

/* The enumerated classes carry past 2^64: under the test hook
 * (exact_count.h) each class's plan counts from 2^64 - 5, so its count is
 * that plus the formula's, exact in 128 bits. */
Test(motifs_cpu, enumerated_classes_past_2_64) {
  wm_graph *g = wm_test_powerlaw(120, 5.0, 2, 0.3, 31);
  const uint64_t start = UINT64_MAX - 4;
  for (unsigned k = 3; k <= 5; k++) {
    wm_u128 f[21], e[21];
    cr_assert_eq(unsetenv("WM_TEST_COUNT_START"), 0);
    run_motifs(g, k, WM_MOTIF_FORMULA, 2, f, NULL, NULL);
    cr_assert_eq(setenv("WM_TEST_COUNT_START", "18446744073709551611", 1), 0);
    run_motifs(g, k, WM_MOTIF_ENUMERATE, 2, e, NULL, NULL);
    const unsigned np = k == 3 ? 2 : k == 4 ? 6 : 21;
    char a[WM_I128_CHARS], b[WM_I128_CHARS];
    for (unsigned i = 0; i < np; i++)
      cr_assert(e[i] == start + f[i], "k=%u class %u: enumerated %s, want %s", k, i, wm_u128_str(e[i], a),
                wm_u128_str(start + f[i], b));
  }
  cr_assert_eq(unsetenv("WM_TEST_COUNT_START"), 0);
  wm_graph_destroy(g);
}
