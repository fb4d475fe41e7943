/* The ranks' heartbeat (cli.h, "MPI ranks"): a rank that stops answering
 * (stopped, swapped out for good, wedged in the kernel) would leave every
 * other rank waiting in its next collective forever, and mpirun notices
 * only ranks that exit.  So each rank runs a watcher thread of its own, on
 * a communicator of its own: it sends a one-byte beat every timeout/4 and
 * notes when it last heard from each rank it watches (rank 0 watches every
 * other rank, every other rank watches rank 0).  The thread beats whatever
 * the rank's own threads are doing, so long work on one rank never looks
 * like silence.  A rank silent for longer than the timeout makes the
 * watcher print its name and end the job with MPI_Abort.  At the end the
 * watchers say goodbye (a last message, after which a peer sends nothing
 * more: messages between two ranks on one communicator arrive in order),
 * so no beat is left unmatched when the communicator is freed. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cli_mpi_watch.h"

#ifdef WM_HAVE_MPI
#include <mpi.h>

enum { TAG_BEAT = 1, TAG_BYE = 2, TICK_MS = 50 };

typedef struct peer {
  int rank;
  MPI_Request recv; /* the next word from it */
  char word;
  double heard;     /* MPI_Wtime of its last word */
  int gone;         /* it said goodbye */
} peer;

static struct {
  MPI_Comm comm;
  int rank, ranks;
  double timeout, period;
  peer *peers;
  int npeers;
  pthread_t thread;
  int running;
  atomic_int stopping;
} W;

static const char beat_word = 0; /* the send buffer of every beat: never written */

static void say(int tag) {
  for (int i = 0; i < W.npeers; i++) {
    MPI_Request r;
    if (MPI_Isend(&beat_word, 1, MPI_CHAR, W.peers[i].rank, tag, W.comm, &r) == MPI_SUCCESS) MPI_Request_free(&r);
  }
}

static int listen_to(peer *p) {
  return MPI_Irecv(&p->word, 1, MPI_CHAR, p->rank, MPI_ANY_TAG, W.comm, &p->recv) == MPI_SUCCESS;
}

/* Takes every word that has come from p; 0 once it said goodbye. */
static int hear(peer *p, double now) {
  int done = 0;
  MPI_Status st;
  while (!p->gone && MPI_Test(&p->recv, &done, &st) == MPI_SUCCESS && done) {
    p->heard = now;
    p->gone = st.MPI_TAG == TAG_BYE;
    if (!p->gone && !listen_to(p)) p->gone = 1; /* cannot listen: stop watching it rather than accuse it */
  }
  return !p->gone;
}

static void accuse(const peer *p, double now) {
  fprintf(stderr, "warpmatch: rank %d of %d stopped answering (no word for %.0f s, more than WM_MPI_TIMEOUT=%g); "
                  "ending every rank\n",
          p->rank, W.ranks, floor(now - p->heard), W.timeout);
  fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

static void *watch(void *arg) {
  (void)arg;
  const struct timespec tick = {0, TICK_MS * 1000000L}; /* well below a period: timeouts are 1 s or more */
  double next_beat = 0;
  int said_bye = 0, listening = 1;
  while (listening || !said_bye) {
    const double now = MPI_Wtime();
    if (atomic_load(&W.stopping) && !said_bye) {
      say(TAG_BYE);
      said_bye = 1;
    } else if (!said_bye && now >= next_beat) {
      say(TAG_BEAT);
      next_beat = now + W.period;
    }
    listening = 0;
    for (int i = 0; i < W.npeers; i++) {
      peer *p = &W.peers[i];
      if (!hear(p, now)) continue;
      listening = 1;
      if (now - p->heard > W.timeout) accuse(p, now);
    }
    if (listening || !said_bye) nanosleep(&tick, NULL);
  }
  return NULL;
}

/* WM_MPI_TIMEOUT's seconds; -1 when it is not a number in range. */
static double timeout_of(const char *s) {
  if (!s || !*s) return WM_MPI_TIMEOUT_DEFAULT;
  char *end;
  errno = 0;
  const double t = strtod(s, &end);
  if (errno || *end || !(t == 0 || (t >= 1 && t <= WM_MPI_TIMEOUT_MAX))) return -1;
  return t;
}

int wm_mpi_watch_timeout(double *seconds, char *msg, size_t size) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char *s = getenv("WM_MPI_TIMEOUT");
  double t = rank == 0 ? timeout_of(s) : 0;
  MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD); /* rank 0's setting for all: beats and patience must agree */
  *seconds = t;
  if (t >= 0) return 0;
  snprintf(msg, size, "WM_MPI_TIMEOUT='%.40s': expected seconds from 1 to %d, or 0 to turn the watch off",
           rank == 0 ? s : "", WM_MPI_TIMEOUT_MAX);
  return 1;
}

int wm_mpi_watch_start(double timeout) {
  if (timeout <= 0) return 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &W.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &W.ranks);
  if (W.ranks < 2 || MPI_Comm_dup(MPI_COMM_WORLD, &W.comm) != MPI_SUCCESS) return 0;
  W.timeout = timeout;
  W.period = timeout / 4;
  W.npeers = W.rank == 0 ? W.ranks - 1 : 1;
  W.peers = calloc((size_t)W.npeers, sizeof *W.peers);
  int ok = W.peers != NULL;
  const double now = MPI_Wtime();
  for (int i = 0; ok && i < W.npeers; i++) {
    W.peers[i].rank = W.rank == 0 ? i + 1 : 0;
    W.peers[i].heard = now;
    ok = listen_to(&W.peers[i]);
  }
  atomic_store(&W.stopping, 0);
  W.running = ok && pthread_create(&W.thread, NULL, watch, NULL) == 0;
  return W.running;
}

void wm_mpi_watch_stop(void) {
  if (!W.running) return;
  atomic_store(&W.stopping, 1);
  pthread_join(W.thread, NULL); /* every peer's goodbye taken: nothing left in flight */
  W.running = 0;
  free(W.peers);
  W.peers = NULL;
  MPI_Comm_free(&W.comm);
}

/* WM_MPI_STOP_RANK=r: rank r stops itself (SIGSTOP) after the set-up, as a
 * rank does that the system pauses or that hangs; it says its pid first,
 * so that the test can clear it away. */
void wm_mpi_watch_injected_stop(void) {
  const char *s = getenv("WM_MPI_STOP_RANK");
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (!s || !*s || atoi(s) != rank) return;
  fprintf(stderr, "warpmatch: rank %d (pid %ld) stops itself (fault injected by WM_MPI_STOP_RANK)\n", rank,
          (long)getpid());
  fflush(stderr);
  raise(SIGSTOP);
}

#endif
