/* The connected 4-vertex classes without enumerating the stars.
 *
 * Every connected graph on 4 vertices but the star has a Hamiltonian path
 * (the path, the paw, the 4-cycle, the diamond and K4 do), so the non-star
 * 4-sets are found from the skeleton's 3-edge paths a-b-c-d (b < c, each
 * undirected path once), and a set is counted at one of its Hamiltonian
 * paths only: the one whose key (rank of b, rank of c, rank of a, rank of d
 * among the set's ids) is least, which a table over the set's skeleton and
 * the ids' order answers in O(1).  The work grows with the paths,
 * sum over edges b-c of (d(b) - 1)(d(c) - 1), not with the stars around a
 * hub (C(d, 3)).
 *
 * A star is fixed by its centre's three arc kinds (out, in, mutual).  For
 * each multiset K of three kinds, T_K = sum over vertices c of the triples
 * of c's neighbours of kinds K; each such (c, triple) is a 4-set in which c
 * is adjacent to the other three, so T_K = sum over classes X of N_X times
 * the vertices of X adjacent to the others with leaves of kinds K: the
 * star of K once, the paws, diamonds and K4s (already counted) as their
 * shape says.  Hence N_star(K) = T_K less those. */
#include <omp.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "directed_internal.h"

/* Position pairs of a 4-set (a, b, c, d) = (0, 1, 2, 3) as skeleton bits. */
static unsigned pair_bit(unsigned i, unsigned j) {
  static const unsigned bit[4][4] = {{9, 0, 1, 2}, {0, 9, 3, 4}, {1, 3, 9, 5}, {2, 4, 5, 9}};
  return 1u << bit[i][j];
}

/* accept[skeleton][ranks]: ranks packs each position's rank among the ids
 * in two bits (position 0 lowest). */
static uint8_t accept[64][256];
static pthread_once_t accept_once = PTHREAD_ONCE_INIT;

static int is_path(unsigned mask, const unsigned *q) {
  return (mask & pair_bit(q[0], q[1])) && (mask & pair_bit(q[1], q[2])) && (mask & pair_bit(q[2], q[3]));
}

static unsigned path_key(const unsigned *r, const unsigned *q) {
  return r[q[1]] << 6 | r[q[2]] << 4 | r[q[0]] << 2 | r[q[3]];
}

/* Whether the path 0-1-2-3 is the least Hamiltonian path of mask under ranks r. */
static int least_path(unsigned mask, const unsigned *r) {
  static const unsigned id[4] = {0, 1, 2, 3};
  const unsigned mine = path_key(r, id);
  unsigned q[4];
  for (unsigned t = 0; t < 256; t++) {
    unsigned used = 0;
    for (unsigned i = 0; i < 4; i++) q[i] = t >> (2 * i) & 3, used |= 1u << q[i];
    if (used != 15 || r[q[1]] > r[q[2]] || !is_path(mask, q)) continue;
    if (path_key(r, q) < mine) return 0;
  }
  return 1;
}

static void build_accept(void) {
  unsigned r[4];
  for (unsigned mask = 0; mask < 64; mask++)
    for (unsigned t = 0; t < 256; t++) {
      unsigned used = 0;
      for (unsigned i = 0; i < 4; i++) r[i] = t >> (2 * i) & 3, used |= 1u << r[i];
      accept[mask][t] = used == 15 && least_path(mask, r);
    }
}

/* A thread's marks of N(b) and N(a): tag[x] = stamp << 2 | dir. */
typedef struct walker {
  const wm_dir_skeleton *s;
  uint64_t *tag[2], stamp[2], next_stamp;
  wm_u128 *local;
} walker;

static void mark(walker *w, unsigned level, uint32_t v) {
  const wm_dir_skeleton *s = w->s;
  const uint64_t st = w->stamp[level] = ++w->next_stamp;
  for (uint64_t i = s->off[v]; i < s->off[v + 1]; i++) w->tag[level][s->nbr[i]] = st << 2 | s->dir[i];
}

static inline unsigned tag_of(const walker *w, unsigned level, uint32_t x) {
  const uint64_t t = w->tag[level][x];
  return (t >> 2) == w->stamp[level] ? (unsigned)(t & 3) : 0;
}

static inline unsigned rank_code(uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
  const unsigned ra = (b < a) + (c < a) + (d < a), rb = (a < b) + (c < b) + (d < b);
  const unsigned rc = (a < c) + (b < c) + (d < c), rd = (a < d) + (b < d) + (c < d);
  return ra | rb << 2 | rc << 4 | rd << 6;
}

/* The paths a-b-c-d through b (tag 1 = N(b)) and a (tag 0 = N(a)), c > b. */
static void paths_from(walker *w, uint32_t b, uint32_t a) {
  const wm_dir_skeleton *s = w->s;
  const unsigned ab = tag_of(w, 1, a);
  for (uint64_t ic = s->off[b]; ic < s->off[b + 1]; ic++) {
    const uint32_t c = s->nbr[ic];
    if (c <= b || c == a) continue;
    const unsigned ac = tag_of(w, 0, c);
    const unsigned base = wm_dir_pair_code(4, 1, 0, ab) | wm_dir_pair_code(4, 1, 2, s->dir[ic]) |
                          wm_dir_pair_code(4, 0, 2, ac);
    const unsigned base_mask = pair_bit(0, 1) | pair_bit(1, 2) | (ac ? pair_bit(0, 2) : 0);
    for (uint64_t id = s->off[c]; id < s->off[c + 1]; id++) {
      const uint32_t d = s->nbr[id];
      if (d == b || d == a) continue;
      const unsigned ad = tag_of(w, 0, d), bd = tag_of(w, 1, d);
      const unsigned mask = base_mask | pair_bit(2, 3) | (ad ? pair_bit(0, 3) : 0) | (bd ? pair_bit(1, 3) : 0);
      if (!accept[mask][rank_code(a, b, c, d)]) continue;
      const unsigned code = base | wm_dir_pair_code(4, 2, 3, s->dir[id]) | wm_dir_pair_code(4, 0, 3, ad) |
                            wm_dir_pair_code(4, 1, 3, bd);
      w->local[wm_dir_row_of(4, code)]++;
    }
  }
}

static void paths_of(walker *w, uint32_t b) {
  const wm_dir_skeleton *s = w->s;
  if (s->off[b + 1] - s->off[b] < 2 || s->nbr[s->off[b + 1] - 1] < b) return; /* no c > b */
  mark(w, 1, b);
  for (uint64_t ia = s->off[b]; ia < s->off[b + 1]; ia++) {
    mark(w, 0, s->nbr[ia]);
    paths_from(w, b, s->nbr[ia]);
  }
}

static int nonstar_sets(const wm_dir_skeleton *s, wm_u128 *counts, wm_error *err) {
  const int64_t n = s->n;
  int failed = 0;
  wm_progress p;
  wm_progress_init(&p, "directed 4-paths", s->off[n] + (uint64_t)n, 1);
#pragma omp parallel
  {
    wm_u128 local[WM_DIR_ROWS4] = {0};
    walker w = {s, {calloc((size_t)n + 1, sizeof(uint64_t)), calloc((size_t)n + 1, sizeof(uint64_t))}, {0, 0}, 0,
                local};
    const int ok = w.tag[0] && w.tag[1];
    if (!ok) {
#pragma omp atomic write
      failed = 1;
    }
#pragma omp for schedule(dynamic, 16) nowait
    for (int64_t b = 0; b < n; b++) {
      if (!ok || wm_progress_stopped(&p)) continue;
      paths_of(&w, (uint32_t)b);
      wm_progress_add(&p, wm_dir_units(s, b));
    }
#pragma omp critical(wm_dir_paths)
    for (unsigned r = 0; r < WM_DIR_ROWS4; r++) counts[r] += local[r];
    free(w.tag[0]), free(w.tag[1]);
  }
  wm_progress_finish(&p);
  if (!failed && wm_progress_stopped(&p)) return wm_interrupted(err, "directed 4-paths");
  return failed ? wm_fail(err, WM_EINPUT, "directed motifs: out of memory for the 4-path walk's marks "
                                          "(%llu vertices per thread)", (unsigned long long)n)
                : WM_OK;
}

/* ---- the stars -------------------------------------------------------- */

/* A multiset of three arc kinds (1 out, 2 in, 3 mutual, as a skeleton's
 * dir) as 0..63: the count of each kind in two bits. */
static unsigned kinds_of(unsigned k1, unsigned k2, unsigned k3) {
  return (1u << 2 * (k1 - 1)) + (1u << 2 * (k2 - 1)) + (1u << 2 * (k3 - 1));
}

/* Per vertex c of a class's representative adjacent to the other three:
 * the kinds of its three arcs, added to hits[kinds]. */
static void centres(unsigned code, unsigned *hits) {
  for (unsigned c = 0; c < 4; c++) {
    unsigned k[3], m = 0;
    for (unsigned x = 0; x < 4; x++)
      if (x != c)
        k[m++] = (code >> wm_dir_arc_bit(4, c, x) & 1) | (code >> wm_dir_arc_bit(4, x, c) & 1) << 1;
    if (k[0] && k[1] && k[2]) hits[kinds_of(k[0], k[1], k[2])]++;
  }
}

/* T[kinds]: the triples of neighbours of every vertex, by their kinds. */
static int triples(const wm_dir_skeleton *s, wm_i128 *T) {
  int overflow = 0;
  for (uint32_t v = 0; v < s->n; v++) {
    wm_i128 n[4] = {0, 0, 0, 0};
    for (uint64_t i = s->off[v]; i < s->off[v + 1]; i++) n[s->dir[i]]++;
    for (unsigned a = 1; a <= 3; a++)
      for (unsigned b = a; b <= 3; b++)
        for (unsigned c = b; c <= 3; c++) {
          wm_i128 t = a == c ? wm_choose(n[a], 3)
                      : a == b ? wm_mul_chk(wm_choose(n[a], 2), n[c], &overflow)
                      : b == c ? wm_mul_chk(n[a], wm_choose(n[b], 2), &overflow)
                               : wm_mul_chk(wm_mul_chk(n[a], n[b], &overflow), n[c], &overflow);
          T[kinds_of(a, b, c)] = wm_add_chk(T[kinds_of(a, b, c)], t, &overflow);
        }
  }
  return overflow;
}

static int is_star(unsigned code) {
  unsigned deg[4] = {0}, edges = 0;
  for (unsigned i = 0; i < 4; i++)
    for (unsigned j = i + 1; j < 4; j++)
      if ((code >> wm_dir_arc_bit(4, i, j) & 1) || (code >> wm_dir_arc_bit(4, j, i) & 1)) deg[i]++, deg[j]++, edges++;
  return edges == 3 && (deg[0] == 3 || deg[1] == 3 || deg[2] == 3 || deg[3] == 3);
}

int wm_dir_stars4(const wm_dir_skeleton *s, wm_u128 *counts, wm_error *err) {
  wm_i128 T[64] = {0};
  int overflow = triples(s, T);
  for (unsigned r = 0; r < WM_DIR_ROWS4; r++) {
    const wm_dir_class *c = wm_dir_class_row(4, r);
    if (!c->connected || is_star(c->code)) continue;
    unsigned hits[64] = {0};
    centres(c->code, hits);
    for (unsigned k = 0; k < 64; k++)
      T[k] = wm_sub_chk(T[k], wm_mul_chk((wm_i128)counts[r], hits[k], &overflow), &overflow);
  }
  for (unsigned r = 0; r < WM_DIR_ROWS4; r++) {
    const wm_dir_class *c = wm_dir_class_row(4, r);
    if (!is_star(c->code)) continue;
    unsigned hits[64] = {0}, k = 0;
    centres(c->code, hits);
    while (!hits[k]) k++;
    if (T[k] < 0) return wm_fail(err, WM_EINPUT, "directed motifs: star d4-%u comes out negative (internal error)", r);
    counts[r] = (wm_u128)T[k];
  }
  return overflow ? wm_fail(err, WM_EINPUT, "directed motifs: the stars' triples pass 2^127") : WM_OK;
}

const uint8_t *wm_dir_accept4(void) {
  pthread_once(&accept_once, build_accept);
  return &accept[0][0];
}

int wm_dir_paths4(const wm_dir_skeleton *s, wm_u128 *counts, wm_error *err) {
  pthread_once(&accept_once, build_accept);
  int rc = nonstar_sets(s, counts, err);
  return rc ? rc : wm_dir_stars4(s, counts, err);
}
