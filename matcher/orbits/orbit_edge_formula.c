/* The edge formula: ORCA's edge orbits of graphlets of up to 4 vertices
 * (k = 3 or 4) for every edge without enumerating the graphlets, as the
 * vertex formula does for vertices (orbit_formula.c); with k = 5 these are
 * columns 0..11 and orbit_edge_formula5.c fills the rest.
 *
 * For each edge x-y and each edge orbit a, N_a counts the subgraphs (edge
 * sets, not necessarily induced) shaped as a's graphlet with x-y in orbit
 * a; an induced subgraph whose graphlet holds x-y in edge orbit b holds
 * c[a][b] of them, c counted from the drawings (the edge subsets of b's
 * graphlet holding the edge that form a's on the same vertices), so N = c I
 * with c unit upper triangular by edge count, solved densest first in
 * checked 128-bit arithmetic.  The N come from degrees, triangles per edge
 * and per vertex, the sums over the edge's common neighbours, 4-cycles
 * through the edge (common-neighbour counts of x with each two-hop w) and
 * the 4-cliques on it (adjacent pairs of common neighbours):
 *   N0 = (dx-1) + (dy-1)                     3-path
 *   N1 = t                                   triangle
 *   N2 = S(x) - (dy-1) + S(y) - (dx-1) - 2t  4-path, end edge (S(v): sum of dw-1 over N(v))
 *   N3 = (dx-1)(dy-1) - t                    4-path, middle edge
 *   N4 = C(dx-1, 2) + C(dy-1, 2)             3-star
 *   N5 = sum over w in N(y)-x of c(x,w) - 1  4-cycle
 *   N6 = T(x) - t + T(y) - t                 paw's tail (T(v): triangles at v)
 *   N7 = sum over common z of dz - 2         paw, triangle edge away from the tail
 *   N8 = t (dx - 2 + dy - 2)                 paw, triangle edge at the tail's vertex
 *   N9 = sum over common w of tri(x,w) - 1 + tri(y,w) - 1   diamond, outer edge
 *   N10 = C(t, 2)                            diamond's chord
 *   N11 = adjacent pairs of common neighbours   4-clique
 * (t = tri(x, y), the common neighbours of x and y.)  Two passes over the
 * vertices x, OpenMP, each thread with n-entry marks and counters: the
 * triangles of every arc, then the rows of the edges x-y, y > x. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "orbits.h"

#define E4 WM_EDGE_ORBIT4

int wm_edge_orbit_has_formula(unsigned k) { return k >= 3 && k <= 5; }

/* c[a][b], and the edge orbits by their graphlet's edges, most first. */
typedef struct edge_relations {
  uint8_t c[E4][E4];
  uint8_t order[E4];
} edge_relations;

static void derive(const wm_orbit_tables *t, edge_relations *r) {
  memset(r, 0, sizeof *r);
  unsigned edges_of[E4] = {0};
  for (unsigned gid = 1; gid <= 8; gid++) { /* G1..G8: the graphlets of 3 and 4 vertices */
    const unsigned k = t->graphlet_vertices[gid], mask = t->graphlet_mask[gid];
    unsigned done = 0; /* the edge orbits of this graphlet already taken */
    for (unsigned bit = 0; bit < k * (k - 1) / 2; bit++) {
      const uint8_t b = t->edge_orbit[k][mask][bit];
      if (b == WM_ORBIT_NONE || (done >> b & 1u)) continue;
      done |= 1u << b;
      edges_of[b] = t->graphlet_edges[gid];
      for (unsigned s = mask;; s = (s - 1) & mask) { /* the edge subsets holding `bit` */
        const uint8_t a = (s >> bit & 1u) ? t->edge_orbit[k][s][bit] : WM_ORBIT_NONE;
        if (a != WM_ORBIT_NONE) r->c[a][b]++;
        if (!s) break;
      }
    }
  }
  unsigned n = 0;
  for (int edges = 6; edges >= 2; edges--)
    for (unsigned o = 0; o < E4; o++)
      if (edges_of[o] == (unsigned)edges) r->order[n++] = (uint8_t)o;
}

typedef struct edge_shared {
  const wm_graph *g;
  uint32_t *tri;      /* per arc */
  uint64_t *row_of;   /* per vertex: the row of its first arc to a larger vertex, less that arc */
  wm_i128 *tv, *sv;   /* per vertex: triangles T(v), and S(v) */
} edge_shared;

typedef struct scratch {
  uint8_t *mark;   /* bit 0: in N(x); bit 1: in N(y) */
  uint32_t *cnt;   /* c(x, w) */
  uint64_t *at;    /* the arc x->w of a marked w */
} scratch;

static int scratch_init(scratch *s, uint32_t n) {
  s->mark = calloc(n ? n : 1, 1);
  s->cnt = calloc(n ? n : 1, sizeof *s->cnt);
  s->at = malloc((n ? n : 1) * sizeof *s->at);
  return s->mark && s->cnt && s->at;
}

static void scratch_free(scratch *s) {
  free(s->mark);
  free(s->cnt);
  free(s->at);
}

static wm_i128 choose2(wm_i128 x) { return x >= 2 ? x * (x - 1) / 2 : 0; }

/* The N of edge x-y (arc e of x's row, y > x), x's marks, arcs and c(x, .) set. */
static void edge_sums(const edge_shared *sh, unsigned k, uint32_t x, uint64_t e, scratch *s, wm_i128 *N) {
  const wm_graph *g = sh->g;
  const uint32_t y = g->adj[e];
  const wm_i128 dx = (wm_i128)wm_degree(g, x), dy = (wm_i128)wm_degree(g, y), t = sh->tri[e];
  wm_i128 n5 = 0, n7 = 0, n9 = 0, n11 = 0;
  for (uint64_t f = g->offsets[y]; f < g->offsets[y + 1]; f++) s->mark[g->adj[f]] |= 2;
  for (uint64_t f = g->offsets[y]; f < g->offsets[y + 1] && k >= 4; f++) {
    const uint32_t w = g->adj[f];
    if (w == x) continue;
    n5 += (wm_i128)s->cnt[w] - 1;
    if (!(s->mark[w] & 1)) continue; /* w is a common neighbour */
    n7 += (wm_i128)wm_degree(g, w) - 2;
    n9 += (wm_i128)sh->tri[s->at[w]] - 1 + (wm_i128)sh->tri[f] - 1;
    for (uint64_t h = g->offsets[w]; h < g->offsets[w + 1]; h++) /* the common neighbours above w */
      n11 += g->adj[h] > w && s->mark[g->adj[h]] == 3;
  }
  for (uint64_t f = g->offsets[y]; f < g->offsets[y + 1]; f++) s->mark[g->adj[f]] &= 1;
  N[0] = dx - 1 + dy - 1;
  N[1] = t;
  N[2] = sh->sv[x] - (dy - 1) + sh->sv[y] - (dx - 1) - 2 * t;
  N[3] = (dx - 1) * (dy - 1) - t;
  N[4] = choose2(dx - 1) + choose2(dy - 1);
  N[5] = n5;
  N[6] = sh->tv[x] - t + sh->tv[y] - t;
  N[7] = n7;
  N[8] = t * (dx - 2 + dy - 2);
  N[9] = n9;
  N[10] = choose2(t);
  N[11] = n11;
}

/* The induced counts from N, densest first; stored, or an overflow named. */
static int solve(const edge_shared *sh, const edge_relations *r, const wm_orbit_run *run, uint32_t x, uint32_t y,
                 wm_i128 *N, uint64_t *row, wm_error *err) {
  const unsigned orbits = run->k < 4 ? wm_edge_orbit_count(run->k) : E4; /* 12..67: orbit_edge_formula5.c */
  wm_i128 I[E4] = {0};
  for (unsigned i = 0; i < E4; i++) {
    const unsigned a = r->order[i];
    if (a >= orbits) continue;
    wm_i128 v = N[a];
    for (unsigned b = 0; b < orbits; b++)
      if (b != a && r->c[a][b]) v -= (wm_i128)r->c[a][b] * I[b];
    I[a] = v;
  }
  for (unsigned a = 0; a < orbits; a++)
    if (wm_edge_orbit_store(sh->g, x, y, a, I[a], run, &row[a], err)) return err->code;
  return WM_OK;
}

/* Pass 2 for vertex x: c(x, w) over its two hops, then each edge x-y, y > x. */
static int vertex_rows(const edge_shared *sh, const edge_relations *r, const wm_orbit_run *run, uint32_t x,
                       scratch *s, uint64_t *counts, wm_error *err) {
  const wm_graph *g = sh->g;
  const unsigned orbits = wm_edge_orbit_count(run->k); /* the row's stride */
  for (uint64_t e = g->offsets[x]; e < g->offsets[x + 1]; e++) {
    s->mark[g->adj[e]] = 1, s->at[g->adj[e]] = e;
    for (uint64_t f = g->offsets[g->adj[e]]; f < g->offsets[g->adj[e] + 1] && run->k >= 4; f++) s->cnt[g->adj[f]]++;
  }
  int rc = WM_OK;
  const uint64_t above = g->offsets[x] + wm_sorted_lower_bound(g->adj + g->offsets[x], wm_degree(g, x), x + 1);
  for (uint64_t e = above; e < g->offsets[x + 1] && !rc; e++) {
    wm_i128 N[E4];
    edge_sums(sh, run->k, x, e, s, N);
    rc = solve(sh, r, run, x, g->adj[e], N, counts + (size_t)(sh->row_of[x] + e) * orbits, err);
  }
  for (uint64_t e = g->offsets[x]; e < g->offsets[x + 1]; e++) {
    s->mark[g->adj[e]] = 0;
    for (uint64_t f = g->offsets[g->adj[e]]; f < g->offsets[g->adj[e] + 1] && run->k >= 4; f++) s->cnt[g->adj[f]] = 0;
  }
  return rc;
}

static int shared_init(const wm_graph *g, edge_shared *sh) {
  memset(sh, 0, sizeof *sh);
  sh->g = g;
  const size_t n = g->n ? g->n : 1;
  sh->tri = malloc((g->m ? g->m : 1) * sizeof *sh->tri);
  sh->row_of = malloc(n * sizeof *sh->row_of);
  sh->tv = malloc(n * sizeof *sh->tv);
  sh->sv = malloc(n * sizeof *sh->sv);
  if (!sh->tri || !sh->row_of || !sh->tv || !sh->sv) return 0;
  uint64_t rows = 0;
  for (uint32_t v = 0; v < g->n; v++) {
    const uint64_t lo = g->offsets[v], hi = g->offsets[v + 1];
    const uint64_t above = lo + wm_sorted_lower_bound(g->adj + lo, hi - lo, v + 1);
    sh->row_of[v] = rows - above; /* wraps as uint64, exactly undone by adding the arc */
    rows += hi - above;
  }
  return 1;
}

static void shared_free(edge_shared *sh) {
  free(sh->tri);
  free(sh->row_of);
  free(sh->tv);
  free(sh->sv);
}

/* T(v) and S(v), once the arcs' triangles are known. */
static void vertex_sums(edge_shared *sh) {
  const wm_graph *g = sh->g;
#pragma omp parallel for schedule(dynamic, 256)
  for (int64_t v = 0; v < (int64_t)g->n; v++) {
    wm_i128 t = 0, s = 0;
    for (uint64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++)
      t += sh->tri[e], s += (wm_i128)wm_degree(g, g->adj[e]) - 1;
    sh->tv[v] = t / 2, sh->sv[v] = s;
  }
}

int wm_orbits_edge_formula(const wm_graph *g, const wm_orbit_run *run, uint64_t *counts, wm_error *err) {
  const wm_orbit_tables *t = wm_orbit_tables_get(err);
  if (!t) return err->code;
  edge_relations r;
  derive(t, &r);
  edge_shared sh;
  int rc = shared_init(g, &sh) ? WM_OK : wm_fail(err, WM_EINPUT, "orbits: out of memory for the edge formula");
  if (!rc) rc = wm_orbit_triangles_cpu(g, sh.tri, err); /* pass 1: the triangles of every arc */
  if (!rc) vertex_sums(&sh);
  int failed = 0;
  wm_error first;
  wm_error_clear(&first);
  if (!rc) {
#pragma omp parallel
    {
      scratch s;
      wm_error mine;
      wm_error_clear(&mine);
      int bad = !scratch_init(&s, g->n);
      if (bad) wm_fail(&mine, WM_EINPUT, "orbits: out of memory for the edge formula's marks");
#pragma omp for schedule(dynamic, 16)
      for (int64_t x = 0; x < (int64_t)g->n; x++)
        if (!bad && !__atomic_load_n(&failed, __ATOMIC_RELAXED))
          bad = vertex_rows(&sh, &r, run, (uint32_t)x, &s, counts, &mine);
      if (bad && !__atomic_exchange_n(&failed, 1, __ATOMIC_ACQ_REL)) first = mine;
      scratch_free(&s);
    }
  }
  if (!rc && failed) *err = first, rc = first.code;
  if (!rc && run->k == 5) rc = wm_orbits_edge_formula5(g, run, sh.tri, counts, err);
  shared_free(&sh);
  return rc;
}
