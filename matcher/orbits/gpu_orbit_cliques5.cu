/* The clique sums of the 5-vertex orbits on the GPU: the walk of
 * orbit_cliques5.c (its oracle) with a warp where the CPU has a thread.
 * On g relabelled by descending degree (on the host, as the CPU does; the
 * graph on the device, gg, is read as it is where g is in that order
 * already), each triangle w < u < v is met once, from its top edge v-u:
 *   1. triangles per edge: a warp per arc v->u (u < v), the lanes over the
 *      shorter row, copied to the arc u->v;
 *   2. a warp per arc v->u (u < v) with a triangle, from a work counter
 *      (those of more than kHeavyCommon triangles a block each, listed
 *      first): its triangles w, C = N(u) & N(v) listed and stamped, the inner
 *      degrees of C counted over the members' rows laid across the lanes
 *      (for_rows_above), the triangles' credits, the members of each L_T
 *      from the inner edges (a second walk of the same rows), and the
 *      5-cliques on v-u as the motif passes find them.  A member's credits
 *      (66, 70, 5-cliques) are gathered per edge in the warp's scratch, at
 *      its index in C, and added once; the triangles' three vertices take
 *      theirs summed over the warp.  Every add is a 64-bit atomic whose
 *      wrap sets the overflow flag (every credit is >= 0, so a wrap is a
 *      sum past 2^64 - 1, as the CPU finds it).
 * A warp's scratch: four arrays of n (stamps of C and of a w's row, C's
 * inner degrees, a member's index in C) and rows of the largest degree;
 * the warps are as many as fit 3/4 of the free memory.  A last kernel
 * takes the sums back to g's labels (to_g). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "device.h"
#include "orbit_cliques5.h"
#include "gpu_orbit_warps.cuh"

namespace {

/* The sums by gs's ids and arcs, on the device, and the overflow flag. */
struct clique_sums {
  ull *s61, *s66, *s70, *s71, *k5, *k4e;
  int *overflow;
};

/* One warp's slice of the scratch. */
struct clique_scratch {
  uint32_t *in_c;  /* stamp: in C (then among the triangles' w, 5-cliques) */
  uint32_t *of_w;  /* stamp: in the row of the current w (5-cliques) */
  uint32_t *deg_c; /* inner degree in C, zero between edges */
  uint32_t *pos;   /* a member's index in C */
  uint32_t *common, *ia, *ib, *xs; /* rows of the largest degree */
  ull *tsum;       /* per index in C: t_uy + t_vy */
  ull *own;        /* per index in C, 3 words: credits to 66, 70 and 5-cliques */
};

enum { OWN66, OWN70, OWNK5, OWN };

__host__ __device__ inline uint64_t clique_words(uint64_t n, uint64_t maxdeg) {
  return 4 * n + 4 * maxdeg + 2 * maxdeg + 2 * OWN * maxdeg; /* 32-bit words */
}

__device__ clique_scratch clique_slice(uint32_t *base, uint64_t n, uint64_t maxdeg, uint64_t warp) {
  uint32_t *b = base + warp * clique_words(n, maxdeg);
  clique_scratch x;
  x.in_c = b, x.of_w = b + n, x.deg_c = b + 2 * n, x.pos = b + 3 * n;
  x.common = b + 4 * n, x.ia = x.common + maxdeg, x.ib = x.ia + maxdeg, x.xs = x.ib + maxdeg;
  x.tsum = (ull *)(x.xs + maxdeg); /* 8-byte aligned: n and maxdeg words before it are even in number */
  x.own = x.tsum + maxdeg;
  return x;
}

/* 1: t[e] = |N(v) & N(u)| for every arc e = v->u, counted from the arc
 * with u < v and copied to its reverse. */
__global__ void __launch_bounds__(kThreads) arc_triangles(dev_graph g, uint64_t m, uint32_t *t) {
  const int lane = threadIdx.x & 31;
  for (uint64_t e = global_warp(); e < m; e += (uint64_t)gridDim.x * kWarpsPerBlock) {
    const uint32_t v = row_of(g, e), u = g.adj[e];
    if (u > v) continue;
    const uint64_t dv = deg(g, v), du = deg(g, u);
    const uint32_t *s = g.adj + g.off[dv <= du ? v : u], *l = g.adj + g.off[dv <= du ? u : v];
    const uint64_t sl = dv <= du ? dv : du, ll = dv <= du ? du : dv;
    uint64_t c = 0;
    for (uint64_t i = lane; i < sl; i += 32) c += has(l, ll, s[i]);
    c = warp_sum_u64(c);
    if (lane == 0) t[e] = (uint32_t)c, t[g.off[u] + lower_bound(g.adj + g.off[u], du, v)] = (uint32_t)c;
  }
}

/* A member's gathered credit (its index p in C). */
__device__ __forceinline__ void own(const clique_scratch &x, uint32_t p, int which, ull c, int *overflow) {
  credit_u64(&x.own[(uint64_t)p * OWN + which], c, overflow);
}

/* Top edges whose triangle count (|C|) passes this are walked by a block of
 * kHeavyWarps warps each (heavy_arcs), the others by a warp each. */
constexpr int kHeavyWarps = 32;
constexpr uint32_t kHeavyCommon = 256;

/* The calling group of G warps (gw this warp's index, G = 1 a warp, else
 * the block) and this thread's index in it. */
template <int G>
struct group {
  unsigned gw, t;
  __device__ group() : gw(G == 1 ? 0 : threadIdx.x >> 5), t(G == 1 ? (threadIdx.x & 31) : threadIdx.x) {}
};

/* The group's count in *cnt (shared), read by every thread once all added. */
template <int G>
__device__ __forceinline__ uint32_t counted(unsigned *cnt) {
  group_barrier<G>();
  const uint32_t c = *(volatile unsigned *)cnt;
  group_barrier<G>(); /* read by all before the next count zeroes it */
  return c;
}

/* f(y, z) for each member y of C and each z in y's row below y, the
 * members dealt over the group's warps in equal chunks of at most 32,
 * each chunk's rows laid over its warp's lanes (for_rows_above). */
template <int G, class F>
__device__ __forceinline__ void for_member_rows(const dev_graph &g, const uint32_t *common, uint32_t nc, uint8_t *idx,
                                                F f) {
  const group<G> me;
  const uint32_t per = (nc + G - 1) / G, chunk = per < 1 ? 1 : per > 32 ? 32 : per;
  for (uint32_t c0 = me.gw * chunk; c0 < nc; c0 += G * chunk)
    for_rows_above(g, common + c0, nc - c0 < chunk ? nc - c0 : chunk, 0, idx, f);
}

/* The triangles w < u < v on the arc v->u at index i of v's row: v's row
 * before i searched in u's row above u, w's indices in the two rows to ia
 * and ib (in no particular order); returns how many. */
template <int G>
__device__ uint32_t triangles_below(const dev_graph &g, uint32_t v, uint64_t i, uint32_t u, const clique_scratch &x,
                                    unsigned *cnt) {
  const group<G> me;
  const uint32_t *rv = g.adj + g.off[v], *ru = g.adj + g.off[u];
  const uint64_t nu = lower_bound(ru, deg(g, u), u);
  if (me.t == 0) *cnt = 0;
  group_barrier<G>();
  for (uint64_t a = me.t; a < i; a += 32 * G) {
    const uint64_t b = lower_bound(ru, nu, rv[a]);
    if (b == nu || ru[b] != rv[a]) continue;
    const unsigned at = atomicAdd(cnt, 1u);
    x.ia[at] = (uint32_t)a, x.ib[at] = (uint32_t)b;
  }
  return counted<G>(cnt);
}

/* C = N(u) & N(v) (the threads over the shorter row, searching the
 * longer): stamped st, listed in common, each member's index and t_uy +
 * t_vy kept; returns |C|. */
template <int G>
__device__ uint32_t common_of(const dev_graph &g, const uint32_t *t, uint32_t u, uint32_t v,
                              const clique_scratch &x, uint32_t st, unsigned *cnt) {
  const group<G> me;
  const uint64_t dv = deg(g, v), du = deg(g, u);
  const uint32_t s = dv <= du ? v : u, l = dv <= du ? u : v;
  const uint32_t *rs = g.adj + g.off[s], *rl = g.adj + g.off[l];
  const uint64_t ls = deg(g, s), ll = deg(g, l);
  if (me.t == 0) *cnt = 0;
  group_barrier<G>();
  for (uint64_t z = me.t; z < ls; z += 32 * G) {
    const uint64_t p = lower_bound(rl, ll, rs[z]);
    if (p == ll || rl[p] != rs[z]) continue;
    const uint32_t y = rs[z], at = atomicAdd(cnt, 1u);
    x.in_c[y] = st, x.pos[y] = at, x.common[at] = y;
    x.tsum[at] = (ull)t[g.off[s] + z] + t[g.off[l] + p];
  }
  return counted<G>(cnt);
}

/* Each triangle w < u < v on the arc v->u (arc): its edges' 4-cliques and
 * the sums over its vertices' triangles (61, 71); u's, v's and the arc's
 * summed over each warp. */
template <int G>
__device__ void triangle_credits(const dev_graph &g, const uint32_t *t, uint64_t arc, uint32_t v, uint32_t u,
                                 uint32_t found, const clique_scratch &x, const clique_sums &s) {
  const group<G> me;
  const uint32_t *rv = g.adj + g.off[v];
  const ull tuv = t[arc];
  i128 k_vu = 0, pairs = 0, s61_u = 0, s61_v = 0;
  for (uint32_t q = me.t; q < found; q += 32 * G) {
    const uint32_t w = rv[x.ia[q]];
    const ull k = x.deg_c[w], tvw = t[g.off[v] + x.ia[q]], tuw = t[g.off[u] + x.ib[q]];
    const ull p = k * (k - (k > 0)) / 2; /* C(k, 2) */
    credit_u64(&s.k4e[g.off[v] + x.ia[q]], k, s.overflow);
    credit_u64(&s.k4e[g.off[u] + x.ib[q]], k, s.overflow);
    credit_u64(&s.s71[w], p, s.overflow);
    credit_u64(&s.s61[w], (tuw - 1) * (tvw - 1) - k, s.overflow);
    k_vu += k, pairs += p, s61_u += (tuw - 1) * (tuv - 1) - k, s61_v += (tvw - 1) * (tuv - 1) - k;
  }
  k_vu = warp_sum(k_vu), pairs = warp_sum(pairs), s61_u = warp_sum(s61_u), s61_v = warp_sum(s61_v);
  if ((threadIdx.x & 31) == 0) {
    credit_sum(&s.k4e[arc], k_vu, s.overflow);
    credit_sum(&s.s71[u], pairs, s.overflow), credit_sum(&s.s71[v], pairs, s.overflow);
    credit_sum(&s.s61[u], s61_u, s.overflow), credit_sum(&s.s61[v], s61_v, s.overflow);
  }
}

/* The 5-cliques whose two highest ids are u < v: triangles z < y < w among
 * the found w (stamped in_w in x.in_c), each vertex credited (members at
 * their index in C), u and v with them all.  Each warp takes its share of
 * the w, w's row marked in its own slice (mine) with w's own stamp, base +
 * 1 + q, from a range the group took together. */
template <int G>
__device__ void five_clique_credits(const dev_graph &g, const uint32_t *rv, uint32_t u, uint32_t v, uint32_t found,
                                    const clique_scratch &x, const clique_scratch &mine, uint32_t in_w,
                                    uint32_t base, uint8_t *idx, const clique_sums &s) {
  const group<G> me;
  const int lane = threadIdx.x & 31;
  i128 all = 0;
  for (uint32_t q = me.gw; q < found; q += G) {
    const uint32_t w = rv[x.ia[q]], *rw = g.adj + g.off[w], of_w = base + 1 + q;
    const uint64_t above_w = lower_bound(rw, deg(g, w), w);
    uint32_t listed = 0;
    for (uint64_t j0 = 0; j0 < above_w; j0 += 32) {
      const uint64_t j = j0 + lane;
      bool in = false;
      if (j < above_w) {
        mine.of_w[rw[j]] = of_w;
        in = x.in_c[rw[j]] == in_w;
      }
      const unsigned mask = __ballot_sync(0xffffffffu, in);
      if (in) mine.xs[listed + __popc(mask & ((1u << lane) - 1))] = rw[j];
      listed += __popc(mask);
    }
    __syncwarp();
    uint64_t at_w = 0;
    for_rows_above(g, mine.xs, listed, 0, idx, [&](uint32_t y, uint32_t z) {
      if (x.in_c[z] != in_w || mine.of_w[z] != of_w) return;
      at_w++;
      own(x, x.pos[z], OWNK5, 1, s.overflow), own(x, x.pos[y], OWNK5, 1, s.overflow);
    });
    at_w = warp_sum_u64(at_w); /* below C(d, 2) */
    if (lane == 0) own(x, x.pos[w], OWNK5, at_w, s.overflow);
    all += at_w;
    __syncwarp();
  }
  if (lane == 0) credit_sum(&s.k5[u], all, s.overflow), credit_sum(&s.k5[v], all, s.overflow);
}

/* The members' gathered credits, added, and the gathering words zeroed. */
template <int G>
__device__ void flush_members(const clique_scratch &x, uint32_t nc, const clique_sums &s) {
  group_barrier<G>();
  for (uint32_t z = group<G>().t; z < nc; z += 32 * G) {
    const uint32_t y = x.common[z];
    ull *o = &x.own[(uint64_t)z * OWN];
    credit_u64(&s.s66[y], o[OWN66], s.overflow), credit_u64(&s.s70[y], o[OWN70], s.overflow);
    credit_u64(&s.k5[y], o[OWNK5], s.overflow);
    o[OWN66] = o[OWN70] = o[OWNK5] = 0;
  }
  group_barrier<G>();
}

/* Stamps of at most this leave room for an edge's (two and one per w). */
constexpr uint32_t kStampLimit = 0x7FFFFFFFu;

/* The arc v->u (u < v, arc) by a group of G warps, in the scratch x (the
 * group's first warp's slice) and mine (this warp's, for its w's rows);
 * stamp (the same on every thread of the group) only grows, as the stamps
 * of both slices need, until it is near its end and both are cleared.
 * *cnt is the group's counter in shared memory, idx the warp's 32 bytes. */
template <int G>
__device__ void top_edge(const dev_graph &g, const uint32_t *t, uint64_t arc, uint32_t v, uint32_t u,
                         const clique_scratch &x, const clique_scratch &mine, uint32_t &stamp, unsigned *cnt,
                         uint8_t *idx, const clique_sums &s) {
  const group<G> me;
  const uint32_t found = triangles_below<G>(g, v, arc - g.off[v], u, x, cnt);
  if (!found) return; /* no triangle below u: no L_T, no 5-clique either */
  if (stamp > kStampLimit - found) { /* the stamps start again from a cleared slate */
    for (uint64_t y = threadIdx.x & 31; y < g.n; y += 32) mine.in_c[y] = 0, mine.of_w[y] = 0;
    stamp = 0;
    group_barrier<G>();
  }
  const uint32_t st = ++stamp, nc = common_of<G>(g, t, u, v, x, st, cnt);
  for_member_rows<G>(g, x.common, nc, idx, [&](uint32_t y, uint32_t z) {
    if (x.in_c[z] == st) atomicAdd(&x.deg_c[y], 1u), atomicAdd(&x.deg_c[z], 1u);
  });
  group_barrier<G>();
  triangle_credits<G>(g, t, arc, v, u, found, x, s);
  /* L_T of each T = (y, u, v), y < u: the inner edges y-o of C */
  const ull tuv = t[arc];
  for_member_rows<G>(g, x.common, nc, idx, [&](uint32_t y, uint32_t o) {
    if (x.in_c[o] != st) return;
    if (y < u)
      own(x, x.pos[o], OWN70, x.deg_c[y] - 1u, s.overflow),
          own(x, x.pos[o], OWN66, x.tsum[x.pos[y]] + tuv - 6, s.overflow);
    if (o < u)
      own(x, x.pos[y], OWN70, x.deg_c[o] - 1u, s.overflow),
          own(x, x.pos[y], OWN66, x.tsum[x.pos[o]] + tuv - 6, s.overflow);
  });
  group_barrier<G>();
  for (uint32_t z = me.t; z < nc; z += 32 * G) x.deg_c[x.common[z]] = 0;
  if (found >= 3) {
    const uint32_t in_w = ++stamp, *rv = g.adj + g.off[v];
    for (uint32_t q = me.t; q < found; q += 32 * G) x.in_c[rv[x.ia[q]]] = in_w;
    group_barrier<G>();
    five_clique_credits<G>(g, rv, u, v, found, x, mine, in_w, stamp, idx, s);
    stamp += found;
  }
  flush_members<G>(x, nc, s); /* five_clique_credits's w are members of C */
}

/* 2b: the top edges with more than kHeavyCommon triangles, listed. */
__global__ void heavy_arcs(dev_graph g, uint64_t m, const uint32_t *t, uint64_t *list, unsigned long long *count) {
  for (uint64_t e = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; e < m; e += (uint64_t)gridDim.x * blockDim.x)
    if (t[e] > kHeavyCommon && g.adj[e] < row_of(g, e)) list[atomicAdd(count, 1ull)] = e;
}

/* 2: the heavy top edges (list[0..*count)) a block each, from heavy_next;
 * then, in the same launch, every other arc v->u (u < v) with a triangle
 * a warp each, from next (heavy: whether the heavy ones were listed).
 * The blocks that find no heavy edge left walk light ones while a hub's
 * block is still at its edge. */
__global__ void __launch_bounds__(32 * kHeavyWarps)
    top_edges(dev_graph g, uint64_t m, const uint32_t *t, uint32_t *scratch, uint64_t maxdeg, bool heavy,
              const uint64_t *list, const unsigned long long *count, unsigned long long *heavy_next,
              unsigned long long *next, clique_sums s) {
  __shared__ unsigned long long item;
  __shared__ unsigned block_cnt, warp_cnt[kHeavyWarps];
  __shared__ uint8_t idx[kHeavyWarps][32]; /* for_rows_above's */
  const int wib = threadIdx.x >> 5;
  const clique_scratch first = clique_slice(scratch, g.n, maxdeg, (uint64_t)blockIdx.x * kHeavyWarps),
                       x = clique_slice(scratch, g.n, maxdeg, global_warp());
  uint32_t stamp = 0; /* the scratch starts zeroed */
  const unsigned long long heavy_n = heavy ? *count : 0;
  for (;;) {
    if (threadIdx.x == 0) item = take_long(heavy_next);
    __syncthreads();
    const unsigned long long it = item;
    __syncthreads(); /* every thread read it before thread 0 takes the next */
    if (it >= heavy_n) break;
    const uint64_t arc = list[it];
    top_edge<kHeavyWarps>(g, t, arc, row_of(g, arc), g.adj[arc], first, x, stamp, &block_cnt, idx[wib], s);
  }
  for_wanted_arcs<1>(
      g, 0, m, next, [&](uint64_t arc) { return t[arc] > 0 && (!heavy || t[arc] <= kHeavyCommon); },
      [](uint64_t, uint32_t v, uint32_t u) { return u < v; },
      [&](uint64_t arc, uint32_t v, uint32_t u) {
        top_edge<1>(g, t, arc, v, u, x, x, stamp, &warp_cnt[wib], idx[wib], s);
      });
}

/* 3: the sums by g's labels (orbit_cliques5.c's back_to_g), a thread per
 * vertex and per arc of g: each edge's k4e is on its arc from the higher
 * id in gs, twice (from both of its triangles through the edge). */
__global__ void to_g(dev_graph g, dev_graph gs, const uint32_t *new_of, const ull *sums, ull *out) {
  const uint64_t n = g.n, m = g.off[n], at = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x,
                 step = (uint64_t)gridDim.x * blockDim.x;
  for (uint64_t x = at; x < n; x += step)
    for (int i = 0; i < 5; i++) out[i * n + x] = sums[i * n + new_of[x]];
  for (uint64_t e = at; e < m; e += step) {
    const uint32_t nx = new_of[row_of(g, e)], ny = new_of[g.adj[e]], hi = nx > ny ? nx : ny, lo = nx > ny ? ny : nx;
    const uint64_t p = gs.off[hi] + lower_bound(gs.adj + gs.off[hi], deg(gs, hi), lo);
    out[5 * n + e] = sums[5 * n + p] / 2;
  }
}

/* The device's side of a call. */
struct cbufs {
  const wm_gpu_graph *gg;
  int dev;
  uint64_t *s_off, *g_off;
  uint32_t *s_adj, *g_adj, *new_of, *t, *scratch;
  uint64_t *heavy; /* the heavy top edges (heavy_arcs) */
  ull *sums, *out, *next; /* next: the light arcs', the heavy ones', their count */
  int *overflow;
  cudaEvent_t start, end;
};

void release(cbufs &b) {
  void *p[] = {b.s_off, b.g_off, b.s_adj, b.g_adj, b.new_of, b.t, b.scratch, b.heavy, b.sums, b.out, b.next,
               b.overflow};
  for (void *x : p)
    if (x) cudaFree(x);
  if (b.start) cudaEventDestroy(b.start);
  if (b.end) cudaEventDestroy(b.end);
  cudaGetLastError();
}

/* h on the device: gg's copy where it holds h, else uploaded into *off and *adj. */
int upload(const wm_gpu_graph *gg, int dev, const wm_graph *h, uint64_t **off, uint32_t **adj, dev_graph &dg,
           wm_error *err) {
  void *o = NULL, *a = NULL;
  dg.n = h->n;
  if (wm_gpu_graph_on(gg, h, dev, &o, &a)) {
    dg.off = (const uint64_t *)o, dg.adj = (const uint32_t *)a;
    return WM_OK;
  }
  WM_CU(cudaMalloc(off, ((size_t)h->n + 1) * sizeof **off));
  WM_CU(cudaMalloc(adj, (h->m ? h->m : 1) * sizeof **adj));
  WM_CU(cudaMemcpy(*off, h->offsets, ((size_t)h->n + 1) * sizeof **off, cudaMemcpyHostToDevice));
  if (h->m) WM_CU(cudaMemcpy(*adj, h->adj, h->m * sizeof **adj, cudaMemcpyHostToDevice));
  dg.off = *off, dg.adj = *adj;
  return WM_OK;
}

/* Every buffer, before the timed window: gs and g (one where g is gs:
 * same), the map to gs's ids, the triangles, the sums (by gs, then by g)
 * and the warps' scratch, zeroed. */
int prepare(cbufs &b, const wm_graph *gs, const wm_graph *g, bool same, const uint32_t *new_of, uint64_t maxdeg,
            dev_graph &ds, dev_graph &dg, unsigned *warps, wm_error *err) {
  const uint64_t n = gs->n, m = gs->m;
  int rc = upload(b.gg, b.dev, same ? g : gs, &b.s_off, &b.s_adj, ds, err);
  if (rc) return rc;
  dg = ds;
  if (!same && (rc = upload(b.gg, b.dev, g, &b.g_off, &b.g_adj, dg, err))) return rc;
  WM_CU(cudaMalloc(&b.new_of, n * sizeof *b.new_of));
  WM_CU(cudaMalloc(&b.t, (m ? m : 1) * sizeof *b.t));
  WM_CU(cudaMalloc(&b.sums, (5 * n + m) * sizeof *b.sums));
  WM_CU(cudaMalloc(&b.out, (5 * n + m) * sizeof *b.out));
  WM_CU(cudaMalloc(&b.heavy, (m / 2 ? m / 2 : 1) * sizeof *b.heavy));
  WM_CU(cudaMalloc(&b.next, 3 * sizeof *b.next));
  WM_CU(cudaMalloc(&b.overflow, sizeof *b.overflow));
  /* the scratch last: its warps are sized by what the rest left free */
  const uint64_t per_warp = clique_words(n, maxdeg) * sizeof(uint32_t);
  if (!(*warps = warps_fitting(per_warp, m / 2, "clique sums", err))) return err->code;
  if (*warps >= kHeavyWarps) *warps -= *warps % kHeavyWarps; /* whole blocks of the heavy edges' */
  WM_CU(cudaMalloc(&b.scratch, *warps * per_warp));
  WM_CU(cudaMemcpy(b.new_of, new_of, n * sizeof *b.new_of, cudaMemcpyHostToDevice));
  WM_CU(cudaMemset(b.sums, 0, (5 * n + m) * sizeof *b.sums));
  WM_CU(cudaMemset(b.next, 0, 3 * sizeof *b.next));
  WM_CU(cudaMemset(b.overflow, 0, sizeof *b.overflow));
  WM_CU(cudaMemset(b.scratch, 0, *warps * per_warp));
  return set_stop(err);
}

/* The passes on gs, the sums by g's labels into s. */
int run_passes(cbufs &b, const wm_graph *gs, const wm_graph *g, bool same, const uint32_t *new_of,
               wm_orbit_clique_sums *s, double *kernel_ms, wm_error *err) {
  const uint64_t n = gs->n, m = gs->m, maxdeg = wm_graph_max_degree(gs) ? wm_graph_max_degree(gs) : 1;
  dev_graph ds, dg;
  unsigned warps = 0;
  int rc = prepare(b, gs, g, same, new_of, maxdeg, ds, dg, &warps, err);
  if (rc) return rc;
  const clique_sums cs = {b.sums, b.sums + n, b.sums + 2 * n, b.sums + 3 * n, b.sums + 4 * n, b.sums + 5 * n,
                          b.overflow};
  WM_CU(cudaEventCreate(&b.start));
  WM_CU(cudaEventCreate(&b.end));
  WM_CU(cudaEventRecord(b.start, 0));
  /* the heavy edges to blocks where the warps make one */
  const bool heavy = warps >= kHeavyWarps;
  const unsigned per_block = heavy ? kHeavyWarps : kWarpsPerBlock;
  if (m) {
    arc_triangles<<<warps / kWarpsPerBlock, kThreads>>>(ds, m, b.t);
    WM_CU(cudaGetLastError());
    if (heavy) heavy_arcs<<<warps / kWarpsPerBlock, kThreads>>>(ds, m, b.t, b.heavy, b.next + 2);
    WM_CU(cudaGetLastError());
    top_edges<<<warps / per_block, 32 * per_block>>>(ds, m, b.t, b.scratch, maxdeg, heavy, b.heavy, b.next + 2,
                                                      b.next + 1, b.next, cs);
    WM_CU(cudaGetLastError());
  }
  const uint64_t most = n > m ? n : m, blocks = (most + 255) / 256;
  to_g<<<(unsigned)(blocks < 4096 ? blocks : 4096), 256>>>(dg, ds, b.new_of, b.sums, b.out);
  WM_CU(cudaGetLastError());
  float ms = 0;
  rc = wm_gpu_end_timed(b.start, b.end, "orbits", &ms, kernel_ms, err);
  if (rc) return rc;
  unsigned long long nheavy = 0;
  WM_CU(cudaMemcpy(&nheavy, b.next + 2, sizeof nheavy, cudaMemcpyDeviceToHost));
  if (wm_trace_on("WM_ORBIT_TRACE"))
    fprintf(stderr, "orbits (clique sums, GPU): %u warps, g %s, %llu top edges of more than %u triangles by blocks, "
            "kernels %.3f ms\n", warps, same ? "in degree order (read as it is)" : "relabelled by degree", nheavy,
            kHeavyCommon, ms);
  int overflow = 0;
  WM_CU(cudaMemcpy(&overflow, b.overflow, sizeof overflow, cudaMemcpyDeviceToHost));
  if (overflow) return wm_fail(err, WM_EINPUT, "orbits: a sum over the 4-cliques at a vertex or an edge passes 2^64 - 1");
  uint64_t *to[6] = {s->s61, s->s66, s->s70, s->s71, s->k5, s->k4e};
  for (int i = 0; i < 6; i++)
    if (i < 5 || m) WM_CU(cudaMemcpy(to[i], b.out + i * n, (i < 5 ? n : m) * sizeof(ull), cudaMemcpyDeviceToHost));
  return WM_OK;
}

}  // namespace

int wm_orbit_clique_sums_gpu(const wm_graph *g, const struct wm_gpu_graph *gg, wm_orbit_clique_sums *s,
                             double *kernel_ms, wm_error *err) {
  if (!g->n) return WM_OK;
  wm_graph *gs = NULL;
  uint32_t *old_of = NULL;
  if (wm_graph_relabel_by_degree_map(g, &gs, &old_of, err)) return err->code;
  uint32_t *new_of = (uint32_t *)malloc(g->n * sizeof *new_of);
  int rc = new_of ? WM_OK : wm_fail(err, WM_EINPUT, "orbits: out of memory for the clique sums (%u vertices)", g->n);
  bool same = true; /* g is in degree order already: gs is g */
  if (!rc)
    for (uint32_t v = 0; v < g->n; v++) new_of[old_of[v]] = v, same = same && old_of[v] == v;
  if (!rc) {
    cbufs b;
    memset(&b, 0, sizeof b);
    b.gg = gg;
    rc = cudaGetDevice(&b.dev) == cudaSuccess ? WM_OK : wm_fail(err, WM_EDEVICE, "orbits: no CUDA device");
    if (!rc) rc = run_passes(b, gs, g, same, new_of, s, kernel_ms, err);
    release(b);
  }
  free(new_of), free(old_of);
  wm_graph_destroy(gs);
  return rc;
}
