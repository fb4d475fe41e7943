/* Kronecker and R-MAT generators: determinism, thread independence, shape of
 * the degree distribution, and the `gen` command. */
#include <criterion/criterion.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datasets.h"
#include "json_check.h"
#include "testutil.h"

static wm_graph *gen(const wm_gen_options *o) {
  wm_graph *g = NULL;
  wm_error err;
  int rc = wm_generate(o, &g, &err);
  cr_assert_eq(rc, WM_OK, "wm_generate failed: %s", err.msg);
  cr_assert_not_null(g);
  return g;
}

static wm_graph *kron(unsigned scale, uint64_t seed) {
  wm_gen_options o;
  wm_gen_kron_defaults(&o, scale, seed);
  return gen(&o);
}

static int same_graph(const wm_graph *x, const wm_graph *y) {
  return x->n == y->n && x->m == y->m && x->flags == y->flags &&
         memcmp(x->offsets, y->offsets, (x->n + 1ull) * sizeof *x->offsets) == 0 &&
         memcmp(x->adj, y->adj, x->m * sizeof *x->adj) == 0;
}

static void check_simple_symmetric(const wm_graph *g) {
  cr_assert_eq(g->flags & WM_GRAPH_DIRECTED, 0u, "generated graphs are undirected");
  cr_assert_eq(g->offsets[g->n], g->m);
  for (uint32_t v = 0; v < g->n; v++)
    for (uint64_t i = g->offsets[v]; i < g->offsets[v + 1]; i++) {
      uint32_t w = g->adj[i];
      cr_assert_neq(w, v, "self-loop at %u", v);
      if (i > g->offsets[v]) cr_assert_gt(w, g->adj[i - 1], "row %u not strictly ascending", v);
    }
}

Test(generators, defaults_follow_graph500) {
  wm_gen_options o;
  wm_gen_kron_defaults(&o, 10, 7);
  cr_assert_eq(o.scale, 10u);
  cr_assert_eq(o.seed, 7u);
  cr_assert_eq(o.edge_factor, 16u);
  cr_assert_float_eq(o.a, 0.57, 1e-12);
  cr_assert_float_eq(o.b, 0.19, 1e-12);
  cr_assert_float_eq(o.c, 0.19, 1e-12);
  cr_assert(o.permute);
  wm_gen_rmat_defaults(&o, 10, 7);
  cr_assert_float_eq(o.a, 0.45, 1e-12);
  cr_assert_float_eq(o.b, 0.15, 1e-12);
  cr_assert_float_eq(o.c, 0.15, 1e-12);
  cr_assert(!o.permute);
}

Test(generators, same_seed_same_graph_other_seed_other_graph) {
  wm_graph *x = kron(12, 42), *y = kron(12, 42), *z = kron(12, 43);
  cr_assert(same_graph(x, y), "seed 42 twice gave different graphs");
  cr_assert(!same_graph(x, z), "seeds 42 and 43 gave the same graph");
  wm_graph_destroy(x);
  wm_graph_destroy(y);
  wm_graph_destroy(z);
}

Test(generators, independent_of_thread_count) {
  const char *kinds[2] = {"kron", "rmat"};
  for (int k = 0; k < 2; k++) {
    wm_gen_options o;
    if (k == 0)
      wm_gen_kron_defaults(&o, 13, 5);
    else
      wm_gen_rmat_defaults(&o, 13, 5);
    omp_set_num_threads(1);
    wm_graph *one = gen(&o);
    omp_set_num_threads(2);
    wm_graph *two = gen(&o);
    omp_set_num_threads(3); /* uneven split of the edge range */
    wm_graph *three = gen(&o);
    cr_assert(same_graph(one, two), "%s: 1 and 2 threads differ", kinds[k]);
    cr_assert(same_graph(one, three), "%s: 1 and 3 threads differ", kinds[k]);
    wm_graph_destroy(one);
    wm_graph_destroy(two);
    wm_graph_destroy(three);
  }
}

Test(generators, n_is_two_to_the_scale_and_graph_is_simple) {
  for (unsigned scale = 1; scale <= 14; scale += 13) {
    wm_graph *g = kron(scale, 1);
    cr_assert_eq(g->n, 1u << scale, "scale %u: n = %u", scale, g->n);
    cr_assert_eq(g->orig_ids, NULL, "ids are 0..n-1, no mapping expected");
    check_simple_symmetric(g);
    /* Every arc has its reverse. */
    for (uint32_t v = 0; v < g->n; v++)
      for (uint64_t i = g->offsets[v]; i < g->offsets[v + 1]; i++) {
        uint32_t w = g->adj[i];
        uint64_t lo = g->offsets[w], hi = g->offsets[w + 1];
        while (lo < hi) {
          uint64_t mid = (lo + hi) / 2;
          if (g->adj[mid] < v)
            lo = mid + 1;
          else
            hi = mid;
        }
        cr_assert(lo < g->offsets[w + 1] && g->adj[lo] == v, "arc %u->%u has no reverse", v, w);
      }
    /* Duplicates are dropped, so at most edge_factor * n undirected edges. */
    cr_assert_leq(wm_graph_edges(g), 16ull << scale);
    wm_graph_destroy(g);
  }
}

Test(generators, kronecker_degrees_are_skewed) {
  wm_graph *g = kron(14, 3);
  wm_degree_stats st;
  wm_graph_degree_stats(g, &st);
  cr_assert_gt(wm_graph_edges(g), 8ull << 14, "far too many duplicates: %llu edges",
               (unsigned long long)wm_graph_edges(g));
  cr_assert_gt((double)st.max_degree, 20.0 * st.mean_degree, "max degree %llu, mean %.1f",
               (unsigned long long)st.max_degree, st.mean_degree);
  cr_assert_gt(st.isolated, 0u, "Graph500 Kronecker graphs leave many vertices isolated");
  wm_graph_destroy(g);
}

Test(generators, rmat_uniform_quadrants_give_uniform_degrees) {
  wm_gen_options o;
  wm_gen_rmat_defaults(&o, 14, 9);
  o.a = o.b = o.c = 0.25;
  wm_graph *g = gen(&o);
  wm_degree_stats st;
  wm_graph_degree_stats(g, &st);
  /* An Erdos-Renyi-like graph: mean ~32, Poisson spread. */
  cr_assert_gt(st.mean_degree, 30.0, "mean %.2f", st.mean_degree);
  cr_assert_lt((double)st.max_degree, 2.0 * st.mean_degree, "max %llu, mean %.2f",
               (unsigned long long)st.max_degree, st.mean_degree);
  cr_assert_eq(st.isolated, 0u);
  wm_graph_destroy(g);

  wm_gen_rmat_defaults(&o, 14, 9);
  g = gen(&o);
  wm_graph_degree_stats(g, &st);
  cr_assert_gt((double)st.max_degree, 10.0 * st.mean_degree, "default R-MAT should be skewed");
  wm_graph_destroy(g);
}

/* Share of arcs whose source lies in the lower half of the ids: about
 * a + (b + c) / 2 for an unpermuted graph (each edge is stored both ways). */
static double low_half_share(const wm_graph *g) {
  return (double)g->offsets[g->n / 2] / (double)g->m;
}

Test(generators, rmat_quadrant_probabilities_are_honoured) {
  wm_gen_options o;
  wm_gen_rmat_defaults(&o, 14, 11);
  o.edge_factor = 4; /* few duplicates, so the shares stay close to the model */
  o.a = 0.40;
  o.b = o.c = 0.20;
  wm_graph *g = gen(&o);
  double s = low_half_share(g);
  cr_assert(s > 0.57 && s < 0.63, "a=.4 b=c=.2: low-half share %.3f, expected ~0.60", s);
  wm_graph_destroy(g);

  o.a = 0.10;
  o.b = o.c = 0.20; /* d = 0.5: the high ids get the mass */
  g = gen(&o);
  s = low_half_share(g);
  cr_assert(s > 0.27 && s < 0.33, "a=.1 b=c=.2: low-half share %.3f, expected ~0.30", s);
  wm_graph_destroy(g);
}

static int cmp_u64(const void *x, const void *y) {
  uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
  return a < b ? -1 : a > b;
}

static uint64_t *sorted_degrees(const wm_graph *g) {
  uint64_t *d = malloc(g->n * sizeof *d);
  cr_assert_not_null(d);
  for (uint32_t v = 0; v < g->n; v++) d[v] = wm_degree(g, v);
  qsort(d, g->n, sizeof *d, cmp_u64);
  return d;
}

Test(generators, permutation_relabels_without_changing_the_graph) {
  wm_gen_options o;
  wm_gen_kron_defaults(&o, 12, 21);
  wm_graph *p = gen(&o);
  o.permute = 0;
  wm_graph *q = gen(&o);
  cr_assert_eq(p->m, q->m, "a relabelling keeps the edge count");
  cr_assert(!same_graph(p, q), "the permutation changed nothing");
  uint64_t *dp = sorted_degrees(p), *dq = sorted_degrees(q);
  cr_assert_eq(memcmp(dp, dq, p->n * sizeof *dp), 0, "degree multisets differ");
  /* Unpermuted, vertex 0 is the A-corner hub; permuted, it is not in general. */
  cr_assert_eq(wm_degree(q, 0), dq[q->n - 1], "vertex 0 should be the hub without permutation");
  free(dp);
  free(dq);
  wm_graph_destroy(p);
  wm_graph_destroy(q);
}

Test(generators, bad_options_are_rejected) {
  wm_gen_options o;
  wm_graph *g = (wm_graph *)1;
  wm_error err;
  wm_gen_kron_defaults(&o, 0, 1);
  cr_assert_eq(wm_generate(&o, &g, &err), WM_EUSAGE);
  cr_assert_null(g);
  cr_assert(strstr(err.msg, "scale"), "message: %s", err.msg);
  wm_gen_kron_defaults(&o, 32, 1);
  cr_assert_eq(wm_generate(&o, &g, &err), WM_EUSAGE);
  wm_gen_kron_defaults(&o, 4, 1);
  o.a = 0.6;
  o.b = o.c = 0.3;
  cr_assert_eq(wm_generate(&o, &g, &err), WM_EUSAGE);
  cr_assert(strstr(err.msg, "a + b + c"), "message: %s", err.msg);
  wm_gen_kron_defaults(&o, 4, 1);
  o.b = -0.1;
  cr_assert_eq(wm_generate(&o, &g, &err), WM_EUSAGE);
  wm_gen_kron_defaults(&o, 4, 1);
  o.edge_factor = 0;
  cr_assert_eq(wm_generate(&o, &g, &err), WM_EUSAGE);
}

/* ---- the command ---------------------------------------------------- */

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  cr_assert_not_null(f, "cannot open %s", path);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc(n + 1);
  cr_assert_not_null(s);
  cr_assert_eq(fread(s, 1, n, f), (size_t)n);
  s[n] = 0;
  fclose(f);
  *len = (size_t)n;
  return s;
}

/* Drops JSON members whose key ends in "seconds": timings differ run to run. */
static void drop_timings(char *s) {
  char *p;
  while ((p = strstr(s, "seconds\":"))) {
    char *start = p;
    while (start > s && *start != ',' && *start != '{') start--;
    char *end = p + strlen("seconds\":");
    while (*end && *end != ',' && *end != '}') end++;
    if (*start == '{' && *end == ',') end++; /* keep the object well formed */
    memmove(*start == '{' ? start + 1 : start, end, strlen(end) + 1);
  }
}

Test(generators_cli, same_seed_gives_byte_identical_files, .timeout = 120) {
  char dir[256], x[512], y[512], *out = NULL, *err = NULL;
  wm_test_tmpdir(dir, sizeof dir);
  snprintf(x, sizeof x, "%s/x.wmg", dir);
  snprintf(y, sizeof y, "%s/y.wmg", dir);
  int rc = wm_test_run(&out, &err, "gen kron --scale 12 --seed 1 --output %s --json", x);
  cr_assert_eq(rc, 0, "gen failed (%d): %s", rc, err);
  cr_assert_eq(json_u64(out, "vertices"), 4096u, "gen --json: %s", out);
  uint64_t edges = json_u64(out, "edges");
  free(out);
  free(err);
  rc = wm_test_run(&out, &err, "gen kron --scale 12 --seed 1 --output %s", y);
  cr_assert_eq(rc, 0, "second gen failed (%d): %s", rc, err);
  cr_assert(strstr(out, "4096"), "the summary names the vertex count: %s", out);
  free(out);
  free(err);

  size_t lx, ly;
  char *bx = slurp(x, &lx), *by = slurp(y, &ly);
  cr_assert_eq(lx, ly, "file sizes differ");
  cr_assert_eq(memcmp(bx, by, lx), 0, "same seed, different bytes");
  free(bx);
  free(by);

  /* The file holds the very graph the library generates. */
  wm_graph *file = NULL, *mem = kron(12, 1);
  wm_error e;
  cr_assert_eq(wm_read_wmg(x, &file, NULL, &e), WM_OK, "%s", e.msg);
  cr_assert(same_graph(file, mem), "file and in-memory graph differ");
  cr_assert_eq(wm_graph_edges(mem), edges);
  wm_graph_destroy(file);
  wm_graph_destroy(mem);

  char *i1 = NULL, *i2 = NULL;
  cr_assert_eq(wm_test_run(&i1, NULL, "info %s --json", x), 0, "info failed");
  cr_assert_eq(wm_test_run(&i2, NULL, "info %s --json", y), 0, "info failed");
  drop_timings(i1);
  drop_timings(i2);
  cr_assert_str_eq(i1, i2, "info differs between two files of the same seed");
  cr_assert_eq(json_u64(i1, "vertices"), 4096u, "info: %s", i1);
  cr_assert_eq(json_u64(i1, "edges"), edges, "info: %s", i1);
  free(i1);
  free(i2);
  wm_test_rmdir(dir);
}

Test(generators_cli, other_seed_other_file_and_rmat_options) {
  char dir[256], x[512], y[512];
  wm_test_tmpdir(dir, sizeof dir);
  snprintf(x, sizeof x, "%s/x.wmg", dir);
  snprintf(y, sizeof y, "%s/y.wmg", dir);
  cr_assert_eq(wm_test_run(NULL, NULL, "gen rmat --scale 10 --seed 1 --output %s", x), 0);
  cr_assert_eq(wm_test_run(NULL, NULL, "gen rmat --scale 10 --seed 2 --output %s", y), 0);
  size_t lx, ly;
  char *bx = slurp(x, &lx), *by = slurp(y, &ly);
  cr_assert(lx != ly || memcmp(bx, by, lx) != 0, "seeds 1 and 2 wrote the same file");
  free(bx);
  free(by);

  char *out = NULL;
  int rc = wm_test_run(&out, NULL,
                       "gen rmat --scale 10 --edge-factor 4 --a 0.25 --b 0.25 --c 0.25 --permute "
                       "--seed 3 --output %s --json",
                       x);
  cr_assert_eq(rc, 0);
  cr_assert(strstr(out, "\"permuted\":true"), "%s", out);
  cr_assert(strstr(out, "\"edge_factor\":4"), "%s", out);
  cr_assert_leq(json_u64(out, "edges"), 4096u, "%s", out);
  cr_assert_gt(json_u64(out, "edges"), 3500u, "uniform quadrants give few duplicates: %s", out);
  free(out);
  wm_test_rmdir(dir);
}

Test(generators_cli, bad_arguments_exit_2) {
  char dir[256], x[512];
  wm_test_tmpdir(dir, sizeof dir);
  snprintf(x, sizeof x, "%s/x.wmg", dir);
  const char *bad[] = {
      "gen kron --scale 0 --output %s",
      "gen kron --scale 32 --output %s",
      "gen kron --scale twelve --output %s",
      "gen kron --scale 10",
      "gen kron --output %s",
      "gen erdos --scale 10 --output %s",
      "gen --scale 10 --output %s",
      "gen kron --scale 10 --a 0.9 --b 0.9 --output %s",
      "gen kron --scale 10 --edge-factor 0 --output %s",
      "gen kron --scale 10 --permute --no-permute --output %s",
      "gen kron --scale 10 --bogus --output %s",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char *err = NULL;
    int rc = wm_test_run(NULL, &err, bad[i], x);
    cr_assert_eq(rc, 2, "'%s' exited %d, expected 2", bad[i], rc);
    cr_assert(strlen(err) > 0, "'%s' printed no message", bad[i]);
    free(err);
    FILE *f = fopen(x, "rb");
    cr_assert_null(f, "'%s' left an output file", bad[i]);
  }
  char *err = NULL;
  cr_assert_eq(wm_test_run(NULL, &err, "gen kron --scale 0 --output %s", x), 2);
  cr_assert(strstr(err, "scale"), "the message names the scale: %s", err);
  free(err);
  wm_test_rmdir(dir);
}
