/* Label-preserving automorphisms by backtracking: vertices are mapped in a
 * connected order, and an image is tried only when its label and degree
 * match and its adjacency to the images already chosen mirrors the
 * vertex's adjacency to the vertices already mapped. */
#include <stdlib.h>
#include <string.h>

#include "pattern_internal.h"
#include "patterns.h"

typedef struct aut_search {
  const wm_pattern *p;
  uint8_t order[WM_MAX_K]; /* vertices in the order they are mapped */
  int8_t want[WM_MAX_K];   /* required image or -1 */
  uint8_t img[WM_MAX_K];
  uint8_t used;            /* images taken */
  uint32_t found;
  uint32_t limit;          /* stop after this many */
  uint8_t (*store)[WM_MAX_K]; /* NULL: only count */
} aut_search;

/* BFS order from vertex 0: each vertex after the first has a mapped
 * neighbour, so the adjacency test prunes from the second level on. */
static void connected_order(const wm_pattern *p, uint8_t order[WM_MAX_K]) {
  uint8_t seen = 0;
  unsigned n = 0;
  for (unsigned s = 0; s < p->k; s++) {
    if ((seen >> s) & 1u) continue;
    seen |= (uint8_t)(1u << s);
    unsigned head = n;
    order[n++] = (uint8_t)s;
    while (head < n) {
      unsigned v = order[head++];
      for (unsigned w = 0; w < p->k; w++)
        if (wm_pattern_has_edge(p, v, w) && !((seen >> w) & 1u)) {
          seen |= (uint8_t)(1u << w);
          order[n++] = (uint8_t)w;
        }
    }
  }
}

static int fits(const aut_search *s, unsigned depth, unsigned v, unsigned w) {
  const wm_pattern *p = s->p;
  if ((s->used >> w) & 1u) return 0;
  if (s->want[v] >= 0 && (unsigned)s->want[v] != w) return 0;
  if (p->label[v] != p->label[w]) return 0;
  if (wm_pattern_degree(p, v) != wm_pattern_degree(p, w)) return 0;
  for (unsigned d = 0; d < depth; d++) {
    unsigned x = s->order[d];
    if (wm_pattern_has_edge(p, v, x) != wm_pattern_has_edge(p, w, s->img[x])) return 0;
  }
  return 1;
}

static void search(aut_search *s, unsigned depth) {
  if (s->found >= s->limit) return;
  if (depth == s->p->k) {
    if (s->store) memcpy(s->store[s->found], s->img, WM_MAX_K);
    s->found++;
    return;
  }
  unsigned v = s->order[depth];
  for (unsigned w = 0; w < s->p->k; w++) {
    if (!fits(s, depth, v, w)) continue;
    s->img[v] = (uint8_t)w;
    s->used |= (uint8_t)(1u << w);
    search(s, depth + 1);
    s->used &= (uint8_t)~(1u << w);
    if (s->found >= s->limit) return;
  }
}

static void search_init(aut_search *s, const wm_pattern *p) {
  memset(s, 0, sizeof *s);
  s->p = p;
  connected_order(p, s->order);
  memset(s->want, -1, sizeof s->want);
  for (unsigned i = p->k; i < WM_MAX_K; i++) s->img[i] = (uint8_t)i;
  s->limit = UINT32_MAX;
}

int wm_pattern_find_automorphism(const wm_pattern *p, const int8_t want[WM_MAX_K],
                                 uint8_t out[WM_MAX_K]) {
  aut_search s;
  search_init(&s, p);
  memcpy(s.want, want, sizeof s.want);
  s.limit = 1;
  s.store = (uint8_t(*)[WM_MAX_K])out;
  search(&s, 0);
  return s.found == 1;
}

int wm_pattern_automorphisms(const wm_pattern *p, wm_automorphisms *out, wm_error *err) {
  out->count = 0;
  out->perm = NULL;
  int rc = wm_pattern_validate(p, err);
  if (rc) return rc;
  aut_search s;
  search_init(&s, p);
  search(&s, 0); /* first pass counts, so one exact allocation suffices */
  uint32_t count = s.found;
  uint8_t(*perm)[WM_MAX_K] = malloc((size_t)count * sizeof *perm);
  if (!perm)
    return wm_fail(err, WM_EINPUT, "out of memory for %u automorphisms of pattern '%s'",
                   (unsigned)count, p->name);
  search_init(&s, p);
  s.store = perm;
  search(&s, 0);
  out->count = count;
  out->perm = perm;
  return WM_OK;
}

void wm_automorphisms_free(wm_automorphisms *a) {
  if (!a) return;
  free(a->perm);
  a->perm = NULL;
  a->count = 0;
}
