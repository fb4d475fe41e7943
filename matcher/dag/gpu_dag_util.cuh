/* Device helpers shared by the triangle and clique kernels (gpu_dag.h). */
#ifndef WM_GPU_DAG_UTIL_CUH
#define WM_GPU_DAG_UTIL_CUH

#include "gpu_count.cuh"
#include "gpu_dag.h"
#include "gpu_stop.cuh"

#define DAG_FULL 0xFFFFFFFFu
#define DAG_EMPTY 0xFFFFFFFFu /* no vertex has this id (ids < 2^32 - 1) */

__device__ __forceinline__ unsigned dag_hash(uint32_t w, unsigned shift) {
  return (w * 0x9E3779B1u) >> shift;
}

/* Smallest power of two >= 2 d (at least 32), as log2: a table at most half
 * full. */
__device__ __forceinline__ unsigned dag_log_slots(uint32_t d) {
  unsigned lg = 5;
  while ((1u << lg) < 2u * d) lg++;
  return lg;
}

/* Entries of the sorted p[0, n) below x. */
template <typename T>
__device__ __forceinline__ uint32_t dag_rank(const T *p, uint32_t n, uint32_t x) {
  uint32_t lo = 0, hi = n;
  while (lo < hi) {
    uint32_t mid = (lo + hi) >> 1;
    if (__ldg(p + mid) < x)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

template <bool BLOCK>
__device__ __forceinline__ void dag_sync() {
  if (BLOCK)
    __syncthreads();
  else
    __syncwarp();
}

/* Hashes src[0, n) into keys (2^lg slots, linear probing), and each key's
 * index into vals when vals is not NULL.  Run by the whole warp, or the
 * whole block, which it leaves synchronised. */
template <bool BLOCK>
__device__ void dag_table_fill(uint32_t *keys, uint32_t *vals, unsigned lg, const uint32_t *src,
                               uint32_t n) {
  const unsigned tid = BLOCK ? threadIdx.x : (threadIdx.x & 31u), step = BLOCK ? blockDim.x : 32u;
  const unsigned mask = (1u << lg) - 1u;
  for (unsigned k = tid; k <= mask; k += step) keys[k] = DAG_EMPTY;
  dag_sync<BLOCK>();
  for (unsigned k = tid; k < n; k += step) {
    const uint32_t w = __ldg(src + k);
    unsigned h = dag_hash(w, 32u - lg);
    while (atomicCAS(keys + h, DAG_EMPTY, w) != DAG_EMPTY) h = (h + 1u) & mask;
    if (vals) vals[h] = k;
  }
  dag_sync<BLOCK>();
}

/* Next work index from counter `next`: its value when the counter is
 * shared by every device (A.shared), else this device's share of the
 * indices dealt round-robin over the devices. */
/* What dag_take answers once the call is stopped: past every counter's end,
 * and far enough below 2^64 that no caller's arithmetic on it wraps. */
#define DAG_STOPPED (1ull << 62)

__device__ __forceinline__ wm_u64 dag_take_any(wm_u64 *next, const wm_dag_args &A) {
  if (A.shared) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 600
    return atomicAdd_system(next, 1ull);
#else
    return atomicAdd(next, 1ull); /* never shared below sm_60 (no peer atomics) */
#endif
  }
  return atomicAdd(next, 1ull) * A.ndev + A.dev;
}

/* A heavy item (a block's, long): the stop word read at every take. */
__device__ __forceinline__ wm_u64 dag_take(wm_u64 *next, const wm_dag_args &A) {
  return wm_stop_asked(A.stop) ? DAG_STOPPED : dag_take_any(next, A);
}

/* dag_take by lane 0, broadcast to the warp. */
__device__ __forceinline__ wm_u64 dag_grab(wm_u64 *next, const wm_dag_args &A, int lane) {
  wm_u64 t = 0;
  if (lane == 0) t = dag_take(next, A);
  return __shfl_sync(DAG_FULL, t, 0);
}

/* The same for the light runs (microseconds each): the stop checked after
 * each take (device memory; gpu_stop.cuh paces the reads of the host's
 * word); a warp that sees it set quits. */
__device__ __forceinline__ wm_u64 dag_grab_often(wm_u64 *next, const wm_dag_args &A, int lane) {
  wm_u64 t = 0;
  if (lane == 0) {
    t = dag_take_any(next, A);
    if (wm_stop_asked(A.stop)) t = DAG_STOPPED;
  }
  return __shfl_sync(DAG_FULL, t, 0);
}

/* The light kernels' next run of consecutive pivots [v0, v1), grabbed by
 * the warp; false when every run is taken. */
__device__ __forceinline__ bool dag_grab_light(const wm_dag_args &A, int lane, uint32_t &v0, uint32_t &v1) {
  const wm_u64 t = dag_grab_often(A.next_light, A, lane);
  if (t >= ((wm_u64)A.n + A.light_chunk - 1) / A.light_chunk) return false;
  v0 = (uint32_t)(t * A.light_chunk);
  v1 = v0 + A.light_chunk < A.n ? v0 + A.light_chunk : A.n;
  return true;
}

/* Adds the warp's per-lane counts to the device total, in 128 bits.  A
 * lane's 64-bit partial cannot wrap: it gains at most 32 per word ANDed
 * and popcounted (a triangle or a clique's last level), so 2^64 would
 * take 2^59 steps of one lane, years at any clock. */
__device__ __forceinline__ void dag_flush(const wm_dag_args &A, wm_u64 cnt) {
  wm_count_warp_flush(A.count, cnt, threadIdx.x & 31);
}

/* A family's prepare (wm_dag_kernels): opts its light and heavy kernels
 * into their dynamic shared memory, then reads how many blocks of each fit
 * an SM. */
template <class Light, class Heavy>
cudaError_t dag_prepare(Light light, int light_threads, size_t light_bytes, Heavy heavy, int heavy_threads,
                        size_t heavy_bytes, int *light_per_sm, int *heavy_per_sm) {
  cudaError_t e = cudaFuncSetAttribute(heavy, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)heavy_bytes);
  if (e == cudaSuccess)
    e = cudaFuncSetAttribute(light, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)light_bytes);
  if (e == cudaSuccess)
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(light_per_sm, light, light_threads, light_bytes);
  if (e == cudaSuccess)
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(heavy_per_sm, heavy, heavy_threads, heavy_bytes);
  return e;
}

#endif
