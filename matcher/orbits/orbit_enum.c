/* The enumerator: every connected induced subgraph of 2..k vertices once
 * (ESU, Wernicke 2006: grown from its smallest vertex, each new vertex taken
 * from the extension set, which gains only the exclusive neighbours of the
 * vertex added), each classified by its edge mask through the orbit tables.
 * It is the oracle of the formula (and of the GPU kernels to come), so it is
 * kept plain.  OpenMP over the arcs v-u, u > v: the subgraphs whose smallest
 * vertex is v and whose second is u, so that a hub's many subgraphs (all
 * rooted at the hub where its id is small) spread over the threads.
 *
 * Each thread keeps one byte per vertex: bit p says "adjacent to the vertex
 * at position p" (p = 0..3), bit 7 marks the root.  A vertex with a zero byte
 * is outside the subgraph's closed neighbourhood, which is what an exclusive
 * neighbour is; the bits also give a new vertex's edges to the positions
 * before it without a search.  The last two levels share one pass over the
 * (k-1)-th vertex's row, and the candidates for the k-th are tallied by
 * their edge bits: each costs one count (its own), and the k-1 vertices
 * already placed get one add per class.
 * Each thread counts into rows of its own where they fit in memory
 * (PRIVATE_BYTES over all threads), summed at the end; else into the shared
 * rows with atomic adds.
 *
 * Edge orbits (run->edges, graphlets of 3..4 vertices) take the plain path:
 * every subgraph is visited (no tally of the last level) and credits each
 * of its edges, whose row is found by a search of the smaller end's row. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "orbits.h"

#define PRIVATE_BYTES ((size_t)1 << 30)

typedef struct ext_buf {
  uint32_t *v;
  size_t cap;
} ext_buf;

typedef struct overflow_note {
  int hit;          /* set once, by the first thread that sees an overflow */
  uint64_t row;     /* the vertex, or the edge in edge mode */
  unsigned orbit;
} overflow_note;

/* Edge rows: edge a-b (a < b) at arc e of a's row is row up_before[a] +
 * (e - first_above[a]), up_before[a] the edges u-v, u < v, with u < a. */
typedef struct edge_rows {
  uint64_t *up_before;   /* n + 1 */
  uint64_t *first_above; /* n: the first arc of each row to a larger vertex */
} edge_rows;

typedef struct walker {
  const wm_graph *g;
  const wm_orbit_run *run; /* its high words take the shared rows' carries */
  const wm_orbit_tables *t;
  unsigned k, orbits;
  uint64_t *counts;   /* the shared rows, or this thread's own */
  int atomic;         /* counts are shared */
  const edge_rows *edges; /* edge mode: the rows are the edges */
  overflow_note *note;
  uint8_t *mark;               /* n bytes, this thread's */
  uint32_t sub[WM_ORBIT_MAX_K];
  ext_buf ext[WM_ORBIT_MAX_K]; /* the extension set of each level */
  int has_root;                /* sub[0] is set and marked */
  uint64_t above;              /* the root's first arc to a larger vertex */
  int oom;
} walker;

/* The first v of a[0, n) with a[v] >= x (n: none). */
static uint32_t lower_bound64(const uint64_t *a, uint32_t n, uint64_t x) {
  uint32_t lo = 0, hi = n;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

static void note_overflow(overflow_note *note, uint64_t row, unsigned o) {
  if (!__atomic_exchange_n(&note->hit, 1, __ATOMIC_ACQ_REL)) note->row = row, note->orbit = o;
}

static void add(walker *w, uint64_t row, unsigned o, uint64_t x) {
  uint64_t *c = &w->counts[(size_t)row * w->orbits + o];
  const uint64_t old = w->atomic ? __atomic_fetch_add(c, x, __ATOMIC_RELAXED) : *c;
  if (!w->atomic) *c = old + x;
  /* private rows start at 0: only the shared ones, started at run->start, carry */
  if (old > UINT64_MAX - x && !(w->atomic && wm_orbit_carry(w->run, c))) note_overflow(w->note, row, o);
}

static unsigned shift_of(unsigned j) { return j * (j - 1) / 2; } /* position j's first mask bit */

static uint64_t edge_row(const walker *w, uint32_t a, uint32_t b) {
  if (a > b) {
    const uint32_t t = a;
    a = b, b = t;
  }
  const uint64_t lo = w->edges->first_above[a], hi = w->g->offsets[a + 1];
  return w->edges->up_before[a] + wm_sorted_lower_bound(w->g->adj + lo, hi - lo, b);
}

static void count_edges(walker *w, unsigned j, unsigned mask) {
  if (j > WM_EDGE_ORBIT_MAX_K) return;
  const uint8_t *orbit = w->t->edge_orbit[j][mask];
  for (unsigned q = 1; q < j; q++)
    for (unsigned p = 0; p < q; p++) {
      const unsigned bit = q * (q - 1) / 2 + p;
      if (orbit[bit] != WM_ORBIT_NONE) add(w, edge_row(w, w->sub[p], w->sub[q]), orbit[bit], 1);
    }
}

static void count_subgraph(walker *w, unsigned j, unsigned mask) {
  if (w->edges) {
    count_edges(w, j, mask);
    return;
  }
  const uint8_t *orbit = w->t->orbit[j][mask];
  for (unsigned p = 0; p < j; p++) add(w, w->sub[p], orbit[p], 1);
}

static int reserve(ext_buf *b, size_t need) {
  if (need <= b->cap) return 1;
  size_t cap = b->cap ? b->cap : 64;
  while (cap < need) cap *= 2;
  uint32_t *v = realloc(b->v, cap * sizeof *v);
  if (!v) return 0;
  b->v = v, b->cap = cap;
  return 1;
}

static void mark_row(walker *w, uint32_t v, uint8_t bit, int on) {
  const wm_graph *g = w->g;
  for (uint64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++)
    w->mark[g->adj[e]] = on ? (uint8_t)(w->mark[g->adj[e]] | bit) : (uint8_t)(w->mark[g->adj[e]] & ~bit);
}

/* The last two positions together, x = ext[i] at position j = k-2: its
 * candidates for position k-1 are the rest of ext (their bits read after
 * N(x) is marked) and x's exclusive neighbours (adjacent to x alone: counted
 * as they are met, never stored). */
static void last_two(walker *w, unsigned j, unsigned mask, const uint32_t *ext, size_t n, size_t i) {
  const wm_graph *g = w->g;
  const uint32_t root = w->sub[0], x = ext[i];
  const unsigned last = j + 1, low = (1u << last) - 1;
  const unsigned xmask = mask | (unsigned)(w->mark[x] & ((1u << j) - 1)) << shift_of(j);
  w->sub[j] = x;
  count_subgraph(w, last, xmask);
  uint64_t tally[16] = {0};
  uint8_t orbit_of[16]; /* the last vertex's orbit by its edge bits */
  for (unsigned bits = 1; bits <= low; bits++)
    orbit_of[bits] = w->t->orbit[last + 1][xmask | bits << shift_of(last)][last];
  for (uint64_t e = g->offsets[x]; e < g->offsets[x + 1]; e++) {
    const uint32_t y = g->adj[e];
    if (w->mark[y]) w->mark[y] |= (uint8_t)(1u << j);
    else if (y > root) tally[1u << j]++, add(w, y, orbit_of[1u << j], 1);
  }
  for (size_t c = i + 1; c < n; c++) {
    const unsigned bits = w->mark[ext[c]] & low;
    tally[bits]++;
    add(w, ext[c], orbit_of[bits], 1);
  }
  mark_row(w, x, (uint8_t)(1u << j), 0);
  for (unsigned bits = 1; bits <= low; bits++) {
    if (!tally[bits]) continue;
    const uint8_t *orbit = w->t->orbit[last + 1][xmask | bits << shift_of(last)];
    for (unsigned p = 0; p < last; p++) add(w, w->sub[p], orbit[p], tally[bits]);
  }
}

static void extend(walker *w, unsigned j, unsigned mask, const uint32_t *ext, size_t n);

/* x = ext[i] at position j, then what grows from there: its extension set
 * is the rest of ext and x's exclusive neighbours. */
static void grow(walker *w, unsigned j, unsigned mask, const uint32_t *ext, size_t n, size_t i) {
  const wm_graph *g = w->g;
  const uint32_t root = w->sub[0], x = ext[i];
  const uint64_t lo = g->offsets[x], hi = g->offsets[x + 1];
  if (j + 1 >= w->k) { /* edge mode's last level: nothing grows from it */
    w->sub[j] = x;
    count_subgraph(w, j + 1, mask | (unsigned)(w->mark[x] & ((1u << j) - 1)) << shift_of(j));
    return;
  }
  ext_buf *next = &w->ext[j];
  if (!reserve(next, n - i - 1 + (hi - lo))) {
    w->oom = 1;
    return;
  }
  size_t m = n - i - 1;
  memcpy(next->v, ext + i + 1, m * sizeof *ext);
  for (uint64_t e = lo; e < hi; e++)
    if (g->adj[e] > root && !w->mark[g->adj[e]]) next->v[m++] = g->adj[e];
  const unsigned xmask = mask | (unsigned)(w->mark[x] & ((1u << j) - 1)) << shift_of(j);
  w->sub[j] = x;
  mark_row(w, x, (uint8_t)(1u << j), 1);
  extend(w, j + 1, xmask, next->v, m);
  mark_row(w, x, (uint8_t)(1u << j), 0);
}

/* The subgraphs whose vertex at position j is ext[i] (ext[0..i) left out):
 * the root's tasks, and each level's loop. */
static void branch(walker *w, unsigned j, unsigned mask, const uint32_t *ext, size_t n, size_t i) {
  if (w->edges) { /* every subgraph visited; k >= 3 */
    grow(w, j, mask, ext, n, i);
  } else if (j + 1 >= w->k || j + 1 >= WM_ORBIT_MAX_K) { /* k = 2: the edge sub[0]-ext[i] */
    add(w, w->sub[0], 0, 1);
    add(w, ext[i], 0, 1);
  } else if (j + 2 >= w->k || j + 2 >= WM_ORBIT_MAX_K) { /* (the second: for the compiler's bounds) */
    last_two(w, j, mask, ext, n, i);
  } else {
    grow(w, j, mask, ext, n, i);
  }
}

/* sub[0..j-1] placed (positions 0..j-1 marked), its edges in mask, and the
 * candidates for position j in ext[0..n). */
static void extend(walker *w, unsigned j, unsigned mask, const uint32_t *ext, size_t n) {
  count_subgraph(w, j, mask);
  for (size_t i = 0; i < n && !w->oom; i++) branch(w, j, mask, ext, n, i);
}

/* The root v at position 0, marked, and its extension set (its neighbours
 * above it) in ext[0]; the previous root unmarked. */
static void set_root(walker *w, uint32_t v) {
  const wm_graph *g = w->g;
  if (w->has_root) {
    mark_row(w, w->sub[0], 1, 0);
    w->mark[w->sub[0]] &= (uint8_t)~0x80;
    w->has_root = 0;
  }
  if (v == UINT32_MAX) return;
  const uint64_t lo = g->offsets[v], hi = g->offsets[v + 1];
  w->above = lo + wm_sorted_lower_bound(g->adj + lo, hi - lo, v + 1);
  if (!reserve(&w->ext[0], hi - w->above + 1)) {
    w->oom = 1;
    return;
  }
  memcpy(w->ext[0].v, g->adj + w->above, (hi - w->above) * sizeof *g->adj);
  w->sub[0] = v;
  w->mark[v] |= 0x80;
  mark_row(w, v, 1, 1);
  w->has_root = 1;
}

/* The task of arc e = v-u with u > v: every subgraph whose smallest vertex
 * is v and whose first vertex after it is u.  Tasks of one root share its
 * set-up while one thread takes them in a row. */
static void arc_task(walker *w, uint64_t e) {
  const wm_graph *g = w->g;
  uint32_t v = w->has_root ? w->sub[0] : 0;
  if (!w->has_root || e < g->offsets[v] || e >= g->offsets[v + 1]) {
    v = lower_bound64(g->offsets + 1, g->n, e + 1); /* the row holding e */
    set_root(w, v);
    if (w->oom) return;
  }
  if (e < w->above) return;
  branch(w, 1, 0, w->ext[0].v, g->offsets[v + 1] - w->above, e - w->above);
}

static void walker_free(walker *w) {
  free(w->mark);
  for (unsigned j = 0; j < WM_ORBIT_MAX_K; j++) free(w->ext[j].v);
}

/* A thread's own rows into the shared ones, checked. */
static void merge(const uint64_t *mine, uint64_t *counts, size_t cells, unsigned orbits, const wm_orbit_run *run,
                  overflow_note *note) {
#pragma omp critical(wm_orbit_enum_merge)
  for (size_t i = 0; i < cells; i++) {
    if (counts[i] > UINT64_MAX - mine[i] && !wm_orbit_carry(run, &counts[i]))
      note_overflow(note, i / orbits, (unsigned)(i % orbits));
    counts[i] += mine[i];
  }
}

static void edge_rows_free(edge_rows *r) {
  free(r->up_before);
  free(r->first_above);
}

static int edge_rows_init(const wm_graph *g, edge_rows *r) {
  r->up_before = malloc(((size_t)g->n + 1) * sizeof *r->up_before);
  r->first_above = malloc(((size_t)g->n + 1) * sizeof *r->first_above);
  if (!r->up_before || !r->first_above) return 0;
  r->up_before[0] = 0;
  for (uint32_t v = 0; v < g->n; v++) {
    const uint64_t lo = g->offsets[v], hi = g->offsets[v + 1];
    r->first_above[v] = lo + wm_sorted_lower_bound(g->adj + lo, hi - lo, v + 1);
    r->up_before[v + 1] = r->up_before[v] + (hi - r->first_above[v]);
  }
  return 1;
}

/* The overflow's message: its vertex, or in edge mode the edge's ends. */
static int overflow(const wm_graph *g, const edge_rows *r, const overflow_note *note, wm_error *err) {
  if (!r) return wm_orbit_overflow(g, (uint32_t)note->row, note->orbit, 64, err);
  const uint32_t a = lower_bound64(r->up_before + 1, g->n, note->row + 1); /* the row holding it */
  const uint32_t b = g->adj[r->first_above[a] + (note->row - r->up_before[a])];
  return wm_edge_orbit_overflow(g, a, b, note->orbit, 64, err);
}

int wm_orbits_enumerate(const wm_graph *g, const wm_orbit_run *run, uint64_t *counts, wm_error *err) {
  const wm_orbit_tables *t = wm_orbit_tables_get(err);
  if (!t) return err->code;
  edge_rows rows = {NULL, NULL};
  if (run->edges && !edge_rows_init(g, &rows)) {
    edge_rows_free(&rows);
    return wm_fail(err, WM_EINPUT, "orbits: out of memory for the edges' rows");
  }
  const unsigned orbits = run->edges ? wm_edge_orbit_count(run->k) : wm_orbit_count(run->k);
  const size_t cells = (size_t)(run->edges ? rows.up_before[g->n] : g->n) * orbits;
  for (size_t i = 0; i < cells; i++) counts[i] = run->start;
  const int shared_rows = cells * sizeof *counts * (size_t)omp_get_max_threads() > PRIVATE_BYTES;
  overflow_note note = {0, 0, 0};
  int oom = 0;
  wm_progress progress;
  wm_progress_init(&progress, "orbits", g->m, 1);
#pragma omp parallel
  {
    walker w;
    memset(&w, 0, sizeof w);
    w.g = g, w.run = run, w.t = t, w.k = run->k, w.orbits = orbits, w.note = &note, w.atomic = shared_rows;
    w.edges = run->edges ? &rows : NULL;
    w.counts = shared_rows ? counts : calloc(cells ? cells : 1, sizeof *counts);
    w.mark = calloc(g->n ? g->n : 1, 1);
    if (!w.mark || !w.counts) w.oom = 1;
#pragma omp for schedule(dynamic, 64)
    for (int64_t e = 0; e < (int64_t)g->m; e++)
      if (!w.oom && !wm_progress_stopped(&progress)) {
        arc_task(&w, (uint64_t)e);
        wm_progress_add(&progress, 1);
      }
    set_root(&w, UINT32_MAX);
    if (w.oom) __atomic_store_n(&oom, 1, __ATOMIC_RELAXED);
    else if (!shared_rows) merge(w.counts, counts, cells, orbits, run, &note);
    if (!shared_rows) free(w.counts);
    walker_free(&w);
  }
  wm_progress_finish(&progress);
  int rc = WM_OK;
  if (wm_progress_stopped(&progress)) rc = wm_interrupted(err, "orbits");
  else if (oom) rc = wm_fail(err, WM_EINPUT, "orbits: out of memory for the enumerator's extension sets");
  else if (note.hit) rc = overflow(g, run->edges ? &rows : NULL, &note, err);
  edge_rows_free(&rows);
  return rc;
}
