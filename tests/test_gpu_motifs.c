/* The motif aggregates on the GPU against the CPU's (their oracle), sum by
 * sum, on random graphs, hubs far above every buffer, a star, a clique and
 * facebook, with the warps the device holds and with four (every warp then
 * takes many tops, and the pair lists come in many chunks); and the GPU's
 * motif table against the enumeration. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "matcher.h"
#include "motif_sums.h"
#include "testutil.h"

static void same_sums(const wm_graph *g, const char *what) {
  wm_graph *sorted = wm_test_by_degree(g);
  for (unsigned k = 4; k <= 5; k++) {
    wm_motif_sums cpu, gpu;
    wm_error err;
    cr_assert_eq(wm_motif_sums_cpu(sorted, k, 2, &cpu, &err), WM_OK, "%s", err.msg);
    /* the defaults; four warps with lists in chunks of about a thousand
     * entries; scratch for about 40 warps of the widest layout, so that each
     * kernel lays out its own arrays over its own number of warps */
    const uint64_t n = sorted->n ? sorted->n : 1;
    const wm_motif_gpu_policy policies[] = {{0, 0, 0}, {4, 1000, 0}, {0, 0, 40 * (5 * n + 3 * (n + 1))}};
    for (unsigned p = 0; p < 3; p++) {
      double ms;
      cr_assert_eq(wm_motif_sums_gpu(sorted, k, &policies[p], &gpu, &ms, &err), WM_OK, "%s: %s", what, err.msg);
      for (int i = 0; i < WM_SUM_COUNT; i++)
        cr_assert(gpu.s[i] == cpu.s[i], "%s k=%u policy %u sum %d: gpu %lld, cpu %lld", what, k, p, i,
                  (long long)gpu.s[i], (long long)cpu.s[i]);
    }
  }
  wm_graph_destroy(sorted);
}

Test(gpu_motifs, sums_on_random_graphs, .timeout = 600) {
  same_sums(wm_test_er(60, 0.3, 1), "er-60");
  same_sums(wm_test_er(400, 0.03, 2), "er-400");
  same_sums(wm_test_powerlaw(500, 8, 3, 0.3, 3), "powerlaw-500");
  same_sums(wm_test_powerlaw(2000, 6, 6, 0.1, 4), "powerlaw-2000");
}

/* A hub adjacent to 6,000 of 6,500 vertices over a sparse random graph, a
 * 100,000-leaf star, and K_60. */
Test(gpu_motifs, sums_on_hubs_stars_cliques, .timeout = 600) {
  const uint32_t n = 6500;
  uint64_t cap = 6000 + 4 * n, m = 0, seed = 9;
  uint32_t *src = malloc(cap * 4), *dst = malloc(cap * 4);
  for (uint32_t v = 1; v <= 6000; v++) src[m] = 0, dst[m++] = v;
  for (uint32_t i = 0; i < 3 * n; i++) {
    src[m] = 1 + (uint32_t)(wm_test_rand(&seed) % (n - 1));
    dst[m++] = 1 + (uint32_t)(wm_test_rand(&seed) % (n - 1));
  }
  wm_graph *hub = wm_test_graph_of_arcs(n, src, dst, m);
  same_sums(hub, "hub");
  wm_graph_destroy(hub);
  const uint32_t leaves = 100000;
  src = malloc(leaves * 4), dst = malloc(leaves * 4);
  for (uint32_t i = 0; i < leaves; i++) src[i] = 0, dst[i] = i + 1;
  wm_graph *star = wm_test_graph_of_arcs(leaves + 1, src, dst, leaves);
  same_sums(star, "star");
  wm_graph_destroy(star);
  src = malloc(60 * 60 * 4), dst = malloc(60 * 60 * 4), m = 0;
  for (uint32_t a = 0; a < 60; a++)
    for (uint32_t b = a + 1; b < 60; b++) src[m] = a, dst[m++] = b;
  wm_graph *clique = wm_test_graph_of_arcs(60, src, dst, m);
  same_sums(clique, "K60");
  wm_graph_destroy(clique);
}

/* facebook: the sums, then the 4-motif table by formula on the GPU against
 * the enumeration on the GPU, and the 5-motif table against the CPU's
 * formula. */
Test(gpu_motifs, facebook, .timeout = 900) {
  wm_graph *g = wm_test_load_shared("facebook_combined.txt");
  same_sums(g, "facebook");
  wm_match_options mo;
  wm_match_options_init(&mo);
  wm_u128 f[21], e[21];
  wm_error err;
  mo.motif_method = WM_MOTIF_FORMULA;
  cr_assert_eq(wm_motifs(g, 4, 1, &mo, f, NULL, NULL, &err), WM_OK, "%s", err.msg);
  mo.motif_method = WM_MOTIF_ENUMERATE;
  cr_assert_eq(wm_motifs(g, 4, 1, &mo, e, NULL, NULL, &err), WM_OK, "%s", err.msg);
  for (int i = 0; i < 6; i++) cr_assert(f[i] == e[i], "4-motif %d: formula %llu, enumerated %llu", i,
                                        (unsigned long long)f[i], (unsigned long long)e[i]);
  mo.motif_method = WM_MOTIF_FORMULA;
  cr_assert_eq(wm_motifs(g, 5, 1, &mo, f, NULL, NULL, &err), WM_OK, "%s", err.msg);
  cr_assert_eq(wm_motifs(g, 5, 0, &mo, e, NULL, NULL, &err), WM_OK, "%s", err.msg);
  for (int i = 0; i < 21; i++) cr_assert(f[i] == e[i], "5-motif %d: gpu %llu, cpu %llu", i,
                                         (unsigned long long)f[i], (unsigned long long)e[i]);
  wm_graph_destroy(g);
}
