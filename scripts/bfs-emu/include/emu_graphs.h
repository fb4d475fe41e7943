/* Small graphs for the emulator checkers (scripts/dag-emu/check.cpp,
 * scripts/motif-emu/check.cpp, scripts/orbit-emu/check.cpp): a seeded
 * generator and graphs built from pairs, the same on every run. */
#ifndef EMU_GRAPHS_H
#define EMU_GRAPHS_H

#include <stdio.h>
#include <stdlib.h>

#include <vector>

#include "datasets.h"

static inline uint64_t lcg(uint64_t *s) {
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  return *s >> 33;
}

/* The symmetric graph of the pairs on vertices 0..n-1; exits on an error. */
static inline wm_graph *from_pairs(std::vector<uint32_t> &src, std::vector<uint32_t> &dst, uint32_t n) {
  wm_graph *g = NULL;
  wm_error err;
  /* wm_graph_from_arcs consumes its arrays; never hand it a NULL one */
  src.push_back(0), dst.push_back(0); /* a self-loop: dropped */
  if (wm_graph_from_arcs(src.data(), dst.data(), src.size(), n, 0, &g, &err)) {
    fprintf(stderr, "emu graphs: %s\n", err.msg);
    exit(2);
  }
  return g;
}

/* ER(n, p) with p in thousandths. */
static inline wm_graph *er(uint32_t n, unsigned p_milli, uint64_t seed) {
  std::vector<uint32_t> s, d;
  for (uint32_t a = 0; a < n; a++)
    for (uint32_t b = a + 1; b < n; b++)
      if (lcg(&seed) % 1000 < p_milli) s.push_back(a), d.push_back(b);
  return from_pairs(s, d, n);
}

/* Chung-Lu weights (i + 1)^-0.5 scaled to an average degree avg, with
 * `hubs` vertices adjacent to each other vertex with probability
 * hub_milli / 1000 (as wm_test_powerlaw). */
static inline wm_graph *powerlaw(uint32_t n, double avg, uint32_t hubs, unsigned hub_milli, uint64_t seed) {
  std::vector<double> w(n);
  double sum = 0;
  for (uint32_t i = 0; i < n; i++) sum += w[i] = 1.0 / __builtin_sqrt(i + 1.0);
  std::vector<uint32_t> s, d;
  for (uint32_t a = 0; a < n; a++)
    for (uint32_t b = a + 1; b < n; b++) {
      const double p = a < hubs || b < hubs ? hub_milli / 1000.0 : avg * w[a] * w[b] / sum;
      if ((double)(lcg(&seed) % 1000000) < p * 1e6) s.push_back(a), d.push_back(b);
    }
  return from_pairs(s, d, n);
}

/* A hub (id 0) adjacent to `spokes` of n vertices over a sparse random
 * graph of about `deg` per vertex (as test_gpu_motifs.c's hub), and a
 * second hub (id n - 1) adjacent to the first and to every `every`-th
 * vertex (none where every is 0): below the first hub, its row is one
 * that the whole warp walks (for_paths' rows of more than 64). */
static inline wm_graph *hub(uint32_t n, uint32_t spokes, unsigned deg, uint32_t every, uint64_t seed) {
  std::vector<uint32_t> s, d;
  for (uint32_t v = 1; v <= spokes; v++) s.push_back(0), d.push_back(v);
  for (uint32_t v = 0; every && v + 1 < n; v += every) s.push_back(n - 1), d.push_back(v);
  for (uint64_t i = 0; i < (uint64_t)deg * n / 2; i++) {
    s.push_back(1 + (uint32_t)(lcg(&seed) % (n - 1)));
    d.push_back(1 + (uint32_t)(lcg(&seed) % (n - 1)));
  }
  return from_pairs(s, d, n);
}

static inline wm_graph *star(uint32_t leaves) {
  std::vector<uint32_t> s, d;
  for (uint32_t v = 1; v <= leaves; v++) s.push_back(0), d.push_back(v);
  return from_pairs(s, d, leaves + 1);
}

static inline wm_graph *clique(uint32_t n) {
  std::vector<uint32_t> s, d;
  for (uint32_t a = 0; a < n; a++)
    for (uint32_t b = a + 1; b < n; b++) s.push_back(a), d.push_back(b);
  return from_pairs(s, d, n);
}

/* Edges listed as pairs a0 b0 a1 b1 ... over n vertices. */
static inline wm_graph *edges(uint32_t n, std::vector<uint32_t> pairs) {
  std::vector<uint32_t> s, d;
  for (size_t i = 0; i + 1 < pairs.size(); i += 2) s.push_back(pairs[i]), d.push_back(pairs[i + 1]);
  return from_pairs(s, d, n);
}

/* The edge-list (or .wmg) file a checker was given, read without the
 * cache; a file that does not load ends the checker (exit 2, the message
 * led by who). */
static inline wm_graph *load_given(const char *path, const char *who) {
  wm_load_options lo;
  wm_load_options_init(&lo);
  lo.use_cache = 0;
  wm_graph *g = NULL;
  wm_error err;
  if (wm_graph_load(path, &lo, &g, NULL, &err)) {
    fprintf(stderr, "%s: %s\n", who, err.msg);
    exit(2);
  }
  return g;
}

#endif
