/* The program under mpirun (cli.h, "MPI ranks").  Started by mpirun (its
 * environment names a rank) in a build with MPI, the program initialises
 * MPI with the threads the CPU executor needs, sends every rank's stdout
 * except rank 0's to /dev/null, and makes the work dispenser the
 * commands share.  Otherwise every call here is the single-process
 * answer, and a build without MPI has only those. */
#define _POSIX_C_SOURCE 200809L /* setenv, strtok_r */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

#ifdef WM_HAVE_MPI
#include <mpi.h>

#include "cli_mpi_watch.h"
#include "warpmatch_mpi.h"

static int g_on, g_rank, g_ranks = 1, g_local_rank, g_local_ranks = 1;
static warpmatch_mpi_share *g_share; /* the ranks' shared work: the library's */
static MPI_Comm g_failures;          /* wm_mpi_after_work's own barrier */

/* The library's share over every rank; the job ends where it cannot be
 * made (a rank without it would leave the others waiting).  The stuck
 * rank's end is asked for: a job of the program must end. */
static void make_share(void) {
  warpmatch_context *ctx = NULL;
  const char *why = NULL;
  if (warpmatch_context_create(&ctx)) why = "out of memory";
  else if (warpmatch_mpi_share_create(ctx, MPI_COMM_WORLD, WARPMATCH_MPI_END_STUCK_RANK, &g_share))
    why = warpmatch_last_error(ctx);
  else if (MPI_Comm_dup(MPI_COMM_WORLD, &g_failures) != MPI_SUCCESS)
    why = "MPI: cannot duplicate the world communicator";
  if (why) {
    if (g_rank == 0) fprintf(stderr, "warpmatch: %s\n", why);
    MPI_Abort(MPI_COMM_WORLD, WM_EINPUT);
  }
  warpmatch_context_destroy(ctx);
}

/* mpirun (Open MPI, PMIx, MPICH's Hydra, Slurm's PMI) sets one of these in
 * each process it starts. */
static int launched_by_mpirun(void) {
  static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE", NULL};
  for (int i = 0; vars[i]; i++)
    if (getenv(vars[i])) return 1;
  return 0;
}

int wm_mpi_start(int *argc, char ***argv) {
  if (!launched_by_mpirun()) return WM_OK;
  int provided = MPI_THREAD_SINGLE;
  if (MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS) {
    fprintf(stderr, "warpmatch: MPI_Init_thread failed\n");
    return WM_EINPUT;
  }
  g_on = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_ranks);
  if (g_ranks == 1) return WM_OK; /* one rank: a plain run */
  double timeout = 0;
  char msg[200];
  if (wm_mpi_watch_timeout(&timeout, msg, sizeof msg)) {
    if (g_rank == 0) fprintf(stderr, "warpmatch: %s\n", msg);
    MPI_Finalize();
    g_on = 0;
    return WM_EUSAGE;
  }
  MPI_Comm host;
  if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host) == MPI_SUCCESS) {
    MPI_Comm_rank(host, &g_local_rank);
    MPI_Comm_size(host, &g_local_ranks);
    MPI_Comm_free(&host);
  }
  /* Only rank 0 prints results; the others' stdout goes nowhere. */
  if (g_rank != 0 && !freopen("/dev/null", "w", stdout)) return WM_EINPUT;
  make_share();
  /* The watcher calls MPI while the rank's own threads may be inside MPI. */
  if (timeout > 0 && (provided < MPI_THREAD_MULTIPLE || !wm_mpi_watch_start(timeout)) && g_rank == 0)
    fprintf(stderr, "warpmatch: note: MPI %s, so a rank that stops answering is not detected (WM_MPI_TIMEOUT)\n",
            provided < MPI_THREAD_MULTIPLE ? "gives no MPI_THREAD_MULTIPLE" : "could not start the ranks' watch");
  wm_mpi_watch_injected_stop();
  return WM_OK;
}

int wm_mpi_finish(int rc) {
  if (!g_on) return rc;
  if (g_ranks > 1) {
    /* one exit status for the job: the worst of any rank's */
    int worst = rc;
    MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    rc = worst;
    wm_mpi_watch_stop(); /* every rank is here: none can fall silent now */
    warpmatch_mpi_share_destroy(g_share);
    g_share = NULL;
    MPI_Comm_free(&g_failures);
  }
  MPI_Finalize();
  g_on = 0;
  return rc;
}

int wm_mpi_rank(void) { return g_rank; }
int wm_mpi_ranks(void) { return g_ranks; }

int wm_mpi_pin_gpus(unsigned gpus, wm_error *err) {
  if (g_ranks <= 1) return WM_OK;
  const char *given = getenv("CUDA_VISIBLE_DEVICES");
  char list[1024] = "", *ids[256];
  unsigned n = 0;
  if (given) {
    snprintf(list, sizeof list, "%s", given);
    for (char *save = NULL, *t = strtok_r(list, ",", &save); t && n < 256; t = strtok_r(NULL, ",", &save))
      ids[n++] = t;
    if (n == gpus) return WM_OK; /* the launcher gave this rank its own */
  }
  const unsigned first = (unsigned)g_local_rank * gpus;
  if (given && first + gpus > n)
    return wm_fail(err, WM_EUSAGE,
                   "rank %d (%d of this host's %d): --gpus %u each, but CUDA_VISIBLE_DEVICES lists %u GPUs for "
                   "%d ranks",
                   g_rank, g_local_rank, g_local_ranks, gpus, n, g_local_ranks);
  char pick[1024];
  size_t len = 0;
  for (unsigned i = 0; i < gpus && len < sizeof pick; i++) {
    if (given) len += (size_t)snprintf(pick + len, sizeof pick - len, "%s%s", i ? "," : "", ids[first + i]);
    else len += (size_t)snprintf(pick + len, sizeof pick - len, "%s%u", i ? "," : "", first + i);
  }
  if (setenv("CUDA_VISIBLE_DEVICES", pick, 1))
    return wm_fail(err, WM_EINPUT, "rank %d: could not set CUDA_VISIBLE_DEVICES", g_rank);
  return WM_OK;
}
void wm_mpi_barrier(void) {
  if (g_ranks > 1) MPI_Barrier(MPI_COMM_WORLD);
}
void wm_mpi_share_work(warpmatch_context *ctx) { warpmatch_mpi_share_use(ctx, g_share); }

int wm_mpi_agree(int rc, wm_error *err) {
  if (g_ranks <= 1) return rc;
  struct {
    int rc, rank;
  } mine = {rc, g_rank}, worst;
  MPI_Allreduce(&mine, &worst, 1, MPI_2INT, MPI_MAXLOC, MPI_COMM_WORLD);
  if (worst.rc == WM_OK) return WM_OK;
  /* every rank failed (a usage error, the same file missing): rank 0's
   * own message says it */
  int all = rc != WM_OK, every = 0;
  MPI_Allreduce(&all, &every, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (every) return rc;
  /* the failing rank's message, for rank 0 to print */
  char msg[sizeof err->msg];
  if (g_rank == worst.rank) snprintf(msg, sizeof msg, "%s", err->msg);
  MPI_Bcast(msg, (int)sizeof msg, MPI_CHAR, worst.rank, MPI_COMM_WORLD);
  err->code = worst.rc;
  snprintf(err->msg, sizeof err->msg, "rank %d of %d: %.900s", worst.rank, g_ranks, msg);
  return worst.rc;
}

/* Whether every rank comes here within a few seconds: then all failed
 * (the GPU search's failures are agreed by every rank), none waits for
 * another, and each can report its own error and end normally. */
static int every_rank_failed(void) {
  MPI_Request r;
  if (MPI_Ibarrier(g_failures, &r) != MPI_SUCCESS) return 0;
  int done = 0;
  const struct timespec pause = {0, 1000000};
  for (double t0 = MPI_Wtime(); !done && MPI_Wtime() - t0 < 3.0; nanosleep(&pause, NULL))
    if (MPI_Test(&r, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS) return 0;
  return done; /* a barrier left pending ends with MPI_Abort */
}

int wm_mpi_after_work(int rc, wm_error *err) {
  const char *s = getenv("WM_MPI_FAIL_WORK_RANK");
  if (g_ranks > 1 && s && *s && (!strcmp(s, "all") || atoi(s) == g_rank))
    rc = wm_fail(err, WM_EINPUT, "work failed (fault injected by WM_MPI_FAIL_WORK_RANK)");
  if (rc == WM_OK || g_ranks <= 1) return rc;
  if (every_rank_failed()) {
    char msg[sizeof err->msg];
    snprintf(msg, sizeof msg, "rank %d of %d: %.900s", g_rank, g_ranks, err->msg);
    memcpy(err->msg, msg, sizeof msg);
    if (g_rank != 0) { /* rank 0 reports its own as usual (wm_cli_report) */
      fprintf(stderr, "warpmatch: %s\n", err->msg);
      fflush(stderr);
    }
    return rc;
  }
  fprintf(stderr, "warpmatch: rank %d of %d: %s; ending every rank\n", g_rank, g_ranks, err->msg);
  fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, rc);
  return rc;
}

/* The ranks' search is the library's (warpmatch_mpi.h): on the CPU the
 * vertices split in ranges, on the GPU over every rank's GPUs. */
int wm_mpi_bfs_prepare(warpmatch_context *ctx, const warpmatch_graph *g, wm_error *err) {
  return wm_cli_api(ctx, warpmatch_bfs_mpi_prepare(ctx, g), err);
}

int wm_mpi_bfs(warpmatch_context *ctx, const warpmatch_graph *g, const uint32_t *sources, uint32_t n,
               const warpmatch_bfs_options *o, int32_t *levels, uint32_t *parents, warpmatch_bfs_stats *stats,
               wm_error *err) {
  return wm_cli_api(ctx, warpmatch_bfs_mpi(ctx, g, sources, n, o, levels, parents, stats), err);
}

#else /* no MPI in this build */

/* One process: the library's own search. */
int wm_mpi_bfs_prepare(warpmatch_context *ctx, const warpmatch_graph *g, wm_error *err) {
  (void)ctx, (void)g, (void)err;
  return WM_OK;
}

int wm_mpi_bfs(warpmatch_context *ctx, const warpmatch_graph *g, const uint32_t *sources, uint32_t n,
               const warpmatch_bfs_options *o, int32_t *levels, uint32_t *parents, warpmatch_bfs_stats *stats,
               wm_error *err) {
  return wm_cli_api(ctx, warpmatch_bfs_ex(ctx, g, sources, n, o, levels, parents, stats), err);
}

int wm_mpi_after_work(int rc, wm_error *err) {
  (void)err;
  return rc;
}

int wm_mpi_start(int *argc, char ***argv) {
  (void)argc, (void)argv;
  return WM_OK;
}
int wm_mpi_finish(int rc) { return rc; }
int wm_mpi_rank(void) { return 0; }
int wm_mpi_ranks(void) { return 1; }
int wm_mpi_pin_gpus(unsigned gpus, wm_error *err) {
  (void)gpus, (void)err;
  return WM_OK;
}
void wm_mpi_barrier(void) {}
void wm_mpi_share_work(warpmatch_context *ctx) { (void)ctx; }
int wm_mpi_agree(int rc, wm_error *err) {
  (void)err;
  return rc;
}

#endif

/* WM_MPI_FAIL_RANK=r: fault injection for the tests, rank r's graph load
 * fails; only under mpirun. */
int wm_mpi_injected_failure(void) {
#ifdef WM_HAVE_MPI
  const char *s = getenv("WM_MPI_FAIL_RANK");
  return g_on && s && *s && atoi(s) == g_rank;
#else
  return 0;
#endif
}
