/* bfs-emu: a CPU stand-in for the parts of the CUDA runtime and device
 * language that the BFS kernels use, so that the traversal kernels can run (and be
 * tested) on a machine without a GPU.  Each CUDA thread is a coroutine; the
 * threads of a block run interleaved, switching at __syncthreads() and at
 * warp-wide intrinsics (which wait for all 32 lanes, and fail loudly when a
 * lane is missing: divergence bugs show up as errors).  Blocks run one after
 * another in a random order (a cooperative launch's together, interleaved,
 * for its grid-wide barrier); streams are synchronous.  Races between blocks
 * are therefore not exercised; everything else (indices, barriers, warp
 * collectives, host logic) is.  Launch syntax k<<<...>>>(args) is rewritten
 * by scripts/bfs-emu.sh into emu_launch(...). */
#ifndef BFS_EMU_CUDA_RUNTIME_H
#define BFS_EMU_CUDA_RUNTIME_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h> /* clock(): the stop word's poll interval (gpu_stop.cuh) */

#include <tuple>
#include <utility>

#include <functional>

#define __global__
#define __device__
/* shared memory declared in headers (the .cu files are rewritten by sed) */
#define __shared__ static
#define __host__
/* constant memory: an ordinary global, set by cudaMemcpyToSymbol */
#define __constant__
#define __forceinline__ inline
#define __noinline__
#define __launch_bounds__(...)

struct uint3 {
  unsigned x, y, z;
};
struct uint4 {
  unsigned x, y, z, w;
};
struct dim3 {
  unsigned x, y, z;
  dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};

typedef int cudaError_t;
enum {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorNotReady = 600,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorLaunchFailure = 719,
  cudaErrorPeerAccessAlreadyEnabled = 704,
};
enum cudaMemcpyKind { cudaMemcpyHostToHost, cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice, cudaMemcpyDefault };
enum { cudaStreamNonBlocking = 1, cudaEventDisableTiming = 2 };
enum cudaDeviceAttr { cudaDevAttrClusterLaunch = 120, cudaDevAttrClockRate = 13, cudaDevAttrMultiProcessorCount = 16, cudaDevAttrCooperativeLaunch = 95, cudaDevAttrMaxSharedMemoryPerBlockOptin = 97, cudaDevAttrMemoryPoolsSupported = 115 };
enum cudaDeviceP2PAttr { cudaDevP2PAttrPerformanceRank = 1, cudaDevP2PAttrAccessSupported = 2, cudaDevP2PAttrNativeAtomicSupported = 3 };
enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize = 8, cudaFuncAttributeNonPortableClusterSizeAllowed = 11 };

struct emu_stream;
struct emu_event {
  double t;
};
typedef emu_stream *cudaStream_t;
struct emu_pool;
typedef emu_pool *cudaMemPool_t;
enum cudaMemAllocationType { cudaMemAllocationTypePinned = 1 };
enum cudaMemLocationType { cudaMemLocationTypeDevice = 1 };
enum cudaMemPoolAttr { cudaMemPoolAttrReleaseThreshold = 4 };
struct cudaMemLocation {
  cudaMemLocationType type;
  int id;
};
struct cudaMemPoolProps {
  cudaMemAllocationType allocType;
  int handleTypes;
  cudaMemLocation location;
  void *win32SecurityAttributes;
  unsigned char reserved[64];
};
typedef emu_event *cudaEvent_t;
struct emu_graph;
typedef emu_graph *cudaGraph_t;
typedef emu_graph *cudaGraphExec_t;
enum cudaStreamCaptureMode { cudaStreamCaptureModeGlobal, cudaStreamCaptureModeThreadLocal, cudaStreamCaptureModeRelaxed };
enum { cudaEventRecordDefault = 0, cudaEventRecordExternal = 1 };

struct cudaDeviceProp {
  char name[256];
  int multiProcessorCount;
  int major, minor;
  size_t sharedMemPerBlockOptin;
};
struct cudaFuncAttributes {
  size_t sharedSizeBytes;
};

/* ---- runtime API (emu_runtime.cpp) ----------------------------------- */
cudaError_t cudaMalloc(void **p, size_t bytes);
template <class T> cudaError_t cudaMalloc(T **p, size_t bytes) { return cudaMalloc((void **)p, bytes); }
cudaError_t cudaFree(void *p);
cudaError_t cudaMallocHost(void **p, size_t bytes);
template <class T> cudaError_t cudaMallocHost(T **p, size_t bytes) { return cudaMallocHost((void **)p, bytes); }
cudaError_t cudaFreeHost(void *p);
/* Memory pools: a block freed to its pool (in stream order) is handed out
 * again as it was left, so a caller that assumes fresh memory reads stale
 * values. */
cudaError_t cudaMemPoolCreate(cudaMemPool_t *pool, const cudaMemPoolProps *props);
cudaError_t cudaMemPoolDestroy(cudaMemPool_t pool);
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, cudaMemPoolAttr a, void *value);
cudaError_t cudaMallocFromPoolAsync(void **p, size_t bytes, cudaMemPool_t pool, cudaStream_t s);
cudaError_t cudaFreeAsync(void *p, cudaStream_t s);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind k);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, cudaMemcpyKind k, cudaStream_t s = 0);
cudaError_t cudaMemset(void *p, int v, size_t bytes);
cudaError_t cudaMemsetAsync(void *p, int v, size_t bytes, cudaStream_t s = 0);
cudaError_t cudaMemGetInfo(size_t *free_b, size_t *total_b);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorString(cudaError_t e);
cudaError_t cudaGetDevice(int *d);
cudaError_t cudaGetDeviceCount(int *n);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int d);
cudaError_t cudaDeviceGetAttribute(int *v, cudaDeviceAttr a, int d);
cudaError_t cudaDeviceSynchronize(void);
/* EMU_DEVICES devices (default 1) share the host's memory; EMU_P2P=0
 * says they have no peer atomics (the static deal). */
cudaError_t cudaDeviceGetP2PAttribute(int *v, cudaDeviceP2PAttr a, int src, int dst);
cudaError_t cudaDeviceEnablePeerAccess(int peer, unsigned flags);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags);
cudaError_t cudaStreamDestroy(cudaStream_t s);
cudaError_t cudaStreamSynchronize(cudaStream_t s);
cudaError_t cudaStreamQuery(cudaStream_t s);
cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned flags);
cudaError_t cudaEventCreate(cudaEvent_t *e);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags);
cudaError_t cudaEventDestroy(cudaEvent_t e);
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s = 0);
cudaError_t cudaEventSynchronize(cudaEvent_t e);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b);
cudaError_t cudaEventRecordWithFlags(cudaEvent_t e, cudaStream_t s, unsigned flags);
/* Stream capture: while one is open, the work queued on any stream is kept
 * in queue order, and a launch of the graph runs it (the emulator runs all
 * streams' work in queue order anyway). */
cudaError_t cudaStreamBeginCapture(cudaStream_t s, cudaStreamCaptureMode mode);
cudaError_t cudaStreamEndCapture(cudaStream_t s, cudaGraph_t *g);
cudaError_t cudaGraphInstantiate(cudaGraphExec_t *e, cudaGraph_t g, unsigned long long flags = 0);
cudaError_t cudaGraphLaunch(cudaGraphExec_t e, cudaStream_t s);
cudaError_t cudaGraphDestroy(cudaGraph_t g);
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t e);
template <class F> cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *a, F) {
  a->sharedSizeBytes = 4096; /* static shared memory: a generous guess */
  return cudaSuccess;
}
template <class F> cudaError_t cudaFuncSetAttribute(F, cudaFuncAttribute, int) { return cudaSuccess; }
/* __constant__ variables are host globals, one for every emulated device
 * (launches run one after another, so the value set last before a launch
 * is the one its threads read); the copy is synchronous, as cudaMemcpy. */
template <class T>
cudaError_t cudaMemcpyToSymbol(T &symbol, const void *src, size_t bytes, size_t offset = 0,
                               cudaMemcpyKind k = cudaMemcpyHostToDevice) {
  if (offset + bytes > sizeof symbol) return cudaErrorInvalidValue;
  return cudaMemcpy((char *)&symbol + offset, src, bytes, k);
}

/* ---- launches and the thread model ----------------------------------- */
struct emu_cfg_t {
  dim3 grid, block;
  size_t smem;
  cudaStream_t stream;
};
inline emu_cfg_t emu_cfg(dim3 g, dim3 b, size_t smem = 0, cudaStream_t s = 0) { return emu_cfg_t{g, b, smem, s}; }
void emu_launch(const emu_cfg_t &cfg, std::function<void()> body);
/* A cooperative launch: its blocks run together, their threads interleaved,
 * so that a grid-wide barrier (cooperative_groups.h) can wait for them all;
 * at most one block per emulated SM, as on a GPU. */
void emu_launch_cooperative(const emu_cfg_t &cfg, std::function<void()> body);
void emu_grid_sync(void);
/* A cluster's launch (the grid one cluster): as a cooperative one, up to
 * EMU_CLUSTER blocks (default 8); emu_map_shared_rank maps an address in
 * the caller's dynamic shared memory to the same offset in block rank's. */
void emu_launch_cluster(const emu_cfg_t &cfg, std::function<void()> body);
void *emu_map_shared_rank(void *p, unsigned rank);
enum cudaLaunchAttributeID { cudaLaunchAttributeClusterDimension = 4 };
struct cudaLaunchAttributeValue {
  struct {
    unsigned x, y, z;
  } clusterDim;
};
struct cudaLaunchAttribute {
  cudaLaunchAttributeID id;
  cudaLaunchAttributeValue val;
};
/* CUDA's fields in CUDA's order (gridDim, blockDim: the names are macros
 * here; the kernels' files fill the struct by position) */
struct cudaLaunchConfig_t {
  dim3 grid_dim, block_dim;
  size_t dynamicSmemBytes;
  cudaStream_t stream;
  cudaLaunchAttribute *attrs;
  unsigned numAttrs;
};
/* Whether a cluster of the config's grid fits (the grid is one cluster). */
int emu_cluster_fits(const cudaLaunchConfig_t *cfg);
template <class F> cudaError_t cudaOccupancyMaxActiveClusters(int *n, F, const cudaLaunchConfig_t *cfg) {
  *n = emu_cluster_fits(cfg);
  return cudaSuccess;
}
template <class... P, class... A>
cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t *cfg, void (*k)(P...), A &&...args) {
  if (!emu_cluster_fits(cfg)) return cudaErrorInvalidConfiguration;
  std::tuple<P...> a(args...);
  emu_launch_cluster(emu_cfg(cfg->grid_dim, cfg->block_dim, cfg->dynamicSmemBytes, cfg->stream),
                     [k, a]() { std::apply(k, a); });
  return cudaSuccess;
}
template <class... P, size_t... I>
std::tuple<P...> emu_args(void **args, std::index_sequence<I...>) {
  return std::tuple<P...>(*(P *)args[I]...);
}
template <class... P>
cudaError_t cudaLaunchCooperativeKernel(void (*k)(P...), dim3 g, dim3 b, void **args, size_t smem = 0,
                                        cudaStream_t s = 0) {
  std::tuple<P...> a = emu_args<P...>(args, std::index_sequence_for<P...>());
  emu_launch_cooperative(emu_cfg(g, b, smem, s), [k, a]() { std::apply(k, a); });
  return cudaSuccess;
}
/* The parameters of kernel K as a tuple, for launches whose arguments are
 * evaluated once at the launch and converted to the parameters' types
 * there (NULL to a pointer): scripts/motif-emu.sh's rewrite. */
template <class K> struct emu_params;
template <class... P> struct emu_params<void (*)(P...)> {
  typedef std::tuple<P...> type;
};
template <class K> using emu_params_t = typename emu_params<K>::type;

struct emu_thread_ids {
  uint3 tid, bid;
  dim3 bdim, gdim;
};
const emu_thread_ids &emu_ids(void);
#define threadIdx (emu_ids().tid)
#define blockIdx (emu_ids().bid)
#define blockDim (emu_ids().bdim)
#define gridDim (emu_ids().gdim)
void *emu_dyn_smem(void);
void emu_syncthreads(void);
#define __syncthreads() emu_syncthreads()

/* Warp collectives: every lane of the warp must take part (full mask). */
enum emu_warp_op { EMU_BALLOT, EMU_SHFL, EMU_SHFL_DOWN, EMU_REDUCE_ADD };
uint64_t emu_warp(emu_warp_op op, unsigned mask, uint64_t value, int arg);
inline unsigned __ballot_sync(unsigned mask, int pred) { return (unsigned)emu_warp(EMU_BALLOT, mask, pred != 0, 0); }
template <class T> inline T __shfl_sync(unsigned mask, T v, int src) {
  static_assert(sizeof(T) <= 8, "shfl of a wide type");
  uint64_t bits = 0;
  memcpy(&bits, &v, sizeof v);
  bits = emu_warp(EMU_SHFL, mask, bits, src);
  T out;
  memcpy(&out, &bits, sizeof out);
  return out;
}
template <class T> inline T __shfl_down_sync(unsigned mask, T v, unsigned delta) {
  uint64_t bits = 0;
  memcpy(&bits, &v, sizeof v);
  bits = emu_warp(EMU_SHFL_DOWN, mask, bits, (int)delta);
  T out;
  memcpy(&out, &bits, sizeof out);
  return out;
}
inline unsigned __reduce_add_sync(unsigned mask, unsigned v) { return (unsigned)emu_warp(EMU_REDUCE_ADD, mask, v, 0); }
inline int __any_sync(unsigned mask, int pred) { return __ballot_sync(mask, pred) != 0; }
inline int __all_sync(unsigned mask, int pred) { return __ballot_sync(mask, pred) == mask; }
inline int __ffs(unsigned x) { return __builtin_ffs((int)x); }

/* Atomics: threads switch only at barriers, so plain operations are atomic. */
inline unsigned atomicAdd(unsigned *p, unsigned v) { unsigned o = *p; *p = o + v; return o; }
inline unsigned long long atomicAdd(unsigned long long *p, unsigned long long v) { unsigned long long o = *p; *p = o + v; return o; }
inline unsigned long long atomicAdd_system(unsigned long long *p, unsigned long long v) { return atomicAdd(p, v); }
inline unsigned atomicCAS(unsigned *p, unsigned cmp, unsigned v) { unsigned o = *p; if (o == cmp) *p = v; return o; }
inline unsigned long long atomicMax(unsigned long long *p, unsigned long long v) { unsigned long long o = *p; if (v > o) *p = v; return o; }
/* What the GPU's edge switching uses besides (scripts/rand-emu.sh). */
inline unsigned long long atomicCAS(unsigned long long *p, unsigned long long cmp, unsigned long long v) {
  unsigned long long o = *p;
  if (o == cmp) *p = v;
  return o;
}
inline unsigned long long atomicMin(unsigned long long *p, unsigned long long v) { unsigned long long o = *p; if (v < o) *p = v; return o; }
template <class T> inline T min(T a, T b) { return a < b ? a : b; }
template <class T> inline T max(T a, T b) { return a > b ? a : b; }

/* What the matcher's dedicated kernels use besides (scripts/dag-emu.sh). */
template <class T> inline T __ldg(const T *p) { return *p; }
template <class T> inline T __ldcg(const T *p) { return *p; }
template <class T> inline T __shfl_xor_sync(unsigned mask, T v, int d) {
  return __shfl_sync(mask, v, (int)(threadIdx.x & 31) ^ d);
}
template <class T> inline T __shfl_up_sync(unsigned mask, T v, unsigned d) {
  int l = (int)(threadIdx.x & 31);
  return __shfl_sync(mask, v, l >= (int)d ? l - (int)d : l);
}
inline void __syncwarp(unsigned mask = 0xffffffffu) { (void)__ballot_sync(mask, 1); }
inline int __popc(unsigned x) { return __builtin_popcount(x); }
/* An SM's cycle counter: the process's clock, for the kernels' phase timers. */
inline long long clock64() { return (long long)clock(); }
inline int __clz(int x) { return x ? __builtin_clz((unsigned)x) : 32; }
inline int __clzll(long long x) { return x ? __builtin_clzll((unsigned long long)x) : 64; }
/* PTX fns: the offset-th set bit of mask from bit base up (offset >= 1). */
inline unsigned __fns(unsigned mask, unsigned base, int offset) {
  for (unsigned pos = base; pos < 32; pos++)
    if ((mask >> pos & 1u) && --offset == 0) return pos;
  return 0xFFFFFFFFu;
}
inline unsigned atomicOr(unsigned *p, unsigned v) { unsigned o = *p; *p = o | v; return o; }
inline int atomicOr(int *p, int v) { int o = *p; *p = o | v; return o; }
inline unsigned atomicExch(unsigned *p, unsigned v) { unsigned o = *p; *p = v; return o; }
/* OR over the warp: each set bit of each lane's value, by ballots. */
inline unsigned __reduce_or_sync(unsigned mask, unsigned v) {
  unsigned out = 0;
  for (int b = 0; b < 32; b++) out |= (__ballot_sync(mask, (v >> b) & 1u) ? 1u : 0u) << b;
  return out;
}
template <class F> cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, F, int, size_t) {
  *n = 1;
  return cudaSuccess;
}
/* The calling thread's current device (cudaGetDevice returns it).  With
 * EMU_DEFER_DEVICE=d, the work queued while d is current (launches, async
 * copies and sets, event records) is held, in order, until the host waits
 * on d (a synchronous copy or set, a synchronize, a stream query, a free):
 * the other devices' launches then run first, so that they take the items
 * of counters shared with d (scripts/motif-emu.sh; off by default; the
 * emulated NCCL's calls are not held). */
cudaError_t cudaSetDevice(int d);

/* Checks of device-side accesses: every device pointer the kernels read
 * must lie inside a cudaMalloc'd block (see emu_runtime.cpp). */
#endif
