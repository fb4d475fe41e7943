/* BFS across the ranks of an MPI communicator (bfs_mpi.c); in the library
 * where it is built with MPI, behind api/warpmatch_mpi.h (api/api_mpi.c). */
#ifndef WM_BFS_MPI_H
#define WM_BFS_MPI_H

#include <mpi.h>

#include "traversal.h"

/* Collective over comm.  Every rank holds the whole graph g and its
 * in-arcs `in` (g itself when symmetric, else wm_graph_transpose(g)) but
 * owns the vertex range of a 1-D partition and does only that range's
 * work.  Options as wm_bfs_cpu's, except target (WM_EUSAGE).  On rank 0
 * the result is complete (levels, parents when asked, the statistics); on
 * the other ranks it holds their own range only. */
int wm_bfs_mpi(MPI_Comm comm, const wm_graph *g, const wm_graph *in, const uint32_t *sources, uint32_t nsources,
               const wm_bfs_options *o, wm_bfs_result *r, wm_error *err);

/* The GPU search's processes (traversal.h) over comm, each rank with its
 * own GPUs (CUDA_VISIBLE_DEVICES pinned per rank); collective.  Its calls
 * are made from the main thread only, which MPI_THREAD_FUNNELED allows.
 * end_stuck: arm the watchdog that ends a rank stuck after a failure
 * (warpmatch_mpi.h, WARPMATCH_MPI_END_STUCK_RANK); without it this code
 * neither prints nor exits. */
wm_bfs_procs *wm_bfs_procs_mpi_create(MPI_Comm comm, int end_stuck, wm_error *err);
void wm_bfs_procs_mpi_destroy(wm_bfs_procs *p);

#endif
