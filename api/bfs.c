/* warpmatch_bfs and warpmatch_reach, as `bfs` and `reach` search
 * (traversal/cmd_bfs.c, cmd_reach.c), on the graph's own numbering.  The
 * GPU search uploads the graph on each call (wm_bfs_gpu). */
#include <limits.h>
#include <string.h>

#include "api_internal.h"
#include "traversal.h"

static int check_vertex(warpmatch_context *ctx, const char *who, const char *what, const warpmatch_graph *g,
                        uint32_t v) {
  if (v < g->g->n) return WARPMATCH_OK;
  if (g->g->n == 0) return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: %s %u, but the graph has no vertices", who, what, v);
  return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: %s %u is outside the graph's vertices 0..%u", who, what, v,
                     g->g->n - 1);
}

/* One search from `source` with o's target and parents. */
static int search(warpmatch_context *ctx, const warpmatch_graph *g, uint32_t source, int use_gpu,
                  wm_bfs_options *o, wm_bfs_result *r) {
  o->threads = ctx->threads;
  o->gpus = use_gpu ? ctx->gpus : 0;
  wm_error err;
  int rc = WM_OK;
  if (!use_gpu) rc = wm_api_transpose_of(ctx, g, &o->transpose); /* directed: kept for later searches */
  if (rc) return rc;
  memset(r, 0, sizeof *r);
  rc = use_gpu ? wm_bfs_gpu(g->g, &source, 1, o, r, &err) : wm_bfs_cpu(g->g, &source, 1, o, r, &err);
  return wm_api_status(ctx, rc, &err);
}

static void copy_out(const wm_bfs_result *r, uint32_t n, int32_t *levels, uint32_t *parents) {
  for (uint32_t v = 0; levels && v < n; v++)
    levels[v] = r->level[v] == WM_UNREACHED ? -1 : (int32_t)r->level[v];
  if (parents) memcpy(parents, r->parent, (size_t)n * sizeof *parents); /* WM_UNREACHED is UINT32_MAX */
}

int warpmatch_bfs(warpmatch_context *ctx, const warpmatch_graph *g, uint32_t source, int device, int32_t *levels,
                  uint32_t *parents, warpmatch_bfs_result *out) {
  static const char who[] = "warpmatch_bfs";
  if (!ctx) return WARPMATCH_EUSAGE;
  if (out) memset(out, 0, sizeof *out);
  if (!g) return wm_api_null(ctx, who, "g");
  int use_gpu = 0;
  int rc = check_vertex(ctx, who, "source", g, source);
  if (!rc) rc = wm_api_use_gpu(ctx, who, device, &use_gpu);
  if (rc) return rc;
  wm_bfs_options o;
  wm_bfs_options_init(&o);
  o.want_parents = parents != NULL;
  wm_bfs_result r;
  wm_api_threads t;
  wm_api_threads_enter(ctx, &t);
  rc = search(ctx, g, source, use_gpu, &o, &r);
  wm_api_threads_leave(&t);
  if (rc) return rc;
  if (levels && r.depth > (uint32_t)INT32_MAX + 1u) { /* levels are int32: never cut one short */
    wm_bfs_result_free(&r);
    return wm_api_fail(ctx, WARPMATCH_EINPUT, "%s: %u levels do not fit int32 levels", who, r.depth);
  }
  copy_out(&r, g->g->n, levels, parents);
  if (out) {
    out->reached = (uint32_t)r.reached;
    out->depth = r.depth;
    out->ms = r.seconds * 1e3;
    out->device = use_gpu ? WARPMATCH_DEVICE_GPU : WARPMATCH_DEVICE_CPU;
  }
  wm_bfs_result_free(&r);
  return WARPMATCH_OK;
}

int warpmatch_reach(warpmatch_context *ctx, const warpmatch_graph *g, uint32_t from, uint32_t to, int device,
                    int64_t *hops) {
  static const char who[] = "warpmatch_reach";
  if (!ctx) return WARPMATCH_EUSAGE;
  if (!g) return wm_api_null(ctx, who, "g");
  if (!hops) return wm_api_null(ctx, who, "hops");
  *hops = -1;
  int use_gpu = 0;
  int rc = check_vertex(ctx, who, "from", g, from);
  if (!rc) rc = check_vertex(ctx, who, "to", g, to);
  if (!rc) rc = wm_api_use_gpu(ctx, who, device, &use_gpu);
  if (rc) return rc;
  wm_bfs_options o;
  wm_bfs_options_init(&o);
  o.target = to; /* the search ends with the level that reaches `to`: its level is exact */
  wm_bfs_result r;
  wm_api_threads t;
  wm_api_threads_enter(ctx, &t);
  rc = search(ctx, g, from, use_gpu, &o, &r);
  wm_api_threads_leave(&t);
  if (rc) return rc;
  if (r.level[to] != WM_UNREACHED) *hops = r.level[to];
  wm_bfs_result_free(&r);
  return WARPMATCH_OK;
}
