/* warpmatch reach: is W reachable from V, and in how many hops.  A BFS from
 * V that stops at the end of the level on which W is found (levels stay
 * exact, so the hop count is the shortest distance); --path prints one
 * shortest path from the BFS tree. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const wm_optspec spec[] = {
    WM_GRAPH_OPTSPEC,
    {"from", "V", "start vertex (the file's id; required)"},
    {"to", "W", "vertex to reach (the file's id; required)"},
    {"path", NULL, "also print one shortest path"},
    {"max-hops", "H", "give up beyond H hops"},
    WM_BFS_DEVICE_OPTSPEC,
    {"threads", "N", "CPU threads (default: all)"},
    {NULL, NULL, NULL},
};

/* One shortest path V .. W from the parents (hops + 1 vertices). */
static uint32_t *shortest_path(const uint32_t *parent, uint32_t w, uint32_t hops) {
  uint32_t *p = malloc(((size_t)hops + 1) * sizeof *p);
  if (!p) return NULL;
  for (uint32_t i = hops + 1, v = w; i-- > 0; v = parent[v]) p[i] = v;
  return p;
}

typedef struct answer {
  uint32_t from, to, max_hops;
  int use_gpu;
  int32_t hops;   /* -1: not reached */
  uint32_t *path; /* --path when reached, or NULL */
  warpmatch_bfs_stats s;
} answer;

/* Without W, a search that --max-hops stopped early has not settled the
 * question: W may lie further away, so the answer says "not within H hops"
 * (JSON: "complete": false) rather than a plain no. */
static void print_result(const wm_cli *cli, const warpmatch_graph *g, const answer *a) {
  int yes = a->hops >= 0, complete = yes || !a->s.truncated;
  uint32_t hops = (uint32_t)a->hops;
  if (cli->json) {
    wm_json j;
    wm_json_begin(&j, stdout);
    wm_json_u64(&j, "from", warpmatch_graph_id(g, a->from));
    wm_json_u64(&j, "to", warpmatch_graph_id(g, a->to));
    wm_json_bool(&j, "reachable", yes);
    wm_json_bool(&j, "complete", complete);
    if (a->max_hops != UINT32_MAX) wm_json_u64(&j, "max_hops", a->max_hops);
    if (yes)
      wm_json_u64(&j, "hops", hops);
    else
      wm_json_null(&j, "hops");
    if (a->path) {
      wm_json_array(&j, "path");
      for (uint32_t i = 0; i <= hops; i++) wm_json_u64(&j, NULL, warpmatch_graph_id(g, a->path[i]));
      wm_json_close(&j);
    }
    wm_json_u64(&j, "visited", a->s.bfs.reached);
    wm_json_str(&j, "device", a->use_gpu ? "gpu" : "cpu");
    wm_json_double(&j, "seconds", a->s.bfs.ms / 1e3);
    wm_json_end(&j);
    return;
  }
  printf("from       %llu\nto         %llu\n", (unsigned long long)warpmatch_graph_id(g, a->from),
         (unsigned long long)warpmatch_graph_id(g, a->to));
  if (complete)
    printf("reachable  %s\n", yes ? "yes" : "no");
  else
    printf("reachable  not within %u hop%s (--max-hops; it may be further)\n", a->max_hops,
           a->max_hops == 1 ? "" : "s");
  if (yes) printf("hops       %u\n", hops);
  if (a->path) {
    printf("path      ");
    for (uint32_t i = 0; i <= hops; i++) printf(" %llu", (unsigned long long)warpmatch_graph_id(g, a->path[i]));
    printf("\n");
  }
  printf("visited    %llu vertices on %u levels\n", (unsigned long long)a->s.bfs.reached, a->s.bfs.depth);
  printf("time       %.3f ms (%s)\n", a->s.bfs.ms, a->use_gpu ? "gpu" : "cpu");
}

/* A search from V that stops on W's level (and at --max-hops). */
static int search(const wm_cli *cli, warpmatch_context *ctx, const warpmatch_graph *g, answer *a, wm_error *err) {
  const uint32_t n = warpmatch_graph_vertices(g);
  int32_t *levels = malloc((n ? n : 1) * sizeof *levels);
  uint32_t *parents = wm_cli_flag(cli, "path") ? malloc((n ? n : 1) * sizeof *parents) : NULL;
  if (!levels || (wm_cli_flag(cli, "path") && !parents)) {
    free(levels);
    return wm_fail(err, WM_EINPUT, "reach: out of memory");
  }
  warpmatch_bfs_options o;
  warpmatch_bfs_options_init(&o);
  o.device = a->use_gpu ? WARPMATCH_DEVICE_GPU : WARPMATCH_DEVICE_CPU;
  o.max_depth = a->max_hops;
  o.target = a->to;
  a->s.size = sizeof a->s;
  int rc = wm_cli_api(ctx, warpmatch_bfs_ex(ctx, g, &a->from, 1, &o, levels, parents, &a->s), err);
  a->hops = rc ? -1 : levels[a->to];
  if (!rc && parents && a->hops >= 0 && !(a->path = shortest_path(parents, a->to, (uint32_t)a->hops)))
    rc = wm_fail(err, WM_EINPUT, "reach: out of memory");
  free(levels);
  free(parents);
  return rc;
}

static int reach(const wm_cli *cli, warpmatch_context **ctx, warpmatch_graph **g, answer *a, wm_error *err) {
  int rc;
  uint64_t maxh;
  if (!wm_cli_str(cli, "from") || !wm_cli_str(cli, "to"))
    return wm_fail(err, WM_EUSAGE, "reach: --from V and --to W are both required");
  if ((rc = wm_cli_context(cli, ctx, err)) ||
      (rc = wm_cli_u64(cli, "max-hops", UINT32_MAX, 0, UINT32_MAX, &maxh, err)) ||
      (rc = wm_cli_use_gpu(cli, *ctx, &a->use_gpu, err)) ||
      (rc = wm_cli_open_graph(cli, *ctx, cli->positional[0], g, NULL, err)) ||
      (rc = wm_cli_vertex(cli, *g, "from", &a->from, err)) || (rc = wm_cli_vertex(cli, *g, "to", &a->to, err)))
    return rc;
  a->max_hops = (uint32_t)maxh;
  if ((rc = search(cli, *ctx, *g, a, err))) return rc;
  print_result(cli, *g, a);
  return WM_OK;
}

int wm_cmd_reach(int argc, char **argv) {
  wm_cli cli;
  wm_error err;
  wm_error_clear(&err);
  if (wm_cli_parse(&cli, "reach", "GRAPH --from V --to W [options]",
                   "Is W reachable from V, and in how many hops (the shortest distance; directed\n"
                   "graphs follow their arcs).  The search stops on the level that reaches W.\n"
                   "Exit code 0 whether or not W is reachable.",
                   spec, 1, 1, argc, argv, &err))
    return wm_cli_report(&err);
  if (cli.help) return WM_OK;
  warpmatch_context *ctx = NULL;
  warpmatch_graph *g = NULL;
  answer a = {0};
  int rc = reach(&cli, &ctx, &g, &a, &err);
  free(a.path);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
  return rc ? wm_cli_report(&err) : WM_OK;
}
