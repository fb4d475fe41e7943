/* traversal: BFS on CPU (direction-optimising reference) and GPU (the
 * Enterprise pipeline), Graph500 validation, reachability, and BFS balls
 * that seed the matcher.
 *
 * Levels: a source has level 0; level[v] is the hop distance from the
 * nearest source.  Parents: any valid BFS tree (parent[v] is one level above
 * v and joined to it by an arc parent[v] -> v); a source is its own parent.
 *
 * Directed graphs: the search follows out-arcs.  Bottom-up steps need the
 * in-arcs, so both executors build the transpose (CSR of in-arcs) for a
 * directed graph when direction optimisation is on (the CPU reuses
 * o->transpose when the caller passes one); the GPU falls back to top-down
 * only when the transpose does not fit in device memory. */
#ifndef WM_TRAVERSAL_H
#define WM_TRAVERSAL_H

#include <stddef.h>
#include <stdint.h>

#include "datasets.h"
#include "wm_error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WM_UNREACHED UINT32_MAX

/* Processes sharing one GPU search (MPI ranks: bfs_mpi.c makes this over
 * MPI where the library is built with it, nothing here needs MPI; the
 * tests make one of threads).  Every process holds the whole graph, makes the same calls in
 * the same order with the same options, and drives o->gpus GPUs of its own
 * (CUDA devices first_device ..); the 1-D partition spans processes x gpus
 * parts, process p owning parts p x gpus .. (p + 1) x gpus - 1.  The
 * calls are made by the thread that called wm_bfs_gpu_create or _run, so
 * an MPI that lets only the main thread call it serves.  Collective unless
 * said; non-zero on failure (the MPI side aborts instead). */
typedef struct wm_bfs_procs {
  void *ctx;
  int processes;
  int process; /* this one's index, 0..processes-1 */
  int first_device;
  /* root's `bytes` at buf to every process's buf (NCCL's unique id) */
  int (*bcast)(void *ctx, void *buf, size_t bytes, int root);
  /* In-place sums over the processes (each level's figures, failures). */
  int (*sum_u64)(void *ctx, uint64_t *a, unsigned n);
  /* Process 0 receives every process q's range [lo[q], hi[q]) of a into
   * the same place of its own a (the levels and parents). */
  int (*gather_u32)(void *ctx, uint32_t *a, const uint32_t *lo, const uint32_t *hi);
  /* Not collective.  alarm: this process's search failed, `why` says how
   * (naming its GPUs); from then on alarmed() answers 1 on every process
   * (and stays so), which each polls while its GPUs wait, so that none
   * waits forever on an exchange with a GPU that is gone.  The MPI side
   * also ends a process that has not wound down some seconds after an
   * alarm, with the message: a GPU's collective that waits on a dead peer
   * may not return. */
  void (*alarm)(void *ctx, const char *why);
  int (*alarmed)(void *ctx);
} wm_bfs_procs;

typedef struct wm_bfs_options {
  int threads;        /* CPU: 0 = all */
  /* Stop after this many levels (UINT32_MAX: none).  With max_depth = H the
   * vertices with level[v] <= H are exactly the BFS ball of radius H around
   * the sources; every other vertex is WM_UNREACHED. */
  uint32_t max_depth;
  /* Stop once this vertex is reached (WM_NO_VERTEX: none).  The level that
   * reaches it is completed, so every reached level is still exact. */
  uint32_t target;
  int want_parents;
  /* Each optimisation can be switched off for the ablation. */
  int direction_opt;  /* top-down <-> bottom-up switching (default 1) */
  double alpha;       /* switch threshold gamma (default 0.3) */
  /* Also switch when frontier edges x edge_ratio > unexplored edges
   * (Beamer's rule, default 14; 0: gamma only).  gamma alone misses the
   * level whose frontier holds a large share of all edges but few hubs,
   * and expanding that level top-down dominates a search on a Kronecker
   * graph. */
  double edge_ratio;
  int queue_gen;      /* GPU: two-step queue generation (default 1); off = status-array BFS
                         (implies classify off) */
  int classify;       /* GPU: Small/Middle/Large/Extreme queues (default 1); off = a thread
                         per frontier vertex */
  int hub_cache;      /* GPU: shared-memory hub cache (default 1) */
  int small_kernel;   /* GPU: small-level (and deep-level) kernels, several levels a launch (default 1) */
  int small_grid;     /* GPU: ... with its grid tier, every SM in one cooperative launch for the
                         levels one block should not expand alone (default 1); off = one block */
  int cluster_kernel; /* GPU: a small graph's whole search in one launch of a thread block cluster
                         (default 1; where the device and the graph allow it) */
  /* GPU: devices to split the graph over (1-D partition, frontier bitmaps or
   * candidate lists exchanged through NCCL; 0 or 1: one GPU, the pipeline
   * above).  The
   * partitioned search has its own kernels: queue_gen, classify, hub_cache,
   * small_kernel, small_grid and cluster_kernel do not apply to it. */
  int gpus;
  /* GPU: processes sharing the search, each with `gpus` GPUs (at least 1
   * then); NULL or one process: this process alone.  On process 0 the
   * result is complete; on the others it holds their own vertices only. */
  const wm_bfs_procs *procs;
  /* CPU, directed graphs: the transpose (wm_graph_transpose) to use for
   * bottom-up steps, or NULL to build it per call. */
  const wm_graph *transpose;
} wm_bfs_options;

void wm_bfs_options_init(wm_bfs_options *o);

typedef struct wm_bfs_result {
  uint32_t *level;          /* n entries, WM_UNREACHED where not reached */
  uint32_t *parent;         /* n entries or NULL; root's parent is itself */
  uint32_t depth;           /* levels (deepest level + 1) */
  uint64_t reached;         /* vertices reached */
  uint64_t edges_traversed; /* sum of out-degrees of reached vertices */
  /* TEPS numerator, Graph500 convention: input edges within the traversed
   * component, i.e. undirected edges with a reached end (sum of degrees of
   * reached vertices / 2) for a symmetric graph, arcs leaving reached
   * vertices for a directed one. */
  uint64_t teps_edges;
  uint64_t *per_level;      /* depth entries: vertices per level */
  int truncated;            /* stopped by max_depth or target: the deepest level's
                               vertices may have unexplored neighbours */
  uint32_t bottom_up_levels;/* levels expanded bottom-up */
  uint32_t list_levels;     /* several GPUs: top-down levels whose candidates went as lists
                               (the others' as bitmaps) */
  double seconds;           /* traversal only (GPU: excludes upload and copy-back) */
  double kernel_ms;         /* GPU: CUDA events */
} wm_bfs_result;

void wm_bfs_result_free(wm_bfs_result *r);

/* Sources are internal ids; several sources give a multi-source BFS
 * (duplicates are ignored). */
int wm_bfs_cpu(const wm_graph *g, const uint32_t *sources, uint32_t nsources,
               const wm_bfs_options *o, wm_bfs_result *r, wm_error *err);
/* One-shot GPU BFS: uploads the graph, runs, frees (see wm_bfs_gpu_ctx for
 * repeated searches on one graph). */
int wm_bfs_gpu(const wm_graph *g, const uint32_t *sources, uint32_t nsources,
               const wm_bfs_options *o, wm_bfs_result *r, wm_error *err);

/* A graph resident on the GPU with the BFS buffers sized for it, for many
 * searches (the Graph500 protocol, the ablation).  The options given to
 * create only decide what is uploaded (the transpose of a directed graph
 * when direction_opt is on); run takes its own options. */
typedef struct wm_bfs_gpu_ctx wm_bfs_gpu_ctx;
int wm_bfs_gpu_create(const wm_graph *g, const wm_bfs_options *o, wm_bfs_gpu_ctx **ctx,
                      wm_error *err);
int wm_bfs_gpu_run(wm_bfs_gpu_ctx *ctx, const uint32_t *sources, uint32_t nsources,
                   const wm_bfs_options *o, wm_bfs_result *r, wm_error *err);
void wm_bfs_gpu_destroy(wm_bfs_gpu_ctx *ctx);
/* Launch configuration and device facts of a context, for the report. */
const char *wm_bfs_gpu_describe(const wm_bfs_gpu_ctx *ctx);

/* Graph500 checks; returns WM_EINPUT with the first violation in err.
 * Without parents (r->parent NULL) every non-source reached vertex must
 * instead have an in-neighbour one level above it. */
int wm_bfs_validate(const wm_graph *g, const uint32_t *sources, uint32_t nsources,
                    const wm_bfs_result *r, wm_error *err);

/* ---- helpers shared by both executors ------------------------------ */

/* Below this many vertices a pass over them runs on one thread: waking a
 * team costs more than the pass (a small graph's searches, called many
 * times, would pay it on every call). */
#define WM_BFS_PARALLEL_VERTICES (1u << 13)

/* Hub vertices for the direction heuristic and the hub cache: out-degree
 * >= *tau = max(32, 8 x mean out-degree).  gamma = hubs in the frontier /
 * all hubs; a graph without hubs (*nhubs == 0: grids, road networks, uniform
 * random graphs) stays top-down. */
void wm_bfs_hub_threshold(const wm_graph *g, uint64_t *tau, uint64_t *nhubs);
/* The top-down -> bottom-up rule both executors apply to a growing
 * frontier: its hubs' share of all hubs above alpha, or its out-edges
 * above unexplored / edge_ratio. */
int wm_bfs_go_bottom_up(const wm_bfs_options *o, uint64_t f_hubs, uint64_t nhubs, uint64_t f_edges,
                        uint64_t unexplored_edges);

/* Fills depth, reached, per_level, edges_traversed and teps_edges from
 * r->level.  Returns WM_EINPUT when out of memory. */
int wm_bfs_result_stats(const wm_graph *g, wm_bfs_result *r, wm_error *err);

/* The reverse graph (CSR of in-arcs, rows sorted); flags are copied. */
int wm_graph_transpose(const wm_graph *g, wm_graph **out, wm_error *err);

/* Measured device memory bandwidth: a large device-to-device copy timed
 * with events, bytes read + written per second, median of several runs. */
int wm_gpu_bandwidth_probe(double *gbps, wm_error *err);

/* NCCL, opened at its first use (nccl_load.c): 1 ready, 0 not to be had
 * (*error says why), -1 a build without NCCL. */
int wm_nccl_open(const char **error);

#ifdef __cplusplus
}
#endif
#endif
