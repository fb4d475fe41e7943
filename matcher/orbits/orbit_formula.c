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
 * graphlet first, in checked 128-bit arithmetic.
 *
 * The heavy aggregates (triangles per arc, 4-cliques, the two-hop sums of
 * orbits 8 and 12) come from this file's passes, or, for run->gpu, from
 * the GPU (wm_orbit_aggregates_gpu); the rest is the same code either way. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "orbits.h"

#define ORBITS4 15

int wm_orbit_has_formula(unsigned k) { return k >= 2 && k <= 5; }

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

static wm_i128 choose(uint64_t x, unsigned r) { return wm_choose((wm_i128)x, r); }

/* What every vertex's row reads of the others. */
typedef struct shared {
  const wm_graph *g;
  uint32_t *tri;    /* per arc: the triangles on its edge */
  uint64_t *tv;     /* per vertex: its triangles */
  wm_i128 *paths2;  /* per vertex u: sum over w in N(u) of d(w) - 1 */
  uint64_t *k4;     /* per vertex: its 4-cliques */
  uint64_t *out_offsets; /* the edges oriented from lower to higher (degree, index) */
  uint32_t *out_adj;
  int k4_overflow;
  const wm_orbit_aggregates *given; /* the GPU's tri, k4, n8 and n12, or NULL: counted here */
} shared;

typedef struct scratch {
  uint8_t *mark;    /* 1: in N(v) (the 4-clique pass: in N+(a), 2: in N+(b) too) */
  uint32_t *cnt;    /* common neighbours of v and w */
  uint32_t *touched;
  uint64_t *tally;  /* the 4-clique pass's credits */
} scratch;

static uint64_t deg(const wm_graph *g, uint32_t v) { return g->offsets[v + 1] - g->offsets[v]; }

static void mark_row(const wm_graph *g, uint8_t *mark, uint32_t v, uint8_t value) {
  for (uint64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++) mark[g->adj[e]] = value;
}

/* Triangles per arc (unless given), per vertex, and the 2-paths out of
 * each vertex. */
static void edge_pass(const shared *s, uint8_t *mark, uint32_t v, int *overflow) {
  const wm_graph *g = s->g;
  if (!s->given) wm_orbit_arc_triangles(g, v, mark, s->tri);
  uint64_t tv = 0;
  wm_i128 p2 = 0;
  for (uint64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++) {
    tv += s->tri[e];
    p2 = wm_add_chk(p2, (wm_i128)deg(g, g->adj[e]) - 1, overflow);
  }
  s->tv[v] = tv / 2;
  s->paths2[v] = p2;
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

/* The walks v-u-w: common neighbours (4-cycles), and the triangles v,u,w
 * with their far edge's triangles (diamonds). */
static void two_hop(const shared *s, scratch *x, uint32_t v, wm_i128 *N, int *of) {
  const wm_graph *g = s->g;
  uint32_t touched = 0;
  for (uint64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++) {
    const uint32_t u = g->adj[e];
    for (uint64_t f = g->offsets[u]; f < g->offsets[u + 1]; f++) {
      const uint32_t w = g->adj[f];
      if (w == v) continue;
      if (!x->cnt[w]++) x->touched[touched++] = w;
      if (x->mark[w] && w > u) N[12] = wm_add_chk(N[12], (wm_i128)s->tri[f] - 1, of);
    }
  }
  for (uint32_t i = 0; i < touched; i++) {
    N[8] = wm_add_chk(N[8], choose(x->cnt[x->touched[i]], 2), of);
    x->cnt[x->touched[i]] = 0;
  }
  N[14] = (wm_i128)s->k4[v];
}

/* I = c^-1 N, then each count past its start into the row. */
static int solve(const wm_graph *g, const relations *r, uint32_t v, const wm_i128 *N, const wm_orbit_run *run,
                 uint64_t *row, wm_error *err) {
  wm_i128 I[ORBITS4] = {0};
  int of = 0;
  const unsigned orbits = wm_orbit_count(run->k);
  for (unsigned i = 0; i < ORBITS4 - 1; i++) {
    const unsigned a = r->order[i];
    if (a >= orbits) continue; /* a larger graphlet than asked for */
    wm_i128 x = N[a];
    for (unsigned b = 1; b < ORBITS4; b++)
      if (b != a && r->c[a][b]) x = wm_sub_chk(x, wm_mul_chk(r->c[a][b], I[b], &of), &of);
    if (of) return wm_orbit_overflow(g, v, a, err);
    I[a] = x;
  }
  I[0] = (wm_i128)deg(g, v);
  for (unsigned o = 0; o < orbits; o++)
    if (wm_orbit_store(g, v, o, I[o], run->start, &row[o], err)) return err->code;
  return WM_OK;
}

static int vertex_row(const shared *s, const relations *r, scratch *x, uint32_t v, const wm_orbit_run *run,
                      uint64_t *row, wm_error *err) {
  wm_i128 N[ORBITS4] = {0};
  int of = 0;
  neighbour_sums(s, v, N, &of);
  if (run->k >= 4 && s->given) {
    N[8] = s->given->n8[v];
    N[12] = s->given->n12[v];
    N[14] = (wm_i128)s->given->k4[v];
  } else if (run->k >= 4) {
    mark_row(s->g, x->mark, v, 1);
    two_hop(s, x, v, N, &of);
    mark_row(s->g, x->mark, v, 0);
  }
  if (of)
    return wm_fail(err, WM_EINPUT, "orbits: vertex %u: a sum of the orbit formula passes 2^127",
                   wm_graph_file_id(s->g, v));
  return solve(s->g, r, v, N, run, row, err);
}

/* u before w in the orientation: by degree, then index, so that every
 * out-degree is at most sqrt(2m) (the usual bound). */
static int before(const wm_graph *g, uint32_t u, uint32_t w) {
  const uint64_t du = deg(g, u), dw = deg(g, w);
  return du < dw || (du == dw && u < w);
}

static void orient(shared *s) {
  const wm_graph *g = s->g;
  s->out_offsets[0] = 0;
  for (uint32_t v = 0; v < g->n; v++) {
    uint64_t d = 0;
    for (uint64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++) d += before(g, v, g->adj[e]);
    s->out_offsets[v + 1] = s->out_offsets[v] + d;
  }
#pragma omp parallel for schedule(dynamic, 256)
  for (int64_t v = 0; v < (int64_t)g->n; v++) {
    uint64_t o = s->out_offsets[v];
    for (uint64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++)
      if (before(g, (uint32_t)v, g->adj[e])) s->out_adj[o++] = g->adj[e];
  }
}

static void add_k4(shared *s, uint32_t v, uint64_t x) {
  if (__atomic_fetch_add(&s->k4[v], x, __ATOMIC_RELAXED) > UINT64_MAX - x)
    __atomic_store_n(&s->k4_overflow, 1, __ATOMIC_RELAXED);
}

/* Every 4-clique once, as a < b < c < d in the orientation, credited to its
 * four vertices: N+(a) marked 1, N+(a) and N+(b) both 2.  b, c and d all lie
 * in N+(a), so their credits gather in the thread's tally first and reach
 * the shared counts in one add per vertex of N+(a). */
static void cliques_from(shared *s, uint8_t *mark, uint32_t *common, uint64_t *tally, uint32_t a) {
  const uint64_t *oo = s->out_offsets;
  const uint32_t *oa = s->out_adj;
  for (uint64_t e = oo[a]; e < oo[a + 1]; e++) mark[oa[e]] = 1;
  uint64_t at_a = 0;
  for (uint64_t e = oo[a]; e < oo[a + 1]; e++) {
    const uint32_t b = oa[e];
    uint32_t nc = 0;
    for (uint64_t f = oo[b]; f < oo[b + 1]; f++)
      if (mark[oa[f]]) mark[oa[f]] = 2, common[nc++] = oa[f];
    for (uint32_t i = 0; i < nc; i++) {
      const uint32_t c = common[i];
      uint64_t at_c = 0;
      for (uint64_t f = oo[c]; f < oo[c + 1]; f++)
        if (mark[oa[f]] == 2) at_c++, tally[oa[f]]++;
      tally[c] += at_c;
      tally[b] += at_c;
      at_a += at_c;
    }
    for (uint32_t i = 0; i < nc; i++) mark[common[i]] = 1;
  }
  if (at_a) add_k4(s, a, at_a);
  for (uint64_t e = oo[a]; e < oo[a + 1]; e++) {
    const uint32_t x = oa[e];
    mark[x] = 0;
    if (tally[x]) add_k4(s, x, tally[x]), tally[x] = 0;
  }
}

static int alloc_shared(const wm_graph *g, const wm_orbit_aggregates *given, shared *s) {
  memset(s, 0, sizeof *s);
  s->g = g;
  s->given = given;
  if (given) {
    s->tri = given->tri;
    s->tv = malloc((g->n ? g->n : 1) * sizeof *s->tv);
    s->paths2 = malloc((g->n ? g->n : 1) * sizeof *s->paths2);
    return s->tv && s->paths2;
  }
  s->k4 = calloc(g->n ? g->n : 1, sizeof *s->k4);
  s->out_offsets = malloc(((size_t)g->n + 1) * sizeof *s->out_offsets);
  s->out_adj = malloc((g->m / 2 + 1) * sizeof *s->out_adj);
  if (!s->k4 || !s->out_offsets || !s->out_adj) return 0;
  s->tri = malloc((g->m ? g->m : 1) * sizeof *s->tri);
  s->tv = malloc((g->n ? g->n : 1) * sizeof *s->tv);
  s->paths2 = malloc((g->n ? g->n : 1) * sizeof *s->paths2);
  return s->tri && s->tv && s->paths2;
}

static void free_shared(shared *s) {
  if (!s->given) free(s->tri);
  free(s->tv);
  free(s->paths2);
  free(s->k4);
  free(s->out_offsets);
  free(s->out_adj);
}

static int rows(shared *s, const relations *r, const wm_orbit_run *run, uint64_t *counts, wm_error *err) {
  const wm_graph *g = s->g;
  const unsigned orbits = wm_orbit_count(run->k);
  wm_orbit_first_error first = {-1, {0, ""}};
  int oom = 0, of = 0;
#pragma omp parallel
  {
    const size_t len = s->given || !g->n ? 1 : g->n; /* the GPU's aggregates need none */
    scratch x = {calloc(len, 1), calloc(len, sizeof(uint32_t)), malloc(len * sizeof(uint32_t)),
                 calloc(len, sizeof(uint64_t))};
    const int ok = x.mark && x.cnt && x.touched && x.tally;
    if (!ok) __atomic_store_n(&oom, 1, __ATOMIC_RELAXED);
#pragma omp for schedule(dynamic, 64) reduction(| : of)
    for (int64_t v = 0; v < (int64_t)g->n; v++)
      if (ok) edge_pass(s, x.mark, (uint32_t)v, &of);
#pragma omp for schedule(dynamic, 64)
    for (int64_t v = 0; v < (int64_t)g->n; v++)
      if (ok && run->k >= 4 && !s->given) cliques_from(s, x.mark, x.touched, x.tally, (uint32_t)v);
#pragma omp for schedule(dynamic, 64)
    for (int64_t v = 0; v < (int64_t)g->n; v++) {
      wm_error e;
      if (ok && !of && vertex_row(s, r, &x, (uint32_t)v, run, counts + (size_t)v * orbits, &e))
        wm_orbit_keep_first(&first, v, &e);
    }
    free(x.mark);
    free(x.cnt);
    free(x.touched);
    free(x.tally);
  }
  if (oom) return wm_fail(err, WM_EINPUT, "orbits: out of memory for the formula's scratch arrays");
  if (of) return wm_fail(err, WM_EINPUT, "orbits: a vertex's 2-paths pass 2^127");
  if (s->k4_overflow) return wm_fail(err, WM_EINPUT, "orbits: a vertex's 4-cliques pass 2^64 - 1");
  if (first.vertex >= 0) *err = first.err;
  return first.vertex >= 0 ? err->code : WM_OK;
}

static int formula(const wm_graph *g, const wm_orbit_run *run, const wm_orbit_aggregates *given, uint64_t *counts,
                   wm_error *err) {
  const wm_orbit_tables *t = wm_orbit_tables_get(err);
  if (!t) return err->code;
  relations r;
  derive(t, &r);
  shared s;
  int rc = alloc_shared(g, given, &s) ? WM_OK
                                      : wm_fail(err, WM_EINPUT, "orbits: out of memory for the per-edge triangles");
  if (!rc && run->k >= 4 && !given) orient(&s);
  if (!rc) rc = rows(&s, &r, run, counts, err);
  free_shared(&s);
  return rc;
}

/* The GPU's aggregates into host arrays, then the same rows. */
static int formula_gpu(const wm_graph *g, const wm_orbit_run *run, uint64_t *counts, wm_error *err) {
  const size_t n = g->n ? g->n : 1, big = run->k >= 4 ? n : 1;
  wm_orbit_aggregates a = {malloc((g->m ? g->m : 1) * sizeof(uint32_t)), calloc(big, sizeof(uint64_t)),
                           calloc(big, sizeof(wm_i128)), calloc(big, sizeof(wm_i128))};
  int rc = a.tri && a.k4 && a.n8 && a.n12
               ? WM_OK
               : wm_fail(err, WM_EINPUT, "orbits: out of memory for the GPU's aggregates (%u vertices)", g->n);
  if (!rc) rc = wm_orbit_aggregates_gpu(g, run->k, run->gpu_graph, &a, run->kernel_ms, err);
  if (!rc) rc = formula(g, run, &a, counts, err);
  free(a.tri);
  free(a.k4);
  free(a.n8);
  free(a.n12);
  return rc;
}

int wm_orbits_formula(const wm_graph *g, const wm_orbit_run *run, uint64_t *counts, wm_error *err) {
  if (!wm_orbit_has_formula(run->k))
    return wm_fail(err, WM_EUSAGE, "orbits: no formula for graphlets of %u vertices (sizes 2 to 5)", run->k);
  if (run->k == 5) return wm_orbits_formula5(g, run, counts, err);
  return run->gpu ? formula_gpu(g, run, counts, err) : formula(g, run, NULL, counts, err);
}
