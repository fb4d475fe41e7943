/* warpmatch_mpi.h over the modules' MPI sides: the share is the matcher's
 * work dispenser (matcher/cpu/share_mpi.c) and the GPU search's processes
 * (traversal/bfs_mpi.c) on one duplicate of the caller's communicator;
 * the ranks' CPU search is traversal/bfs_mpi.c's.  Compiled only where the
 * library is built with MPI. */
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "bfs_mpi.h"
#include "share_mpi.h"
#include "warpmatch_mpi.h"

struct warpmatch_mpi_share {
  MPI_Comm comm; /* the library's own: no message of the caller's matches one of ours */
  int rank;
  int one_thread; /* MPI below MPI_THREAD_SERIALIZED: only the main thread may call it */
  wm_share *share;
  wm_bfs_procs *procs;
};

static int mpi_failed(warpmatch_context *ctx, const char *who, const char *what) {
  return wm_api_fail(ctx, WARPMATCH_EINPUT, "%s: MPI: %s failed", who, what);
}

int warpmatch_mpi_share_create(warpmatch_context *ctx, MPI_Comm comm, int flags, warpmatch_mpi_share **out) {
  static const char who[] = "warpmatch_mpi_share_create";
  if (!ctx) return WARPMATCH_EUSAGE;
  if (!out) return wm_api_null(ctx, who, "out");
  *out = NULL;
  if (flags & ~WARPMATCH_MPI_END_STUCK_RANK)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: unknown flags 0x%x", who, (unsigned)flags);
  int up = 0, level = MPI_THREAD_SINGLE;
  if (MPI_Initialized(&up) != MPI_SUCCESS || !up)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: MPI is not initialised (MPI_Init_thread comes first)", who);
  if (comm == MPI_COMM_NULL) return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: comm is MPI_COMM_NULL", who);
  MPI_Query_thread(&level);
  warpmatch_mpi_share *s = calloc(1, sizeof *s);
  if (!s) return wm_api_fail(ctx, WARPMATCH_EINPUT, "%s: out of memory", who);
  if (MPI_Comm_dup(comm, &s->comm) != MPI_SUCCESS) {
    free(s);
    return mpi_failed(ctx, who, "duplicating the communicator");
  }
  MPI_Comm_rank(s->comm, &s->rank);
  s->one_thread = level < MPI_THREAD_SERIALIZED;
  wm_error err;
  wm_error_clear(&err);
  /* Each is collective: a rank failing here (out of memory) is left to
   * MPI's default handler, which ends the job, as the modules say. */
  s->share = wm_share_mpi_create(s->comm, level < MPI_THREAD_MULTIPLE, &err);
  if (s->share) s->procs = wm_bfs_procs_mpi_create(s->comm, flags & WARPMATCH_MPI_END_STUCK_RANK, &err);
  if (!s->procs) {
    wm_share_mpi_destroy(s->share);
    MPI_Comm_free(&s->comm);
    free(s);
    return wm_api_status(ctx, err.code ? err.code : WARPMATCH_EINPUT, &err);
  }
  *out = s;
  return WARPMATCH_OK;
}

void warpmatch_mpi_share_destroy(warpmatch_mpi_share *s) {
  if (!s) return;
  wm_bfs_procs_mpi_destroy(s->procs);
  wm_share_mpi_destroy(s->share);
  MPI_Comm_free(&s->comm);
  free(s);
}

int warpmatch_mpi_share_use(warpmatch_context *ctx, warpmatch_mpi_share *s) {
  if (!ctx) return WARPMATCH_EUSAGE;
  const wm_bfs_procs *procs = s ? s->procs : NULL;
  if (ctx->bfs && ctx->bfs_made_procs && ctx->bfs_made_procs != procs) {
    /* the graph kept on the GPUs was split for the old ranks, whose share
     * may be destroyed next: not reused, freed while they are there */
    wm_bfs_gpu_destroy(ctx->bfs);
    ctx->bfs = NULL;
    ctx->bfs_serial = 0;
  }
  ctx->mpi = s;
  ctx->share = s ? s->share : NULL;
  ctx->bfs_procs = procs;
  ctx->share_one_thread = s ? s->one_thread : 0;
  return WARPMATCH_OK;
}

int warpmatch_bfs_mpi_prepare(warpmatch_context *ctx, const warpmatch_graph *g) {
  if (!ctx) return WARPMATCH_EUSAGE;
  if (!g) return wm_api_null(ctx, "warpmatch_bfs_mpi_prepare", "g");
  const wm_graph *t;
  return wm_api_transpose_of(ctx, g, &t);
}

/* AUTO is the GPU only where every rank has one: the ranks must take the
 * same road, or each waits in another search's exchanges. */
static int agree_device(warpmatch_context *ctx, const char *who, const warpmatch_mpi_share *s, int *device) {
  if (*device != WARPMATCH_DEVICE_AUTO) return WARPMATCH_OK;
  int gpu = warpmatch_gpu_available(ctx);
  if (MPI_Allreduce(MPI_IN_PLACE, &gpu, 1, MPI_INT, MPI_MIN, s->comm) != MPI_SUCCESS)
    return mpi_failed(ctx, who, "agreeing on the device");
  *device = gpu ? WARPMATCH_DEVICE_GPU : WARPMATCH_DEVICE_CPU;
  return WARPMATCH_OK;
}

/* The ranks' CPU search on the graph's own numbering. */
static int cpu_search(warpmatch_context *ctx, const char *who, const warpmatch_graph *g, const uint32_t *sources,
                      uint32_t n, wm_bfs_options *o, int32_t *levels, uint32_t *parents,
                      warpmatch_bfs_stats *stats) {
  const wm_graph *t = NULL;
  int rc = wm_api_transpose_of(ctx, g, &t); /* kept with the graph: built once (or by _prepare) */
  if (rc) return rc;
  o->threads = ctx->threads;
  o->want_parents = parents != NULL;
  wm_bfs_result r;
  wm_error err;
  wm_api_threads th;
  wm_api_threads_enter(ctx, &th);
  rc = wm_bfs_mpi(ctx->mpi->comm, g->g, t, sources, n, o, &r, &err);
  wm_api_threads_leave(&th);
  if (rc) return wm_api_status(ctx, rc, &err);
  rc = wm_api_bfs_out(ctx, who, &r, g->g->n, 0, levels, parents, stats);
  wm_bfs_result_free(&r);
  return rc;
}

int warpmatch_bfs_mpi(warpmatch_context *ctx, const warpmatch_graph *g, const uint32_t *sources, uint32_t n,
                      const warpmatch_bfs_options *opt, int32_t *levels, uint32_t *parents,
                      warpmatch_bfs_stats *stats) {
  static const char who[] = "warpmatch_bfs_mpi";
  if (!ctx) return WARPMATCH_EUSAGE;
  if (!g) return wm_api_null(ctx, who, "g");
  if (!sources && n) return wm_api_null(ctx, who, "sources");
  if (!ctx->mpi)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: the context has no ranks to share with (warpmatch_mpi_share_use)",
                       who);
  warpmatch_bfs_options x;
  warpmatch_bfs_options_init(&x);
  int rc = opt ? wm_api_struct_in(ctx, who, &x, sizeof x, opt) : WARPMATCH_OK;
  if (!rc) rc = agree_device(ctx, who, ctx->mpi, &x.device);
  if (rc) return rc;
  if (x.device == WARPMATCH_DEVICE_GPU) /* the context's GPU search, split over every rank's GPUs */
    return warpmatch_bfs_ex(ctx, g, sources, n, &x, levels, parents, stats);
  warpmatch_bfs_stats s;
  memset(&s, 0, sizeof s);
  s.size = sizeof s;
  wm_bfs_options o;
  int use_gpu = 0;
  if (x.target != UINT32_MAX) /* the ranks' levels end together: no rank sees the target's */
    rc = wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: a target vertex does not run across ranks", who);
  else if (n == 0)
    rc = wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: no source vertex given", who);
  for (uint32_t i = 0; !rc && i < n; i++)
    if (sources[i] >= g->g->n)
      rc = wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: source %u is outside the graph's %u vertices", who, sources[i],
                       g->g->n);
  if (!rc) rc = wm_api_bfs_options(ctx, who, g, &x, &o, &use_gpu);
  if (!rc) rc = cpu_search(ctx, who, g, sources, n, &o, levels, parents, &s);
  int out_rc = stats ? wm_api_struct_out(ctx, who, stats, &s, sizeof s) : WARPMATCH_OK;
  return rc ? rc : out_rc;
}
