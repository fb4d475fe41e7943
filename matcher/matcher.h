/* matcher: executors of a plan.  The CPU executor (OpenMP) is the reference
 * and the fallback; the GPU executors must return the very same counts.
 *
 *   cpu/     the CPU executor: the plan's nested loops over sorted sets
 *   stack/   the general GPU executor: one backtracking stack per warp,
 *            work stealing, unrolling
 *   dag/     dedicated kernels on the degree-ordered DAG: triangles,
 *            k-cliques, diamonds, and the host split of their rows
 *   motifs/  all 3-5 vertex motifs from per-vertex and per-edge sums, the
 *            few enumerated pieces, and the map to induced counts (CPU and GPU)
 * The files at this level are the module's API and what both executors
 * share: the input checks, the timed trials, the degree-renumbered graph,
 * and the engine (engine.h): the table of executors that decides which
 * one counts a job. */
#ifndef WM_MATCHER_H
#define WM_MATCHER_H

#include <stdint.h>

#include "datasets.h"
#include "device.h"
#include "exact_count.h"
#include "planner.h"
#include "wm_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Called with each match as data vertex ids (internal ids) indexed by
 * PATTERN vertex (not by position).  Return non-zero to stop early.  The
 * executors serialise calls, so the sink needs no locking. */
typedef int (*wm_match_sink)(void *ctx, const uint32_t *match, unsigned k);

/* Work shared with other processes (MPI ranks, matcher/cpu/share_mpi.c,
 * behind api/warpmatch_mpi.h): every process holds the whole graph and runs
 * the same calls in the same order; the CPU executor and the motif sums
 * take their loops' items in chunks from counters common to all of them,
 * and add their partial results together before returning, so each
 * process returns the whole answer.  Nothing here needs MPI: a caller
 * without one passes no wm_share. */
typedef struct wm_share {
  void *ctx;
  int processes;
  int process;  /* this process's index, 0..processes-1 */
  /* The first of `count` fresh counters, one per loop of the next piece of
   * work; every process calls it in the same order, from one thread, once
   * every counter it took before is done with (no thread claims from it). */
  unsigned (*loops)(void *ctx, unsigned count);
  /* Claims `chunk` items of loop `id`: returns the first (the loop's
   * length or more: nothing left).  Any thread may call it. */
  uint64_t (*grab)(void *ctx, unsigned id, uint64_t chunk);
  /* In-place sums over the processes: collective, one thread of each
   * process calling while its others wait.  Non-zero on an MPI error. */
  int (*sum_u32)(void *ctx, uint32_t *a, uint64_t n);
  int (*sum_u64)(void *ctx, uint64_t *a, uint64_t n);
  /* exact: *overflow is set when a total passes 2^127 */
  int (*sum_i128)(void *ctx, wm_i128 *a, unsigned n, int *overflow);
  /* This process gives up the call (interrupted, out of memory): marks
   * loops first..first+count-1 so that every later claim of them, by any
   * process, finds nothing left, and the others stop within a chunk
   * instead of doing the rest alone.  Any thread, any number of times;
   * NULL (or left out: last, so that older positional initialisers stay
   * right): only this process's claims stop.
   * The call's result is then agreed in its sums (wm_share_interrupted). */
  void (*halt)(void *ctx, unsigned first, unsigned count);
} wm_share;

/* Sums over the processes of s that both executors make.  *count becomes
 * the total, in 128 bits (non-zero on an MPI error or a total past
 * 2^127).  Per-vertex counts: each is at most `bound` (the start plus the
 * total count), so 64-bit sums cannot wrap while bound < 2^64; past it
 * they are added in 128 bits, and *full receives 1 + the first vertex
 * whose total passes 2^64 - 1 (left alone where none does). */
int wm_share_count(const wm_share *s, wm_u128 *count);
int wm_share_per_vertex(const wm_share *s, uint64_t *pv, uint32_t n, wm_u128 bound, uint64_t *full);

/* s->halt where the share has one. */
void wm_share_halt(const wm_share *s, unsigned first, unsigned count);
/* A shared call interrupted on some process ends so on all of them: each
 * adds its own flag (read once, before) to a sum it makes anyway, and
 * every process returns WM_EINTERRUPTED where the total is not zero, so
 * that none returns a partial answer or leaves before a collective the
 * others enter.  here: this process's own flag, for the message. */
int wm_share_interrupted(wm_error *err, const char *what, int here);

/* The GPU's loops shared by processes go in this many windows per process
 * (the stack kernel's level 0, the motif passes 2-4): a process takes the
 * next window once its GPUs have finished the last, so a skewed loop
 * balances across processes as it does across warps; more windows would
 * cost each a launch and a wait.  (The GPU's own work counters live in its
 * memory, out of the other processes' reach.) */
#define WM_SHARE_WINDOWS 8

/* The ranges of the GPU tuning (wm_match_options' gpu_*), the public
 * WARPMATCH_GPU_MAX_* (api/ asserts so). */
#define WM_GPU_MAX_UNROLL 32         /* one lane per unrolled iteration at most */
#define WM_GPU_MAX_WARPS 32          /* a warp's lane masks of the block's warps are 32 bits */
#define WM_GPU_MAX_TABLE_WORDS 8192u /* a forced probe table's size */

enum wm_steal_mode { WM_STEAL_NONE = 0, WM_STEAL_BLOCK = 1, WM_STEAL_TWO_LEVEL = 2 };
/* How the GPU stack kernel hands out level 0: vertices v0, or edges (v0, v1)
 * (G2Miner's edge parallelism: a hub's first level is spread over many
 * warps from the start); auto takes edges whenever the plan allows. */
enum wm_level0_mode { WM_LEVEL0_AUTO = 0, WM_LEVEL0_VERTICES = 1, WM_LEVEL0_EDGES = 2 };

typedef struct wm_match_options {
  int threads;                 /* CPU: 0 = all */
  const int32_t *vertex_labels;/* n entries, or NULL (required when the plan is labeled) */
  const uint32_t *first;       /* restrict v[0] to these vertices (seeding), or NULL */
  uint64_t n_first;
  const uint8_t *allowed;      /* n bytes: only vertices with allowed[v] != 0 may be
                                  matched at any position (BFS ball), or NULL */
  uint64_t limit;              /* listing: stop after this many (0 = no limit) */
  wm_match_sink sink;          /* listing; NULL when counting */
  void *sink_ctx;
  uint64_t *per_vertex;        /* n counters or NULL: matches containing each vertex
                                  (zeroed, then filled); one that would pass 2^64 - 1 is
                                  WM_EINPUT naming the vertex (wm_per_vertex_overflow) */
  uint32_t cpu_hub_degree;     /* CPU: roots above this degree are split into chunks of
                                  level-1 candidates (0 = default 256; tests use tiny ones) */
  uint32_t cpu_level1_every;   /* CPU: a sample of each root's work (the timed slices' hubs):
                                  position 1 takes only the candidates whose arc (v0, c) has
                                  CSR index % cpu_level1_every == 0; 0 or 1: all.  Where
                                  position 1 is counted, not iterated, all are taken
                                  (wm_match_cpu_level1_every says which) */
  int cpu_level1_rest;         /* CPU: the others instead, the sample's complement (none where
                                  the sample takes all): the two runs count each match once */
  uint32_t gpu_l0_every;       /* GPU stack kernel: a stripe of level 0 (the timed slices): level 0 in
                                  chunks of a size that depends on the graph, the plan and the grid
                                  alone (the same for the stripe and its rest), and only the chunks
                                  whose index % gpu_l0_every == 0 taken; 0 or 1: all.  Not with
                                  seeds, listing, per-vertex counts, a share or several GPUs */
  int gpu_l0_rest;             /* GPU: the others instead, the stripe's complement: the two runs
                                  count each match once */
  double time_limit_s;         /* one count (no listing, per-vertex counts, share, trials; on the
                                  GPU the stack kernel on one GPU in a library call, a monitor):
                                  past this many seconds of the run (the GPU's launches) no more
                                  work is claimed (the CPU's roots and hub tasks, the GPU's chunks)
                                  and the result's cut_short is set, its count partial (the timed
                                  slices' bound on an order far slower than the fastest); 0: none */
  /* GPU tuning (ignored by the CPU executor) */
  int gpu_unroll;              /* U; 0 = default */
  int gpu_steal;               /* wm_steal_mode; -1 = default (two-level) */
  int gpus;                    /* GPUs to split level 0 over; 0 = 1 */
  int gpu_first;               /* one GPU (gpus 0 or 1): its CUDA ordinal (0 = the first), so that
                                  callers can run one count per device at once (significance's
                                  per-GPU pipelines); several GPUs are always 0..gpus-1 */
  int gpu_blocks, gpu_warps_per_block; /* 0 = from the device */
  int gpu_level0;              /* wm_level0_mode; 0 = auto */
  uint32_t gpu_chunk;          /* level-0 iterations (vertices or edges) per grab of the global
                                  counter; 0 = default */
  uint64_t gpu_set_capacity;   /* elements per set buffer; 0 = from max degree and free memory
                                  (tests force tiny ones to exercise the hub path) */
  uint64_t gpu_list_batch;     /* listing: matches per device-buffer drain; 0 = default */
  int gpu_table_words;         /* each warp's probe table of a row (shared-memory words):
                                  0 = default (128 where occupancy allows), -1 = none,
                                  N = N words (tests force tiny ones, for the hashed table) */
  int gpu_clique_kernels;      /* 1 (default): counting triangles, k-cliques (k <= 8) and
                                  diamonds takes the dedicated kernels (gpu_dag.h); 0: the
                                  stack kernel, for the ablation */
  int trials;                  /* GPU counting: > 1 runs one untimed warm-up launch, then this
                                  many timed ones that must agree (1..WM_MAX_TRIALS; not with a
                                  sink or per_vertex: WM_EUSAGE).  Default 1: one launch.  The CPU
                                  executor runs once; `count` repeats it itself. */
  int motif_method;            /* wm_motif_method: how wm_motifs (and `count` of a pattern
                                  with a formula) counts; 0 = auto */
  uint64_t motif_k4_arcs;      /* formula, size 4: the aggregates' pass 4 counts the 4-cliques
                                  on graphs of at most this many arcs, a clique plan above;
                                  0 = WM_MOTIF_K4_ARCS on the GPU, no limit on the CPU
                                  (tests move it to take either) */
  const char *progress_label;  /* the phase the progress line names (NULL: "counting") */
  const wm_share *share;       /* CPU: the first level (and the motif sums' loops) shared with
                                  other processes, or NULL; not with a sink */
  const struct wm_gpu_graph *gpu_graph; /* GPU: g already on the devices (wm_gpu_graph_create),
                                  read from there instead of uploaded; NULL, or a copy of
                                  another graph: uploaded as before */
} wm_match_options;

/* auto: the formula wherever it applies (the whole graph, no labels); formula:
 * that or WM_EUSAGE; enumerate: one plan per class, as a cross-check. */
enum wm_motif_method { WM_MOTIF_AUTO = 0, WM_MOTIF_FORMULA = 1, WM_MOTIF_ENUMERATE = 2 };

/* On the GPU, below this many arcs a 4-clique plan's fixed costs (its
 * split, streams, buffers and graph capture: about 2 ms on an H100)
 * outweigh counting the 4-cliques per edge inside the size-4 aggregates
 * (0.3 ms of kernels on facebook's 176k arcs); above it the clique
 * kernels, which split heavy edges, are faster (Kronecker 18, 7.3M arcs:
 * 55 against 80 ms).  The CPU counts them in its aggregates on every
 * graph: there the plan was slower on Kronecker 16 and 18 too (3.31
 * against 1.78 s and 23.6 against 12.9 s on two cores). */
#define WM_MOTIF_K4_ARCS (1ull << 20)

void wm_match_options_init(wm_match_options *o);

/* Most trials of one run: `count --trials` takes 1..1000, and every trial's
 * time is kept (no truncation), in wm_match_result.trial_ms. */
#define WM_MAX_TRIALS 1000

typedef struct wm_match_result {
  wm_u128 count;       /* subgraphs (or embeddings with WM_PLAN_EMBEDDINGS), exact: every
                          executor sums in 128 bits (enumerated counts pass 2^64 on hubs) */
  uint64_t set_ops;    /* set operations executed */
  uint64_t listed;     /* matches handed to the sink */
  double seconds;      /* matching only (excludes graph load, plan, transfers) */
  double kernel_ms;    /* GPU: kernel time by CUDA events */
  double transfer_ms;  /* GPU: host<->device copies */
  char launch[384];    /* GPU: launch configuration, for --dump-plan */
  uint64_t formula_paths; /* motifs by formula: paths u-v-w below each top u, the
                             4-cycle pass's work (saturated at UINT64_MAX) */
  double lane_util;    /* GPU: useful lanes / lanes issued in set operations (0: not measured) */
  /* trials > 1: seconds and kernel_ms are medians over the timed trials and
   * trial_ms holds each trial's GPU kernel ms (or CPU match ms); 0 or 1: one run. */
  unsigned trials;
  double trial_ms[WM_MAX_TRIALS];
  int cut_short;       /* stopped at wm_match_options.time_limit_s: the count is partial */
  /* GPU stack kernel with a time limit: its first block's start to its last
   * warp's end, and its warps' mean time with work, outside wm_acquire (0:
   * not measured) */
  double span_s, busy_s;
} wm_match_result;

/* The error (WM_EINPUT) for a per-vertex count that passes 2^64 - 1: it
 * names vertex v (internal id) by its file id where g has them. */
int wm_per_vertex_overflow(const wm_graph *g, uint32_t v, wm_error *err);

/* The median of x[0..n) (mean of the middle two when n is even; 0 when n is
 * 0); x is left as it is. */
double wm_match_median(const double *x, unsigned n);

/* One timed run of a trials loop: sets x's count and seconds, and on the
 * GPU its kernel_ms (x comes zeroed). */
typedef int (*wm_trial_fn)(void *ctx, wm_match_result *x, wm_error *err);

/* After an untimed warm-up that counted `warm`, `trials` timed runs that
 * must each count the same (else WM_EDEVICE); fills r's trials and
 * trial_ms, sets r->seconds to the median seconds and, when `kernel` (the
 * runs' ms are GPU kernel times) or where the warm-up in r had kernels (a
 * call that mixes host work with its kernels), r->kernel_ms to the median
 * of the runs' kernel ms.  Every
 * --trials loop of both executors runs here. */
int wm_match_trials(wm_trial_fn run, void *ctx, unsigned trials, wm_u128 warm, int kernel,
                    wm_match_result *r, wm_error *err);

/* What both executors check first: a symmetric graph, a well-formed plan,
 * labels when the plan is labeled, seeds inside the graph. */
int wm_match_check_inputs(const wm_graph *g, const wm_plan *plan, const wm_match_options *o,
                          wm_error *err);

int wm_match_cpu(const wm_graph *g, const wm_plan *plan, const wm_match_options *o,
                 wm_match_result *r, wm_error *err);

/* The stride the CPU executor applies at position 1 for o (its
 * cpu_level1_every): 1 where it takes every candidate, as where position 1
 * is counted rather than iterated (a pair count there, k = 2). */
uint32_t wm_match_cpu_level1_every(const wm_plan *plan, const wm_match_options *o);

/* A plan on the GPU: the engine's GPU rows (engine.h), a dedicated kernel
 * where one counts it, else the stack kernel.  WM_EDEVICE when no device
 * or a CUDA error; out-of-memory likewise. */
int wm_match_gpu(const wm_graph *g, const wm_plan *plan, const wm_match_options *o,
                 wm_match_result *r, wm_error *err);

/* Vertex-induced counts of every connected k-vertex pattern (k = 3..5);
 * counts[i] belongs to patterns[i] of wm_connected_patterns(k), exact in
 * 128 bits.  The formula method (o->motif_method auto or formula, over the
 * whole graph: no seeds, ball, listing or per-vertex counts) computes
 * edge-induced counts from vertex, edge, triangle, 4-cycle and pair-list
 * aggregates (motif_sums.h; on the GPU for sizes 4 and 5 when use_gpu,
 * else on the CPU), enumerates only the triangle and the 4-clique (on the
 * GPU when use_gpu), and turns the edge-induced counts into
 * vertex-induced ones through the spanning-subgraph matrix
 * (wm_spanning_matrix).  The enumerate method runs one vertex-induced plan
 * per class.  sum (or NULL) receives the total count, the wall seconds, the GPU kernels' ms, the enumerations'
 * set operations, the formula's work in formula_paths, and in launch how
 * it was done; how (or NULL, n entries) receives wm_motif_how_name's code for
 * each class. */
int wm_motifs(const wm_graph *g, unsigned k, int use_gpu, const wm_match_options *o, wm_u128 *counts,
              int *how, wm_match_result *sum, wm_error *err);
/* The name of a class's way of counting (the how[] of wm_motifs):
 * "formula", "enumerated", "enumerated-induced". */
const char *wm_motif_how_name(int how);
/* The edge-induced count's formula of p in words (static text), or NULL. */
const char *wm_motif_formula_text(const wm_pattern *p);
/* "formula", "enumerated" (edge-induced) or "enumerated-induced". */
const char *wm_motif_how_name(int how);

/* The graph the matchers run on: g renumbered by descending degree (hubs
 * first; with the planner's restrictions a bounded neighbour list then keeps
 * only the few neighbours of higher degree).  *out is NULL when g is already
 * so numbered or is directed: match on g itself.  Otherwise old_of (may be
 * NULL) receives for each of *out's vertices the vertex of g it is (n
 * entries, malloc'd); file ids follow in (*out)->orig_ids. */
int wm_match_graph_by_degree(const wm_graph *g, wm_graph **out, uint32_t **old_of, wm_error *err);
/* Per-vertex labels of g moved to the renumbered graph: (*moved)[v] =
 * labels[old_of[v]] for its n vertices (malloc'd). */
int wm_match_move_labels(const int32_t *labels, const uint32_t *old_of, uint32_t n, int32_t **moved,
                         wm_error *err);

/* 1 when the formula counts p: unlabeled, 3 to 5 vertices, and not the
 * triangle or the 4-clique (which are enumerated: the clique kernels count
 * them on the GPU).  The 5-clique has a formula. */
int wm_motif_formula_applies(const wm_pattern *p);
/* p's count over the whole graph by formula (wm_motif_formula_applies):
 * edge-induced from its formula over the aggregates, vertex-induced from
 * its row of the size's motif table (wm_motifs).  *exact receives the
 * count; r the count too, seconds, GPU kernel ms,
 * formula_paths, and in launch the formula and how its pieces were
 * computed.  WM_EUSAGE for a pattern without a formula or options that
 * do not count the whole graph. */
int wm_count_by_formula(const wm_graph *g, const wm_pattern *p, int induced, int use_gpu, const wm_match_options *o,
                        wm_u128 *exact, wm_match_result *r, wm_error *err);

#ifdef __cplusplus
}
#endif
#endif
