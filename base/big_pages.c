/* Memory for large arrays (base.h): the huge-page hint, and zeroed
 * mappings. */
#define _DEFAULT_SOURCE /* madvise's MADV_HUGEPAGE */
#include <stdint.h>
#include <sys/mman.h>

#include "base.h"

#define HUGE_PAGE ((uintptr_t)2 << 20)
#define BIG ((size_t)32 << 20)

void wm_big_pages(void *p, size_t bytes) {
#ifdef MADV_HUGEPAGE
  if (!p || bytes < BIG) return;
  const uintptr_t lo = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
  const uintptr_t hi = ((uintptr_t)p + bytes) & ~(HUGE_PAGE - 1);
  if (hi > lo) (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE); /* a hint: where refused, 4 KB pages as before */
#else
  (void)p, (void)bytes;
#endif
}

void *wm_zeroed_map(size_t bytes) {
  /* NORESERVE: counted as pages are touched, as separate callocs would be;
   * many threads' scratch for a large graph is far more than is ever
   * touched, and one mapping of it all would fail the kernel's heuristic
   * check against memory that a calloc per thread passes. */
  void *p = mmap(NULL, bytes ? bytes : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? NULL : p; /* 4 KB pages: scratch is touched sparsely */
}

void wm_zeroed_release(void *p, size_t bytes) {
  if (p && bytes) (void)madvise(p, bytes, MADV_DONTNEED); /* where refused, the unmap frees them */
}

void wm_zeroed_unmap(void *p, size_t bytes) {
  if (p) munmap(p, bytes ? bytes : 1);
}
