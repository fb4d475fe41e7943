/* The equations of the 5-vertex orbit formula, derived from the drawings
 * (ORCA's idea, Hocevar & Demsar 2014; the equations and their derivation
 * here are this project's).
 *
 * For S with x and a nonempty U of S, A_U(S) is the number of vertices z
 * outside S adjacent to every vertex of U.  Each such (S, U, z) is a
 * connected 5-set F = S + z holding x, so for a class r of (S, x, U) up to
 * isomorphism,
 *     E_r(x) = sum over S of that class of A_U(S) = sum_o M[r][o] I_o(x),
 * I_o(x) the induced count of orbit o at x and M[r][o] the number of ways
 * (z, U) one graphlet with x in orbit o is so made (counted on its drawing).
 * A class's sparsest graphlet is S with z joined to exactly U, every other
 * has more edges, so choosing for each orbit o one class whose sparsest
 * graphlet is o's (a vertex z of o's graphlet, not x, whose removal leaves
 * it connected, and U = its neighbours) makes M triangular by edge count:
 * I_o follows densest first.  Among the choices, the cheapest U is taken:
 * one vertex (its degree), an edge (its triangles), a pair with x or with
 * x's only neighbour in S (two-hop tallies), else a scan of the shortest
 * list that holds U; only K5 needs U of four.
 *
 * No class whose S is a 3-star is chosen, so that the walk need not make
 * those sets (a vertex of degree d is the centre of C(d, 3) of them, the
 * walk's cost on a heavy-tailed graph): every graphlet but the 4-star has
 * a vertex z whose removal leaves a connected S that is not one.  The
 * 4-star's two orbits take the non-induced 4-stars instead, from the
 * degrees (wm_o5_solve): M's row counts each graphlet's vertices of
 * degree 4 (x itself for the centre, another for a leaf), and the 4-star
 * has the fewest edges of those, so the system stays triangular. */
#include <string.h>

#include "orbit_equations5.h"

/* The class of (S, x at 0, U): the least (mask, U) over the relabellings
 * that keep x at 0. */
static uint32_t class_key(unsigned mask, unsigned u) {
  static const unsigned perms[6][4] = {{0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 1, 3},
                                       {0, 2, 3, 1}, {0, 3, 1, 2}, {0, 3, 2, 1}};
  return wm_o5_least_key(mask, u, perms, 6);
}

/* The positions of S adjacent to position v. */
unsigned wm_o5_neighbours_in(unsigned mask, unsigned v) {
  unsigned out = 0;
  for (unsigned i = 0; i < 4; i++)
    if (i != v && (mask >> (i < v ? wm_o5_pair_bit(i, v) : wm_o5_pair_bit(v, i)) & 1u)) out |= 1u << i;
  return out;
}

int wm_o5_is_star(unsigned mask) {
  if (__builtin_popcount(mask) != 3) return 0;
  for (unsigned v = 0; v < 4; v++)
    if (__builtin_popcount(wm_o5_neighbours_in(mask, v)) == 3) return 1;
  return 0;
}

/* Position v's degree in a 5-vertex graphlet's mask. */
static unsigned degree5(unsigned fmask, unsigned v) {
  unsigned d = 0;
  for (unsigned i = 0; i < 5; i++)
    if (i != v) d += fmask >> (i < v ? wm_o5_pair_bit(i, v) : wm_o5_pair_bit(v, i)) & 1u;
  return d;
}

/* What computing A_U costs per set (lower is cheaper; outside_common says
 * how each is counted), the denser S (rarer) preferred among equals.  The
 * counts at hand: a degree, an edge's triangles, the common neighbours of x
 * and any vertex, and of x's first neighbour in S (position 1, which is x's
 * only neighbour there when it has one) and any vertex; else a scan. */
static unsigned cost(unsigned mask, unsigned u) {
  const unsigned size = (unsigned)__builtin_popcount(u), nx = wm_o5_neighbours_in(mask, 0);
  const unsigned lone = __builtin_popcount(nx) == 1 ? nx : 0, at_hand = 1u | lone;
  unsigned c = 6;
  if (size == 1)
    c = 0;
  else if (size == 2 && ((u & at_hand) ||
                         (mask >> wm_o5_pair_bit((unsigned)__builtin_ctz(u), 31u - (unsigned)__builtin_clz(u)) & 1u)))
    c = 1;
  else if (size >= 3 && lone && (u & 1u) && (u & lone))
    c = 3; /* a scan of x's and its neighbour's common list */
  else if (size >= 3 && (u & 1u))
    c = 4;
  return c * 8 + 6 - (unsigned)__builtin_popcount(mask);
}

/* F (graphlet mask, 5 positions) less position z, x at position p first:
 * the 4-position mask, and z's neighbours as positions of it. */
static void remove_vertex(unsigned fmask, unsigned p, unsigned z, unsigned *mask, unsigned *nz) {
  unsigned pos[4] = {p}, n = 1;
  for (unsigned v = 0; v < 5; v++)
    if (v != p && v != z) pos[n++] = v;
  *mask = *nz = 0;
  for (unsigned j = 0; j < 4; j++) {
    for (unsigned i = 0; i < j; i++) {
      const unsigned a = pos[i] < pos[j] ? pos[i] : pos[j], b = pos[i] ^ pos[j] ^ a;
      if (fmask >> wm_o5_pair_bit(a, b) & 1u) *mask |= 1u << wm_o5_pair_bit(i, j);
    }
    const unsigned a = pos[j] < z ? pos[j] : z, b = pos[j] ^ z ^ a;
    if (fmask >> wm_o5_pair_bit(a, b) & 1u) *nz |= 1u << j;
  }
}

static unsigned orbit_position(const wm_orbit_tables *t, unsigned o) {
  const unsigned gid = t->graphlet_of_orbit[o];
  unsigned p = 0;
  while (t->orbit[5][t->graphlet_mask[gid]][p] != o) p++;
  return p;
}

static unsigned edges_of_orbit(const wm_orbit_tables *t, unsigned o) {
  return t->graphlet_edges[t->graphlet_of_orbit[o]];
}

/* Each orbit's cheapest equation whose S is not a 3-star; the 4-star's
 * (which has none) closed. */
static void choose_keys(const wm_orbit_tables *t, wm_o5_equations *q) {
  for (unsigned o = FIRST5; o < WM_ORBIT_MAX; o++) {
    const unsigned fmask = t->graphlet_mask[t->graphlet_of_orbit[o]], p = orbit_position(t, o);
    unsigned best = UINT32_MAX;
    q->key[o - FIRST5] = WM_O5_CLOSED;
    for (unsigned z = 0; z < 5; z++) {
      unsigned mask, nz;
      if (z == p) continue;
      remove_vertex(fmask, p, z, &mask, &nz);
      if (!wm_o5_connected4(mask) || wm_o5_is_star(mask) || cost(mask, nz) >= best) continue;
      best = cost(mask, nz);
      q->key[o - FIRST5] = class_key(mask, nz);
    }
    unsigned hubs = 0; /* vertices of degree 4: with 4 edges, the 4-star's centre */
    for (unsigned v = 0; v < 5; v++) hubs += degree5(fmask, v) == 4;
    if (q->key[o - FIRST5] == WM_O5_CLOSED && hubs && __builtin_popcount(fmask) == 4)
      q->closed[o - FIRST5] = degree5(fmask, p) == 4 ? WM_O5_CENTRE : WM_O5_LEAF;
  }
}

/* A closed row's coefficient of orbit o (its graphlet fmask, x at p): the
 * 4-stars on its five vertices with x as the centre or a leaf. */
static uint16_t closed_coefficient(unsigned kind, unsigned fmask, unsigned p) {
  uint16_t c = 0;
  for (unsigned v = 0; v < 5; v++)
    if (degree5(fmask, v) == 4 && (v == p) == (kind == WM_O5_CENTRE)) c++;
  return c;
}

/* M from the drawings: every (z, U) of every orbit's graphlet. */
static void count_coefficients(const wm_orbit_tables *t, wm_o5_equations *q) {
  for (unsigned o = FIRST5; o < WM_ORBIT_MAX; o++) {
    const unsigned fmask = t->graphlet_mask[t->graphlet_of_orbit[o]], p = orbit_position(t, o);
    for (unsigned r = 0; r < ORBITS5; r++)
      if (q->closed[r]) q->coef[r][o - FIRST5] = closed_coefficient(q->closed[r], fmask, p);
    for (unsigned z = 0; z < 5; z++) {
      unsigned mask, nz;
      if (z == p) continue;
      remove_vertex(fmask, p, z, &mask, &nz);
      if (!wm_o5_connected4(mask)) continue;
      for (unsigned u = nz; u; u = (u - 1) & nz) {
        const uint32_t k = class_key(mask, u);
        for (unsigned r = 0; r < ORBITS5; r++)
          if (q->key[r] == k) q->coef[r][o - FIRST5]++;
      }
    }
  }
}

/* Which (U, row) each labelled S adds to: those whose U holds position 3
 * first. */
static void list_uses(wm_o5_equations *q) {
  for (unsigned mask = 0; mask < MASKS4; mask++) {
    if (!wm_o5_connected4(mask)) continue;
    for (unsigned group = 0; group < 3; group++)
      for (unsigned u = 1; u < 16; u++) {
        const unsigned with3 = u >> 3 & 1u, others = (unsigned)__builtin_popcount(u & 7u);
        const unsigned per_v3 = others <= 1 || (u & 7u) == 3u; /* {x, v1}'s tally serves all under v1 */
        if (group != (with3 ? (per_v3 ? 0u : 1u) : 2u)) continue;
        const uint32_t k = class_key(mask, u);
        uint8_t inside = 0;
        for (unsigned v = 0; v < 4; v++)
          inside += !(u >> v & 1u) && (wm_o5_neighbours_in(mask, v) & u) == u;
        for (unsigned r = 0; r < ORBITS5; r++)
          if (q->key[r] == k)
            q->uses[mask][q->nuse[mask]++] =
                (wm_o5_use){(uint8_t)u, (uint8_t)r, inside, (uint8_t)__builtin_popcount(u)};
        if (group == 0)
          q->nper3[mask] = q->nuse[mask];
        if (group <= 1)
          q->nuse3[mask] = q->nuse[mask];
      }
  }
}

/* The solve needs, for each row, its own orbit on the diagonal and every
 * other orbit it holds solved before it (more edges). */
int wm_o5_derive(const wm_orbit_tables *t, wm_o5_equations *q, wm_error *err) {
  memset(q, 0, sizeof *q);
  choose_keys(t, q);
  count_coefficients(t, q);
  list_uses(q);
  unsigned n = 0;
  for (int e = 10; e >= 4; e--)
    for (unsigned o = FIRST5; o < WM_ORBIT_MAX; o++)
      if (edges_of_orbit(t, o) == (unsigned)e) q->order[n++] = (uint8_t)(o - FIRST5);
  for (unsigned mask = 0; mask < MASKS4; mask++)
    if (wm_o5_is_star(mask) && q->nuse[mask]) /* the walk skips these sets */
      return wm_fail(err, WM_EINPUT, "orbits: a 5-vertex equation reads a 3-star set (a bug)");
  for (unsigned r = 0; r < ORBITS5; r++) {
    int ok = q->coef[r][r] > 0 && (q->key[r] != WM_O5_CLOSED || q->closed[r]);
    for (unsigned o = 0; o < ORBITS5; o++)
      if (o != r && q->coef[r][o] && edges_of_orbit(t, o + FIRST5) <= edges_of_orbit(t, r + FIRST5)) ok = 0;
    if (!ok) return wm_fail(err, WM_EINPUT, "orbits: the 5-vertex equation of orbit %u is not triangular (a bug)",
                            r + FIRST5);
  }
  return WM_OK;
}

/* x's non-induced 4-stars: as the centre, C(d(x), 4); as a leaf, C(d(c) - 1,
 * 3) over its neighbours c. */
static wm_i128 closed_sum(const wm_graph *g, unsigned kind, uint32_t x, int *of) {
  if (kind == WM_O5_CENTRE) return wm_choose((wm_i128)(g->offsets[x + 1] - g->offsets[x]), 4);
  wm_i128 s = 0;
  for (uint64_t e = g->offsets[x]; e < g->offsets[x + 1]; e++) {
    const uint32_t c = g->adj[e];
    s = wm_add_chk(s, wm_choose((wm_i128)(g->offsets[c + 1] - g->offsets[c]) - 1, 3), of);
  }
  return s;
}

/* I = M^-1 E, densest first, each division exact (else a bug); a row of
 * `closed` (may be NULL) adds x's non-induced 4-stars first.  Shared with
 * the non-induced counts' solve (orbit_noninduced5.c), whose M is unit
 * triangular. */
int wm_o5_solve_rows(const wm_graph *g, const uint16_t (*coef)[ORBITS5], const uint8_t *order, const uint8_t *closed,
                     uint32_t x, const wm_i128 *e, wm_i128 *I, wm_error *err) {
  int of = 0;
  for (unsigned i = 0; i < ORBITS5; i++) {
    const unsigned r = order[i];
    wm_i128 v = closed && closed[r] ? wm_add_chk(e[r], closed_sum(g, closed[r], x, &of), &of) : e[r];
    for (unsigned o = 0; o < ORBITS5; o++)
      if (o != r && coef[r][o]) v = wm_sub_chk(v, wm_mul_chk((wm_i128)coef[r][o], I[o], &of), &of);
    if (of) return wm_orbit_overflow(g, x, r + FIRST5, 128, err);
    if (coef[r][r] == 1) { /* the non-induced M's every row: no 128-bit division */
      I[r] = v;
      continue;
    }
    if (v % coef[r][r])
      return wm_fail(err, WM_EINPUT, "orbits: vertex %u: orbit %u's equation does not divide (a bug: please report it)",
                     wm_graph_file_id(g, x), r + FIRST5);
    I[r] = v / coef[r][r];
  }
  return WM_OK;
}

int wm_o5_solve(const wm_graph *g, const wm_o5_equations *q, uint32_t x, const wm_i128 *e, wm_i128 *I, wm_error *err) {
  return wm_o5_solve_rows(g, q->coef, q->order, q->closed, x, e, I, err);
}
