/* The program under mpirun (cli.h, "MPI ranks").  Started by mpirun (its
 * environment names a rank) in a build with MPI, the program initialises
 * MPI with the threads the CPU executor needs, sends every rank's stdout
 * except rank 0's to /dev/null, and makes the work dispenser the
 * commands share.  Otherwise every call here is the single-process
 * answer, and a build without MPI has only those. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "matcher.h"

#ifdef WM_HAVE_MPI
#include <mpi.h>
#include <omp.h>

#include "share_mpi.h"

static int g_on, g_rank, g_ranks = 1;
static wm_share *g_share;

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
  /* Only rank 0 prints results; the others' stdout goes nowhere. */
  if (g_rank != 0 && !freopen("/dev/null", "w", stdout)) return WM_EINPUT;
  /* The executor's threads claim work themselves: several at a time with
   * MPI_THREAD_MULTIPLE, one at a time behind a mutex with SERIALIZED;
   * below that only the main thread may call MPI, so each rank runs one
   * thread. */
  if (provided < MPI_THREAD_SERIALIZED) omp_set_num_threads(1);
  wm_error err;
  wm_error_clear(&err);
  g_share = wm_share_mpi_create(provided < MPI_THREAD_MULTIPLE, &err);
  if (!g_share) {
    if (g_rank == 0) fprintf(stderr, "warpmatch: %s\n", err.msg);
    MPI_Abort(MPI_COMM_WORLD, WM_EINPUT);
  }
  return WM_OK;
}

int wm_mpi_finish(int rc) {
  if (!g_on) return rc;
  if (g_ranks > 1) {
    /* one exit status for the job: the worst of any rank's */
    int worst = rc;
    MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    rc = worst;
    wm_share_mpi_destroy(g_share);
    g_share = NULL;
  }
  MPI_Finalize();
  g_on = 0;
  return rc;
}

int wm_mpi_rank(void) { return g_rank; }
int wm_mpi_ranks(void) { return g_ranks; }
const wm_share *wm_mpi_share(void) { return g_share; }

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

int wm_mpi_after_work(int rc, wm_error *err) {
  const char *s = getenv("WM_MPI_FAIL_WORK_RANK");
  if (g_ranks > 1 && s && *s && atoi(s) == g_rank)
    rc = wm_fail(err, WM_EINPUT, "work failed (fault injected by WM_MPI_FAIL_WORK_RANK)");
  if (rc == WM_OK || g_ranks <= 1) return rc;
  fprintf(stderr, "warpmatch: rank %d of %d: %s; ending every rank\n", g_rank, g_ranks, err->msg);
  fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, rc);
  return rc;
}

#else /* no MPI in this build */

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
const wm_share *wm_mpi_share(void) { return NULL; }
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
