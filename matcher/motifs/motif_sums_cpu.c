/* The motif formulas' aggregates on the CPU (OpenMP).  Four passes, each
 * orienting every edge from its higher id to its lower one:
 *   1. triangles per edge, each triangle found once on the oriented graph
 *      and counted on its three edges, then copied to both arcs of an edge;
 *   2. the vertex and edge sums, from degrees and those edge counts;
 *   3. 4-cycles from their lowest id u (Chiba-Nishizeki): paths u-v-w with
 *      v, w > u tallied per w, C(tally, 2) cycles per (u, w); for size 5
 *      also the lists S_uw of those paths' middles, with the sums over
 *      them (K2,3, W4, W4 less a spoke) and the 5-cycles;
 *   4. (size 5) each triangle's common neighbours, its 4-cliques, and the
 *      5-cliques on each edge; (size 4, unless skipped) the 4-cliques on
 *      each edge.
 * Each thread sums into its own 128-bit accumulators; every step is
 * checked for overflow. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "motif_sums.h"

typedef struct acc {
  wm_i128 s[WM_SUM_COUNT];
  int overflow;
} acc;

static inline void add(acc *a, int which, wm_i128 x) { a->s[which] = wm_add_chk(a->s[which], x, &a->overflow); }
static inline wm_i128 mul(acc *a, wm_i128 x, wm_i128 y) { return wm_mul_chk(x, y, &a->overflow); }

static inline uint64_t deg(const wm_graph *g, uint32_t v) { return g->offsets[v + 1] - g->offsets[v]; }

/* The passes' vertex loops hand out chunks of vertices from one counter
 * per loop, the dynamic schedule of OpenMP; with a wm_share the counters
 * of the shared loops are common to every process, which then each sum
 * the tops they took (the sums are sums over tops). */
enum { LOOP_TRIANGLES, LOOP_COPY, LOOP_SUMS, LOOP_CYCLES, LOOP_CLIQUES, LOOPS };

typedef struct loops {
  const wm_share *share;
  unsigned id[LOOPS];   /* the shared counters */
  uint64_t next[LOOPS]; /* this process's own counters */
  const wm_progress *progress; /* its stop flag ends every loop */
} loops;

static inline uint64_t claim(loops *L, int which, uint64_t chunk) {
  if (wm_progress_stopped(L->progress)) {
    if (L->share) wm_share_halt(L->share, L->id[0], LOOPS); /* the others' passes end too */
    return UINT64_MAX;
  }
  if (L->share && which != LOOP_COPY) return L->share->grab(L->share->ctx, L->id[which], chunk);
  return __atomic_fetch_add(&L->next[which], chunk, __ATOMIC_RELAXED);
}

/* for (vv over the claimed chunks of loop `which`), each chunk [lo, lo + chunk);
 * an interrupt ends it at the next vertex (a hub's can take a while) */
#define FOR_CLAIMED(L, which, chunk, n, vv)                                   \
  for (uint64_t lo_; (lo_ = claim(L, which, chunk)) < (uint64_t)(n);)         \
    for (uint64_t vv = lo_, hi_ = lo_ + (chunk) < (uint64_t)(n) ? lo_ + (chunk) : (uint64_t)(n); \
         vv < hi_ && !wm_progress_stopped(L->progress); vv++)

/* Pass 1: t[arc] = triangles on the arc's edge, on both arcs.  With a
 * share each process counts its tops' triangles, the counts are added
 * over the processes, and every process copies them to the other arcs.
 * For size 5 also the 5-cycles' triangle term (five_cycles_from): each
 * triangle T is on |N(p) below min T| paths u-p-r for each p in T, which
 * for w = min T < u < v is w's neighbours below it, and w's indices in
 * u's and v's rows (their neighbours below w); one pass over the
 * triangles instead of one over the rows below every path's middle. */
static void edge_triangles(const wm_graph *g, unsigned k, uint32_t *t, uint32_t *ia, uint32_t *ib, acc *a, loops *L,
                           int *failed, wm_progress *p) {
  const int64_t n = g->n;
  FOR_CLAIMED(L, LOOP_TRIANGLES, 64, n, vv) {
    uint32_t v = (uint32_t)vv;
    wm_progress_add(p, deg(g, v) + 1);
    const uint32_t *rv = g->adj + g->offsets[v];
    uint64_t nv = wm_sorted_lower_bound(rv, deg(g, v), v);
    for (uint64_t i = 0; i < nv; i++) {
      uint32_t u = rv[i];
      uint64_t found = wm_graph_triangles_below(g, v, i, u, ia, ib);
      wm_i128 on_paths = 0;
      for (uint64_t x = 0; x < found; x++) {
        __atomic_fetch_add(&t[g->offsets[v] + ia[x]], 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&t[g->offsets[u] + ib[x]], 1, __ATOMIC_RELAXED);
        if (k >= 5) {
          const uint32_t w = rv[ia[x]];
          on_paths += (wm_i128)wm_sorted_lower_bound(g->adj + g->offsets[w], deg(g, w), w) + ia[x] + ib[x];
        }
      }
      if (found) __atomic_fetch_add(&t[g->offsets[v] + i], (uint32_t)found, __ATOMIC_RELAXED);
      if (on_paths) add(a, WM_SUM_C5, -on_paths);
    }
  }
#pragma omp barrier
  if (L->share) {
#pragma omp master
    if (L->share->sum_u32(L->share->ctx, t, g->m)) *failed = 1;
#pragma omp barrier
  }
  /* every triangle was counted on arcs v->u with u < v; copy to u->v */
  FOR_CLAIMED(L, LOOP_COPY, 64, n, vv) {
    uint32_t v = (uint32_t)vv;
    wm_progress_add(p, deg(g, v) + 1);
    const uint32_t *rv = g->adj + g->offsets[v];
    uint64_t nv = wm_sorted_lower_bound(rv, deg(g, v), v);
    for (uint64_t i = 0; i < nv; i++) {
      uint32_t u = rv[i];
      uint64_t j = wm_sorted_lower_bound(g->adj + g->offsets[u], deg(g, u), v);
      t[g->offsets[u] + j] = t[g->offsets[v] + i];
    }
  }
#pragma omp barrier
}

/* Pass 2: the vertex sums, and the edge sums over each edge's arc v->u. */
static void vertex_and_edge_sums(const wm_graph *g, const uint32_t *t, acc *a, loops *L, wm_progress *p) {
  const int64_t n = g->n;
  FOR_CLAIMED(L, LOOP_SUMS, 256, n, vv) {
    uint32_t v = (uint32_t)vv;
    wm_progress_add(p, deg(g, v) + 1);
    const wm_i128 d = (wm_i128)deg(g, v);
    const uint32_t *rv = g->adj + g->offsets[v];
    const uint32_t *tv = t ? t + g->offsets[v] : NULL;
    wm_i128 s = 0, t2 = 0, dsum = 0;
    for (uint64_t i = 0; i < (uint64_t)d; i++) {
      uint32_t u = rv[i];
      wm_i128 du = (wm_i128)deg(g, u);
      s += du - 1;
      if (!tv) continue;
      wm_i128 te = tv[i];
      t2 += te;
      dsum += wm_choose(te, 2);
      if (u > v) continue; /* each edge once */
      add(a, WM_SUM_T3, te);
      add(a, WM_SUM_P4, mul(a, d - 1, du - 1));
      add(a, WM_SUM_DIAMOND, wm_choose(te, 2));
      add(a, WM_SUM_TD, te * (d + du - 2));
      add(a, WM_SUM_BULL, mul(a, te, mul(a, d - 2, du - 2) - te + 1));
      add(a, WM_SUM_BOOK, wm_choose(te, 3));
    }
    const wm_i128 tri = t2 / 2;
    add(a, WM_SUM_D2, wm_choose(d, 2));
    add(a, WM_SUM_D3, wm_choose(d, 3));
    add(a, WM_SUM_D4, wm_choose(d, 4));
    add(a, WM_SUM_PAW, tri * (d - 2));
    add(a, WM_SUM_FORK, mul(a, wm_choose(d - 1, 2), s));
    add(a, WM_SUM_S2, mul(a, s, s));
    add(a, WM_SUM_DDD, mul(a, d, (d - 1) * (d - 1)));
    add(a, WM_SUM_CRICKET, mul(a, tri, wm_choose(d - 2, 2)));
    add(a, WM_SUM_LTT, mul(a, tri, s - 2 * d + 2));
    add(a, WM_SUM_BOWTIE, wm_choose(tri, 2));
    add(a, WM_SUM_DART, mul(a, d - 3, dsum));
  }
#pragma omp barrier
}

/* Per-thread scratch of pass 3, n entries each unless noted. */
typedef struct scratch {
  uint32_t *cnt;     /* paths u-v-w per w (v, w > u) */
  uint32_t *touched; /* the w with cnt[w] > 0 */
  uint32_t *middle;  /* u + 1 for u's neighbours v > u (ranked below u) */
  uint32_t *up_of;   /* u + 1 for u's neighbours x < u (ranked above u) */
  uint64_t *pos;     /* end of w's list in buf after the fill */
  uint64_t *in_s;    /* stamp of the list (or row) a vertex is in */
  uint64_t *w_mark;  /* stamp: x is a neighbour of the list's w */
  uint32_t *tally;   /* per x above u: members of the list adjacent to x */
  uint32_t *xs;      /* the x with tally[x] > 0 */
  uint32_t *deg_s;   /* per member: neighbours inside the list */
  uint32_t *buf;     /* the lists S_uw, back to back */
  uint64_t cap, stamp;
} scratch;

static void scratch_free(scratch *x) {
  free(x->cnt), free(x->touched), free(x->middle), free(x->up_of), free(x->pos), free(x->in_s), free(x->w_mark);
  free(x->tally), free(x->xs), free(x->deg_s), free(x->buf);
}

static int scratch_alloc(scratch *x, uint32_t n) {
  const size_t room = n ? n : 1;
  memset(x, 0, sizeof *x);
  x->cnt = calloc(room, sizeof *x->cnt);
  x->touched = malloc(room * sizeof *x->touched);
  x->middle = calloc(room, sizeof *x->middle);
  x->pos = malloc(room * sizeof *x->pos);
  x->in_s = calloc(room, sizeof *x->in_s);
  x->up_of = calloc(room, sizeof *x->up_of);
  x->w_mark = calloc(room, sizeof *x->w_mark);
  x->tally = calloc(room, sizeof *x->tally);
  x->xs = malloc(room * sizeof *x->xs);
  x->deg_s = calloc(room, sizeof *x->deg_s);
  return x->cnt && x->touched && x->middle && x->up_of && x->pos && x->in_s && x->w_mark && x->tally && x->xs &&
         x->deg_s;
}

/* The 5-vertex classes built on the list S = S_uw of the common neighbours
 * of u and w ranked below u (ids above u), |S| = c >= 2, w > u.  Every copy
 * is counted once, from its top (lowest id) vertex and the top of the rest:
 *   K2,3 {a,b | x,y,z}:  top a: C(c,3); top x, then a: C(c,2) up; top x,
 *     then y: sum over x above u of C(k_x, 2);
 *   W4 (hub h, rim r-x-r'-y): top h: the same over x adjacent to u and w;
 *     top r: sum over h in S of C(deg inside S, 2);
 *   W4 less a spoke (K2,3 {a,b | x,y,z} and the edge x-y): e(S) (c - 2),
 *     e(S) up, [u~w] sum C(k_x, 2), and over x above u: [x~u, x~w] k_x
 *     (c - 1), [x~u] C(k_x, 2), [x~w] C(k_x, 2);
 * with up = the common neighbours of u and w above u, k_x = |S & N(x)|,
 * e(S) the edges inside S. */
static void pair_list_sums(const wm_graph *g, uint32_t u, uint32_t w, const uint32_t *S, uint64_t c, scratch *x,
                           acc *a) {
  const uint32_t *rw = g->adj + g->offsets[w];
  const uint64_t up_w = wm_sorted_lower_bound(rw, deg(g, w), u);
  const uint64_t stamp = ++x->stamp;
  wm_i128 up = 0; /* common neighbours of u and w above u */
  for (uint64_t i = 0; i < up_w; i++) {
    x->w_mark[rw[i]] = stamp;
    up += x->up_of[rw[i]] == u + 1;
  }
  for (uint64_t i = 0; i < c; i++) x->in_s[S[i]] = stamp;
  uint64_t nx = 0;
  wm_i128 e = 0;
  for (uint64_t i = 0; i < c; i++) {
    const uint32_t s = S[i], *rs = g->adj + g->offsets[s];
    const uint64_t above_s = wm_sorted_lower_bound(rs, deg(g, s), s);
    for (uint64_t j = 0; j < above_s; j++) {
      const uint32_t y = rs[j];
      if (y < u) {
        if (x->tally[y]++ == 0) x->xs[nx++] = y;
      } else if (y > u && x->in_s[y] == stamp) {
        e++;
        x->deg_s[s]++;
        x->deg_s[y]++;
      }
    }
  }
  wm_i128 w4 = 0, k23 = 0, w4s = 0;
  for (uint64_t i = 0; i < c; i++) {
    w4 += wm_choose(x->deg_s[S[i]], 2);
    x->deg_s[S[i]] = 0;
  }
  const wm_i128 uw = x->middle[w] == u + 1, cc = (wm_i128)c;
  for (uint64_t i = 0; i < nx; i++) {
    const uint32_t y = x->xs[i];
    const wm_i128 k = x->tally[y], k2 = wm_choose(k, 2);
    x->tally[y] = 0;
    const wm_i128 A = x->up_of[y] == u + 1, B = x->w_mark[y] == stamp;
    k23 += k2;
    w4 += A * B * k2;
    w4s += uw * k2 + A * B * k * (cc - 1) + A * k2 + B * k2;
  }
  k23 += wm_choose(cc, 3) + wm_choose(cc, 2) * up;
  w4s += e * (cc - 2) + e * up;
  add(a, WM_SUM_K23, k23);
  add(a, WM_SUM_W4, w4);
  add(a, WM_SUM_W4S, w4s);
}

/* 5-cycles u-p-r-s-q with u the lowest id: for each edge r-s below u,
 * (p, q) with p in S_ur, q in S_us, p != q, less p = s and q = r:
 * (cnt[r] - [s~u]) (cnt[s] - [r~u]) - |S_ur & S_us|, the last summed as
 * the triangles p-r-s on paths u-p-r, by edge_triangles. */
static wm_i128 five_cycles_from(const wm_graph *g, uint32_t u, uint64_t nt, scratch *x) {
  wm_i128 c5 = 0;
  for (uint64_t t = 0; t < nt; t++) {
    const uint32_t r = x->touched[t], *rr = g->adj + g->offsets[r];
    const wm_i128 cr = x->cnt[r], mr = x->middle[r] == u + 1;
    for (uint64_t j = wm_sorted_lower_bound(rr, deg(g, r), u + 1); j < deg(g, r) && rr[j] < r; j++) {
      const uint32_t sv = rr[j];
      if (!x->cnt[sv]) continue;
      c5 += (cr - (x->middle[sv] == u + 1)) * ((wm_i128)x->cnt[sv] - mr);
    }
  }
  return c5;
}

/* Pass 3: 4-cycles u-v-w-v' with u the lowest id.  cnt[w] counts the paths
 * u-v-w (v, w > u); each path lies on cnt[w] - 1 cycles.  For size 5 the
 * paths are also listed per w (S_uw, the v in ascending order), for the
 * classes of pair_list_sums and the 5-cycles. */
static void four_cycles(const wm_graph *g, const uint32_t *t, unsigned k, scratch *x, acc *a, loops *L,
                        wm_progress *p) {
  const int64_t n = g->n;
  FOR_CLAIMED(L, LOOP_CYCLES, 16, n, uu) {
    uint32_t u = (uint32_t)uu;
    wm_progress_add(p, deg(g, u) + 1);
    const uint32_t *ru = g->adj + g->offsets[u];
    const uint64_t du = deg(g, u), first = wm_sorted_lower_bound(ru, du, u + 1);
    uint64_t nt = 0, paths_total = 0;
    for (uint64_t i = 0; i < first && k >= 5; i++) x->up_of[ru[i]] = u + 1;
    for (uint64_t i = first; i < du; i++) {
      uint32_t v = ru[i];
      const uint32_t *rv = g->adj + g->offsets[v];
      uint64_t dv = deg(g, v);
      x->middle[v] = u + 1;
      for (uint64_t j = wm_sorted_lower_bound(rv, dv, u + 1); j < dv; j++) {
        if (x->cnt[rv[j]]++ == 0) x->touched[nt++] = rv[j];
        paths_total++;
      }
    }
    if (!nt) continue;
    wm_i128 cycles = 0, banner = 0, house = 0;
    if (k < 5) { /* size 4 needs the 4-cycles alone */
      for (uint64_t y = 0; y < nt; y++) {
        cycles += wm_choose(x->cnt[x->touched[y]], 2);
        x->cnt[x->touched[y]] = 0;
      }
      add(a, WM_SUM_PATHS, (wm_i128)paths_total);
      add(a, WM_SUM_C4, cycles);
      continue;
    }
    uint64_t at = 0;
    for (uint64_t y = 0; y < nt; y++) {
      const uint32_t w = x->touched[y];
      wm_i128 c = wm_choose(x->cnt[w], 2);
      cycles += c;
      banner += c * ((wm_i128)deg(g, w) - 2);
      x->pos[w] = at;
      at += x->cnt[w];
    }
    banner += cycles * ((wm_i128)du - 2);
    if (paths_total > x->cap) {
      free(x->buf);
      x->cap = paths_total + paths_total / 2;
      x->buf = malloc(x->cap * sizeof *x->buf);
      if (!x->buf) {
        x->cap = 0;
        a->overflow = 2; /* out of memory: reported by the caller */
        continue;
      }
    }
    for (uint64_t i = first; i < du; i++) {
      uint32_t v = ru[i];
      const uint32_t *rv = g->adj + g->offsets[v];
      uint64_t dv = deg(g, v);
      wm_i128 tuv = t[g->offsets[u] + i], paths = 0, ht = 0;
      for (uint64_t j = wm_sorted_lower_bound(rv, dv, u + 1); j < dv; j++) {
        wm_i128 c = x->cnt[rv[j]] - 1;
        paths += c;
        ht += c * (tuv + t[g->offsets[v] + j]);
        x->buf[x->pos[rv[j]]++] = v;
      }
      banner += paths * ((wm_i128)dv - 2);
      house += ht;
    }
    add(a, WM_SUM_PATHS, (wm_i128)paths_total);
    add(a, WM_SUM_C4, cycles);
    add(a, WM_SUM_BANNER, banner);
    add(a, WM_SUM_HOUSE, house);
    {
      for (uint64_t y = 0; y < nt; y++) {
        const uint32_t w = x->touched[y];
        const uint64_t c = x->cnt[w];
        if (c >= 2) pair_list_sums(g, u, w, x->buf + x->pos[w] - c, c, x, a);
      }
      add(a, WM_SUM_C5, five_cycles_from(g, u, nt, x));
    }
    for (uint64_t y = 0; y < nt; y++) x->cnt[x->touched[y]] = 0;
  }
#pragma omp barrier
}

/* 5-cliques whose two highest ids are the edge uv: triangles among the
 * w < u with triangle w-u-v (rv[ia[0..found)]). */
static wm_i128 five_cliques_on(const wm_graph *g, const uint32_t *rv, const uint32_t *ia, uint64_t found, scratch *x) {
  if (found < 3) return 0;
  const uint64_t in_w = ++x->stamp;
  for (uint64_t q = 0; q < found; q++) x->in_s[rv[ia[q]]] = in_w;
  wm_i128 k5 = 0;
  for (uint64_t q = 0; q < found; q++) {
    const uint32_t w = rv[ia[q]], *rw = g->adj + g->offsets[w];
    const uint64_t above_w = wm_sorted_lower_bound(rw, deg(g, w), w), of_w = ++x->stamp;
    for (uint64_t j = 0; j < above_w; j++) x->w_mark[rw[j]] = of_w;
    for (uint64_t j = 0; j < above_w; j++) {
      const uint32_t y = rw[j], *ry = g->adj + g->offsets[y];
      if (x->in_s[y] != in_w) continue;
      for (uint64_t z = 0; z < deg(g, y) && ry[z] < y; z++)
        k5 += x->in_s[ry[z]] == in_w && x->w_mark[ry[z]] == of_w;
    }
  }
  return k5;
}

/* Pass 4: for each triangle w < u < v, k = its common neighbours: the
 * neighbours of w inside C = N(u) & N(v), listed once per edge uv, whose
 * inner degrees come from the members' rows above them (each edge inside
 * C found once, from its lower-ranked end). */
static void triangle_cliques(const wm_graph *g, const uint32_t *t, uint32_t *common, uint32_t *ia, uint32_t *ib,
                             scratch *x, acc *a, loops *L, wm_progress *p) {
  const int64_t n = g->n;
  FOR_CLAIMED(L, LOOP_CLIQUES, 16, n, vv) {
    uint32_t v = (uint32_t)vv;
    wm_progress_add(p, deg(g, v) + 1);
    const uint32_t *rv = g->adj + g->offsets[v];
    const uint64_t dv = deg(g, v), nv = wm_sorted_lower_bound(rv, dv, v);
    const uint32_t *tv = t + g->offsets[v];
    for (uint64_t i = 0; i < nv; i++) {
      uint32_t u = rv[i];
      if (!tv[i]) continue;
      const uint32_t *ru = g->adj + g->offsets[u];
      const uint64_t du = deg(g, u);
      const uint64_t found = wm_graph_triangles_below(g, v, i, u, ia, ib);
      if (!found) continue;
      /* C = N(u) & N(v), scanning the shorter row against the longer */
      const uint32_t *sr = dv <= du ? rv : ru, *lr = dv <= du ? ru : rv;
      const uint64_t sl = dv <= du ? dv : du, ll = dv <= du ? du : dv, stamp = ++x->stamp;
      uint64_t nc = 0;
      for (uint64_t z = 0; z < sl; z++)
        if (wm_sorted_contains(lr, ll, sr[z])) x->in_s[sr[z]] = stamp, common[nc++] = sr[z];
      for (uint64_t z = 0; z < nc; z++) {
        const uint32_t y = common[z], *ry = g->adj + g->offsets[y];
        for (uint64_t j = 0; j < deg(g, y) && ry[j] < y; j++)
          if (x->in_s[ry[j]] == stamp) x->deg_s[y]++, x->deg_s[ry[j]]++;
      }
      for (uint64_t q = 0; q < found; q++) {
        const uint32_t w = rv[ia[q]];
        const wm_i128 k = x->deg_s[w];
        const wm_i128 tuv = tv[i], tvw = tv[ia[q]], tuw = t[g->offsets[u] + ib[q]];
        const wm_i128 d_w = (wm_i128)deg(g, w), d_u = (wm_i128)du, d_v = (wm_i128)dv;
        add(a, WM_SUM_K4X4, k);
        add(a, WM_SUM_K5E, wm_choose(k, 2));
        add(a, WM_SUM_KITE, (d_w - 2) * (tuv - 1) + (d_u - 2) * (tvw - 1) + (d_v - 2) * (tuw - 1));
        add(a, WM_SUM_GEM, (tuw - 1) * (tvw - 1) + (tuw - 1) * (tuv - 1) + (tuv - 1) * (tvw - 1));
        add(a, WM_SUM_T4C, k * (d_w + d_u + d_v - 9));
        add(a, WM_SUM_HOUSEX, k * (tuv + tvw + tuw - 6));
      }
      for (uint64_t z = 0; z < nc; z++) x->deg_s[common[z]] = 0;
      add(a, WM_SUM_K5, five_cliques_on(g, rv, ia, found, x));
    }
  }
#pragma omp barrier
}

/* Size 4's 4-cliques: for each arc v->u (u < v) with two or more
 * triangles on it, the common neighbours C of u and v ranked above u; each
 * edge inside C, found from its lower-ranked end, closes a 4-clique
 * counted once.  K4X4 gets 4 per 4-clique, as pass 4 gives it (and as the
 * GPU counts them). */
static void edge_cliques(const wm_graph *g, const uint32_t *t, uint32_t *common, uint32_t *ia, uint32_t *ib,
                         scratch *x, acc *a, loops *L, wm_progress *p) {
  const int64_t n = g->n;
  FOR_CLAIMED(L, LOOP_CLIQUES, 16, n, vv) {
    uint32_t v = (uint32_t)vv;
    wm_progress_add(p, deg(g, v) + 1);
    const uint32_t *rv = g->adj + g->offsets[v];
    const uint64_t nv = wm_sorted_lower_bound(rv, deg(g, v), v);
    const uint32_t *tv = t + g->offsets[v];
    for (uint64_t i = 0; i < nv; i++) {
      if (tv[i] < 2) continue;
      const uint64_t nc = wm_graph_triangles_below(g, v, i, rv[i], ia, ib), stamp = ++x->stamp;
      for (uint64_t z = 0; z < nc; z++) common[z] = rv[ia[z]], x->in_s[common[z]] = stamp;
      uint64_t k4 = 0;
      for (uint64_t z = 0; nc >= 2 && z < nc; z++) {
        const uint32_t y = common[z], *ry = g->adj + g->offsets[y];
        for (uint64_t j = 0; j < deg(g, y) && ry[j] < y; j++) k4 += x->in_s[ry[j]] == stamp;
      }
      add(a, WM_SUM_K4X4, mul(a, 4, (wm_i128)k4));
    }
  }
#pragma omp barrier
}

static void merge(acc *into, const acc *a) {
  for (int i = 0; i < WM_SUM_COUNT; i++) into->s[i] = wm_add_chk(into->s[i], a->s[i], &into->overflow);
  if (a->overflow > into->overflow) into->overflow = a->overflow;
}

int wm_motif_sums_cpu(const wm_graph *g, unsigned k, int threads, int skip_k4, wm_motif_sums *out, wm_error *err) {
  return wm_motif_sums_cpu_shared(g, k, threads, skip_k4, NULL, out, err);
}

int wm_motif_sums_cpu_shared(const wm_graph *g, unsigned k, int threads, int skip_k4, const wm_share *share,
                             wm_motif_sums *out, wm_error *err) {
  memset(out, 0, sizeof *out);
  out->k = k;
  out->k4_counted = k >= 5 || (k == 4 && !skip_k4);
  const double started = wm_now();
  if (k < 3 || k > 5) return wm_fail(err, WM_EUSAGE, "motif sums: size must be 3, 4 or 5 (got %u)", k);
  if (g->flags & WM_GRAPH_DIRECTED) return wm_fail(err, WM_EINPUT, "motif sums: the graph must be undirected");
  const int nth = threads > 0 ? threads : omp_get_max_threads();
  uint32_t *t = k >= 4 ? calloc(g->m ? g->m : 1, sizeof *t) : NULL;
  acc *accs = calloc((size_t)nth, sizeof *accs);
  int oom = !accs || (k >= 4 && !t), failed = 0;
  loops L;
  memset(&L, 0, sizeof L);
  L.share = share;
  const unsigned first_loop = share ? share->loops(share->ctx, LOOPS) : 0;
  for (int i = 0; share && i < LOOPS; i++) L.id[i] = first_loop + (unsigned)i;
  /* Each pass is a loop over the vertices, weighed by degree. */
  const unsigned loops = 1 + (k >= 4 ? 3 : 0) + (k >= 5 || (k == 4 && !skip_k4));
  wm_progress progress;
  wm_progress_init(&progress, "motif sums", loops * ((uint64_t)g->m + g->n), 1);
  L.progress = &progress;
  /* With a share every process enters the region, so that the processes
   * agree on running the passes (the first pass adds its counts over them). */
#pragma omp parallel num_threads(nth) if (!oom || share)
  {
    acc *a = accs ? &accs[omp_get_thread_num()] : NULL;
    uint32_t *common = NULL, *ia = NULL, *ib = NULL;
    scratch x;
    memset(&x, 0, sizeof x);
    if (k >= 4 && !oom) {
      const size_t room = g->n ? g->n : 1;
      common = malloc(room * sizeof *common);
      ia = malloc(room * sizeof *ia);
      ib = malloc(room * sizeof *ib);
      if (!scratch_alloc(&x, g->n) || !common || !ia || !ib) {
#pragma omp atomic write
        oom = 1;
      }
    }
#pragma omp barrier
    if (share) {
#pragma omp master
      {
        uint64_t any = (uint64_t)oom;
        if (share->sum_u64(share->ctx, &any, 1)) failed = 1;
        oom = any != 0;
      }
#pragma omp barrier
    }
    if (!oom && !failed) {
      double t0 = wm_now(), t1, t2, t3, t4; /* each pass ends with its loop's barrier */
      if (k >= 4) edge_triangles(g, k, t, ia, ib, a, &L, &failed, &progress);
      t1 = wm_now();
      if (!failed) vertex_and_edge_sums(g, t, a, &L, &progress);
      t2 = wm_now();
      if (k >= 4 && !failed) four_cycles(g, t, k, &x, a, &L, &progress);
      t3 = wm_now();
      if (k >= 5 && !failed) triangle_cliques(g, t, common, ia, ib, &x, a, &L, &progress);
      if (k == 4 && !skip_k4 && !failed) edge_cliques(g, t, common, ia, ib, &x, a, &L, &progress);
      t4 = wm_now();
      if (omp_get_thread_num() == 0) {
        out->pass_seconds[0] = t1 - t0;
        out->pass_seconds[1] = t2 - t1;
        out->pass_seconds[2] = t3 - t2;
        out->pass_seconds[4] = t4 - t3;
      }
    }
    free(ia);
    free(ib);
    free(common);
    scratch_free(&x);
  }
  wm_progress_finish(&progress);
  acc total;
  memset(&total, 0, sizeof total);
  for (int i = 0; accs && i < nth; i++) merge(&total, &accs[i]);
  free(accs);
  free(t);
  /* read once: with a share, what every process returns is agreed on it */
  const int here = wm_progress_stopped(&progress);
  int interrupted = here;
  if (share && !oom && !failed) {
    /* this process's sums over the tops it took, added over the processes
     * exactly (unless one was interrupted); their overflow flags too (2,
     * out of memory, counts as such) */
    uint64_t flags[3] = {total.overflow == 1, total.overflow == 2, (uint64_t)here};
    int over = 0;
    if (share->sum_u64(share->ctx, flags, 3)) failed = 1;
    interrupted = flags[2] != 0;
    if (!failed && !interrupted && share->sum_i128(share->ctx, total.s, WM_SUM_COUNT, &over)) failed = 1;
    total.overflow = flags[1] ? 2 : (flags[0] || over) ? 1 : 0;
  }
  if (interrupted) return wm_share_interrupted(err, "motif sums", here);
  if (failed) return wm_fail(err, WM_EINPUT, "motif sums: adding up the processes' sums failed (MPI)");
  if (oom) return wm_fail(err, WM_EINPUT, "out of memory for the motif aggregates (%u vertices, %llu arcs)",
                          g->n, (unsigned long long)g->m);
  if (total.overflow == 2) return wm_fail(err, WM_EINPUT, "out of memory for the motif aggregates' path lists");
  if (total.overflow) return wm_fail(err, WM_EINPUT, "motif aggregates overflow 128 bits");
  memcpy(out->s, total.s, sizeof out->s);
  out->seconds = wm_now() - started;
  return WM_OK;
}
