/* Sorted-set operations of the executors: intersect, subtract and their
 * counting forms over ascending uint32 lists.  Similar sizes merge; when one
 * list is more than WM_GALLOP_RATIO times longer, each element of the short
 * list is found in the long one by galloping (exponential then binary
 * search), so a small set against a hub's list costs |small| * log|large|.
 * Written as plain loops over (pointer, length) so that the GPU kernel can
 * mirror the same choices. */
#ifndef WM_SET_OPS_H
#define WM_SET_OPS_H

#include <stdint.h>

#define WM_GALLOP_RATIO 16u

/* First index i with a[i] >= x (n when none). */
uint32_t wm_set_lower_bound(const uint32_t *a, uint32_t n, uint32_t x);
/* First index i >= from with a[i] >= x, by galloping from `from`. */
uint32_t wm_set_gallop(const uint32_t *a, uint32_t n, uint32_t from, uint32_t x);
int wm_set_contains(const uint32_t *a, uint32_t n, uint32_t x);

/* Narrows (*a, *n) to the values in [lo, hi). */
void wm_set_trim(const uint32_t **a, uint32_t *n, uint32_t lo, uint32_t hi);

/* out must hold min(na, nb) (intersect) or na (subtract) elements and must
 * not overlap a or b.  Return the number of elements written / counted. */
uint32_t wm_set_intersect(const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb,
                          uint32_t *out);
uint32_t wm_set_subtract(const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb,
                         uint32_t *out);
uint32_t wm_set_intersect_count(const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb);
uint32_t wm_set_subtract_count(const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb);

#endif
