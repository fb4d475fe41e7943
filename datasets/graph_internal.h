/* Helpers shared by the files of datasets/ that build or rewrite graphs.
 * Not part of the public contract (datasets.h). */
#ifndef WM_GRAPH_INTERNAL_H
#define WM_GRAPH_INTERNAL_H

#include <omp.h>
#include <stddef.h>
#include <stdint.h>

#include "datasets.h"

/* Below WM_PAR_MIN items a loop runs on one thread: waking a team costs
 * more than the work.  Above it a loop runs on one thread per
 * WM_PAR_GRAIN items, at most on every thread (wm_par_threads), so that a
 * small graph's loops do not wake every core of a large host for
 * microseconds of work each (facebook's 0.8 MB edge list, `orbits
 * --no-cache` on a 16-core H200 host: loaded in 4.8-4.9 ms against
 * 5.9-7.4 with every thread in every region). */
#define WM_PAR_MIN 65536
#define WM_PAR_GRAIN 16384

static inline int wm_par_threads(uint64_t n, uint64_t per_thread) {
  const uint64_t want = n < WM_PAR_MIN ? 1 : n / per_thread, most = (uint64_t)omp_get_max_threads();
  return want < 1 ? 1 : want > most ? (int)most : (int)want;
}

/* Sorts a[0..n) ascending (introsort specialised for u32: no comparator
 * calls, insertion sort for short runs, heapsort when recursion is deep). */
void wm_sort_u32(uint32_t *a, size_t n);
/* Removes adjacent duplicates of a sorted array; returns the new length. */
size_t wm_unique_u32(uint32_t *a, size_t n);

/* Exclusive prefix sum in place over a[0..n): a[i] becomes the sum of the
 * old a[0..i).  Returns the total.  Parallel (OpenMP) for large n. */
uint64_t wm_prefix_sum_u64(uint64_t *a, size_t n);

/* Renumbers the ids used in src/dst (all <= max_id) to 0..n-1 keeping
 * their order.  *orig_out gets the ascending file ids (n entries), or NULL
 * when the ids were already 0..n-1 (then src/dst are left as they are).
 * Returns 0, or -1 when out of memory. */
int wm_compact_ids(uint32_t *src, uint32_t *dst, uint64_t count, uint32_t max_id,
                   uint32_t *n_out, uint32_t **orig_out);

/* malloc for big arrays: at 4 MB and above, 2 MB aligned and marked for
 * transparent huge pages (fewer page faults when filled, fewer TLB misses
 * in the builder's scattered writes).  Release with free(). */
void *wm_alloc_big(size_t bytes);

/* Allocates an empty graph struct with offsets for n vertices (zeroed) and
 * no adj array yet; NULL when out of memory. */
wm_graph *wm_graph_alloc_offsets(uint32_t n);

/* Checks that g, just read from the .wmg file `path` with valid hashes,
 * keeps every promise of the format and its flags (wmg_check.c); WM_EINPUT
 * naming the file and the first fault otherwise. */
int wm_wmg_check(const wm_graph *g, const char *path, wm_error *err);

#endif
