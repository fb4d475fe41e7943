/* The first-level dispenser across MPI ranks: a wm_share (matcher.h) whose
 * loop counters live in a window on rank 0 of MPI_COMM_WORLD, claimed
 * with MPI_Fetch_and_op under a passive-target lock_all, and whose sums
 * are MPI all-reductions.  Compiled into the program only, where MPI is
 * found (the library never links MPI); the declarations carry no MPI
 * types. */
#ifndef WM_SHARE_MPI_H
#define WM_SHARE_MPI_H

#include "matcher.h"

/* Collective over MPI_COMM_WORLD, after MPI_Init_thread.  serialise: claims
 * from several threads go through one mutex (MPI_THREAD_SERIALIZED).  NULL
 * with err set on an MPI error. */
wm_share *wm_share_mpi_create(int serialise, wm_error *err);
/* Collective; frees the window. */
void wm_share_mpi_destroy(wm_share *s);

#endif
