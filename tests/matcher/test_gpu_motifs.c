/* The motif aggregates on the GPU against the CPU's (their oracle), sum by
 * sum, on random graphs, hubs far above every buffer, a star, a clique and
 * facebook, with the warps the device holds and with four (every warp then
 * takes many tops, and the pair lists come in many chunks), on one GPU and
 * where present on two, and split between processes by windows; and the
 * GPU's motif table against the enumeration, whose classes carry past
 * 2^64 (under the test hook WM_TEST_COUNT_START). */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "matcher.h"
#include "motif_sums.h"
#include "randomize.h"
#include "testutil.h"

/* Processes sharing the passes (policy.share), run one after another by
 * wm_test_deal, each taking every procs-th window of each pass: their
 * sums must add up to the one-process sums (want), with the defaults and
 * with four warps and the pair lists in chunks. */
static void dealt_sums(const wm_graph *sorted, unsigned k, const wm_motif_sums *want, const char *what) {
  const wm_motif_gpu_policy base[] = {{0, 0, 0, 0, 0, NULL, 0, NULL}, {4, 1000, 0, 0, 0, NULL, 0, NULL}};
  for (int b = 0; b < 2; b++)
    for (int procs = 2; procs <= 3; procs++) {
      wm_i128 total[WM_SUM_COUNT];
      memset(total, 0, sizeof total);
      for (int p = 0; p < procs; p++) {
        wm_test_deal deal;
        wm_test_deal_init(&deal, procs, p);
        wm_motif_gpu_policy pol = base[b];
        pol.share = &deal.share;
        wm_motif_sums part;
        double ms;
        wm_error err;
        cr_assert_eq(wm_motif_sums_gpu(sorted, k, &pol, &part, &ms, &err), WM_OK, "%s k=%u, process %d of %d: %s",
                     what, k, p, procs, err.msg);
        for (int i = 0; i < WM_SUM_COUNT; i++) total[i] += part.s[i];
      }
      for (int i = 0; i < WM_SUM_COUNT; i++)
        cr_assert(total[i] == want->s[i], "%s k=%u, %d processes (policy %d) sum %d: %lld, one process %lld", what,
                  k, procs, b, i, (long long)total[i], (long long)want->s[i]);
    }
}

static void same_sums(const wm_graph *g, const char *what) {
  wm_graph *sorted = wm_test_by_degree(g);
  wm_error err;
  wm_gpu_graph *kept = NULL;
  const int kept_gpus = wm_gpu_count() >= 2 ? 2 : 1;
  cr_assert_eq(wm_gpu_graph_create(sorted, kept_gpus, &kept, &err), WM_OK, "%s", err.msg);
  for (unsigned k = 4; k <= 5; k++) {
    wm_motif_sums cpu[2], gpu;
    for (int skip = 0; skip < 2; skip++)
      cr_assert_eq(wm_motif_sums_cpu(sorted, k, 2, skip, &cpu[skip], &err), WM_OK, "%s", err.msg);
    cr_assert(k == 5 || cpu[1].s[WM_SUM_K4X4] == 0, "%s: size 4 skipped its 4-cliques", what);
    /* the defaults; four warps with lists in chunks of about a thousand
     * entries; scratch for about 40 warps of the widest layout, so that each
     * kernel lays out its own arrays over its own number of warps; every top
     * of more than 64 paths (then 1) swept by a block, with the lists in
     * chunks (then whole); the defaults (twice: the second call takes the
     * scratch the first left with the graph, uncleared) and the tight
     * scratch with the graph kept on the GPUs, whose pools hand each call
     * the blocks the last one left (every size and policy of this graph
     * reuses them); size 4's
     * 4-cliques left out under two of them, as the CPU's */
    const uint64_t n = sorted->n ? sorted->n : 1;
    const wm_motif_gpu_policy policies[] = {{0, 0, 0, 0, 0, NULL, 0, NULL},
                                            {4, 1000, 0, 0, 0, NULL, 1, NULL},
                                            {0, 0, 40 * (5 * n + 3 * (n + 1)), 0, 0, NULL, 0, NULL},
                                            {0, 1000, 0, 0, 64, NULL, 0, NULL},
                                            {0, 0, 0, 0, 1, NULL, 0, NULL},
                                            {0, 0, 0, 0, 0, kept, 0, NULL},
                                            {0, 0, 0, 0, 0, kept, 0, NULL},
                                            {0, 0, 40 * (5 * n + 3 * (n + 1)), kept_gpus, 0, kept, 0, NULL},
                                            {0, 0, 0, 2, 0, NULL, 0, NULL},
                                            {4, 1000, 0, 2, 0, NULL, 1, NULL},
                                            {0, 0, 40 * (5 * n + 3 * (n + 1)), 2, 0, NULL, 0, NULL}};
    /* the last three over two GPUs, where the host has them (gpu_motifs
     * several_gpus is the case that reports Skipped without) */
    const unsigned np = wm_gpu_count() >= 2 ? 11 : 8;
    for (unsigned p = 0; p < np; p++) {
      double ms;
      cr_assert_eq(wm_motif_sums_gpu(sorted, k, &policies[p], &gpu, &ms, &err), WM_OK, "%s: %s", what, err.msg);
      if (policies[p].gpus == 2)
        cr_assert(gpu.gpus == 2 || (gpu.gpus == 1 && gpu.gpu_note[0]), "%s: 2 GPUs asked, %d ran (%s)", what,
                  gpu.gpus, gpu.gpu_note);
      const wm_motif_sums *want = &cpu[policies[p].skip_k4];
      cr_assert_eq(gpu.k4_counted, want->k4_counted, "%s k=%u policy %u: 4-cliques counted", what, k, p);
      for (int i = 0; i < WM_SUM_COUNT; i++)
        cr_assert(gpu.s[i] == want->s[i], "%s k=%u policy %u sum %d: gpu %lld, cpu %lld", what, k, p, i,
                  (long long)gpu.s[i], (long long)want->s[i]);
    }
    dealt_sums(sorted, k, &cpu[0], what);
  }
  wm_gpu_graph_destroy(kept);
  wm_graph_destroy(sorted);
}

Test(gpu_motifs, sums_on_random_graphs, .timeout = 600) {
  same_sums(wm_test_er(60, 0.3, 1), "er-60");
  same_sums(wm_test_er(400, 0.03, 2), "er-400");
  same_sums(wm_test_powerlaw(500, 8, 3, 0.3, 3), "powerlaw-500");
  same_sums(wm_test_powerlaw(2000, 6, 6, 0.1, 4), "powerlaw-2000");
}

/* One pair list whose members reach more vertices above its top than
 * three rows of the largest degree hold (xs in a tight scratch): 108
 * vertices Y of degree 31 (a circulant of degree 30, and one member each),
 * the top u of degree 30 (four members and 26 leaves), the members of
 * degree 29 (u, w and 27 of Y each), and w of degree 4. */
static void same_sums_wide_list(void) {
  const uint32_t ny = 108, u = ny, s0 = ny + 1, w = ny + 5, leaf0 = ny + 6, n = leaf0 + 26;
  uint32_t *src = malloc(4096 * 4), *dst = malloc(4096 * 4);
  uint64_t m = 0;
  for (uint32_t y = 0; y < ny; y++)
    for (uint32_t d = 1; d <= 15; d++) src[m] = y, dst[m++] = (y + d) % ny;
  for (uint32_t i = 0; i < 4; i++) {
    src[m] = u, dst[m++] = s0 + i;
    src[m] = w, dst[m++] = s0 + i;
    for (uint32_t j = 0; j < 27; j++) src[m] = s0 + i, dst[m++] = 27 * i + j;
  }
  for (uint32_t l = leaf0; l < n; l++) src[m] = u, dst[m++] = l;
  wm_graph *g = wm_test_graph_of_arcs(n, src, dst, m);
  cr_assert_eq(wm_graph_max_degree(g), 31, "the wide list's graph: largest degree %llu",
               (unsigned long long)wm_graph_max_degree(g));
  same_sums(g, "a list wider than its rows");
  wm_graph_destroy(g);
}

/* A hub adjacent to 6,000 of 6,500 vertices over a sparse random graph, a
 * 100,000-leaf star, K_60, and a graph of mostly isolated vertices. */
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
  /* 300 vertices with edges, 2,700 without: the slices leave the latter
   * out, so an entry indexed past the last vertex with an edge would land
   * in the next warp's slice */
  src = malloc(3000 * 4), dst = malloc(3000 * 4), m = 0;
  for (uint32_t i = 0; i < 3000; i++) {
    src[m] = (uint32_t)(wm_test_rand(&seed) % 300);
    dst[m++] = (uint32_t)(wm_test_rand(&seed) % (i < 600 ? 20 : 300));
  }
  wm_graph *sparse = wm_test_graph_of_arcs(3000, src, dst, m);
  same_sums(sparse, "300 of 3,000 with edges");
  wm_graph_destroy(sparse);
  same_sums_wide_list();
}

/* facebook: the sums, then the 4-motif table by formula on the GPU against
 * the enumeration on the GPU, and the 5-motif table against the CPU's
 * formula. */
Test(gpu_motifs, facebook, .timeout = 900) {
  wm_graph *g = wm_test_load_real("facebook_combined.txt");
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

/* motifs --gpus 2 (and every GPU): the 4- and 5-motif tables by formula
 * equal one GPU's and the CPU's, on a graph with a big hub and on a
 * power-law graph, with the pair lists in many chunks of tops (the chunks
 * handed out over the devices); the enumeration over 2 GPUs equals the
 * formula.  Skipped (not passed) with fewer than two GPUs. */
static void motifs_on(const wm_graph *g, unsigned k, int use_gpu, int gpus, int method, wm_u128 *out,
                      const char *what) {
  wm_match_options mo;
  wm_match_options_init(&mo);
  mo.gpus = gpus;
  mo.motif_method = method;
  mo.gpu_set_capacity = 1000; /* the pair lists' room: many chunks of tops */
  wm_match_result sum;
  wm_error err;
  cr_assert_eq(wm_motifs(g, k, use_gpu, &mo, out, NULL, &sum, &err), WM_OK, "%s, size %u, %d GPUs: %s", what, k,
               gpus, err.msg);
  if (use_gpu && gpus > 1 && method == WM_MOTIF_FORMULA)
    cr_assert(strstr(sum.launch, "GPUs (handed out dynamically)") || strstr(sum.launch, "1 GPU of"),
              "%s, size %u on %d GPUs: neither a dynamic hand-out nor a reason: %s", what, k, gpus, sum.launch);
}

Test(gpu_motifs, several_gpus, .timeout = 900) {
  int all = wm_gpu_count();
  if (all < 2) cr_skip_test("%d GPU(s) here: the multi-GPU cases need 2", all);
  if (all > 16) all = 16;
  const uint32_t n = 6500;
  uint64_t cap = 6000 + 4 * n, m = 0, seed = 19;
  uint32_t *src = malloc(cap * 4), *dst = malloc(cap * 4);
  for (uint32_t v = 1; v <= 6000; v++) src[m] = 0, dst[m++] = v;
  for (uint32_t i = 0; i < 3 * n; i++) {
    src[m] = 1 + (uint32_t)(wm_test_rand(&seed) % (n - 1));
    dst[m++] = 1 + (uint32_t)(wm_test_rand(&seed) % (n - 1));
  }
  wm_graph *raw[2] = {wm_test_graph_of_arcs(n, src, dst, m), wm_test_powerlaw(2000, 6, 6, 0.1, 4)};
  wm_graph *gs[2] = {wm_test_by_degree(raw[0]), wm_test_by_degree(raw[1])};
  wm_graph_destroy(raw[0]);
  wm_graph_destroy(raw[1]);
  const char *names[2] = {"hub 6500", "powerlaw-2000"};
  for (int gi = 0; gi < 2; gi++)
    for (unsigned k = 4; k <= 5; k++) {
      const unsigned np = k == 4 ? 6 : 21;
      wm_u128 cpu[21], one[21], two[21];
      motifs_on(gs[gi], k, 0, 1, WM_MOTIF_FORMULA, cpu, names[gi]);
      motifs_on(gs[gi], k, 1, 1, WM_MOTIF_FORMULA, one, names[gi]);
      for (unsigned i = 0; i < np; i++)
        cr_assert(one[i] == cpu[i], "%s %u-motif %u: 1 GPU %llu, cpu %llu", names[gi], k, i,
                  (unsigned long long)one[i], (unsigned long long)cpu[i]);
      const int counts[] = {2, all};
      for (int c = 0; c < 2 && !(c == 1 && all == 2); c++) {
        motifs_on(gs[gi], k, 1, counts[c], WM_MOTIF_FORMULA, two, names[gi]);
        for (unsigned i = 0; i < np; i++)
          cr_assert(two[i] == one[i], "%s %u-motif %u: %d GPUs %llu, 1 GPU %llu", names[gi], k, i, counts[c],
                    (unsigned long long)two[i], (unsigned long long)one[i]);
      }
      if (k == 4) {
        motifs_on(gs[gi], k, 1, 2, WM_MOTIF_ENUMERATE, two, names[gi]);
        for (unsigned i = 0; i < np; i++)
          cr_assert(two[i] == one[i], "%s 4-motif %u: enumerated on 2 GPUs %llu, formula %llu", names[gi], i,
                    (unsigned long long)two[i], (unsigned long long)one[i]);
      }
    }
  for (int gi = 0; gi < 2; gi++) wm_graph_destroy(gs[gi]);
}

/* A process sharing the GPU passes (here the only one, taking every
 * window) above the arcs where size 4 leaves its 4-cliques to a plan: the
 * plan's count (the clique kernels' deal over the processes' GPUs) and the
 * windowed aggregates give the CPU's table. */
Test(gpu_motifs, shared_passes_and_4_clique_plan, .timeout = 600) {
  wm_graph *g = wm_test_powerlaw(2000, 6, 6, 0.1, 4);
  wm_test_deal deal;
  wm_test_deal_init(&deal, 1, 0);
  wm_match_options mo;
  wm_match_options_init(&mo);
  mo.motif_method = WM_MOTIF_FORMULA;
  mo.motif_k4_arcs = 1; /* every graph is "large" */
  mo.share = &deal.share;
  wm_u128 gpu[6], cpu[6];
  wm_match_result sum;
  wm_error err;
  cr_assert_eq(wm_motifs(g, 4, 1, &mo, gpu, NULL, &sum, &err), WM_OK, "%s", err.msg);
  cr_assert(strstr(sum.launch, "(left to a plan)") && strstr(sum.launch, "in each of 1 processes"),
            "the 4-cliques by a plan, the aggregates shared: %s", sum.launch);
  mo.share = NULL;
  cr_assert_eq(wm_motifs(g, 4, 0, &mo, cpu, NULL, NULL, &err), WM_OK, "%s", err.msg);
  for (int i = 0; i < 6; i++)
    cr_assert(gpu[i] == cpu[i], "4-motif %d: shared GPU passes %llu, cpu %llu", i, (unsigned long long)gpu[i],
              (unsigned long long)cpu[i]);
  wm_graph_destroy(g);
}

/* The GPU's enumerated classes carry past 2^64: under the test hook
 * (exact_count.h) every plan's device count starts at 2^64 - 5 (the
 * stack kernel, and the clique kernels for the 4- and 5-cliques), so each
 * class is that plus the CPU formula's count. */
Test(gpu_motifs, enumerated_classes_past_2_64, .timeout = 600) {
  wm_graph *g = wm_test_powerlaw(300, 6, 3, 0.2, 23);
  const uint64_t start = UINT64_MAX - 4;
  for (unsigned k = 3; k <= 5; k++) {
    wm_u128 cpu[21], gpu[21];
    cr_assert_eq(unsetenv("WM_TEST_COUNT_START"), 0);
    motifs_on(g, k, 0, 1, WM_MOTIF_FORMULA, cpu, "powerlaw-300");
    cr_assert_eq(setenv("WM_TEST_COUNT_START", "18446744073709551611", 1), 0);
    motifs_on(g, k, 1, 1, WM_MOTIF_ENUMERATE, gpu, "powerlaw-300");
    const unsigned np = k == 3 ? 2 : k == 4 ? 6 : 21;
    char a[WM_I128_CHARS], b[WM_I128_CHARS];
    for (unsigned i = 0; i < np; i++)
      cr_assert(gpu[i] == start + cpu[i], "%u-motif %u: GPU enumerated %s, want %s", k, i, wm_u128_str(gpu[i], a),
                wm_u128_str(start + cpu[i], b));
  }
  cr_assert_eq(unsetenv("WM_TEST_COUNT_START"), 0);
  wm_graph_destroy(g);
}

/* One count on a given GPU (wm_match_options.gpu_first, the thread's
 * current device by wm_gpu_select), as significance's per-GPU pipelines
 * run them: sizes 3-5 by formula (the triangle and 4-clique plans on the
 * dedicated kernels, k4_arcs 1 forcing the plan) and by enumeration (the
 * stack kernel) give the CPU's table on the last GPU, which on a host of
 * two or more is not device 0; a GPU past the host's is a device error. */
Test(gpu_motifs, one_count_on_a_given_gpu, .timeout = 600) {
  const int last = wm_gpu_count() - 1;
  if (last < 0) cr_skip_test("no GPU");
  wm_graph *raw = wm_test_powerlaw(1500, 6, 5, 0.2, 8);
  wm_graph *g = wm_test_by_degree(raw);
  wm_graph_destroy(raw);
  wm_error err;
  for (unsigned k = 3; k <= 5; k++)
    for (int method = WM_MOTIF_FORMULA; method <= WM_MOTIF_ENUMERATE; method++)
      for (int plan_k4 = 0; plan_k4 <= (k == 4 && method == WM_MOTIF_FORMULA); plan_k4++) {
        if (k == 5 && method == WM_MOTIF_ENUMERATE) continue; /* 21 plans: the formula covers size 5 */
        wm_u128 cpu[21], gpu[21];
        wm_match_options mo;
        wm_match_options_init(&mo);
        mo.motif_method = method;
        if (plan_k4) mo.motif_k4_arcs = 1;
        cr_assert_eq(wm_motifs(g, k, 0, &mo, cpu, NULL, NULL, &err), WM_OK, "%s", err.msg);
        cr_assert_eq(wm_gpu_select(last, &err), WM_OK, "%s", err.msg);
        mo.gpu_first = last;
        cr_assert_eq(wm_motifs(g, k, 1, &mo, gpu, NULL, NULL, &err), WM_OK, "size %u method %d on GPU %d: %s", k,
                     method, last, err.msg);
        cr_assert_eq(wm_gpu_select(0, &err), WM_OK, "%s", err.msg);
        const unsigned np = k == 3 ? 2 : k == 4 ? 6 : 21;
        for (unsigned i = 0; i < np; i++)
          cr_assert(gpu[i] == cpu[i], "size %u method %d%s class %u on GPU %d: %llu, cpu %llu", k, method,
                    plan_k4 ? " (4-clique plan)" : "", i, last, (unsigned long long)gpu[i],
                    (unsigned long long)cpu[i]);
      }
  wm_match_options mo;
  wm_match_options_init(&mo);
  mo.gpu_first = last + 1;
  wm_u128 out[2];
  cr_assert_eq(wm_motifs(g, 3, 1, &mo, out, NULL, NULL, &err), WM_EDEVICE);
  cr_assert(strstr(err.msg, "asked for"), "%s", err.msg);
  cr_assert_eq(wm_gpu_select(last + 1, &err), WM_EDEVICE);
  cr_assert(strstr(err.msg, "this host has"), "%s", err.msg);
  wm_graph_destroy(g);
}

/* A GPU graph on one device (wm_gpu_graph_create_on), reloaded with graph
 * after graph of the same vertices and arcs (degree-preserving random
 * graphs, as significance's lanes reload theirs), serves each count as its
 * own upload would: every table is the CPU's.  Another size is refused. */
Test(gpu_motifs, reloaded_gpu_graph_counts_each_graph, .timeout = 600) {
  const int last = wm_gpu_count() - 1;
  if (last < 0) cr_skip_test("no GPU");
  wm_graph *g = wm_test_powerlaw(1200, 6, 4, 0.2, 31);
  wm_gpu_graph *gg = NULL;
  wm_error err;
  for (uint64_t i = 0; i < 3; i++) {
    wm_graph *r = NULL, *sorted = NULL;
    wm_randomize_stats st;
    const wm_randomize_options ro = {.method = WM_RANDOMIZE_SWITCH, .seed = 4, .index = i, .swaps_per_edge = 10};
    cr_assert_eq(wm_randomize(g, &ro, &r, &st, &err), WM_OK, "%s", err.msg);
    cr_assert_eq(wm_graph_relabel_by_degree(r, &sorted, &err), WM_OK, "%s", err.msg);
    if (!gg) cr_assert_eq(wm_gpu_graph_create_on(sorted, last, &gg, &err), WM_OK, "%s", err.msg);
    else cr_assert_eq(wm_gpu_graph_reload(gg, sorted, &err), WM_OK, "%s", err.msg);
    for (unsigned k = 3; k <= 5; k++) {
      wm_u128 cpu[21], gpu[21];
      wm_match_options mo;
      wm_match_options_init(&mo);
      cr_assert_eq(wm_motifs(sorted, k, 0, &mo, cpu, NULL, NULL, &err), WM_OK, "%s", err.msg);
      cr_assert_eq(wm_gpu_select(last, &err), WM_OK, "%s", err.msg);
      mo.gpu_first = last, mo.gpu_graph = gg;
      cr_assert_eq(wm_motifs(sorted, k, 1, &mo, gpu, NULL, NULL, &err), WM_OK, "graph %llu size %u: %s",
                   (unsigned long long)i, k, err.msg);
      cr_assert_eq(wm_gpu_select(0, &err), WM_OK, "%s", err.msg);
      const unsigned np = k == 3 ? 2 : k == 4 ? 6 : 21;
      for (unsigned c = 0; c < np; c++)
        cr_assert(gpu[c] == cpu[c], "graph %llu size %u class %u: reloaded GPU graph %llu, cpu %llu",
                  (unsigned long long)i, k, c, (unsigned long long)gpu[c], (unsigned long long)cpu[c]);
    }
    wm_graph_destroy(r), wm_graph_destroy(sorted);
  }
  wm_graph *other = wm_test_powerlaw(500, 6, 4, 0.2, 32);
  cr_assert_eq(wm_gpu_graph_reload(gg, other, &err), WM_EUSAGE);
  cr_assert(strstr(err.msg, "reloaded with"), "%s", err.msg);
  wm_graph_destroy(other);
  wm_gpu_graph_destroy(gg);
  wm_graph_destroy(g);
}
