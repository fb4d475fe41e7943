/* wm_randomize: the chosen chain run on a copy of g's rows, the rows
 * sorted back into a graph, and the mixing check (randomize.h). */
#include <stdlib.h>
#include <string.h>

#include "gen_random.h"
#include "graph_internal.h"
#include "randomize.h"

static const uint64_t STREAM_RANDOMIZE = 0x72616e646f6dull; /* "random" */

/* g's vertices, ids, flags and offsets, with an adjacency array to fill. */
static wm_graph *shell_of(const wm_graph *g) {
  wm_graph *out = wm_graph_create(g->n, g->m);
  if (!out) return NULL;
  memcpy(out->offsets, g->offsets, ((size_t)g->n + 1) * sizeof *out->offsets);
  out->flags = g->flags;
  if (g->orig_ids) {
    out->orig_ids = malloc((size_t)g->n * sizeof *out->orig_ids);
    if (!out->orig_ids) {
      wm_graph_destroy(out);
      return NULL;
    }
    memcpy(out->orig_ids, g->orig_ids, (size_t)g->n * sizeof *out->orig_ids);
  }
  return out;
}

/* The mixing check: the input's edges still present, and their number
 * expected in a random graph of the same degrees (randomize.h). */
static int mixing_check(const wm_graph *g, const wm_graph *r, wm_randomize_stats *st, wm_error *err) {
  const int directed = (g->flags & WM_GRAPH_DIRECTED) != 0;
  uint64_t *in = calloc((size_t)g->n + 1, sizeof *in);
  if (!in) return wm_fail(err, WM_EINPUT, "randomize: out of memory for %u in-degrees", g->n);
  for (uint64_t e = 0; e < g->m; e++) in[g->adj[e]]++;
  const double stubs = (double)g->m; /* 2m when symmetric, m arcs when directed */
  uint64_t kept = 0;
  double expected = 0;
  for (uint32_t u = 0; u < g->n; u++)
    for (uint64_t e = g->offsets[u]; e < g->offsets[u + 1]; e++) {
      const uint32_t v = g->adj[e];
      if (!directed && v < u) continue;
      kept += (uint64_t)wm_graph_has_arc(r, u, v);
      const double p = (double)wm_degree(g, u) * (double)in[v] / stubs;
      expected += p < 1 ? p : 1;
    }
  free(in);
  st->edges_kept = kept;
  st->edges_kept_expected = expected;
  return WM_OK;
}

int wm_randomize(const wm_graph *g, const wm_randomize_options *o, wm_graph **out, wm_randomize_stats *st,
                 wm_error *err) {
  *out = NULL;
  memset(st, 0, sizeof *st);
  if (g->flags & WM_GRAPH_ORIENTED)
    return wm_fail(err, WM_EINPUT, "randomize: the graph is oriented by degree, which swaps would not keep; "
                                   "randomize the symmetric graph");
  if (o->method != WM_RANDOMIZE_SWITCH && o->method != WM_RANDOMIZE_CURVEBALL)
    return wm_fail(err, WM_EUSAGE, "randomize: method %d; expected switch (1) or curveball (2)", o->method);
  if (o->swaps_per_edge < 1 || o->swaps_per_edge > WM_RANDOMIZE_MAX_SWAPS)
    return wm_fail(err, WM_EUSAGE, "randomize: %u swaps per edge; give 1 to %u", o->swaps_per_edge,
                   WM_RANDOMIZE_MAX_SWAPS);
  wm_graph *r = shell_of(g);
  if (!r) return wm_fail(err, WM_EINPUT, "randomize: out of memory for a graph of %llu arcs", (unsigned long long)g->m);
  const uint64_t key = wm_gen_item_key(wm_gen_stream_key(o->seed, STREAM_RANDOMIZE), o->index);
  const uint64_t attempts = (uint64_t)o->swaps_per_edge * wm_graph_edges(g);
  const int on_gpu = o->use_gpu && o->method == WM_RANDOMIZE_SWITCH;
  int rc = on_gpu && o->switcher ? wm_gpu_switcher_run(o->switcher, g, key, attempts, o->stop, r, st, err)
           : on_gpu ? wm_gpu_rand_switch(g, key, attempts, o->gpu, o->stop, r, st, err)
           : o->method == WM_RANDOMIZE_SWITCH ? wm_rand_switch(g, key, attempts, o->stop, r, st, err)
                                              : wm_rand_curveball(g, key, o->swaps_per_edge, o->stop, r, st, err);
  for (uint32_t v = 0; !rc && !on_gpu && v < g->n; v++) wm_sort_u32(r->adj + r->offsets[v], wm_degree(r, v));
  if (!rc) rc = mixing_check(g, r, st, err);
  if (rc) {
    wm_graph_destroy(r);
    return rc;
  }
  *out = r;
  return WM_OK;
}
