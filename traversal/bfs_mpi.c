/* BFS across MPI ranks (bfs_mpi.h), after the Graph500 reference's 1-D
 * partition: rank p owns the vertices [lo, hi), equal counts rounded up to
 * a multiple of 32 so that each rank's part of a bitmap is whole words.
 * Every rank keeps the whole frontier F and the visited set V as bitmaps.
 *
 * Top-down level: each rank expands its own frontier vertices' out-arcs
 * into a full-length bitmap of candidates not yet visited; a
 * reduce-scatter (bitwise or) hands every owner its slice; the owner keeps
 * the candidates outside V as its part of the next frontier and finds each
 * one's parent among its in-arcs in F.  Bottom-up level: each rank lets
 * its own unvisited vertices look for an in-neighbour in F.  An allgather
 * of the slices then gives every rank the next F, and V |= F.  The
 * direction follows wm_bfs_go_bottom_up on the frontier's hubs and edges
 * summed over the ranks, as the one-process BFS does.  Those sums also
 * carry each rank's interrupt (warpmatch_interrupt), so that the ranks
 * leave at the same level. */
#include <errno.h>
#include <limits.h>
#include <omp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <mpi.h>

#include "bfs_mpi.h"
#include "base.h"

enum { BACK_TO_TOPDOWN_BETA = 24 };

typedef struct part {
  MPI_Comm comm;
  const wm_graph *g, *in;
  int rank, ranks, nt;
  uint32_t lo, hi;       /* own vertices */
  uint64_t words;        /* bitmap words of one rank's part */
  uint64_t first;        /* rank x 32 words: the first vertex of the part (lo unless past n) */
  uint32_t *F, *V, *cand; /* ranks * words each */
  uint32_t *next;        /* own part of the next frontier */
  uint32_t *level, *parent;
  uint64_t tau, nhubs;
  const wm_monitor *mon; /* the call's, polled once a level */
  int stopped_here;      /* this rank's interrupt was among those that ended the search */
} part;

/* A level's sums: the next frontier's size, hubs and edges, and the
 * ranks interrupted. */
enum { SUM_FRONTIER, SUM_HUBS, SUM_EDGES, SUM_STOPPED, SUMS };
enum { LEVELS_MPI_FAILED = 1, LEVELS_INTERRUPTED = 2 };

static int interrupted(wm_error *err, int here) {
  return wm_fail(err, WM_EINTERRUPTED, "bfs: interrupted (warpmatch_interrupt%s)",
                 here ? "" : " on another rank of the search");
}

static inline int bit(const uint32_t *b, uint32_t v) { return (b[v >> 5] >> (v & 31)) & 1u; }
static inline uint64_t deg(const wm_graph *g, uint32_t v) { return g->offsets[v + 1] - g->offsets[v]; }

/* An in-neighbour of v in F, or WM_UNREACHED. */
static uint32_t parent_in_frontier(const part *p, uint32_t v) {
  for (uint64_t j = p->in->offsets[v]; j < p->in->offsets[v + 1]; j++)
    if (bit(p->F, p->in->adj[j])) return p->in->adj[j];
  return WM_UNREACHED;
}

/* Own frontier vertices' out-arcs to unvisited vertices, as candidate bits
 * over the whole graph; then each owner's slice of their union. */
static int expand_topdown(part *p) {
  const wm_graph *g = p->g;
  memset(p->cand, 0, (size_t)p->ranks * p->words * sizeof *p->cand);
#pragma omp parallel for num_threads(p->nt) schedule(dynamic, 64)
  for (uint32_t v = p->lo; v < p->hi; v++) {
    if (!bit(p->F, v)) continue;
    for (uint64_t j = g->offsets[v]; j < g->offsets[v + 1]; j++) {
      uint32_t w = g->adj[j];
      if (!bit(p->V, w)) __atomic_fetch_or(&p->cand[w >> 5], 1u << (w & 31), __ATOMIC_RELAXED);
    }
  }
  return MPI_Reduce_scatter_block(p->cand, p->next, (int)p->words, MPI_UINT32_T, MPI_BOR, p->comm) !=
         MPI_SUCCESS;
}

/* The owner's side of either direction: keeps the new vertices of its
 * slice (top-down: the candidates; bottom-up: found here), sets their level
 * and parent, and sums the next frontier's size, hubs and edges. */
static void settle(part *p, int bottom_up, uint32_t L, uint64_t stats[SUMS]) {
  const wm_graph *g = p->g;
  uint64_t nf = 0, hubs = 0, edges = 0;
  if (bottom_up) memset(p->next, 0, p->words * sizeof *p->next);
#pragma omp parallel for num_threads(p->nt) schedule(dynamic, 32) reduction(+ : nf, hubs, edges)
  for (uint64_t wi = 0; wi < p->words; wi++) {
    uint64_t first = p->first + wi * 32;
    uint32_t word = 0, visited = p->V[(first >> 5)];
    uint32_t cand = bottom_up ? ~visited : p->next[wi] & ~visited;
    for (uint32_t b = 0; b < 32 && cand; b++) {
      if (!((cand >> b) & 1u) || first + b >= p->hi) continue;
      uint32_t v = (uint32_t)(first + b);
      uint32_t u = parent_in_frontier(p, v);
      if (u == WM_UNREACHED) continue; /* bottom-up: no parent on level L yet */
      word |= 1u << b;
      p->level[v] = L + 1;
      if (p->parent) p->parent[v] = u;
      nf++;
      if (deg(g, v) >= p->tau) hubs++;
      edges += deg(g, v);
    }
    p->next[wi] = word;
  }
  stats[0] = nf, stats[1] = hubs, stats[2] = edges;
}

/* next F = the ranks' slices; V |= F. */
static int exchange(part *p) {
  if (MPI_Allgather(p->next, (int)p->words, MPI_UINT32_T, p->F, (int)p->words, MPI_UINT32_T, p->comm) !=
      MPI_SUCCESS)
    return 1;
  const uint64_t all = (uint64_t)p->ranks * p->words;
  for (uint64_t i = 0; i < all; i++) p->V[i] |= p->F[i];
  return 0;
}

static int seed(part *p, const uint32_t *sources, uint32_t nsources, uint64_t stats[SUMS], wm_error *err) {
  memset(stats, 0, SUMS * sizeof *stats);
  for (uint32_t i = 0; i < nsources; i++) {
    uint32_t s = sources[i];
    if (s >= p->g->n)
      return wm_fail(err, WM_EINPUT, "bfs: source %u is not a vertex (the graph has %u)", s, p->g->n);
    if (bit(p->F, s)) continue; /* duplicate */
    p->F[s >> 5] |= 1u << (s & 31);
    p->V[s >> 5] |= 1u << (s & 31);
    stats[0]++;
    if (deg(p->g, s) >= p->tau) stats[1]++;
    stats[2] += deg(p->g, s);
    if (s >= p->lo && s < p->hi) {
      p->level[s] = 0;
      if (p->parent) p->parent[s] = s;
    }
  }
  return WM_OK;
}

/* The level loop: every rank takes the same decisions from the same sums,
 * stopping too (LEVELS_INTERRUPTED). */
static int run_levels(part *p, const wm_bfs_options *o, uint64_t stats[SUMS], wm_bfs_result *r) {
  uint64_t nf = stats[0], prev_nf = 0, explored = 0;
  int bottom_up = 0;
  for (uint32_t L = 0; nf > 0; L++) {
    if (L >= o->max_depth) {
      r->truncated = 1;
      break;
    }
    explored += stats[2];
    if (!bottom_up && o->direction_opt && nf >= prev_nf &&
        wm_bfs_go_bottom_up(o, stats[1], p->nhubs, stats[2], p->g->m > explored ? p->g->m - explored : 0))
      bottom_up = 1;
    else if (bottom_up && nf < prev_nf && nf < p->g->n / BACK_TO_TOPDOWN_BETA)
      bottom_up = 0;
    prev_nf = nf;
    if (!bottom_up && expand_topdown(p)) return 1;
    settle(p, bottom_up, L, stats);
    if (bottom_up) r->bottom_up_levels++;
    stats[SUM_STOPPED] = p->stopped_here = wm_monitor_stopped(p->mon);
    if (MPI_Allreduce(MPI_IN_PLACE, stats, SUMS, MPI_UINT64_T, MPI_SUM, p->comm) != MPI_SUCCESS)
      return LEVELS_MPI_FAILED;
    if (stats[SUM_STOPPED]) return LEVELS_INTERRUPTED;
    if (exchange(p)) return LEVELS_MPI_FAILED;
    nf = stats[0];
  }
  return 0;
}

/* Rank 0 collects every rank's range of a per-vertex array. */
static int gather(const part *p, uint32_t *a, int *counts, int *displs) {
  void *send = p->rank == 0 ? MPI_IN_PLACE : (void *)(a + p->lo);
  return MPI_Gatherv(send, (int)(p->hi - p->lo), MPI_UINT32_T, a, counts, displs, MPI_UINT32_T, 0, p->comm) !=
         MPI_SUCCESS;
}

int wm_bfs_mpi(MPI_Comm comm, const wm_graph *g, const wm_graph *in, const uint32_t *sources, uint32_t nsources,
               const wm_bfs_options *o, wm_bfs_result *r, wm_error *err) {
  memset(r, 0, sizeof *r);
  if (nsources == 0) return wm_fail(err, WM_EUSAGE, "bfs: no source vertex given");
  if (o->target != WM_NO_VERTEX) return wm_fail(err, WM_EUSAGE, "bfs: a target vertex does not run under mpirun");
  part p = {0};
  p.comm = comm;
  p.g = g;
  p.in = in ? in : g;
  p.nt = o->threads > 0 ? o->threads : omp_get_max_threads();
  MPI_Comm_rank(comm, &p.rank);
  MPI_Comm_size(comm, &p.ranks);
  const uint64_t per = ((uint64_t)g->n + (uint64_t)p.ranks - 1) / (uint64_t)p.ranks;
  p.words = (per + 31) / 32 ? (per + 31) / 32 : 1;
  const uint64_t span = 32 * p.words;
  if ((uint64_t)p.ranks * p.words > INT_MAX / 2 || span > INT_MAX)
    return wm_fail(err, WM_EINPUT, "bfs: %u vertices are too many for %d ranks' bitmaps", g->n, p.ranks);
  p.first = (uint64_t)p.rank * span;
  p.lo = (uint32_t)(p.first < g->n ? p.first : g->n);
  p.hi = (uint32_t)(p.lo + span < g->n ? p.lo + span : g->n);
  wm_bfs_hub_threshold(g, &p.tau, &p.nhubs);
  const size_t bits = (size_t)p.ranks * p.words, n = g->n ? g->n : 1;
  p.F = calloc(bits, sizeof *p.F);
  p.V = calloc(bits, sizeof *p.V);
  p.cand = calloc(bits, sizeof *p.cand);
  p.next = calloc(p.words, sizeof *p.next);
  int *counts = calloc((size_t)p.ranks, sizeof *counts), *displs = calloc((size_t)p.ranks, sizeof *displs);
  r->level = malloc(n * sizeof *r->level);
  r->parent = o->want_parents ? malloc(n * sizeof *r->parent) : NULL;
  int rc = WM_OK, failed = !p.F || !p.V || !p.cand || !p.next || !counts || !displs || !r->level ||
                          (o->want_parents && !r->parent);
  /* every rank learns whether all have their memory, and whether any was
   * interrupted already, before the levels (bit 0, bit 1) */
  p.mon = wm_monitor_current();
  p.stopped_here = wm_monitor_stopped(p.mon);
  int flags = (failed ? 1 : 0) | (p.stopped_here ? 2 : 0);
  MPI_Allreduce(MPI_IN_PLACE, &flags, 1, MPI_INT, MPI_BOR, comm);
  if (flags & 1) {
    rc = wm_fail(err, WM_EINPUT, "bfs: out of memory on a rank for %u vertices", g->n);
    goto done;
  }
  if (flags & 2) {
    rc = interrupted(err, p.stopped_here);
    goto done;
  }
  for (uint32_t v = 0; v < g->n; v++) {
    r->level[v] = WM_UNREACHED;
    if (r->parent) r->parent[v] = WM_UNREACHED;
  }
  p.level = r->level;
  p.parent = r->parent;
  uint64_t stats[SUMS];
  if ((rc = seed(&p, sources, nsources, stats, err))) goto done; /* the same sources on every rank */
  MPI_Barrier(comm);
  double t0 = wm_now();
  const int levels = run_levels(&p, o, stats, r);
  if (levels) {
    rc = levels == LEVELS_INTERRUPTED ? interrupted(err, p.stopped_here)
                                      : wm_fail(err, WM_EINPUT, "bfs: an MPI exchange failed");
    goto done;
  }
  for (int q = 0; q < p.ranks; q++) {
    uint64_t qlo = (uint64_t)q * span < g->n ? (uint64_t)q * span : g->n;
    uint64_t qhi = qlo + span < g->n ? qlo + span : g->n;
    displs[q] = (int)qlo;
    counts[q] = (int)(qhi - qlo);
  }
  if (gather(&p, r->level, counts, displs) || (r->parent && gather(&p, r->parent, counts, displs))) {
    rc = wm_fail(err, WM_EINPUT, "bfs: gathering the levels failed (MPI)");
    goto done;
  }
  r->seconds = wm_now() - t0;
  rc = wm_bfs_result_stats(g, r, err);
done:
  free(p.F), free(p.V), free(p.cand), free(p.next), free(counts), free(displs);
  if (rc) wm_bfs_result_free(r);
  return rc;
}

/* ---- the GPU search's processes over MPI (wm_bfs_procs) ------------- */

enum { ALARM_BYTES = 320, WATCHDOG_SECONDS = 10, WATCHDOG_GRACE_SECONDS = 2, LISTEN_MS = 10 };

typedef struct mpi_procs {
  wm_bfs_procs p; /* first: the wm_bfs_procs handed out is this struct */
  MPI_Comm comm;   /* the search's exchanges */
  int end_stuck;   /* the watchdog may end this process (WARPMATCH_MPI_END_STUCK_RANK) */
  MPI_Comm alarms; /* a communicator of its own, so that no other message matches an alarm */
  MPI_Request waiting; /* the receive that an alarm completes */
  char heard_why[ALARM_BYTES]; /* the alarm received: its sender's message */
  char sent_why[ALARM_BYTES];  /* this rank's, until every send is done */
  char drained[ALARM_BYTES];
  atomic_int heard;
  /* With MPI_THREAD_MULTIPLE a thread of its own tests `waiting` (and is
   * then the only one that does): a rank whose search waits inside a CUDA
   * or NCCL call, where it cannot ask, still hears of a failure, and its
   * watchdog names the failed GPU.  Started by the first GPU search (its
   * first broadcast), so that runs without one have no such thread. */
  pthread_t listener;
  int listening, listen_asked;
  atomic_int stop_listening;
} mpi_procs;

/* The watchdog, where the caller asked for it (end_stuck: the library
 * otherwise never prints or exits): once this rank knows of a failure, it
 * ends the process
 * WATCHDOG_SECONDS later, with its message, unless the search's processes
 * have wound down by then (wm_bfs_procs_mpi_destroy disarms it).  The
 * normal end takes milliseconds; the watchdog is for a GPU collective
 * that waits on a peer whose GPU or process is gone, which NCCL's abort
 * may not end across processes.  mpirun then ends the other ranks, so a
 * rank waits WATCHDOG_GRACE_SECONDS between its message and its end: the
 * others, whose watchdogs were armed a moment later, print theirs first. */
static char watch_line[3 * ALARM_BYTES];
static atomic_int watch_armed, watch_disarmed;

static void pause_seconds(time_t seconds) {
  struct timespec t = {seconds, 0};
  while (nanosleep(&t, &t) && errno == EINTR) {
  }
}

static void *watchdog(void *arg) {
  (void)arg;
  pause_seconds(WATCHDOG_SECONDS);
  if (atomic_load(&watch_disarmed)) return NULL;
  fputs(watch_line, stderr);
  fflush(stderr);
  pause_seconds(WATCHDOG_GRACE_SECONDS);
  _exit(3);
}

static void watch(const mpi_procs *m, const char *what) {
  if (!m->end_stuck || atomic_exchange(&watch_armed, 1)) return;
  snprintf(watch_line, sizeof watch_line,
           "warpmatch: rank %d of %d: bfs: %s; the search's processes had not wound down %d s later, so this "
           "rank ends here\n",
           m->p.process, m->p.processes, what, WATCHDOG_SECONDS);
  pthread_t t;
  if (pthread_create(&t, NULL, watchdog, NULL) == 0) pthread_detach(t);
}

static void start_listening(mpi_procs *m);

static int procs_bcast(void *ctx, void *buf, size_t bytes, int root) {
  const mpi_procs *m = ctx;
  start_listening(ctx);
  return bytes > INT_MAX || MPI_Bcast(buf, (int)bytes, MPI_BYTE, root, m->comm) != MPI_SUCCESS;
}

static int procs_sum_u64(void *ctx, uint64_t *a, unsigned n) {
  const mpi_procs *m = ctx;
  return n > INT_MAX || MPI_Allreduce(MPI_IN_PLACE, a, (int)n, MPI_UINT64_T, MPI_SUM, m->comm) != MPI_SUCCESS;
}

/* Non-zero for a range past MPI's int counts (the same on every rank). */
static int procs_gather_u32(void *ctx, uint32_t *a, const uint32_t *lo, const uint32_t *hi) {
  mpi_procs *m = ctx;
  const int ranks = m->p.processes, me = m->p.process;
  int *counts = malloc((size_t)ranks * sizeof *counts), *displs = malloc((size_t)ranks * sizeof *displs);
  int rc = !counts || !displs;
  for (int q = 0; !rc && q < ranks; q++) {
    rc = hi[q] > INT_MAX;
    counts[q] = (int)(hi[q] - lo[q]), displs[q] = (int)lo[q];
  }
  if (!rc) {
    void *send = me == 0 ? MPI_IN_PLACE : (void *)(a + lo[me]);
    rc = MPI_Gatherv(send, counts[me], MPI_UINT32_T, a, counts, displs, MPI_UINT32_T, 0, m->comm) != MPI_SUCCESS;
  }
  free(counts), free(displs);
  return rc;
}

/* The alarm carries this rank's message, so that the others' watchdogs
 * can name the failed GPU. */
static void procs_alarm(void *ctx, const char *why) {
  mpi_procs *m = ctx;
  snprintf(m->sent_why, sizeof m->sent_why, "%s", why && *why ? why : "a GPU failed");
  watch(m, m->sent_why);
  for (int q = 0; q < m->p.processes; q++) {
    if (q == m->p.process) continue;
    MPI_Request r;
    if (MPI_Isend(m->sent_why, (int)strlen(m->sent_why) + 1, MPI_CHAR, q, 0, m->alarms, &r) == MPI_SUCCESS)
      MPI_Request_free(&r);
  }
}

/* 1 once the alarm is in (the caller of MPI_Test, whoever it is, arms the
 * watchdog with the sender's message). */
static int take_alarm(mpi_procs *m) {
  int done = 0;
  MPI_Status st;
  if (MPI_Test(&m->waiting, &done, &st) != MPI_SUCCESS || !done) return 0;
  m->heard_why[ALARM_BYTES - 1] = 0;
  char what[2 * ALARM_BYTES];
  snprintf(what, sizeof what, "%s (rank %d's report)", m->heard_why, st.MPI_SOURCE);
  watch(m, what);
  atomic_store(&m->heard, 1);
  return 1;
}

static void *listen_for_alarms(void *arg) {
  mpi_procs *m = arg;
  const struct timespec t = {0, LISTEN_MS * 1000000L};
  while (!atomic_load(&m->stop_listening) && !take_alarm(m)) nanosleep(&t, NULL);
  return NULL;
}

static void start_listening(mpi_procs *m) {
  if (m->listen_asked) return;
  m->listen_asked = 1;
  int level = MPI_THREAD_SINGLE;
  MPI_Query_thread(&level);
  m->listening = level == MPI_THREAD_MULTIPLE && pthread_create(&m->listener, NULL, listen_for_alarms, m) == 0;
}

static int procs_alarmed(void *ctx) {
  mpi_procs *m = ctx;
  if (!atomic_load(&m->heard) && !m->listening) take_alarm(m);
  return atomic_load(&m->heard);
}

wm_bfs_procs *wm_bfs_procs_mpi_create(MPI_Comm comm, int end_stuck, wm_error *err) {
  mpi_procs *m = calloc(1, sizeof *m);
  if (!m) return wm_fail(err, WM_EINPUT, "out of memory"), NULL;
  m->comm = comm;
  m->end_stuck = end_stuck;
  MPI_Comm_rank(comm, &m->p.process);
  MPI_Comm_size(comm, &m->p.processes);
  if (MPI_Comm_dup(comm, &m->alarms) != MPI_SUCCESS ||
      MPI_Irecv(m->heard_why, ALARM_BYTES, MPI_CHAR, MPI_ANY_SOURCE, 0, m->alarms, &m->waiting) != MPI_SUCCESS) {
    free(m);
    wm_fail(err, WM_EINPUT, "MPI: cannot set up the GPU searches' alarms");
    return NULL;
  }
  m->p.ctx = m;
  m->p.first_device = 0; /* each rank's own GPUs, pinned by CUDA_VISIBLE_DEVICES */
  m->p.bcast = procs_bcast;
  m->p.sum_u64 = procs_sum_u64;
  m->p.gather_u32 = procs_gather_u32;
  m->p.alarm = procs_alarm;
  m->p.alarmed = procs_alarmed;
  return &m->p;
}

/* Collective.  After a failure, alarms sent to a rank that had heard one
 * already are still waiting: taken here, once every rank has sent its. */
void wm_bfs_procs_mpi_destroy(wm_bfs_procs *p) {
  if (!p) return;
  mpi_procs *m = p->ctx;
  if (m->listening) {
    atomic_store(&m->stop_listening, 1);
    pthread_join(m->listener, NULL);
  }
  MPI_Barrier(m->alarms);
  if (!atomic_load(&m->heard)) {
    MPI_Cancel(&m->waiting);
    MPI_Wait(&m->waiting, MPI_STATUS_IGNORE);
  }
  for (int more = 1; more;) {
    MPI_Iprobe(MPI_ANY_SOURCE, 0, m->alarms, &more, MPI_STATUS_IGNORE);
    if (more) MPI_Recv(m->drained, ALARM_BYTES, MPI_CHAR, MPI_ANY_SOURCE, 0, m->alarms, MPI_STATUS_IGNORE);
  }
  MPI_Comm_free(&m->alarms);
  atomic_store(&watch_disarmed, 1); /* every rank got here: none waits on a GPU that is gone */
  free(m);
}
