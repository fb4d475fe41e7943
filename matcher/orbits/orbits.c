/* The executors' entry and what they share: the method's choice and the
 * one place where a count becomes a uint64 or an overflow error. */
#include "orbits.h"

#include <string.h>

#include "device.h"

void wm_orbit_keep_first(wm_orbit_first_error *f, int64_t vertex, const wm_error *err) {
#pragma omp critical(wm_orbit_first_error)
  if (f->vertex < 0 || vertex < f->vertex) f->vertex = vertex, f->err = *err;
}

static const char *widths(unsigned bits) {
  return bits > 64 ? "the formula's sums are 128-bit"
                   : "counts are 64-bit unless their high words are asked for (warpmatch_orbit_options.counts_high)";
}

int wm_orbit_overflow(const wm_graph *g, uint32_t vertex, unsigned orbit, unsigned bits, wm_error *err) {
  return wm_fail(err, WM_EINPUT, "orbits: vertex %u (index %u): its count of orbit %u passes 2^%u - 1; %s",
                 wm_graph_file_id(g, vertex), wm_graph_index(g, vertex), orbit, bits, widths(bits));
}

int wm_edge_orbit_overflow(const wm_graph *g, uint32_t a, uint32_t b, unsigned orbit, unsigned bits,
                           wm_error *err) {
  return wm_fail(err, WM_EINPUT, "orbits: edge %u-%u (indices %u-%u): its count of edge orbit %u passes 2^%u - 1; %s",
                 wm_graph_file_id(g, a), wm_graph_file_id(g, b), a, b, orbit, bits, widths(bits));
}

static uint64_t *high_of(const wm_orbit_run *run, const uint64_t *out) {
  return run->high ? run->high + (out - run->low) : NULL;
}

/* start + v split into *out and its high cell; 0, or -1 when it needs a
 * high cell that run lacks. */
static int split(wm_i128 v, const wm_orbit_run *run, uint64_t *out) {
  const unsigned __int128 whole = (unsigned __int128)v + run->start;
  uint64_t *high = high_of(run, out);
  if (whole >> 64 && !high) return -1;
  *out = (uint64_t)whole;
  if (whole >> 64) *high = (uint64_t)(whole >> 64); /* the others were zeroed */
  return 0;
}

int wm_orbit_store(const wm_graph *g, uint32_t vertex, unsigned orbit, wm_i128 v, const wm_orbit_run *run,
                   uint64_t *out, wm_error *err) {
  if (v < 0)
    return wm_fail(err, WM_EINPUT, "orbits: vertex %u (index %u): orbit %u came out negative (a bug: please report it)",
                   wm_graph_file_id(g, vertex), wm_graph_index(g, vertex), orbit);
  return split(v, run, out) ? wm_orbit_overflow(g, vertex, orbit, 64, err) : WM_OK;
}

int wm_edge_orbit_store(const wm_graph *g, uint32_t a, uint32_t b, unsigned orbit, wm_i128 v,
                        const wm_orbit_run *run, uint64_t *out, wm_error *err) {
  if (v < 0)
    return wm_fail(err, WM_EINPUT, "orbits: edge %u-%u: edge orbit %u came out negative (a bug: please report it)",
                   wm_graph_file_id(g, a), wm_graph_file_id(g, b), orbit);
  return split(v, run, out) ? wm_edge_orbit_overflow(g, a, b, orbit, 64, err) : WM_OK;
}

int wm_orbit_carry(const wm_orbit_run *run, const uint64_t *out) {
  uint64_t *high = high_of(run, out);
  if (high) __atomic_fetch_add(high, 1, __ATOMIC_RELAXED);
  return high != NULL;
}

int wm_orbits_cpu(const wm_graph *g, const wm_orbit_run *run, uint64_t *counts, wm_error *err) {
  wm_orbit_run cpu = *run;
  cpu.gpu = 0;
  return wm_orbits(g, &cpu, counts, err);
}

int wm_orbits(const wm_graph *g, const wm_orbit_run *run, uint64_t *counts, wm_error *err) {
  if (run->k < 2 || run->k > WM_ORBIT_MAX_K)
    return wm_fail(err, WM_EUSAGE, "orbits: graphlets of up to %u vertices; the sizes are 2 to 5", run->k);
  if (g->flags & WM_GRAPH_DIRECTED) return wm_fail(err, WM_EUSAGE, "orbits: needs an undirected graph");
  if (run->edges && !wm_edge_orbit_count(run->k))
    return wm_fail(err, WM_EUSAGE, "orbits: edge orbits are counted for graphlets of up to 3, 4 or 5 vertices (not "
                                   "%u)", run->k);
  if (run->edges && run->gpu)
    return wm_fail(err, WM_EUSAGE, "orbits: edge orbits are counted on the CPU (no GPU executor yet)");
  /* whichever method runs: asking for GPUs the host lacks is an error */
  if (run->gpu && run->gpus > 1 && run->gpus > wm_gpu_count())
    return wm_fail(err, WM_EDEVICE, "orbits: %d GPUs asked for, this host has %d", run->gpus, wm_gpu_count());
  wm_orbit_run wide = *run;
  if (run->high) { /* zeroed: the enumerator only carries into it */
    const uint64_t rows = run->edges ? wm_graph_edges(g) : g->n;
    const unsigned orbits = run->edges ? wm_edge_orbit_count(run->k) : wm_orbit_count(run->k);
    const uint64_t words = rows * orbits;
#pragma omp parallel for schedule(static) /* a fresh array's pages faulted in by every thread */
    for (uint64_t i = 0; i < words; i++) run->high[i] = 0;
    wide.low = counts;
    run = &wide;
  }
  if (run->edges && run->method == WM_ORBIT_FORMULA) {
    if (!wm_edge_orbit_has_formula(run->k))
      return wm_fail(err, WM_EUSAGE, "orbits: no formula for the edge orbits of %u-vertex graphlets yet", run->k);
    return wm_orbits_edge_formula(g, run, counts, err);
  }
  return run->method == WM_ORBIT_FORMULA ? wm_orbits_formula(g, run, counts, err)
                                          : wm_orbits_enumerate(g, run, counts, err);
}
