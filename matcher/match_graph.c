/* The degree-renumbered graph every matching command and the library match
 * on, and the move of per-vertex labels into its numbering. */
#include <stdlib.h>

#include "matcher.h"

int wm_match_graph_by_degree(const wm_graph *g, wm_graph **out, uint32_t **old_of, wm_error *err) {
  *out = NULL;
  if (old_of) *old_of = NULL;
  /* A degree-sorted graph gains nothing; a directed one is refused by the
   * executors, with a message about the graph the caller gave. */
  if (g->flags & (WM_GRAPH_DEGREE_SORTED | WM_GRAPH_DIRECTED)) return WM_OK;
  return wm_graph_relabel_by_degree_map(g, out, old_of, err);
}

int wm_match_move_labels(const int32_t *labels, const uint32_t *old_of, uint32_t n, int32_t **moved,
                         wm_error *err) {
  *moved = malloc((n ? n : 1) * sizeof **moved);
  if (!*moved) return wm_fail(err, WM_EINPUT, "out of memory moving %lu vertex labels", (unsigned long)n);
  for (uint32_t v = 0; v < n; v++) (*moved)[v] = labels[old_of[v]];
  return WM_OK;
}
