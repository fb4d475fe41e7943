/* Graph handles: loading, building from edge arrays, and the per-graph work
 * that every query would otherwise redo (the degree-renumbered copy the
 * matchers run on, its statistics for the planner, a directed graph's
 * transpose), done once on first use. */
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "base.h"
#include "matcher.h"
#include "traversal.h"

void warpmatch_load_options_init(warpmatch_load_options *o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->size = sizeof *o;
  o->use_cache = 1;
}

int wm_api_graph_wrap(warpmatch_context *ctx, const char *who, wm_graph *g, warpmatch_graph **out) {
  static _Atomic uint64_t serials;
  warpmatch_graph *h = calloc(1, sizeof *h);
  if (!h || pthread_mutex_init(&h->lock, NULL) != 0) {
    free(h);
    wm_graph_destroy(g);
    return wm_api_fail(ctx, WARPMATCH_EINPUT, "%s: out of memory", who);
  }
  h->g = g;
  h->serial = ++serials;
  *out = h;
  return WARPMATCH_OK;
}

int warpmatch_graph_load(warpmatch_context *ctx, const char *path, const warpmatch_load_options *opt,
                         warpmatch_graph **out) {
  return warpmatch_graph_load_ex(ctx, path, opt, WARPMATCH_FORMAT_AUTO, out, NULL);
}

static void copy_info(const wm_load_info *in, warpmatch_load_info *out) {
  memset(out, 0, sizeof *out);
  out->size = sizeof *out;
  out->format = (int)in->format; /* WARPMATCH_FORMAT_* are wm_format's values */
  out->from_cache = in->from_cache;
  out->cache_written = in->cache_written;
  memcpy(out->cache_path, in->cache_path, sizeof out->cache_path);
  out->seconds = in->seconds;
  out->bytes = in->bytes;
  memcpy(out->note, in->note, sizeof out->note);
}

int warpmatch_graph_load_ex(warpmatch_context *ctx, const char *path, const warpmatch_load_options *opt, int format,
                            warpmatch_graph **out, warpmatch_load_info *info) {
  static const char who[] = "warpmatch_graph_load";
  if (!ctx) return WARPMATCH_EUSAGE;
  if (!out) return wm_api_null(ctx, who, "out");
  *out = NULL;
  if (!path) return wm_api_null(ctx, who, "path");
  if (format < WARPMATCH_FORMAT_AUTO || format > WARPMATCH_FORMAT_WMG)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: format %d: expected WARPMATCH_FORMAT_AUTO, _EDGELIST, _MTX or _WMG",
                       who, format);
  warpmatch_load_options o;
  warpmatch_load_options_init(&o);
  int rc = opt ? wm_api_struct_in(ctx, who, &o, sizeof o, opt) : WARPMATCH_OK;
  if (rc) return rc;
  opt = &o;
  wm_load_options lo;
  wm_load_options_init(&lo);
  lo.format = (wm_format)format;
  lo.directed = opt->directed != 0;
  lo.use_cache = opt->use_cache != 0;
  /* The line shows only where the program chose to show progress lines
   * (wm_progress_choose); a library user never does, so nothing prints. */
  lo.progress = 1;
  wm_error err;
  wm_load_info li;
  wm_graph *g = NULL;
  wm_api_threads t;
  wm_api_threads_enter(ctx, &t);
  rc = wm_graph_load(path, &lo, &g, &li, &err);
  wm_api_threads_leave(&t);
  if (rc) return wm_api_status(ctx, rc, &err);
  if (info) {
    warpmatch_load_info mine;
    copy_info(&li, &mine);
    if ((rc = wm_api_struct_out(ctx, who, info, &mine, sizeof mine))) {
      wm_graph_destroy(g);
      return rc;
    }
  }
  return wm_api_graph_wrap(ctx, who, g, out);
}

/* n = 0: one more than the largest id (the builder would otherwise compact
 * the ids, and the header promises that indices are the ids given). */
/* Edge i's ends are src[i * step] and dst[i * step]: step 1 for two
 * columns, 2 for pairs side by side. */
typedef struct edge_ends {
  const uint32_t *src, *dst;
  size_t step;
} edge_ends;

static uint64_t vertex_count(uint32_t n, const edge_ends *x, uint64_t m) {
  if (n) return n;
  uint64_t top = 0;
  for (uint64_t i = 0; i < m; i++) {
    uint32_t a = x->src[i * x->step], b = x->dst[i * x->step];
    if (a >= top) top = (uint64_t)a + 1;
    if (b >= top) top = (uint64_t)b + 1;
  }
  return top;
}

static int graph_from_ends(warpmatch_context *ctx, const char *who, uint32_t n, const edge_ends *x, uint64_t m,
                           int directed, warpmatch_graph **out) {
  if (m > SIZE_MAX / sizeof *x->src / 2)
    return wm_api_fail(ctx, WARPMATCH_EINPUT, "%s: %llu edges do not fit in memory", who, (unsigned long long)m);
  const uint64_t nv = vertex_count(n, x, m);
  for (uint64_t i = 0; n && i < m; i++) {
    uint32_t a = x->src[i * x->step], b = x->dst[i * x->step];
    if (a >= n || b >= n)
      return wm_api_fail(ctx, WARPMATCH_EINPUT, "%s: edge %llu (%u-%u) has a vertex outside 0..%u", who,
                         (unsigned long long)i, a, b, n - 1);
  }
  /* The builder consumes its arrays; the caller's stay untouched. */
  uint32_t *s = malloc((m ? m : 1) * sizeof *s), *d = malloc((m ? m : 1) * sizeof *d);
  if (!s || !d) {
    free(s);
    free(d);
    return wm_api_fail(ctx, WARPMATCH_EINPUT, "%s: out of memory copying %llu edges", who, (unsigned long long)m);
  }
  for (uint64_t i = 0; i < m; i++) {
    s[i] = x->src[i * x->step];
    d[i] = x->dst[i * x->step];
  }
  wm_error err;
  wm_graph *g = NULL;
  wm_api_threads t;
  wm_api_threads_enter(ctx, &t);
  /* A graph without vertices takes the builder's empty case (n_hint 0, no arcs). */
  int rc = wm_graph_from_arcs(s, d, m, nv, directed != 0, &g, &err);
  wm_api_threads_leave(&t);
  free(s);
  free(d);
  if (rc) return wm_api_status(ctx, rc, &err);
  return wm_api_graph_wrap(ctx, who, g, out);
}

int warpmatch_graph_from_edges(warpmatch_context *ctx, uint32_t n, const uint32_t *src, const uint32_t *dst,
                               uint64_t m, int directed, warpmatch_graph **out) {
  static const char who[] = "warpmatch_graph_from_edges";
  if (!ctx) return WARPMATCH_EUSAGE;
  if (!out) return wm_api_null(ctx, who, "out");
  *out = NULL;
  if (m && !src) return wm_api_null(ctx, who, "src");
  if (m && !dst) return wm_api_null(ctx, who, "dst");
  edge_ends x = {src, dst, 1};
  return graph_from_ends(ctx, who, n, &x, m, directed, out);
}

int warpmatch_graph_from_pairs(warpmatch_context *ctx, uint32_t n, const uint32_t *pairs, uint64_t m, int directed,
                               warpmatch_graph **out) {
  static const char who[] = "warpmatch_graph_from_pairs";
  if (!ctx) return WARPMATCH_EUSAGE;
  if (!out) return wm_api_null(ctx, who, "out");
  *out = NULL;
  if (m && !pairs) return wm_api_null(ctx, who, "pairs");
  edge_ends x = {pairs, pairs + 1, 2};
  return graph_from_ends(ctx, who, n, &x, m, directed, out);
}

void warpmatch_graph_destroy(warpmatch_graph *g) {
  if (!g) return;
  wm_graph_destroy(g->g);
  wm_graph_destroy(g->sorted);
  wm_graph_destroy(g->transpose);
  free(g->old_of);
  pthread_mutex_destroy(&g->lock);
  free(g);
}

uint32_t warpmatch_graph_vertices(const warpmatch_graph *g) { return g ? g->g->n : 0; }
uint64_t warpmatch_graph_edges(const warpmatch_graph *g) { return g ? wm_graph_edges(g->g) : 0; }
int warpmatch_graph_directed(const warpmatch_graph *g) { return g && (g->g->flags & WM_GRAPH_DIRECTED) != 0; }

void warpmatch_graph_ids(const warpmatch_graph *g, uint64_t *ids) {
  if (!g || !ids) return;
  for (uint32_t v = 0; v < g->g->n; v++) ids[v] = wm_graph_file_id(g->g, v);
}

void warpmatch_graph_edge_ends(const warpmatch_graph *g, uint32_t *u, uint32_t *v) {
  if (!g || !u || !v) return;
  const wm_graph *x = g->g;
  const int directed = (x->flags & WM_GRAPH_DIRECTED) != 0;
  uint64_t i = 0;
  for (uint32_t a = 0; a < x->n; a++)
    for (uint64_t e = x->offsets[a]; e < x->offsets[a + 1]; e++)
      if (directed || x->adj[e] > a) u[i] = a, v[i] = x->adj[e], i++;
}

uint64_t warpmatch_graph_id(const warpmatch_graph *g, uint32_t v) {
  return g && v < g->g->n ? wm_graph_file_id(g->g, v) : 0;
}

int warpmatch_graph_find(const warpmatch_graph *g, uint64_t id, uint32_t *v) {
  if (!g) return 0;
  uint32_t x = wm_graph_internal_id(g->g, id);
  if (x == WM_NO_VERTEX) return 0;
  if (v) *v = x;
  return 1;
}

uint64_t warpmatch_graph_degree(const warpmatch_graph *g, uint32_t v) {
  return g && v < g->g->n ? wm_degree(g->g, v) : 0;
}

int warpmatch_graph_read_labels(warpmatch_context *ctx, const warpmatch_graph *g, const char *path, int32_t *labels) {
  static const char who[] = "warpmatch_graph_read_labels";
  if (!ctx) return WARPMATCH_EUSAGE;
  if (!g) return wm_api_null(ctx, who, "g");
  if (!path) return wm_api_null(ctx, who, "path");
  if (!labels && g->g->n) return wm_api_null(ctx, who, "labels");
  int32_t *read = NULL;
  wm_error err;
  int rc = wm_read_labels(path, g->g, &read, &err);
  if (rc) return wm_api_status(ctx, rc, &err);
  if (g->g->n) memcpy(labels, read, (size_t)g->g->n * sizeof *labels);
  free(read);
  return WARPMATCH_OK;
}

int warpmatch_graph_degree_stats(warpmatch_context *ctx, const warpmatch_graph *g, warpmatch_degree_stats *out) {
  static const char who[] = "warpmatch_graph_degree_stats";
  if (!ctx) return WARPMATCH_EUSAGE;
  if (!g) return wm_api_null(ctx, who, "g");
  if (!out) return wm_api_null(ctx, who, "out");
  wm_degree_stats st;
  wm_graph_degree_stats(g->g, &st);
  warpmatch_degree_stats mine = {
      .size = sizeof mine,
      .max_degree = st.max_degree,
      .min_degree = st.min_degree,
      .median_degree = st.median_degree,
      .p99_degree = st.p99_degree,
      .mean_degree = st.mean_degree,
      .isolated = st.isolated,
      .arcs = st.degree_sum,
  };
  return wm_api_struct_out(ctx, who, out, &mine, sizeof mine);
}

/* ---- rewriting and saving ------------------------------------------- */

unsigned warpmatch_graph_flags(const warpmatch_graph *g) {
  _Static_assert(WARPMATCH_GRAPH_DIRECTED == (int)WM_GRAPH_DIRECTED &&
                     WARPMATCH_GRAPH_RELABELLED == (int)WM_GRAPH_DEGREE_SORTED &&
                     WARPMATCH_GRAPH_ORIENTED == (int)WM_GRAPH_ORIENTED,
                 "the API's graph flags are the modules'");
  return g ? g->g->flags & (WM_GRAPH_DIRECTED | WM_GRAPH_DEGREE_SORTED | WM_GRAPH_ORIENTED) : 0;
}

/* One rewrite (relabel or orient) of *g into a new graph, which replaces
 * *g, destroying it when it was an earlier step's (*owned). */
typedef int (*rewrite_fn)(const wm_graph *g, wm_graph **out, wm_error *err);
static int rewrite_step(rewrite_fn fn, const wm_graph **g, int *owned, wm_error *err) {
  wm_graph *next = NULL;
  int rc = fn(*g, &next, err);
  if (rc) return rc;
  if (*owned) wm_graph_destroy((wm_graph *)*g);
  *g = next;
  *owned = 1;
  return WM_OK;
}

int warpmatch_graph_rewrite(warpmatch_context *ctx, const warpmatch_graph *g, unsigned how, warpmatch_graph **out) {
  static const char who[] = "warpmatch_graph_rewrite";
  const unsigned known = WARPMATCH_REWRITE_RELABEL_DEGREE | WARPMATCH_REWRITE_ORIENT;
  if (!ctx) return WARPMATCH_EUSAGE;
  if (!out) return wm_api_null(ctx, who, "out");
  *out = NULL;
  if (!g) return wm_api_null(ctx, who, "g");
  if (!how || (how & ~known))
    return wm_api_fail(ctx, WARPMATCH_EUSAGE,
                       "%s: how 0x%x: expected WARPMATCH_REWRITE_RELABEL_DEGREE and/or WARPMATCH_REWRITE_ORIENT (0x%x)",
                       who, how, known);
  const wm_graph *cur = g->g;
  int owned = 0, rc = WM_OK;
  wm_error err;
  wm_api_threads t;
  wm_api_threads_enter(ctx, &t);
  if (how & WARPMATCH_REWRITE_RELABEL_DEGREE)
    rc = rewrite_step(wm_graph_relabel_by_degree, &cur, &owned, &err);
  if (!rc && (how & WARPMATCH_REWRITE_ORIENT))
    rc = rewrite_step(wm_graph_orient_by_degree, &cur, &owned, &err);
  wm_api_threads_leave(&t);
  if (rc) {
    if (owned) wm_graph_destroy((wm_graph *)cur);
    return wm_api_status(ctx, rc, &err);
  }
  return wm_api_graph_wrap(ctx, who, (wm_graph *)cur, out);
}

int warpmatch_graph_save(warpmatch_context *ctx, const warpmatch_graph *g, const char *path) {
  static const char who[] = "warpmatch_graph_save";
  if (!ctx) return WARPMATCH_EUSAGE;
  if (!g) return wm_api_null(ctx, who, "g");
  if (!path) return wm_api_null(ctx, who, "path");
  wm_error err;
  int rc = wm_write_wmg(g->g, path, 0, &err); /* 0: no cache key, a plain conversion */
  return wm_api_status(ctx, rc, &err);
}

/* ---- built on first use --------------------------------------------- */

/* The handle is const to the caller (queries do not change the graph);
 * these members are a cache behind the lock. */
static warpmatch_graph *cache_of(const warpmatch_graph *g) { return (warpmatch_graph *)g; }

/* Under the lock: the renumbered copy (relabel) and the statistics of the
 * graph matched on (stats), whichever is missing. */
static int build(warpmatch_graph *h, int relabel, int stats, int *which, double *relabel_s, double *stats_s,
                 wm_error *err) {
  if (relabel && !h->sorted_ready) {
    double t0 = wm_now();
    int rc = wm_match_graph_by_degree(h->g, &h->sorted, &h->old_of, err);
    if (rc) return rc;
    if (h->sorted) h->sorted->index_of = h->old_of; /* messages name the caller's indices */
    h->sorted_ready = 1;
    *relabel_s += wm_now() - t0;
  }
  *which = relabel && h->sorted ? 1 : 0;
  if (stats && !h->summary_ready[*which]) {
    double t0 = wm_now();
    wm_graph_summary_compute(*which ? h->sorted : h->g, &h->summary[*which]);
    h->summary_ready[*which] = 1;
    *stats_s += wm_now() - t0;
  }
  return WM_OK;
}

int wm_api_matching_of(warpmatch_context *ctx, const warpmatch_graph *g, int relabel, int stats, wm_api_matching *m,
                       double *relabel_s, double *stats_s) {
  warpmatch_graph *h = cache_of(g);
  wm_error err;
  double ignored[2] = {0, 0};
  int which = 0;
  pthread_mutex_lock(&h->lock);
  int rc = build(h, relabel, stats, &which, relabel_s ? relabel_s : &ignored[0], stats_s ? stats_s : &ignored[1], &err);
  pthread_mutex_unlock(&h->lock);
  if (rc) return wm_api_status(ctx, rc, &err);
  m->g = which ? h->sorted : h->g;
  m->old_of = which ? h->old_of : NULL;
  m->summary = stats ? &h->summary[which] : NULL;
  return WARPMATCH_OK;
}

int wm_api_transpose_of(warpmatch_context *ctx, const warpmatch_graph *g, const wm_graph **t) {
  warpmatch_graph *h = cache_of(g);
  wm_error err;
  int rc = WM_OK;
  *t = NULL;
  if (!(h->g->flags & WM_GRAPH_DIRECTED)) return WARPMATCH_OK;
  pthread_mutex_lock(&h->lock);
  if (!h->transpose) rc = wm_graph_transpose(h->g, &h->transpose, &err);
  *t = h->transpose;
  pthread_mutex_unlock(&h->lock);
  return wm_api_status(ctx, rc, &err);
}
