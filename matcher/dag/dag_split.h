/* The degree DAG the dedicated GPU kernels count on, built on the host
 * (plain C, read by both compilers).  With ids ordered by degree (count's
 * default renumbering) each vertex's sorted row splits at the vertex
 * itself: N+(v), the neighbours below v, is a short prefix, and every
 * clique is found once, from its vertices' order.
 *
 * Triangles (gpu_triangle_kernel.cu): each triangle w < v < u is counted
 * at its middle vertex v (the pivot), w in N+(v), u in N-(v) (the rest of
 * the row).
 * k-cliques, k >= 4 (gpu_clique_kernel.cu): each is counted at its top
 * vertex v, as a (k-1)-clique of the subgraph induced by N+(v), which a
 * kernel holds as a lower-triangular bit matrix (wm_clq_row_offset).
 * Diamonds (gpu_diamond_kernel.cu): the sum over edges e of C(t(e), 2),
 * t(e) the triangles on e, each edge taken at its lower id. */
#ifndef WM_DAG_SPLIT_H
#define WM_DAG_SPLIT_H

#include <stdint.h>

#include "datasets.h"
#include "wm_error.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __CUDACC__
#define WM_DAG_INLINE __host__ __device__ static inline
#else
#define WM_DAG_INLINE static inline
#endif

/* Triangle policy.  Light pivots: N+ fits half of a 1024-slot table and N-
 * holds at most light_in vertices; a warp takes a few consecutive ones.
 * Heavy pivots come as items of at most WM_TRI_SPLIT in-neighbours, each
 * taken by a whole block with one 4096-slot table (N+ up to 2048 hashed,
 * beyond that searched in global memory).  A pivot's work grows with N-
 * times the in-neighbours' rows, so a light pivot with a long N- would hold
 * its warp long after the rest of the GPU has gone idle: N- is the split.
 * light_in is each warp's share of the graph's (pivot, in-neighbour)
 * pairs, kept within [WM_TRI_LIGHT_IN_MIN, WM_TRI_LIGHT_IN]: a small graph,
 * with few pairs per resident warp, is cut finer so that every warp gets
 * work, while large graphs run best at the cap (chosen by measurement on
 * the H100; see BENCHMARKS.md). */
#define WM_TRI_LIGHT_WARPS 8
#ifndef WM_TRI_HEAVY_WARPS
#define WM_TRI_HEAVY_WARPS 8
#endif
#define WM_TRI_LIGHT_CHUNK 8u /* most consecutive pivots per grab */
/* The table sizes and the splits can be made tiny by a test build
 * (-DWM_TRI_SPLIT=4 ...) to reach the heavy and fallback paths on small
 * graphs. */
#ifndef WM_TRI_LIGHT_SLOTS
#define WM_TRI_LIGHT_SLOTS 1024u
#endif
#ifndef WM_TRI_HEAVY_SLOTS
#define WM_TRI_HEAVY_SLOTS 4096u
#endif
#ifndef WM_TRI_LIGHT_IN
#define WM_TRI_LIGHT_IN 64u
#endif
#ifndef WM_TRI_LIGHT_IN_MIN
#define WM_TRI_LIGHT_IN_MIN 16u
#endif
#ifndef WM_TRI_SPLIT
#define WM_TRI_SPLIT 512u /* each item rebuilds the pivot's table: smaller items rebuild it more often */
#endif

WM_DAG_INLINE int wm_tri_is_heavy(uint32_t dplus, uint32_t din, uint32_t light_in) {
  return 2u * dplus > WM_TRI_LIGHT_SLOTS || din > light_in;
}

/* Diamond policy (gpu_diamond_kernel.cu).  Each edge is taken at its
 * lower id, the end of higher degree (ids by descending degree): the
 * pivot v's whole row N(v) goes into a table, and each u in N-(v) scans its
 * own whole row against it.  A pivot is light when N-(v) holds at most
 * light_in vertices and its table fits a light warp's (a bitmap of every id
 * when the graph has at most 32 WM_TRI_LIGHT_SLOTS vertices, else N(v)
 * hashed into at most half of it); heavy pivots come as items of at most
 * wm_dia_split(|N(v)|) vertices of N-(v), a block each. */
#ifndef WM_DIA_SPLIT
#define WM_DIA_SPLIT 256u
#endif
/* Each item rebuilds its pivot's table, so a pivot of degree d is cut into
 * items of at least d / WM_DIA_BUILD vertices of N-. */
#ifndef WM_DIA_BUILD
#define WM_DIA_BUILD 4u
#endif
WM_DAG_INLINE uint32_t wm_dia_split(uint32_t d) {
  return d / WM_DIA_BUILD > WM_DIA_SPLIT ? d / WM_DIA_BUILD : WM_DIA_SPLIT;
}
WM_DAG_INLINE int wm_dia_light_bits(uint32_t n) { return n <= 32u * WM_TRI_LIGHT_SLOTS; }
WM_DAG_INLINE int wm_dia_heavy_bits(uint32_t n) { return n <= 32u * WM_TRI_HEAVY_SLOTS; }
WM_DAG_INLINE int wm_dia_is_heavy(uint32_t n, uint32_t d, uint32_t din, uint32_t light_in) {
  return din > light_in || (!wm_dia_light_bits(n) && 2u * d > WM_TRI_LIGHT_SLOTS);
}

/* Clique policy.  A pivot with |N+| <= WM_CLQ_LIGHT_D is light: one warp
 * builds its matrix in shared memory and counts it.  Heavier pivots have
 * their matrices built once into a device pool (a block per pivot), then
 * counted as items of at most WM_CLQ_ROWS rows, a block per item, so that
 * the densest pivot is spread over many SMs. */
#define WM_CLQ_KMAX 8u /* largest clique the kernel counts */
#define WM_CLQ_WARPS 8
#ifndef WM_CLQ_LIGHT_D
#define WM_CLQ_LIGHT_D 64u
#endif
#ifndef WM_CLQ_ROWS
#define WM_CLQ_ROWS 128u
#endif
/* A heavy block hashes N+ up to half its table (larger ones are searched
 * for), counts rows [0, hi) of matrices up to WM_CLQ_SMEM_D from shared
 * memory (larger ones from the pool, through the caches), and keeps its
 * warps' level sets in shared memory for |N+| up to WM_CLQ_STACK_D (in a
 * device buffer beyond). */
#ifndef WM_CLQ_BUILD_SLOTS
#define WM_CLQ_BUILD_SLOTS 4096u
#endif
#ifndef WM_CLQ_SMEM_D
#define WM_CLQ_SMEM_D 800u /* with the stacks of k <= 5: 4 blocks per H100 SM */
#endif
#ifndef WM_CLQ_STACK_D
#define WM_CLQ_STACK_D 2048u
#endif

/* Words before row i of a lower-triangular bit matrix whose row i holds
 * ceil(i / 32) words (bits j < i): sum over t < i of ceil(t / 32). */
#define WM_CLQ_ROW_OFFSET(i) \
  ((i) <= 1 ? 0 : (((i) - 1) / 32 + 1) * (16 * (((i) - 1) / 32) + ((i) - 1) % 32))
WM_DAG_INLINE uint64_t wm_clq_row_offset(uint64_t i) { return WM_CLQ_ROW_OFFSET(i); }

/* Words of one counting warp's sets for k-cliques, when a set has at most
 * `stride` words: the row's index (nonzero words and their prefix counts),
 * then words, index and prefix per level below the row (k >= 5). */
#define WM_CLQ_STACK_WORDS(k, stride) ((2u + 3u * ((k) > 4 ? (k) - 4 : 0u)) * (stride))

/* A heavy unit of work.  Triangles: pivot v's in-neighbours [lo, hi)
 * (indices into N-(v)), for diamonds as well.  Cliques: rows [lo, hi) of heavy pivot number v
 * (an index into wm_dag_split.pivots). */
typedef struct wm_dag_item {
  uint32_t v, lo, hi;
} wm_dag_item;

typedef struct wm_dag_split {
  uint32_t *dplus;    /* n entries: |N+(v)|, the length of the prefix of v's row below v */
  wm_dag_item *items; /* heavy items, by pivot; a pivot's ranges ascending (triangles) or
                         descending, the heaviest rows first (cliques) */
  uint64_t n_items;
  uint64_t work;      /* triangles: (pivot, in-neighbour) pairs intersected, the sum of
                         |N-(v)| over pivots with N+(v) non-empty; diamonds: edges
                         intersected; cliques: matrix rows built */
  uint32_t light_in;  /* triangles and diamonds: the largest N- of a light pivot */
  uint32_t max_heavy_d; /* diamonds: the largest N(v) of a heavy pivot */
  /* cliques only */
  uint32_t *pivots;   /* heavy pivots, by descending |N+| */
  uint64_t *base;     /* n_pivots + 1 prefix sums: pivot p's matrix is words
                         [base[p], base[p + 1]) of the pool */
  uint64_t n_pivots;
  uint32_t max_dplus;
} wm_dag_split;

/* Fill s from a symmetric graph with sorted rows (OpenMP).  warps: the
 * light warps resident on the devices, which set light_in (0: the most). */
int wm_dag_split_triangles(const wm_graph *g, uint64_t warps, wm_dag_split *s, wm_error *err);
/* Pivots with N- non-empty, heavy ones split over N- (wm_dia_is_heavy). */
int wm_dag_split_diamonds(const wm_graph *g, uint64_t warps, wm_dag_split *s, wm_error *err);
/* Pivots with |N+| >= k - 1 only: a smaller N+ holds no (k-1)-clique. */
int wm_dag_split_cliques(const wm_graph *g, unsigned k, wm_dag_split *s, wm_error *err);
void wm_dag_split_free(wm_dag_split *s);

#ifdef __cplusplus
}
#endif
#endif
