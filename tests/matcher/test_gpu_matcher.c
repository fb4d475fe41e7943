/* The GPU matcher against the CPU executor (the reference), on the same
 * plan: counts of every connected 3-5 vertex pattern and the larger
 * families, edge- and vertex-induced, with labels, seeds, BFS-ball
 * restrictions and per-vertex counts, on random graphs with hubs, the
 * shared real graph and Kronecker graphs; for each stealing mode (none,
 * intra-block, two-level), U = 1 and the default, small grids that force
 * stealing; hub vertices far above a deliberately tiny set buffer; listing
 * (the exact set of matches, drained in many small batches); motifs;
 * several GPUs against one (the dynamic hand-out and the static deal,
 * counting and listing), processes sharing level 0 in windows, and a
 * failing GPU named in the error. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_plan.h"
#include "matcher.h"
#include "testutil.h"

typedef struct variant {
  const char *name;
  int steal, unroll, blocks, warps;
  uint32_t chunk;
  uint64_t cap;
  int level0; /* wm_level0_mode; 0: auto (edges wherever the plan allows) */
  int table;  /* probe table words per warp: 0 sized from occupancy, -1 none, else forced */
} variant;

/* Forced probe tables small enough that rows of wide id spans are hashed
 * (bits only below 32 * words), and longer rows are searched. */
#define TAB_HASH 64
#define TAB_TINY 32

#define VERT WM_LEVEL0_VERTICES

/* Every stealing mode with U = 1 and the default, level 0 as edges (the
 * default) and as vertices; small grids with chunks of one make idle warps
 * the rule, so that stealing happens all the time (with edges, every grab
 * is a single arc). */
static const variant ALL[] = {
    {"none/U1", WM_STEAL_NONE, 1, 0, 0, 0, 0, 0, 0},
    {"none/U/vertices", WM_STEAL_NONE, 0, 0, 0, 0, 0, VERT, 0},
    {"block/U1/vertices/no-table", WM_STEAL_BLOCK, 1, 0, 0, 0, 0, VERT, -1},
    {"block/U", WM_STEAL_BLOCK, 0, 0, 0, 0, 0, 0, 0},
    {"two/U1", WM_STEAL_TWO_LEVEL, 1, 0, 0, 0, 0, 0, 0},
    {"two/U/vertices", WM_STEAL_TWO_LEVEL, 0, 0, 0, 0, 0, VERT, 0},
    {"two/U", WM_STEAL_TWO_LEVEL, 0, 0, 0, 0, 0, 0, 0},
    {"two/U3/small-grid/table64", WM_STEAL_TWO_LEVEL, 3, 6, 4, 1, 0, 0, TAB_HASH},
    {"two/U3/small-grid/vertices", WM_STEAL_TWO_LEVEL, 3, 6, 4, 1, 0, VERT, 0},
    {"block/U/small-grid", WM_STEAL_BLOCK, 0, 2, 8, 1, 0, 0, 0},
};
#define NALL (sizeof ALL / sizeof ALL[0])

static const variant FEW[] = {
    {"none/U1/vertices/no-table", WM_STEAL_NONE, 1, 0, 0, 0, 0, VERT, -1},
    {"block/U", WM_STEAL_BLOCK, 0, 0, 0, 0, 0, 0, 0},
    {"two/U", WM_STEAL_TWO_LEVEL, 0, 0, 0, 0, 0, 0, 0},
    {"two/U/vertices/table64", WM_STEAL_TWO_LEVEL, 0, 0, 0, 0, 0, VERT, TAB_HASH},
};
#define NFEW (sizeof FEW / sizeof FEW[0])

/* For facebook: no stealing with unrolling, the other two with U = 1 and the default. */
static const variant BIG[] = {
    {"none/U", WM_STEAL_NONE, 0, 0, 0, 0, 0, 0, 0},
    {"block/U1/table64", WM_STEAL_BLOCK, 1, 0, 0, 0, 0, 0, TAB_HASH},
    {"two/U", WM_STEAL_TWO_LEVEL, 0, 0, 0, 0, 0, 0, 0},
    {"two/U/vertices/no-table", WM_STEAL_TWO_LEVEL, 0, 0, 0, 0, 0, VERT, -1},
};
#define NBIG (sizeof BIG / sizeof BIG[0])

/* Kronecker graphs: without stealing one warp holds a hub's subtree for
 * seconds (no stealing is covered on the other graphs). */
static const variant KRON[] = {
    {"block/U1", WM_STEAL_BLOCK, 1, 0, 0, 0, 0, 0, 0},
    {"two/U1/vertices/table64", WM_STEAL_TWO_LEVEL, 1, 0, 0, 0, 0, VERT, TAB_HASH},
    {"two/U", WM_STEAL_TWO_LEVEL, 0, 0, 0, 0, 0, 0, 0},
};
#define NKRON (sizeof KRON / sizeof KRON[0])

/* Every set op goes through the unmaterialised hub path, or some of them. */
static const variant TINY[] = {
    {"two/U/cap1/table32", WM_STEAL_TWO_LEVEL, 0, 0, 0, 0, 1, 0, TAB_TINY},
    {"block/U1/cap16/vertices", WM_STEAL_BLOCK, 1, 0, 0, 0, 16, VERT, 0},
    {"two/U2/cap100/small-grid", WM_STEAL_TWO_LEVEL, 2, 3, 4, 1, 100, 0, 0},
};
#define NTINY (sizeof TINY / sizeof TINY[0])

/* The variants are the stack kernel's knobs: cliques and diamonds too run
 * on it here (the dedicated kernels have their own tests, clique_kernels
 * and diamond_kernel). */
static void apply(const variant *v, wm_match_options *o) {
  o->gpu_clique_kernels = 0;
  o->gpu_level0 = v->level0;
  o->gpu_steal = v->steal;
  o->gpu_unroll = v->unroll;
  o->gpu_blocks = v->blocks;
  o->gpu_warps_per_block = v->warps;
  o->gpu_chunk = v->chunk;
  o->gpu_set_capacity = v->cap;
  o->gpu_table_words = v->table;
}

/* Probe table words the launch must report: none unless the kernel's plan
 * (pairs folded as the driver folds them) fuses an op to probe into its
 * last level. */
static unsigned table_words_expected(const wm_plan *plan, int pairs, const variant *v) {
  wm_gpu_plan gp;
  wm_error err;
  cr_assert_eq(wm_gpu_plan_compile(plan, &gp, &err), WM_OK, "%s", err.msg);
  if (pairs) wm_gpu_plan_fold_pairs(&gp, plan->pair_count);
  if (v->table < 0 || wm_gpu_plan_table_side(&gp) < 0) return 0;
  return v->table > 0 ? (unsigned)v->table : ~0u; /* ~0: sized by the driver, any */
}

static void plan_for(const wm_graph *g, const wm_pattern *p, int induced, int count_only, int first_edge_up,
                     wm_plan *plan) {
  wm_graph_summary gs;
  wm_graph_summary_compute(g, &gs);
  wm_plan_options po;
  wm_plan_options_init(&po);
  po.induced = induced;
  po.count_only = count_only;
  po.first_edge_up = first_edge_up;
  wm_error err;
  int rc = wm_plan_build(p, &gs, &po, plan, &err);
  cr_assert_eq(rc, WM_OK, "planning %s: %s", p->name, err.msg);
}

/* The CPU's plan: the reference. */
static void plan_of(const wm_graph *g, const wm_pattern *p, int induced, int count_only, wm_plan *plan) {
  plan_for(g, p, induced, count_only, 0, plan);
}

static uint64_t cpu_count(const wm_graph *g, const wm_plan *plan, const wm_match_options *base) {
  wm_match_options o = *base;
  wm_match_result r;
  wm_error err;
  int rc = wm_match_cpu(g, plan, &o, &r, &err);
  cr_assert_eq(rc, WM_OK, "cpu: %s", err.msg);
  return r.count;
}

static uint64_t gpu_count(const wm_graph *g, const wm_plan *plan, const wm_match_options *base,
                          const variant *v) {
  wm_match_options o = *base;
  apply(v, &o);
  wm_match_result r;
  wm_error err;
  int rc = wm_match_gpu(g, plan, &o, &r, &err);
  cr_assert_eq(rc, WM_OK, "gpu (%s): %s", v->name, err.msg);
  /* Pairs are counted wherever the plan has them and nothing filters beyond it. */
  int pairs = plan->pair_count && !o.per_vertex && !o.allowed;
  cr_assert_eq(strstr(r.launch, "pairs counted") != NULL, pairs, "gpu (%s): pairs %d, ran %s", v->name, pairs, r.launch);
  /* Every plan's position 1 iterates N(v0): edges unless told otherwise or
   * seeded, or the kernel's plan (one shorter with pairs) has 2 positions. */
  const char *l0 = v->level0 == VERT || o.first ? "level 0: vertices" : "level 0: edges";
  cr_assert(plan->k - (unsigned)pairs < 3 || strstr(r.launch, l0), "gpu (%s): %s expected, ran %s", v->name, l0, r.launch);
  unsigned tw = table_words_expected(plan, pairs, v);
  char want[64];
  snprintf(want, sizeof want, "probe table %u words", tw);
  cr_assert(tw == ~0u ? strstr(r.launch, "probe table ") != NULL : strstr(r.launch, want) != NULL,
            "gpu (%s): %s expected, ran %s", v->name, tw == ~0u ? "a probe table" : want, r.launch);
  return r.count;
}

/* GPU == CPU for pattern p on g under every variant, on the GPU's plan (as
 * the commands build it: first_edge_up); its first variant also runs the
 * CPU's plan where the two differ.  Not with seeds: v[0] in `first` names
 * other matches once v0 and v1 trade bounds (the commands' seeds are the
 * whole ball, which every match lies in either way). */
static void compare(const char *gname, const wm_graph *g, const wm_pattern *p, int induced,
                    const wm_match_options *base, const variant *vs, size_t nv) {
  wm_plan plan, iter, cpu_plan;
  plan_for(g, p, induced, 1, base->first == NULL, &plan);
  plan_of(g, p, induced, 1, &cpu_plan);
  iter = cpu_plan; /* the CPU iterates where the GPU counts pairs; so does the GPU's first variant */
  iter.pair_count = WM_PAIRS_NONE;
  uint64_t want = cpu_count(g, &iter, base);
  if (plan.pair_count) {
    uint64_t got = gpu_count(g, &iter, base, &vs[0]);
    cr_assert_eq(got, want, "%s, %s, variant %s without pairs: gpu %llu, cpu %llu", gname, p->name, vs[0].name,
                 (unsigned long long)got, (unsigned long long)want);
  }
  if (memcmp(plan.lower, cpu_plan.lower, sizeof plan.lower) || memcmp(plan.upper, cpu_plan.upper, sizeof plan.upper)) {
    uint64_t got = gpu_count(g, &cpu_plan, base, &vs[0]);
    cr_assert_eq(got, want, "%s, %s, variant %s on the CPU's plan: gpu %llu, cpu %llu", gname, p->name,
                 vs[0].name, (unsigned long long)got, (unsigned long long)want);
  }
  for (size_t i = 0; i < nv; i++) {
    if (getenv("WM_TEST_TRACE")) /* which run a hang is in */
      fprintf(stderr, "%s, %s (%s), %s\n", gname, p->name, induced ? "induced" : "edge-induced", vs[i].name);
    uint64_t got = gpu_count(g, &plan, base, &vs[i]);
    cr_assert_eq(got, want, "%s, %s (%s), variant %s: gpu %llu, cpu %llu", gname, p->name,
                 induced ? "induced" : "edge-induced", vs[i].name, (unsigned long long)got,
                 (unsigned long long)want);
  }
}

/* The connected patterns of 3..5 vertices plus the families' larger members. */
static wm_pattern *all_patterns(unsigned *count, int with_large) {
  static const char *const large[] = {"6-clique", "6-cycle", "6-path", "6-star", "7-clique", "8-cycle"};
  unsigned n = 0, cap = 64;
  wm_pattern *out = malloc(cap * sizeof *out);
  wm_error err;
  for (unsigned k = 3; k <= 5; k++) {
    wm_pattern *ps;
    unsigned np;
    cr_assert_eq(wm_connected_patterns(k, &ps, &np, &err), WM_OK, "%s", err.msg);
    for (unsigned i = 0; i < np; i++) out[n++] = ps[i];
    free(ps);
  }
  for (unsigned i = 0; with_large && i < sizeof large / sizeof large[0]; i++)
    cr_assert_eq(wm_pattern_from_name(large[i], &out[n++], &err), WM_OK, "%s", err.msg);
  *count = n;
  return out;
}

static wm_pattern named(const char *name) {
  wm_pattern p;
  wm_error err;
  cr_assert_eq(wm_pattern_from_name(name, &p, &err), WM_OK, "%s", err.msg);
  return p;
}

static wm_graph *random_graph(int i) {
  switch (i) {
    case 0: return wm_test_er(40, 0.3, 11);
    case 1: return wm_test_er(120, 0.08, 12);
    case 2: return wm_test_er(300, 0.03, 13);
    case 3: return wm_test_er(64, 0.5, 14);
    case 4: return wm_test_powerlaw(200, 6, 2, 0.4, 15);
    case 5: return wm_test_powerlaw(400, 8, 3, 0.3, 16);
    case 6: return wm_test_powerlaw(800, 6, 4, 0.15, 17);
    case 7: return wm_test_powerlaw(150, 10, 1, 0.8, 18);
    case 8: return wm_test_er(500, 0.012, 19);
    default: return wm_test_powerlaw(1000, 5, 6, 0.1, 20);
  }
}
#define NRANDOM 10

Test(gpu_matcher, every_pattern_random_graphs, .timeout = 900) {
  unsigned np;
  wm_pattern *ps = all_patterns(&np, 1);
  wm_match_options base;
  wm_match_options_init(&base);
  for (int gi = 0; gi < NRANDOM; gi++) {
    wm_graph *g = random_graph(gi);
    char gname[32];
    snprintf(gname, sizeof gname, "random graph %d", gi);
    /* Every variant on four graphs, three on the others; the large families
     * only on the sparse graphs (on G(64, 0.5) there are 7e10 8-cycles). */
    int sparse = gi == 2 || gi == 8;
    for (unsigned i = 0; i < np; i++)
      for (int induced = 0; induced <= 1; induced++) {
        if (ps[i].k > 5 && !sparse) continue;
        int every = gi < 4 && ps[i].k <= 5;
        compare(gname, g, &ps[i], induced, &base, every ? ALL : FEW, every ? NALL : NFEW);
      }
    wm_graph_destroy(g);
  }
  free(ps);
}

Test(gpu_matcher, labels, .timeout = 600) {
  unsigned np;
  wm_pattern *ps = all_patterns(&np, 0);
  for (int gi = 4; gi < 7; gi++) {
    wm_graph *g = random_graph(gi);
    int32_t *lab = malloc(g->n * sizeof *lab);
    uint64_t s = 100 + gi;
    for (uint32_t v = 0; v < g->n; v++) lab[v] = (int32_t)(wm_test_rand(&s) % 3);
    wm_match_options base;
    wm_match_options_init(&base);
    base.vertex_labels = lab;
    for (unsigned i = 0; i < np; i++) {
      wm_pattern p = ps[i];
      for (unsigned v = 0; v < p.k; v++) /* some vertices labeled, some left free */
        wm_pattern_set_label(&p, v, (v + i) % 3 == 2 ? WM_ANY_LABEL : (int32_t)((v * 7 + i) % 3));
      for (int induced = 0; induced <= 1; induced++) compare("labeled graph", g, &p, induced, &base, FEW, NFEW);
    }
    free(lab);
    wm_graph_destroy(g);
  }
  free(ps);
}

/* Seeds (level 0 restricted), a BFS-ball mask and per-vertex counts. */
Test(gpu_matcher, seeds_allowed_per_vertex, .timeout = 600) {
  wm_graph *g = random_graph(5);
  uint64_t s = 77;
  uint8_t *allowed = malloc(g->n);
  uint32_t *first = malloc(g->n * sizeof *first);
  uint64_t nfirst = 0;
  for (uint32_t v = 0; v < g->n; v++) {
    allowed[v] = wm_test_rand(&s) % 10 < 8;
    if (wm_test_rand(&s) % 3 == 0) first[nfirst++] = g->n - 1 - v; /* descending: any order works */
  }
  uint64_t *pv_cpu = malloc(g->n * 8), *pv_gpu = malloc(g->n * 8);
  static const char *const names[] = {"triangle", "4-cycle", "diamond", "tailed-triangle", "house", "5-path", "4-clique"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    wm_pattern p = named(names[i]);
    for (int induced = 0; induced <= 1; induced++) {
      wm_match_options base;
      wm_match_options_init(&base);
      base.allowed = allowed;
      base.first = first;
      base.n_first = nfirst;
      compare("seeded graph", g, &p, induced, &base, ALL, NALL);
      wm_plan plan;
      plan_of(g, &p, induced, 1, &plan);
      base.per_vertex = pv_cpu;
      uint64_t want = cpu_count(g, &plan, &base);
      for (size_t vi = 0; vi < NFEW; vi++) {
        base.per_vertex = pv_gpu;
        uint64_t got = gpu_count(g, &plan, &base, &FEW[vi]);
        cr_assert_eq(got, want, "%s per-vertex run (%s)", names[i], FEW[vi].name);
        for (uint32_t v = 0; v < g->n; v++)
          cr_assert_eq(pv_gpu[v], pv_cpu[v], "%s (%s): vertex %u in %llu matches on the gpu, %llu on the cpu",
                       names[i], FEW[vi].name, v, (unsigned long long)pv_gpu[v],
                       (unsigned long long)pv_cpu[v]);
      }
    }
  }
  free(pv_cpu);
  free(pv_gpu);
  free(allowed);
  free(first);
  wm_graph_destroy(g);
}

/* Two hubs joined to every vertex, over a sparse random graph: their
 * neighbour lists and N(h1) ∩ N(h2) are far above the set buffers forced
 * here (1 to 100 elements), so every result that could overflow takes the
 * unmaterialised path; counts must not change. */
static wm_graph *hub_graph(uint32_t n, uint32_t hubs, double p, uint64_t seed) {
  uint64_t cap = (uint64_t)n * hubs + (uint64_t)(n * (double)n * p) + 1024, cnt = 0;
  uint32_t *src = malloc(cap * 4), *dst = malloc(cap * 4);
  for (uint32_t h = 0; h < hubs; h++)
    for (uint32_t v = h + 1; v < n; v++) src[cnt] = h, dst[cnt++] = v;
  for (uint32_t u = hubs; u < n; u++)
    for (uint32_t v = u + 1; v < n; v++)
      if ((wm_test_rand(&seed) >> 11) * (1.0 / 9007199254740992.0) < p && cnt < cap) src[cnt] = u, dst[cnt++] = v;
  return wm_test_graph_of_arcs(n, src, dst, cnt);
}

/* Patterns of 3 and 4 vertices plus two of 5: with two universal hubs the
 * 5-vertex ones have ~n^3 prefixes each, too slow for the CPU oracle. */
Test(gpu_matcher, hubs_beyond_tiny_buffers, .timeout = 600) {
  wm_graph *g = hub_graph(500, 2, 0.008, 5);
  unsigned np;
  wm_pattern *ps = all_patterns(&np, 0);
  wm_match_options base;
  wm_match_options_init(&base);
  for (unsigned i = 0; i < np; i++)
    for (int induced = 0; induced <= 1; induced++) {
      if (ps[i].k == 5 && strcmp(ps[i].name, "5-clique") != 0 && strcmp(ps[i].name, "house") != 0) continue;
      compare("hub graph", g, &ps[i], induced, &base, TINY, NTINY);
    }
  free(ps);
  wm_graph_destroy(g);
}

/* STMatch's 24 query patterns (5-7 vertices, patterns/stmatch):
 * their last two positions are counted as pairs, as a product (of sets
 * within one another or not) or one by one; the hub graph's sets go
 * through the unmaterialised path. */
Test(gpu_matcher, stmatch_patterns, .timeout = 900) {
  wm_graph *gs[2] = {wm_test_er(64, 0.5, 14), hub_graph(160, 2, 0.08, 7)};
  wm_match_options base;
  wm_match_options_init(&base);
  for (unsigned n = 1; n <= 24; n++) {
    wm_pattern p = wm_test_stmatch_pattern(n);
    compare("G(64, 0.5)", gs[0], &p, 0, &base, FEW, NFEW);
    compare("hub graph", gs[1], &p, 0, &base, TINY, NTINY);
  }
  wm_graph_destroy(gs[0]);
  wm_graph_destroy(gs[1]);
}

/* ---- listing -------------------------------------------------------- */

typedef struct rows {
  uint32_t *v;
  uint64_t n, cap;
  unsigned k;
} rows;

static int collect(void *ctx, const uint32_t *match, unsigned k) {
  rows *r = ctx;
  if (r->n == r->cap) {
    r->cap = r->cap ? 2 * r->cap : 1024;
    r->v = realloc(r->v, r->cap * k * 4);
    cr_assert_not_null(r->v);
  }
  memcpy(r->v + r->n * k, match, k * 4);
  r->k = k;
  r->n++;
  return 0;
}

/* Any total order will do to compare two lists as sets: bytes of the row. */
static unsigned cmp_k;
static int cmp_row(const void *a, const void *b) { return memcmp(a, b, cmp_k * 4); }

static void sort_rows(rows *r) {
  cmp_k = r->k;
  qsort(r->v, r->n, r->k * 4, cmp_row);
}

static void list_on(const wm_graph *g, const wm_plan *plan, const variant *v, uint64_t batch,
                    uint64_t limit, rows *out, int gpu) {
  wm_match_options o;
  wm_match_options_init(&o);
  memset(out, 0, sizeof *out);
  out->k = plan->k;
  o.sink = collect;
  o.sink_ctx = out;
  o.limit = limit;
  wm_match_result r;
  wm_error err;
  int rc;
  if (gpu) {
    apply(v, &o);
    o.gpu_list_batch = batch;
    rc = wm_match_gpu(g, plan, &o, &r, &err);
  } else {
    rc = wm_match_cpu(g, plan, &o, &r, &err);
  }
  cr_assert_eq(rc, WM_OK, "listing: %s", err.msg);
  cr_assert_eq(r.listed, out->n, "listed %llu, sink got %llu", (unsigned long long)r.listed,
               (unsigned long long)out->n);
}

Test(gpu_matcher, listing_exact_set, .timeout = 600) {
  static const char *const names[] = {"triangle", "4-cycle", "diamond", "tailed-triangle", "house", "5-path", "4-clique", "3-star"};
  static const variant LV[] = {
      {"none/U1", WM_STEAL_NONE, 1, 0, 0, 0, 0, 0, 0},
      {"block/U/vertices/no-table", WM_STEAL_BLOCK, 0, 0, 0, 0, 0, VERT, -1},
      {"two->block/U3/small-grid", WM_STEAL_TWO_LEVEL, 3, 3, 4, 1, 0, 0, 0},
      {"block/U/cap8/table32", WM_STEAL_BLOCK, 0, 0, 0, 0, 8, 0, TAB_TINY},
  };
  wm_graph *graphs[2] = {random_graph(4), hub_graph(300, 2, 0.01, 9)};
  for (int gi = 0; gi < 2; gi++)
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
      for (int induced = 0; induced <= 1; induced++) {
        wm_pattern p = named(names[i]);
        wm_plan plan;
        plan_of(graphs[gi], &p, induced, 0, &plan);
        rows want;
        list_on(graphs[gi], &plan, NULL, 0, 0, &want, 0);
        sort_rows(&want);
        /* Small batches, so that every run drains and resumes many times
         * (about 40 drains; 64 rows at least). */
        uint64_t batch = want.n / 40 > 64 ? want.n / 40 : 64;
        for (size_t vi = 0; vi < sizeof LV / sizeof LV[0]; vi++) {
          rows got;
          list_on(graphs[gi], &plan, &LV[vi], batch, 0, &got, 1);
          sort_rows(&got);
          cr_assert_eq(got.n, want.n, "graph %d, %s (%s), %s: %llu matches listed, cpu %llu", gi,
                       names[i], induced ? "induced" : "edge", LV[vi].name,
                       (unsigned long long)got.n, (unsigned long long)want.n);
          cr_assert(memcmp(got.v, want.v, got.n * got.k * 4) == 0,
                    "graph %d, %s (%s), %s: the matches differ from the cpu's", gi, names[i],
                    induced ? "induced" : "edge", LV[vi].name);
          free(got.v);
        }
        free(want.v);
      }
  for (int gi = 0; gi < 2; gi++) wm_graph_destroy(graphs[gi]);
}

static int row_in(const rows *set, const uint32_t *row) {
  cmp_k = set->k;
  return bsearch(row, set->v, set->n, set->k * 4, cmp_row) != NULL;
}

Test(gpu_matcher, listing_limit, .timeout = 300) {
  wm_graph *g = random_graph(5);
  wm_pattern p = named("4-cycle");
  wm_plan plan;
  plan_of(g, &p, 0, 0, &plan);
  rows all, some;
  list_on(g, &plan, NULL, 0, 0, &all, 0);
  sort_rows(&all);
  cr_assert(all.n > 500, "the test graph should have many 4-cycles (%llu)", (unsigned long long)all.n);
  list_on(g, &plan, &FEW[1], 64, 300, &some, 1);
  cr_assert_eq(some.n, 300, "limit 300 listed %llu", (unsigned long long)some.n);
  sort_rows(&some);
  for (uint64_t i = 0; i < some.n; i++) {
    cr_assert(row_in(&all, some.v + i * some.k), "listed row %llu is not a match", (unsigned long long)i);
    if (i) cr_assert(memcmp(some.v + (i - 1) * some.k, some.v + i * some.k, some.k * 4) != 0, "a match listed twice");
  }
  free(all.v);
  free(some.v);
  wm_graph_destroy(g);
}

/* ---- real and Kronecker graphs --------------------------------------- */

Test(gpu_matcher, facebook, .timeout = 900) {
  wm_graph *g = wm_test_load_real("facebook_combined.txt");
  wm_match_options base;
  wm_match_options_init(&base);
  /* Published counts (datasets/real/README.md). */
  static const struct {
    const char *name;
    uint64_t count;
  } known[] = {{"triangle", 1612010ull}, {"4-clique", 30004668ull}};
  for (size_t i = 0; i < 2; i++) {
    wm_pattern p = named(known[i].name);
    wm_plan plan;
    plan_of(g, &p, 0, 1, &plan);
    for (size_t vi = 2; vi < NALL; vi++) { /* all but no stealing */
      uint64_t got = gpu_count(g, &plan, &base, &ALL[vi]);
      cr_assert_eq(got, known[i].count, "facebook %s (%s): %llu, published %llu", known[i].name,
                   ALL[vi].name, (unsigned long long)got, (unsigned long long)known[i].count);
    }
  }
  unsigned np;
  wm_pattern *ps = all_patterns(&np, 0);
  for (unsigned i = 0; i < np; i++) {
    if (ps[i].k == 5 && strcmp(ps[i].name, "5-clique") != 0 && strcmp(ps[i].name, "house") != 0) continue;
    compare("facebook", g, &ps[i], 1, &base, BIG, NBIG);
    if (ps[i].k <= 4 || strcmp(ps[i].name, "5-clique") == 0) compare("facebook", g, &ps[i], 0, &base, BIG, NBIG);
  }
  free(ps);
  wm_graph_destroy(g);
}

Test(gpu_matcher, kronecker, .timeout = 1200) {
  wm_match_options base;
  wm_match_options_init(&base);
  for (unsigned scale = 14; scale <= 16; scale++) {
    wm_graph *g = wm_test_kron(scale, 1);
    char gname[32];
    snprintf(gname, sizeof gname, "kron-%u", scale);
    static const char *const names[] = {"triangle", "4-clique", "diamond", "tailed-triangle", "4-cycle", "5-clique"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
      if (i == 5 && scale > 14) break; /* 5-cliques: scale 14 only */
      wm_pattern p = named(names[i]);
      compare(gname, g, &p, 0, &base, KRON, NKRON);
      if (scale == 14) compare(gname, g, &p, 1, &base, KRON, NKRON);
    }
    wm_graph_destroy(g);
  }
  wm_graph *g = wm_test_kron(18, 1);
  static const char *const names18[] = {"triangle"};
  for (size_t i = 0; i < 1; i++) {
    wm_pattern p = named(names18[i]);
    compare("kron-18", g, &p, 0, &base, KRON, NKRON);
  }
  wm_graph_destroy(g);
}

Test(gpu_matcher, motifs, .timeout = 600) {
  wm_graph *g = random_graph(6);
  wm_match_options o;
  wm_match_options_init(&o);
  for (unsigned k = 3; k <= 5; k++)
    for (int method = WM_MOTIF_FORMULA; method <= WM_MOTIF_ENUMERATE; method++) {
      wm_u128 cpu[32], gpu[32];
      wm_error err;
      o.motif_method = WM_MOTIF_ENUMERATE;
      cr_assert_eq(wm_motifs(g, k, 0, &o, cpu, NULL, NULL, &err), WM_OK, "%s", err.msg);
      o.motif_method = method;
      cr_assert_eq(wm_motifs(g, k, 1, &o, gpu, NULL, NULL, &err), WM_OK, "%s", err.msg);
      unsigned n = k == 3 ? 2 : k == 4 ? 6 : 21;
      for (unsigned i = 0; i < n; i++)
        cr_assert(gpu[i] == cpu[i], "%u-motif %u (method %d): gpu %llu, cpu %llu", k, i, method,
                  (unsigned long long)gpu[i], (unsigned long long)cpu[i]);
    }
  wm_graph_destroy(g);
}

/* --gpus N: one device gives the same counts; more devices than present
 * is a device error (exit code 3), and two, where present, agree too. */
Test(gpu_matcher, gpus_option, .timeout = 300) {
  wm_graph *g = random_graph(9);
  wm_pattern p = named("diamond");
  wm_plan plan;
  plan_of(g, &p, 0, 1, &plan);
  wm_match_options o;
  wm_match_options_init(&o);
  uint64_t want = cpu_count(g, &plan, &o);
  wm_match_result r;
  wm_error err;
  o.gpus = 1;
  cr_assert_eq(wm_match_gpu(g, &plan, &o, &r, &err), WM_OK, "%s", err.msg);
  cr_assert_eq(r.count, want);
  cr_assert(strstr(r.launch, "gpu") != NULL, "launch configuration: '%s'", r.launch);
  cr_assert(r.kernel_ms > 0, "kernel time %f", r.kernel_ms);
  o.gpus = 2;
  int rc = wm_match_gpu(g, &plan, &o, &r, &err);
  if (rc == WM_OK)
    cr_assert_eq(r.count, want, "2 gpus: %llu, cpu %llu", (unsigned long long)r.count, (unsigned long long)want);
  else
    cr_assert(rc == WM_EDEVICE && strstr(err.msg, "present"), "2 gpus: rc %d, %s", rc, err.msg);
  o.gpus = 16;
  rc = wm_match_gpu(g, &plan, &o, &r, &err);
  cr_assert(rc == WM_OK || rc == WM_EDEVICE, "16 gpus: rc %d", rc);
  wm_graph_destroy(g);
}

Test(gpu_matcher, labeled_plan_needs_labels) {
  wm_graph *g = random_graph(0);
  wm_pattern p = named("triangle");
  wm_pattern_set_label(&p, 0, 1);
  wm_plan plan;
  plan_of(g, &p, 0, 1, &plan);
  wm_match_options o;
  wm_match_options_init(&o);
  wm_match_result r;
  wm_error err;
  cr_assert_eq(wm_match_gpu(g, &plan, &o, &r, &err), WM_EUSAGE, "no labels given: %s", err.msg);
  wm_graph_destroy(g);
}

/* The program end to end: `list` and `count` on the GPU print what they
 * print on the CPU (the list as a set of lines; the GPU's order differs). */
Test(gpu_matcher, cli_list_and_count_match_cpu, .timeout = 300) {
  char text[4096], *gpu_out, *cpu_out, *err;
  /* K8 on sparse file ids 100, 107, ..., 149, so output ids are file ids. */
  wm_test_clique_text(text, sizeof text, 8, 100, 7);
  wm_test_files f;
  wm_test_graph_file(&f, text);
  const char *graph = f.graph, *dir = f.dir;
  int rc = wm_test_run(&gpu_out, &err, "list %s --pattern 4-clique --device gpu --no-cache", graph);
  cr_assert_eq(rc, 0, "gpu list: %s", err);
  free(err);
  rc = wm_test_run(&cpu_out, &err, "list %s --pattern 4-clique --device cpu --no-cache", graph);
  cr_assert_eq(rc, 0, "cpu list: %s", err);
  free(err);
  size_t ng, nc;
  char **g = wm_test_sorted_lines(gpu_out, &ng), **c = wm_test_sorted_lines(cpu_out, &nc);
  cr_assert_eq(ng, 70, "C(8,4) = 70 4-cliques, the GPU listed %zu", ng);
  cr_assert_eq(ng, nc);
  for (size_t i = 0; i < ng; i++) cr_assert_str_eq(g[i], c[i], "line %zu", i);
  free(g), free(c), free(gpu_out), free(cpu_out);
  rc = wm_test_run(&gpu_out, &err, "list %s --pattern 4-clique --device gpu --limit 5 --no-cache", graph);
  cr_assert_eq(rc, 0, "%s", err);
  size_t nl;
  char **l = wm_test_sorted_lines(gpu_out, &nl);
  cr_assert_eq(nl, 5, "--limit 5 on the GPU listed %zu", nl);
  free(l), free(gpu_out), free(err);
  rc = wm_test_run(&gpu_out, &err, "count %s --pattern 5-clique --device gpu --json --no-cache", graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(strstr(gpu_out, "\"count\":56"), "C(8,5) = 56: %s", gpu_out);
  free(gpu_out), free(err);
  wm_test_rmdir(dir);
}

/* --trials: one warm-up and three timed launches from re-zeroed counters
 * (level-0 counter, stealing flags, mailbox states) count what the CPU
 * counts, under every stealing mode and the small grids that steal all the
 * time; the program reports three kernel times and the CPU's count. */
Test(gpu_matcher, trials_repeat_the_count, .timeout = 300) {
  wm_graph *g = random_graph(9);
  wm_pattern p = named("4-clique");
  wm_plan plan;
  plan_of(g, &p, 0, 1, &plan);
  wm_match_options o;
  wm_match_options_init(&o);
  uint64_t want = cpu_count(g, &plan, &o);
  wm_match_result r;
  wm_error err;
  for (size_t vi = 0; vi < NALL; vi++) {
    wm_match_options_init(&o);
    apply(&ALL[vi], &o);
    o.trials = 3;
    cr_assert_eq(wm_match_gpu(g, &plan, &o, &r, &err), WM_OK, "%s: %s", ALL[vi].name, err.msg);
    cr_assert_eq(r.count, want, "%s: gpu %llu, cpu %llu", ALL[vi].name, (unsigned long long)r.count,
                 (unsigned long long)want);
    cr_assert_eq(r.trials, 3, "%s", ALL[vi].name);
    for (unsigned t = 0; t < 3; t++)
      cr_assert(r.trial_ms[t] > 0, "%s: trial %u took %f ms", ALL[vi].name, t, r.trial_ms[t]);
  }
  wm_graph_destroy(g);

  char text[4096], *out, *errout;
  wm_test_clique_text(text, sizeof text, 8, 0, 1); /* K8: C(8,3) = 56 triangles */
  wm_test_files f;
  wm_test_graph_file(&f, text);
  const char *graph = f.graph, *dir = f.dir;
  int rc = wm_test_run(&out, &errout, "count %s --pattern triangle --device gpu --trials 3 --json --no-cache",
                       graph);
  cr_assert_eq(rc, 0, "%s", errout);
  cr_assert(strstr(out, "\"count\":56") && strstr(out, "\"trials\":3") && strstr(out, "\"trial_ms\":["),
            "%s", out);
  free(out), free(errout);
  wm_test_rmdir(dir);
}

/* ---- the triangle and clique kernels ------------------------------------- */

/* A clique of `core` vertices under a sparse fringe: with ids by degree the
 * core's pivots have N+ up to core-1 (above the 2048 a heavy table holds, so
 * some probe their row in global memory) and N- above the 512 of one
 * item; the fringe's pivots are light. */
static wm_graph *dense_core(uint32_t core, uint32_t fringe, uint64_t seed) {
  uint64_t cap = (uint64_t)core * core / 2 + 4ull * fringe, cnt = 0;
  uint32_t *src = malloc(cap * 4), *dst = malloc(cap * 4);
  for (uint32_t a = 0; a < core; a++)
    for (uint32_t b = a + 1; b < core; b++) src[cnt] = a, dst[cnt++] = b;
  for (uint32_t v = core; v < core + fringe; v++)
    for (int e = 0; e < 4; e++) {
      uint64_t x = wm_test_rand(&seed);
      src[cnt] = v, dst[cnt++] = e < 3 ? (uint32_t)(x % core) : core + (uint32_t)(x % fringe);
    }
  return wm_test_graph_of_arcs(core + fringe, src, dst, cnt);
}

/* A sparse random graph whose last id is adjacent to every other vertex:
 * in file order its N+ holds them all (n - 1 > 2048: no hash table, the
 * matrix and the level sets in device memory), a tight cluster gives
 * cliques up to 8. */
static wm_graph *top_hub(uint32_t n, uint64_t seed) {
  uint64_t cap = 12ull * n + 64, cnt = 0;
  uint32_t *src = malloc(cap * 4), *dst = malloc(cap * 4);
  for (uint32_t v = 0; v + 1 < n; v++) {
    src[cnt] = v, dst[cnt++] = n - 1;
    for (int e = 0; e < 10; e++) src[cnt] = v, dst[cnt++] = (uint32_t)(wm_test_rand(&seed) % (n - 1));
  }
  for (uint32_t a = 0; a < 9; a++)
    for (uint32_t b = a + 1; b < 9; b++) src[cnt] = a * 37, dst[cnt++] = b * 37;
  return wm_test_graph_of_arcs(n, src, dst, cnt);
}

/* The count on `gpus` devices, or ~0 when the host has fewer; checks which
 * kernel ran (the stack kernel for a plan no dedicated kernel counts). */
static uint64_t clique_gpu(const wm_graph *g, const wm_plan *plan, int dedicated, int gpus) {
  wm_match_options o;
  wm_match_options_init(&o);
  o.gpu_clique_kernels = dedicated;
  o.gpus = gpus;
  wm_match_result r;
  wm_error err;
  int rc = wm_match_gpu(g, plan, &o, &r, &err);
  if (gpus > 1 && rc == WM_EDEVICE && strstr(err.msg, "present")) return ~0ull;
  cr_assert_eq(rc, WM_OK, "%s", err.msg);
  const int diamond = wm_gpu_plan_is_diamond(plan);
  const char *want = !dedicated || (!diamond && !wm_gpu_plan_clique_k(plan)) ? "steal="
                     : diamond                                                ? "diamond kernel"
                     : plan->k == 3                                           ? "triangle kernel"
                                                                              : "clique kernel";
  cr_assert(strstr(r.launch, want) != NULL, "dedicated %d, k %u ran: %s", dedicated, plan->k, r.launch);
  return r.count;
}

/* The triangle and clique kernels, the stack kernel and the CPU agree, in
 * file order and renumbered by degree (the order the kernels are built
 * for), for k = 3 .. kmax: on a dense core with hub-sized rows, a top hub
 * whose N+ outgrows every shared buffer, a dense random graph (cliques up
 * to 8), Kronecker graphs and facebook; with two GPUs when the host has
 * them. */
Test(gpu_matcher, clique_kernels, .timeout = 1500) {
  struct {
    const char *name;
    wm_graph *g;
    unsigned kmax;
    int stack; /* also run the stack kernel */
  } gs[] = {{"dense core 2100", dense_core(2100, 20000, 3), 3, 1},
            {"top hub 5000", top_hub(5000, 4), 8, 1},
            {"er 64 0.5", wm_test_er(64, 0.5, 14), 8, 1},
            {"kron-16", wm_test_kron(16, 1), 5, 1},
            {"kron-18", wm_test_kron(18, 1), 4, 0},
            {"facebook", wm_test_load_real("facebook_combined.txt"), 6, 1}};
  for (size_t i = 0; i < sizeof gs / sizeof gs[0]; i++) {
    for (int relabel = 0; relabel <= 1; relabel++) {
      wm_graph *r = relabel ? wm_test_by_degree(gs[i].g) : NULL;
      const wm_graph *g = r ? r : gs[i].g;
      for (unsigned k = 3; k <= gs[i].kmax; k++) {
        char name[16];
        snprintf(name, sizeof name, k == 3 ? "triangle" : "%u-clique", k);
        wm_pattern p = named(name);
        for (int induced = 0; induced <= (k <= 4); induced++) {
          wm_plan plan;
          plan_of(g, &p, induced, 1, &plan);
          wm_match_options o;
          wm_match_options_init(&o);
          uint64_t want = cpu_count(g, &plan, &o), fast = clique_gpu(g, &plan, 1, 1);
          cr_assert(fast == want, "%s (relabel %d, induced %d) %s: dedicated kernel %llu, cpu %llu", gs[i].name,
                    relabel, induced, name, (unsigned long long)fast, (unsigned long long)want);
          if (gs[i].stack && k <= 5) {
            uint64_t stack = clique_gpu(g, &plan, 0, 1);
            cr_assert(stack == want, "%s (relabel %d) %s: stack kernel %llu, cpu %llu", gs[i].name, relabel,
                      name, (unsigned long long)stack, (unsigned long long)want);
          }
          uint64_t two = clique_gpu(g, &plan, 1, 2);
          cr_assert(two == want || two == ~0ull, "%s %s on 2 GPUs: %llu, cpu %llu", gs[i].name, name,
                    (unsigned long long)two, (unsigned long long)want);
        }
      }
      wm_graph_destroy(r);
    }
    wm_graph_destroy(gs[i].g);
  }
}

/* A sparse graph of n vertices whose top id is adjacent to all of them
 * and whose first 40 form a clique: with more ids than a heavy block's
 * shared bitmap holds (32 x WM_TRI_HEAVY_SLOTS) and a row far above its
 * hash table, the diamond kernel sets that row's bits in device memory. */
static wm_graph *wide_hub(uint32_t n, uint64_t seed) {
  uint64_t cap = 4ull * n + 40 * 40, cnt = 0;
  uint32_t *src = malloc(cap * 4), *dst = malloc(cap * 4);
  for (uint32_t v = 0; v + 1 < n; v++) {
    src[cnt] = v, dst[cnt++] = n - 1;
    for (int e = 0; e < 3; e++) src[cnt] = v, dst[cnt++] = (uint32_t)(wm_test_rand(&seed) % (n - 1));
  }
  for (uint32_t a = 0; a < 40; a++)
    for (uint32_t b = a + 1; b < 40; b++) src[cnt] = a, dst[cnt++] = b;
  return wm_test_graph_of_arcs(n, src, dst, cnt);
}

/* The diamond kernel, the stack kernel and the CPU agree on diamonds, in
 * file order and by degree: light pivots as bitmaps and as hash tables,
 * heavy ones as shared bitmaps, hash tables and bitmaps in device memory;
 * with two GPUs when the host has them.  The vertex-induced count is the
 * diamond kernel's less six per 4-clique of the clique kernel. */
Test(gpu_matcher, diamond_kernel, .timeout = 1200) {
  struct {
    const char *name;
    wm_graph *g;
    int stack; /* also run the stack kernel */
  } gs[] = {{"dense core 2100", dense_core(2100, 20000, 3), 0},
            {"top hub 5000", top_hub(5000, 4), 1},
            {"wide hub 140000", wide_hub(140000, 6), 1},
            {"er 64 0.5", wm_test_er(64, 0.5, 14), 1},
            {"kron-16", wm_test_kron(16, 1), 1},
            {"kron-18", wm_test_kron(18, 1), 0},
            {"facebook", wm_test_load_real("facebook_combined.txt"), 1}};
  wm_pattern p = named("diamond");
  int device_bits = 0;
  for (size_t i = 0; i < sizeof gs / sizeof gs[0]; i++) {
    for (int relabel = 0; relabel <= 1; relabel++) {
      wm_graph *r = relabel ? wm_test_by_degree(gs[i].g) : NULL;
      const wm_graph *g = r ? r : gs[i].g;
      wm_plan plan, induced;
      plan_of(g, &p, 0, 1, &plan);
      plan_of(g, &p, 1, 1, &induced);
      cr_assert(wm_gpu_plan_is_diamond(&plan) && wm_gpu_plan_is_diamond(&induced));
      wm_match_options o;
      wm_match_options_init(&o);
      const uint64_t want = cpu_count(g, &plan, &o);
      wm_match_result res;
      wm_error err;
      cr_assert_eq(wm_match_gpu(g, &plan, &o, &res, &err), WM_OK, "%s", err.msg);
      cr_assert(strstr(res.launch, "diamond kernel") != NULL, "%s ran: %s", gs[i].name, res.launch);
      cr_assert(res.count == want, "%s (relabel %d): diamond kernel %llu, cpu %llu", gs[i].name, relabel,
                (unsigned long long)res.count, (unsigned long long)want);
      device_bits += strstr(res.launch, "bitmaps in device memory") != NULL;
      if (gs[i].stack) { /* and the vertex-induced count (the CPU's is too slow on the dense graphs) */
        uint64_t stack = clique_gpu(g, &plan, 0, 1);
        cr_assert(stack == want, "%s (relabel %d): stack kernel %llu, cpu %llu", gs[i].name, relabel,
                  (unsigned long long)stack, (unsigned long long)want);
        const uint64_t ind_cpu = cpu_count(g, &induced, &o), ind_stack = clique_gpu(g, &induced, 0, 1);
        cr_assert(ind_stack == ind_cpu, "%s (relabel %d): induced diamonds, stack kernel %llu, cpu %llu",
                  gs[i].name, relabel, (unsigned long long)ind_stack, (unsigned long long)ind_cpu);
        /* the diamond kernel less six per 4-clique, from the clique kernel */
        cr_assert_eq(wm_match_gpu(g, &induced, &o, &res, &err), WM_OK, "%s", err.msg);
        cr_assert(strstr(res.launch, "less 6 per 4-clique") && strstr(res.launch, "clique kernel"), "%s ran: %s",
                  gs[i].name, res.launch);
        cr_assert(res.count == ind_cpu, "%s (relabel %d): induced diamonds %llu, cpu %llu", gs[i].name, relabel,
                  (unsigned long long)res.count, (unsigned long long)ind_cpu);
      }
      uint64_t two = clique_gpu(g, &plan, 1, 2);
      cr_assert(two == want || two == ~0ull, "%s on 2 GPUs: %llu, cpu %llu", gs[i].name, (unsigned long long)two,
                (unsigned long long)want);
      wm_graph_destroy(r);
    }
    wm_graph_destroy(gs[i].g);
  }
  cr_assert(device_bits > 0, "no graph reached the bitmaps in device memory");
}

/* ---- several GPUs ---------------------------------------------------- */

/* The GPUs of this host (at most 16), or the case is skipped (reported as
 * Skipped, not passed) where there are fewer than two. */
static int two_gpus_or_skip(void) {
  int n = wm_gpu_count();
  if (n < 2) cr_skip_test("%d GPU(s) here: the multi-GPU cases need 2", n);
  return n > 16 ? 16 : n;
}

/* A sparse random graph with a big hub (adjacent to 40% of the vertices)
 * and a second one: the static split's skew, where one device would meet
 * the hubs' work alone. */
static wm_graph *big_hub_graph(uint32_t n, uint64_t seed) {
  uint64_t cap = (uint64_t)n * 6, cnt = 0;
  uint32_t *src = malloc(cap * 4), *dst = malloc(cap * 4);
  for (uint32_t v = 2; v < n; v++) {
    if (wm_test_rand(&seed) % 5 < 2) src[cnt] = 0, dst[cnt++] = v;
    if (wm_test_rand(&seed) % 10 == 0) src[cnt] = 1, dst[cnt++] = v;
    for (int e = 0; e < 3; e++) src[cnt] = v, dst[cnt++] = (uint32_t)(wm_test_rand(&seed) % n);
  }
  return wm_test_graph_of_arcs(n, src, dst, cnt);
}

/* The count on `gpus` devices; checks that several say how the work was
 * split: dealt statically when `statically` (WM_GPU_STATIC_SPLIT=1), else
 * handed out dynamically, or statically with the reason (no peer atomics). */
static uint64_t count_on(const char *what, const wm_graph *g, const wm_plan *plan, int dedicated, int gpus,
                         int statically) {
  wm_match_options o;
  wm_match_options_init(&o);
  o.gpu_clique_kernels = dedicated;
  o.gpus = gpus;
  wm_match_result r;
  wm_error err;
  cr_assert_eq(wm_match_gpu(g, plan, &o, &r, &err), WM_OK, "%s on %d GPUs: %s", what, gpus, err.msg);
  if (gpus > 1) {
    const int dyn = strstr(r.launch, "handed out dynamically") != NULL;
    const int stat = strstr(r.launch, "interleaved statically") || strstr(r.launch, "dealt statically over");
    if (statically)
      cr_assert(stat && !dyn, "%s on %d GPUs, static split asked: ran %s", what, gpus, r.launch);
    else
      cr_assert(dyn || (stat && strstr(r.launch, "no peer")), "%s on %d GPUs: no dynamic hand-out and no reason: %s",
                what, gpus, r.launch);
    if (!statically && !dyn) fprintf(stderr, "note: %s on %d GPUs split statically: %s\n", what, gpus, r.launch);
  }
  return r.count;
}

/* Triangles, 4-cliques and diamonds (dedicated kernels and the stack
 * kernel), 4-cycles, and with `five` the house and the 5-cycle (stack
 * kernel; their CPU oracle is too slow on the larger graphs) on 2 GPUs and
 * on all of them, dynamic and static: the CPU's count, and one GPU's. */
static void same_on_gpus(const char *gname, const wm_graph *g0, int all, int five) {
  static const char *const names[] = {"triangle", "4-clique", "diamond", "4-cycle", "house", "5-cycle"};
  wm_graph *sorted = wm_test_by_degree(g0);
  for (int relabel = 0; relabel <= 1; relabel++) {
    const wm_graph *g = relabel ? sorted : g0;
    for (size_t i = 0; i < (five ? 6u : 4u); i++) {
      wm_pattern p = named(names[i]);
      wm_plan plan;
      plan_of(g, &p, 0, 1, &plan);
      wm_match_options o;
      wm_match_options_init(&o);
      const uint64_t want = cpu_count(g, &plan, &o);
      const int has_dedicated = wm_gpu_plan_is_diamond(&plan) || wm_gpu_plan_clique_k(&plan);
      for (int dedicated = has_dedicated; dedicated >= 0; dedicated--) {
        char what[96];
        snprintf(what, sizeof what, "%s (%s), %s, %s kernel", gname, relabel ? "by degree" : "file order", names[i],
                 dedicated ? "dedicated" : "stack");
        const uint64_t one = count_on(what, g, &plan, dedicated, 1, 0);
        cr_assert(one == want, "%s on 1 GPU: %llu, cpu %llu", what, (unsigned long long)one, (unsigned long long)want);
        const int counts[] = {2, all};
        for (int c = 0; c < 2; c++) {
          if (c == 1 && all == 2) break;
          for (int statically = 0; statically <= 1; statically++) {
            if (statically) setenv("WM_GPU_STATIC_SPLIT", "1", 1);
            const uint64_t got = count_on(what, g, &plan, dedicated, counts[c], statically);
            unsetenv("WM_GPU_STATIC_SPLIT");
            cr_assert(got == want, "%s on %d GPUs (%s): %llu, 1 GPU and cpu %llu", what, counts[c],
                      statically ? "static" : "dynamic", (unsigned long long)got, (unsigned long long)want);
          }
        }
      }
    }
  }
  wm_graph_destroy(sorted);
}

Test(gpu_matcher, several_gpus_hub_graph, .timeout = 1200) {
  const int all = two_gpus_or_skip();
  wm_graph *g = big_hub_graph(20000, 41);
  same_on_gpus("hub 20000", g, all, 1);
  wm_graph_destroy(g);
  g = wm_test_kron(16, 1);
  same_on_gpus("kron-16", g, all, 0);
  wm_graph_destroy(g);
}

Test(gpu_matcher, several_gpus_facebook, .timeout = 1200) {
  const int all = two_gpus_or_skip();
  wm_graph *g = wm_test_load_real("facebook_combined.txt");
  same_on_gpus("facebook", g, all, 0);
  wm_graph_destroy(g);
}

/* Processes sharing the work (o->share; wm_test_deal's processes run one
 * after another, each taking every P-th window of the stack kernel's level
 * 0, or its place in the dedicated kernels' static deal over every
 * process's GPUs): their counts and per-vertex counts add up to the CPU's,
 * with a small grid and with the defaults, on one GPU and where present on
 * two. */
static void dealt_counts(const char *gname, const wm_graph *g, const char *pattern, int per_vertex) {
  wm_pattern p;
  wm_error err;
  cr_assert_eq(wm_pattern_from_name(pattern, &p, &err), WM_OK, "%s", err.msg);
  wm_plan plan, cpu_plan;
  plan_for(g, &p, 0, 1, 1, &plan);
  plan_of(g, &p, 0, 1, &cpu_plan);
  wm_match_options base;
  wm_match_options_init(&base);
  uint64_t *want_pv = per_vertex ? calloc(g->n, 8) : NULL, *pv = per_vertex ? calloc(g->n, 8) : NULL;
  uint64_t *sum_pv = per_vertex ? calloc(g->n, 8) : NULL;
  base.per_vertex = want_pv;
  const uint64_t want = cpu_count(g, &cpu_plan, &base);
  const variant vs[] = {{"two/U", WM_STEAL_TWO_LEVEL, 0, 0, 0, 0, 0, 0, 0},
                        {"two/U3/small-grid/vertices", WM_STEAL_TWO_LEVEL, 3, 6, 4, 1, 0, VERT, 0}};
  const int gpus = wm_gpu_count() >= 2 ? 2 : 1;
  for (int vi = 0; vi < 2; vi++)
    for (int procs = 2; procs <= 3; procs++)
      for (int ng = 1; ng <= gpus; ng++) {
        uint64_t total = 0;
        if (sum_pv) memset(sum_pv, 0, g->n * 8);
        for (int q = 0; q < procs; q++) {
          wm_test_deal deal;
          wm_test_deal_init(&deal, procs, q);
          wm_match_options o = base;
          apply(&vs[vi], &o);
          o.share = &deal.share;
          o.per_vertex = pv;
          o.gpus = ng;
          wm_match_result r;
          cr_assert_eq(wm_match_gpu(g, &plan, &o, &r, &err), WM_OK, "%s, %s: %s", gname, pattern, err.msg);
          const char *how = strstr(r.launch, "heavy items") ? "processes" : "in windows shared with";
          cr_assert(strstr(r.launch, how) != NULL, "%s, %s: ran %s", gname, pattern, r.launch);
          total += r.count;
          for (uint32_t v = 0; pv && v < g->n; v++) sum_pv[v] += pv[v];
        }
        cr_assert_eq(total, want, "%s, %s, %s, %d processes on %d GPU(s): %llu, cpu %llu", gname, pattern,
                     vs[vi].name, procs, ng, (unsigned long long)total, (unsigned long long)want);
        for (uint32_t v = 0; pv && v < g->n; v++)
          cr_assert_eq(sum_pv[v], want_pv[v], "%s, %s, %d processes: vertex %u in %llu, cpu %llu", gname, pattern,
                       procs, v, (unsigned long long)sum_pv[v], (unsigned long long)want_pv[v]);
      }
  free(want_pv), free(pv), free(sum_pv);
}

Test(gpu_matcher, processes_share_level0, .timeout = 900) {
  wm_graph *g = hub_graph(500, 2, 0.008, 5);
  dealt_counts("hub graph", g, "triangle", 0);
  dealt_counts("hub graph", g, "4-clique", 0);
  dealt_counts("hub graph", g, "5-clique", 0);
  dealt_counts("hub graph", g, "diamond", 0);
  dealt_counts("hub graph", g, "house", 0);
  dealt_counts("hub graph", g, "tailed-triangle", 1);
  wm_graph_destroy(g);
  g = random_graph(5);
  dealt_counts("random graph 5", g, "4-cycle", 1);
  dealt_counts("random graph 5", g, "5-path", 0);
  wm_graph_destroy(g);
}

/* Listing on 2 GPUs (level 0 from the shared counter; batches small enough
 * that warps suspend and relaunch many times) lists the CPU's set. */
Test(gpu_matcher, several_gpus_listing, .timeout = 600) {
  two_gpus_or_skip();
  wm_graph *g = big_hub_graph(3000, 43);
  static const char *const names[] = {"diamond", "4-cycle", "house"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    wm_pattern p = named(names[i]);
    wm_plan plan;
    plan_of(g, &p, 0, 0, &plan);
    rows want, got;
    list_on(g, &plan, NULL, 0, 0, &want, 0);
    for (int statically = 0; statically <= 1; statically++) {
      wm_match_options o;
      wm_match_options_init(&o);
      memset(&got, 0, sizeof got);
      got.k = plan.k;
      o.sink = collect;
      o.sink_ctx = &got;
      o.gpus = 2;
      o.gpu_list_batch = 64;
      wm_match_result r;
      wm_error err;
      if (statically) setenv("WM_GPU_STATIC_SPLIT", "1", 1);
      int rc = wm_match_gpu(g, &plan, &o, &r, &err);
      unsetenv("WM_GPU_STATIC_SPLIT");
      cr_assert_eq(rc, WM_OK, "listing %s on 2 GPUs: %s", names[i], err.msg);
      cr_assert(strstr(r.launch, "listing") != NULL, "%s: %s", names[i], r.launch);
      cr_assert_eq(got.n, want.n, "%s on 2 GPUs (%s): %llu listed, cpu %llu", names[i],
                   statically ? "static" : "dynamic", (unsigned long long)got.n, (unsigned long long)want.n);
      sort_rows(&want);
      sort_rows(&got);
      cr_assert(memcmp(want.v, got.v, (size_t)want.n * want.k * 4) == 0, "%s on 2 GPUs: another set of matches",
                names[i]);
      free(got.v);
    }
    free(want.v);
  }
  wm_graph_destroy(g);
}

/* A device that fails (WM_GPU_FAULT_DEVICE queues a trapping kernel on it)
 * ends the run with a device error that names it, while the other device
 * still runs: no hang (the timeout says so), no count. */
static void fails_naming(int dev, int gpus, const char *pattern, int dedicated) {
  wm_graph *g = big_hub_graph(200000, 47);
  wm_pattern p = named(pattern);
  wm_plan plan;
  plan_of(g, &p, 0, 1, &plan);
  wm_match_options o;
  wm_match_options_init(&o);
  o.gpus = gpus;
  o.gpu_clique_kernels = dedicated;
  char env[8];
  snprintf(env, sizeof env, "%d", dev);
  setenv("WM_GPU_FAULT_DEVICE", env, 1);
  wm_match_result r;
  wm_error err;
  int rc = wm_match_gpu(g, &plan, &o, &r, &err);
  unsetenv("WM_GPU_FAULT_DEVICE");
  char want[16];
  snprintf(want, sizeof want, "device %d", dev);
  cr_assert(rc == WM_EDEVICE && strstr(err.msg, want) != NULL, "%s on %d GPUs, device %d failing: rc %d, %s", pattern,
            gpus, dev, rc, rc ? err.msg : "counted");
  wm_graph_destroy(g);
}

Test(gpu_matcher, failing_gpu_stack_kernel, .timeout = 300) {
  fails_naming(1, two_gpus_or_skip(), "4-cycle", 0);
}

Test(gpu_matcher, failing_gpu_dedicated_kernels, .timeout = 300) {
  fails_naming(1, two_gpus_or_skip(), "triangle", 1);
}

/* One GPU: the failure names device 0 as well. */
Test(gpu_matcher, failing_gpu_one_device, .timeout = 300) {
  fails_naming(0, 1, "4-cycle", 0);
}

/* Counts past 2^64 on the GPU.  A 4-star on a star of 5,000,000 leaves
 * (C(n, 3) = 2.08e19): the stack kernel's lane partials, warp sums and
 * device total pass 2^64 on a real graph.  Then under the test hook
 * WM_TEST_COUNT_START (exact_count.h) device 0's count starts at 2^64 - 5,
 * so that its low word wraps and carries on small graphs: the stack
 * kernel, the triangle, clique and diamond kernels (the vertex-induced
 * diamond less six per 4-clique), with trials, against the CPU's count
 * plus the start; and a per-vertex count past 2^64 - 1 is an error. */
static wm_u128 gpu_count_wide(const wm_graph *g, const wm_plan *plan, int dedicated, int trials, const char *what) {
  wm_match_options o;
  wm_match_options_init(&o);
  o.gpu_clique_kernels = dedicated;
  o.trials = trials;
  wm_match_result r;
  wm_error err;
  cr_assert_eq(wm_match_gpu(g, plan, &o, &r, &err), WM_OK, "%s: %s", what, err.msg);
  return r.count;
}

Test(gpu_matcher, counts_past_2_64, .timeout = 900) {
  const uint32_t leaves = 5000000;
  uint32_t *src = malloc((size_t)leaves * 4), *dst = malloc((size_t)leaves * 4);
  for (uint32_t i = 0; i < leaves; i++) src[i] = 0, dst[i] = i + 1;
  wm_graph *star = wm_test_graph_of_arcs(leaves + 1, src, dst, leaves);
  wm_pattern p = named("4-star");
  wm_plan plan;
  plan_for(star, &p, 0, 1, 1, &plan);
  const wm_u128 want = (wm_u128)leaves * (leaves - 1) * (leaves - 2) / 6;
  char a[WM_I128_CHARS], b[WM_I128_CHARS];
  const wm_u128 got = gpu_count_wide(star, &plan, 1, 1, "4-star on a 5M-leaf star");
  cr_assert(got == want, "4-stars: GPU %s, C(n, 3) = %s", wm_u128_str(got, a), wm_u128_str(want, b));
  wm_graph_destroy(star);

  wm_graph *g = hub_graph(500, 2, 0.008, 5);
  const uint64_t start = UINT64_MAX - 4;
  const struct {
    const char *name;
    int induced, dedicated;
  } cases[] = {{"triangle", 0, 1}, {"triangle", 0, 0}, {"4-clique", 0, 1}, {"5-clique", 0, 1},
               {"diamond", 0, 1},  {"diamond", 1, 1},  {"house", 0, 1},    {"4-cycle", 1, 1}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    wm_pattern q = named(cases[i].name);
    wm_plan cp, gp;
    plan_of(g, &q, cases[i].induced, 1, &cp);
    plan_for(g, &q, cases[i].induced, 1, 1, &gp);
    wm_match_options o;
    wm_match_options_init(&o);
    cr_assert_eq(unsetenv("WM_TEST_COUNT_START"), 0);
    const wm_u128 cpu = cpu_count(g, &cp, &o);
    cr_assert_eq(setenv("WM_TEST_COUNT_START", "18446744073709551611", 1), 0);
    for (int trials = 1; trials <= 3; trials += 2) {
      const wm_u128 gpu = gpu_count_wide(g, &gp, cases[i].dedicated, trials, cases[i].name);
      cr_assert(gpu == start + cpu, "%s (induced %d, dedicated %d, trials %d): GPU %s, want %s", cases[i].name,
                cases[i].induced, cases[i].dedicated, trials, wm_u128_str(gpu, a), wm_u128_str(start + cpu, b));
    }
  }
  cr_assert_eq(setenv("WM_TEST_COUNT_START", "18446744073709551615", 1), 0);
  wm_pattern q = named("house");
  wm_plan gp;
  plan_for(g, &q, 0, 1, 1, &gp);
  uint64_t *pv = calloc(g->n, sizeof *pv);
  wm_match_options o;
  wm_match_options_init(&o);
  o.per_vertex = pv;
  wm_match_result r;
  wm_error err;
  cr_assert_eq(wm_match_gpu(g, &gp, &o, &r, &err), WM_EINPUT, "per-vertex counts past 2^64 - 1 accepted");
  cr_assert(strstr(err.msg, "per-vertex counts: vertex") && strstr(err.msg, "passes 2^64 - 1"), "%s", err.msg);
  cr_assert_eq(unsetenv("WM_TEST_COUNT_START"), 0);
  free(pv);
  wm_graph_destroy(g);
}
