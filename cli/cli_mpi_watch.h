/* The ranks' heartbeat (cli_mpi_watch.c), for cli_mpi.c: a rank that stops
 * answering ends the job with a message naming it, rather than a hang. */
#ifndef WM_CLI_MPI_WATCH_H
#define WM_CLI_MPI_WATCH_H

#include <stddef.h>

/* WM_MPI_TIMEOUT's default and largest seconds (0 turns the watch off). */
#define WM_MPI_TIMEOUT_DEFAULT 60
#define WM_MPI_TIMEOUT_MAX 86400

#ifdef WM_HAVE_MPI
/* Collective: rank 0's WM_MPI_TIMEOUT (or the default) into *seconds on
 * every rank; non-zero with msg when it is not 0 or 1..WM_MPI_TIMEOUT_MAX. */
int wm_mpi_watch_timeout(double *seconds, char *msg, size_t size);
/* Collective (several ranks, MPI_THREAD_MULTIPLE): starts this rank's
 * watcher; 1 when it runs (never with seconds 0). */
int wm_mpi_watch_start(double seconds);
/* Collective: the watchers say goodbye and end. */
void wm_mpi_watch_stop(void);
/* WM_MPI_STOP_RANK=r: rank r stops itself here (fault injection). */
void wm_mpi_watch_injected_stop(void);
#endif

#endif
