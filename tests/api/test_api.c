/* The public C API (api/warpmatch.h) on small graphs: counts against the
 * CPU executor run directly on the same graph and against brute force,
 * edge- and vertex-induced, labeled; a graph from edge arrays against the
 * same graph loaded from a file; motifs against wm_motifs; listing (every
 * match valid and distinct, as many as counted, in batches, stopped early,
 * limited); plans as text and JSON; BFS levels against a reference BFS and
 * parents forming a BFS tree; reachability; the detailed (_ex) calls'
 * options and figures against the executor on the graph itself; and bad
 * input answered with a code and a message, never a crash.  Where a GPU is
 * usable its answers must equal the CPU's, also with the graph kept on the
 * device between searches. */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_check.h"
#include "matcher.h"
#include "testutil.h"
#include "warpmatch.h"

/* ---- helpers ------------------------------------------------------- */

static warpmatch_context *ctx_new(void) {
  warpmatch_context *ctx = NULL;
  cr_assert_eq(warpmatch_context_create(&ctx), WARPMATCH_OK);
  cr_assert_not_null(ctx);
  return ctx;
}

/* A context where a GPU is usable; else the case reports Skipped. */
static warpmatch_context *gpu_ctx_or_skip(void) {
  warpmatch_context *ctx = ctx_new();
  if (warpmatch_gpu_available(ctx)) return ctx;
  warpmatch_context_destroy(ctx);
  cr_skip_test("no usable GPU");
  return NULL;
}

/* The API graph of an internal graph's edges, on the same vertex numbers. */
static warpmatch_graph *api_graph(warpmatch_context *ctx, const wm_graph *g) {
  uint64_t m = 0;
  uint32_t *src = malloc((g->m + 1) * sizeof *src), *dst = malloc((g->m + 1) * sizeof *dst);
  for (uint32_t u = 0; u < g->n; u++)
    for (uint64_t e = g->offsets[u]; e < g->offsets[u + 1]; e++)
      if (u < g->adj[e]) src[m] = u, dst[m++] = g->adj[e];
  warpmatch_graph *h = NULL;
  int rc = warpmatch_graph_from_edges(ctx, g->n, src, dst, m, 0, &h);
  cr_assert_eq(rc, WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  free(src);
  free(dst);
  cr_assert_eq(warpmatch_graph_vertices(h), g->n);
  cr_assert_eq(warpmatch_graph_edges(h), wm_graph_edges(g));
  return h;
}

static warpmatch_pattern *pattern(warpmatch_context *ctx, const char *name) {
  warpmatch_pattern *p = NULL;
  cr_assert_eq(warpmatch_pattern_create(ctx, name, &p), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  return p;
}

/* The internal pattern of a catalogue name, for the reference executor. */
static wm_pattern internal(const char *name) {
  wm_pattern p;
  wm_error err;
  cr_assert_eq(wm_pattern_from_name(name, &p, &err), WM_OK, "%s", err.msg);
  return p;
}

static int has_edge(const wm_graph *g, uint32_t u, uint32_t v) {
  for (uint64_t e = g->offsets[u]; e < g->offsets[u + 1]; e++)
    if (g->adj[e] == v) return 1;
  return 0;
}

/* The CPU executor on g itself (not renumbered), as the reference. */
static uint64_t reference_count(const wm_graph *g, const wm_pattern *p, int induced, const int32_t *labels) {
  wm_graph_summary gs;
  wm_graph_summary_compute(g, &gs);
  wm_plan_options po;
  wm_plan_options_init(&po);
  po.induced = induced;
  wm_plan plan;
  wm_error err;
  cr_assert_eq(wm_plan_build(p, &gs, &po, &plan, &err), WM_OK, "%s", err.msg);
  wm_match_options mo;
  wm_match_options_init(&mo);
  mo.vertex_labels = labels;
  wm_match_result r;
  cr_assert_eq(wm_match_cpu(g, &plan, &mo, &r, &err), WM_OK, "%s", err.msg);
  return r.count;
}

static uint64_t api_count(warpmatch_context *ctx, const warpmatch_graph *g, const warpmatch_pattern *p,
                          const warpmatch_count_options *o, int *method) {
  warpmatch_count_result r;
  int rc = warpmatch_count(ctx, g, p, o, &r);
  cr_assert_eq(rc, WARPMATCH_OK, "count %s: %s", warpmatch_pattern_name(p), warpmatch_last_error(ctx));
  cr_assert_eq(r.count_high, 0);
  if (method) *method = r.method;
  return r.count;
}

static warpmatch_count_options cpu_options(int induced, int method) {
  warpmatch_count_options o;
  warpmatch_count_options_init(&o);
  o.device = WARPMATCH_DEVICE_CPU;
  o.induced = induced;
  o.method = method;
  return o;
}

/* ---- version and context -------------------------------------------- */

Test(api, version_and_fresh_context) {
  char want[32];
  snprintf(want, sizeof want, "%d.%d.%d", WARPMATCH_VERSION_MAJOR, WARPMATCH_VERSION_MINOR, WARPMATCH_VERSION_PATCH);
  cr_assert_str_eq(warpmatch_version(), want);
  warpmatch_context *ctx = ctx_new();
  cr_assert_str_eq(warpmatch_last_error(ctx), "");
  cr_assert_eq(warpmatch_gpu_available(ctx), wm_gpu_available());
  warpmatch_context_destroy(ctx);
  warpmatch_context_destroy(NULL);
}

/* ---- counts ------------------------------------------------------------ */

static const char *const shapes[] = {"triangle",        "4-path",  "4-star", "4-cycle", "tailed-triangle",
                                     "diamond",         "4-clique", "house", "5-cycle", "5-path",
                                     "5-clique",        NULL};

/* Every shape, edge- and vertex-induced, by every method that applies,
 * equals the CPU executor on the graph as given. */
static void check_counts(warpmatch_context *ctx, const wm_graph *g) {
  warpmatch_graph *h = api_graph(ctx, g);
  for (const char *const *s = shapes; *s; s++) {
    warpmatch_pattern *p = pattern(ctx, *s);
    const wm_pattern ip = internal(*s);
    for (int induced = 0; induced <= 1; induced++) {
      const uint64_t want = reference_count(g, &ip, induced, NULL);
      for (int method = WARPMATCH_METHOD_AUTO; method <= WARPMATCH_METHOD_ENUMERATE; method++) {
        warpmatch_count_options o = cpu_options(induced, method);
        warpmatch_count_result r;
        int rc = warpmatch_count(ctx, h, p, &o, &r);
        if (method == WARPMATCH_METHOD_FORMULA && !wm_motif_formula_applies(&ip)) {
          cr_assert_eq(rc, WARPMATCH_EUSAGE, "%s by formula", *s);
          cr_assert(strstr(warpmatch_last_error(ctx), "FORMULA"), "%s", warpmatch_last_error(ctx));
          continue;
        }
        cr_assert_eq(rc, WARPMATCH_OK, "%s: %s", *s, warpmatch_last_error(ctx));
        cr_assert_eq(r.count, want, "%s induced %d method %d: %" PRIu64 " != %" PRIu64, *s, induced, method,
                     r.count, want);
        cr_assert_eq(r.count_high, 0);
        cr_assert_eq(r.device, WARPMATCH_DEVICE_CPU);
        if (method != WARPMATCH_METHOD_AUTO) cr_assert_eq(r.method, method);
      }
    }
    warpmatch_pattern_destroy(p);
  }
  warpmatch_graph_destroy(h);
}

Test(api, counts_equal_the_cpu_executor) {
  warpmatch_context *ctx = ctx_new();
  for (uint64_t seed = 1; seed <= 3; seed++) {
    wm_graph *er = wm_test_er(30, 0.25, seed);
    wm_graph *pl = wm_test_powerlaw(40, 5.0, 2, 0.6, seed);
    check_counts(ctx, er);
    check_counts(ctx, pl);
    wm_graph_destroy(er);
    wm_graph_destroy(pl);
  }
  warpmatch_context_destroy(ctx);
}

Test(api, triangles_and_edges_by_brute_force) {
  warpmatch_context *ctx = ctx_new();
  wm_graph *g = wm_test_powerlaw(50, 6.0, 3, 0.5, 7);
  uint64_t tri = 0;
  for (uint32_t a = 0; a < g->n; a++)
    for (uint32_t b = a + 1; b < g->n; b++)
      for (uint32_t c = b + 1; c < g->n && has_edge(g, a, b); c++) tri += has_edge(g, a, c) && has_edge(g, b, c);
  warpmatch_graph *h = api_graph(ctx, g);
  warpmatch_pattern *t = pattern(ctx, "triangle");
  warpmatch_count_options o = cpu_options(0, WARPMATCH_METHOD_AUTO);
  cr_assert_eq(api_count(ctx, h, t, &o, NULL), tri);
  o.embeddings = 1; /* every embedding: 3! per triangle */
  cr_assert_eq(api_count(ctx, h, t, &o, NULL), 6 * tri);
  unsigned edge[2] = {0, 1};
  warpmatch_pattern *e = NULL;
  cr_assert_eq(warpmatch_pattern_from_edges(ctx, 2, edge, 1, &e), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  warpmatch_count_options_init(&o);
  o.device = WARPMATCH_DEVICE_CPU;
  cr_assert_eq(api_count(ctx, h, e, &o, NULL), wm_graph_edges(g));
  warpmatch_pattern_destroy(e);
  warpmatch_pattern_destroy(t);
  warpmatch_graph_destroy(h);
  wm_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

/* K5 holds 15 four-cycles as subgraphs, none induced; 5 four-cliques both ways. */
Test(api, induced_and_edge_induced) {
  warpmatch_context *ctx = ctx_new();
  uint32_t src[10], dst[10], m = 0;
  for (uint32_t a = 0; a < 5; a++)
    for (uint32_t b = a + 1; b < 5; b++) src[m] = a, dst[m++] = b;
  warpmatch_graph *h = NULL;
  cr_assert_eq(warpmatch_graph_from_edges(ctx, 0, src, dst, m, 0, &h), WARPMATCH_OK);
  warpmatch_pattern *c4 = pattern(ctx, "4-cycle"), *k4 = pattern(ctx, "4-clique");
  warpmatch_count_options edge = cpu_options(0, WARPMATCH_METHOD_AUTO), ind = cpu_options(1, WARPMATCH_METHOD_AUTO);
  cr_assert_eq(api_count(ctx, h, c4, &edge, NULL), 15);
  cr_assert_eq(api_count(ctx, h, c4, &ind, NULL), 0);
  cr_assert_eq(api_count(ctx, h, k4, &edge, NULL), 5);
  cr_assert_eq(api_count(ctx, h, k4, &ind, NULL), 5);
  cr_assert_eq(api_count(ctx, h, c4, NULL, NULL), 15); /* NULL options: the defaults */
  warpmatch_pattern_destroy(c4);
  warpmatch_pattern_destroy(k4);
  warpmatch_graph_destroy(h);
  warpmatch_context_destroy(ctx);
}

/* A count past 2^64 (the 4-stars of a hub of degree 150000: C(150000, 4)
 * = 2.1e19) comes whole, by formula. */
Test(api, counts_past_2_to_64) {
  warpmatch_context *ctx = ctx_new();
  const uint32_t leaves = 150000;
  uint32_t *src = malloc(leaves * sizeof *src), *dst = malloc(leaves * sizeof *dst);
  for (uint32_t i = 0; i < leaves; i++) src[i] = 0, dst[i] = i + 1;
  warpmatch_graph *h = NULL;
  cr_assert_eq(warpmatch_graph_from_edges(ctx, 0, src, dst, leaves, 0, &h), WARPMATCH_OK);
  free(src);
  free(dst);
  unsigned star[8] = {0, 1, 0, 2, 0, 3, 0, 4};
  warpmatch_pattern *p = NULL;
  cr_assert_eq(warpmatch_pattern_from_edges(ctx, 5, star, 4, &p), WARPMATCH_OK);
  cr_assert_str_eq(warpmatch_pattern_name(p), "5-star");
  warpmatch_count_options o = cpu_options(0, WARPMATCH_METHOD_AUTO);
  warpmatch_count_result r;
  cr_assert_eq(warpmatch_count(ctx, h, p, &o, &r), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  const unsigned __int128 d = leaves, want = d * (d - 1) * (d - 2) * (d - 3) / 24;
  cr_assert_eq(r.method, WARPMATCH_METHOD_FORMULA);
  cr_assert_eq(r.count, (uint64_t)want);
  cr_assert_eq(r.count_high, (uint64_t)(want >> 64));
  cr_assert_gt(r.count_high, 0);
  warpmatch_pattern_destroy(p);
  warpmatch_graph_destroy(h);
  warpmatch_context_destroy(ctx);
}

Test(api, labels) {
  warpmatch_context *ctx = ctx_new();
  wm_graph *g = wm_test_powerlaw(60, 8.0, 3, 0.5, 11);
  int32_t *labels = malloc(g->n * sizeof *labels);
  uint64_t s = 5;
  for (uint32_t v = 0; v < g->n; v++) labels[v] = (int32_t)(wm_test_rand(&s) % 3);
  warpmatch_graph *h = api_graph(ctx, g);
  warpmatch_pattern *p = pattern(ctx, "tailed-triangle");
  cr_assert_eq(warpmatch_pattern_set_label(ctx, p, 0, 1), WARPMATCH_OK);
  cr_assert_eq(warpmatch_pattern_set_label(ctx, p, 3, 2), WARPMATCH_OK);
  cr_assert_str_eq(warpmatch_pattern_name(p), "tailed-triangle"); /* the shape's name */
  wm_pattern ip = internal("tailed-triangle"), shape = ip;
  wm_pattern_set_label(&ip, 0, 1);
  wm_pattern_set_label(&ip, 3, 2);
  for (int induced = 0; induced <= 1; induced++) {
    warpmatch_count_options o = cpu_options(induced, WARPMATCH_METHOD_AUTO);
    warpmatch_count_result r;
    cr_assert_eq(warpmatch_count(ctx, h, p, &o, &r), WARPMATCH_EUSAGE, "a labeled pattern without labels");
    cr_assert(strstr(warpmatch_last_error(ctx), "labels"), "%s", warpmatch_last_error(ctx));
    o.labels = labels;
    const uint64_t want = reference_count(g, &ip, induced, labels);
    cr_assert_eq(api_count(ctx, h, p, &o, NULL), want);
    o.labels = NULL;
    o.ignore_labels = 1;
    cr_assert_eq(api_count(ctx, h, p, &o, NULL), reference_count(g, &shape, induced, NULL));
  }
  /* Setting a label back to -1 makes the vertex match any label again. */
  cr_assert_eq(warpmatch_pattern_set_label(ctx, p, 0, -1), WARPMATCH_OK);
  cr_assert_eq(warpmatch_pattern_set_label(ctx, p, 3, -1), WARPMATCH_OK);
  warpmatch_count_options o = cpu_options(0, WARPMATCH_METHOD_AUTO);
  cr_assert_eq(api_count(ctx, h, p, &o, NULL), reference_count(g, &shape, 0, NULL));
  /* Data labels are >= 0. */
  cr_assert_eq(warpmatch_pattern_set_label(ctx, p, 1, 0), WARPMATCH_OK);
  labels[7] = -4;
  o.labels = labels;
  warpmatch_count_result r;
  cr_assert_eq(warpmatch_count(ctx, h, p, &o, &r), WARPMATCH_EINPUT);
  cr_assert(strstr(warpmatch_last_error(ctx), "labels[7]"), "%s", warpmatch_last_error(ctx));
  free(labels);
  warpmatch_pattern_destroy(p);
  warpmatch_graph_destroy(h);
  wm_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

/* ---- graphs from files and from edges -------------------------------- */

/* An edge list whose ids are sparse (10 + 3v): a load numbers them
 * 0..n-1 in increasing order, so index v is file id 10 + 3v. */
static void write_sparse(const wm_graph *g, const char *path) {
  FILE *f = fopen(path, "w");
  cr_assert_not_null(f);
  fprintf(f, "# a test graph\n");
  for (uint32_t u = 0; u < g->n; u++)
    for (uint64_t e = g->offsets[u]; e < g->offsets[u + 1]; e++)
      if (u < g->adj[e]) fprintf(f, "%u\t%u\n", 10 + 3 * u, 10 + 3 * g->adj[e]);
  fclose(f);
}

static int collect_matches(void *user, const uint32_t *matches, uint64_t n, unsigned k);

typedef struct listing {
  uint32_t *m; /* matches, k each */
  uint64_t n, cap;
  unsigned k;
  uint64_t calls, stop_after; /* stop_after calls: return 1 (0: never) */
  uint64_t biggest;
} listing;

Test(api, file_graph_equals_edge_graph) {
  warpmatch_context *ctx = ctx_new();
  wm_graph *g = wm_test_powerlaw(50, 6.0, 2, 0.5, 3);
  wm_test_files f;
  wm_test_graph_file(&f, "");
  write_sparse(g, f.graph);
  warpmatch_graph *fromfile[2];
  for (int cache = 0; cache <= 1; cache++) {
    warpmatch_load_options lo;
    warpmatch_load_options_init(&lo);
    cr_assert_eq(lo.use_cache, 1);
    cr_assert_eq(lo.directed, 0);
    lo.use_cache = cache;
    cr_assert_eq(warpmatch_graph_load(ctx, f.graph, &lo, &fromfile[cache]), WARPMATCH_OK, "%s",
                 warpmatch_last_error(ctx));
  }
  warpmatch_graph *edges = api_graph(ctx, g);
  /* Only vertices with an edge appear in a file: compare on those. */
  uint32_t present = 0;
  for (uint32_t v = 0; v < g->n; v++) present += wm_degree(g, v) > 0;
  for (int cache = 0; cache <= 1; cache++) {
    warpmatch_graph *h = fromfile[cache];
    cr_assert_eq(warpmatch_graph_vertices(h), present);
    cr_assert_eq(warpmatch_graph_edges(h), wm_graph_edges(g));
    cr_assert_eq(warpmatch_graph_directed(h), 0);
    uint64_t *ids = malloc(present * sizeof *ids);
    warpmatch_graph_ids(h, ids);
    for (uint32_t i = 1; i < present; i++) cr_assert_lt(ids[i - 1], ids[i], "ids ascend");
    for (uint32_t i = 0; i < present; i++) cr_assert_eq((ids[i] - 10) % 3, 0);
    for (const char *const *s = shapes; *s; s++) {
      warpmatch_pattern *p = pattern(ctx, *s);
      warpmatch_count_options o = cpu_options(1, WARPMATCH_METHOD_ENUMERATE);
      cr_assert_eq(api_count(ctx, h, p, &o, NULL), api_count(ctx, edges, p, &o, NULL), "%s", *s);
      warpmatch_pattern_destroy(p);
    }
    /* Listed matches are the file graph's indices: through ids, edges of g. */
    warpmatch_pattern *t = pattern(ctx, "diamond");
    const wm_pattern it = internal("diamond");
    listing l = {.k = 4};
    uint64_t listed = 0;
    cr_assert_eq(warpmatch_list(ctx, h, t, NULL, 0, collect_matches, &l, &listed), WARPMATCH_OK, "%s",
                 warpmatch_last_error(ctx));
    cr_assert_eq(listed, l.n);
    cr_assert_gt(l.n, 0);
    for (uint64_t j = 0; j < l.n; j++)
      for (unsigned a = 0; a < 4; a++)
        for (unsigned b = 0; b < 4; b++)
          if (wm_pattern_has_edge(&it, a, b)) {
            uint32_t u = l.m[j * 4 + a], v = l.m[j * 4 + b];
            cr_assert(u < present && v < present);
            cr_assert(has_edge(g, (uint32_t)(ids[u] - 10) / 3, (uint32_t)(ids[v] - 10) / 3));
          }
    free(l.m);
    /* BFS levels agree through the ids. */
    uint32_t src_index = 0;
    int32_t *lv = malloc(present * sizeof *lv), *lw = malloc(g->n * sizeof *lw);
    cr_assert_eq(warpmatch_bfs(ctx, h, src_index, WARPMATCH_DEVICE_CPU, lv, NULL, NULL), WARPMATCH_OK);
    cr_assert_eq(warpmatch_bfs(ctx, edges, (uint32_t)(ids[src_index] - 10) / 3, WARPMATCH_DEVICE_CPU, lw, NULL, NULL),
                 WARPMATCH_OK);
    for (uint32_t i = 0; i < present; i++) cr_assert_eq(lv[i], lw[(ids[i] - 10) / 3]);
    free(lv);
    free(lw);
    free(ids);
    warpmatch_pattern_destroy(t);
    warpmatch_graph_destroy(h);
  }
  char cache[600];
  snprintf(cache, sizeof cache, "%s.wmg", f.graph);
  FILE *c = fopen(cache, "rb");
  cr_assert_not_null(c, "use_cache writes %s", cache);
  fclose(c);
  warpmatch_graph_destroy(edges);
  wm_graph_destroy(g);
  wm_test_rmdir(f.dir);
  warpmatch_context_destroy(ctx);
}

Test(api, graph_from_edges) {
  warpmatch_context *ctx = ctx_new();
  /* A self-loop and a duplicate (both ways) are dropped; n = 0 takes the
   * largest id + 1, so vertex 3 (no edge) is kept as an index. */
  uint32_t src[] = {0, 1, 2, 1, 4}, dst[] = {1, 0, 2, 2, 1};
  warpmatch_graph *g = NULL;
  cr_assert_eq(warpmatch_graph_from_edges(ctx, 0, src, dst, 5, 0, &g), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  cr_assert_eq(warpmatch_graph_vertices(g), 5);
  cr_assert_eq(warpmatch_graph_edges(g), 3);
  uint64_t ids[5];
  warpmatch_graph_ids(g, ids);
  for (uint64_t i = 0; i < 5; i++) cr_assert_eq(ids[i], i);
  warpmatch_graph_destroy(g);
  /* n given: isolated vertices up to n - 1; the arrays are the caller's still. */
  cr_assert_eq(warpmatch_graph_from_edges(ctx, 9, src, dst, 5, 0, &g), WARPMATCH_OK);
  cr_assert_eq(warpmatch_graph_vertices(g), 9);
  cr_assert_eq(src[4], 4);
  warpmatch_graph_destroy(g);
  /* Directed: arcs as given. */
  cr_assert_eq(warpmatch_graph_from_edges(ctx, 0, src, dst, 5, 1, &g), WARPMATCH_OK);
  cr_assert_eq(warpmatch_graph_directed(g), 1);
  cr_assert_eq(warpmatch_graph_edges(g), 4);
  warpmatch_graph_destroy(g);
  /* No edges, no vertices: nothing to count, no source to search from. */
  cr_assert_eq(warpmatch_graph_from_edges(ctx, 0, NULL, NULL, 0, 0, &g), WARPMATCH_OK);
  cr_assert_eq(warpmatch_graph_vertices(g), 0);
  warpmatch_pattern *t = pattern(ctx, "triangle");
  warpmatch_count_options o = cpu_options(0, WARPMATCH_METHOD_AUTO);
  cr_assert_eq(api_count(ctx, g, t, &o, NULL), 0);
  warpmatch_motif mo[2];
  cr_assert_eq(warpmatch_motifs(ctx, g, 3, &o, mo), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  cr_assert_eq(mo[0].count + mo[1].count, 0);
  cr_assert_eq(warpmatch_bfs(ctx, g, 0, WARPMATCH_DEVICE_CPU, NULL, NULL, NULL), WARPMATCH_EUSAGE);
  cr_assert(strstr(warpmatch_last_error(ctx), "no vertices"), "%s", warpmatch_last_error(ctx));
  warpmatch_pattern_destroy(t);
  warpmatch_graph_destroy(g);
  /* An id beyond n. */
  cr_assert_eq(warpmatch_graph_from_edges(ctx, 3, src, dst, 5, 0, &g), WARPMATCH_EINPUT);
  cr_assert_null(g);
  cr_assert(strstr(warpmatch_last_error(ctx), "4-1"), "%s", warpmatch_last_error(ctx));
  warpmatch_context_destroy(ctx);
}

/* Pairs side by side give the graph the two columns give. */
Test(api, graph_from_pairs) {
  warpmatch_context *ctx = ctx_new();
  uint32_t src[] = {0, 1, 2, 1, 4, 6}, dst[] = {1, 0, 2, 2, 1, 3}, pairs[12];
  for (int i = 0; i < 6; i++) pairs[2 * i] = src[i], pairs[2 * i + 1] = dst[i];
  for (int directed = 0; directed < 2; directed++) {
    warpmatch_graph *a = NULL, *b = NULL;
    cr_assert_eq(warpmatch_graph_from_edges(ctx, 0, src, dst, 6, directed, &a), WARPMATCH_OK);
    cr_assert_eq(warpmatch_graph_from_pairs(ctx, 0, pairs, 6, directed, &b), WARPMATCH_OK, "%s",
                 warpmatch_last_error(ctx));
    cr_assert_eq(warpmatch_graph_vertices(b), warpmatch_graph_vertices(a));
    uint64_t m = warpmatch_graph_edges(a);
    cr_assert_eq(warpmatch_graph_edges(b), m);
    uint32_t ua[8], va[8], ub[8], vb[8];
    warpmatch_graph_edge_ends(a, ua, va);
    warpmatch_graph_edge_ends(b, ub, vb);
    cr_assert(memcmp(ua, ub, m * sizeof *ua) == 0 && memcmp(va, vb, m * sizeof *va) == 0);
    warpmatch_graph_destroy(a);
    warpmatch_graph_destroy(b);
  }
  warpmatch_graph *g = NULL;
  cr_assert_eq(warpmatch_graph_from_pairs(ctx, 5, pairs, 6, 0, &g), WARPMATCH_EINPUT);
  cr_assert_null(g);
  cr_assert(strstr(warpmatch_last_error(ctx), "edge 5 (6-3)"), "%s", warpmatch_last_error(ctx));
  cr_assert_eq(warpmatch_graph_from_pairs(ctx, 0, NULL, 1, 0, &g), WARPMATCH_EUSAGE);
  warpmatch_context_destroy(ctx);
}

/* ---- motifs ------------------------------------------------------------ */

Test(api, motifs_equal_wm_motifs) {
  warpmatch_context *ctx = ctx_new();
  cr_assert_eq(warpmatch_motif_classes(3), 2);
  cr_assert_eq(warpmatch_motif_classes(4), 6);
  cr_assert_eq(warpmatch_motif_classes(5), 21);
  cr_assert_eq(warpmatch_motif_classes(2), 0);
  cr_assert_eq(warpmatch_motif_classes(6), 0);
  wm_graph *g = wm_test_powerlaw(45, 6.0, 2, 0.5, 9);
  warpmatch_graph *h = api_graph(ctx, g);
  for (unsigned k = 3; k <= 5; k++) {
    wm_pattern *pats = NULL;
    unsigned n = 0;
    wm_error err;
    cr_assert_eq(wm_connected_patterns(k, &pats, &n, &err), WM_OK);
    wm_u128 *want = calloc(n, sizeof *want);
    wm_match_options mo;
    wm_match_options_init(&mo);
    mo.motif_method = WM_MOTIF_ENUMERATE;
    cr_assert_eq(wm_motifs(g, k, 0, &mo, want, NULL, NULL, &err), WM_OK, "%s", err.msg);
    warpmatch_motif out[21];
    for (int method = WARPMATCH_METHOD_AUTO; method <= WARPMATCH_METHOD_ENUMERATE; method++) {
      warpmatch_count_options o = cpu_options(0, method);
      memset(out, 0xff, sizeof out);
      cr_assert_eq(warpmatch_motifs(ctx, h, k, &o, out), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
      for (unsigned i = 0; i < n; i++) {
        char edges[256];
        wm_pattern_edge_string(&pats[i], edges, sizeof edges);
        cr_assert_str_eq(out[i].name, pats[i].name);
        cr_assert_str_eq(out[i].edges, edges);
        cr_assert_eq(out[i].count, (uint64_t)want[i], "size %u %s method %d", k, out[i].name, method);
        cr_assert_eq(out[i].count_high, (uint64_t)(want[i] >> 64));
      }
    }
    free(want);
    free(pats);
  }
  warpmatch_motif out[2];
  cr_assert_eq(warpmatch_motifs(ctx, h, 3, NULL, out), WARPMATCH_OK); /* NULL options */
  cr_assert_eq(warpmatch_motifs(ctx, h, 6, NULL, out), WARPMATCH_EUSAGE);
  cr_assert(strstr(warpmatch_last_error(ctx), "size 6"), "%s", warpmatch_last_error(ctx));
  warpmatch_graph_destroy(h);
  wm_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

/* ---- listing --------------------------------------------------------- */

static int collect_matches(void *user, const uint32_t *matches, uint64_t n, unsigned k) {
  listing *l = user;
  cr_assert_eq(k, l->k);
  cr_assert_gt(n, 0);
  if (l->n + n > l->cap) {
    l->cap = 2 * (l->n + n);
    l->m = realloc(l->m, l->cap * k * sizeof *l->m);
  }
  memcpy(l->m + l->n * k, matches, n * k * sizeof *matches);
  l->n += n;
  l->calls++;
  if (n > l->biggest) l->biggest = n;
  return l->stop_after && l->calls >= l->stop_after;
}

static unsigned g_k;
static int cmp_match(const void *a, const void *b) { return memcmp(a, b, g_k * sizeof(uint32_t)); }

/* Every match maps the pattern's edges (and, induced, its non-edges) onto
 * g, uses k distinct vertices, and no match comes twice. */
static void check_matches(const wm_graph *g, const wm_pattern *p, int induced, listing *l) {
  const unsigned k = p->k;
  for (uint64_t j = 0; j < l->n; j++) {
    const uint32_t *x = l->m + j * k;
    for (unsigned a = 0; a < k; a++)
      for (unsigned b = a + 1; b < k; b++) {
        cr_assert_neq(x[a], x[b]);
        if (wm_pattern_has_edge(p, a, b))
          cr_assert(has_edge(g, x[a], x[b]), "pattern edge %u-%u is not a graph edge", a, b);
        else if (induced)
          cr_assert(!has_edge(g, x[a], x[b]), "induced match has an extra edge");
      }
  }
  g_k = k;
  qsort(l->m, l->n, k * sizeof *l->m, cmp_match);
  for (uint64_t j = 1; j < l->n; j++) cr_assert_neq(memcmp(l->m + (j - 1) * k, l->m + j * k, k * sizeof *l->m), 0);
}

Test(api, list_all_matches) {
  warpmatch_context *ctx = ctx_new();
  wm_graph *g = wm_test_powerlaw(40, 6.0, 2, 0.6, 21);
  warpmatch_graph *h = api_graph(ctx, g);
  for (const char *const *s = shapes; *s; s++)
    for (int induced = 0; induced <= 1; induced++) {
      warpmatch_pattern *p = pattern(ctx, *s);
      const wm_pattern ip = internal(*s);
      warpmatch_count_options o = cpu_options(induced, WARPMATCH_METHOD_AUTO);
      listing l = {.k = warpmatch_pattern_vertices(p)};
      uint64_t listed = 7;
      cr_assert_eq(warpmatch_list(ctx, h, p, &o, 0, collect_matches, &l, &listed), WARPMATCH_OK, "%s",
                   warpmatch_last_error(ctx));
      cr_assert_eq(listed, l.n);
      cr_assert_eq(l.n, api_count(ctx, h, p, &o, NULL), "%s induced %d", *s, induced);
      check_matches(g, &ip, induced, &l);
      free(l.m);
      warpmatch_pattern_destroy(p);
    }
  warpmatch_graph_destroy(h);
  wm_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

/* Over 4096 matches: full batches of 4096 then the rest; a function that
 * stops after one batch gets one; a limit is honoured exactly. */
Test(api, list_batches_stop_and_limit) {
  warpmatch_context *ctx = ctx_new();
  wm_graph *g = wm_test_er(160, 0.35, 5);
  warpmatch_graph *h = api_graph(ctx, g);
  warpmatch_pattern *p = pattern(ctx, "triangle");
  const wm_pattern ip = internal("triangle");
  warpmatch_count_options o = cpu_options(0, WARPMATCH_METHOD_AUTO);
  const uint64_t total = api_count(ctx, h, p, &o, NULL);
  cr_assert_gt(total, 3 * 4096, "the test needs several batches (%" PRIu64 " triangles)", total);
  listing all = {.k = 3};
  uint64_t listed = 0;
  cr_assert_eq(warpmatch_list(ctx, h, p, &o, 0, collect_matches, &all, &listed), WARPMATCH_OK);
  cr_assert_eq(listed, total);
  cr_assert_eq(all.biggest, 4096);
  cr_assert_eq(all.calls, (total + 4095) / 4096);
  check_matches(g, &ip, 0, &all);
  /* One subgraph once: each vertex set comes once. */
  for (uint64_t j = 0; j < all.n; j++) {
    uint32_t *x = all.m + 3 * j, t;
    if (x[0] > x[1]) t = x[0], x[0] = x[1], x[1] = t;
    if (x[1] > x[2]) t = x[1], x[1] = x[2], x[2] = t;
    if (x[0] > x[1]) t = x[0], x[0] = x[1], x[1] = t;
  }
  check_matches(g, &ip, 0, &all);
  free(all.m);

  listing one = {.k = 3, .stop_after = 1};
  cr_assert_eq(warpmatch_list(ctx, h, p, &o, 0, collect_matches, &one, &listed), WARPMATCH_OK);
  cr_assert_eq(one.calls, 1);
  cr_assert_eq(listed, 4096);
  free(one.m);

  const uint64_t limits[] = {1, 10, 4096, 5000, total, total + 3};
  for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
    listing l = {.k = 3};
    cr_assert_eq(warpmatch_list(ctx, h, p, &o, limits[i], collect_matches, &l, &listed), WARPMATCH_OK);
    const uint64_t want = limits[i] < total ? limits[i] : total;
    cr_assert_eq(listed, want, "limit %" PRIu64 ": %" PRIu64, limits[i], listed);
    cr_assert_eq(l.n, want);
    check_matches(g, &ip, 0, &l);
    free(l.m);
  }
  listing l = {.k = 3};
  cr_assert_eq(warpmatch_list(ctx, h, p, &o, 5, collect_matches, &l, NULL), WARPMATCH_OK); /* listed NULL */
  free(l.m);
  o.method = WARPMATCH_METHOD_FORMULA;
  cr_assert_eq(warpmatch_list(ctx, h, p, &o, 5, collect_matches, &l, NULL), WARPMATCH_EUSAGE);
  warpmatch_pattern_destroy(p);
  warpmatch_graph_destroy(h);
  wm_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

/* ---- plans ------------------------------------------------------------- */

Test(api, plan_text_and_json) {
  warpmatch_context *ctx = ctx_new();
  wm_graph *g = wm_test_powerlaw(60, 6.0, 2, 0.5, 4);
  warpmatch_graph *h = api_graph(ctx, g);
  warpmatch_pattern *p = pattern(ctx, "house");
  warpmatch_count_options o = cpu_options(0, WARPMATCH_METHOD_AUTO);
  size_t need = 0;
  cr_assert_eq(warpmatch_plan(ctx, h, p, &o, WARPMATCH_PLAN_TEXT, NULL, 0, &need), WARPMATCH_OK, "%s",
               warpmatch_last_error(ctx));
  cr_assert_gt(need, 100);
  char *text = malloc(need + 1);
  size_t again = 0;
  cr_assert_eq(warpmatch_plan(ctx, h, p, &o, WARPMATCH_PLAN_TEXT, text, need + 1, &again), WARPMATCH_OK);
  cr_assert_eq(again, need);
  cr_assert_eq(strlen(text), need);
  cr_assert(strstr(text, "plan for house"), "%s", text);
  cr_assert(strstr(text, "for v0 in V"), "%s", text);
  cr_assert(strstr(text, "graph statistics: measured; n = 60"), "%s", text);
  /* Cut to size, NUL-terminated. */
  char small[16];
  cr_assert_eq(warpmatch_plan(ctx, h, p, &o, WARPMATCH_PLAN_TEXT, small, sizeof small, &again), WARPMATCH_OK);
  cr_assert_eq(strlen(small), sizeof small - 1);
  cr_assert_eq(strncmp(small, text, sizeof small - 1), 0);
  cr_assert_eq(again, need);
  free(text);

  char json[16384];
  o.induced = 1;
  cr_assert_eq(warpmatch_plan(ctx, h, p, &o, WARPMATCH_PLAN_JSON, json, sizeof json, &need), WARPMATCH_OK);
  cr_assert_lt(need, sizeof json);
  cr_assert(json_valid_object(json), "%s", json);
  cr_assert(strstr(json, "\"induced\":true"), "%s", json);
  cr_assert(strstr(json, "\"graph_summary\":"), "%s", json);
  cr_assert_eq(json_u64(json, "k"), 5);
  cr_assert_eq(json_u64(json, "vertices"), 60);

  /* No graph: the planner's defaults; a labeled pattern plans without labels. */
  cr_assert_eq(warpmatch_pattern_set_label(ctx, p, 2, 1), WARPMATCH_OK);
  cr_assert_eq(warpmatch_plan(ctx, NULL, p, NULL, WARPMATCH_PLAN_JSON, json, sizeof json, NULL), WARPMATCH_OK,
               "%s", warpmatch_last_error(ctx));
  cr_assert(json_valid_object(json), "%s", json);
  cr_assert(strstr(json, "\"from_graph\":false"), "%s", json);
  cr_assert(strstr(json, "\"labeled\":true"), "%s", json);
  cr_assert_eq(warpmatch_plan(ctx, h, p, NULL, WARPMATCH_PLAN_TEXT, json, sizeof json, NULL), WARPMATCH_OK);
  cr_assert_eq(warpmatch_plan(ctx, h, p, NULL, 7, json, sizeof json, NULL), WARPMATCH_EUSAGE);
  cr_assert_eq(warpmatch_plan(ctx, h, p, NULL, WARPMATCH_PLAN_TEXT, NULL, 5, NULL), WARPMATCH_EUSAGE);
  warpmatch_pattern_destroy(p);
  warpmatch_graph_destroy(h);
  wm_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

/* ---- traversal ------------------------------------------------------- */

/* Levels by a plain queue BFS along out-arcs. */
static void reference_bfs(const wm_graph *g, uint32_t s, int32_t *level) {
  uint32_t *q = malloc((g->n + 1) * sizeof *q), head = 0, tail = 0;
  for (uint32_t v = 0; v < g->n; v++) level[v] = -1;
  level[s] = 0;
  q[tail++] = s;
  while (head < tail) {
    uint32_t u = q[head++];
    for (uint64_t e = g->offsets[u]; e < g->offsets[u + 1]; e++)
      if (level[g->adj[e]] < 0) level[g->adj[e]] = level[u] + 1, q[tail++] = g->adj[e];
  }
  free(q);
}

static void check_bfs(warpmatch_context *ctx, const wm_graph *g, const warpmatch_graph *h, uint32_t s, int device) {
  int32_t *want = malloc(g->n * sizeof *want), *lv = malloc(g->n * sizeof *lv);
  uint32_t *par = malloc(g->n * sizeof *par);
  reference_bfs(g, s, want);
  warpmatch_bfs_result r;
  cr_assert_eq(warpmatch_bfs(ctx, h, s, device, lv, par, &r), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  uint32_t reached = 0, depth = 0;
  for (uint32_t v = 0; v < g->n; v++) {
    cr_assert_eq(lv[v], want[v], "level of %u from %u", v, s);
    if (want[v] < 0) {
      cr_assert_eq(par[v], UINT32_MAX);
      continue;
    }
    reached++;
    if ((uint32_t)want[v] + 1 > depth) depth = (uint32_t)want[v] + 1;
    if (v == s) {
      cr_assert_eq(par[v], s);
      continue;
    }
    cr_assert_lt(par[v], g->n);
    cr_assert_eq(lv[par[v]], lv[v] - 1, "parent one level up");
    cr_assert(has_edge(g, par[v], v), "parent joined by an arc");
  }
  cr_assert_eq(r.reached, reached);
  cr_assert_eq(r.depth, depth);
  cr_assert_eq(r.device, device == WARPMATCH_DEVICE_GPU ? WARPMATCH_DEVICE_GPU : WARPMATCH_DEVICE_CPU);
  /* Either array alone, and no result. */
  memset(lv, 0x7f, g->n * sizeof *lv);
  cr_assert_eq(warpmatch_bfs(ctx, h, s, device, lv, NULL, NULL), WARPMATCH_OK);
  for (uint32_t v = 0; v < g->n; v++) cr_assert_eq(lv[v], want[v]);
  cr_assert_eq(warpmatch_bfs(ctx, h, s, device, NULL, par, NULL), WARPMATCH_OK);
  cr_assert_eq(par[s], s);
  free(want);
  free(lv);
  free(par);
}

Test(api, bfs_levels_and_parents) {
  warpmatch_context *ctx = ctx_new();
  for (uint64_t seed = 1; seed <= 3; seed++) {
    wm_graph *gs[2] = {wm_test_er(80, 0.03, seed), wm_test_powerlaw(300, 4.0, 3, 0.3, seed)};
    for (int i = 0; i < 2; i++) {
      warpmatch_graph *h = api_graph(ctx, gs[i]);
      for (uint32_t s = 0; s < gs[i]->n; s += 37) check_bfs(ctx, gs[i], h, s, WARPMATCH_DEVICE_CPU);
      warpmatch_graph_destroy(h);
      wm_graph_destroy(gs[i]);
    }
  }
  warpmatch_context_destroy(ctx);
}

/* A directed graph: a path 0->1->...->9 plus a hub 10 -> every vertex,
 * searched along its arcs (twice: the transpose is kept between calls). */
Test(api, bfs_directed) {
  warpmatch_context *ctx = ctx_new();
  uint32_t src[32], dst[32], m = 0;
  for (uint32_t v = 0; v + 1 < 10; v++) src[m] = v, dst[m++] = v + 1;
  for (uint32_t v = 0; v < 10; v++) src[m] = 10, dst[m++] = v;
  warpmatch_graph *h = NULL;
  cr_assert_eq(warpmatch_graph_from_edges(ctx, 0, src, dst, m, 1, &h), WARPMATCH_OK);
  wm_graph *g = NULL;
  wm_error err;
  uint32_t *s2 = malloc(sizeof src), *d2 = malloc(sizeof dst);
  memcpy(s2, src, sizeof src);
  memcpy(d2, dst, sizeof dst);
  cr_assert_eq(wm_graph_from_arcs(s2, d2, m, 11, 1, &g, &err), WM_OK);
  free(s2);
  free(d2);
  for (int twice = 0; twice < 2; twice++)
    for (uint32_t s = 0; s <= 10; s++) check_bfs(ctx, g, h, s, WARPMATCH_DEVICE_CPU);
  int64_t hops = 0;
  cr_assert_eq(warpmatch_reach(ctx, h, 0, 9, WARPMATCH_DEVICE_CPU, &hops), WARPMATCH_OK);
  cr_assert_eq(hops, 9);
  cr_assert_eq(warpmatch_reach(ctx, h, 9, 0, WARPMATCH_DEVICE_CPU, &hops), WARPMATCH_OK);
  cr_assert_eq(hops, -1);
  cr_assert_eq(warpmatch_reach(ctx, h, 10, 9, WARPMATCH_DEVICE_CPU, &hops), WARPMATCH_OK);
  cr_assert_eq(hops, 1);
  /* Matching needs an undirected graph. */
  warpmatch_pattern *t = pattern(ctx, "triangle");
  warpmatch_count_result r;
  /* The same mistake, the same code, whatever the call. */
  cr_assert_eq(warpmatch_count(ctx, h, t, NULL, &r), WARPMATCH_EUSAGE);
  cr_assert_neq(warpmatch_last_error(ctx)[0], '\0');
  warpmatch_motif mo[2];
  cr_assert_eq(warpmatch_motifs(ctx, h, 3, NULL, mo), WARPMATCH_EUSAGE);
  warpmatch_pattern_destroy(t);
  wm_graph_destroy(g);
  warpmatch_graph_destroy(h);
  warpmatch_context_destroy(ctx);
}

Test(api, reach) {
  warpmatch_context *ctx = ctx_new();
  wm_graph *g = wm_test_er(150, 0.012, 8); /* sparse: several components */
  warpmatch_graph *h = api_graph(ctx, g);
  int32_t *level = malloc(g->n * sizeof *level);
  int unreachable = 0;
  for (uint32_t from = 0; from < g->n; from += 29) {
    reference_bfs(g, from, level);
    for (uint32_t to = 0; to < g->n; to += 7) {
      int64_t hops = 99;
      cr_assert_eq(warpmatch_reach(ctx, h, from, to, WARPMATCH_DEVICE_CPU, &hops), WARPMATCH_OK);
      cr_assert_eq(hops, level[to], "%u -> %u", from, to);
      unreachable += hops < 0;
    }
  }
  cr_assert_gt(unreachable, 0, "the test wants unreachable pairs too");
  int64_t hops = 5;
  cr_assert_eq(warpmatch_reach(ctx, h, 3, 3, WARPMATCH_DEVICE_AUTO, &hops), WARPMATCH_OK);
  cr_assert_eq(hops, 0);
  free(level);
  warpmatch_graph_destroy(h);
  wm_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

/* ---- threads ------------------------------------------------------------ */

Test(api, threads) {
  warpmatch_context *ctx = ctx_new();
  wm_graph *g = wm_test_powerlaw(80, 8.0, 3, 0.5, 2);
  warpmatch_graph *h = api_graph(ctx, g);
  warpmatch_pattern *p = pattern(ctx, "4-cycle");
  warpmatch_count_options o = cpu_options(0, WARPMATCH_METHOD_ENUMERATE);
  const uint64_t all = api_count(ctx, h, p, &o, NULL);
  const int before = omp_get_max_threads();
  cr_assert_eq(warpmatch_set_threads(ctx, 1), WARPMATCH_OK);
  cr_assert_eq(api_count(ctx, h, p, &o, NULL), all);
  cr_assert_eq(omp_get_max_threads(), before, "a call leaves OpenMP's default as it was");
  cr_assert_eq(warpmatch_set_threads(ctx, -1), WARPMATCH_EUSAGE);
  cr_assert(strstr(warpmatch_last_error(ctx), "-1"), "%s", warpmatch_last_error(ctx));
  warpmatch_pattern_destroy(p);
  warpmatch_graph_destroy(h);
  wm_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

/* GPUs for later calls: 1 to 16; calls on the CPU do not use them. */
Test(api, gpus_setting) {
  warpmatch_context *ctx = ctx_new();
  wm_graph *g = wm_test_powerlaw(80, 8.0, 3, 0.5, 3);
  warpmatch_graph *h = api_graph(ctx, g);
  warpmatch_pattern *p = pattern(ctx, "triangle");
  warpmatch_count_options o = cpu_options(0, WARPMATCH_METHOD_ENUMERATE);
  const uint64_t want = api_count(ctx, h, p, &o, NULL);
  cr_assert_eq(warpmatch_set_gpus(ctx, 0), WARPMATCH_EUSAGE);
  cr_assert(strstr(warpmatch_last_error(ctx), "0 GPUs"), "%s", warpmatch_last_error(ctx));
  cr_assert_eq(warpmatch_set_gpus(ctx, 17), WARPMATCH_EUSAGE);
  cr_assert_eq(warpmatch_set_gpus(NULL, 2), WARPMATCH_EUSAGE);
  cr_assert_eq(warpmatch_set_gpus(ctx, 2), WARPMATCH_OK);
  cr_assert_eq(api_count(ctx, h, p, &o, NULL), want);
  check_bfs(ctx, g, h, 0, WARPMATCH_DEVICE_CPU);
  warpmatch_pattern_destroy(p);
  warpmatch_graph_destroy(h);
  wm_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

/* On every GPU of a host with several: counts, motifs and BFS levels equal
 * the CPU's. */
Test(api, several_gpus_equal_cpu) {
  int n = wm_gpu_count();
  if (n < 2) cr_skip_test("several GPUs needed; this host has %d", n);
  warpmatch_context *ctx = ctx_new();
  cr_assert_eq(warpmatch_set_gpus(ctx, n), WARPMATCH_OK);
  wm_graph *wg = wm_test_powerlaw(2000, 10.0, 4, 0.4, 19);
  warpmatch_graph *g = api_graph(ctx, wg);
  static const char *const names[] = {"triangle", "4-clique", "4-cycle", "house", NULL};
  for (const char *const *s = names; *s; s++) {
    warpmatch_pattern *p = pattern(ctx, *s);
    warpmatch_count_options cpu = cpu_options(0, WARPMATCH_METHOD_ENUMERATE), gpu = cpu;
    gpu.device = WARPMATCH_DEVICE_GPU;
    cr_assert_eq(api_count(ctx, g, p, &gpu, NULL), api_count(ctx, g, p, &cpu, NULL), "%s on %d GPUs", *s, n);
    warpmatch_pattern_destroy(p);
  }
  warpmatch_motif a[21], b[21];
  warpmatch_count_options cpu = cpu_options(0, WARPMATCH_METHOD_AUTO), gpu = cpu;
  gpu.device = WARPMATCH_DEVICE_GPU;
  cr_assert_eq(warpmatch_motifs(ctx, g, 4, &cpu, a), WARPMATCH_OK);
  cr_assert_eq(warpmatch_motifs(ctx, g, 4, &gpu, b), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  cr_assert_eq(memcmp(a, b, warpmatch_motif_classes(4) * sizeof *a), 0, "motifs on %d GPUs", n);
  for (uint32_t s = 0; s < wg->n; s += 397) check_bfs(ctx, wg, g, s, WARPMATCH_DEVICE_GPU);
  warpmatch_graph_destroy(g);
  wm_graph_destroy(wg);
  warpmatch_context_destroy(ctx);
}

/* ---- bad input ------------------------------------------------------- */

Test(api, missing_file_and_bad_patterns) {
  warpmatch_context *ctx = ctx_new();
  warpmatch_graph *g = (warpmatch_graph *)1;
  cr_assert_eq(warpmatch_graph_load(ctx, "/nonexistent/dir/graph.txt", NULL, &g), WARPMATCH_EINPUT);
  cr_assert_null(g);
  cr_assert(strstr(warpmatch_last_error(ctx), "/nonexistent/dir/graph.txt"), "%s", warpmatch_last_error(ctx));

  wm_test_files f;
  wm_test_graph_file(&f, "0 1\n1 x\n");
  cr_assert_eq(warpmatch_graph_load(ctx, f.graph, NULL, &g), WARPMATCH_EINPUT);
  cr_assert(strstr(warpmatch_last_error(ctx), f.graph), "%s", warpmatch_last_error(ctx));
  wm_test_rmdir(f.dir);

  warpmatch_pattern *p = (warpmatch_pattern *)1;
  cr_assert_eq(warpmatch_pattern_create(ctx, "no-such-shape", &p), WARPMATCH_EINPUT);
  cr_assert_null(p);
  cr_assert(strstr(warpmatch_last_error(ctx), "no-such-shape"), "%s", warpmatch_last_error(ctx));

  unsigned apart[4] = {0, 1, 2, 3}, loop[2] = {1, 1}, far[2] = {0, 9};
  cr_assert_eq(warpmatch_pattern_from_edges(ctx, 4, apart, 2, &p), WARPMATCH_EINPUT);
  cr_assert(strstr(warpmatch_last_error(ctx), "not connected"), "%s", warpmatch_last_error(ctx));
  cr_assert_eq(warpmatch_pattern_from_edges(ctx, 2, loop, 1, &p), WARPMATCH_EINPUT);
  cr_assert_eq(warpmatch_pattern_from_edges(ctx, 3, far, 1, &p), WARPMATCH_EINPUT);
  cr_assert(strstr(warpmatch_last_error(ctx), "0-9"), "%s", warpmatch_last_error(ctx));
  cr_assert_eq(warpmatch_pattern_from_edges(ctx, 9, apart, 2, &p), WARPMATCH_EINPUT);
  cr_assert_eq(warpmatch_pattern_from_edges(ctx, 1, apart, 0, &p), WARPMATCH_EINPUT);

  p = pattern(ctx, "triangle");
  cr_assert_eq(warpmatch_pattern_set_label(ctx, p, 3, 0), WARPMATCH_EUSAGE);
  cr_assert(strstr(warpmatch_last_error(ctx), "vertex 3"), "%s", warpmatch_last_error(ctx));
  cr_assert_eq(warpmatch_pattern_set_label(ctx, p, 0, -2), WARPMATCH_EUSAGE);
  cr_assert(strstr(warpmatch_last_error(ctx), "-2"), "%s", warpmatch_last_error(ctx));
  warpmatch_pattern_destroy(p);
  warpmatch_context_destroy(ctx);
}

Test(api, bad_arguments) {
  warpmatch_context *ctx = ctx_new();
  wm_graph *wg = wm_test_er(20, 0.3, 1);
  warpmatch_graph *g = api_graph(ctx, wg);
  warpmatch_pattern *p = pattern(ctx, "triangle");
  warpmatch_count_result r;
  warpmatch_motif mo[6];
  int32_t lv[20];
  int64_t hops;
  uint64_t listed;
  listing l = {.k = 3};
  warpmatch_graph *g2;
  warpmatch_pattern *p2;

  /* NULL handles and outputs: EUSAGE, the message names the argument. */
#define NULL_ARG(call, what)                                                                      \
  do {                                                                                            \
    cr_assert_eq(call, WARPMATCH_EUSAGE, #call);                                                  \
    cr_assert(strstr(warpmatch_last_error(ctx), what), "%s: %s", #call, warpmatch_last_error(ctx)); \
  } while (0)
  NULL_ARG(warpmatch_graph_load(ctx, NULL, NULL, &g2), "path");
  NULL_ARG(warpmatch_graph_load(ctx, "x", NULL, NULL), "out");
  NULL_ARG(warpmatch_graph_from_edges(ctx, 3, NULL, NULL, 2, 0, &g2), "src");
  NULL_ARG(warpmatch_pattern_create(ctx, NULL, &p2), "name_or_path");
  NULL_ARG(warpmatch_pattern_from_edges(ctx, 3, NULL, 2, &p2), "edges");
  NULL_ARG(warpmatch_pattern_set_label(ctx, NULL, 0, 1), "p");
  NULL_ARG(warpmatch_count(ctx, NULL, p, NULL, &r), "g");
  NULL_ARG(warpmatch_count(ctx, g, NULL, NULL, &r), "p");
  NULL_ARG(warpmatch_count(ctx, g, p, NULL, NULL), "out");
  NULL_ARG(warpmatch_list(ctx, g, p, NULL, 0, NULL, &l, &listed), "fn");
  NULL_ARG(warpmatch_list(ctx, NULL, p, NULL, 0, collect_matches, &l, &listed), "g");
  NULL_ARG(warpmatch_plan(ctx, g, NULL, NULL, WARPMATCH_PLAN_TEXT, NULL, 0, NULL), "p");
  NULL_ARG(warpmatch_motifs(ctx, g, 4, NULL, NULL), "out");
  NULL_ARG(warpmatch_motifs(ctx, NULL, 4, NULL, mo), "g");
  NULL_ARG(warpmatch_bfs(ctx, NULL, 0, WARPMATCH_DEVICE_CPU, lv, NULL, NULL), "g");
  NULL_ARG(warpmatch_reach(ctx, g, 0, 1, WARPMATCH_DEVICE_CPU, NULL), "hops");
  NULL_ARG(warpmatch_reach(ctx, NULL, 0, 1, WARPMATCH_DEVICE_CPU, &hops), "g");
  /* A NULL context cannot hold a message, but the call still answers. */
  cr_assert_eq(warpmatch_count(NULL, g, p, NULL, &r), WARPMATCH_EUSAGE);
  cr_assert_eq(warpmatch_context_create(NULL), WARPMATCH_EUSAGE);
  cr_assert_eq(warpmatch_set_threads(NULL, 2), WARPMATCH_EUSAGE);
  cr_assert_not_null(warpmatch_last_error(NULL));
  cr_assert_eq(warpmatch_graph_vertices(NULL), 0);
  cr_assert_str_eq(warpmatch_pattern_name(NULL), "");
  warpmatch_graph_destroy(NULL);
  warpmatch_pattern_destroy(NULL);

  /* Indices outside the graph. */
  cr_assert_eq(warpmatch_bfs(ctx, g, 20, WARPMATCH_DEVICE_CPU, lv, NULL, NULL), WARPMATCH_EUSAGE);
  cr_assert(strstr(warpmatch_last_error(ctx), "source 20"), "%s", warpmatch_last_error(ctx));
  cr_assert_eq(warpmatch_reach(ctx, g, 0, 99, WARPMATCH_DEVICE_CPU, &hops), WARPMATCH_EUSAGE);
  cr_assert(strstr(warpmatch_last_error(ctx), "to 99"), "%s", warpmatch_last_error(ctx));
  cr_assert_eq(warpmatch_reach(ctx, g, 20, 0, WARPMATCH_DEVICE_CPU, &hops), WARPMATCH_EUSAGE);

  /* Options out of range. */
  warpmatch_count_options o;
  warpmatch_count_options_init(&o);
  o.device = 9;
  cr_assert_eq(warpmatch_count(ctx, g, p, &o, &r), WARPMATCH_EUSAGE);
  cr_assert(strstr(warpmatch_last_error(ctx), "device 9"), "%s", warpmatch_last_error(ctx));
  o.device = WARPMATCH_DEVICE_CPU;
  o.method = 5;
  cr_assert_eq(warpmatch_count(ctx, g, p, &o, &r), WARPMATCH_EUSAGE);
  cr_assert(strstr(warpmatch_last_error(ctx), "method 5"), "%s", warpmatch_last_error(ctx));
  cr_assert_eq(warpmatch_bfs(ctx, g, 0, -1, lv, NULL, NULL), WARPMATCH_EUSAGE);

  /* A failed call leaves its message; a later success does not erase it. */
  cr_assert_eq(warpmatch_bfs(ctx, g, 0, WARPMATCH_DEVICE_CPU, lv, NULL, NULL), WARPMATCH_OK);
  cr_assert(strstr(warpmatch_last_error(ctx), "device -1"), "%s", warpmatch_last_error(ctx));
#undef NULL_ARG
  free(l.m);
  warpmatch_pattern_destroy(p);
  warpmatch_graph_destroy(g);
  wm_graph_destroy(wg);
  warpmatch_context_destroy(ctx);
}

/* Without a usable GPU, asking for one is WARPMATCH_EDEVICE everywhere. */
Test(api, gpu_required_without_gpu) {
  warpmatch_context *ctx = ctx_new();
  if (warpmatch_gpu_available(ctx)) {
    warpmatch_context_destroy(ctx);
    cr_skip_test("a GPU is usable here");
  }
  wm_graph *wg = wm_test_er(20, 0.3, 1);
  warpmatch_graph *g = api_graph(ctx, wg);
  warpmatch_pattern *p = pattern(ctx, "triangle");
  warpmatch_count_options o;
  warpmatch_count_options_init(&o);
  o.device = WARPMATCH_DEVICE_GPU;
  warpmatch_count_result r;
  cr_assert_eq(warpmatch_count(ctx, g, p, &o, &r), WARPMATCH_EDEVICE);
  cr_assert(strstr(warpmatch_last_error(ctx), "GPU"), "%s", warpmatch_last_error(ctx));
  listing l = {.k = 3};
  cr_assert_eq(warpmatch_list(ctx, g, p, &o, 0, collect_matches, &l, NULL), WARPMATCH_EDEVICE);
  warpmatch_motif mo[2];
  cr_assert_eq(warpmatch_motifs(ctx, g, 3, &o, mo), WARPMATCH_EDEVICE);
  int32_t lv[20];
  int64_t hops;
  cr_assert_eq(warpmatch_bfs(ctx, g, 0, WARPMATCH_DEVICE_GPU, lv, NULL, NULL), WARPMATCH_EDEVICE);
  cr_assert_eq(warpmatch_reach(ctx, g, 0, 1, WARPMATCH_DEVICE_GPU, &hops), WARPMATCH_EDEVICE);
  /* AUTO runs on the CPU. */
  o.device = WARPMATCH_DEVICE_AUTO;
  cr_assert_eq(warpmatch_count(ctx, g, p, &o, &r), WARPMATCH_OK);
  cr_assert_eq(r.device, WARPMATCH_DEVICE_CPU);
  warpmatch_pattern_destroy(p);
  warpmatch_graph_destroy(g);
  wm_graph_destroy(wg);
  warpmatch_context_destroy(ctx);
}

/* Where a GPU is usable: the same counts, matches, motifs and levels. */
Test(api, gpu_equals_cpu) {
  warpmatch_context *ctx = gpu_ctx_or_skip();
  wm_graph *wg = wm_test_powerlaw(300, 8.0, 4, 0.4, 17);
  warpmatch_graph *g = api_graph(ctx, wg);
  for (const char *const *s = shapes; *s; s++)
    for (int induced = 0; induced <= 1; induced++) {
      warpmatch_pattern *p = pattern(ctx, *s);
      const wm_pattern ip = internal(*s);
      warpmatch_count_options cpu = cpu_options(induced, WARPMATCH_METHOD_ENUMERATE), gpu = cpu;
      gpu.device = WARPMATCH_DEVICE_GPU;
      for (int method = WARPMATCH_METHOD_AUTO; method <= WARPMATCH_METHOD_ENUMERATE; method += 2) {
        gpu.method = method;
        warpmatch_count_result r;
        cr_assert_eq(warpmatch_count(ctx, g, p, &gpu, &r), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
        cr_assert_eq(r.device, WARPMATCH_DEVICE_GPU);
        cr_assert_eq(r.count, api_count(ctx, g, p, &cpu, NULL), "%s induced %d", *s, induced);
      }
      listing l = {.k = ip.k};
      uint64_t listed;
      gpu.method = WARPMATCH_METHOD_AUTO;
      cr_assert_eq(warpmatch_list(ctx, g, p, &gpu, 0, collect_matches, &l, &listed), WARPMATCH_OK, "%s",
                   warpmatch_last_error(ctx));
      cr_assert_eq(listed, api_count(ctx, g, p, &cpu, NULL));
      check_matches(wg, &ip, induced, &l);
      free(l.m);
      warpmatch_pattern_destroy(p);
    }
  for (unsigned k = 3; k <= 5; k++) {
    warpmatch_motif a[21], b[21];
    warpmatch_count_options cpu = cpu_options(0, WARPMATCH_METHOD_AUTO), gpu = cpu;
    gpu.device = WARPMATCH_DEVICE_GPU;
    cr_assert_eq(warpmatch_motifs(ctx, g, k, &cpu, a), WARPMATCH_OK);
    cr_assert_eq(warpmatch_motifs(ctx, g, k, &gpu, b), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
    cr_assert_eq(memcmp(a, b, warpmatch_motif_classes(k) * sizeof *a), 0, "motifs of size %u", k);
  }
  for (uint32_t s = 0; s < wg->n; s += 41) check_bfs(ctx, wg, g, s, WARPMATCH_DEVICE_GPU);
  warpmatch_graph_destroy(g);
  wm_graph_destroy(wg);
  warpmatch_context_destroy(ctx);
}

/* ---- the detailed calls (_ex) ------------------------------------------ */

static warpmatch_match_options cpu_match_options(int method) {
  warpmatch_match_options o;
  warpmatch_match_options_init(&o);
  cr_assert_eq(o.size, sizeof o);
  cr_assert_eq(o.relabel, 1);
  cr_assert_eq(o.gpu_steal, -1);
  o.count.device = WARPMATCH_DEVICE_CPU;
  o.count.method = method;
  return o;
}

static warpmatch_match_result count_ex(warpmatch_context *ctx, const warpmatch_graph *g, const warpmatch_pattern *p,
                                       const warpmatch_match_options *o) {
  warpmatch_match_result r;
  memset(&r, 0xff, sizeof r);
  r.size = sizeof r;
  cr_assert_eq(warpmatch_count_ex(ctx, g, p, o, &r), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  cr_assert_eq(r.size, sizeof r);
  cr_assert_eq(r.count.count_high, 0);
  return r;
}

/* The reference executor on g itself with per-vertex counts, or within a ball. */
static uint64_t reference_detail(const wm_graph *g, const wm_pattern *p, uint64_t *per_vertex, const uint8_t *allowed,
                                 const uint32_t *first, uint64_t n_first) {
  wm_graph_summary gs;
  wm_graph_summary_compute(g, &gs);
  wm_plan_options po;
  wm_plan_options_init(&po);
  wm_plan plan;
  wm_error err;
  cr_assert_eq(wm_plan_build(p, &gs, &po, &plan, &err), WM_OK, "%s", err.msg);
  wm_match_options mo;
  wm_match_options_init(&mo);
  mo.per_vertex = per_vertex;
  mo.allowed = allowed;
  mo.first = first;
  mo.n_first = n_first;
  wm_match_result r;
  cr_assert_eq(wm_match_cpu(g, &plan, &mo, &r, &err), WM_OK, "%s", err.msg);
  return r.count;
}

/* count_ex: the planner's switches and the numbering change no count;
 * per-vertex counts (in index order), a ball and trials as the executor
 * gives them on the graph itself; the formula says so. */
Test(api, count_ex_options_and_figures) {
  warpmatch_context *ctx = ctx_new();
  wm_graph *g = wm_test_powerlaw(200, 6.0, 3, 0.4, 5);
  warpmatch_graph *h = api_graph(ctx, g);
  warpmatch_pattern *p = pattern(ctx, "house");
  const wm_pattern ip = internal("house");
  const uint64_t want = reference_count(g, &ip, 0, NULL);
  warpmatch_match_options o = cpu_match_options(WARPMATCH_METHOD_ENUMERATE);
  warpmatch_match_result r = count_ex(ctx, h, p, &o);
  cr_assert_eq(r.count.count, want);
  cr_assert_eq(r.count.method, WARPMATCH_METHOD_ENUMERATE);
  cr_assert_eq(r.count.device, WARPMATCH_DEVICE_CPU);
  cr_assert_gt(r.set_ops, 0);
  cr_assert_neq(r.launch[0], '\0');
  cr_assert_null(r.formula);
  cr_assert_eq(r.ball_vertices, 0);
  for (int variant = 0; variant < 3; variant++) {
    warpmatch_match_options x = o;
    x.relabel = variant != 0;
    x.code_motion = variant != 1;
    x.pair_count = variant != 2;
    cr_assert_eq(count_ex(ctx, h, p, &x).count.count, want, "variant %d", variant);
  }
  /* Per-vertex counts, in index order: each match has 5 vertices. */
  uint64_t *pv = calloc(g->n, sizeof *pv), *ref = calloc(g->n, sizeof *ref);
  o.per_vertex = pv;
  cr_assert_eq(count_ex(ctx, h, p, &o).count.count, want);
  reference_detail(g, &ip, ref, NULL, NULL, 0);
  uint64_t sum = 0;
  for (uint32_t v = 0; v < g->n; v++) {
    cr_assert_eq(pv[v], ref[v], "vertex %u", v);
    sum += pv[v];
  }
  cr_assert_eq(sum, 5 * want);
  o.trials = 2;
  cr_assert_eq(warpmatch_count_ex(ctx, h, p, &o, &r), WARPMATCH_EUSAGE, "per-vertex counts run once");
  o.per_vertex = NULL;
  /* Trials: a warm-up, then each timed run's ms. */
  double ms[3] = {-1, -1, -1};
  o.trials = 3;
  o.trial_ms = ms;
  r = count_ex(ctx, h, p, &o);
  cr_assert_eq(r.count.count, want);
  cr_assert_eq(r.trials, 3);
  for (int t = 0; t < 3; t++) cr_assert_geq(ms[t], 0.0);
  o.trials = 1;
  o.trial_ms = NULL;
  /* A ball of radius 1 around vertex 0, against the executor given the same ball. */
  int32_t *level = malloc(g->n * sizeof *level);
  reference_bfs(g, 0, level);
  uint8_t *allowed = calloc(g->n, 1);
  uint32_t *first = malloc(g->n * sizeof *first);
  uint64_t nf = 0;
  for (uint32_t v = 0; v < g->n; v++)
    if (level[v] >= 0 && level[v] <= 1) allowed[v] = 1, first[nf++] = v;
  o.ball = 1;
  o.seed = 0;
  o.hops = 1;
  r = count_ex(ctx, h, p, &o);
  cr_assert_eq(r.ball_vertices, nf);
  cr_assert_eq(r.count.count, reference_detail(g, &ip, NULL, allowed, first, nf));
  o.seed = g->n;
  cr_assert_eq(warpmatch_count_ex(ctx, h, p, &o, &r), WARPMATCH_EUSAGE, "a seed outside the graph");
  o.ball = 0;
  /* The formula names itself; a ball rules it out. */
  o.count.method = WARPMATCH_METHOD_FORMULA;
  r = count_ex(ctx, h, p, &o);
  cr_assert_eq(r.count.count, want);
  cr_assert_eq(r.count.method, WARPMATCH_METHOD_FORMULA);
  cr_assert_not_null(r.formula);
  cr_assert(warpmatch_pattern_has_formula(p));
  o.ball = 1;
  o.seed = 0;
  cr_assert_eq(warpmatch_count_ex(ctx, h, p, &o, &r), WARPMATCH_EUSAGE);
  free(level);
  free(allowed);
  free(first);
  free(pv);
  free(ref);
  warpmatch_pattern_destroy(p);
  warpmatch_graph_destroy(h);
  wm_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

/* The size fields: unset is a usage error; an older, shorter options
 * struct keeps the later fields' defaults. */
Test(api, ex_struct_sizes) {
  warpmatch_context *ctx = ctx_new();
  wm_graph *g = wm_test_powerlaw(60, 6.0, 2, 0.5, 4);
  warpmatch_graph *h = api_graph(ctx, g);
  warpmatch_pattern *p = pattern(ctx, "4-cycle");
  warpmatch_match_options o = cpu_match_options(WARPMATCH_METHOD_ENUMERATE);
  const uint64_t want = count_ex(ctx, h, p, &o).count.count;
  warpmatch_match_result r;
  r.size = 0;
  cr_assert_eq(warpmatch_count_ex(ctx, h, p, &o, &r), WARPMATCH_EUSAGE);
  cr_assert(strstr(warpmatch_last_error(ctx), "size"), "%s", warpmatch_last_error(ctx));
  o.size = 0;
  r.size = sizeof r;
  cr_assert_eq(warpmatch_count_ex(ctx, h, p, &o, &r), WARPMATCH_EUSAGE);
  /* As a caller built before code_motion was appended: its garbage is never read. */
  o.size = offsetof(warpmatch_match_options, code_motion);
  o.code_motion = 77;
  o.trials = 12345;
  cr_assert_eq(count_ex(ctx, h, p, &o).count.count, want);
  /* A result as short as its count: the rest stays the caller's. */
  memset(&r, 0xab, sizeof r);
  r.size = offsetof(warpmatch_match_result, set_ops);
  o.size = sizeof o;
  o.trials = 1;
  cr_assert_eq(warpmatch_count_ex(ctx, h, p, &o, &r), WARPMATCH_OK);
  cr_assert_eq(r.count.count, want);
  cr_assert_eq(r.set_ops, 0xabababababababababull);
  warpmatch_bfs_options bo;
  warpmatch_bfs_options_init(&bo);
  bo.size = 0;
  uint32_t s = 0;
  cr_assert_eq(warpmatch_bfs_ex(ctx, h, &s, 1, &bo, NULL, NULL, NULL), WARPMATCH_EUSAGE);
  warpmatch_pattern_destroy(p);
  warpmatch_graph_destroy(h);
  wm_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

/* list_ex's figures; plan_ex's flags; a pattern file named as given. */
Test(api, list_ex_and_plan_ex) {
  warpmatch_context *ctx = ctx_new();
  wm_graph *g = wm_test_powerlaw(80, 6.0, 2, 0.5, 9);
  warpmatch_graph *h = api_graph(ctx, g);
  char dir[256], path[300];
  wm_test_tmpdir(dir, sizeof dir);
  snprintf(path, sizeof path, "%s/tri.txt", dir);
  FILE *f = fopen(path, "w");
  fprintf(f, "0 1\n1 2\n2 0\n");
  fclose(f);
  warpmatch_pattern *p = pattern(ctx, path);
  cr_assert_str_eq(warpmatch_pattern_name(p), "triangle");
  cr_assert_str_eq(warpmatch_pattern_given_name(p), "tri.txt");
  char edges[64];
  cr_assert_eq(warpmatch_pattern_edges(p, edges, sizeof edges), 3);
  cr_assert_str_eq(edges, "0-1 0-2 1-2");
  cr_assert_eq(warpmatch_pattern_labeled(p), 0);
  warpmatch_match_options o = cpu_match_options(WARPMATCH_METHOD_AUTO);
  const uint64_t want = count_ex(ctx, h, p, &o).count.count;
  listing l = {.k = 3};
  warpmatch_match_result r;
  r.size = sizeof r;
  cr_assert_eq(warpmatch_list_ex(ctx, h, p, &o, 0, collect_matches, &l, &r), WARPMATCH_OK, "%s",
               warpmatch_last_error(ctx));
  cr_assert_eq(r.listed, want);
  cr_assert_eq(l.n, want);
  cr_assert_eq(r.count.method, WARPMATCH_METHOD_ENUMERATE);
  free(l.m);
  /* The plan alone is the head of the plan with statistics. */
  char full[8192], alone[8192], listing_plan[8192], old[8192];
  cr_assert_eq(warpmatch_plan_ex(ctx, h, p, &o, WARPMATCH_PLAN_TEXT, full, sizeof full, NULL, NULL), WARPMATCH_OK);
  cr_assert_eq(warpmatch_plan_ex(ctx, h, p, &o, WARPMATCH_PLAN_TEXT | WARPMATCH_PLAN_NO_STATS, alone, sizeof alone,
                                 NULL, &r),
               WARPMATCH_OK);
  cr_assert_eq(strncmp(full, alone, strlen(alone)), 0);
  cr_assert_gt(strlen(full), strlen(alone));
  cr_assert_null(strstr(alone, "graph statistics"));
  cr_assert(strstr(alone, "plan for tri.txt"), "%s", alone);
  cr_assert_geq(r.plan_seconds, 0.0);
  cr_assert_eq(warpmatch_plan(ctx, h, p, NULL, WARPMATCH_PLAN_TEXT, old, sizeof old, NULL), WARPMATCH_OK);
  cr_assert(strstr(old, "plan for triangle"), "%s", old); /* 0.1's calls name the shape */
  cr_assert_eq(warpmatch_plan_ex(ctx, h, p, &o, WARPMATCH_PLAN_TEXT | WARPMATCH_PLAN_FOR_LIST, listing_plan,
                                 sizeof listing_plan, NULL, NULL),
               WARPMATCH_OK);
  cr_assert_str_neq(listing_plan, full);
  cr_assert_eq(warpmatch_plan_ex(ctx, h, p, &o, WARPMATCH_PLAN_JSON | WARPMATCH_PLAN_NO_STATS, alone, sizeof alone,
                                 NULL, NULL),
               WARPMATCH_OK);
  cr_assert(json_valid_object(alone), "%s", alone);
  cr_assert_null(strstr(alone, "graph_summary"), "%s", alone);
  cr_assert_eq(warpmatch_plan_ex(ctx, h, p, &o, 2, alone, sizeof alone, NULL, NULL), WARPMATCH_EUSAGE);
  warpmatch_pattern_destroy(p);
  warpmatch_graph_destroy(h);
  wm_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

/* load_ex's account of the load, ids both ways, degrees and their summary,
 * a labels file. */
Test(api, graph_ids_labels_and_load_info) {
  warpmatch_context *ctx = ctx_new();
  wm_graph *g = wm_test_powerlaw(50, 6.0, 2, 0.5, 3);
  wm_test_files f;
  wm_test_graph_file(&f, "");
  write_sparse(g, f.graph);
  warpmatch_graph *h = NULL;
  warpmatch_load_info info;
  info.size = sizeof info;
  cr_assert_eq(warpmatch_graph_load_ex(ctx, f.graph, NULL, WARPMATCH_FORMAT_AUTO, &h, &info), WARPMATCH_OK, "%s",
               warpmatch_last_error(ctx));
  cr_assert_eq(info.format, WARPMATCH_FORMAT_EDGELIST);
  cr_assert_gt(info.bytes, 0);
  cr_assert_eq(info.from_cache, 0);
  warpmatch_graph *again = NULL;
  cr_assert_eq(warpmatch_graph_load_ex(ctx, f.graph, NULL, WARPMATCH_FORMAT_AUTO, &again, &info), WARPMATCH_OK);
  cr_assert_eq(info.from_cache, 1, "the cache the first load wrote (%s)", info.cache_path);
  warpmatch_graph_destroy(again);
  cr_assert_eq(warpmatch_graph_load_ex(ctx, f.graph, NULL, WARPMATCH_FORMAT_WMG, &again, NULL), WARPMATCH_EINPUT);
  cr_assert_null(again);
  cr_assert_eq(warpmatch_graph_load_ex(ctx, f.graph, NULL, 9, &again, NULL), WARPMATCH_EUSAGE);
  for (uint32_t u = 0; u < g->n; u++) {
    uint32_t v = UINT32_MAX;
    const int present = g->offsets[u + 1] > g->offsets[u];
    cr_assert_eq(warpmatch_graph_find(h, 10 + 3 * u, &v), present, "id %u", 10 + 3 * u);
    if (!present) continue;
    cr_assert_eq(warpmatch_graph_id(h, v), 10 + 3 * u);
    cr_assert_eq(warpmatch_graph_degree(h, v), wm_degree(g, u));
  }
  cr_assert_eq(warpmatch_graph_find(h, 11, NULL), 0);
  cr_assert_eq(warpmatch_graph_degree(h, warpmatch_graph_vertices(h)), 0);
  /* The degree summary of the same edges on the same numbering. */
  warpmatch_graph *same = api_graph(ctx, g);
  warpmatch_degree_stats st;
  st.size = sizeof st;
  wm_degree_stats want;
  wm_graph_degree_stats(g, &want);
  cr_assert_eq(warpmatch_graph_degree_stats(ctx, same, &st), WARPMATCH_OK);
  cr_assert_eq(st.max_degree, want.max_degree);
  cr_assert_eq(st.median_degree, want.median_degree);
  cr_assert_eq(st.p99_degree, want.p99_degree);
  cr_assert_eq(st.isolated, want.isolated);
  cr_assert_eq(st.arcs, g->m);
  cr_assert_float_eq(st.mean_degree, want.mean_degree, 1e-12);
  warpmatch_graph_destroy(same);
  /* Labels by file id; the unlisted get 0. */
  char labels_path[sizeof f.graph + 16];
  snprintf(labels_path, sizeof labels_path, "%s.labels", f.graph);
  uint32_t first = 0;
  cr_assert(warpmatch_graph_find(h, warpmatch_graph_id(h, 0), &first));
  FILE *lf = fopen(labels_path, "w");
  fprintf(lf, "# id label\n%llu 7\n", (unsigned long long)warpmatch_graph_id(h, 1));
  fclose(lf);
  int32_t *lab = malloc(warpmatch_graph_vertices(h) * sizeof *lab);
  cr_assert_eq(warpmatch_graph_read_labels(ctx, h, labels_path, lab), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  for (uint32_t v = 0; v < warpmatch_graph_vertices(h); v++) cr_assert_eq(lab[v], v == 1 ? 7 : 0);
  lf = fopen(labels_path, "w");
  fprintf(lf, "%llu x\n", (unsigned long long)warpmatch_graph_id(h, 1));
  fclose(lf);
  cr_assert_eq(warpmatch_graph_read_labels(ctx, h, labels_path, lab), WARPMATCH_EINPUT);
  cr_assert(strstr(warpmatch_last_error(ctx), labels_path), "%s", warpmatch_last_error(ctx));
  free(lab);
  warpmatch_graph_destroy(h);
  wm_graph_destroy(g);
}

/* bfs_ex: several sources at once, a depth limit, a target, the figures,
 * and validate accepting the answer and refusing a broken tree. */
static void check_bfs_ex(warpmatch_context *ctx, const wm_graph *g, const warpmatch_graph *h, int device) {
  const uint32_t src[2] = {0, g->n / 2};
  int32_t *want = malloc(g->n * sizeof *want), *other = malloc(g->n * sizeof *other);
  int32_t *lv = malloc(g->n * sizeof *lv);
  uint32_t *par = malloc(g->n * sizeof *par);
  reference_bfs(g, src[0], want);
  reference_bfs(g, src[1], other);
  uint32_t reached = 0;
  for (uint32_t v = 0; v < g->n; v++) {
    if (other[v] >= 0 && (want[v] < 0 || other[v] < want[v])) want[v] = other[v];
    reached += want[v] >= 0;
  }
  warpmatch_bfs_options o;
  warpmatch_bfs_options_init(&o);
  o.device = device;
  warpmatch_bfs_stats s;
  s.size = sizeof s;
  cr_assert_eq(warpmatch_bfs_ex(ctx, h, src, 2, &o, lv, par, &s), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  for (uint32_t v = 0; v < g->n; v++) cr_assert_eq(lv[v], want[v], "level of %u", v);
  cr_assert_eq(s.bfs.reached, reached);
  cr_assert_eq(s.truncated, 0);
  cr_assert_geq(s.teps_edges, 0);
  cr_assert_eq(warpmatch_bfs_validate(ctx, h, src, 2, lv, par, &s), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  for (uint32_t v = 0; v < g->n; v++)
    if (lv[v] > 1) { /* a parent two levels up breaks the tree */
      const uint32_t keep = par[v];
      par[v] = src[0];
      cr_assert_eq(warpmatch_bfs_validate(ctx, h, src, 2, lv, par, &s), WARPMATCH_EINPUT);
      par[v] = keep;
      break;
    }
  o.max_depth = 1;
  cr_assert_eq(warpmatch_bfs_ex(ctx, h, src, 1, &o, lv, NULL, &s), WARPMATCH_OK);
  reference_bfs(g, src[0], want);
  for (uint32_t v = 0; v < g->n; v++) cr_assert_eq(lv[v], want[v] <= 1 ? want[v] : -1, "ball level of %u", v);
  o.max_depth = UINT32_MAX;
  o.alpha = 2;
  cr_assert_eq(warpmatch_bfs_ex(ctx, h, src, 1, &o, lv, NULL, &s), WARPMATCH_EUSAGE);
  cr_assert_eq(warpmatch_bfs_ex(ctx, h, src, 0, NULL, lv, NULL, &s), WARPMATCH_EUSAGE);
  free(want);
  free(other);
  free(lv);
  free(par);
}

Test(api, bfs_ex_sources_limits_and_validation) {
  warpmatch_context *ctx = ctx_new();
  wm_graph *g = wm_test_powerlaw(300, 4.0, 3, 0.3, 2);
  warpmatch_graph *h = api_graph(ctx, g);
  check_bfs_ex(ctx, g, h, WARPMATCH_DEVICE_CPU);
  cr_assert_str_eq(warpmatch_bfs_describe(ctx), "");
  warpmatch_graph_destroy(h);
  wm_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

/* A matching order given: every connected one counts the same, a count by
 * formula has none (AUTO enumerates, FORMULA refuses), a disconnected or
 * wrong one is refused, and motifs take none. */
Test(api, matching_order_given) {
  warpmatch_context *ctx = ctx_new();
  wm_graph *g = wm_test_powerlaw(120, 6.0, 3, 0.4, 22);
  warpmatch_graph *h = api_graph(ctx, g);
  warpmatch_pattern *p = pattern(ctx, "house"); /* 0-1 0-3 0-4 1-2 1-4 2-3 */
  warpmatch_match_options o = cpu_match_options(WARPMATCH_METHOD_AUTO);
  warpmatch_match_result r;
  r.size = sizeof r;
  cr_assert_eq(warpmatch_count_ex(ctx, h, p, &o, &r), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  const uint64_t want = r.count.count;
  cr_assert(want > 0);
  static const unsigned orders[][5] = {{0, 1, 2, 3, 4}, {4, 0, 1, 3, 2}, {2, 1, 4, 0, 3}, {3, 2, 0, 1, 4}};
  for (unsigned i = 0; i < 4; i++) {
    o.order = orders[i];
    cr_assert_eq(warpmatch_count_ex(ctx, h, p, &o, &r), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
    cr_assert_eq(r.count.count, want, "order %u", i);
    cr_assert_eq(r.count.method, WARPMATCH_METHOD_ENUMERATE);
  }
  o.count.method = WARPMATCH_METHOD_FORMULA;
  cr_assert_eq(warpmatch_count_ex(ctx, h, p, &o, &r), WARPMATCH_EUSAGE);
  o.count.method = WARPMATCH_METHOD_AUTO;
  static const unsigned bad[][5] = {{0, 2, 1, 3, 4}, {0, 0, 1, 2, 3}, {0, 1, 2, 3, 5}};
  for (unsigned i = 0; i < 3; i++) {
    o.order = bad[i];
    cr_assert_eq(warpmatch_count_ex(ctx, h, p, &o, &r), WARPMATCH_EUSAGE, "bad order %u", i);
  }
  cr_assert(strstr(warpmatch_last_error(ctx), "not a permutation"), "%s", warpmatch_last_error(ctx));
  o.order = orders[0];
  warpmatch_motif rows[6];
  cr_assert_eq(warpmatch_motifs_ex(ctx, h, 4, &o, rows, NULL, NULL, NULL), WARPMATCH_EUSAGE);
  warpmatch_pattern_destroy(p);
  warpmatch_graph_destroy(h);
  wm_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

/* motifs_ex: how each class was counted, and its edge-induced count equal
 * to counting the class's shape edge-induced. */
Test(api, motifs_ex_how_and_edge_induced) {
  warpmatch_context *ctx = ctx_new();
  wm_graph *g = wm_test_powerlaw(120, 6.0, 3, 0.4, 21);
  warpmatch_graph *h = api_graph(ctx, g);
  warpmatch_match_options o = cpu_match_options(WARPMATCH_METHOD_AUTO);
  warpmatch_motif rows[6], edge_induced[6];
  const char *how[6];
  warpmatch_match_result r;
  r.size = sizeof r;
  cr_assert_eq(warpmatch_motifs_ex(ctx, h, 4, &o, rows, how, edge_induced, &r), WARPMATCH_OK, "%s",
               warpmatch_last_error(ctx));
  cr_assert_eq(r.count.method, WARPMATCH_METHOD_FORMULA);
  cr_assert_neq(r.launch[0], '\0');
  warpmatch_motif plain[6];
  cr_assert_eq(warpmatch_motifs(ctx, h, 4, NULL, plain), WARPMATCH_OK);
  for (int i = 0; i < 6; i++) {
    cr_assert_eq(rows[i].count, plain[i].count);
    cr_assert(!strcmp(how[i], "formula") || !strcmp(how[i], "enumerated") || !strcmp(how[i], "enumerated-induced"),
              "%s", how[i]);
    warpmatch_pattern *p = pattern(ctx, rows[i].name);
    warpmatch_count_options co = cpu_options(0, WARPMATCH_METHOD_ENUMERATE);
    cr_assert_eq(edge_induced[i].count, api_count(ctx, h, p, &co, NULL), "%s", rows[i].name);
    warpmatch_pattern_destroy(p);
  }
  warpmatch_graph_destroy(h);
  wm_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

/* On a GPU: the graph stays on the device between searches of the same
 * graph, is replaced when another is searched (also one that a freed
 * handle's address was reused for), and the answers stay the CPU's. */
Test(api, bfs_gpu_graph_stays_resident) {
  warpmatch_context *ctx = gpu_ctx_or_skip();
  wm_graph *ga = wm_test_powerlaw(300, 4.0, 3, 0.3, 2), *gb = wm_test_er(200, 0.02, 5);
  warpmatch_graph *a = api_graph(ctx, ga), *b = api_graph(ctx, gb);
  for (int twice = 0; twice < 2; twice++) {
    check_bfs_ex(ctx, ga, a, WARPMATCH_DEVICE_GPU);
    cr_assert_neq(warpmatch_bfs_describe(ctx)[0], '\0');
    check_bfs(ctx, gb, b, 3, WARPMATCH_DEVICE_GPU);
  }
  warpmatch_graph_destroy(a);
  wm_graph *gc = wm_test_er(300, 0.01, 9);
  warpmatch_graph *c = api_graph(ctx, gc); /* may take a's address */
  for (uint32_t s = 0; s < gc->n; s += 50) check_bfs(ctx, gc, c, s, WARPMATCH_DEVICE_GPU);
  int64_t hops = -2, cpu_hops = -3;
  cr_assert_eq(warpmatch_reach(ctx, c, 0, 7, WARPMATCH_DEVICE_GPU, &hops), WARPMATCH_OK);
  cr_assert_eq(warpmatch_reach(ctx, c, 0, 7, WARPMATCH_DEVICE_CPU, &cpu_hops), WARPMATCH_OK);
  cr_assert_eq(hops, cpu_hops);
  warpmatch_graph_destroy(b);
  warpmatch_graph_destroy(c);
  wm_graph_destroy(ga);
  wm_graph_destroy(gb);
  wm_graph_destroy(gc);
  warpmatch_context_destroy(ctx); /* releases the device copy */
}

static uint64_t count_on(warpmatch_context *ctx, const warpmatch_graph *g, const char *name, int device) {
  warpmatch_pattern *p = NULL;
  cr_assert_eq(warpmatch_pattern_create(ctx, name, &p), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  warpmatch_count_options o;
  warpmatch_count_options_init(&o);
  o.device = device;
  o.method = WARPMATCH_METHOD_ENUMERATE;
  warpmatch_count_result r;
  cr_assert_eq(warpmatch_count(ctx, g, p, &o, &r), WARPMATCH_OK, "%s: %s", name, warpmatch_last_error(ctx));
  warpmatch_pattern_destroy(p);
  return r.count;
}

/* On a GPU: the graph matched on stays on the devices between count, list
 * and motifs calls on it (the stack kernel, the dedicated kernels and the
 * motif sums read that copy), is replaced when another graph comes (also
 * one in a freed handle's place), and every answer stays the CPU's. */
Test(api, gpu_graph_kept_for_matching) {
  warpmatch_context *ctx = gpu_ctx_or_skip();
  wm_graph *ga = wm_test_powerlaw(400, 5.0, 4, 0.3, 3), *gb = wm_test_er(250, 0.05, 6);
  warpmatch_graph *a = api_graph(ctx, ga), *b = api_graph(ctx, gb);
  static const char *const names[] = {"triangle", "4-clique", "4-cycle", "house"};
  for (int twice = 0; twice < 2; twice++)
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
      cr_assert_eq(count_on(ctx, a, names[i], WARPMATCH_DEVICE_GPU), count_on(ctx, a, names[i], WARPMATCH_DEVICE_CPU),
                   "%s on a", names[i]);
      cr_assert_eq(count_on(ctx, b, names[i], WARPMATCH_DEVICE_GPU), count_on(ctx, b, names[i], WARPMATCH_DEVICE_CPU),
                   "%s on b", names[i]);
    }
  warpmatch_motif gpu[21], cpu[21];
  warpmatch_count_options o;
  warpmatch_count_options_init(&o);
  for (unsigned size = 4; size <= 5; size++) {
    o.device = WARPMATCH_DEVICE_GPU;
    cr_assert_eq(warpmatch_motifs(ctx, a, size, &o, gpu), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
    o.device = WARPMATCH_DEVICE_CPU;
    cr_assert_eq(warpmatch_motifs(ctx, a, size, &o, cpu), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
    for (unsigned i = 0; i < warpmatch_motif_classes(size); i++)
      cr_assert(gpu[i].count == cpu[i].count && gpu[i].count_high == cpu[i].count_high, "size %u class %s", size,
                cpu[i].name);
  }
  warpmatch_graph_destroy(a);
  wm_graph *gc = wm_test_er(300, 0.03, 8);
  warpmatch_graph *c = api_graph(ctx, gc); /* may take a's address */
  cr_assert_eq(count_on(ctx, c, "4-cycle", WARPMATCH_DEVICE_GPU), count_on(ctx, c, "4-cycle", WARPMATCH_DEVICE_CPU));
  cr_assert_eq(count_on(ctx, c, "triangle", WARPMATCH_DEVICE_GPU), count_on(ctx, c, "triangle", WARPMATCH_DEVICE_CPU));
  warpmatch_graph_destroy(b);
  warpmatch_graph_destroy(c);
  wm_graph_destroy(ga);
  wm_graph_destroy(gb);
  wm_graph_destroy(gc);
  warpmatch_context_destroy(ctx); /* releases the device copy */
}

/* ---- every limit at its edge ------------------------------------------ */

/* EUSAGE from `call`, with a message holding each of the texts given. */
#define REFUSED(ctx, call, ...)                                                                        \
  do {                                                                                                 \
    cr_assert_eq(call, WARPMATCH_EUSAGE, #call);                                                       \
    const char *texts_[] = {__VA_ARGS__, NULL};                                                        \
    for (const char **t_ = texts_; *t_; t_++)                                                          \
      cr_assert(strstr(warpmatch_last_error(ctx), *t_), "%s: '%s' not in: %s", #call, *t_,             \
                warpmatch_last_error(ctx));                                                            \
  } while (0)

/* Threads: 0 (all cores) and 1..WARPMATCH_MAX_THREADS; the limit itself
 * runs a count (OpenMP starts that many threads), one more, INT_MAX and
 * negatives are refused naming the range (100000 crashed in libgomp). */
Test(api, thread_limit) {
  warpmatch_context *ctx = ctx_new();
  wm_graph *g = wm_test_powerlaw(60, 6.0, 3, 0.5, 7);
  warpmatch_graph *h = api_graph(ctx, g);
  warpmatch_pattern *p = pattern(ctx, "4-cycle");
  warpmatch_count_options o = cpu_options(0, WARPMATCH_METHOD_ENUMERATE);
  const uint64_t want = api_count(ctx, h, p, &o, NULL);
  cr_assert_eq(warpmatch_set_threads(ctx, WARPMATCH_MAX_THREADS), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  cr_assert_eq(warpmatch_threads(ctx), WARPMATCH_MAX_THREADS);
  cr_assert_eq(api_count(ctx, h, p, &o, NULL), want, "on %d threads", WARPMATCH_MAX_THREADS);
  REFUSED(ctx, warpmatch_set_threads(ctx, WARPMATCH_MAX_THREADS + 1), "4097 threads", "1 to 4096", "0 (all cores)");
  REFUSED(ctx, warpmatch_set_threads(ctx, INT_MAX), "2147483647", "1 to 4096");
  REFUSED(ctx, warpmatch_set_threads(ctx, 100000), "100000", "1 to 4096");
  REFUSED(ctx, warpmatch_set_threads(ctx, -1), "-1 threads");
  REFUSED(ctx, warpmatch_set_threads(ctx, INT_MIN), "-2147483648");
  cr_assert_eq(warpmatch_threads(ctx), WARPMATCH_MAX_THREADS, "a refused count leaves the setting");
  cr_assert_eq(warpmatch_set_threads(ctx, 0), WARPMATCH_OK);
  cr_assert_eq(warpmatch_threads(ctx), omp_get_max_threads());
  cr_assert_eq(warpmatch_set_threads(ctx, 1), WARPMATCH_OK);
  cr_assert_eq(api_count(ctx, h, p, &o, NULL), want);
  /* "all cores" is OpenMP's default, which the caller (OMP_NUM_THREADS)
   * may have set past the limit: held to it for the call, then restored */
  cr_assert_eq(warpmatch_set_threads(ctx, 0), WARPMATCH_OK);
  omp_set_num_threads(100000);
  cr_assert_eq(warpmatch_threads(ctx), WARPMATCH_MAX_THREADS);
  cr_assert_eq(api_count(ctx, h, p, &o, NULL), want);
  cr_assert_eq(omp_get_max_threads(), 100000);
  warpmatch_pattern_destroy(p);
  warpmatch_graph_destroy(h);
  wm_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

/* GPUs (context, match and BFS options: 1..WARPMATCH_MAX_GPUS, 0 the
 * context's), trials (WARPMATCH_MAX_TRIALS), the listing's limit, the
 * sources of a search, motif and pattern sizes, versioned struct sizes:
 * the last value allowed runs, the next is refused naming the range. */
Test(api, limits_at_their_edges) {
  warpmatch_context *ctx = ctx_new();
  wm_graph *g = wm_test_powerlaw(40, 5.0, 3, 0.5, 8);
  warpmatch_graph *h = api_graph(ctx, g);
  warpmatch_pattern *p = pattern(ctx, "triangle");
  warpmatch_match_options o = cpu_match_options(WARPMATCH_METHOD_ENUMERATE);
  const uint64_t want = count_ex(ctx, h, p, &o).count.count;
  warpmatch_match_result r;
  r.size = sizeof r;

  cr_assert_eq(warpmatch_set_gpus(ctx, WARPMATCH_MAX_GPUS), WARPMATCH_OK);
  REFUSED(ctx, warpmatch_set_gpus(ctx, WARPMATCH_MAX_GPUS + 1), "17 GPUs", "1 to 16");
  REFUSED(ctx, warpmatch_set_gpus(ctx, INT_MAX), "2147483647 GPUs");
  REFUSED(ctx, warpmatch_set_gpus(ctx, -1), "-1 GPUs");
  o.gpus = WARPMATCH_MAX_GPUS; /* the CPU ignores them: the count runs */
  cr_assert_eq(count_ex(ctx, h, p, &o).count.count, want);
  o.gpus = WARPMATCH_MAX_GPUS + 1; /* was taken up to 64 and cut to 16 by the GPU drivers */
  REFUSED(ctx, warpmatch_count_ex(ctx, h, p, &o, &r), "gpus 17", "0 to 16");
  o.gpus = -1;
  REFUSED(ctx, warpmatch_count_ex(ctx, h, p, &o, &r), "gpus -1");
  o.gpus = 0;

  o.trials = WARPMATCH_MAX_TRIALS;
  cr_assert_eq(count_ex(ctx, h, p, &o).trials, WARPMATCH_MAX_TRIALS);
  o.trials = WARPMATCH_MAX_TRIALS + 1;
  REFUSED(ctx, warpmatch_count_ex(ctx, h, p, &o, &r), "trials 1001", "0 to 1000");
  o.trials = UINT_MAX;
  REFUSED(ctx, warpmatch_count_ex(ctx, h, p, &o, &r), "trials 4294967295");
  o.trials = 1;

  /* the GPU tuning, each at the header's limit (the CPU ignores the values:
   * the count runs) and one past either end */
  const struct {
    const char *name;
    int *v;
    int lo, hi;
  } knobs[] = {
      {"gpu_unroll", &o.gpu_unroll, 0, WARPMATCH_GPU_MAX_UNROLL},
      {"gpu_warps", &o.gpu_warps, 0, WARPMATCH_GPU_MAX_WARPS},
      {"gpu_blocks", &o.gpu_blocks, 0, WARPMATCH_GPU_MAX_BLOCKS},
      {"gpu_table_words", &o.gpu_table_words, -1, WARPMATCH_GPU_MAX_TABLE_WORDS},
      {"gpu_steal", &o.gpu_steal, -1, 2},
      {"gpu_level0", &o.gpu_level0, 0, 2},
      {"planner", &o.planner, WARPMATCH_PLANNER_MODEL, WARPMATCH_PLANNER_PROBES},
  };
  for (unsigned i = 0; i < sizeof knobs / sizeof *knobs; i++) {
    const int keep = *knobs[i].v;
    char what[64], range[64];
    snprintf(range, sizeof range, "expected %d to %d", knobs[i].lo, knobs[i].hi);
    *knobs[i].v = knobs[i].hi;
    cr_assert_eq(count_ex(ctx, h, p, &o).count.count, want, "%s %d", knobs[i].name, knobs[i].hi);
    *knobs[i].v = knobs[i].hi + 1;
    snprintf(what, sizeof what, "%s %d;", knobs[i].name, knobs[i].hi + 1);
    REFUSED(ctx, warpmatch_count_ex(ctx, h, p, &o, &r), what, range);
    *knobs[i].v = knobs[i].lo - 1;
    snprintf(what, sizeof what, "%s %d;", knobs[i].name, knobs[i].lo - 1);
    REFUSED(ctx, warpmatch_count_ex(ctx, h, p, &o, &r), what, range);
    *knobs[i].v = keep;
  }
  o.gpu_chunk = WARPMATCH_GPU_MAX_CHUNK; /* unsigned: was taken whatever its size */
  cr_assert_eq(count_ex(ctx, h, p, &o).count.count, want);
  o.gpu_chunk = WARPMATCH_GPU_MAX_CHUNK + 1;
  REFUSED(ctx, warpmatch_count_ex(ctx, h, p, &o, &r), "gpu_chunk 1048577", "0 to 1048576");
  o.gpu_chunk = UINT32_MAX;
  REFUSED(ctx, warpmatch_count_ex(ctx, h, p, &o, &r), "gpu_chunk 4294967295");
  o.gpu_chunk = 0;

  /* the listing's limit: UINT64_MAX is "at most that many", i.e. all */
  listing l = {.k = 3};
  uint64_t listed = 0;
  warpmatch_count_options co = cpu_options(0, WARPMATCH_METHOD_AUTO);
  cr_assert_eq(warpmatch_list(ctx, h, p, &co, UINT64_MAX, collect_matches, &l, &listed), WARPMATCH_OK);
  cr_assert_eq(listed, want);
  cr_assert_eq(warpmatch_list(ctx, h, p, &co, 1, collect_matches, &l, &listed), WARPMATCH_OK);
  cr_assert_eq(listed, want ? 1 : 0);
  free(l.m);

  /* sources: every vertex at once runs, vertex n is refused, none is refused */
  const uint32_t n = warpmatch_graph_vertices(h);
  uint32_t *all = malloc((n + 1) * sizeof *all);
  for (uint32_t v = 0; v <= n; v++) all[v] = v;
  warpmatch_bfs_options bo;
  warpmatch_bfs_options_init(&bo);
  bo.device = WARPMATCH_DEVICE_CPU;
  warpmatch_bfs_stats st;
  st.size = sizeof st;
  cr_assert_eq(warpmatch_bfs_ex(ctx, h, all, n, &bo, NULL, NULL, &st), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  cr_assert_eq(st.bfs.reached, n);
  REFUSED(ctx, warpmatch_bfs_ex(ctx, h, all, n + 1, &bo, NULL, NULL, NULL), "source 40", "0..39");
  REFUSED(ctx, warpmatch_bfs_ex(ctx, h, all, 0, &bo, NULL, NULL, NULL), "no source");
  bo.gpus = WARPMATCH_MAX_GPUS;
  cr_assert_eq(warpmatch_bfs_ex(ctx, h, all, 1, &bo, NULL, NULL, NULL), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  bo.gpus = WARPMATCH_MAX_GPUS + 1;
  REFUSED(ctx, warpmatch_bfs_ex(ctx, h, all, 1, &bo, NULL, NULL, NULL), "17 GPUs", "1 to 16");
  bo.gpus = 0;
  free(all);

  /* sizes of motifs and patterns */
  warpmatch_motif mo[21];
  REFUSED(ctx, warpmatch_motifs(ctx, h, 6, NULL, mo), "size 6", "3, 4 or 5");
  REFUSED(ctx, warpmatch_motifs(ctx, h, UINT_MAX, NULL, mo), "size 4294967295");
  cr_assert_eq(warpmatch_motif_classes(UINT_MAX), 0);
  warpmatch_pattern *q = NULL;
  unsigned path[14] = {0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7};
  cr_assert_eq(warpmatch_pattern_from_edges(ctx, WARPMATCH_MAX_PATTERN_VERTICES, path, 7, &q), WARPMATCH_OK);
  warpmatch_pattern_destroy(q);
  cr_assert_eq(warpmatch_pattern_from_edges(ctx, WARPMATCH_MAX_PATTERN_VERTICES + 1, path, 7, &q), WARPMATCH_EINPUT);
  cr_assert(strstr(warpmatch_last_error(ctx), "2 to 8"), "%s", warpmatch_last_error(ctx));
  cr_assert_eq(warpmatch_pattern_from_edges(ctx, UINT_MAX, path, 7, &q), WARPMATCH_EINPUT);
  cr_assert(strstr(warpmatch_last_error(ctx), "4294967295 vertices"), "%s", warpmatch_last_error(ctx));

  /* versioned structs: up to WARPMATCH_MAX_STRUCT_SIZE (a newer caller's),
   * then a size never set */
  o.size = WARPMATCH_MAX_STRUCT_SIZE;
  cr_assert_eq(count_ex(ctx, h, p, &o).count.count, want);
  o.size = WARPMATCH_MAX_STRUCT_SIZE + 1;
  REFUSED(ctx, warpmatch_count_ex(ctx, h, p, &o, &r), "size is 65537", "65536");
  o.size = SIZE_MAX;
  REFUSED(ctx, warpmatch_count_ex(ctx, h, p, &o, &r), "options' size");
  o.size = sizeof o;
  r.size = WARPMATCH_MAX_STRUCT_SIZE + 1;
  REFUSED(ctx, warpmatch_count_ex(ctx, h, p, &o, &r), "result's size is 65537");
  uint32_t s0 = 0;
  int32_t lv[40];
  st.size = sizeof st;
  cr_assert_eq(warpmatch_bfs_ex(ctx, h, &s0, 1, &bo, lv, NULL, &st), WARPMATCH_OK);
  cr_assert_eq(warpmatch_bfs_validate(ctx, h, &s0, 1, lv, NULL, &st), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  st.size = 0; /* the stats are a versioned struct too */
  REFUSED(ctx, warpmatch_bfs_validate(ctx, h, &s0, 1, lv, NULL, &st), "warpmatch_bfs_validate", "size is 0");
  warpmatch_load_options lo; /* and the load options, checked before the file is opened */
  warpmatch_load_options_init(&lo);
  cr_assert_eq(lo.size, sizeof lo);
  warpmatch_graph *none = NULL;
  lo.size = 0;
  REFUSED(ctx, warpmatch_graph_load(ctx, "/nonexistent/g.txt", &lo, &none), "warpmatch_graph_load", "size is 0");
  lo.size = WARPMATCH_MAX_STRUCT_SIZE + 1;
  REFUSED(ctx, warpmatch_graph_load(ctx, "/nonexistent/g.txt", &lo, &none), "size is 65537");
  cr_assert_null(none);
  warpmatch_pattern_destroy(p);
  warpmatch_graph_destroy(h);
  wm_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}
#undef REFUSED

/* The fixed records (warpmatch.h) keep the layout they have on LP64: the
 * versioned structs embed three of them, so a field added there would
 * move every later field of its container.  Every versioned struct starts
 * with its size. */
Test(api, struct_layout) {
  cr_assert_eq(offsetof(warpmatch_count_options, labels), 16);
  cr_assert_eq(offsetof(warpmatch_count_options, ignore_labels), 24);
  cr_assert_eq(sizeof(warpmatch_count_options), 32);
  cr_assert_eq(offsetof(warpmatch_count_result, method), 36);
  cr_assert_eq(sizeof(warpmatch_count_result), 40);
  cr_assert_eq(offsetof(warpmatch_bfs_result, device), 16);
  cr_assert_eq(sizeof(warpmatch_bfs_result), 24);
  cr_assert_eq(offsetof(warpmatch_motif, count_high), 104);
  cr_assert_eq(sizeof(warpmatch_motif), 112);
  const size_t size_first[] = {
      offsetof(warpmatch_load_options, size), offsetof(warpmatch_load_info, size),
      offsetof(warpmatch_degree_stats, size), offsetof(warpmatch_match_options, size),
      offsetof(warpmatch_match_result, size), offsetof(warpmatch_bfs_options, size),
      offsetof(warpmatch_bfs_stats, size)};
  for (unsigned i = 0; i < sizeof size_first / sizeof *size_first; i++) cr_assert_eq(size_first[i], 0, "struct %u", i);
  /* the user's fields first, the GPU tuning after them */
  cr_assert_lt(offsetof(warpmatch_match_options, order), offsetof(warpmatch_match_options, gpu_steal));
  cr_assert_lt(offsetof(warpmatch_bfs_options, gpus), offsetof(warpmatch_bfs_options, queue_gen));
}
