/* warpmatch reach: is W reachable from V, and in how many hops.  A BFS from
 * V that stops at the end of the level on which W is found (levels stay
 * exact, so the hop count is the shortest distance); --path prints one
 * shortest path from the BFS tree. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "traversal.h"

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
static uint32_t *shortest_path(const wm_bfs_result *r, uint32_t w, uint32_t hops) {
  uint32_t *p = malloc(((size_t)hops + 1) * sizeof *p);
  if (!p) return NULL;
  for (uint32_t i = hops + 1, v = w; i-- > 0; v = r->parent[v]) p[i] = v;
  return p;
}

/* Without W, a search that --max-hops stopped early has not settled the
 * question: W may lie further away, so the answer says "not within H hops"
 * (JSON: "complete": false) rather than a plain no. */
static void print_result(const wm_cli *cli, const wm_graph *g, uint32_t from, uint32_t to, int use_gpu,
                         const wm_bfs_result *r, const uint32_t *path, uint32_t max_hops) {
  int yes = r->level[to] != WM_UNREACHED, complete = yes || !r->truncated;
  uint32_t hops = r->level[to];
  if (cli->json) {
    wm_json j;
    wm_json_begin(&j, stdout);
    wm_json_u64(&j, "from", wm_graph_file_id(g, from));
    wm_json_u64(&j, "to", wm_graph_file_id(g, to));
    wm_json_bool(&j, "reachable", yes);
    wm_json_bool(&j, "complete", complete);
    if (max_hops != UINT32_MAX) wm_json_u64(&j, "max_hops", max_hops);
    if (yes)
      wm_json_u64(&j, "hops", hops);
    else
      wm_json_null(&j, "hops");
    if (path) {
      wm_json_array(&j, "path");
      for (uint32_t i = 0; i <= hops; i++) wm_json_u64(&j, NULL, wm_graph_file_id(g, path[i]));
      wm_json_close(&j);
    }
    wm_json_u64(&j, "visited", r->reached);
    wm_json_str(&j, "device", use_gpu ? "gpu" : "cpu");
    wm_json_double(&j, "seconds", r->seconds);
    wm_json_end(&j);
    return;
  }
  printf("from       %u\nto         %u\n", wm_graph_file_id(g, from), wm_graph_file_id(g, to));
  if (complete)
    printf("reachable  %s\n", yes ? "yes" : "no");
  else
    printf("reachable  not within %u hop%s (--max-hops; it may be further)\n", max_hops, max_hops == 1 ? "" : "s");
  if (yes) printf("hops       %u\n", hops);
  if (path) {
    printf("path      ");
    for (uint32_t i = 0; i <= hops; i++) printf(" %u", wm_graph_file_id(g, path[i]));
    printf("\n");
  }
  printf("visited    %llu vertices on %u levels\n", (unsigned long long)r->reached, r->depth);
  printf("time       %.3f ms (%s)\n", r->seconds * 1e3, use_gpu ? "gpu" : "cpu");
}

static int reach(const wm_cli *cli, wm_graph **gp, wm_error *err) {
  int use_gpu = 0, rc;
  uint64_t threads, maxh;
  if (!wm_cli_str(cli, "from") || !wm_cli_str(cli, "to"))
    return wm_fail(err, WM_EUSAGE, "reach: --from V and --to W are both required");
  if ((rc = wm_cli_u64(cli, "threads", 0, 0, 4096, &threads, err)) ||
      (rc = wm_cli_u64(cli, "max-hops", UINT32_MAX, 0, UINT32_MAX, &maxh, err)) ||
      (rc = wm_cli_use_gpu(cli, &use_gpu, err)) ||
      (rc = wm_cli_load_graph(cli, cli->positional[0], gp, NULL, err)))
    return rc;
  const wm_graph *g = *gp;
  uint32_t from, to;
  if ((rc = wm_cli_vertex(cli, g, "from", &from, err)) || (rc = wm_cli_vertex(cli, g, "to", &to, err))) return rc;
  wm_bfs_options o;
  wm_bfs_options_init(&o);
  o.threads = (int)threads;
  o.max_depth = (uint32_t)maxh;
  o.target = to;
  o.want_parents = wm_cli_flag(cli, "path");
  wm_bfs_result r;
  rc = use_gpu ? wm_bfs_gpu(g, &from, 1, &o, &r, err) : wm_bfs_cpu(g, &from, 1, &o, &r, err);
  if (rc) return rc;
  uint32_t *path = NULL;
  if (o.want_parents && r.level[to] != WM_UNREACHED && !(path = shortest_path(&r, to, r.level[to]))) {
    wm_bfs_result_free(&r);
    return wm_fail(err, WM_EINPUT, "reach: out of memory");
  }
  print_result(cli, g, from, to, use_gpu, &r, path, (uint32_t)maxh);
  free(path);
  wm_bfs_result_free(&r);
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
  wm_graph *g = NULL;
  int rc = reach(&cli, &g, &err);
  wm_graph_destroy(g);
  return rc ? wm_cli_report(&err) : WM_OK;
}
