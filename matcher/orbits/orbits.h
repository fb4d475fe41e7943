/* Graphlet orbit counts per vertex (the graphlet degree vector): for every
 * vertex, how many connected induced subgraphs of 2..k vertices (k <= 5)
 * touch it in each automorphism orbit, numbered as ORCA and Przulj's figure
 * number them (0..14 up to 4 vertices, 0..72 up to 5).
 *
 * Two CPU executors: the enumerator (every connected induced subgraph once,
 * the oracle) and the formula (per-vertex and per-edge aggregates turned into
 * induced counts by the orbit relations; sizes up to 4 for now).  The GPU
 * executor computes the formula's heavy aggregates on the device
 * (gpu_orbit_sums.cu); the CPU then does the O(m) sums and the solve. */
#ifndef WM_ORBITS_H
#define WM_ORBITS_H

#include <stdint.h>

#include "datasets.h"
#include "exact_count.h"
#include "wm_error.h"

#ifdef __cplusplus
extern "C" {
#endif

struct wm_gpu_graph; /* device.h */
struct wm_share;     /* matcher.h */

#define WM_ORBIT_MAX_K 5
#define WM_ORBIT_MAX 73 /* orbits of the graphlets of 2..5 vertices */
#define WM_EDGE_ORBIT_MAX_K 5 /* edge orbits: graphlets of 3..5 vertices */
#define WM_EDGE_ORBIT4 12     /* those of graphlets of up to 4 vertices */
#define WM_EDGE_ORBIT_MAX 68

/* The orbits of the graphlets of 2..k vertices: 1, 4, 15, 73 (0 outside 2..5). */
unsigned wm_orbit_count(unsigned k);
/* ORCA's edge orbits of the graphlets of 3..k vertices: 2 for k = 3, 12 for
 * k = 4, 68 for k = 5 (0 otherwise). */
unsigned wm_edge_orbit_count(unsigned k);

/* What the orbit numbering is made of, derived once from the graphlets
 * (orbit_table.c): for a subgraph of j vertices (positions 0..j-1) given as
 * an edge mask (bit j*(j-1)/2 + i for the edge i-j, i < j, so that a vertex
 * added at position j appends its j bits), the orbit of each position, or
 * WM_ORBIT_NONE for a disconnected mask. */
#define WM_ORBIT_NONE 0xFF
#define WM_ORBIT_MASKS 1024 /* 2^10: the pairs of 5 positions */
typedef struct wm_orbit_tables {
  uint8_t orbit[WM_ORBIT_MAX_K + 1][WM_ORBIT_MASKS][WM_ORBIT_MAX_K];
  uint8_t graphlet_of_orbit[WM_ORBIT_MAX];   /* orbit -> graphlet (0..29, ORCA's G0..G29) */
  uint8_t orbit_vertices[WM_ORBIT_MAX];      /* vertices of its graphlet in that orbit */
  uint8_t graphlet_vertices[30], graphlet_edges[30];
  uint16_t graphlet_mask[30];                /* the reference drawing's mask */
  /* ORCA's edge orbit of each edge of a connected mask of 3 to 5 positions,
   * by its mask bit (WM_ORBIT_NONE for a pair that is no edge, and for 2
   * positions: ORCA's edge mode leaves out the lone edge). */
  uint8_t edge_orbit[WM_EDGE_ORBIT_MAX_K + 1][WM_ORBIT_MASKS][10];
} wm_orbit_tables;
/* The tables (built on the first call; thread-safe); NULL with err set if
 * the reference drawings disagree with the automorphism orbits (a bug). */
const wm_orbit_tables *wm_orbit_tables_get(wm_error *err);
/* The same, where only masks of up to k positions will be read (the rest
 * may not be built yet). */
const wm_orbit_tables *wm_orbit_tables_upto(unsigned k, wm_error *err);

/* The non-induced copies of one orbit's graphlet in another's, for the
 * orbits a, b of [first, last) (one graphlet size: a copy spans all of its
 * vertices): c[(a - first) * stride + (b - first)] = how many connected
 * spanning edge subsets of b's graphlet are a's graphlet with the vertex
 * in orbit b in orbit a.  So N_a(v) = sum over b of c[a][b] I_b(v) for
 * v's non-induced counts N and induced ones I (orbit_formula.c for 4
 * vertices, orbit_noninduced5.c for 5).  t must hold the masks of that size
 * (wm_orbit_tables_upto). */
void wm_orbit_copies_in(const wm_orbit_tables *t, unsigned first, unsigned last, uint8_t *c, unsigned stride);

/* The reference drawing of graphlet `gid` (0..29) as "0-1 0-2 ...", and the
 * orbit of each of its vertices; for documentation and tests. */
void wm_orbit_graphlet_edges(unsigned gid, char *buf, unsigned size);

enum { WM_ORBIT_ENUMERATE = 2, WM_ORBIT_FORMULA = 1 }; /* WARPMATCH_METHOD_* values */

typedef struct wm_orbit_run {
  unsigned k;      /* graphlets of 2..k vertices */
  int method;      /* WM_ORBIT_FORMULA or _ENUMERATE */
  uint64_t start;  /* every count starts here (the test hook wm_count_start) */
  int gpu;         /* 1: the formula's aggregates on the GPU (the enumerator has no GPU executor) */
  int edges;       /* 1: ORCA's edge orbits, a row per undirected edge (on the CPU) */
  const struct wm_gpu_graph *gpu_graph; /* gpu: g kept on the device (device.h), or NULL: uploaded */
  double *kernel_ms; /* gpu: the kernels' time (CUDA events), where not NULL */
  int gpus;          /* gpu: the 5-vertex pieces (the non-induced counts' walks, clique sums and 5-cycles, or
                      * the walk's sums) over devices 0..gpus-1 (0 or 1: the current one) */
  /* The 5-vertex orbits' heavy loops shared with other processes (MPI
   * ranks; the CPU's, not with gpu: the non-induced counts' walks, clique
   * sums and 5-cycles, or WM_ORBIT5_WALK=1's sums), each returning every
   * vertex's counts; NULL: this process alone.  The smaller passes and the
   * solve are each process's own. */
  const struct wm_share *share;
  /* Where not NULL, the high 64 bits of every count, laid out as counts
   * (n or edges x orbits), so that a count past 2^64 - 1 is kept whole:
   * count = high * 2^64 + low.  wm_orbits zeroes it and sets `low` to the
   * counts it mirrors (the stores write only the high cells not 0).  NULL:
   * such a count is WM_EINPUT. */
  uint64_t *high;
  const uint64_t *low;
} wm_orbit_run;

/* 1 when the formula covers graphlets of up to k vertices; the edge
 * formula, their edge orbits. */
int wm_orbit_has_formula(unsigned k);
int wm_edge_orbit_has_formula(unsigned k);

/* counts[v * wm_orbit_count(k) + o] for every vertex v of the undirected g
 * (n x orbits, overwritten), the high words into run->high where not NULL;
 * without them an orbit count past 2^64 - 1 is WM_EINPUT naming the vertex
 * (its file id) and the orbit, and counts are then unspecified.  With
 * run->edges the rows are the undirected edges u-v (u < v, indices), in
 * ascending (u, v) order, wm_edge_orbit_count(k) counts each. */
int wm_orbits_cpu(const wm_graph *g, const wm_orbit_run *run, uint64_t *counts, wm_error *err);
int wm_orbits_enumerate(const wm_graph *g, const wm_orbit_run *run, uint64_t *counts, wm_error *err);
int wm_orbits_formula(const wm_graph *g, const wm_orbit_run *run, uint64_t *counts, wm_error *err);
/* The 5-vertex formula (orbit_formula5.c; the 4-vertex orbits by
 * wm_orbits_formula, the 5-vertex ones on the CPU). */
int wm_orbits_formula5(const wm_graph *g, const wm_orbit_run *run, uint64_t *counts, wm_error *err);
/* The edge orbits (run->edges) by the edge formula (orbit_edge_formula.c). */
int wm_orbits_edge_formula(const wm_graph *g, const wm_orbit_run *run, uint64_t *counts, wm_error *err);
/* Its 5-vertex part (orbit_edge_formula5.c): columns 12..67 of every row
 * (wm_edge_orbit_count(5) counts each), from tri, the triangles per arc. */
int wm_orbits_edge_formula5(const wm_graph *g, const wm_orbit_run *run, const uint32_t *tri, uint64_t *counts,
                            wm_error *err);
/* wm_orbits_cpu, or for run->gpu and the formula, the formula with its
 * aggregates from the GPU (WM_EDEVICE when that fails). */
int wm_orbits(const wm_graph *g, const wm_orbit_run *run, uint64_t *counts, wm_error *err);

/* The formula's heavy aggregates, from the CPU's pass or the GPU's: per arc
 * (g->m) the triangles on its edge; for k >= 4, per vertex its 4-cliques
 * (k4), its 4-cycles' sum over w != v of C(common(v, w), 2) (n8), and the
 * sum over its triangles v, u, w (w > u) of the far edge's triangles less
 * one (n12).  The rest of the formula is O(m) on the CPU. */
typedef struct wm_orbit_aggregates {
  uint32_t *tri;
  uint64_t *k4;
  wm_i128 *n8, *n12;
} wm_orbit_aggregates;
/* Fills a's arrays (allocated by the caller: tri for every arc; k4, n8,
 * n12 for every vertex where k >= 4, else untouched) on the current CUDA
 * device, reading g where gg (may be NULL) holds it there, with its pool
 * and its kept scratch; *kernel_ms gets the kernels' time.  A vertex's
 * 4-cliques, 4-cycles or diamond sums past 2^64 - 1 are WM_EINPUT (the
 * CPU's error); every CUDA failure WM_EDEVICE (gpu_orbit_sums.cu; without
 * CUDA, WM_EDEVICE "built without CUDA"). */
int wm_orbit_aggregates_gpu(const wm_graph *g, unsigned k, const struct wm_gpu_graph *gg, wm_orbit_aggregates *a,
                            double *kernel_ms, wm_error *err);

/* The same on the CPU (orbit_aggregates_cpu.c): a's arrays as above, 64-bit
 * sums past 2^64 - 1 are WM_EINPUT. */
int wm_orbit_aggregates_cpu(const wm_graph *g, unsigned k, wm_orbit_aggregates *a, wm_error *err);
/* Only the triangles per arc (tri: g->m entries). */
int wm_orbit_triangles_cpu(const wm_graph *g, uint32_t *tri, wm_error *err);
/* The orbits up to run->k <= 4 by the formula, its aggregates on the GPU
 * where run->gpu, into counts[v * stride + o]. */
int wm_orbit_rows4(const wm_graph *g, const wm_orbit_run *run, unsigned stride, uint64_t *counts, wm_error *err);
/* The orbits up to run->k <= 4 from aggregates already counted (for
 * k >= 4: tri, k4, n8, n12), into counts[v * stride + o]. */
int wm_orbit_rows_from(const wm_graph *g, const wm_orbit_run *run, const wm_orbit_aggregates *a,
                       unsigned stride, uint64_t *counts, wm_error *err);

/* The first failure of a parallel pass over the vertices, kept by the
 * thread whose vertex is lowest (so the message does not depend on the
 * schedule): start with {-1}, keep each failure, then vertex >= 0 says err. */
typedef struct wm_orbit_first_error {
  int64_t vertex;
  wm_error err;
} wm_orbit_first_error;
void wm_orbit_keep_first(wm_orbit_first_error *f, int64_t vertex, const wm_error *err);


/* *out = the low 64 bits of run->start + v, its high 64 bits into the
 * cell of run->high that mirrors out; without run->high, WM_EINPUT naming
 * vertex (g's file id of index v) and orbit when that passes 2^64 - 1 (and
 * v < 0: a bug, also named). */
int wm_orbit_store(const wm_graph *g, uint32_t vertex, unsigned orbit, wm_i128 v, const wm_orbit_run *run,
                   uint64_t *out, wm_error *err);
/* The same for the count of edge orbit `orbit` of the undirected edge a-b. */
int wm_edge_orbit_store(const wm_graph *g, uint32_t a, uint32_t b, unsigned orbit, wm_i128 v,
                        const wm_orbit_run *run, uint64_t *out, wm_error *err);
/* A count carried past 2^64 - 1 by an addition to *out (the enumerator's):
 * one more in the mirroring high cell (atomically), or without run->high
 * 0 (the caller names the overflow).  1 when carried. */
int wm_orbit_carry(const wm_orbit_run *run, const uint64_t *out);
/* The message of an orbit count past 2^bits - 1 (64: the counts' width
 * without the high words; 128: a sum the solve works in). */
int wm_orbit_overflow(const wm_graph *g, uint32_t vertex, unsigned orbit, unsigned bits, wm_error *err);
/* The same for the count of edge orbit `orbit` of the undirected edge a-b. */
int wm_edge_orbit_overflow(const wm_graph *g, uint32_t a, uint32_t b, unsigned orbit, unsigned bits,
                           wm_error *err);

#ifdef __cplusplus
}
#endif
#endif
