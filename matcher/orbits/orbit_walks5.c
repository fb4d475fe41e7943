/* The per-vertex walks of the 5-vertex non-induced counts on the CPU
 * (orbit_walks5.h says what they leave; orbit_noninduced5.c, whose
 * notation this is, reads it).  Each vertex walks with its own scratch and
 * writes only its own arcs and sums, so the threads share no writes but
 * the tips' (63), which both ends of a pair get, by atomics. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "orbit_share5.h"
#include "orbit_walks5.h"

int wm_o5n_walks_alloc(const wm_graph *g, wm_o5n_walks *w) {
  const size_t n = g->n ? g->n : 1, m = g->m ? g->m : 1;
  *w = (wm_o5n_walks){calloc(m, sizeof *w->tdeg), calloc(m, sizeof *w->F),      calloc(m, sizeof *w->c4e),
                      calloc(m, sizeof *w->toward), calloc(n, sizeof *w->walked), calloc(2 * n, sizeof *w->tips)};
  if (w->tdeg && w->F && w->c4e && w->toward && w->walked && w->tips) {
    wm_big_pages(w->tdeg, m * sizeof *w->tdeg), wm_big_pages(w->F, m * sizeof *w->F);
    wm_big_pages(w->c4e, m * sizeof *w->c4e), wm_big_pages(w->toward, m * sizeof *w->toward);
    wm_big_pages(w->walked, n * sizeof *w->walked);
    return 0;
  }
  wm_o5n_walks_free(w);
  return -1;
}

void wm_o5n_walks_free(wm_o5n_walks *w) {
  free(w->tdeg);
  free(w->F);
  free(w->c4e);
  free(w->toward);
  free(w->walked);
  free(w->tips);
  memset(w, 0, sizeof *w);
}

/* What one vertex's walks read. */
typedef struct walk_in {
  const wm_graph *g;
  const uint32_t *tri;
  const uint64_t *cn_at;   /* per arc a -> b, where CN(a, b) starts in cn_list (m + 1) */
  const uint32_t *cn_list; /* each arc's common neighbours, ascending */
  wm_o5n_walks *w;
} walk_in;

static wm_i128 deg(const wm_graph *g, uint32_t v) { return (wm_i128)(g->offsets[v + 1] - g->offsets[v]); }

/* ---- x's first walk: its triangles and its 2-hop tally ----------------- */

/* The graphlets cut at a triangle x, a, b read its far edge a-b: t_ab, and
 * per arc tdeg (over the third vertices z of the edge's triangles, the sum
 * of d_z) and F (for the arc y -> a, the sum of t_yz - 1).  Those around a
 * 4-cycle through x read, for each vertex z two steps from x, cn = |N(x)
 * and N(z)| and s = the sum of t_bz over those common neighbours b; the
 * diamonds and wheels read G[N(x)] as lists.  One walk over x's 2-paths
 * with x's row marked finds them all, each vertex's own (no shared writes
 * but the tips'): it costs the sum of d^2, where the oriented walks of
 * orbit_aggregates_cpu.c cost the sum of d d+.  Per thread: mark, and cn,
 * s (zero for every vertex before and after), touched, and the lists. */
typedef struct scratch {
  uint64_t *mark, *cn, *s;
  uint32_t *touched;
  uint64_t *start;    /* n + 1 */
  uint32_t *inner;    /* G[N(x)] as lists: the largest 2T */
  uint32_t *inner_at; /* beside each, its place in the row it came from */
} scratch;

/* Over x's 2-paths x-a-z, z != x, with x's row marked (arc + 1): the tally
 * cn, s (the z listed in touched; returns their number); for each triangle
 * x, a, z, tdeg and F of the arc x -> a, z appended to a's list of G[N(x)]
 * (the neighbours inside N(x) of x's i-th neighbour are inner[start[i] ..
 * start[i + 1]), as many as that arc's triangles), and once (a < z) x's
 * sums of 25, 40, 54 and 60.  tdeg and F are below 2^64 (at most 2^32
 * terms below 2^32); a term of a sum is below 2^66. */
static uint32_t first_walk(const walk_in *p, scratch *w, uint32_t x) {
  const wm_graph *g = p->g;
  const uint32_t *t = p->tri;
  const uint64_t first = g->offsets[x], d = g->offsets[x + 1] - first;
  wm_acc *s = p->w->walked[x];
  uint32_t nt = 0;
  w->start[0] = 0;
  for (uint64_t i = 0; i < d; i++) w->start[i + 1] = w->start[i] + t[first + i];
  for (uint64_t i = 0; i < d; i++) {
    const uint64_t e = first + i;
    const uint32_t a = g->adj[e];
    uint64_t fill = w->start[i];
    for (uint64_t f = g->offsets[a]; f < g->offsets[a + 1]; f++) {
      const uint32_t z = g->adj[f];
      if (z == x) continue;
      if (!w->cn[z]++) w->touched[nt++] = z;
      w->s[z] += t[f];
      if (!w->mark[z]) continue;
      const uint64_t h = w->mark[z] - 1; /* the arc x -> z */
      p->w->tdeg[e] += (uint64_t)deg(g, z);
      p->w->F[e] += t[h] - 1u;
      w->inner_at[fill] = (uint32_t)(f - g->offsets[a]), w->inner[fill++] = z;
      if (a < z) {
        const wm_i128 taz = t[f], da = deg(g, a), dz = deg(g, z);
        wm_acc_add(&s[WM_O5N_S25], (da - 2) * (dz - 2) - taz + 1);
        wm_acc_add(&s[WM_O5N_S40], (taz - 1) * (da + dz - 6));
        wm_acc_add(&s[WM_O5N_S54], wm_choose(taz - 1, 2));
        wm_acc_add(&s[WM_O5N_S60], (taz - 1) * ((wm_i128)t[e] + t[h] - 2));
      }
    }
  }
  return nt;
}

/* Over the nt touched z: x's sums of 36, 50 and 51 (a term below 2^96);
 * s cleared for E. */
static void around_cycles(const walk_in *p, scratch *w, uint32_t x, uint32_t nt) {
  const wm_graph *g = p->g;
  wm_acc *s = p->w->walked[x];
  for (uint32_t i = 0; i < nt; i++) {
    const uint32_t z = w->touched[i];
    const wm_i128 cn = w->cn[z];
    wm_acc_add(&s[WM_O5N_S36], wm_choose(cn, 2) * (deg(g, z) - 2));
    wm_acc_add(&s[WM_O5N_S50], wm_choose(cn, 3));
    wm_acc_add(&s[WM_O5N_S51], (cn - 1) * (wm_i128)w->s[z]);
    w->s[z] = 0;
  }
}

/* ---- x's diamonds and wheels -------------------------------------------- */

/* K2,3's 3-side (49), W4 less a spoke (62-64) and the wheel (68, 69) read,
 * besides x's 2-hop tally cn, E(q) = the edges inside CN(x, q) (the chords
 * of the diamonds with tips x and q: the tip-pair walk) and the 4-cycles
 * inside G[N(x)].  Four of them are counts at a vertex other than the one
 * whose tally holds the pieces (49 and 62 at a common neighbour of the
 * pair, 64 at a chord end, 68 on the rim): x leaves on each arc x -> y what
 * it owes y (toward), and y sums its in-arcs in the last pass, so that
 * every walk writes only its own arcs (but 63, which both tips of a pair
 * get from the smaller: tips, below). */

/* E (in w->s) over the vertices q > x, and on each arc x -> a the sum over
 * the diamonds with tips x < q and chord a-b of cn(q) - 2, the tips' third
 * common neighbours: 64's count at a, each diamond once, from its smaller
 * tip.  The q of a triangle x, a, b are CN(a, b) above x, the end of the
 * arc's ascending list: the q visited are the sum over edges of C(t, 2),
 * half of walking the pairs from both tips.  An arc's sum is below 2^96
 * (t_xa triangles, fewer than 2^32 q each, cn below 2^32); E(q) below
 * 2^64 (the edges among cn(q) vertices). */
static void tip_pairs(const walk_in *p, scratch *w, uint32_t x) {
  const wm_graph *g = p->g;
  const uint64_t first = g->offsets[x];
  for (uint64_t i = 0; first + i < g->offsets[x + 1]; i++) {
    const uint32_t a = g->adj[first + i];
    for (uint64_t j = w->start[i]; j < w->start[i + 1]; j++) {
      const uint32_t b = w->inner[j];
      if (!wm_o5n_shorter(b, a)) continue;
      const uint64_t f = g->offsets[a] + w->inner_at[j]; /* the arc a -> b */
      wm_i128 thirds = 0;
      const uint64_t at = p->cn_at[f], end = p->cn_at[f + 1];
      for (uint64_t k = at + wm_sorted_lower_bound(p->cn_list + at, end - at, x + 1); k < end; k++) {
        const uint32_t q = p->cn_list[k];
        w->s[q]++;
        thirds += (wm_i128)w->cn[q] - 2; /* q sees a and b: cn(q) >= 2 */
      }
      p->w->toward[first + i][WM_O5N_TO64] += thirds;
      p->w->toward[w->mark[b] - 1][WM_O5N_TO64] += thirds;
    }
  }
}

/* x's second walk over its 2-paths x-y-o, o != x.  Each pair {x, o} is
 * taken from its smaller vertex: on each arc x -> y, over the o > x of
 * N(y) (the end of its ascending row), C(cn(o) - 1, 2), the pairs of
 * further common neighbours of x and o (K2,3s with y, x and those two on
 * the 3-side: 49 at y), and E(o), the chords inside CN(x, o) (W4 less a
 * spoke with tips x, o and y their third common neighbour, 62 at y, less
 * the chords at y, taken off at y).  And each edge's 4-cycles, c4e (cn(o)
 * - 1 over all o), from its larger end, whose tally is at hand, into both
 * arcs: so y's row is walked whole where y < x.  On degree-numbered
 * graphs that is the smaller row, and a hub's is walked above x only: the
 * pairs through it once, not from both ends.  Each below 2^96; c4e below
 * 2^64 (fewer than d(x) d(y) cycles). */
static void second_walk(const walk_in *p, const scratch *w, uint32_t x) {
  const wm_graph *g = p->g;
  for (uint64_t e = g->offsets[x]; e < g->offsets[x + 1]; e++) {
    const uint32_t y = g->adj[e];
    const uint64_t lo = g->offsets[y], hi = g->offsets[y + 1];
    const int cycles = y < x;
    uint64_t c = 0;
    wm_i128 k23 = 0, chords = 0;
    for (uint64_t f = cycles ? lo : lo + wm_sorted_lower_bound(g->adj + lo, hi - lo, x + 1); f < hi; f++) {
      const uint32_t o = g->adj[f];
      if (o == x) continue;
      c += w->cn[o] - 1;
      if (o < x) continue;
      k23 += wm_choose((wm_i128)w->cn[o] - 1, 2);
      chords += (wm_i128)w->s[o];
    }
    if (cycles) p->w->c4e[e] = p->w->c4e[wm_graph_arc_at(g, y, x)] = c;
    p->w->toward[e][WM_O5N_TO49] = k23, p->w->toward[e][WM_O5N_TO62] = chords;
  }
}

/* The 4-cycles of G[N(x)] (W4 hubbed at x, 69 at x four times each), each
 * met once from its top u (the first in wm_o5n_shorter's order), whose
 * neighbours v, v' on the cycle and opposite w are below it: the middles
 * of u and w are tallied in w->cn over the paths u-v-w inside N(x) below
 * u.  w closes C(cn, 2) cycles with u on top, owed to u and to w (68 on its
 * rim), and each middle v is on cn - 1 of them.  Walking only the paths below their
 * top costs, per edge of G[N(x)], the list of its lower end (not t_xb^2
 * per neighbour b, as walking every path from both ends).  An arc's sum
 * is below 2^95 (fewer than 2^32 w, each on at most t_xa < 2^32 paths). */
static void wheels(const walk_in *p, scratch *w, uint32_t x) {
  const wm_graph *g = p->g;
  const uint64_t first = g->offsets[x];
#define WM_O5N_EACH_LOWER_RIM(...)                                                              \
  for (uint64_t j = w->start[i]; j < w->start[i + 1]; j++) {                                     \
    const uint32_t v = w->inner[j];                                                              \
    if (!wm_o5n_shorter(v, u)) continue;                                                         \
    const uint64_t k = w->mark[v] - 1 - first; /* v's place in x's row */                       \
    for (uint64_t l = w->start[k]; l < w->start[k + 1]; l++) {                                   \
      const uint32_t z = w->inner[l];                                                            \
      if (wm_o5n_shorter(z, u)) { __VA_ARGS__; }                                                 \
    }                                                                                            \
  }
  for (uint64_t i = 0; first + i < g->offsets[x + 1]; i++) {
    const uint32_t u = g->adj[first + i];
    uint32_t nt = 0;
    WM_O5N_EACH_LOWER_RIM(if (!w->cn[z]++) w->touched[nt++] = z)
    wm_i128 cycles = 0;
    for (uint32_t t = 0; t < nt; t++) {
      const uint32_t z = w->touched[t];
      const wm_i128 c = wm_choose((wm_i128)w->cn[z], 2);
      cycles += c;
      p->w->toward[w->mark[z] - 1][WM_O5N_TO68] += c;
    }
    WM_O5N_EACH_LOWER_RIM(p->w->toward[first + k][WM_O5N_TO68] += (wm_i128)w->cn[z] - 1)
    for (uint32_t t = 0; t < nt; t++) w->cn[w->touched[t]] = 0;
    p->w->toward[first + i][WM_O5N_TO68] += cycles;
    wm_acc_add(&p->w->walked[x][WM_O5N_S69], 4 * cycles);
  }
#undef WM_O5N_EACH_LOWER_RIM
}

/* v's 63 credited with t (other threads credit it too). */
static void credit_tip(const walk_in *p, uint32_t v, wm_u128 t) {
  uint64_t *low = &p->w->tips[v], *high = &p->w->tips[(size_t)p->g->n + v];
  const uint64_t lo = (uint64_t)t, was = __atomic_fetch_add(low, lo, __ATOMIC_RELAXED);
  const uint64_t hi = (uint64_t)(t >> 64) + (was > UINT64_MAX - lo);
  if (hi) __atomic_fetch_add(high, hi, __ATOMIC_RELAXED);
}

/* Over the nt touched q > x with E(q) > 0: E(q) (cn(q) - 2) (a term
 * below 2^96) to q's 63 and to x's; the tally cleared. */
static void tips(const walk_in *p, scratch *w, uint32_t x, uint32_t nt) {
  wm_u128 mine = 0;
  for (uint32_t i = 0; i < nt; i++) {
    const uint32_t q = w->touched[i];
    if (w->s[q]) {
      const wm_u128 t = (wm_u128)w->s[q] * (w->cn[q] - 2);
      credit_tip(p, q, t);
      mine += t;
    }
    w->cn[q] = w->s[q] = 0;
  }
  if (mine) credit_tip(p, x, mine);
}

/* x's walks: its own arcs and sums, what it owes its neighbours (49, 62,
 * 64, 68 on the arcs to them) and its pairs' tips (63). */
static void vertex_walks(const walk_in *p, scratch *w, uint32_t x) {
  const wm_graph *g = p->g;
  memset(p->w->walked[x], 0, sizeof p->w->walked[x]);
  for (uint64_t e = g->offsets[x]; e < g->offsets[x + 1]; e++) {
    p->w->tdeg[e] = p->w->F[e] = 0;
    memset(p->w->toward[e], 0, sizeof p->w->toward[e]);
    w->mark[g->adj[e]] = e + 1;
  }
  const uint32_t nt = first_walk(p, w, x);
  around_cycles(p, w, x, nt);
  tip_pairs(p, w, x);
  second_walk(p, w, x);
  tips(p, w, x, nt);
  wheels(p, w, x);
  for (uint64_t e = g->offsets[x]; e < g->offsets[x + 1]; e++) w->mark[g->adj[e]] = 0;
}

/* The largest 2T over the vertices: the room G[N(x)]'s lists take. */
static uint64_t largest_neighbourhood(const wm_graph *g, const uint32_t *tri) {
  uint64_t most = 0;
  for (uint32_t x = 0; x < g->n; x++) {
    uint64_t twice = 0;
    for (uint64_t e = g->offsets[x]; e < g->offsets[x + 1]; e++) twice += tri[e];
    most = twice > most ? twice : most;
  }
  return most;
}

/* Per thread: 3n words of zeros, n halves, n + 1 words (start) and 2 x room
 * halves (inner and inner_at, the largest 2T each). */
#define SCRATCH_WORDS(n) (5 * (size_t)(n) + 1)

static scratch scratch_of(const wm_graph *g, uint64_t *zeros, uint32_t *inner, uint64_t room) {
  uint64_t *mine = zeros + (size_t)omp_get_thread_num() * SCRATCH_WORDS(g->n);
  uint32_t *lists = inner + (size_t)omp_get_thread_num() * 2 * room;
  return (scratch){mine, mine + g->n, mine + 2 * (size_t)g->n, (uint32_t *)(mine + 3 * (size_t)g->n),
                   mine + 4 * (size_t)g->n, lists, lists + room};
}

/* A block of vertices per claim: a block is the interrupt's unit. */
#define BLOCK 16

static void walk_all(const walk_in *p, uint64_t *zeros, uint32_t *inner, uint64_t room, wm_progress *progress) {
  const wm_graph *g = p->g;
#pragma omp parallel
  {
    scratch w = scratch_of(g, zeros, inner, room);
#pragma omp for schedule(dynamic, 1)
    for (int64_t b = 0; b < (int64_t)g->n; b += BLOCK) {
      if (wm_progress_stopped(progress)) continue;
      const int64_t end = b + BLOCK < (int64_t)g->n ? b + BLOCK : (int64_t)g->n;
      for (int64_t v = b; v < end; v++) vertex_walks(p, &w, (uint32_t)v);
      wm_progress_add(progress, (uint64_t)(end - b));
    }
  }
}

/* The same, the blocks claimed from loop id of s, which every process's
 * threads share; a stop here halts the loop for all of them. */
static void walk_claimed(const walk_in *p, uint64_t *zeros, uint32_t *inner, uint64_t room, const wm_share *s,
                         unsigned id, wm_progress *progress) {
  const wm_graph *g = p->g;
#pragma omp parallel
  {
    scratch w = scratch_of(g, zeros, inner, room);
    for (uint64_t b; !wm_progress_stopped(progress) && (b = s->grab(s->ctx, id, BLOCK)) < g->n;) {
      const uint64_t end = b + BLOCK < g->n ? b + BLOCK : g->n;
      for (uint64_t v = b; v < end; v++) vertex_walks(p, &w, (uint32_t)v);
      wm_progress_add(progress, end - b);
    }
    if (wm_progress_stopped(progress)) wm_share_halt(s, id, 1);
  }
}

/* The walks each process made, added up: every arc's and vertex's values
 * but the tips were written by the one process that walked its vertex (the
 * others hold the zeros of wm_o5n_walks_alloc), so the sums of their words
 * are exact; the tips are added exactly, with their carries. */
static int add_processes(const wm_graph *g, const wm_share *s, wm_o5n_walks *w) {
  const uint64_t n = g->n ? g->n : 1, m = g->m ? g->m : 1;
  int over = 0; /* the tips' (several processes' credits): their high words, then the low ones carried into them */
  return wm_o5s_sum_owned(s, w->tdeg, m * sizeof *w->tdeg) || wm_o5s_sum_owned(s, w->F, m * sizeof *w->F) ||
         wm_o5s_sum_owned(s, w->c4e, m * sizeof *w->c4e) || wm_o5s_sum_owned(s, w->toward, m * sizeof *w->toward) ||
         wm_o5s_sum_owned(s, w->walked, n * sizeof *w->walked) || s->sum_u64(s->ctx, w->tips + n, n) ||
         wm_o5s_sum_exact(s, w->tips, n, (int64_t *)(w->tips + n), &over);
}

_Static_assert(sizeof(wm_acc) % sizeof(uint64_t) == 0, "a walked sum is whole words");

int wm_o5n_walks_cpu_shared(const wm_graph *g, const uint32_t *tri, const uint64_t *cn_at, const uint32_t *cn_list,
                            const wm_share *s, wm_o5n_walks *w, wm_progress *progress, wm_error *err) {
  const unsigned id = s ? s->loops(s->ctx, 1) : 0;
  const size_t n = g->n ? g->n : 1, threads = (size_t)omp_get_max_threads();
  const uint64_t room = largest_neighbourhood(g, tri);
  uint64_t *zeros = calloc(SCRATCH_WORDS(n) * threads, sizeof *zeros);
  uint32_t *inner = NULL;
  if (room <= SIZE_MAX / 2 / sizeof *inner / threads) inner = malloc((room ? 2 * room : 1) * threads * sizeof *inner);
  int rc = WM_OK;
  if (!zeros || !inner) {
    rc = wm_fail(err, WM_EINPUT,
                 "orbits: out of memory for the non-induced counts' walks (%u vertices, %llu words per thread)", g->n,
                 (unsigned long long)room);
    if (s) wm_share_halt(s, id, 1);
  }
  const walk_in p = {g, tri, cn_at, cn_list, w};
  if (!rc && s) walk_claimed(&p, zeros, inner, room, s, id, progress);
  else if (!rc) walk_all(&p, zeros, inner, room, progress);
  free(zeros);
  free(inner);
  if (!s) return rc;
  if (!rc && wm_progress_stopped(progress)) rc = wm_interrupted(err, "orbits");
  rc = wm_o5s_agree(s, rc, "orbits", err);
  if (!rc && add_processes(g, s, w)) rc = wm_fail(err, WM_EINPUT, "orbits: MPI: adding the processes' walks failed");
  return rc;
}

int wm_o5n_walks_cpu(const wm_graph *g, const uint32_t *tri, const uint64_t *cn_at, const uint32_t *cn_list,
                     wm_o5n_walks *w, wm_progress *progress, wm_error *err) {
  return wm_o5n_walks_cpu_shared(g, tri, cn_at, cn_list, NULL, w, progress, err);
}
