/* A user's MPI program of the library: it includes only warpmatch_mpi.h and,
 * run under mpirun on 2 or more ranks (ctest api_mpi_app: 2), checks that what the ranks
 * compute together equals what one process computes alone on the same
 * graphs: counts by enumeration (and that every rank took part in them),
 * the motifs of size 4, the 5-vertex orbits of every vertex, and the ranks' BFS on the CPU (levels equal on
 * rank 0, parents passing Graph500's checks) on the graph given and on a
 * directed one made from edge arrays (in-arcs needed); and that
 * the calls refuse what they cannot do with the context's message.  Every
 * rank exits 1 when any rank found a difference. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <warpmatch_mpi.h>

static int rank, ranks, failures;

static void expect(int ok, const char *what, const warpmatch_context *ctx) {
  if (ok) return;
  fprintf(stderr, "api_mpi_app: rank %d: wrong: %s (last error: %s)\n", rank, what,
          ctx ? warpmatch_last_error(ctx) : "");
  failures++;
}

/* Contexts alone and shared, on the same graph: the same count, and the
 * shared one says its roots were shared by 2 processes. */
static void check_count(warpmatch_context *alone, warpmatch_context *shared, const warpmatch_graph *g,
                        const char *pattern) {
  warpmatch_pattern *p = NULL;
  expect(warpmatch_pattern_create(alone, pattern, &p) == WARPMATCH_OK, pattern, alone);
  if (!p) return;
  warpmatch_match_options o;
  warpmatch_match_options_init(&o);
  o.count.method = WARPMATCH_METHOD_ENUMERATE;
  o.count.device = WARPMATCH_DEVICE_CPU;
  warpmatch_match_result one, two;
  one.size = two.size = sizeof one;
  expect(warpmatch_count_ex(alone, g, p, &o, &one) == WARPMATCH_OK, "count alone", alone);
  expect(warpmatch_count_ex(shared, g, p, &o, &two) == WARPMATCH_OK, "count shared", shared);
  char what[128];
  snprintf(what, sizeof what, "%s: shared %llu, alone %llu", pattern, (unsigned long long)two.count.count,
           (unsigned long long)one.count.count);
  expect(one.count.count > 0 && two.count.count == one.count.count && two.count.count_high == one.count.count_high,
         what, NULL);
  char shared_by[64];
  snprintf(shared_by, sizeof shared_by, "in each of %d processes sharing the roots", ranks);
  expect(strstr(two.launch, shared_by) != NULL, two.launch, NULL);
  expect(strstr(one.launch, "processes") == NULL, one.launch, NULL);
  warpmatch_pattern_destroy(p);
}

static void check_motifs(warpmatch_context *alone, warpmatch_context *shared, const warpmatch_graph *g) {
  warpmatch_count_options o;
  warpmatch_count_options_init(&o);
  o.device = WARPMATCH_DEVICE_CPU;
  warpmatch_motif one[6], two[6];
  expect(warpmatch_motifs(alone, g, 4, &o, one) == WARPMATCH_OK, "motifs alone", alone);
  expect(warpmatch_motifs(shared, g, 4, &o, two) == WARPMATCH_OK, "motifs shared", shared);
  for (unsigned i = 0; i < warpmatch_motif_classes(4); i++) {
    char what[128];
    snprintf(what, sizeof what, "motif %.31s: shared %llu, alone %llu", one[i].name, (unsigned long long)two[i].count,
             (unsigned long long)one[i].count);
    expect(!strcmp(one[i].name, two[i].name) && one[i].count == two[i].count &&
               one[i].count_high == two[i].count_high,
           what, NULL);
  }
}

/* The 5-vertex orbits of every vertex, shared and alone; a shared GPU
 * count is refused. */
static void check_orbits(warpmatch_context *alone, warpmatch_context *shared, const warpmatch_graph *g) {
  const size_t cells = (size_t)warpmatch_graph_vertices(g) * warpmatch_orbit_count(5);
  uint64_t *one = calloc(cells + 1, sizeof *one), *two = calloc(cells + 1, sizeof *two);
  expect(one && two, "memory for the orbits", NULL);
  if (!one || !two) return;
  warpmatch_orbit_options o;
  warpmatch_orbit_options_init(&o);
  o.device = WARPMATCH_DEVICE_CPU;
  expect(warpmatch_orbits(alone, g, &o, one, NULL) == WARPMATCH_OK, "orbits alone", alone);
  expect(warpmatch_orbits(shared, g, &o, two, NULL) == WARPMATCH_OK, "orbits shared", shared);
  expect(memcmp(one, two, cells * sizeof *one) == 0, "orbits shared equal one process's", NULL);
  o.device = WARPMATCH_DEVICE_GPU;
  expect(warpmatch_orbits(shared, g, &o, two, NULL) == WARPMATCH_EUSAGE &&
             strstr(warpmatch_last_error(shared), "on the CPU"),
         "shared orbits on the GPU refused", shared);
  free(one);
  free(two);
}

/* The ranks' search from two sources against one process's. */
static void check_bfs(warpmatch_context *alone, warpmatch_context *shared, const warpmatch_graph *g) {
  const uint32_t n = warpmatch_graph_vertices(g), sources[2] = {0, n / 2};
  int32_t *want = malloc(n * sizeof *want), *got = malloc(n * sizeof *got);
  uint32_t *parents = malloc(n * sizeof *parents);
  if (!want || !got || !parents) {
    expect(0, "memory", NULL);
    goto done;
  }
  warpmatch_bfs_options o;
  warpmatch_bfs_options_init(&o);
  o.device = WARPMATCH_DEVICE_CPU;
  warpmatch_bfs_stats one, two;
  one.size = two.size = sizeof one;
  expect(warpmatch_bfs_ex(alone, g, sources, 2, &o, want, NULL, &one) == WARPMATCH_OK, "bfs alone", alone);
  expect(warpmatch_bfs_mpi_prepare(shared, g) == WARPMATCH_OK, "bfs prepare", shared);
  expect(warpmatch_bfs_mpi(shared, g, sources, 2, &o, got, parents, &two) == WARPMATCH_OK, "bfs shared", shared);
  if (rank != 0) goto done; /* the others hold their own vertices only */
  uint32_t differ = 0;
  for (uint32_t v = 0; v < n; v++) differ += want[v] != got[v];
  char what[160];
  snprintf(what, sizeof what, "bfs: %u of %u levels differ; reached %u vs %u, depth %u vs %u", differ, n,
           two.bfs.reached, one.bfs.reached, two.bfs.depth, one.bfs.depth);
  expect(differ == 0 && two.bfs.reached == one.bfs.reached && two.bfs.depth == one.bfs.depth && one.bfs.reached > 2,
         what, NULL);
  expect(warpmatch_bfs_validate(alone, g, sources, 2, got, parents, &two) == WARPMATCH_OK, "bfs parents", alone);
done:
  free(want), free(got), free(parents);
}

/* A random graph of 3000 vertices and 15000 edges (arcs where directed),
 * the same on every rank. */
static warpmatch_graph *random_graph(warpmatch_context *ctx, int directed) {
  enum { N = 3000, M = 15000 };
  static uint32_t src[M], dst[M];
  uint64_t x = 88172645463325252ull;
  for (int i = 0; i < M; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    src[i] = (uint32_t)(x % N);
    dst[i] = (uint32_t)((x >> 32) % N);
  }
  warpmatch_graph *g = NULL;
  expect(warpmatch_graph_from_edges(ctx, N, src, dst, M, directed, &g) == WARPMATCH_OK, "random graph", ctx);
  return g;
}

/* What the calls refuse, with the context's message. */
static void check_refusals(warpmatch_context *alone, warpmatch_context *shared, const warpmatch_graph *g) {
  const uint32_t s = 0;
  expect(warpmatch_bfs_mpi(alone, g, &s, 1, NULL, NULL, NULL, NULL) == WARPMATCH_EUSAGE &&
             strstr(warpmatch_last_error(alone), "warpmatch_mpi_share_use"),
         "bfs without a share refused", alone);
  warpmatch_bfs_options o;
  warpmatch_bfs_options_init(&o);
  o.device = WARPMATCH_DEVICE_CPU;
  o.target = 1;
  expect(warpmatch_bfs_mpi(shared, g, &s, 1, &o, NULL, NULL, NULL) == WARPMATCH_EUSAGE &&
             strstr(warpmatch_last_error(shared), "target"),
         "a target refused", shared);
  warpmatch_mpi_share *bad = NULL;
  expect(warpmatch_mpi_share_create(alone, MPI_COMM_WORLD, 64, &bad) == WARPMATCH_EUSAGE && !bad &&
             strstr(warpmatch_last_error(alone), "flags"),
         "unknown flags refused", alone);
}

int main(int argc, char **argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  expect(argc == 2 && ranks >= 2, "usage: mpirun -np R api_mpi_app GRAPH (R >= 2)", NULL);
  warpmatch_context *alone = NULL, *shared = NULL;
  warpmatch_mpi_share *share = NULL;
  warpmatch_graph *g = NULL, *u = NULL, *d = NULL;
  if (warpmatch_context_create(&alone) || warpmatch_context_create(&shared)) return 1;
  expect(warpmatch_mpi_share_create(shared, MPI_COMM_WORLD, 0, &share) == WARPMATCH_OK, "share", shared);
  expect(warpmatch_mpi_share_use(shared, share) == WARPMATCH_OK, "share use", shared);
  if (argc == 2) expect(warpmatch_graph_load(alone, argv[1], NULL, &g) == WARPMATCH_OK, argv[1], alone);
  u = random_graph(alone, 0);
  d = random_graph(alone, 1);
  /* every rank's set-up agreed before the collective calls */
  int ready = share && g && u && d, all = 0;
  MPI_Allreduce(&ready, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (all) {
    check_count(alone, shared, g, "triangle");
    check_count(alone, shared, u, "4-cycle");
    check_motifs(alone, shared, g);
    check_orbits(alone, shared, u);
    check_orbits(alone, shared, g); /* hubs and dense triangles: the claims of a hub's top edges */
    check_bfs(alone, shared, g);
    check_bfs(alone, shared, d);
    check_refusals(alone, shared, g);
  }
  warpmatch_graph_destroy(g);
  warpmatch_graph_destroy(u);
  warpmatch_graph_destroy(d);
  warpmatch_context_destroy(shared);
  warpmatch_mpi_share_destroy(share);
  warpmatch_context_destroy(alone);
  int worst = 0;
  MPI_Allreduce(&failures, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0) printf("api_mpi_app: %s\n", worst ? "FAILED" : "shared count, motifs, orbits and BFS equal one process's");
  MPI_Finalize();
  return worst ? 1 : 0;
}
