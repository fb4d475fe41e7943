/* The matrix that turns vertex-induced motif counts into edge-induced ones.
 *
 * A k-vertex subgraph of a graph whose induced class is j contains, as
 * edge-induced copies on the same k vertices, exactly the spanning
 * subgraphs of j.  So with M[i][j] the number of edge subsets of pattern j
 * that span its k vertices and form a copy of pattern i, the edge-induced
 * counts are N = M I over the induced counts I.  M is counted here from the
 * patterns themselves (every edge subset of every pattern, classified by
 * canonical form), not typed in. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "patterns.h"

/* The last matrix of each size, by its patterns' adjacency: motif
 * counting asks for the same one on every call (the one list of
 * wm_connected_patterns), and for k = 5 counting it (about 2,000
 * canonical forms) takes longer than a small graph's GPU passes; the
 * list's own 21 canonical forms, to compare by class, were a twentieth of
 * hub's 5-motif call.  Any other list is counted anew. */
typedef struct memo {
  unsigned n;
  uint8_t (*adj)[WM_MAX_K];
  uint64_t *M;
} memo;
static memo memos[7];
static pthread_mutex_t memo_lock = PTHREAD_MUTEX_INITIALIZER;

/* M from the memo of size k when it holds these very patterns. */
static int recall(unsigned k, const wm_pattern *pats, unsigned n, uint64_t *M) {
  pthread_mutex_lock(&memo_lock);
  const memo *m = &memos[k];
  int hit = m->n == n;
  for (unsigned i = 0; i < n && hit; i++) hit = memcmp(m->adj[i], pats[i].adj, sizeof m->adj[i]) == 0;
  if (hit) memcpy(M, m->M, (size_t)n * n * sizeof *M);
  pthread_mutex_unlock(&memo_lock);
  return hit;
}

/* Keeps M for the next call (nothing when memory runs out: it is only a memo). */
static void remember(unsigned k, const wm_pattern *pats, unsigned n, const uint64_t *M) {
  uint8_t(*adj)[WM_MAX_K] = malloc(n * sizeof *adj);
  uint64_t *copy = malloc((size_t)n * n * sizeof *copy);
  if (!adj || !copy) {
    free(adj);
    free(copy);
    return;
  }
  for (unsigned i = 0; i < n; i++) memcpy(adj[i], pats[i].adj, sizeof adj[i]);
  memcpy(copy, M, (size_t)n * n * sizeof *copy);
  pthread_mutex_lock(&memo_lock);
  memo *m = &memos[k];
  free(m->adj);
  free(m->M);
  m->n = n, m->adj = adj, m->M = copy;
  pthread_mutex_unlock(&memo_lock);
}

static int spans_connected(const uint8_t *adj, unsigned k) {
  unsigned seen = 1, frontier = 1;
  while (frontier) {
    unsigned next = 0;
    for (unsigned v = 0; v < k; v++)
      if ((frontier >> v) & 1u) next |= adj[v];
    frontier = next & ~seen;
    seen |= next;
  }
  return seen == (1u << k) - 1;
}

/* Index in pats of h's class, or -1. */
static int class_of(const wm_pattern *h, const uint64_t *hashes, const wm_canonical *forms, unsigned n) {
  wm_canonical c;
  wm_pattern_canonical(h, &c);
  for (unsigned i = 0; i < n; i++)
    if (hashes[i] == c.hash && wm_canonical_same(&forms[i], &c)) return (int)i; /* hashes first: they are dense */
  return -1;
}

int wm_spanning_matrix(const wm_pattern *pats, unsigned n, uint64_t *M, wm_error *err) {
  if (n == 0) return WM_OK;
  const unsigned k = pats[0].k;
  if (k < 2 || k > 6)
    return wm_fail(err, WM_EUSAGE, "spanning matrix: patterns need 2 to 6 vertices, not %u", k);
  for (unsigned i = 0; i < n; i++)
    if (pats[i].k != k || pats[i].labeled)
      return wm_fail(err, WM_EUSAGE, "spanning matrix: pattern %s is not an unlabeled %u-vertex pattern",
                     pats[i].name, k);
  if (recall(k, pats, n, M)) return WM_OK;
  wm_canonical *forms = malloc(n * sizeof *forms);
  uint64_t *hashes = malloc(n * sizeof *hashes);
  if (!forms || !hashes) {
    free(forms);
    free(hashes);
    return wm_fail(err, WM_EINPUT, "out of memory");
  }
  for (unsigned i = 0; i < n; i++) {
    wm_pattern_canonical(&pats[i], &forms[i]);
    hashes[i] = forms[i].hash;
  }
  memset(M, 0, (size_t)n * n * sizeof *M);
  for (unsigned j = 0; j < n; j++) {
    uint8_t ea[WM_MAX_K * WM_MAX_K], eb[WM_MAX_K * WM_MAX_K];
    unsigned m = 0;
    for (unsigned a = 0; a < k; a++)
      for (unsigned b = a + 1; b < k; b++)
        if (wm_pattern_has_edge(&pats[j], a, b)) ea[m] = (uint8_t)a, eb[m++] = (uint8_t)b;
    for (uint32_t subset = 1; subset < (1u << m); subset++) {
      wm_pattern h;
      wm_pattern_init(&h, k);
      for (unsigned e = 0; e < m; e++)
        if ((subset >> e) & 1u) wm_pattern_add_edge(&h, ea[e], eb[e]);
      if (!spans_connected(h.adj, k)) continue;
      int i = class_of(&h, hashes, forms, n);
      if (i >= 0) M[(size_t)i * n + j]++;
    }
  }
  remember(k, pats, n, M);
  free(forms);
  free(hashes);
  return WM_OK;
}
