/* Non-induced 5-vertex orbit counts per vertex and their conversion to the
 * induced ones (orbit_noninduced5.h says what and why).
 *
 * Notation, per vertex x (y runs over x's neighbours, t = t_xy the
 * triangles on the edge x-y): d its degree, T its triangles, p2 = the sum
 * of d_y - 1 (2-paths from x), p3 = the sum of p2_y less d(d - 1) + 2T
 * (3-paths from x), S = the sum of C(d_y - 1, 2), R = the sum of
 * t (d_y - 2), D = the sum of C(t, 2) (diamonds with x on the chord), Topp
 * = the sum over x's triangles x, a, b of t_ab, c4 its 4-cycles, K4 its
 * 4-cliques; per arc t, tdeg, F and c4e, per 2-hop pair cn and E (defined
 * where they are counted).  Each orbit's N is a sum over x's neighbours of
 * these, less the walks in which vertices coincide (inclusion-exclusion);
 * every formula was first checked against brute force in a prototype, and
 * the tests check each against brute force again. */
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "matcher.h" /* wm_share */
#include "orbit_cliques5.h"
#include "orbit_cycles5.h"
#include "orbit_noninduced5.h"
#include "orbit_share5.h"
#include "orbit_walks5.h"

/* The orbits with a formula here: all 58.  The trees, the graphlets cut at
 * a vertex or an edge into stars, triangles, 4-cycles and 4-cliques whose
 * pieces are counted here, K5 and K5 less an edge at x (70, 72) from x's
 * 4-cliques, the 5-cycle (34) from x's 2-hop tally, and K2,3's 3-side
 * (49), W4 less a spoke (62-64) and the wheel (68, 69) from x's diamonds
 * and the 4-cycles inside its neighbourhood. */
static const uint8_t with_formula[] = {15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
                                       32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49,
                                       50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67,
                                       68, 69, 70, 71, 72};

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

/* Per vertex, what its neighbours' sums read, together: a neighbour's are
 * read whole, two cache lines where eight arrays took eight.  With n below
 * 2^32 a degree and an edge's triangles are below 2^32, so each of
 * T .. Topp (at most 2^32 terms of at most 2^64 each, or p3's and the sums
 * of T of 2^32 terms below 2^63 ... 2^96) is far below 2^127: no checks. */
typedef struct own {
  wm_i128 T, p2, S, R, D, p3, nbT, Topp;
} own;

typedef struct pieces {
  const wm_graph *g;
  const wm_orbit_aggregates *a;
  own *o;                    /* per vertex, 64-byte aligned */
  wm_o5n_walks w;            /* the per-vertex walks' */
  uint64_t *k4e;             /* per arc (the clique sums) */
  wm_orbit_clique_sums c;    /* c.k4e is k4e */
  uint64_t *c5;              /* per vertex, its 5-cycles */
  uint64_t *cn_at;           /* per arc a -> b, where CN(a, b) starts in cn_list (m + 1) */
  uint32_t *cn_list;         /* each arc's common neighbours, ascending */
  uint32_t *cn_pos;          /* beside each c of CN(a, b), c's place in b's row (the arc b -> c) */
} pieces;

static wm_i128 deg(const wm_graph *g, uint32_t v) { return (wm_i128)(g->offsets[v + 1] - g->offsets[v]); }

static void own_sums(const pieces *p, uint32_t x) {
  const wm_graph *g = p->g;
  wm_i128 T2 = 0, p2 = 0, S = 0, R = 0, D = 0;
  for (uint64_t e = g->offsets[x]; e < g->offsets[x + 1]; e++) {
    const wm_i128 dy = deg(g, g->adj[e]), t = p->a->tri[e];
    T2 += t, p2 += dy - 1, S += wm_choose(dy - 1, 2), R += t * (dy - 2), D += wm_choose(t, 2);
  }
  own *o = &p->o[x];
  o->T = T2 / 2, o->p2 = p2, o->S = S, o->R = R, o->D = D;
}

static void neighbour_sums(const pieces *p, uint32_t x) {
  const wm_graph *g = p->g;
  const wm_i128 d = deg(g, x);
  wm_i128 p2s = 0, Ts = 0;
  for (uint64_t e = g->offsets[x]; e < g->offsets[x + 1]; e++) p2s += p->o[g->adj[e]].p2, Ts += p->o[g->adj[e]].T;
  own *o = &p->o[x];
  o->p3 = p2s - d * (d - 1) - 2 * o->T;
  o->nbT = Ts;
  o->Topp = p->a->n12[x] + o->T; /* n12: the sum of t_ab - 1 */
}

/* The per-vertex walks over x's triangles, 2-hop partners, diamonds and
 * wheels (orbit_walks5.c on the CPU, gpu_orbit_walks5.cu on the GPU) leave
 * tdeg, F and c4e per arc, what each walk owes its arcs' heads (toward)
 * and each vertex's own sums (walked): pieces.w. */

/* ---- one vertex's counts ---------------------------------------------- */

/* x's own pieces, its sums over its neighbours (each checked), and the
 * orbit whose formula first overflowed. */
typedef struct row {
  wm_i128 d, T, p2, p3, S, R, D, nbT, Topp, c4, K4;
  wm_acc p3s, Q, Ss, s19, c3, Rs, tsq, s27, s29, s31, s32, c4s, Ds, s41, s43, s45, t3; /* sum_neighbours */
  wm_acc s46, s48, s59, s37, s53, s52, s65, s56, s57, s67;                          /* near_edges */
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
  const own *o = &p->o[x];
  r->d = deg(p->g, x), r->T = o->T, r->p2 = o->p2, r->p3 = o->p3, r->S = o->S, r->R = o->R;
  r->D = o->D, r->nbT = o->nbT, r->Topp = o->Topp, r->c4 = p->a->n8[x], r->K4 = (wm_i128)p->a->k4[x];
}

/* The sums over x's neighbours y, one term per formula that needs one.
 * A term is a product of at most a degree or an edge's triangles (below
 * 2^32) and a piece below 2^96, so only the sums need checks. */
static void sum_neighbours(const pieces *p, uint32_t x, row *r) {
  const wm_graph *g = p->g;
  for (uint64_t e = g->offsets[x]; e < g->offsets[x + 1]; e++) {
    const uint32_t y = g->adj[e];
    const own *o = &p->o[y];
    const wm_i128 dy = deg(g, y), t = p->a->tri[e], Ty = o->T;
    wm_acc_add(&r->p3s, o->p3);
    wm_acc_add(&r->Q, (dy - 1) * (dy - 1));
    wm_acc_add(&r->Ss, o->S);
    wm_acc_add(&r->s19, (dy - 2) * (o->p2 - r->d + 1 - t) - 2 * Ty + 2 * t);
    wm_acc_add(&r->c3, wm_choose(dy - 1, 3));
    wm_acc_add(&r->Rs, o->R);
    wm_acc_add(&r->tsq, t * t);
    wm_acc_add(&r->s27, o->nbT - 2 * Ty);
    wm_acc_add(&r->s29, t * (o->p2 - r->d - t + 2));
    wm_acc_add(&r->s31, (Ty - t) * (dy - 3));
    wm_acc_add(&r->s32, t * wm_choose(dy - 2, 2));
    wm_acc_add(&r->c4s, p->a->n8[y]);
    wm_acc_add(&r->Ds, o->D);
    wm_acc_add(&r->s41, wm_choose(t, 2) * (dy - 3));
    wm_acc_add(&r->s43, t * (Ty - t + 1));
    wm_acc_add(&r->s45, o->Topp - Ty);
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

/* x's sums over its triangles and edges of the arcs' tdeg, F, c4e and k4e
 * (all made by vertex_walks before). */
static void near_edges(const pieces *p, uint32_t x, row *r) {
  const wm_graph *g = p->g;
  const uint32_t *t = p->a->tri;
  /* Each term is below 2^64 in size and there are fewer than 2^32 of them
   * (x's triangles, twice): the sums stay below 2^97, unchecked. */
  wm_i128 s59 = 0, s46 = 0, s52 = 0, s65 = 0;
  for (uint64_t e = g->offsets[x]; e < g->offsets[x + 1]; e++) {
    const uint32_t a = g->adj[e];
    const uint64_t row_a = g->offsets[a], end = p->cn_at[e + 1];
    uint64_t k = p->cn_at[e], above = k, n = end - k; /* above: the first b > a (the list ascends) */
    while (n > 0) {
      const uint64_t half = n / 2;
      if (p->cn_list[above + half] < a) above += half + 1, n -= half + 1;
      else n = half;
    }
    /* the far edge a -> b: F(a, b), and from b F(b, a) */
    for (; k < above; k++) s59 += p->w.F[row_a + p->cn_pos[k]];
    for (; k < end; k++) {
      const uint64_t f = row_a + p->cn_pos[k];
      s59 += p->w.F[f];
      s46 += (wm_i128)p->w.tdeg[f] - 2 * ((wm_i128)t[f] - 1) - r->d;
      s52 += p->w.c4e[f]; /* less t_xa + t_xb - 2 each: below */
      s65 += p->k4e[f];
    }
  }
  wm_acc_add(&r->s59, s59), wm_acc_add(&r->s46, s46), wm_acc_add(&r->s52, s52), wm_acc_add(&r->s65, s65);
  for (uint64_t e = g->offsets[x]; e < g->offsets[x + 1]; e++) {
    const wm_i128 te = t[e], c4e = p->w.c4e[e];
    /* over x's triangles, t_xa + t_xb - 2 is, arc by arc, t^2 - t */
    wm_acc_add(&r->s52, te - te * te);
    wm_acc_add(&r->s48, (te - 1) * ((wm_i128)p->w.tdeg[e] - 2 * te));
    wm_acc_add(&r->s37, c4e * (deg(g, g->adj[e]) - 2));
    wm_acc_add(&r->s53, te * c4e);
    const wm_i128 k4e = p->k4e[e], dy = deg(g, g->adj[e]);
    wm_acc_add(&r->s56, (wm_i128)p->a->k4[g->adj[e]] - k4e);
    wm_acc_add(&r->s57, k4e * (dy - 3));
    wm_acc_add(&r->s67, k4e * (te - 2));
  }
}

/* A diamond, a fan or a book reached over a triangle's far edge: G12's 25,
 * G17's 40, G19's 46 and 48, G22's 54, G24's 59 and 60. */
static void cut_at_a_triangle(const pieces *p, uint32_t x, row *r) {
  const wm_acc *s = p->w.walked[x];
  const wm_i128 K4 = r->K4, pairs = sub(r, sum(r, &r->tsq), 2 * r->T); /* the sum of t (t - 1) */
  put(r, 25, sum(r, &s[WM_O5N_S25]));
  put(r, 40, sum(r, &s[WM_O5N_S40]));
  put(r, 46, sub(r, sum(r, &r->s46), 3 * K4));
  put(r, 48, sub(r, sum(r, &r->s48), 6 * K4));
  put(r, 54, sum(r, &s[WM_O5N_S54]));
  put(r, 59, sub(r, sum(r, &r->s59), add(r, pairs, 6 * K4)));
  put(r, 60, sub(r, sum(r, &s[WM_O5N_S60]), 6 * K4));
}

/* Around a 4-cycle: G16's 36 and 37, G20's 50, G21's 51-53; and the
 * 5-cycle, G15's 34, from the oriented walk (orbit_cycles5.c). */
static void cut_at_a_cycle(const pieces *p, uint32_t x, row *r) {
  const wm_acc *s = p->w.walked[x];
  const wm_i128 T = r->T, Topp = r->Topp, tsq = sum(r, &r->tsq);
  put(r, 34, (wm_i128)p->c5[x]);
  put(r, 36, sub(r, sum(r, &s[WM_O5N_S36]), r->D));
  put(r, 37, sub(r, sum(r, &r->s37), 2 * Topp - 2 * T));
  put(r, 50, sum(r, &s[WM_O5N_S50]));
  put(r, 51, sub(r, sum(r, &s[WM_O5N_S51]), add(r, tsq - 2 * T, 2 * (Topp - T))));
  put(r, 52, sum(r, &r->s52));
  put(r, 53, sub(r, sum(r, &r->s53), add(r, tsq, 2 * Topp - 4 * T)));
}

/* A 4-clique and one more vertex, two 4-cliques sharing a triangle, or
 * K5: G23's 56 and 57, G24's 61, G26's 65-67, G28's 70 and 71, G29's 72. */
static void cut_at_a_clique(const pieces *p, uint32_t x, row *r) {
  const wm_orbit_clique_sums *c = &p->c;
  put(r, 56, sum(r, &r->s56));
  put(r, 57, sum(r, &r->s57));
  put(r, 61, (wm_i128)c->s61[x]);
  put(r, 65, sub(r, sum(r, &r->s65), 3 * r->K4));
  put(r, 66, (wm_i128)c->s66[x]);
  put(r, 67, sum(r, &r->s67));
  put(r, 70, (wm_i128)c->s70[x]);
  put(r, 71, (wm_i128)c->s71[x]);
  put(r, 72, (wm_i128)c->k5[x]);
}

/* K2,3's 3-side (49), W4 less a spoke (62-64) and the wheel (68, 69):
 * x's own sums, its tips (63), and what its neighbours' walks left on the
 * arcs into x (each found by a binary search of the neighbour's row).
 * Each pair {c, o} of 49, {tip, tip} of 62 and diamond of 64 was left by
 * its smaller vertex; 62's pairs included the chords at x, the sum over
 * x's neighbours y of C(t_xy, 2) = D. */
static void across_diamonds(const pieces *p, uint32_t x, row *r) {
  const wm_graph *g = p->g;
  const wm_acc *s = p->w.walked[x];
  wm_acc in[WM_O5N_TOWARD] = {{0}};
  for (uint64_t e = g->offsets[x]; e < g->offsets[x + 1]; e++) {
    const wm_i128 *owed = p->w.toward[wm_graph_arc_at(g, g->adj[e], x)];
    for (unsigned k = 0; k < WM_O5N_TOWARD; k++) wm_acc_add(&in[k], owed[k]);
  }
  put(r, 49, sum(r, &in[WM_O5N_TO49]));
  put(r, 62, sub(r, sum(r, &in[WM_O5N_TO62]), r->D));
  put(r, 63, wm_o5n_tips(&p->w, g->n, x));
  put(r, 64, sum(r, &in[WM_O5N_TO64]));
  put(r, 68, sum(r, &in[WM_O5N_TO68]));
  put(r, 69, sum(r, &s[WM_O5N_S69]) / 4);
}

/* x's counts in two halves, so that the first can run while the GPU's
 * wheels do: every orbit but those across diamonds (49, 62-64, 68, 69:
 * the toward words and the wheels' sum) into N, *mark the first orbit
 * whose terms overflowed (0: none) with ODD where twice 17's count is
 * odd; then the rest, and the verdict. */
#define ODD 0x80

static void first_half(const pieces *p, uint32_t x, wm_i128 *N, uint8_t *mark) {
  row r;
  memset(&r, 0, sizeof r);
  r.N = N;
  own_pieces(p, x, &r);
  sum_neighbours(p, x, &r);
  near_edges(p, x, &r);
  trees(&r);
  triangle_trees(&r);
  cut_at_a_vertex(&r);
  cut_at_a_triangle(p, x, &r);
  cut_at_a_cycle(p, x, &r);
  cut_at_a_clique(p, x, &r);
  *mark = (uint8_t)(r.bad | (r.odd ? ODD : 0));
}

static int second_half(const pieces *p, uint32_t x, wm_i128 *N, uint8_t mark, wm_error *err) {
  row r;
  memset(&r, 0, sizeof r);
  r.N = N, r.bad = mark & ~ODD, r.D = p->o[x].D;
  across_diamonds(p, x, &r);
  if (mark & ODD)
    return wm_fail(err, WM_EINPUT,
                   "orbits: vertex %u: twice orbit 17's non-induced count is odd (a bug: please report it)",
                   wm_graph_file_id(p->g, x));
  return r.bad ? wm_orbit_overflow(p->g, x, r.bad, 128, err) : WM_OK;
}

/* ---- the passes ------------------------------------------------------- */

static int pieces_init(pieces *p, const wm_graph *g, const wm_orbit_aggregates *a) {
  const size_t n = g->n ? g->n : 1, m = g->m ? g->m : 1;
  own *block = aligned_alloc(64, n * sizeof *block); /* 128 bytes each */
  *p = (pieces){g, a, block, {0}, calloc(m, sizeof *p->k4e), {0}, NULL, NULL, NULL, NULL};
  wm_big_pages(block, n * sizeof *block), wm_big_pages(p->k4e, m * sizeof *p->k4e);
  const int walks = wm_o5n_walks_alloc(g, &p->w);
  uint64_t *c = malloc(6 * n * sizeof *c);
  p->c5 = c ? c + 5 * n : NULL;
  p->c = (wm_orbit_clique_sums){c, c ? c + n : NULL, c ? c + 2 * n : NULL, c ? c + 3 * n : NULL,
                                c ? c + 4 * n : NULL, p->k4e};
  return block && c && p->k4e && !walks ? 0 : -1;
}

static void pieces_free(pieces *p) {
  free(p->o);
  wm_o5n_walks_free(&p->w);
  free(p->k4e);
  free(p->c.s61);
  free(p->cn_at);
  free(p->cn_list);
  free(p->cn_pos);
}

/* Where each vertex's N goes: kept (N, n x ORBITS5: the tests; else the
 * passes hold their own between the solve's halves), and where counts is
 * not NULL solved into its row of counts (wm_o5n_orbits). */
typedef struct sink {
  wm_i128 *N;
  const wm_o5n_matrix *m;
  const wm_orbit_run *run;
  uint64_t *counts; /* rows of wm_orbit_count(5) */
} sink;

/* x's second half, then its solve into its row of counts. */
static int vertex_out(const pieces *p, const sink *s, uint32_t x, wm_i128 *N, uint8_t mark, wm_error *err) {
  wm_i128 I[ORBITS5];
  if (second_half(p, x, N, mark, err)) return err->code;
  if (!s->counts) return WM_OK;
  if (wm_o5n_solve(p->g, s->m, x, N, I, err)) return err->code;
  uint64_t *row = s->counts + (size_t)x * wm_orbit_count(5);
  for (unsigned o = 0; o < ORBITS5; o++)
    if (wm_orbit_store(p->g, x, o + FIRST5, I[o], s->run, &row[o + FIRST5], err)) return err->code;
  return WM_OK;
}

/* Where the heavy pieces run: on the CPU's threads, their loops shared
 * with the other processes of share where not NULL, or (gpu) on the
 * current CUDA device, or over devices 0..gpus-1 where gpus > 1, reading g
 * where gg holds it there, their kernels' time added to *kernel_ms where
 * not NULL. */
typedef struct walks_on {
  int gpu, gpus;
  const struct wm_gpu_graph *gg;
  double *kernel_ms;
  const wm_share *share;
} walks_on;

/* The walks of every vertex, a vertex of progress each; on one GPU the
 * wheels may be left running (*run: wm_o5n_walks_gpu_finish). */
static int walks(const pieces *p, const walks_on *on, wm_progress *progress, wm_o5n_walks_run **run,
                 wm_error *err) {
  const wm_graph *g = p->g;
  wm_o5n_walks w = p->w;
  *run = NULL;
  if (!on->gpu)
    return wm_o5n_walks_cpu_shared(g, p->a->tri, p->cn_at, p->cn_list, on->share, &w, progress, err);
  const int rc = wm_o5n_walks_gpu_start(g, on->gg, on->gpus, p->a->tri, p->cn_at, p->cn_list, &w, on->kernel_ms,
                                        run, err);
  if (!rc) wm_progress_add(progress, g->n);
  return rc;
}

/* The clique sums; the 5-cycles. */
static int clique_sums(pieces *p, const walks_on *on, wm_error *err) {
  return on->gpu ? wm_orbit_clique_sums_gpu(p->g, on->gg, on->gpus, &p->c, on->kernel_ms, err)
                 : wm_orbit_clique_sums_cpu_shared(p->g, on->share, &p->c, err);
}

static int five_cycles(pieces *p, const walks_on *on, wm_error *err) {
  return on->gpu ? wm_orbit_cycles5_gpu(p->g, on->gg, on->gpus, 0, p->c5, on->kernel_ms, err)
                 : wm_orbit_cycles5_shared(p->g, 0, on->share, p->c5, err);
}

/* On the GPU the clique sums and 5-cycles need only the graph, so a thread
 * of their own runs each while this one makes the common-neighbour lists
 * and the own sums on the CPU (their kernels take turns on the device;
 * the host work of one, such as the 5-cycles' ranked copy, runs beside
 * the other's kernels).  They are joined before the walks, whose buffers
 * would otherwise share the device's memory with theirs.  Their host work
 * takes a few threads of its own team: the lists have every core. */
typedef int (*beside_job)(pieces *p, const walks_on *on, wm_error *err);

typedef struct beside {
  beside_job job;
  pieces *p;
  walks_on on;
  wm_monitor *mon;
  double kernel_ms;
  double took, waited; /* its own time; this thread's at the join (s) */
  int rc, started, ran;
  wm_error err;
  pthread_t thread;
} beside;

#define BESIDE_THREADS 4
#define BESIDE_JOBS 2 /* the clique sums, the 5-cycles */

static void *beside_run(void *arg) {
  beside *b = arg;
  wm_monitor *was = wm_monitor_enter(b->mon);
  omp_set_num_threads(BESIDE_THREADS);
  const double t0 = wm_now();
  b->rc = b->job(b->p, &b->on, &b->err);
  b->took = wm_now() - t0;
  wm_monitor_leave(was);
  return NULL;
}

/* Starts job in b where on is the GPU; else (or where no thread starts)
 * the passes run it in turn. */
static void beside_start(beside *b, beside_job job, pieces *p, const walks_on *on) {
  *b = (beside){.job = job, .p = p, .on = *on, .mon = wm_monitor_current()};
  b->on.kernel_ms = on->kernel_ms ? &b->kernel_ms : NULL;
  b->started = b->ran = on->gpu && pthread_create(&b->thread, NULL, beside_run, b) == 0;
}

/* Joins b, its kernel time added to on's; b's result, or the earlier rc. */
static int beside_join(beside *b, const walks_on *on, int rc, wm_error *err) {
  if (!b->started) return rc;
  const double t0 = wm_now();
  pthread_join(b->thread, NULL);
  b->started = 0, b->waited = wm_now() - t0;
  if (on->kernel_ms) *on->kernel_ms += b->kernel_ms;
  if (!rc && b->rc) *err = b->err, rc = b->rc;
  return rc;
}

/* Every vertex's first half into N (n x ORBITS5) and marks. */
static void first_halves(const pieces *p, wm_i128 *N, uint8_t *marks, wm_progress *progress) {
#pragma omp parallel for schedule(dynamic, 64)
  for (int64_t v = 0; v < (int64_t)p->g->n; v++) {
    if (wm_progress_stopped(progress)) continue;
    first_half(p, (uint32_t)v, N + (size_t)v * ORBITS5, &marks[v]);
    wm_progress_add(progress, 1);
  }
}

/* Every vertex's second half and solve, into s; the first vertex's error. */
static int second_halves(const pieces *p, const sink *s, wm_i128 *N, const uint8_t *marks, wm_progress *progress,
                         wm_error *err) {
  wm_orbit_first_error first = {-1, {0, ""}};
#pragma omp parallel for schedule(dynamic, 64)
  for (int64_t v = 0; v < (int64_t)p->g->n; v++) {
    wm_error e;
    if (wm_progress_stopped(progress)) continue;
    if (vertex_out(p, s, (uint32_t)v, N + (size_t)v * ORBITS5, marks[v], &e)) wm_orbit_keep_first(&first, v, &e);
    wm_progress_add(progress, 1);
  }
  if (wm_progress_stopped(progress)) return wm_interrupted(err, "orbits");
  if (first.vertex >= 0) *err = first.err;
  return first.vertex >= 0 ? err->code : WM_OK;
}

/* The own sums, then the walks (the phase "5-vertex orbits") and the
 * clique sums and 5-cycles, then every vertex's solve: each reads the
 * values of the ones before, but for the solve's first half, which reads
 * nothing of the wheels' and runs while they do on one GPU.  On the GPU
 * the clique sums and 5-cycles come first (they ran beside, bg[], joined
 * here, or run now); on the CPU after the walks, whose phase then reports
 * soon.  The walks on the CPU ask for the interrupt every 16 vertices, so
 * a hub's own walk is the longest wait.  With on->share, the processes
 * first agree that each has its pieces (rc: this one's result so far),
 * then share the walks, the clique sums and the 5-cycles, and each solves
 * every vertex from their sums, then they agree on the result.  N: n x
 * ORBITS5 words, marks: n.  at[0..6]: after the joins, the clique sums
 * and 5-cycles on the GPU, the walks' start, the clique sums and 5-cycles
 * on the CPU, the solve's first half, the walks' finish and the end. */
static int passes(pieces *p, const walks_on *on, const sink *s, int rc, beside bg[BESIDE_JOBS], wm_i128 *N,
                  uint8_t *marks, double *at, wm_error *err) {
  const wm_graph *g = p->g;
  if (!rc) {
#pragma omp parallel
    {
#pragma omp for schedule(dynamic, 256)
      for (int64_t v = 0; v < (int64_t)g->n; v++) own_sums(p, (uint32_t)v);
#pragma omp for schedule(dynamic, 256)
      for (int64_t v = 0; v < (int64_t)g->n; v++) neighbour_sums(p, (uint32_t)v);
    }
  }
  if (on->share) rc = wm_o5s_agree(on->share, rc, "orbits", err);
  for (int k = 0; k < BESIDE_JOBS; k++) rc = beside_join(&bg[k], on, rc, err);
  at[0] = wm_now();
  if (on->gpu) /* before the walks, whose buffers and wheels they would share the device with */
    for (int k = 0; k < BESIDE_JOBS; k++)
      if (!rc && !bg[k].ran) rc = bg[k].job(p, on, err);
  at[1] = wm_now();
  wm_o5n_walks_run *run = NULL;
  if (!rc) {
    wm_progress progress;
    wm_progress_init(&progress, "5-vertex orbits", g->n, 1);
    rc = walks(p, on, &progress, &run, err);
    wm_progress_finish(&progress);
    if (!rc && wm_progress_stopped(&progress)) rc = wm_interrupted(err, "orbits");
  }
  at[2] = wm_now();
  if (!on->gpu) /* after the walks, so that their phase reports first */
    for (int k = 0; k < BESIDE_JOBS; k++)
      if (!rc) rc = bg[k].job(p, on, err);
  at[3] = wm_now();
  wm_progress solving;
  wm_progress_init(&solving, "5-vertex orbits", 2 * (uint64_t)g->n, 1);
  if (!rc) first_halves(p, N, marks, &solving);
  at[4] = wm_now();
  if (on->gpu) rc = wm_o5n_walks_gpu_finish(run, g, &p->w, rc, err);
  at[5] = wm_now();
  if (!rc) rc = second_halves(p, s, N, marks, &solving, err);
  wm_progress_finish(&solving);
  if (on->share) rc = wm_o5s_agree(on->share, rc, "orbits", err); /* an interrupt in a solve ends every one */
  at[6] = wm_now();
  return rc;
}

/* Each arc's common neighbours, so that the tip-pair walk visits the
 * diamonds on an edge in t_ab steps, not a row, and the solve meets a
 * vertex's triangles in t steps each: beside each c of the list of a -> b,
 * c's place in b's row (the triangle a, b, c's edge b-c, far from a).  The
 * edge a-b is listed from its end a of the larger degree (wm_o5n_shorter),
 * whose row is marked with its arcs (+ 1) while the other's is scanned (the
 * sum over edges of the smaller degree); both arcs' lists at once.  They
 * take 8 bytes per triangle and arc (six per triangle). */
/* The lists of the arc f = a -> b and of its twin, with a's row marked
 * in seen. */
static void lists_of(const wm_graph *g, const uint64_t *seen, uint32_t a, uint64_t f, pieces *p) {
  const uint64_t first = g->offsets[a], end = g->offsets[a + 1];
  const uint32_t b = g->adj[f];
  uint64_t k = p->cn_at[f], j = p->cn_at[wm_graph_arc_at(g, b, a)];
  for (uint64_t h = g->offsets[b]; h < g->offsets[b + 1]; h++) {
    const uint32_t c = g->adj[h];
    const uint64_t ac = seen[c]; /* the arc a -> c + 1, where c is in a's row */
    if (ac <= first || ac > end) continue;
    p->cn_list[k] = c, p->cn_pos[k++] = (uint32_t)(h - g->offsets[b]);
    p->cn_list[j] = c, p->cn_pos[j++] = (uint32_t)(ac - 1 - first);
  }
}

/* The arcs are taken in chunks, not rows, so that a hub's (its
 * neighbours' rows, the sum of their degrees) spread over the threads; a
 * thread marks a row where its chunk starts or crosses into it. */
#define LIST_CHUNK 1024

static void lists_in_chunk(const wm_graph *g, const uint32_t *tri, uint64_t *seen, uint64_t *marked, uint64_t lo,
                           pieces *p) {
  const uint64_t hi = lo + LIST_CHUNK < g->m ? lo + LIST_CHUNK : g->m;
  uint64_t a = 0, top = g->n; /* the row of lo: the last a with offsets[a] <= lo */
  while (top - a > 1) {
    const uint64_t mid = a + (top - a) / 2;
    if (g->offsets[mid] <= lo) a = mid;
    else top = mid;
  }
  for (uint64_t f = lo; f < hi; f++) {
    while (f >= g->offsets[a + 1]) a++;
    if (!tri[f] || !wm_o5n_shorter(g->adj[f], (uint32_t)a)) continue;
    if (*marked != a + 1) {
      for (uint64_t e = g->offsets[a]; e < g->offsets[a + 1]; e++) seen[g->adj[e]] = e + 1;
      *marked = a + 1;
    }
    lists_of(g, seen, (uint32_t)a, f, p);
  }
}

static int arc_lists(const wm_graph *g, const uint32_t *tri, pieces *p, wm_error *err) {
  const size_t n = g->n ? g->n : 1;
  p->cn_at = malloc(((size_t)g->m + 1) * sizeof *p->cn_at);
  if (p->cn_at) {
    p->cn_at[0] = 0;
    for (uint64_t f = 0; f < g->m; f++) p->cn_at[f + 1] = p->cn_at[f] + tri[f];
    const size_t lists = (p->cn_at[g->m] ? p->cn_at[g->m] : 1) * sizeof *p->cn_list;
    p->cn_list = malloc(lists);
    p->cn_pos = malloc(lists);
    wm_big_pages(p->cn_at, ((size_t)g->m + 1) * sizeof *p->cn_at);
    wm_big_pages(p->cn_list, lists), wm_big_pages(p->cn_pos, lists);
  }
  int oom = !p->cn_at || !p->cn_list || !p->cn_pos;
#pragma omp parallel if (!oom)
  {
    uint64_t *seen = calloc(n, sizeof *seen), marked = 0; /* the row marked in seen, + 1 */
    if (!seen) __atomic_store_n(&oom, 1, __ATOMIC_RELAXED);
#pragma omp for schedule(dynamic, 1)
    for (int64_t lo = 0; lo < (int64_t)g->m; lo += LIST_CHUNK)
      if (seen) lists_in_chunk(g, tri, seen, &marked, (uint64_t)lo, p);
    free(seen);
  }
  return oom ? wm_fail(err, WM_EINPUT, "orbits: out of memory for each edge's common neighbours (%llu of them)",
                       (unsigned long long)(p->cn_at ? p->cn_at[g->m] : 0))
             : WM_OK;
}

/* The aggregates, then the passes into s (on the GPU where run->gpu; on
 * the CPU shared with the other processes of run->share where it has one:
 * each process counts its own aggregates, every process takes part in the
 * passes whatever its own gave, so that none waits for it in vain). */
static int noninduced(const wm_graph *g, const wm_orbit_run *run, const sink *s, wm_error *err) {
  const int gpu = run && run->gpu;
  const wm_share *share = run && !gpu ? run->share : NULL;
  if (gpu && run->share && run->share->processes > 1) /* each would count everything */
    return wm_fail(err, WM_EUSAGE, "orbits: the 5-vertex counts on the GPU are not shared by processes; count them "
                   "on the CPU");
  const size_t n = g->n ? g->n : 1;
  wm_orbit_aggregates a = {malloc((g->m ? g->m : 1) * sizeof(uint32_t)), calloc(n, sizeof(uint64_t)),
                           calloc(n, sizeof(wm_i128)), calloc(n, sizeof(wm_i128))};
  wm_big_pages(a.tri, g->m * sizeof(uint32_t));
  const double began = wm_now();
  pieces p;
  /* each vertex's N between the solve's halves: the tests' (s->N) or ours */
  wm_i128 *N = s->N ? s->N : malloc(n * ORBITS5 * sizeof *N);
  uint8_t *marks = malloc(n);
  wm_big_pages(N, n * ORBITS5 * sizeof *N);
  int rc = pieces_init(&p, g, &a) || !a.tri || !a.k4 || !a.n8 || !a.n12 || !N || !marks
               ? wm_fail(err, WM_EINPUT, "orbits: out of memory for the non-induced counts (%u vertices)", g->n)
               : WM_OK;
  double at[8] = {wm_now()};
  double *ms = run ? run->kernel_ms : NULL;
  const struct wm_gpu_graph *gg = run ? run->gpu_graph : NULL;
  double parts[3]; /* when the aggregates, the rows up to 4 vertices and the lists ended */
  if (!rc) rc = gpu ? wm_orbit_aggregates_gpu(g, 4, gg, &a, ms, err) : wm_orbit_aggregates_cpu(g, 4, &a, err);
  parts[0] = wm_now();
  const walks_on on = {gpu, gpu && run->gpus > 1 ? run->gpus : 1, gg, ms, share};
  beside bg[BESIDE_JOBS] = {{0}};
  const beside_job jobs[BESIDE_JOBS] = {clique_sums, five_cycles};
  for (int k = 0; k < BESIDE_JOBS; k++) {
    bg[k] = (beside){.job = jobs[k]};
    if (!rc) beside_start(&bg[k], jobs[k], &p, &on);
  }
  if (!rc && s->counts) { /* the orbits up to 4 vertices from the same aggregates */
    wm_orbit_run r4 = *run;
    r4.k = 4;
    rc = wm_orbit_rows_from(g, &r4, &a, wm_orbit_count(5), s->counts, err);
  }
  parts[1] = wm_now();
  if (!rc) rc = arc_lists(g, a.tri, &p, err);
  parts[2] = wm_now();
  rc = passes(&p, &on, s, rc, bg, N, marks, &at[1], err);
  double took = 0, waited = 0; /* beside: the longer job's time, both waits */
  for (int k = 0; k < BESIDE_JOBS; k++) {
    took = bg[k].took > took ? bg[k].took : took;
    waited += bg[k].waited;
  }
  char where[64] = "";
  if (share) snprintf(where, sizeof where, ", shared");
  else if (on.gpus > 1) snprintf(where, sizeof where, ", %d GPUs", on.gpus);
  if (bg[0].ran) snprintf(where + strlen(where), sizeof where - strlen(where), ", clique sums beside");
  pieces_free(&p);
  free(a.tri);
  free(a.k4);
  free(a.n8);
  free(a.n12);
  if (N != s->N) free(N);
  free(marks);
  if (wm_trace_on("WM_ORBIT_TRACE"))
    fprintf(stderr, "orbits (non-induced, size 5%s): setting up %.3f ms, aggregates %.3f ms (the 4-vertex aggregates "
            "%.3f, rows up to 4 vertices %.3f, common-neighbour lists %.3f, own sums %.3f, waiting for the clique sums "
            "%.3f), clique sums and 5-cycles %.3f ms, walks %.3f ms, the solve's first half %.3f ms (then waiting for "
            "the walks %.3f), second half %.3f ms, freeing %.3f ms\n", where, 1e3 * (at[0] - began),
            1e3 * (at[1] - at[0]), 1e3 * (parts[0] - at[0]), 1e3 * (parts[1] - parts[0]), 1e3 * (parts[2] - parts[1]),
            1e3 * (at[1] - parts[2] - waited), 1e3 * waited,
            1e3 * (bg[0].ran ? took : (at[2] - at[1]) + (at[4] - at[3])), 1e3 * (at[3] - at[2]),
            1e3 * (at[5] - at[4]), 1e3 * (at[6] - at[5]), 1e3 * (at[7] - at[6]), 1e3 * (wm_now() - at[7]));
  return rc;
}

int wm_o5n_counts_on(const wm_graph *g, int gpu, wm_i128 *N, wm_error *err) {
  memset(N, 0, (size_t)g->n * ORBITS5 * sizeof *N);
  const sink s = {N, NULL, NULL, NULL};
  wm_orbit_run on_gpu = {0};
  on_gpu.k = 5, on_gpu.gpu = 1, on_gpu.gpus = gpu;
  return noninduced(g, gpu ? &on_gpu : NULL, &s, err);
}

int wm_o5n_counts(const wm_graph *g, wm_i128 *N, wm_error *err) { return wm_o5n_counts_on(g, 0, N, err); }

int wm_o5n_orbits(const wm_graph *g, const wm_orbit_run *run, uint64_t *counts, wm_error *err) {
  const wm_orbit_tables *t = wm_orbit_tables_get(err);
  if (!t) return err->code;
  wm_o5n_matrix m;
  if (wm_o5n_derive(t, &m, err)) return err->code;
  const sink s = {NULL, &m, run, counts};
  return noninduced(g, run, &s, err);
}
