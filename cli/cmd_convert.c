/* warpmatch convert IN OUT.wmg: any supported graph to the binary format,
 * optionally relabelled by degree and/or oriented.  The output appears
 * whole or not at all (written under a temporary name, then renamed). */
#include <stdio.h>

#include "cli.h"

static const wm_optspec spec[] = {
    WM_GRAPH_OPTSPEC,
    {"relabel-degree", NULL, "renumber vertices by descending degree (file ids are kept for output)"},
    {"orient", NULL, "keep each edge once, from lower to higher (degree, id): a DAG (info and bfs read it; count, list\nand motifs need the symmetric graph)"},
    {NULL, NULL, NULL},
};

/* Applies the requested rewrites, replacing *g. */
static int preprocess(const wm_cli *cli, wm_graph **g, wm_error *err) {
  wm_graph *h = NULL;
  int rc;
  if (wm_cli_flag(cli, "relabel-degree")) {
    if ((rc = wm_graph_relabel_by_degree(*g, &h, err))) return rc;
    wm_graph_destroy(*g);
    *g = h;
  }
  if (wm_cli_flag(cli, "orient")) {
    if ((rc = wm_graph_orient_by_degree(*g, &h, err))) return rc;
    wm_graph_destroy(*g);
    *g = h;
  }
  return WM_OK;
}

int wm_cmd_convert(int argc, char **argv) {
  wm_cli cli;
  wm_error err;
  if (wm_cli_parse(&cli, "convert", "IN OUT.wmg [options]", "Convert a graph to the binary .wmg format",
                   spec, 2, 2, argc, argv, &err))
    return wm_cli_report(&err);
  if (cli.help) return WM_OK;
  const char *in = cli.positional[0], *out = cli.positional[1];
  wm_graph *g = NULL;
  wm_load_info info;
  if (wm_cli_load_graph(&cli, in, &g, &info, &err)) return wm_cli_report(&err);
  double t0 = wm_now();
  int rc = preprocess(&cli, &g, &err);
  if (!rc) rc = wm_write_wmg(g, out, 0, &err);
  double write_s = wm_now() - t0;
  if (rc) {
    wm_graph_destroy(g);
    return wm_cli_report(&err);
  }
  if (cli.json) {
    wm_json j;
    wm_json_begin(&j, stdout);
    wm_json_str(&j, "output", out);
    wm_json_u64(&j, "vertices", g->n);
    wm_json_u64(&j, "edges", wm_graph_edges(g));
    wm_json_bool(&j, "directed", (g->flags & WM_GRAPH_DIRECTED) != 0);
    wm_json_bool(&j, "relabelled", (g->flags & WM_GRAPH_DEGREE_SORTED) != 0);
    wm_json_bool(&j, "oriented", (g->flags & WM_GRAPH_ORIENTED) != 0);
    wm_json_double(&j, "load_seconds", info.seconds);
    wm_json_double(&j, "write_seconds", write_s);
    wm_json_double(&j, "seconds", info.seconds + write_s);
    wm_json_end(&j);
  } else {
    printf("wrote %s: %lu vertices, %llu edges%s%s (load %.3f s, write %.3f s)\n", out, (unsigned long)g->n,
           (unsigned long long)wm_graph_edges(g), (g->flags & WM_GRAPH_DEGREE_SORTED) ? ", relabelled by degree" : "",
           (g->flags & WM_GRAPH_ORIENTED) ? ", oriented" : "", info.seconds, write_s);
  }
  wm_graph_destroy(g);
  return WM_OK;
}
