#define _GNU_SOURCE
#include "testutil.h"

#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <math.h>

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return strdup("");
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc(n + 1);
  size_t got = fread(s, 1, n, f);
  s[got] = 0;
  fclose(f);
  return s;
}

/* stdout to stdout_path, or captured into *out when it is NULL. */
static int run(const char *stdout_path, char **out, char **errout, const char *fmt, va_list ap) {
  char args[8192], cmd[16384], dir[256], to[1024];
  vsnprintf(args, sizeof args, fmt, ap);
  wm_test_tmpdir(dir, sizeof dir);
  snprintf(to, sizeof to, "%s/out", dir);
  snprintf(cmd, sizeof cmd, "%s %s >%s 2>%s/err </dev/null", WM_BIN, args, stdout_path ? stdout_path : to, dir);
  int st = system(cmd);
  char p[512];
  if (out && !stdout_path) {
    snprintf(p, sizeof p, "%s/out", dir);
    *out = slurp(p);
  }
  if (errout) {
    snprintf(p, sizeof p, "%s/err", dir);
    *errout = slurp(p);
  }
  wm_test_rmdir(dir);
  if (st == -1 || !WIFEXITED(st)) return -1;
  return WEXITSTATUS(st);
}

int wm_test_run(char **out, char **errout, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc = run(NULL, out, errout, fmt, ap);
  va_end(ap);
  return rc;
}

int wm_test_run_to(const char *stdout_path, char **errout, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc = run(stdout_path, NULL, errout, fmt, ap);
  va_end(ap);
  return rc;
}

void wm_test_tmpdir(char *buf, size_t size) {
  const char *base = getenv("TMPDIR");
  snprintf(buf, size, "%s/wmtest.XXXXXX", base && *base ? base : "/tmp");
  cr_assert_not_null(mkdtemp(buf), "mkdtemp failed");
}

void wm_test_rmdir(const char *dir) {
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
}

void wm_test_write(char *buf, size_t size, const char *dir, const char *name, const char *text) {
  snprintf(buf, size, "%s/%s", dir, name);
  FILE *f = fopen(buf, "wb");
  cr_assert_not_null(f, "cannot write %s", buf);
  fputs(text, f);
  fclose(f);
}

void wm_test_graph_file(wm_test_files *f, const char *text) {
  wm_test_tmpdir(f->dir, sizeof f->dir);
  wm_test_write(f->graph, sizeof f->graph, f->dir, "g.txt", text);
}

void wm_test_clique_text(char *buf, size_t size, unsigned k, unsigned first, unsigned step) {
  size_t len = 0;
  buf[0] = '\0';
  for (unsigned a = 0; a < k; a++)
    for (unsigned b = a + 1; b < k; b++) {
      int w = snprintf(buf + len, size - len, "%u %u\n", first + step * a, first + step * b);
      cr_assert(w > 0 && (size_t)w < size - len, "clique text: buffer of %zu bytes too small", size);
      len += (size_t)w;
    }
}

static int cmp_line(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

char **wm_test_sorted_lines(char *text, size_t *n) {
  size_t cap = 1024;
  char **lines = malloc(cap * sizeof *lines);
  cr_assert_not_null(lines);
  *n = 0;
  for (char *save = NULL, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
    if (*n == cap) {
      lines = realloc(lines, (cap *= 2) * sizeof *lines);
      cr_assert_not_null(lines);
    }
    lines[(*n)++] = l;
  }
  qsort(lines, *n, sizeof *lines, cmp_line);
  return lines;
}

void wm_test_real_graph(char *buf, size_t size, const char *file) {
  snprintf(buf, size, "%s/%s", WM_TEST_GRAPHS, file);
  struct stat st;
  cr_assert(stat(buf, &st) == 0, "test graph %s is missing (datasets/real of the checkout)", buf);
}

void wm_test_pattern_file(char *buf, size_t size, const char *file) {
  snprintf(buf, size, "%s/%s", WM_TEST_PATTERNS, file);
  struct stat st;
  cr_assert(stat(buf, &st) == 0, "test pattern %s is missing (patterns/ of the checkout)", buf);
}

wm_pattern wm_test_stmatch_pattern(unsigned n) {
  char name[64], path[4096];
  snprintf(name, sizeof name, "stmatch/p%u.txt", n);
  wm_test_pattern_file(path, sizeof path, name);
  wm_pattern p;
  wm_error err;
  cr_assert_eq(wm_pattern_load(path, &p, &err), WM_OK, "%s", err.msg);
  return p;
}

wm_graph *wm_test_load_real(const char *file) {
  char path[4096];
  wm_test_real_graph(path, sizeof path, file);
  wm_load_options lo;
  wm_load_options_init(&lo);
  lo.use_cache = 0;
  wm_graph *g = NULL;
  wm_error err;
  cr_assert_eq(wm_graph_load(path, &lo, &g, NULL, &err), WM_OK, "%s", err.msg);
  return g;
}

uint64_t wm_test_rand(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static unsigned deal_loops(void *ctx, unsigned count) {
  wm_test_deal *d = ctx;
  cr_assert_leq(d->next + count, 64, "the dealt share has 64 loops");
  d->next += count;
  return d->next - count;
}

static uint64_t deal_grab(void *ctx, unsigned id, uint64_t chunk) {
  wm_test_deal *d = ctx;
  const uint64_t k = d->taken[id]++;
  return (k * (uint64_t)d->share.processes + (uint64_t)d->share.process) * chunk;
}

static int deal_sum_u32(void *ctx, uint32_t *a, uint64_t n) { return (void)ctx, (void)a, (void)n, 0; }
static int deal_sum_u64(void *ctx, uint64_t *a, uint64_t n) { return (void)ctx, (void)a, (void)n, 0; }
static int deal_sum_i128(void *ctx, wm_i128 *a, unsigned n, int *overflow) {
  return (void)ctx, (void)a, (void)n, (void)overflow, 0;
}

void wm_test_deal_init(wm_test_deal *d, int processes, int process) {
  memset(d, 0, sizeof *d);
  d->share = (wm_share){.ctx = d, .processes = processes, .process = process, .loops = deal_loops,
                        .grab = deal_grab, .sum_u32 = deal_sum_u32, .sum_u64 = deal_sum_u64,
                        .sum_i128 = deal_sum_i128};
}

static double unit(uint64_t *s) { return (wm_test_rand(s) >> 11) * (1.0 / 9007199254740992.0); }

wm_graph *wm_test_graph_of_arcs(uint32_t n, uint32_t *src, uint32_t *dst, uint64_t cnt) {
  wm_graph *g = NULL;
  wm_error err;
  /* n_hint keeps every vertex, isolated ones too, so ids stay 0..n-1. */
  int rc = wm_graph_from_arcs(src, dst, cnt, n, 0, &g, &err);
  cr_assert_eq(rc, WM_OK, "building a test graph failed: %s", err.msg);
  free(src);
  free(dst);
  return g;
}

wm_graph *wm_test_kron(unsigned scale, uint64_t seed) {
  wm_gen_options go;
  wm_gen_kron_defaults(&go, scale, seed);
  wm_graph *g = NULL;
  wm_error err;
  cr_assert_eq(wm_generate(&go, &g, &err), WM_OK, "kronecker %u: %s", scale, err.msg);
  return g;
}

wm_graph *wm_test_hub_graph(uint32_t n, double p_hub, double p, uint64_t seed) {
  uint32_t *src = malloc((size_t)n * n * sizeof *src), *dst = malloc((size_t)n * n * sizeof *dst);
  uint64_t cnt = 0;
  for (uint32_t a = 0; a < n; a++)
    for (uint32_t b = a + 1; b < n; b++)
      if (unit(&seed) < (a ? p : p_hub)) src[cnt] = a, dst[cnt++] = b;
  return wm_test_graph_of_arcs(n, src, dst, cnt);
}

void wm_test_each_5_subset(const wm_graph *g, void (*fn)(const uint32_t *v, void *ctx), void *ctx) {
  uint32_t v[5];
  for (v[0] = 0; v[0] < g->n; v[0]++)
    for (v[1] = v[0] + 1; v[1] < g->n; v[1]++)
      for (v[2] = v[1] + 1; v[2] < g->n; v[2]++)
        for (v[3] = v[2] + 1; v[3] < g->n; v[3]++)
          for (v[4] = v[3] + 1; v[4] < g->n; v[4]++) fn(v, ctx);
}

wm_graph *wm_test_by_degree(const wm_graph *g) {
  wm_graph *r = NULL;
  wm_error err;
  cr_assert_eq(wm_graph_relabel_by_degree(g, &r, &err), WM_OK, "%s", err.msg);
  return r;
}

wm_graph *wm_test_er(uint32_t n, double p, uint64_t seed) {
  uint64_t cap = (uint64_t)n * n / 2 + 1, cnt = 0;
  uint32_t *src = malloc(cap * 4), *dst = malloc(cap * 4);
  for (uint32_t u = 0; u < n; u++)
    for (uint32_t v = u + 1; v < n; v++)
      if (unit(&seed) < p) src[cnt] = u, dst[cnt++] = v;
  return wm_test_graph_of_arcs(n, src, dst, cnt);
}

wm_graph *wm_test_powerlaw(uint32_t n, double avg_degree, uint32_t hubs, double hub_frac, uint64_t seed) {
  uint64_t cap = (uint64_t)n * n / 2 + 1, cnt = 0;
  uint32_t *src = malloc(cap * 4), *dst = malloc(cap * 4);
  /* Chung-Lu weights w_i ~ (i+1)^-0.5 give a heavy-tailed degree sequence. */
  double *w = malloc(n * sizeof *w), sum = 0;
  for (uint32_t i = 0; i < n; i++) sum += w[i] = 1.0 / sqrt(i + 1.0);
  for (uint32_t u = 0; u < n; u++)
    for (uint32_t v = u + 1; v < n; v++) {
      double p = (u < hubs || v < hubs) ? hub_frac : avg_degree * w[u] * w[v] / sum;
      if (unit(&seed) < p) src[cnt] = u, dst[cnt++] = v;
    }
  free(w);
  return wm_test_graph_of_arcs(n, src, dst, cnt);
}

void wm_test_plan(const wm_graph *g, const char *name, int induced, int code_motion, int count_only,
                  wm_plan *out) {
  wm_pattern p;
  wm_error err;
  cr_assert_eq(wm_pattern_from_name(name, &p, &err), WM_OK, "%s", err.msg);
  wm_graph_summary gs;
  if (g)
    wm_graph_summary_compute(g, &gs);
  else
    wm_graph_summary_default(&gs);
  wm_plan_options po;
  wm_plan_options_init(&po);
  po.induced = induced;
  po.code_motion = code_motion;
  po.count_only = count_only;
  cr_assert_eq(wm_plan_build(&p, &gs, &po, out, &err), WM_OK, "planning %s: %s", name, err.msg);
}

static wm_plan forced_plan(const wm_pattern *p, const wm_graph_summary *gs, const uint8_t *order, int gpu) {
  wm_plan_options po;
  wm_plan_options_init(&po);
  po.forced_order = order;
  po.first_edge_up = gpu;
  wm_plan plan;
  wm_error err;
  cr_assert_eq(wm_plan_build(p, gs, &po, &plan, &err), WM_OK, "%s", err.msg);
  return plan;
}

wm_plan wm_test_forced_plan(const wm_pattern *p, const wm_graph_summary *gs, const uint8_t *order) {
  return forced_plan(p, gs, order, 0);
}

wm_plan wm_test_forced_gpu_plan(const wm_pattern *p, const wm_graph_summary *gs, const uint8_t *order) {
  return forced_plan(p, gs, order, 1);
}

wm_graph *wm_test_ring(uint32_t n, uint32_t k, int directed) {
  uint32_t *src = malloc((size_t)n * k * sizeof *src), *dst = malloc((size_t)n * k * sizeof *dst);
  cr_assert(src && dst);
  for (uint32_t i = 0; i < n; i++)
    for (uint32_t j = 1; j <= k; j++) src[i * k + j - 1] = i, dst[i * k + j - 1] = (i + j) % n;
  wm_graph *g = NULL;
  wm_error err;
  cr_assert_eq(wm_graph_from_arcs(src, dst, (uint64_t)n * k, n, directed, &g, &err), WM_OK, "%s", err.msg);
  free(src);
  free(dst);
  return g;
}

static void in_degrees(const wm_graph *g, uint64_t *in) {
  memset(in, 0, (size_t)g->n * sizeof *in);
  for (uint64_t e = 0; e < g->m; e++) in[g->adj[e]]++;
}

void wm_test_assert_randomized(const wm_graph *g, const wm_graph *r) {
  cr_assert_eq(r->n, g->n);
  cr_assert_eq(r->m, g->m);
  uint64_t *a = malloc((size_t)g->n * sizeof *a), *b = malloc((size_t)g->n * sizeof *b);
  cr_assert(a && b);
  in_degrees(g, a);
  in_degrees(r, b);
  for (uint32_t v = 0; v < g->n; v++) {
    cr_assert_eq(wm_degree(r, v), wm_degree(g, v), "vertex %u: out-degree %lu, was %lu", v,
                 (unsigned long)wm_degree(r, v), (unsigned long)wm_degree(g, v));
    cr_assert_eq(a[v], b[v], "vertex %u: in-degree %lu, was %lu", v, (unsigned long)b[v], (unsigned long)a[v]);
    for (uint64_t i = r->offsets[v]; i < r->offsets[v + 1]; i++) {
      cr_assert_lt(r->adj[i], g->n, "vertex %u: neighbour %u out of range", v, r->adj[i]);
      cr_assert_neq(r->adj[i], v, "a self-loop at %u", v);
      if (i > r->offsets[v]) cr_assert_gt(r->adj[i], r->adj[i - 1], "a multi-edge at %u", v);
      if (!(g->flags & WM_GRAPH_DIRECTED)) cr_assert(wm_graph_has_arc(r, r->adj[i], v), "asymmetric at %u", v);
    }
  }
  free(a);
  free(b);
}

uint64_t wm_test_triangles(const wm_graph *g) {
  const uint32_t n = g->n;
  unsigned char *adj = calloc((size_t)n * n, 1);
  cr_assert(adj || !n);
  for (uint32_t u = 0; u < n; u++)
    for (uint64_t i = g->offsets[u]; i < g->offsets[u + 1]; i++)
      adj[(size_t)u * n + g->adj[i]] = adj[(size_t)g->adj[i] * n + u] = 1;
  uint64_t t = 0;
  for (uint32_t u = 0; u < n; u++)
    for (uint32_t v = u + 1; v < n; v++) {
      if (!adj[(size_t)u * n + v]) continue;
      for (uint32_t w = v + 1; w < n; w++) t += adj[(size_t)u * n + w] & adj[(size_t)v * n + w];
    }
  free(adj);
  return t;
}

int wm_test_same_graph(const wm_graph *a, const wm_graph *b) {
  return a->n == b->n && a->m == b->m && !memcmp(a->adj, b->adj, a->m * sizeof *a->adj);
}

double wm_test_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

void wm_test_pause_ms(long ms) {
  struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&t, NULL);
}
