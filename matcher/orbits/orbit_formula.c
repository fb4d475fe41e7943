/* The formula: per-vertex orbit counts of graphlets up to 4 vertices without
 * enumerating them (the idea of ORCA, Hocevar & Demsar 2014; the counts and
 * their derivation here are this project's).
 *
 * For each vertex v and each orbit a, N_a(v) counts the subgraphs (edge sets,
 * not necessarily induced) shaped as a's graphlet with v in orbit a; these
 * come from degrees, triangles per vertex and per edge, common-neighbour
 * counts (4-cycles) and the 4-cliques at v.  An induced subgraph whose
 * graphlet is G with v in orbit b holds c[a][b] such edge sets, c counted
 * here from the drawings (the spanning edge subsets of G that form a's
 * graphlet with v's vertex in orbit a), so N = c I with c unit upper
 * triangular by edge count; I follows by back-substitution, densest
 * graphlet first, in checked 128-bit arithmetic. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "orbits.h"

#define ORBITS4 15

int wm_orbit_has_formula(unsigned k) { return k >= 2 && k <= 4; }

/* c[a][b] for the orbits 1..14, and the order to solve them in. */
typedef struct relations {
  uint8_t c[ORBITS4][ORBITS4];
  uint8_t order[ORBITS4]; /* orbits 1..14 by their graphlet's edges, most first */
} relations;

static void derive(const wm_orbit_tables *t, relations *r) {
  memset(r, 0, sizeof *r);
  for (unsigned b = 1; b < ORBITS4; b++) {
    const unsigned gid = t->graphlet_of_orbit[b], k = t->graphlet_vertices[gid], mask = t->graphlet_mask[gid];
    unsigned p = 0;
    while (t->orbit[k][mask][p] != b) p++;
    for (unsigned s = mask;; s = (s - 1) & mask) { /* every edge subset */
      const uint8_t a = t->orbit[k][s][p];
      if (a != WM_ORBIT_NONE) r->c[a][b]++;
      if (!s) break;
    }
  }
  unsigned n = 0;
  for (int edges = 6; edges >= 1; edges--)
    for (unsigned o = 1; o < ORBITS4; o++)
      if (t->graphlet_edges[t->graphlet_of_orbit[o]] == edges) r->order[n++] = (uint8_t)o;
}

static wm_i128 wm_sub_chk(wm_i128 a, wm_i128 b, int *overflow) {
  wm_i128 r;
  if (__builtin_sub_overflow(a, b, &r)) *overflow = 1;
  return r;
}

static wm_i128 choose(uint64_t x, unsigned r) { return wm_choose((wm_i128)x, r); }

/* What every vertex's row reads of the others. */
typedef struct shared {
  const wm_graph *g;
  uint32_t *tri;    /* per arc: the triangles on its edge */
  uint64_t *tv;     /* per vertex: its triangles */
  wm_i128 *paths2;  /* per vertex u: sum over w in N(u) of d(w) - 1 */
} shared;

typedef struct scratch {
  uint8_t *mark;    /* 1: in N(v); 2: in N(u) too */
  uint32_t *cnt;    /* common neighbours of v and w */
  uint32_t *touched;
} scratch;

static uint64_t deg(const wm_graph *g, uint32_t v) { return g->offsets[v + 1] - g->offsets[v]; }

static void mark_row(const wm_graph *g, uint8_t *mark, uint32_t v, uint8_t value) {
  for (uint64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++) mark[g->adj[e]] = value;
}

/* Triangles per arc, per vertex, and the 2-paths out of each vertex. */
static void edge_pass(const shared *s, uint8_t *mark, uint32_t v, int *overflow) {
  const wm_graph *g = s->g;
  mark_row(g, mark, v, 1);
  uint64_t tv = 0;
  wm_i128 p2 = 0;
  for (uint64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++) {
    const uint32_t u = g->adj[e];
    uint32_t t = 0;
    for (uint64_t f = g->offsets[u]; f < g->offsets[u + 1]; f++) t += mark[g->adj[f]];
    s->tri[e] = t;
    tv += t;
    p2 = wm_add_chk(p2, (wm_i128)deg(g, u) - 1, overflow);
  }
  s->tv[v] = tv / 2;
  s->paths2[v] = p2;
  mark_row(g, mark, v, 0);
}

/* The sums over v's neighbours u (orbits 1, 4, 5, 6, 9, 10, 13). */
static void neighbour_sums(const shared *s, uint32_t v, wm_i128 *N, int *of) {
  const wm_graph *g = s->g;
  const wm_i128 d = (wm_i128)deg(g, v), t = (wm_i128)s->tv[v];
  for (uint64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++) {
    const uint32_t u = g->adj[e];
    const wm_i128 du = (wm_i128)deg(g, u), tvu = s->tri[e];
    N[1] = wm_add_chk(N[1], du - 1, of);
    N[4] = wm_add_chk(N[4], s->paths2[u] - (d - 1), of);
    N[5] = wm_add_chk(N[5], wm_mul_chk(d - 1, du - 1, of) - tvu, of);
    N[6] = wm_add_chk(N[6], choose((uint64_t)du - 1, 2), of);
    N[9] = wm_add_chk(N[9], (wm_i128)s->tv[u] - tvu, of);
    N[10] = wm_add_chk(N[10], wm_mul_chk(tvu, du - 2, of), of);
    N[13] = wm_add_chk(N[13], choose((uint64_t)tvu, 2), of);
  }
  N[4] = wm_sub_chk(N[4], 2 * t, of);
  N[2] = choose((uint64_t)d, 2);
  N[3] = t;
  N[7] = choose((uint64_t)d, 3);
  N[11] = wm_mul_chk(t, d - 2, of);
}

/* 4-cliques at v through its neighbour u (u < b < x, all in N(v)); N(u) is
 * marked 2 over N(v)'s 1. */
static uint64_t cliques_through(const wm_graph *g, const uint8_t *mark, uint32_t u) {
  uint64_t k4 = 0;
  for (uint64_t f = g->offsets[u]; f < g->offsets[u + 1]; f++) {
    const uint32_t b = g->adj[f];
    if (b <= u || mark[b] != 3) continue;
    for (uint64_t h = g->offsets[b]; h < g->offsets[b + 1]; h++)
      if (g->adj[h] > b && mark[g->adj[h]] == 3) k4++;
  }
  return k4;
}

/* The walks v-u-w: common neighbours (4-cycles), the triangles v,u,w and
 * their far edge's triangles (diamonds), and the 4-cliques. */
static void two_hop(const shared *s, scratch *x, uint32_t v, wm_i128 *N, int *of) {
  const wm_graph *g = s->g;
  uint32_t touched = 0;
  uint64_t k4 = 0;
  for (uint64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++) {
    const uint32_t u = g->adj[e];
    for (uint64_t f = g->offsets[u]; f < g->offsets[u + 1]; f++) {
      const uint32_t w = g->adj[f];
      if (w == v) continue;
      if (!x->cnt[w]++) x->touched[touched++] = w;
      if (!x->mark[w]) continue;
      x->mark[w] = 3;
      if (w > u) N[12] = wm_add_chk(N[12], (wm_i128)s->tri[f] - 1, of);
    }
    k4 += cliques_through(g, x->mark, u);
    for (uint64_t f = g->offsets[u]; f < g->offsets[u + 1]; f++)
      if (x->mark[g->adj[f]]) x->mark[g->adj[f]] = 1;
  }
  for (uint32_t i = 0; i < touched; i++) {
    N[8] = wm_add_chk(N[8], choose(x->cnt[x->touched[i]], 2), of);
    x->cnt[x->touched[i]] = 0;
  }
  N[14] = (wm_i128)k4;
}

/* I = c^-1 N, then each count past its start into the row. */
static int solve(const wm_graph *g, const relations *r, uint32_t v, const wm_i128 *N, const wm_orbit_run *run,
                 uint64_t *row, wm_error *err) {
  wm_i128 I[ORBITS4] = {0};
  int of = 0;
  for (unsigned i = 0; i < ORBITS4 - 1; i++) {
    const unsigned a = r->order[i];
    wm_i128 x = N[a];
    for (unsigned b = 1; b < ORBITS4; b++)
      if (b != a && r->c[a][b]) x = wm_sub_chk(x, wm_mul_chk(r->c[a][b], I[b], &of), &of);
    if (of) return wm_orbit_overflow(g, v, a, err);
    I[a] = x;
  }
  I[0] = (wm_i128)deg(g, v);
  const unsigned orbits = wm_orbit_count(run->k);
  for (unsigned o = 0; o < orbits; o++)
    if (wm_orbit_store(g, v, o, I[o], run->start, &row[o], err)) return err->code;
  return WM_OK;
}

static int vertex_row(const shared *s, const relations *r, scratch *x, uint32_t v, const wm_orbit_run *run,
                      uint64_t *row, wm_error *err) {
  wm_i128 N[ORBITS4] = {0};
  int of = 0;
  neighbour_sums(s, v, N, &of);
  if (run->k >= 4) {
    mark_row(s->g, x->mark, v, 1);
    two_hop(s, x, v, N, &of);
    mark_row(s->g, x->mark, v, 0);
  }
  if (of)
    return wm_fail(err, WM_EINPUT, "orbits: vertex %u: a sum of the orbit formula passes 2^127",
                   wm_graph_file_id(s->g, v));
  return solve(s->g, r, v, N, run, row, err);
}

static int alloc_shared(const wm_graph *g, shared *s) {
  s->g = g;
  s->tri = malloc((g->m ? g->m : 1) * sizeof *s->tri);
  s->tv = malloc((g->n ? g->n : 1) * sizeof *s->tv);
  s->paths2 = malloc((g->n ? g->n : 1) * sizeof *s->paths2);
  return s->tri && s->tv && s->paths2;
}

static void free_shared(shared *s) {
  free(s->tri);
  free(s->tv);
  free(s->paths2);
}

/* The first failure of the rows, kept by the thread whose vertex is lowest
 * (so the message does not depend on the schedule). */
typedef struct first_error {
  int64_t vertex;
  wm_error err;
} first_error;

static void keep_first(first_error *f, int64_t v, const wm_error *err) {
#pragma omp critical(wm_orbit_formula_error)
  if (f->vertex < 0 || v < f->vertex) f->vertex = v, f->err = *err;
}

static int rows(const shared *s, const relations *r, const wm_orbit_run *run, uint64_t *counts, wm_error *err) {
  const wm_graph *g = s->g;
  const unsigned orbits = wm_orbit_count(run->k);
  first_error first = {-1, {0, ""}};
  int oom = 0, of = 0;
#pragma omp parallel
  {
    scratch x = {calloc(g->n ? g->n : 1, 1), calloc(g->n ? g->n : 1, sizeof(uint32_t)),
                 malloc((g->n ? g->n : 1) * sizeof(uint32_t))};
    const int ok = x.mark && x.cnt && x.touched;
    if (!ok) __atomic_store_n(&oom, 1, __ATOMIC_RELAXED);
#pragma omp for schedule(dynamic, 64) reduction(| : of)
    for (int64_t v = 0; v < (int64_t)g->n; v++)
      if (ok) edge_pass(s, x.mark, (uint32_t)v, &of);
#pragma omp for schedule(dynamic, 64)
    for (int64_t v = 0; v < (int64_t)g->n; v++) {
      wm_error e;
      if (ok && !of && vertex_row(s, r, &x, (uint32_t)v, run, counts + (size_t)v * orbits, &e)) keep_first(&first, v, &e);
    }
    free(x.mark);
    free(x.cnt);
    free(x.touched);
  }
  if (oom) return wm_fail(err, WM_EINPUT, "orbits: out of memory for the formula's scratch arrays");
  if (of) return wm_fail(err, WM_EINPUT, "orbits: a vertex's 2-paths pass 2^127");
  if (first.vertex >= 0) *err = first.err;
  return first.vertex >= 0 ? err->code : WM_OK;
}

int wm_orbits_formula(const wm_graph *g, const wm_orbit_run *run, uint64_t *counts, wm_error *err) {
  if (!wm_orbit_has_formula(run->k))
    return wm_fail(err, WM_EUSAGE, "orbits: no formula for graphlets of %u vertices yet (enumerate them)", run->k);
  const wm_orbit_tables *t = wm_orbit_tables_get(err);
  if (!t) return err->code;
  relations r;
  derive(t, &r);
  shared s;
  int rc = alloc_shared(g, &s) ? WM_OK : wm_fail(err, WM_EINPUT, "orbits: out of memory for the per-edge triangles");
  if (!rc) rc = rows(&s, &r, run, counts, err);
  free_shared(&s);
  return rc;
}
