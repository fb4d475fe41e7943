/* A user's program of the installed library: it includes only warpmatch.h
 * and checks the answers on a graph it knows, a 4-clique 0-1-2-3 with a
 * tail 3-4-5, built from edge arrays and, when a path is given, loaded
 * from that file too (tests/api/installed_lib.sh writes it).  Exits 0 when
 * every answer is right, else prints what is wrong and exits 1. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <warpmatch.h>

static int failures;

static void expect(int ok, const char *what) {
  if (!ok) {
    fprintf(stderr, "api_app: wrong: %s\n", what);
    failures++;
  }
}

static int count_matches(void *user, const uint32_t *matches, uint64_t n, unsigned k) {
  uint64_t *total = user;
  for (uint64_t j = 0; j < n; j++)
    for (unsigned i = 0; i < k; i++)
      if (matches[j * k + i] > 3) return 1; /* every triangle lies in the clique */
  *total += n;
  return 0;
}

static void check_graph(warpmatch_context *ctx, const warpmatch_graph *g) {
  warpmatch_pattern *tri = NULL, *k4 = NULL;
  expect(warpmatch_pattern_create(ctx, "triangle", &tri) == WARPMATCH_OK, "pattern triangle");
  expect(warpmatch_pattern_create(ctx, "4-clique", &k4) == WARPMATCH_OK, "pattern 4-clique");
  warpmatch_count_options o;
  warpmatch_count_options_init(&o);
  warpmatch_count_result r;
  expect(warpmatch_count(ctx, g, tri, &o, &r) == WARPMATCH_OK && r.count == 4 && r.count_high == 0, "4 triangles");
  expect(warpmatch_count(ctx, g, k4, NULL, &r) == WARPMATCH_OK && r.count == 1, "1 four-clique");
  uint64_t total = 0, listed = 0;
  expect(warpmatch_list(ctx, g, tri, NULL, 0, count_matches, &total, &listed) == WARPMATCH_OK && total == 4 &&
             listed == 4,
         "4 triangles listed");
  warpmatch_motif motifs[2];
  expect(warpmatch_motifs(ctx, g, 3, NULL, motifs) == WARPMATCH_OK, "motifs of size 3");
  expect(warpmatch_motif_classes(3) == 2, "2 motifs of size 3");
  for (unsigned i = 0; i < 2; i++)
    if (strcmp(motifs[i].name, "triangle") == 0) expect(motifs[i].count == 4, "4 induced triangles");
  int32_t level[6];
  uint32_t parent[6];
  warpmatch_bfs_result b;
  expect(warpmatch_bfs(ctx, g, 0, WARPMATCH_DEVICE_AUTO, level, parent, &b) == WARPMATCH_OK && b.reached == 6 &&
             b.depth == 4 && level[5] == 3 && parent[0] == 0 && parent[5] == 4,
         "BFS from 0");
  int64_t hops = 0;
  expect(warpmatch_reach(ctx, g, 1, 5, WARPMATCH_DEVICE_AUTO, &hops) == WARPMATCH_OK && hops == 3, "reach 1 -> 5");
  char plan[4096];
  size_t need = 0;
  expect(warpmatch_plan(ctx, g, k4, NULL, WARPMATCH_PLAN_JSON, plan, sizeof plan, &need) == WARPMATCH_OK &&
             plan[0] == '{' && need < sizeof plan,
         "a JSON plan");
  warpmatch_pattern_destroy(tri);
  warpmatch_pattern_destroy(k4);
}

int main(int argc, char **argv) {
  warpmatch_context *ctx = NULL;
  if (warpmatch_context_create(&ctx) != WARPMATCH_OK) return 1;
  printf("warpmatch %s, GPU %s\n", warpmatch_version(), warpmatch_gpu_available(ctx) ? "yes" : "no");
  const uint32_t src[] = {0, 0, 0, 1, 1, 2, 3, 4}, dst[] = {1, 2, 3, 2, 3, 3, 4, 5};
  warpmatch_graph *g = NULL;
  expect(warpmatch_graph_from_edges(ctx, 0, src, dst, 8, 0, &g) == WARPMATCH_OK, "graph from edges");
  if (g) check_graph(ctx, g);
  warpmatch_graph_destroy(g);
  if (argc > 1) {
    warpmatch_load_options lo;
    warpmatch_load_options_init(&lo);
    lo.use_cache = 0;
    g = NULL;
    expect(warpmatch_graph_load(ctx, argv[1], &lo, &g) == WARPMATCH_OK, "graph from the file");
    if (g) check_graph(ctx, g);
    warpmatch_graph_destroy(g);
  }
  warpmatch_pattern *p = NULL;
  expect(warpmatch_pattern_create(ctx, "no-such-pattern", &p) == WARPMATCH_EINPUT &&
             strstr(warpmatch_last_error(ctx), "no-such-pattern"),
         "an unknown pattern's error");
  if (failures) fprintf(stderr, "api_app: last error: %s\n", warpmatch_last_error(ctx));
  warpmatch_context_destroy(ctx);
  printf("api_app: %s\n", failures ? "FAILED" : "ok");
  return failures ? 1 : 0;
}
