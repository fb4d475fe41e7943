/* Sorting of vertex-id arrays: adjacency rows while building a CSR, and id
 * lists while compacting sparse ids.  Specialised for u32 because qsort's
 * comparator call per comparison costs several times more on rows of ints. */
#include <stddef.h>
#include <stdint.h>

#include "graph_internal.h"

static void insertion_sort(uint32_t *a, size_t n) {
  for (size_t i = 1; i < n; i++) {
    uint32_t x = a[i];
    size_t j = i;
    while (j > 0 && a[j - 1] > x) {
      a[j] = a[j - 1];
      j--;
    }
    a[j] = x;
  }
}

static void sift_down(uint32_t *a, size_t root, size_t n) {
  uint32_t x = a[root];
  for (;;) {
    size_t c = 2 * root + 1;
    if (c >= n) break;
    if (c + 1 < n && a[c + 1] > a[c]) c++;
    if (a[c] <= x) break;
    a[root] = a[c];
    root = c;
  }
  a[root] = x;
}

static void heap_sort(uint32_t *a, size_t n) {
  for (size_t i = n / 2; i-- > 0;) sift_down(a, i, n);
  for (size_t i = n; i-- > 1;) {
    uint32_t t = a[0];
    a[0] = a[i];
    a[i] = t;
    sift_down(a, 0, i);
  }
}

static uint32_t median3(uint32_t x, uint32_t y, uint32_t z) {
  if (x > y) {
    uint32_t t = x;
    x = y;
    y = t;
  }
  return z <= x ? x : (z >= y ? y : z);
}

/* Quicksort recursing on the smaller part (stack depth O(log n)); the depth
 * budget switches to heapsort on adversarial inputs so the worst case stays
 * O(n log n) even for crafted files. */
static void intro_sort(uint32_t *a, size_t n, int depth) {
  while (n > 24) {
    if (depth-- == 0) {
      heap_sort(a, n);
      return;
    }
    uint32_t p = median3(a[0], a[n / 2], a[n - 1]);
    /* Three-way partition: rows full of duplicates (multigraph inputs)
     * collapse at once instead of degrading. */
    size_t lt = 0, i = 0, gt = n;
    while (i < gt) {
      uint32_t x = a[i];
      if (x < p) {
        a[i++] = a[lt];
        a[lt++] = x;
      } else if (x > p) {
        a[i] = a[--gt];
        a[gt] = x;
      } else {
        i++;
      }
    }
    size_t left = lt, right = n - gt;
    if (left < right) {
      intro_sort(a, left, depth);
      a += gt;
      n = right;
    } else {
      intro_sort(a + gt, right, depth);
      n = left;
    }
  }
  insertion_sort(a, n);
}

void wm_sort_u32(uint32_t *a, size_t n) {
  /* Rows of sorted input files arrive sorted: one scan settles them. */
  size_t i = 1;
  while (i < n && a[i - 1] <= a[i]) i++;
  if (i >= n) return;
  int depth = 0;
  for (size_t k = n; k > 1; k >>= 1) depth += 2;
  intro_sort(a, n, depth);
}

size_t wm_unique_u32(uint32_t *a, size_t n) {
  if (n == 0) return 0;
  size_t w = 1;
  for (size_t i = 1; i < n; i++)
    if (a[i] != a[w - 1]) a[w++] = a[i];
  return w;
}
