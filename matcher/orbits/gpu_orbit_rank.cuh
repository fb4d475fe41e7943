/* g (on the device) ranked by degree for the orbits' GPU passes: the
 * vertices sorted by (degree, index), then every arc by (its tail's rank,
 * its head's), by CUB's radix sorts, each ranked arc keeping the arc of g
 * it came from.  gpu_orbit_sums.cu ranks by ascending degree,
 * gpu_orbit_cliques5.cu by descending degree (ties by index both ways).
 * On the host, a relabelling reads every arc once per thread and its rows
 * and their way back would be uploaded.  Included by each (one
 * translation unit each). */
#pragma once

#include <cub/cub.cuh>

#include "gpu_orbit_warps.cuh"

namespace {

/* The sorts' buffers (keys and sorted of max(n, m) entries, arcs of m, tmp
 * of rank_space's bytes), and what the ranking makes: off (n + 1) and adj
 * (m) of the ranked graph, old (rank -> g's vertex), rank (g's vertex ->
 * rank) and g_arc (ranked arc -> g's arc, m). */
struct ranking {
  ull *keys, *sorted, *arcs;
  void *tmp;
  size_t tmp_bytes;
  uint64_t *off;
  uint32_t *adj, *old, *rank;
  ull *g_arc;
};

/* Bits of x's binary form. */
inline int bits_of(uint64_t x) { return x ? 64 - __builtin_clzll(x) : 0; }

/* Blocks of 256 threads for a kernel of a thread per item. */
inline unsigned grid_of(uint64_t items) {
  const uint64_t blocks = (items + 255) / 256;
  return (unsigned)(blocks < 1 ? 1 : blocks < 4096 ? blocks : 4096);
}

/* Each vertex's key, (its degree, or maxdeg less it: descending, its
 * index), for the sort that ranks them. */
__global__ void degree_keys(dev_graph g, bool descending, ull maxdeg, ull *keys) {
  for (uint64_t v = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; v < g.n; v += (uint64_t)gridDim.x * blockDim.x) {
    const ull d = deg(g, (uint32_t)v);
    keys[v] = (descending ? maxdeg - d : d) << 32 | v;
  }
}

/* The ranks from the sorted keys: old (rank -> g's vertex), rank (the
 * inverse), and each rank's degree, which the scan makes the offsets
 * (off[n] is 0 before it). */
__global__ void ranks_of(dev_graph g, const ull *sorted, uint32_t *old, uint32_t *rank, uint64_t *off) {
  for (uint64_t s = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; s < g.n; s += (uint64_t)gridDim.x * blockDim.x) {
    const uint32_t v = (uint32_t)sorted[s];
    old[s] = v, rank[v] = (uint32_t)s, off[s] = deg(g, v);
  }
}

/* Each arc's key, (its tail's rank, its head's), and its index in g. */
__global__ void arc_keys(dev_graph g, uint64_t m, const uint32_t *rank, ull *keys, ull *arcs) {
  for (uint64_t e = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; e < m; e += (uint64_t)gridDim.x * blockDim.x)
    keys[e] = (ull)rank[row_of(g, e)] << 32 | rank[g.adj[e]], arcs[e] = e;
}

/* The ranked rows from the sorted keys. */
__global__ void ranked_heads(const ull *sorted, uint64_t m, uint32_t *adj) {
  for (uint64_t q = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; q < m; q += (uint64_t)gridDim.x * blockDim.x)
    adj[q] = (uint32_t)sorted[q];
}

/* The ranking's temporary bytes: the larger of its two sorts' and its scan's. */
inline cudaError_t rank_space(uint64_t n, uint64_t m, uint64_t maxdeg, size_t *bytes) {
  size_t keys = 0, pairs = 0, scan = 0;
  cudaError_t e = cub::DeviceRadixSort::SortKeys(NULL, keys, (const ull *)NULL, (ull *)NULL, n, 0,
                                                 32 + bits_of(maxdeg));
  if (e == cudaSuccess && m)
    e = cub::DeviceRadixSort::SortPairs(NULL, pairs, (const ull *)NULL, (ull *)NULL, (const ull *)NULL, (ull *)NULL,
                                        m, 0, 32 + bits_of(n - 1));
  if (e == cudaSuccess) e = cub::DeviceScan::ExclusiveSum(NULL, scan, (uint64_t *)NULL, (uint64_t *)NULL, n + 1);
  *bytes = keys > pairs ? keys : pairs;
  if (scan > *bytes) *bytes = scan;
  return e;
}

/* g (n vertices, m arcs, the largest degree maxdeg) ranked into r, on the
 * default stream. */
inline int rank_by_degree(const dev_graph &g, uint64_t m, uint64_t maxdeg, bool descending, const ranking &r,
                          wm_error *err) {
  const uint64_t n = g.n;
  size_t bytes = r.tmp_bytes;
  WM_CU(cudaMemsetAsync(r.off + n, 0, sizeof *r.off, 0));
  degree_keys<<<grid_of(n), 256>>>(g, descending, maxdeg, r.keys);
  WM_CU(cudaGetLastError());
  WM_CU(cub::DeviceRadixSort::SortKeys(r.tmp, bytes, r.keys, r.sorted, n, 0, 32 + bits_of(maxdeg)));
  ranks_of<<<grid_of(n), 256>>>(g, r.sorted, r.old, r.rank, r.off);
  WM_CU(cudaGetLastError());
  WM_CU(cub::DeviceScan::ExclusiveSum(r.tmp, bytes, r.off, r.off, n + 1));
  if (!m) return WM_OK;
  arc_keys<<<grid_of(m), 256>>>(g, m, r.rank, r.keys, r.arcs);
  WM_CU(cudaGetLastError());
  WM_CU(cub::DeviceRadixSort::SortPairs(r.tmp, bytes, r.keys, r.sorted, r.arcs, r.g_arc, m, 0,
                                        32 + bits_of(n - 1)));
  ranked_heads<<<grid_of(m), 256>>>(r.sorted, m, r.adj);
  WM_CU(cudaGetLastError());
  return WM_OK;
}

}  // namespace
