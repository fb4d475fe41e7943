/* What a .wmg file promises, checked before anything uses it.
 *
 * The hashes only say that the file is as its writer left it, and anyone
 * can compute XXH3, so a crafted file passes them.  The consumers trust the
 * CSR invariants instead: a one-way arc in a graph marked undirected makes
 * the triangle count of K4 zero, a repeated neighbour or file id lists a
 * match as "7 7 7", an id >= n reads out of bounds.  So every promise the
 * writer keeps is checked here, in parallel, each failure named by its
 * first (lowest) vertex so that the message does not depend on the threads:
 *
 *   - offsets start at 0, never decrease, end at the arc count;
 *   - every row is strictly ascending (sorted, no duplicate) with ids < n
 *     and no self loop (the builder guarantees it for every graph);
 *   - undirected (no DIRECTED flag): each arc u -> v has v -> u, checked
 *     by a fingerprint in the same pass (below);
 *     ORIENTED: each edge is stored once (no v -> u beside u -> v), and the
 *     flag comes with DIRECTED, as wm_graph_orient_by_degree sets them;
 *   - DEGREE_SORTED (not ORIENTED, whose rows lost the degrees it was
 *     sorted by): degrees never increase;
 *   - file ids (orig_ids): below WM_NO_VERTEX, ascending, or, when
 *     DEGREE_SORTED made them a permutation, distinct.
 *
 * Symmetry is the costly one: an exact check meets each arc's reverse in
 * another row, a cache miss or more per arc (by binary search, several),
 * which costs several times the read of the file itself.  So the arcs are
 * fingerprinted as they are scanned for the row checks, at memory speed:
 * with h a hash keyed by a random 64-bit key drawn at each load, the sum
 * mod 2^64 of h(u, v) over the arcs u -> v with u < v equals that of
 * h(v, u) over the arcs u -> v with u > v exactly when the two sets are
 * equal (no duplicates: the rows are checked strictly ascending), but for
 * a chance of about 2^-64 per load, which a crafted file cannot raise as
 * it cannot know the key.  A difference is then located exactly, by binary
 * search, for the message. */
#define _DEFAULT_SOURCE /* getrandom */
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "datasets.h"
#include "graph_internal.h"
#include "base.h"

#define BAD(...) wm_fail(err, WM_EINPUT, __VA_ARGS__)

static int check_offsets(const wm_graph *g, const char *path, wm_error *err) {
  const uint64_t *off = g->offsets;
  const uint32_t n = g->n;
  if (off[0] != 0)
    return BAD("%s: invalid .wmg file: the offsets start at %llu, not 0", path, (unsigned long long)off[0]);
  uint32_t first = n;
#pragma omp parallel for reduction(min : first) schedule(static) num_threads(wm_par_threads(n, WM_PAR_GRAIN))
  for (uint32_t v = 0; v < n; v++)
    if (off[v] > off[v + 1] && v < first) first = v;
  if (first < n)
    return BAD("%s: invalid .wmg file: the offsets decrease at vertex %u (%llu, then %llu)", path, first,
               (unsigned long long)off[first], (unsigned long long)off[first + 1]);
  if (off[n] != g->m)
    return BAD("%s: invalid .wmg file: the offsets end at %llu, not at the %llu arcs the header gives", path,
               (unsigned long long)off[n], (unsigned long long)g->m);
  return WM_OK;
}

/* splitmix64's finalizer: every output bit depends on every input bit.
 * The fingerprint hashes the edge {a < b} as mix64((a << 32 | b) ^ key). */
static inline uint64_t mix64(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/* Row v is strictly ascending, within 0..n-1 and without v itself. */
static int row_ok(const wm_graph *g, uint32_t v) {
  const uint32_t *a = g->adj + g->offsets[v];
  size_t d = (size_t)(g->offsets[v + 1] - g->offsets[v]);
  if (!d) return 1;
  int bad = (a[d - 1] >= g->n) | (a[0] == v); /* ascending: the last bounds them all */
  for (size_t i = 1; i < d; i++) bad |= (a[i] <= a[i - 1]) | (a[i] == v);
  return !bad;
}

/* Row v's share of the fingerprint: - h of the reverse for the arcs below
 * the diagonal, + h for those above (the row is ascending: below first). */
static uint64_t row_print(const wm_graph *g, uint32_t v, uint64_t key) {
  const uint32_t *a = g->adj;
  uint64_t sum = 0, e = g->offsets[v], end = g->offsets[v + 1], low = key ^ v, high = key ^ ((uint64_t)v << 32);
  for (; e < end && a[e] < v; e++) sum -= mix64(low ^ ((uint64_t)a[e] << 32));
  for (; e < end; e++) sum += mix64(high ^ a[e]);
  return sum;
}

/* The message for row v, which row_ok refused. */
static int row_fault(const wm_graph *g, uint32_t v, const char *path, wm_error *err) {
  const uint32_t *a = g->adj + g->offsets[v];
  size_t d = (size_t)(g->offsets[v + 1] - g->offsets[v]);
  for (size_t i = 0; i < d; i++) {
    if (a[i] >= g->n)
      return BAD("%s: invalid .wmg file: arc %u -> %u leads past the last vertex %u", path, v, a[i], g->n - 1);
    if (a[i] == v)
      return BAD("%s: invalid .wmg file: vertex %u lists itself (a self loop)", path, v);
    if (i && a[i] == a[i - 1])
      return BAD("%s: invalid .wmg file: vertex %u lists neighbour %u twice", path, v, a[i]);
    if (i && a[i] < a[i - 1])
      return BAD("%s: invalid .wmg file: the row of vertex %u is not sorted (%u after %u)", path, v, a[i],
                 a[i - 1]);
  }
  return BAD("%s: invalid .wmg file: the row of vertex %u is malformed", path, v);
}

/* The rows, and when the graph is undirected their fingerprint in *print
 * (0 when symmetric, but for the chance above). */
static int check_rows(const wm_graph *g, uint64_t *print, const char *path, wm_error *err) {
  uint32_t first = g->n;
  uint64_t sum = 0, key = 0;
  int undirected = !(g->flags & WM_GRAPH_DIRECTED);
  if (undirected && getrandom(&key, sizeof key, 0) != (ssize_t)sizeof key)
    key = (uint64_t)(wm_now() * 1e9) ^ (uint64_t)(uintptr_t)&key; /* no entropy source: still unknown beforehand */
#pragma omp parallel for reduction(min : first) reduction(+ : sum) schedule(dynamic, 1024) num_threads(wm_par_threads(g->m, WM_PAR_GRAIN))
  for (uint32_t v = 0; v < g->n; v++) {
    if (v < first && !row_ok(g, v)) first = v;
    if (undirected && v < first) sum += row_print(g, v, key);
  }
  *print = sum;
  return first < g->n ? row_fault(g, first, path, err) : WM_OK;
}

/* The first index in [lo, hi) of the ascending adj whose entry is >= x. */
static uint64_t lower_bound(const uint32_t *adj, uint64_t lo, uint64_t hi, uint32_t x) {
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (adj[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* Index of the first entry of row u above u (rows are sorted, no self loop). */
static uint64_t above(const wm_graph *g, uint32_t u) {
  return lower_bound(g->adj, g->offsets[u], g->offsets[u + 1], u);
}

/* Per target vertex v, for the merge below: the next entry of its row to
 * meet and the end of its entries below v. */
typedef struct cursor {
  uint64_t pos, end;
} cursor;

/* Vertices [lo, hi) of *this* thread's share, balanced by the entries
 * below the diagonal; blk[b] holds those of vertices [b << BLK_BITS, ...). */
enum { BLK_BITS = 12 };
static void share_of(const uint64_t *blk, uint64_t nblk, uint32_t n, int t, int threads, uint32_t *lo,
                     uint32_t *hi) {
  uint64_t total = 0;
  for (uint64_t b = 0; b < nblk; b++) total += blk[b];
  uint64_t sum = 0, from = total / (uint64_t)threads * (uint64_t)t, to = total / (uint64_t)threads * (uint64_t)(t + 1);
  *lo = *hi = n;
  for (uint64_t b = 0; b < nblk; b++) {
    uint64_t v = b << BLK_BITS;
    if (sum >= from && *lo == n) *lo = (uint32_t)v;
    if (sum >= to && t + 1 < threads) {
      *hi = (uint32_t)v;
      break;
    }
    sum += blk[b];
  }
  if (*lo > *hi) *lo = *hi;
}

/* Thread share [lo, hi) of the merge: walks the arcs u -> v with v in
 * [lo, hi) and v > u, in ascending u, beside the entries below v of row v,
 * also ascending: none may be u. */
static int merge_share(const wm_graph *g, cursor *c, uint32_t lo, uint32_t hi) {
  const uint32_t *adj = g->adj;
  for (uint32_t u = 0; u < hi; u++) {
    uint64_t e = g->offsets[u], stop = g->offsets[u + 1];
    uint32_t want = lo > u ? lo : u + 1;
    if (e == stop || adj[stop - 1] < want || adj[e] >= hi) continue;
    for (e = lower_bound(adj, e, stop, want); e < stop && adj[e] < hi; e++) {
      cursor *k = &c[adj[e]];
      while (k->pos < k->end && adj[k->pos] < u) k->pos++;
      if (k->pos < k->end && adj[k->pos] == u) return 0;
    }
  }
  return 1;
}

/* Whether no arc of an oriented graph has its reverse: 1 yes, 0 no, -1 out
 * of memory.  Exact, a merge of each row's entries below the diagonal with
 * the arcs into it, each thread owning a range of rows: O(m), one
 * scattered access per arc (a fingerprint cannot tell a pair stored twice
 * from two edges). */
static int no_reverses(const wm_graph *g) {
  const uint32_t n = g->n;
  uint64_t nblk = ((uint64_t)n >> BLK_BITS) + 1;
  cursor *c = wm_alloc_big(((size_t)n + 1) * sizeof *c);
  uint64_t *blk = calloc(nblk, sizeof *blk);
  if (!c || !blk) {
    free(c);
    free(blk);
    return -1;
  }
  const int threads = wm_par_threads(g->m, WM_PAR_GRAIN);
  int ok = 1;
#pragma omp parallel for schedule(static) num_threads(threads)
  for (uint64_t b = 0; b < nblk; b++) {
    uint64_t sum = 0, last = (b + 1) << BLK_BITS < n ? (b + 1) << BLK_BITS : n;
    for (uint64_t v = b << BLK_BITS; v < last; v++) {
      c[v].pos = g->offsets[v];
      c[v].end = above(g, (uint32_t)v);
      sum += c[v].end - c[v].pos;
    }
    blk[b] = sum;
  }
#pragma omp parallel reduction(& : ok) num_threads(threads)
  {
    uint32_t lo, hi;
    share_of(blk, nblk, n, omp_get_thread_num(), omp_get_num_threads(), &lo, &hi);
    ok &= merge_share(g, c, lo, hi);
  }
  free(c);
  free(blk);
  return ok;
}

/* The first arc u -> v (lowest u, then v; only v > u when `upward`) for
 * which the presence of v -> u is not `want`: *u_out = n when none.  Only
 * for the message once reverses_hold failed: a binary search per arc. */
static void reverse_fault(const wm_graph *g, int want, int upward, uint32_t *u_out, uint32_t *v_out) {
  uint32_t first = g->n;
#pragma omp parallel for reduction(min : first) schedule(dynamic, 256) num_threads(wm_par_threads(g->m, WM_PAR_GRAIN))
  for (uint32_t u = 0; u < g->n; u++) {
    if (u > first) continue;
    for (uint64_t e = upward ? above(g, u) : g->offsets[u]; e < g->offsets[u + 1]; e++)
      if (wm_graph_has_arc(g, g->adj[e], u) != want) {
        first = u;
        break;
      }
  }
  *u_out = first;
  if (first == g->n) return;
  for (uint64_t e = g->offsets[first]; e < g->offsets[first + 1]; e++)
    if ((!upward || g->adj[e] > first) && wm_graph_has_arc(g, g->adj[e], first) != want) {
      *v_out = g->adj[e];
      return;
    }
}

/* Undirected: every arc has its reverse (the fingerprint is 0).
 * Oriented: each edge is stored once, so no arc has its reverse (a pair
 * would have one arc u -> v with v > u, which the upward search finds). */
static int check_reverses(const wm_graph *g, uint64_t print, const char *path, wm_error *err) {
  int undirected = !(g->flags & WM_GRAPH_DIRECTED), ok;
  if (undirected) ok = print == 0;
  else if (!(g->flags & WM_GRAPH_ORIENTED)) return WM_OK;
  else if ((ok = no_reverses(g)) < 0) return BAD("%s: out of memory checking the arcs of %u vertices", path, g->n);
  if (ok) return WM_OK;
  uint32_t u = 0, v = 0;
  reverse_fault(g, undirected, 1, &u, &v);
  if (u == g->n) reverse_fault(g, undirected, 0, &u, &v);
  if (u == g->n) return BAD("%s: invalid .wmg file: the arcs are not %s", path, undirected ? "symmetric" : "oriented");
  if (undirected)
    return BAD("%s: invalid .wmg file: arc %u -> %u has no %u -> %u although the graph is marked undirected",
               path, u, v, v, u);
  return BAD("%s: invalid .wmg file: arcs %u -> %u and %u -> %u are both stored although the graph is marked "
             "oriented (each edge once)", path, u, v, v, u);
}

static int check_degree_order(const wm_graph *g, const char *path, wm_error *err) {
  if (!(g->flags & WM_GRAPH_DEGREE_SORTED) || (g->flags & WM_GRAPH_ORIENTED) || g->n < 2) return WM_OK;
  uint32_t first = g->n;
#pragma omp parallel for reduction(min : first) schedule(static) num_threads(wm_par_threads(g->n, WM_PAR_GRAIN))
  for (uint32_t v = 0; v < g->n - 1; v++)
    if (wm_degree(g, v) < wm_degree(g, v + 1) && v < first) first = v;
  if (first == g->n) return WM_OK;
  return BAD("%s: invalid .wmg file: vertex %u has degree %llu, vertex %u has %llu, although the graph is marked "
             "sorted by descending degree", path, first, (unsigned long long)wm_degree(g, first), first + 1,
             (unsigned long long)wm_degree(g, first + 1));
}

/* find_repeat for sparse ids: the repeated ids from a sorted copy, then
 * the first vertex holding one of them for the second time. */
static int sorted_repeat(const uint32_t *ids, uint32_t n, uint32_t *dup) {
  uint32_t *copy = malloc(((size_t)n + 1) * sizeof *copy);
  unsigned char *seen = calloc((size_t)n + 1, 1);
  if (!copy || !seen) {
    free(copy);
    free(seen);
    return -1;
  }
  memcpy(copy, ids, (size_t)n * sizeof *copy);
  wm_sort_u32(copy, n);
  size_t r = 0; /* copy[0..r) becomes the repeated ids, ascending */
  for (uint32_t i = 1; i < n; i++)
    if (copy[i] == copy[i - 1] && (r == 0 || copy[r - 1] != copy[i])) copy[r++] = copy[i];
  for (uint32_t v = 0; v < n && r && *dup == n; v++) {
    size_t lo = 0, hi = r;
    while (lo < hi) {
      size_t mid = (lo + hi) / 2;
      if (copy[mid] < ids[v]) lo = mid + 1;
      else hi = mid;
    }
    if (lo < r && copy[lo] == ids[v]) {
      if (seen[lo]) *dup = v;
      seen[lo] = 1;
    }
  }
  free(copy);
  free(seen);
  return 0;
}

/* A renumbered graph's file ids are a permutation.  Each id is marked in a
 * bitmap as wide as the largest id (when that is not much more than the
 * ids themselves) or looked for in a sorted copy.  Returns the lowest v
 * whose id an earlier vertex has in *dup (n when none), or -1 when out of
 * memory. */
static int find_repeat(const uint32_t *ids, uint32_t n, uint32_t top, uint32_t *dup) {
  *dup = n;
  if ((uint64_t)top / 64 > 2ull * n + 1024) return sorted_repeat(ids, n, dup);
  uint64_t *bits = calloc((size_t)top / 64 + 1, sizeof *bits);
  if (!bits) return -1;
  int any = 0;
#pragma omp parallel for reduction(| : any) schedule(static) num_threads(wm_par_threads(n, WM_PAR_GRAIN))
  for (uint32_t v = 0; v < n; v++) {
    uint64_t bit = 1ull << (ids[v] % 64), old;
#pragma omp atomic capture
    { old = bits[ids[v] / 64]; bits[ids[v] / 64] |= bit; }
    any |= (old & bit) != 0;
  }
  if (any) { /* which one depends on the threads: find the first again, alone */
    memset(bits, 0, ((size_t)top / 64 + 1) * sizeof *bits);
    for (uint32_t v = 0; v < n && *dup == n; v++) {
      if (bits[ids[v] / 64] & (1ull << (ids[v] % 64))) *dup = v;
      bits[ids[v] / 64] |= 1ull << (ids[v] % 64);
    }
  }
  free(bits);
  return 0;
}

static int check_file_ids(const wm_graph *g, const char *path, wm_error *err) {
  const uint32_t *ids = g->orig_ids, n = g->n;
  if (!ids || n == 0) return WM_OK;
  uint32_t first = n, top = 0;
  int sorted = (g->flags & WM_GRAPH_DEGREE_SORTED) != 0;
#pragma omp parallel for reduction(min : first) reduction(max : top) schedule(static) num_threads(wm_par_threads(n, WM_PAR_GRAIN))
  for (uint32_t v = 0; v < n; v++) {
    if (ids[v] > top) top = ids[v];
    if (!sorted && v && ids[v - 1] >= ids[v] && v < first) first = v;
  }
  if (top > WM_MAX_VERTEX_ID)
    return BAD("%s: invalid .wmg file: a file id is %u, above the largest id %u", path, top, WM_MAX_VERTEX_ID);
  if (first < n)
    return BAD("%s: invalid .wmg file: the file ids are not ascending (vertex %u has %u, vertex %u has %u)", path,
               first - 1, ids[first - 1], first, ids[first]);
  if (!sorted) return WM_OK;
  uint32_t dup;
  if (find_repeat(ids, n, top, &dup) != 0)
    return BAD("%s: out of memory checking the file ids of %u vertices", path, n);
  if (dup < n)
    return BAD("%s: invalid .wmg file: file id %u is given to more than one vertex (vertex %u among them)", path,
               ids[dup], dup);
  return WM_OK;
}

int wm_wmg_check(const wm_graph *g, const char *path, wm_error *err) {
  uint64_t print = 0;
  int rc = check_offsets(g, path, err);
  if (!rc) rc = check_rows(g, &print, path, err);
  if (!rc) rc = check_reverses(g, print, path, err);
  if (!rc) rc = check_degree_order(g, path, err);
  if (!rc) rc = check_file_ids(g, path, err);
  return rc;
}
