/* The triangle path's view of the graph, built on the host (plain C, read
 * by both compilers): each vertex's sorted row split at the vertex itself,
 * N+(v) below and N-(v) above, and the heavy pivots' work items.  With ids
 * ordered by degree each triangle w < v < u is counted once, at its middle
 * vertex v (the pivot): w in N+(v), u in N-(v).  The GPU kernels are in
 * gpu_triangle_kernel.cu. */
#ifndef WM_TRIANGLE_SPLIT_H
#define WM_TRIANGLE_SPLIT_H

#include <stdint.h>

#include "datasets.h"
#include "wm_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Policy.  Light pivots: N+ fits half of a 1024-slot table and N- holds at
 * most WM_TRI_LIGHT_IN vertices; a warp takes a few consecutive ones.
 * Heavy pivots come as items of at most WM_TRI_SPLIT in-neighbours, each
 * taken by a whole block with one 4096-slot table (N+ up to 2048 hashed,
 * beyond that searched in global memory).  A pivot's work grows with N-
 * times the in-neighbours' rows, so a light pivot with a long N- held a
 * warp for milliseconds while the rest of the GPU idled: N- is the split. */
#define WM_TRI_LIGHT_WARPS 8
#define WM_TRI_HEAVY_WARPS 8
#define WM_TRI_LIGHT_CHUNK 8u /* most consecutive pivots per grab */
/* The table sizes and the split can be made tiny by a test build
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
#ifndef WM_TRI_SPLIT
#define WM_TRI_SPLIT 256u
#endif

#ifdef __CUDACC__
__host__ __device__
#endif
static inline int wm_tri_is_heavy(uint32_t dplus, uint32_t din) {
  return 2u * dplus > WM_TRI_LIGHT_SLOTS || din > WM_TRI_LIGHT_IN;
}

/* A heavy pivot's in-neighbours [lo, hi) (indices into N-(v)). */
typedef struct wm_tri_item {
  uint32_t v, lo, hi;
} wm_tri_item;

typedef struct wm_tri_split {
  uint32_t *dplus;     /* n entries: |N+(v)|, the length of the prefix of v's row below v */
  wm_tri_item *items;  /* heavy pivots' items, by pivot then range */
  uint64_t n_items;
  uint64_t pairs;      /* (pivot, in-neighbour) pairs intersected: sum of |N-(v)| over
                          pivots with N+(v) non-empty */
} wm_tri_split;

/* Fills s from a symmetric graph with sorted rows (OpenMP). */
int wm_tri_split_build(const wm_graph *g, wm_tri_split *s, wm_error *err);
void wm_tri_split_free(wm_tri_split *s);

#ifdef __cplusplus
}
#endif
#endif
