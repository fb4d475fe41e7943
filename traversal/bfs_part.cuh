/* BFS over several GPUs of one host (Enterprise's 1-D partition): the
 * pieces the partitioned kernels and their host driver share.
 *
 * Partition.  Part p owns the vertices [lo, hi): lo is a multiple of 32, so
 * each part owns whole words of every bitmap, and the bounds balance the
 * parts' arcs.  A part holds its own rows only (out-arcs, and for a directed
 * graph in-arcs too) with global vertex ids in them.
 *
 * State.  Every part keeps the whole frontier F and the whole visited set V
 * as bitmaps (bit v of word v / 32), and levels and parents for its own
 * vertices.  One level:
 *   bottom-up: each own unvisited vertex (a queue of them) looks among its
 *              in-arcs for one in F and, if found, sets its bit in Fn;
 *   top-down:  each part expands its own frontier vertices' out-arcs and
 *              marks unvisited targets in a whole-graph candidate bitmap;
 *              the parts then swap the candidate words by owner, and each
 *              owner keeps (OR of all candidates) & ~V as its part of the new
 *              frontier, finding each new vertex's parent among its in-arcs
 *              in F;
 * then the parts' new-frontier words are gathered everywhere (one NCCL
 * all-gather into equal slots, unpacked by the level's last kernel, which
 * also does V |= Fn).  A top-down level whose frontier has few out-arcs
 * (PartPolicy::SPARSE_DIV) swaps no bitmaps: each part lists its distinct
 * unvisited targets with their parents, the lists are all-gathered, and
 * every part applies all of them (kernel_part_sparse.cu), so the new
 * frontier is known everywhere after one small exchange.  Each part's host
 * thread sums all parts' counts and decides the next direction with the
 * single-GPU rule, every thread the same way.
 *
 * Invariants between levels, on every part: Fn (the next frontier's
 * buffer) and cand are all zero, and the stats the next level adds to are
 * zero: the level's last kernel clears them, so a level starts without
 * memsets. */
#ifndef WM_BFS_PART_CUH
#define WM_BFS_PART_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include "bfs_gpu_internal.cuh"
#include "traversal.h"

namespace wm_bfs {

struct PartPolicy {
  static constexpr int BLOCK = 256;
  static constexpr int BLOCKS_PER_SM = 8;
  static constexpr int THREAD_SCAN = 32;   /* in-arcs a lane checks before its warp helps */
  static constexpr uint64_t BIG_ROW = 256;    /* top-down: a block per frontier vertex from here */
  static constexpr uint64_t HUGE_ROW = 65536; /* ... and the whole grid from here */
  /* Top-down merge: up to this many frontier vertices, a new vertex's parent
   * is found by binary searches for them in its (sorted) in-row rather than
   * by scanning the row for any of them. */
  static constexpr uint32_t FEW = 64;
  /* Top-down levels whose frontier has at most n / SPARSE_DIV out-arcs
   * exchange candidate lists (at most that many each) instead of bitmaps:
   * a bitmap level moves and scans all n / 32 words of several bitmaps and
   * searches the in-rows of the new vertices for their parents, a list
   * level touches only the candidates, which carry their parents. */
  static constexpr uint64_t SPARSE_DIV = 16;
  static constexpr int MAX_PARTS = 16;
};

/* Blocks of PartPolicy::BLOCK threads for `threads` items: at least one,
 * at most BLOCKS_PER_SM per SM (the kernels stride over the rest). */
inline unsigned part_grid(uint64_t threads, int sms) {
  uint64_t want = (threads + PartPolicy::BLOCK - 1) / PartPolicy::BLOCK, cap = (uint64_t)sms * PartPolicy::BLOCKS_PER_SM;
  return (unsigned)(want < cap ? (want ? want : 1) : cap);
}

/* One part's rows: row v (lo <= v < hi) is adj[off[v - lo] - base ..
 * off[v - lo + 1] - base); off holds the graph's own offsets of lo..hi. */
struct PartRows {
  const uint64_t *off;
  const uint32_t *adj;
  uint64_t base;
  uint32_t lo, hi;
};

/* Figures of a part's new frontier, summed by the host. */
struct PartStats {
  unsigned long long count;  /* new frontier vertices */
  unsigned long long edges;  /* their out-arcs */
  unsigned long long hubs;   /* ... of out-degree >= the hub threshold */
  unsigned int target_hit;   /* the target joined the frontier */
  unsigned int nsmall, nbig, nhuge; /* top-down queues of own frontier vertices */
  unsigned int nfew;         /* the whole frontier listed in few (when it is that short) */
  unsigned int nwork;        /* top-down merge: own words that gained vertices */
  unsigned int overflow;     /* sparse: a part listed more candidates than its slot holds */
};

/* Everything one level's kernels of one part read and write. */
struct PartLevel {
  PartRows out, in;     /* in == out for a symmetric graph */
  const uint32_t *F;    /* frontier of level L, whole graph */
  uint32_t *V;          /* visited through level L, whole graph (the level's end adds L + 1) */
  uint32_t *Fn;         /* frontier of level L + 1: this part writes its own words */
  uint32_t *cand;       /* top-down: whole-graph candidate words */
  const uint32_t *recv; /* top-down: the other parts' candidates for our words, slot q at q * slot
                         * (the same buffer is the gather's stage, below) */
  uint64_t slot;
  int parts, self;
  uint32_t *level;      /* own vertices: level[v - lo] */
  uint32_t *parent;     /* own vertices, or NULL when parents are not wanted */
  uint32_t *qsmall, *qbig, *qhuge; /* top-down queues (capacity hi - lo each) */
  uint32_t *few;        /* top-down merge: the whole frontier when it has at most FEW vertices, or NULL */
  uint32_t *tparent;    /* top-down, whole graph: a frontier vertex of this part that marked v */
  uint32_t *work;       /* top-down merge: own word indexes that gained vertices (stats->nwork) */
  /* bottom-up: this part's unvisited vertices with in-arcs, in vertex order
   * (*bq_len of them); the step leaves those it did not reach in bq_next */
  const uint32_t *bq;
  const unsigned *bq_len;
  uint32_t *bq_next;
  unsigned *bq_next_len;
  /* sparse top-down: this part's distinct candidates, list[0] their count
   * then (vertex, parent) pairs, at most lcap of them; and every part's
   * list after the all-gather, part q's at q * lslot */
  uint32_t *list;
  const uint32_t *lists;
  uint64_t lslot;
  uint32_t lcap;
  /* the level's end: every part's own words of Fn after the all-gather
   * (part q's at q * slot), the parts' first words (wlo[parts] = all
   * words), and what the last kernel clears for the next level */
  const uint32_t *stage;
  uint32_t wlo[PartPolicy::MAX_PARTS + 1];
  uint32_t *Fdone;      /* F's buffer, the next level's Fn */
  PartStats *next_stats;
  uint32_t L;
  uint64_t hub_tau;
  uint32_t target;      /* kNoVertex: none */
  PartStats *stats;
};

__device__ __forceinline__ uint64_t part_degree(const PartRows &r, uint32_t v) {
  return r.off[v - r.lo + 1] - r.off[v - r.lo];
}

/* Where row v starts in r.adj; row v ends where row v + 1 starts (v + 1 may
 * be r.hi). */
__device__ __forceinline__ uint64_t part_row(const PartRows &r, uint32_t v) { return r.off[v - r.lo] - r.base; }

/* The first in-arc of v whose tail is in F (kNoVertex: none), searched by
 * first_hit_in_row (bfs_gpu_internal.cuh); every lane of the warp calls it,
 * `open` saying whether its v is to be searched. */
__device__ __forceinline__ uint32_t find_in_frontier(const PartRows &in, const uint32_t *F, uint32_t v, bool open) {
  uint64_t j = open ? part_row(in, v) : 0, e = open ? part_row(in, v + 1) : 0;
  return first_hit_in_row(in.adj, j, e, open, PartPolicy::THREAD_SCAN, [&](uint32_t w) { return bit_of(F, w); });
}

/* Warp sums of a part's new-frontier figures, added to stats by lane 0. */
__device__ __forceinline__ void add_stats(PartStats *s, unsigned long long count, unsigned long long edges,
                                          unsigned long long hubs) {
  for (int d = 16; d; d >>= 1) {
    count += __shfl_down_sync(0xffffffffu, count, d);
    edges += __shfl_down_sync(0xffffffffu, edges, d);
    hubs += __shfl_down_sync(0xffffffffu, hubs, d);
  }
  if ((threadIdx.x & 31) == 0 && count) {
    atomicAdd(&s->count, count);
    atomicAdd(&s->edges, edges);
    atomicAdd(&s->hubs, hubs);
  }
}

/* ---- launchers (one per kernel file) --------------------------------- */

/* kernel_part_bottom_up.cu: the step over a.bq; part_unvisited_launch
 * lists this part's unvisited vertices with in-arcs into a.bq_next (on the
 * switch to bottom-up). */
cudaError_t part_bottom_up_launch(const PartLevel &a, int sms, cudaStream_t st);
cudaError_t part_unvisited_launch(const PartLevel &a, int sms, cudaStream_t st);
/* kernel_part_topdown.cu: the own frontier into the three queues, then their
 * out-arcs marked in cand (sizes read on the device), and with `sparse` also
 * listed in a.list. */
cudaError_t part_topdown_launch(const PartLevel &a, bool sparse, int sms, cudaStream_t st);
/* kernel_part_sparse.cu: every part's list applied (the sparse level's end). */
cudaError_t part_sparse_apply_launch(const PartLevel &a, uint64_t words, int sms, cudaStream_t st);
/* kernel_part_merge.cu: the candidates of our words into our new frontier;
 * part_few_launch first lists the whole frontier in a.few (a.few != NULL). */
cudaError_t part_merge_launch(const PartLevel &a, int sms, cudaStream_t st);
cudaError_t part_few_launch(const PartLevel &a, uint64_t words, int sms, cudaStream_t st);
/* kernel_part_bitmap.cu: the level's end after the gather (Fn unpacked
 * from a.stage, V |= Fn, Fdone, next_stats and with `top_down` cand
 * cleared); and the sources into F, V, and (for the own ones) level 0 and
 * parent = itself. */
cudaError_t part_visit_launch(const PartLevel &a, uint64_t words, bool top_down, int sms, cudaStream_t st);
cudaError_t part_seed_launch(const PartLevel &a, uint32_t *F, uint32_t *V, const uint32_t *src, uint32_t count,
                             cudaStream_t st);

/* bfs_gpu.cu: sorted, duplicate-free copy of the sources (checked < n). */
int dedupe_sources(const wm_graph *g, const uint32_t *sources, uint32_t nsources, uint32_t **out,
                   uint32_t *count, wm_error *err);

/* bfs_part_gpu.cu: the partitioned search behind wm_bfs_gpu_* when
 * o->gpus > 1 or o->procs has several processes (their GPUs together). */
struct PartCtx;
int part_create(const wm_graph *g, const wm_bfs_options *o, PartCtx **out, wm_error *err);
int part_run(PartCtx *c, const uint32_t *sources, uint32_t nsources, const wm_bfs_options *o,
             wm_bfs_result *r, wm_error *err);
void part_destroy(PartCtx *c);
const char *part_describe(const PartCtx *c);

}  // namespace wm_bfs

#endif
