/* warpmatch plan: prints the plan chosen for a pattern without running it,
 * tuned to a graph's statistics when --graph is given. */
#include <stdio.h>
#include <stdlib.h>

#include "match_cli.h"

static const wm_optspec spec[] = {
    {"pattern", "NAME|FILE", "pattern: a catalogue name (triangle, 4-clique, ...) or a pattern file"},
    {"graph", "GRAPH", "tune the matching order to this graph's statistics"},
    {"induced", NULL, "vertex-induced semantics (default: edge-induced)"},
    {"embeddings", NULL, "count embeddings: no symmetry breaking"},
    {"no-code-motion", NULL, "compute every set at its own level (no hoisting, no sharing)"},
    {"no-pair-count", NULL, "iterate the last two positions, not count them as pairs of one set"},
    WM_ORDER_OPTSPEC,
    {"list", NULL, "plan for listing matches (no count-only last level)"},
    {"gpu", NULL, "the GPU's plan (an interchangeable first edge bounded v1 > v0)"},
    WM_GRAPH_OPTSPEC,
    {NULL, NULL, NULL},
};

/* The plan as the library writes it: text or JSON, with the statistics
 * it was planned from.  The graph is renumbered by degree as count and
 * list renumber it, so that the orders the probes measure, whose random
 * roots depend on the numbering, and the choice are the ones they make. */
static int plan(const wm_cli *cli, warpmatch_context *ctx, const warpmatch_graph *g, const warpmatch_pattern *p,
                char **text, warpmatch_match_result *r, wm_error *err) {
  warpmatch_match_options o;
  warpmatch_match_options_init(&o);
  o.count.device = WARPMATCH_DEVICE_CPU;
  o.count.induced = wm_cli_flag(cli, "induced");
  o.count.embeddings = wm_cli_flag(cli, "embeddings");
  o.code_motion = !wm_cli_flag(cli, "no-code-motion");
  o.pair_count = !wm_cli_flag(cli, "no-pair-count");
  unsigned order[WARPMATCH_MAX_PATTERN_VERTICES], n;
  int rc = wm_cli_order(cli, order, &n, err);
  if (!rc) rc = wm_cli_planner(cli, &o, err);
  if (!rc && o.planner == WARPMATCH_PLANNER_SAMPLED && !g)
    rc = wm_fail(err, WM_EUSAGE, "plan: --planner sampled measures orders on a graph: give --graph");
  if (!rc) rc = wm_cli_order_fits(cli, n, warpmatch_pattern_vertices(p), err);
  if (rc) return rc;
  o.order = n ? order : NULL;
  const int format = (cli->json ? WARPMATCH_PLAN_JSON : WARPMATCH_PLAN_TEXT) |
                     (wm_cli_flag(cli, "list") ? WARPMATCH_PLAN_FOR_LIST : 0) |
                     (wm_cli_flag(cli, "gpu") ? WARPMATCH_PLAN_FOR_GPU : 0);
  size_t len = 0;
  r->size = sizeof *r;
  rc = warpmatch_plan_ex(ctx, g, p, &o, format, NULL, 0, &len, r);
  if (!rc && !(*text = malloc(len + 1))) return wm_fail(err, WM_EINPUT, "out of memory");
  if (!rc) rc = warpmatch_plan_ex(ctx, g, p, &o, format, *text, len + 1, NULL, r);
  return wm_cli_api(ctx, rc, err);
}

static void print(const wm_cli *cli, const char *text, double seconds) {
  if (!cli->json) {
    printf("%splanned in %.3f ms\n", text, seconds * 1e3);
    return;
  }
  wm_json j;
  wm_json_begin(&j, stdout);
  wm_json_members(&j, text);
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
  const char *name = wm_cli_str(&cli, "pattern"), *path = wm_cli_str(&cli, "graph");
  if (!name) {
    wm_fail(&err, WM_EUSAGE, "plan: --pattern NAME|FILE is required");
    return wm_cli_report(&err);
  }
  warpmatch_context *ctx = NULL;
  warpmatch_pattern *p = NULL;
  warpmatch_graph *g = NULL;
  warpmatch_match_result r;
  char *text = NULL;
  int rc = wm_cli_context(&cli, &ctx, &err);
  if (!rc) rc = wm_cli_api(ctx, warpmatch_pattern_create(ctx, name, &p), &err);
  if (!rc && path) rc = wm_cli_open_graph(&cli, ctx, path, &g, NULL, &err);
  if (!rc) rc = plan(&cli, ctx, g, p, &text, &r, &err);
  if (!rc) print(&cli, text, r.plan_seconds);
  free(text);
  warpmatch_graph_destroy(g);
  warpmatch_pattern_destroy(p);
  warpmatch_context_destroy(ctx);
  return rc ? wm_cli_report(&err) : WM_OK;
}
