/* warpmatch_bfs, warpmatch_reach and warpmatch_bfs_ex, on the graph's own
 * numbering.  The GPU search keeps the graph on the device in the context
 * (wm_bfs_gpu_ctx) while the same graph is searched. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "traversal.h"

void warpmatch_bfs_options_init(warpmatch_bfs_options *o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->size = sizeof *o;
  o->device = WARPMATCH_DEVICE_AUTO;
  o->max_depth = UINT32_MAX;
  o->target = UINT32_MAX;
  o->direction_opt = 1;
  o->alpha = 0.3;
  o->edge_ratio = 14;
  o->queue_gen = o->classify = o->hub_cache = o->small_kernel = o->small_grid = o->cluster_kernel = 1;
}

static int check_vertex(warpmatch_context *ctx, const char *who, const char *what, const warpmatch_graph *g,
                        uint32_t v) {
  if (v < g->g->n) return WARPMATCH_OK;
  if (g->g->n == 0) return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: %s %u, but the graph has no vertices", who, what, v);
  return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: %s %u is outside the graph's %u vertices (0..%u)", who, what, v,
                     g->g->n, g->g->n - 1);
}

/* ---- the graph kept on the GPU ----------------------------------------- */

/* A directed graph's search context holds the transpose only when made
 * for direction-optimising searches, so it serves top-down ones too but
 * not the other way round. */
static int resident_fits(const warpmatch_context *ctx, const warpmatch_graph *g, const wm_bfs_options *o) {
  const int gpus = o->gpus > 1 ? o->gpus : 1;
  return ctx->bfs && ctx->bfs_serial == g->serial && ctx->bfs_gpus == gpus && ctx->bfs_made_procs == o->procs &&
         (ctx->bfs_dopt || !o->direction_opt);
}

static void drop_resident(warpmatch_context *ctx) {
  wm_bfs_gpu_destroy(ctx->bfs);
  ctx->bfs = NULL;
  ctx->bfs_serial = 0;
}

static int resident(warpmatch_context *ctx, const warpmatch_graph *g, const wm_bfs_options *o, wm_error *err) {
  if (resident_fits(ctx, g, o)) return WM_OK;
  drop_resident(ctx); /* one graph on the device at a time */
  int rc = wm_bfs_gpu_create(g->g, o, &ctx->bfs, err);
  if (rc) return rc;
  ctx->bfs_serial = g->serial;
  ctx->bfs_gpus = o->gpus > 1 ? o->gpus : 1;
  ctx->bfs_dopt = o->direction_opt;
  ctx->bfs_made_procs = o->procs;
  return WM_OK;
}

/* One search with o's limits and parents. */
static int search(warpmatch_context *ctx, const warpmatch_graph *g, const uint32_t *sources, uint32_t n,
                  int use_gpu, wm_bfs_options *o, wm_bfs_result *r) {
  o->threads = ctx->threads;
  if (!use_gpu) o->gpus = 0;
  o->procs = use_gpu ? ctx->bfs_procs : NULL; /* the program's ranks split GPU searches only */
  memset(r, 0, sizeof *r);
  wm_error err;
  int rc;
  if (!use_gpu) {
    rc = wm_api_transpose_of(ctx, g, &o->transpose); /* directed: kept for later searches */
    return rc ? rc : wm_api_status(ctx, wm_bfs_cpu(g->g, sources, n, o, r, &err), &err);
  }
  rc = resident(ctx, g, o, &err);
  if (!rc) rc = wm_bfs_gpu_run(ctx->bfs, sources, n, o, r, &err);
  if (rc && rc != WM_EUSAGE) drop_resident(ctx); /* a device error may leave it unusable */
  return wm_api_status(ctx, rc, &err);
}

static int copy_out(warpmatch_context *ctx, const char *who, const wm_bfs_result *r, uint32_t n, int32_t *levels,
                    uint32_t *parents) {
  if (levels && r->depth > (uint32_t)INT32_MAX + 1u) /* levels are int32: never cut one short */
    return wm_api_fail(ctx, WARPMATCH_EINPUT, "%s: %u levels do not fit int32 levels", who, r->depth);
  for (uint32_t v = 0; levels && v < n; v++) levels[v] = r->level[v] == WM_UNREACHED ? -1 : (int32_t)r->level[v];
  if (parents) memcpy(parents, r->parent, (size_t)n * sizeof *parents); /* WM_UNREACHED is UINT32_MAX */
  return WARPMATCH_OK;
}

static void stats_of(const wm_bfs_result *r, int use_gpu, warpmatch_bfs_stats *s) {
  memset(s, 0, sizeof *s);
  s->size = sizeof *s;
  s->bfs.reached = (uint32_t)r->reached;
  s->bfs.depth = r->depth;
  s->bfs.ms = r->seconds * 1e3;
  s->bfs.device = use_gpu ? WARPMATCH_DEVICE_GPU : WARPMATCH_DEVICE_CPU;
  s->edges_traversed = r->edges_traversed;
  s->teps_edges = r->teps_edges;
  s->bottom_up_levels = r->bottom_up_levels;
  s->truncated = r->truncated;
  s->kernel_ms = r->kernel_ms;
}

int wm_api_bfs_out(warpmatch_context *ctx, const char *who, const wm_bfs_result *r, uint32_t n, int use_gpu,
                   int32_t *levels, uint32_t *parents, warpmatch_bfs_stats *stats) {
  int rc = copy_out(ctx, who, r, n, levels, parents);
  if (!rc && stats) stats_of(r, use_gpu, stats);
  return rc;
}

int wm_api_bfs_options(warpmatch_context *ctx, const char *who, const warpmatch_graph *g,
                       const warpmatch_bfs_options *in, wm_bfs_options *o, int *use_gpu) {
  warpmatch_bfs_options x;
  warpmatch_bfs_options_init(&x);
  int rc = in ? wm_api_struct_in(ctx, who, &x, sizeof x, in) : WARPMATCH_OK;
  if (rc) return rc;
  if (x.target != UINT32_MAX && (rc = check_vertex(ctx, who, "target", g, x.target))) return rc;
  if (!(x.alpha >= 0 && x.alpha <= 1))
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: alpha %g; expected a share from 0 to 1", who, x.alpha);
  if (!(x.edge_ratio >= 0 && x.edge_ratio <= 1e6))
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: edge_ratio %g; expected 0 to 1e6", who, x.edge_ratio);
  if (x.gpus < 0 || x.gpus > WARPMATCH_MAX_GPUS)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: %d GPUs; give 1 to %d, or 0 for the context's", who, x.gpus,
                       WARPMATCH_MAX_GPUS);
  wm_bfs_options_init(o);
  o->max_depth = x.max_depth;
  o->target = x.target == UINT32_MAX ? WM_NO_VERTEX : x.target;
  o->direction_opt = x.direction_opt != 0;
  o->alpha = x.alpha;
  o->edge_ratio = x.edge_ratio;
  o->queue_gen = x.queue_gen != 0;
  o->classify = x.classify != 0;
  o->hub_cache = x.hub_cache != 0;
  o->small_kernel = x.small_kernel != 0;
  o->small_grid = x.small_grid != 0;
  o->cluster_kernel = x.cluster_kernel != 0;
  o->gpus = x.gpus ? x.gpus : ctx->gpus;
  return wm_api_use_gpu(ctx, who, x.device, use_gpu);
}

static int bfs(warpmatch_context *ctx, const char *who, const warpmatch_graph *g, const uint32_t *sources, uint32_t n,
               int use_gpu, wm_bfs_options *o, int32_t *levels, uint32_t *parents, warpmatch_bfs_stats *out) {
  for (uint32_t i = 0; i < n; i++) {
    int rc = check_vertex(ctx, who, "source", g, sources[i]);
    if (rc) return rc;
  }
  if (n == 0) return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: no source vertex given", who);
  o->want_parents = parents != NULL;
  wm_bfs_result r;
  wm_api_threads t;
  wm_api_threads_enter(ctx, &t);
  int rc = search(ctx, g, sources, n, use_gpu, o, &r);
  wm_api_threads_leave(&t);
  if (rc) return rc;
  rc = wm_api_bfs_out(ctx, who, &r, g->g->n, use_gpu, levels, parents, out);
  wm_bfs_result_free(&r);
  return rc;
}

int warpmatch_bfs_ex(warpmatch_context *ctx, const warpmatch_graph *g, const uint32_t *sources, uint32_t n,
                     const warpmatch_bfs_options *opt, int32_t *levels, uint32_t *parents, warpmatch_bfs_stats *out) {
  static const char who[] = "warpmatch_bfs_ex";
  if (!ctx) return WARPMATCH_EUSAGE;
  if (!g) return wm_api_null(ctx, who, "g");
  if (!sources && n) return wm_api_null(ctx, who, "sources");
  wm_bfs_options o;
  warpmatch_bfs_stats s;
  memset(&s, 0, sizeof s);
  s.size = sizeof s;
  int use_gpu = 0;
  int rc = wm_api_bfs_options(ctx, who, g, opt, &o, &use_gpu);
  if (!rc) rc = bfs(ctx, who, g, sources, n, use_gpu, &o, levels, parents, &s);
  int out_rc = out ? wm_api_struct_out(ctx, who, out, &s, sizeof s) : WARPMATCH_OK;
  return rc ? rc : out_rc;
}

int warpmatch_bfs(warpmatch_context *ctx, const warpmatch_graph *g, uint32_t source, int device, int32_t *levels,
                  uint32_t *parents, warpmatch_bfs_result *out) {
  static const char who[] = "warpmatch_bfs";
  if (!ctx) return WARPMATCH_EUSAGE;
  if (out) memset(out, 0, sizeof *out);
  if (!g) return wm_api_null(ctx, who, "g");
  warpmatch_bfs_options opt;
  warpmatch_bfs_options_init(&opt);
  opt.device = device;
  wm_bfs_options o;
  warpmatch_bfs_stats s;
  int use_gpu = 0;
  int rc = check_vertex(ctx, who, "source", g, source);
  if (!rc) rc = wm_api_bfs_options(ctx, who, g, &opt, &o, &use_gpu);
  if (!rc) rc = bfs(ctx, who, g, &source, 1, use_gpu, &o, levels, parents, &s);
  if (!rc && out) *out = s.bfs;
  return rc;
}

int warpmatch_reach(warpmatch_context *ctx, const warpmatch_graph *g, uint32_t from, uint32_t to, int device,
                    int64_t *hops) {
  static const char who[] = "warpmatch_reach";
  if (!ctx) return WARPMATCH_EUSAGE;
  if (!g) return wm_api_null(ctx, who, "g");
  if (!hops) return wm_api_null(ctx, who, "hops");
  *hops = -1;
  int rc = check_vertex(ctx, who, "from", g, from);
  if (!rc) rc = check_vertex(ctx, who, "to", g, to);
  if (rc) return rc;
  warpmatch_bfs_options opt;
  warpmatch_bfs_options_init(&opt);
  opt.device = device;
  opt.target = to; /* the search ends with the level that reaches `to`: its level is exact */
  wm_bfs_options o;
  int use_gpu = 0;
  if ((rc = wm_api_bfs_options(ctx, who, g, &opt, &o, &use_gpu))) return rc;
  wm_bfs_result r;
  wm_api_threads t;
  wm_api_threads_enter(ctx, &t);
  rc = search(ctx, g, &from, 1, use_gpu, &o, &r);
  wm_api_threads_leave(&t);
  if (rc) return rc;
  if (r.level[to] != WM_UNREACHED) *hops = r.level[to];
  wm_bfs_result_free(&r);
  return WARPMATCH_OK;
}

int warpmatch_bfs_validate(warpmatch_context *ctx, const warpmatch_graph *g, const uint32_t *sources, uint32_t n,
                           const int32_t *levels, const uint32_t *parents, const warpmatch_bfs_stats *stats) {
  static const char who[] = "warpmatch_bfs_validate";
  if (!ctx) return WARPMATCH_EUSAGE;
  if (!g) return wm_api_null(ctx, who, "g");
  if (!sources && n) return wm_api_null(ctx, who, "sources");
  if (!levels) return wm_api_null(ctx, who, "levels");
  if (!stats) return wm_api_null(ctx, who, "stats");
  warpmatch_bfs_stats st; /* the caller's, as many bytes as its size says */
  memset(&st, 0, sizeof st);
  int rc = wm_api_struct_in(ctx, who, &st, sizeof st, stats);
  if (rc) return rc;
  const uint32_t nv = g->g->n;
  wm_bfs_result r;
  memset(&r, 0, sizeof r);
  r.level = malloc((nv ? nv : 1) * sizeof *r.level);
  if (!r.level) return wm_api_fail(ctx, WARPMATCH_EINPUT, "%s: out of memory", who);
  for (uint32_t v = 0; v < nv; v++) r.level[v] = levels[v] < 0 ? WM_UNREACHED : (uint32_t)levels[v];
  r.parent = (uint32_t *)parents; /* read only */
  r.depth = st.bfs.depth;
  r.reached = st.bfs.reached;
  r.truncated = st.truncated;
  wm_error err;
  rc = wm_bfs_validate(g->g, sources, n, &r, &err);
  free(r.level);
  return wm_api_status(ctx, rc, &err);
}

const char *warpmatch_bfs_describe(const warpmatch_context *ctx) {
  return ctx && ctx->bfs ? wm_bfs_gpu_describe(ctx->bfs) : "";
}

int warpmatch_gpu_bandwidth(warpmatch_context *ctx, double *gbps) {
  static const char who[] = "warpmatch_gpu_bandwidth";
  if (!ctx) return WARPMATCH_EUSAGE;
  if (!gbps) return wm_api_null(ctx, who, "gbps");
  wm_error err;
  return wm_api_status(ctx, wm_gpu_bandwidth_probe(gbps, &err), &err);
}
