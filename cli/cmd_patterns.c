/* warpmatch patterns: the named catalogue, what --pattern accepts by name.
 * One row per connected graph on 3, 4 and 5 vertices (the classes of
 * `motifs`), then the families that go on to 8 vertices and the aliases. */
#include <stdio.h>

#include "cli.h"
#include "patterns.h"

static const wm_optspec spec[] = {
    {NULL, NULL, NULL},
};

static const char families[] =
    "K-clique, K-cycle, K-path and K-star (K vertices in all) for K up to 8, e.g. 6-clique, 7-path";
static const char aliases[] =
    "paw (tailed-triangle), claw (4-star), butterfly (bowtie), K5 (5-clique), ...: each resolves to its row";

typedef struct row {
  const char *name;
  wm_pattern p;
  uint32_t automorphisms;
  char edges[128];
} row;

static int describe(const char *name, row *r, wm_error *err) {
  r->name = name;
  int rc = wm_pattern_from_name(name, &r->p, err);
  if (rc) return rc;
  wm_automorphisms a;
  if ((rc = wm_pattern_automorphisms(&r->p, &a, err))) return rc;
  r->automorphisms = a.count;
  wm_automorphisms_free(&a);
  wm_pattern_edge_string(&r->p, r->edges, sizeof r->edges);
  return WM_OK;
}

static int print_all(int json, wm_error *err) {
  const char *const *names = wm_catalogue_names();
  wm_json j;
  if (json) {
    wm_json_begin(&j, stdout);
    wm_json_array(&j, "patterns");
  } else {
    printf("%-20s %8s %6s %14s  %s\n", "name", "vertices", "edges", "automorphisms", "edges (vertex pairs)");
  }
  for (int i = 0; names[i]; i++) {
    row r;
    int rc = describe(names[i], &r, err);
    if (rc) return rc;
    if (json) {
      wm_json_object(&j, NULL);
      wm_json_str(&j, "name", r.name);
      wm_json_u64(&j, "vertices", r.p.k);
      wm_json_u64(&j, "edges", wm_pattern_edges(&r.p));
      wm_json_u64(&j, "automorphisms", r.automorphisms);
      wm_json_str(&j, "edge_list", r.edges);
      wm_json_close(&j);
    } else {
      printf("%-20s %8u %6u %14u  %s\n", r.name, r.p.k, wm_pattern_edges(&r.p), r.automorphisms, r.edges);
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
  return print_all(cli.json, &err) ? wm_cli_report(&err) : WM_OK;
}
