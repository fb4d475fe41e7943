/* The dedicated kernels' rows (dag_kernels.def) as plain C: their names
 * and the shapes they count, on every build (the engine's table and its
 * messages read them without CUDA), and the one entry that runs a row's
 * kernels (gpu_dag.cu; gpu_dag_nocuda.c without CUDA). */
#ifndef WM_DAG_TABLE_H
#define WM_DAG_TABLE_H

#include "matcher.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wm_dag_row {
  const char *family;   /* "triangle", "clique", "diamond" */
  unsigned k_min, k_max;
  unsigned edges;       /* 0: the clique on k vertices */
} wm_dag_row;

extern const wm_dag_row wm_dag_rows[];
extern const unsigned wm_dag_n_rows;

/* Whether row counts the pattern of k vertices and `edges` edges. */
int wm_dag_row_counts(const wm_dag_row *row, unsigned k, unsigned edges);
/* The first row that counts that pattern, or -1. */
int wm_dag_row_of(unsigned k, unsigned edges);

/* The first row that counts plan: its shape, counted as subgraphs (count
 * only, no embeddings) without labels; -1 when none does. */
int wm_dag_row_of_plan(const wm_plan *plan);

/* Counts the plan's pattern (k vertices; induced: vertex-induced) with row
 * `row`'s kernels over o->gpus devices (o->trials after a warm-up).
 * *declined is set, with nothing run, when its buffers would not fit the
 * device: the caller then runs the stack kernel. */
int wm_match_gpu_dedicated(unsigned row, const wm_graph *g, unsigned k, int induced, const wm_match_options *o,
                           wm_match_result *r, int *declined, wm_error *err);

#ifdef __cplusplus
}
#endif
#endif
