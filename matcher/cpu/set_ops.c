/* Sorted-set operations (see set_ops.h for the strategy). */
#include "set_ops.h"

#include "base.h"

uint32_t wm_set_lower_bound(const uint32_t *a, uint32_t n, uint32_t x) {
  return (uint32_t)wm_sorted_lower_bound(a, n, x);
}

uint32_t wm_set_gallop(const uint32_t *a, uint32_t n, uint32_t from, uint32_t x) {
  if (from >= n || a[from] >= x) return from;
  /* a[from] < x: double the step until a[from + step] >= x, then search the
   * last gap. */
  uint32_t lo = from;
  uint64_t step = 1;
  while (step < (uint64_t)(n - lo) && a[lo + step] < x) {
    lo += (uint32_t)step;
    step <<= 1;
  }
  uint32_t hi = step < (uint64_t)(n - lo) ? lo + (uint32_t)step : n;
  return lo + 1 + wm_set_lower_bound(a + lo + 1, hi - lo - 1, x);
}

int wm_set_contains(const uint32_t *a, uint32_t n, uint32_t x) {
  return wm_sorted_contains(a, n, x);
}

void wm_set_trim(const uint32_t **a, uint32_t *n, uint32_t lo, uint32_t hi) {
  const uint32_t *p = *a;
  uint32_t len = *n;
  if (lo > 0 && len && p[0] < lo) {
    uint32_t s = wm_set_lower_bound(p, len, lo);
    p += s;
    len -= s;
  }
  if (len && p[len - 1] >= hi) len = wm_set_lower_bound(p, len, hi);
  *a = p;
  *n = len;
}

static int skewed(uint32_t na, uint32_t nb) {
  uint64_t lo = na < nb ? na : nb, hi = na < nb ? nb : na;
  return hi > (uint64_t)WM_GALLOP_RATIO * lo;
}

/* Elements of the short list s found in the long list l. */
static uint32_t gallop_intersect(const uint32_t *s, uint32_t ns, const uint32_t *l, uint32_t nl,
                                 uint32_t *out) {
  uint32_t c = 0, j = 0;
  for (uint32_t i = 0; i < ns && j < nl; i++) {
    j = wm_set_gallop(l, nl, j, s[i]);
    if (j < nl && l[j] == s[i]) {
      if (out) out[c] = s[i];
      c++;
    }
  }
  return c;
}

static uint32_t merge_intersect(const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb,
                                uint32_t *out) {
  uint32_t i = 0, j = 0, c = 0;
  while (i < na && j < nb) {
    uint32_t x = a[i], y = b[j];
    if (x == y) {
      if (out) out[c] = x;
      c++;
    }
    i += x <= y;
    j += y <= x;
  }
  return c;
}

static uint32_t intersect_any(const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb,
                              uint32_t *out) {
  if (!na || !nb) return 0;
  if (skewed(na, nb))
    return na < nb ? gallop_intersect(a, na, b, nb, out) : gallop_intersect(b, nb, a, na, out);
  return merge_intersect(a, na, b, nb, out);
}

uint32_t wm_set_intersect(const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb,
                          uint32_t *out) {
  return intersect_any(a, na, b, nb, out);
}

uint32_t wm_set_intersect_count(const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb) {
  return intersect_any(a, na, b, nb, 0);
}

uint32_t wm_set_subtract(const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb,
                         uint32_t *out) {
  uint32_t c = 0;
  if (!nb || !na) {
    for (uint32_t i = 0; i < na; i++) out[i] = a[i];
    return na;
  }
  if (na > (uint64_t)WM_GALLOP_RATIO * nb) {
    /* Few holes in a long list: copy the runs between them. */
    uint32_t i = 0;
    for (uint32_t j = 0; j < nb && i < na; j++) {
      uint32_t s = wm_set_gallop(a, na, i, b[j]);
      while (i < s) out[c++] = a[i++];
      if (i < na && a[i] == b[j]) i++;
    }
    while (i < na) out[c++] = a[i++];
    return c;
  }
  if (nb > (uint64_t)WM_GALLOP_RATIO * na) {
    uint32_t j = 0;
    for (uint32_t i = 0; i < na; i++) {
      j = wm_set_gallop(b, nb, j, a[i]);
      if (j >= nb || b[j] != a[i]) out[c++] = a[i];
    }
    return c;
  }
  uint32_t i = 0, j = 0;
  while (i < na && j < nb) {
    uint32_t x = a[i], y = b[j];
    if (x < y) out[c++] = x;
    i += x <= y;
    j += y <= x;
  }
  while (i < na) out[c++] = a[i++];
  return c;
}

uint32_t wm_set_subtract_count(const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb) {
  return na - intersect_any(a, na, b, nb, 0);
}
