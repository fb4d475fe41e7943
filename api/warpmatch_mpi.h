/* warpmatch over MPI: several processes (the ranks of a communicator), each
 * holding the whole graph, sharing one count, one motifs call or one BFS.
 * Installed beside warpmatch.h where the library was built with MPI (it
 * then defines WARPMATCH_HAVE_MPI here); compile with the MPI's own compiler
 * wrapper (mpicc) or its include path, and link the same MPI the library
 * was built with.
 *
 * The caller owns MPI: it initialises it (MPI_Init_thread) before the first
 * call here and finalises it after the last share is destroyed.  The
 * library works on its own duplicate of the communicator given, so its
 * messages never meet the caller's.
 *
 * Collective calls: every rank of the communicator makes them, in the same
 * order, with the same arguments (the same graph, patterns, sources and
 * options); a rank that does not leaves the others waiting in MPI.  Since a
 * failure on one rank (a file it cannot read) is not seen by the others, a
 * caller agrees on its set-up (loading the graph) before the first
 * collective call, as the program does.  Errors come back as from every
 * warpmatch_* call: a code, and the message in the context.
 *
 * An interrupt is the exception: warpmatch_interrupt on one rank's context
 * (its own SIGINT, a callback) stops a shared count, motifs, orbits or BFS,
 * on the CPU or the GPUs, on every rank, each returning
 * WARPMATCH_EINTERRUPTED once it has finished its current chunk of work,
 * GPU window (a trial of the triangle, clique and diamond kernels) or
 * level; each rank clears its own flag before the next call. */
#ifndef WARPMATCH_MPI_H
#define WARPMATCH_MPI_H

#include <mpi.h>

#include "warpmatch.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WARPMATCH_HAVE_MPI 1

/* The ranks working together: one-sided work counters on rank 0
 * (the first level of a count, the tops of each motifs pass, taken in
 * chunks as each rank's threads finish theirs, so a skewed graph balances
 * across ranks as across threads), the sums of their partial results, and
 * the GPU searches' exchanges. */
typedef struct warpmatch_mpi_share warpmatch_mpi_share;

/* Flags of warpmatch_mpi_share_create. */
enum {
  /* A GPU search whose peer failed on another rank may wait in a GPU
   * collective that never returns.  With this flag the library ends such a
   * rank (a line on stderr naming the failed GPU, then _exit(3)) when it has
   * not wound down some seconds after the failure was reported: for a
   * program whose job must end (the warpmatch program sets it).  Without
   * it the library never exits or prints, and such a rank may wait. */
  WARPMATCH_MPI_END_STUCK_RANK = 1
};

/* Collective over comm, after MPI_Init_thread.  The threads of each rank
 * claim work through MPI: with MPI_THREAD_MULTIPLE at once, with
 * MPI_THREAD_SERIALIZED one at a time behind a lock; below that (only the
 * main thread may call MPI) the shared calls of a context using the share
 * run on one thread.  *out is NULL on failure. */
int warpmatch_mpi_share_create(warpmatch_context *ctx, MPI_Comm comm, int flags, warpmatch_mpi_share **out);
/* Collective; after every context using the share is destroyed or has
 * stopped using it (warpmatch_mpi_share_use(ctx, NULL)), before
 * MPI_Finalize.  NULL: nothing. */
void warpmatch_mpi_share_destroy(warpmatch_mpi_share *s);

/* The context's later calls work across the ranks of s (NULL: this process
 * alone again): warpmatch_count, _count_ex, _motifs and _motifs_ex share
 * their work and return the whole answer on every rank (the list calls
 * stay this process's own); GPU bfs and reach split the graph over every
 * rank's GPUs (warpmatch_set_gpus of them each; the caller gives each rank
 * its own devices, CUDA_VISIBLE_DEVICES), and the result is complete on
 * rank 0 only, the others holding their own vertices.  Every rank's
 * context must use the share for the same calls; the switch itself is
 * collective only where the context holds a GPU search split for other
 * ranks, which it frees (as warpmatch_context_destroy would). */
int warpmatch_mpi_share_use(warpmatch_context *ctx, warpmatch_mpi_share *s);

/* BFS across the ranks of the context's share (WARPMATCH_EUSAGE without
 * one), for graphs too slow for one process: on the CPU each rank owns a
 * range of the vertices and does only its work, the frontiers exchanged
 * each level; on the GPU (o->device GPU; AUTO: when every rank has a
 * usable GPU) it is warpmatch_bfs_ex's search over every rank's GPUs.
 * Collective.  Options as warpmatch_bfs_ex's except a target
 * (WARPMATCH_EUSAGE).  On rank 0 of the share's communicator levels,
 * parents (may be NULL) and stats (may be NULL) are the whole search's, as
 * warpmatch_bfs_ex gives them; on the others they hold their own
 * vertices' levels and parents only.  _prepare builds first what the CPU
 * search needs besides the graph (a directed graph's in-arcs, kept with
 * the graph), so that a timed search does not include it; without it the
 * first search builds it. */
int warpmatch_bfs_mpi_prepare(warpmatch_context *ctx, const warpmatch_graph *g);
int warpmatch_bfs_mpi(warpmatch_context *ctx, const warpmatch_graph *g, const uint32_t *sources, uint32_t n,
                      const warpmatch_bfs_options *o, int32_t *levels, uint32_t *parents,
                      warpmatch_bfs_stats *stats);

#ifdef __cplusplus
}
#endif
#endif
