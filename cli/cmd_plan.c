/* warpmatch plan: prints the plan chosen for a pattern without running it,
 * tuned to a graph's statistics when --graph is given. */
#include <stdio.h>

#include "cli.h"
#include "planner.h"

static const wm_optspec spec[] = {
    {"pattern", "NAME|FILE", "pattern: a catalogue name (triangle, 4-clique, ...) or a pattern file"},
    {"graph", "GRAPH", "tune the matching order to this graph's statistics"},
    {"induced", NULL, "vertex-induced semantics (default: edge-induced)"},
    {"embeddings", NULL, "count embeddings: no symmetry breaking"},
    {"no-code-motion", NULL, "compute every set at its own level (no hoisting, no sharing)"},
    {"no-pair-count", NULL, "iterate the last two positions, not count them as pairs of one set"},
    {"list", NULL, "plan for listing matches (no count-only last level)"},
    {"gpu", NULL, "the GPU's plan (an interchangeable first edge bounded v1 > v0)"},
    WM_GRAPH_OPTSPEC,
    {NULL, NULL, NULL},
};

static int summarise_graph(const wm_cli *cli, wm_graph_summary *gs, wm_error *err) {
  const char *path = wm_cli_str(cli, "graph");
  if (!path) {
    wm_graph_summary_default(gs);
    return WM_OK;
  }
  wm_graph *g = NULL;
  int rc = wm_cli_load_graph(cli, path, &g, NULL, err);
  if (rc) return rc;
  wm_graph_summary_compute(g, gs);
  wm_graph_destroy(g);
  return WM_OK;
}

static void print_json(const wm_plan *plan, const wm_graph_summary *gs, double seconds) {
  wm_json j;
  wm_json_begin(&j, stdout);
  wm_plan_dump_json(plan, &j);
  wm_graph_summary_dump_json(gs, &j);
  wm_json_double(&j, "plan_seconds", seconds);
  wm_json_end(&j);
}

int wm_cmd_plan(int argc, char **argv) {
  wm_cli cli;
  wm_error err;
  wm_error_clear(&err);
  if (wm_cli_parse(&cli, "plan", "--pattern P [options]",
                   "Print the plan (matching order, restrictions, set operations) for a pattern",
                   spec, 0, 0, argc, argv, &err))
    return wm_cli_report(&err);
  if (cli.help) return WM_OK;
  const char *name = wm_cli_str(&cli, "pattern");
  if (!name) {
    wm_fail(&err, WM_EUSAGE, "plan: --pattern NAME|FILE is required");
    return wm_cli_report(&err);
  }
  wm_pattern pat;
  wm_graph_summary gs;
  if (wm_pattern_resolve(name, &pat, &err) || summarise_graph(&cli, &gs, &err))
    return wm_cli_report(&err);
  wm_plan_options po;
  wm_plan_options_init(&po);
  po.induced = wm_cli_flag(&cli, "induced");
  po.embeddings = wm_cli_flag(&cli, "embeddings");
  po.code_motion = !wm_cli_flag(&cli, "no-code-motion");
  po.pair_count = !wm_cli_flag(&cli, "no-pair-count");
  po.count_only = !wm_cli_flag(&cli, "list");
  po.first_edge_up = wm_cli_flag(&cli, "gpu");
  wm_plan plan;
  double t0 = wm_now();
  if (wm_plan_build(&pat, &gs, &po, &plan, &err)) return wm_cli_report(&err);
  double seconds = wm_now() - t0;
  if (cli.json) {
    print_json(&plan, &gs, seconds);
    return WM_OK;
  }
  wm_plan_dump_text(&plan, stdout);
  printf("\n");
  wm_graph_summary_dump_text(&gs, stdout);
  printf("planned in %.3f ms\n", seconds * 1e3);
  return WM_OK;
}
