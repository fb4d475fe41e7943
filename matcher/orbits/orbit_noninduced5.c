/* Non-induced 5-vertex orbit counts per vertex and their conversion to the
 * induced ones (orbit_noninduced5.h says what and why, and why nothing but
 * the tests calls this yet).
 *
 * Notation, per vertex x (y runs over x's neighbours, t = t_xy the
 * triangles on the edge x-y): d its degree, T its triangles, p2 = the sum
 * of d_y - 1 (2-paths from x), p3 = the sum of p2_y less d(d - 1) + 2T
 * (3-paths from x), S = the sum of C(d_y - 1, 2), R = the sum of
 * t (d_y - 2), D = the sum of C(t, 2) (diamonds with x on the chord), Topp
 * = the sum over x's triangles x, a, b of t_ab, c4 its 4-cycles, K4 its
 * 4-cliques.  Each orbit's N is a sum over x's neighbours of these, less
 * the walks in which vertices coincide (inclusion-exclusion); every
 * formula was first checked against brute force in a prototype, and the
 * tests check each against brute force again. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "orbit_noninduced5.h"

/* The orbits with a formula here: the trees and the graphlets cut at a
 * vertex or an edge into stars, triangles, 4-cycles and 4-cliques. */
static const uint8_t with_formula[] = {15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 26, 27, 28, 29, 30,
                                       31, 32, 33, 35, 38, 39, 41, 42, 43, 44, 45, 47, 55, 58};

int wm_o5n_has(unsigned o) {
  for (unsigned i = 0; i < sizeof with_formula; i++)
    if (with_formula[i] == o) return 1;
  return 0;
}

/* ---- M and the solve -------------------------------------------------- */

static unsigned edges_of(const wm_orbit_tables *t, unsigned o) { return t->graphlet_edges[t->graphlet_of_orbit[o]]; }

/* Unit diagonal, and off it only graphlets with more edges: what makes the
 * densest-first solve exact without a division. */
static int check_triangular(const wm_orbit_tables *t, const wm_o5n_matrix *m, wm_error *err) {
  for (unsigned a = 0; a < ORBITS5; a++) {
    int ok = m->coef[a][a] == 1;
    for (unsigned b = 0; b < ORBITS5; b++)
      if (b != a && m->coef[a][b] && edges_of(t, b + FIRST5) <= edges_of(t, a + FIRST5)) ok = 0;
    if (!ok)
      return wm_fail(err, WM_EINPUT, "orbits: the non-induced relation of orbit %u is not unit triangular (a bug)",
                     a + FIRST5);
  }
  return WM_OK;
}

int wm_o5n_derive(const wm_orbit_tables *t, wm_o5n_matrix *m, wm_error *err) {
  uint8_t c[ORBITS5][ORBITS5];
  memset(m, 0, sizeof *m);
  wm_orbit_copies_in(t, FIRST5, WM_ORBIT_MAX, &c[0][0], ORBITS5);
  for (unsigned a = 0; a < ORBITS5; a++)
    for (unsigned b = 0; b < ORBITS5; b++) m->coef[a][b] = c[a][b];
  unsigned n = 0;
  for (int e = 10; e >= 4; e--)
    for (unsigned o = FIRST5; o < WM_ORBIT_MAX; o++)
      if (edges_of(t, o) == (unsigned)e) m->order[n++] = (uint8_t)(o - FIRST5);
  return check_triangular(t, m, err);
}

int wm_o5n_solve(const wm_graph *g, const wm_o5n_matrix *m, uint32_t x, const wm_i128 *N, wm_i128 *I,
                 wm_error *err) {
  return wm_o5_solve_rows(g, m->coef, m->order, NULL, x, N, I, err);
}

/* ---- the pieces ------------------------------------------------------- */

/* Per vertex, what its neighbours' sums read.  With n below 2^32 a degree
 * and an edge's triangles are below 2^32, so each of these (at most 2^32
 * terms of at most 2^64 each, or p3's and the sums of T of 2^32 terms below
 * 2^63 ... 2^96) is far below 2^127: no checks. */
typedef struct pieces {
  const wm_graph *g;
  const wm_orbit_aggregates *a;
  wm_i128 *T, *p2, *S, *R, *D, *p3, *nbT, *Topp;
} pieces;

static wm_i128 deg(const wm_graph *g, uint32_t v) { return (wm_i128)(g->offsets[v + 1] - g->offsets[v]); }

static void own_sums(const pieces *p, uint32_t x) {
  const wm_graph *g = p->g;
  wm_i128 T2 = 0, p2 = 0, S = 0, R = 0, D = 0;
  for (uint64_t e = g->offsets[x]; e < g->offsets[x + 1]; e++) {
    const wm_i128 dy = deg(g, g->adj[e]), t = p->a->tri[e];
    T2 += t, p2 += dy - 1, S += wm_choose(dy - 1, 2), R += t * (dy - 2), D += wm_choose(t, 2);
  }
  p->T[x] = T2 / 2, p->p2[x] = p2, p->S[x] = S, p->R[x] = R, p->D[x] = D;
}

static void neighbour_sums(const pieces *p, uint32_t x) {
  const wm_graph *g = p->g;
  const wm_i128 d = deg(g, x);
  wm_i128 p2s = 0, Ts = 0;
  for (uint64_t e = g->offsets[x]; e < g->offsets[x + 1]; e++) p2s += p->p2[g->adj[e]], Ts += p->T[g->adj[e]];
  p->p3[x] = p2s - d * (d - 1) - 2 * p->T[x];
  p->nbT[x] = Ts;
  p->Topp[x] = p->a->n12[x] + p->T[x]; /* n12: the sum of t_ab - 1 */
}

/* ---- one vertex's counts ---------------------------------------------- */

/* x's own pieces, its sums over its neighbours (each checked), and the
 * orbit whose formula first overflowed. */
typedef struct row {
  wm_i128 d, T, p2, p3, S, R, D, nbT, Topp, c4, K4;
  wm_acc p3s, Q, Ss, s19, c3, Rs, tsq, s27, s29, s31, s32, c4s, Ds, s41, s43, s45, t3;
  int of, odd;
  unsigned bad;
  wm_i128 *N;
} row;

static wm_i128 mul(row *r, wm_i128 a, wm_i128 b) { return wm_mul_chk(a, b, &r->of); }
static wm_i128 add(row *r, wm_i128 a, wm_i128 b) { return wm_add_chk(a, b, &r->of); }
static wm_i128 sub(row *r, wm_i128 a, wm_i128 b) { return wm_sub_chk(a, b, &r->of); }
static wm_i128 sum(row *r, const wm_acc *a) {
  r->of |= a->overflow;
  return a->v;
}

/* N of orbit o; the first orbit whose terms overflowed is kept. */
static void put(row *r, unsigned o, wm_i128 v) {
  r->N[o - FIRST5] = v;
  if (r->of && !r->bad) r->bad = o;
  r->of = 0;
}

static void own_pieces(const pieces *p, uint32_t x, row *r) {
  r->d = deg(p->g, x), r->T = p->T[x], r->p2 = p->p2[x], r->p3 = p->p3[x], r->S = p->S[x], r->R = p->R[x];
  r->D = p->D[x], r->nbT = p->nbT[x], r->Topp = p->Topp[x], r->c4 = p->a->n8[x], r->K4 = (wm_i128)p->a->k4[x];
}

/* The sums over x's neighbours y, one term per formula that needs one.
 * A term is a product of at most a degree or an edge's triangles (below
 * 2^32) and a piece below 2^96, so only the sums need checks. */
static void sum_neighbours(const pieces *p, uint32_t x, row *r) {
  const wm_graph *g = p->g;
  for (uint64_t e = g->offsets[x]; e < g->offsets[x + 1]; e++) {
    const uint32_t y = g->adj[e];
    const wm_i128 dy = deg(g, y), t = p->a->tri[e], Ty = p->T[y];
    wm_acc_add(&r->p3s, p->p3[y]);
    wm_acc_add(&r->Q, (dy - 1) * (dy - 1));
    wm_acc_add(&r->Ss, p->S[y]);
    wm_acc_add(&r->s19, (dy - 2) * (p->p2[y] - r->d + 1 - t) - 2 * Ty + 2 * t);
    wm_acc_add(&r->c3, wm_choose(dy - 1, 3));
    wm_acc_add(&r->Rs, p->R[y]);
    wm_acc_add(&r->tsq, t * t);
    wm_acc_add(&r->s27, p->nbT[y] - 2 * Ty);
    wm_acc_add(&r->s29, t * (p->p2[y] - r->d - t + 2));
    wm_acc_add(&r->s31, (Ty - t) * (dy - 3));
    wm_acc_add(&r->s32, t * wm_choose(dy - 2, 2));
    wm_acc_add(&r->c4s, p->a->n8[y]);
    wm_acc_add(&r->Ds, p->D[y]);
    wm_acc_add(&r->s41, wm_choose(t, 2) * (dy - 3));
    wm_acc_add(&r->s43, t * (Ty - t + 1));
    wm_acc_add(&r->s45, p->Topp[y] - Ty);
    wm_acc_add(&r->t3, wm_choose(t, 3));
  }
}

/* The trees: the 5-path (15-17), the spider (18-21), the 4-star (22, 23). */
static void trees(row *r) {
  const wm_i128 d = r->d, T = r->T, c4 = r->c4, R = r->R;
  put(r, 15, sub(r, sub(r, sum(r, &r->p3s), mul(r, d - 1, r->p2)), 2 * (d - 3) * T + 2 * c4));
  put(r, 16, sub(r, mul(r, d - 1, r->p3), R + 2 * c4));
  const wm_i128 twice = sub(r, sub(r, mul(r, r->p2, r->p2), sum(r, &r->Q)), 2 * (R + 2 * T) + 2 * c4 - 2 * T);
  r->odd = twice % 2 != 0;
  put(r, 17, twice / 2); /* every 5-path centred at x is counted from both of its halves */
  put(r, 18, sub(r, sum(r, &r->Ss), add(r, mul(r, d, wm_choose(d - 1, 2)), R)));
  put(r, 19, sum(r, &r->s19));
  put(r, 20, sub(r, mul(r, d - 1, r->S), R));
  put(r, 21, sub(r, mul(r, wm_choose(d - 1, 2), r->p2), 2 * (d - 2) * T));
  put(r, 22, sum(r, &r->c3));
  put(r, 23, wm_choose(d, 4));
}

/* A triangle and two more edges: G12 (24-26), G13 (27-30), G14 (31-33). */
static void triangle_trees(row *r) {
  const wm_i128 d = r->d, T = r->T, R = r->R, Topp = r->Topp, tsq = sum(r, &r->tsq);
  put(r, 24, sub(r, sum(r, &r->Rs), 2 * (d - 2) * T + 2 * Topp + R - 2 * T));
  put(r, 26, sub(r, mul(r, d - 2, R), tsq - 2 * T));
  put(r, 27, sub(r, sum(r, &r->s27), d * T - 4 * T + tsq));
  put(r, 28, sub(r, mul(r, d - 1, r->nbT - 2 * T), 2 * Topp - 2 * T));
  put(r, 29, sub(r, sum(r, &r->s29), R + 2 * Topp));
  put(r, 30, sub(r, mul(r, T, r->p2), R + tsq));
  put(r, 31, sum(r, &r->s31));
  put(r, 32, sum(r, &r->s32));
  put(r, 33, mul(r, T, wm_choose(d - 2, 2)));
}

/* A 4-cycle, a diamond, a bowtie, a book or a 4-clique with one more
 * vertex: 35, 38 (G16), 39, 41, 42 (G17), 43, 44 (G18), 45, 47 (G19),
 * 55 (G22), 58 (G23). */
static void cut_at_a_vertex(row *r) {
  const wm_i128 d = r->d, T = r->T, D = r->D, c4 = r->c4, Topp = r->Topp, K4 = r->K4;
  put(r, 35, sub(r, sum(r, &r->c4s), 2 * c4 + D));
  put(r, 38, sub(r, mul(r, d - 2, c4), D));
  put(r, 39, sub(r, sum(r, &r->Ds), D + 2 * Topp - 2 * T));
  put(r, 41, sum(r, &r->s41));
  put(r, 42, mul(r, d - 3, D));
  put(r, 43, sub(r, sum(r, &r->s43), 2 * Topp));
  put(r, 44, wm_choose(T, 2) - D);
  put(r, 45, sub(r, sum(r, &r->s45), sub(r, sum(r, &r->tsq), 2 * T) + 3 * K4));
  put(r, 47, sub(r, mul(r, d - 2, Topp - T), 3 * K4));
  put(r, 55, sum(r, &r->t3));
  put(r, 58, mul(r, K4, d - 3));
}

static int vertex_counts(const pieces *p, uint32_t x, wm_i128 *N, wm_error *err) {
  row r;
  memset(&r, 0, sizeof r);
  r.N = N;
  own_pieces(p, x, &r);
  sum_neighbours(p, x, &r);
  trees(&r);
  triangle_trees(&r);
  cut_at_a_vertex(&r);
  if (r.odd)
    return wm_fail(err, WM_EINPUT, "orbits: vertex %u: twice orbit 17's non-induced count is odd (a bug: please report it)",
                   wm_graph_file_id(p->g, x));
  return r.bad ? wm_orbit_overflow(p->g, x, r.bad, err) : WM_OK;
}

/* ---- the passes ------------------------------------------------------- */

static int pieces_init(pieces *p, const wm_graph *g, const wm_orbit_aggregates *a) {
  const size_t n = g->n ? g->n : 1;
  wm_i128 *block = malloc(8 * n * sizeof *block);
  *p = (pieces){g, a, block, block + n, block + 2 * n, block + 3 * n, block + 4 * n, block + 5 * n, block + 6 * n,
                block + 7 * n};
  return block ? 0 : -1;
}

/* Three passes over the vertices: each reads its neighbours' values of
 * the one before. */
static int passes(const pieces *p, wm_i128 *N, wm_error *err) {
  const wm_graph *g = p->g;
  wm_orbit_first_error first = {-1, {0, ""}};
#pragma omp parallel
  {
#pragma omp for schedule(dynamic, 256)
    for (int64_t v = 0; v < (int64_t)g->n; v++) own_sums(p, (uint32_t)v);
#pragma omp for schedule(dynamic, 256)
    for (int64_t v = 0; v < (int64_t)g->n; v++) neighbour_sums(p, (uint32_t)v);
#pragma omp for schedule(dynamic, 64)
    for (int64_t v = 0; v < (int64_t)g->n; v++) {
      wm_error e;
      if (vertex_counts(p, (uint32_t)v, N + (size_t)v * ORBITS5, &e)) wm_orbit_keep_first(&first, v, &e);
    }
  }
  if (first.vertex >= 0) *err = first.err;
  return first.vertex >= 0 ? err->code : WM_OK;
}

int wm_o5n_counts(const wm_graph *g, wm_i128 *N, wm_error *err) {
  const size_t n = g->n ? g->n : 1;
  wm_orbit_aggregates a = {malloc((g->m ? g->m : 1) * sizeof(uint32_t)), calloc(n, sizeof(uint64_t)),
                           calloc(n, sizeof(wm_i128)), calloc(n, sizeof(wm_i128))};
  pieces p;
  int rc = pieces_init(&p, g, &a) || !a.tri || !a.k4 || !a.n8 || !a.n12
               ? wm_fail(err, WM_EINPUT, "orbits: out of memory for the non-induced counts (%u vertices)", g->n)
               : WM_OK;
  memset(N, 0, (size_t)g->n * ORBITS5 * sizeof *N);
  if (!rc) rc = wm_orbit_aggregates_cpu(g, 4, &a, err);
  if (!rc) rc = passes(&p, N, err);
  free(p.T);
  free(a.tri);
  free(a.k4);
  free(a.n8);
  free(a.n12);
  return rc;
}
