/* Checks the GPU triangle, clique and diamond kernels (matcher/dag/gpu_dag.h)
 * on the CPU emulator against a brute-force count, for k = 3..DAG_EMU_KMAX and
 * diamonds, on graphs built here (a dense random graph, a sparse one with a
 * hub on the top id and a tight cluster) and on any edge-list files given,
 * each in file order and renumbered by degree.  Exit 0 when every count
 * matches.  Under WM_TEST_COUNT_START=N (exact_count.h's test hook) the
 * kernels' device count starts at N, and must come back N more than brute
 * force: with N near 2^64 that checks the carry into the count's high word. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vector>

#include "datasets.h"
#include "emu_graphs.h"
#include "emu_stop_share.h"
#include "gpu_dag.h"
#include "matcher.h"

/* Sparse random graph, a 14-vertex near-clique, and id n-1 adjacent to all. */
static wm_graph *top_hub(uint32_t n, uint64_t seed) {
  std::vector<uint32_t> s, d;
  for (uint32_t v = 0; v + 1 < n; v++) {
    s.push_back(v), d.push_back(n - 1);
    for (int e = 0; e < 4; e++) s.push_back(v), d.push_back((uint32_t)(lcg(&seed) % (n - 1)));
  }
  for (uint32_t a = 0; a < 14; a++)
    for (uint32_t b = a + 1; b < 14; b++)
      if (lcg(&seed) % 10) s.push_back(a * 23), d.push_back(b * 23);
  return from_pairs(s, d, n);
}

/* k-cliques as increasing id sequences: each vertex, then lower neighbours. */
static uint64_t cliques_in(const wm_graph *g, const std::vector<uint32_t> &cand, unsigned need) {
  if (need == 0) return 1;
  uint64_t c = 0;
  for (size_t i = 0; i < cand.size(); i++) {
    std::vector<uint32_t> next;
    for (size_t j = 0; j < i; j++)
      for (uint64_t e = g->offsets[cand[i]]; e < g->offsets[cand[i] + 1]; e++)
        if (g->adj[e] == cand[j]) {
          next.push_back(cand[j]);
          break;
        }
    c += cliques_in(g, next, need - 1);
  }
  return c;
}

static uint64_t brute(const wm_graph *g, unsigned k) {
  uint64_t c = 0;
  for (uint32_t v = 0; v < g->n; v++) {
    std::vector<uint32_t> lower;
    for (uint64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++)
      if (g->adj[e] < v) lower.push_back(g->adj[e]);
    c += cliques_in(g, lower, k - 1);
  }
  return c;
}

/* Diamonds as subgraphs: pairs of triangles on a common edge, t(e) by
 * merging the two rows. */
static uint64_t brute_diamonds(const wm_graph *g) {
  uint64_t c = 0;
  for (uint32_t v = 0; v < g->n; v++)
    for (uint64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++) {
      uint32_t u = g->adj[e];
      if (u >= v) continue;
      uint64_t i = g->offsets[u], j = g->offsets[v], t = 0;
      while (i < g->offsets[u + 1] && j < g->offsets[v + 1]) {
        if (g->adj[i] == g->adj[j]) t++;
        if (g->adj[i] <= g->adj[j])
          i++;
        else
          j++;
      }
      c += t * (t - 1) / 2;
    }
  return c;
}

/* DAG_EMU_PROCS=P: P processes sharing the work (o.share), run one after
 * another, each its own place in the static deal over every process's
 * devices; their counts are added. */
struct deal {
  wm_share share;
};
static unsigned deal_loops(void *, unsigned) { return 0; }
static uint64_t deal_grab(void *, unsigned, uint64_t) { return UINT64_MAX; } /* the deal takes no windows */
static int deal_sum_u32(void *, uint32_t *, uint64_t) { return 0; }
static int deal_sum_u64(void *, uint64_t *, uint64_t) { return 0; }
static int deal_sum_i128(void *, wm_i128 *, unsigned, int *) { return 0; }

static int run_dag(const wm_graph *g, unsigned k, bool diamonds, bool induced, wm_match_options o,
                   wm_match_result *res, int *declined, wm_error *err) {
  const int procs = getenv("DAG_EMU_PROCS") ? atoi(getenv("DAG_EMU_PROCS")) : 1;
  wm_u128 total = 0;
  for (int p = 0; p < procs; p++) {
    deal d = {{&d, procs, p, deal_loops, deal_grab, deal_sum_u32, deal_sum_u64, deal_sum_i128}};
    if (procs > 1) o.share = &d.share;
    memset(res, 0, sizeof *res);
    /* the engine's row for the shape (dag_kernels.def) */
    const int row = diamonds ? wm_dag_row_of(4, 5) : wm_dag_row_of(k, k * (k - 1) / 2);
    if (row < 0) {
      wm_fail(err, WM_EUSAGE, "no dedicated kernel row for %s", diamonds ? "diamonds" : "this clique");
      return 1;
    }
    if (wm_match_gpu_dedicated((unsigned)row, g, diamonds ? 4 : k, induced, &o, res, declined, err)) return 1;
    if (*declined) return 0;
    total += res->count;
  }
  res->count = total;
  return 0;
}

/* k = 3..kmax cliques, then diamonds, edge- and vertex-induced. */
static int check(const char *name, const wm_graph *g0, unsigned kmax) {
  int bad = 0;
  for (int relabel = 0; relabel < 2; relabel++) {
    wm_graph *r = NULL;
    wm_error err;
    if (relabel && wm_graph_relabel_by_degree(g0, &r, &err)) {
      fprintf(stderr, "dag-emu: %s\n", err.msg);
      exit(2);
    }
    const wm_graph *g = relabel ? r : g0;
    for (unsigned k = 3; k <= kmax + 2; k++) {
      const bool diamonds = k > kmax, induced = k == kmax + 2;
      wm_match_options o;
      wm_match_options_init(&o);
      o.trials = 2; /* a warm-up and two runs that must agree */
      o.gpus = getenv("DAG_EMU_GPUS") ? atoi(getenv("DAG_EMU_GPUS")) : 1;
      wm_match_result res;
      memset(&res, 0, sizeof res);
      int declined = 0;
      if (run_dag(g, k, diamonds, induced, o, &res, &declined, &err)) {
        printf("%s: %s\n", name, err.msg);
        bad++;
        continue;
      }
      uint64_t want = diamonds ? brute_diamonds(g) - (induced ? 6 * brute(g, 4) : 0) : brute(g, k);
      /* WM_TEST_COUNT_START (exact_count.h): the kernels count from there, carrying past 2^64 */
      res.count -= wm_count_start();
      const char *verdict = declined ? "declined" : res.count == want ? "ok" : "MISMATCH";
      const char *b = strstr(res.launch, "heavy items, "); /* "..., N batch(es), pool ..." */
      int batches = 0;
      if (b) sscanf(b + strlen("heavy items, "), "%d", &batches);
      char what[24];
      snprintf(what, sizeof what, induced ? "induced diamonds" : diamonds ? "diamonds" : "k=%u", k);
      printf("%-14s %-10s %-16s  kernel %llu  brute %llu  %s", name, relabel ? "by degree" : "file order", what,
             (unsigned long long)res.count, (unsigned long long)want, verdict);
      if (k > 3 && !diamonds && !declined) printf("  (%d pool batches)", batches);
      if (diamonds && strstr(res.launch, "device memory")) printf("  (bitmaps in device memory)");
      if ((o.gpus > 1 || getenv("DAG_EMU_PROCS")) && !declined)
        printf("  (%s)", strstr(res.launch, "processes") ? "processes" : strstr(res.launch, "dynamically") ? "dynamic" : "static");
      printf("\n");
      bad += !declined && res.count != want;
    }
    wm_graph_destroy(r);
  }
  return bad;
}

/* DAG_EMU_PROCS set: two processes sharing a count of k-cliques (the
 * triangle and clique kernels), process 1 interrupted before the call
 * (stop_at 0), at the sum that agrees on the buffers (2: at the warm-up)
 * and at the first timed trial's sum (4: at the second); every one must
 * end as emu_stop_share.h says. */
static int check_interrupts(const char *name, const wm_graph *g, const wm_match_options &base) {
  int bad = 0;
  for (unsigned k = 3; k <= 4; k++)
    for (unsigned stop_at : {0u, 2u, 4u}) {
      wm_monitor mon;
      stop_share sh(&mon, stop_at);
      int rc[2] = {0, 0}, declined[2] = {0, 0};
      wm_error err[2];
      memset(err, 0, sizeof err);
      for (int p = 1; p >= 0; p--) {
        wm_match_options o = base;
        o.share = &sh.p[p].share;
        wm_match_result res;
        memset(&res, 0, sizeof res);
        wm_monitor *prev = wm_monitor_enter(p ? &mon : NULL);
        rc[p] = wm_match_gpu_dedicated((unsigned)wm_dag_row_of(k, k * (k - 1) / 2), g, k, 0, &o, &res, &declined[p],
                                       &err[p]);
        wm_monitor_leave(prev);
      }
      const char *why = !rc[0] && !rc[1] && declined[0] && declined[1] ? NULL : sh.verdict(rc, err[0].msg);
      printf("%-14s k=%u, process 1 of 2 interrupted at its share call %u: %s\n", name, k, stop_at,
             why                      ? why
             : declined[0] && !rc[0] ? "declined by both (no trial to interrupt)"
                                      : "ok (both interrupted)");
      if (why) printf("  process 0: %s\n  process 1: %s\n", err[0].msg, err[1].msg);
      bad += why != NULL;
    }
  return bad;
}

int main(int argc, char **argv) {
  unsigned kmax = getenv("DAG_EMU_KMAX") ? (unsigned)atoi(getenv("DAG_EMU_KMAX")) : 6;
  int bad = 0;
  wm_graph *g = er(70, 500, 3);
  bad += check("er(70, 0.5)", g, kmax);
  if (getenv("DAG_EMU_PROCS") && atoi(getenv("DAG_EMU_PROCS")) > 1) {
    wm_match_options o;
    wm_match_options_init(&o);
    o.trials = 2;
    o.gpus = getenv("DAG_EMU_GPUS") ? atoi(getenv("DAG_EMU_GPUS")) : 1;
    bad += check_interrupts("er(70, 0.5)", g, o);
  }
  wm_graph_destroy(g);
  g = top_hub(400, 5);
  bad += check("top hub 400", g, kmax);
  wm_graph_destroy(g);
  g = top_hub(6000, 7); /* pivots past the real constants' bitmaps: hashed */
  bad += check("top hub 6000", g, 3); /* triangles and diamonds only: cliques gain nothing here */
  wm_graph_destroy(g);
  for (int i = 1; i < argc; i++) {
    g = load_given(argv[i], "dag-emu");
    bad += check(argv[i], g, kmax);
    wm_graph_destroy(g);
  }
  printf("%s\n", bad ? "dag-emu: MISMATCH" : "dag-emu: every count matches");
  return bad != 0;
}
