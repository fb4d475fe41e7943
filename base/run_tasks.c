/* A short parallel loop on threads that block rather than spin (base.h:
 * wm_run_tasks).  The planner's measures run many times per plan, each a
 * tenth of a millisecond to tens; an OpenMP team's idle workers spin
 * between and after such regions, and on the GPU host (a virtual machine
 * of 16 vCPUs) plan --gpu of facebook p1 took 16 ms on 16 spinning
 * threads, 3.9 ms on the old 4-order batches, and 0.45 ms on 16 threads
 * under OMP_WAIT_POLICY=passive, a setting a library cannot make for the
 * program that loads it.  Threads started for one call and joined before
 * it returns never spin. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "base.h"

typedef struct tasks {
  void (*fn)(void *ctx, unsigned task);
  void *ctx;
  unsigned n;
  atomic_uint next;
} tasks;

static void *take_tasks(void *arg) {
  tasks *t = (tasks *)arg;
  for (unsigned i; (i = atomic_fetch_add(&t->next, 1)) < t->n;) t->fn(t->ctx, i);
  return NULL;
}

void wm_run_tasks(unsigned n, unsigned threads, void (*fn)(void *ctx, unsigned task), void *ctx) {
  tasks t = {fn, ctx, n, 0};
  if (threads > n) threads = n;
  pthread_t *started = threads > 1 ? malloc((threads - 1) * sizeof *started) : NULL;
  unsigned k = 0;
  while (started && k + 1 < threads && pthread_create(&started[k], NULL, take_tasks, &t) == 0) k++;
  take_tasks(&t); /* the caller's share, and every task where no thread started */
  for (unsigned i = 0; i < k; i++) pthread_join(started[i], NULL);
  free(started);
}
