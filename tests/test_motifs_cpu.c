/* Motif tables against brute force: every k-subset of a small random graph
 * whose induced subgraph is connected is classified by trying every vertex
 * bijection onto each motif; the tallies must equal wm_motifs', and their
 * sum the number of connected k-subsets. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "matcher.h"
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

/* Size 3 takes the wedge from degrees over the whole graph; a ball that
 * holds every vertex makes wm_motifs enumerate it instead, and the two must
 * agree (and say which was done). */
static void check_enumerated_wedges(const wm_graph *g, const wm_match_options *base, const uint64_t *formula) {
  wm_match_options mo = *base;
  uint8_t *all = malloc(g->n ? g->n : 1);
  memset(all, 1, g->n ? g->n : 1);
  mo.allowed = all;
  uint64_t got[2];
  wm_match_result sum, formula_sum;
  wm_error err;
  cr_assert_eq(wm_motifs(g, 3, 0, &mo, got, &sum, &err), WM_OK, "%s", err.msg);
  cr_assert_eq(got[0], formula[0], "enumerated %s %lu, from degrees %lu", "3-path", (unsigned long)got[0],
               (unsigned long)formula[0]);
  cr_assert_eq(got[1], formula[1]);
  cr_assert_eq(sum.count, got[0] + got[1]);
  cr_assert(strstr(sum.launch, "one plan per pattern"), "%s", sum.launch);
  cr_assert_eq(wm_motifs(g, 3, 0, base, got, &formula_sum, &err), WM_OK, "%s", err.msg);
  cr_assert(strstr(formula_sum.launch, "from degrees"), "%s", formula_sum.launch);
  cr_assert_eq(formula_sum.count, sum.count);
  free(all);
}

static void check(unsigned k, unsigned ngraphs, unsigned nmin, unsigned nmax) {
  wm_pattern *pats;
  unsigned np;
  wm_error err;
  cr_assert_eq(wm_connected_patterns(k, &pats, &np, &err), WM_OK, "%s", err.msg);
  cr_assert_eq(np, k == 3 ? 2u : k == 4 ? 6u : 21u);
  uint64_t *got = calloc(np, sizeof *got), *want = calloc(np, sizeof *want);
  for (unsigned gi = 0; gi < ngraphs; gi++) {
    uint32_t n = nmin + gi * (nmax - nmin) / (ngraphs - 1);
    wm_graph *g = gi % 2 ? wm_test_powerlaw(n, 6.0, 2, 0.6, 300 + gi) : wm_test_er(n, 0.2 + 0.04 * gi, 300 + gi);
    small s;
    to_small(g, &s);
    uint64_t conn, total = 0;
    brute_force(&s, k, pats, np, want, &conn);
    wm_match_options mo;
    wm_match_options_init(&mo);
    mo.threads = 1 + gi % 2;
    cr_assert_eq(wm_motifs(g, k, 0, &mo, got, NULL, &err), WM_OK, "%s", err.msg);
    for (unsigned i = 0; i < np; i++) {
      cr_assert_eq(got[i], want[i], "k=%u n=%u motif %s: %lu, brute force %lu", k, n, pats[i].name,
                   (unsigned long)got[i], (unsigned long)want[i]);
      total += got[i];
    }
    cr_assert_eq(total, conn, "k=%u: motifs sum to %lu, connected subsets %lu", k, (unsigned long)total,
                 (unsigned long)conn);
    if (k == 3) check_enumerated_wedges(g, &mo, got);
    wm_graph_destroy(g);
  }
  free(got);
  free(want);
  free(pats);
}

Test(motifs_cpu, size3) { check(3, 10, 10, 60); }
Test(motifs_cpu, size4) { check(4, 10, 10, 40); }
Test(motifs_cpu, size5) { check(5, 8, 10, 22); }

Test(motifs_cpu, bad_size) {
  wm_graph *g = wm_test_er(10, 0.5, 1);
  uint64_t counts[32];
  wm_error err;
  cr_assert_eq(wm_motifs(g, 6, 0, NULL, counts, NULL, &err), WM_EUSAGE);
  cr_assert_eq(wm_motifs(g, 2, 0, NULL, counts, NULL, &err), WM_EUSAGE);
  wm_graph_destroy(g);
}
