/* The formula's heavy aggregates on the CPU (the GPU's twin is
 * gpu_orbit_sums.cu): triangles per arc, and for k >= 4 per vertex its
 * 4-cliques, 4-cycles and diamond sums.
 *
 * Everything walks the degree orientation (u before w when d(u) < d(w),
 * ties by index; out-degrees at most sqrt(2m)), so a hub's row is read
 * only from below: the triangles from each one's lowest vertex, the
 * 4-cycles from each one's highest (Chiba & Nishizeki's order), which
 * costs the sum over u of d(u) d+(u) where marking a vertex's row and
 * reading every neighbour's would cost the sum of d(u)^2 (on Kronecker
 * graphs ten times more).  Credits to other vertices are 64-bit atomics
 * whose wrap is flagged: past 2^64 - 1 the caller gets an error. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "orbits.h"

typedef struct orientation {
  uint64_t *offsets; /* n + 1 */
  uint32_t *adj;     /* the out-neighbours, in row order */
  uint64_t *arc;     /* per out-arc, its index in g->adj */
} orientation;

typedef struct pass {
  const wm_graph *g;
  uint64_t *key; /* per vertex d(v) * 2^32 + v: u before w when key[u] < key[w] */
  orientation o;
  uint32_t *tri;
  uint64_t *k4, *n8, *n12; /* per vertex, for k >= 4 */
  int overflow;
} pass;

static uint64_t deg(const wm_graph *g, uint32_t v) { return g->offsets[v + 1] - g->offsets[v]; }

static int before(const wm_graph *g, uint32_t u, uint32_t w) {
  const uint64_t du = deg(g, u), dw = deg(g, w);
  return du < dw || (du == dw && u < w);
}

static void orient(pass *p) {
  const wm_graph *g = p->g;
  for (uint32_t v = 0; v < g->n; v++) p->key[v] = deg(g, v) << 32 | v;
  p->o.offsets[0] = 0;
  for (uint32_t v = 0; v < g->n; v++) {
    uint64_t d = 0;
    for (uint64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++) d += before(g, v, g->adj[e]);
    p->o.offsets[v + 1] = p->o.offsets[v] + d;
  }
#pragma omp parallel for schedule(dynamic, 256)
  for (int64_t v = 0; v < (int64_t)g->n; v++) {
    uint64_t o = p->o.offsets[v];
    for (uint64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++)
      if (before(g, (uint32_t)v, g->adj[e])) p->o.adj[o] = g->adj[e], p->o.arc[o++] = e;
  }
}

static void add(pass *p, uint64_t *at, uint64_t x) {
  if (x && __atomic_fetch_add(at, x, __ATOMIC_RELAXED) > UINT64_MAX - x)
    __atomic_store_n(&p->overflow, 1, __ATOMIC_RELAXED);
}

/* Calls f(p, a, i, j, f_arc) for every triangle a < b < c with b = out[i],
 * c = out[j] of a's out-row and f the out-arc b -> c; local holds i + 1 per
 * vertex of a's out-row (zero elsewhere, before and after). */
#define EACH_TRIANGLE(p, local, a, BODY)                                                    \
  do {                                                                                      \
    const uint64_t *oo_ = (p)->o.offsets;                                                   \
    const uint32_t *oa_ = (p)->o.adj, *out_ = oa_ + oo_[a];                                 \
    const uint32_t k_ = (uint32_t)(oo_[(a) + 1] - oo_[a]);                                  \
    for (uint32_t i_ = 0; i_ < k_; i_++) (local)[out_[i_]] = i_ + 1;                        \
    for (uint32_t i = 0; i < k_; i++)                                                       \
      for (uint64_t f = oo_[out_[i]]; f < oo_[out_[i] + 1]; f++) {                          \
        if (!(local)[oa_[f]]) continue;                                                     \
        const uint32_t j = (local)[oa_[f]] - 1;                                             \
        BODY;                                                                               \
      }                                                                                     \
    for (uint32_t i_ = 0; i_ < k_; i_++) (local)[out_[i_]] = 0;                             \
  } while (0)

/* The triangles on the out-arcs, each from its lowest vertex a: a's own
 * arcs gather in tally (only a's thread adds to them as the lowest) and
 * reach tri in one add each; the far arc b -> c takes an atomic add. */
static void triangles_from(pass *p, uint32_t *local, uint64_t *tally, uint32_t a) {
  const uint64_t base = p->o.offsets[a];
  const uint64_t *arc = p->o.arc;
  uint32_t *tri = p->tri;
  EACH_TRIANGLE(p, local, a, {
    tally[i]++;
    tally[j]++;
    __atomic_fetch_add(&tri[arc[f]], 1u, __ATOMIC_RELAXED);
  });
  for (uint64_t e = base; e < p->o.offsets[a + 1]; e++)
    if (tally[e - base]) __atomic_fetch_add(&tri[arc[e]], (uint32_t)tally[e - base], __ATOMIC_RELAXED), tally[e - base] = 0;
}

/* The arcs pointing down take their twin's count. */
static void fill_down_arcs(const pass *p, uint32_t v) {
  const wm_graph *g = p->g;
  for (uint64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++)
    if (before(g, g->adj[e], v)) p->tri[e] = p->tri[wm_graph_arc_at(g, g->adj[e], v)];
}

/* n12: for a triangle a, b, c each corner takes the triangles of the far
 * edge less one; b's and c's gather in tally (per vertex of a's out-row). */
static void diamonds_from(pass *p, uint32_t *local, uint64_t *tally, uint32_t a) {
  const uint64_t base = p->o.offsets[a];
  uint64_t at_a = 0;
  int wrapped = 0;
  EACH_TRIANGLE(p, local, a, {
    wrapped |= __builtin_add_overflow(at_a, p->tri[p->o.arc[f]] - 1, &at_a);
    wrapped |= __builtin_add_overflow(tally[i], p->tri[p->o.arc[base + j]] - 1, &tally[i]);
    wrapped |= __builtin_add_overflow(tally[j], p->tri[p->o.arc[base + i]] - 1, &tally[j]);
  });
  if (wrapped) __atomic_store_n(&p->overflow, 1, __ATOMIC_RELAXED);
  add(p, &p->n12[a], at_a);
  for (uint64_t e = base; e < p->o.offsets[a + 1]; e++) add(p, &p->n12[p->o.adj[e]], tally[e - base]), tally[e - base] = 0;
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
/* Without -mpopcnt the builtin is a library call, a third of this pass. */
__attribute__((target_clones("popcnt", "default")))
#endif
/* The 4-cliques through a and each u of its out-row are the edges among
 * u's neighbours there: with rows of that out-row as bit sets, u's credit
 * is half the sum over its neighbours w there of |N(u) & N(w)|, and a's a
 * third of all of them; its cost is a's triangles times a row's words,
 * without visiting each clique. */
static void cliques_from(pass *p, uint32_t *local, uint64_t *rows, uint32_t a) {
  const uint32_t k = (uint32_t)(p->o.offsets[a + 1] - p->o.offsets[a]), words = (k + 63) / 64;
  const uint32_t *out = p->o.adj + p->o.offsets[a];
  memset(rows, 0, (size_t)k * words * sizeof *rows);
  EACH_TRIANGLE(p, local, a, {
    rows[(size_t)i * words + j / 64] |= 1ull << (j % 64);
    rows[(size_t)j * words + i / 64] |= 1ull << (i % 64);
  });
  uint64_t at_a = 0;
  for (uint32_t i = 0; i < k; i++) {
    const uint64_t *ri = rows + (size_t)i * words;
    uint64_t twice = 0;
    for (uint32_t wi = 0; wi < words; wi++)
      for (uint64_t bits = ri[wi]; bits; bits &= bits - 1) {
        const uint64_t *rj = rows + (size_t)(wi * 64 + (uint32_t)__builtin_ctzll(bits)) * words;
        for (uint32_t x = 0; x < words; x++) twice += (uint64_t)__builtin_popcountll(ri[x] & rj[x]);
      }
    add(p, &p->k4[out[i]], twice / 2);
    at_a += twice / 2;
  }
  add(p, &p->k4[a], at_a / 3);
}

/* Past this out-degree the rows would leave the caches (k^2 bits): such a
 * vertex's cliques are walked one by one, marking a's out-row 1 and the
 * part of it in b's out-row 2. */
#define ROWS_MAX 1024u

static void cliques_walked(pass *p, uint8_t *mark, uint32_t *common, uint64_t *tally, uint32_t a) {
  const uint64_t *oo = p->o.offsets;
  const uint32_t *oa = p->o.adj;
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
  add(p, &p->k4[a], at_a);
  for (uint64_t e = oo[a]; e < oo[a + 1]; e++) {
    mark[oa[e]] = 0;
    add(p, &p->k4[oa[e]], tally[oa[e]]), tally[oa[e]] = 0;
  }
}

/* n8: the 4-cycles v, u, w, u' whose highest vertex is v (so u, w and u'
 * lie below it): C(c, 2) for each w below v with c such middles, to v and
 * to w, and c - 1 to each middle. */
static void cycles_from(pass *p, uint32_t *cnt, uint32_t *touched, uint32_t v) {
  const wm_graph *g = p->g;
  const uint64_t *key = p->key, top = key[v];
  uint32_t nt = 0;
  for (uint64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++) {
    const uint32_t u = g->adj[e];
    if (key[u] > top) continue;
    for (uint64_t f = g->offsets[u]; f < g->offsets[u + 1]; f++)
      if (key[g->adj[f]] < top && !cnt[g->adj[f]]++) touched[nt++] = g->adj[f];
  }
  if (!nt) return;
  for (uint64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++) {
    const uint32_t u = g->adj[e];
    if (key[u] > top) continue;
    uint64_t others = 0;
    for (uint64_t f = g->offsets[u]; f < g->offsets[u + 1]; f++)
      if (key[g->adj[f]] < top) others += cnt[g->adj[f]] - 1;
    add(p, &p->n8[u], others);
  }
  uint64_t at_v = 0;
  for (uint32_t i = 0; i < nt; i++) {
    const uint64_t c = cnt[touched[i]], pairs = c * (c - 1) / 2;
    add(p, &p->n8[touched[i]], pairs);
    if (at_v + pairs < at_v) __atomic_store_n(&p->overflow, 1, __ATOMIC_RELAXED);
    at_v += pairs;
    cnt[touched[i]] = 0;
  }
  add(p, &p->n8[v], at_v);
}

/* One thread's scratch: per-vertex words, zero between uses. */
typedef struct scratch {
  uint32_t *local, *cnt, *list;
  uint8_t *mark;
  uint64_t *tally, *rows;
} scratch;

static int scratch_init(scratch *s, uint32_t n, unsigned k) {
  const size_t len = n ? n : 1;
  memset(s, 0, sizeof *s);
  s->local = calloc(len, sizeof *s->local);
  s->tally = calloc(len, sizeof *s->tally);
  if (k < 4) return s->local && s->tally;
  s->cnt = calloc(len, sizeof *s->cnt);
  s->list = malloc(len * sizeof *s->list);
  s->mark = calloc(len, 1);
  s->rows = malloc((size_t)ROWS_MAX * (ROWS_MAX / 64) * sizeof *s->rows);
  return s->local && s->tally && s->cnt && s->list && s->mark && s->rows;
}

static void scratch_free(scratch *s) {
  free(s->local);
  free(s->cnt);
  free(s->list);
  free(s->mark);
  free(s->tally);
  free(s->rows);
}

/* WM_TEST_ORBIT_WALKED=1 sends every vertex's cliques down the walk, so
 * that the tests see both ways on small graphs. */
static int walked_only(void) {
  const char *v = getenv("WM_TEST_ORBIT_WALKED");
  return v && *v == '1';
}

static void per_vertex(pass *p, scratch *s, int walked, uint32_t v) {
  diamonds_from(p, s->local, s->tally, v);
  const uint64_t out = p->o.offsets[v + 1] - p->o.offsets[v];
  if (out >= 3 && out <= ROWS_MAX && !walked) cliques_from(p, s->local, s->rows, v);
  else if (out >= 3) cliques_walked(p, s->mark, s->list, s->tally, v);
  cycles_from(p, s->cnt, s->list, v);
}

/* 0, -1 out of memory, or 1 interrupted (warpmatch_interrupt: each vertex
 * asks first, so a hub's own work is the longest wait). */
static int passes(pass *p, unsigned k) {
  const wm_graph *g = p->g;
  const int walked = walked_only();
  int oom = 0;
  wm_progress progress; /* the line and the interrupt flag; only the 4-vertex pass shows */
  wm_progress_init(&progress, "orbit aggregates", g->n, k >= 4);
  orient(p);
#pragma omp parallel
  {
    scratch s;
    const int ok = scratch_init(&s, g->n, k);
    if (!ok) __atomic_store_n(&oom, 1, __ATOMIC_RELAXED);
#pragma omp for schedule(dynamic, 64)
    for (int64_t v = 0; v < (int64_t)g->n; v++)
      if (ok && !wm_progress_stopped(&progress)) triangles_from(p, s.local, s.tally, (uint32_t)v);
#pragma omp for schedule(dynamic, 256)
    for (int64_t v = 0; v < (int64_t)g->n; v++) fill_down_arcs(p, (uint32_t)v);
    if (k >= 4) {
#pragma omp for schedule(dynamic, 16)
      for (int64_t v = 0; v < (int64_t)g->n; v++)
        if (ok && !wm_progress_stopped(&progress)) per_vertex(p, &s, walked, (uint32_t)v), wm_progress_add(&progress, 1);
    }
    scratch_free(&s);
  }
  wm_progress_finish(&progress);
  return oom ? -1 : wm_progress_stopped(&progress) ? 1 : 0;
}

int wm_orbit_aggregates_cpu(const wm_graph *g, unsigned k, wm_orbit_aggregates *a, wm_error *err) {
  const size_t n = g->n ? g->n : 1, half = g->m / 2 + 1;
  pass p = {.g = g, .tri = a->tri};
  p.key = malloc(n * sizeof *p.key);
  p.o.offsets = malloc((n + 1) * sizeof *p.o.offsets);
  p.o.adj = malloc(half * sizeof *p.o.adj);
  p.o.arc = malloc(half * sizeof *p.o.arc);
  if (k >= 4) p.k4 = a->k4, p.n8 = calloc(n, sizeof *p.n8), p.n12 = calloc(n, sizeof *p.n12);
  int rc = WM_OK;
  if (!p.key || !p.o.offsets || !p.o.adj || !p.o.arc || (k >= 4 && (!p.n8 || !p.n12)))
    rc = wm_fail(err, WM_EINPUT, "orbits: out of memory for the orientation (%llu arcs)", (unsigned long long)g->m);
  if (!rc) {
    memset(a->tri, 0, (g->m ? g->m : 1) * sizeof *a->tri);
    if (k >= 4) memset(a->k4, 0, n * sizeof *a->k4);
    const int got = passes(&p, k);
    if (got < 0) rc = wm_fail(err, WM_EINPUT, "orbits: out of memory for the aggregates' scratch");
    else if (got > 0) rc = wm_interrupted(err, "orbits");
  }
  if (!rc && p.overflow)
    rc = wm_fail(err, WM_EINPUT, "orbits: a vertex's 4-cliques, 4-cycles or diamond sums pass 2^64 - 1");
  for (uint32_t v = 0; !rc && k >= 4 && v < g->n; v++) a->n8[v] = (wm_i128)p.n8[v], a->n12[v] = (wm_i128)p.n12[v];
  free(p.key);
  free(p.o.offsets);
  free(p.o.adj);
  free(p.o.arc);
  free(p.n8);
  free(p.n12);
  return rc;
}

int wm_orbit_triangles_cpu(const wm_graph *g, uint32_t *tri, wm_error *err) {
  wm_orbit_aggregates a = {tri, NULL, NULL, NULL};
  return wm_orbit_aggregates_cpu(g, 3, &a, err);
}
