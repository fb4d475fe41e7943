/* The clique sums of the 5-vertex orbits (orbit_cliques5.h says what and
 * why).  On g relabelled by descending degree, each triangle w < u < v is
 * met once, from its top edge v-u, together with C = N(u) & N(v) and the
 * edges inside C (each one a 4-clique on the edge): w's inner degree in C
 * is w_T, and an inner edge w-x with w < u puts x in L_T.  The credits go
 * to the three vertices and edges of T and to the members of L_T, by
 * atomic adds (every thread may credit any vertex). */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "matcher.h" /* wm_share */
#include "orbit_cliques5.h"
#include "orbit_share5.h"

typedef struct sums {
  uint64_t *s61, *s66, *s70, *s71, *k5, *k4e; /* by the relabelled ids and arcs */
  int overflow;
} sums;

/* One thread's marks (stamps, never cleared) and lists. */
typedef struct scratch {
  uint64_t *in_c, *of_w, stamp;
  uint32_t *deg_c; /* inner degree in C, zeroed after each edge */
  uint64_t *tsum;  /* t_uy + t_vy of each y of C */
  uint32_t *common, *ia, *ib;
  uint64_t *own;   /* per vertex, 3 words: this edge's credits to 66, 70 and 5-cliques (zero between edges) */
  int overflow;
} scratch;

static uint64_t deg(const wm_graph *g, uint32_t v) { return g->offsets[v + 1] - g->offsets[v]; }

static void credit(sums *s, uint64_t *at, uint64_t x) {
  if (x && __atomic_fetch_add(at, x, __ATOMIC_RELAXED) > UINT64_MAX - x)
    __atomic_store_n(&s->overflow, 1, __ATOMIC_RELAXED);
}

/* A credit to a member of C, added up over the edge's 4-cliques and
 * 5-cliques first: one atomic add per member and edge, not per clique. */
enum { OWN66, OWN70, OWNK5, OWN };
static void own(scratch *x, uint32_t v, unsigned which, uint64_t c) {
  if (__builtin_add_overflow(x->own[(size_t)v * OWN + which], c, &x->own[(size_t)v * OWN + which])) x->overflow = 1;
}

static void flush(sums *s, scratch *x, uint64_t nc) {
  for (uint64_t z = 0; z < nc; z++) {
    uint64_t *o = &x->own[(size_t)x->common[z] * OWN];
    credit(s, &s->s66[x->common[z]], o[OWN66]), credit(s, &s->s70[x->common[z]], o[OWN70]);
    credit(s, &s->k5[x->common[z]], o[OWNK5]);
    o[OWN66] = o[OWN70] = o[OWNK5] = 0;
  }
}

/* C = N(u) & N(v) marked with a new stamp, listed, each member's t_uy +
 * t_vy kept, and the inner degrees counted (each inner edge from its
 * higher id). */
static uint64_t common_of(const wm_graph *g, const uint32_t *t, uint32_t u, uint32_t v, scratch *x) {
  const int v_short = deg(g, v) <= deg(g, u);
  const uint32_t s = v_short ? v : u, l = v_short ? u : v;
  const uint32_t *rs = g->adj + g->offsets[s], *rl = g->adj + g->offsets[l];
  const uint64_t ls = deg(g, s), ll = deg(g, l), stamp = ++x->stamp;
  uint64_t nc = 0;
  for (uint64_t z = 0; z < ls; z++) {
    const uint64_t p = wm_sorted_lower_bound(rl, ll, rs[z]);
    if (p == ll || rl[p] != rs[z]) continue;
    x->in_c[rs[z]] = stamp, x->common[nc++] = rs[z];
    x->tsum[rs[z]] = (uint64_t)t[g->offsets[s] + z] + t[g->offsets[l] + p];
  }
  for (uint64_t z = 0; z < nc; z++) {
    const uint32_t y = x->common[z], *ry = g->adj + g->offsets[y];
    for (uint64_t j = 0; j < deg(g, y) && ry[j] < y; j++)
      if (x->in_c[ry[j]] == stamp) x->deg_c[y]++, x->deg_c[ry[j]]++;
  }
  return nc;
}

/* The members of L_T for each triangle T = (y, u, v) with y < u: the
 * inner edges y-z of C. */
static void clique_members(const wm_graph *g, uint32_t u, uint64_t tuv, uint64_t nc, scratch *x) {
  for (uint64_t z = 0; z < nc; z++) {
    const uint32_t y = x->common[z], *ry = g->adj + g->offsets[y];
    for (uint64_t j = 0; j < deg(g, y) && ry[j] < y; j++) {
      const uint32_t o = ry[j];
      if (x->in_c[o] != x->stamp) continue;
      if (y < u) own(x, o, OWN70, x->deg_c[y] - 1u), own(x, o, OWN66, x->tsum[y] + tuv - 6);
      if (o < u) own(x, y, OWN70, x->deg_c[o] - 1u), own(x, y, OWN66, x->tsum[o] + tuv - 6);
    }
  }
}

/* Each triangle w < u < v on v -> u: its w, its edges' 4-cliques, and the
 * sums over x's triangles (61, 71) for its three vertices. */
static void triangle_credits(const wm_graph *g, const uint32_t *t, uint32_t v, uint64_t i, uint64_t found, scratch *x,
                             sums *s) {
  const uint32_t *rv = g->adj + g->offsets[v], u = rv[i];
  const uint64_t tuv = t[g->offsets[v] + i];
  for (uint64_t q = 0; q < found; q++) {
    const uint32_t w = rv[x->ia[q]];
    const uint64_t k = x->deg_c[w], tvw = t[g->offsets[v] + x->ia[q]], tuw = t[g->offsets[u] + x->ib[q]];
    credit(s, &s->k4e[g->offsets[v] + i], k);
    credit(s, &s->k4e[g->offsets[v] + x->ia[q]], k);
    credit(s, &s->k4e[g->offsets[u] + x->ib[q]], k);
    const uint64_t pairs = k * (k - (k > 0)) / 2; /* C(k, 2) */
    credit(s, &s->s71[w], pairs), credit(s, &s->s71[u], pairs), credit(s, &s->s71[v], pairs);
    credit(s, &s->s61[w], (tuw - 1) * (tvw - 1) - k);
    credit(s, &s->s61[u], (tuw - 1) * (tuv - 1) - k);
    credit(s, &s->s61[v], (tvw - 1) * (tuv - 1) - k);
  }
}

/* The 5-cliques whose two highest ids are u < v: triangles z < y < w
 * among the w of found, each vertex credited. */
static void five_cliques_on(const wm_graph *g, uint32_t v, uint32_t u, uint64_t found, scratch *x, sums *s) {
  if (found < 3) return;
  const uint32_t *rv = g->adj + g->offsets[v];
  const uint64_t in_w = ++x->stamp;
  for (uint64_t q = 0; q < found; q++) x->in_c[rv[x->ia[q]]] = in_w;
  uint64_t all = 0;
  for (uint64_t q = 0; q < found; q++) {
    const uint32_t w = rv[x->ia[q]], *rw = g->adj + g->offsets[w];
    const uint64_t below = wm_sorted_lower_bound(rw, deg(g, w), w), of_w = ++x->stamp;
    uint64_t at_w = 0;
    for (uint64_t j = 0; j < below; j++) x->of_w[rw[j]] = of_w;
    for (uint64_t j = 0; j < below; j++) {
      const uint32_t y = rw[j], *ry = g->adj + g->offsets[y];
      if (x->in_c[y] != in_w) continue;
      uint64_t at_y = 0;
      for (uint64_t z = 0; z < deg(g, y) && ry[z] < y; z++)
        if (x->in_c[ry[z]] == in_w && x->of_w[ry[z]] == of_w) at_y++, own(x, ry[z], OWNK5, 1);
      own(x, y, OWNK5, at_y), at_w += at_y;
    }
    own(x, w, OWNK5, at_w), all += at_w;
  }
  credit(s, &s->k5[u], all), credit(s, &s->k5[v], all);
}

/* The top edge v -> u = v's i-th neighbour (u < v), where it has triangles. */
static void top_edge(const wm_graph *g, const uint32_t *t, uint32_t v, uint64_t i, scratch *x, sums *s) {
  const uint32_t u = g->adj[g->offsets[v] + i];
  if (!t[g->offsets[v] + i]) return;
  const uint64_t found = wm_graph_triangles_below(g, v, i, u, x->ia, x->ib), nc = common_of(g, t, u, v, x);
  triangle_credits(g, t, v, i, found, x, s);
  clique_members(g, u, t[g->offsets[v] + i], nc, x);
  for (uint64_t z = 0; z < nc; z++) x->deg_c[x->common[z]] = 0;
  five_cliques_on(g, v, u, found, x, s);
  flush(s, x, nc); /* five_cliques_on's w are members of C */
}

static int scratch_init(scratch *x, size_t n, uint64_t maxdeg) {
  const size_t d = maxdeg ? maxdeg : 1;
  *x = (scratch){calloc(n, sizeof *x->in_c), calloc(n, sizeof *x->of_w), 0, calloc(n, sizeof *x->deg_c),
                 malloc(n * sizeof *x->tsum), malloc(d * sizeof *x->common), malloc(d * sizeof *x->ia),
                 malloc(d * sizeof *x->ib), calloc(n * OWN, sizeof *x->own), 0};
  return x->in_c && x->of_w && x->deg_c && x->tsum && x->common && x->ia && x->ib && x->own;
}

static void scratch_free(scratch *x) {
  free(x->in_c), free(x->of_w), free(x->deg_c), free(x->tsum), free(x->common), free(x->ia), free(x->ib);
  free(x->own);
}

/* The vertex whose row holds arc f. */
static uint32_t row_of(const wm_graph *g, uint64_t f) {
  uint32_t lo = 0, hi = g->n;
  while (hi - lo > 1) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (g->offsets[mid] <= f) lo = mid;
    else hi = mid;
  }
  return lo;
}

/* Arcs per claim: a hub's top edges spread over the threads and the
 * processes, where a vertex per claim would leave its row (on Kronecker
 * graphs most of the work) to one thread. */
#define ARCS 64

/* The arcs of the claim from f that are top edges (below their row's vertex). */
static void claimed_arcs(const wm_graph *g, const uint32_t *t, uint64_t f, scratch *x, sums *s) {
  const uint64_t end = f + ARCS < g->m ? f + ARCS : g->m;
  for (uint32_t v = row_of(g, f); f < end; f++) {
    while (f >= g->offsets[v + 1]) v++;
    if (g->adj[f] < v) top_edge(g, t, v, f - g->offsets[v], x, s);
  }
}

/* 0, -1 out of memory, 1 interrupted.  The arcs in claims of ARCS; with
 * share, from loop id, which every process's threads take, and this
 * process's stop halts the loop for all of them. */
static int walk(const wm_graph *g, const uint32_t *t, const wm_share *share, unsigned id, sums *s) {
  const uint64_t maxdeg = wm_graph_max_degree(g);
  int oom = 0;
  wm_progress progress;
  wm_progress_init(&progress, "orbit clique sums", g->m, 0);
#pragma omp parallel
  {
    scratch x;
    const int ok = scratch_init(&x, g->n ? g->n : 1, maxdeg);
    if (!ok) __atomic_store_n(&oom, 1, __ATOMIC_RELAXED);
    if (share) {
      for (uint64_t f; ok && !wm_progress_stopped(&progress) && (f = share->grab(share->ctx, id, ARCS)) < g->m;) {
        claimed_arcs(g, t, f, &x, s);
        wm_progress_add(&progress, ARCS);
      }
      if (!ok || wm_progress_stopped(&progress)) wm_share_halt(share, id, 1);
    } else {
#pragma omp for schedule(dynamic, 1)
      for (int64_t c = 0; c < (int64_t)((g->m + ARCS - 1) / ARCS); c++) {
        if (!ok || wm_progress_stopped(&progress)) continue;
        claimed_arcs(g, t, (uint64_t)c * ARCS, &x, s);
        wm_progress_add(&progress, ARCS);
      }
    }
    if (x.overflow) __atomic_store_n(&s->overflow, 1, __ATOMIC_RELAXED);
    scratch_free(&x);
  }
  wm_progress_finish(&progress);
  return oom ? -1 : wm_progress_stopped(&progress) ? 1 : 0;
}

/* k4e of every arc of g from the relabelled arcs (each edge's credits are
 * on its arc from the higher id, in gs), and the vertex sums by old id. */
static void back_to_g(const wm_graph *g, const wm_graph *gs, const uint32_t *old_of, const sums *s,
                      wm_orbit_clique_sums *out) {
  uint32_t *new_of = malloc((g->n ? g->n : 1) * sizeof *new_of);
  for (uint32_t v = 0; v < g->n; v++) new_of[old_of[v]] = v;
#pragma omp parallel for schedule(dynamic, 256)
  for (int64_t x = 0; x < (int64_t)g->n; x++) {
    const uint32_t nx = new_of[x];
    out->s61[x] = s->s61[nx], out->s66[x] = s->s66[nx], out->s70[x] = s->s70[nx], out->s71[x] = s->s71[nx];
    out->k5[x] = s->k5[nx];
    for (uint64_t e = g->offsets[x]; e < g->offsets[x + 1]; e++) {
      const uint32_t ny = new_of[g->adj[e]], hi = nx > ny ? nx : ny, lo = nx > ny ? ny : nx;
      const uint64_t p = wm_sorted_lower_bound(gs->adj + gs->offsets[hi], deg(gs, hi), lo);
      out->k4e[e] = s->k4e[gs->offsets[hi] + p] / 2; /* each 4-clique on the edge from both of its triangles */
    }
  }
  free(new_of);
}

/* The processes' credits added up (before the halving of k4e, whose two
 * triangles may be another's): agreed first, then exact, any process's
 * own wrap past 2^64 - 1 as the total's. */
static int add_processes(const wm_share *share, const wm_graph *g, int rc, sums *s, wm_error *err) {
  rc = wm_o5s_agree(share, rc, "orbits", err);
  if (rc) return rc;
  const uint64_t words = 5 * (uint64_t)(g->n ? g->n : 1) + (g->m ? g->m : 1);
  if (wm_o5s_sum_exact(share, s->s61, words, NULL, &s->overflow))
    return wm_fail(err, WM_EINPUT, "orbits: MPI: adding the processes' clique sums failed");
  return WM_OK;
}

int wm_orbit_clique_sums_cpu_shared(const wm_graph *g, const wm_share *share, wm_orbit_clique_sums *out,
                                    wm_error *err) {
  const unsigned id = share ? share->loops(share->ctx, 1) : 0;
  wm_graph *gs = NULL;
  uint32_t *old_of = NULL, *t = NULL;
  uint64_t *block = NULL;
  int rc = wm_graph_relabel_by_degree_map(g, &gs, &old_of, err);
  const size_t n = g->n ? g->n : 1, m = g->m ? g->m : 1;
  if (!rc) {
    block = calloc(5 * n + m, sizeof *block);
    t = malloc(m * sizeof *t);
    if (!block || !t) rc = wm_fail(err, WM_EINPUT, "orbits: out of memory for the clique sums (%u vertices)", g->n);
  }
  sums s = {0};
  if (!rc) s = (sums){block, block + n, block + 2 * n, block + 3 * n, block + 4 * n, block + 5 * n, 0};
  if (!rc) rc = wm_orbit_triangles_cpu(gs, t, err);
  if (!rc) {
    const int got = walk(gs, t, share, id, &s);
    if (got < 0) rc = wm_fail(err, WM_EINPUT, "orbits: out of memory for the clique sums' scratch");
    else if (got > 0) rc = wm_interrupted(err, "orbits");
  } else if (share) {
    wm_share_halt(share, id, 1);
  }
  if (share) rc = add_processes(share, g, rc, &s, err);
  if (!rc && s.overflow)
    rc = wm_fail(err, WM_EINPUT, "orbits: a sum over the 4-cliques at a vertex or an edge passes 2^64 - 1");
  if (!rc) back_to_g(g, gs, old_of, &s, out);
  free(block), free(t), free(old_of);
  wm_graph_destroy(gs);
  return rc;
}

int wm_orbit_clique_sums_cpu(const wm_graph *g, wm_orbit_clique_sums *out, wm_error *err) {
  return wm_orbit_clique_sums_cpu_shared(g, NULL, out, err);
}
