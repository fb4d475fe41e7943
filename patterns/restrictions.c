/* Symmetry-breaking restrictions (GraphZero / GraphPi).
 *
 * Walk the vertices in a chosen order keeping G, the subgroup of Aut(P)
 * that fixes every vertex walked so far (G starts as Aut(P)).  For the next
 * vertex a, its orbit under G is O(a); add a < b for every other b in O(a),
 * then shrink G to the stabiliser of a.  By orbit-stabiliser the orbit sizes
 * multiply to |Aut(P)|, and of the |Aut(P)| embeddings of one subgraph
 * exactly one satisfies every restriction.
 *
 * G is never stored: b is in O(a) iff some automorphism fixes the walked
 * vertices and maps a to b, which one pruned backtracking search answers.
 * So this needs no memory and cannot fail. */
#include <string.h>

#include "pattern_internal.h"
#include "patterns.h"

unsigned wm_pattern_restrictions_ordered(const wm_pattern *p, const uint8_t order[],
                                         wm_restriction out[WM_MAX_K * WM_MAX_K]) {
  int8_t want[WM_MAX_K];
  memset(want, -1, sizeof want);
  uint8_t g[WM_MAX_K];
  unsigned n = 0;
  if (p->k < 2 || p->k > WM_MAX_K) return 0; /* invalid: wm_pattern_validate says why */
  for (unsigned idx = 0; idx < p->k; idx++) {
    unsigned a = order ? order[idx] : idx;
    for (unsigned b = 0; b < p->k; b++) {
      if (b == a || want[b] >= 0) continue; /* fixed vertices have trivial orbits */
      want[a] = (int8_t)b;
      if (wm_pattern_find_automorphism(p, want, g)) {
        out[n].a = (uint8_t)a;
        out[n].b = (uint8_t)b;
        n++;
      }
    }
    want[a] = (int8_t)a; /* restrict G to the stabiliser of a */
  }
  return n;
}

unsigned wm_pattern_restrictions(const wm_pattern *p, wm_restriction out[WM_MAX_K * WM_MAX_K]) {
  return wm_pattern_restrictions_ordered(p, NULL, out);
}

/* G is the members of aut that fix every walked vertex; O(a) their images of a. */
unsigned wm_pattern_restrictions_in_group(const wm_automorphisms *aut, unsigned k, const uint8_t order[],
                                          wm_restriction out[WM_MAX_K * WM_MAX_K]) {
  unsigned n = 0, walked = 0;
  if (k < 2 || k > WM_MAX_K) return 0;
  for (unsigned idx = 0; idx < k; idx++) {
    const unsigned a = order ? order[idx] : idx;
    unsigned orbit = 0;
    for (uint32_t g = 0; g < aut->count; g++) {
      const uint8_t *perm = aut->perm[g];
      unsigned v = 0;
      while (v < k && (!((walked >> v) & 1u) || perm[v] == v)) v++;
      if (v == k) orbit |= 1u << perm[a];
    }
    for (unsigned b = 0; b < k; b++)
      if (b != a && !((walked >> b) & 1u) && ((orbit >> b) & 1u)) {
        out[n].a = (uint8_t)a;
        out[n].b = (uint8_t)b;
        n++;
      }
    walked |= 1u << a;
  }
  return n;
}
