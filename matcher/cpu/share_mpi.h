/* The first-level dispenser across MPI ranks: a wm_share (matcher.h) whose
 * loop counters live in a window on rank 0 of a communicator, claimed
 * with MPI_Fetch_and_op under a passive-target lock_all, and whose sums
 * are MPI all-reductions.  In the library where it is built with MPI,
 * behind api/warpmatch_mpi.h (api/api_mpi.c). */
#ifndef WM_SHARE_MPI_H
#define WM_SHARE_MPI_H

#include <mpi.h>

#include "matcher.h"

/* Collective over comm (the library's own duplicate, used while the share
 * lives), after MPI_Init_thread.  serialise: claims from several threads
 * go through one mutex (MPI_THREAD_SERIALIZED).  NULL with err set on an
 * MPI error. */
wm_share *wm_share_mpi_create(MPI_Comm comm, int serialise, wm_error *err);
/* Collective; frees the window. */
void wm_share_mpi_destroy(wm_share *s);

#endif
