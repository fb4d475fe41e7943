/* The dedicated kernels' rows (dag_kernels.def) and the shapes they count. */
#include "dag_table.h"

#include "dag_split.h"

const wm_dag_row wm_dag_rows[] = {
#define WM_DAG_KERNEL(family, k_min, k_max, edges) {#family, k_min, k_max, edges},
#include "dag_kernels.def"
#undef WM_DAG_KERNEL
};
const unsigned wm_dag_n_rows = sizeof wm_dag_rows / sizeof wm_dag_rows[0];

int wm_dag_row_counts(const wm_dag_row *row, unsigned k, unsigned edges) {
  const unsigned want = row->edges ? row->edges : k * (k - 1) / 2;
  return k >= row->k_min && k <= row->k_max && edges == want;
}

int wm_dag_row_of(unsigned k, unsigned edges) {
  for (unsigned i = 0; i < wm_dag_n_rows; i++)
    if (wm_dag_row_counts(&wm_dag_rows[i], k, edges)) return (int)i;
  return -1;
}

int wm_dag_row_of_plan(const wm_plan *plan) {
  if (!plan->count_only || (plan->flags & (WM_PLAN_EMBEDDINGS | WM_PLAN_LABELED))) return -1;
  return wm_dag_row_of(plan->k, wm_pattern_edges(&plan->pattern));
}
