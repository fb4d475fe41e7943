/* Degree-preserving random graphs, for motif significance (Milo et al.,
 * Science 2002): a new graph with every vertex's degree (in- and
 * out-degree when directed) of the input, no self-loop, no multi-edge.
 *
 * Two Markov chains over such graphs, both started at the input:
 *  - switch: double-edge swaps a-b, c-d -> a-d, c-b (or a-c, b-d), arc
 *    swaps a->b, c->d -> a->d, c->b when directed; a swap that would make
 *    a loop or a multi-edge is rejected (the chain stays, so that its
 *    stationary law stays uniform);
 *  - curveball: global curveball rounds (Carstens et al. 2016, after
 *    Strona et al. 2014): the vertices paired at random, each pair trading
 *    the neighbours that only one of the two has.
 *
 * Every random draw of graph `index` of a seed comes from one counter-based
 * stream keyed by (seed, index) (gen_random.h): graph i is the same
 * whatever the threads, and graphs are made in parallel by the caller. */
#ifndef WM_RANDOMIZE_H
#define WM_RANDOMIZE_H

#include <stdint.h>

#include "base.h"
#include "datasets.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { WM_RANDOMIZE_SWITCH = 1, WM_RANDOMIZE_CURVEBALL = 2 };

/* Switch: attempted swaps per edge; curveball: global trade rounds.  Ten
 * attempts per edge picks every edge about twenty times (two edges an
 * attempt), past where the share of the input's edges still present levels
 * off at the configuration model's (the stats' mixing check, and the
 * lattice tests of tests/datasets/test_randomize.c); Milo et al. (2003,
 * "On the uniform generation of random graphs with prescribed degree
 * sequences") used up to 100 as a conservative bound. */
#define WM_RANDOMIZE_DEFAULT_SWAPS 10u
#define WM_RANDOMIZE_MAX_SWAPS 10000u

typedef struct wm_gpu_switcher wm_gpu_switcher;

typedef struct wm_randomize_options {
  int method;              /* WM_RANDOMIZE_* */
  uint64_t seed;
  uint64_t index;          /* which graph of the seed's sequence */
  unsigned swaps_per_edge; /* 1..WM_RANDOMIZE_MAX_SWAPS */
  int use_gpu;             /* switch only: 1 makes the graph on CUDA device `gpu` (gpu_rand_switch.cu) */
  int gpu;
  wm_gpu_switcher *switcher; /* or NULL: with use_gpu, the buffers kept for g on `gpu` (below) */
  const wm_progress *stop; /* or NULL: the chains give up with WM_EINTERRUPTED once it is stopped */
} wm_randomize_options;

typedef struct wm_randomize_stats {
  uint64_t attempted;          /* swaps (switch) or trades (curveball) tried */
  uint64_t accepted;           /* swaps made, or trades that moved a neighbour */
  uint64_t edges_kept;         /* edges (arcs) of the input still present */
  double edges_kept_expected;  /* the same expected of a random graph of these degrees:
                                  the sum over the input's edges of min(1, d(u) d(v) / 2m)
                                  (arcs: min(1, out(u) in(v) / m)) */
} wm_randomize_stats;

/* A new graph of g's vertices (ids and flags kept) and degrees.  g must be
 * symmetric or directed, not oriented (WM_EINPUT: an orientation by degree
 * is not kept by swaps). */
int wm_randomize(const wm_graph *g, const wm_randomize_options *o, wm_graph **out, wm_randomize_stats *st,
                 wm_error *err);

/* The chains (rand_switch.c, rand_curveball.c, gpu_rand_switch.cu).
 * `out` has g's offsets; each fills out->adj (rows in any order; the GPU's
 * sorted) from the stream `key`, polling `stop` (may be NULL). */
int wm_rand_switch(const wm_graph *g, uint64_t key, uint64_t attempts, const wm_progress *stop, wm_graph *out,
                   wm_randomize_stats *st, wm_error *err);
int wm_rand_curveball(const wm_graph *g, uint64_t key, unsigned rounds, const wm_progress *stop, wm_graph *out,
                      wm_randomize_stats *st, wm_error *err);
/* Edge switching on CUDA device `dev` in rounds: each round pairs up the
 * edges by a keyed permutation, every pair proposes one swap against the
 * round's starting graph, and where two proposals would make the same edge
 * the lower pair wins, so the graph depends on `key` alone, whatever the
 * GPU or the thread timing (not the CPU chain's graph: another order of
 * attempts).  `attempts` counts as the CPU chain's do (a pair is one);
 * the last round pairs only as many as are left.  WM_EDEVICE without CUDA. */
int wm_gpu_rand_switch(const wm_graph *g, uint64_t key, uint64_t attempts, int dev, const wm_progress *stop,
                       wm_graph *out, wm_randomize_stats *st, wm_error *err);
/* The same for many graphs of g on one device: a switcher holds every
 * buffer (g's edges and offsets, the hash set, the claim table, the sort's)
 * from create to destroy, so that each run allocates nothing and waits for
 * the device once.  run's g must be create's (else WM_EUSAGE); a switcher
 * serves one thread at a time.  create is WM_EDEVICE without CUDA. */
int wm_gpu_switcher_create(const wm_graph *g, int dev, wm_gpu_switcher **out, wm_error *err);
/* The same, its graphs' rows renumbered on the device into `sorted`'s ids:
 * sorted is g renumbered (wm_graph_relabel_by_degree_map's graph and
 * old_of), and a graph made is then exactly g's graph of that (seed,
 * index) put through the renumbering (the same chain over g's edges, each
 * arc mapped before the sort).  run, and wm_randomize with it, take
 * `sorted` as their g (its offsets and flags are the rows'); old_of may go
 * once create returns, sorted and g may not. */
int wm_gpu_switcher_create_renumbered(const wm_graph *g, const wm_graph *sorted, const uint32_t *old_of, int dev,
                                      wm_gpu_switcher **out, wm_error *err);
int wm_gpu_switcher_run(wm_gpu_switcher *w, const wm_graph *g, uint64_t key, uint64_t attempts,
                        const wm_progress *stop, wm_graph *out, wm_randomize_stats *st, wm_error *err);
void wm_gpu_switcher_destroy(wm_gpu_switcher *w);

#ifdef __cplusplus
}
#endif
#endif
