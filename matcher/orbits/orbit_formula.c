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
 * The heavy aggregates (triangles per arc, 4-cliques, the sums of orbits 8
 * and 12) come from the CPU's passes (orbit_aggregates_cpu.c) or, for
 * run->gpu, from the GPU (wm_orbit_aggregates_gpu); the rest is the same
 * code either way. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "orbits.h"

#define ORBITS4 15

int wm_orbit_has_formula(unsigned k) { return k >= 2 && k <= 5; }

/* c[a][b] for the orbits 1..14, and the order to solve them in. */
typedef struct relations {
  uint8_t c[ORBITS4][ORBITS4];
  uint8_t order[ORBITS4]; /* orbits 1..14 by their graphlet's edges, most first */
  /* c's row a without its zeros and its diagonal: the b and c[a][b] of each
   * of the terms[a] terms (the solve runs once per vertex) */
  uint8_t terms[ORBITS4], term_b[ORBITS4][ORBITS4], term_c[ORBITS4][ORBITS4];
  int wide; /* solve in 128 bits only (wide_only) */
} relations;

static void derive(const wm_orbit_tables *t, relations *r) {
  memset(r, 0, sizeof *r);
  wm_orbit_copies_in(t, 1, ORBITS4, &r->c[1][1], ORBITS4);
  unsigned n = 0;
  for (int edges = 6; edges >= 1; edges--)
    for (unsigned o = 1; o < ORBITS4; o++)
      if (t->graphlet_edges[t->graphlet_of_orbit[o]] == edges) r->order[n++] = (uint8_t)o;
  for (unsigned a = 1; a < ORBITS4; a++)
    for (unsigned b = 1; b < ORBITS4; b++)
      if (b != a && r->c[a][b])
        r->term_b[a][r->terms[a]] = (uint8_t)b, r->term_c[a][r->terms[a]] = r->c[a][b], r->terms[a]++;
}

static wm_i128 choose(uint64_t x, unsigned r) { return wm_choose((wm_i128)x, r); }

/* What every vertex's row reads of the others. */
typedef struct shared {
  const wm_graph *g;
  const wm_orbit_aggregates *a; /* from the CPU's passes or the GPU's */
  uint64_t *tv;     /* per vertex: its triangles */
  uint64_t *paths2; /* per vertex u: sum over w in N(u) of d(w) - 1 */
} shared;

static uint64_t deg(const wm_graph *g, uint32_t v) { return g->offsets[v + 1] - g->offsets[v]; }

/* Triangles per vertex, and the 2-paths out of each vertex.  A degree and
 * an edge's triangles are below 2^32 (n is 32-bit), so each sum here, of at
 * most 2^32 terms below 2^32, is below 2^64. */
static void edge_pass(const shared *s, uint32_t v) {
  const wm_graph *g = s->g;
  uint64_t tv = 0, p2 = 0;
  for (uint64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++) {
    tv += s->a->tri[e];
    p2 += deg(g, g->adj[e]) - 1;
  }
  s->tv[v] = tv / 2;
  s->paths2[v] = p2;
}

/* The sums over v's neighbours u (orbits 1, 4, 5, 6, 9, 10, 13).  Every
 * term is below 2^64 (degrees and an edge's triangles t below 2^32; a
 * vertex's triangles, a C(d, 2), below 2^63; t <= min(d, d(u)) - 1 and the
 * 2-paths through u include v's, so no term is negative), so their sums,
 * at most 2^32 terms, are exact in 128 bits without checks. */
static void neighbour_sums(const shared *s, uint32_t v, wm_i128 *N) {
  const wm_graph *g = s->g;
  const uint64_t d = deg(g, v), t = s->tv[v];
  wm_i128 n1 = 0, n4 = 0, n5 = 0, n6 = 0, n9 = 0, n10 = 0, n13 = 0;
  for (uint64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++) {
    const uint32_t u = g->adj[e];
    const uint64_t du = deg(g, u), tvu = s->a->tri[e];
    n1 += du - 1;
    n4 += s->paths2[u] - (d - 1);
    n5 += (d - 1) * (du - 1) - tvu;
    n6 += (du - 1) * (du > 1 ? du - 2 : 0) / 2;
    n9 += s->tv[u] - tvu;
    n10 += tvu * (du > 1 ? du - 2 : 0);
    n13 += tvu * (tvu > 0 ? tvu - 1 : 0) / 2;
  }
  N[1] = n1, N[4] = n4 - 2 * (wm_i128)t, N[5] = n5, N[6] = n6, N[9] = n9, N[10] = n10, N[13] = n13;
  N[2] = choose(d, 2);
  N[3] = (wm_i128)t;
  N[7] = choose(d, 3);
  N[11] = (wm_i128)t * (wm_i128)(d > 1 ? d - 2 : 0); /* below 2^63 * 2^32 */
}

/* I = c^-1 N in 64-bit words, each step checked; -1 where a value leaves
 * them (then the 128-bit solve below gives the same counts, or the error).
 * Almost every vertex's counts fit, and the 128-bit products and their
 * checks were most of the rows' time. */
static int solve64(const relations *r, const wm_i128 *N, unsigned orbits, int64_t *I) {
  for (unsigned i = 0; i < ORBITS4 - 1; i++) {
    const unsigned a = r->order[i];
    if (a >= orbits) continue;
    if (N[a] > INT64_MAX || N[a] < INT64_MIN) return -1;
    int64_t x = (int64_t)N[a], p;
    for (unsigned t = 0; t < r->terms[a]; t++)
      if (__builtin_mul_overflow((int64_t)r->term_c[a][t], I[r->term_b[a][t]], &p) || __builtin_sub_overflow(x, p, &x))
        return -1;
    I[a] = x;
  }
  return 0;
}

/* WM_TEST_ORBIT_SOLVE128=1 solves every vertex in 128 bits, so that the
 * tests see that way too (no small graph needs it). */
static int wide_only(void) {
  const char *v = getenv("WM_TEST_ORBIT_SOLVE128");
  return v && *v == '1';
}

/* I = c^-1 N, then each count past its start into the row. */
static int solve(const wm_graph *g, const relations *r, uint32_t v, const wm_i128 *N, const wm_orbit_run *run,
                 uint64_t *row, wm_error *err) {
  wm_i128 I[ORBITS4] = {0};
  int64_t small[ORBITS4] = {0};
  int of = 0;
  const unsigned orbits = wm_orbit_count(run->k);
  if (!r->wide && !solve64(r, N, orbits, small)) {
    for (unsigned o = 1; o < orbits; o++) I[o] = small[o];
  } else {
    for (unsigned i = 0; i < ORBITS4 - 1; i++) {
      const unsigned a = r->order[i];
      if (a >= orbits) continue; /* a larger graphlet than asked for */
      wm_i128 x = N[a];
      for (unsigned t = 0; t < r->terms[a]; t++)
        x = wm_sub_chk(x, wm_mul_chk(r->term_c[a][t], I[r->term_b[a][t]], &of), &of);
      if (of) return wm_orbit_overflow(g, v, a, 128, err);
      I[a] = x;
    }
  }
  I[0] = (wm_i128)deg(g, v);
  for (unsigned o = 0; o < orbits; o++) {
    if (I[o] >= 0 && I[o] <= (wm_i128)(UINT64_MAX - run->start)) row[o] = run->start + (uint64_t)I[o];
    else if (wm_orbit_store(g, v, o, I[o], run, &row[o], err)) return err->code;
  }
  return WM_OK;
}

static int vertex_row(const shared *s, const relations *r, uint32_t v, const wm_orbit_run *run, uint64_t *row,
                      wm_error *err) {
  wm_i128 N[ORBITS4] = {0};
  if (run->k >= 3) neighbour_sums(s, v, N); /* size 2: the degree alone */
  if (run->k >= 4) N[8] = s->a->n8[v], N[12] = s->a->n12[v], N[14] = (wm_i128)s->a->k4[v];
  return solve(s->g, r, v, N, run, row, err);
}

static int rows(shared *s, const relations *r, const wm_orbit_run *run, unsigned stride, uint64_t *counts,
                wm_error *err) {
  const wm_graph *g = s->g;
  wm_orbit_first_error first = {-1, {0, ""}};
#pragma omp parallel
  {
    if (run->k >= 3) { /* size 2: the degree alone (the same for every thread) */
#pragma omp for schedule(dynamic, 256)
      for (int64_t v = 0; v < (int64_t)g->n; v++) edge_pass(s, (uint32_t)v);
    }
#pragma omp for schedule(dynamic, 64)
    for (int64_t v = 0; v < (int64_t)g->n; v++) {
      wm_error e;
      if (vertex_row(s, r, (uint32_t)v, run, counts + (size_t)v * stride, &e)) wm_orbit_keep_first(&first, v, &e);
    }
  }
  if (first.vertex >= 0) *err = first.err;
  return first.vertex >= 0 ? err->code : WM_OK;
}

int wm_orbit_rows_from(const wm_graph *g, const wm_orbit_run *run, const wm_orbit_aggregates *a, unsigned stride,
                       uint64_t *counts, wm_error *err) {
  const wm_orbit_tables *t = wm_orbit_tables_upto(4, err);
  if (!t) return err->code;
  relations r;
  derive(t, &r);
  r.wide = wide_only();
  const size_t n = g->n ? g->n : 1;
  shared s = {g, a, malloc(n * sizeof *s.tv), malloc(n * sizeof *s.paths2)};
  int rc = s.tv && s.paths2 ? WM_OK : wm_fail(err, WM_EINPUT, "orbits: out of memory for the formula (%u vertices)", g->n);
  if (!rc) rc = rows(&s, &r, run, stride, counts, err);
  free(s.tv);
  free(s.paths2);
  return rc;
}

/* The aggregates from the GPU (run->gpu) or the CPU's passes, then the
 * rows, the same code either way. */
int wm_orbit_rows4(const wm_graph *g, const wm_orbit_run *run, unsigned stride, uint64_t *counts, wm_error *err) {
  double at[4] = {wm_now()};
  if (!wm_orbit_tables_upto(4, err)) return err->code; /* built once; timed apart from the rows */
  at[1] = wm_now();
  /* size 2 needs no aggregate, size 3 the triangles alone: one word each where unused */
  const size_t n = g->n ? g->n : 1, big = run->k >= 4 ? n : 1, arcs = run->k >= 3 && g->m ? g->m : 1;
  wm_orbit_aggregates a = {malloc(arcs * sizeof(uint32_t)), calloc(big, sizeof(uint64_t)),
                           calloc(big, sizeof(wm_i128)), calloc(big, sizeof(wm_i128))};
  int rc = a.tri && a.k4 && a.n8 && a.n12
               ? WM_OK
               : wm_fail(err, WM_EINPUT, "orbits: out of memory for the formula's aggregates (%u vertices)", g->n);
  if (!rc && run->k >= 3) /* size 2: the degrees alone, no aggregate */
    rc = run->gpu ? wm_orbit_aggregates_gpu(g, run->k, run->gpu_graph, &a, run->kernel_ms, err)
                  : wm_orbit_aggregates_cpu(g, run->k, &a, err);
  at[2] = wm_now();
  if (!rc) rc = wm_orbit_rows_from(g, run, &a, stride, counts, err);
  at[3] = wm_now();
  if (wm_trace_on("WM_ORBIT_TRACE"))
    fprintf(stderr, "orbits (formula, size %u): tables %.3f ms, aggregates %.3f ms, rows %.3f ms\n", run->k,
            1e3 * (at[1] - at[0]), 1e3 * (at[2] - at[1]), 1e3 * (at[3] - at[2]));
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
  return wm_orbit_rows4(g, run, wm_orbit_count(run->k), counts, err);
}
