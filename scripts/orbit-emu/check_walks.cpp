/* Checks the 5-vertex orbits' per-vertex walks on the GPU
 * (matcher/orbits/gpu_orbit_walks5.cu) on the CPU emulator against the
 * CPU's (wm_o5n_walks_cpu, the oracle), every value exactly: per arc tdeg,
 * F, c4e and the four toward words, per vertex the nine sums and their
 * overflow flags; then the non-induced counts N of every vertex with the
 * walks on the GPU against those with the walks on the CPU, on check.cpp's
 * graphs, each as built and renumbered by degree, the walks once
 * uploading the graph and once reading it kept on the device
 * (wm_gpu_graph), and once asked to stop before the call (it must end
 * interrupted).  Prints a line per graph and the first mismatch; returns
 * the mismatches. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <string>
#include <vector>

#include "datasets.h"
#include "exact_count.h"
#include "device.h"
#include "emu_graphs.h"
#include "orbit_noninduced5.h"
#include "orbit_walks5.h"

extern int orbit_emu_gpus; /* check.cpp's */

static std::string i128_str(wm_i128 v) {
  char buf[WM_I128_CHARS];
  return wm_i128_str(v, buf);
}

/* Each arc's common neighbours, ascending (the rows are). */
static void arc_lists(const wm_graph *g, const uint32_t *tri, std::vector<uint64_t> &at, std::vector<uint32_t> &list) {
  at.assign(g->m + 1, 0);
  for (uint64_t f = 0; f < g->m; f++) at[f + 1] = at[f] + tri[f];
  list.assign(at[g->m] ? at[g->m] : 1, 0);
  for (uint32_t a = 0; a < g->n; a++)
    for (uint64_t f = g->offsets[a]; f < g->offsets[a + 1]; f++) {
      const uint32_t b = g->adj[f];
      uint64_t i = g->offsets[a], j = g->offsets[b], k = at[f];
      while (i < g->offsets[a + 1] && j < g->offsets[b + 1]) {
        if (g->adj[i] < g->adj[j]) i++;
        else if (g->adj[i] > g->adj[j]) j++;
        else list[k++] = g->adj[i], i++, j++;
      }
    }
}

/* The first value where the walks differ, or "" where none does. */
static std::string first_difference(const wm_graph *g, const wm_o5n_walks &a, const wm_o5n_walks &b) {
  char buf[256];
  for (uint64_t e = 0; e < g->m; e++) {
    if (a.tdeg[e] != b.tdeg[e] || a.F[e] != b.F[e] || a.c4e[e] != b.c4e[e]) {
      snprintf(buf, sizeof buf, "arc %llu: tdeg %llu/%llu F %llu/%llu c4e %llu/%llu", (unsigned long long)e,
               (unsigned long long)a.tdeg[e], (unsigned long long)b.tdeg[e], (unsigned long long)a.F[e],
               (unsigned long long)b.F[e], (unsigned long long)a.c4e[e], (unsigned long long)b.c4e[e]);
      return buf;
    }
    for (int k = 0; k < WM_O5N_TOWARD; k++)
      if (a.toward[e][k] != b.toward[e][k])
        return "arc " + std::to_string(e) + " toward[" + std::to_string(k) + "]: gpu " + i128_str(a.toward[e][k]) +
               ", cpu " + i128_str(b.toward[e][k]);
  }
  for (uint32_t v = 0; v < g->n; v++)
    for (int k = 0; k < WM_O5N_WALKED; k++) {
      const wm_acc &x = a.walked[v][k], &y = b.walked[v][k];
      if (x.overflow != y.overflow || (!x.overflow && x.v != y.v))
        return "vertex " + std::to_string(v) + " sum " + std::to_string(k) + ": gpu " + i128_str(x.v) + " (" +
               std::to_string(x.overflow) + "), cpu " + i128_str(y.v) + " (" + std::to_string(y.overflow) + ")";
    }
  for (uint32_t v = 0; v < g->n; v++)
    if (wm_o5n_tips(&a, g->n, v) != wm_o5n_tips(&b, g->n, v))
      return "vertex " + std::to_string(v) + " tips: gpu " + i128_str(wm_o5n_tips(&a, g->n, v)) + ", cpu " +
             i128_str(wm_o5n_tips(&b, g->n, v));
  return "";
}

static void die(const std::string &name, const char *what, const wm_error &err) {
  fprintf(stderr, "orbit-emu (walks): %s: %s: %s\n", name.c_str(), what, err.msg);
  exit(2);
}

/* The walks of g on the GPU (gg kept, or NULL) against the CPU's; then N. */
static int check_one(const std::string &name, const wm_graph *g) {
  wm_error err;
  std::vector<uint32_t> tri(g->m ? g->m : 1);
  if (wm_orbit_triangles_cpu(g, tri.data(), &err)) die(name, "triangles", err);
  std::vector<uint64_t> at;
  std::vector<uint32_t> list;
  arc_lists(g, tri.data(), at, list);
  wm_o5n_walks cpu, gpu;
  if (wm_o5n_walks_alloc(g, &cpu) || wm_o5n_walks_alloc(g, &gpu)) die(name, "out of memory", err);
  wm_progress progress;
  wm_progress_init(&progress, "walks", g->n, 0);
  if (wm_o5n_walks_cpu(g, tri.data(), at.data(), list.data(), &cpu, &progress, &err)) die(name, "CPU walks", err);
  wm_gpu_graph *kept = NULL;
  if (wm_gpu_graph_create(g, orbit_emu_gpus, &kept, &err)) die(name, "the graph on the device", err);
  int bad = 0;
  for (const wm_gpu_graph *gg : {(const wm_gpu_graph *)NULL, (const wm_gpu_graph *)kept}) {
    /* stale values where the GPU writes nothing would show */
    memset(gpu.tdeg, 0x5A, (g->m ? g->m : 1) * sizeof *gpu.tdeg);
    memset(gpu.toward, 0x5A, (g->m ? g->m : 1) * sizeof *gpu.toward);
    memset(gpu.walked, 0x5A, (g->n ? g->n : 1) * sizeof *gpu.walked);
    memset(gpu.tips, 0x5A, 2 * (g->n ? g->n : 1) * sizeof *gpu.tips);
    double ms = 0;
    printf("%-28s %-9s ", name.c_str(), gg ? "kept" : "uploaded");
    if (wm_o5n_walks_gpu(g, gg, orbit_emu_gpus, tri.data(), at.data(), list.data(), &gpu, &ms, &err)) {
      printf("FAILED: %s\n", err.msg);
      bad++;
      continue;
    }
    const std::string diff = g->n ? first_difference(g, gpu, cpu) : "";
    printf("%s\n", diff.empty() ? "walks ok" : ("MISMATCH at " + diff).c_str());
    bad += !diff.empty();
  }
  /* asked to stop before the call: interrupted, whatever it left */
  wm_monitor mon;
  memset(&mon, 0, sizeof mon);
  mon.stop = 1;
  wm_monitor *was = wm_monitor_enter(&mon);
  const int rc =
      g->n ? wm_o5n_walks_gpu(g, NULL, orbit_emu_gpus, tri.data(), at.data(), list.data(), &gpu, NULL, &err) : -1;
  wm_monitor_leave(was);
  if (g->n) {
    printf("%-28s %-9s %s\n", name.c_str(), "stopped", rc == WM_EINTERRUPTED ? "interrupted" : "NOT INTERRUPTED");
    bad += rc != WM_EINTERRUPTED;
  }
  wm_gpu_graph_destroy(kept);
  wm_o5n_walks_free(&cpu);
  wm_o5n_walks_free(&gpu);
  /* the counts N with the walks on the GPU == on the CPU */
  std::vector<wm_i128> Ng((size_t)g->n * ORBITS5 + 1), Nc((size_t)g->n * ORBITS5 + 1);
  printf("%-28s %-9s ", name.c_str(), "N");
  if (wm_o5n_counts_on(g, orbit_emu_gpus, Ng.data(), &err)) {
    printf("FAILED: %s\n", err.msg);
    return bad + 1;
  }
  if (wm_o5n_counts_on(g, 0, Nc.data(), &err)) die(name, "CPU counts", err);
  for (size_t i = 0; i < (size_t)g->n * ORBITS5; i++)
    if (Ng[i] != Nc[i]) {
      printf("MISMATCH at vertex %zu orbit %zu: gpu %s, cpu %s\n", i / ORBITS5, i % ORBITS5 + FIRST5,
             i128_str(Ng[i]).c_str(), i128_str(Nc[i]).c_str());
      return bad + 1;
    }
  printf("ok\n");
  return bad;
}

/* g as built, then by degree unless as_built_only (check.cpp's main calls
 * it on every graph). */
int check_walks(const std::string &name, const wm_graph *g0, bool as_built_only) {
  int bad = check_one(name, g0);
  if (as_built_only) return bad;
  wm_graph *g = NULL;
  wm_error err;
  if (wm_graph_relabel_by_degree(g0, &g, &err)) die(name, "relabel", err);
  bad += check_one(name + ", by degree", g);
  wm_graph_destroy(g);
  return bad;
}
