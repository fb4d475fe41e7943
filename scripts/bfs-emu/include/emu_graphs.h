/* Small graphs for the emulator checkers (scripts/dag-emu/check.cpp,
 * scripts/motif-emu/check.cpp): a seeded generator and graphs built from
 * pairs, the same on every run. */
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

#endif
