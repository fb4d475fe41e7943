/* wm_share over MPI (share_mpi.h).  The window on rank 0 holds one uint64
 * counter per loop; a claim is one MPI_Fetch_and_op (sum) and a flush, so
 * the ranks' threads take chunks of the first level as they finish the
 * previous ones, and a skewed graph balances across ranks as it does
 * across threads.  When the counters left are too few for a request, the
 * request zeroes them all between two barriers: every rank asks in the
 * same order, and only once it is done with every counter it took before,
 * so none is in use then.  A process that gives up a call halts its loops:
 * it adds HALTED to their counters, so that every later claim finds
 * nothing left. */
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "share_mpi.h"

#define COUNTERS 4096
/* Past any loop's length (fewer than 2^40 items); each process halts a
 * loop once, so a counter stays below 2^64 for up to 2^23 processes.  A
 * sum, not a bitwise or: MPI assumes by default that concurrent
 * accumulates on one counter use one operation (accumulate_ops). */
#define HALTED ((uint64_t)1 << 40)

typedef struct mpi_share {
  wm_share s; /* first: the wm_share handed out is this struct */
  MPI_Comm comm;
  MPI_Win win;
  uint64_t *base; /* rank 0: the counters */
  unsigned next;  /* the next unused counter */
  unsigned halted_below; /* the counters this process has halted end here (under mu) */
  int rank, ranks;
  int serialise;
  pthread_mutex_t mu;
} mpi_share;

static unsigned loops(void *ctx, unsigned count) {
  mpi_share *m = ctx;
  if (m->next + count > COUNTERS) {
    MPI_Win_flush_all(m->win);
    MPI_Barrier(m->comm);
    if (m->rank == 0) {
      memset(m->base, 0, COUNTERS * sizeof *m->base);
      MPI_Win_sync(m->win);
    }
    MPI_Barrier(m->comm);
    m->next = 0;
    m->halted_below = 0;
  }
  m->next += count;
  return m->next - count;
}

static uint64_t grab(void *ctx, unsigned id, uint64_t chunk) {
  mpi_share *m = ctx;
  uint64_t first = UINT64_MAX;
  if (m->serialise) pthread_mutex_lock(&m->mu);
  if (MPI_Fetch_and_op(&chunk, &first, MPI_UINT64_T, 0, id, MPI_SUM, m->win) != MPI_SUCCESS ||
      MPI_Win_flush(0, m->win) != MPI_SUCCESS)
    first = UINT64_MAX; /* unreachable: MPI's default handler aborts the job */
  if (m->serialise) pthread_mutex_unlock(&m->mu);
  return first;
}

static void halt(void *ctx, unsigned first, unsigned count) {
  static const uint64_t add = HALTED;
  mpi_share *m = ctx;
  pthread_mutex_lock(&m->mu);
  for (unsigned id = first > m->halted_below ? first : m->halted_below; id < first + count; id++)
    MPI_Accumulate(&add, 1, MPI_UINT64_T, 0, id, 1, MPI_UINT64_T, MPI_SUM, m->win);
  if (first + count > m->halted_below) {
    m->halted_below = first + count;
    MPI_Win_flush(0, m->win);
  }
  pthread_mutex_unlock(&m->mu);
}

/* MPI counts are ints: long arrays go in slices. */
static int sum_in_place(MPI_Comm comm, void *a, uint64_t n, size_t size, MPI_Datatype type) {
  for (uint64_t at = 0; at < n;) {
    int part = n - at > INT_MAX / 2 ? INT_MAX / 2 : (int)(n - at);
    if (MPI_Allreduce(MPI_IN_PLACE, (char *)a + at * size, part, type, MPI_SUM, comm) != MPI_SUCCESS)
      return 1;
    at += (uint64_t)part;
  }
  return 0;
}

static int sum_u32(void *ctx, uint32_t *a, uint64_t n) {
  const mpi_share *m = ctx;
  return sum_in_place(m->comm, a, n, sizeof *a, MPI_UINT32_T);
}

static int sum_u64(void *ctx, uint64_t *a, uint64_t n) {
  const mpi_share *m = ctx;
  return sum_in_place(m->comm, a, n, sizeof *a, MPI_UINT64_T);
}

/* 128-bit sums have no MPI type: every rank gathers every rank's values
 * as (high, low) words and adds them with the overflow check. */
static int sum_i128(void *ctx, wm_i128 *a, unsigned n, int *overflow) {
  mpi_share *m = ctx;
  uint64_t *mine = calloc(2 * (size_t)n + 1, sizeof *mine);
  uint64_t *all = malloc(2 * (size_t)n * (size_t)m->ranks * sizeof *all);
  int rc = !mine || !all;
  if (!rc) {
    for (unsigned i = 0; i < n; i++) {
      unsigned __int128 u = (unsigned __int128)a[i];
      mine[2 * i] = (uint64_t)(u >> 64);
      mine[2 * i + 1] = (uint64_t)u;
    }
    rc = MPI_Allgather(mine, 2 * (int)n, MPI_UINT64_T, all, 2 * (int)n, MPI_UINT64_T, m->comm) != MPI_SUCCESS;
  }
  for (unsigned i = 0; !rc && i < n; i++) {
    wm_i128 s = 0;
    for (int r = 0; r < m->ranks; r++) {
      const uint64_t *w = all + 2 * ((size_t)r * n + i);
      s = wm_add_chk(s, (wm_i128)(((unsigned __int128)w[0] << 64) | w[1]), overflow);
    }
    a[i] = s;
  }
  free(mine);
  free(all);
  return rc;
}

wm_share *wm_share_mpi_create(MPI_Comm comm, int serialise, wm_error *err) {
  mpi_share *m = calloc(1, sizeof *m);
  if (!m) return wm_fail(err, WM_EINPUT, "out of memory"), NULL;
  m->comm = comm;
  MPI_Comm_rank(comm, &m->rank);
  MPI_Comm_size(comm, &m->ranks);
  MPI_Aint size = m->rank == 0 ? (MPI_Aint)(COUNTERS * sizeof(uint64_t)) : 0;
  if (MPI_Win_allocate(size, sizeof(uint64_t), MPI_INFO_NULL, comm, &m->base, &m->win) != MPI_SUCCESS) {
    free(m);
    wm_fail(err, WM_EINPUT, "MPI: cannot allocate the work counters' window");
    return NULL;
  }
  if (m->rank == 0) memset(m->base, 0, COUNTERS * sizeof *m->base);
  MPI_Barrier(comm); /* the counters are zero before anyone claims */
  MPI_Win_lock_all(0, m->win);
  m->serialise = serialise;
  pthread_mutex_init(&m->mu, NULL);
  m->s.ctx = m;
  m->s.processes = m->ranks;
  m->s.process = m->rank;
  m->s.loops = loops;
  m->s.grab = grab;
  m->s.halt = halt;
  m->s.sum_u32 = sum_u32;
  m->s.sum_u64 = sum_u64;
  m->s.sum_i128 = sum_i128;
  return &m->s;
}

void wm_share_mpi_destroy(wm_share *s) {
  if (!s) return;
  mpi_share *m = s->ctx;
  MPI_Win_unlock_all(m->win);
  MPI_Win_free(&m->win);
  pthread_mutex_destroy(&m->mu);
  free(m);
}
