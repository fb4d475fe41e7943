/* One rank interrupted in a call the MPI ranks share (issue 46): every
 * rank must return WARPMATCH_EINTERRUPTED promptly, none waiting for the
 * others in a collective and none finishing the work alone, and the
 * context must count right afterwards.  Each case runs
 * tests/api/api_mpi_stop.c on 2 ranks, rank 1 interrupted before the call
 * or at its first progress report of a phase; the program checks each
 * rank's status, time and outputs, and `timeout` turns a hang into a
 * failure.  Registered only where the build found MPI (label mpi). */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "testutil.h"

/* A hung job is ended after this long; a working one takes about a second. */
#define HANG_SECONDS 30

static void stops(const char *call, const char *trigger) {
  char dir[256], log[512], cmd[2048];
  wm_test_tmpdir(dir, sizeof dir);
  snprintf(log, sizeof log, "%s/log", dir);
  snprintf(cmd, sizeof cmd,
           "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1 WM_PROGRESS=0 "
           "timeout -k 5 %d '%s' --oversubscribe --allow-run-as-root -np 2 '%s' '%s/facebook_combined.txt' "
           "'%s' '%s' >'%s' 2>&1 </dev/null",
           HANG_SECONDS, WM_MPIEXEC, WM_MPI_STOP_APP, WM_TEST_GRAPHS, call, trigger, log);
  const int st = system(cmd);
  FILE *f = fopen(log, "r");
  char text[16384] = "";
  const size_t got = f ? fread(text, 1, sizeof text - 1, f) : 0;
  text[got] = '\0';
  if (f) fclose(f);
  wm_test_rmdir(dir);
  cr_assert(WIFEXITED(st), "%s (%s): the job did not exit:\n%s", call, trigger, text);
  cr_assert_neq(WEXITSTATUS(st), 124, "%s (%s): the ranks hung (ended after %d s):\n%s", call, trigger,
                HANG_SECONDS, text);
  cr_assert_eq(WEXITSTATUS(st), 0, "%s (%s): exit status %d:\n%s", call, trigger, WEXITSTATUS(st), text);
  for (int r = 0; r < 2; r++) {
    char want[64];
    snprintf(want, sizeof want, "rank %d: %s (%s): status 4 ", r, call, trigger);
    cr_assert(strstr(text, want), "%s (%s): rank %d was not interrupted:\n%s", call, trigger, r, text);
  }
}

Test(mpi_stop, count_interrupted_before_the_call) { stops("count", "before"); }
Test(mpi_stop, count_interrupted_after_its_first_roots) { stops("count", "counting"); }
Test(mpi_stop, count_by_formula_interrupted_in_the_aggregates) { stops("formula", "motif sums"); }
Test(mpi_stop, motifs_interrupted_in_the_aggregates) { stops("motifs", "motif sums"); }
Test(mpi_stop, orbits_interrupted_before_the_shared_5_vertex_sums) { stops("orbits", "before"); }
Test(mpi_stop, orbits_interrupted_in_the_shared_5_vertex_sums) { stops("orbits", "5-vertex orbits"); }
Test(mpi_stop, bfs_interrupted_before_the_search) { stops("bfs", "before"); }
