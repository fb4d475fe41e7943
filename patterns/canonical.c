/* Canonical form by branch and bound over vertex orderings.
 *
 * Positions are filled left to right.  Position j may only take a vertex
 * whose (label ascending, degree descending) rank equals the sorted
 * sequence's entry j: that order is an isomorphism invariant, so the
 * restriction keeps the form canonical while cutting the search to the
 * product of the class sizes' factorials.  Among those orderings the key
 * is the column-wise upper triangle of the adjacency matrix: column j holds
 * the bits (0,j), (1,j) .. (j-1,j), read as a number with (0,j) the most
 * significant.  The largest key wins.  Column j is fixed as soon as
 * position j is filled, so a prefix that is already smaller than the best
 * key's prefix is cut at once. */
#include <string.h>
#include <xxhash.h>

#include "pattern_internal.h"
#include "patterns.h"

typedef struct canon_search {
  const wm_pattern *p;
  uint8_t cls[WM_MAX_K];      /* class of vertex v */
  uint8_t pos_cls[WM_MAX_K];  /* class required at position j */
  uint8_t perm[WM_MAX_K];     /* position j holds vertex perm[j] */
  uint8_t best_perm[WM_MAX_K];
  uint8_t best_col[WM_MAX_K]; /* key of best_perm, column j */
  uint8_t used;
  int have_best;
  unsigned updates;
} canon_search;

/* Rank vertices by (label ascending, degree descending); equal pairs share
 * a class. */
static void classify(canon_search *s) {
  const wm_pattern *p = s->p;
  uint8_t sorted[WM_MAX_K];
  for (unsigned v = 0; v < p->k; v++) sorted[v] = (uint8_t)v;
  for (unsigned i = 1; i < p->k; i++) /* insertion sort: k <= 8 */
    for (unsigned j = i; j > 0; j--) {
      unsigned a = sorted[j - 1], b = sorted[j];
      int32_t la = p->label[a], lb = p->label[b];
      unsigned da = wm_pattern_degree(p, a), db = wm_pattern_degree(p, b);
      if (la < lb || (la == lb && da >= db)) break;
      sorted[j - 1] = (uint8_t)b;
      sorted[j] = (uint8_t)a;
    }
  uint8_t c = 0;
  for (unsigned i = 0; i < p->k; i++) {
    unsigned v = sorted[i];
    if (i > 0) {
      unsigned u = sorted[i - 1];
      if (p->label[u] != p->label[v] || wm_pattern_degree(p, u) != wm_pattern_degree(p, v)) c++;
    }
    s->cls[v] = c;
    s->pos_cls[i] = c;
  }
}

static uint8_t column(const canon_search *s, unsigned j, unsigned v) {
  uint8_t col = 0;
  for (unsigned i = 0; i < j; i++)
    col = (uint8_t)((col << 1) | wm_pattern_has_edge(s->p, s->perm[i], v));
  return col;
}

/* better: the prefix so far is already larger than the best key's. */
static void search(canon_search *s, unsigned j, int better) {
  if (j == s->p->k) {
    if (!s->have_best || better) {
      memcpy(s->best_perm, s->perm, sizeof s->perm);
      s->have_best = 1;
      s->updates++;
    }
    return;
  }
  for (unsigned v = 0; v < s->p->k; v++) {
    if (((s->used >> v) & 1u) || s->cls[v] != s->pos_cls[j]) continue;
    uint8_t col = column(s, j, v);
    int b = better;
    if (s->have_best && !better) {
      if (col < s->best_col[j]) continue;
      if (col > s->best_col[j]) b = 1;
    }
    s->perm[j] = (uint8_t)v;
    s->used |= (uint8_t)(1u << v);
    unsigned before = s->updates;
    search(s, j + 1, b);
    s->used &= (uint8_t)~(1u << v);
    if (s->updates != before) {
      /* The new best runs through this prefix: record its column and
       * compare siblings against it from now on. */
      s->best_col[j] = col;
      better = 0;
    }
  }
}

static uint64_t form_hash(const wm_pattern *f) {
  unsigned char buf[1 + WM_MAX_K * 4 + WM_MAX_K];
  unsigned n = 0;
  buf[n++] = (unsigned char)f->k;
  for (unsigned i = 0; i < f->k; i++) { /* little-endian, whatever the host */
    uint32_t l = (uint32_t)f->label[i];
    for (unsigned b = 0; b < 4; b++) buf[n++] = (unsigned char)(l >> (8 * b));
  }
  for (unsigned i = 0; i < f->k; i++) buf[n++] = f->adj[i];
  return (uint64_t)XXH64(buf, n, 0);
}

int wm_canonical_same(const wm_canonical *a, const wm_canonical *b) {
  return a->hash == b->hash && a->form.k == b->form.k &&
         memcmp(a->form.adj, b->form.adj, sizeof a->form.adj) == 0;
}

void wm_pattern_canonical(const wm_pattern *p, wm_canonical *out) {
  wm_pattern q = *p; /* an invalid k must not run past the arrays */
  if (q.k > WM_MAX_K) q.k = WM_MAX_K;
  unsigned k = q.k;
  canon_search s;
  memset(&s, 0, sizeof s);
  s.p = &q;
  classify(&s);
  search(&s, 0, 0);

  wm_pattern *f = &out->form;
  wm_pattern_init(f, k);
  memcpy(f->name, p->name, sizeof f->name);
  f->labeled = p->labeled;
  for (unsigned i = 0; i < k; i++) {
    out->perm[i] = s.best_perm[i];
    f->label[i] = p->label[s.best_perm[i]];
    for (unsigned j = 0; j < k; j++)
      if (wm_pattern_has_edge(&q, s.best_perm[i], s.best_perm[j])) f->adj[i] |= (uint8_t)(1u << j);
  }
  for (unsigned i = k; i < WM_MAX_K; i++) out->perm[i] = (uint8_t)i;
  out->hash = form_hash(f);
}
