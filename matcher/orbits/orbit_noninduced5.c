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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "orbit_cliques5.h"
#include "orbit_cycles5.h"
#include "orbit_noninduced5.h"

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

/* x's sums over its triangles' far edges (far_edges), over the vertices
 * two steps away (around_cycles) and over its diamonds and wheels
 * (diamonds_and_wheels); its triangles' 4-cliques are wm_orbit_clique_sums'. */
enum { S25, S40, S54, S60, S36, S50, S51, S63, S69, WALKED };
/* What a vertex's walk owes the far end y of each of its arcs, where the
 * count is y's but the pieces are in the walker's tally (diamonds_and_wheels). */
enum { TO49, TO62, TO64, TO68, TOWARD };

/* Per vertex, what its neighbours' sums read.  With n below 2^32 a degree
 * and an edge's triangles are below 2^32, so each of T .. Topp (at most
 * 2^32 terms of at most 2^64 each, or p3's and the sums of T of 2^32 terms
 * below 2^63 ... 2^96) is far below 2^127: no checks. */
typedef struct pieces {
  const wm_graph *g;
  const wm_orbit_aggregates *a;
  wm_i128 *T, *p2, *S, *R, *D, *p3, *nbT, *Topp;
  uint64_t *tdeg, *F, *c4e, *k4e; /* per arc (far_edges, around_cycles, the clique sums) */
  wm_acc (*walked)[WALKED];  /* per vertex */
  wm_i128 (*toward)[TOWARD]; /* per arc: written by its tail, read by its head */
  wm_orbit_clique_sums c;    /* c.k4e is k4e */
  uint64_t *c5;              /* per vertex, its 5-cycles */
  uint64_t *cn_at;           /* per arc a -> b, where CN(a, b) starts in cn_list (m + 1) */
  uint32_t *cn_list;         /* each arc's common neighbours, ascending */
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

/* ---- x's triangles ----------------------------------------------------- */

/* The graphlets cut at a triangle x, a, b read its far edge a-b: t_ab, and
 * per arc tdeg (over the third vertices z of the edge's triangles, the sum
 * of d_z) and F (for the arc y -> a, the sum of t_yz - 1).  Each vertex
 * walks its own triangles with its row marked, so that every credit is its
 * own (no shared writes): that costs the sum of d^2, where the oriented
 * walks of orbit_aggregates_cpu.c cost the sum of d d+ (the plan's next
 * step moves these credits there). */

/* Runs the body for every ordered pair (a, b) of x's neighbours that are
 * adjacent: e the arc x -> a, h the arc x -> b, f the arc a -> b.  mark
 * (zero for every vertex before and after) holds x's arcs + 1 meanwhile. */
#define EACH_TRIANGLE_OF(g, mark, x, ...)                                                         \
  do {                                                                                            \
    for (uint64_t e_ = (g)->offsets[x]; e_ < (g)->offsets[(x) + 1]; e_++) (mark)[(g)->adj[e_]] = e_ + 1; \
    for (uint64_t e = (g)->offsets[x]; e < (g)->offsets[(x) + 1]; e++) {                          \
      const uint32_t a = (g)->adj[e];                                                             \
      for (uint64_t f = (g)->offsets[a]; f < (g)->offsets[a + 1]; f++) {                          \
        const uint32_t b = (g)->adj[f];                                                           \
        if (!(mark)[b]) continue;                                                                 \
        const uint64_t h = (mark)[b] - 1;                                                         \
        __VA_ARGS__;                                                                              \
      }                                                                                           \
    }                                                                                             \
    for (uint64_t e_ = (g)->offsets[x]; e_ < (g)->offsets[(x) + 1]; e_++) (mark)[(g)->adj[e_]] = 0; \
  } while (0)

/* tdeg and F of x's arcs, and x's sums of 25, 40, 54 and 60 over its
 * triangles (each once: a < b).  tdeg and F are below 2^64 (at most 2^32
 * terms below 2^32); a term of a sum is below 2^66. */
static void far_edges(const pieces *p, uint64_t *mark, uint32_t x) {
  const wm_graph *g = p->g;
  const uint32_t *t = p->a->tri;
  wm_acc *s = p->walked[x];
  EACH_TRIANGLE_OF(g, mark, x, {
    p->tdeg[e] += (uint64_t)deg(g, b);
    p->F[e] += t[h] - 1u;
    if (a < b) {
      const wm_i128 tab = t[f], da = deg(g, a), db = deg(g, b);
      wm_acc_add(&s[S25], (da - 2) * (db - 2) - tab + 1);
      wm_acc_add(&s[S40], (tab - 1) * (da + db - 6));
      wm_acc_add(&s[S54], wm_choose(tab - 1, 2));
      wm_acc_add(&s[S60], (tab - 1) * ((wm_i128)t[e] + t[h] - 2));
    }
  });
}

/* ---- x's 2-hop partners ------------------------------------------------ */

/* The graphlets around a 4-cycle through x read, for each vertex z two
 * steps from x, cn = |N(x) and N(z)| and s = the sum of t_bz over those
 * common neighbours b: a tally over x's 2-paths, each vertex's own as
 * above (the sum of d^2; the plan's next step moves these credits into the
 * Chiba-Nishizeki walk of orbit_aggregates_cpu.c).  Per thread: mark, and
 * cn, s (zero for every vertex before and after), touched. */
typedef struct scratch {
  uint64_t *mark, *cn, *s;
  uint32_t *touched;
  uint64_t *start;    /* n + 1 */
  uint32_t *inner;    /* G[N(x)] as lists, in diamonds_and_wheels: the largest 2T */
  uint32_t *inner_at; /* beside each, its place in the row it came from */
} scratch;

static uint32_t two_hop(const pieces *p, scratch *w, uint32_t x) {
  const wm_graph *g = p->g;
  uint32_t nt = 0;
  for (uint64_t e = g->offsets[x]; e < g->offsets[x + 1]; e++) {
    const uint32_t a = g->adj[e];
    for (uint64_t f = g->offsets[a]; f < g->offsets[a + 1]; f++) {
      const uint32_t z = g->adj[f];
      if (z == x) continue;
      if (!w->cn[z]++) w->touched[nt++] = z;
      w->s[z] += p->a->tri[f];
    }
  }
  return nt;
}

/* c4e of x's arcs (the 4-cycles through the edge x-y: for each u of N(y)
 * but x, cn(x, u) less y itself) and x's sums of 36, 50 and 51.  A term
 * is below 2^96; c4e below 2^64 (fewer than d(x) d(y) cycles). */
static void around_cycles(const pieces *p, scratch *w, uint32_t x) {
  const wm_graph *g = p->g;
  const uint32_t nt = two_hop(p, w, x);
  for (uint64_t e = g->offsets[x]; e < g->offsets[x + 1]; e++) {
    const uint32_t y = g->adj[e];
    uint64_t c = 0;
    for (uint64_t f = g->offsets[y]; f < g->offsets[y + 1]; f++)
      if (g->adj[f] != x) c += w->cn[g->adj[f]] - 1;
    p->c4e[e] = c;
  }
  wm_acc *s = p->walked[x];
  for (uint32_t i = 0; i < nt; i++) {
    const uint32_t z = w->touched[i];
    const wm_i128 cn = w->cn[z];
    wm_acc_add(&s[S36], wm_choose(cn, 2) * (deg(g, z) - 2));
    wm_acc_add(&s[S50], wm_choose(cn, 3));
    wm_acc_add(&s[S51], (cn - 1) * (wm_i128)w->s[z]);
    w->cn[z] = w->s[z] = 0;
  }
}

/* ---- x's diamonds and wheels -------------------------------------------- */

/* K2,3's 3-side (49), W4 less a spoke (62-64) and the wheel (68, 69) read,
 * besides x's 2-hop tally cn, E(q) = the edges inside CN(x, q) (the chords
 * of the diamonds with tips x and q: the plan's tip-pair walk) and the
 * 4-cycles inside G[N(x)].  Four of them are counts at a vertex other than
 * the one whose tally holds the pieces (49 and 62 at a common neighbour of
 * the pair, 64 at a chord end, 68 on the rim): x leaves on each arc x -> y
 * what it owes y (toward), and y sums its in-arcs in the last pass, so that
 * every walk writes only its own. */

/* x's 2-hop tally cn (as two_hop, without s), and G[N(x)] as lists: the
 * neighbours inside N(x) of x's i-th neighbour are inner[start[i] ..
 * start[i + 1]), as many as that arc's triangles.  N(x) is left marked in
 * mark (arc + 1).  It costs x's 2-paths. */
static uint32_t neighbourhood(const pieces *p, scratch *w, uint32_t x) {
  const wm_graph *g = p->g;
  const uint64_t first = g->offsets[x], d = g->offsets[x + 1] - first;
  uint32_t nt = 0;
  for (uint64_t e = first; e < first + d; e++) w->mark[g->adj[e]] = e + 1;
  w->start[0] = 0;
  for (uint64_t i = 0; i < d; i++) w->start[i + 1] = w->start[i] + p->a->tri[first + i];
  for (uint64_t i = 0; i < d; i++) {
    const uint32_t a = g->adj[first + i];
    uint64_t fill = w->start[i];
    for (uint64_t f = g->offsets[a]; f < g->offsets[a + 1]; f++) {
      const uint32_t z = g->adj[f];
      if (z == x) continue;
      if (!w->cn[z]++) w->touched[nt++] = z;
      if (w->mark[z]) w->inner_at[fill] = (uint32_t)(f - g->offsets[a]), w->inner[fill++] = z;
    }
  }
  return nt;
}

/* b before a in (degree, id): each triangle x, a, b is walked once, from
 * the end whose row is the longer, so that the row scanned is the shorter. */
static int shorter(const wm_graph *g, uint32_t b, uint32_t a) {
  const uint64_t db = wm_degree(g, b), da = wm_degree(g, a);
  return db < da || (db == da && b < a);
}

/* E (in w->s) over the vertices q != x, and on each arc x -> a the sum over
 * the diamonds with tip x and chord a-b (other tip q) of cn(q) - 2, the
 * tips' third common neighbours: 64's count at a, each diamond once from
 * each tip.  The q of a triangle x, a, b are CN(a, b) less x, listed per
 * arc (arc_lists): the q visited are the plan's sum over edges of t^2.  An arc's sum
 * is below 2^96 (t_xa triangles, fewer than 2^32 q each, cn below 2^32);
 * E(q) below 2^64 (the edges among cn(q) vertices). */
static void tip_pairs(const pieces *p, scratch *w, uint32_t x) {
  const wm_graph *g = p->g;
  const uint64_t first = g->offsets[x];
  for (uint64_t i = 0; first + i < g->offsets[x + 1]; i++) {
    const uint32_t a = g->adj[first + i];
    for (uint64_t j = w->start[i]; j < w->start[i + 1]; j++) {
      const uint32_t b = w->inner[j];
      if (!shorter(g, b, a)) continue;
      const uint64_t f = g->offsets[a] + w->inner_at[j]; /* the arc a -> b */
      wm_i128 thirds = 0;
      for (uint64_t k = p->cn_at[f]; k < p->cn_at[f + 1]; k++) {
        const uint32_t q = p->cn_list[k];
        if (q == x) continue;
        w->s[q]++;
        thirds += (wm_i128)w->cn[q] - 2; /* q sees a and b: cn(q) >= 2 */
      }
      p->toward[first + i][TO64] += thirds;
      p->toward[w->mark[b] - 1][TO64] += thirds;
    }
  }
}

/* On each arc x -> y, over the o of N(y) but x: C(cn(o) - 1, 2), the pairs
 * of further common neighbours of x and o (K2,3s with y, x and those two
 * on the 3-side: 49 at y), and E(o), the chords inside CN(x, o) (W4 less a
 * spoke with tips x, o and y their third common neighbour, 62 at y, less
 * the chords at y, taken off at y).  x's 2-paths again; each below 2^96. */
static void pairs_through(const pieces *p, const scratch *w, uint32_t x) {
  const wm_graph *g = p->g;
  for (uint64_t e = g->offsets[x]; e < g->offsets[x + 1]; e++) {
    const uint32_t y = g->adj[e];
    wm_i128 k23 = 0, chords = 0;
    for (uint64_t f = g->offsets[y]; f < g->offsets[y + 1]; f++) {
      const uint32_t o = g->adj[f];
      if (o == x) continue;
      k23 += wm_choose((wm_i128)w->cn[o] - 1, 2);
      chords += (wm_i128)w->s[o];
    }
    p->toward[e][TO49] = k23, p->toward[e][TO62] = chords;
  }
}

/* The 4-cycles of G[N(x)] through each neighbour a (W4 hubbed at x with a
 * on its rim, 68 at a): for each z of N(x) but a, the pairs of the paths
 * a-b-z inside N(x), tallied in w->cn.  The lists make it cost, per
 * neighbour b, t_xb^2 (the plan's sum over edges of t^2).  Their sum over
 * a is each cycle 4 times (69 at x).  One a's sum is below 2^95 (fewer
 * than 2^32 z, each on at most t_xa < 2^32 paths). */
static void wheels(const pieces *p, scratch *w, uint32_t x) {
  const wm_graph *g = p->g;
  const uint64_t first = g->offsets[x];
  for (uint64_t i = 0; first + i < g->offsets[x + 1]; i++) {
    const uint32_t a = g->adj[first + i];
    uint32_t nt = 0;
    for (uint64_t j = w->start[i]; j < w->start[i + 1]; j++) {
      const uint64_t k = w->mark[w->inner[j]] - 1 - first; /* b's place in x's row */
      for (uint64_t l = w->start[k]; l < w->start[k + 1]; l++) {
        const uint32_t z = w->inner[l];
        if (z != a && !w->cn[z]++) w->touched[nt++] = z;
      }
    }
    wm_i128 cycles = 0;
    for (uint32_t u = 0; u < nt; u++) {
      cycles += wm_choose((wm_i128)w->cn[w->touched[u]], 2);
      w->cn[w->touched[u]] = 0;
    }
    p->toward[first + i][TO68] = cycles;
    wm_acc_add(&p->walked[x][S69], cycles);
  }
}

/* x's part of 49, 62-64, 68 and 69: what it owes its neighbours, and its
 * own sums, tip (63: the sum over q of E(q) (cn(q) - 2), a term below
 * 2^96) and hub (69, four times). */
static void diamonds_and_wheels(const pieces *p, scratch *w, uint32_t x) {
  const wm_graph *g = p->g;
  const uint32_t nt = neighbourhood(p, w, x);
  tip_pairs(p, w, x);
  pairs_through(p, w, x);
  for (uint32_t i = 0; i < nt; i++) {
    const uint32_t q = w->touched[i];
    wm_acc_add(&p->walked[x][S63], (wm_i128)w->s[q] * ((wm_i128)w->cn[q] - 2));
    w->cn[q] = w->s[q] = 0;
  }
  wheels(p, w, x);
  for (uint64_t e = g->offsets[x]; e < g->offsets[x + 1]; e++) w->mark[g->adj[e]] = 0;
}

/* The per-vertex walks, before any vertex's counts. */
static void vertex_walks(const pieces *p, scratch *w, uint32_t x) {
  memset(p->walked[x], 0, sizeof p->walked[x]);
  far_edges(p, w->mark, x);
  around_cycles(p, w, x);
  diamonds_and_wheels(p, w, x);
}

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

/* x's sums over its triangles and edges of the arcs' tdeg, F, c4e and k4e
 * (all made by vertex_walks before). */
static void near_edges(const pieces *p, uint64_t *mark, uint32_t x, row *r) {
  const wm_graph *g = p->g;
  const uint32_t *t = p->a->tri;
  EACH_TRIANGLE_OF(g, mark, x, {
    (void)h;
    wm_acc_add(&r->s59, (wm_i128)p->F[f]); /* F(a, b) and, from b, F(b, a) */
    if (a < b) {
      wm_acc_add(&r->s46, (wm_i128)p->tdeg[f] - r->d - 2 * ((wm_i128)t[f] - 1));
      wm_acc_add(&r->s52, (wm_i128)p->c4e[f] - t[e] - t[h] + 2);
      wm_acc_add(&r->s65, (wm_i128)p->k4e[f]);
    }
  });
  for (uint64_t e = g->offsets[x]; e < g->offsets[x + 1]; e++) {
    const wm_i128 te = t[e], c4e = p->c4e[e];
    wm_acc_add(&r->s48, (te - 1) * ((wm_i128)p->tdeg[e] - 2 * te));
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
  const wm_acc *s = p->walked[x];
  const wm_i128 K4 = r->K4, pairs = sub(r, sum(r, &r->tsq), 2 * r->T); /* the sum of t (t - 1) */
  put(r, 25, sum(r, &s[S25]));
  put(r, 40, sum(r, &s[S40]));
  put(r, 46, sub(r, sum(r, &r->s46), 3 * K4));
  put(r, 48, sub(r, sum(r, &r->s48), 6 * K4));
  put(r, 54, sum(r, &s[S54]));
  put(r, 59, sub(r, sum(r, &r->s59), add(r, pairs, 6 * K4)));
  put(r, 60, sub(r, sum(r, &s[S60]), 6 * K4));
}

/* Around a 4-cycle: G16's 36 and 37, G20's 50, G21's 51-53; and the
 * 5-cycle, G15's 34, from the oriented walk (orbit_cycles5.c). */
static void cut_at_a_cycle(const pieces *p, uint32_t x, row *r) {
  const wm_acc *s = p->walked[x];
  const wm_i128 T = r->T, Topp = r->Topp, tsq = sum(r, &r->tsq);
  put(r, 34, (wm_i128)p->c5[x]);
  put(r, 36, sub(r, sum(r, &s[S36]), r->D));
  put(r, 37, sub(r, sum(r, &r->s37), 2 * Topp - 2 * T));
  put(r, 50, sum(r, &s[S50]));
  put(r, 51, sub(r, sum(r, &s[S51]), add(r, tsq - 2 * T, 2 * (Topp - T))));
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
 * x's own sums and what its neighbours' walks left on the arcs into x
 * (each found by a binary search of the neighbour's row).  Each pair
 * {c, o} of 49, {tip, tip} of 62 and diamond of 64 was left by both of
 * its ends that x neighbours; 62's pairs included the chords at x, the
 * sum over x's neighbours y of C(t_xy, 2) = D. */
static void across_diamonds(const pieces *p, uint32_t x, row *r) {
  const wm_graph *g = p->g;
  const wm_acc *s = p->walked[x];
  wm_acc in[TOWARD] = {{0}};
  for (uint64_t e = g->offsets[x]; e < g->offsets[x + 1]; e++) {
    const wm_i128 *owed = p->toward[wm_graph_arc_at(g, g->adj[e], x)];
    for (unsigned k = 0; k < TOWARD; k++) wm_acc_add(&in[k], owed[k]);
  }
  put(r, 49, sum(r, &in[TO49]) / 2);
  put(r, 62, sub(r, sum(r, &in[TO62]) / 2, r->D));
  put(r, 63, sum(r, &s[S63]));
  put(r, 64, sum(r, &in[TO64]) / 2);
  put(r, 68, sum(r, &in[TO68]));
  put(r, 69, sum(r, &s[S69]) / 4);
}

static int vertex_counts(const pieces *p, uint64_t *mark, uint32_t x, wm_i128 *N, wm_error *err) {
  row r;
  memset(&r, 0, sizeof r);
  r.N = N;
  own_pieces(p, x, &r);
  sum_neighbours(p, x, &r);
  near_edges(p, mark, x, &r);
  trees(&r);
  triangle_trees(&r);
  cut_at_a_vertex(&r);
  cut_at_a_triangle(p, x, &r);
  cut_at_a_cycle(p, x, &r);
  cut_at_a_clique(p, x, &r);
  across_diamonds(p, x, &r);
  if (r.odd)
    return wm_fail(err, WM_EINPUT,
                   "orbits: vertex %u: twice orbit 17's non-induced count is odd (a bug: please report it)",
                   wm_graph_file_id(p->g, x));
  return r.bad ? wm_orbit_overflow(p->g, x, r.bad, err) : WM_OK;
}

/* ---- the passes ------------------------------------------------------- */

static int pieces_init(pieces *p, const wm_graph *g, const wm_orbit_aggregates *a) {
  const size_t n = g->n ? g->n : 1, m = g->m ? g->m : 1;
  wm_i128 *block = malloc(8 * n * sizeof *block);
  *p = (pieces){g, a, block, block + n, block + 2 * n, block + 3 * n, block + 4 * n, block + 5 * n, block + 6 * n,
                block + 7 * n, calloc(m, sizeof *p->tdeg), calloc(m, sizeof *p->F), calloc(m, sizeof *p->c4e),
                calloc(m, sizeof *p->k4e), malloc(n * sizeof *p->walked), calloc(m, sizeof *p->toward), {0}, NULL, NULL, NULL};
  uint64_t *c = malloc(6 * n * sizeof *c);
  p->c5 = c ? c + 5 * n : NULL;
  p->c = (wm_orbit_clique_sums){c, c ? c + n : NULL, c ? c + 2 * n : NULL, c ? c + 3 * n : NULL,
                                c ? c + 4 * n : NULL, p->k4e};
  return block && c && p->tdeg && p->F && p->c4e && p->k4e && p->walked && p->toward ? 0 : -1;
}

static void pieces_free(pieces *p) {
  free(p->T);
  free(p->tdeg);
  free(p->F);
  free(p->c4e);
  free(p->k4e);
  free(p->walked);
  free(p->c.s61);
  free(p->toward);
  free(p->cn_at);
  free(p->cn_list);
}

/* Where each vertex's N goes: kept (N, n x ORBITS5: the tests), or solved
 * at once into its row of counts (wm_o5n_orbits), so that nothing of size
 * n x ORBITS5 is held. */
typedef struct sink {
  wm_i128 *N;
  const wm_o5n_matrix *m;
  const wm_orbit_run *run;
  uint64_t *counts; /* rows of wm_orbit_count(5) */
} sink;

static int vertex_out(const pieces *p, uint64_t *mark, const sink *s, uint32_t x, wm_error *err) {
  wm_i128 mine[ORBITS5] = {0}, I[ORBITS5];
  wm_i128 *N = s->N ? s->N + (size_t)x * ORBITS5 : mine;
  if (vertex_counts(p, mark, x, N, err)) return err->code;
  if (!s->counts) return WM_OK;
  if (wm_o5n_solve(p->g, s->m, x, N, I, err)) return err->code;
  uint64_t *row = s->counts + (size_t)x * wm_orbit_count(5);
  for (unsigned o = 0; o < ORBITS5; o++)
    if (wm_orbit_store(p->g, x, o + FIRST5, I[o], s->run->start, &row[o + FIRST5], err)) return err->code;
  return WM_OK;
}

/* Per thread: 3n words of zeros, n halves, n + 1 words (start) and 2 x room
 * halves (inner and inner_at, the largest 2T each). */
#define SCRATCH_WORDS(n) (5 * (size_t)(n) + 1)

/* Three passes over the vertices: each reads its neighbours' values of
 * the one before.  The walks ask for the interrupt every 16 vertices, so
 * a hub's own walk is the longest wait. */
static int passes(const pieces *p, uint64_t *zeros, uint32_t *inner, uint64_t room, const sink *s,
                  wm_error *err) {
  const wm_graph *g = p->g;
  wm_orbit_first_error first = {-1, {0, ""}};
  wm_progress progress;
  wm_progress_init(&progress, "5-vertex orbits", 2 * (uint64_t)g->n, 1);
#pragma omp parallel
  {
    uint64_t *mine = zeros + (size_t)omp_get_thread_num() * SCRATCH_WORDS(g->n);
    uint32_t *lists = inner + (size_t)omp_get_thread_num() * 2 * room;
    scratch w = {mine, mine + g->n, mine + 2 * (size_t)g->n, (uint32_t *)(mine + 3 * (size_t)g->n),
                 mine + 4 * (size_t)g->n, lists, lists + room};
    uint64_t *mark = w.mark;
#pragma omp for schedule(dynamic, 256)
    for (int64_t v = 0; v < (int64_t)g->n; v++) own_sums(p, (uint32_t)v);
#pragma omp for schedule(dynamic, 1)
    for (int64_t b = 0; b < (int64_t)g->n; b += 16) { /* a block per claim: a block is the interrupt's unit */
      if (wm_progress_stopped(&progress)) continue;
      const int64_t end = b + 16 < (int64_t)g->n ? b + 16 : (int64_t)g->n;
      for (int64_t v = b; v < end; v++) neighbour_sums(p, (uint32_t)v), vertex_walks(p, &w, (uint32_t)v);
      wm_progress_add(&progress, (uint64_t)(end - b));
    }
#pragma omp for schedule(dynamic, 64)
    for (int64_t v = 0; v < (int64_t)g->n; v++) {
      wm_error e;
      if (wm_progress_stopped(&progress)) continue;
      if (vertex_out(p, mark, s, (uint32_t)v, &e)) wm_orbit_keep_first(&first, v, &e);
      wm_progress_add(&progress, 1);
    }
  }
  wm_progress_finish(&progress);
  if (wm_progress_stopped(&progress)) return wm_interrupted(err, "orbits");
  if (first.vertex >= 0) *err = first.err;
  return first.vertex >= 0 ? err->code : WM_OK;
}

/* Each arc's common neighbours, so that the tip-pair walk visits the
 * diamonds on an edge in t_ab steps, not a row: the arc from the end of
 * larger (degree, id) scans the other end's row against its own marked
 * (the sum over edges of the smaller degree), its twin copies the list.
 * They take 4 bytes per triangle and arc (six per triangle). */
static void lists_of(const wm_graph *g, const uint32_t *tri, uint64_t *seen, uint32_t a, pieces *p) {
  for (uint64_t f = g->offsets[a]; f < g->offsets[a + 1]; f++) seen[g->adj[f]] = (uint64_t)a + 1;
  for (uint64_t f = g->offsets[a]; f < g->offsets[a + 1]; f++) {
    const uint32_t b = g->adj[f];
    if (!tri[f] || !shorter(g, b, a)) continue;
    uint64_t k = p->cn_at[f];
    for (uint64_t h = g->offsets[b]; h < g->offsets[b + 1]; h++)
      if (seen[g->adj[h]] == (uint64_t)a + 1) p->cn_list[k++] = g->adj[h];
  }
}

static void twins_of(const wm_graph *g, const uint32_t *tri, uint32_t a, pieces *p) {
  for (uint64_t f = g->offsets[a]; f < g->offsets[a + 1]; f++) {
    const uint32_t b = g->adj[f];
    if (!tri[f] || shorter(g, b, a)) continue;
    const uint64_t h = wm_graph_arc_at(g, b, a);
    memcpy(p->cn_list + p->cn_at[f], p->cn_list + p->cn_at[h], tri[f] * sizeof *p->cn_list);
  }
}

static int arc_lists(const wm_graph *g, const uint32_t *tri, pieces *p, wm_error *err) {
  const size_t n = g->n ? g->n : 1;
  p->cn_at = malloc(((size_t)g->m + 1) * sizeof *p->cn_at);
  if (p->cn_at) {
    p->cn_at[0] = 0;
    for (uint64_t f = 0; f < g->m; f++) p->cn_at[f + 1] = p->cn_at[f] + tri[f];
    p->cn_list = malloc((p->cn_at[g->m] ? p->cn_at[g->m] : 1) * sizeof *p->cn_list);
  }
  int oom = !p->cn_at || !p->cn_list;
#pragma omp parallel if (!oom)
  {
    uint64_t *seen = calloc(n, sizeof *seen);
    if (!seen) __atomic_store_n(&oom, 1, __ATOMIC_RELAXED);
#pragma omp for schedule(dynamic, 64)
    for (int64_t a = 0; a < (int64_t)g->n; a++)
      if (seen) lists_of(g, tri, seen, (uint32_t)a, p);
#pragma omp for schedule(dynamic, 256)
    for (int64_t a = 0; a < (int64_t)g->n; a++)
      if (!oom) twins_of(g, tri, (uint32_t)a, p);
    free(seen);
  }
  return oom ? wm_fail(err, WM_EINPUT, "orbits: out of memory for each edge's common neighbours (%llu of them)",
                       (unsigned long long)(p->cn_at ? p->cn_at[g->m] : 0))
             : WM_OK;
}

/* The largest 2T over the vertices: the room G[N(x)]'s lists take. */
static uint64_t largest_neighbourhood(const wm_graph *g, const uint32_t *tri) {
  uint64_t most = 0;
  for (uint32_t x = 0; x < g->n; x++) {
    uint64_t twice = 0;
    for (uint64_t e = g->offsets[x]; e < g->offsets[x + 1]; e++) twice += tri[e];
    most = twice > most ? twice : most;
  }
  return most;
}

/* Room for every thread's G[N(x)] lists, or the out-of-memory error. */
static int inner_alloc(const wm_graph *g, uint64_t room, uint32_t **inner, wm_error *err) {
  const size_t threads = (size_t)omp_get_max_threads();
  if (room <= SIZE_MAX / 2 / sizeof **inner / threads)
    *inner = malloc((room ? 2 * room : 1) * threads * sizeof **inner);
  return *inner ? WM_OK
                : wm_fail(err, WM_EINPUT,
                          "orbits: out of memory for the non-induced counts (%u vertices, %llu words per thread)",
                          g->n, (unsigned long long)room);
}

/* The aggregates (on the GPU where run->gpu), then the passes into s. */
static int noninduced(const wm_graph *g, const wm_orbit_run *run, const sink *s, wm_error *err) {
  const size_t n = g->n ? g->n : 1;
  wm_orbit_aggregates a = {malloc((g->m ? g->m : 1) * sizeof(uint32_t)), calloc(n, sizeof(uint64_t)),
                           calloc(n, sizeof(wm_i128)), calloc(n, sizeof(wm_i128))};
  pieces p;
  uint64_t *marks = calloc(SCRATCH_WORDS(n) * (size_t)omp_get_max_threads(), sizeof *marks);
  int rc = pieces_init(&p, g, &a) || !marks || !a.tri || !a.k4 || !a.n8 || !a.n12
               ? wm_fail(err, WM_EINPUT, "orbits: out of memory for the non-induced counts (%u vertices)", g->n)
               : WM_OK;
  double at[4] = {wm_now()};
  if (!rc && run && run->gpu) rc = wm_orbit_aggregates_gpu(g, 4, run->gpu_graph, &a, run->kernel_ms, err);
  else if (!rc) rc = wm_orbit_aggregates_cpu(g, 4, &a, err);
  at[1] = wm_now();
  if (!rc && s->counts) { /* the orbits up to 4 vertices from the same aggregates */
    wm_orbit_run r4 = *run;
    r4.k = 4;
    rc = wm_orbit_rows_from(g, &r4, &a, wm_orbit_count(5), s->counts, err);
  }
  const int gpu = run && run->gpu;
  double *ms = run ? run->kernel_ms : NULL;
  if (!rc) rc = gpu ? wm_orbit_clique_sums_gpu(g, run->gpu_graph, &p.c, ms, err) : wm_orbit_clique_sums_cpu(g, &p.c, err);
  if (!rc) rc = gpu ? wm_orbit_cycles5_gpu(g, run->gpu_graph, 0, p.c5, ms, err) : wm_orbit_cycles5(g, p.c5, err);
  if (!rc) rc = arc_lists(g, a.tri, &p, err);
  at[2] = wm_now();
  uint32_t *inner = NULL;
  const uint64_t room = rc ? 0 : largest_neighbourhood(g, a.tri);
  if (!rc) rc = inner_alloc(g, room, &inner, err);
  if (!rc) rc = passes(&p, marks, inner, room, s, err);
  at[3] = wm_now();
  if (wm_trace_on("WM_ORBIT_TRACE"))
    fprintf(stderr, "orbits (non-induced, size 5): aggregates %.3f ms, clique sums and 5-cycles %.3f ms, walks and solve %.3f ms\n",
            1e3 * (at[1] - at[0]), 1e3 * (at[2] - at[1]), 1e3 * (at[3] - at[2]));
  pieces_free(&p);
  free(marks);
  free(inner);
  free(a.tri);
  free(a.k4);
  free(a.n8);
  free(a.n12);
  return rc;
}

int wm_o5n_counts(const wm_graph *g, wm_i128 *N, wm_error *err) {
  memset(N, 0, (size_t)g->n * ORBITS5 * sizeof *N);
  const sink s = {N, NULL, NULL, NULL};
  return noninduced(g, NULL, &s, err);
}

int wm_o5n_orbits(const wm_graph *g, const wm_orbit_run *run, uint64_t *counts, wm_error *err) {
  const wm_orbit_tables *t = wm_orbit_tables_get(err);
  if (!t) return err->code;
  wm_o5n_matrix m;
  if (wm_o5n_derive(t, &m, err)) return err->code;
  const sink s = {NULL, &m, run, counts};
  return noninduced(g, run, &s, err);
}
