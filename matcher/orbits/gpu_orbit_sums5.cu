/* The 5-vertex orbit formula's sums on the GPU (orbit_formula5.c's walk,
 * its oracle, with a warp where the CPU has a thread).
 *
 * A warp takes a task (x and a range of its v1, from an atomic counter,
 * heaviest first) and walks the same tree of connected 4-sets as the CPU
 * (the 3-stars left out, as there):
 * its lanes share each list operation (the marks of a row, an extension
 * set, a common list, a tally's walk over many rows as one range), and at
 * the last level each lane takes a v3 and its terms.  Each warp has slices
 * of its own in global memory: the marks and three tallies, n entries each
 * (so the warps are as many as fit in 3/4 of the free memory), and the
 * lists, a few times the largest degree.  A tally is built when the scans
 * it spares have cost as much (ski rental, as on the CPU, decided per v2
 * instead of per scan).
 *
 * Sums are per task, 128-bit (two 64-bit words in shared memory, the carry
 * added with a second atomic); every term is at most n times a set count,
 * so a high word past 2^63 is flagged as the overflow the host reports.
 * The host solves each vertex's equations (orbit_formula5.c). */
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "gpu_check.h"
#include "gpu_stop.cuh"
#include "orbit_equations5.h"

namespace {

constexpr int kWarpsPerBlock = 4;
constexpr int kThreads = 32 * kWarpsPerBlock;
constexpr int kWarpsPerSm = 32;
constexpr unsigned kFull = 0xffffffffu;

struct tables { /* the equations' part the walk reads (wm_o5_equations) */
  uint8_t nuse[MASKS4], nuse3[MASKS4], nper3[MASKS4];
  wm_o5_use uses[MASKS4][15];
};

/* A tally's state, shared by the warp's lanes. */
struct tstate {
  uint32_t nt;
  int state; /* 1: counted; 2: scanning until it pays to count */
  unsigned long long walk, spent;
};

struct wstate { /* per warp, in shared memory */
  unsigned long long e_lo[ORBITS5], e_hi[ORBITS5];
  unsigned long long count[8], sums[8][8];
  tstate cx, c1, k01;
  unsigned stop_poll; /* lane 0's clock at its last read of the stop word (wm_stop_due) */
  int stopped;
};

struct params {
  const uint64_t *off;
  const uint32_t *adj, *tri;
  const uint64_t *bits; /* n x n adjacency bits, or NULL */
  uint32_t n;
  const wm_o5_task *tasks;
  uint32_t ntasks;
  unsigned long long *next;
  unsigned char *scratch; /* per warp: stride bytes */
  uint64_t stride, maxdeg;
  const tables *q;
  wm_i128 *sums;  /* ntasks x ORBITS5 */
  int *of;        /* per task */
  wm_stop *stop; /* the call's stop word (device/gpu_stop.cuh), or NULL: read at each take */
};

/* One warp's slices. */
struct slices {
  uint8_t *mark;
  uint32_t *cx, *cxt, *c1, *c1t, *k01, *k01t;
  uint32_t *common[8]; /* 3, 5, 6, 7 */
  uint32_t *ext2, *ext3;
  uint32_t *past; /* per index of N(x): the first index at or after it whose vertex is not a leaf */
};

__host__ __device__ uint64_t slice_bytes(uint32_t n, uint64_t maxdeg) {
  const uint64_t marks = ((uint64_t)n + 15) / 16 * 16;
  return marks + 6ull * n * 4 + (4 * (maxdeg + 1) + 2 * maxdeg + 1 + 3 * maxdeg + 1 + maxdeg + 1) * 4;
}

__device__ slices slices_of(const params &p, uint64_t warp) {
  unsigned char *b = p.scratch + warp * p.stride;
  slices s;
  s.mark = b;
  uint32_t *u = (uint32_t *)(b + ((uint64_t)p.n + 15) / 16 * 16);
  s.cx = u, s.cxt = u + p.n, s.c1 = u + 2ull * p.n, s.c1t = u + 3ull * p.n, s.k01 = u + 4ull * p.n,
  s.k01t = u + 5ull * p.n;
  u += 6ull * p.n;
  for (int t = 0; t < 8; t++) s.common[t] = NULL;
  const unsigned lists[4] = {3, 5, 6, 7};
  for (int i = 0; i < 4; i++) s.common[lists[i]] = u, u += p.maxdeg + 1;
  s.ext2 = u, u += 2 * p.maxdeg + 1;
  s.ext3 = u, u += 3 * p.maxdeg + 1;
  s.past = u;
  return s;
}

__device__ __forceinline__ uint64_t deg(const params &p, uint32_t v) { return p.off[v + 1] - p.off[v]; }

__device__ __forceinline__ uint64_t lower(const uint32_t *row, uint64_t len, uint32_t x) {
  uint64_t lo = 0, hi = len;
  while (lo < hi) {
    const uint64_t mid = (lo + hi) / 2;
    if (row[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

__device__ __forceinline__ bool adjacent(const params &p, uint32_t v, uint32_t z) {
  if (p.bits) {
    const uint64_t bit = (uint64_t)v * p.n + z;
    return p.bits[bit >> 6] >> (bit & 63u) & 1u;
  }
  const uint32_t *row = p.adj + p.off[v];
  const uint64_t len = deg(p, v), at = lower(row, len, z);
  return at < len && row[at] == z;
}

__device__ __forceinline__ uint32_t edge_triangles(const params &p, uint32_t a, uint32_t b) {
  if (deg(p, a) > deg(p, b)) {
    const uint32_t t = a;
    a = b, b = t;
  }
  return p.tri[p.off[a] + lower(p.adj + p.off[a], deg(p, a), b)];
}

__device__ __forceinline__ uint64_t warp_sum(uint64_t x) {
  for (int d = 16; d; d >>= 1) x += __shfl_xor_sync(kFull, x, d);
  return x;
}

__device__ __forceinline__ int lane_id() { return threadIdx.x & 31; }

/* The lanes whose keep is set append their items to out[len..] in lane
 * order; the new length, the same in every lane. */
__device__ __forceinline__ uint32_t append(uint32_t *out, uint32_t len, bool keep, uint32_t item) {
  const unsigned b = __ballot_sync(kFull, keep);
  if (keep) out[len + __popc(b & ((1u << lane_id()) - 1u))] = item;
  return len + __popc(b);
}

/* Whole warp: step(f, valid) for every arc f of the rows of list[0..len),
 * 32 rows at a time walked as one range (their lengths' prefix across the
 * lanes), so that many short rows keep the lanes as busy as one long row.
 * Every lane calls step each round (valid says whether f is one). */
template <class Step>
__device__ __forceinline__ void for_rows(const params &p, const uint32_t *list, uint64_t len, Step step) {
  const int lane = lane_id();
  for (uint64_t e0 = 0; e0 < len; e0 += 32) {
    uint64_t start = 0, n = 0;
    if (e0 + lane < len) {
      const uint32_t u = list[e0 + lane];
      start = p.off[u], n = p.off[u + 1] - start;
    }
    uint64_t incl = n;
    for (int d = 1; d < 32; d <<= 1) {
      const uint64_t y = __shfl_up_sync(kFull, incl, d);
      if (lane >= d) incl += y;
    }
    const uint64_t excl = incl - n, total = __shfl_sync(kFull, incl, 31);
    for (uint64_t i0 = 0; i0 < total; i0 += 32) {
      const uint64_t i = i0 + lane;
      int j = 0; /* the last lane whose range starts at or before i */
      for (int s = 16; s; s >>= 1)
        if (__shfl_sync(kFull, excl, j + s) <= i) j += s;
      const uint64_t at = __shfl_sync(kFull, start, j) + (i - __shfl_sync(kFull, excl, j));
      step(at, i < total);
    }
  }
}

__device__ void tally_walk(const params &p, tstate *ts, uint32_t *c, uint32_t *touched, const uint32_t *list,
                           uint64_t len, uint32_t skip) {
  for_rows(p, list, len, [&](uint64_t f, bool valid) {
    if (!valid) return;
    const uint32_t v = p.adj[f];
    if (v != skip && atomicAdd(&c[v], 1u) == 0) touched[atomicAdd(&ts->nt, 1u)] = v;
  });
  __syncwarp();
  if (lane_id() == 0) ts->state = 1;
  __syncwarp();
}

__device__ void tally_clear(tstate *ts, uint32_t *c, const uint32_t *touched) {
  const uint32_t nt = ts->nt;
  for (uint32_t i = lane_id(); i < nt; i += 32) c[touched[i]] = 0;
  __syncwarp();
  if (lane_id() == 0) ts->nt = 0, ts->state = 0, ts->spent = 0, ts->walk = 0;
  __syncwarp();
}

/* The degrees of list's vertices summed: what a tally of it costs. */
__device__ uint64_t walk_cost(const params &p, const uint32_t *list, uint64_t len) {
  uint64_t c = 0;
  for (uint64_t i = lane_id(); i < len; i += 32) c += deg(p, list[i]);
  return warp_sum(c);
}

/* One lane's view of the walk at the last level. */
struct at3 {
  uint32_t s[4];
  uint32_t len[8];
  const slices *w;
  const wstate *ws;
  unsigned long long spent_c1, spent_k01;
};

/* The vertices adjacent to all of U (positions), S's own included (as
 * orbit_formula5.c's common_scan). */
__device__ uint64_t common_scan(const params &p, at3 &a, unsigned u) {
  const slices &w = *a.w;
  int paying = 0;
  if ((u & 7u) == 3u && (u & 8u)) {
    if (a.ws->k01.state == 1) return w.k01[a.s[3]];
    paying = 2;
  } else if ((u & 3u) == 2u && __popc(u) == 2) {
    if (a.ws->c1.state == 1) return w.c1[a.s[31 - __clz(u)]];
    paying = 1;
  }
  const uint32_t *list = NULL;
  uint64_t len = UINT64_MAX;
  unsigned known = 0;
  for (unsigned t = 3; t <= 7; t++) {
    if (__popc(t) < 2 || (u & t) != t) continue;
    if (a.len[t] < len) len = a.len[t], list = w.common[t], known = t;
  }
  for (unsigned i = 0; i < 4; i++)
    if ((u >> i & 1u) && deg(p, a.s[i]) < len) len = deg(p, a.s[i]), list = p.adj + p.off[a.s[i]], known = 1u << i;
  const unsigned bits = u & ~known & 7u;
  const bool search = (u & ~known) >> 3 & 1u;
  if (paying == 1) a.spent_c1 += len;
  if (paying == 2) a.spent_k01 += len;
  uint64_t c = 0;
  for (uint64_t e = 0; e < len; e++) {
    const uint32_t z = list[e];
    c += (w.mark[z] & bits) == bits && (!search || adjacent(p, a.s[3], z));
  }
  return c;
}

__device__ uint64_t outside_common(const params &p, at3 &a, unsigned mask, const wm_o5_use &x) {
  const unsigned u = x.u;
  uint64_t c;
  if (x.size == 1) {
    c = deg(p, a.s[__ffs(u) - 1]);
  } else if (x.size == 2) {
    const unsigned lo = __ffs(u) - 1, hi = 31 - __clz(u);
    if (mask >> (hi * (hi - 1) / 2 + lo) & 1u) c = edge_triangles(p, a.s[lo], a.s[hi]);
    else if (lo == 0) c = a.w->cx[a.s[hi]];
    else c = common_scan(p, a, u);
  } else {
    c = common_scan(p, a, u);
  }
  return c - x.inside;
}

__device__ __forceinline__ void add_e(wstate *ws, unsigned row, unsigned long long v) {
  if (!v) return;
  const unsigned long long old = atomicAdd(&ws->e_lo[row], v);
  if (old + v < old) atomicAdd(&ws->e_hi[row], 1ull);
}

/* Sums over the v3 of each pattern in `patterns` of |common[t] ^ N(v3)|
 * (orbit_formula5.c's pattern_sums): a walk of common[t]'s rows or a scan
 * per v3, whichever costs less. */
__device__ void pattern_sums(const params &p, const slices &w, wstate *ws, const uint32_t *len, uint32_t n3,
                             unsigned t, unsigned patterns) {
  const uint32_t *l = w.common[t];
  const uint64_t lt = len[t];
  const uint64_t walk = walk_cost(p, l, lt);
  uint64_t scan = 0;
  for (uint32_t k = lane_id(); k < n3; k += 32) {
    const uint32_t v3 = w.ext3[k];
    const uint64_t d = deg(p, v3);
    if (patterns >> (w.mark[v3] & 7u) & 1u) scan += d < lt ? d : lt;
  }
  scan = warp_sum(scan);
  if (walk <= scan) {
    for_rows(p, l, lt, [&](uint64_t f, bool valid) {
      const uint8_t m = valid ? w.mark[p.adj[f]] : 0;
      const unsigned key = (m & 8u) ? (m & 15u) : 0u;
      const unsigned g = __match_any_sync(kFull, key);
      if (key && lane_id() == __ffs(g) - 1) atomicAdd(&ws->sums[t][key & 7u], (unsigned long long)__popc(g));
    });
    __syncwarp();
    return;
  }
  for (uint32_t k = lane_id(); k < n3; k += 32) {
    const uint32_t v3 = w.ext3[k];
    const unsigned pat = w.mark[v3] & 7u;
    if (!(patterns >> pat & 1u)) continue;
    uint64_t c = 0;
    if (deg(p, v3) < lt) {
      for (uint64_t f = p.off[v3]; f < p.off[v3 + 1]; f++) c += (w.mark[p.adj[f]] & t) == t;
    } else {
      for (uint64_t i = 0; i < lt; i++) c += adjacent(p, v3, l[i]);
    }
    if (c) atomicAdd(&ws->sums[t][pat], (unsigned long long)c);
  }
  __syncwarp();
}

/* common[5], [6], [7] from v2's row and the marks. */
__device__ void level2_lists(const params &p, const slices &w, uint32_t v2, uint32_t *len) {
  uint32_t l5 = 0, l6 = 0, l7 = 0;
  for (uint64_t e0 = p.off[v2]; e0 < p.off[v2 + 1]; e0 += 32) {
    const uint64_t e = e0 + lane_id();
    const bool ok = e < p.off[v2 + 1];
    const uint32_t z = ok ? p.adj[e] : 0;
    const unsigned m = ok ? w.mark[z] & 3u : 0u;
    l5 = append(w.common[5], l5, m & 1u, z);
    l6 = append(w.common[6], l6, m & 2u, z);
    l7 = append(w.common[7], l7, m == 3u, z);
  }
  len[5] = l5, len[6] = l6, len[7] = l7;
  __syncwarp();
}

/* A tally that has paid for itself (spent >= walk) is made before the
 * last level's terms read it. */
__device__ void pay_tallies(const params &p, const slices &w, wstate *ws, uint32_t v1, const uint32_t *len) {
  if (ws->c1.state == 2 && ws->c1.spent >= ws->c1.walk)
    tally_walk(p, &ws->c1, w.c1, w.c1t, p.adj + p.off[v1], deg(p, v1), v1);
  if (ws->k01.state == 2 && ws->k01.spent >= ws->k01.walk)
    tally_walk(p, &ws->k01, w.k01, w.k01t, w.common[3], len[3], UINT32_MAX);
}

/* The sets {x, v1, v2, v3} for every v3 of ext3 (orbit_formula5.c's
 * last_level): per v3 the terms with v3 and at most one other position, a
 * lane each; per pattern of v3's edges the rest. */
__device__ void last_level(const params &p, const tables &q, const slices &w, wstate *ws, const uint32_t *s,
                           uint32_t *len, uint32_t n3) {
  const int lane = lane_id();
  level2_lists(p, w, s[2], len);
  pay_tallies(p, w, ws, s[1], len);
  const unsigned low = 1u | (unsigned)(w.mark[s[2]] & 3u) << 1;
  if (lane < 8) ws->count[lane] = 0;
  for (int i = lane; i < 64; i += 32) ws->sums[i >> 3][i & 7] = 0;
  __syncwarp();
  at3 a;
  for (int i = 0; i < 3; i++) a.s[i] = s[i];
  for (int t = 0; t < 8; t++) a.len[t] = len[t];
  a.w = &w, a.ws = ws, a.spent_c1 = 0, a.spent_k01 = 0;
  for (uint32_t k = lane; k < n3; k += 32) {
    const uint32_t v3 = w.ext3[k];
    const unsigned pat = w.mark[v3] & 7u, mask = low | pat << 3;
    a.s[3] = v3;
    w.mark[v3] |= 8u;
    atomicAdd(&ws->count[pat], 1ull);
    for (unsigned i = 0; i < q.nper3[mask]; i++) {
      const wm_o5_use x = q.uses[mask][i];
      add_e(ws, x.row, outside_common(p, a, mask, x));
    }
  }
  __syncwarp();
  unsigned need[8] = {0};
  for (unsigned pat = 1; pat < 8; pat++)
    for (unsigned i = q.nper3[low | pat << 3]; ws->count[pat] && i < q.nuse3[low | pat << 3]; i++)
      need[q.uses[low | pat << 3][i].u & 7u] |= 1u << pat;
  for (unsigned t = 3; t < 8; t++)
    if (need[t]) pattern_sums(p, w, ws, len, n3, t, need[t]);
  for (uint32_t k = lane; k < n3; k += 32) w.mark[w.ext3[k]] &= (uint8_t)~8u;
  __syncwarp();
  for (unsigned pat = 1; pat < 8; pat++) {
    const unsigned mask = low | pat << 3;
    const unsigned long long cnt = ws->count[pat];
    if (!cnt) continue;
    for (unsigned i = q.nper3[mask] + lane; i < q.nuse[mask]; i += 32) {
      const wm_o5_use x = q.uses[mask][i];
      unsigned long long v;
      if (i < q.nuse3[mask]) v = ws->sums[x.u & 7u][pat] - cnt * x.inside;
      else v = cnt * outside_common(p, a, mask, x);
      add_e(ws, x.row, v);
    }
  }
  const uint64_t c1 = warp_sum(a.spent_c1), k01 = warp_sum(a.spent_k01);
  __syncwarp();
  if (lane == 0) ws->c1.spent += c1, ws->k01.spent += k01;
  __syncwarp();
}

/* ext = prev[from..len) then the exclusive neighbours of v (unmarked). */
__device__ uint32_t extend(const params &p, const slices &w, const uint32_t *prev, uint32_t len, uint32_t from,
                           uint32_t v, uint32_t *out) {
  const uint32_t kept = len - from;
  for (uint32_t i = lane_id(); i < kept; i += 32) out[i] = prev[from + i];
  uint32_t n = kept;
  for (uint64_t e0 = p.off[v]; e0 < p.off[v + 1]; e0 += 32) {
    const uint64_t e = e0 + lane_id();
    const uint32_t z = e < p.off[v + 1] ? p.adj[e] : 0;
    n = append(out, n, e < p.off[v + 1] && !w.mark[z], z);
  }
  __syncwarp();
  return n;
}

/* orbit_formula5.c's extend_last: ext3 less the v3 that would make S a
 * 3-star, without reading the part of ext2 those come from (nx: x's
 * neighbours at its head; c3: common[3]'s length). */
__device__ uint32_t extend_last(const params &p, const slices &w, uint32_t v2, uint32_t j, uint32_t nx, uint32_t n2,
                                uint32_t c3) {
  if (j < nx && (w.mark[v2] & 2u)) return extend(p, w, w.ext2, n2, j + 1, v2, w.ext3);
  uint32_t n = 0;
  unsigned want = 2u;
  if (j < nx) {
    const uint32_t lo = (uint32_t)lower(w.common[3], c3, v2), tail = c3 - lo, excl = n2 - nx;
    for (uint32_t i = lane_id(); i < tail; i += 32) w.ext3[i] = w.common[3][lo + i];
    for (uint32_t i = lane_id(); i < excl; i += 32) w.ext3[tail + i] = w.ext2[nx + i];
    n = tail + excl, want = 1u;
  }
  for (uint64_t e0 = p.off[v2]; e0 < p.off[v2 + 1]; e0 += 32) {
    const uint64_t e = e0 + lane_id();
    const bool ok = e < p.off[v2 + 1];
    const uint32_t z = ok ? p.adj[e] : 0;
    const uint8_t m = ok ? w.mark[z] : 0;
    n = append(w.ext3, n, ok && (!m || (m == want && z > v2)), z);
  }
  __syncwarp();
  return n;
}

__device__ void mark_position(const params &p, const slices &w, uint32_t v, unsigned bit, bool on) {
  for (uint64_t e = p.off[v] + lane_id(); e < p.off[v + 1]; e += 32) {
    const uint32_t z = p.adj[e];
    w.mark[z] = on ? (uint8_t)(w.mark[z] | bit) : (uint8_t)(w.mark[z] & ~bit);
  }
  __syncwarp();
  if (lane_id() == 0) w.mark[v] = on ? (uint8_t)(w.mark[v] | 0x80u) : (uint8_t)(w.mark[v] & ~0x80u);
  __syncwarp();
}

/* past[k] for k in [0, d(x)]: the first index at or after k of N(x) whose
 * vertex is not a leaf (d(x) where none is), 32 indexes at a time from the
 * end, each a suffix minimum across the lanes. */
__device__ void past_leaves(const params &p, const slices &w, uint32_t x) {
  const uint32_t d = (uint32_t)deg(p, x), lane = (uint32_t)lane_id();
  const uint32_t *row = p.adj + p.off[x];
  uint32_t carry = d;
  if (lane == 0) w.past[d] = d;
  for (uint32_t top = d; top > 0;) {
    const uint32_t base = top >= 32 ? top - 32 : 0, k = base + lane;
    uint32_t v = k < top && deg(p, row[k]) != 1 ? k : carry;
    for (uint32_t s = 1; s < 32; s <<= 1) {
      const uint32_t o = __shfl_down_sync(kFull, v, s);
      if (lane + s < 32 && o < v) v = o;
    }
    if (k < top) w.past[k] = v;
    carry = __shfl_sync(kFull, v, 0);
    top = base;
  }
  __syncwarp();
}

/* The sets of x whose v1 is N(x)[begin, end) (orbit_formula5.c's sets_of). */
__device__ void sets_of(const params &p, const tables &q, const slices &w, wstate *ws, uint32_t x, uint32_t begin,
                        uint32_t end) {
  const uint32_t *n1 = p.adj + p.off[x];
  const uint32_t d = (uint32_t)deg(p, x);
  uint32_t s[3] = {x, 0, 0}, len[8] = {0};
  for (uint32_t i = begin; i < end; i++) {
    /* a hub's task can run for a good part of a second: the stop word is
     * read between its v1s too, at most every WM_STOP_POLL_CYCLES */
    if (lane_id() == 0) ws->stopped = ws->stopped || wm_stop_due(p.stop, &ws->stop_poll);
    __syncwarp();
    if (ws->stopped) return;
    const uint32_t v1 = n1[i];
    s[1] = v1;
    const uint32_t n2 = extend(p, w, n1, d, i + 1, v1, w.ext2);
    uint32_t c3 = 0;
    for (uint64_t e0 = p.off[v1]; e0 < p.off[v1 + 1]; e0 += 32) {
      const uint64_t e = e0 + lane_id();
      const uint32_t z = e < p.off[v1 + 1] ? p.adj[e] : 0;
      c3 = append(w.common[3], c3, e < p.off[v1 + 1] && (w.mark[z] & 1u), z);
    }
    len[3] = c3;
    const uint64_t walk1 = walk_cost(p, p.adj + p.off[v1], deg(p, v1));
    const uint64_t walk01 = walk_cost(p, w.common[3], c3);
    __syncwarp();
    if (lane_id() == 0) {
      ws->c1.state = 2, ws->c1.walk = walk1, ws->c1.spent = 0;
      ws->k01.state = 2, ws->k01.walk = walk01, ws->k01.spent = 0;
    }
    __syncwarp();
    mark_position(p, w, v1, 2u, true);
    const uint32_t nx = d - i - 1, last3 = c3 ? w.common[3][c3 - 1] : 0;
    for (uint32_t j = 0; j < n2; j++) {
      /* and between the v2s of a hub's v1, which alone can hold most of a
       * second (Kronecker 13: an interrupt answered 0.9 s late); a stop
       * leaves v1's marks and tallies to be cleared below */
      if (lane_id() == 0) ws->stopped = wm_stop_due(p.stop, &ws->stop_poll);
      __syncwarp();
      if (ws->stopped) break;
      const uint32_t v2 = w.ext2[j];
      s[2] = v2;
      if (j < nx && n2 == nx && deg(p, v2) == 1 && (!c3 || last3 < v2)) { /* as on the CPU: leaves with no set */
        j = w.past[i + 1 + j] - (i + 1) - 1;
        continue;
      }
      const uint32_t n3 = extend_last(p, w, v2, j, nx, n2, c3);
      if (!n3) continue; /* a hub's pairs of leaves */
      mark_position(p, w, v2, 4u, true);
      last_level(p, q, w, ws, s, len, n3);
      mark_position(p, w, v2, 4u, false);
    }
    mark_position(p, w, v1, 2u, false);
    tally_clear(&ws->c1, w.c1, w.c1t);
    tally_clear(&ws->k01, w.k01, w.k01t);
  }
}

__global__ void __launch_bounds__(kThreads) o5_sums(params p) {
  __shared__ tables q;
  __shared__ wstate states[kWarpsPerBlock];
  for (unsigned i = threadIdx.x; i < sizeof q; i += blockDim.x) ((unsigned char *)&q)[i] = ((const unsigned char *)p.q)[i];
  __syncthreads();
  const int lane = lane_id();
  const uint64_t warp = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  wstate *ws = &states[threadIdx.x >> 5];
  const slices w = slices_of(p, warp);
  if (lane == 0) {
    memset(&ws->cx, 0, sizeof ws->cx);
    memset(&ws->c1, 0, sizeof ws->c1);
    memset(&ws->k01, 0, sizeof ws->k01);
    ws->stop_poll = 0, ws->stopped = 0;
  }
  __syncwarp();
  for (;;) {
    unsigned long long t = 0;
    if (lane == 0) t = wm_stop_asked(p.stop) ? p.ntasks : atomicAdd(p.next, 1ull);
    t = __shfl_sync(kFull, t, 0);
    if (t >= p.ntasks) return;
    const wm_o5_task task = p.tasks[t];
    const uint32_t x = task.x;
    for (int r = lane; r < ORBITS5; r += 32) ws->e_lo[r] = ws->e_hi[r] = 0;
    if (lane == 0) w.mark[x] = 0x80u;
    __syncwarp();
    for (uint64_t e = p.off[x] + lane; e < p.off[x + 1]; e += 32) w.mark[p.adj[e]] |= 1u;
    __syncwarp();
    tally_walk(p, &ws->cx, w.cx, w.cxt, p.adj + p.off[x], deg(p, x), x);
    past_leaves(p, w, x);
    sets_of(p, q, w, ws, x, task.begin, task.end);
    tally_clear(&ws->cx, w.cx, w.cxt);
    for (uint64_t e = p.off[x] + lane; e < p.off[x + 1]; e += 32) w.mark[p.adj[e]] = 0;
    __syncwarp();
    if (lane == 0) w.mark[x] = 0;
    int of = 0;
    for (int r = lane; r < ORBITS5; r += 32) {
      const unsigned long long hi = ws->e_hi[r];
      of |= hi >> 63 != 0;
      p.sums[t * ORBITS5 + r] = (wm_i128)((unsigned __int128)hi << 64 | ws->e_lo[r]);
    }
    of = __any_sync(kFull, of);
    if (lane == 0) p.of[t] = of;
    __syncwarp();
  }
}

struct bufs {
  const wm_gpu_graph *gg;
  int dev;
  uint64_t *own_off, *bits;
  uint32_t *own_adj, *tri;
  wm_o5_task *tasks;
  tables *q;
  unsigned long long *next;
  unsigned char *scratch;
  wm_i128 *sums;
  int *of;
  uint32_t ntasks;
  cudaEvent_t start, end;
};

void release(bufs &b) {
  if (cudaSetDevice(b.dev) != cudaSuccess) return;
  void *p[] = {b.own_off, b.bits, b.own_adj, b.tri, b.tasks, b.q, b.next, b.scratch, b.sums, b.of};
  for (void *x : p)
    if (x) cudaFree(x);
  if (b.start) cudaEventDestroy(b.start);
  if (b.end) cudaEventDestroy(b.end);
  cudaGetLastError();
}

/* The warps: as many as the device runs at once and no more than the
 * tasks, fewer where their slices would pass 3/4 of the free memory. */
int warps_for(const wm_graph *g, uint64_t stride, uint32_t ntasks, int sms, uint64_t *warps, wm_error *err) {
  size_t free_b = 0, total_b = 0;
  WM_CU(cudaMemGetInfo(&free_b, &total_b));
  uint64_t w = (uint64_t)sms * kWarpsPerSm;
  if (w > ntasks) w = ntasks;
  const uint64_t fit = (uint64_t)(0.75 * (double)free_b) / stride;
  if (w > fit) w = fit;
  if (w > kWarpsPerBlock) w -= w % kWarpsPerBlock;
  if (!w)
    return wm_fail(err, WM_EDEVICE, "orbits: device out of memory: one warp's scratch for %u vertices (%zu bytes free)",
                   g->n, free_b);
  *warps = w;
  return WM_OK;
}

/* On device b.dev: the graph (gg's, or uploaded), the tasks and every
 * buffer, then the kernel, started and not waited for. */
int launch(bufs &b, const wm_graph *g, const wm_o5_equations *eq, const uint32_t *tri, const uint64_t *bits,
           const wm_o5_task *tasks, wm_error *err) {
  int sms = 0;
  WM_CU(cudaSetDevice(b.dev));
  WM_CU(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, b.dev));
  params p;
  memset(&p, 0, sizeof p);
  void *off = NULL, *adj = NULL;
  if (wm_gpu_graph_on(b.gg, g, b.dev, &off, &adj)) {
    p.off = (const uint64_t *)off, p.adj = (const uint32_t *)adj;
  } else {
    WM_CU(wm_cuda_upload(&b.own_off, g->offsets, ((size_t)g->n + 1) * sizeof(uint64_t)));
    WM_CU(wm_cuda_upload(&b.own_adj, g->adj, g->m * sizeof(uint32_t)));
    p.off = b.own_off, p.adj = b.own_adj;
  }
  WM_CU(wm_cuda_upload(&b.tri, tri, g->m * sizeof(uint32_t)));
  if (bits) WM_CU(wm_cuda_upload(&b.bits, bits, ((uint64_t)g->n * g->n + 63) / 64 * 8));
  WM_CU(wm_cuda_upload(&b.tasks, tasks, (size_t)b.ntasks * sizeof *tasks));
  tables t;
  memcpy(t.nuse, eq->nuse, sizeof t.nuse), memcpy(t.nuse3, eq->nuse3, sizeof t.nuse3);
  memcpy(t.nper3, eq->nper3, sizeof t.nper3), memcpy(t.uses, eq->uses, sizeof t.uses);
  WM_CU(wm_cuda_upload(&b.q, &t, sizeof t));
  WM_CU(cudaMalloc(&b.next, sizeof *b.next));
  WM_CU(cudaMemset(b.next, 0, sizeof *b.next));
  WM_CU(cudaMalloc(&b.sums, (size_t)b.ntasks * ORBITS5 * sizeof(wm_i128)));
  WM_CU(cudaMalloc(&b.of, (size_t)b.ntasks * sizeof(int)));
  const uint64_t maxdeg = wm_graph_max_degree(g);
  const uint64_t stride = (slice_bytes(g->n, maxdeg) + 255) / 256 * 256;
  uint64_t warps = 0;
  int rc = warps_for(g, stride, b.ntasks, sms, &warps, err);
  if (rc) return rc;
  WM_CU(cudaMalloc(&b.scratch, warps * stride));
  WM_CU(cudaMemset(b.scratch, 0, warps * stride));
  p.bits = b.bits, p.tri = b.tri, p.n = g->n, p.tasks = b.tasks, p.ntasks = b.ntasks, p.next = b.next;
  p.scratch = b.scratch, p.stride = stride, p.maxdeg = maxdeg, p.q = b.q, p.sums = b.sums, p.of = b.of;
  if ((rc = wm_gpu_stop_word(wm_monitor_current(), &p.stop, err))) return rc;
  WM_CU(cudaEventCreate(&b.start));
  WM_CU(cudaEventCreate(&b.end));
  WM_CU(cudaEventRecord(b.start, 0));
  const unsigned per_block = warps < kWarpsPerBlock ? (unsigned)warps : kWarpsPerBlock;
  o5_sums<<<(unsigned)(warps / per_block), 32 * per_block>>>(p);
  WM_CU(cudaGetLastError());
  WM_CU(cudaEventRecord(b.end, 0));
  return WM_OK;
}

/* Waits for b's kernel; its sums and flags into sums and of, *ms its time. */
int finish(bufs &b, wm_i128 *sums, int *of, float *ms, wm_error *err) {
  WM_CU(cudaSetDevice(b.dev));
  WM_CU(cudaEventSynchronize(b.end));
  WM_CU(cudaDeviceSynchronize());
  WM_CU(cudaEventElapsedTime(ms, b.start, b.end));
  WM_CU(cudaMemcpy(sums, b.sums, (size_t)b.ntasks * ORBITS5 * sizeof(wm_i128), cudaMemcpyDeviceToHost));
  WM_CU(cudaMemcpy(of, b.of, (size_t)b.ntasks * sizeof(int), cudaMemcpyDeviceToHost));
  return WM_OK;
}

/* The tasks dealt to `gpus` devices in turn (task i to device i mod gpus,
 * so that each gets its share of the heaviest, which come first), every
 * kernel started before any is waited for; the sums scattered back. */
int run_devices(bufs *b, int gpus, const wm_graph *g, const wm_o5_equations *q, const uint32_t *tri,
                const uint64_t *bits, const wm_o5_task *tasks, uint32_t ntasks, wm_i128 *sums, int *of,
                double *kernel_ms, wm_error *err) {
  const uint32_t most = ntasks / (uint32_t)gpus + 1;
  wm_o5_task *mine = (wm_o5_task *)malloc((size_t)most * sizeof *mine);
  wm_i128 *part = (wm_i128 *)malloc((size_t)most * ORBITS5 * sizeof *part);
  int *part_of = (int *)malloc((size_t)most * sizeof *part_of);
  int rc = mine && part && part_of ? WM_OK : wm_fail(err, WM_EINPUT, "orbits: out of memory for the GPUs' tasks");
  for (int d = 0; !rc && d < gpus; d++) {
    if (wm_monitor_stopped(wm_monitor_current())) {
      rc = wm_interrupted(err, "orbits");
      break;
    }
    uint32_t k = 0;
    for (uint32_t i = (uint32_t)d; i < ntasks; i += (uint32_t)gpus) mine[k++] = tasks[i];
    b[d].ntasks = k;
    if (k) rc = launch(b[d], g, q, tri, bits, mine, err);
  }
  float slowest = 0;
  for (int d = 0; !rc && d < gpus; d++) {
    if (!b[d].ntasks) continue;
    float ms = 0;
    rc = finish(b[d], part, part_of, &ms, err);
    if (ms > slowest) slowest = ms;
    for (uint32_t i = (uint32_t)d, k = 0; !rc && i < ntasks; i += (uint32_t)gpus, k++) {
      memcpy(sums + (size_t)i * ORBITS5, part + (size_t)k * ORBITS5, ORBITS5 * sizeof *sums);
      of[i] = part_of[k];
    }
  }
  if (!rc && kernel_ms) *kernel_ms += slowest;
  /* a stopped kernel's sums are partial */
  if (!rc && wm_monitor_stopped(wm_monitor_current())) rc = wm_interrupted(err, "orbits");
  free(mine), free(part), free(part_of);
  return rc;
}

}  // namespace

int wm_o5_sums_gpu(const wm_graph *g, const wm_o5_equations *q, const uint32_t *tri, const uint64_t *bits,
                   const wm_o5_task *tasks, uint32_t ntasks, int gpus, const struct wm_gpu_graph *gg, wm_i128 *sums,
                   int *of, double *kernel_ms, wm_error *err) {
  if (!ntasks) return WM_OK;
  if (gpus < 1) gpus = 1;
  int have = 0, was = 0;
  WM_CU(cudaGetDeviceCount(&have));
  WM_CU(cudaGetDevice(&was));
  if (gpus > have) return wm_fail(err, WM_EDEVICE, "orbits: %d GPUs asked for, this host has %d", gpus, have);
  bufs *b = (bufs *)calloc((size_t)gpus, sizeof *b);
  if (!b) return wm_fail(err, WM_EINPUT, "orbits: out of memory for the GPUs' buffers");
  for (int d = 0; d < gpus; d++) b[d].gg = gg, b[d].dev = gpus == 1 ? was : d;
  const int rc = run_devices(b, gpus, g, q, tri, bits, tasks, ntasks, sums, of, kernel_ms, err);
  for (int d = 0; d < gpus; d++) release(b[d]);
  free(b);
  cudaSetDevice(was);
  return rc;
}
