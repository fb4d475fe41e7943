/* The 5-vertex orbits' per-vertex walks on the GPU (gpu_orbit_walks5.cu)
 * against the CPU's (orbit_walks5.c, the oracle), every value exactly:
 * per arc tdeg, F, c4e and the four toward words, per vertex the eight sums
 * and their overflow flags and the tips (63); the graph uploaded and kept on the device
 * (wm_gpu_graph).  Then the non-induced counts and the 73 orbit counts
 * with the walks on the GPU against those with the walks on the CPU.
 * Graphs: Erdos-Renyi of several densities, a power-law graph, a hub over
 * a sparse graph, a star, K12, empty and 2-vertex graphs, Kronecker
 * scale 12.  Then over two GPUs (shared counters, and the static deal): the
 * walks, the counts, an interrupt and a device that fails. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "orbit_noninduced5.h"
#include "orbit_walks5.h"
#include "testutil.h"

/* Each arc's common neighbours, ascending (the rows are). */
static void arc_lists(const wm_graph *g, const uint32_t *tri, uint64_t **at, uint32_t **list) {
  *at = malloc((g->m + 1) * sizeof **at);
  cr_assert(*at);
  (*at)[0] = 0;
  for (uint64_t f = 0; f < g->m; f++) (*at)[f + 1] = (*at)[f] + tri[f];
  *list = malloc(((*at)[g->m] + 1) * sizeof **list);
  cr_assert(*list);
  for (uint32_t a = 0; a < g->n; a++)
    for (uint64_t f = g->offsets[a]; f < g->offsets[a + 1]; f++) {
      const uint32_t b = g->adj[f];
      uint64_t i = g->offsets[a], j = g->offsets[b], k = (*at)[f];
      while (i < g->offsets[a + 1] && j < g->offsets[b + 1]) {
        if (g->adj[i] < g->adj[j]) i++;
        else if (g->adj[i] > g->adj[j]) j++;
        else (*list)[k++] = g->adj[i], i++, j++;
      }
      cr_assert_eq(k, (*at)[f + 1]);
    }
}

static void assert_same_walks(const wm_graph *g, const wm_o5n_walks *gpu, const wm_o5n_walks *cpu, const char *what) {
  for (uint64_t e = 0; e < g->m; e++) {
    cr_assert_eq(gpu->tdeg[e], cpu->tdeg[e], "%s: arc %llu: tdeg", what, (unsigned long long)e);
    cr_assert_eq(gpu->F[e], cpu->F[e], "%s: arc %llu: F", what, (unsigned long long)e);
    cr_assert_eq(gpu->c4e[e], cpu->c4e[e], "%s: arc %llu: c4e", what, (unsigned long long)e);
    for (int k = 0; k < WM_O5N_TOWARD; k++)
      cr_assert(gpu->toward[e][k] == cpu->toward[e][k], "%s: arc %llu: toward[%d]", what, (unsigned long long)e, k);
  }
  for (uint32_t v = 0; v < g->n; v++)
    for (int k = 0; k < WM_O5N_WALKED; k++) {
      const wm_acc *a = &gpu->walked[v][k], *b = &cpu->walked[v][k];
      cr_assert_eq(a->overflow, b->overflow, "%s: vertex %u sum %d: overflow", what, v, k);
      cr_assert(a->overflow || a->v == b->v, "%s: vertex %u sum %d", what, v, k);
    }
  for (uint32_t v = 0; v < g->n; v++)
    cr_assert(wm_o5n_tips(gpu, g->n, v) == wm_o5n_tips(cpu, g->n, v), "%s: vertex %u: tips", what, v);
}

/* The devices the walks run over (0: the current one). */
static int gpus_now = 0;

/* The walks of g on the GPU (uploaded, then kept) == on the CPU; g freed. */
static void same_walks(wm_graph *g, const char *what) {
  wm_error err;
  uint32_t *tri = malloc((g->m + 1) * sizeof *tri);
  cr_assert(tri);
  cr_assert_eq(wm_orbit_triangles_cpu(g, tri, &err), WM_OK, "%s", err.msg);
  uint64_t *at;
  uint32_t *list;
  arc_lists(g, tri, &at, &list);
  wm_o5n_walks cpu, gpu;
  cr_assert_eq(wm_o5n_walks_alloc(g, &cpu), 0);
  cr_assert_eq(wm_o5n_walks_alloc(g, &gpu), 0);
  wm_progress progress;
  wm_progress_init(&progress, "walks", g->n, 0);
  cr_assert_eq(wm_o5n_walks_cpu(g, tri, at, list, &cpu, &progress, &err), WM_OK, "%s", err.msg);
  wm_gpu_graph *kept = NULL;
  cr_assert_eq(wm_gpu_graph_create(g, gpus_now > 1 ? gpus_now : 1, &kept, &err), WM_OK, "%s", err.msg);
  for (int k = 0; k < 2; k++) {
    memset(gpu.toward, 0x5A, (g->m ? g->m : 1) * sizeof *gpu.toward); /* a value the GPU leaves shows */
    memset(gpu.walked, 0x5A, (g->n ? g->n : 1) * sizeof *gpu.walked);
    memset(gpu.tips, 0x5A, 2 * (g->n ? g->n : 1) * sizeof *gpu.tips);
    double ms = 5;
    cr_assert_eq(wm_o5n_walks_gpu(g, k ? kept : NULL, gpus_now, tri, at, list, &gpu, &ms, &err), WM_OK, "%s: %s",
                 what, err.msg);
    cr_assert_geq(ms, 5, "%s: the kernels' time is added", what);
    assert_same_walks(g, &gpu, &cpu, what);
  }
  wm_gpu_graph_destroy(kept);
  wm_o5n_walks_free(&cpu);
  wm_o5n_walks_free(&gpu);
  free(tri);
  free(at);
  free(list);
  wm_graph_destroy(g);
}

static wm_graph *star(uint32_t leaves) {
  uint32_t *s = malloc(leaves * sizeof *s + 1), *d = malloc(leaves * sizeof *d + 1);
  for (uint32_t v = 0; v < leaves; v++) s[v] = 0, d[v] = v + 1;
  return wm_test_graph_of_arcs(leaves + 1, s, d, leaves);
}

static wm_graph *clique(uint32_t n) {
  uint32_t *s = malloc(n * n * sizeof *s + 1), *d = malloc(n * n * sizeof *d + 1);
  uint64_t m = 0;
  for (uint32_t a = 0; a < n; a++)
    for (uint32_t b = a + 1; b < n; b++) s[m] = a, d[m++] = b;
  return wm_test_graph_of_arcs(n, s, d, m);
}

Test(gpu_orbit_walks5, random_graphs, .timeout = 600) {
  const struct {
    uint32_t n;
    double p;
  } cases[] = {{12, 0.5}, {40, 0.3}, {60, 0.6}, {200, 0.05}, {300, 0.02}, {150, 0.15}};
  for (unsigned i = 0; i < sizeof cases / sizeof *cases; i++)
    for (uint64_t seed = 1; seed <= 2; seed++) {
      char what[64];
      snprintf(what, sizeof what, "G(%u, %.2f) seed %llu", cases[i].n, cases[i].p, (unsigned long long)seed);
      wm_graph *g = wm_test_er(cases[i].n, cases[i].p, seed * 31 + i);
      same_walks(wm_test_by_degree(g), what);
      same_walks(g, what);
    }
  same_walks(wm_test_powerlaw(2000, 6, 6, 0.1, 4), "powerlaw-2000");
}

Test(gpu_orbit_walks5, hubs_stars_cliques_and_small_graphs, .timeout = 600) {
  same_walks(wm_test_hub_graph(3000, 0.9, 0.002, 7), "hub over G(2999, 0.002)");
  same_walks(star(500), "star(500)");
  same_walks(clique(12), "K12");
  same_walks(wm_test_er(7, 0, 1), "empty(7)");
  same_walks(wm_test_er(2, 1, 1), "edge(2)");
}

/* The inputs and results through the stage's pinned halves in chunks of a
 * few hundred bytes (wm_stage_copy; at full size only copies past 32 MB
 * take it): every chunk, the odd ends and both halves in turn. */
Test(gpu_orbit_walks5, staged_copies, .timeout = 600) {
  const char *sizes[] = {"1000", "4096", "333"};
  for (unsigned i = 0; i < sizeof sizes / sizeof *sizes; i++) {
    setenv("WM_TEST_STAGE_CHUNK", sizes[i], 1);
    char what[64];
    snprintf(what, sizeof what, "chunks of %s bytes", sizes[i]);
    same_walks(wm_test_powerlaw(2000, 6, 6, 0.1, 4), what);
    same_walks(wm_test_hub_graph(3000, 0.9, 0.002, 7), what);
  }
  unsetenv("WM_TEST_STAGE_CHUNK");
}

/* Asked to stop before the call: WM_EINTERRUPTED; the next call, not
 * asked, is whole (the scratch of the stopped one is not reused). */
static void interrupted_then_whole(void) {
  wm_graph *g = wm_test_powerlaw(2000, 6, 6, 0.1, 4);
  wm_error err;
  uint32_t *tri = malloc(g->m * sizeof *tri);
  cr_assert(tri);
  cr_assert_eq(wm_orbit_triangles_cpu(g, tri, &err), WM_OK, "%s", err.msg);
  uint64_t *at;
  uint32_t *list;
  arc_lists(g, tri, &at, &list);
  wm_o5n_walks w;
  cr_assert_eq(wm_o5n_walks_alloc(g, &w), 0);
  wm_monitor mon;
  memset(&mon, 0, sizeof mon);
  mon.stop = 1;
  wm_monitor *was = wm_monitor_enter(&mon);
  const int rc = wm_o5n_walks_gpu(g, NULL, gpus_now, tri, at, list, &w, NULL, &err);
  wm_monitor_leave(was);
  wm_gpu_stop_word_free(&mon);
  cr_assert_eq(rc, WM_EINTERRUPTED, "%s", err.msg);
  wm_o5n_walks_free(&w);
  free(tri);
  free(at);
  free(list);
  same_walks(g, "powerlaw-2000 after an interrupted call");
}

Test(gpu_orbit_walks5, an_interrupt_ends_the_walks) { interrupted_then_whole(); }

Test(gpu_orbit_walks5, kronecker, .timeout = 900) {
  same_walks(wm_test_kron(12, 3), "kronecker 12");
}

/* The non-induced counts and the orbit counts with the walks on the GPU ==
 * with them on the CPU; g freed. */
static void same_counts(wm_graph *g, const char *what) {
  wm_error err;
  const size_t cells = (size_t)g->n * ORBITS5 + 1, rows = (size_t)g->n * wm_orbit_count(5) + 1;
  wm_i128 *ng = malloc(cells * sizeof *ng), *nc = malloc(cells * sizeof *nc);
  uint64_t *cg = malloc(rows * sizeof *cg), *cc = malloc(rows * sizeof *cc);
  cr_assert(ng && nc && cg && cc);
  cr_assert_eq(wm_o5n_counts_on(g, gpus_now > 1 ? gpus_now : 1, ng, &err), WM_OK, "%s: %s", what, err.msg);
  cr_assert_eq(wm_o5n_counts_on(g, 0, nc, &err), WM_OK, "%s: %s", what, err.msg);
  for (size_t i = 0; i + 1 < cells; i++)
    cr_assert(ng[i] == nc[i], "%s: vertex %zu orbit %zu: N differs", what, i / ORBITS5, i % ORBITS5 + FIRST5);
  double ms = 0;
  wm_orbit_run gpu_run = {5, WM_ORBIT_FORMULA, 0, 1, 0, NULL, &ms, gpus_now > 1 ? gpus_now : 1, NULL, NULL, NULL};
  wm_orbit_run cpu_run = {5, WM_ORBIT_FORMULA, 0, 0, 0, NULL, NULL, 0, NULL, NULL, NULL};
  cr_assert_eq(wm_o5n_orbits(g, &gpu_run, cg, &err), WM_OK, "%s: %s", what, err.msg);
  cr_assert_eq(wm_o5n_orbits(g, &cpu_run, cc, &err), WM_OK, "%s: %s", what, err.msg);
  for (size_t i = 0; i + 1 < rows; i++)
    cr_assert_eq(cg[i], cc[i], "%s: vertex %zu orbit %zu", what, i / wm_orbit_count(5), i % wm_orbit_count(5));
  free(ng);
  free(nc);
  free(cg);
  free(cc);
  wm_graph_destroy(g);
}

Test(gpu_orbit_walks5, counts_with_the_walks_on_the_gpu, .timeout = 900) {
  same_counts(wm_test_er(60, 0.3, 5), "G(60, 0.3)");
  same_counts(wm_test_powerlaw(2000, 6, 6, 0.1, 4), "powerlaw-2000");
  same_counts(wm_test_hub_graph(2000, 0.9, 0.003, 8), "hub over G(1999, 0.003)");
  same_counts(star(300), "star(300)");
  same_counts(clique(12), "K12");
  same_counts(wm_test_er(2, 1, 1), "edge(2)");
  same_counts(wm_test_kron(12, 3), "kronecker 12");
}

/* ---- over two GPUs ----------------------------------------------------- */

static void need_two(void) {
  const int all = wm_gpu_count();
  if (all < 2) cr_skip_test("%d GPU(s) here: the two-GPU cases need 2", all);
  gpus_now = 2;
}

/* The vertices from device 0's counter (then, WM_GPU_STATIC_SPLIT=1,
 * dealt in turn) and the wheels' arcs dealt in turn, each device's values
 * added: the CPU's walks, and the counts with every piece on two GPUs the
 * CPU's, on a hub graph and Kronecker graphs. */
Test(gpu_orbit_walks5, over_two_gpus, .timeout = 900) {
  need_two();
  for (int split = 0; split < 2; split++) {
    if (split) setenv("WM_GPU_STATIC_SPLIT", "1", 1);
    const char *how = split ? ", static" : "";
    char what[96];
    snprintf(what, sizeof what, "hub over G(2999, 0.002) on 2 GPUs%s", how);
    same_walks(wm_test_hub_graph(3000, 0.9, 0.002, 7), what);
    snprintf(what, sizeof what, "kronecker 12 on 2 GPUs%s", how);
    same_walks(wm_test_kron(12, 3), what);
    snprintf(what, sizeof what, "hub over G(1999, 0.003), counts on 2 GPUs%s", how);
    same_counts(wm_test_hub_graph(2000, 0.9, 0.003, 8), what);
    snprintf(what, sizeof what, "kronecker 12, counts on 2 GPUs%s", how);
    same_counts(wm_test_kron(12, 3), what);
    unsetenv("WM_GPU_STATIC_SPLIT");
  }
  same_walks(clique(12), "K12 on 2 GPUs");
  same_walks(wm_test_er(2, 1, 1), "edge(2) on 2 GPUs");
}

Test(gpu_orbit_walks5, an_interrupt_ends_the_walks_on_two_gpus) {
  need_two();
  interrupted_then_whole();
}

/* A device that fails (WM_GPU_FAULT_DEVICE queues a trapping kernel on
 * device 1 ahead of its walks): WM_EDEVICE naming it, not a count. */
Test(gpu_orbit_walks5, a_failing_gpu_is_a_device_error_naming_it) {
  need_two();
  wm_graph *g = wm_test_powerlaw(2000, 6, 6, 0.1, 4);
  wm_error err;
  uint32_t *tri = malloc(g->m * sizeof *tri);
  cr_assert(tri);
  cr_assert_eq(wm_orbit_triangles_cpu(g, tri, &err), WM_OK, "%s", err.msg);
  uint64_t *at;
  uint32_t *list;
  arc_lists(g, tri, &at, &list);
  wm_o5n_walks w;
  cr_assert_eq(wm_o5n_walks_alloc(g, &w), 0);
  setenv("WM_GPU_FAULT_DEVICE", "1", 1);
  const int rc = wm_o5n_walks_gpu(g, NULL, 2, tri, at, list, &w, NULL, &err);
  unsetenv("WM_GPU_FAULT_DEVICE");
  cr_assert_eq(rc, WM_EDEVICE, "%d: %s", rc, err.msg);
  cr_assert(strstr(err.msg, "device 1"), "%s", err.msg);
  wm_o5n_walks_free(&w);
  free(tri);
  free(at);
  free(list);
  wm_graph_destroy(g);
}
