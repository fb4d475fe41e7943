/* CPU BFS: direction-optimising (Beamer), OpenMP.  The oracle of the GPU
 * pipeline and the fallback without a GPU.
 *
 * Top-down steps claim vertices with a compare-and-swap on the level array
 * and collect them in per-thread buffers that are concatenated into the next
 * queue; bottom-up steps let every unvisited vertex look for an in-neighbour
 * on the current level.  The switch uses the same rule as the GPU
 * (wm_bfs_go_bottom_up: gamma = hubs in the frontier / all hubs above
 * o->alpha, or frontier edges above unexplored edges / o->edge_ratio) to turn
 * a growing frontier to bottom-up; a frontier that shrinks below n/24 turns
 * back. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "traversal.h"

enum {
  BACK_TO_TOPDOWN_BETA = 24,
  /* below this many frontier edges a top-down step runs on one thread: one
   * thread scans about an edge a nanosecond where the rows are cached, and
   * a team of 16 costs some tens of microseconds to wake, share and join
   * (facebook's search: 108 us on one thread, 201 us on 16 when a frontier
   * of 256 vertices took the team; scripts/bench-calls.sh) */
  PARALLEL_EDGES = 1 << 16,
};

typedef struct tbuf {
  uint32_t *v;
  uint64_t len, cap;
} tbuf;

typedef struct cpu_bfs {
  const wm_graph *g;
  const wm_graph *in; /* in-arcs for bottom-up: g itself when symmetric */
  uint32_t *level, *parent;
  uint32_t *queue, *next; /* n entries each */
  uint64_t qlen;
  tbuf *bufs; /* one per thread */
  int nt;
  uint64_t tau, nhubs;
  /* figures of the frontier just produced */
  uint64_t f_hubs, f_edges;
  int oom;
  wm_monitor *mon; /* the call's (warpmatch_interrupt), or NULL: polled between levels */
  int stopped;
} cpu_bfs;

static inline uint32_t load(const uint32_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
static inline void store(uint32_t *p, uint32_t x) { __atomic_store_n(p, x, __ATOMIC_RELAXED); }
static inline uint64_t deg(const wm_graph *g, uint32_t v) { return g->offsets[v + 1] - g->offsets[v]; }

static void push(cpu_bfs *b, tbuf *t, uint32_t v) {
  if (t->len == t->cap) {
    uint64_t cap = t->cap ? 2 * t->cap : 1024;
    uint32_t *p = realloc(t->v, cap * sizeof *p);
    if (!p) {
      __atomic_store_n(&b->oom, 1, __ATOMIC_RELAXED);
      return;
    }
    t->v = p;
    t->cap = cap;
  }
  t->v[t->len++] = v;
}

/* Concatenates the per-thread buffers into b->next (called by one thread
 * of the team after a barrier) and swaps the queues. */
static void gather(cpu_bfs *b) {
  uint64_t at = 0;
  for (int t = 0; t < b->nt; t++) {
    if (b->bufs[t].len) memcpy(b->next + at, b->bufs[t].v, b->bufs[t].len * sizeof *b->next);
    at += b->bufs[t].len;
    b->bufs[t].len = 0;
  }
  uint32_t *q = b->queue;
  b->queue = b->next;
  b->next = q;
  b->qlen = at;
}

static void step_topdown(cpu_bfs *b, uint32_t L) {
  const wm_graph *g = b->g;
  uint64_t hubs = 0, edges = 0;
#pragma omp parallel num_threads(b->nt) reduction(+ : hubs, edges) if (b->f_edges >= PARALLEL_EDGES)
  {
    tbuf *t = &b->bufs[omp_get_thread_num()];
#pragma omp for schedule(dynamic, 64)
    for (uint64_t i = 0; i < b->qlen; i++) {
      uint32_t u = b->queue[i];
      for (uint64_t j = g->offsets[u]; j < g->offsets[u + 1]; j++) {
        uint32_t v = g->adj[j], expect = WM_UNREACHED;
        if (load(&b->level[v]) != WM_UNREACHED) continue;
        if (!__atomic_compare_exchange_n(&b->level[v], &expect, L + 1, 0, __ATOMIC_RELAXED,
                                         __ATOMIC_RELAXED))
          continue;
        if (b->parent) b->parent[v] = u;
        if (deg(g, v) >= b->tau) hubs++;
        edges += deg(g, v);
        push(b, t, v);
      }
    }
#pragma omp single
    gather(b);
  }
  b->f_hubs = hubs;
  b->f_edges = edges;
}

/* Every unvisited vertex looks for an in-neighbour on level L; the new
 * frontier stays implicit in the level array. */
static uint64_t step_bottomup(cpu_bfs *b, uint32_t L) {
  const wm_graph *g = b->g, *in = b->in;
  uint64_t found = 0, hubs = 0, edges = 0;
#pragma omp parallel for num_threads(b->nt) schedule(dynamic, 1024) reduction(+ : found, hubs, edges) \
    if (g->n >= WM_BFS_PARALLEL_VERTICES)
  for (uint64_t v = 0; v < g->n; v++) {
    if (load(&b->level[v]) != WM_UNREACHED) continue;
    for (uint64_t j = in->offsets[v]; j < in->offsets[v + 1]; j++) {
      uint32_t w = in->adj[j];
      if (load(&b->level[w]) != L) continue;
      store(&b->level[v], L + 1);
      if (b->parent) b->parent[v] = w;
      found++;
      if (deg(g, (uint32_t)v) >= b->tau) hubs++;
      edges += deg(g, (uint32_t)v);
      break;
    }
  }
  b->f_hubs = hubs;
  b->f_edges = edges;
  return found;
}

/* The queue of level-L vertices, in vertex order (after bottom-up steps). */
static void queue_from_levels(cpu_bfs *b, uint32_t L) {
#pragma omp parallel num_threads(b->nt) if (b->g->n >= WM_BFS_PARALLEL_VERTICES)
  {
    tbuf *t = &b->bufs[omp_get_thread_num()];
    /* static schedule: thread t's block precedes thread t+1's, so the
     * concatenation comes out sorted */
#pragma omp for schedule(static)
    for (uint64_t v = 0; v < b->g->n; v++)
      if (b->level[v] == L) push(b, t, (uint32_t)v);
#pragma omp single
    gather(b);
  }
}

static int seed(cpu_bfs *b, const uint32_t *sources, uint32_t nsources, wm_error *err) {
  b->qlen = 0;
  b->f_hubs = b->f_edges = 0;
  for (uint32_t i = 0; i < nsources; i++) {
    uint32_t s = sources[i];
    if (s >= b->g->n)
      return wm_fail(err, WM_EINPUT, "bfs: source %u is not a vertex (the graph has %u)", s, b->g->n);
    if (b->level[s] == 0) continue; /* duplicate */
    b->level[s] = 0;
    if (b->parent) b->parent[s] = s;
    b->queue[b->qlen++] = s;
    if (deg(b->g, s) >= b->tau) b->f_hubs++;
    b->f_edges += deg(b->g, s);
  }
  return WM_OK;
}

/* The level loop; returns with r->truncated and r->bottom_up_levels set. */
static void run_levels(cpu_bfs *b, const wm_bfs_options *o, wm_bfs_result *r) {
  uint64_t nf = b->qlen, prev_nf = 0, explored = 0;
  int bottom_up = 0;
  uint32_t L = 0;
  for (; nf > 0; L++) {
    /* a level of a large graph takes milliseconds: the flag between them */
    if (wm_monitor_stopped(b->mon)) {
      b->stopped = 1;
      return;
    }
    if (L >= o->max_depth || (o->target != WM_NO_VERTEX && b->level[o->target] != WM_UNREACHED)) {
      r->truncated = 1;
      break;
    }
    explored += b->f_edges;
    if (!bottom_up && o->direction_opt && nf >= prev_nf &&
        wm_bfs_go_bottom_up(o, b->f_hubs, b->nhubs, b->f_edges, b->g->m > explored ? b->g->m - explored : 0))
      bottom_up = 1;
    else if (bottom_up && nf < prev_nf && nf < b->g->n / BACK_TO_TOPDOWN_BETA) {
      bottom_up = 0;
      queue_from_levels(b, L);
    }
    prev_nf = nf;
    if (bottom_up) {
      nf = step_bottomup(b, L);
      r->bottom_up_levels++;
    } else {
      step_topdown(b, L);
      nf = b->qlen;
    }
    if (b->oom) return;
  }
}

static void cpu_bfs_free(cpu_bfs *b) {
  if (b->bufs)
    for (int t = 0; t < b->nt; t++) free(b->bufs[t].v);
  free(b->bufs);
  free(b->queue);
  free(b->next);
}

int wm_bfs_cpu(const wm_graph *g, const uint32_t *sources, uint32_t nsources,
               const wm_bfs_options *o, wm_bfs_result *r, wm_error *err) {
  memset(r, 0, sizeof *r);
  if (nsources == 0) return wm_fail(err, WM_EUSAGE, "bfs: no source vertex given");
  if (o->target != WM_NO_VERTEX && o->target >= g->n)
    return wm_fail(err, WM_EUSAGE, "bfs: target %u is not a vertex (the graph has %u)", o->target, g->n);
  cpu_bfs b = {0};
  b.g = b.in = g;
  b.mon = wm_monitor_current();
  b.nt = o->threads > 0 ? o->threads : omp_get_max_threads();
  wm_graph *own_t = NULL;
  if ((g->flags & WM_GRAPH_DIRECTED) && o->direction_opt) {
    if (o->transpose) {
      b.in = o->transpose;
    } else {
      int rc = wm_graph_transpose(g, &own_t, err);
      if (rc) return rc;
      b.in = own_t;
    }
  }
  wm_bfs_hub_threshold(g, &b.tau, &b.nhubs);
  size_t n = g->n ? g->n : 1;
  r->level = malloc(n * sizeof *r->level);
  r->parent = o->want_parents ? malloc(n * sizeof *r->parent) : NULL;
  b.queue = malloc(n * sizeof *b.queue);
  b.next = malloc(n * sizeof *b.next);
  b.bufs = calloc(b.nt, sizeof *b.bufs);
  int rc = WM_OK;
  if (!r->level || (o->want_parents && !r->parent) || !b.queue || !b.next || !b.bufs) {
    rc = wm_fail(err, WM_EINPUT, "bfs: out of memory for %u vertices", g->n);
    goto done;
  }
  b.level = r->level;
  b.parent = r->parent;
  double t0 = wm_now();
#pragma omp parallel for num_threads(b.nt) schedule(static) if (g->n >= WM_BFS_PARALLEL_VERTICES)
  for (uint64_t v = 0; v < g->n; v++) {
    r->level[v] = WM_UNREACHED;
    if (r->parent) r->parent[v] = WM_UNREACHED;
  }
  if ((rc = seed(&b, sources, nsources, err))) goto done;
  run_levels(&b, o, r);
  r->seconds = wm_now() - t0;
  if (b.oom) {
    rc = wm_fail(err, WM_EINPUT, "bfs: out of memory for the frontier queues");
    goto done;
  }
  if (b.stopped) {
    rc = wm_interrupted(err, "bfs");
    goto done;
  }
  rc = wm_bfs_result_stats(g, r, err);
done:
  cpu_bfs_free(&b);
  wm_graph_destroy(own_t);
  if (rc) wm_bfs_result_free(r);
  return rc;
}
