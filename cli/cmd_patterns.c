/* warpmatch patterns: the named catalogue, what --pattern accepts by name.
 * One row per connected graph on 3, 4 and 5 vertices (the classes of
 * `motifs`), then the families that go on to 8 vertices and the aliases. */
#include <stdio.h>

#include "cli.h"

static const wm_optspec spec[] = {
    {NULL, NULL, NULL},
};

static const char families[] =
    "K-clique, K-cycle, K-path and K-star (K vertices in all) for K up to 8, e.g. 6-clique, 7-path";
static const char aliases[] =
    "paw (tailed-triangle), claw (4-star), butterfly (bowtie), K5 (5-clique), ...: each resolves to its row";

typedef struct row {
  const char *name;
  unsigned vertices, edges;
  uint64_t automorphisms;
  char edge_list[128];
} row;

static int describe(warpmatch_context *ctx, const char *name, row *r, wm_error *err) {
  warpmatch_pattern *p = NULL;
  r->name = name;
  int rc = wm_cli_api(ctx, warpmatch_pattern_create(ctx, name, &p), err);
  if (!rc) rc = wm_cli_api(ctx, warpmatch_pattern_automorphisms(ctx, p, &r->automorphisms), err);
  if (!rc) {
    r->vertices = warpmatch_pattern_vertices(p);
    r->edges = warpmatch_pattern_edges(p, r->edge_list, sizeof r->edge_list);
  }
  warpmatch_pattern_destroy(p);
  return rc;
}

static int print_all(warpmatch_context *ctx, int json, wm_error *err) {
  wm_json j;
  if (json) {
    wm_json_begin(&j, stdout);
    wm_json_array(&j, "patterns");
  } else {
    printf("%-20s %8s %6s %14s  %s\n", "name", "vertices", "edges", "automorphisms", "edges (vertex pairs)");
  }
  const char *name;
  for (unsigned i = 0; (name = warpmatch_catalogue_name(i)); i++) {
    row r;
    int rc = describe(ctx, name, &r, err);
    if (rc) return rc;
    if (json) {
      wm_json_object(&j, NULL);
      wm_json_str(&j, "name", r.name);
      wm_json_u64(&j, "vertices", r.vertices);
      wm_json_u64(&j, "edges", r.edges);
      wm_json_u64(&j, "automorphisms", r.automorphisms);
      wm_json_str(&j, "edge_list", r.edge_list);
      wm_json_close(&j);
    } else {
      printf("%-20s %8u %6u %14llu  %s\n", r.name, r.vertices, r.edges, (unsigned long long)r.automorphisms,
             r.edge_list);
    }
  }
  if (json) {
    wm_json_close(&j);
    wm_json_str(&j, "families", families);
    wm_json_str(&j, "aliases", aliases);
    wm_json_end(&j);
  } else {
    printf("\nfamilies: %s\naliases:  %s\n"
           "Any other pattern: a file (one edge 'a b' per line, or STMatch/GSI .g), see docs/count.md.\n",
           families, aliases);
  }
  return WM_OK;
}

int wm_cmd_patterns(int argc, char **argv) {
  wm_cli cli;
  wm_error err;
  wm_error_clear(&err);
  if (wm_cli_parse(&cli, "patterns", "[--json]",
                   "The named patterns --pattern accepts: every connected graph on 3, 4 and 5 vertices\n"
                   "(the classes motifs counts) with its edges and automorphisms, the families that go on\n"
                   "to 8 vertices, and the aliases.",
                   spec, 0, 0, argc, argv, &err))
    return wm_cli_report(&err);
  if (cli.help) return WM_OK;
  warpmatch_context *ctx = NULL;
  int rc = wm_cli_context(&cli, &ctx, &err);
  if (!rc) rc = print_all(ctx, cli.json, &err);
  warpmatch_context_destroy(ctx);
  return rc ? wm_cli_report(&err) : WM_OK;
}
