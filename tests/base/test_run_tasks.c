/* wm_run_tasks (base/run_tasks.c): every task runs once, on as many
 * threads as asked and no more than the tasks, whatever the counts. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "base.h"

typedef struct ran {
  atomic_uint *times;    /* per task */
  pthread_t threads[64]; /* the distinct threads that ran tasks */
  atomic_uint n_threads;
  pthread_mutex_t lock;
} ran;

static void note(void *ctx, unsigned task) {
  ran *r = (ran *)ctx;
  atomic_fetch_add(&r->times[task], 1);
  pthread_mutex_lock(&r->lock);
  const unsigned n = atomic_load(&r->n_threads);
  unsigned i = 0;
  while (i < n && !pthread_equal(r->threads[i], pthread_self())) i++;
  if (i == n && n < 64) r->threads[n] = pthread_self(), atomic_store(&r->n_threads, n + 1);
  pthread_mutex_unlock(&r->lock);
  /* a little work, so that the threads started overlap */
  volatile double x = 0;
  for (int k = 0; k < 2000; k++) x += k;
}

Test(run_tasks, each_task_once) {
  const unsigned tasks[] = {0, 1, 5, 1000}, threads[] = {0, 1, 2, 8, 2000};
  for (size_t a = 0; a < sizeof tasks / sizeof *tasks; a++)
    for (size_t b = 0; b < sizeof threads / sizeof *threads; b++) {
      const unsigned n = tasks[a];
      ran r = {calloc(n ? n : 1, sizeof(atomic_uint)), {0}, 0, PTHREAD_MUTEX_INITIALIZER};
      cr_assert(r.times);
      wm_run_tasks(n, threads[b], note, &r);
      for (unsigned i = 0; i < n; i++)
        cr_assert_eq(atomic_load(&r.times[i]), 1u, "%u tasks on %u threads: task %u ran %u times", n, threads[b],
                     i, atomic_load(&r.times[i]));
      const unsigned most = threads[b] < n ? threads[b] : n;
      cr_assert_leq(atomic_load(&r.n_threads), most > 1 ? most : (n ? 1u : 0u), "%u tasks on %u threads: %u ran",
                    n, threads[b], atomic_load(&r.n_threads));
      free(r.times);
    }
}
