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
static int preprocess(const wm_cli *cli, warpmatch_context *ctx, warpmatch_graph **g, wm_error *err) {
  unsigned how = (wm_cli_flag(cli, "relabel-degree") ? WARPMATCH_REWRITE_RELABEL_DEGREE : 0) |
                 (wm_cli_flag(cli, "orient") ? WARPMATCH_REWRITE_ORIENT : 0);
  if (!how) return WM_OK;
  warpmatch_graph *h = NULL;
  int rc = wm_cli_api(ctx, warpmatch_graph_rewrite(ctx, *g, how, &h), err);
  if (rc) return rc;
  warpmatch_graph_destroy(*g);
  *g = h;
  return WM_OK;
}

static void print_summary(const wm_cli *cli, const char *out, const warpmatch_graph *g, double load_s,
                          double write_s) {
  const unsigned flags = warpmatch_graph_flags(g);
  if (cli->json) {
    wm_json j;
    wm_json_begin(&j, stdout);
    wm_json_str(&j, "output", out);
    wm_json_u64(&j, "vertices", warpmatch_graph_vertices(g));
    wm_json_u64(&j, "edges", warpmatch_graph_edges(g));
    wm_json_bool(&j, "directed", (flags & WARPMATCH_GRAPH_DIRECTED) != 0);
    wm_json_bool(&j, "relabelled", (flags & WARPMATCH_GRAPH_RELABELLED) != 0);
    wm_json_bool(&j, "oriented", (flags & WARPMATCH_GRAPH_ORIENTED) != 0);
    wm_json_double(&j, "load_seconds", load_s);
    wm_json_double(&j, "write_seconds", write_s);
    wm_json_double(&j, "seconds", load_s + write_s);
    wm_json_end(&j);
  } else {
    printf("wrote %s: %lu vertices, %llu edges%s%s (load %.3f s, write %.3f s)\n", out,
           (unsigned long)warpmatch_graph_vertices(g), (unsigned long long)warpmatch_graph_edges(g),
           (flags & WARPMATCH_GRAPH_RELABELLED) ? ", relabelled by degree" : "",
           (flags & WARPMATCH_GRAPH_ORIENTED) ? ", oriented" : "", load_s, write_s);
  }
}

int wm_cmd_convert(int argc, char **argv) {
  wm_cli cli;
  wm_error err;
  if (wm_cli_parse(&cli, "convert", "IN OUT.wmg [options]", "Convert a graph to the binary .wmg format",
                   spec, 2, 2, argc, argv, &err))
    return wm_cli_report(&err);
  if (cli.help) return WM_OK;
  const char *in = cli.positional[0], *out = cli.positional[1];
  warpmatch_context *ctx = NULL;
  warpmatch_graph *g = NULL;
  warpmatch_load_info info;
  int rc = wm_cli_context(&cli, &ctx, &err);
  if (!rc) rc = wm_cli_open_graph(&cli, ctx, in, &g, &info, &err);
  double t0 = wm_now(), write_s = 0;
  if (!rc) rc = preprocess(&cli, ctx, &g, &err);
  if (!rc) rc = wm_cli_api(ctx, warpmatch_graph_save(ctx, g, out), &err);
  write_s = wm_now() - t0;
  if (!rc) print_summary(&cli, out, g, info.seconds, write_s);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
  return rc ? wm_cli_report(&err) : WM_OK;
}
