/* Global curveball (randomize.h): each round pairs the vertices by a random
 * permutation and every pair (u, v) trades: the neighbours that only u has
 * and those that only v has (each other excluded: an edge u-v stays, and
 * neither may receive itself) are pooled and dealt at random, as many back
 * to u as it gave, the rest to v.  Shared neighbours stay.  Directed, the
 * rows are out-arcs: a target w dealt from u to v keeps its in-degree,
 * since u->w becomes v->w.  Undirected, w's own row then swaps u for v.
 * (Strona et al., Nature Communications 2014; Carstens, Berger and Strona,
 * "Curveball: a new generation of sampling algorithms for graphs with
 * fixed degree sequence", 2016, with the global trades of Carstens et al.,
 * ESA 2018.)  Every row keeps its length, so the rows live in g's offsets
 * throughout. */
#include <stdlib.h>
#include <string.h>

#include "gen_random.h"
#include "randomize.h"

typedef struct trade_state {
  wm_graph *r;        /* the rows being traded */
  int directed;
  uint64_t *in_u, *in_v; /* stamps: in_u[w] == stamp when w is in u's row */
  uint64_t stamp;
  uint32_t *pool;     /* the traded neighbours */
  uint64_t key, ctr;
} trade_state;

/* In w's row, old becomes new (undirected: the row held old). */
static void replace(wm_graph *r, uint32_t w, uint32_t old, uint32_t new_) {
  for (uint64_t i = r->offsets[w]; i < r->offsets[w + 1]; i++)
    if (r->adj[i] == old) {
      r->adj[i] = new_;
      return;
    }
}

/* Whether w is in row x only (not the other's, not the other itself). */
static int own(const uint64_t *other_row, uint64_t stamp, uint32_t w, uint32_t other) {
  return w != other && other_row[w] != stamp;
}

/* Deals the pool back: u's own slots get the first `nu`, v's the rest;
 * undirected, a neighbour that changed hands has its own row fixed.
 * Returns 1 when some neighbour changed hands. */
static int deal(trade_state *s, uint32_t u, uint32_t v, uint64_t nu, uint64_t len) {
  for (uint64_t k = 0; k < nu && k + 1 < len; k++) { /* the first nu of a uniform shuffle */
    const uint64_t j = k + wm_gen_below64(s->key, &s->ctr, len - k);
    const uint32_t t = s->pool[k];
    s->pool[k] = s->pool[j];
    s->pool[j] = t;
  }
  wm_graph *r = s->r;
  uint64_t next = 0;
  int moved = 0;
  const uint32_t owner[2] = {u, v}, other[2] = {v, u};
  const uint64_t *other_row[2] = {s->in_v, s->in_u};
  for (int side = 0; side < 2; side++) {
    const uint32_t x = owner[side], y = other[side];
    for (uint64_t i = r->offsets[x]; i < r->offsets[x + 1]; i++) {
      const uint32_t w = r->adj[i];
      if (!own(other_row[side], s->stamp, w, y)) continue;
      const uint32_t got = s->pool[next++];
      r->adj[i] = got;
      /* got came from y's row when it was not in x's (the pool holds both sides' own) */
      const int from_other = (side == 0 ? s->in_u : s->in_v)[got] != s->stamp;
      if (from_other) {
        moved = 1;
        if (!s->directed) replace(r, got, y, x);
      }
    }
  }
  return moved;
}

/* One trade of u and v; 1 when some neighbour changed hands. */
static int trade(trade_state *s, uint32_t u, uint32_t v) {
  wm_graph *r = s->r;
  s->stamp++;
  for (uint64_t i = r->offsets[u]; i < r->offsets[u + 1]; i++) s->in_u[r->adj[i]] = s->stamp;
  for (uint64_t i = r->offsets[v]; i < r->offsets[v + 1]; i++) s->in_v[r->adj[i]] = s->stamp;
  uint64_t nu = 0, len = 0;
  for (uint64_t i = r->offsets[u]; i < r->offsets[u + 1]; i++)
    if (own(s->in_v, s->stamp, r->adj[i], v)) s->pool[len++] = r->adj[i];
  nu = len;
  for (uint64_t i = r->offsets[v]; i < r->offsets[v + 1]; i++)
    if (own(s->in_u, s->stamp, r->adj[i], u)) s->pool[len++] = r->adj[i];
  if (nu == 0 || nu == len) return 0; /* one side has nothing of its own: nothing to trade */
  return deal(s, u, v, nu, len);
}

static void shuffle(uint32_t *p, uint32_t n, uint64_t key, uint64_t *ctr) {
  for (uint32_t i = n; i > 1; i--) {
    const uint32_t j = wm_gen_below32(key, ctr, i);
    const uint32_t t = p[i - 1];
    p[i - 1] = p[j];
    p[j] = t;
  }
}

int wm_rand_curveball(const wm_graph *g, uint64_t key, unsigned rounds, const wm_progress *stop, wm_graph *out,
                      wm_randomize_stats *st, wm_error *err) {
  memcpy(out->adj, g->adj, g->m * sizeof *out->adj);
  const uint64_t dmax = wm_graph_max_degree(g);
  trade_state s = {out, (g->flags & WM_GRAPH_DIRECTED) != 0, calloc((size_t)g->n + 1, sizeof *s.in_u),
                   calloc((size_t)g->n + 1, sizeof *s.in_v), 0, malloc((2 * dmax + 1) * sizeof *s.pool), key, 0};
  uint32_t *order = malloc(((size_t)g->n + 1) * sizeof *order);
  int rc = WM_OK;
  if (!s.in_u || !s.in_v || !s.pool || !order) {
    rc = wm_fail(err, WM_EINPUT, "randomize: out of memory for curveball over %u vertices", g->n);
  } else {
    for (uint32_t v = 0; v < g->n; v++) order[v] = v;
    for (unsigned round = 0; round < rounds; round++) {
      if (stop && wm_progress_stopped(stop)) { /* a round is n/2 trades: polled once each */
        rc = wm_interrupted(err, "randomize");
        break;
      }
      shuffle(order, g->n, key, &s.ctr);
      for (uint32_t i = 0; i + 1 < g->n; i += 2) st->accepted += (uint64_t)trade(&s, order[i], order[i + 1]);
      st->attempted += g->n / 2;
    }
  }
  free(order);
  free(s.pool);
  free(s.in_u);
  free(s.in_v);
  return rc;
}
