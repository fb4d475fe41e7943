/* The orbits of the 5-vertex graphlets (15..72) by formula: per vertex x,
 * sums over the connected induced 4-vertex sets S that hold x, never over
 * the 5-vertex ones (ORCA's idea, Hocevar & Demsar 2014: a 5-vertex
 * graphlet is a 4-vertex one and a vertex z outside it; the equations and
 * their derivation here are this project's, made in code from the drawings).
 *
 * orbit_equations5.c derives the equations: for a class of (S, x, U), the
 * sum over the sets S of that class of A_U(S), the vertices outside S
 * adjacent to every vertex of U.  This file counts those sums per vertex:
 * A_U from a degree, an edge's triangles, a pair with x or with x's only
 * neighbour in S (two-hop tallies), else a scan of the shortest list that
 * holds U.
 *
 * The 4-vertex sets with x are enumerated per x (ESU rooted at x, each set
 * once) but for the 3-stars, which no equation reads: the cost is about four
 * times the connected 4-vertex subgraphs that are not 3-stars, not the
 * C(d, 3) stars of a hub; OpenMP over tasks, heaviest vertices first, a hub
 * cut into several. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "matcher.h" /* wm_share */
#include "orbit_equations5.h"
#include "orbit_noninduced5.h"

typedef struct ext {
  uint32_t *v;
  size_t len, cap;
} ext;

/* Counts per vertex made by a walk over a list's rows, cleared through the
 * list of the vertices touched. */
typedef struct tally {
  uint32_t *c, *touched;
  uint32_t nt;
  int state;       /* 0: not asked for yet, 1: counted, 2: scanning until it pays to count */
  uint64_t walk;   /* what counting costs (the rows' lengths) */
  uint64_t spent;  /* what the scans have cost so far */
} tally;

/* One thread's state while it sums a vertex's equations.  The positions
 * 0..2 of S (x, v1, v2) hold while the last level runs over v3, so the
 * vertices adjacent to a part T of them (the list common[T]) serve every
 * v3: common[T] for T = {0,1} is made per v1, the others per v2. */
typedef struct walk {
  const wm_graph *g;
  const wm_o5_equations *q;
  const uint32_t *tri; /* per arc */
  const uint64_t *adjacency; /* n x n bits where they fit (ADJACENCY_BYTES), else NULL */
  uint8_t *mark;       /* per vertex: bit p adjacent to position p (0..2), bit 3 in the
                        * last extension set, bit 7 in S */
  tally cx;            /* common neighbours with x */
  tally c1;            /* with position 1, once it pays */
  tally k01;           /* per vertex, how many of common[3] it is adjacent to, once it pays */
  ext common[8];       /* T = 3 (x, v1), 5 (x, v2), 6 (v1, v2), 7 (all three) */
  int lists2;          /* common[5..7] are made for this v2 */
  ext ext2, ext3;
  uint32_t *past_leaves; /* per index k of N(x): the first index >= k whose vertex is not a leaf (degree 1) */
  uint32_t s[4];
  wm_i128 e[ORBITS5];
  int of;
} walk;

static uint64_t deg(const wm_graph *g, uint32_t v) { return g->offsets[v + 1] - g->offsets[v]; }

static void tally_walk(tally *t, const wm_graph *g, const uint32_t *list, uint64_t len, uint32_t skip) {
  for (uint64_t i = 0; i < len; i++)
    for (uint64_t f = g->offsets[list[i]]; f < g->offsets[list[i] + 1]; f++)
      if (g->adj[f] != skip && !t->c[g->adj[f]]++) t->touched[t->nt++] = g->adj[f];
  t->state = 1;
}

static void tally_clear(tally *t) {
  for (uint32_t i = 0; i < t->nt; i++) t->c[t->touched[i]] = 0;
  t->nt = 0;
  t->state = 0;
  t->spent = 0;
}

/* The tally of list, once the scans it would spare have cost as much as
 * making it (so neither way costs more than twice the better one); NULL
 * until then: scan, and add the scan's length to t->spent. */
static const tally *tally_when_paid(tally *t, const wm_graph *g, const uint32_t *list, uint64_t len, uint32_t skip) {
  if (t->state == 1) return t;
  if (t->state == 0) {
    t->walk = 0;
    for (uint64_t i = 0; i < len; i++) t->walk += g->offsets[list[i] + 1] - g->offsets[list[i]];
    t->state = 2;
  }
  if (t->spent < t->walk) return NULL;
  tally_walk(t, g, list, len, skip);
  return t;
}

/* v ~ z: a bit of the adjacency matrix where the graph is small enough to
 * keep one (the scans' checks of v3 are most of the work on dense graphs),
 * else a search of v's row. */
static int adjacent(const walk *w, uint32_t v, uint32_t z) {
  if (w->adjacency) {
    const uint64_t bit = (uint64_t)v * w->g->n + z;
    return (int)(w->adjacency[bit >> 6] >> (bit & 63u) & 1u);
  }
  return wm_graph_has_arc(w->g, v, z);
}


/* The triangles on the edge a-b (found from the smaller row). */
static uint32_t edge_triangles(const walk *w, uint32_t a, uint32_t b) {
  const wm_graph *g = w->g;
  if (deg(g, a) > deg(g, b)) {
    const uint32_t t = a;
    a = b, b = t;
  }
  uint64_t lo = g->offsets[a], hi = g->offsets[a + 1];
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (g->adj[mid] < b) lo = mid + 1;
    else hi = mid;
  }
  return w->tri[lo];
}

/* common[5], [6] and [7] from v2's row and the marks, once per v2. */
static void level2_lists(walk *w) {
  const wm_graph *g = w->g;
  const uint32_t v2 = w->s[2];
  w->common[5].len = w->common[6].len = w->common[7].len = 0;
  for (uint64_t e = g->offsets[v2]; e < g->offsets[v2 + 1]; e++) {
    const uint32_t z = g->adj[e];
    const unsigned m = w->mark[z] & 3u;
    if (m & 1u) w->common[5].v[w->common[5].len++] = z;
    if (m & 2u) w->common[6].v[w->common[6].len++] = z;
    if (m == 3u) w->common[7].v[w->common[7].len++] = z;
  }
  w->lists2 = 1;
}

/* The vertices adjacent to all of U (positions), S's own included: for
 * {v1, b} v1's two-hop tally, for {x, v1, v3} the tally of x's and v1's
 * common list, where they have paid; else a scan of the
 * shortest list that holds them (a common list or a row of U), each vertex
 * checked against the rest of U: positions 0..2 by their bits in the
 * marks, position 3 by the adjacency matrix or a search of its row. */
static uint64_t common_scan(walk *w, unsigned u) {
  const wm_graph *g = w->g;
  tally *paying = NULL; /* the tally this scan stands in for */
  if ((u & 7u) == 3u && (u & 8u)) { /* {x, v1, v3} */
    const tally *k = tally_when_paid(&w->k01, g, w->common[3].v, w->common[3].len, UINT32_MAX);
    if (k) return k->c[w->s[3]];
    paying = &w->k01;
  } else if ((u & 3u) == 2u && __builtin_popcount(u) == 2) { /* {v1, b}: v1's two hops */
    const tally *k = tally_when_paid(&w->c1, g, g->adj + g->offsets[w->s[1]], deg(g, w->s[1]), w->s[1]);
    if (k) return k->c[w->s[31 - __builtin_clz(u)]];
    paying = &w->c1;
  }
  const uint32_t *list = NULL;
  uint64_t len = UINT64_MAX;
  unsigned known = 0; /* the positions the list's vertices are known adjacent to */
  for (unsigned t = 3; t <= 7; t++) {
    if (__builtin_popcount(t) < 2 || (u & t) != t || (t != 3u && !w->lists2)) continue;
    if (w->common[t].len < len)
      len = w->common[t].len, list = w->common[t].v, known = t;
  }
  for (unsigned i = 0; i < 4; i++)
    if ((u >> i & 1u) && deg(g, w->s[i]) < len)
      len = deg(g, w->s[i]), list = g->adj + g->offsets[w->s[i]], known = 1u << i;
  const unsigned bits = u & ~known & 7u;
  const int search = (u & ~known) >> 3 & 1u;
  if (paying)
    paying->spent += len;
  uint64_t c = 0;
  for (uint64_t e = 0; e < len; e++) {
    const uint32_t z = list[e];
    c += (w->mark[z] & bits) == bits && (!search || adjacent(w, w->s[3], z));
  }
  return c;
}

/* A_U(S): the vertices outside S adjacent to every vertex of U. */
static uint64_t outside_common(walk *w, unsigned mask, const wm_o5_use *x) {
  const unsigned u = x->u;
  uint64_t c;
  if (x->size == 1) {
    c = deg(w->g, w->s[__builtin_ctz(u)]);
  } else if (x->size == 2) {
    const unsigned a = (unsigned)__builtin_ctz(u), b = 31u - (unsigned)__builtin_clz(u);
    if (mask >> wm_o5_pair_bit(a, b) & 1u) c = edge_triangles(w, w->s[a], w->s[b]);
    else if (a == 0) c = w->cx.c[w->s[b]];
    else c = common_scan(w, u);
  } else {
    c = common_scan(w, u);
  }
  return c - x->inside;
}

/* sum[p] = the sum over the v3 of pattern p (v3's edges to positions
 * 0..2) of |common[t] ^ N(v3)|, by whichever costs less: a walk of the rows
 * of common[t] that counts the last extension set's vertices it meets
 * (marked, bit 3), or per v3 a scan of common[t] or of v3's row. */
static void pattern_sums(walk *w, unsigned t, unsigned patterns, uint64_t *sum) {
  const wm_graph *g = w->g;
  if (t != 3u && !w->lists2) level2_lists(w);
  const ext *l = &w->common[t];
  uint64_t walk_cost = 0, scan_cost = 0;
  for (size_t i = 0; i < l->len; i++) walk_cost += deg(g, l->v[i]);
  for (size_t k = 0; k < w->ext3.len && scan_cost < walk_cost; k++) {
    const uint64_t d = deg(g, w->ext3.v[k]);
    if (patterns >> (w->mark[w->ext3.v[k]] & 7u) & 1u) scan_cost += d < l->len ? d : l->len;
  }
  if (walk_cost <= scan_cost) {
    for (size_t i = 0; i < l->len; i++)
      for (uint64_t f = g->offsets[l->v[i]]; f < g->offsets[l->v[i] + 1]; f++) {
        const uint8_t m = w->mark[g->adj[f]];
        if (m & 8u) sum[m & 7u]++;
      }
    return;
  }
  for (size_t k = 0; k < w->ext3.len; k++) {
    const uint32_t v3 = w->ext3.v[k];
    const unsigned p = w->mark[v3] & 7u;
    uint64_t c = 0;
    if (!(patterns >> p & 1u)) continue;
    if (deg(g, v3) < l->len) {
      for (uint64_t f = g->offsets[v3]; f < g->offsets[v3 + 1]; f++) c += (w->mark[g->adj[f]] & t) == t;
    } else {
      for (size_t i = 0; i < l->len; i++) c += (uint64_t)adjacent(w, v3, l->v[i]);
    }
    sum[p] += c;
  }
}

/* The sets {x, v1, v2, v3} for every v3 of the last extension set: the
 * terms whose U holds v3 and at most one other per set; those whose U
 * holds v3 and two or more others per pattern of v3's edges to the rest
 * (pattern_sums); the others, which do not depend on which v3 it is, once
 * per pattern. */
static void last_level(walk *w) {
  const wm_o5_equations *q = w->q;
  const unsigned low = 1u | (unsigned)(w->mark[w->s[2]] & 3u) << 1;
  uint64_t count[8] = {0}, sums[8][8] = {{0}};
  unsigned need[8] = {0}; /* per part T of positions 0..2, the patterns that need its sums */
  for (size_t k = 0; k < w->ext3.len; k++) {
    const uint32_t v3 = w->ext3.v[k];
    const unsigned p = w->mark[v3] & 7u, mask = low | p << 3;
    w->s[3] = v3;
    w->mark[v3] |= 8u;
    count[p]++;
    for (unsigned i = 0; i < q->nper3[mask]; i++) {
      const wm_o5_use *x = &q->uses[mask][i];
      w->e[x->row] = wm_add_chk(w->e[x->row], (wm_i128)outside_common(w, mask, x), &w->of);
    }
  }
  for (unsigned p = 1; p < 8; p++)
    for (unsigned i = q->nper3[low | p << 3]; count[p] && i < q->nuse3[low | p << 3]; i++)
      need[q->uses[low | p << 3][i].u & 7u] |= 1u << p;
  for (unsigned t = 3; t < 8; t++)
    if (need[t]) pattern_sums(w, t, need[t], sums[t]);
  for (size_t k = 0; k < w->ext3.len; k++) w->mark[w->ext3.v[k]] &= (uint8_t)~8u;
  for (unsigned p = 1; p < 8; p++) {
    const unsigned mask = low | p << 3;
    for (unsigned i = q->nper3[mask]; count[p] && i < q->nuse[mask]; i++) {
      const wm_o5_use *x = &q->uses[mask][i];
      wm_i128 t;
      if (i < q->nuse3[mask]) t = (wm_i128)sums[x->u & 7u][p] - (wm_i128)count[p] * x->inside;
      else t = wm_mul_chk((wm_i128)count[p], (wm_i128)outside_common(w, mask, x), &w->of);
      w->e[x->row] = wm_add_chk(w->e[x->row], t, &w->of);
    }
  }
}

/* ext = what follows position `from` of prev, then the exclusive
 * neighbours of v (not in S, not adjacent to it). */
static void extend(const walk *w, const uint32_t *prev, size_t len, size_t from, uint32_t v, ext *out) {
  const wm_graph *g = w->g;
  out->len = 0;
  for (size_t i = from; i < len; i++) out->v[out->len++] = prev[i];
  for (uint64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++)
    if (!w->mark[g->adj[e]]) out->v[out->len++] = g->adj[e];
}

static void mark_position(walk *w, uint32_t v, unsigned bit, int on) {
  const wm_graph *g = w->g;
  for (uint64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++)
    w->mark[g->adj[e]] = on ? (uint8_t)(w->mark[g->adj[e]] | bit) : (uint8_t)(w->mark[g->adj[e]] & ~bit);
  w->mark[v] = on ? (uint8_t)(w->mark[v] | 0x80u) : (uint8_t)(w->mark[v] & ~0x80u);
}

/* The last extension set less the v3 that would make S a 3-star (no
 * equation reads those sets, wm_o5_is_star), without reading the part of
 * ext2 those would come from.  ext2 is x's neighbours after v1 (nx of
 * them, ascending like every row), then v1's exclusive ones (ascending);
 * ESU's ext3 is ext2 after v2, then v2's exclusive neighbours (unmarked).
 * v2 in N(x) and not ~ v1 (x the middle of v1-x-v2): x's neighbours after
 * v2 close an x-centred star unless ~ v1 (common[3], ascending, from the
 * first past v2) or ~ v2 (found in v2's row); v1's exclusive ones are all
 * kept.  v2 exclusive to v1 (v1 the middle of x-v1-v2): the rest of v1's
 * exclusive ones close a v1-centred star unless ~ v2 (found in v2's row:
 * marked v1's only, above v2).  v2 ~ x and v1 (a triangle): ESU's ext3.
 * Before v2 is marked, like ESU's. */
static void extend_last(walk *w, size_t j, size_t nx) {
  const wm_graph *g = w->g;
  const uint32_t v2 = w->s[2];
  const ext *e2 = &w->ext2;
  ext *out = &w->ext3;
  if (j < nx && (w->mark[v2] & 2u)) {
    extend(w, e2->v, e2->len, j + 1, v2, out);
    return;
  }
  out->len = 0;
  unsigned want = 2u; /* v2's neighbours kept beside its exclusive ones: marks exactly `want`, above v2 */
  if (j < nx) {
    const ext *c = &w->common[3];
    size_t lo = 0, hi = c->len;
    while (lo < hi) {
      const size_t mid = lo + (hi - lo) / 2;
      if (c->v[mid] < v2) lo = mid + 1;
      else hi = mid;
    }
    for (size_t i = lo; i < c->len; i++) out->v[out->len++] = c->v[i];
    for (size_t i = nx; i < e2->len; i++) out->v[out->len++] = e2->v[i];
    want = 1u; /* ~ x, not ~ v1 (those came from common[3]) */
  }
  for (uint64_t f = g->offsets[v2]; f < g->offsets[v2 + 1]; f++) {
    const uint32_t z = g->adj[f];
    const uint8_t m = w->mark[z];
    if (!m || (m == want && z > v2)) out->v[out->len++] = z;
  }
}

/* Every connected 4-set holding x once, but the 3-stars: x, then v1 from
 * N(x), v2 from ext2 and v3 from ext3 (extend_last); those whose v1 is
 * N(x)[begin, end) (a part of a hub's sets). */
static void sets_of(walk *w, uint32_t x, uint32_t begin, uint32_t end) {
  const wm_graph *g = w->g;
  const uint32_t *n1 = g->adj + g->offsets[x];
  const size_t d = deg(g, x);
  w->s[0] = x;
  for (size_t i = begin; i < end; i++) {
    const uint32_t v1 = n1[i];
    w->s[1] = v1;
    extend(w, n1, d, i + 1, v1, &w->ext2); /* before v1 is marked: its own neighbours are not yet "adjacent to S" */
    w->common[3].len = 0;
    for (uint64_t e = g->offsets[v1]; e < g->offsets[v1 + 1]; e++)
      if (w->mark[g->adj[e]] & 1u) w->common[3].v[w->common[3].len++] = g->adj[e];
    mark_position(w, v1, 2u, 1);
    const size_t nx = d - i - 1;
    const ext *c3 = &w->common[3];
    for (size_t j = 0; j < w->ext2.len; j++) {
      const uint32_t v2 = w->ext2.v[j];
      w->s[2] = v2;
      /* a leaf of x past common[3]'s last, v1 without exclusive
       * neighbours: its ext3 is empty, and so are the next leaves' */
      if (j < nx && w->ext2.len == nx && deg(g, v2) == 1 && (!c3->len || c3->v[c3->len - 1] < v2)) {
        j = w->past_leaves[i + 1 + j] - (i + 1) - 1;
        continue;
      }
      extend_last(w, j, nx);
      if (!w->ext3.len) continue; /* a hub's pairs of leaves: no set to sum, its marks not worth making */
      mark_position(w, v2, 4u, 1);
      last_level(w);
      mark_position(w, v2, 4u, 0);
      w->lists2 = 0;
    }
    mark_position(w, v1, 2u, 0);
    tally_clear(&w->c1);
    tally_clear(&w->k01);
  }
}

#define NONE WM_O5_WHOLE
typedef wm_o5_task task;

/* x's sums over its sets in [t->begin, t->end) into w->e. */
static void task_sums(walk *w, const task *t) {
  const wm_graph *g = w->g;
  const uint32_t x = t->x;
  w->mark[x] = 0x80u;
  for (uint64_t e = g->offsets[x]; e < g->offsets[x + 1]; e++) w->mark[g->adj[e]] |= 1u;
  tally_walk(&w->cx, g, g->adj + g->offsets[x], deg(g, x), x);
  w->past_leaves[deg(g, x)] = (uint32_t)deg(g, x);
  for (uint64_t k = deg(g, x); k-- > 0;)
    w->past_leaves[k] = deg(g, g->adj[g->offsets[x] + k]) == 1 ? w->past_leaves[k + 1] : (uint32_t)k;
  memset(w->e, 0, sizeof w->e);
  w->of = 0;
  sets_of(w, x, t->begin, t->end);
  tally_clear(&w->cx);
  for (uint64_t e = g->offsets[x]; e < g->offsets[x + 1]; e++) w->mark[g->adj[e]] = 0;
  w->mark[x] = 0;
}

static int vertex_row(const wm_graph *g, const wm_o5_equations *q, uint32_t x, const wm_i128 *e, int of,
                      const wm_orbit_run *run, uint64_t *row, wm_error *err) {
  if (of)
    return wm_fail(err, WM_EINPUT, "orbits: vertex %u: a sum of the 5-vertex formula passes 2^127",
                   wm_graph_file_id(g, x));
  wm_i128 I[ORBITS5];
  if (wm_o5_solve(g, q, x, e, I, err)) return err->code;
  for (unsigned o = 0; o < ORBITS5; o++)
    if (wm_orbit_store(g, x, o + FIRST5, I[o], run, &row[o + FIRST5], err)) return err->code;
  return WM_OK;
}

/* The triangles of every arc, from the GPU's pass when the sums are the
 * GPU's (its time added to run->kernel_ms). */
static int triangles(const wm_graph *g, const wm_orbit_run *run, uint32_t *tri, wm_error *err) {
  if (!run->gpu) return wm_orbit_triangles_cpu(g, tri, err);
  double ms = 0;
  wm_orbit_aggregates a = {tri, NULL, NULL, NULL};
  const int rc = wm_orbit_aggregates_gpu(g, 3, run->gpu_graph, &a, &ms, err);
  if (run->kernel_ms) *run->kernel_ms += ms;
  return rc;
}

/* The adjacency matrix as bits, or NULL where it would pass ADJACENCY_BYTES
 * (or memory): then rows are searched. */
#define ADJACENCY_BYTES ((uint64_t)256 << 20)
static uint64_t *adjacency_bits(const wm_graph *g) {
  const uint64_t words = ((uint64_t)g->n * g->n + 63) / 64;
  if (!g->n || words * 8 > ADJACENCY_BYTES) return NULL;
  uint64_t *bits = calloc(words, sizeof *bits);
  if (!bits) return NULL;
  for (uint32_t v = 0; v < g->n; v++)
    for (uint64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++) {
      const uint64_t bit = (uint64_t)v * g->n + g->adj[e];
      bits[bit >> 6] |= (uint64_t)1 << (bit & 63u);
    }
  return bits;
}

/* The vertices by degree, largest first (a counting sort), so that the
 * hubs' long rows start first. */
static int by_degree_desc(const wm_graph *g, uint32_t *order, wm_error *err) {
  const uint64_t maxdeg = wm_graph_max_degree(g);
  uint64_t *at = calloc(maxdeg + 2, sizeof *at);
  if (!at) return wm_fail(err, WM_EINPUT, "orbits: out of memory for the vertices' order");
  for (uint32_t v = 0; v < g->n; v++) at[maxdeg - deg(g, v) + 1]++;
  for (uint64_t d = 1; d <= maxdeg + 1; d++) at[d] += at[d - 1];
  for (uint32_t v = 0; v < g->n; v++) order[at[maxdeg - deg(g, v)]++] = v;
  free(at);
  return WM_OK;
}

static int tally_alloc(tally *t, size_t n) {
  t->c = calloc(n, sizeof *t->c), t->touched = malloc(n * sizeof *t->touched);
  return t->c && t->touched;
}

static int walk_alloc(walk *w, size_t n, uint64_t maxdeg) {
  int ok = (w->mark = calloc(n, 1)) != NULL;
  ok &= tally_alloc(&w->cx, n) & tally_alloc(&w->c1, n) & tally_alloc(&w->k01, n);
  for (unsigned t = 3; t <= 7; t++)
    if (__builtin_popcount(t) >= 2) ok &= (w->common[t].v = malloc((maxdeg + 1) * sizeof(uint32_t))) != NULL;
  ok &= (w->ext2.v = malloc((2 * maxdeg + 1) * sizeof(uint32_t))) != NULL;
  ok &= (w->ext3.v = malloc((3 * maxdeg + 1) * sizeof(uint32_t))) != NULL;
  ok &= (w->past_leaves = malloc((maxdeg + 1) * sizeof(uint32_t))) != NULL;
  return ok;
}

static void walk_free(walk *w) {
  free(w->mark);
  tally *all[] = {&w->cx, &w->c1, &w->k01};
  for (unsigned i = 0; i < 3; i++) free(all[i]->c), free(all[i]->touched);
  for (unsigned t = 3; t <= 7; t++) free(w->common[t].v);
  free(w->ext2.v), free(w->ext3.v), free(w->past_leaves);
}

/* What the sets of x with v1 = N(x)[i] cost, about: the extension set of
 * v2 is x's later neighbours and v1's own, and each v2 extends it again. */
static double v1_weight(const wm_graph *g, uint32_t x, uint32_t i) {
  const double ext2 = (double)(deg(g, x) - i) + (double)deg(g, g->adj[g->offsets[x] + i]);
  return 1.0 + ext2 * ext2 / 2;
}

/* The tasks, heaviest vertices first (order): a vertex whose sets weigh
 * more than a share of the whole (weight: v1_weight summed over its v1;
 * the share: the whole cut into `pieces`) is cut into tasks of about that
 * share by ranges of v1, so that a hub's sets spread over the threads; the
 * others are one task each.
 * *parts: the hubs' tasks. */
static task *plan_tasks(const wm_graph *g, const uint32_t *order, uint64_t pieces, uint32_t *ntasks, uint32_t *parts) {
  double total = 0;
  for (uint32_t v = 0; v < g->n; v++)
    for (uint32_t i = 0; i < deg(g, v); i++) total += v1_weight(g, v, i);
  const double share = total / (double)pieces;
  const uint64_t cap = (uint64_t)g->n + pieces + 2;
  task *t = malloc(cap * sizeof *t);
  if (!t) return NULL;
  uint32_t n = 0, p = 0;
  for (uint32_t k = 0; k < g->n; k++) {
    const uint32_t x = order[k], d = (uint32_t)deg(g, x);
    double weight = 0;
    for (uint32_t i = 0; i < d; i++) weight += v1_weight(g, x, i);
    if (weight <= share) {
      t[n++] = (task){x, 0, d, NONE};
      continue;
    }
    double acc = 0;
    uint32_t begin = 0;
    for (uint32_t j = 0; j < d; j++) {
      acc += v1_weight(g, x, j);
      if (acc >= share || j + 1 == d) t[n++] = (task){x, begin, j + 1, p++}, begin = j + 1, acc = 0;
    }
  }
  *ntasks = n, *parts = p;
  return t;
}

/* The rows of the vertices whose sums were kept per part (part_sums,
 * part_of): a vertex's parts are consecutive tasks, summed, then solved. */
static void solve_parts(const wm_graph *g, const wm_o5_equations *q, const task *tasks, uint32_t ntasks,
                        const wm_i128 *part_sums, const int *part_of, const wm_orbit_run *run, uint64_t *counts,
                        wm_orbit_first_error *first) {
  const unsigned orbits = wm_orbit_count(5);
#pragma omp parallel for schedule(dynamic, 256)
  for (int64_t i = 0; i < (int64_t)ntasks; i++) {
    const task *t = &tasks[i];
    if (t->part == NONE || t->begin != 0) continue;
    wm_i128 e[ORBITS5] = {0};
    int of = 0;
    for (int64_t j = i; j < (int64_t)ntasks && tasks[j].x == t->x; j++)
      for (unsigned r = 0; r < ORBITS5; r++) {
        e[r] = wm_add_chk(e[r], part_sums[(size_t)tasks[j].part * ORBITS5 + r], &of);
        of |= part_of[tasks[j].part];
      }
    wm_error er;
    if (vertex_row(g, q, t->x, e, of, run, counts + (size_t)t->x * orbits, &er)) wm_orbit_keep_first(first, t->x, &er);
  }
}

static int rows5_cpu(const wm_graph *g, const wm_o5_equations *q, const uint32_t *tri, const uint64_t *adjacency,
                     const uint32_t *order, const wm_orbit_run *run, uint64_t *counts, wm_error *err) {
  const uint64_t maxdeg = wm_graph_max_degree(g);
  const unsigned orbits = wm_orbit_count(5);
  uint32_t ntasks = 0, nparts = 0;
  task *tasks = plan_tasks(g, order, 64u * (unsigned)omp_get_max_threads(), &ntasks, &nparts);
  wm_i128 *part_sums = tasks ? malloc(((size_t)nparts + 1) * ORBITS5 * sizeof *part_sums) : NULL;
  int *part_of = part_sums ? calloc((size_t)nparts + 1, sizeof *part_of) : NULL;
  if (!part_of) {
    free(tasks), free(part_sums);
    return wm_fail(err, WM_EINPUT, "orbits: out of memory for the 5-vertex formula's tasks");
  }
  wm_orbit_first_error first = {-1, {0, ""}};
  int oom = 0;
  wm_progress progress;
  wm_progress_init(&progress, "5-vertex orbits", ntasks, 1);
#pragma omp parallel
  {
    const size_t n = g->n ? g->n : 1;
    walk w;
    memset(&w, 0, sizeof w);
    w.g = g, w.q = q, w.tri = tri, w.adjacency = adjacency;
    const int ok = walk_alloc(&w, n, maxdeg);
    if (!ok) __atomic_store_n(&oom, 1, __ATOMIC_RELAXED);
#pragma omp for schedule(dynamic, 1)
    for (int64_t i = 0; i < (int64_t)ntasks; i++) {
      const task *t = &tasks[i];
      wm_error e;
      if (!ok || wm_progress_stopped(&progress)) continue;
      task_sums(&w, t);
      wm_progress_add(&progress, 1);
      if (t->part != NONE) {
        memcpy(part_sums + (size_t)t->part * ORBITS5, w.e, sizeof w.e);
        part_of[t->part] = w.of;
      } else if (vertex_row(g, q, t->x, w.e, w.of, run, counts + (size_t)t->x * orbits, &e)) {
        wm_orbit_keep_first(&first, t->x, &e);
      }
    }
    walk_free(&w);
  }
  wm_progress_finish(&progress);
  const int stopped = wm_progress_stopped(&progress);
  if (!oom && !stopped) solve_parts(g, q, tasks, ntasks, part_sums, part_of, run, counts, &first);
  free(tasks), free(part_sums), free(part_of);
  if (stopped) return wm_interrupted(err, "orbits");
  if (oom) return wm_fail(err, WM_EINPUT, "orbits: out of memory for the 5-vertex formula's scratch arrays");
  if (first.vertex >= 0) *err = first.err;
  return first.vertex >= 0 ? err->code : WM_OK;
}

/* The tasks every process plans alike (a fixed number of pieces, not its
 * threads), each task its own part: every task's sums are kept. */
#define SHARED_PIECES ((uint64_t)1 << 15)
typedef struct task_sums_all {
  task *tasks;
  uint32_t ntasks;
  wm_i128 *sums; /* ntasks x ORBITS5 */
  int *of;       /* ntasks, then the process's flags, added with them */
} task_sums_all;
/* of[ntasks + ...]: this process was interrupted, ran out of memory */
enum { FLAG_INTERRUPTED, FLAG_OOM, SUM_FLAGS };

static int plan_all(const wm_graph *g, const uint32_t *order, task_sums_all *a, wm_error *err) {
  uint32_t nparts = 0;
  a->tasks = plan_tasks(g, order, SHARED_PIECES, &a->ntasks, &nparts);
  a->sums = a->tasks ? calloc(((size_t)a->ntasks + 1) * ORBITS5, sizeof *a->sums) : NULL;
  a->of = a->sums ? calloc((size_t)a->ntasks + SUM_FLAGS, sizeof *a->of) : NULL;
  if (!a->of) return wm_fail(err, WM_EINPUT, "orbits: out of memory for the 5-vertex formula's tasks");
  for (uint32_t i = 0; i < a->ntasks; i++) a->tasks[i].part = i;
  return WM_OK;
}

static void free_all(task_sums_all *a) { free(a->tasks), free(a->sums), free(a->of); }

/* The CPU's threads (of every process sharing s) take the tasks one at a
 * time from the shared counter.  This process's flags go to a->of: a
 * thread without its scratch arrays, or an interrupt (already there when
 * a process interrupted before joins), halts the counter for every
 * process, and the sums then end every process's call alike. */
static void shared_cpu_sums(const wm_graph *g, const wm_o5_equations *q, const uint32_t *tri, const uint64_t *adjacency,
                            const wm_share *s, task_sums_all *a) {
  const uint64_t maxdeg = wm_graph_max_degree(g);
  const unsigned id = s->loops(s->ctx, 1);
  int oom = 0;
  wm_progress progress;
  wm_progress_init(&progress, "5-vertex orbits", a->ntasks, 1);
#pragma omp parallel
  {
    walk w;
    memset(&w, 0, sizeof w);
    w.g = g, w.q = q, w.tri = tri, w.adjacency = adjacency;
    if (!walk_alloc(&w, g->n ? g->n : 1, maxdeg)) __atomic_store_n(&oom, 1, __ATOMIC_RELAXED);
    for (uint64_t i; !__atomic_load_n(&oom, __ATOMIC_RELAXED) && !wm_progress_stopped(&progress) &&
                     (i = s->grab(s->ctx, id, 1)) < a->ntasks;) {
      task_sums(&w, &a->tasks[i]);
      memcpy(a->sums + i * ORBITS5, w.e, sizeof w.e);
      a->of[i] = w.of;
      wm_progress_add(&progress, 1);
    }
    if (__atomic_load_n(&oom, __ATOMIC_RELAXED) || wm_progress_stopped(&progress)) wm_share_halt(s, id, 1);
    walk_free(&w);
  }
  wm_progress_finish(&progress);
  a->of[a->ntasks + FLAG_INTERRUPTED] = wm_progress_stopped(&progress);
  a->of[a->ntasks + FLAG_OOM] = oom;
}

/* Every process's sums added up: a task's are one process's, zeros on the
 * others.  Called by every process whatever its own work gave, so that
 * none waits for it in vain; the flags first, so that where any process
 * was interrupted or short of memory every one returns so without adding
 * the sums.  MPI errors are WM_EINPUT. */
static int add_processes(const wm_share *s, task_sums_all *a, wm_error *err) {
  const uint64_t cells = (uint64_t)a->ntasks * ORBITS5;
  if (cells > UINT32_MAX)
    return wm_fail(err, WM_EUSAGE, "orbits: %u tasks are too many to add up across processes", a->ntasks);
  const int here = a->of[a->ntasks + FLAG_INTERRUPTED], short_here = a->of[a->ntasks + FLAG_OOM];
  int overflow = 0;
  if (s->sum_u32(s->ctx, (uint32_t *)a->of, (uint64_t)a->ntasks + SUM_FLAGS))
    return wm_fail(err, WM_EINPUT, "orbits: MPI: adding the processes' 5-vertex sums failed");
  if (a->of[a->ntasks + FLAG_INTERRUPTED]) return wm_share_interrupted(err, "orbits", here);
  if (a->of[a->ntasks + FLAG_OOM])
    return wm_fail(err, WM_EINPUT, "orbits: out of memory for the 5-vertex formula's scratch arrays (%s)",
                   short_here ? "here" : "on another process sharing the work");
  if (s->sum_i128(s->ctx, a->sums, (unsigned)cells, &overflow))
    return wm_fail(err, WM_EINPUT, "orbits: MPI: adding the processes' 5-vertex sums failed");
  if (overflow) return wm_fail(err, WM_EINPUT, "orbits: a 5-vertex sum passes 2^127 across the processes");
  return WM_OK;
}

/* Every task's sums kept apart (on the GPU, or with other processes), then
 * added across the processes and solved. */
static int rows5_all(const wm_graph *g, const wm_o5_equations *q, const uint32_t *tri, const uint64_t *adjacency,
                     const uint32_t *order, const wm_orbit_run *run, uint64_t *counts, wm_error *err) {
  if (run->gpu && run->share && run->share->processes > 1) /* each would count every task */
    return wm_fail(err, WM_EUSAGE, "orbits: the 5-vertex sums on the GPU are not shared by processes");
  task_sums_all a = {0};
  int rc = plan_all(g, order, &a, err);
  if (!rc && run->gpu)
    rc = wm_o5_sums_gpu(g, q, tri, adjacency, a.tasks, a.ntasks, run->gpus, run->gpu_graph, a.sums, a.of,
                        run->kernel_ms, err);
  else if (!rc) shared_cpu_sums(g, q, tri, adjacency, run->share, &a); /* its flags: in add_processes */
  if (rc && a.of) memset(a.sums, 0, (size_t)a.ntasks * ORBITS5 * sizeof *a.sums);
  if (run->share && a.of) {
    wm_error e;
    const int added = add_processes(run->share, &a, &e);
    if (!rc && added) *err = e, rc = added;
  }
  if (!rc) {
    wm_orbit_first_error first = {-1, {0, ""}};
    solve_parts(g, q, a.tasks, a.ntasks, a.sums, a.of, run, counts, &first);
    if (first.vertex >= 0) *err = first.err, rc = err->code;
  }
  free_all(&a);
  return rc;
}

/* The orbits up to 4 vertices by the 4-vertex formula (on the device
 * run->gpu names), into the rows of 73. */
static int smaller_orbits(const wm_graph *g, const wm_orbit_run *run, uint64_t *counts, wm_error *err) {
  wm_orbit_run r4 = *run;
  r4.k = 4;
  return wm_orbit_rows4(g, &r4, wm_orbit_count(5), counts, err);
}

/* The non-induced counts (orbit_noninduced5.c) serve every run, MPI ranks
 * sharing them on the CPU included.  They beat the walk's sums on one or
 * two H200s on every graph measured (BENCHMARKS.md), so the walk serves
 * only where WM_ORBIT5_WALK=1 (for the benchmarks' A/B) asks for it. */
static int noninduced_serves(void) {
  const char *v = getenv("WM_ORBIT5_WALK");
  if (v && *v == '1') return 0;
  for (unsigned o = FIRST5; o < WM_ORBIT_MAX; o++)
    if (!wm_o5n_has(o)) return 0;
  return 1;
}

int wm_orbits_formula5(const wm_graph *g, const wm_orbit_run *run, uint64_t *counts, wm_error *err) {
  if (noninduced_serves()) return wm_o5n_orbits(g, run, counts, err);
  const wm_orbit_tables *t = wm_orbit_tables_get(err);
  if (!t) return err->code;
  wm_o5_equations *q = calloc(1, sizeof *q);
  uint32_t *tri = malloc((g->m ? g->m : 1) * sizeof *tri), *order = malloc(((size_t)g->n + 1) * sizeof *order);
  int rc = q && tri && order ? WM_OK : wm_fail(err, WM_EINPUT, "orbits: out of memory for the 5-vertex formula");
  if (!rc) rc = wm_o5_derive(t, q, err);
  if (!rc) rc = smaller_orbits(g, run, counts, err);
  if (!rc) rc = triangles(g, run, tri, err);
  /* interrupted so far, a process sharing the 5-vertex sums still takes
   * its part in their exchanges (doing none of the work), where every
   * process learns of it and returns so; leaving here would leave the
   * others waiting there */
  const int join = rc == WM_EINTERRUPTED && run->share && !run->gpu;
  if (!rc || join) {
    int r5 = by_degree_desc(g, order, err);
    uint64_t *adjacency = r5 || join ? NULL : adjacency_bits(g);
    if (!r5) r5 = (run->gpu || run->share ? rows5_all : rows5_cpu)(g, q, tri, adjacency, order, run, counts, err);
    if (!join || r5) rc = r5;
    free(adjacency);
  }
  free(q), free(tri), free(order);
  return rc;
}
