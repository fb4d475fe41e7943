/* The 5-cycles through each vertex (orbit 34's non-induced count), each
 * cycle found once from its top vertex, as the motif code finds their
 * total (five_cycles_from), and credited to its five vertices; no 4- or
 * 5-vertex set is listed.
 *
 * The graph is relabelled by the degree order (as orbit_aggregates_cpu.c:
 * rank r before s when d(r) < d(s), ties by index; rows sorted by rank), so
 * that the neighbours of a vertex below h are a prefix of its row and those
 * above it the end.  A cycle with top h reads h-a-b-c-e-h with a, e in L(h)
 * (h's lower neighbours) and b, c below h.  For each h:
 *   pass 1 (Chiba-Nishizeki wedges): W[v] = |L(h) & N(v)| for the v below
 *     h, from each a's row up to h (h's position there is dU(a), a's
 *     neighbours below h);
 *   pass 2 (each touched b's row between b and h): an edge b-c closes
 *     (W[b] - [c in L]) (W[c] - [b in L]) walks h-a-b-c-e-h with a != c and
 *     e != b (the motif code's product): the cycles with b-c opposite h,
 *     plus X(b, c) = |L(h) & N(b) & N(c)| walks with a = e.  h, b and c take
 *     it; Z[b] = the sum of W over b's neighbours below h;
 *   pass 3 (the rows of L(h) again): a lies on the sum over its neighbours
 *     b below h of Z[b] - W[a] - [b in L] (dU(b) - 1) paths a-b-c-e with e
 *     in L(h), e != a, b, plus tU(a, b) = |N(a) & N(b) below h| with e = a.
 *     A cycle's a and e each take it once this way.
 * The a = e terms are each "a triangle a, b, c and a neighbour h of a
 * above all three" (the motif code's triangle term, edge_triangles): they
 * are taken off before the walk, from each triangle once (found from its
 * lowest vertex), where such h are the end of a's row past the triangle's
 * top: a takes off 2 per h (tU counts b and c both ways round), b and c 1
 * each, and h's share is a mark at the first such h in a's row, whose sums
 * along the row the walk reads at h's position.  The cost is the CN wedges
 * twice (the sum over a of d(a) d+(a)), the pass-2 scan (the sum over the
 * touched b of b's neighbours between b and h), and O(1) per triangle.
 *
 * The credits to other vertices are atomic adds into one 64-bit word per
 * vertex (pass 2's gathered per thread first: one add per touched vertex
 * and h, far fewer than the walk's steps; the triangles' tops' per thread
 * over the whole phase), with each add's wrap past 2^64
 * and each subtraction's below 0 counted in a second word, so the sum is
 * exact in any order of adds and subtractions, and a count past 2^64 - 1
 * is found at the end, never wrapped.  Atomics rather than each thread's
 * own arrays: the memory stays 16 bytes a vertex whatever the threads, and
 * the adds are not what the time goes to.  The counts go back to g's
 * labels at the end. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "matcher.h" /* wm_share */
#include "orbit_cycles5.h"
#include "orbit_ranked.h"
#include "orbit_share5.h"

typedef wm_orbit_ranked ranked;

/* A vertex's credits: low + 2^64 carry, the count (plus the start). */
typedef struct credits {
  uint64_t *low;  /* the sum modulo 2^64 */
  int64_t *carry; /* +1 per add past 2^64 - 1, -1 per subtraction below 0,
                   * and the high words of 128-bit credits: at most one per
                   * step of the walk in size, so far from 2^63 */
} credits;

typedef struct walk {
  ranked r;
  credits c;
  uint64_t *marks; /* per arc above its row's vertex: the triangle marks, then their sums along the row */
} walk;

static void walk_free(walk *w) {
  wm_orbit_ranked_free(&w->r);
  free(w->c.low);
  free(w->c.carry);
  free(w->marks);
}

/* The ranked graph, the credits (each vertex's starting at start) and the
 * marks; -1 out of memory. */
static int walk_init(const wm_graph *g, uint64_t start, walk *w) {
  const size_t n = g->n ? g->n : 1, m = g->m ? g->m : 1;
  memset(w, 0, sizeof *w);
  const int ranked_ok = !wm_orbit_ranked_init(g, 0, &w->r);
  w->c.low = malloc(n * sizeof *w->c.low);
  w->c.carry = calloc(n, sizeof *w->c.carry);
  w->marks = calloc(m, sizeof *w->marks);
  const int ok = ranked_ok && w->c.low && w->c.carry && w->marks;
  if (ok)
    for (uint32_t s = 0; s < g->n; s++) w->c.low[s] = start;
  if (!ok) walk_free(w);
  return ok ? 0 : -1;
}

/* ---- the credits ---------------------------------------------------------- */

static inline void carry(const credits *c, uint32_t x, int64_t by) {
  __atomic_fetch_add(&c->carry[x], by, __ATOMIC_RELAXED);
}

static inline void credit_add(const credits *c, uint32_t x, uint64_t v) {
  if (v && __atomic_fetch_add(&c->low[x], v, __ATOMIC_RELAXED) > UINT64_MAX - v) carry(c, x, 1);
}

static inline void credit_sub(const credits *c, uint32_t x, uint64_t v) {
  if (v && __atomic_fetch_sub(&c->low[x], v, __ATOMIC_RELAXED) < v) carry(c, x, -1);
}

/* v = hi 2^64 + lo with lo unsigned (v's two's complement), either sign. */
static void credit(const credits *c, uint32_t x, wm_i128 v) {
  credit_add(c, x, (uint64_t)v);
  const int64_t hi = (int64_t)(v >> 64);
  if (hi) carry(c, x, hi);
}

/* A thread's tally word: a wrap goes to x's carry. */
static inline void tally(const credits *c, uint64_t *at, uint32_t x, uint64_t v) {
  if (__builtin_add_overflow(*at, v, at)) carry(c, x, 1);
}

/* ---- the a = e terms, from the triangles --------------------------------- */

/* A thread's scratch, per vertex, zero between tops (and between phases). */
typedef struct scratch {
  uint32_t *W;       /* |L(h) & N(v)| (the triangles' local) */
  uint32_t *in_l;    /* dU(a) + 1 for a in L(h) */
  uint32_t *touched; /* the v with W[v] > 0 */
  uint64_t *Z;       /* sum of W over v's neighbours below h (the triangles topped by v) */
  uint64_t *Y;       /* pass 2's credits to v (the triangles' subtractions from their tops) */
} scratch;

/* The triangles p < q < t from their lowest vertex p (q and t in p's row
 * above p, t in q's row above q).  Each corner v has k_v neighbours above
 * t (the end of its row); v takes off k_p + k_q + k_t + k_v, and marks the
 * first of those k_v in its row.  The top's (often a hub's, hit by every
 * thread) are gathered in the thread's Y and Z until the end of the phase. */
static void triangle_terms(const walk *w, scratch *s, uint32_t p) {
  const ranked *r = &w->r;
  const uint64_t *oo = r->offsets, *up = r->up;
  const uint32_t *adj = r->adj, *out = adj + up[p];
  const uint64_t k = oo[p + 1] - up[p];
  if (k < 2) return;
  const uint32_t last = out[k - 1];
  uint32_t *local = s->W;
  for (uint64_t i = 0; i < k; i++) local[out[i]] = (uint32_t)i + 1;
  wm_u128 at_p = 0;
  for (uint64_t i = 0; i + 1 < k; i++) {
    const uint32_t q = out[i];
    wm_u128 at_q = 0;
    for (uint64_t f = up[q], end = oo[q + 1]; f < end && adj[f] <= last; f++) {
      const uint32_t t = adj[f], j = local[t]; /* t's index in out, plus one */
      if (!j) continue;
      const uint64_t kp = k - j, kq = end - f - 1, kt = oo[t + 1] - up[t], all = kp + kq + kt;
      at_p += all + kp, at_q += all + kq;
      if (__builtin_add_overflow(s->Y[t], all + kt, &s->Y[t])) carry(&w->c, t, -1);
      if (kp) __atomic_fetch_add(&w->marks[up[p] + j], 1, __ATOMIC_RELAXED);
      if (kq) __atomic_fetch_add(&w->marks[f + 1], 1, __ATOMIC_RELAXED);
      s->Z[t] += kt != 0;
    }
    credit(&w->c, q, -(wm_i128)at_q);
  }
  credit(&w->c, p, -(wm_i128)at_p);
  for (uint64_t i = 0; i < k; i++) local[out[i]] = 0;
}

/* The thread's gathered subtractions and top marks, out. */
static void triangle_tops(const walk *w, scratch *s) {
  for (uint32_t v = 0; v < w->r.n; v++) {
    credit_sub(&w->c, v, s->Y[v]);
    if (s->Z[v]) __atomic_fetch_add(&w->marks[w->r.up[v]], s->Z[v], __ATOMIC_RELAXED);
    s->Y[v] = 0, s->Z[v] = 0;
  }
}

/* The marks' sums along v's row above v: at h's position, h's share of the
 * triangles with v as a and h above all three. */
static void sum_marks(const walk *w, uint32_t v) {
  uint64_t run = 0;
  for (uint64_t f = w->r.up[v]; f < w->r.offsets[v + 1]; f++) w->marks[f] = run += w->marks[f];
}

/* ---- the walk ------------------------------------------------------------- */

static void scratch_free(scratch *s) {
  free(s->W);
  free(s->in_l);
  free(s->touched);
  free(s->Z);
  free(s->Y);
}

static int scratch_init(scratch *s, uint32_t n) {
  const size_t len = n ? n : 1;
  s->W = calloc(len, sizeof *s->W);
  s->in_l = calloc(len, sizeof *s->in_l);
  s->touched = malloc(len * sizeof *s->touched);
  s->Z = calloc(len, sizeof *s->Z);
  s->Y = calloc(len, sizeof *s->Y);
  return s->W && s->in_l && s->touched && s->Z && s->Y;
}

/* Pass 1: W over the vertices below h, dU per a in L(h); returns how many
 * were touched.  *x_h gets h's share of the a = e terms. */
static uint32_t wedges(const walk *w, scratch *s, uint32_t h, wm_i128 *x_h) {
  const uint64_t *oo = w->r.offsets;
  const uint32_t *adj = w->r.adj, *lower = adj + oo[h];
  const uint64_t nl = w->r.up[h] - oo[h];
  uint32_t nt = 0, *W = s->W, *touched = s->touched;
  for (uint64_t e = 0; e < nl; e++) {
    const uint32_t a = lower[e];
    uint64_t f = oo[a];
    for (; adj[f] < h; f++) { /* h is in a's row; no branch: a first touch is a coin toss */
      touched[nt] = adj[f];
      nt += !W[adj[f]]++;
    }
    s->in_l[a] = (uint32_t)(f - oo[a]) + 1;
    *x_h += w->marks[f];
  }
  return nt;
}

/* Pass 2: the edges b-c below h with both ends touched, each once from its
 * lower end; returns h's credit. */
static wm_i128 edges_below(const walk *w, scratch *s, uint32_t h, uint32_t nt) {
  const uint64_t *oo = w->r.offsets, *up = w->r.up;
  const uint32_t *adj = w->r.adj, *W = s->W, *in_l = s->in_l;
  uint64_t *Z = s->Z, *Y = s->Y;
  wm_i128 at_h = 0;
  for (uint32_t i = 0; i < nt; i++) {
    const uint32_t b = s->touched[i];
    const uint64_t wb = W[b], lb = in_l[b] != 0;
    uint64_t zb = 0, yb = 0;
    for (uint64_t f = up[b], end = oo[b + 1]; f < end && adj[f] < h; f++) {
      const uint32_t c = adj[f];
      const uint64_t wc = W[c];
      if (!wc) continue;
      /* each factor >= 0: c in L is in N(b), so W[b] >= 1 (and the same for b) */
      const uint64_t q = (wb - (in_l[c] != 0)) * (wc - lb);
      zb += wc, Z[c] += wb; /* below d(b) d(h) < 2^64 */
      tally(&w->c, &yb, b, q);
      tally(&w->c, &Y[c], c, q);
      at_h += q;
    }
    Z[b] += zb;
    tally(&w->c, &Y[b], b, yb);
  }
  return at_h;
}

/* Pass 3: each a in L(h) its paths a-b-c-e. */
static void paths_from_l(const walk *w, scratch *s, uint32_t h) {
  const uint64_t *oo = w->r.offsets;
  const uint32_t *adj = w->r.adj, *lower = adj + oo[h], *in_l = s->in_l;
  const uint64_t nl = w->r.up[h] - oo[h];
  for (uint64_t e = 0; e < nl; e++) {
    const uint32_t a = lower[e], *row = adj + oo[a];
    const uint64_t du = in_l[a] - 1;
    wm_u128 z = 0;
    uint64_t off = 0; /* sum over b in L of dU(b) - 1: below d(a) d(h) */
    for (uint64_t i = 0; i < du; i++) {
      const uint32_t b = row[i];
      z += s->Z[b];
      off += (uint64_t)in_l[b] - 2u * (in_l[b] != 0); /* b in L next to a below h: in_l[b] >= 2 */
    }
    credit(&w->c, a, (wm_i128)z - (wm_i128)((uint64_t)s->W[a] * du) - (wm_i128)off);
  }
}

static void cycles_from(const walk *w, scratch *s, uint32_t h) {
  if (w->r.up[h] == w->r.offsets[h]) return; /* no lower neighbour, no cycle with top h (nor a term) */
  wm_i128 x_h = 0;
  const uint32_t nt = wedges(w, s, h, &x_h);
  const wm_i128 at_h = edges_below(w, s, h, nt) - x_h;
  paths_from_l(w, s, h);
  for (uint32_t i = 0; i < nt; i++) {
    const uint32_t v = s->touched[i];
    credit_add(&w->c, v, s->Y[v]);
    s->W[v] = 0, s->Z[v] = 0, s->Y[v] = 0;
  }
  for (uint64_t e = w->r.offsets[h]; e < w->r.up[h]; e++) s->in_l[w->r.adj[e]] = 0;
  credit(&w->c, h, at_h);
}

/* 0, -1 out of memory, or 1 interrupted (each vertex asks first).  The tops
 * go out from the highest rank down (the hubs, the longest work, first). */
static int passes(walk *w, double *at) {
  const int64_t n = w->r.n;
  int oom = 0;
  wm_progress progress;
  wm_progress_init(&progress, "5-cycles", 3 * (uint64_t)n, 1);
#pragma omp parallel
  {
    scratch s;
    memset(&s, 0, sizeof s);
    const int ok = scratch_init(&s, w->r.n);
    if (!ok) __atomic_store_n(&oom, 1, __ATOMIC_RELAXED);
#pragma omp barrier
    const int go = !__atomic_load_n(&oom, __ATOMIC_RELAXED);
#pragma omp for schedule(dynamic, 64)
    for (int64_t v = 0; v < n; v++) {
      if (!go || wm_progress_stopped(&progress)) continue;
      triangle_terms(w, &s, (uint32_t)v);
      wm_progress_add(&progress, 1);
    }
    if (go) triangle_tops(w, &s);
#pragma omp barrier
#pragma omp for schedule(static)
    for (int64_t v = 0; v < n; v++) {
      if (go) sum_marks(w, (uint32_t)v);
    }
#pragma omp master
    at[0] = wm_now();
#pragma omp for schedule(dynamic, 16)
    for (int64_t i = 0; i < n; i++) {
      if (!go || wm_progress_stopped(&progress)) continue;
      cycles_from(w, &s, (uint32_t)(n - 1 - i));
      wm_progress_add(&progress, 2);
    }
    scratch_free(&s);
  }
  wm_progress_finish(&progress);
  return oom ? -1 : wm_progress_stopped(&progress) ? 1 : 0;
}

/* ---- the walk shared with other processes --------------------------------- */

/* Vertices per claim of the triangles' loop and of the tops' loop. */
#define TRIANGLE_BLOCK 64
#define TOP_BLOCK 16

/* One shared loop over [0, n) in claims of `block` from loop id: each
 * thread's scratch, `each` per item, `after` once per thread (or NULL).
 * 0, -1 out of memory, 1 interrupted; a stop halts the loop for every
 * process. */
static int claimed(walk *w, const wm_share *share, unsigned id, uint64_t block, wm_progress *progress,
                   void (*each)(const walk *, scratch *, uint32_t), void (*after)(const walk *, scratch *)) {
  const uint64_t n = w->r.n;
  int oom = 0;
#pragma omp parallel
  {
    scratch s;
    memset(&s, 0, sizeof s);
    const int ok = scratch_init(&s, w->r.n);
    if (!ok) __atomic_store_n(&oom, 1, __ATOMIC_RELAXED);
    for (uint64_t b; ok && !wm_progress_stopped(progress) && (b = share->grab(share->ctx, id, block)) < n;) {
      const uint64_t end = b + block < n ? b + block : n;
      for (uint64_t v = b; v < end; v++) each(w, &s, (uint32_t)v);
      wm_progress_add(progress, end - b);
    }
    if (ok && after) after(w, &s);
    if (!ok || wm_progress_stopped(progress)) wm_share_halt(share, id, 1);
    scratch_free(&s);
  }
  return oom ? -1 : wm_progress_stopped(progress) ? 1 : 0;
}

/* The tops from the highest rank down, as passes. */
static void cycles_of(const walk *w, scratch *s, uint32_t i) { cycles_from(w, s, w->r.n - 1 - i); }

static int shared_result(int got, int rc, const wm_share *share, wm_error *err) {
  if (!rc && got < 0) rc = wm_fail(err, WM_EINPUT, "orbits: out of memory for the 5-cycles' scratch");
  else if (!rc && got > 0) rc = wm_interrupted(err, "orbits");
  return wm_o5s_agree(share, rc, "orbits", err);
}

/* passes with every process of share: the triangles' loop (id), the marks
 * added up, then the tops' loop (id + 1) and the credits added up, each
 * exactly (a process's credits to a vertex are low + 2^64 carry, either
 * sign: the carries are added first, then the lows by their halves, whose
 * 2^64s go to the carries).  rc: this process's result so far (non-zero:
 * it only takes part). */
static int passes_shared(walk *w, const wm_share *share, unsigned id, int rc, wm_error *err) {
  wm_progress progress;
  wm_progress_init(&progress, "5-cycles", 2 * (uint64_t)w->r.n, 1); /* a vertex in each loop */
  int got = 0;
  if (rc) wm_share_halt(share, id, 2);
  else got = claimed(w, share, id, TRIANGLE_BLOCK, &progress, triangle_terms, triangle_tops);
  rc = shared_result(got, rc, share, err);
  const uint64_t arcs = rc ? 0 : w->r.offsets[w->r.n];
  if (!rc && share->sum_u64(share->ctx, w->marks, arcs ? arcs : 1)) /* counts of triangles: far from 2^64 */
    rc = wm_fail(err, WM_EINPUT, "orbits: MPI: adding the processes' 5-cycle marks failed");
  if (!rc) {
#pragma omp parallel for schedule(static)
    for (int64_t v = 0; v < (int64_t)w->r.n; v++) sum_marks(w, (uint32_t)v);
    got = claimed(w, share, id + 1, TOP_BLOCK, &progress, cycles_of, NULL);
    rc = shared_result(got, rc, share, err);
  }
  wm_progress_finish(&progress);
  int over = 0;
  const uint64_t n = w->r.n ? w->r.n : 1;
  if (!rc && (share->sum_u64(share->ctx, (uint64_t *)w->c.carry, n) ||
              wm_o5s_sum_exact(share, w->c.low, n, w->c.carry, &over)))
    rc = wm_fail(err, WM_EINPUT, "orbits: MPI: adding the processes' 5-cycles failed");
  return rc;
}

int wm_orbit_cycles5_back(const wm_graph *g, const wm_orbit_ranked *r, const uint64_t *low, const int64_t *carry,
                          uint64_t *c5, wm_error *err) {
  int64_t over = -1, under = -1;
  for (uint32_t s = 0; s < r->n; s++) {
    const uint32_t v = r->old[s];
    if (carry[s] == 0) c5[v] = low[s];
    else if (carry[s] > 0 && (over < 0 || v < over)) over = v;
    else if (carry[s] < 0 && (under < 0 || v < under)) under = v;
  }
  if (under >= 0)
    return wm_fail(err, WM_EINPUT, "orbits: vertex %u (index %u): its 5-cycles came out negative (a bug: please "
                   "report it)", wm_graph_file_id(g, (uint32_t)under), wm_graph_index(g, (uint32_t)under));
  if (over >= 0)
    return wm_fail(err, WM_EINPUT, "orbits: vertex %u (index %u): its 5-cycles (orbit 34) number more than 2^64 - 1",
                   wm_graph_file_id(g, (uint32_t)over), wm_graph_index(g, (uint32_t)over));
  return WM_OK;
}

int wm_orbit_cycles5_shared(const wm_graph *g, uint64_t start, const wm_share *share, uint64_t *c5, wm_error *err) {
  if (g->flags & WM_GRAPH_DIRECTED) return wm_fail(err, WM_EUSAGE, "orbits: the 5-cycles need an undirected graph");
  const unsigned id = share ? share->loops(share->ctx, 2) : 0;
  walk w;
  double at[4] = {wm_now()};
  /* the start once in the processes' sum */
  const int made = !walk_init(g, share && share->process ? 0 : start, &w);
  int rc = !made ? wm_fail(err, WM_EINPUT, "orbits: out of memory for the 5-cycles' walk (%u vertices, %llu arcs)",
                         g->n, (unsigned long long)g->m)
               : WM_OK;
  at[1] = at[2] = wm_now();
  if (share) {
    rc = passes_shared(&w, share, id, rc, err);
  } else if (!rc) {
    const int got = passes(&w, &at[2]);
    if (got < 0) rc = wm_fail(err, WM_EINPUT, "orbits: out of memory for the 5-cycles' scratch");
    else if (got > 0) rc = wm_interrupted(err, "orbits");
  }
  at[3] = wm_now();
  if (!rc) rc = wm_orbit_cycles5_back(g, &w.r, w.c.low, w.c.carry, c5, err);
  if (wm_trace_on("WM_ORBIT_TRACE"))
    fprintf(stderr, "orbits (5-cycles, %d threads): by degree %.3f ms, triangles %.3f ms, walk %.3f ms\n",
            omp_get_max_threads(), 1e3 * (at[1] - at[0]), 1e3 * (at[2] - at[1]), 1e3 * (at[3] - at[2]));
  if (made) walk_free(&w);
  return rc;
}

int wm_orbit_cycles5_from(const wm_graph *g, uint64_t start, uint64_t *c5, wm_error *err) {
  return wm_orbit_cycles5_shared(g, start, NULL, c5, err);
}

int wm_orbit_cycles5(const wm_graph *g, uint64_t *c5, wm_error *err) { return wm_orbit_cycles5_from(g, 0, c5, err); }
