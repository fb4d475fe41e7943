/* GPU matcher policy defaults and the sizing of per-warp set buffers. */
#include "gpu_policy.h"

#include <inttypes.h>

void wm_gpu_policy_from_options(wm_gpu_policy *p, const wm_match_options *o, unsigned k) {
  int last_group = k >= 2 ? (int)k - 2 : 0; /* position k-1 is counted in bulk, never iterated */
  p->warps_per_block = o->gpu_warps_per_block > 0 ? o->gpu_warps_per_block : WM_GPU_DEFAULT_WARPS;
  if (p->warps_per_block > WM_GPU_MAX_WARPS) p->warps_per_block = WM_GPU_MAX_WARPS;
  p->unroll = o->gpu_unroll > 0 ? o->gpu_unroll : WM_GPU_DEFAULT_UNROLL;
  if (p->unroll > WM_GPU_MAX_UNROLL) p->unroll = WM_GPU_MAX_UNROLL;
  p->last_group = p->unroll; /* the plan's shape may widen it (wm_gpu_policy_fit_plan) */
  p->steal = (o->gpu_steal >= WM_STEAL_NONE && o->gpu_steal <= WM_STEAL_TWO_LEVEL)
                 ? o->gpu_steal
                 : WM_STEAL_TWO_LEVEL;
  /* Stealing deeper than two levels below the root buys little: the
   * remaining iterations there are short and the thief recomputes the
   * prefix's sets.  Except a 5-vertex plan's last level, the only one
   * below those two: there each candidate of position 2 leaves its bulk
   * loop over a row to one warp, and where the row is a hub's the grid
   * idles beside it (60-95% of the warps' cycles on such orders, an
   * H200).  A shared level takes a lock at every pick, which the deeper
   * levels of 6- and 7-vertex plans do not repay (BENCHMARKS.md, Stack
   * kernel: the corpus's orders, old and new). */
  p->stop_level = last_group < 2 ? last_group : 2;
  if (k == 5) p->stop_level = last_group;
  /* Busy warps look for idle blocks at positions <= 2, and only inside
   * long-running work (wm_detect_due, gpu_stack_kernel.cu): the check is a
   * global read, and a push costs more than short work saves. */
#ifndef WM_GPU_DETECT_MAX
#define WM_GPU_DETECT_MAX 2
#endif
  p->detect_level = last_group < WM_GPU_DETECT_MAX ? last_group : WM_GPU_DETECT_MAX;
  if (k == 5) p->detect_level = last_group; /* pushes too: stealing alone left cl-3.0 p2 at 2.7 ms */
  p->level0 = o->gpu_level0;
  p->chunk = o->gpu_chunk;
  p->set_capacity = o->gpu_set_capacity;
  p->list_batch = o->gpu_list_batch;
  p->blocks = o->gpu_blocks > 0 ? o->gpu_blocks : 0;
  p->table_words = o->gpu_table_words < 0 ? -1 : o->gpu_table_words;
  if (p->table_words > (int)WM_GPU_MAX_TABLE_WORDS) p->table_words = (int)WM_GPU_MAX_TABLE_WORDS;
}

int wm_gpu_level0_edges(int mode, unsigned k, int position1_is_row, int seeded) {
  return mode != WM_LEVEL0_VERTICES && k >= 3 && position1_is_row && !seeded;
}

/* U = 32 at every level gains on the lane-count plans (diamonds, houses)
 * but loses on those with a set op at k-2 (induced 4-paths), so only this
 * position widens. */
void wm_gpu_policy_fit_plan(wm_gpu_policy *p, unsigned k, int lane_count) {
  if (!lane_count || k < 3) return;
  const int last = (int)k - 2;
  if (p->unroll > 1) p->last_group = WM_GPU_MAX_UNROLL;
  if (p->stop_level > last - 1) p->stop_level = last - 1;
  if (p->detect_level > last - 1) p->detect_level = last - 1;
}

/* Edges: about 32 grabs per warp.  Finer chunks spread a hub's row over
 * more warps from the start, which the hub-heavy patterns (induced 4-stars)
 * need on small graphs, while the others hardly mind, and on large graphs
 * the chunk size matters little (see BENCHMARKS.md). */
uint32_t wm_gpu_default_chunk(uint64_t n0, uint64_t total_warps, int edges, uint32_t min_chunk) {
  uint64_t per_warp = edges ? 32 : 16, hi = edges ? 512 : 64;
  if (total_warps == 0) total_warps = 1;
  uint64_t c = n0 / (total_warps * per_warp);
  if (c < min_chunk) c = min_chunk;
  if (c < 1) c = 1;
  if (c > hi) c = hi;
  return (uint32_t)c;
}

/* a * b, saturating at UINT64_MAX. */
static uint64_t sat_mul(uint64_t a, uint64_t b) {
  if (a != 0 && b > UINT64_MAX / a) return UINT64_MAX;
  return a * b;
}

static uint64_t sat_add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

static uint64_t per_warp_bytes(const wm_gpu_sizing_in *in, uint64_t cap) {
  uint64_t elems = sat_mul(sat_mul(in->n_bufs, in->unroll), cap);
  return sat_add(sat_mul(elems, 4), in->per_warp_fixed);
}

static void fill(const wm_gpu_sizing_in *in, unsigned blocks, uint64_t cap, wm_gpu_sizing *out) {
  out->blocks = blocks;
  out->cap = in->n_bufs ? cap : 0;
  out->per_warp_elems = sat_mul(sat_mul(in->n_bufs, in->unroll), out->cap);
  out->total_bytes = sat_mul(per_warp_bytes(in, out->cap), (uint64_t)blocks * in->warps_per_block);
}

int wm_gpu_size_buffers(const wm_gpu_sizing_in *in, wm_gpu_sizing *out, wm_error *err) {
  if (in->warps_per_block == 0 || in->unroll == 0 || in->max_blocks == 0)
    return wm_fail(err, WM_EDEVICE, "gpu sizing: warps per block, unroll and blocks must be positive");
  /* Leave room for the runtime, the listing buffer and fragmentation. */
  uint64_t reserve = in->free_bytes / 10;
  if (reserve < (32ull << 20)) reserve = 32ull << 20;
  uint64_t usable = in->free_bytes > reserve ? in->free_bytes - reserve : 0;
  uint64_t W = in->warps_per_block;
  uint64_t want = in->forced_cap ? in->forced_cap : in->max_degree;
  if (in->max_degree && want > in->max_degree) want = in->max_degree;
  if (want == 0) want = 1;

  uint64_t per_block = sat_mul(per_warp_bytes(in, want), W);
  if (in->n_bufs == 0 || usable / in->max_blocks >= per_block) {
    uint64_t fit = per_block ? usable / per_block : in->max_blocks;
    unsigned blocks = fit < in->max_blocks ? (unsigned)fit : in->max_blocks;
    if (blocks == 0)
      return wm_fail(err, WM_EDEVICE,
                     "device out of memory: one block of %u warps needs %" PRIu64
                     " bytes, %" PRIu64 " usable",
                     in->warps_per_block, per_block, usable);
    fill(in, blocks, want, out);
    return WM_OK;
  }
  /* Full grid with a smaller capacity: only sets whose bound exceeds it (both
   * operands hubs) take the slow path. */
  uint64_t floor_cap = in->forced_cap ? want : (want < WM_GPU_MIN_CAP ? want : WM_GPU_MIN_CAP);
  uint64_t per_warp_budget = usable / in->max_blocks / W;
  uint64_t slot_bytes = sat_mul(sat_mul(in->n_bufs, in->unroll), 4);
  uint64_t cap_fit = per_warp_budget > in->per_warp_fixed
                         ? (per_warp_budget - in->per_warp_fixed) / slot_bytes
                         : 0;
  if (cap_fit >= floor_cap) {
    fill(in, in->max_blocks, cap_fit, out);
    return WM_OK;
  }
  /* Else keep the floor capacity and shrink the grid. */
  per_block = sat_mul(per_warp_bytes(in, floor_cap), W);
  uint64_t blocks = usable / per_block;
  if (blocks == 0)
    return wm_fail(err, WM_EDEVICE,
                   "device out of memory: one block of %u warps with %" PRIu64
                   "-element set buffers needs %" PRIu64 " bytes, %" PRIu64 " usable",
                   in->warps_per_block, floor_cap, per_block, usable);
  fill(in, (unsigned)blocks, floor_cap, out);
  return WM_OK;
}
