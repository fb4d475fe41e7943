/* The CPU executor against a brute-force oracle written here, independent
 * of the planner: every k-subset of a small random graph is tested against
 * the pattern by trying every bijection of the pattern onto it.  Subsets
 * with the same induced subgraph (and labels) give the same answer, so the
 * oracle tests one representative of each and multiplies.  Subgraph counts
 * are embeddings / |Aut(P)|, with |Aut| found by the same bijection search.
 *
 * Covered: every connected pattern of 3-5 vertices (as generated and under
 * its catalogue name), edge- and vertex-induced, with and without labels,
 * subgraphs and embeddings, with and without code motion, on 30
 * Erdos-Renyi and 30 power-law graphs with hubs (10-60 vertices); every
 * connected matching order of the 4- and 5-vertex patterns; families up to
 * 8 vertices; hubs above the split threshold; per-vertex counts, listing,
 * and BFS-ball restrictions. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "matcher.h"
#include "testutil.h"

#define NGRAPHS 30

/* ---- the oracle ---------------------------------------------------- */

typedef struct bgraph {
  unsigned n;
  uint64_t adj[64][1]; /* n <= 64 */
  int32_t label[64];
  int labeled;
} bgraph;

static void to_bgraph(const wm_graph *g, const int32_t *labels, bgraph *b) {
  cr_assert(g->n <= 64);
  memset(b, 0, sizeof *b);
  b->n = g->n;
  for (uint32_t v = 0; v < g->n; v++) {
    for (uint64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++) b->adj[v][0] |= 1ull << g->adj[e];
    b->label[v] = labels ? labels[v] : 0;
  }
  b->labeled = labels != NULL;
}

static int badj(const bgraph *b, unsigned u, unsigned v) { return (b->adj[u][0] >> v) & 1u; }

/* A subset's induced subgraph and labels as one 64-bit key. */
static unsigned pair_bit(unsigned i, unsigned j) { return j * (j - 1) / 2 + i; } /* i < j */

typedef struct sub {
  unsigned k;
  int adj[8][8];
  unsigned row[8]; /* adj as bitmasks, filled by sub_rows */
  int32_t label[8];
} sub;

static void sub_rows(sub *s) {
  for (unsigned x = 0; x < s->k; x++) {
    s->row[x] = 0;
    for (unsigned y = 0; y < s->k; y++) s->row[x] |= (unsigned)s->adj[x][y] << y;
  }
}

static void decode(uint64_t key, unsigned k, int labeled, sub *s) {
  s->k = k;
  for (unsigned j = 0; j < k; j++) {
    s->adj[j][j] = 0;
    for (unsigned i = 0; i < j; i++) s->adj[i][j] = s->adj[j][i] = (int)((key >> pair_bit(i, j)) & 1u);
    s->label[j] = labeled ? (int32_t)((key >> (32 + 2 * j)) & 3u) : -2;
  }
  sub_rows(s);
}

/* Bijections pattern -> subset (vertex a -> map[a]) that keep every pattern
 * edge (and non-edge when induced) and every pattern label. */
static uint64_t bijections(const wm_pattern *p, const sub *s, int induced, unsigned a, int *map,
                           unsigned used) {
  if (a == p->k) return 1;
  unsigned need = 0, forbid = 0; /* images that x must / must not touch */
  for (unsigned b = 0; b < a; b++) {
    if (wm_pattern_has_edge(p, a, b))
      need |= 1u << map[b];
    else
      forbid |= 1u << map[b];
  }
  if (!induced) forbid = 0;
  uint64_t c = 0;
  for (unsigned x = 0; x < s->k; x++) {
    if ((used >> x) & 1u) continue;
    if (p->label[a] != WM_ANY_LABEL && p->label[a] != s->label[x]) continue;
    if ((s->row[x] & need) != need || (s->row[x] & forbid)) continue;
    map[a] = (int)x;
    c += bijections(p, s, induced, a + 1, map, used | (1u << x));
  }
  return c;
}

/* |Aut(P)|: bijections of P onto itself keeping edges, non-edges, labels. */
static uint64_t automorphisms(const wm_pattern *p) {
  sub s;
  s.k = p->k;
  for (unsigned i = 0; i < p->k; i++) {
    s.label[i] = p->label[i];
    for (unsigned j = 0; j < p->k; j++) s.adj[i][j] = wm_pattern_has_edge(p, i, j);
  }
  sub_rows(&s);
  wm_pattern q = *p; /* labels compared as equal values, ANY with ANY */
  int map[8];
  return bijections(&q, &s, 1, 0, map, 0);
}

/* Distinct subset keys with their multiplicities (a hash table while
 * building, then packed into the first n entries). */
typedef struct hist {
  unsigned k;
  int labeled;
  uint64_t *key, *mult;
  size_t cap, n;
} hist;

static void hist_add(hist *h, uint64_t key) {
  size_t i = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 20) & (h->cap - 1);
  while (h->mult[i] && h->key[i] != key) i = (i + 1) & (h->cap - 1);
  if (!h->mult[i]) h->key[i] = key, h->n++;
  h->mult[i]++;
  cr_assert(h->n < h->cap / 2, "oracle table full");
}

static void enum_subsets(const bgraph *b, hist *h, unsigned depth, unsigned start, unsigned *pick,
                         uint64_t key) {
  if (depth == h->k) {
    hist_add(h, key);
    return;
  }
  for (unsigned v = start; v + (h->k - depth) <= b->n; v++) {
    uint64_t nk = key;
    for (unsigned i = 0; i < depth; i++)
      if (badj(b, pick[i], v)) nk |= 1ull << pair_bit(i, depth);
    if (b->labeled) nk |= (uint64_t)b->label[v] << (32 + 2 * depth);
    pick[depth] = v;
    enum_subsets(b, h, depth + 1, v + 1, pick, nk);
  }
}

static void hist_build(const bgraph *b, unsigned k, hist *h) {
  h->k = k;
  h->labeled = b->labeled;
  h->cap = 1u << 18;
  h->n = 0;
  h->key = calloc(h->cap, sizeof *h->key);
  h->mult = calloc(h->cap, sizeof *h->mult);
  unsigned pick[8];
  enum_subsets(b, h, 0, 0, pick, 0);
  size_t n = 0;
  for (size_t i = 0; i < h->cap; i++)
    if (h->mult[i]) h->key[n] = h->key[i], h->mult[n++] = h->mult[i];
  cr_assert_eq(n, h->n);
}

static void hist_free(hist *h) {
  free(h->key);
  free(h->mult);
}

static uint64_t oracle_embeddings(const hist *h, const wm_pattern *p, int induced) {
  uint64_t total = 0;
  for (size_t i = 0; i < h->n; i++) {
    sub s;
    int map[8];
    decode(h->key[i], h->k, h->labeled, &s);
    total += h->mult[i] * bijections(p, &s, induced, 0, map, 0);
  }
  return total;
}

/* ---- the executor under test -------------------------------------- */

typedef struct runcfg {
  int induced, embeddings, code_motion, threads;
  int no_pairs; /* iterate the last two positions even where pairs could be counted */
  int first_edge_up; /* the GPU's bounds for an interchangeable first edge (v1 > v0) */
  const int32_t *labels;
  const uint8_t *forced_order;
  uint32_t hub_degree; /* 0: the executor's default; small: split nearly every root */
  const wm_graph_summary *gs; /* the graph's, computed once */
} runcfg;

static uint64_t run_cpu(const wm_graph *g, const wm_pattern *p, const runcfg *c, wm_plan *plan_out) {
  wm_plan_options po;
  wm_plan_options_init(&po);
  po.induced = c->induced;
  po.embeddings = c->embeddings;
  po.code_motion = c->code_motion;
  po.pair_count = !c->no_pairs;
  po.first_edge_up = c->first_edge_up;
  po.forced_order = c->forced_order;
  wm_plan plan;
  wm_error err;
  int rc = wm_plan_build(p, c->gs, &po, &plan, &err);
  cr_assert_eq(rc, WM_OK, "plan for %s: %s", p->name, err.msg);
  wm_match_options mo;
  wm_match_options_init(&mo);
  mo.threads = c->threads;
  mo.vertex_labels = c->labels;
  mo.cpu_hub_degree = c->hub_degree;
  wm_match_result r;
  rc = wm_match_cpu(g, &plan, &mo, &r, &err);
  cr_assert_eq(rc, WM_OK, "match %s: %s", p->name, err.msg);
  if (plan_out) *plan_out = plan;
  return r.count;
}

static wm_graph *make_graph(unsigned i, unsigned nmin, unsigned nmax, int powerlaw) {
  uint32_t n = nmin + i * (nmax - nmin) / (NGRAPHS - 1);
  uint64_t seed = 1000 + i * 7919 + (uint64_t)powerlaw * 104729;
  if (powerlaw) return wm_test_powerlaw(n, 5.0, 1 + i % 3, 0.6, seed);
  return wm_test_er(n, 0.15 + 0.25 * (double)(i % 4) / 3.0, seed);
}

static int32_t *random_labels(uint32_t n, uint64_t seed) {
  int32_t *l = malloc(n * sizeof *l);
  for (uint32_t v = 0; v < n; v++) l[v] = (int32_t)(wm_test_rand(&seed) % 3);
  return l;
}

/* Some vertices labelled 0..2, the rest any label; vertex 0 always labelled. */
static void label_pattern(wm_pattern *p, uint64_t seed) {
  for (unsigned v = 0; v < p->k; v++) {
    unsigned r = (unsigned)(wm_test_rand(&seed) % 4);
    wm_pattern_set_label(p, v, (v == 0 || r < 3) ? (int32_t)(r % 3) : WM_ANY_LABEL);
  }
}

/* The patterns of size k: generated (canonical numbering) and, for each,
 * the catalogue's own numbering of the same graph. */
static wm_pattern *patterns_of_size(unsigned k, unsigned *count) {
  wm_pattern *gen;
  unsigned n;
  wm_error err;
  cr_assert_eq(wm_connected_patterns(k, &gen, &n, &err), WM_OK, "%s", err.msg);
  wm_pattern *all = malloc(2 * n * sizeof *all);
  unsigned c = 0;
  for (unsigned i = 0; i < n; i++) all[c++] = gen[i];
  const char *const *names = wm_catalogue_names();
  for (unsigned i = 0; names[i]; i++) {
    wm_pattern p;
    cr_assert_eq(wm_pattern_from_name(names[i], &p, &err), WM_OK, "%s", err.msg);
    if (p.k == k) all[c++] = p;
  }
  free(gen);
  *count = c;
  return all;
}

/* One graph, one pattern size: every pattern in every mode. */
static void check_graph(const wm_graph *g, unsigned k, uint64_t seed) {
  unsigned np;
  wm_pattern *pats = patterns_of_size(k, &np);
  int32_t *labels = random_labels(g->n, seed);
  wm_graph_summary gs;
  wm_graph_summary_compute(g, &gs);
  for (int lab = 0; lab < 2; lab++) {
    bgraph b;
    to_bgraph(g, lab ? labels : NULL, &b);
    hist h;
    hist_build(&b, k, &h);
    for (unsigned i = 0; i < np; i++) {
      wm_pattern p = pats[i];
      if (lab) label_pattern(&p, seed + i);
      uint64_t aut = automorphisms(&p);
      for (int induced = 0; induced < 2; induced++) {
        uint64_t emb = oracle_embeddings(&h, &p, induced);
        cr_assert_eq(emb % aut, 0, "%s: embeddings %lu not a multiple of |Aut| %lu", p.name,
                     (unsigned long)emb, (unsigned long)aut);
        for (int mode = 0; mode < 4; mode++) {
          /* two threads now and then: the rest is cheaper serially */
          runcfg c = {.induced = induced, .embeddings = mode & 1, .code_motion = (mode >> 1) & 1,
                      .threads = 1 + (i % 8 == 0 && seed % 5 == 0), .no_pairs = (int)((i + seed) % 2),
                      .first_edge_up = (int)((i + seed + (unsigned)mode) / 2 % 2),
                      .labels = lab ? labels : NULL, .hub_degree = (i + (unsigned)mode) % 3 == 0 ? 3u : 0u,
                      .gs = &gs};
          wm_plan plan;
          uint64_t got = run_cpu(g, &p, &c, &plan);
          uint64_t want = c.embeddings ? emb : emb / aut;
          cr_assert_eq(got, want,
                       "%s (k=%u, n=%u, labels=%d, induced=%d, embeddings=%d, motion=%d): got %lu, "
                       "brute force %lu",
                       p.name, k, g->n, lab, induced, c.embeddings, c.code_motion, (unsigned long)got,
                       (unsigned long)want);
          cr_assert_eq(plan.automorphisms, aut, "%s: |Aut| %u, brute force %lu", p.name,
                       plan.automorphisms, (unsigned long)aut);
        }
      }
    }
    hist_free(&h);
  }
  free(labels);
  free(pats);
}

static void check_family(unsigned k, unsigned nmin, unsigned nmax, int powerlaw) {
  for (unsigned i = 0; i < NGRAPHS; i++) {
    wm_graph *g = make_graph(i, nmin, nmax, powerlaw);
    check_graph(g, k, 77 + i);
    wm_graph_destroy(g);
  }
}

Test(oracle_cpu, size3_erdos_renyi, .timeout = 120) { check_family(3, 10, 60, 0); }
Test(oracle_cpu, size3_powerlaw, .timeout = 120) { check_family(3, 10, 60, 1); }
Test(oracle_cpu, size4_erdos_renyi, .timeout = 120) { check_family(4, 10, 40, 0); }
Test(oracle_cpu, size4_powerlaw, .timeout = 120) { check_family(4, 10, 40, 1); }
Test(oracle_cpu, size5_erdos_renyi, .timeout = 120) { check_family(5, 10, 22, 0); }
Test(oracle_cpu, size5_powerlaw, .timeout = 120) { check_family(5, 10, 22, 1); }

/* Every connected order, forced: the executor must not depend on the
 * planner's favourite. */
static void orders_rec(const wm_pattern *p, uint8_t *ord, unsigned depth, unsigned used,
                       uint8_t (*out)[WM_MAX_K], unsigned *n) {
  if (depth == p->k) {
    memcpy(out[(*n)++], ord, WM_MAX_K);
    return;
  }
  for (unsigned v = 0; v < p->k; v++) {
    if ((used >> v) & 1u) continue;
    if (depth && !(p->adj[v] & used)) continue;
    ord[depth] = (uint8_t)v;
    orders_rec(p, ord, depth + 1, used | (1u << v), out, n);
  }
}

static void check_all_orders(unsigned k, unsigned ngraphs, unsigned n) {
  unsigned np;
  wm_pattern *pats = patterns_of_size(k, &np);
  static uint8_t orders[40320][WM_MAX_K];
  for (unsigned gi = 0; gi < ngraphs; gi++) {
    wm_graph *g = gi % 2 ? wm_test_powerlaw(n, 5.0, 2, 0.6, 31 + gi) : wm_test_er(n, 0.3, 31 + gi);
    int32_t *labels = random_labels(g->n, 5 + gi);
    bgraph b;
    to_bgraph(g, gi % 2 ? labels : NULL, &b);
    hist h;
    hist_build(&b, k, &h);
    wm_graph_summary gs;
    wm_graph_summary_compute(g, &gs);
    for (unsigned i = 0; i < np; i++) {
      wm_pattern p = pats[i];
      if (gi % 2) label_pattern(&p, 99 + i);
      uint64_t aut = automorphisms(&p);
      unsigned no = 0;
      uint8_t ord[WM_MAX_K] = {0};
      orders_rec(&p, ord, 0, 0, orders, &no);
      for (int induced = 0; induced < 2; induced++) {
        uint64_t want = oracle_embeddings(&h, &p, induced) / aut;
        for (unsigned o = 0; o < no; o++)
          for (int motion = 0; motion < 2; motion++) {
            runcfg c = {.induced = induced, .code_motion = motion, .threads = 1, .no_pairs = (int)(o % 2),
                        .labels = gi % 2 ? labels : NULL, .forced_order = orders[o], .hub_degree = 2, .gs = &gs};
            uint64_t got = run_cpu(g, &p, &c, NULL);
            cr_assert_eq(got, want, "%s order %u%u%u%u%u induced=%d motion=%d: got %lu, brute force %lu",
                         p.name, orders[o][0], orders[o][1], orders[o][2], orders[o][3], orders[o][4],
                         induced, motion, (unsigned long)got, (unsigned long)want);
          }
      }
    }
    hist_free(&h);
    free(labels);
    wm_graph_destroy(g);
  }
  free(pats);
}

Test(oracle_cpu, every_order_size4, .timeout = 120) { check_all_orders(4, 4, 24); }
Test(oracle_cpu, every_order_size5, .timeout = 120) { check_all_orders(5, 2, 16); }

/* Families beyond 5 vertices on small dense graphs. */
Test(oracle_cpu, families_up_to_8, .timeout = 120) {
  static const char *names[] = {"6-clique", "6-cycle", "6-path", "6-star", "7-cycle", "7-clique",
                                "8-clique", "8-path", NULL};
  for (unsigned gi = 0; gi < 4; gi++) {
    wm_graph *g = wm_test_er(12 + gi % 2, 0.5 + 0.1 * gi, 500 + gi);
    bgraph b;
    to_bgraph(g, NULL, &b);
    wm_graph_summary gs;
    wm_graph_summary_compute(g, &gs);
    for (unsigned i = 0; names[i]; i++) {
      wm_pattern p;
      wm_error err;
      cr_assert_eq(wm_pattern_from_name(names[i], &p, &err), WM_OK, "%s", err.msg);
      hist h;
      hist_build(&b, p.k, &h);
      uint64_t aut = automorphisms(&p);
      for (int induced = 0; induced < 2; induced++) {
        uint64_t want = oracle_embeddings(&h, &p, induced) / aut;
        for (int motion = 0; motion < 2; motion++) {
          runcfg c = {.induced = induced, .code_motion = motion, .threads = 2, .first_edge_up = motion, .gs = &gs};
          uint64_t got = run_cpu(g, &p, &c, NULL);
          cr_assert_eq(got, want, "%s n=%u induced=%d motion=%d: got %lu, brute force %lu", p.name,
                       g->n, induced, motion, (unsigned long)got, (unsigned long)want);
        }
      }
      hist_free(&h);
    }
    wm_graph_destroy(g);
  }
}

/* STMatch's 24 query patterns (5-7 vertices; patterns/stmatch),
 * whose plans count their last two positions as pairs, as a product or
 * one by one: each way against brute force, on a dense random graph and
 * a power-law one with hubs above the split threshold. */
Test(oracle_cpu, stmatch_patterns, .timeout = 120) {
  for (unsigned gi = 0; gi < 2; gi++) {
    wm_graph *g = gi ? wm_test_powerlaw(17, 8.0, 2, 0.6, 620) : wm_test_er(15, 0.6, 610);
    bgraph b;
    to_bgraph(g, NULL, &b);
    wm_graph_summary gs;
    wm_graph_summary_compute(g, &gs);
    hist h[3];
    for (unsigned k = 5; k <= 7; k++) hist_build(&b, k, &h[k - 5]);
    for (unsigned n = 1; n <= 24; n++) {
      wm_pattern p = wm_test_stmatch_pattern(n);
      uint64_t want = oracle_embeddings(&h[p.k - 5], &p, 0) / automorphisms(&p);
      for (int mode = 0; mode < 4; mode++) {
        runcfg c = {.code_motion = mode & 1, .no_pairs = mode >> 1, .threads = 1 + (int)gi,
                    .hub_degree = gi ? 3u : 0u, .first_edge_up = (int)(n % 2), .gs = &gs};
        uint64_t got = run_cpu(g, &p, &c, NULL);
        cr_assert_eq(got, want, "p%u n=%u motion=%d pairs=%d: got %lu, brute force %lu", n, g->n,
                     c.code_motion, !c.no_pairs, (unsigned long)got, (unsigned long)want);
      }
    }
    for (unsigned k = 0; k < 3; k++) hist_free(&h[k]);
    wm_graph_destroy(g);
  }
}

/* ---- hubs, per-vertex counts, listing, BFS balls -------------------- */

static wm_plan plan_for(const wm_graph *g, const char *name, int induced, int count_only) {
  wm_plan plan;
  wm_test_plan(g, name, induced, 1, count_only, &plan);
  return plan;
}

/* A wheel: hub 0 joined to every vertex of the rim cycle 1..n-1. */
static wm_graph *wheel(uint32_t n) {
  uint64_t m = 2ull * (n - 1);
  uint32_t *src = malloc(m * 4), *dst = malloc(m * 4);
  uint64_t c = 0;
  for (uint32_t v = 1; v < n; v++) {
    src[c] = 0, dst[c++] = v;
    src[c] = v, dst[c++] = v + 1 < n ? v + 1 : 1;
  }
  return wm_test_graph_of_arcs(n, src, dst, c);
}

static wm_match_result match(const wm_graph *g, const wm_plan *plan, wm_match_options *mo) {
  wm_match_result r;
  wm_error err;
  cr_assert_eq(wm_match_cpu(g, plan, mo, &r, &err), WM_OK, "%s", err.msg);
  return r;
}

/* A hub far above the split threshold (degree 4999 > 256): the counts are
 * known in closed form, and must not depend on the threads or the split. */
Test(oracle_cpu, wheel_hub_split) {
  const uint32_t n = 5000;
  wm_graph *g = wheel(n);
  static const struct {
    const char *name;
    int induced;
    uint64_t want;
  } cases[] = {
      {"triangle", 0, n - 1},      {"4-cycle", 0, n - 1}, {"4-cycle", 1, 0},
      {"diamond", 0, n - 1},       {"2-path", 0, 2ull * (n - 1)},
      {"3-path", 1, /* hub-a-x, a and x not rim neighbours */ 0},
      /* counted as pairs at position 1 (roots not split) or 2 */
      {"3-path", 0, (n - 1) * (n - 2) / 2 + 3 * (n - 1)},
      {"4-star", 0, (uint64_t)(n - 1) * (n - 2) * (n - 3) / 6 + (n - 1)},
  };
  /* induced wedges: centre the hub: pairs of non-adjacent rim vertices;
   * centre a rim vertex v: (v-1, v+1) non-adjacent; (hub, v+-1) adjacent */
  uint64_t rim = n - 1, wedges = rim * (rim - 1) / 2 - rim + rim;
  for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    wm_plan plan = plan_for(g, cases[i].name, cases[i].induced, 1);
    uint64_t want = strcmp(cases[i].name, "3-path") == 0 && cases[i].induced ? wedges : cases[i].want;
    uint64_t ops[2];
    for (int t = 1; t <= 2; t++) {
      wm_match_options mo;
      wm_match_options_init(&mo);
      mo.threads = t;
      wm_match_result r = match(g, &plan, &mo);
      cr_assert_eq(r.count, want, "%s induced=%d threads=%d: %lu, expected %lu", cases[i].name,
                   cases[i].induced, t, (unsigned long)r.count, (unsigned long)want);
      ops[t - 1] = r.set_ops;
    }
    cr_assert_eq(ops[0], ops[1], "%s: set ops differ between 1 and 2 threads", cases[i].name);
  }
  /* Per-vertex triangles: the hub is in all of them, a rim vertex in 2. */
  wm_plan plan = plan_for(g, "triangle", 0, 1);
  wm_match_options mo;
  wm_match_options_init(&mo);
  mo.threads = 2;
  uint64_t *pv = calloc(n, sizeof *pv);
  mo.per_vertex = pv;
  wm_match_result r = match(g, &plan, &mo);
  cr_assert_eq(r.count, n - 1);
  cr_assert_eq(pv[0], n - 1, "hub in %lu triangles", (unsigned long)pv[0]);
  for (uint32_t v = 1; v < n; v++) cr_assert_eq(pv[v], 2, "rim vertex %u in %lu triangles", v, (unsigned long)pv[v]);
  free(pv);
  wm_graph_destroy(g);
}

/* Per-vertex counts against subsets enumerated one by one. */
Test(oracle_cpu, per_vertex_counts) {
  static const char *names[] = {"triangle", "4-cycle", "tailed-triangle", "3-path", "5-cycle", NULL};
  for (unsigned gi = 0; gi < 4; gi++) {
    wm_graph *g = gi % 2 ? wm_test_powerlaw(18 + gi, 5.0, 2, 0.7, 70 + gi) : wm_test_er(18 + gi, 0.35, 70 + gi);
    bgraph b;
    to_bgraph(g, NULL, &b);
    for (unsigned i = 0; names[i]; i++) {
      for (int induced = 0; induced < 2; induced++) {
        wm_plan plan = plan_for(g, names[i], induced, 1);
        uint64_t aut = automorphisms(&plan.pattern), want[64] = {0}, total = 0;
        unsigned k = plan.k, pick[8];
        /* all k-subsets in lexicographic order */
        for (unsigned j = 0; j < k; j++) pick[j] = j;
        while (1) {
          sub s;
          s.k = k;
          for (unsigned x = 0; x < k; x++) {
            s.label[x] = -2;
            for (unsigned y = 0; y < k; y++) s.adj[x][y] = x != y && badj(&b, pick[x], pick[y]);
          }
          sub_rows(&s);
          int map[8];
          uint64_t c = bijections(&plan.pattern, &s, induced, 0, map, 0) / aut;
          total += c;
          for (unsigned j = 0; j < k; j++) want[pick[j]] += c;
          int j = (int)k - 1;
          while (j >= 0 && pick[j] == b.n - k + (unsigned)j) j--;
          if (j < 0) break;
          pick[j]++;
          for (unsigned x = (unsigned)j + 1; x < k; x++) pick[x] = pick[x - 1] + 1;
        }
        uint64_t pv[64];
        wm_match_options mo;
        wm_match_options_init(&mo);
        mo.threads = 2;
        mo.cpu_hub_degree = 3;
        mo.per_vertex = pv;
        wm_match_result r = match(g, &plan, &mo);
        cr_assert_eq(r.count, total, "%s: %lu vs %lu", names[i], (unsigned long)r.count, (unsigned long)total);
        for (uint32_t v = 0; v < g->n; v++)
          cr_assert_eq(pv[v], want[v], "%s induced=%d vertex %u: %lu, brute force %lu", names[i], induced, v,
                       (unsigned long)pv[v], (unsigned long)want[v]);
      }
    }
    wm_graph_destroy(g);
  }
}

typedef struct collect {
  uint32_t (*m)[WM_MAX_K];
  uint64_t n, cap;
  int stop_after; /* sink asks to stop after this many (0: never) */
} collect;

static int collect_sink(void *ctx, const uint32_t *match, unsigned k) {
  collect *c = ctx;
  cr_assert(c->n < c->cap, "more matches than the count");
  memcpy(c->m[c->n++], match, k * sizeof *match);
  return c->stop_after && c->n >= (uint64_t)c->stop_after;
}

/* Sorted vertex set + mapped edge set identify a subgraph. */
static void subgraph_key(const wm_pattern *p, const uint32_t *m, uint64_t *key) {
  uint32_t vs[WM_MAX_K];
  memcpy(vs, m, p->k * sizeof *m);
  for (unsigned i = 1; i < p->k; i++)
    for (unsigned j = i; j > 0 && vs[j - 1] > vs[j]; j--) {
      uint32_t t = vs[j];
      vs[j] = vs[j - 1];
      vs[j - 1] = t;
    }
  uint64_t e = 0;
  for (unsigned a = 0; a < p->k; a++)
    for (unsigned b = 0; b < p->k; b++)
      if (wm_pattern_has_edge(p, a, b)) {
        unsigned ia = 0, ib = 0;
        while (vs[ia] != m[a]) ia++;
        while (vs[ib] != m[b]) ib++;
        e |= 1ull << (ia * 8 + ib);
      }
  key[0] = e;
  key[1] = ((uint64_t)vs[0] << 48) ^ ((uint64_t)vs[1] << 32) ^ ((uint64_t)vs[2] << 16) ^ vs[p->k - 1];
  for (unsigned i = 0; i < p->k; i++) key[1] = key[1] * 1000003u + vs[i];
}

static int cmp_key(const void *x, const void *y) {
  const uint64_t *a = x, *b = y;
  if (a[0] != b[0]) return a[0] < b[0] ? -1 : 1;
  return (a[1] > b[1]) - (a[1] < b[1]);
}

/* Listed matches are valid, each subgraph appears once, their number is the
 * count, and --limit / a stopping sink are obeyed exactly. */
Test(oracle_cpu, listing) {
  static const char *names[] = {"triangle", "4-cycle", "diamond", "house", "5-star", "3-path", NULL};
  wm_graph *g = wm_test_powerlaw(40, 6.0, 2, 0.5, 4242);
  bgraph b;
  to_bgraph(g, NULL, &b);
  for (unsigned i = 0; names[i]; i++)
    for (int induced = 0; induced < 2; induced++) {
      wm_plan counting = plan_for(g, names[i], induced, 1), plan = plan_for(g, names[i], induced, 0);
      wm_match_options mo;
      wm_match_options_init(&mo);
      mo.threads = 2;
      mo.cpu_hub_degree = 4;
      uint64_t total = match(g, &counting, &mo).count;
      collect c = {malloc((total + 1) * sizeof *c.m), 0, total + 1, 0};
      mo.sink = collect_sink;
      mo.sink_ctx = &c;
      wm_match_result r = match(g, &plan, &mo);
      cr_assert_eq(r.count, total, "%s: listing counted %lu, counting %lu", names[i], (unsigned long)r.count,
                   (unsigned long)total);
      cr_assert_eq(c.n, total);
      cr_assert_eq(r.listed, total);
      uint64_t (*keys)[2] = malloc((total + 1) * sizeof *keys);
      for (uint64_t x = 0; x < c.n; x++) {
        const uint32_t *m = c.m[x];
        for (unsigned a = 0; a < plan.k; a++)
          for (unsigned bb = 0; bb < plan.k; bb++) {
            if (a == bb) continue;
            cr_assert_neq(m[a], m[bb], "%s: match not injective", names[i]);
            int pe = wm_pattern_has_edge(&plan.pattern, a, bb), ge = badj(&b, m[a], m[bb]);
            cr_assert(!pe || ge, "%s: pattern edge %u-%u not in the graph", names[i], a, bb);
            cr_assert(!induced || pe || !ge, "%s: induced match has an extra edge", names[i]);
          }
        subgraph_key(&plan.pattern, m, keys[x]);
      }
      qsort(keys, c.n, sizeof *keys, cmp_key);
      for (uint64_t x = 1; x < c.n; x++)
        cr_assert(cmp_key(keys[x - 1], keys[x]) != 0, "%s: a subgraph was listed twice", names[i]);
      free(keys);
      if (total >= 3) {
        c.n = 0;
        mo.limit = total / 2;
        r = match(g, &plan, &mo);
        cr_assert_eq(r.listed, total / 2, "%s: limit %lu listed %lu", names[i], (unsigned long)(total / 2),
                     (unsigned long)r.listed);
        cr_assert_eq(c.n, total / 2);
        cr_assert_eq(r.count, total / 2);
        c.n = 0;
        mo.limit = 0;
        c.stop_after = 2;
        r = match(g, &plan, &mo);
        cr_assert_eq(c.n, 2, "%s: the sink asked to stop after 2, got %lu", names[i], (unsigned long)c.n);
        c.stop_after = 0;
      }
      free(c.m);
    }
  wm_graph_destroy(g);
}

/* allowed + first (a BFS ball) equal counting on the induced subgraph. */
Test(oracle_cpu, allowed_vertices) {
  static const char *names[] = {"triangle", "4-clique", "4-path", "tailed-triangle", "5-cycle", NULL};
  for (unsigned gi = 0; gi < 6; gi++) {
    wm_graph *g = gi % 2 ? wm_test_powerlaw(24, 5.0, 2, 0.6, 900 + gi) : wm_test_er(24, 0.3, 900 + gi);
    uint64_t seed = 17 + gi;
    uint8_t allowed[64];
    uint32_t first[64], nfirst = 0;
    for (uint32_t v = 0; v < g->n; v++) {
      allowed[v] = wm_test_rand(&seed) % 10 < 7;
      if (allowed[v]) first[nfirst++] = v;
    }
    /* the same graph with the disallowed vertices' edges removed */
    uint32_t *src = malloc(g->m * 4), *dst = malloc(g->m * 4);
    uint64_t c = 0;
    for (uint32_t u = 0; u < g->n; u++)
      for (uint64_t e = g->offsets[u]; e < g->offsets[u + 1]; e++)
        if (allowed[u] && allowed[g->adj[e]] && u < g->adj[e]) src[c] = u, dst[c++] = g->adj[e];
    wm_graph *h = NULL;
    wm_error err;
    cr_assert_eq(wm_graph_from_arcs(src, dst, c, g->n, 0, &h, &err), WM_OK, "%s", err.msg);
    free(src);
    free(dst);
    bgraph b;
    to_bgraph(h, NULL, &b);
    for (unsigned i = 0; names[i]; i++)
      for (int induced = 0; induced < 2; induced++) {
        wm_plan plan = plan_for(g, names[i], induced, 1);
        hist hs;
        hist_build(&b, plan.k, &hs);
        uint64_t emb = oracle_embeddings(&hs, &plan.pattern, induced);
        hist_free(&hs);
        /* isolated-by-removal vertices cannot be in a connected match */
        uint64_t want = emb / automorphisms(&plan.pattern);
        for (int use_first = 0; use_first < 2; use_first++) {
          wm_match_options mo;
          wm_match_options_init(&mo);
          mo.threads = 2;
          mo.allowed = allowed;
          if (use_first) mo.first = first, mo.n_first = nfirst;
          wm_match_result r = match(g, &plan, &mo);
          cr_assert_eq(r.count, want, "%s induced=%d first=%d: %lu, brute force %lu", names[i], induced,
                       use_first, (unsigned long)r.count, (unsigned long)want);
        }
      }
    wm_graph_destroy(h);
    wm_graph_destroy(g);
  }
}

/* A labeled pattern without the graph's labels is a usage error. */
Test(oracle_cpu, labels_required) {
  wm_graph *g = wm_test_er(10, 0.5, 3);
  wm_pattern p;
  wm_error err;
  cr_assert_eq(wm_pattern_from_name("triangle", &p, &err), WM_OK);
  wm_pattern_set_label(&p, 0, 1);
  wm_plan plan;
  cr_assert_eq(wm_plan_build(&p, NULL, NULL, &plan, &err), WM_OK, "%s", err.msg);
  wm_match_result r;
  int rc = wm_match_cpu(g, &plan, NULL, &r, &err);
  cr_assert_eq(rc, WM_EUSAGE);
  cr_assert(strstr(err.msg, "labels") != NULL, "message: %s", err.msg);
  wm_graph_destroy(g);
}
