/* Directed motif counts on the CPU (OpenMP): the triad census for size 3,
 * the skeleton's connected 4-sets for size 4, and the disconnected classes
 * from relations between counts (see derive_disconnected). */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "directed_internal.h"

typedef wm_dir_skeleton skeleton;

static void skeleton_free(skeleton *s) {
  free(s->off);
  free(s->nbr);
  free(s->dir);
}

/* g's in-arcs as a CSR (rows ascending, since sources are visited so). */
static int transpose(const wm_graph *g, uint64_t **toff, uint32_t **tadj, wm_error *err) {
  uint64_t *off = calloc((size_t)g->n + 1, sizeof *off);
  uint32_t *adj = malloc((g->m ? g->m : 1) * sizeof *adj);
  uint64_t *fill = malloc(((size_t)g->n + 1) * sizeof *fill);
  if (!off || !adj || !fill) {
    free(off), free(adj), free(fill);
    return wm_fail(err, WM_EINPUT, "directed motifs: out of memory for the graph's in-arcs (%llu arcs)",
                   (unsigned long long)g->m);
  }
  for (uint64_t e = 0; e < g->m; e++) off[g->adj[e] + 1]++;
  for (uint32_t v = 0; v < g->n; v++) off[v + 1] += off[v];
  memcpy(fill, off, ((size_t)g->n + 1) * sizeof *fill);
  for (uint32_t v = 0; v < g->n; v++)
    for (uint64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++) adj[fill[g->adj[e]]++] = v;
  free(fill);
  *toff = off, *tadj = adj;
  return WM_OK;
}

/* Merges row v's out-arcs a[0..na) and in-arcs b[0..nb) into nbr/dir
 * (either may be NULL: then it only counts); returns the union's size. */
static uint64_t merge_row(const uint32_t *a, uint64_t na, const uint32_t *b, uint64_t nb, uint32_t *nbr,
                          uint8_t *dir) {
  uint64_t i = 0, j = 0, k = 0;
  while (i < na || j < nb) {
    const uint32_t x = i < na ? a[i] : UINT32_MAX, y = j < nb ? b[j] : UINT32_MAX;
    const uint32_t u = x < y ? x : y;
    const uint8_t d = (uint8_t)((i < na && x == u) | (j < nb && y == u) << 1);
    if (d & 1) i++;
    if (d & 2) j++;
    if (nbr) nbr[k] = u, dir[k] = d;
    k++;
  }
  return k;
}

/* Rows of the skeleton from g's out-arcs and its in-arcs (toff, tadj):
 * their sizes, then the rows themselves. */
static int merge_rows(const wm_graph *g, const uint64_t *toff, const uint32_t *tadj, skeleton *s) {
  const int64_t n = g->n;
  s->off = calloc((size_t)n + 1, sizeof *s->off);
  if (!s->off) return WM_EINPUT;
#pragma omp parallel for schedule(dynamic, 1024)
  for (int64_t v = 0; v < n; v++)
    s->off[v + 1] = merge_row(g->adj + g->offsets[v], wm_degree(g, (uint32_t)v), tadj + toff[v], toff[v + 1] - toff[v],
                              NULL, NULL);
  for (int64_t v = 0; v < n; v++) s->off[v + 1] += s->off[v];
  const uint64_t len = s->off[n] ? s->off[n] : 1;
  s->nbr = malloc(len * sizeof *s->nbr), s->dir = malloc(len);
  if (!s->nbr || !s->dir) return WM_EINPUT;
#pragma omp parallel for schedule(dynamic, 1024)
  for (int64_t v = 0; v < n; v++)
    merge_row(g->adj + g->offsets[v], wm_degree(g, (uint32_t)v), tadj + toff[v], toff[v + 1] - toff[v],
              s->nbr + s->off[v], s->dir + s->off[v]);
  return WM_OK;
}

static int skeleton_of(const wm_graph *g, skeleton *s, wm_error *err) {
  uint64_t *toff = NULL;
  uint32_t *tadj = NULL;
  memset(s, 0, sizeof *s);
  s->n = g->n;
  if (transpose(g, &toff, &tadj, err)) return WM_EINPUT;
  const int rc = merge_rows(g, toff, tadj, s);
  free(toff), free(tadj);
  if (rc) {
    skeleton_free(s);
    return wm_fail(err, WM_EINPUT, "directed motifs: out of memory for the undirected skeleton (%llu arcs)",
                   (unsigned long long)g->m);
  }
  return WM_OK;
}

static uint64_t max_row(const skeleton *s) {
  uint64_t d = 0;
  for (uint32_t v = 0; v < s->n; v++)
    if (s->off[v + 1] - s->off[v] > d) d = s->off[v + 1] - s->off[v];
  return d;
}


/* ---- size 3: Batagelj and Mrvar's triad census ------------------------ */

/* Per thread: every triad (v, u, w) with an edge v-u, v < u, counted once
 * (v < u < w, or v < w < u with w not adjacent to v), and the n - |S| - 2
 * triads whose only dyad is v-u, S being the other vertices adjacent to
 * v or u. */
static void census_edge(const skeleton *s, uint32_t v, uint64_t iu, wm_u128 *local) {
  const uint32_t u = s->nbr[iu];
  const unsigned vu = wm_dir_pair_code(3, 0, 1, s->dir[iu]);
  uint64_t i = s->off[v], j = s->off[u], union_size = 0;
  const uint64_t ie = s->off[v + 1], je = s->off[u + 1];
  while (i < ie || j < je) {
    const uint32_t x = i < ie ? s->nbr[i] : UINT32_MAX, y = j < je ? s->nbr[j] : UINT32_MAX;
    const uint32_t w = x < y ? x : y;
    const unsigned dv = x == w ? s->dir[i++] : 0, du = y == w ? s->dir[j++] : 0;
    if (w == u || w == v) continue;
    union_size++;
    if (u < w || (v < w && w < u && !dv))
      local[wm_dir_row_of(3, vu | wm_dir_pair_code(3, 0, 2, dv) | wm_dir_pair_code(3, 1, 2, du))]++;
  }
  local[wm_dir_row_of(3, vu)] += (wm_u128)(s->n - 2 - union_size);
}


/* An interrupt ends it at the next vertex (a hub's takes a while). */
static int triad_census(const skeleton *s, wm_u128 *counts, wm_error *err) {
  const int64_t n = s->n;
  wm_progress p;
  wm_progress_init(&p, "triad census", s->off[n] + (uint64_t)n, 1);
#pragma omp parallel
  {
    wm_u128 local[WM_DIR_ROWS3] = {0};
#pragma omp for schedule(dynamic, 64) nowait
    for (int64_t v = 0; v < n; v++) {
      if (wm_progress_stopped(&p)) continue;
      for (uint64_t iu = s->off[v]; iu < s->off[v + 1]; iu++)
        if (s->nbr[iu] > (uint32_t)v) census_edge(s, (uint32_t)v, iu, local);
      wm_progress_add(&p, wm_dir_units(s, v));
    }
#pragma omp critical(wm_dir_census)
    for (unsigned r = 0; r < WM_DIR_ROWS3; r++) counts[r] += local[r];
  }
  wm_progress_finish(&p);
  return wm_progress_stopped(&p) ? wm_interrupted(err, "triad census") : WM_OK;
}

/* ---- size 4: the skeleton's connected 4-sets (ESU) -------------------- */

/* A thread's marks of the closed neighbourhoods of the set's first three
 * vertices: tag[x] = stamp << 2 | dir while the stamp is current. */
typedef struct esu {
  const skeleton *s;
  uint64_t *tag[3], stamp[3], next_stamp;
  uint32_t *ext; /* the extension after the second vertex */
  wm_u128 *local;
} esu;

static void mark(esu *e, unsigned level, uint32_t v) {
  const skeleton *s = e->s;
  const uint64_t st = e->stamp[level] = ++e->next_stamp;
  uint64_t *tag = e->tag[level];
  for (uint64_t i = s->off[v]; i < s->off[v + 1]; i++) tag[s->nbr[i]] = st << 2 | s->dir[i];
}

static inline unsigned tag_of(const esu *e, unsigned level, uint32_t x) {
  const uint64_t t = e->tag[level][x];
  return (t >> 2) == e->stamp[level] ? (unsigned)(t & 3) : 0;
}

static inline void leaf(esu *e, unsigned base, uint32_t x) {
  const unsigned code = base | wm_dir_pair_code(4, 0, 3, tag_of(e, 0, x)) | wm_dir_pair_code(4, 1, 3, tag_of(e, 1, x)) |
                        wm_dir_pair_code(4, 2, 3, tag_of(e, 2, x));
  e->local[wm_dir_row_of(4, code)]++;
}

/* Set {v, w, w3}: every x of ext[from..len) and of w3's exclusive
 * neighbours (above v, adjacent to neither v nor w) closes a 4-set. */
static void third(esu *e, uint32_t v, uint32_t w, uint32_t w3, uint64_t from, uint64_t len) {
  const skeleton *s = e->s;
  mark(e, 2, w3);
  const unsigned base = wm_dir_pair_code(4, 0, 1, tag_of(e, 0, w)) | wm_dir_pair_code(4, 0, 2, tag_of(e, 0, w3)) |
                        wm_dir_pair_code(4, 1, 2, tag_of(e, 1, w3));
  for (uint64_t i = from; i < len; i++) leaf(e, base, e->ext[i]);
  for (uint64_t i = s->off[w3]; i < s->off[w3 + 1]; i++) {
    const uint32_t x = s->nbr[i];
    if (x > v && !tag_of(e, 0, x) && !tag_of(e, 1, x)) leaf(e, base, x);
  }
}

/* Every connected 4-set whose smallest vertex is v. */
static void root(esu *e, uint32_t v) {
  const skeleton *s = e->s;
  uint64_t first = s->off[v];
  while (first < s->off[v + 1] && s->nbr[first] < v) first++;
  mark(e, 0, v);
  for (uint64_t i1 = first; i1 < s->off[v + 1]; i1++) {
    const uint32_t w = s->nbr[i1];
    mark(e, 1, w);
    uint64_t len = 0;
    for (uint64_t i = i1 + 1; i < s->off[v + 1]; i++) e->ext[len++] = s->nbr[i];
    for (uint64_t i = s->off[w]; i < s->off[w + 1]; i++)
      if (s->nbr[i] > v && !tag_of(e, 0, s->nbr[i])) e->ext[len++] = s->nbr[i];
    for (uint64_t i2 = 0; i2 < len; i2++) third(e, v, w, e->ext[i2], i2 + 1, len);
  }
}

static int connected_4sets(const skeleton *s, wm_u128 *counts, wm_error *err) {
  const int64_t n = s->n;
  const uint64_t ext_len = 2 * max_row(s) + 1;
  int failed = 0;
  wm_progress p;
  wm_progress_init(&p, "directed 4-sets", s->off[n] + (uint64_t)n, 1);
#pragma omp parallel
  {
    wm_u128 local[WM_DIR_ROWS4] = {0};
    esu e = {s, {NULL, NULL, NULL}, {0, 0, 0}, 0, malloc(ext_len * sizeof(uint32_t)), local};
    for (unsigned l = 0; l < 3; l++) e.tag[l] = calloc((size_t)n + 1, sizeof(uint64_t));
    const int ok = e.ext && e.tag[0] && e.tag[1] && e.tag[2];
    if (!ok) {
#pragma omp atomic write
      failed = 1;
    }
#pragma omp for schedule(dynamic, 16) nowait
    for (int64_t v = 0; v < n; v++) {
      if (!ok || wm_progress_stopped(&p)) continue;
      root(&e, (uint32_t)v);
      wm_progress_add(&p, wm_dir_units(s, v));
    }
#pragma omp critical(wm_dir_4sets)
    for (unsigned r = 0; r < WM_DIR_ROWS4; r++) counts[r] += local[r];
    free(e.ext);
    for (unsigned l = 0; l < 3; l++) free(e.tag[l]);
  }
  wm_progress_finish(&p);
  if (!failed && wm_progress_stopped(&p)) return wm_interrupted(err, "directed 4-sets");
  return failed ? wm_fail(err, WM_EINPUT, "directed motifs: out of memory for the 4-vertex enumeration's marks "
                                          "(%llu vertices per thread)", (unsigned long long)n)
                : WM_OK;
}

/* ---- the disconnected classes of size 4 ------------------------------- */

/* A class without a connected 4-set has an isolated vertex beside a
 * connected triad t, or two disjoint dyads, or fewer arcs.  Each such
 * class is the one unknown of a relation whose other terms are known by
 * then, solved in this order:
 *   TRIAD(t): T_t (n - 3) = sum_K N_K (induced triads of class t in K)
 *   AA, AM, MM: pairs of disjoint dyads (asymmetric / mutual), from the
 *     dyad counts and each vertex's: C(A,2) - sum_v C(a_v,2), ...
 *   A, M: A C(n-2, 2) = sum_K N_K (asymmetric dyads of K), M likewise
 *   ALL: C(n, 4) = sum_K N_K (the empty class). */
enum { EQ_TRIAD, EQ_AA, EQ_AM, EQ_MM, EQ_A, EQ_M, EQ_ALL };

/* What the relations read of a 4-vertex class. */
typedef struct class4 {
  unsigned triads[WM_DIR_ROWS3]; /* its 3-subsets by their class's row */
  unsigned a, mu;                /* its asymmetric and mutual dyads */
  unsigned aa, am, mm;           /* its perfect matchings by their dyads' kinds */
  int eq, triad;                 /* a disconnected class's relation (and its triad's row) */
} class4;

static unsigned dyad(unsigned code, unsigned i, unsigned j) {
  return (code >> wm_dir_arc_bit(4, i, j) & 1) + (code >> wm_dir_arc_bit(4, j, i) & 1);
}

static void describe(unsigned code, class4 *c) {
  static const unsigned skip_of[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};
  static const unsigned match[3][4] = {{0, 1, 2, 3}, {0, 2, 1, 3}, {0, 3, 1, 2}};
  memset(c, 0, sizeof *c);
  for (unsigned s = 0; s < 4; s++) {
    const unsigned *q = skip_of[s];
    unsigned sub = 0;
    for (unsigned x = 0; x < 3; x++)
      for (unsigned y = 0; y < 3; y++)
        if (x != y && (code >> wm_dir_arc_bit(4, q[x], q[y]) & 1)) sub |= 1u << wm_dir_arc_bit(3, x, y);
    c->triads[wm_dir_row_of(3, sub)]++;
  }
  for (unsigned i = 0; i < 4; i++)
    for (unsigned j = i + 1; j < 4; j++) c->a += dyad(code, i, j) == 1, c->mu += dyad(code, i, j) == 2;
  for (unsigned p = 0; p < 3; p++) {
    const unsigned d1 = dyad(code, match[p][0], match[p][1]), d2 = dyad(code, match[p][2], match[p][3]);
    c->aa += d1 == 1 && d2 == 1, c->mm += d1 == 2 && d2 == 2, c->am += (d1 == 1 && d2 == 2) || (d1 == 2 && d2 == 1);
  }
  c->eq = c->aa ? EQ_AA : c->am ? EQ_AM : c->mm ? EQ_MM : c->a ? EQ_A : c->mu ? EQ_M : EQ_ALL;
  c->triad = -1;
  for (unsigned t = 0; t < WM_DIR_ROWS3; t++)
    if (c->triads[t] && wm_dir_class_row(3, t)->connected) c->eq = EQ_TRIAD, c->triad = (int)t;
}

static unsigned coef(const class4 *c, int eq, int triad) {
  switch (eq) {
  case EQ_TRIAD: return c->triads[triad];
  case EQ_AA: return c->aa;
  case EQ_AM: return c->am;
  case EQ_MM: return c->mm;
  case EQ_A: return c->a;
  case EQ_M: return c->mu;
  default: return 1;
  }
}

/* The relations' left sides: dyads A (asymmetric) and M (mutual), and
 * the pairs of them that share no vertex. */
typedef struct dyads {
  wm_i128 A, M, AA, AM, MM;
} dyads;

static void count_dyads(const skeleton *s, dyads *d, int *overflow) {
  wm_i128 a2 = 0, m2 = 0, am = 0, a = 0, m = 0;
  for (uint32_t v = 0; v < s->n; v++) {
    wm_i128 av = 0, mv = 0;
    for (uint64_t i = s->off[v]; i < s->off[v + 1]; i++) av += s->dir[i] != 3, mv += s->dir[i] == 3;
    a += av, m += mv, a2 += wm_choose(av, 2), m2 += wm_choose(mv, 2), am += av * mv;
  }
  d->A = a / 2, d->M = m / 2;
  d->AA = wm_sub_chk(wm_choose(d->A, 2), a2, overflow);
  d->MM = wm_sub_chk(wm_choose(d->M, 2), m2, overflow);
  d->AM = wm_sub_chk(wm_mul_chk(d->A, d->M, overflow), am, overflow);
}

static wm_i128 lhs(const dyads *d, const wm_u128 *c3, wm_i128 n, int eq, int triad, int *overflow) {
  switch (eq) {
  case EQ_TRIAD: return wm_mul_chk((wm_i128)c3[triad], n - 3, overflow);
  case EQ_AA: return d->AA;
  case EQ_AM: return d->AM;
  case EQ_MM: return d->MM;
  case EQ_A: return wm_mul_chk(d->A, wm_choose(n - 2, 2), overflow);
  case EQ_M: return wm_mul_chk(d->M, wm_choose(n - 2, 2), overflow);
  default: return wm_choose(n, 4);
  }
}

/* counts[] holds the connected classes; c3 the full triad census. */
static int derive_disconnected(const skeleton *s, const wm_u128 *c3, wm_u128 *counts, wm_error *err) {
  class4 cl[WM_DIR_ROWS4];
  int known[WM_DIR_ROWS4], overflow = 0;
  for (unsigned r = 0; r < WM_DIR_ROWS4; r++)
    describe(wm_dir_class_row(4, r)->code, &cl[r]), known[r] = wm_dir_class_row(4, r)->connected;
  dyads d;
  count_dyads(s, &d, &overflow);
  for (int eq = EQ_TRIAD; eq <= EQ_ALL; eq++)
    for (unsigned r = 0; r < WM_DIR_ROWS4; r++) {
      if (known[r] || cl[r].eq != eq) continue;
      wm_i128 v = lhs(&d, c3, (wm_i128)s->n, eq, cl[r].triad, &overflow);
      for (unsigned o = 0; o < WM_DIR_ROWS4; o++) {
        const unsigned k = coef(&cl[o], eq, cl[r].triad);
        if (o == r || !k) continue;
        if (!known[o])
          return wm_fail(err, WM_EINPUT, "directed motifs: class d4-%u's relation has a second unknown (d4-%u)", r, o);
        v = wm_sub_chk(v, wm_mul_chk((wm_i128)counts[o], k, &overflow), &overflow);
      }
      if (coef(&cl[r], eq, cl[r].triad) != 1 || v < 0)
        return wm_fail(err, WM_EINPUT, "directed motifs: class d4-%u's relation does not solve (internal error)", r);
      counts[r] = (wm_u128)v, known[r] = 1;
    }
  return overflow ? wm_fail(err, WM_EINPUT, "directed motifs: a count of the disconnected classes passes 2^127")
                  : WM_OK;
}

/* ---- the entry point -------------------------------------------------- */

/* 003: the triads not counted, C(n, 3) less the rest; the others from the
 * census on the CPU, or on gpus GPUs. */
static int census_all(const skeleton *s, int gpus, wm_u128 *c3, double *kernel_ms, wm_error *err) {
  const int rc = gpus ? wm_dir_gpu(s, 3, gpus, c3, kernel_ms, err) : triad_census(s, c3, err);
  if (rc) return rc;
  int overflow = 0;
  wm_i128 rest = wm_choose((wm_i128)s->n, 3);
  for (unsigned r = 0; r < WM_DIR_ROWS3; r++)
    if (wm_dir_class_row(3, r)->code) rest = wm_sub_chk(rest, (wm_i128)c3[r], &overflow);
  if (overflow || rest < 0)
    return wm_fail(err, WM_EINPUT, "directed motifs: the triad census does not add up to C(n,3)");
  c3[wm_dir_row_of(3, 0)] = (wm_u128)rest;
  return WM_OK;
}

/* The connected classes of 4: enumerated one by one (ESU), or the stars by
 * their relation and the rest from their paths (directed_paths.c), those
 * on the GPU when run->gpus. */
static int connected_4(const skeleton *s, wm_dir_run *run, wm_u128 *counts, wm_error *err) {
  if (run->enumerate) {
    run->how = "connected 4-sets of the skeleton enumerated (ESU)";
    return connected_4sets(s, counts, err);
  }
  if (!run->gpus) {
    run->how = "the skeleton's 3-edge paths, each 4-set at its least Hamiltonian path; the stars from their "
               "centres' neighbour triples";
    return wm_dir_paths4(s, counts, err);
  }
  run->how = "the skeleton's 3-edge paths on the GPU, a thread per path, each 4-set at its least Hamiltonian path; "
             "the stars from their centres' neighbour triples";
  const int rc = wm_dir_gpu(s, 4, run->gpus, counts, &run->kernel_ms, err);
  return rc ? rc : wm_dir_stars4(s, counts, err);
}

int wm_motifs_directed_run(const wm_graph *g, unsigned k, wm_dir_run *run, wm_u128 *counts, wm_error *err) {
  if (k != 3 && k != 4)
    return wm_fail(err, WM_EUSAGE, "directed motifs: size %u; directed motifs have 3 or 4 vertices", k);
  if (k == 4 && run->enumerate) run->gpus = 0; /* the enumeration is the CPU's */
  run->on_gpu = run->gpus > 0, run->kernel_ms = 0;
  int rc = wm_dir_tables_check(err);
  skeleton s;
  if (!rc) rc = skeleton_of(g, &s, err);
  if (rc) return rc;
  memset(counts, 0, wm_dir_rows(k) * sizeof *counts);
  if (k == 3) {
    rc = census_all(&s, run->gpus, counts, &run->kernel_ms, err);
    run->how = run->gpus ? "triad census over the skeleton's edges on the GPU, a thread per (edge, neighbour); 003 "
                           "as C(n,3) less the rest"
                         : "triad census (Batagelj-Mrvar) over the skeleton's edges; 003 as C(n,3) less the rest";
  } else {
    rc = connected_4(&s, run, counts, err);
    wm_u128 c3[WM_DIR_ROWS3] = {0};
    if (!rc && run->all) rc = census_all(&s, run->gpus, c3, &run->kernel_ms, err);
    if (!rc && run->all) rc = derive_disconnected(&s, c3, counts, err);
  }
  skeleton_free(&s);
  return rc;
}

int wm_motifs_directed(const wm_graph *g, unsigned k, int all, int enumerate, wm_u128 *counts, const char **how,
                       wm_error *err) {
  wm_dir_run run = {all, enumerate, 0, 0, 0, NULL};
  const int rc = wm_motifs_directed_run(g, k, &run, counts, err);
  *how = run.how ? run.how : "";
  return rc;
}
