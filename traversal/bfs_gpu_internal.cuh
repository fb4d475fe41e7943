/* Shared device-side pieces of the GPU BFS (the Enterprise pipeline):
 * launch policies, the plain structs the kernels take, small device helpers
 * and the host-side launch functions each kernel file exports.
 *
 * Conventions.  status[v] is the level of v (kUnreached until visited).  A
 * top-down step at level L writes status[v] = L + 1 (and parent[v]) for every
 * unvisited neighbour: concurrent writers store the same level, and whichever
 * parent survives is on level L, so no atomics are needed.  Queues are
 * produced afterwards from the status array (queue generation), so they hold
 * no duplicates.  Vertex ids are 32-bit, edge offsets 64-bit; every index
 * into adj is 64-bit. */
#ifndef WM_BFS_GPU_INTERNAL_CUH
#define WM_BFS_GPU_INTERNAL_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include "gpu_stop.h"

namespace wm_bfs {

constexpr uint32_t kUnreached = 0xFFFFFFFFu;
constexpr uint32_t kNoVertex = 0xFFFFFFFFu;

/* Frontier classes by out-degree, each expanded by its own kernel, as
 * regions of one queue. */
enum QueueClass { Q_SMALL = 0, Q_MIDDLE = 1, Q_LARGE = 2, Q_EXTREME = 3, Q_CLASSES = 4 };
constexpr uint64_t kSmallBelow = 32;     /* Small: a thread per vertex */
constexpr uint64_t kMiddleBelow = 256;   /* Middle: a warp */
constexpr uint64_t kLargeBelow = 65536;  /* Large: a block (CTA); Extreme: the grid */

/* ---- policies (block sizes and grid shapes, CUB style) --------------- */

struct QueueGenPolicy {
  static constexpr int BLOCK = 256;
  static constexpr int ITEMS = 4; /* consecutive items per thread per round (one 16-byte load) */
  static constexpr int ROUND = BLOCK * ITEMS;
  static constexpr int BLOCKS_PER_SM = 4;
  /* the per-round block scan packs the class counts of one round in 14-bit
   * fields of a 64-bit word (4 classes x 14 bits): a round of the bitmap
   * mode holds BLOCK words, up to 32 * BLOCK vertices */
  static constexpr int FIELD_BITS = 14;
};
struct ExpandPolicy {
  static constexpr int THREAD_BLOCK = 256;  /* Small */
  static constexpr int WARP_BLOCK = 256;    /* Middle: 8 vertices per block */
  static constexpr int CTA_BLOCK = 256;     /* Large */
  static constexpr uint64_t LARGE_CHUNK = 4 * CTA_BLOCK; /* arcs of a Large row a block expands */
  static constexpr int GRID_BLOCK = 256;    /* Extreme */
  static constexpr int GRID_BLOCKS_PER_SM = 2;
  static constexpr int MAX_BLOCKS_PER_SM = 32; /* cap of grid-stride launches */
};
struct BottomUpPolicy {
  static constexpr int BLOCK = 256;
  static constexpr int BLOCKS_PER_SM = 8;
  static constexpr int CACHE = 4096;      /* hub cache entries (16 KiB of shared memory) */
  static constexpr int THREAD_SCAN = 32;  /* in-neighbours a thread checks alone before its
                                             warp takes over the rest of the row */
  /* the pipeline's step (BottomUpArgs): vertices a thread takes at once
   * (their loads in flight together), and the blocks an SM keeps, which
   * caps the registers at 32: two vertices at 8 blocks ran Kronecker 22-25
   * faster on an H200 than one at 8 or four at 4 (whose registers halve
   * the warps an SM holds) */
  static constexpr int ITEMS = 2;
  static constexpr int MIN_BLOCKS = 8;
};
/* The small-level kernel (kernel_small_levels.cu).  Its unit of work is a
 * pass: every thread of a block has ITEMS frontier edges in flight at once,
 * and a pass costs a few dependent round trips (the adjacency entry, the
 * head's row and its claim), 2.5-3 us on an H200 for a few items.  The
 * budgets below follow from what a level costs, not from one graph:
 * - a level stays on the device while each block needs at most EDGE_BUDGET
 *   edges (16 passes) for it: a hand-over to the host pipeline costs a queue
 *   generation, a copy and a synchronisation, tens of microseconds;
 * - with the grid tier, block 0 keeps a level to itself while it has at
 *   most BLOCK_ITEMS edges (half a pass).  A grid level costs about 5 us
 *   (the grid-wide barrier, 1-2 us, and a round trip to load each block's
 *   share), whatever its size within the budget; one block adds about
 *   2.8 us a thousand edges to its 2.5-3 us, since one SM serves scattered
 *   loads a sector at a time (WM_BFS_TRACE's in-pass marks, frontiers of
 *   500-1,200 vertices of a grid graph, 2026-11-30). */
struct SmallLevelPolicy {
  static constexpr int BLOCK = 1024;
  static constexpr int ITEMS = 4;                        /* edges in flight per thread (registers) */
  static constexpr uint64_t PASS = (uint64_t)BLOCK * ITEMS;
  static constexpr uint32_t MAX_FRONTIER = 16384;        /* shared-memory frontier capacity cap */
  static constexpr uint64_t EDGE_BUDGET = 16 * PASS;     /* frontier edges per block per level (65536) */
  static constexpr uint64_t BLOCK_ITEMS = PASS / 2;      /* block 0 alone up to this many edges */
  /* A level's claims are counted in one 64-bit word, (entries << COUNT_SHIFT)
   * + their out-degree sum: so the graph's arcs must stay below 2^COUNT_SHIFT
   * and a level's claims (at most its edges) below 2^(64 - COUNT_SHIFT). */
  static constexpr int COUNT_SHIFT = 40;
  static constexpr uint64_t MAX_LEVEL_EDGES = (1ull << (64 - COUNT_SHIFT)) - 1;
};
/* kernel_deep_levels.cu: one block; graphs of out-degrees at most
 * MAX_WIDTH (the padded rows' width) whose vertices' bits fit its shared
 * memory beside two frontiers of CAPACITY entries. */
struct DeepLevelPolicy {
  static constexpr int BLOCK = 1024;
  static constexpr int ITEMS = 4;                         /* slots in flight per thread */
  static constexpr uint64_t MAX_WIDTH = 16;
  static constexpr uint32_t CAPACITY = 4096;
  static constexpr uint64_t ITEM_BUDGET = 4ull * BLOCK * ITEMS;  /* a level's slots one block expands */
};
/* kernel_cluster_search.cu: a whole search in one launch of a thread block
 * cluster of up to MAX_CLUSTER blocks (16: beyond the portable 8, where the
 * device allows it), ITEMS frontier edges in flight a thread.  The CPU
 * emulator builds it with smaller blocks (WM_BFS_CLUSTER_BLOCK): each of
 * its barriers costs a switch of every emulated thread. */
#ifndef WM_BFS_CLUSTER_BLOCK
#define WM_BFS_CLUSTER_BLOCK 1024
#endif
struct ClusterPolicy {
  static constexpr int BLOCK = WM_BFS_CLUSTER_BLOCK;
  static constexpr int ITEMS = 4;
  static constexpr int MAX_CLUSTER = 16;
};
constexpr uint32_t kBackToTopDownBeta = 24; /* bottom-up -> top-down when frontier < n / beta */

static_assert(QueueGenPolicy::ROUND < (1 << QueueGenPolicy::FIELD_BITS), "scan fields too narrow");
static_assert(32 * QueueGenPolicy::BLOCK < (1 << QueueGenPolicy::FIELD_BITS), "scan fields too narrow for a bitmap round");
static_assert(Q_CLASSES * QueueGenPolicy::FIELD_BITS <= 64, "scan fields do not fit in 64 bits");
static_assert((BottomUpPolicy::CACHE & (BottomUpPolicy::CACHE - 1)) == 0, "cache size: power of two");

/* ---- plain structs --------------------------------------------------- */

struct DevGraph {
  const uint64_t *offsets;
  const uint32_t *adj;
  uint32_t n;
};

struct DevState {
  uint32_t *status;
  uint32_t *parent; /* NULL when parents are not wanted */
  uint32_t *marks;  /* top-down with queue generation: each visit's bit, the new frontier's bitmap; else NULL */
};

enum SmallExit { SMALL_NONE = 0, SMALL_DONE, SMALL_DEPTH, SMALL_TARGET, SMALL_EDGES, SMALL_OVERFLOW, SMALL_STOPPED };

/* Figures the host reads back after each queue generation (one copy). */
struct DevStats {
  unsigned long long frontier_edges; /* out-degree sum of the new frontier */
  unsigned int hubs;                 /* hub vertices in the new frontier */
  unsigned int offs[Q_CLASSES + 1];  /* region c = [offs[c], offs[c+1]) of the output queue */
  unsigned int target_level;         /* status[target], or kUnreached */
  unsigned int small_level;          /* small-level kernel: level of its last frontier */
  unsigned int small_count;          /* ... and that frontier's size */
  unsigned int small_exit;           /* SmallExit */
  /* a bottom-up step (bottom_up_step_launch): the vertices it reached (the
   * new frontier) and those it left for the next step */
  unsigned int found, left;
  unsigned int levels_bottom_up; /* the cluster search: its levels expanded bottom-up */
};

/* One queue generation: which vertices go where.  Input is the vertex range
 * [0, len) when in is NULL, read from the status array, or with bits the
 * words [0, len) of that bitmap of the vertices on level want (a top-down
 * level's marks: n / 8 bytes instead of the status array's 4 n, and a word
 * of 32 vertices an item); else the list in[0, len). */
struct QueueGenArgs {
  const uint32_t *in;
  uint32_t len;
  uint32_t want;          /* status of the frontier being collected: each such vertex is put in
                           * its class by degree (Q_SMALL..Q_EXTREME) */
  int classify;           /* 0: every frontier vertex is Q_SMALL */
  /* Frontier hubs are recorded here, or NULL: a direct-mapped table of
   * (degree << 32 | vertex) keys, 0 = empty; atomicMax keeps the hub of
   * highest degree in each slot, the one most likely to be a neighbour. */
  unsigned long long *hub_table;
  uint64_t hub_tau;
  const uint32_t *bits;
  uint64_t tile;          /* items (words with bits) per block (multiple of ROUND, with bits of BLOCK) */
  unsigned int *block_counts;  /* Q_CLASSES * gridDim, class-major */
  uint32_t *out;
  DevStats *stats;
  uint32_t target;
};

/* A bottom-up step with queue generation on (bottom_up_step_launch): it
 * searches the unvisited vertices list[0, len) (list NULL: every vertex
 * below len that is unvisited and has in-arcs, the first step after a
 * top-down level) for a parent in the frontier bitmap F, and writes its
 * own outputs, so no queue generation follows it: the vertices it reaches
 * get their level, parent and bit in Fn and are listed in frontier[] (in
 * stats->found), those it does not are listed downwards from left_end
 * (left_end[-1 - i], stats->left of them); the new frontier's out-arcs and
 * hubs go to stats (and its hubs to hub_next, the next step's cache). */
struct BottomUpArgs {
  DevGraph in, out;
  DevState s;
  const uint32_t *list;
  uint32_t len;
  const uint32_t *has_in;              /* range mode: vertices with in-arcs (bitmap) */
  const uint32_t *F;                   /* frontier of level `level` */
  uint32_t *Fn;                        /* frontier of level + 1 (all zero before) */
  const unsigned long long *hub_table; /* level's hubs (QueueGenArgs.hub_table), or NULL: no cache */
  unsigned long long *hub_next;        /* level + 1's (all zero before), or NULL */
  uint64_t hub_tau;
  uint32_t *frontier, *left_end;
  uint32_t level, target;
  DevStats *stats;                     /* zero before; target_level: level + 1 if the target is reached */
};

struct SmallArgs {
  DevGraph g;
  DevState s;
  const uint32_t *in;   /* frontier of level `level` */
  uint32_t count;
  int seed;             /* in[] are the sources: put them on `level`, each its own parent */
  uint32_t level;
  uint32_t max_depth;
  uint32_t target;
  uint32_t capacity;    /* frontier entries (shared memory, and the grid tier's queues) */
  uint64_t block_budget; /* edges of a level block 0 expands alone (= edge_budget: one block) */
  uint64_t edge_budget;  /* edges of a level the kernel expands at all */
  void *scratch;        /* small_levels_scratch_bytes(capacity) of device memory (grid tier) */
  uint32_t *out;        /* SMALL_EDGES: the frontier is written here */
  DevStats *stats;
  wm_stop *stop;      /* the call's stop word (gpu_stop.cuh), or NULL: one launch can run
                         * thousands of levels (a grid's), so it is read between them */
  unsigned long long *clk; /* WM_BFS_TRACE: kSmallTraceWords of block 0's clock marks, or NULL */
  uint32_t trace_from;     /* ... of levels trace_from on */
};

/* The cluster search (kernel_cluster_search.cu) from the sources (level 0,
 * no duplicates): in.adj NULL where there are no in-arcs (top-down only). */
struct ClusterArgs {
  DevGraph out, in;
  DevState s;
  const uint32_t *sources;
  uint32_t count;
  uint32_t max_depth, target;
  uint32_t words_per_block; /* each block's words of the bitmaps */
  uint64_t m;               /* arcs */
  double edge_ratio;        /* bottom-up once the frontier's edges x edge_ratio pass the unexplored ones */
  int dir_opt, symmetric;
  DevStats *stats;          /* small_level, small_count, small_exit, target_level, levels_bottom_up */
  wm_stop *stop;            /* read between levels, or NULL */
  unsigned long long *clk;  /* WM_BFS_TRACE: the small-level kernel's marks (tiers 4 and 5), or NULL */
  uint32_t trace_from;
};

struct DeepArgs {
  const uint32_t *ell;  /* deep_levels_ell's rows: 2^shift slots a vertex */
  uint32_t n, shift;
  DevState s;
  const uint32_t *in;   /* the sources, put on `level` (count <= capacity, no duplicates) */
  uint32_t count, level, max_depth, target, capacity;
  uint32_t *out;        /* SMALL_EDGES: the frontier is written here */
  DevStats *stats;
  wm_stop *stop;        /* read between levels, or NULL */
  unsigned long long *clk; /* WM_BFS_TRACE: the small-level kernel's marks (tier 3), or NULL */
  uint32_t trace_from;
};

/* The small-level kernel's clock marks (WM_BFS_TRACE): the launch's start,
 * then for each of its first kSmallTraceLevels levels kMarks words: the
 * clock when the level began, when block 0 had expanded its share and when
 * it was past the level's barrier; the tier (1 block, 2 grid); and in its
 * first pass, thread 0's clock when its first adjacency entry had come,
 * its first claim was decided and its append was done. */
enum SmallMark { MARK_BEGIN, MARK_EXPANDED, MARK_PAST, MARK_TIER, MARK_ROW, MARK_CLAIM, MARK_APPEND, kMarks };
constexpr int kSmallTraceLevels = 64;
constexpr int kSmallTraceWords = 1 + kMarks * kSmallTraceLevels;

/* ---- device helpers -------------------------------------------------- */

__device__ __forceinline__ uint64_t degree_of(const DevGraph &g, uint32_t v) {
  return g.offsets[v + 1] - g.offsets[v];
}

__device__ __forceinline__ int degree_class(uint64_t d) {
  return d < kSmallBelow ? Q_SMALL : d < kMiddleBelow ? Q_MIDDLE : d < kLargeBelow ? Q_LARGE : Q_EXTREME;
}

/* Top-down visit without atomics on the status (see the header comment);
 * the mark is an atomic OR, which every visitor of v may do alike. */
__device__ __forceinline__ void visit(const DevState &s, uint32_t v, uint32_t u, uint32_t next_level) {
  if (s.status[v] == kUnreached) {
    s.status[v] = next_level;
    if (s.parent) s.parent[v] = u;
    if (s.marks) atomicOr(&s.marks[v >> 5], 1u << (v & 31));
  }
}

/* A frontier hub v of out-degree d into a hub table (QueueGenArgs.hub_table):
 * the slot keeps the hub of the highest degree. */
__device__ __forceinline__ void record_hub(unsigned long long *table, uint32_t v, uint64_t d) {
  atomicMax(&table[v & (BottomUpPolicy::CACHE - 1)], (d < 0xFFFFFFFFull ? d : 0xFFFFFFFFull) << 32 | v);
}

__device__ __forceinline__ uint64_t global_thread() {
  return (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ uint64_t grid_threads() { return (uint64_t)gridDim.x * blockDim.x; }

/* The first arc of the row adj[j, e) whose head w has hit(w), or
 * kNoVertex; every lane of the warp calls it, `open` saying whether the
 * lane has a row.  A lane checks `alone` arcs of its own row by itself, then
 * the whole warp takes the rows still open, one at a time, 32 arcs per
 * step, stopping at the first hit: the bottom-up steps' balance between
 * short rows (most) and long ones. */
template <class Hit>
__device__ __forceinline__ uint32_t first_hit_in_row(const uint32_t *adj, uint64_t j, uint64_t e, bool open,
                                                     uint64_t alone, Hit hit) {
  const unsigned full = 0xffffffffu, lane = threadIdx.x & 31;
  uint32_t found = kNoVertex;
  if (open) {
    uint64_t stop = e - j > alone ? j + alone : e;
    for (; j < stop; j++) {
      uint32_t w = adj[j];
      if (hit(w)) {
        found = w;
        break;
      }
    }
  }
  unsigned pending = __ballot_sync(full, open && found == kNoVertex && j < e);
  while (pending) {
    int leader = __ffs(pending) - 1;
    pending &= pending - 1;
    uint64_t lj = __shfl_sync(full, j, leader), le = __shfl_sync(full, e, leader);
    uint32_t hit_w = kNoVertex;
    for (uint64_t chunk = lj; chunk < le; chunk += 32) {
      uint64_t t = chunk + lane;
      uint32_t w = 0;
      bool h = false;
      if (t < le) {
        w = adj[t];
        h = hit(w);
      }
      unsigned hits = __ballot_sync(full, h);
      if (hits) {
        hit_w = __shfl_sync(full, w, __ffs(hits) - 1);
        break;
      }
    }
    if ((int)lane == leader) found = hit_w;
  }
  return found;
}

__device__ __forceinline__ bool bit_of(const uint32_t *bits, uint32_t v) {
  return (__ldg(&bits[v >> 5]) >> (v & 31)) & 1u;
}

/* Appends `value` for each lane with `take` to list (length *len), one
 * atomic per warp; every lane of the warp calls it. */
__device__ __forceinline__ void warp_append(bool take, uint32_t value, uint32_t *list, unsigned *len) {
  const unsigned full = 0xffffffffu, lane = threadIdx.x & 31, m = __ballot_sync(full, take);
  if (!m) return;
  const int leader = __ffs(m) - 1;
  unsigned base = 0;
  if ((int)lane == leader) base = atomicAdd(len, (unsigned)__popc(m));
  base = __shfl_sync(full, base, leader);
  if (take) list[base + __popc(m & ((1u << lane) - 1))] = value;
}

/* A slot in each of K lists (list k of length *len[k]) for each thread
 * with take[k] (the others get an unused number), one atomic on each
 * *len[k] per block: the warps' shares placed through shared memory.
 * Every thread of the block calls it the same number of times (it
 * synchronises the block). */
template <int K>
__device__ __forceinline__ void block_slots(const bool (&take)[K], unsigned *const (&len)[K], unsigned (&at)[K]) {
  __shared__ unsigned s_count[K], s_base[K];
  const unsigned full = 0xffffffffu, lane = threadIdx.x & 31;
  if (threadIdx.x < K) s_count[threadIdx.x] = 0;
  __syncthreads();
  unsigned m[K];
#pragma unroll
  for (int k = 0; k < K; k++) {
    m[k] = __ballot_sync(full, take[k]);
    at[k] = lane == 0 && m[k] ? atomicAdd(&s_count[k], (unsigned)__popc(m[k])) : 0;
  }
  __syncthreads();
  if (threadIdx.x < K) s_base[threadIdx.x] = s_count[threadIdx.x] ? atomicAdd(len[threadIdx.x], s_count[threadIdx.x]) : 0;
  __syncthreads();
#pragma unroll
  for (int k = 0; k < K; k++) at[k] = s_base[k] + __shfl_sync(full, at[k], 0) + __popc(m[k] & ((1u << lane) - 1));
}

/* warp_append for a whole block (block_slots' terms). */
__device__ __forceinline__ void block_append(bool take, uint32_t value, uint32_t *list, unsigned *len) {
  const bool t[1] = {take};
  unsigned *const l[1] = {len};
  unsigned at[1];
  block_slots<1>(t, l, at);
  if (take) list[at[0]] = value;
}

/* ---- launchers (one per kernel file; each returns cudaGetLastError) -- */

/* kernel_queue_gen.cu: count -> scatter (or count -> totals). */
cudaError_t queue_gen_launch(const DevGraph &g, const uint32_t *status, const QueueGenArgs &a, int blocks,
                             int scatter, cudaStream_t st);
/* kernel_expand_topdown.cu: one class of the frontier queue. */
cudaError_t expand_topdown_launch(int cls, const DevGraph &g, const DevState &s, const uint32_t *q,
                                  uint32_t count, uint32_t level, int sms, cudaStream_t st);
/* kernel_topdown_status.cu: baseline top-down step, scanning the status array. */
cudaError_t topdown_status_launch(const DevGraph &g, const DevState &s, uint32_t level, int sms,
                                  cudaStream_t st);
/* kernel_bottom_up.cu: a step over every vertex, reading the status
 * array (queue generation off: the baseline) ... */
cudaError_t bottom_up_launch(const DevGraph &in, const DevState &s, uint32_t level,
                             const unsigned long long *hub_table, int sms, cudaStream_t st);
/* ... with queue generation on (BottomUpArgs); bits_from_list_launch sets
 * the bits of list[0, count) in bits (the frontier a top-down level leaves,
 * for the first step). */
cudaError_t bottom_up_step_launch(const BottomUpArgs &a, int sms, cudaStream_t st);
cudaError_t bits_from_list_launch(const uint32_t *list, uint32_t count, uint32_t *bits, int sms, cudaStream_t st);
/* kernel_small_levels.cu: the capacity, shared memory and the most blocks
 * (the grid tier's, 1 where cooperative launches are not possible) of the
 * kernel on this device; its scratch; a launch over `blocks` blocks
 * (cooperative when more than one). */
cudaError_t small_levels_prepare(int device, uint32_t *capacity, size_t *smem_bytes, int *blocks);
size_t small_levels_scratch_bytes(uint32_t capacity);
cudaError_t small_levels_launch(const SmallArgs &a, size_t smem_bytes, int blocks, cudaStream_t st);
/* kernel_deep_levels.cu: for a graph of n vertices and out-degrees up to
 * maxdeg, the rows' shift, the frontier capacity and the shared memory
 * (capacity 0: not for this graph); the padded rows (n << shift entries at
 * ell); a search from a.in. */
cudaError_t deep_levels_prepare(int device, uint64_t n, uint64_t maxdeg, uint32_t *shift, uint32_t *capacity,
                                size_t *smem_bytes);
cudaError_t deep_levels_ell(const DevGraph &g, uint32_t shift, uint32_t *ell, cudaStream_t st);
cudaError_t deep_levels_launch(const DeepArgs &a, size_t smem_bytes, cudaStream_t st);
/* kernel_cluster_search.cu: the shared memory of a block, the cluster's
 * blocks (0: not on this device or not for a graph of n vertices; want > 0:
 * at most that many) and each one's words; a search. */
size_t cluster_search_smem(uint32_t n, uint32_t words_per_block);
cudaError_t cluster_search_prepare(int device, uint32_t n, int want, int *blocks, uint32_t *words_per_block,
                                   size_t *smem_bytes);
cudaError_t cluster_search_launch(const ClusterArgs &a, int blocks, size_t smem_bytes, cudaStream_t st);
/* kernel_seed_sources.cu: status 0 and parent = itself for each source. */
cudaError_t seed_sources_launch(const DevState &s, const uint32_t *src, uint32_t count, cudaStream_t st);

}  // namespace wm_bfs

/* Returns WM_EDEVICE with the call, file and line from the enclosing
 * function, whose error out-parameter must be named err. */
#define CK(call)                                                                              \
  do {                                                                                        \
    cudaError_t e_ = (call);                                                                  \
    if (e_ != cudaSuccess)                                                                    \
      return wm_fail(err, WM_EDEVICE, "%s:%d: %s: %s", __FILE__, __LINE__, #call,             \
                     cudaGetErrorString(e_));                                                 \
  } while (0)

#endif
