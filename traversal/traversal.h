/* traversal: BFS on CPU (direction-optimising reference) and GPU (the
 * Enterprise pipeline), Graph500 validation, reachability, and BFS balls
 * that seed the matcher. */
#ifndef WM_TRAVERSAL_H
#define WM_TRAVERSAL_H

#include <stdint.h>

#include "datasets.h"
#include "wm_error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WM_UNREACHED UINT32_MAX

typedef struct wm_bfs_options {
  int threads;        /* CPU: 0 = all */
  uint32_t max_depth; /* stop after this many levels (UINT32_MAX: none) */
  uint32_t target;    /* stop once this vertex is reached (WM_NO_VERTEX: none) */
  int want_parents;
  /* Each optimisation can be switched off for the ablation. */
  int direction_opt;  /* top-down <-> bottom-up switching (default 1) */
  double alpha;       /* switch threshold gamma (default 0.3) */
  int queue_gen;      /* GPU: two-step queue generation (default 1) */
  int classify;       /* GPU: Small/Middle/Large/Extreme queues (default 1) */
  int hub_cache;      /* GPU: shared-memory hub cache (default 1) */
  int small_kernel;   /* GPU: single-block multi-level kernel (default 1) */
} wm_bfs_options;

void wm_bfs_options_init(wm_bfs_options *o);

typedef struct wm_bfs_result {
  uint32_t *level;          /* n entries, WM_UNREACHED where not reached */
  uint32_t *parent;         /* n entries or NULL; root's parent is itself */
  uint32_t depth;           /* levels (deepest level + 1) */
  uint64_t reached;         /* vertices reached */
  uint64_t edges_traversed; /* sum of out-degrees of reached vertices (TEPS numerator) */
  uint64_t *per_level;      /* depth entries: vertices per level */
  double seconds;           /* traversal only */
  double kernel_ms;         /* GPU: CUDA events */
} wm_bfs_result;

void wm_bfs_result_free(wm_bfs_result *r);

/* Sources are internal ids; several sources give a multi-source BFS. */
int wm_bfs_cpu(const wm_graph *g, const uint32_t *sources, uint32_t nsources,
               const wm_bfs_options *o, wm_bfs_result *r, wm_error *err);
int wm_bfs_gpu(const wm_graph *g, const uint32_t *sources, uint32_t nsources,
               const wm_bfs_options *o, wm_bfs_result *r, wm_error *err);

/* Graph500 checks; returns WM_EINPUT with the first violation in err. */
int wm_bfs_validate(const wm_graph *g, const uint32_t *sources, uint32_t nsources,
                    const wm_bfs_result *r, wm_error *err);

#ifdef __cplusplus
}
#endif
#endif
