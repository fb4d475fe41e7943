/* GPU matcher policy: the launch and tuning knobs of the per-warp stack
 * kernel (CUB-style small struct), and the host-side sizing of the per-warp
 * set buffers from the graph's maximum degree and the device's free memory.
 * Plain C, no CUDA: the sizing rules are unit-tested on the CPU. */
#ifndef WM_GPU_POLICY_H
#define WM_GPU_POLICY_H

#include <stdint.h>

#include "matcher.h"
#include "wm_error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WM_GPU_DEFAULT_UNROLL 8
#define WM_GPU_DEFAULT_WARPS 8 /* warps per block */
#define WM_GPU_MIN_LIST_BATCH 64

typedef struct wm_gpu_policy {
  int warps_per_block;
  int unroll;          /* U: iterations of one level expanded together, 1..32 */
  int last_group;      /* largest group at position k-2, U..32 (wm_gpu_policy_fit_plan) */
  int steal;           /* wm_steal_mode */
  int stop_level;      /* deepest position whose remaining iterations may be stolen */
  int detect_level;    /* deepest position at which a busy warp looks for idle blocks */
  int level0;          /* wm_level0_mode asked for (wm_gpu_level0_edges decides) */
  uint32_t chunk;      /* level-0 iterations handed out per grab of the global counter */
  uint64_t set_capacity;/* forced elements per set buffer (0: from max degree and memory) */
  uint64_t list_batch; /* listing: matches per device buffer drain (0: default) */
  int blocks;          /* forced grid size (0: all co-resident blocks) */
  int table_words;     /* each warp's probe table: 0 sized from occupancy, -1 none, else forced */
} wm_gpu_policy;

/* The probe table's largest default and smallest useful sizes, in words
 * (gpu_matcher.cu's fit_table).  128 words hold any row whose ids span
 * 4,096 as bits (every row of facebook), or 64 ids hashed.  Shared memory
 * comes out of L1, and larger tables cost more than they gain (chosen by
 * measurement on the H100). */
#define WM_GPU_TABLE_WORDS 128u
#define WM_GPU_TABLE_MIN_WORDS 64u

/* Policy for a plan of k positions from the user's options (0/-1 = default). */
void wm_gpu_policy_from_options(wm_gpu_policy *p, const wm_match_options *o, unsigned k);

/* Whether level 0 is handed out as edges (v0, v1): asked for or auto, a
 * plan of at least 3 positions whose position 1 iterates N(v0) itself (an
 * edge's far end is then a position-1 candidate), and no seed list (the
 * seeds are vertices). */
int wm_gpu_level0_edges(int mode, unsigned k, int position1_is_row, int seeded);

/* What the plan's shape changes once it is known.  Where position k-1 is
 * a lane's count (wm_gpu_plan_lane_count: a range size less the distinct
 * vertices in it), position k-2, the last one iterated, takes groups of 32
 * (one pick and one bulk set-up for 32 members instead of U; not with
 * U = 1, the no-grouping ablation), and is neither split by thieves nor
 * pushed to idle blocks: what is left of it is a binary search per member,
 * less than a thief's recomputation of the prefix's sets. */
void wm_gpu_policy_fit_plan(wm_gpu_policy *p, unsigned k, int lane_count);

/* Default level-0 chunk: enough grabs per warp that the tail balances even
 * without stealing, few enough that the counter is not a hot spot; at least
 * min_chunk (a 3-vertex plan's position-1 group, which a piece of a row
 * fills: the whole subtree is that group's count, so nothing is left to
 * balance below it). */
uint32_t wm_gpu_default_chunk(uint64_t n0, uint64_t total_warps, int edges, uint32_t min_chunk);

/* ---- buffer sizing ----------------------------------------------------- */

typedef struct wm_gpu_sizing_in {
  uint64_t free_bytes;     /* device memory free after the graph and fixed buffers */
  uint64_t max_degree;     /* of the graph the kernel reads */
  unsigned n_bufs;         /* materialised set slots per unrolled iteration */
  unsigned unroll;
  unsigned warps_per_block;
  unsigned max_blocks;     /* co-resident blocks (occupancy x SMs) */
  uint64_t forced_cap;     /* 0: capacity from max degree */
  uint64_t per_warp_fixed; /* other per-warp bytes (listing save area) */
} wm_gpu_sizing_in;

typedef struct wm_gpu_sizing {
  unsigned blocks;         /* grid size */
  uint64_t cap;            /* elements per set buffer; a set that could be larger
                              takes the slow unmaterialised path, never truncation */
  uint64_t per_warp_elems; /* n_bufs * unroll * cap */
  uint64_t total_bytes;    /* set buffers + fixed, all warps */
} wm_gpu_sizing;

/* The smallest capacity accepted before the grid is shrunk instead. */
#define WM_GPU_MIN_CAP 1024u

/* A set-operation result is at most min(|a|,|b|) <= max degree, so a
 * capacity of max degree is exact; when memory cannot hold that for every
 * co-resident warp the capacity shrinks (down to WM_GPU_MIN_CAP, or the
 * forced one) and then the grid.  WM_EDEVICE (out of memory) when not even
 * one block fits. */
int wm_gpu_size_buffers(const wm_gpu_sizing_in *in, wm_gpu_sizing *out, wm_error *err);

#ifdef __cplusplus
}
#endif
#endif
