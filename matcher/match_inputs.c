/* The checks both executors make before matching, so that the CPU and the
 * GPU refuse the same inputs with the same messages. */
#include "matcher.h"

int wm_match_check_inputs(const wm_graph *g, const wm_plan *plan, const wm_match_options *o,
                          wm_error *err) {
  /* A usage error, as motifs and orbits say it: the graph was asked for
   * directed, where an undirected one is needed. */
  if (g->flags & WM_GRAPH_DIRECTED)
    return wm_fail(err, WM_EUSAGE, "pattern matching needs an undirected graph (this one was loaded as directed)");
  if (g->flags & WM_GRAPH_ORIENTED)
    return wm_fail(err, WM_EINPUT, "pattern matching needs a symmetric (undirected) graph");
  if (plan->k < 2 || plan->k > WM_MAX_K || plan->n_slots > WM_MAX_SLOTS || plan->n_ops > WM_MAX_OPS)
    return wm_fail(err, WM_EINPUT, "malformed plan (k = %u, %u ops, %u slots)", plan->k,
                   plan->n_ops, plan->n_slots);
  for (unsigned i = 0; i < plan->k; i++)
    if (plan->label[i] != WM_ANY_LABEL && !o->vertex_labels)
      return wm_fail(err, WM_EUSAGE,
                     "pattern '%s' has vertex labels: the graph's labels are needed (--labels FILE)",
                     plan->pattern.name);
  /* The GPU hands level 0 out by 32-bit index. */
  if (o->first && o->n_first > 0xFFFFFFFFull)
    return wm_fail(err, WM_EINPUT, "too many seed vertices (%llu)", (unsigned long long)o->n_first);
  for (uint64_t i = 0; o->first && i < o->n_first; i++)
    if (o->first[i] >= g->n)
      return wm_fail(err, WM_EINPUT, "seed vertex %u is not in the graph (%u vertices)",
                     o->first[i], g->n);
  return WM_OK;
}
