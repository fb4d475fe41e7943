/* The edge formula for 5-vertex graphlets: ORCA's edge orbits 12..67 of
 * every edge by equations over the 4-vertex sets that hold the edge, never
 * over the 5-vertex ones (ORCA's idea, Hocevar & Demsar 2016; the equations
 * and their derivation here are this project's, made in code from the
 * drawings as orbit_equations5.c makes the vertices').
 *
 * For an edge x-y, a connected 4-vertex set S holding it and a nonempty U
 * of S, A_U(S) is the number of vertices z outside S adjacent to every
 * vertex of U; each such z makes a connected 5-set S + z holding x-y.  For
 * a class r of (S, {x, y}, U) up to isomorphism (x and y may swap),
 *     E_r(x, y) = sum over S of that class of A_U(S) = sum_o M[r][o] I_o(x, y),
 * I_o the induced count of edge orbit o at x-y and M[r][o] the ways (z, U)
 * one graphlet with x-y in orbit o is so made, counted on its drawing.  The
 * class's sparsest graphlet is S with z joined to exactly U, so choosing
 * for each orbit one class whose sparsest graphlet is its own (z not on the
 * edge, the graphlet less z connected, U = z's neighbours) makes M
 * triangular by edge count: solved densest first, each division checked.
 * The cheapest U is chosen (a degree, the edge's or another edge's
 * triangles, x's two-hop tally, y's; a scan of a list last).
 *
 * No class whose S is a 3-star is chosen, so that the walk never makes
 * those sets (C(d, 2) per edge at a vertex of degree d): every edge orbit
 * but the 4-star's has a z leaving another S.  The 4-star's row is its
 * non-induced count, C(dx - 1, 3) + C(dy - 1, 3), whose coefficients are
 * the graphlets' degree-4 ends of the edge; the 4-star has the fewest
 * edges of those, so M stays triangular.
 *
 * The walk: per vertex x (OpenMP, dynamic), its tally c(x, w), then each
 * edge x-y with y > x: L = N(x) + N(y) less x and y, split into X (x's
 * only), Y (y's only) and C (common); the sets {x, y, a, b} are the edges
 * a-b with a in L (b in L or outside it), and the non-adjacent pairs of
 * L that are no 3-star (C with L, X with Y).  Its cost is about the sum
 * over the edges of the degrees of L's vertices, ORCA's order. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "orbit_equations5.h" /* wm_o5_pair_bit, wm_o5_neighbours_in, wm_o5_is_star */
#include "orbits.h"

#define E5 (WM_EDGE_ORBIT_MAX - WM_EDGE_ORBIT4) /* 56: edge orbits 12..67 */
#define NKEYS 1024                               /* a class: 6 bits of mask, 4 of U */
#define NOROW 0xFF
#define ADJACENCY_BYTES ((uint64_t)64 << 20)     /* the adjacency matrix where it fits */

/* How a use's A_U is had: a degree, the edge's triangles, another edge's,
 * x's or y's tally, or a count or scan of a list (common_of). */
enum { BY_DEGREE, BY_EDGE, BY_TRIANGLES_AB, BY_TALLY_X, BY_Y, BY_LIST };

typedef struct e5_use {
  uint8_t u, row, inside, by, at; /* at: the position read (a degree, a tally) */
} e5_use;

typedef struct e5_equations {
  uint16_t key[E5];          /* each row's class, or NKEYS for the 4-star's closed row */
  uint8_t row_of_key[NKEYS]; /* the row a class adds to, or NOROW */
  uint16_t coef[E5][E5];     /* M[row][orbit - 12] */
  uint8_t order[E5];         /* rows, densest graphlet first */
  uint8_t nuse[64];
  e5_use uses[64][15];
  unsigned y_tally;          /* 1: some use needs c(y, w) of a w not adjacent to y */
} e5_equations;

/* ---- the equations from the drawings ------------------------------------ */

static unsigned pair_bit(unsigned i, unsigned j) { return wm_o5_pair_bit_of(i, j); }

/* The class of (S, edge at {0, 1}, U): the least (mask, U) over the
 * relabellings that keep the edge's positions {0, 1}. */
static unsigned class_key(unsigned mask, unsigned u) {
  static const unsigned perms[4][4] = {{0, 1, 2, 3}, {1, 0, 2, 3}, {0, 1, 3, 2}, {1, 0, 3, 2}};
  return wm_o5_least_key(mask, u, perms, 4);
}

static unsigned degree5(unsigned fmask, unsigned v) {
  unsigned d = 0;
  for (unsigned i = 0; i < 5; i++)
    if (i != v) d += fmask >> pair_bit(i, v) & 1u;
  return d;
}

/* F (5 positions) less z, the edge's ends p, q at positions 0, 1: the
 * 4-position mask and z's neighbours as positions of it. */
static void remove_vertex(unsigned fmask, unsigned p, unsigned q, unsigned z, unsigned *mask, unsigned *nz) {
  unsigned pos[4] = {p, q}, n = 2;
  for (unsigned v = 0; v < 5; v++)
    if (v != p && v != q && v != z) pos[n++] = v;
  *mask = *nz = 0;
  for (unsigned j = 0; j < 4; j++) {
    for (unsigned i = 0; i < j; i++)
      if (fmask >> pair_bit(pos[i], pos[j]) & 1u) *mask |= 1u << wm_o5_pair_bit(i, j);
    if (fmask >> pair_bit(pos[j], z) & 1u) *nz |= 1u << j;
  }
}

/* What A_U costs per set (lower is cheaper), the denser S preferred among
 * equals: a degree or the edge's triangles, another edge's triangles or x's
 * tally, y's tally, else a scan. */
static unsigned cost(unsigned mask, unsigned u) {
  const unsigned size = (unsigned)__builtin_popcount(u);
  unsigned c = 6;
  if (size == 1 || u == 3u) c = 0;
  else if (size == 2) {
    const unsigned a = (unsigned)__builtin_ctz(u), b = 31u - (unsigned)__builtin_clz(u);
    if ((mask >> wm_o5_pair_bit(a, b) & 1u) || a == 0) c = 1;
    else if (a == 1) c = 2;
  } else if ((u & 3u) == 3u || (u & 5u) == 5u || (u & 6u) == 6u)
    c = 4; /* a scan of a common list (the edge's, x's and a's, y's and a's) */
  return c * 8 + 6 - (unsigned)__builtin_popcount(mask);
}

/* The edge orbit o's graphlet mask and ends (positions p < q). */
static void orbit_edge(const wm_orbit_tables *t, unsigned o, unsigned *fmask, unsigned *p, unsigned *q) {
  for (unsigned gid = 9; gid < 30; gid++) {
    const unsigned m = t->graphlet_mask[gid];
    for (unsigned j = 1; j < 5; j++)
      for (unsigned i = 0; i < j; i++)
        if ((m >> wm_o5_pair_bit(i, j) & 1u) && t->edge_orbit[5][m][wm_o5_pair_bit(i, j)] == o) {
          *fmask = m, *p = i, *q = j;
          return;
        }
  }
  *fmask = 0, *p = 0, *q = 1; /* not reached: the tables name every orbit (checked when built) */
}

static void choose_keys(const wm_orbit_tables *t, e5_equations *q) {
  for (unsigned o = 0; o < E5; o++) {
    unsigned fmask, p, r, best = UINT32_MAX;
    orbit_edge(t, o + WM_EDGE_ORBIT4, &fmask, &p, &r);
    q->key[o] = NKEYS;
    for (unsigned z = 0; z < 5; z++) {
      unsigned mask, nz;
      if (z == p || z == r) continue;
      remove_vertex(fmask, p, r, z, &mask, &nz);
      if (!wm_o5_connected4(mask) || wm_o5_is_star(mask) || cost(mask, nz) >= best) continue;
      best = cost(mask, nz);
      q->key[o] = (uint16_t)class_key(mask, nz);
    }
  }
}

/* M: every (z, U) of every orbit's graphlet; the closed row counts the
 * edge's ends of degree 4 (the 4-stars holding the edge). */
static void count_coefficients(const wm_orbit_tables *t, e5_equations *q) {
  for (unsigned o = 0; o < E5; o++) {
    unsigned fmask, p, r;
    orbit_edge(t, o + WM_EDGE_ORBIT4, &fmask, &p, &r);
    for (unsigned row = 0; row < E5; row++)
      if (q->key[row] == NKEYS) q->coef[row][o] = (uint16_t)((degree5(fmask, p) == 4) + (degree5(fmask, r) == 4));
    for (unsigned z = 0; z < 5; z++) {
      unsigned mask, nz;
      if (z == p || z == r) continue;
      remove_vertex(fmask, p, r, z, &mask, &nz);
      if (!wm_o5_connected4(mask)) continue;
      for (unsigned u = nz; u; u = (u - 1) & nz) {
        const uint8_t row = q->row_of_key[class_key(mask, u)];
        if (row != NOROW) q->coef[row][o]++;
      }
    }
  }
}

static void list_uses(e5_equations *q) {
  for (unsigned mask = 0; mask < 64; mask++) {
    if (!(mask & 1u) || !wm_o5_connected4(mask) || wm_o5_is_star(mask)) continue;
    for (unsigned u = 1; u < 16; u++) {
      const uint8_t row = q->row_of_key[class_key(mask, u)];
      if (row == NOROW) continue;
      uint8_t inside = 0;
      for (unsigned v = 0; v < 4; v++) inside += !(u >> v & 1u) && (wm_o5_neighbours_in(mask, v) & u) == u;
      const unsigned top = 31u - (unsigned)__builtin_clz(u), size = (unsigned)__builtin_popcount(u);
      uint8_t by = BY_LIST;
      if (size == 1) by = BY_DEGREE;
      else if (u == 3u) by = BY_EDGE;
      else if (u == 12u && (mask >> wm_o5_pair_bit(2, 3) & 1u)) by = BY_TRIANGLES_AB;
      else if (size == 2 && (u & 1u)) by = BY_TALLY_X;
      else if (size == 2 && (u & 2u)) by = BY_Y;
      q->uses[mask][q->nuse[mask]++] = (e5_use){(uint8_t)u, row, inside, by, (uint8_t)top};
      if (by == BY_Y && !(mask >> wm_o5_pair_bit(1, top) & 1u)) q->y_tally = 1;
    }
  }
}

static unsigned edges_of(const wm_orbit_tables *t, unsigned o) {
  unsigned fmask, p, q;
  orbit_edge(t, o + WM_EDGE_ORBIT4, &fmask, &p, &q);
  return (unsigned)__builtin_popcount(fmask);
}

static int derive(const wm_orbit_tables *t, e5_equations *q, wm_error *err) {
  memset(q, 0, sizeof *q);
  memset(q->row_of_key, NOROW, sizeof q->row_of_key);
  choose_keys(t, q);
  unsigned closed = 0;
  for (unsigned o = 0; o < E5; o++) {
    if (q->key[o] == NKEYS) closed++;
    else if (q->row_of_key[q->key[o]] != NOROW)
      return wm_fail(err, WM_EINPUT, "orbits: two 5-vertex edge orbits share an equation (a bug)");
    else q->row_of_key[q->key[o]] = (uint8_t)o;
  }
  count_coefficients(t, q);
  list_uses(q);
  unsigned n = 0;
  for (int e = 10; e >= 4; e--)
    for (unsigned o = 0; o < E5; o++)
      if (edges_of(t, o) == (unsigned)e) q->order[n++] = (uint8_t)o;
  for (unsigned r = 0; r < E5; r++) {
    int ok = q->coef[r][r] > 0 && closed <= 1;
    for (unsigned o = 0; o < E5; o++)
      if (o != r && q->coef[r][o] && edges_of(t, o) <= edges_of(t, r)) ok = 0;
    if (!ok)
      return wm_fail(err, WM_EINPUT, "orbits: the equation of edge orbit %u is not triangular (a bug)",
                     r + WM_EDGE_ORBIT4);
  }
  return WM_OK;
}

/* ---- the walk ------------------------------------------------------------ */

typedef struct shared {
  const wm_graph *g;
  const e5_equations *q;
  const uint32_t *tri;       /* per arc */
  const uint64_t *adjacency; /* n x n bits, or NULL */
  uint64_t *row_of;          /* per vertex: its first row less its first arc above it */
  uint32_t *tail_of;         /* per arc, its tail */
} shared;

enum { IN_X = 1, IN_Y = 2, NEAR_A = 4 };

/* One thread's state: the edge x-y, its lists and the set's a and b. */
typedef struct walk {
  const shared *sh;
  uint8_t *mark;           /* IN_X, IN_Y, NEAR_A (a neighbour of the current a) */
  uint64_t *arc_x, *arc_y; /* per neighbour w of x (of y): the arc x->w (y->w) */
  uint32_t *cx, *cy;       /* the two-hop tallies of x and y */
  uint32_t *touched_x, *touched_y;
  uint32_t ntx, nty;
  uint32_t *xs, *ys, *cs;  /* X, Y, C */
  uint32_t nx, ny, nc;
  uint32_t *cxa, *cya, *cxya; /* the common neighbours of x and a, y and a, all three */
  uint32_t nxa, nya, nxya;
  uint32_t v[4];           /* x, y, a, b */
  uint64_t e;              /* the arc x->y */
  uint32_t tail;           /* the x whose marks and tally are set, or UINT32_MAX */
  uint64_t ab;             /* the arc a->b where a ~ b */
  wm_i128 E[E5];
} walk;

static uint64_t deg(const wm_graph *g, uint32_t v) { return g->offsets[v + 1] - g->offsets[v]; }

static int adjacent(const walk *w, uint32_t u, uint32_t v) {
  if (w->sh->adjacency) {
    const uint64_t bit = (uint64_t)u * w->sh->g->n + v;
    return (int)(w->sh->adjacency[bit >> 6] >> (bit & 63u) & 1u);
  }
  return wm_graph_has_arc(w->sh->g, u, v);
}

static void tally(const wm_graph *g, uint32_t v, uint32_t *c, uint32_t *touched, uint32_t *nt) {
  for (uint64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++)
    for (uint64_t f = g->offsets[g->adj[e]]; f < g->offsets[g->adj[e] + 1]; f++)
      if (g->adj[f] != v && !c[g->adj[f]]++) touched[(*nt)++] = g->adj[f];
}

static void untally(uint32_t *c, const uint32_t *touched, uint32_t *nt) {
  for (uint32_t i = 0; i < *nt; i++) c[touched[i]] = 0;
  *nt = 0;
}

/* z ~ every position of u (z one of the list being scanned). */
static int near_all(const walk *w, unsigned u, uint32_t z) {
  const uint8_t m = w->mark[z];
  if ((u & 1u) && !(m & IN_X)) return 0;
  if ((u & 2u) && !(m & IN_Y)) return 0;
  if ((u & 4u) && !(m & NEAR_A)) return 0;
  return !(u & 8u) || adjacent(w, w->v[3], z);
}

/* The vertices adjacent to all of U, S's own included: {x, y, a} counted,
 * else a scan of the shortest list that holds them (a common list of two
 * or three of x, y and a, else a row). */
static uint64_t common_scan(const walk *w, unsigned u) {
  if (u == 7u) return w->nxya;
  const wm_graph *g = w->sh->g;
  const uint32_t *list = NULL;
  uint64_t len = UINT64_MAX;
  const struct {
    unsigned part;
    const uint32_t *v;
    uint32_t n;
  } lists[4] = {{3u, w->cs, w->nc}, {5u, w->cxa, w->nxa}, {6u, w->cya, w->nya}, {7u, w->cxya, w->nxya}};
  for (unsigned i = 0; i < 4; i++)
    if ((u & lists[i].part) == lists[i].part && lists[i].n < len) len = lists[i].n, list = lists[i].v;
  for (unsigned i = 0; i < 4; i++)
    if ((u >> i & 1u) && deg(g, w->v[i]) < len) len = deg(g, w->v[i]), list = g->adj + g->offsets[w->v[i]];
  uint64_t c = 0;
  for (uint64_t i = 0; i < len; i++) c += near_all(w, u, list[i]);
  return c;
}

/* The vertices adjacent to all of U, S's own included. */
static uint64_t common_of(const walk *w, const e5_use *s) {
  const shared *sh = w->sh;
  const uint32_t v = w->v[s->at];
  switch (s->by) {
  case BY_DEGREE: return deg(sh->g, v);
  case BY_EDGE: return sh->tri[w->e];
  case BY_TRIANGLES_AB: return sh->tri[w->ab];
  case BY_TALLY_X: return w->cx[v];
  case BY_Y: return (w->mark[v] & IN_Y) ? sh->tri[w->arc_y[v]] : w->cy[v];
  default: return common_scan(w, s->u);
  }
}

/* The set {x, y, a, b}, a ~ b where ab: its sums. */
static void visit(walk *w, uint32_t b, int ab) {
  const uint8_t ma = w->mark[w->v[2]], mb = w->mark[b];
  w->v[3] = b;
  const unsigned mask = 1u | (ma & IN_X ? 2u : 0) | (ma & IN_Y ? 4u : 0) | (mb & IN_X ? 8u : 0) |
                        (mb & IN_Y ? 16u : 0) | (ab ? 32u : 0);
  const e5_equations *q = w->sh->q;
  for (unsigned i = 0; i < q->nuse[mask]; i++) {
    const e5_use *s = &q->uses[mask][i];
    w->E[s->row] += (wm_i128)(common_of(w, s) - s->inside);
  }
}

/* The sets whose third vertex is a (of L): its edges to L above it and to
 * vertices outside L, then its non-adjacent partners that make no 3-star. */
static void sets_of(walk *w, uint32_t a) {
  const wm_graph *g = w->sh->g;
  const uint32_t x = w->v[0], y = w->v[1];
  w->v[2] = a;
  w->nxa = w->nya = w->nxya = 0;
  for (uint64_t f = g->offsets[a]; f < g->offsets[a + 1]; f++) {
    const uint32_t z = g->adj[f];
    const uint8_t m = w->mark[z];
    w->mark[z] = m | NEAR_A; /* y may be a common neighbour of x and a, x of y and a */
    if (m & IN_X) w->cxa[w->nxa++] = z;
    if (m & IN_Y) w->cya[w->nya++] = z;
    if ((m & (IN_X | IN_Y)) == (IN_X | IN_Y)) w->cxya[w->nxya++] = z;
  }
  for (uint64_t f = g->offsets[a]; f < g->offsets[a + 1]; f++) {
    const uint32_t b = g->adj[f];
    if (b == x || b == y || ((w->mark[b] & (IN_X | IN_Y)) && b < a)) continue;
    w->ab = f;
    visit(w, b, 1);
  }
  const uint8_t ma = w->mark[a] & (IN_X | IN_Y);
  if (ma == (IN_X | IN_Y)) { /* a common: every non-adjacent partner in L, C's above a */
    for (uint32_t i = 0; i < w->nx; i++)
      if (!(w->mark[w->xs[i]] & NEAR_A)) visit(w, w->xs[i], 0);
    for (uint32_t i = 0; i < w->ny; i++)
      if (!(w->mark[w->ys[i]] & NEAR_A)) visit(w, w->ys[i], 0);
    for (uint32_t i = 0; i < w->nc; i++)
      if (w->cs[i] > a && !(w->mark[w->cs[i]] & NEAR_A)) visit(w, w->cs[i], 0);
  } else if (ma == IN_X) { /* x's only: the non-adjacent partners of y's only */
    for (uint32_t i = 0; i < w->ny; i++)
      if (!(w->mark[w->ys[i]] & NEAR_A)) visit(w, w->ys[i], 0);
  }
  for (uint64_t f = g->offsets[a]; f < g->offsets[a + 1]; f++) w->mark[g->adj[f]] &= (uint8_t)~NEAR_A;
}

/* The E of the edge x-y (the arc e of x's row), x's marks and tally set. */
static void edge_sums(walk *w, uint32_t x, uint64_t e) {
  const wm_graph *g = w->sh->g;
  const uint32_t y = g->adj[e];
  w->v[0] = x, w->v[1] = y, w->e = e;
  memset(w->E, 0, sizeof w->E);
  w->nx = w->ny = w->nc = 0;
  for (uint64_t f = g->offsets[y]; f < g->offsets[y + 1]; f++) {
    const uint32_t z = g->adj[f];
    w->mark[z] |= IN_Y, w->arc_y[z] = f;
    if (z == x) continue;
    if (w->mark[z] & IN_X) w->cs[w->nc++] = z;
    else w->ys[w->ny++] = z;
  }
  for (uint64_t f = g->offsets[x]; f < g->offsets[x + 1]; f++)
    if (g->adj[f] != y && !(w->mark[g->adj[f]] & IN_Y)) w->xs[w->nx++] = g->adj[f];
  if (w->sh->q->y_tally) tally(g, y, w->cy, w->touched_y, &w->nty);
  for (uint32_t i = 0; i < w->nx; i++) sets_of(w, w->xs[i]);
  for (uint32_t i = 0; i < w->ny; i++) sets_of(w, w->ys[i]);
  for (uint32_t i = 0; i < w->nc; i++) sets_of(w, w->cs[i]);
  if (w->sh->q->y_tally) untally(w->cy, w->touched_y, &w->nty);
  for (uint64_t f = g->offsets[y]; f < g->offsets[y + 1]; f++) w->mark[g->adj[f]] &= (uint8_t)~IN_Y;
}

/* The induced counts from E, densest first; stored (columns 12..67), or an
 * overflow named. */
static int solve(const shared *sh, const wm_orbit_run *run, uint32_t x, uint32_t y, wm_i128 *E, uint64_t *row,
                 wm_error *err) {
  const wm_graph *g = sh->g;
  const e5_equations *q = sh->q;
  wm_i128 I[E5] = {0};
  int of = 0;
  for (unsigned i = 0; i < E5; i++) {
    const unsigned r = q->order[i];
    wm_i128 v = E[r];
    if (q->key[r] == NKEYS)
      v = wm_add_chk(wm_choose((wm_i128)deg(g, x) - 1, 3), wm_choose((wm_i128)deg(g, y) - 1, 3), &of);
    for (unsigned o = 0; o < E5; o++)
      if (o != r && q->coef[r][o]) v = wm_sub_chk(v, wm_mul_chk((wm_i128)q->coef[r][o], I[o], &of), &of);
    if (of) return wm_edge_orbit_overflow(g, x, y, r + WM_EDGE_ORBIT4, 128, err);
    if (v < 0 || v % q->coef[r][r])
      return wm_fail(err, WM_EINPUT, "orbits: edge %u-%u: edge orbit %u's equation fails (a bug: please report it)",
                     wm_graph_file_id(g, x), wm_graph_file_id(g, y), r + WM_EDGE_ORBIT4);
    I[r] = v / q->coef[r][r];
  }
  for (unsigned o = 0; o < E5; o++)
    if (wm_edge_orbit_store(g, x, y, o + WM_EDGE_ORBIT4, I[o], run, &row[WM_EDGE_ORBIT4 + o], err)) return err->code;
  return WM_OK;
}

static int walk_init(walk *w, const shared *sh) {
  const size_t n = sh->g->n ? sh->g->n : 1;
  memset(w, 0, sizeof *w);
  w->sh = sh;
  w->tail = UINT32_MAX;
  w->mark = calloc(n, 1);
  w->arc_x = malloc(n * sizeof *w->arc_x), w->arc_y = malloc(n * sizeof *w->arc_y);
  w->cx = calloc(n, sizeof *w->cx), w->cy = calloc(n, sizeof *w->cy);
  w->touched_x = malloc(n * sizeof *w->touched_x), w->touched_y = malloc(n * sizeof *w->touched_y);
  w->xs = malloc(n * sizeof *w->xs), w->ys = malloc(n * sizeof *w->ys), w->cs = malloc(n * sizeof *w->cs);
  w->cxa = malloc(n * sizeof *w->cxa), w->cya = malloc(n * sizeof *w->cya), w->cxya = malloc(n * sizeof *w->cxya);
  return w->mark && w->arc_x && w->arc_y && w->cx && w->cy && w->touched_x && w->touched_y && w->xs && w->ys && w->cs &&
         w->cxa && w->cya && w->cxya;
}

static void walk_free(walk *w) {
  free(w->mark), free(w->arc_x), free(w->arc_y), free(w->cx), free(w->cy);
  free(w->touched_x), free(w->touched_y), free(w->xs), free(w->ys), free(w->cs);
  free(w->cxa), free(w->cya), free(w->cxya);
}

/* x's marks and tally for its edges (kept while the thread's edges are
 * x's: a hub's edges are spread over the threads, each making its tally). */
static void set_tail(walk *w, uint32_t x) {
  const wm_graph *g = w->sh->g;
  if (w->tail == x) return;
  if (w->tail != UINT32_MAX) {
    untally(w->cx, w->touched_x, &w->ntx);
    for (uint64_t e = g->offsets[w->tail]; e < g->offsets[w->tail + 1]; e++) w->mark[g->adj[e]] = 0;
  }
  w->tail = x;
  if (x == UINT32_MAX) return;
  for (uint64_t e = g->offsets[x]; e < g->offsets[x + 1]; e++) w->mark[g->adj[e]] |= IN_X, w->arc_x[g->adj[e]] = e;
  tally(g, x, w->cx, w->touched_x, &w->ntx);
}

/* The edge of arc e (x -> y, y > x): its sums and its row. */
static int edge_row(walk *w, const wm_orbit_run *run, uint32_t x, uint64_t e, uint64_t *counts, wm_error *err) {
  const shared *sh = w->sh;
  set_tail(w, x);
  edge_sums(w, x, e);
  return solve(sh, run, x, sh->g->adj[e], w->E, counts + (size_t)(sh->row_of[x] + e) * WM_EDGE_ORBIT_MAX, err);
}

static uint64_t *adjacency_bits(const wm_graph *g) {
  if ((uint64_t)g->n * g->n / 8 > ADJACENCY_BYTES) return NULL;
  uint64_t *bits = calloc(((uint64_t)g->n * g->n + 63) / 64 + 1, sizeof *bits);
  if (!bits) return NULL;
  for (uint32_t v = 0; v < g->n; v++)
    for (uint64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++) {
      const uint64_t bit = (uint64_t)v * g->n + g->adj[e];
      bits[bit >> 6] |= 1ull << (bit & 63u);
    }
  return bits;
}

static uint64_t *rows_of(const wm_graph *g) {
  uint64_t *row_of = malloc((g->n ? g->n : 1) * sizeof *row_of), rows = 0;
  if (!row_of) return NULL;
  for (uint32_t v = 0; v < g->n; v++) {
    const uint64_t lo = g->offsets[v], hi = g->offsets[v + 1];
    const uint64_t above = lo + wm_sorted_lower_bound(g->adj + lo, hi - lo, v + 1);
    row_of[v] = rows - above; /* wraps as uint64, exactly undone by adding the arc */
    rows += hi - above;
  }
  return row_of;
}

int wm_orbits_edge_formula5(const wm_graph *g, const wm_orbit_run *run, const uint32_t *tri, uint64_t *counts,
                            wm_error *err) {
  const wm_orbit_tables *t = wm_orbit_tables_get(err);
  if (!t) return err->code;
  e5_equations *q = malloc(sizeof *q);
  if (!q) return wm_fail(err, WM_EINPUT, "orbits: out of memory for the 5-vertex edge equations");
  int rc = derive(t, q, err);
  shared sh = {g, q, tri, NULL, NULL, NULL};
  if (!rc) {
    sh.adjacency = adjacency_bits(g);
    sh.row_of = rows_of(g);
    sh.tail_of = malloc((g->m ? g->m : 1) * sizeof *sh.tail_of);
    for (uint32_t v = 0; sh.tail_of && v < g->n; v++)
      for (uint64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++) sh.tail_of[e] = v;
    if (!sh.row_of || !sh.tail_of) rc = wm_fail(err, WM_EINPUT, "orbits: out of memory for the 5-vertex edge formula");
  }
  int failed = 0;
  wm_orbit_first_error first = {.vertex = -1};
  if (!rc) {
#pragma omp parallel
    {
      walk w;
      wm_error mine;
      wm_error_clear(&mine);
      int bad = !walk_init(&w, &sh);
      if (bad) wm_fail(&mine, WM_EINPUT, "orbits: out of memory for the 5-vertex edge formula's marks");
      if (bad) wm_orbit_keep_first(&first, 0, &mine), __atomic_store_n(&failed, 1, __ATOMIC_RELAXED);
#pragma omp for schedule(dynamic, 4)
      for (int64_t e = 0; e < (int64_t)g->m; e++) { /* the arcs x -> y with y > x: every edge once */
        const uint32_t x = sh.tail_of[e];
        if (bad || g->adj[e] < x || __atomic_load_n(&failed, __ATOMIC_RELAXED)) continue;
        if (edge_row(&w, run, x, (uint64_t)e, counts, &mine)) {
          bad = 1;
          wm_orbit_keep_first(&first, x, &mine);
          __atomic_store_n(&failed, 1, __ATOMIC_RELAXED);
        }
      }
      if (!bad) set_tail(&w, UINT32_MAX);
      walk_free(&w);
    }
  }
  if (!rc && failed) *err = first.err, rc = first.err.code;
  free(sh.row_of);
  free(sh.tail_of);
  free((void *)sh.adjacency);
  free(q);
  return rc;
}
