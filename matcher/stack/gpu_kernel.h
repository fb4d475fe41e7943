/* What the host driver (gpu_matcher.cu) and the per-warp stack kernel
 * (gpu_stack_kernel.cu) share: the kernel's argument block, the layout of a
 * warp's state in shared memory (also the listing save area), and the
 * launcher.  CUDA C++ only. */
#ifndef WM_GPU_KERNEL_H
#define WM_GPU_KERNEL_H

#include <cuda_runtime.h>
#include <stdint.h>

#include "gpu_plan.h"
#include "gpu_stop.h"
#include "gpu_policy.h"

typedef unsigned long long wm_u64;

/* Inter-block mailbox of one block: a stolen prefix and a range of
 * iterations of position q. */
struct wm_gpu_mail {
  int q;
  uint32_t lo, hi;
  uint32_t v[WM_MAX_K];
};

enum { WM_MAIL_EMPTY = 0, WM_MAIL_CLAIMED = 1, WM_MAIL_FULL = 2, WM_MAIL_TAKEN = 3, WM_MAIL_CLOSED = 4 };
enum { WM_W_BUSY = 0, WM_W_IDLE = 1, WM_W_SUSPENDED = 2 };
/* Phases timed by WM_GPU_PROFILE builds (a development aid). */
enum { WM_PROF_ACQUIRE, WM_PROF_PICK, WM_PROF_OPS, WM_PROF_BULK, WM_PROF_DESCEND, WM_PROF_TOTAL, WM_PROF_N };

struct wm_gpu_args {
  /* graph (device copies) */
  const wm_u64 *off;
  const uint32_t *adj;
  uint32_t n;
  const int32_t *labels;   /* or NULL */
  const uint8_t *allowed;  /* or NULL */
  const uint32_t *first;   /* level-0 seeds, or NULL: all vertices */
  int l0_edges;            /* level 0 is the arcs [0, n0) (gpu_stack_kernel.cu), not vertices */
  wm_u64 n0;               /* level-0 iterations */
  /* level 0 is handed out in chunks of `chunk` iterations from the counter
   * l0_next.  l0_shared: one counter in device 0's memory serves every
   * device (system-scope atomics over peer access), and its value c is
   * chunk c; else each device has its own, and its c is global chunk
   * c*ndev+dev (the static interleave where peers have no atomics). */
  wm_u64 *l0_next;
  wm_u64 l0_base;          /* the first iteration of this launch's window: chunk c covers
                              l0_base + [c*chunk, (c+1)*chunk), cut at n0 (the window's end;
                              one window [0, n0) unless processes share level 0) */
  uint32_t chunk, dev, ndev;
  /* a stripe of level 0 (the timed slices): with l0_every > 1 the launch
   * takes only the chunks whose index % l0_every == 0, or (l0_rest) only
   * the others, so that the two launches count each match once */
  uint32_t l0_every;
  int l0_rest;
  int l0_shared;
  /* the call's stop word (device/gpu_stop.cuh), or NULL: a warp that sees
   * it set claims no more level-0 work, steals none, and leaves */
  wm_stop *stop;
  /* per-warp set buffers: warp w's at sets + w*warp_elems, slot b variant u
   * at + (b*unroll + u)*cap */
  uint32_t *sets;
  wm_u64 cap, warp_elems;
  /* results */
  wm_u64 *count;           /* two words: the count's low and high (gpu_count.cuh) */
  wm_u64 *set_ops, *lanes_used, *lanes_issued;
  wm_u64 *prof;            /* WM_GPU_PROFILE builds: warp cycles per phase (WM_PROF_N) */
  wm_u64 *per_vertex;      /* or NULL */
  /* two-level stealing: one entry per block */
  int *active;             /* busy blocks + undelivered mails */
  int *idle_blocks;        /* hint: blocks whose block_idle is set */
  int *block_idle;
  int *mail_state;
  wm_gpu_mail *mail;
  /* listing: matches as k ids indexed by pattern vertex */
  uint32_t *out;
  wm_u64 *out_n, out_cap;
  int listing;
  unsigned char *save;     /* per-warp save area (listing), warp_state_bytes each */
  int resume;
  wm_u64 *suspended;
  /* policy */
  int unroll, steal, stop_level, detect_level, warps;
  int group;               /* largest group: unroll, or more at position k-2 (wm_gpu_policy_fit_plan) */
  uint32_t table_words;    /* each warp's probe table in shared memory (0: none) */
  uint32_t warp_state_bytes;
};

/* Iteration of one unrolled variant: candidates x[xlo, xhi) that belong to
 * virtual slot xv (when >= 0) and are (ymode 1) / are not (ymode 2) in
 * y[ylo, yhi) or virtual slot yv; materialising ops write them to out. */
struct wm_iter {
  const uint32_t *x, *y;
  uint32_t *out;
  uint32_t xlo, xhi, ylo, yhi;
  int xv, yv, ymode;
  uint32_t vlo, vhi;     /* value range the sides are trimmed to (setup only) */
  uint8_t xcode, ycode;  /* operands x and y belong to (setup only) */
  uint8_t pad[2];
};

/* A warp's stack; positions <= stop_level are read by thieves under lock. */
struct wm_wstate {
  int lock, status;
  unsigned stop_poll; /* lane 0's clock at its last read of the stop word (wm_stop_due) */
  int pad1;
  uint32_t it[WM_MAX_K], end[WM_MAX_K]; /* unconsumed iterations [it, end) of each position */
  int n[WM_MAX_K], a[WM_MAX_K];         /* unrolled group size and active member */
  const uint32_t *base[WM_MAX_K];       /* array position p iterates (NULL: identity at p = 0) */
  int vs[WM_MAX_K];                     /* virtual slot p's candidates must belong to, or -1 */
  wm_u64 bulk_t;                        /* listing: where the last level resumes */
  uint32_t pref[WM_MAX_K];              /* a stolen prefix, being installed */
  uint32_t steal_lo, steal_hi;
  int steal_q, pad2;
  wm_u64 arc_lo, arc_hi;                /* level 0 as edges: this warp's untaken arcs (private) */
};

/* Byte layout of one warp's shared region for a plan, unroll U (the
 * variants of each slot) and largest group G >= U (the groups and the
 * per-member scratch). */
struct wm_warp_layout {
  uint32_t g, dlo, dhi, dbase, its, pre, cnt, tr, bytes; /* offsets */
};

__host__ __device__ static inline uint32_t wm_align16(uint32_t x) { return (x + 15u) & ~15u; }

__host__ __device__ static inline wm_warp_layout wm_warp_layout_of(unsigned n_ops, unsigned U, unsigned G) {
  wm_warp_layout L;
  uint32_t o = wm_align16(sizeof(wm_wstate));
  L.g = o;
  o = wm_align16(o + WM_MAX_K * G * 4);
  L.dlo = o;
  o = wm_align16(o + (n_ops ? n_ops : 1) * U * 4);
  L.dhi = o;
  o = wm_align16(o + (n_ops ? n_ops : 1) * U * 4);
  L.dbase = o;
  o = wm_align16(o + (n_ops ? n_ops : 1) * U);
  L.its = o;
  o = wm_align16(o + G * (uint32_t)sizeof(wm_iter));
  L.pre = o;
  o = wm_align16(o + (G + 1) * 8);
  L.cnt = o;
  o = wm_align16(o + G * 4);
  L.tr = o; /* four trimmed bounds per member */
  o = wm_align16(o + 4 * G * 4);
  L.bytes = o;
  return L;
}

/* Shared memory of a block: per-block counters, one region per warp, then
 * one probe table of T words per warp after its header (wm_tab_head,
 * gpu_set_ops.cuh; none when T is 0). */
#define WM_BLOCK_SHARED_BYTES 64u
#define WM_TAB_HEAD_WORDS 4u

__host__ __device__ static inline size_t wm_gpu_stack_smem(unsigned n_ops, unsigned U, unsigned G, unsigned W,
                                                           unsigned T) {
  return WM_BLOCK_SHARED_BYTES + (size_t)W * (wm_warp_layout_of(n_ops, U, G).bytes + (T ? (T + WM_TAB_HEAD_WORDS) * 4u : 0u));
}

/* Launches the stack kernel on the current device (asynchronously). */
cudaError_t wm_gpu_launch_stack(const wm_gpu_plan *plan, const wm_gpu_args *args, unsigned blocks,
                                cudaStream_t stream);
/* Co-resident blocks per SM for W warps and smem bytes of shared memory, of
 * the kernel built with the probe table (table) or without. */
cudaError_t wm_gpu_stack_occupancy(unsigned W, bool table, size_t smem, int *blocks_per_sm);

#endif
