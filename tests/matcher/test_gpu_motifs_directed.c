/* Directed motifs on the GPU (warpmatch_motifs_directed with device GPU)
 * against the CPU, their oracle: every class of 3 and 4 vertices, the
 * disconnected ones too, row by row, on random directed graphs with mutual
 * arcs at several densities, a hub of thousands of in- and out-arcs over a
 * sparse tail, isolated vertices, a graph without arcs and a random graph
 * of about 10^5 arcs; the rows add up to C(n, k); size 4's enumeration
 * stays on the CPU whatever the device; the counts carried past 2^64 in
 * the device's words (the test hook WM_TEST_COUNT_START); over two GPUs
 * where the host has them; and `motifs --directed --json` with --device
 * gpu against --device cpu, the table's kernel time and a refusal. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exact_count.h"
#include "motifs_directed.h"
#include "testutil.h"
#include "warpmatch.h"

/* ---- graphs ------------------------------------------------------------ */

typedef struct arcs {
  uint32_t n, *src, *dst;
  uint64_t m, cap;
} arcs;

static void arc(arcs *a, uint32_t u, uint32_t v) {
  if (a->m == a->cap) {
    a->cap = a->cap ? 2 * a->cap : 1024;
    a->src = realloc(a->src, a->cap * sizeof *a->src);
    a->dst = realloc(a->dst, a->cap * sizeof *a->dst);
    cr_assert(a->src && a->dst, "out of memory");
  }
  a->src[a->m] = u, a->dst[a->m++] = v;
}

static uint32_t below(uint64_t *st, uint32_t n) { return (uint32_t)(wm_test_rand(st) % n); }

/* About m random arcs among the vertices that `live` keeps (every one when
 * live is 0: every step-th), a `mutual` part of them both ways. */
static void random_arcs(arcs *a, uint64_t m, double mutual, uint32_t step, uint64_t seed) {
  uint64_t st = seed;
  const uint32_t slots = a->n / step;
  for (uint64_t i = 0; i < m; i++) {
    const uint32_t u = below(&st, slots) * step, v = below(&st, slots) * step;
    if (u == v) continue;
    arc(a, u, v);
    if ((double)(wm_test_rand(&st) >> 11) / 9007199254740992.0 < mutual) arc(a, v, u);
  }
}

static warpmatch_graph *graph_of(warpmatch_context *ctx, const arcs *a) {
  warpmatch_graph *g = NULL;
  cr_assert_eq(warpmatch_graph_from_edges(ctx, a->n, a->src, a->dst, a->m, 1, &g), WARPMATCH_OK, "%s",
               warpmatch_last_error(ctx));
  cr_assert_eq(warpmatch_graph_vertices(g), a->n);
  return g;
}

static void arcs_free(arcs *a) { free(a->src), free(a->dst); }

/* ---- the comparison ---------------------------------------------------- */

static wm_u128 count_of(const warpmatch_directed_motif *m) { return (wm_u128)m->count_high << 64 | m->count; }

static void counted(warpmatch_context *ctx, const warpmatch_graph *g, unsigned k, int device, int method, int all,
                    int gpus, warpmatch_directed_motif *rows, warpmatch_directed_motif_result *r, const char *what) {
  warpmatch_directed_motif_options o;
  warpmatch_directed_motif_options_init(&o);
  o.device = device, o.method = method, o.all_classes = all, o.gpus = gpus;
  memset(r, 0, sizeof *r);
  r->size = sizeof *r;
  cr_assert_eq(warpmatch_motifs_directed(ctx, g, k, &o, rows, r), WARPMATCH_OK, "%s size %u: %s", what, k,
               warpmatch_last_error(ctx));
  cr_assert_eq(r->classes, warpmatch_motif_classes_directed(k, !all), "%s size %u", what, k);
}

static void same_rows(const warpmatch_directed_motif *want, const warpmatch_directed_motif *got, unsigned n,
                      unsigned k, const char *what, const char *how) {
  char a[WM_I128_CHARS], b[WM_I128_CHARS];
  for (unsigned i = 0; i < n; i++) {
    cr_assert_str_eq(got[i].name, want[i].name, "%s size %u row %u", what, k, i);
    cr_assert(count_of(&got[i]) == count_of(&want[i]), "%s size %u (%s) class %s: GPU %s, CPU %s", what, k, how,
              want[i].name, wm_u128_str(count_of(&got[i]), b), wm_u128_str(count_of(&want[i]), a));
  }
}

/* Sizes 3 and 4, all the classes and the connected ones, on the GPU (one
 * device, and gpus of them when more than one) against the CPU. */
static void gpu_is_cpu(const arcs *a, int gpus, const char *what) {
  warpmatch_context *ctx = NULL;
  cr_assert_eq(warpmatch_context_create(&ctx), WARPMATCH_OK);
  warpmatch_set_threads(ctx, 2);
  warpmatch_graph *g = graph_of(ctx, a);
  static warpmatch_directed_motif cpu[WM_DIR_ROWS4], gpu[WM_DIR_ROWS4];
  warpmatch_directed_motif_result rc, rg;
  for (unsigned k = 3; k <= 4; k++) {
    counted(ctx, g, k, WARPMATCH_DEVICE_CPU, WARPMATCH_METHOD_AUTO, 1, 0, cpu, &rc, what);
    cr_assert_eq(rc.device, WARPMATCH_DEVICE_CPU, "%s", what);
    wm_u128 total = 0;
    for (unsigned i = 0; i < rc.classes; i++) total += count_of(&cpu[i]);
    cr_assert(total == (wm_u128)wm_choose(a->n, k), "%s size %u: the CPU's rows miss C(n,k)", what, k);
    for (int all = 1; all >= 0; all--) {
      const int devices = gpus > 1 ? 2 : 1;
      for (int d = 0; d < devices; d++) {
        counted(ctx, g, k, WARPMATCH_DEVICE_GPU, WARPMATCH_METHOD_AUTO, all, d ? gpus : 1, gpu, &rg, what);
        cr_assert_eq(rg.device, WARPMATCH_DEVICE_GPU, "%s size %u", what, k);
        cr_assert(!strncmp(rg.how, "GPU: ", 5), "%s: %s", what, rg.how);
        cr_assert(rg.kernel_ms >= 0, "%s: kernel %f ms", what, rg.kernel_ms);
        if (all) {
          same_rows(cpu, gpu, rg.classes, k, what, d ? "several GPUs" : "all classes");
        } else { /* the connected rows: the CPU's without its disconnected ones */
          unsigned j = 0;
          for (unsigned i = 0; i < rc.classes; i++)
            if (cpu[i].connected) same_rows(&cpu[i], &gpu[j++], 1, k, what, "connected classes");
          cr_assert_eq(j, rg.classes, "%s", what);
        }
      }
    }
  }
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

Test(gpu_motifs_directed, random_densities) {
  const double density[] = {0.02, 0.1, 0.3, 0.7};
  for (unsigned i = 0; i < 4; i++)
    for (uint64_t seed = 1; seed <= 2; seed++) {
      arcs a = {60, NULL, NULL, 0, 0};
      random_arcs(&a, (uint64_t)(density[i] * 60 * 59), 0.5, 1, seed * 31 + i);
      char what[64];
      snprintf(what, sizeof what, "random n=60 p=%.2f seed %llu", density[i], (unsigned long long)seed);
      gpu_is_cpu(&a, 1, what);
      arcs_free(&a);
    }
}

/* A hub in the middle of the ids (so that its edges run both ways of the
 * order) with 3000 out-arcs and 3000 in-arcs, a third of them the same
 * vertices (mutual), over a sparse tail. */
static void hub_graph(arcs *a, uint64_t seed) {
  uint64_t st = seed;
  a->n = 12000;
  const uint32_t hub = 5003;
  for (uint32_t i = 0; i < 3000; i++) {
    const uint32_t out = (hub + 1 + i * 3) % a->n, in = (hub + 1 + i * 3 + (i % 3 ? 1 : 0)) % a->n;
    arc(a, hub, out);
    arc(a, in, hub);
  }
  random_arcs(a, 15000, 0.2, 1, wm_test_rand(&st));
}

Test(gpu_motifs_directed, hub_over_a_sparse_tail) {
  arcs a = {0, NULL, NULL, 0, 0};
  hub_graph(&a, 5);
  gpu_is_cpu(&a, 1, "hub of 3000 out- and 3000 in-arcs");
  arcs_free(&a);
}

Test(gpu_motifs_directed, isolated_vertices_and_no_arcs) {
  arcs a = {300, NULL, NULL, 0, 0};
  random_arcs(&a, 2000, 0.4, 3, 77); /* only every third vertex has arcs */
  gpu_is_cpu(&a, 1, "two of three vertices isolated");
  arcs_free(&a);
  arcs none = {50, NULL, NULL, 0, 0};
  arc(&none, 0, 0); /* a self-loop, dropped: the graph has no arc */
  gpu_is_cpu(&none, 1, "no arcs");
  arcs_free(&none);
}

Test(gpu_motifs_directed, about_1e5_arcs, .timeout = 600) {
  arcs a = {20000, NULL, NULL, 0, 0};
  random_arcs(&a, 80000, 0.3, 1, 2026);
  cr_assert(a.m > 90000, "%llu arcs", (unsigned long long)a.m);
  gpu_is_cpu(&a, 1, "random, 10^5 arcs");
  warpmatch_context *ctx = NULL;
  cr_assert_eq(warpmatch_context_create(&ctx), WARPMATCH_OK);
  warpmatch_graph *g = graph_of(ctx, &a);
  static warpmatch_directed_motif rows[WM_DIR_ROWS4];
  warpmatch_directed_motif_result r;
  counted(ctx, g, 4, WARPMATCH_DEVICE_GPU, WARPMATCH_METHOD_AUTO, 0, 1, rows, &r, "10^5 arcs");
  cr_assert(r.kernel_ms > 0, "a kernel over 10^5 arcs took %f ms", r.kernel_ms);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
  arcs_free(&a);
}

/* Size 4's enumeration is the CPU's: asked for on the GPU it runs there,
 * says so, and agrees with the GPU's paths. */
Test(gpu_motifs_directed, enumeration_stays_on_the_cpu) {
  arcs a = {80, NULL, NULL, 0, 0};
  random_arcs(&a, 600, 0.5, 1, 11);
  warpmatch_context *ctx = NULL;
  cr_assert_eq(warpmatch_context_create(&ctx), WARPMATCH_OK);
  warpmatch_graph *g = graph_of(ctx, &a);
  static warpmatch_directed_motif esu[WM_DIR_ROWS4], gpu[WM_DIR_ROWS4];
  warpmatch_directed_motif_result re, rg;
  counted(ctx, g, 4, WARPMATCH_DEVICE_GPU, WARPMATCH_METHOD_ENUMERATE, 1, 1, esu, &re, "enumerate");
  cr_assert_eq(re.device, WARPMATCH_DEVICE_CPU);
  cr_assert_eq(re.kernel_ms, 0);
  cr_assert(strstr(re.how, "CPU: ") && strstr(re.how, "ESU"), "%s", re.how);
  counted(ctx, g, 4, WARPMATCH_DEVICE_GPU, WARPMATCH_METHOD_FORMULA, 1, 1, gpu, &rg, "paths");
  same_rows(esu, gpu, rg.classes, 4, "random n=80", "the GPU's paths against ESU");
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
  arcs_free(&a);
}

/* Every device word starts near 2^64 (the test hook): the carries into
 * the high words and the host's sum of them give the same rows. */
Test(gpu_motifs_directed, carries_past_2_64) {
  arcs a = {0, NULL, NULL, 0, 0};
  hub_graph(&a, 9);
  cr_assert_eq(setenv("WM_TEST_COUNT_START", "18446744073709551000", 1), 0); /* 2^64 - 616 */
  gpu_is_cpu(&a, wm_gpu_count() >= 2 ? 2 : 1, "hub, words from 2^64 - 616");
  unsetenv("WM_TEST_COUNT_START");
  arcs_free(&a);
}

Test(gpu_motifs_directed, several_gpus) {
  if (wm_gpu_count() < 2) cr_skip_test("one GPU on this host: the deal over two is not tried");
  arcs a = {0, NULL, NULL, 0, 0};
  hub_graph(&a, 3);
  gpu_is_cpu(&a, 2, "hub over two GPUs");
  arcs_free(&a);
  arcs b = {3000, NULL, NULL, 0, 0};
  random_arcs(&b, 30000, 0.3, 1, 8);
  gpu_is_cpu(&b, wm_gpu_count() >= 3 ? 3 : 2, "random over the GPUs");
  arcs_free(&b);
}

/* ---- the CLI ----------------------------------------------------------- */

/* The JSON from "motifs" up to "seconds": the rows and their total. */
static char *rows_of(const char *json) {
  const char *from = strstr(json, "\"motifs\":"), *to = strstr(json, "\"seconds\":");
  cr_assert(from && to && from < to, "%s", json);
  return strndup(from, (size_t)(to - from));
}

Test(gpu_motifs_directed, cli_gpu_json_is_cpu_json) {
  arcs a = {0, NULL, NULL, 0, 0};
  hub_graph(&a, 21);
  size_t len = 0, cap = 64 + a.m * 24;
  char *text = malloc(cap);
  cr_assert(text);
  len += (size_t)snprintf(text, cap, "# directed\n");
  for (uint64_t i = 0; i < a.m; i++)
    if (a.src[i] != a.dst[i]) len += (size_t)snprintf(text + len, cap - len, "%u %u\n", a.src[i], a.dst[i]);
  wm_test_files f;
  wm_test_graph_file(&f, text);
  for (unsigned k = 3; k <= 4; k++)
    for (int all = 0; all < 2; all++) {
      const char *extra = all ? "--all-classes" : "";
      char *cpu, *gpu, *err;
      int rc = wm_test_run(&cpu, &err, "motifs %s --directed --size %u %s --json --device cpu --no-cache", f.graph, k,
                           extra);
      cr_assert_eq(rc, 0, "%s", err);
      free(err);
      rc = wm_test_run(&gpu, &err, "motifs %s --directed --size %u %s --json --device gpu --no-cache", f.graph, k,
                       extra);
      cr_assert_eq(rc, 0, "%s", err);
      free(err);
      cr_assert(strstr(gpu, "\"device\":\"gpu\"") && strstr(gpu, "\"kernel_ms\":"), "%s", gpu);
      cr_assert(strstr(cpu, "\"device\":\"cpu\"") && !strstr(cpu, "\"kernel_ms\":"), "%s", cpu);
      char *rc_rows = rows_of(cpu), *rg_rows = rows_of(gpu);
      cr_assert_str_eq(rg_rows, rc_rows, "size %u %s: the GPU's JSON rows differ", k, extra);
      free(rc_rows), free(rg_rows), free(cpu), free(gpu);
    }
  /* the table names the GPU and its kernels' time; enumeration over GPUs is refused (exit 2) */
  char *out, *err;
  cr_assert_eq(wm_test_run(&out, &err, "motifs %s --directed --size 4 --device gpu --no-cache", f.graph), 0, "%s",
               err);
  cr_assert(strstr(out, "\nkernels: ") && strstr(out, "\nmethod: GPU: "), "%s", out);
  free(out), free(err);
  cr_assert_eq(wm_test_run(&out, &err, "motifs %s --directed --size 4 --device gpu --gpus 2 --method enumerate "
                                       "--no-cache", f.graph), 2, "%s", err);
  cr_assert(strstr(err, "counts size 4 on the CPU") && !out[0], "%s", err);
  free(out), free(err);
  wm_test_rmdir(f.dir);
  free(text);
  arcs_free(&a);
}
