/* The motif formulas' aggregates on the GPU: the passes of
 * motif_sums_cpu.c, which is their oracle, with a warp where the CPU has a
 * thread.
 *   1. triangles per edge: a warp per arc v->u (u < v), the lanes searching
 *      v's row before u in u's row above u; then copied to the arcs u->v;
 *      for size 5 also the 5-cycles' triangle term, from where each
 *      triangle's lowest vertex sits in the other two rows;
 *   2. vertex and edge sums: a warp per vertex, lanes over its row;
 *   3. 4-cycles: a warp per top u, with the per-vertex scratch of the CPU
 *      thread in device memory (one slice per warp; the number of warps is
 *      sized from the free memory); for size 5 it writes the pair lists S_uw
 *      (in chunks of tops that fit) and a bucket per list, which a second
 *      kernel takes a warp each, so that a hub's thousands of lists spread
 *      over the device;
 *   4. 4-cliques per triangle and 5-cliques: a warp per arc v->u (u < v),
 *      the lanes over its triangles and common neighbours.
 * Tops and vertices are handed out by an atomic counter, lowest id (the
 * highest degree) first; a top of many more paths than the warps' average
 * is swept by a block.  On one device alone, passes 1 and 2 run on a
 * stream of their own (start_early), beside the plan and pass 3.  Each
 * lane keeps 128-bit partial sums; a warp's go to its own slot (passes 1
 * and 2: side rows, atomically), and a last kernel adds them with
 * overflow checks, so that one row comes back.
 *
 * Over several GPUs (policy.gpus), each device holds the graph and runs
 * pass 1 (and the tops' path counts) whole, since every later pass reads
 * the triangles of every edge (device 0 alone adds the 5-cycles' triangle
 * term); the vertices of pass 2, the tops of pass 3 and the arcs of pass 4
 * come from counters in device 0's memory that every device grabs from
 * (system-scope atomics over peer access), so that each item is summed on
 * one device, whichever is free; each device writes and reads its own pair
 * lists (the lists of the tops it took); the heavy tops go to blocks on
 * every device, from a shared counter too (size 4's listed in ascending
 * order, the same on every device).  The host adds every device's row of
 * sums.
 *
 * This file is the host's side (scratch, plans, streams, several devices)
 * and the last reduction; the kernels are in the headers it includes, one
 * per pass: gpu_motif_triangles.cuh (1), gpu_motif_vertex_sums.cuh (2),
 * gpu_motif_cycles.cuh and gpu_motif_lists.cuh (3), gpu_motif_cliques.cuh
 * (4), gpu_motif_tops.cuh (the tops' paths, before them), over
 * gpu_motif_device.cuh. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <mutex>

#include <cub/cub.cuh>

#include "base.h"
#include "gpu_check.h"
#include "motif_sums.h"
#include "gpu_motif_device.cuh"
#include "gpu_motif_triangles.cuh"
#include "gpu_motif_vertex_sums.cuh"
#include "gpu_motif_cycles.cuh"
#include "gpu_motif_lists.cuh"
#include "gpu_motif_cliques.cuh"
#include "gpu_motif_tops.cuh"

namespace {

/* The warps' slots and the side rows summed per sum, a block each,
 * overflow flagged: one row to copy back instead of a row per warp. */
constexpr int kReduceThreads = 256;

__global__ void __launch_bounds__(kReduceThreads) reduce_slots(const i128 *slots, unsigned warps, const i128 *side,
                                                               unsigned side_rows, i128 *total, int *overflow) {
  __shared__ i128 part[kReduceThreads / 32];
  __shared__ int bad;
  const int lane = threadIdx.x & 31;
  const unsigned which = blockIdx.x;
  if (threadIdx.x == 0) bad = 0;
  __syncthreads();
  i128 s = 0;
  int wrapped = 0;
  for (unsigned w = threadIdx.x; w < warps + side_rows; w += kReduceThreads) {
    const i128 *row = w < warps ? slots + (uint64_t)w * WM_SUM_COUNT : side + (uint64_t)(w - warps) * WM_SUM_COUNT;
    checked_add(s, row[which], wrapped);
  }
  s = warp_sum_checked(s, wrapped);
  if (lane == 0) part[threadIdx.x >> 5] = s;
  if (wrapped) bad = 1;
  __syncthreads();
  if (threadIdx.x) return;
  i128 t = 0;
  for (int i = 0; i < kReduceThreads / 32; i++) checked_add(t, part[i], wrapped);
  total[which] = t;
  if (wrapped || bad) atomicOr(overflow, 1);
}

constexpr int kCounters = 64;

/* The events of a run: the passes' starts and ends; the last chunk's
 * sweeps and pair lists (lists_pass); the fork of the early passes. */
enum ev {
  kEvTriangles,
  kEvSums,
  kEvSumsEnd,
  kEvSweeps,
  kEvSweepsEnd,
  kEvCliquesEnd,
  kEvChunk,
  kEvChunkSweeps,
  kEvChunkEnd,
  kEvFork,
  kEvEnd,
  kEvents
};

/* Rows of sums of the passes that add theirs atomically (flush_shared),
 * apart from the warps' slots, which another pass may hold meanwhile. */
constexpr unsigned kSideRows = 256;
/* Counters of the early passes beside the kernel launches' (counter): never
 * handed out again, so never zeroed while a pass on the early stream may
 * still grab from them. */
constexpr int kSideCounters = 2;

struct run {
  dev_graph g;
  uint64_t *off;
  uint32_t *adj, *t;
  uint32_t *scratch, *buf;
  bucket *buckets;
  uint64_t *prefix;
  i128 *slots;
  i128 *total; /* the slots and side rows summed (reduce_slots); in r.next's block */
  i128 *side;  /* kSideRows rows of passes 1 and 2, added atomically (flush_shared); the same */
  int *overflow;
  unsigned long long *next; /* kCounters counters, each kernel launch its own, then kSideCounters */
  unsigned used;            /* counters handed out */
  cudaError_t bad;          /* the first failed reset of a counter */
  uint64_t *prefix_host;    /* each top's first list entry, and the total (size 5 in chunks, over
                               several devices or with a share; size 4 with a share, as the
                               windows' weights), else NULL */
  uint64_t cap;             /* list entries per chunk */
  cudaEvent_t ev[kEvents]; /* between the passes (enum ev) */
  cudaStream_t early;       /* one device alone: passes 1 and 2's (start_early), else 0 */
  bool early_due;           /* start_early before the first wait on the tops' paths */
  float pass3[2];           /* ms of the 4-cycle sweeps and of the pair lists */
  bool pass3_pending;       /* the last chunk's not in pass3: its events read with the passes' end */
  uint32_t *up;             /* size 5: each vertex's neighbours above it */
  uint64_t paths;           /* the paths below all the tops (count_paths) */
  uint64_t most;            /* size 5: the paths below the top of most (most_paths, for chunks) */
  uint64_t heavy_paths;     /* paths that make a top heavy (policy, else heavy_share or kHeavyPaths) */
  uint32_t *heavy;          /* size 5, one device: the tops of more than heavy_paths paths */
  uint32_t *heavy_host;     /* the same, ascending, on the host */
  uint32_t heavy_end;       /* the leading vertices of rows longer than kHeavyRow (heavy_rows) */
  uint32_t nheavy;          /* heavy_host's */
  unsigned long long *nheavy_dev; /* size 5 in one chunk: r.heavy's tops, counted on the device */
  uint64_t n, maxdeg;       /* the slices' array lengths */
  uint64_t words;           /* the scratch, stamps not counted */
  size_t free_left;         /* the device's free memory after the scratch and slots (size_scratch) */
  unsigned want;            /* warps at most, and the slots' */
  bool tight;               /* a layout per kernel (size_scratch) */
  layout shared;            /* else the one for all */
  int layout_used;          /* the tight scratch's last layout, -1 none */
  wm_progress progress;     /* in steps: each chunk of tops, then the last passes */
  int dev;                  /* this run's device */
  bool multi;               /* one of several devices: queue without waits */
  bool heavy_split;         /* several: the heavy tops apart, to blocks on every device
                               from a shared counter */
  unsigned long long *sh;   /* several: device 0's shared counters, one per shared launch */
  unsigned sh_used, sh_n;
  double prepare_s;         /* one device: the scratch and the list plan, for WM_MOTIF_TRACE */
  double prepare_ms[3];     /* of which the tops' paths, the scratch, the list plan */
  const wm_gpu_graph *resident; /* policy.graph: g on the devices already, or NULL */
  bool borrowed;            /* off and adj are resident's, not this run's to free */
  cudaMemPool_t pool;       /* resident's pool on this device (take), or NULL */
  bool skip_k4;             /* size 4: no 4-cliques (policy.skip_k4) */
  const wm_share *share;    /* policy.share: passes 2-4 in windows shared with other processes */
  unsigned loop;            /* the share's counters of those passes' windows */
};

/* This run's device buffers: from the resident graph's pool where there is
 * one, which keeps them for the next call (on a small graph such as hub,
 * cudaMalloc and cudaFree take longer than the kernels), else cudaMalloc.
 * Both are ordered on the default stream, where every pass runs. */
template <class T>
cudaError_t take(const run &r, T **p, size_t bytes) {
  return r.pool ? cudaMallocFromPoolAsync((void **)p, bytes, r.pool, 0) : cudaMalloc((void **)p, bytes);
}

void give(const run &r, void *p) {
  if (!p) return;
  if (r.pool) cudaFreeAsync(p, 0);
  else cudaFree(p);
}

/* Waits for ev, the last work queued on the default stream, with the
 * progress line kept up meanwhile; one step done. */
int wait_step(run &r, cudaEvent_t ev, const char *what, wm_error *err) {
  int rc = wm_gpu_watch(0, &r.progress, NULL, NULL, err);
  if (rc) return rc;
  cudaError_t e = cudaEventSynchronize(ev);
  if (e != cudaSuccess) return wm_cuda_fail(err, e, what, __FILE__, __LINE__);
  /* stopped: the next chunks are not queued, and the sums so far are partial */
  if (wm_progress_stopped(&r.progress)) return wm_interrupted(err, "motif sums");
  wm_progress_add(&r.progress, 1);
  return WM_OK;
}

/* A zeroed counter for the next launch (the last one is the buckets'):
 * upload zeroed them all, so one is zeroed again only when handed out a
 * second time. */
unsigned long long *counter(run &r) {
  const unsigned i = r.used++;
  unsigned long long *c = r.next + i % (kCounters - 1);
  if (i < kCounters - 1) return c;
  cudaError_t e = cudaMemsetAsync(c, 0, sizeof *c);
  if (e != cudaSuccess && r.bad == cudaSuccess) r.bad = e;
  return c;
}

/* The counter of a launch whose items every device shares (passes 2-4):
 * the next of device 0's shared counters, zeroed before any device began;
 * this device's own with one device. */
unsigned long long *shared_counter(run &r) {
  if (!r.sh) return counter(r);
  if (r.sh_used >= r.sh_n) { /* never: sh_n counts the shared launches */
    if (r.bad == cudaSuccess) r.bad = cudaErrorInvalidValue;
    return r.sh;
  }
  return r.sh + r.sh_used++;
}

void release(run &r) {
  if (r.early) cudaStreamSynchronize(r.early); /* its passes use the buffers below (an error may skip the join) */
  if (!r.borrowed) give(r, r.off), give(r, r.adj);
  void *bufs[] = {r.t, r.scratch, r.slots, r.buf, r.buckets, r.prefix, r.next, r.up, r.heavy, r.nheavy_dev};
  for (void *b : bufs) give(r, b);
  free(r.heavy_host);
  free(r.prefix_host);
  for (int i = 0; i < kEvents; i++)
    if (r.ev[i]) cudaEventDestroy(r.ev[i]);
}

uint32_t heavy_rows(const wm_graph *g);

/* The graph (unless resident) and what passes 1 and 2 write: the
 * triangles per edge, the counters, the side rows and totals, and for size
 * 5 each vertex's neighbours above it. */
int upload(const wm_graph *g, unsigned k, run &r, wm_error *err) {
  r.borrowed = wm_gpu_graph_on(r.resident, g, r.dev, (void **)&r.off, (void **)&r.adj) != 0;
  r.pool = (cudaMemPool_t)wm_gpu_graph_pool(r.resident, r.dev);
  if (!r.borrowed) {
    WM_CU(take(r, &r.off, (g->n + 1) * sizeof *r.off));
    WM_CU(take(r, &r.adj, (g->m ? g->m : 1) * sizeof *r.adj));
    WM_CU(cudaMemcpy(r.off, g->offsets, (g->n + 1) * sizeof *r.off, cudaMemcpyHostToDevice));
    WM_CU(cudaMemcpy(r.adj, g->adj, g->m * sizeof *r.adj, cudaMemcpyHostToDevice));
  }
  WM_CU(take(r, &r.t, (g->m ? g->m : 1) * sizeof *r.t));
  WM_CU(cudaMemset(r.t, 0, (g->m ? g->m : 1) * sizeof *r.t));
  /* one zeroed block: the counters, the totals and the overflow flag
   * after them (collect copies both at once), the side rows */
  static_assert((kCounters + kSideCounters) * sizeof *r.next % sizeof(i128) == 0, "the totals stay aligned");
  const size_t counters = (kCounters + kSideCounters) * sizeof *r.next, totals = (WM_SUM_COUNT + 1) * sizeof(i128),
               bytes = counters + totals + kSideRows * WM_SUM_COUNT * sizeof(i128);
  WM_CU(take(r, &r.next, bytes));
  WM_CU(cudaMemset(r.next, 0, bytes));
  r.total = (i128 *)((char *)r.next + counters);
  r.overflow = (int *)(r.total + WM_SUM_COUNT);
  r.side = r.total + WM_SUM_COUNT + 1;
  if (k >= 5) WM_CU(take(r, &r.up, (g->n ? g->n : 1) * sizeof *r.up));
  for (int i = 0; i < kEvents; i++) WM_CU(cudaEventCreate(&r.ev[i]));
  r.g.n = g->n, r.g.off = r.off, r.g.adj = r.adj;
  r.heavy_end = heavy_rows(g);
  return WM_OK;
}

/* Warps for `paths` paths below the tops: one per kPathsPerWarp of them,
 * at least a block per multiprocessor and kHeavyWarps (the block kernels'
 * size), at most all the device runs.  On a small graph every warp costs
 * its scratch's zeroing and its sums' flush and reduction more than it
 * speeds the passes: hub (72,492 paths) took 1.14 ms a 5-motif call on 512
 * warps, 1.47 on 2,048 and 1.73 on 4,224. */
constexpr uint64_t kPathsPerWarp = 128;
/* The same where the scratch is kept with the graph (can_keep) and so
 * costs no clearing: more warps then shorten a small graph's passes until
 * their sums' flushes outweigh it (hub's kernels are shortest near one
 * warp per 32 paths). */
constexpr uint64_t kKeptPathsPerWarp = 32;

uint64_t warps_for(uint64_t paths, int sms) {
  const uint64_t most = (uint64_t)sms * kBlocksPerSm * kWarpsPerBlock;
  uint64_t least = (uint64_t)sms * kWarpsPerBlock;
  if (least < kHeavyWarps) least = kHeavyWarps;
  const uint64_t w = (paths / kPathsPerWarp + kHeavyWarps - 1) / kHeavyWarps * kHeavyWarps; /* whole blocks */
  return w < least ? least : w > most ? most : w;
}

/* A scratch is kept with a graph on the device (wm_gpu_graph_keep) for a
 * single device's call: every kernel leaves its arrays as the next needs
 * them (tallies zeroed, marks below each warp's stamps) under one layout
 * for all, so the next call of the same size and warps need not clear it. */
bool can_keep(const run &r) { return r.resident && r.borrowed && !r.multi; }

uint64_t scratch_tag(unsigned k, uint64_t warps) { return (uint64_t)k | warps << 8; }

/* The slices' array length: the arrays are indexed by neighbours only, so
 * the vertices of no edge at the end (where the degree order puts all of
 * them) need no entry.  On Kronecker graphs they are a third or more of the
 * vertices, and a tight scratch fits as many more warps. */
uint64_t indexed_vertices(const wm_graph *g) {
  uint64_t n = g->n;
  while (n && g->offsets[n] == g->offsets[n - 1]) n--;
  return n ? n : 1;
}

/* The scratch of passes 3 and 4 (struct layout): where every kernel's
 * arrays fit the warps (policy.warps, else warps_for r.paths) in the
 * budget, one layout for all (kAll; kFour for size 4); else the budget
 * whole, each kernel's layout over as many warps as fit.  The budget is
 * policy.scratch_words, or 75% of the free memory. */
int size_scratch(const wm_graph *g, unsigned k, const wm_motif_gpu_policy &policy, run &r, wm_error *err) {
  int dev = 0, sms = 0;
  WM_CU(cudaGetDevice(&dev));
  WM_CU(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  if (g->n >= 0x80000000u)
    return wm_fail(err, WM_EDEVICE, "motif aggregates on the GPU: at most 2^31 vertices (got %u)", g->n);
  r.n = indexed_vertices(g);
  r.maxdeg = wm_graph_max_degree(g) + 1;
  const layout &one = k >= 5 ? kAll : kFour;
  uint64_t want = policy.warps ? policy.warps : warps_for(r.paths, sms);
  /* a scratch kept with the graph costs no clearing: a warp per
   * kKeptPathsPerWarp paths */
  if (!policy.warps && can_keep(r)) {
    const uint64_t more = warps_for(r.paths * (kPathsPerWarp / kKeptPathsPerWarp), sms);
    if (more * (words_per_warp(one, r.n, r.maxdeg) + 1) * 4 <= WM_GPU_GRAPH_KEEP_BYTES) want = more;
  }
  want = (want + kWarpsPerBlock - 1) / kWarpsPerBlock * kWarpsPerBlock;
  uint64_t budget = policy.scratch_words;
  size_t free_b = 0, total_b = 0;
  WM_CU(cudaMemGetInfo(&free_b, &total_b));
  if (!budget) budget = (uint64_t)(0.75 * (double)free_b) / 4;
  budget = budget > want ? budget - want : 0; /* the stamps' */
  const uint64_t all = want * words_per_warp(one, r.n, r.maxdeg);
  r.tight = all > budget;
  r.words = r.tight ? budget : all;
  r.want = (unsigned)want;
  r.shared = one;
  const size_t bytes = (r.words + want) * 4;
  r.scratch = NULL;
  if (can_keep(r) && !r.tight)
    r.scratch = (uint32_t *)wm_gpu_graph_take(r.resident, r.dev, bytes, scratch_tag(k, want));
  if (!r.scratch) { /* none kept, or of another size or tag */
    WM_CU(take(r, &r.scratch, bytes));
    WM_CU(cudaMemset(r.scratch, 0, bytes));
    free_b = free_b > bytes ? free_b - bytes : 0;
  }
  r.layout_used = -1;
  const size_t slots = want * WM_SUM_COUNT * sizeof(i128);
  WM_CU(take(r, &r.slots, slots));
  WM_CU(cudaMemset(r.slots, 0, slots));
  r.free_left = free_b > slots ? free_b - slots : 0;
  return WM_OK;
}

/* The warps layout l runs on (use_layout), without touching the scratch. */
uint64_t layout_warps(const run &r, const layout &l) {
  uint64_t w = r.words / words_per_warp(r.tight ? l : r.shared, r.n, r.maxdeg);
  if (w > r.want) w = r.want;
  return w / kWarpsPerBlock * kWarpsPerBlock;
}

/* The pool of layout l (one of the k* constants, told apart by `which`)
 * and the warps it runs on.  In a tight scratch, a layout other than the
 * last one starts from zeroed memory and stamps. */
int use_layout(run &r, const layout &l, int which, scratch_pool &pool, unsigned &warps, wm_error *err) {
  const layout &eff = r.tight ? l : r.shared;
  pool.n = r.n, pool.maxdeg = r.maxdeg, pool.l = eff;
  pool.per_warp = words_per_warp(eff, r.n, r.maxdeg);
  pool.base = r.scratch;
  pool.stamps = r.scratch + r.words;
  const uint64_t w = layout_warps(r, l);
  if (w == 0)
    return wm_fail(err, WM_EDEVICE, "motif aggregates: one warp's scratch (%.1f MB) does not fit the GPU's free memory",
                   (double)pool.per_warp * kWarpsPerBlock * 4 / 1e6);
  warps = (unsigned)w;
  if (r.tight && r.layout_used != which) {
    if (r.layout_used >= 0) WM_CU(cudaMemsetAsync(r.scratch, 0, (r.words + r.want) * 4));
    r.layout_used = which;
  }
  return WM_OK;
}

/* The first item of window w of `windows` over n items; weight (n + 1
 * cumulative entries) weighs them, NULL counts each alike. */
uint64_t window_start(const uint64_t *weight, uint64_t n, uint64_t windows, uint64_t w) {
  if (w >= windows) return n;
  if (!weight) return (uint64_t)((unsigned __int128)n * w / windows);
  const uint64_t want = (uint64_t)((unsigned __int128)weight[n] * w / windows);
  return (uint64_t)(std::lower_bound(weight, weight + n, want) - weight);
}

/* Pass `which` (0..2) over items [0, n): f(a, b) queues the work of items
 * [a, b).  Alone, one call over them all; with a share (policy.share), the
 * windows of about equal work (WM_SHARE_WINDOWS per process) this process
 * takes, each waited for before the next is taken, none once the call is
 * interrupted (the driver then halts the windows for every process). */
template <class F>
int over_windows(run &r, unsigned which, uint64_t n, const uint64_t *weight, wm_error *err, F f) {
  if (!r.share) return f((uint64_t)0, n);
  const uint64_t windows = (uint64_t)WM_SHARE_WINDOWS * (uint64_t)r.share->processes;
  for (uint64_t w;;) {
    if (wm_monitor_stopped(wm_monitor_current())) return wm_interrupted(err, "motif sums");
    if ((w = r.share->grab(r.share->ctx, r.loop + which, 1)) >= windows) break;
    const uint64_t a = window_start(weight, n, windows, w), b = window_start(weight, n, windows, w + 1);
    if (a >= b) continue;
    int rc = f(a, b);
    if (rc) return rc;
    WM_CU(cudaStreamSynchronize(0));
  }
  return WM_OK;
}

/* Room for the pair lists (and their buckets, at most one per two
 * entries): all tops at once where 70% of the free memory (after the
 * scratch, size_scratch) holds them, else chunks of consecutive tops, each
 * top's lists whole. */
int most_paths(const wm_graph *g, run &r, wm_error *err);

int size_lists(const wm_graph *g, run &r, uint64_t room, uint64_t &cap, wm_error *err) {
  const uint64_t fit = (uint64_t)(0.7 * (double)r.free_left) / (4 + sizeof(bucket) / 2);
  cap = r.paths < fit ? r.paths : fit;
  if (cap < r.paths || room) { /* chunks, each top's lists whole */
    int rc = most_paths(g, r, err);
    if (rc) return rc;
  }
  if (cap > 0xFFFFFFFFull) cap = 0xFFFFFFFFull; /* bucket.start is 32 bits */
  if (room && room < cap) cap = room > r.most ? room : r.most; /* tests: many chunks */
  if (cap < r.most)
    return wm_fail(err, WM_EDEVICE, "motif aggregates: vertex lists of %llu paths do not fit the GPU's free memory",
                   (unsigned long long)r.most);
  if (cap == 0) cap = 1;
  WM_CU(take(r, &r.buf, cap * 4));
  WM_CU(take(r, &r.buckets, (cap / 2 + 1) * sizeof(bucket)));
  return WM_OK;
}

int sort_tops(run &r, const unsigned long long *ntops, wm_error *err);
unsigned small_blocks_of(run &r, wm_error *err);

/* The leading vertices of rows longer than kHeavyRow (vertex_and_edge_sums). */
uint32_t heavy_rows(const wm_graph *g) {
  uint32_t h = 0;
  while (h < g->n && g->offsets[h + 1] - g->offsets[h] > kHeavyRow) h++;
  return h;
}

int start_early(const wm_graph *g, unsigned k, run &r, wm_error *err);

/* start_early where it is due: after the tops' paths are queued, so
 * that their blocks, which the host waits for, go first. */
int start_due(const wm_graph *g, unsigned k, run &r, wm_error *err) {
  if (!r.early_due) return WM_OK;
  r.early_due = false;
  return start_early(g, k, r, err);
}

/* Each top's paths (r.prefix + 1, on the device) into r.prefix_host + 1,
 * after a 0. */
int paths_to_host(const wm_graph *g, run &r, wm_error *err) {
  r.prefix_host = (uint64_t *)malloc((g->n + 1) * sizeof *r.prefix_host);
  if (!r.prefix_host) return wm_fail(err, WM_EINPUT, "out of memory");
  WM_CU(cudaMemcpy(r.prefix_host + 1, r.prefix + 1, g->n * sizeof *r.prefix_host, cudaMemcpyDeviceToHost));
  r.prefix_host[0] = 0;
  return WM_OK;
}

/* Blocks of kThreads for a thread per vertex, at most `most`: on a small
 * graph, no warp whose only work is its atomics at the end. */
unsigned vertex_blocks(uint32_t n, unsigned most) {
  const uint64_t b = ((uint64_t)n + kThreads - 1) / kThreads;
  return b < 1 ? 1 : b > most ? most : (unsigned)b;
}

/* Each top's paths (arc_paths) at paths[0..n) and their total (r.paths);
 * the tops of more than `heavy` listed in tops (NULL: none), counted in
 * *ntops.  Size 5 scans them on the device into each top's first list
 * entry, and the total after them: one copy of the counters is the plan's
 * round trip, not the tops' paths to the host and back (plan_lists).  The
 * early passes start before it (start_due). */
int top_paths(const wm_graph *g, unsigned k, run &r, uint64_t *paths, uint64_t heavy, uint32_t *tops,
              unsigned long long *ntops, unsigned small_blocks, wm_error *err) {
  unsigned long long *total = counter(r);
  const unsigned blocks = vertex_blocks(g->n, small_blocks);
  WM_CU(cudaMemsetAsync(r.prefix, 0, (g->n + 1) * sizeof *r.prefix));
  arc_paths<<<blocks, kThreads>>>(r.g, paths, total, r.up);
  if (tops) path_stats<false><<<blocks, kThreads>>>(paths, g->n, heavy, tops, ntops, NULL);
  WM_CU(cudaGetLastError());
  if (k >= 5) {
    size_t bytes = 0;
    void *tmp = NULL;
    const int64_t items = (int64_t)g->n + 1;
    WM_CU(cub::DeviceScan::ExclusiveSum(tmp, bytes, r.prefix, r.prefix, items));
    WM_CU(take(r, &tmp, bytes > 16 ? bytes : 16)); /* a NULL tmp would ask for the size again */
    cudaError_t e = cub::DeviceScan::ExclusiveSum(tmp, bytes, r.prefix, r.prefix, items);
    give(r, tmp);
    if (e != cudaSuccess) return wm_cuda_fail(err, e, "the tops' paths' scan", __FILE__, __LINE__);
  }
  int rc = start_due(g, k, r, err);
  if (rc) return rc;
  unsigned long long t = 0;
  WM_CU(cudaMemcpy(&t, total, sizeof t, cudaMemcpyDeviceToHost));
  r.paths = t;
  return WM_OK;
}

/* Size 5: the paths of the top of most (r.most), where size_lists needs
 * it: the lists in chunks, each top's whole. */
int most_paths(const wm_graph *g, run &r, wm_error *err) {
  unsigned long long *most = counter(r), m = 0;
  const unsigned blocks = vertex_blocks(g->n, small_blocks_of(r, err));
  path_stats<true><<<blocks, kThreads>>>(r.prefix, g->n, 0, NULL, NULL, most);
  WM_CU(cudaGetLastError());
  WM_CU(cudaMemcpy(&m, most, sizeof m, cudaMemcpyDeviceToHost));
  r.most = m;
  return WM_OK;
}

/* Each top's paths (top_paths): size 5 scanned on the device; size 4
 * at r.prefix + 1, where several devices or processes share the tops
 * with the list of the heavy tops (in r.buf, of more than
 * r.heavy_paths, else kHeavyPaths), sorted, with a share on the host too,
 * and cumulative paths there, for the windows (else plan_four lists
 * them). */
int count_paths(const wm_graph *g, unsigned k, run &r, unsigned small_blocks, wm_error *err) {
  WM_CU(take(r, &r.prefix, (g->n + 1) * sizeof *r.prefix));
  if (k >= 5) return top_paths(g, k, r, r.prefix, 0, NULL, NULL, small_blocks, err);
  WM_CU(take(r, &r.buf, (g->n ? g->n : 1) * sizeof *r.buf));
  const bool shared = r.multi || r.share;
  unsigned long long *ntops = r.next + kCounters - 1;
  if (shared) {
    if (!r.heavy_paths) r.heavy_paths = kHeavyPaths; /* the same on every device, whatever its warps */
    WM_CU(cudaMemsetAsync(ntops, 0, sizeof *ntops));
  }
  int rc = top_paths(g, k, r, r.prefix + 1, r.heavy_paths, shared ? r.buf : NULL, ntops, small_blocks, err);
  if (rc) return rc;
  if (r.share) {
    if ((rc = paths_to_host(g, r, err))) return rc;
    for (uint32_t u = 0; u < g->n; u++) r.prefix_host[u + 1] += r.prefix_host[u];
  }
  return r.multi || r.share ? sort_tops(r, ntops, err) : WM_OK;
}

/* A top heavier than a warp's share of the paths, within [kHeavyMin,
 * kHeavyPaths]: its block's chains of loads are shorter than a warp's,
 * and the light tops' warps are not left waiting for it. */
uint64_t heavy_share(const run &r) {
  const uint64_t share = r.paths / (r.want ? r.want : 1);
  return share < kHeavyMin ? kHeavyMin : share > kHeavyPaths ? kHeavyPaths : share;
}

/* Before the timed passes, for size 4 on one device alone: the tops of
 * more than r.heavy_paths paths (a warp's share unless the policy says)
 * listed in r.buf, in any order, counted at ntops (four_cycle_pass); with
 * several devices or a share count_paths listed them.  At a fixed 32,768
 * paths, hub's sweeps waited 0.38 ms on its light tops' warps. */
int plan_four(const wm_graph *g, run &r, wm_error *err) {
  if (r.multi || r.share) return WM_OK;
  if (!r.heavy_paths) r.heavy_paths = heavy_share(r);
  unsigned long long *ntops = r.next + kCounters - 1;
  WM_CU(cudaMemsetAsync(ntops, 0, sizeof *ntops));
  const unsigned blocks = vertex_blocks(g->n, small_blocks_of(r, err));
  path_stats<false><<<blocks, kThreads>>>(r.prefix + 1, g->n, r.heavy_paths, r.buf, ntops, NULL);
  WM_CU(cudaGetLastError());
  return WM_OK;
}

/* Before the timed passes, for size 5: the room for the lists and the
 * heavy tops (of more than r.heavy_paths paths).  Where the lists go in
 * chunks, or several devices or processes share the tops, the tops' first
 * entries come to the host (r.prefix_host) and the heavy tops are listed
 * there, ascending (r.heavy_host, then r.heavy); else, in one chunk, the
 * device lists them (path_stats, r.nheavy_dev) in any order. */
int plan_lists(const wm_graph *g, run &r, uint64_t room, wm_error *err) {
  if (!r.heavy_paths && r.multi) /* the same on every device, whatever its warps */
    r.heavy_paths = kHeavyPaths;
  if (!r.heavy_paths) r.heavy_paths = heavy_share(r);
  int rc = size_lists(g, r, room, r.cap, err);
  if (rc) return rc;
  if (!r.multi && !r.share && r.paths <= r.cap) {
    WM_CU(take(r, &r.heavy, (g->n ? g->n : 1) * sizeof *r.heavy));
    WM_CU(take(r, &r.nheavy_dev, sizeof *r.nheavy_dev));
    WM_CU(cudaMemsetAsync(r.nheavy_dev, 0, sizeof *r.nheavy_dev));
    const unsigned blocks = vertex_blocks(g->n, small_blocks_of(r, err));
    path_stats<true><<<blocks, kThreads>>>(r.prefix, g->n, r.heavy_paths, r.heavy, r.nheavy_dev, NULL);
    WM_CU(cudaGetLastError());
    return WM_OK;
  }
  const uint64_t *prefix = r.prefix_host = (uint64_t *)malloc((g->n + 1) * sizeof *r.prefix_host);
  if (!prefix) return wm_fail(err, WM_EINPUT, "out of memory");
  WM_CU(cudaMemcpy(r.prefix_host, r.prefix, (g->n + 1) * sizeof *r.prefix_host, cudaMemcpyDeviceToHost));
  uint32_t nheavy = 0;
  for (uint32_t u = 0; u < g->n; u++) nheavy += prefix[u + 1] - prefix[u] > r.heavy_paths;
  if (!nheavy) return WM_OK;
  r.heavy_host = (uint32_t *)malloc(nheavy * sizeof *r.heavy_host);
  if (!r.heavy_host) return wm_fail(err, WM_EINPUT, "out of memory");
  for (uint32_t u = 0; u < g->n; u++)
    if (prefix[u + 1] - prefix[u] > r.heavy_paths) r.heavy_host[r.nheavy++] = u;
  WM_CU(take(r, &r.heavy, nheavy * sizeof *r.heavy));
  WM_CU(cudaMemcpy(r.heavy, r.heavy_host, nheavy * sizeof *r.heavy, cudaMemcpyHostToDevice));
  return WM_OK;
}

/* The end of the chunk of tops from u0 whose lists fit r.cap entries (at
 * least one top). */
uint32_t chunk_end(const run &r, uint32_t n, uint32_t u0) {
  if (!r.prefix_host) return n; /* one chunk (plan_lists) */
  uint32_t u1 = u0 + 1;
  while (u1 < n && r.prefix_host[u1 + 1] - r.prefix_host[u0] <= r.cap) u1++;
  return u1;
}

/* Pass 3 for size 5 over tops [ua, ub): in chunks whose lists fit
 * (plan_lists), each chunk's buckets then taken a warp each.  In a tight
 * scratch each chunk's sweep and pair lists have layouts of their own
 * (kSweeps, kLists), the scratch zeroed at each change. */
int lists_pass(run &r, uint32_t ua, uint32_t ub, wm_error *err) {
  scratch_pool pool, lists_pool;
  unsigned warps = 0, lists_warps = 0;
  int rc = use_layout(r, kSweeps, 1, pool, warps, err);
  if (rc) return rc;
  const unsigned blocks = warps / kWarpsPerBlock;
  cudaError_t e;
  unsigned long long *nbuckets = r.next + kCounters - 1;
  /* the heavy tops a block each; several devices agree on it (r.heavy_split)
   * and take the chunk's heavy tops from one shared counter, as the rest */
  const bool split = r.multi ? r.heavy_split : (r.nheavy || r.nheavy_dev) && warps >= kHeavyWarps;
  uint32_t h1 = (uint32_t)(std::lower_bound(r.heavy_host, r.heavy_host + r.nheavy, ua) - r.heavy_host);
  uint32_t h0 = h1;                                     /* the chunk's heavy tops */
  for (uint32_t u0 = ua, u1; u0 < ub && !rc; u0 = u1, h0 = h1) {
    u1 = chunk_end(r, ub, u0);
    while (h1 < r.nheavy && r.heavy_host[h1] < u1) h1++;
    /* back to the sweeps' layout after the last chunk's pair lists (a no-op the first time) */
    if ((rc = use_layout(r, kSweeps, 1, pool, warps, err))) break;
    if ((e = cudaMemsetAsync(nbuckets, 0, sizeof *nbuckets)) != cudaSuccess) {
      rc = wm_cuda_fail(err, e, "cudaMemsetAsync(nbuckets)", __FILE__, __LINE__);
      break;
    }
    float sweep = 0, lists = 0;
    if (!r.multi) cudaEventRecord(r.ev[kEvChunk]);
    /* Several devices: each takes tops of the chunk from the shared
     * counter and lists them in its own buffer and buckets. */
    unsigned long long *heavy_next = split ? shared_counter(r) : NULL; /* the same order on every device */
    if (split && warps >= kHeavyWarps)
      four_cycles_mixed<<<warps / kHeavyWarps, 32 * kHeavyWarps>>>(
          r.g, r.t, 5, pool, u0, u1, r.heavy + h0, h1 - h0, r.nheavy_dev, heavy_next, shared_counter(r), r.prefix, r.buf,
          r.buckets, nbuckets, NULL, r.heavy_paths, r.slots, r.overflow);
    else
      four_cycles<<<blocks, kThreads>>>(r.g, r.t, 5, pool, u0, u1, shared_counter(r), r.prefix, r.buf, r.buckets,
                                        nbuckets, NULL, split ? r.heavy_paths : 0, r.slots, r.overflow);
    if (!r.multi) cudaEventRecord(r.ev[kEvChunkSweeps]);
    /* in a tight scratch the pair lists lay out fewer arrays over more warps */
    if ((rc = use_layout(r, kLists, 5, lists_pool, lists_warps, err))) break;
    /* xs has a vertex's room unless the scratch is tight: the untight kernel needs neither
     * xs's bound nor the second walk */
    if (r.tight)
      pair_lists<true><<<lists_warps / kWarpsPerBlock, kThreads>>>(r.g, r.buckets, nbuckets, r.buf, lists_pool,
                                                                   counter(r), r.slots, r.overflow);
    else
      pair_lists<false><<<lists_warps / kWarpsPerBlock, kThreads>>>(r.g, r.buckets, nbuckets, r.buf, lists_pool,
                                                                    counter(r), r.slots, r.overflow);
    if (r.multi) continue; /* queued without waits: the chunks' times are not split */
    cudaEventRecord(r.ev[kEvChunkEnd]);
    /* the last chunk is waited for with the passes' end (pass_times):
     * a small graph's one chunk then costs no round trip to the host */
    if (u1 >= ub && !r.share) {
      r.pass3_pending = true;
      break;
    }
    if ((rc = wait_step(r, r.ev[kEvChunkEnd], "four_cycles/pair_lists", err))) break;
    cudaEventElapsedTime(&sweep, r.ev[kEvChunk], r.ev[kEvChunkSweeps]);
    cudaEventElapsedTime(&lists, r.ev[kEvChunkSweeps], r.ev[kEvChunkEnd]);
    r.pass3[0] += sweep, r.pass3[1] += lists;
  }
  return rc;
}

/* Size 4's 4-cycles over tops [ua, ub): tops of many paths a block each,
 * the rest a warp each.  With a share the heavy tops' list is sorted on
 * the host too (sort_tops), and a window takes those inside it. */
int four_cycle_pass(run &r, unsigned small_blocks, uint32_t ua, uint32_t ub, wm_error *err) {
  scratch_pool pool;
  unsigned warps = 0;
  int rc = use_layout(r, kFour, 0, pool, warps, err);
  if (rc) return rc;
  const unsigned blocks = warps / kWarpsPerBlock;
  /* Several devices agree on whether the heavy tops go apart
   * (r.heavy_split, from device 0's warps), and each takes shared counters
   * in the same order, whether it launches on them or not. */
  if (r.multi ? !r.heavy_split : warps < kHeavyWarps) {
    four_cycles<<<blocks, kThreads>>>(r.g, r.t, 4, pool, ua, ub, shared_counter(r), NULL, NULL, NULL, NULL,
                                      r.prefix + 1, 0, r.slots, r.overflow);
    return WM_OK;
  }
  unsigned long long *ntops = r.next + kCounters - 1, *heavy_next = shared_counter(r);
  /* a window's heavy tops: those of the sorted list inside it */
  const uint32_t *tops = r.buf;
  unsigned long long count = 0;
  if (r.share) {
    const uint32_t *h = r.heavy_host, *end = h + r.nheavy;
    const uint32_t *lo = std::lower_bound(h, end, ua), *hi = std::lower_bound(h, end, ub);
    tops = r.buf + (lo - h), count = (unsigned long long)(hi - lo), ntops = NULL;
  }
  if (warps >= kHeavyWarps)
    four_cycles_mixed<<<warps / kHeavyWarps, 32 * kHeavyWarps>>>(
        r.g, r.t, 4, pool, ua, ub, tops, count, ntops, heavy_next, shared_counter(r), NULL, NULL, NULL, NULL,
        r.prefix + 1, r.heavy_paths, r.slots, r.overflow);
  else
    four_cycles<<<blocks, kThreads>>>(r.g, r.t, 4, pool, ua, ub, shared_counter(r), NULL, NULL, NULL, NULL,
                                      r.prefix + 1, r.heavy_paths, r.slots, r.overflow);
  return WM_OK;
}

unsigned small_blocks_of(run &r, wm_error *err) {
  int sms = 0;
  if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, r.dev) != cudaSuccess) return 0;
  (void)err;
  return (unsigned)sms * 16;
}

/* Several devices take size 4's heavy tops by index from one counter:
 * top_paths lists them in whatever order its warps finish, so the list is
 * sorted, the same on every device.  With a share the host keeps it
 * (heavy_host), for the windows. */
int sort_tops(run &r, const unsigned long long *ntops, wm_error *err) {
  unsigned long long n = 0;
  WM_CU(cudaMemcpy(&n, ntops, sizeof n, cudaMemcpyDeviceToHost));
  if (n < (r.share ? 1u : 2u)) return WM_OK;
  uint32_t *host = (uint32_t *)malloc(n * sizeof *host);
  if (!host) return wm_fail(err, WM_EINPUT, "out of memory");
  cudaError_t e = cudaMemcpy(host, r.buf, n * sizeof *host, cudaMemcpyDeviceToHost);
  if (e == cudaSuccess) {
    std::sort(host, host + n);
    e = cudaMemcpy(r.buf, host, n * sizeof *host, cudaMemcpyHostToDevice);
  }
  if (r.share) r.heavy_host = host, r.nheavy = (uint32_t)n, host = NULL;
  free(host);
  if (e != cudaSuccess) return wm_cuda_fail(err, e, "the heavy tops' list", __FILE__, __LINE__);
  return WM_OK;
}

/* Before the timed passes: the tops' paths (and size 4's heavy tops),
 * the scratch for as many warps as they need, and size 5's list plan (and
 * room for each vertex's neighbours above it). */
int prepare(const wm_graph *g, unsigned k, const wm_motif_gpu_policy &policy, run &r, wm_error *err) {
  const unsigned small_blocks = small_blocks_of(r, err);
  if (!small_blocks) WM_CU(cudaGetLastError());
  const double t0 = wm_now();
  r.heavy_paths = policy.heavy_paths;
  int rc = count_paths(g, k, r, small_blocks, err);
  const double t1 = wm_now();
  if (!rc) rc = size_scratch(g, k, policy, r, err);
  const double t2 = wm_now();
  r.prepare_ms[0] = 1e3 * (t1 - t0), r.prepare_ms[1] = 1e3 * (t2 - t1);
  if (rc) return rc;
  rc = k >= 5 ? plan_lists(g, r, policy.list_room, err) : plan_four(g, r, err);
  r.prepare_ms[2] = 1e3 * (wm_now() - t2);
  return rc;
}

/* The chunks of tops of size 5's lists (1 for size 4). */
uint64_t chunks_of(const wm_graph *g, unsigned k, const run &r) {
  uint64_t c = 0;
  if (k >= 5)
    for (uint32_t u0 = 0; u0 < g->n; u0 = chunk_end(r, g->n, u0)) c++;
  return c ? c : 1;
}

/* Passes 1 and 2 on stream s, between the events kEvTriangles, kEvSums
 * and kEvSumsEnd: they need no plan of the tops.  Their sums go to the
 * side rows, atomically, so that they may run beside pass 3. */
int queue_early(const wm_graph *g, unsigned k, run &r, cudaStream_t s, wm_error *err) {
  const unsigned small_blocks = small_blocks_of(r, err);
  if (!small_blocks) WM_CU(cudaGetLastError());
  unsigned long long *side = r.next + kCounters; /* kSideCounters of them */
  WM_CU(cudaEventRecord(r.ev[kEvTriangles], s));
  /* size 5: the 5-cycles' triangle term with the triangles, on one device */
  const uint32_t *up = k >= 5 && (!r.multi || r.dev == 0) && (!r.share || r.share->process == 0) ? r.up : NULL;
  edge_triangles<<<small_blocks, kThreads, 0, s>>>(r.g, g->m, r.t, s ? side : counter(r), up, r.side, kSideRows);
  fold_triangles<<<small_blocks, kThreads, 0, s>>>(r.g, g->m, r.t);
  WM_CU(cudaEventRecord(r.ev[kEvSums], s));
  int rc = over_windows(r, 0, g->n, g->offsets, err, [&](uint64_t a, uint64_t b) {
    /* several devices split the vertices by a shared counter alone */
    vertex_and_edge_sums<<<small_blocks, kThreads, 0, s>>>(r.g, r.t, r.multi ? 0 : r.heavy_end,
                                                           s ? side + 1 : shared_counter(r), (uint32_t)a, (uint32_t)b,
                                                           r.side, kSideRows, r.overflow);
    return WM_OK;
  });
  if (rc) return rc;
  WM_CU(cudaGetLastError());
  WM_CU(cudaEventRecord(r.ev[kEvSumsEnd], s));
  return WM_OK;
}

/* Arcs up to which the early passes start before the plan's round trip.
 * There they take about as long as the plan and both are mostly waits;
 * on a larger graph their blocks fill the device and hold up the tops'
 * scan, which the host waits for (kron-18: 0.6 ms became 5.7), so they
 * start after the plan, still beside pass 3. */
constexpr uint64_t kEarlyArcs = 1u << 20;

/* Device dev's stream for the early passes, made the first time and kept
 * for the process: making and freeing one costs as much as a kernel
 * launch.  Calls on one device at once share it, which orders their early
 * passes and nothing else. */
int early_stream(int dev, cudaStream_t *out, wm_error *err) {
  static std::mutex lock;
  static cudaStream_t streams[64];
  if (dev < 0 || dev >= 64) return wm_fail(err, WM_EDEVICE, "motif aggregates: device %d out of range", dev);
  std::lock_guard<std::mutex> hold(lock);
  if (!streams[dev]) WM_CU(cudaStreamCreateWithFlags(&streams[dev], cudaStreamNonBlocking));
  *out = streams[dev];
  return WM_OK;
}

/* One device alone: passes 1 and 2 on a stream of their own from here
 * (after the buffers they use and the tops' paths, which write r.up):
 * on a small graph while the lists are planned (kEarlyArcs), and beside
 * pass 3 (queue_passes joins them).  On hub they took a fifth of the
 * kernels' time, one after the other. */
int start_early(const wm_graph *g, unsigned k, run &r, wm_error *err) {
  int rc = early_stream(r.dev, &r.early, err);
  if (rc) return rc;
  WM_CU(cudaEventRecord(r.ev[kEvFork], 0));
  WM_CU(cudaStreamWaitEvent(r.early, r.ev[kEvFork], 0));
  return queue_early(g, k, r, r.early, err);
}

/* Until kEvEnd, on the device's default stream: passes 1 and 2 unless
 * start_early queued them, then passes 3 and 4, each after the triangles
 * it reads; waited for (with the progress line) unless r.multi. */
int queue_passes(const wm_graph *g, unsigned k, run &r, wm_error *err) {
  int rc;
  if (!r.early) {
    WM_CU(cudaDeviceSynchronize()); /* the passes' time starts on an idle device, the plans made */
    if ((rc = queue_early(g, k, r, 0, err))) return rc;
  } else if (k >= 5) /* size 5's sweeps read the triangles per edge */
    WM_CU(cudaStreamWaitEvent(0, r.ev[kEvSums], 0));
  const unsigned small_blocks = small_blocks_of(r, err);
  if (!small_blocks) WM_CU(cudaGetLastError());
  WM_CU(cudaEventRecord(r.ev[kEvSweeps]));
  rc = over_windows(r, 1, g->n, r.prefix_host, err, [&](uint64_t a, uint64_t b) {
    return k >= 5 ? lists_pass(r, (uint32_t)a, (uint32_t)b, err)
                  : four_cycle_pass(r, small_blocks, (uint32_t)a, (uint32_t)b, err);
  });
  if (rc) return rc;
  WM_CU(cudaEventRecord(r.ev[kEvSweepsEnd]));
  if (r.early && k < 5) WM_CU(cudaStreamWaitEvent(0, r.ev[kEvSums], 0)); /* size 4's cliques read them */
  if (k >= 5 || !r.skip_k4) {
    scratch_pool pool;
    unsigned warps = 0;
    if ((rc = use_layout(r, k >= 5 ? kCliques : kEdgeCliques, k >= 5 ? 3 : 4, pool, warps, err))) return rc;
    rc = over_windows(r, 2, g->m, NULL, err, [&](uint64_t a, uint64_t b) {
      if (k >= 5)
        triangle_cliques<<<warps / kWarpsPerBlock, kThreads>>>(r.g, a, b, r.t, pool, shared_counter(r), r.slots,
                                                               r.overflow);
      else
        edge_cliques<<<warps / kWarpsPerBlock, kThreads>>>(r.g, a, b, r.t, pool, shared_counter(r), r.slots,
                                                           r.overflow);
      return WM_OK;
    });
    if (rc) return rc;
  }
  WM_CU(cudaGetLastError());
  WM_CU(r.bad);
  WM_CU(cudaEventRecord(r.ev[kEvCliquesEnd]));
  if (r.early) WM_CU(cudaStreamWaitEvent(0, r.ev[kEvSumsEnd], 0)); /* the join */
  WM_CU(cudaEventRecord(r.ev[kEvEnd]));
  if (r.multi) return WM_OK;
  return wait_step(r, r.ev[kEvEnd], "the motif passes", err);
}

/* The passes' ms once they are done (ms as wm_motif_sums.pass_seconds),
 * each from its own events (passes 1 and 2 may run beside the others),
 * and *span from the first's start to the last's end; several devices do
 * not time the chunks apart: 4-cycles and pair lists go under 4-cycles
 * together. */
int pass_times(unsigned k, run &r, float ms[WM_MOTIF_PASSES], float *span, wm_error *err) {
  WM_CU(cudaEventElapsedTime(span, r.ev[kEvTriangles], r.ev[kEvEnd]));
  const int from[4] = {kEvTriangles, kEvSums, kEvSweeps, kEvSweepsEnd},
            to[4] = {kEvSums, kEvSumsEnd, kEvSweepsEnd, kEvCliquesEnd};
  float whole[4];
  for (int i = 0; i < 4; i++) WM_CU(cudaEventElapsedTime(&whole[i], r.ev[from[i]], r.ev[to[i]]));
  ms[0] = whole[0], ms[1] = whole[1], ms[4] = whole[3];
  if (k >= 5 && !r.multi) {
    float sweep = 0, lists = 0;
    if (r.pass3_pending) { /* the last chunk's (lists_pass) */
      WM_CU(cudaEventElapsedTime(&sweep, r.ev[kEvChunk], r.ev[kEvChunkSweeps]));
      WM_CU(cudaEventElapsedTime(&lists, r.ev[kEvChunkSweeps], r.ev[kEvChunkEnd]));
    }
    ms[2] = r.pass3[0] + sweep, ms[3] = r.pass3[1] + lists;
  } else ms[2] = whole[2], ms[3] = 0;
  return WM_OK;
}

/* One device: passes 1 and 2 started (alone, start_early), the rest
 * prepared, then the passes with the progress line in steps (each chunk
 * of tops, the last wait). */
int passes(const wm_graph *g, unsigned k, const wm_motif_gpu_policy &policy, run &r, float ms[WM_MOTIF_PASSES],
           float *span, wm_error *err) {
  const double t0 = wm_now();
  r.early_due = !r.share && g->m <= kEarlyArcs;
  int rc = prepare(g, k, policy, r, err);
  if (!rc && !r.share && !r.early) rc = start_early(g, k, r, err); /* a large graph's, after the plan */
  if (rc) return rc;
  r.prepare_s = wm_now() - t0;
  /* each chunk of tops but the last, whose wait is the passes' last */
  const uint64_t steps = k >= 5 ? chunks_of(g, k, r) : 1;
  wm_progress_init(&r.progress, "motif sums", steps, 1);
  if ((rc = queue_passes(g, k, r, err))) return rc;
  return pass_times(k, r, ms, span, err);
}

/* Adds r's slots to total (exactly, overflow flagged). */
int add_slots(const run &r, unsigned warps, wm_acc *total, int *overflow, wm_error *err) {
  reduce_slots<<<WM_SUM_COUNT, kReduceThreads>>>(r.slots, warps, r.side, kSideRows, r.total, r.overflow);
  WM_CU(cudaGetLastError());
  i128 row[WM_SUM_COUNT + 1]; /* the totals, then the overflow flag (upload) */
  WM_CU(cudaMemcpy(row, r.total, sizeof row, cudaMemcpyDeviceToHost));
  int flag = 0;
  memcpy(&flag, &row[WM_SUM_COUNT], sizeof flag);
  *overflow |= flag;
  for (int i = 0; i < WM_SUM_COUNT; i++) wm_acc_add(&total[i], row[i]);
  return WM_OK;
}

int collect(const run &r, unsigned warps, wm_motif_sums *out, wm_error *err) {
  int overflow = 0;
  wm_acc total[WM_SUM_COUNT];
  memset(total, 0, sizeof total);
  int rc = add_slots(r, warps, total, &overflow, err);
  if (rc) return rc;
  for (int i = 0; i < WM_SUM_COUNT; i++) {
    overflow |= total[i].overflow;
    out->s[i] = total[i].v;
  }
  if (overflow) return wm_fail(err, WM_EINPUT, "motif aggregates overflow 128 bits");
  return WM_OK;
}

/* With a share, every process's sums become their totals over the
 * processes, in one sum that also carries each process's interrupt and
 * failure.  Called by every process whatever its passes gave (rc,
 * returned as it is), so that none waits for another in vain; where any
 * process was interrupted or failed, every one returns so, its sums
 * zeroed. */
int share_sums(const wm_share *s, int rc, wm_motif_sums *out, wm_error *err) {
  enum { INTERRUPTED = WM_SUM_COUNT, FAILED, CELLS };
  wm_i128 t[CELLS] = {};
  if (!rc) memcpy(t, out->s, sizeof out->s);
  t[INTERRUPTED] = rc == WM_EINTERRUPTED, t[FAILED] = rc && rc != WM_EINTERRUPTED;
  int overflow = 0;
  memset(out->s, 0, sizeof out->s);
  if (s->sum_i128(s->ctx, t, CELLS, &overflow) && !rc)
    return wm_fail(err, WM_EDEVICE, "motif aggregates: adding the processes' sums failed");
  if (rc) return rc;
  if (t[INTERRUPTED]) return wm_share_interrupted(err, "motif sums", 0);
  if (t[FAILED]) return wm_fail(err, WM_EDEVICE, "motif sums: failed on another process sharing the work");
  if (overflow) return wm_fail(err, WM_EINPUT, "motif aggregates overflow 128 bits");
  memcpy(out->s, t, sizeof out->s);
  return WM_OK;
}

/* Sets the grabs' scope and the call's stop word on the current device
 * (c_system_scope, c_stop). */
int set_scope(int system, wm_monitor *mon, wm_error *err) {
  WM_CU(cudaMemcpyToSymbol(c_system_scope, &system, sizeof system));
  wm_stop *stop = NULL;
  int rc = wm_gpu_stop_word(mon, &stop, err);
  if (rc) return rc;
  WM_CU(cudaMemcpyToSymbol(c_stop, &stop, sizeof stop));
  return WM_OK;
}

/* WM_EINTERRUPTED when the call was stopped: its sums are partial. */
int check_stop(wm_monitor *mon, wm_error *err) {
  return wm_monitor_stopped(mon) ? wm_interrupted(err, "motif sums") : WM_OK;
}

/* The passes over ndev devices that share counters in device 0's memory
 * (peer access enabled): each prepared (the same chunks of tops on every
 * device: the smallest room), the shared counters zeroed, then every
 * device's passes queued and waited for at once; the sums of every
 * device's slots to out, and in ms and *span the passes of the slowest
 * device. */
int multi_passes(const wm_graph *g, unsigned k, const wm_motif_gpu_policy &policy, int ndev, run *R,
                 unsigned long long **sh, float ms[WM_MOTIF_PASSES], float *span, wm_motif_sums *out,
                 wm_error *err) {
  int rc;
  for (int i = 0; i < ndev; i++) {
    R[i].dev = i;
    R[i].multi = true;
    R[i].resident = policy.graph;
    R[i].skip_k4 = policy.skip_k4 != 0;
    WM_CUD(i, cudaSetDevice(i));
    if ((rc = wm_gpu_on_device(err, i, set_scope(1, wm_monitor_current(), err))) ||
        (rc = wm_gpu_on_device(err, i, upload(g, k, R[i], err))) ||
        (rc = wm_gpu_on_device(err, i, prepare(g, k, policy, R[i], err))))
      return rc;
  }
  if (k >= 5) {
    uint64_t cap = R[0].cap;
    for (int i = 1; i < ndev; i++) cap = R[i].cap < cap ? R[i].cap : cap;
    for (int i = 0; i < ndev; i++) R[i].cap = cap; /* each buffer holds at least that */
  }
  /* the vertex sums, each chunk of tops (its heavy tops, then its light
   * ones; size 4: one chunk) and pass 4 */
  const unsigned n_sh = (unsigned)(2 * chunks_of(g, k, R[0]) + 2);
  WM_CUD(0, cudaSetDevice(0));
  WM_CUD(0, cudaMalloc(sh, n_sh * sizeof **sh));
  WM_CUD(0, cudaMemset(*sh, 0, n_sh * sizeof **sh));
  WM_CUD(0, cudaDeviceSynchronize());
  const bool heavy_split = k >= 5 ? R[0].nheavy && layout_warps(R[0], kSweeps) >= kHeavyWarps
                                  : layout_warps(R[0], kFour) >= kHeavyWarps;
  for (int i = 0; i < ndev; i++) R[i].sh = *sh, R[i].sh_n = n_sh, R[i].heavy_split = heavy_split;
  wm_progress_init(&R[0].progress, "motif sums", 1, 1);
  for (int i = 0; i < ndev; i++) {
    WM_CUD(i, cudaSetDevice(i));
    if ((rc = wm_gpu_on_device(err, i, queue_passes(g, k, R[i], err)))) return rc;
  }
  int ids[WM_MAX_GPUS];
  cudaStream_t streams[WM_MAX_GPUS];
  for (int i = 0; i < ndev; i++) ids[i] = i, streams[i] = 0; /* each device's default stream */
  if ((rc = wm_gpu_watch_all(ndev, ids, streams, &R[0].progress, NULL, NULL, err))) return rc;
  if ((rc = check_stop(wm_monitor_current(), err))) return rc;
  wm_progress_add(&R[0].progress, 1);
  *span = -1;
  wm_acc total[WM_SUM_COUNT];
  memset(total, 0, sizeof total);
  int overflow = 0;
  for (int i = 0; i < ndev; i++) {
    float m[WM_MOTIF_PASSES] = {0, 0, 0, 0, 0};
    WM_CUD(i, cudaSetDevice(i));
    WM_CUD(i, cudaEventSynchronize(R[i].ev[kEvEnd]));
    float sp = 0;
    if ((rc = wm_gpu_on_device(err, i, pass_times(k, R[i], m, &sp, err))) ||
        (rc = wm_gpu_on_device(err, i, add_slots(R[i], R[i].want, total, &overflow, err))))
      return rc;
    if (sp > *span) *span = sp, memcpy(ms, m, sizeof m);
  }
  for (int i = 0; i < WM_SUM_COUNT; i++) {
    overflow |= total[i].overflow;
    out->s[i] = total[i].v;
  }
  if (overflow) return wm_fail(err, WM_EINPUT, "motif aggregates overflow 128 bits");
  return WM_OK;
}

} /* namespace */

extern "C" int wm_motif_sums_gpu(const wm_graph *g, unsigned k, const wm_motif_gpu_policy *policy,
                                 wm_motif_sums *out, double *kernel_ms, wm_error *err) {
  memset(out, 0, sizeof *out);
  out->k = k;
  if (k < 4 || k > 5) return wm_fail(err, WM_EUSAGE, "motif sums on the GPU: size must be 4 or 5 (got %u)", k);
  if (g->flags & WM_GRAPH_DIRECTED) return wm_fail(err, WM_EINPUT, "motif sums: the graph must be undirected");
  if (!wm_gpu_available()) return wm_fail(err, WM_EDEVICE, "no CUDA device");
  wm_motif_gpu_policy defaults;
  memset(&defaults, 0, sizeof defaults);
  const wm_motif_gpu_policy &pol = policy ? *policy : defaults;
  int ndev = 1, present = 0, shared = 0;
  int rc = wm_gpu_devices(pol.gpus, &ndev, err);
  if (rc) return rc;
  WM_CU(cudaGetDeviceCount(&present));
  if (ndev > present)
    return wm_fail(err, WM_EDEVICE, "--gpus %d asks for more GPUs than the %d present", ndev, present);
  rc = wm_gpu_share_counter(ndev, &shared, out->gpu_note, sizeof out->gpu_note, err);
  if (rc) return rc;
  if (ndev > 1 && !shared) ndev = 1; /* the note says why: one device does it all */
  if (ndev > 1 && pol.share) {       /* processes share the passes, a device each */
    ndev = 1;
    snprintf(out->gpu_note, sizeof out->gpu_note, "one GPU per process when processes share the work");
  }
  out->gpus = ndev;
  const double t0 = wm_now();
  float ms[WM_MOTIF_PASSES] = {0, 0, 0, 0, 0}, span = 0;
  run R[WM_MAX_GPUS];
  memset(R, 0, sizeof R);
  unsigned long long *sh = NULL;
  if (ndev > 1) {
    rc = multi_passes(g, k, pol, ndev, R, &sh, ms, &span, out, err);
    wm_progress_finish(&R[0].progress);
    /* every device's work ends before device 0's counters are freed */
    for (int i = 0; i < ndev; i++)
      if (cudaSetDevice(i) == cudaSuccess) cudaDeviceSynchronize();
    cudaGetLastError();
    for (int i = 0; i < ndev; i++)
      if (cudaSetDevice(i) == cudaSuccess) release(R[i]);
    if (sh && cudaSetDevice(0) == cudaSuccess) cudaFree(sh);
    cudaGetLastError();
    cudaSetDevice(0);
  } else {
    run &r = R[0];
    double at[5];
    WM_CU(cudaGetDevice(&r.dev));
    r.resident = pol.graph;
    r.skip_k4 = pol.skip_k4 != 0;
    r.share = pol.share;
    if (r.share) r.loop = r.share->loops(r.share->ctx, 3);
    rc = set_scope(0, wm_monitor_current(), err);
    at[0] = wm_now();
    if (!rc) rc = upload(g, k, r, err);
    at[1] = wm_now();
    if (!rc) rc = passes(g, k, pol, r, ms, &span, err);
    if (!rc) rc = check_stop(wm_monitor_current(), err); /* pass_times read the last event: all ended */
    wm_progress_finish(&r.progress);
    at[2] = wm_now();
    if (!rc) rc = collect(r, r.want, out, err);
    if (rc && r.share) wm_share_halt(r.share, r.loop, 3); /* the others take no more windows */
    if (r.share) rc = share_sums(r.share, rc, out, err);  /* whatever rc: as every process */
    at[3] = wm_now();
    /* collect waited for every kernel: the scratch is as the next call needs it */
    if (!rc && can_keep(r) && !r.tight &&
        wm_gpu_graph_keep(r.resident, r.dev, r.scratch, (r.words + r.want) * 4, scratch_tag(k, r.want)))
      r.scratch = NULL;
    release(r);
    at[4] = wm_now();
    if (wm_trace_on("WM_MOTIF_TRACE"))
      fprintf(stderr,
              "motif sums (GPU, size %u): upload %.3f ms, scratch and plans %.3f ms (paths %.3f, scratch %.3f, lists %.3f), "
              "passes %.3f ms (kernels' span %.3f: %.3f, %.3f, %.3f, %.3f, %.3f), collect %.3f ms, release %.3f ms; "
              "%u warps, scratch %.1f MB%s\n",
              k, 1e3 * (at[1] - at[0]), 1e3 * r.prepare_s, r.prepare_ms[0], r.prepare_ms[1], r.prepare_ms[2],
              1e3 * (at[2] - at[1] - r.prepare_s),
              span, ms[0], ms[1], ms[2], ms[3], ms[4],
              1e3 * (at[3] - at[2]), 1e3 * (at[4] - at[3]), r.want, (double)r.words * 4 / 1e6,
              r.tight ? " (a layout per kernel)" : "");
  }
  out->k4_counted = k >= 5 || !pol.skip_k4;
  out->seconds = wm_now() - t0;
  for (int i = 0; i < WM_MOTIF_PASSES; i++) out->pass_seconds[i] = ms[i] / 1e3;
  if (kernel_ms) *kernel_ms = span;
  return rc;
}
