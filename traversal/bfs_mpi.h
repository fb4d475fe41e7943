/* BFS across the ranks of MPI_COMM_WORLD (bfs_mpi.c); compiled into the
 * program only, where MPI is found.  The declarations carry no MPI types. */
#ifndef WM_BFS_MPI_H
#define WM_BFS_MPI_H

#include "traversal.h"

/* Collective.  Every rank holds the whole graph g and its in-arcs `in` (g
 * itself when symmetric, else wm_graph_transpose(g)) but owns the vertex
 * range of a 1-D partition and does only that range's work.  Options as
 * wm_bfs_cpu's, except target (WM_EUSAGE).  On rank 0 the result is
 * complete (levels, parents when asked, the statistics); on the other
 * ranks it holds their own range only. */
int wm_bfs_mpi(const wm_graph *g, const wm_graph *in, const uint32_t *sources, uint32_t nsources,
               const wm_bfs_options *o, wm_bfs_result *r, wm_error *err);

/* The GPU search's processes (traversal.h) over MPI_COMM_WORLD, each rank
 * with its own GPUs (CUDA_VISIBLE_DEVICES pinned per rank); collective.
 * Its calls are made from the main thread only, which MPI_THREAD_FUNNELED
 * allows. */
wm_bfs_procs *wm_bfs_procs_mpi_create(wm_error *err);
void wm_bfs_procs_mpi_destroy(wm_bfs_procs *p);

#endif
