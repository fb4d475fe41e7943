/* Checks the GPU motif aggregates (matcher/motifs/gpu_motif_sums.cu) on the
 * CPU emulator against the CPU's (wm_motif_sums_cpu, the oracle), every sum
 * exactly, for sizes 4 and 5, on graphs built here and on any edge-list
 * files given, each renumbered by degree (as tests/matcher/test_gpu_motifs.c).  The
 * policies (struct wm_motif_gpu_policy) are those of tests/matcher/test_gpu_motifs.c
 * with smaller list rooms; MOTIF_EMU_SET picks the set:
 *   one       one device: the defaults, 4 warps with lists in chunks, a
 *             tight scratch (a layout per kernel), heavy_paths 64 with lists
 *             in chunks (many tops swept by blocks, four_cycles_mixed), heavy_paths 1
 *   two       the same with gpus = 2 (run with EMU_DEVICES=2): each must run
 *             on two devices
 *   fallback  gpus = 2 where the devices have no peer atomics (EMU_P2P=0):
 *             each must run on one device and say why (gpu_note)
 *   interrupt two processes sharing the passes (policy.share), process 1
 *             interrupted before the call, at its first window and at a
 *             later one: both must end as emu_stop_share.h says (the sums
 *             are not compared)
 * MOTIF_EMU_WARPS caps the warps of the policies that leave them to the
 * device (0: none); MOTIF_EMU_ONLY=TEXT checks only the built graphs whose
 * name holds TEXT (the files given are always checked).  Prints
 * a line per graph, size and policy, and the first mismatching sum with its
 * index and both values; exit 0 when every sum matches. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <string>
#include <vector>

#include "datasets.h"
#include "exact_count.h"
#include "emu_graphs.h"
#include "emu_stop_share.h"
#include "matcher.h"
#include "motif_sums.h"

static double now_s() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static std::string i128_str(wm_i128 v) {
  char buf[WM_I128_CHARS];
  return wm_i128_str(v, buf);
}

struct named_policy {
  const char *what;
  wm_motif_gpu_policy p;
  bool resident; /* with the graph kept on the devices (policy.graph): buffers from its pools */
};

static unsigned long env_ul(const char *name, unsigned long def) {
  const char *s = getenv(name);
  return s && *s ? strtoul(s, NULL, 10) : def;
}

/* The set's policies for a graph of n vertices. */
static std::vector<named_policy> policies(const char *set, uint64_t n) {
  const unsigned cap = (unsigned)env_ul("MOTIF_EMU_WARPS", 0);
  /* 8 warps of the widest layout: below the 32 or more warps the defaults
   * run, so that each kernel lays out its own arrays */
  const uint64_t tight = 8 * (5 * n + 3 * (n + 1));
  const bool two = !strcmp(set, "two") || !strcmp(set, "fallback");
  const int gpus = two ? 2 : 0;
  std::vector<named_policy> out = {
      {"defaults", {cap, 0, 0, gpus, 0}},
      {"4 warps, room 200", {4, 200, 0, gpus, 0}},
      {"tight scratch", {cap, 0, tight, gpus, 0}},
      {"heavy 64, room 200", {cap, 200, 0, gpus, 64}},
      {"heavy 1", {cap, 0, 0, gpus, 1}},
      {"resident", {cap, 0, 0, gpus, 0}, true},
      {"resident again", {cap, 0, 0, gpus, 0}, true}, /* the scratch the last call kept */
      {"resident, tight", {cap, 0, tight, gpus, 0}, true}, /* the pools' blocks again, stale */
  };
  if (strcmp(set, "fallback") == 0) out.resize(2); /* the same passes as "one" */
  if (strcmp(set, "shared") == 0) { /* two and three processes under three policies each */
    std::vector<named_policy> shared;
    for (int i = 0; i < 4; i += (i == 1 ? 2 : 1))
      for (const char *w : {"2 processes, ", "3 processes, "})
        shared.push_back({strdup((std::string(w) + out[i].what).c_str()), out[i].p});
    return shared;
  }
  return out;
}

/* Set "shared": the passes split between processes (policy.share) run one
 * after another here, process p of P taking windows p, p + P, ... of each
 * pass, its sums its own; the processes' sums must add up to the CPU's. */
struct deal {
  wm_share share;
  uint64_t taken[64];
  unsigned next;
};
static unsigned deal_loops(void *ctx, unsigned count) {
  deal *d = (deal *)ctx;
  d->next += count;
  return d->next - count;
}
static uint64_t deal_grab(void *ctx, unsigned id, uint64_t chunk) {
  deal *d = (deal *)ctx;
  return (d->taken[id]++ * (uint64_t)d->share.processes + (uint64_t)d->share.process) * chunk;
}
static int deal_sum_u32(void *, uint32_t *, uint64_t) { return 0; }
static int deal_sum_u64(void *, uint64_t *, uint64_t) { return 0; }
static int deal_sum_i128(void *, wm_i128 *, unsigned, int *) { return 0; }

/* The sums of `procs` dealt processes under policy p, added. */
static int dealt(const wm_graph *g, unsigned k, wm_motif_gpu_policy p, int procs, wm_motif_sums *out,
                 wm_error *err) {
  memset(out, 0, sizeof *out);
  for (int i = 0; i < procs; i++) {
    deal d;
    memset(&d, 0, sizeof d);
    d.share = {&d, procs, i, deal_loops, deal_grab, deal_sum_u32, deal_sum_u64, deal_sum_i128};
    p.share = &d.share;
    wm_motif_sums part;
    double ms = 0;
    if (wm_motif_sums_gpu(g, k, &p, &part, &ms, err)) return 1;
    for (int j = 0; j < WM_SUM_COUNT; j++) out->s[j] += part.s[j];
  }
  return 0;
}

struct sized {
  std::string name;
  wm_graph *g;
  unsigned kmax;
};

static int check(const char *set, const std::string &name, const wm_graph *g0, unsigned kmax) {
  wm_graph *g = NULL;
  wm_error err;
  if (wm_graph_relabel_by_degree(g0, &g, &err)) {
    fprintf(stderr, "motif-emu: %s\n", err.msg);
    exit(2);
  }
  int bad = 0;
  wm_gpu_graph *resident = NULL;
  if (wm_gpu_graph_create(g, !strcmp(set, "two") || !strcmp(set, "fallback") ? 2 : 1, &resident, &err)) {
    fprintf(stderr, "motif-emu: %s: the graph on the devices: %s\n", name.c_str(), err.msg);
    exit(2);
  }
  for (unsigned k = 4; k <= kmax; k++) {
    wm_motif_sums cpu;
    if (wm_motif_sums_cpu(g, k, 2, 0, &cpu, &err)) {
      fprintf(stderr, "motif-emu: %s: CPU sums: %s\n", name.c_str(), err.msg);
      exit(2);
    }
    for (const named_policy &np : policies(set, g->n ? g->n : 1)) {
      wm_motif_gpu_policy p = np.p;
      if (np.resident) p.graph = resident;
      wm_motif_sums gpu;
      double ms = 0;
      const double t0 = now_s();
      printf("%-22s k=%u  %-20s ", name.c_str(), k, np.what);
      fflush(stdout);
      const int procs = strcmp(set, "shared") ? 0 : np.what[0] - '0';
      if (procs ? dealt(g, k, p, procs, &gpu, &err) : wm_motif_sums_gpu(g, k, &p, &gpu, &ms, &err)) {
        printf("FAILED: %s\n", err.msg);
        bad++;
        continue;
      }
      int first = -1;
      for (int i = 0; i < WM_SUM_COUNT && first < 0; i++)
        if (gpu.s[i] != cpu.s[i]) first = i;
      const char *devices = "";
      int wrong_devices = 0;
      if (!strcmp(set, "two")) {
        devices = "  (2 devices)";
        wrong_devices = gpu.gpus != 2;
      } else if (!strcmp(set, "fallback")) {
        devices = "  (1 device: note given)";
        wrong_devices = gpu.gpus != 1 || !gpu.gpu_note[0];
      }
      printf("%5.1f s  ", now_s() - t0);
      if (first >= 0)
        printf("MISMATCH at sum %d: gpu %s, cpu %s\n", first, i128_str(gpu.s[first]).c_str(),
               i128_str(cpu.s[first]).c_str());
      else if (wrong_devices)
        printf("WRONG DEVICES: %d ran, note \"%s\"\n", gpu.gpus, gpu.gpu_note);
      else
        printf("ok  (c4 %s, c5 %s)%s\n", i128_str(cpu.s[WM_SUM_C4]).c_str(), i128_str(cpu.s[WM_SUM_C5]).c_str(),
               devices);
      bad += first >= 0 || wrong_devices;
    }
  }
  wm_gpu_graph_destroy(resident);
  wm_graph_destroy(g);
  return bad;
}

/* Set "interrupt": two processes sharing the passes, process 1 interrupted
 * before the call (stop_at 0), at its first window (2: the share's calls
 * are the loops, then a grab per window) and at its fourth (5). */
static int check_interrupts(const std::string &name, const wm_graph *g0) {
  wm_graph *g = NULL;
  wm_error e;
  if (wm_graph_relabel_by_degree(g0, &g, &e)) {
    fprintf(stderr, "motif-emu: %s\n", e.msg);
    exit(2);
  }
  int bad = 0;
  for (unsigned k = 4; k <= 5; k++)
    for (unsigned stop_at : {0u, 2u, 5u}) {
      wm_monitor mon;
      stop_share sh(&mon, stop_at);
      int rc[2];
      wm_error err[2];
      memset(err, 0, sizeof err);
      for (int p = 1; p >= 0; p--) {
        wm_motif_gpu_policy pol;
        memset(&pol, 0, sizeof pol);
        pol.warps = (unsigned)env_ul("MOTIF_EMU_WARPS", 0);
        pol.share = &sh.p[p].share;
        wm_motif_sums out;
        double ms = 0;
        wm_monitor *prev = wm_monitor_enter(p ? &mon : NULL);
        rc[p] = wm_motif_sums_gpu(g, k, &pol, &out, &ms, &err[p]);
        wm_monitor_leave(prev);
      }
      const char *why = sh.verdict(rc, err[0].msg);
      printf("%-22s k=%u  process 1 of 2 interrupted at its share call %u (%llu windows taken): %s\n", name.c_str(), k,
             stop_at, (unsigned long long)sh.p[1].taken, why ? why : "ok (both interrupted)");
      if (why) printf("  process 0: %s\n  process 1: %s\n", err[0].msg, err[1].msg);
      bad += why != NULL;
    }
  wm_graph_destroy(g);
  return bad;
}

int main(int argc, char **argv) {
  const char *set = getenv("MOTIF_EMU_SET") && *getenv("MOTIF_EMU_SET") ? getenv("MOTIF_EMU_SET") : "one";
  if (strcmp(set, "one") && strcmp(set, "two") && strcmp(set, "fallback") && strcmp(set, "shared") &&
      strcmp(set, "interrupt")) {
    fprintf(stderr, "motif-emu: MOTIF_EMU_SET is one, two, fallback, shared or interrupt (got %s)\n", set);
    return 2;
  }
  if (!strcmp(set, "interrupt")) {
    int bad = 0;
    wm_graph *gs[2] = {er(120, 60, 2), powerlaw(300, 6, 3, 200, 3)};
    bad += check_interrupts("er(120, 0.06)", gs[0]);
    bad += check_interrupts("powerlaw(300)", gs[1]);
    for (wm_graph *g : gs) wm_graph_destroy(g);
    printf("%s\n", bad ? "motif-emu: an interrupt FAILED" : "motif-emu: every interrupt ends every process");
    return bad != 0;
  }
  const char *only = getenv("MOTIF_EMU_ONLY");
  std::vector<sized> graphs = {
      {"er(40, 0.3)", er(40, 300, 1), 5},
      {"er(120, 0.06)", er(120, 60, 2), 5},
      {"powerlaw(300)", powerlaw(300, 6, 3, 200, 3), 5},
      {"hub(500, 450, 100)", hub(500, 450, 3, 5, 9), 5},
      /* two hubs of about 300 common neighbours: a list of more than
       * kListSlots / 2 members (the pair lists' stamps) */
      {"hub(700, 650, 350)", hub(700, 650, 3, 2, 12), 5},
      /* a top of more than 32,768 paths: size 4's heavy_four_cycles (size 5
       * would take minutes here) */
      {"hub(1600, 1500, 80)", hub(1600, 1500, 24, 20, 11), 4},
      {"star(300)", star(300), 5},
      {"K12", clique(12), 5},
      {"empty(5)", edges(5, {}), 5},
      {"path(3)", edges(3, {0, 1, 1, 2}), 5},
      {"edge(2)", edges(2, {0, 1}), 5},
  };
  int bad = 0;
  for (sized &s : graphs) {
    if (!only || !*only || strstr(s.name.c_str(), only)) bad += check(set, s.name, s.g, s.kmax);
    wm_graph_destroy(s.g);
  }
  for (int i = 1; i < argc; i++) {
    wm_graph *g = load_given(argv[i], "motif-emu");
    bad += check(set, argv[i], g, 5);
    wm_graph_destroy(g);
  }
  printf("%s\n", bad ? "motif-emu: MISMATCH" : "motif-emu: every sum matches");
  return bad != 0;
}
