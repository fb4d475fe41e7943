/* The public API's calls for making, rewriting and saving graphs and for
 * the program around the library (api/warpmatch.h): the generator against
 * the module generator with the same seed (the saved files byte for byte),
 * its ranges refused at their edges; rewriting by degree and orienting
 * (ids kept, the input untouched), saving and loading back, saving where
 * no file can go (nothing left behind); the catalogue and automorphisms
 * against the modules'; the match option table and its ranges; the
 * header's limits as the library answers them; the progress choice and
 * the temporaries' removal. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <dirent.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base.h"
#include "patterns.h"
#include "testutil.h"
#include "warpmatch.h"

static warpmatch_context *ctx_new(void) {
  warpmatch_context *ctx = NULL;
  cr_assert_eq(warpmatch_context_create(&ctx), WARPMATCH_OK);
  return ctx;
}

/* The whole file, malloc'd, its length in *len. */
static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  cr_assert_not_null(f, "%s", path);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)n + 1);
  cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
  fclose(f);
  *len = (size_t)n;
  return buf;
}

/* Entries of dir other than . and .. */
static int entries(const char *dir) {
  DIR *d = opendir(dir);
  cr_assert_not_null(d, "%s", dir);
  int n = 0;
  for (struct dirent *e; (e = readdir(d));)
    n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
  closedir(d);
  return n;
}

static warpmatch_graph *generated(warpmatch_context *ctx, int kind, unsigned scale, uint64_t seed) {
  warpmatch_gen_options o;
  warpmatch_gen_options_init(&o, kind, scale, seed);
  warpmatch_graph *g = NULL;
  cr_assert_eq(warpmatch_generate(ctx, &o, &g), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  return g;
}

/* ---- the generator --------------------------------------------------- */

Test(api_gen, defaults_are_the_modules) {
  warpmatch_gen_options o;
  wm_gen_options m;
  warpmatch_gen_options_init(&o, WARPMATCH_GEN_KRON, 12, 5);
  wm_gen_kron_defaults(&m, 12, 5);
  cr_assert_eq(o.size, sizeof o);
  cr_assert(o.kind == WARPMATCH_GEN_KRON && o.scale == 12 && o.seed == 5);
  cr_assert(o.edge_factor == m.edge_factor && o.a == m.a && o.b == m.b && o.c == m.c && o.permute == m.permute);
  warpmatch_gen_options_init(&o, WARPMATCH_GEN_RMAT, 9, 3);
  wm_gen_rmat_defaults(&m, 9, 3);
  cr_assert(o.edge_factor == m.edge_factor && o.a == m.a && o.b == m.b && o.c == m.c && o.permute == m.permute);
  cr_assert_neq(o.a, 0.57, "rmat has its own probabilities");
  warpmatch_gen_options_init(&o, 99, 9, 3);
  cr_assert(o.kind == 99 && o.edge_factor == 0 && o.a == 0, "an unknown kind gets zeros");
}

/* The API's graph and the module's for the same options, saved: the same bytes. */
static void same_as_module(int kind, unsigned scale, uint64_t seed, unsigned edge_factor) {
  char dir[256], a[512], b[512];
  wm_test_tmpdir(dir, sizeof dir);
  snprintf(a, sizeof a, "%s/api.wmg", dir);
  snprintf(b, sizeof b, "%s/module.wmg", dir);
  warpmatch_context *ctx = ctx_new();
  warpmatch_gen_options o;
  warpmatch_gen_options_init(&o, kind, scale, seed);
  o.edge_factor = edge_factor;
  warpmatch_graph *g = NULL;
  cr_assert_eq(warpmatch_generate(ctx, &o, &g), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  cr_assert_eq(warpmatch_graph_save(ctx, g, a), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));

  wm_gen_options m;
  if (kind == WARPMATCH_GEN_KRON)
    wm_gen_kron_defaults(&m, scale, seed);
  else
    wm_gen_rmat_defaults(&m, scale, seed);
  m.edge_factor = edge_factor;
  wm_graph *h = NULL;
  wm_error err;
  cr_assert_eq(wm_generate(&m, &h, &err), WM_OK, "%s", err.msg);
  cr_assert_eq(warpmatch_graph_vertices(g), h->n);
  cr_assert_eq(warpmatch_graph_edges(g), wm_graph_edges(h));
  cr_assert_eq(wm_write_wmg(h, b, 0, &err), WM_OK, "%s", err.msg);
  size_t la, lb;
  char *fa = slurp(a, &la), *fb = slurp(b, &lb);
  cr_assert(la == lb && memcmp(fa, fb, la) == 0, "kind %d scale %u seed %llu: the files differ", kind, scale,
            (unsigned long long)seed);
  free(fa);
  free(fb);
  wm_graph_destroy(h);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
  wm_test_rmdir(dir);
}

Test(api_gen, equals_the_module_generator) {
  same_as_module(WARPMATCH_GEN_KRON, 10, 7, 16);
  same_as_module(WARPMATCH_GEN_RMAT, 9, 11, 8);
}

Test(api_gen, seeds_differ) {
  warpmatch_context *ctx = ctx_new();
  warpmatch_graph *a = generated(ctx, WARPMATCH_GEN_KRON, 8, 1), *b = generated(ctx, WARPMATCH_GEN_KRON, 8, 2);
  int differ = warpmatch_graph_edges(a) != warpmatch_graph_edges(b);
  for (uint32_t v = 0; !differ && v < warpmatch_graph_vertices(a); v++)
    differ = warpmatch_graph_degree(a, v) != warpmatch_graph_degree(b, v);
  cr_assert(differ, "seeds 1 and 2 gave the same degrees");
  cr_assert_eq(warpmatch_graph_flags(a), 0u, "a generated graph is symmetric and in its own numbering");
  warpmatch_graph_destroy(a);
  warpmatch_graph_destroy(b);
  warpmatch_context_destroy(ctx);
}

/* o refused with code and a message holding `says`; no graph made. */
static void refused(const warpmatch_gen_options *o, int code, const char *says) {
  warpmatch_context *ctx = ctx_new();
  warpmatch_graph *g = (warpmatch_graph *)1;
  int rc = warpmatch_generate(ctx, o, &g);
  cr_assert_eq(rc, code, "expected %d, got %d: %s", code, rc, warpmatch_last_error(ctx));
  cr_assert_null(g);
  cr_assert(strstr(warpmatch_last_error(ctx), says), "'%s' does not say '%s'", warpmatch_last_error(ctx), says);
  warpmatch_context_destroy(ctx);
}

Test(api_gen, ranges_refused_at_their_edges) {
  warpmatch_gen_options o;
  warpmatch_gen_options_init(&o, WARPMATCH_GEN_KRON, 0, 1);
  refused(&o, WARPMATCH_EUSAGE, "scale must be 1..31");
  o.scale = WARPMATCH_GEN_MAX_SCALE + 1;
  refused(&o, WARPMATCH_EUSAGE, "got 32");
  o.scale = 4;
  o.edge_factor = 0;
  refused(&o, WARPMATCH_EUSAGE, "edge factor must be 1..1048576");
  o.edge_factor = WARPMATCH_GEN_MAX_EDGE_FACTOR + 1;
  refused(&o, WARPMATCH_EUSAGE, "got 1048577");
  o.edge_factor = 16;
  o.a = 1.5;
  refused(&o, WARPMATCH_EUSAGE, "probability a must be in [0, 1]");
  o.a = 0.5;
  o.b = 0.4;
  o.c = 0.2;
  refused(&o, WARPMATCH_EUSAGE, "a + b + c must be at most 1");
  warpmatch_gen_options_init(&o, 0, 4, 1);
  refused(&o, WARPMATCH_EUSAGE, "kind 0");
  warpmatch_gen_options_init(&o, WARPMATCH_GEN_GRID + 1, 4, 1);
  refused(&o, WARPMATCH_EUSAGE, "expected WARPMATCH_GEN_KRON, _RMAT, _CHUNG_LU, _BA, _HUB, _SBM, _REGULAR or _GRID");
  warpmatch_gen_options_init(&o, WARPMATCH_GEN_RMAT, 4, 1);
  o.size = 0;
  refused(&o, WARPMATCH_EUSAGE, "size");
  refused(NULL, WARPMATCH_EUSAGE, "o is NULL");
}

Test(api_gen, the_edges_of_the_ranges_run) {
  warpmatch_context *ctx = ctx_new();
  warpmatch_gen_options o;
  warpmatch_gen_options_init(&o, WARPMATCH_GEN_RMAT, 1, 3);
  o.edge_factor = 1;
  warpmatch_graph *g = NULL;
  cr_assert_eq(warpmatch_generate(ctx, &o, &g), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  cr_assert_eq(warpmatch_graph_vertices(g), 2u);
  cr_assert_leq(warpmatch_graph_edges(g), 1u);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

/* ---- the models after rmat ------------------------------------------- */

Test(api_gen, model_defaults_are_the_modules) {
  for (int kind = WARPMATCH_GEN_CHUNG_LU; kind <= WARPMATCH_GEN_GRID; kind++) {
    warpmatch_gen_options o;
    wm_gen_model m;
    warpmatch_gen_options_init(&o, kind, 10, 5);
    wm_gen_model_defaults(&m, kind, 1024, 5);
    cr_assert(o.kind == kind && o.seed == 5 && o.vertices == 1024, "kind %d", kind);
    cr_assert(o.mean_degree == m.mean_degree && o.exponent == m.exponent && o.attach == m.attach &&
                  o.hub_fraction == m.hub_fraction && o.communities == m.communities &&
                  o.degree_in == m.degree_in && o.degree_out == m.degree_out && o.degree == m.degree &&
                  o.width == m.width && o.height == m.height && o.shortcuts == m.shortcuts,
              "kind %d: not the module's defaults", kind);
  }
  warpmatch_gen_options o;
  warpmatch_gen_options_init(&o, WARPMATCH_GEN_GRID, 10, 5);
  cr_assert(o.width == 32 && o.height == 32, "2^10 vertices: a 32 x 32 grid, got %llu x %llu",
            (unsigned long long)o.width, (unsigned long long)o.height);
  warpmatch_gen_options_init(&o, WARPMATCH_GEN_BA, 0, 5);
  cr_assert_eq(o.vertices, 0u, "scale 0: no default vertex count");
  refused(&o, WARPMATCH_EUSAGE, "vertices must be 2..4294967295");
  /* The fields of the first version keep their places; the new ones follow. */
  cr_assert_gt(offsetof(warpmatch_gen_options, vertices), offsetof(warpmatch_gen_options, permute));
  cr_assert_gt(offsetof(warpmatch_gen_options, shortcuts), offsetof(warpmatch_gen_options, vertices));
}

/* The API's graph of o and the module's for the same options: the same bytes. */
static void model_same_as_module(const warpmatch_gen_options *o) {
  char dir[256], a[512], b[512];
  wm_test_tmpdir(dir, sizeof dir);
  snprintf(a, sizeof a, "%s/api.wmg", dir);
  snprintf(b, sizeof b, "%s/module.wmg", dir);
  warpmatch_context *ctx = ctx_new();
  warpmatch_graph *g = NULL;
  cr_assert_eq(warpmatch_generate(ctx, o, &g), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  cr_assert_eq(warpmatch_graph_save(ctx, g, a), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  uint64_t drawn = 0;
  cr_assert_eq(warpmatch_gen_edges_drawn(ctx, o, &drawn), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  const wm_gen_model m = {
      .model = o->kind, .n = o->vertices, .seed = o->seed, .mean_degree = o->mean_degree,
      .exponent = o->exponent, .attach = o->attach, .hub_fraction = o->hub_fraction,
      .communities = o->communities, .degree_in = o->degree_in, .degree_out = o->degree_out,
      .degree = o->degree, .width = o->width, .height = o->height, .shortcuts = o->shortcuts,
  };
  cr_assert_eq(drawn, wm_gen_model_drawn(&m), "kind %d", o->kind);
  cr_assert_geq(drawn, warpmatch_graph_edges(g), "kind %d: more edges than drawn", o->kind);
  wm_graph *h = NULL;
  wm_error err;
  cr_assert_eq(wm_generate_model(&m, &h, &err), WM_OK, "%s", err.msg);
  cr_assert_eq(wm_write_wmg(h, b, 0, &err), WM_OK, "%s", err.msg);
  size_t la, lb;
  char *fa = slurp(a, &la), *fb = slurp(b, &lb);
  cr_assert(la == lb && memcmp(fa, fb, la) == 0, "kind %d: the files differ", o->kind);
  free(fa);
  free(fb);
  wm_graph_destroy(h);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
  wm_test_rmdir(dir);
}

Test(api_gen, models_equal_the_module_generators) {
  for (int kind = WARPMATCH_GEN_CHUNG_LU; kind <= WARPMATCH_GEN_GRID; kind++) {
    warpmatch_gen_options o;
    warpmatch_gen_options_init(&o, kind, 11, 9);
    if (kind == WARPMATCH_GEN_GRID) o.shortcuts = 0.05;
    model_same_as_module(&o);
  }
}

Test(api_gen, model_ranges_refused_by_name) {
  warpmatch_gen_options o;
  warpmatch_gen_options_init(&o, WARPMATCH_GEN_CHUNG_LU, 10, 1);
  o.exponent = 3.6;
  refused(&o, WARPMATCH_EUSAGE, "exponent must be in [2.1, 3.5], got 3.6");
  warpmatch_gen_options_init(&o, WARPMATCH_GEN_BA, 10, 1);
  o.attach = 1024;
  refused(&o, WARPMATCH_EUSAGE, "attach must be 1..vertices - 1 = 1023");
  warpmatch_gen_options_init(&o, WARPMATCH_GEN_HUB, 10, 1);
  o.hub_fraction = -0.1;
  refused(&o, WARPMATCH_EUSAGE, "hub fraction must be in [0, 1]");
  warpmatch_gen_options_init(&o, WARPMATCH_GEN_SBM, 10, 1);
  o.degree_out = 1e9;
  refused(&o, WARPMATCH_EUSAGE, "degree out must be 0..");
  warpmatch_gen_options_init(&o, WARPMATCH_GEN_REGULAR, 10, 1);
  o.degree = 0;
  refused(&o, WARPMATCH_EUSAGE, "degree must be 1..vertices - 1 = 1023");
  o.vertices = WARPMATCH_GEN_MAX_VERTICES + 1;
  o.degree = 2;
  refused(&o, WARPMATCH_EUSAGE, "vertices must be 2..4294967295");
  warpmatch_gen_options_init(&o, WARPMATCH_GEN_GRID, 10, 1);
  o.height = 0;
  refused(&o, WARPMATCH_EUSAGE, "width and height must be 1 or more");

  warpmatch_context *ctx = ctx_new();
  uint64_t drawn = 7;
  cr_assert_eq(warpmatch_gen_edges_drawn(ctx, &o, &drawn), WARPMATCH_EUSAGE, "the same options are refused");
  cr_assert_eq(drawn, 0u);
  cr_assert_eq(warpmatch_gen_edges_drawn(ctx, &o, NULL), WARPMATCH_EUSAGE);
  cr_assert(strstr(warpmatch_last_error(ctx), "drawn is NULL"), "%s", warpmatch_last_error(ctx));
  warpmatch_gen_options_init(&o, WARPMATCH_GEN_KRON, 12, 1);
  cr_assert_eq(warpmatch_gen_edges_drawn(ctx, &o, &drawn), WARPMATCH_OK);
  cr_assert_eq(drawn, 16u << 12, "kron draws edge_factor x 2^scale");
  warpmatch_gen_options_init(&o, WARPMATCH_GEN_GRID, 0, 1);
  o.width = 10;
  o.height = 7;
  cr_assert_eq(warpmatch_gen_edges_drawn(ctx, &o, &drawn), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  cr_assert_eq(drawn, 2u * 10 * 7 - 10 - 7);
  warpmatch_context_destroy(ctx);
}

Test(api_gen, a_first_version_struct_still_generates_kron) {
  warpmatch_gen_options o;
  warpmatch_gen_options_init(&o, WARPMATCH_GEN_KRON, 8, 3);
  o.size = offsetof(warpmatch_gen_options, vertices); /* what a caller of the first version passes */
  warpmatch_context *ctx = ctx_new();
  warpmatch_graph *g = NULL, *h = generated(ctx, WARPMATCH_GEN_KRON, 8, 3);
  cr_assert_eq(warpmatch_generate(ctx, &o, &g), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  cr_assert_eq(warpmatch_graph_edges(g), warpmatch_graph_edges(h));
  for (uint32_t v = 0; v < warpmatch_graph_vertices(g); v++)
    cr_assert_eq(warpmatch_graph_degree(g, v), warpmatch_graph_degree(h, v));
  warpmatch_graph_destroy(g);
  warpmatch_graph_destroy(h);
  warpmatch_context_destroy(ctx);
}

/* ---- rewriting and saving -------------------------------------------- */

/* The input's index of h's index v, through the ids both keep. */
static uint32_t index_in(const warpmatch_graph *g, const warpmatch_graph *h, uint32_t v) {
  uint32_t u = UINT32_MAX;
  cr_assert(warpmatch_graph_find(g, warpmatch_graph_id(h, v), &u), "id %llu of index %u is not the input's",
            (unsigned long long)warpmatch_graph_id(h, v), v);
  return u;
}

Test(api_rewrite, relabel_keeps_ids_and_degrees) {
  warpmatch_context *ctx = ctx_new();
  warpmatch_graph *g = generated(ctx, WARPMATCH_GEN_KRON, 8, 4), *h = NULL;
  cr_assert_eq(warpmatch_graph_rewrite(ctx, g, WARPMATCH_REWRITE_RELABEL_DEGREE, &h), WARPMATCH_OK, "%s",
               warpmatch_last_error(ctx));
  cr_assert_eq(warpmatch_graph_flags(h), (unsigned)WARPMATCH_GRAPH_RELABELLED);
  cr_assert_eq(warpmatch_graph_flags(g), 0u, "the input is untouched");
  const uint32_t n = warpmatch_graph_vertices(g);
  cr_assert_eq(warpmatch_graph_vertices(h), n);
  cr_assert_eq(warpmatch_graph_edges(h), warpmatch_graph_edges(g));
  int moved = 0;
  for (uint32_t v = 0; v < n; v++) {
    const uint32_t u = index_in(g, h, v);
    moved += u != v;
    cr_assert_eq(warpmatch_graph_degree(h, v), warpmatch_graph_degree(g, u), "index %u (input %u)", v, u);
    if (v) cr_assert_geq(warpmatch_graph_degree(h, v - 1), warpmatch_graph_degree(h, v), "descending at %u", v);
  }
  cr_assert_gt(moved, 0, "a permuted Kronecker graph is not already sorted by degree");
  warpmatch_graph_destroy(h);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

Test(api_rewrite, orient_keeps_each_edge_once) {
  warpmatch_context *ctx = ctx_new();
  warpmatch_graph *g = generated(ctx, WARPMATCH_GEN_RMAT, 8, 2), *h = NULL, *both = NULL;
  cr_assert_eq(warpmatch_graph_rewrite(ctx, g, WARPMATCH_REWRITE_ORIENT, &h), WARPMATCH_OK, "%s",
               warpmatch_last_error(ctx));
  cr_assert_eq(warpmatch_graph_flags(h), (unsigned)(WARPMATCH_GRAPH_DIRECTED | WARPMATCH_GRAPH_ORIENTED));
  cr_assert(warpmatch_graph_directed(h));
  uint64_t arcs = 0;
  for (uint32_t v = 0; v < warpmatch_graph_vertices(h); v++) {
    arcs += warpmatch_graph_degree(h, v);
    cr_assert_eq(warpmatch_graph_id(h, v), warpmatch_graph_id(g, v), "orienting keeps the numbering");
  }
  cr_assert_eq(arcs, warpmatch_graph_edges(g), "one arc per edge");
  cr_assert_eq(warpmatch_graph_edges(h), warpmatch_graph_edges(g));
  cr_assert_eq(warpmatch_graph_rewrite(ctx, g, WARPMATCH_REWRITE_RELABEL_DEGREE | WARPMATCH_REWRITE_ORIENT, &both),
               WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  cr_assert_eq(warpmatch_graph_flags(both),
               (unsigned)(WARPMATCH_GRAPH_DIRECTED | WARPMATCH_GRAPH_RELABELLED | WARPMATCH_GRAPH_ORIENTED));
  cr_assert_eq(warpmatch_graph_edges(both), warpmatch_graph_edges(g));
  warpmatch_graph *again = (warpmatch_graph *)1;
  cr_assert_eq(warpmatch_graph_rewrite(ctx, h, WARPMATCH_REWRITE_ORIENT, &again), WARPMATCH_EINPUT);
  cr_assert_null(again);
  cr_assert(strstr(warpmatch_last_error(ctx), "undirected"), "%s", warpmatch_last_error(ctx));
  warpmatch_graph_destroy(both);
  warpmatch_graph_destroy(h);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

Test(api_rewrite, unknown_bits_refused) {
  warpmatch_context *ctx = ctx_new();
  warpmatch_graph *g = generated(ctx, WARPMATCH_GEN_RMAT, 4, 2), *h = (warpmatch_graph *)1;
  const unsigned bad[] = {0, 4, WARPMATCH_REWRITE_ORIENT | 8u, 0x80000000u};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    cr_assert_eq(warpmatch_graph_rewrite(ctx, g, bad[i], &h), WARPMATCH_EUSAGE, "how 0x%x", bad[i]);
    cr_assert_null(h);
    cr_assert(strstr(warpmatch_last_error(ctx), "WARPMATCH_REWRITE_RELABEL_DEGREE"), "%s", warpmatch_last_error(ctx));
    h = (warpmatch_graph *)1;
  }
  cr_assert_eq(warpmatch_graph_rewrite(ctx, NULL, WARPMATCH_REWRITE_ORIENT, &h), WARPMATCH_EUSAGE);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

Test(api_save, round_trip_keeps_ids_flags_and_rows) {
  char dir[256], path[512];
  wm_test_tmpdir(dir, sizeof dir);
  snprintf(path, sizeof path, "%s/r.wmg", dir);
  warpmatch_context *ctx = ctx_new();
  warpmatch_graph *g = generated(ctx, WARPMATCH_GEN_KRON, 8, 9), *h = NULL, *back = NULL;
  cr_assert_eq(warpmatch_graph_rewrite(ctx, g, WARPMATCH_REWRITE_RELABEL_DEGREE, &h), WARPMATCH_OK);
  cr_assert_eq(warpmatch_graph_save(ctx, h, path), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  cr_assert_eq(entries(dir), 1, "the file alone, no temporary");
  cr_assert_eq(warpmatch_graph_load(ctx, path, NULL, &back), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  cr_assert_eq(warpmatch_graph_flags(back), warpmatch_graph_flags(h));
  cr_assert_eq(warpmatch_graph_vertices(back), warpmatch_graph_vertices(h));
  cr_assert_eq(warpmatch_graph_edges(back), warpmatch_graph_edges(h));
  for (uint32_t v = 0; v < warpmatch_graph_vertices(h); v++) {
    cr_assert_eq(warpmatch_graph_id(back, v), warpmatch_graph_id(h, v), "index %u", v);
    cr_assert_eq(warpmatch_graph_degree(back, v), warpmatch_graph_degree(h, v), "index %u", v);
  }
  /* Same rows: the triangles agree (the count reads every row). */
  warpmatch_pattern *p = NULL;
  warpmatch_count_result a, b;
  cr_assert_eq(warpmatch_pattern_create(ctx, "triangle", &p), WARPMATCH_OK);
  cr_assert_eq(warpmatch_count(ctx, h, p, NULL, &a), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  cr_assert_eq(warpmatch_count(ctx, back, p, NULL, &b), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  cr_assert(a.count == b.count && a.count_high == b.count_high);
  cr_assert_gt(a.count, 0u);
  warpmatch_pattern_destroy(p);
  warpmatch_graph_destroy(back);
  warpmatch_graph_destroy(h);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
  wm_test_rmdir(dir);
}

Test(api_save, where_no_file_can_go_nothing_is_left) {
  char dir[256], sub[512], missing[600];
  wm_test_tmpdir(dir, sizeof dir);
  snprintf(sub, sizeof sub, "%s/sub", dir);
  cr_assert_eq(mkdir(sub, 0755), 0);
  snprintf(missing, sizeof missing, "%s/none/g.wmg", dir);
  warpmatch_context *ctx = ctx_new();
  warpmatch_graph *g = generated(ctx, WARPMATCH_GEN_RMAT, 5, 1);
  cr_assert_eq(warpmatch_graph_save(ctx, g, sub), WARPMATCH_EINPUT);
  cr_assert(strstr(warpmatch_last_error(ctx), "is a directory"), "%s", warpmatch_last_error(ctx));
  cr_assert_eq(entries(sub), 0, "nothing written into the directory");
  cr_assert_neq(warpmatch_graph_save(ctx, g, missing), WARPMATCH_OK);
  cr_assert(strstr(warpmatch_last_error(ctx), missing), "the message names the path: %s", warpmatch_last_error(ctx));
  cr_assert_eq(entries(dir), 1, "only sub/: no file, no temporary");
  cr_assert_eq(warpmatch_graph_save(ctx, g, NULL), WARPMATCH_EUSAGE);
  cr_assert_eq(warpmatch_graph_save(ctx, NULL, sub), WARPMATCH_EUSAGE);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
  wm_test_rmdir(dir);
}

/* ---- the catalogue ------------------------------------------------------ */

Test(api_catalogue, names_and_automorphisms_are_the_modules) {
  const char *const *names = wm_catalogue_names();
  warpmatch_context *ctx = ctx_new();
  unsigned i = 0;
  for (; names[i]; i++) {
    cr_assert_str_eq(warpmatch_catalogue_name(i), names[i]);
    warpmatch_pattern *p = NULL;
    cr_assert_eq(warpmatch_pattern_create(ctx, names[i], &p), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
    uint64_t count = 0;
    cr_assert_eq(warpmatch_pattern_automorphisms(ctx, p, &count), WARPMATCH_OK);
    wm_pattern q;
    wm_automorphisms a;
    wm_error err;
    cr_assert_eq(wm_pattern_from_name(names[i], &q, &err), WM_OK);
    cr_assert_eq(wm_pattern_automorphisms(&q, &a, &err), WM_OK);
    cr_assert_eq(count, a.count, "%s", names[i]);
    wm_automorphisms_free(&a);
    warpmatch_pattern_destroy(p);
  }
  cr_assert_eq(i, 2u + 6u + 21u, "one name per connected graph on 3, 4 and 5 vertices");
  cr_assert_null(warpmatch_catalogue_name(i));
  cr_assert_null(warpmatch_catalogue_name(i + 1));
  cr_assert_null(warpmatch_catalogue_name(UINT32_MAX));
  warpmatch_context_destroy(ctx);
}

Test(api_catalogue, automorphisms_known_and_refused) {
  static const struct {
    const char *name;
    uint64_t aut;
  } known[] = {{"triangle", 6}, {"4-clique", 24}, {"4-cycle", 8}, {"3-path", 2}, {"8-clique", 40320}};
  warpmatch_context *ctx = ctx_new();
  for (size_t i = 0; i < sizeof known / sizeof *known; i++) {
    warpmatch_pattern *p = NULL;
    uint64_t count = 0;
    cr_assert_eq(warpmatch_pattern_create(ctx, known[i].name, &p), WARPMATCH_OK);
    cr_assert_eq(warpmatch_pattern_automorphisms(ctx, p, &count), WARPMATCH_OK);
    cr_assert_eq(count, known[i].aut, "%s: %llu", known[i].name, (unsigned long long)count);
    if (i == 0) { /* a label breaks the symmetry: triangle with one labelled vertex keeps 2 */
      cr_assert_eq(warpmatch_pattern_set_label(ctx, p, 0, 5), WARPMATCH_OK);
      cr_assert_eq(warpmatch_pattern_automorphisms(ctx, p, &count), WARPMATCH_OK);
      cr_assert_eq(count, 2u);
      cr_assert_eq(warpmatch_pattern_automorphisms(ctx, p, NULL), WARPMATCH_EUSAGE);
    }
    warpmatch_pattern_destroy(p);
  }
  uint64_t count;
  cr_assert_eq(warpmatch_pattern_automorphisms(ctx, NULL, &count), WARPMATCH_EUSAGE);
  warpmatch_context_destroy(ctx);
}

/* ---- the match option table --------------------------------------------- */

static unsigned option_named(const char *field, warpmatch_option_info *k) {
  for (unsigned i = 0; i < warpmatch_match_option_count(); i++) {
    k->size = sizeof *k;
    cr_assert_eq(warpmatch_match_option_info(i, k), WARPMATCH_OK);
    if (strcmp(k->field, field) == 0) return i;
  }
  cr_assert_fail("no option %s", field);
  return 0;
}

Test(api_options, table_ranges_are_the_headers) {
  static const struct {
    const char *field, *option;
    long long hi;
  } want[] = {{"gpus", "gpus", WARPMATCH_MAX_GPUS},
              {"gpu_chunk", "gpu-chunk", WARPMATCH_GPU_MAX_CHUNK},
              {"gpu_unroll", "unroll", WARPMATCH_GPU_MAX_UNROLL},
              {"gpu_blocks", "gpu-blocks", WARPMATCH_GPU_MAX_BLOCKS},
              {"gpu_warps", "gpu-warps", WARPMATCH_GPU_MAX_WARPS}};
  cr_assert_eq(warpmatch_match_option_count(), sizeof want / sizeof *want);
  for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
    warpmatch_option_info k;
    option_named(want[i].field, &k);
    cr_assert_str_eq(k.option, want[i].option);
    cr_assert_eq(k.lo, 1);
    cr_assert_eq(k.hi, want[i].hi, "%s", k.field);
  }
  warpmatch_option_info k = {.size = sizeof k};
  cr_assert_eq(warpmatch_match_option_info(warpmatch_match_option_count(), &k), WARPMATCH_EUSAGE);
  cr_assert_eq(warpmatch_match_option_info(0, NULL), WARPMATCH_EUSAGE);
  k.size = 0;
  cr_assert_eq(warpmatch_match_option_info(0, &k), WARPMATCH_EUSAGE);
  /* An older, shorter struct gets only what it has. */
  k.size = offsetof(warpmatch_option_info, lo);
  k.lo = k.hi = -7;
  cr_assert_eq(warpmatch_match_option_info(0, &k), WARPMATCH_OK);
  cr_assert_not_null(k.option);
  cr_assert(k.lo == -7 && k.hi == -7, "fields past size untouched");
}

Test(api_options, set_in_range_refused_outside) {
  warpmatch_context *ctx = ctx_new();
  warpmatch_match_options o;
  warpmatch_match_options_init(&o);
  warpmatch_option_info k;
  const unsigned unroll = option_named("gpu_unroll", &k), chunk = option_named("gpu_chunk", &k);
  cr_assert_eq(warpmatch_match_option_set(ctx, &o, unroll, 1), WARPMATCH_OK);
  cr_assert_eq(o.gpu_unroll, 1);
  cr_assert_eq(warpmatch_match_option_set(ctx, &o, unroll, WARPMATCH_GPU_MAX_UNROLL), WARPMATCH_OK);
  cr_assert_eq(o.gpu_unroll, WARPMATCH_GPU_MAX_UNROLL);
  cr_assert_eq(warpmatch_match_option_set(ctx, &o, chunk, WARPMATCH_GPU_MAX_CHUNK), WARPMATCH_OK);
  cr_assert_eq(o.gpu_chunk, (uint32_t)WARPMATCH_GPU_MAX_CHUNK);
  /* What the table sets, the calls accept. */
  warpmatch_graph *g = generated(ctx, WARPMATCH_GEN_RMAT, 5, 1);
  warpmatch_pattern *p = NULL;
  warpmatch_match_result r = {.size = sizeof r};
  cr_assert_eq(warpmatch_pattern_create(ctx, "triangle", &p), WARPMATCH_OK);
  o.count.device = WARPMATCH_DEVICE_CPU;
  cr_assert_eq(warpmatch_count_ex(ctx, g, p, &o, &r), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  cr_assert_eq(warpmatch_match_option_set(ctx, &o, unroll, 0), WARPMATCH_OK, "0 is the default");
  cr_assert_eq(o.gpu_unroll, 0);

  cr_assert_eq(warpmatch_match_option_set(ctx, &o, unroll, WARPMATCH_GPU_MAX_UNROLL + 1), WARPMATCH_EUSAGE);
  cr_assert(strstr(warpmatch_last_error(ctx), "gpu_unroll 33; expected 1 to 32"), "%s", warpmatch_last_error(ctx));
  cr_assert_eq(o.gpu_unroll, 0, "a refused value leaves the field");
  cr_assert_eq(warpmatch_match_option_set(ctx, &o, unroll, -1), WARPMATCH_EUSAGE);
  cr_assert(strstr(warpmatch_last_error(ctx), "expected 1 to 32"), "%s", warpmatch_last_error(ctx));
  cr_assert_eq(warpmatch_match_option_set(ctx, &o, chunk, (long long)WARPMATCH_GPU_MAX_CHUNK + 1), WARPMATCH_EUSAGE);
  cr_assert(strstr(warpmatch_last_error(ctx), "1048576"), "%s", warpmatch_last_error(ctx));
  cr_assert_eq(warpmatch_match_option_set(ctx, &o, chunk, 1LL << 32), WARPMATCH_EUSAGE, "no wrap to 0");
  cr_assert_eq(warpmatch_match_option_set(ctx, &o, warpmatch_match_option_count(), 1), WARPMATCH_EUSAGE);
  cr_assert_eq(warpmatch_match_option_set(ctx, NULL, unroll, 1), WARPMATCH_EUSAGE);
  o.size = offsetof(warpmatch_match_options, gpu_unroll);
  cr_assert_eq(warpmatch_match_option_set(ctx, &o, unroll, 2), WARPMATCH_EUSAGE, "a struct without the field");
  cr_assert_eq(o.gpu_unroll, 0);
  warpmatch_pattern_destroy(p);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

/* ---- limits ---------------------------------------------------------------- */

Test(api_limits, the_library_answers_the_headers) {
#define L(name) {#name, name}
  static const struct {
    const char *name;
    long long value;
  } want[] = {L(WARPMATCH_MAX_THREADS),         L(WARPMATCH_MAX_GPUS),         L(WARPMATCH_MAX_PATTERN_VERTICES),
              L(WARPMATCH_MAX_TRIALS),          L(WARPMATCH_GPU_MAX_TABLE_WORDS), L(WARPMATCH_GPU_MAX_UNROLL),
              L(WARPMATCH_GPU_MAX_WARPS),       L(WARPMATCH_GPU_MAX_BLOCKS),   L(WARPMATCH_GPU_MAX_CHUNK),
              L(WARPMATCH_MAX_STRUCT_SIZE),     L(WARPMATCH_GEN_MAX_SCALE),    L(WARPMATCH_GEN_MAX_EDGE_FACTOR),
              L(WARPMATCH_GEN_MAX_VERTICES),    L(WARPMATCH_GEN_MAX_EDGES),    L(WARPMATCH_MAX_SWAPS_PER_EDGE),
              L(WARPMATCH_MAX_RANDOM_GRAPHS),   L(WARPMATCH_MAX_SLICE_ORDERS)};
#undef L
  unsigned i = 0;
  long long v = -1;
  for (const char *name; (name = warpmatch_limit(i, &v)); i++) {
    size_t j = 0;
    while (j < sizeof want / sizeof *want && strcmp(want[j].name, name) != 0) j++;
    cr_assert_lt(j, sizeof want / sizeof *want, "%s is not a limit of the header", name);
    cr_assert_eq(v, want[j].value, "%s", name);
  }
  cr_assert_eq(i, sizeof want / sizeof *want, "every limit answered");
  cr_assert_null(warpmatch_limit(i, &v));
  cr_assert_not_null(warpmatch_limit(0, NULL));
}

/* ---- the program around the library ----------------------------------------- */

/* What generating a graph prints on stderr, with the progress shown or not
 * (WM_PROGRESS=1: every update a line, also where stderr is a file). */
static char *generate_stderr(int show) {
  char dir[256], err_path[512];
  wm_test_tmpdir(dir, sizeof dir);
  snprintf(err_path, sizeof err_path, "%s/stderr", dir);
  fflush(stderr);
  const int saved = dup(2);
  FILE *e = fopen(err_path, "w");
  cr_assert_not_null(e);
  dup2(fileno(e), 2);
  setenv("WM_PROGRESS", "1", 1);
  warpmatch_set_progress(show);
  warpmatch_context *ctx = ctx_new();
  warpmatch_gen_options o;
  warpmatch_gen_options_init(&o, WARPMATCH_GEN_RMAT, 12, 1);
  warpmatch_graph *g = NULL;
  int rc = warpmatch_generate(ctx, &o, &g);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  fclose(e);
  cr_assert_eq(rc, WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
  size_t len;
  char *out = slurp(err_path, &len);
  out[len] = '\0';
  wm_test_rmdir(dir);
  return out;
}

Test(api_program, progress_only_when_asked) {
  char *shown = generate_stderr(1);
  cr_assert(strstr(shown, "generating edges: 100%"), "set_progress(1): the line shows:\n%s", shown);
  free(shown);
  char *quiet = generate_stderr(0);
  cr_assert_str_eq(quiet, "", "set_progress(0): nothing on stderr");
  free(quiet);
}

Test(api_program, remove_temporaries_removes_only_temporaries) {
  char dir[256], done[512], pending[512];
  wm_test_tmpdir(dir, sizeof dir);
  snprintf(done, sizeof done, "%s/done.wmg", dir);
  snprintf(pending, sizeof pending, "%s/pending.wmg", dir);
  warpmatch_context *ctx = ctx_new();
  warpmatch_graph *g = generated(ctx, WARPMATCH_GEN_RMAT, 4, 1);
  cr_assert_eq(warpmatch_graph_save(ctx, g, done), WARPMATCH_OK);
  /* A file being written (the library's outfile, as a save or a cache has it mid-way). */
  wm_outfile of;
  wm_error err;
  cr_assert_eq(wm_outfile_open(&of, pending, 0, &err), WM_OK, "%s", err.msg);
  cr_assert_eq(entries(dir), 2, "done.wmg and the temporary");
  warpmatch_remove_temporaries();
  cr_assert_eq(entries(dir), 1, "the temporary is gone");
  cr_assert_eq(access(done, R_OK), 0, "a finished file stays");
  wm_outfile_abort(&of);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
  wm_test_rmdir(dir);
}
