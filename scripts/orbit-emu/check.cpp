/* Checks the orbits' GPU aggregates (matcher/orbits/gpu_orbit_sums.cu,
 * sizes 3 and 4) and the 5-vertex orbits' GPU clique sums and 5-cycles
 * (gpu_orbit_cliques5.cu, gpu_orbit_cycles5.cu) on the CPU emulator against
 * their CPU oracles (wm_orbit_aggregates_cpu, wm_orbit_clique_sums_cpu,
 * wm_orbit_cycles5_from; the aggregates and the clique sums also with every
 * top and arc walked by a block), every vertex and arc exactly: small Erdos-Renyi
 * graphs, a power-law graph, hubs over a sparse graph, a star, K12, an
 * empty and a 2-vertex graph and any edge-list files given, each as built
 * (the GPU relabels and uploads) and renumbered by degree with the graph
 * kept on the device (the GPU reads gg as it is); the 5-cycles also from a
 * start near 2^64, where the largest count just fits and where it does not
 * (the error must be the CPU's, word for word); then the per-vertex walks
 * and the 5-vertex counts with every piece on the GPU (check_walks.cpp).
 * With EMU_DEVICES=N (N > 1) the 5-vertex pieces run over the N emulated
 * devices (their counters shared on device 0, or with EMU_P2P=0 dealt
 * statically: each device's share of the items, its sums added by the
 * host).  Prints a line per graph and check, the first mismatch with both
 * values; exit 0 when all match. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "datasets.h"
#include "device.h"
#include "emu_graphs.h"
#include "orbit_cliques5.h"
#include "orbit_cycles5.h"
#include "orbits.h"

/* The devices the 5-vertex pieces run over (EMU_DEVICES). */
int orbit_emu_gpus = 1;

/* gpu_check.h's trapping kernel (device/gpu_hold.cu, not built here): the
 * emulated devices do not fail. */
cudaError_t wm_gpu_fault_launch(cudaStream_t) { return cudaSuccess; }

/* Vertices 0 and 1 adjacent to every vertex, over ER(n, p_milli / 1000):
 * the top edge 1-0 has n - 2 triangles, and a 5-clique per triangle of the
 * rest. */
static wm_graph *two_hubs_over_er(uint32_t n, unsigned p_milli, uint64_t seed) {
  std::vector<uint32_t> s, d;
  for (uint32_t a = 0; a < n; a++)
    for (uint32_t b = a + 1; b < n; b++)
      if (a < 2 || lcg(&seed) % 1000 < p_milli) s.push_back(a), d.push_back(b);
  return from_pairs(s, d, n);
}

/* The first index where a and b differ, or -1. */
static long long first_diff(const uint64_t *a, const uint64_t *b, uint64_t len) {
  for (uint64_t i = 0; i < len; i++)
    if (a[i] != b[i]) return (long long)i;
  return -1;
}

struct sums {
  std::vector<uint64_t> w[6]; /* s61, s66, s70, s71, k5 (n), k4e (m) */
  wm_orbit_clique_sums s;
  sums(const wm_graph *g) {
    for (int i = 0; i < 6; i++) w[i].assign((i < 5 ? g->n : g->m) + 1, 0xA5A5A5A5A5A5A5A5ull);
    s = {w[0].data(), w[1].data(), w[2].data(), w[3].data(), w[4].data(), w[5].data()};
  }
};

static int check_cliques(const char *name, const wm_graph *g, const wm_gpu_graph *gg) {
  sums cpu(g), gpu(g);
  wm_error err;
  if (wm_orbit_clique_sums_cpu(g, &cpu.s, &err)) {
    printf("%-24s cliques   CPU FAILED: %s\n", name, err.msg);
    return 1;
  }
  double ms = 0;
  if (wm_orbit_clique_sums_gpu(g, gg, orbit_emu_gpus, &gpu.s, &ms, &err)) {
    printf("%-24s cliques   GPU FAILED: %s\n", name, err.msg);
    return 1;
  }
  static const char *what[6] = {"s61", "s66", "s70", "s71", "k5", "k4e"};
  uint64_t total[6] = {0};
  for (int i = 0; i < 6; i++) {
    const uint64_t len = i < 5 ? g->n : g->m;
    const long long at = first_diff(cpu.w[i].data(), gpu.w[i].data(), len);
    if (at >= 0) {
      printf("%-24s cliques   MISMATCH %s[%lld]: gpu %llu, cpu %llu\n", name, what[i], at,
             (unsigned long long)gpu.w[i][at], (unsigned long long)cpu.w[i][at]);
      return 1;
    }
    for (uint64_t j = 0; j < len; j++) total[i] += cpu.w[i][j];
  }
  printf("%-24s cliques   ok  (sums of s61 %llu, s66 %llu, s70 %llu, s71 %llu, k5 %llu, k4e %llu)\n", name,
         (unsigned long long)total[0], (unsigned long long)total[1], (unsigned long long)total[2],
         (unsigned long long)total[3], (unsigned long long)total[4], (unsigned long long)total[5]);
  return 0;
}

/* ORBIT_EMU_QUICK=1 (emu-smoke.sh): the runs that send every top to the
 * blocks, and the walks, on the graph as built only, not again by degree
 * (the blocks' and the walks' paths do not depend on the numbering; on the
 * densest graph those repeats were half of its run). */
static bool quick() {
  const char *q = getenv("ORBIT_EMU_QUICK");
  return q && *q && strcmp(q, "0");
}

/* The clique sums as the warps and blocks share them, then with every top
 * edge walked by a block (WM_TEST_ORBIT_HEAVY=1). */
static int check_cliques_both(const char *name, const wm_graph *g, const wm_gpu_graph *gg) {
  int bad = check_cliques(name, g, gg);
  if (gg && quick()) return bad;
  setenv("WM_TEST_ORBIT_HEAVY", "1", 1);
  bad += check_cliques((std::string(name) + " (blocks)").c_str(), g, gg);
  unsetenv("WM_TEST_ORBIT_HEAVY");
  return bad;
}

/* The aggregates of size k (3: triangles per arc; 4: also the 4-cliques,
 * 4-cycle and diamond sums per vertex), GPU against CPU word for word;
 * `calls` GPU calls in a row (with gg, the later ones take the scratch the
 * first kept, which must be zero again). */
struct aggregates {
  std::vector<uint32_t> tri;
  std::vector<uint64_t> k4;
  std::vector<wm_i128> n8, n12;
  wm_orbit_aggregates a;
  aggregates(const wm_graph *g)
      : tri(g->m + 1, 0xA5A5A5A5u), k4(g->n + 1, 0xA5A5A5A5A5A5A5A5ull), n8(g->n + 1, -7), n12(g->n + 1, -9) {
    a = {tri.data(), k4.data(), n8.data(), n12.data()};
  }
};

static int check_aggregates(const char *name, const wm_graph *g, const wm_gpu_graph *gg, unsigned k, int calls) {
  aggregates cpu(g);
  wm_error err;
  if (wm_orbit_aggregates_cpu(g, k, &cpu.a, &err)) {
    printf("%-24s aggr k=%u  CPU FAILED: %s\n", name, k, err.msg);
    return 1;
  }
  for (int call = 0; call < calls; call++) {
    aggregates gpu(g);
    double ms = 0;
    if (wm_orbit_aggregates_gpu(g, k, gg, &gpu.a, &ms, &err)) {
      printf("%-24s aggr k=%u  GPU FAILED (call %d): %s\n", name, k, call + 1, err.msg);
      return 1;
    }
    for (uint64_t e = 0; e < g->m; e++)
      if (cpu.tri[e] != gpu.tri[e]) {
        printf("%-24s aggr k=%u  MISMATCH tri[%llu] (call %d): gpu %u, cpu %u\n", name, k, (unsigned long long)e,
               call + 1, gpu.tri[e], cpu.tri[e]);
        return 1;
      }
    for (uint32_t v = 0; k >= 4 && v < g->n; v++)
      if (cpu.k4[v] != gpu.k4[v] || cpu.n8[v] != gpu.n8[v] || cpu.n12[v] != gpu.n12[v]) {
        printf("%-24s aggr k=%u  MISMATCH at vertex %u (call %d): gpu k4 %llu n8 %llu n12 %llu, cpu k4 %llu n8 %llu "
               "n12 %llu\n", name, k, v, call + 1, (unsigned long long)gpu.k4[v], (unsigned long long)gpu.n8[v],
               (unsigned long long)gpu.n12[v], (unsigned long long)cpu.k4[v], (unsigned long long)cpu.n8[v],
               (unsigned long long)cpu.n12[v]);
        return 1;
      }
  }
  uint64_t t = 0, k4 = 0, n8 = 0, n12 = 0;
  for (uint64_t e = 0; e < g->m; e++) t += cpu.tri[e];
  for (uint32_t v = 0; k >= 4 && v < g->n; v++) k4 += cpu.k4[v], n8 += (uint64_t)cpu.n8[v], n12 += (uint64_t)cpu.n12[v];
  printf("%-24s aggr k=%u  ok  (%d call%s; triangles x 6 %llu, sums of k4 %llu, n8 %llu, n12 %llu)\n", name, k,
         calls, calls > 1 ? "s" : "", (unsigned long long)t, (unsigned long long)k4, (unsigned long long)n8,
         (unsigned long long)n12);
  return 0;
}

/* Sizes 3 and 4, then 4 with every top and arc of a triangle sent to the
 * blocks (WM_TEST_ORBIT_HEAVY=1). */
static int check_aggregates_both(const char *name, const wm_graph *g, const wm_gpu_graph *gg) {
  int bad = check_aggregates(name, g, gg, 3, 1) + check_aggregates(name, g, gg, 4, gg ? 2 : 1);
  if (gg && quick()) return bad;
  setenv("WM_TEST_ORBIT_HEAVY", "1", 1);
  const std::string heavy = std::string(name) + " (blocks)";
  bad += check_aggregates(heavy.c_str(), g, gg, 4, 1);
  unsetenv("WM_TEST_ORBIT_HEAVY");
  return bad;
}

/* GPU == CPU from start: the same return code, the same counts or the
 * same message. */
static int check_cycles_from(const char *name, const wm_graph *g, const wm_gpu_graph *gg, uint64_t start,
                             const char *label) {
  std::vector<uint64_t> cpu(g->n + 1, 7), gpu(g->n + 1, 9);
  wm_error ce, ge;
  memset(&ce, 0, sizeof ce), memset(&ge, 0, sizeof ge);
  const int crc = wm_orbit_cycles5_from(g, start, cpu.data(), &ce);
  double ms = 0;
  const int grc = wm_orbit_cycles5_gpu(g, gg, orbit_emu_gpus, start, gpu.data(), &ms, &ge);
  printf("%-24s 5-cycles  %-22s ", name, label);
  if (crc != grc || (crc && strcmp(ce.msg, ge.msg))) {
    printf("MISMATCH: gpu %d \"%s\", cpu %d \"%s\"\n", grc, grc ? ge.msg : "", crc, crc ? ce.msg : "");
    return 1;
  }
  if (crc) {
    printf("ok  (both: %s)\n", ce.msg);
    return 0;
  }
  const long long at = first_diff(cpu.data(), gpu.data(), g->n);
  if (at >= 0) {
    printf("MISMATCH c5[%lld]: gpu %llu, cpu %llu\n", at, (unsigned long long)gpu[at], (unsigned long long)cpu[at]);
    return 1;
  }
  uint64_t most = 0, all = 0;
  for (uint32_t v = 0; v < g->n; v++) most = cpu[v] - start > most ? cpu[v] - start : most, all += cpu[v] - start;
  printf("ok  (5-cycles x 5: %llu, most at a vertex: %llu)\n", (unsigned long long)all, (unsigned long long)most);
  return 0;
}

/* From 0, from where the largest count is 2^64 - 1, and one past it. */
static int check_cycles(const char *name, const wm_graph *g, const wm_gpu_graph *gg) {
  std::vector<uint64_t> c5(g->n + 1, 0);
  wm_error err;
  if (wm_orbit_cycles5(g, c5.data(), &err)) {
    printf("%-24s 5-cycles  CPU FAILED: %s\n", name, err.msg);
    return 1;
  }
  uint64_t most = 0;
  for (uint32_t v = 0; v < g->n; v++) most = c5[v] > most ? c5[v] : most;
  int bad = check_cycles_from(name, g, gg, 0, "from 0");
  bad += check_cycles_from(name, g, gg, UINT64_MAX - most, "from 2^64-1 - most");
  if (most) bad += check_cycles_from(name, g, gg, UINT64_MAX - most + 1, "from 2^64 - most");
  return bad;
}

int check_walks(const std::string &name, const wm_graph *g0, bool as_built_only);

/* Whether ORBIT_EMU_ONLY (TEXT|TEXT|...) names the graph: one of its parts
 * is in the name; unset or empty, every graph. */
static bool wanted(const std::string &name, const char *only) {
  if (!only || !*only) return true;
  const std::string list = only;
  for (size_t at = 0; at <= list.size();) {
    const size_t end = list.find('|', at) == std::string::npos ? list.size() : list.find('|', at);
    if (end > at && name.find(list.substr(at, end - at)) != std::string::npos) return true;
    at = end + 1;
  }
  return false;
}

/* g as built (uploaded by the call), then by degree with gg holding it;
 * then the walks. */
static int check(const std::string &name, const wm_graph *g0) {
  int bad = check_aggregates_both(name.c_str(), g0, NULL) + check_cliques_both(name.c_str(), g0, NULL) +
            check_cycles(name.c_str(), g0, NULL);
  wm_graph *g = NULL;
  wm_gpu_graph *gg = NULL;
  wm_error err;
  if (wm_graph_relabel_by_degree(g0, &g, &err) || wm_gpu_graph_create(g, orbit_emu_gpus, &gg, &err)) {
    fprintf(stderr, "orbit-emu: %s: %s\n", name.c_str(), err.msg);
    exit(2);
  }
  const std::string by = name + " by degree";
  bad += check_aggregates_both(by.c_str(), g, gg) + check_cliques_both(by.c_str(), g, gg) + check_cycles(by.c_str(), g, gg);
  wm_gpu_graph_destroy(gg);
  wm_graph_destroy(g);
  return bad + check_walks(name, g0, quick());
}

int main(int argc, char **argv) {
  struct named {
    std::string name;
    wm_graph *g;
  };
  std::vector<named> graphs = {
      {"er(40, 0.3)", er(40, 300, 1)},
      {"er(120, 0.06)", er(120, 60, 2)},
      {"er(60, 0.5)", er(60, 500, 5)},
      {"powerlaw(300)", powerlaw(300, 6, 3, 200, 3)},
      {"hub(500, 450, 3)", hub(500, 450, 3, 5, 9)},
      {"hub(700, 650, 3)", hub(700, 650, 3, 2, 12)},
      /* three hubs of about 900 neighbours: the 5-cycles' tops walked by blocks */
      {"powerlaw(1200, 3 hubs)", powerlaw(1200, 4, 3, 750, 8)},
      /* two hubs adjacent to all over a dense core: a top edge of about 400
       * triangles (a block's) with many 5-cliques on it */
      {"powerlaw(400, 2 hubs)", powerlaw(400, 30, 2, 1000, 11)},
      {"2 hubs over er(300, 0.1)", two_hubs_over_er(300, 100, 13)},
      {"star(300)", star(300)},
      {"K12", clique(12)},
      {"empty(5)", edges(5, {})},
      {"path(3)", edges(3, {0, 1, 1, 2})},
      {"edge(2)", edges(2, {0, 1})},
      {"two triangles", edges(6, {0, 1, 1, 2, 2, 0, 3, 4, 4, 5, 5, 3})},
  };
  const char *only = getenv("ORBIT_EMU_ONLY");
  orbit_emu_gpus = wm_gpu_count();
  if (orbit_emu_gpus > 1) printf("the 5-vertex pieces over %d emulated devices\n", orbit_emu_gpus);
  int bad = 0;
  for (named &s : graphs) {
    if (wanted(s.name, only)) bad += check(s.name, s.g);
    wm_graph_destroy(s.g);
  }
  for (int i = 1; i < argc; i++) {
    wm_graph *g = load_given(argv[i], "orbit-emu");
    bad += check(argv[i], g);
    wm_graph_destroy(g);
  }
  printf("%s\n", bad ? "orbit-emu: MISMATCH" : "orbit-emu: every count matches");
  return bad != 0;
}
