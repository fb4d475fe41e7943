/* The formula's heavy aggregates on the CPU (the GPU's twin is
 * gpu_orbit_sums.cu): triangles per arc, and for k >= 4 per vertex its
 * 4-cliques, 4-cycles and diamond sums.
 *
 * The graph is first relabelled by the degree order (rank r before s when
 * d(r) < d(s), ties by index; out-degrees at most sqrt(2m)) with every row
 * sorted by rank, so that a vertex's neighbours above it are the end of its
 * row and those below a given one a prefix: a hub's row is read only from
 * below, and never past the bound the pass needs, with no lookup of the
 * order on the way.  The triangles are found from each one's lowest vertex,
 * twice: first for the triangles per arc and the 4-cliques (which need no
 * counts), then for the diamond sums (which need every arc's); the 4-cycles
 * from each one's highest (Chiba & Nishizeki's order).  The cost is about
 * the sum over u of d(u) d+(u), where marking a vertex's row and reading
 * every neighbour's would cost the sum of d(u)^2 (on Kronecker graphs ten
 * times more).  Credits to other vertices are 64-bit adds whose wrap is
 * flagged (past 2^64 - 1 the caller gets an error): on several threads
 * into each one's own sums, added up after each walk (atomic adds into the
 * totals where those would take too much memory).  The results go back to
 * g's labels at the end. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "orbit_ranked.h"
#include "orbits.h"

typedef wm_orbit_ranked ranked;

/* The credits: triangles per arc of r (for the arcs r -> s with r < s),
 * and for k >= 4 per rank its 4-cliques, 4-cycle and diamond sums. */
typedef struct sums {
  uint32_t *tri;
  uint64_t *k4, *n8, *n12;
} sums;

typedef struct pass {
  ranked r;
  sums all;    /* the totals */
  sums *own;   /* with several threads, each one's own credits, summed into
                * all after each pass (NULL: they credit all, atomically) */
  char *map;      /* every thread's scratch and own sums, map_each bytes each */
  size_t map_each;
  int threads; /* own's */
  int atomic;  /* several threads credit all's words */
  int overflow;
  double walked_at; /* when the triangle walk ended (WM_ORBIT_TRACE) */
} pass;

/* The flag is shared however the sums are (each thread's own: a plain
 * add, flagged atomically). */
static void add(pass *p, uint64_t *at, uint64_t x) {
  if (!x) return;
  if (!p->atomic ? __builtin_add_overflow(*at, x, at) : __atomic_fetch_add(at, x, __ATOMIC_RELAXED) > UINT64_MAX - x)
    __atomic_store_n(&p->overflow, 1, __ATOMIC_RELAXED);
}

static void add32(const pass *p, uint32_t *at, uint32_t x) {
  if (p->atomic) __atomic_fetch_add(at, x, __ATOMIC_RELAXED);
  else *at += x;
}

/* Runs BODY for every triangle a < b < c with b = out[i], c = out[j] of
 * a's row above it (out, k entries) and f the arc b -> c, then AFTER_B
 * once per b; local holds j + 1 per vertex of out (zero elsewhere, before
 * and after).  b's row is read from b up, and only up to out's last
 * vertex.  Whether its next vertex closes a triangle is a coin toss, so the
 * hits are first gathered without a branch (in hit_j, hit_f: at most a
 * row's length), then visited. */
#define EACH_TRIANGLE(r, local, hit_j, hit_f, a, BODY, AFTER_B)                             \
  do {                                                                                      \
    const uint32_t *const adj_ = (r)->adj, *const out = adj_ + (r)->up[a];                  \
    const uint64_t *const up_ = (r)->up, *const oo_ = (r)->offsets;                         \
    uint32_t *const local_ = (local), *const hj_ = (hit_j), *const hf_ = (hit_f);           \
    const uint32_t k = (uint32_t)(oo_[(a) + 1] - up_[a]);                                   \
    if (k < 2) break;                                                                       \
    const uint32_t last_ = out[k - 1];                                                      \
    for (uint32_t i_ = 0; i_ < k; i_++) local_[out[i_]] = i_ + 1;                           \
    for (uint32_t i = 0; i + 1 < k; i++) {                                                  \
      const uint64_t f0_ = up_[out[i]], end_ = oo_[out[i] + 1];                             \
      uint32_t hits_ = 0;                                                                   \
      for (uint64_t f = f0_; f < end_ && adj_[f] <= last_; f++) {                           \
        const uint32_t jj_ = local_[adj_[f]];                                               \
        hj_[hits_] = jj_ - 1, hf_[hits_] = (uint32_t)(f - f0_);                             \
        hits_ += jj_ != 0;                                                                  \
      }                                                                                     \
      for (uint32_t h_ = 0; h_ < hits_; h_++) {                                             \
        const uint32_t j = hj_[h_];                                                         \
        const uint64_t f = f0_ + hf_[h_];                                                   \
        BODY;                                                                               \
      }                                                                                     \
      AFTER_B;                                                                              \
    }                                                                                       \
    for (uint32_t i_ = 0; i_ < k; i_++) local_[out[i_]] = 0;                                \
  } while (0)

/* Past this out-degree the rows would leave the caches (k^2 bits): such a
 * vertex's cliques are walked one by one, marking a's out-row 1 and the
 * part of it in b's out-row 2. */
#define ROWS_MAX 1024u

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
/* Without -mpopcnt the builtin is a library call, a third of this pass. */
__attribute__((target_clones("popcnt", "default")))
#endif
/* The 4-cliques through a and each u of its out-row are the edges among
 * u's neighbours there: with rows of that out-row as bit sets (filled by
 * the triangle pass), each edge i < j there closes |N(i) & N(j)| triangles
 * of the out-row, which counts each of i's twice and each triangle three
 * times: u's credit is half its sum (gathered in tally), a's a third of
 * all; the cost is a's triangles times a row's words, without visiting
 * each clique. */
static void cliques_from_rows(pass *p, const sums *to, const uint64_t *rows, uint64_t *tally, uint32_t a) {
  const ranked *r = &p->r;
  const uint32_t k = (uint32_t)(r->offsets[a + 1] - r->up[a]), words = (k + 63) / 64;
  const uint32_t *out = r->adj + r->up[a];
  uint64_t all = 0;
  for (uint32_t i = 0; i < k; i++) {
    const uint64_t *ri = rows + (size_t)i * words;
    uint64_t at_i = 0;
    for (uint32_t wi = i / 64; wi < words; wi++) {
      uint64_t bits = ri[wi];
      if (wi == i / 64) bits &= ~0ull << (i % 64); /* the j above i */
      for (; bits; bits &= bits - 1) {
        const uint32_t j = wi * 64 + (uint32_t)__builtin_ctzll(bits);
        const uint64_t *rj = rows + (size_t)j * words;
        uint64_t c = 0;
        for (uint32_t x = 0; x < words; x++) c += (uint64_t)__builtin_popcountll(ri[x] & rj[x]);
        at_i += c, tally[j] += c;
      }
    }
    tally[i] += at_i;
    all += at_i;
  }
  for (uint32_t i = 0; i < k; i++) add(p, &to->k4[out[i]], tally[i] / 2), tally[i] = 0;
  add(p, &to->k4[a], all / 3);
}

static void cliques_walked(pass *p, const sums *to, uint8_t *mark, uint32_t *common, uint64_t *tally, uint32_t a) {
  const ranked *r = &p->r;
  const uint64_t *up = r->up, *oo = r->offsets;
  const uint32_t *adj = r->adj;
  for (uint64_t e = up[a]; e < oo[a + 1]; e++) mark[adj[e]] = 1;
  uint64_t at_a = 0;
  for (uint64_t e = up[a]; e < oo[a + 1]; e++) {
    const uint32_t b = adj[e];
    uint32_t nc = 0;
    for (uint64_t f = up[b]; f < oo[b + 1]; f++)
      if (mark[adj[f]]) mark[adj[f]] = 2, common[nc++] = adj[f];
    for (uint32_t i = 0; i < nc; i++) {
      const uint32_t c = common[i];
      uint64_t at_c = 0;
      for (uint64_t f = up[c]; f < oo[c + 1]; f++)
        if (mark[adj[f]] == 2) at_c++, tally[adj[f]]++;
      tally[c] += at_c;
      tally[b] += at_c;
      at_a += at_c;
    }
    for (uint32_t i = 0; i < nc; i++) mark[common[i]] = 1;
  }
  add(p, &to->k4[a], at_a);
  for (uint64_t e = up[a]; e < oo[a + 1]; e++) {
    mark[adj[e]] = 0;
    add(p, &to->k4[adj[e]], tally[adj[e]]), tally[adj[e]] = 0;
  }
}

/* One thread's scratch: per-vertex words, zero between uses (hit_j and
 * hit_f, the triangle walks' hits, any; hit_f is also the 4-cycle walk's
 * prefix lengths). */
typedef struct scratch {
  uint32_t *local, *cnt, *list, *hit_j, *hit_f;
  uint8_t *mark;
  uint64_t *tally, *rows;
  sums to; /* where this thread's credits go */
} scratch;

/* The triangles on a's out-arcs, from their lowest vertex a: a's own arcs
 * gather in tally (per position of its out-row) and reach tri in one add
 * each; the far arc b -> c takes an add per triangle.  For k >= 4 the same
 * walk fills the out-row's bit-set rows for the 4-cliques (see
 * cliques_from_rows; `walked`: every vertex walks its cliques instead). */
static void triangles_from(pass *p, scratch *s, unsigned kk, int walked, uint32_t a) {
  const ranked *r = &p->r;
  const uint64_t base = r->up[a], deg_out = r->offsets[a + 1] - base;
  const int rows = kk >= 4 && deg_out >= 3 && deg_out <= ROWS_MAX && !walked;
  const uint32_t words = (uint32_t)((deg_out + 63) / 64);
  uint64_t *tally = s->tally, *bits = s->rows, at_b = 0;
  uint32_t *tri = s->to.tri;
  if (rows) memset(bits, 0, (size_t)deg_out * words * sizeof *bits);
  EACH_TRIANGLE(r, s->local, s->hit_j, s->hit_f, a, {
    at_b++;
    tally[j]++;
    add32(p, &tri[f], 1);
    if (rows) {
      bits[(size_t)i * words + j / 64] |= 1ull << (j % 64);
      bits[(size_t)j * words + i / 64] |= 1ull << (i % 64);
    }
  }, (tally[i] += at_b, at_b = 0));
  for (uint64_t e = 0; e < deg_out; e++)
    if (tally[e]) add32(p, &tri[base + e], (uint32_t)tally[e]), tally[e] = 0;
  if (rows) cliques_from_rows(p, &s->to, bits, tally, a);
  else if (kk >= 4 && deg_out >= 3) cliques_walked(p, &s->to, s->mark, s->list, s->tally, a);
}

/* n12: for a triangle a, b, c each corner takes the triangles of the far
 * edge less one; b's and c's gather in tally (per position of a's
 * out-row).  A position's sum has at most k < 2^32 terms below 2^32; a's
 * may pass 2^64, and is checked. */
static void diamonds_from(pass *p, scratch *s, uint32_t a) {
  const ranked *r = &p->r;
  const uint64_t base = r->up[a], deg_out = r->offsets[a + 1] - base;
  const uint32_t *tri = p->all.tri, *own = tri + base;
  uint64_t *tally = s->tally, at_b = 0;
  wm_u128 at_a = 0;
  EACH_TRIANGLE(r, s->local, s->hit_j, s->hit_f, a, {
    at_a += (uint64_t)tri[f] - 1;
    at_b += (uint64_t)own[j] - 1;
    tally[j] += (uint64_t)own[i] - 1;
  }, (tally[i] += at_b, at_b = 0));
  if (at_a > UINT64_MAX) __atomic_store_n(&p->overflow, 1, __ATOMIC_RELAXED);
  add(p, &s->to.n12[a], (uint64_t)at_a);
  for (uint64_t e = 0; e < deg_out; e++) add(p, &s->to.n12[r->adj[base + e]], tally[e]), tally[e] = 0;
}

/* n8: the 4-cycles v, u, w, u' whose highest vertex is v (so u, w and u'
 * lie below it; each row's part below v is a prefix): C(c, 2) for each w
 * below v with c such middles, to v and to w, and c - 1 to each middle. */
static void cycles_from(pass *p, scratch *s, uint32_t v) {
  uint32_t *cnt = s->cnt, *touched = s->list, *len = s->hit_f;
  uint64_t *n8 = s->to.n8;
  const ranked *r = &p->r;
  const uint64_t *oo = r->offsets, below = r->up[v] - oo[v];
  const uint32_t *adj = r->adj, *lower = adj + oo[v];
  uint32_t nt = 0;
  for (uint64_t e = 0; e < below; e++) {
    const uint64_t f0 = oo[lower[e]], end = oo[lower[e] + 1];
    uint64_t f = f0;
    for (; f < end && adj[f] < v; f++) { /* no branch: a first touch is a coin toss */
      const uint32_t w = adj[f];
      touched[nt] = w;
      nt += !cnt[w]++;
    }
    len[e] = (uint32_t)(f - f0); /* the prefix, for the second walk */
  }
  if (!nt) return;
  for (uint64_t e = 0; e < below; e++) {
    const uint32_t *w = adj + oo[lower[e]];
    uint64_t others = 0;
    for (uint32_t x = 0; x < len[e]; x++) others += cnt[w[x]];
    add(p, &n8[lower[e]], others - len[e]);
  }
  uint64_t at_v = 0;
  for (uint32_t i = 0; i < nt; i++) {
    const uint64_t c = cnt[touched[i]], pairs = c * (c - 1) / 2;
    add(p, &n8[touched[i]], pairs);
    if (at_v + pairs < at_v) __atomic_store_n(&p->overflow, 1, __ATOMIC_RELAXED);
    at_v += pairs;
    cnt[touched[i]] = 0;
  }
  add(p, &n8[v], at_v);
}

/* WM_TEST_ORBIT_WALKED=1 sends every vertex's cliques down the walk, so
 * that the tests see both ways on small graphs. */
static int walked_only(void) {
  const char *v = getenv("WM_TEST_ORBIT_WALKED");
  return v && *v == '1';
}

/* Vertices go out in blocks, the highest ranks (the hubs, the longest
 * work) first, so that no thread is left with one at the end; a block
 * holds about 1/64 of a thread's share of the arcs (so a hub goes alone:
 * the highest few together would be one thread's long tail) and at most
 * BLOCK_MAX vertices.  cut[b] > cut[b + 1] bound block b; returns their
 * number. */
#define BLOCK_MAX 256

static uint32_t cut_blocks(const ranked *r, int T, uint32_t *cut) {
  const uint64_t arcs = r->offsets[r->n] / (64 * (uint64_t)T) + 1;
  uint32_t blocks = 0, hi = r->n;
  cut[0] = hi;
  while (hi > 0) {
    uint32_t lo = hi;
    uint64_t sum = 0;
    do lo--, sum += r->offsets[lo + 1] - r->offsets[lo];
    while (lo > 0 && sum < arcs && hi - lo < BLOCK_MAX);
    cut[++blocks] = hi = lo;
  }
  return blocks;
}

/* Each thread's own sums while they fit in this (then no word is credited
 * by two threads: a hub's arcs and the vertices around it would pass
 * between their caches at every atomic add); past it, or for
 * WM_TEST_ORBIT_SHARED=1 (so that the tests see both ways), atomic adds
 * to the totals. */
#define OWN_SUMS_MAX ((size_t)256 << 20)

static int sums_init(sums *x, size_t arcs, size_t vertices) {
  memset(x, 0, sizeof *x);
  x->tri = calloc(arcs, sizeof *x->tri);
  if (vertices) x->k4 = calloc(vertices, 8), x->n8 = calloc(vertices, 8), x->n12 = calloc(vertices, 8); /* uint64 */
  return x->tri && (!vertices || (x->k4 && x->n8 && x->n12)) ? 0 : -1;
}

static void sums_free(sums *x) {
  free(x->tri);
  free(x->k4);
  free(x->n8);
  free(x->n12);
}

/* Carves one thread's words from base (NULL: only measures them): its
 * scratch, and with own its own sums (in s->to); returns their bytes in
 * whole pages, so that no page is written by two threads. */
static size_t carve(const pass *p, unsigned k, int own, char *base, scratch *s) {
  const size_t n = p->r.n ? p->r.n : 1, m = p->r.offsets[p->r.n] ? p->r.offsets[p->r.n] : 1;
  size_t at = 0;
#define TAKE(ptr, count)                                    \
  do {                                                      \
    if (base) (ptr) = (void *)(base + at);                  \
    at += ((size_t)(count) * sizeof *(ptr) + 7) / 8 * 8;    \
  } while (0)
  TAKE(s->local, n);
  TAKE(s->tally, n);
  TAKE(s->hit_j, n);
  TAKE(s->hit_f, n);
  if (k >= 4) {
    TAKE(s->cnt, n);
    TAKE(s->list, n);
    TAKE(s->mark, n);
    TAKE(s->rows, ROWS_MAX * (ROWS_MAX / 64));
  }
  if (own) TAKE(s->to.tri, m);
  if (own && k >= 4) {
    TAKE(s->to.k4, n);
    TAKE(s->to.n8, n);
    TAKE(s->to.n12, n);
  }
#undef TAKE
  return (at + 4095) / 4096 * 4096;
}

/* Every thread's scratch in one zeroed mapping (no thread allocates: on
 * 16 threads their callocs and frees, against each other's page faults,
 * cost 1-2 ms of facebook's 6).  With T >= 2 each thread also credits sums
 * of its own there, unless they would pass OWN_SUMS_MAX, or that mapping
 * is refused, or a test asks for the atomics: then all threads credit all
 * atomically.  -1 where even the scratch's mapping is refused. */
static int thread_memory(pass *p, int T, unsigned k) {
  const char *hook = getenv("WM_TEST_ORBIT_SHARED");
  scratch none;
  const size_t bare = carve(p, k, 0, NULL, &none), with_own = carve(p, k, 1, NULL, &none);
  p->threads = T;
  if (T >= 2 && !(hook && *hook == '1') && (size_t)T * (with_own - bare) <= OWN_SUMS_MAX) {
    p->own = calloc((size_t)T, sizeof *p->own);
    p->map_each = with_own;
    p->map = p->own ? wm_zeroed_map((size_t)T * with_own) : NULL;
    if (!p->map) free(p->own), p->own = NULL;
  }
  if (!p->map) p->map_each = bare, p->map = wm_zeroed_map((size_t)T * bare);
  p->atomic = T > 1 && !p->own;
  return p->map ? 0 : -1;
}

/* all.tri = the sum of the threads' own, arc by arc (a count of an edge's
 * triangles is below 2^32). */
static void sum_triangles(pass *p, int T) {
  const int64_t m = (int64_t)p->r.offsets[p->r.n];
#pragma omp for schedule(static)
  for (int64_t e = 0; e < m; e++) {
    uint32_t x = 0;
    for (int t = 0; t < T; t++) x += p->own[t].tri[e];
    p->all.tri[e] = x;
  }
}

/* The same for the vertices' sums, whose wraps are flagged. */
static void sum_vertices(pass *p, int T) {
  int wrapped = 0;
#pragma omp for schedule(static)
  for (int64_t v = 0; v < (int64_t)p->r.n; v++) {
    uint64_t k4 = 0, n8 = 0, n12 = 0;
    for (int t = 0; t < T; t++) {
      wrapped |= __builtin_add_overflow(k4, p->own[t].k4[v], &k4);
      wrapped |= __builtin_add_overflow(n8, p->own[t].n8[v], &n8);
      wrapped |= __builtin_add_overflow(n12, p->own[t].n12[v], &n12);
    }
    p->all.k4[v] = k4, p->all.n8[v] = n8, p->all.n12[v] = n12;
  }
  if (wrapped) __atomic_store_n(&p->overflow, 1, __ATOMIC_RELAXED);
}

/* 0, -1 out of memory, or 1 interrupted (warpmatch_interrupt: each block
 * of vertices asks first, so a hub's own work is the longest wait). */
static int passes(pass *p, unsigned k) {
  const uint32_t n = p->r.n;
  uint32_t *cut = malloc(((size_t)n + 1) * sizeof *cut);
  int64_t blocks = 0;
  const int walked = walked_only();
  int oom = !cut;
  wm_progress progress; /* the line and the interrupt flag; only the 4-vertex pass shows */
  wm_progress_init(&progress, "orbit aggregates", (k >= 4 ? 2 : 1) * (uint64_t)n, k >= 4);
#pragma omp parallel
  {
    const int T = omp_get_num_threads(), t = omp_get_thread_num();
#pragma omp single
    {
      if (thread_memory(p, T, k)) oom = 1;
      blocks = cut && !oom ? cut_blocks(&p->r, T, cut) : 0;
    }
    scratch s = {.to = p->all};
    if (p->map) carve(p, k, p->own != NULL, p->map + p->map_each * (size_t)t, &s);
    if (p->own) p->own[t] = s.to; /* read by the others after the walk's barrier */
#pragma omp for schedule(dynamic, 1)
    for (int64_t b = 0; b < blocks; b++) {
      const uint32_t hi = cut[b], lo = cut[b + 1];
      if (wm_progress_stopped(&progress)) continue; /* no block where out of memory */
      for (uint32_t v = hi; v-- > lo;) triangles_from(p, &s, k, walked, v);
      wm_progress_add(&progress, hi - lo);
    }
    if (p->own) sum_triangles(p, T);
#pragma omp master
    p->walked_at = wm_now();
    if (k >= 4) {
#pragma omp for schedule(dynamic, 1)
      for (int64_t b = 0; b < blocks; b++) {
        const uint32_t hi = cut[b], lo = cut[b + 1];
        if (wm_progress_stopped(&progress)) continue; /* no block where out of memory */
        for (uint32_t v = hi; v-- > lo;) diamonds_from(p, &s, v), cycles_from(p, &s, v);
        wm_progress_add(&progress, hi - lo);
      }
      if (p->own) sum_vertices(p, T);
    }
    /* every thread past the last sum's barrier: each frees its own pages */
    if (p->map) wm_zeroed_release(p->map + p->map_each * (size_t)t, p->map_each);
  }
  wm_zeroed_unmap(p->map, p->map_each * (size_t)p->threads);
  free(p->own);
  free(cut);
  wm_progress_finish(&progress);
  return oom ? -1 : wm_progress_stopped(&progress) ? 1 : 0;
}

/* Each edge's count to both of g's arcs.  The arcs of rank s down to t < s
 * meet t's row above t in its order as s ascends, so each thread, taking
 * the s of its share of the arcs in order, finds an arc's twin (s in t's
 * row, which holds the count) at a cursor per t, one past the last one's
 * once it has met t, found by a binary search before (a share that starts
 * at rank 0 meets each row's first entry above first: its cursors start
 * there; the others at all ones).  Where each thread read every arc past
 * its share's start for the t of its own, the first thread read all of
 * them.  -1 out of memory. */
static int triangles_back(const pass *p, uint32_t *tri) {
  const ranked *r = &p->r;
  int oom = 0;
#pragma omp parallel
  {
    const int t = omp_get_thread_num(), T = omp_get_num_threads();
    const uint32_t lo = wm_orbit_share_start(r->offsets, r->n, t, T);
    const uint32_t hi = wm_orbit_share_start(r->offsets, r->n, t + 1, T);
    uint64_t *cursor = malloc((r->n ? r->n : 1) * sizeof *cursor);
    if (!cursor) __atomic_store_n(&oom, 1, __ATOMIC_RELAXED);
    else if (lo) memset(cursor, 0xFF, (size_t)r->n * sizeof *cursor);
    else memcpy(cursor, r->up, (size_t)r->n * sizeof *cursor);
    for (uint32_t s = lo; s < hi && cursor; s++)
      for (uint64_t e = r->offsets[s]; e < r->up[s]; e++) {
        const uint32_t to = r->adj[e];
        uint64_t twin = cursor[to];
        if (twin == UINT64_MAX) { /* the first of t's row above t that is not below s */
          uint64_t a = r->up[to], b = r->offsets[to + 1];
          while (a < b) {
            const uint64_t mid = a + (b - a) / 2;
            if (r->adj[mid] < s) a = mid + 1;
            else b = mid;
          }
          twin = a;
        }
        cursor[to] = twin + 1;
        tri[r->g_offsets[r->old[s]] + r->from[e]] = tri[r->g_offsets[r->old[to]] + r->from[twin]] = p->all.tri[twin];
      }
    free(cursor);
  }
  return oom ? -1 : 0;
}

static int back_to_g(pass *p, unsigned k, wm_orbit_aggregates *a) {
  const ranked *r = &p->r;
  if (triangles_back(p, a->tri)) return -1;
  if (k < 4) return 0;
#pragma omp parallel for schedule(static)
  for (int64_t s = 0; s < (int64_t)r->n; s++) {
    const uint32_t v = r->old[s];
    a->k4[v] = p->all.k4[s], a->n8[v] = (wm_i128)p->all.n8[s], a->n12[v] = (wm_i128)p->all.n12[s];
  }
  return 0;
}

int wm_orbit_aggregates_cpu(const wm_graph *g, unsigned k, wm_orbit_aggregates *a, wm_error *err) {
  const size_t n = g->n ? g->n : 1, m = g->m ? g->m : 1;
  pass p = {.atomic = 1};
  int rc = WM_OK;
  double at[4] = {wm_now()};
  if (wm_orbit_ranked_init(g, 1, &p.r)) return wm_fail(err, WM_EINPUT, "orbits: out of memory for the graph by degree order");
  if (sums_init(&p.all, m, k >= 4 ? n : 0))
    rc = wm_fail(err, WM_EINPUT, "orbits: out of memory for the aggregates (%llu arcs)", (unsigned long long)g->m);
  at[1] = p.walked_at = wm_now();
  if (!rc) {
    const int got = passes(&p, k);
    if (got < 0) rc = wm_fail(err, WM_EINPUT, "orbits: out of memory for the aggregates' scratch");
    else if (got > 0) rc = wm_interrupted(err, "orbits");
  }
  at[2] = wm_now();
  if (!rc && p.overflow)
    rc = wm_fail(err, WM_EINPUT, "orbits: a vertex's 4-cliques, 4-cycles or diamond sums pass 2^64 - 1");
  if (!rc && back_to_g(&p, k, a)) rc = wm_fail(err, WM_EINPUT, "orbits: out of memory for the aggregates");
  wm_orbit_ranked_free(&p.r);
  sums_free(&p.all);
  at[3] = wm_now();
  if (wm_trace_on("WM_ORBIT_TRACE"))
    fprintf(stderr, "orbits (aggregates, %d threads): by degree %.3f ms, triangles %.3f ms, diamonds and 4-cycles "
            "%.3f ms, back %.3f ms\n", p.threads, 1e3 * (at[1] - at[0]), 1e3 * (p.walked_at - at[1]),
            1e3 * (at[2] - p.walked_at), 1e3 * (at[3] - at[2]));
  return rc;
}

int wm_orbit_triangles_cpu(const wm_graph *g, uint32_t *tri, wm_error *err) {
  wm_orbit_aggregates a = {tri, NULL, NULL, NULL};
  return wm_orbit_aggregates_cpu(g, 3, &a, err);
}
