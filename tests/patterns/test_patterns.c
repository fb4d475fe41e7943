/* patterns/: catalogue, automorphisms, canonical form, motif generation
 * and symmetry-breaking restrictions, each checked against brute force. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patterns.h"
#include "testutil.h"

/* ---- helpers ---------------------------------------------------------- */

static wm_pattern named(const char *name) {
  wm_pattern p;
  wm_error err;
  int rc = wm_pattern_from_name(name, &p, &err);
  cr_assert_eq(rc, WM_OK, "'%s' does not resolve: %s", name, err.msg);
  return p;
}

/* The k-vertex pattern of family f: clique, cycle, path, star. */
static wm_pattern family(unsigned k, unsigned f) {
  static const char *const fam[] = {"clique", "cycle", "path", "star"};
  char name[32];
  snprintf(name, sizeof name, "%u-%s", k, fam[f]);
  return named(name);
}

static unsigned factorial(unsigned n) { return n <= 1 ? 1 : n * factorial(n - 1); }

/* Next permutation in lexicographic order; 0 after the last one. */
static int next_perm(uint8_t *a, unsigned n) {
  if (n < 2) return 0;
  int i = (int)n - 2;
  while (i >= 0 && a[i] >= a[i + 1]) i--;
  if (i < 0) return 0;
  int j = (int)n - 1;
  while (a[j] <= a[i]) j--;
  uint8_t t = a[i];
  a[i] = a[j], a[j] = t;
  for (unsigned l = (unsigned)i + 1, r = n - 1; l < r; l++, r--) t = a[l], a[l] = a[r], a[r] = t;
  return 1;
}

static int is_automorphism(const wm_pattern *p, const uint8_t *g) {
  for (unsigned i = 0; i < p->k; i++) {
    if (p->label[i] != p->label[g[i]]) return 0;
    for (unsigned j = 0; j < p->k; j++)
      if (wm_pattern_has_edge(p, i, j) != wm_pattern_has_edge(p, g[i], g[j])) return 0;
  }
  return 1;
}

/* |Aut| by trying every permutation: the oracle for the backtracking. */
static unsigned brute_aut(const wm_pattern *p) {
  uint8_t g[WM_MAX_K];
  for (unsigned i = 0; i < p->k; i++) g[i] = (uint8_t)i;
  unsigned n = 0;
  do n += (unsigned)is_automorphism(p, g);
  while (next_perm(g, p->k));
  return n;
}

/* Isomorphism by trying every bijection (labels must match too). */
static int brute_isomorphic(const wm_pattern *a, const wm_pattern *b) {
  if (a->k != b->k || wm_pattern_edges(a) != wm_pattern_edges(b)) return 0;
  uint8_t g[WM_MAX_K];
  for (unsigned i = 0; i < a->k; i++) g[i] = (uint8_t)i;
  do {
    int ok = 1;
    for (unsigned i = 0; i < a->k && ok; i++) {
      ok = a->label[i] == b->label[g[i]];
      for (unsigned j = 0; j < a->k && ok; j++)
        ok = wm_pattern_has_edge(a, i, j) == wm_pattern_has_edge(b, g[i], g[j]);
    }
    if (ok) return 1;
  } while (next_perm(g, a->k));
  return 0;
}

/* p with vertex i renamed to pi[i]. */
static wm_pattern relabel(const wm_pattern *p, const uint8_t *pi) {
  wm_pattern q;
  wm_pattern_init(&q, p->k);
  for (unsigned i = 0; i < p->k; i++) {
    wm_pattern_set_label(&q, pi[i], p->label[i]);
    for (unsigned j = i + 1; j < p->k; j++)
      if (wm_pattern_has_edge(p, i, j)) wm_pattern_add_edge(&q, pi[i], pi[j]);
  }
  return q;
}

static void random_perm(uint8_t *pi, unsigned k, uint64_t *rng) {
  for (unsigned i = 0; i < k; i++) pi[i] = (uint8_t)i;
  for (unsigned i = k; i > 1; i--) {
    unsigned j = (unsigned)(wm_test_rand(rng) % i);
    uint8_t t = pi[i - 1];
    pi[i - 1] = pi[j], pi[j] = t;
  }
}

static wm_pattern *connected(unsigned k, unsigned *count) {
  wm_pattern *ps;
  wm_error err;
  int rc = wm_connected_patterns(k, &ps, count, &err);
  cr_assert_eq(rc, WM_OK, "wm_connected_patterns(%u): %s", k, err.msg);
  return ps;
}

/* ---- catalogue -------------------------------------------------------- */

static const struct {
  const char *name;
  unsigned k, edges, aut;
} expected[] = {
    {"triangle", 3, 3, 6},
    {"3-path", 3, 2, 2},
    {"4-path", 4, 3, 2},
    {"4-star", 4, 3, 6},
    {"4-cycle", 4, 4, 8},
    {"tailed-triangle", 4, 4, 2},
    {"diamond", 4, 5, 4},
    {"4-clique", 4, 6, 24},
    {"5-path", 5, 4, 2},
    {"5-star", 5, 4, 24},
    {"fork", 5, 4, 2},
    {"5-cycle", 5, 5, 10},
    {"banner", 5, 5, 2},
    {"bull", 5, 5, 2},
    {"cricket", 5, 5, 4},
    {"long-tailed-triangle", 5, 5, 2},
    {"house", 5, 6, 2},
    {"bowtie", 5, 6, 8},
    {"K2,3", 5, 6, 12},
    {"kite", 5, 6, 2},
    {"dart", 5, 6, 2},
    {"gem", 5, 7, 2},
    {"3-book", 5, 7, 12},
    {"tailed-4-clique", 5, 7, 6},
    {"W4-minus-spoke", 5, 7, 4},
    {"W4", 5, 8, 8},
    {"house-x", 5, 8, 4},
    {"5-clique-minus-edge", 5, 9, 12},
    {"5-clique", 5, 10, 120},
};
#define N_EXPECTED (sizeof expected / sizeof expected[0])

Test(catalogue, every_listed_name_resolves_to_a_valid_pattern) {
  const char *const *names = wm_catalogue_names();
  unsigned n = 0;
  for (; names[n]; n++) {
    wm_pattern p = named(names[n]);
    wm_error err;
    cr_assert_eq(wm_pattern_validate(&p, &err), WM_OK, "%s: %s", names[n], err.msg);
    cr_assert_str_eq(p.name, names[n]);
    cr_assert_eq(p.labeled, 0);
  }
  cr_assert_eq(n, N_EXPECTED, "catalogue lists %u names, the table %zu", n, N_EXPECTED);
  for (unsigned i = 0; i < n; i++)
    for (unsigned j = i + 1; j < n; j++) cr_assert_str_neq(names[i], names[j]);
}

Test(catalogue, sizes_and_edge_counts) {
  for (size_t i = 0; i < N_EXPECTED; i++) {
    wm_pattern p = named(expected[i].name);
    cr_assert_eq(p.k, expected[i].k, "%s: k = %u", expected[i].name, (unsigned)p.k);
    cr_assert_eq(wm_pattern_edges(&p), expected[i].edges, "%s: %u edges, expected %u",
                 expected[i].name, wm_pattern_edges(&p), expected[i].edges);
  }
}

Test(catalogue, families_for_every_k) {
  char name[32];
  for (unsigned k = 2; k <= WM_MAX_K; k++) {
    struct {
      const char *word;
      unsigned min_k, edges, aut;
    } fam[] = {
        {"clique", 3, k * (k - 1) / 2, factorial(k)},
        {"cycle", 3, k, 2 * k},
        {"path", 2, k - 1, 2},
        {"star", 3, k - 1, factorial(k - 1)},
    };
    for (unsigned f = 0; f < 4; f++) {
      snprintf(name, sizeof name, "%u-%s", k, fam[f].word);
      wm_pattern p;
      wm_error err;
      int rc = wm_pattern_from_name(name, &p, &err);
      if (k < fam[f].min_k) {
        cr_assert_eq(rc, WM_EINPUT, "%s should not resolve", name);
        cr_assert(strstr(err.msg, name), "message names the pattern: %s", err.msg);
        continue;
      }
      cr_assert_eq(rc, WM_OK, "%s: %s", name, err.msg);
      cr_assert_eq(p.k, k, "%s: k", name);
      cr_assert_eq(wm_pattern_edges(&p), fam[f].edges, "%s: edges", name);
      cr_assert_eq(wm_pattern_validate(&p, &err), WM_OK, "%s: %s", name, err.msg);
      wm_automorphisms a;
      cr_assert_eq(wm_pattern_automorphisms(&p, &a, &err), WM_OK, "%s", err.msg);
      cr_assert_eq(a.count, fam[f].aut, "%s: |Aut| = %u, expected %u", name, a.count, fam[f].aut);
      wm_automorphisms_free(&a);
    }
  }
  wm_pattern p;
  wm_error err;
  cr_assert_eq(wm_pattern_from_name("9-clique", &p, &err), WM_EINPUT);
  cr_assert(strstr(err.msg, "9-clique") && strstr(err.msg, "3 to 8"), "%s", err.msg);
}

Test(catalogue, aliases_and_case) {
  static const char *pairs[][2] = {
      {"paw", "tailed-triangle"}, {"claw", "4-star"},  {"butterfly", "bowtie"},
      {"chair", "fork"},          {"K5", "5-clique"},  {"k5-e", "5-clique-minus-edge"},
      {"TRIANGLE", "triangle"},   {"3-clique", "triangle"}, {"3-cycle", "triangle"},
      {"3-star", "3-path"},       {"wedge", "3-path"}, {"K_{2,3}", "K2,3"},
      {"4-wheel", "W4"},          {"book", "3-book"},  {"co-fork", "kite"},
      {"4-pan", "banner"},        {"House", "house"},  {"square", "4-cycle"},
  };
  for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
    wm_pattern a = named(pairs[i][0]), b = named(pairs[i][1]);
    cr_assert(brute_isomorphic(&a, &b), "%s is not %s", pairs[i][0], pairs[i][1]);
  }
}

Test(catalogue, unknown_name_lists_the_catalogue) {
  wm_pattern p;
  wm_error err;
  cr_assert_eq(wm_pattern_from_name("pentagram", &p, &err), WM_EINPUT);
  cr_assert(strstr(err.msg, "pentagram") && strstr(err.msg, "bull"), "%s", err.msg);
  cr_assert_eq(wm_pattern_resolve("pentagram", &p, &err), WM_EINPUT);
  cr_assert(strstr(err.msg, "unknown pattern 'pentagram'"), "%s", err.msg);
  cr_assert_eq(wm_pattern_resolve("no/such/file.pat", &p, &err), WM_EINPUT);
  cr_assert(strstr(err.msg, "no/such/file.pat"), "%s", err.msg);
}

Test(catalogue, name_of_finds_every_named_class) {
  uint64_t rng = 7;
  for (size_t i = 0; i < N_EXPECTED; i++) {
    wm_pattern p = named(expected[i].name);
    uint8_t pi[WM_MAX_K];
    random_perm(pi, p.k, &rng);
    wm_pattern q = relabel(&p, pi);
    char buf[64];
    cr_assert(wm_catalogue_name_of(&q, buf, sizeof buf), "%s not found", expected[i].name);
    cr_assert_str_eq(buf, expected[i].name);
  }
  wm_pattern lab = named("triangle");
  wm_pattern_set_label(&lab, 0, 3);
  char buf[64];
  cr_assert_not(wm_catalogue_name_of(&lab, buf, sizeof buf), "labeled patterns have no name");
}

/* ---- core ------------------------------------------------------------- */

Test(core, validate_names_the_problem) {
  wm_pattern p;
  wm_error err;
  wm_pattern_init(&p, 5);
  snprintf(p.name, sizeof p.name, "x.pat");
  cr_assert_eq(wm_pattern_validate(&p, &err), WM_EINPUT);
  cr_assert(strstr(err.msg, "no edges"), "%s", err.msg);
  wm_pattern_add_edge(&p, 0, 1);
  wm_pattern_add_edge(&p, 1, 2);
  wm_pattern_add_edge(&p, 3, 4);
  cr_assert_eq(wm_pattern_validate(&p, &err), WM_EINPUT);
  cr_assert_str_eq(err.msg, "pattern 'x.pat': vertices 3 and 4 are not connected to the rest");
  wm_pattern_add_edge(&p, 2, 3);
  cr_assert_eq(wm_pattern_validate(&p, &err), WM_OK, "%s", err.msg);
  p.adj[0] |= 1; /* loop */
  cr_assert_eq(wm_pattern_validate(&p, &err), WM_EINPUT);
  cr_assert(strstr(err.msg, "self-loop at vertex 0"), "%s", err.msg);
  p.adj[0] &= (uint8_t)~1u;
  p.adj[4] |= 1; /* 4 -> 0 without 0 -> 4 */
  cr_assert_eq(wm_pattern_validate(&p, &err), WM_EINPUT);
  cr_assert(strstr(err.msg, "one direction"), "%s", err.msg);
  p.adj[4] &= (uint8_t)~1u;
  p.label[2] = 4; /* without the labeled flag */
  cr_assert_eq(wm_pattern_validate(&p, &err), WM_EINPUT);
  wm_pattern_set_label(&p, 2, 4);
  cr_assert_eq(wm_pattern_validate(&p, &err), WM_OK, "%s", err.msg);
  cr_assert_eq(p.labeled, 1);
  p.k = 9;
  cr_assert_eq(wm_pattern_validate(&p, &err), WM_EINPUT);
  cr_assert(strstr(err.msg, "2 to 8"), "%s", err.msg);
  wm_pattern_init(&p, 1);
  cr_assert_eq(wm_pattern_validate(&p, &err), WM_EINPUT);
  wm_pattern_init(&p, 3);
  wm_pattern_add_edge(&p, 0, 1);
  cr_assert_eq(wm_pattern_validate(&p, &err), WM_EINPUT);
  cr_assert(strstr(err.msg, "(unnamed): vertex 2 is not connected"), "%s", err.msg);
  wm_pattern_add_edge(&p, 1, 5); /* beyond k */
  cr_assert_eq(wm_pattern_validate(&p, &err), WM_EINPUT);
}

Test(core, edge_string) {
  wm_pattern p = named("triangle");
  char buf[64];
  wm_pattern_edge_string(&p, buf, sizeof buf);
  cr_assert_str_eq(buf, "0-1 0-2 1-2");
  wm_pattern_edge_string(&p, buf, 7); /* room for one edge and a half */
  cr_assert_str_eq(buf, "0-1");
  p = named("5-path");
  wm_pattern_edge_string(&p, buf, sizeof buf);
  cr_assert_str_eq(buf, "0-1 1-2 2-3 3-4");
}

/* ---- automorphisms ---------------------------------------------------- */

static void check_aut(const wm_pattern *p, unsigned expect) {
  wm_automorphisms a;
  wm_error err;
  cr_assert_eq(wm_pattern_automorphisms(p, &a, &err), WM_OK, "%s", err.msg);
  cr_assert_eq(a.count, expect, "%s: |Aut| = %u, expected %u", p->name, a.count, expect);
  for (unsigned i = 0; i < a.count; i++) {
    cr_assert(is_automorphism(p, a.perm[i]), "%s: entry %u is no automorphism", p->name, i);
    for (unsigned j = 0; j < i; j++)
      cr_assert_neq(memcmp(a.perm[i], a.perm[j], p->k), 0, "%s: duplicate", p->name);
  }
  wm_automorphisms_free(&a);
}

Test(automorphisms, catalogue_values) {
  for (size_t i = 0; i < N_EXPECTED; i++) {
    wm_pattern p = named(expected[i].name);
    cr_assert_eq(brute_aut(&p), expected[i].aut, "table is wrong for %s", expected[i].name);
    check_aut(&p, expected[i].aut);
  }
}

Test(automorphisms, all_6_vertex_patterns_match_brute_force) {
  unsigned n;
  wm_pattern *ps = connected(6, &n);
  for (unsigned i = 0; i < n; i++) check_aut(&ps[i], brute_aut(&ps[i]));
  free(ps);
}

Test(automorphisms, labels_are_respected) {
  wm_pattern t = named("triangle");
  wm_pattern_set_label(&t, 2, 1);
  check_aut(&t, 2); /* any-label vertices are not the same as label 1 */
  wm_pattern_set_label(&t, 0, 0);
  wm_pattern_set_label(&t, 1, 0);
  check_aut(&t, 2);
  wm_pattern_set_label(&t, 1, 5);
  check_aut(&t, 1);
  wm_pattern c = named("4-cycle"); /* 0-1-2-3-0 labelled A B A B */
  for (unsigned v = 0; v < 4; v++) wm_pattern_set_label(&c, v, (int32_t)(v % 2));
  check_aut(&c, 4);
  uint64_t rng = 99;
  for (size_t i = 0; i < N_EXPECTED; i++) {
    wm_pattern p = named(expected[i].name);
    for (unsigned v = 0; v < p.k; v++) wm_pattern_set_label(&p, v, (int32_t)(wm_test_rand(&rng) % 3) - 1);
    check_aut(&p, brute_aut(&p));
  }
}

/* ---- canonical form --------------------------------------------------- */

/* The form is p permuted by perm, and random relabellings give the same form. */
static void check_canonical(const wm_pattern *p, uint64_t *rng) {
  wm_canonical c;
  wm_pattern_canonical(p, &c);
  for (unsigned i = 0; i < p->k; i++) {
    cr_assert_eq(c.form.label[i], p->label[c.perm[i]]);
    for (unsigned j = 0; j < p->k; j++)
      cr_assert_eq(wm_pattern_has_edge(&c.form, i, j), wm_pattern_has_edge(p, c.perm[i], c.perm[j]),
                   "%s: form differs from the pattern under perm", p->name);
  }
  for (int t = 0; t < 12; t++) {
    uint8_t pi[WM_MAX_K];
    random_perm(pi, p->k, rng);
    wm_pattern q = relabel(p, pi);
    wm_canonical d;
    wm_pattern_canonical(&q, &d);
    cr_assert_eq(d.hash, c.hash, "%s: relabelling changed the hash", p->name);
    cr_assert_eq(memcmp(d.form.adj, c.form.adj, sizeof c.form.adj), 0, "%s: form", p->name);
    cr_assert_eq(memcmp(d.form.label, c.form.label, sizeof c.form.label), 0, "%s", p->name);
  }
}

Test(canonical, invariant_under_relabelling) {
  uint64_t rng = 1;
  for (size_t i = 0; i < N_EXPECTED; i++) {
    wm_pattern p = named(expected[i].name);
    check_canonical(&p, &rng);
    for (unsigned v = 0; v < p.k; v++) wm_pattern_set_label(&p, v, (int32_t)(wm_test_rand(&rng) % 3) - 1);
    check_canonical(&p, &rng);
  }
  for (unsigned k = 6; k <= 8; k++) {
    const char *fam[] = {"clique", "cycle", "path", "star"};
    for (unsigned f = 0; f < 4; f++) {
      char name[32];
      snprintf(name, sizeof name, "%u-%s", k, fam[f]);
      wm_pattern p = named(name);
      check_canonical(&p, &rng);
    }
  }
  unsigned n;
  wm_pattern *ps = connected(6, &n);
  for (unsigned i = 0; i < n; i++) check_canonical(&ps[i], &rng);
  free(ps);
}

Test(canonical, distinguishes_non_isomorphic_patterns) {
  wm_canonical c[N_EXPECTED];
  wm_pattern p[N_EXPECTED];
  for (size_t i = 0; i < N_EXPECTED; i++) {
    p[i] = named(expected[i].name);
    wm_pattern_canonical(&p[i], &c[i]);
  }
  for (size_t i = 0; i < N_EXPECTED; i++)
    for (size_t j = 0; j < i; j++) {
      cr_assert_not(brute_isomorphic(&p[i], &p[j]), "%s and %s are isomorphic", p[i].name, p[j].name);
      cr_assert_neq(c[i].hash, c[j].hash, "%s and %s share a hash", p[i].name, p[j].name);
    }
  /* Same graph, labels on different vertices: a path with the label at an
   * end vs in the middle. */
  wm_pattern a = named("3-path"), b = named("3-path");
  wm_pattern_set_label(&a, 0, 1);
  wm_pattern_set_label(&b, 1, 1);
  wm_canonical ca, cb;
  wm_pattern_canonical(&a, &ca);
  wm_pattern_canonical(&b, &cb);
  cr_assert_neq(ca.hash, cb.hash);
  wm_pattern_set_label(&b, 1, WM_ANY_LABEL);
  wm_pattern_set_label(&b, 2, 1); /* the other end: isomorphic to a */
  wm_pattern_canonical(&b, &cb);
  cr_assert_eq(ca.hash, cb.hash);
}

/* ---- connected patterns (motifs) -------------------------------------- */

/* Published: OEIS A001349, connected graphs on k vertices. */
static const unsigned published[] = {0, 1, 1, 2, 6, 21, 112, 853, 11117};

static void check_generated(unsigned k) {
  unsigned n;
  wm_pattern *ps = connected(k, &n);
  cr_assert_eq(n, published[k], "k=%u: %u patterns, expected %u", k, n, published[k]);
  wm_canonical *c = malloc(n * sizeof *c);
  cr_assert_not_null(c);
  for (unsigned i = 0; i < n; i++) {
    wm_error err;
    cr_assert_eq(ps[i].k, k);
    cr_assert_eq(wm_pattern_validate(&ps[i], &err), WM_OK, "%s", err.msg);
    cr_assert(ps[i].name[0], "pattern %u has no name", i);
    if (i > 0) cr_assert_geq(wm_pattern_edges(&ps[i]), wm_pattern_edges(&ps[i - 1]), "order");
    wm_pattern_canonical(&ps[i], &c[i]);
    cr_assert_eq(memcmp(c[i].form.adj, ps[i].adj, sizeof ps[i].adj), 0, "not in canonical form");
  }
  for (unsigned i = 0; i < n; i++)
    for (unsigned j = 0; j < i; j++) {
      cr_assert_neq(c[i].hash, c[j].hash, "k=%u: %s and %s", k, ps[i].name, ps[j].name);
      cr_assert_str_neq(ps[i].name, ps[j].name);
      if (k <= 6) /* independent of the canonical form */
        cr_assert_not(brute_isomorphic(&ps[i], &ps[j]), "%s ~ %s", ps[i].name, ps[j].name);
    }
  free(c);
  free(ps);
}

Test(motifs, counts_3_to_6_and_pairwise_distinct, .timeout = 60) {
  for (unsigned k = 2; k <= 6; k++) check_generated(k);
}

Test(motifs, counts_7_and_8, .timeout = 120) {
  check_generated(7);
  unsigned n;
  wm_pattern *ps = connected(8, &n);
  cr_assert_eq(n, published[8], "k=8: %u", n);
  free(ps);
}

Test(motifs, every_small_pattern_has_its_catalogue_name) {
  for (unsigned k = 3; k <= 5; k++) {
    unsigned n;
    wm_pattern *ps = connected(k, &n);
    for (unsigned i = 0; i < n; i++) {
      unsigned kk, e, serial;
      int end = 0;
      sscanf(ps[i].name, "%uv-%ue-%u%n", &kk, &e, &serial, &end);
      cr_assert_eq(end, 0, "k=%u: generated name %s", k, ps[i].name);
      wm_pattern q = named(ps[i].name); /* the name resolves to this graph */
      cr_assert(brute_isomorphic(&q, &ps[i]), "%s resolves to another graph", ps[i].name);
    }
    free(ps);
  }
  /* and the 21 are exactly the catalogue's 5-vertex names */
  unsigned n, listed = 0;
  wm_pattern *ps = connected(5, &n);
  for (const char *const *nm = wm_catalogue_names(); *nm; nm++) {
    if (named(*nm).k != 5) continue;
    listed++;
    unsigned hits = 0;
    for (unsigned i = 0; i < n; i++) hits += strcmp(ps[i].name, *nm) == 0;
    cr_assert_eq(hits, 1, "%s appears %u times among the 21", *nm, hits);
  }
  cr_assert_eq(listed, 21);
  free(ps);
}

Test(motifs, generated_names_for_larger_k) {
  unsigned n, generated = 0;
  wm_pattern *ps = connected(6, &n);
  for (unsigned i = 0; i < n; i++) {
    char want[64];
    if (strncmp(ps[i].name, "6v-", 3) == 0) {
      generated++;
      snprintf(want, sizeof want, "6v-%ue-", wm_pattern_edges(&ps[i]));
      cr_assert(strncmp(ps[i].name, want, strlen(want)) == 0, "%s", ps[i].name);
    } else {
      cr_assert(wm_catalogue_name_of(&ps[i], want, sizeof want));
      cr_assert_str_eq(want, ps[i].name);
    }
  }
  cr_assert_eq(generated, n - 4, "6-clique, 6-cycle, 6-path, 6-star are named");
  free(ps);
  wm_error err;
  cr_assert_eq(wm_connected_patterns(9, &ps, &n, &err), WM_EUSAGE);
  cr_assert_eq(wm_connected_patterns(1, &ps, &n, &err), WM_EUSAGE);
}

/* ---- restrictions ----------------------------------------------------- */

/* A small data graph as an adjacency matrix, with vertex labels. */
typedef struct data_graph {
  unsigned n;
  uint8_t adj[16][16];
  int32_t label[16];
} data_graph;

static data_graph random_graph(unsigned n, unsigned percent, unsigned n_labels, uint64_t seed) {
  data_graph g;
  memset(&g, 0, sizeof g);
  g.n = n;
  for (unsigned u = 0; u < n; u++) {
    g.label[u] = n_labels ? (int32_t)(wm_test_rand(&seed) % n_labels) : 0;
    for (unsigned v = u + 1; v < n; v++)
      if (wm_test_rand(&seed) % 100 < percent) g.adj[u][v] = g.adj[v][u] = 1;
  }
  return g;
}

typedef struct embed_count {
  const wm_pattern *p;
  const data_graph *g;
  const wm_restriction *r;
  unsigned n_r;
  uint32_t map[WM_MAX_K];
  uint64_t count;
} embed_count;

/* Injective maps of pattern vertices 0..k-1 (in that order) into the data
 * graph keeping every pattern edge and label, and every restriction whose
 * vertices are both mapped. */
static void embed(embed_count *e, unsigned i) {
  if (i == e->p->k) {
    e->count++;
    return;
  }
  for (uint32_t x = 0; x < e->g->n; x++) {
    int ok = e->p->label[i] == WM_ANY_LABEL || e->p->label[i] == e->g->label[x];
    for (unsigned j = 0; j < i && ok; j++)
      ok = e->map[j] != x && (!wm_pattern_has_edge(e->p, i, j) || e->g->adj[x][e->map[j]]);
    for (unsigned t = 0; t < e->n_r && ok; t++) {
      unsigned a = e->r[t].a, b = e->r[t].b;
      if (a == i && b < i) ok = x < e->map[b];
      if (b == i && a < i) ok = e->map[a] < x;
    }
    if (!ok) continue;
    e->map[i] = x;
    embed(e, i + 1);
  }
}

static uint64_t count_embeddings(const wm_pattern *p, const data_graph *g, const wm_restriction *r,
                                 unsigned n_r) {
  embed_count e = {.p = p, .g = g, .r = r, .n_r = n_r};
  embed(&e, 0);
  return e.count;
}

/* count with restrictions * |Aut| == count without, for identity order and
 * a random order of representatives. */
static void check_restrictions(const wm_pattern *p, const data_graph *g, uint64_t *rng) {
  wm_automorphisms a;
  wm_error err;
  cr_assert_eq(wm_pattern_automorphisms(p, &a, &err), WM_OK, "%s", err.msg);
  uint64_t all = count_embeddings(p, g, NULL, 0);
  wm_restriction r[WM_MAX_K * WM_MAX_K];
  for (int variant = 0; variant < 2; variant++) {
    uint8_t order[WM_MAX_K];
    random_perm(order, p->k, rng);
    unsigned n_r = variant == 0 ? wm_pattern_restrictions(p, r)
                                : wm_pattern_restrictions_ordered(p, order, r);
    for (unsigned t = 0; t < n_r; t++) cr_assert(r[t].a < p->k && r[t].b < p->k && r[t].a != r[t].b);
    if (a.count == 1) cr_assert_eq(n_r, 0, "%s: asymmetric pattern needs no restriction", p->name);
    uint64_t once = count_embeddings(p, g, r, n_r);
    cr_assert_eq(once * a.count, all,
                 "%s (variant %d): %llu with restrictions x |Aut| %u != %llu embeddings", p->name,
                 variant, (unsigned long long)once, a.count, (unsigned long long)all);
  }
  wm_automorphisms_free(&a);
}

Test(restrictions, catalogue_patterns_count_each_subgraph_once, .timeout = 60) {
  uint64_t rng = 5;
  data_graph g[2] = {random_graph(11, 50, 0, 1), random_graph(10, 65, 0, 2)};
  for (size_t i = 0; i < N_EXPECTED; i++) {
    wm_pattern p = named(expected[i].name);
    for (int gi = 0; gi < 2; gi++) check_restrictions(&p, &g[gi], &rng);
  }
  /* the families up to 8 vertices, on a denser small graph */
  data_graph big = random_graph(10, 75, 0, 3);
  for (unsigned k = 6; k <= WM_MAX_K; k++)
    for (unsigned f = 0; f < 4; f++) {
      wm_pattern p = family(k, f);
      check_restrictions(&p, &big, &rng);
    }
}

Test(restrictions, all_connected_3_to_6_vertex_patterns, .timeout = 60) {
  uint64_t rng = 11;
  data_graph g[2] = {random_graph(10, 55, 0, 4), random_graph(9, 70, 0, 5)};
  for (unsigned k = 3; k <= 6; k++) {
    unsigned n;
    wm_pattern *ps = connected(k, &n);
    for (unsigned i = 0; i < n; i++)
      for (int gi = 0; gi < (k <= 5 ? 2 : 1); gi++) check_restrictions(&ps[i], &g[gi], &rng);
    free(ps);
  }
}

Test(restrictions, labeled_patterns, .timeout = 60) {
  uint64_t rng = 17;
  data_graph g = random_graph(11, 60, 2, 6);
  for (unsigned k = 3; k <= 5; k++) {
    unsigned n;
    wm_pattern *ps = connected(k, &n);
    for (unsigned i = 0; i < n; i++)
      for (int t = 0; t < 3; t++) {
        wm_pattern p = ps[i];
        for (unsigned v = 0; v < p.k; v++)
          wm_pattern_set_label(&p, v, (int32_t)(wm_test_rand(&rng) % 3) - 1);
        check_restrictions(&p, &g, &rng);
      }
    free(ps);
  }
}

/* The restrictions from the group listed (what the planner uses for each
 * order it tries) are those of the search, pair for pair in the same
 * order, for every connected pattern of 3 to 6 vertices (labelled ones
 * too), the 7- and 8-vertex families, and random orders. */
static void check_in_group(const wm_pattern *p, uint64_t *rng) {
  wm_automorphisms a;
  wm_error err;
  cr_assert_eq(wm_pattern_automorphisms(p, &a, &err), WM_OK, "%s", err.msg);
  for (int t = 0; t < 3; t++) {
    uint8_t order[WM_MAX_K];
    random_perm(order, p->k, rng);
    wm_restriction r[WM_MAX_K * WM_MAX_K], q[WM_MAX_K * WM_MAX_K];
    const uint8_t *o = t ? order : NULL;
    unsigned n = wm_pattern_restrictions_ordered(p, o, r), m = wm_pattern_restrictions_in_group(&a, p->k, o, q);
    cr_assert_eq(m, n, "%s: %u restrictions from the group, %u searched", p->name, m, n);
    for (unsigned i = 0; i < n; i++)
      cr_assert(q[i].a == r[i].a && q[i].b == r[i].b, "%s: restriction %u differs", p->name, i);
  }
  wm_automorphisms_free(&a);
}

Test(restrictions, in_group_as_searched, .timeout = 60) {
  uint64_t rng = 23;
  for (unsigned k = 3; k <= 6; k++) {
    unsigned n;
    wm_pattern *ps = connected(k, &n);
    for (unsigned i = 0; i < n; i++) {
      check_in_group(&ps[i], &rng);
      wm_pattern p = ps[i];
      for (unsigned v = 0; v < p.k; v++) wm_pattern_set_label(&p, v, (int32_t)(wm_test_rand(&rng) % 2) - 1);
      check_in_group(&p, &rng);
    }
    free(ps);
  }
  for (unsigned k = 7; k <= WM_MAX_K; k++)
    for (unsigned f = 0; f < 4; f++) {
      wm_pattern p = family(k, f);
      check_in_group(&p, &rng);
    }
}

Test(restrictions, known_small_cases) {
  wm_restriction r[WM_MAX_K * WM_MAX_K];
  wm_pattern t = named("triangle");
  unsigned n = wm_pattern_restrictions(&t, r);
  cr_assert_eq(n, 3, "triangle: v0 < v1, v0 < v2, v1 < v2");
  wm_pattern s = named("5-star"); /* centre 0: the leaves are ordered */
  n = wm_pattern_restrictions(&s, r);
  for (unsigned i = 0; i < n; i++) cr_assert_neq(r[i].a, 0, "the centre is never restricted");
  wm_pattern c = named("6-cycle"); /* 2k = 12 = orbit 6 x orbit 2 */
  n = wm_pattern_restrictions(&c, r);
  cr_assert_eq(n, 5 + 1);
  uint8_t order[WM_MAX_K] = {3, 0, 1, 2, 4, 5};
  n = wm_pattern_restrictions_ordered(&c, order, r);
  cr_assert_eq(n, 6);
  for (unsigned i = 0; i < 5; i++) cr_assert_eq(r[i].a, 3, "vertex 3 comes first in the order");
}
