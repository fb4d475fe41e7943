/* A user's MPI program of the library (warpmatch_mpi.h only) in which ONE
 * rank's context is interrupted during a call its ranks share:
 *
 *   mpirun -np 2 api_mpi_stop GRAPH CALL TRIGGER
 *
 * CALL: count (5-cliques by enumeration), formula (houses by the motif
 * formulas), motifs (size 5), orbits (size 5), bfs (the ranks' CPU search
 * from two sources).  TRIGGER: `before`
 * (rank 1 calls warpmatch_interrupt before the call, as a SIGINT caught
 * between two calls would), or a progress phase's name (rank 1 calls it
 * from its progress callback at that phase's first report, i.e. after its
 * first work item).  Every rank must get WARPMATCH_EINTERRUPTED, within
 * STOP_SECONDS of the interrupt, with its outputs untouched; then,
 * the flag cleared, a shared count on the same context and graph must
 * equal one process's.  Each rank prints one line; every rank exits 1
 * when any rank found a fault (tests/api/test_api_mpi_stop.c runs it). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <warpmatch_mpi.h>

/* The calls take seconds or more uninterrupted (the 5-vertex orbits of
 * facebook: minutes), one rank alone about twice as long: a rank that
 * did the work alone, or waited for it, takes far longer than this.
 * Timed from the interrupt, not the call's start: the phases before the
 * trigger's take over a second on a loaded CI machine. */
#define STOP_SECONDS 1.5
#define UNTOUCHED 0x5a5a5a5a5a5a5a5aull

static int rank, faults;
static const char *phase; /* the trigger's phase, on rank 1 */
static double interrupted_at; /* CLOCK_MONOTONIC of rank 1's interrupt: one host's ranks share the clock */

static void fault(const char *what, const warpmatch_context *ctx) {
  fprintf(stderr, "api_mpi_stop: rank %d: wrong: %s (last error: %s)\n", rank, what,
          ctx ? warpmatch_last_error(ctx) : "");
  faults++;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void on_progress(void *user, const char *name, uint64_t done, uint64_t total) {
  (void)done, (void)total;
  if (phase && strcmp(name, phase) == 0 && !interrupted_at) {
    interrupted_at = now();
    warpmatch_interrupt(user, 1);
  }
}

/* out: the call's output buffer, filled with UNTOUCHED before; words: its
 * length in 64-bit words. */
static int call(warpmatch_context *ctx, const warpmatch_graph *g, const char *what, uint64_t *out, size_t words) {
  for (size_t i = 0; i < words; i++) out[i] = UNTOUCHED;
  if (!strcmp(what, "count") || !strcmp(what, "formula")) {
    const int formula = !strcmp(what, "formula");
    warpmatch_pattern *p = NULL;
    if (warpmatch_pattern_create(ctx, formula ? "house" : "5-clique", &p)) return fault("pattern", ctx), -1;
    warpmatch_match_options o;
    warpmatch_match_options_init(&o);
    o.count.method = formula ? WARPMATCH_METHOD_FORMULA : WARPMATCH_METHOD_ENUMERATE;
    o.count.device = WARPMATCH_DEVICE_CPU;
    warpmatch_match_result r;
    memset(&r, 0x5a, sizeof r);
    r.size = sizeof r;
    const int rc = warpmatch_count_ex(ctx, g, p, &o, &r);
    out[0] = r.count.count | r.count.count_high;
    warpmatch_pattern_destroy(p);
    return rc;
  }
  if (!strcmp(what, "motifs")) {
    warpmatch_count_options o;
    warpmatch_count_options_init(&o);
    o.device = WARPMATCH_DEVICE_CPU;
    warpmatch_motif m[21];
    memset(m, 0x5a, sizeof m);
    const int rc = warpmatch_motifs(ctx, g, 5, &o, m);
    for (size_t i = 0; i < 21 && i < words; i++) out[i] = m[i].count;
    return rc;
  }
  if (!strcmp(what, "orbits")) {
    warpmatch_orbit_options o;
    warpmatch_orbit_options_init(&o);
    o.device = WARPMATCH_DEVICE_CPU;
    return warpmatch_orbits(ctx, g, &o, out, NULL);
  }
  if (!strcmp(what, "bfs")) {
    warpmatch_bfs_options o;
    warpmatch_bfs_options_init(&o);
    o.device = WARPMATCH_DEVICE_CPU;
    const uint32_t sources[2] = {0, warpmatch_graph_vertices(g) / 2};
    return warpmatch_bfs_mpi(ctx, g, sources, 2, &o, (int32_t *)out, NULL, NULL);
  }
  fault("usage: CALL is count, formula, motifs, orbits or bfs", NULL);
  return -1;
}

/* After the interrupt, cleared: a shared triangle count equals one
 * process's (the share's counters are fit for the next call). */
static void still_usable(warpmatch_context *alone, warpmatch_context *shared, const warpmatch_graph *g) {
  warpmatch_pattern *p = NULL;
  warpmatch_count_result one, two;
  memset(&one, 0, sizeof one), memset(&two, 0x5a, sizeof two);
  if (warpmatch_pattern_create(alone, "triangle", &p)) return fault("triangle", alone);
  if (warpmatch_count(alone, g, p, NULL, &one)) fault("count alone", alone);
  if (warpmatch_count(shared, g, p, NULL, &two)) fault("count shared after the interrupt", shared);
  if (one.count == 0 || one.count != two.count || one.count_high != two.count_high)
    fault("the shared count after the interrupt differs from one process's", NULL);
  warpmatch_pattern_destroy(p);
}

static void run(warpmatch_context *alone, warpmatch_context *shared, const warpmatch_graph *g, const char *what,
                const char *trigger) {
  const size_t words = (size_t)warpmatch_graph_vertices(g) * warpmatch_orbit_count(5) + 32;
  uint64_t *out = malloc(words * sizeof *out);
  if (!out) return fault("memory", NULL);
  if (rank == 1 && !strcmp(trigger, "before")) warpmatch_interrupt(shared, 1);
  if (rank == 1 && strcmp(trigger, "before")) {
    phase = trigger;
    warpmatch_set_progress_callback(shared, on_progress, shared);
  }
  MPI_Barrier(MPI_COMM_WORLD); /* the ranks start together */
  const double t0 = now();
  if (rank == 1 && !phase) interrupted_at = t0;
  const int rc = call(shared, g, what, out, words);
  const double end = now();
  /* never interrupted: 0, so `took` is huge and faults as it should */
  MPI_Bcast(&interrupted_at, 1, MPI_DOUBLE, 1, MPI_COMM_WORLD);
  const double took = end - interrupted_at;
  size_t touched = 0; /* words holding a result: neither the fill nor the 0 that some calls write on failure */
  for (size_t i = 0; i < words; i++) touched += out[i] != UNTOUCHED && out[i] != 0;
  printf("api_mpi_stop: rank %d: %s (%s): status %d %.3f s after the interrupt (%.3f s after the start), "
         "%zu output words set: %s\n",
         rank, what, trigger, rc, took, end - t0, touched, warpmatch_last_error(shared));
  fflush(stdout);
  if (rc != WARPMATCH_EINTERRUPTED) fault("the call was not interrupted", shared);
  if (took > STOP_SECONDS) fault("the interrupted call returned more than STOP_SECONDS after the interrupt", NULL);
  if (touched) fault("an interrupted call set its outputs", NULL);
  warpmatch_set_progress_callback(shared, NULL, NULL);
  warpmatch_interrupt(shared, 0);
  still_usable(alone, shared, g);
  free(out);
}

int main(int argc, char **argv) {
  int provided, ranks;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  warpmatch_context *alone = NULL, *shared = NULL;
  warpmatch_mpi_share *share = NULL;
  warpmatch_graph *g = NULL;
  if (argc != 4 || ranks < 2) fault("usage: mpirun -np R api_mpi_stop GRAPH CALL TRIGGER (R >= 2)", NULL);
  if (warpmatch_context_create(&alone) || warpmatch_context_create(&shared)) return 1;
  if (warpmatch_mpi_share_create(shared, MPI_COMM_WORLD, 0, &share)) fault("share", shared);
  if (warpmatch_mpi_share_use(shared, share)) fault("share use", shared);
  if (argc == 4 && warpmatch_graph_load(alone, argv[1], NULL, &g)) fault(argv[1], alone);
  int ready = !faults, all = 0;
  MPI_Allreduce(&ready, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (all) run(alone, shared, g, argv[2], argv[3]);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(shared);
  warpmatch_mpi_share_destroy(share);
  warpmatch_context_destroy(alone);
  int worst = 0;
  MPI_Allreduce(&faults, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return worst ? 1 : 0;
}
