/* Warp-cooperative set operations of the stack kernel.
 *
 * Sets are sorted arrays: a neighbour list read in place, or a slot buffer
 * of the warp.  An op over U unrolled iterations runs as one loop over the
 * concatenation of their iterated sides (each lane takes one element of the
 * smaller set and binary-searches the larger), so small sets of several
 * iterations fill the 32 lanes; results are compacted in order with
 * ballot/popc, so every result is sorted and identical whichever warp or
 * lane computed it (thieves rely on that).
 *
 * A result that could exceed the buffer capacity (its bound, min(|a|,|b|)
 * or |a| after the op's range, is larger) is never truncated: the slot stays
 * virtual, a range of a concrete array (its base) plus a membership test
 * that re-evaluates the op, and every reader iterates the base in place,
 * filtering — the slow chunked path, taken only by hub-sized sets. */
#ifndef WM_GPU_SET_OPS_CUH
#define WM_GPU_SET_OPS_CUH

#include "gpu_count.cuh"
#include "gpu_dag_util.cuh"
#include "gpu_kernel.h"

#define WM_FULL 0xFFFFFFFFu
#define WM_DESC_MAT 0xFFu /* dbase of a materialised slot */

/* Everything one warp's device functions need: the plan and arguments, this
 * warp's shared region and set buffers, and per-lane accumulators. */
struct wm_kctx {
  const wm_gpu_plan *P;
  const wm_gpu_args *A;
  volatile wm_wstate *ws;
  volatile uint32_t *g;  /* [WM_MAX_K][G] groups of bound vertices */
  uint32_t *dlo, *dhi;   /* [n_ops][U] slot ranges: [0, size) or the base's range */
  uint8_t *dbase;        /* [n_ops][U] WM_DESC_MAT, or the operand a virtual slot iterates */
  wm_iter *its;          /* [G] */
  wm_u64 *pre;           /* [G+1] exclusive prefix of the iterated lengths */
  uint32_t *cnt;         /* [G] per-iteration counters */
  uint32_t *tr;          /* [4G] trimmed bounds, one binary search per lane */
  uint32_t *sets;        /* this warp's set buffers */
  int U, G, lane;        /* slot variants; group stride (largest group, U or 32 at k-2) */
  wm_u64 count, set_ops, used, issued; /* per lane; count only through wm_partial_add */
  long long shallow_pick; /* clock64() at the last pick of a position <= 1 */
  long long acquired;     /* clock64() when wm_acquire gave this warp its current work */
  uint32_t *tab;          /* this warp's probe table in shared memory (wm_table_load), or NULL */
};

/* ---- scalar helpers ---------------------------------------------------- */

/* First index in [lo, hi) whose value is >= x (hi when none). */
__device__ __forceinline__ uint32_t wm_lower_bound(const uint32_t *p, uint32_t lo, uint32_t hi,
                                                   uint32_t x) {
  while (lo < hi) {
    uint32_t mid = lo + ((hi - lo) >> 1);
    if (__ldg(p + mid) < x)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

__device__ __forceinline__ bool wm_contains(const uint32_t *p, uint32_t lo, uint32_t hi, uint32_t x) {
  uint32_t i = wm_lower_bound(p, lo, hi, x);
  return i < hi && __ldg(p + i) == x;
}

/* Whole warp: the row of arc t (t < off[n]), the last v < n with
 * off[v] <= t, which is never an empty row; a 32-way search. */
__device__ __forceinline__ uint32_t wm_warp_row_of(const wm_u64 *off, uint32_t n, wm_u64 t, int lane) {
  uint32_t lo = 0, hi = n; /* off[lo] <= t, and off[hi] > t unless hi == n */
  while (hi - lo > 1u) {
    uint32_t step = (hi - lo + 31u) / 32u;
    wm_u64 idx = (wm_u64)lo + (wm_u64)lane * step;
    bool le = idx < hi && __ldg(off + idx) <= t;
    unsigned b = __ballot_sync(WM_FULL, le); /* a prefix, lane 0 included */
    lo += (uint32_t)(31 - __clz(b)) * step;
    if ((wm_u64)lo + step < hi) hi = lo + step;
  }
  return lo;
}

/* wm_lower_bound by the whole warp: 32 probes a round cut the range 32-fold,
 * so a search costs log32 dependent loads instead of log2. */
__device__ __forceinline__ uint32_t wm_warp_lower_bound(const uint32_t *p, uint32_t lo, uint32_t hi,
                                                        uint32_t x, int lane) {
  while (hi - lo > 32u) {
    wm_u64 step = ((wm_u64)(hi - lo) + 31u) / 32u;
    wm_u64 idx = (wm_u64)lo + (wm_u64)lane * step;
    bool less = idx < hi && __ldg(p + idx) < x;
    wm_u64 c = (wm_u64)__popc(__ballot_sync(WM_FULL, less)); /* the probes below x are a prefix */
    if (c == 0) return lo;
    wm_u64 nhi = (wm_u64)lo + c * step;
    lo = (uint32_t)((wm_u64)lo + (c - 1) * step + 1);
    hi = nhi < hi ? (uint32_t)nhi : hi;
  }
  uint32_t idx = lo + (uint32_t)lane;
  bool less = idx < hi && __ldg(p + idx) < x;
  return lo + (uint32_t)__popc(__ballot_sync(WM_FULL, less));
}

/* Variant (unrolled member) of the slots of `level`: member u of the group
 * being computed at level L, else the active member. */
__device__ __forceinline__ int wm_varof(const wm_kctx &c, int level, int L, int u) {
  return level == L ? u : c.ws->a[level];
}

/* v[j] as seen by member u of level L's group. */
__device__ __forceinline__ uint32_t wm_vval(const wm_kctx &c, int j, int L, int u) {
  return c.g[j * c.G + wm_varof(c, j, L, u)];
}

__device__ __forceinline__ uint32_t *wm_slotbuf(const wm_kctx &c, int s, int var) {
  return c.sets + ((wm_u64)c.P->ops[s].buf * (wm_u64)c.U + (wm_u64)var) * c.A->cap;
}

/* [lo, hi) of values allowed by "c > v[j], j in lower; c < v[j], j in upper". */
__device__ __forceinline__ void wm_value_range(const wm_kctx &c, unsigned lower, unsigned upper,
                                               int L, int u, uint32_t &lo, uint32_t &hi) {
  lo = 0;
  hi = 0xFFFFFFFFu;
  for (unsigned m = lower; m; m &= m - 1) {
    uint32_t v = wm_vval(c, __ffs(m) - 1, L, u) + 1u;
    if (v > lo) lo = v;
  }
  for (unsigned m = upper; m; m &= m - 1) {
    uint32_t v = wm_vval(c, __ffs(m) - 1, L, u);
    if (v < hi) hi = v;
  }
}

/* ---- resolved sets ------------------------------------------------------ */

/* p[lo, hi), and when vs >= 0 only the elements of virtual slot vs; code is
 * the operand that p belongs to (a neighbour list or a materialised slot). */
struct wm_set {
  const uint32_t *p;
  uint32_t lo, hi;
  int vs;
  uint8_t code;
};

__device__ __forceinline__ wm_set wm_concrete(const wm_kctx &c, uint8_t x, int L, int u) {
  wm_set r;
  r.vs = -1;
  r.code = x;
  r.lo = 0;
  if (WM_IS_NBR(x)) {
    uint32_t v = wm_vval(c, WM_NBR_POS(x), L, u);
    wm_u64 b = c.A->off[v];
    r.p = c.A->adj + b;
    r.hi = (uint32_t)(c.A->off[v + 1] - b);
  } else {
    int var = wm_varof(c, c.P->ops[x].level, L, u);
    r.p = wm_slotbuf(c, x, var);
    r.hi = c.dhi[x * c.U + var];
  }
  return r;
}

__device__ __forceinline__ wm_set wm_resolve(const wm_kctx &c, uint8_t x, int L, int u) {
  if (!WM_IS_NBR(x)) {
    int idx = x * c.U + wm_varof(c, c.P->ops[x].level, L, u);
    uint8_t b = c.dbase[idx];
    if (b != WM_DESC_MAT) {
      wm_set r = wm_concrete(c, b, L, u);
      r.lo = c.dlo[idx];
      r.hi = c.dhi[idx];
      r.vs = x;
      return r;
    }
  }
  return wm_concrete(c, x, L, u);
}

__device__ __forceinline__ void wm_trim(wm_set &s, uint32_t lo, uint32_t hi) {
  if (lo > 0) s.lo = wm_lower_bound(s.p, s.lo, s.hi, lo);
  if (hi != 0xFFFFFFFFu) s.hi = wm_lower_bound(s.p, s.lo, s.hi, hi);
}

/* x in virtual slot s: evaluates the op tree under s down to materialised
 * slots and neighbour lists (bit t of need/val: slot t). */
__device__ bool wm_member(const wm_kctx &c, int s, uint32_t x, int L, int u) {
  const wm_gpu_plan *P = c.P;
  wm_u64 need = 1ull << s;
  for (int t = s; t >= 0; --t) {
    if (!((need >> t) & 1ull)) continue;
    if (c.dbase[t * c.U + wm_varof(c, P->ops[t].level, L, u)] == WM_DESC_MAT) continue;
    const wm_gpu_op &op = P->ops[t];
    if (!WM_IS_NBR(op.a)) need |= 1ull << op.a;
    if (!WM_IS_NBR(op.b)) need |= 1ull << op.b;
  }
  wm_u64 val = 0;
  for (int t = 0; t <= s; ++t) {
    if (!((need >> t) & 1ull)) continue;
    int var = wm_varof(c, P->ops[t].level, L, u);
    bool r;
    if (c.dbase[t * c.U + var] == WM_DESC_MAT) {
      r = wm_contains(wm_slotbuf(c, t, var), 0, c.dhi[t * c.U + var], x);
    } else {
      const wm_gpu_op &op = P->ops[t];
      uint32_t lo, hi;
      wm_value_range(c, op.lower, op.upper, L, u, lo, hi);
      r = x >= lo && x < hi;
      bool in[2];
      uint8_t o2[2] = {op.a, op.b};
      for (int i = 0; i < 2; i++) {
        if (WM_IS_NBR(o2[i])) {
          uint32_t v = wm_vval(c, WM_NBR_POS(o2[i]), L, u);
          wm_u64 b = c.A->off[v];
          in[i] = wm_contains(c.A->adj + b, 0, (uint32_t)(c.A->off[v + 1] - b), x);
        } else {
          in[i] = (val >> o2[i]) & 1ull;
        }
      }
      r = r && in[0] && (op.kind == WM_OP_INTERSECT ? in[1] : !in[1]);
    }
    if (r) val |= 1ull << t;
  }
  return (val >> s) & 1ull;
}

/* ---- the probe table --------------------------------------------------
 *
 * The op fused into the last level's count (wm_bulk_last) whose one side is
 * the row of an earlier position (the diamond's N(v0) & N(v1) for every v1
 * of a group, the 4-cycle's N(v1) & N(v2) for every v2) reads that row once
 * per member, and an element-wise binary search of it, a chain of about
 * log2 of the row's length dependent loads per element, would dominate
 * those plans.  The warp keeps the row in shared memory instead, as a bitmap
 * where its ids span few enough words (every row of facebook), else
 * hashed, and each element of the members' sides costs one probe.  Rows
 * change only with the earlier position, so a table serves every group
 * below it; it is a cache keyed by the vertex (rows never change), which
 * thieves and resumed warps rebuild for themselves.
 *
 * Only the fused op: it runs for every member of the deepest group, while
 * an op at a shallower level is paid for by the levels below it, and one
 * table shared by two levels would be refilled at every turn, costing more
 * than it saves.  The kernel is built with and without it
 * (wm_stack_kernel<TAB, PROD>), as the table's code costs the plans that do
 * not use it registers and spills. */
enum { WM_TAB_NONE, WM_TAB_BITS, WM_TAB_HASH };
#define WM_YV_TABLE (-2) /* wm_iter.yv: y is the probe table */
#ifndef WM_GPU_TABLE_MIN_ROW
#define WM_GPU_TABLE_MIN_ROW 16u /* a shorter row's search is 4 loads, about a table's fill */
#endif

/* A warp's table starts with this header, in shared memory rather than
 * registers: the stack kernel is at its register limit, and the state in
 * wm_kctx would cost spills on every plan, those without a table too.
 * Ids base + [0, lim] as bits (WM_TAB_BITS), or hashed into lim + 1
 * slots with hash shift base (WM_TAB_HASH); key is the row's vertex. */
struct wm_tab_head {
  uint32_t key, mode, base, lim;
};
static_assert(sizeof(wm_tab_head) == WM_TAB_HEAD_WORDS * 4u, "the header the shared-memory size counts");

/* Fills t (`words` words) with the row p[0, len), as bits or hashed;
 * returns the mode and sets base and lim. */
__device__ uint32_t wm_table_fill(uint32_t *t, uint32_t words, const uint32_t *row, uint32_t len, int lane,
                                  uint32_t &base, uint32_t &lim) {
  if (len < WM_GPU_TABLE_MIN_ROW) return WM_TAB_NONE;
  const uint32_t first = __ldg(row), span = __ldg(row + len - 1) - first;
  if (span / 32u < words) {
    for (uint32_t i = (uint32_t)lane; i <= span / 32u; i += 32) t[i] = 0;
    __syncwarp();
    for (uint32_t i = (uint32_t)lane; i < len; i += 32) {
      const uint32_t w = __ldg(row + i) - first;
      atomicOr(t + (w >> 5), 1u << (w & 31u));
    }
    base = first;
    lim = span;
    return WM_TAB_BITS;
  }
  const unsigned lg = dag_log_slots(len);
  if ((1u << lg) > words) return WM_TAB_NONE;
  dag_table_fill<false>(t, NULL, lg, row, len);
  base = 32u - lg;
  lim = (1u << lg) - 1u;
  return WM_TAB_HASH;
}

/* Whole warp: makes N(v) the probe table unless it already is; false when
 * the row is too short to gain or does not fit (the op searches then). */
__device__ bool wm_table_load(wm_kctx &c, uint32_t v) {
  volatile wm_tab_head *h = (volatile wm_tab_head *)c.tab;
  const uint32_t key = h->key, mode = h->mode;
  __syncwarp(); /* every lane has read the header and is done with the old table */
  if (key == v) return mode != WM_TAB_NONE;
  const wm_u64 b = c.A->off[v];
  uint32_t base = 0, lim = 0;
  const uint32_t m = wm_table_fill(c.tab + WM_TAB_HEAD_WORDS, c.A->table_words, c.A->adj + b,
                                   (uint32_t)(c.A->off[v + 1] - b), c.lane, base, lim);
  if (c.lane == 0) {
    h->key = v;
    h->mode = m;
    h->base = base;
    h->lim = lim;
  }
  __syncwarp();
  return m != WM_TAB_NONE;
}

__device__ __forceinline__ bool wm_table_has(const wm_kctx &c, uint32_t x) {
  const wm_tab_head *h = (const wm_tab_head *)c.tab;
  const uint32_t *t = c.tab + WM_TAB_HEAD_WORDS;
  const uint32_t base = h->base, lim = h->lim;
  if (h->mode == WM_TAB_BITS) {
    const uint32_t w = x - base; /* wraps past lim below the row's first id */
    return w <= lim && ((t[w >> 5] >> (w & 31u)) & 1u);
  }
  for (unsigned k = dag_hash(x, base);; k = (k + 1u) & lim) {
    const uint32_t y = t[k];
    if (y == x) return true;
    if (y == DAG_EMPTY) return false;
  }
}

/* Whole warp: the side of op (wm_gpu_op_table_side) that its group at level
 * L probes in the table, loaded; -1 when it searches or the kernel was
 * built without the table (TAB). */
template <bool TAB>
__device__ __forceinline__ int wm_table_side(wm_kctx &c, const wm_gpu_op &op, int L) {
  if (!TAB || !c.tab) return -1;
  const int s = wm_gpu_op_table_side(&op);
  if (s < 0) return -1;
  return wm_table_load(c, wm_vval(c, WM_NBR_POS(s ? op.b : op.a), L, 0)) ? s : -1;
}

template <bool TAB>
__device__ __forceinline__ bool wm_iter_test(const wm_kctx &c, const wm_iter &I, uint32_t x, int L,
                                             int u) {
  if (I.xv >= 0 && !wm_member(c, I.xv, x, L, u)) return false;
  if (I.ymode) {
    bool in = I.yv >= 0            ? wm_member(c, I.yv, x, L, u)
              : TAB && I.yv == WM_YV_TABLE ? wm_table_has(c, x)
                                    : wm_contains(I.y, I.ylo, I.yhi, x);
    return in == (I.ymode == 1);
  }
  return true;
}

/* Candidate filters of position p other than its range: distinct earlier
 * vertices, label, allowed set. */
__device__ __forceinline__ bool wm_accept(const wm_kctx &c, int p, uint32_t x, int L, int u) {
  for (unsigned m = c.P->distinct[p]; m; m &= m - 1)
    if (wm_vval(c, __ffs(m) - 1, L, u) == x) return false;
  int32_t lab = c.P->label[p];
  if (lab != WM_ANY_LABEL && c.A->labels[x] != lab) return false;
  return !c.A->allowed || c.A->allowed[x];
}

/* ---- warp primitives ---------------------------------------------------- */

__device__ __forceinline__ wm_u64 wm_warp_exclusive_scan(wm_u64 v, int lane, wm_u64 &total) {
  wm_u64 x = v;
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    wm_u64 y = __shfl_up_sync(WM_FULL, x, d);
    if (lane >= d) x += y;
  }
  total = __shfl_sync(WM_FULL, x, 31);
  return x - v;
}

/* The unrolled member whose iterated range holds global index t: the last
 * u with pre[u] <= t (empty members share their successor's pre). */
__device__ __forceinline__ int wm_member_of(const wm_u64 *pre, int n, wm_u64 t) {
  int lo = 0, hi = n - 1;
  while (lo < hi) {
    int mid = (lo + hi + 1) >> 1;
    if (pre[mid] <= t)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

/* Publishes lane u's iterated length (lanes u < n) as pre[]; returns the total. */
__device__ __forceinline__ wm_u64 wm_publish_lengths(wm_kctx &c, int n, wm_u64 len) {
  wm_u64 total;
  wm_u64 ex = wm_warp_exclusive_scan(c.lane < n ? len : 0, c.lane, total);
  if (c.lane < n) c.pre[c.lane] = ex;
  if (c.lane == 0) c.pre[n] = total;
  __syncwarp();
  return total;
}

/* Materialises its[0..n) (ops of level L): each member's results are
 * appended in order at its out, cnt[u] counting them. */
__device__ void wm_iterate_materialise(wm_kctx &c, int n, int L, wm_u64 T) {
  const unsigned lt = (1u << c.lane) - 1u;
  for (wm_u64 t0 = 0; t0 < T; t0 += 32) {
    wm_u64 t = t0 + (wm_u64)c.lane;
    bool act = t < T;
    int u = -1;
    uint32_t x = 0;
    bool ok = false;
    if (act) {
      u = wm_member_of(c.pre, n, t);
      const wm_iter &I = c.its[u];
      x = __ldg(I.x + I.xlo + (uint32_t)(t - c.pre[u]));
      ok = wm_iter_test<false>(c, I, x, L, u);
    }
    unsigned mask = __ballot_sync(WM_FULL, ok);
    unsigned same = __match_any_sync(WM_FULL, u);
    unsigned am = __ballot_sync(WM_FULL, act);
    if (ok) c.its[u].out[c.cnt[u] + __popc(mask & same & lt)] = x;
    __syncwarp();
    if (act && (same & lt) == 0) c.cnt[u] += __popc(mask & same);
    __syncwarp();
    if (c.lane == 0) {
      c.used += __popc(am);
      c.issued += 32;
    }
  }
}

/* Trims the sides of its[0..n) to their value ranges [vlo, vhi): the
 * 2 (x only) or 4 (x and y) binary searches of every member spread over the
 * lanes, so the set-up costs one search of latency, not four in a row. */
__device__ void wm_trim_members(wm_kctx &c, int n, int sides) {
  __syncwarp();
  const int per = 2 * sides;
  for (int t = c.lane; t < per * n; t += 32) {
    int u = t / per, w = t % per;
    const wm_iter &I = c.its[u];
    bool ys = w >= 2, upper = (w & 1) != 0;
    const uint32_t *p = ys ? I.y : I.x;
    uint32_t lo = ys ? I.ylo : I.xlo, hi = ys ? I.yhi : I.xhi, b = upper ? I.vhi : I.vlo;
    uint32_t r;
    if (upper)
      r = b == 0xFFFFFFFFu ? hi : wm_lower_bound(p, lo, hi, b);
    else
      r = b == 0 ? lo : wm_lower_bound(p, lo, hi, b);
    c.tr[4 * u + w] = r;
  }
  __syncwarp();
}

__device__ __forceinline__ void wm_iter_set_x(wm_iter &I, const uint32_t *p, uint32_t lo, uint32_t hi, int vs,
                                              uint8_t code) {
  I.x = p;
  I.xlo = lo;
  I.xhi = hi;
  I.xv = vs;
  I.xcode = code;
}

/* Lane u's member: the two operands of op as sides x (a) and y (b). */
__device__ __forceinline__ void wm_load_sides(const wm_kctx &c, const wm_gpu_op &op, int L, int u,
                                              wm_iter &I) {
  wm_set A = wm_resolve(c, op.a, L, u), B = wm_resolve(c, op.b, L, u);
  wm_iter_set_x(I, A.p, A.lo, A.hi, A.vs, A.code);
  I.y = B.p;
  I.ylo = B.lo;
  I.yhi = B.hi;
  I.yv = B.vs;
  I.ycode = B.code;
  I.ymode = op.kind == WM_OP_INTERSECT ? 1 : 2;
  I.out = NULL;
}

/* Applies the trimmed bounds, then picks the iterated side (x): the
 * member's own when the other is the probe table (tside, wm_table_side)
 * and the member's is not much longer, else the smaller side of an
 * intersection. */
__device__ __forceinline__ void wm_finish_sides(const wm_kctx &c, int u, int sides, bool trimmed,
                                                int tside, wm_iter &I) {
  if (trimmed) {
    I.xlo = c.tr[4 * u];
    I.xhi = c.tr[4 * u + 1] > I.xlo ? c.tr[4 * u + 1] : I.xlo;
    if (sides == 2) {
      I.ylo = c.tr[4 * u + 2];
      I.yhi = c.tr[4 * u + 3] > I.ylo ? c.tr[4 * u + 3] : I.ylo;
    }
  }
  if (tside >= 0) {
    const uint32_t lx = I.xhi - I.xlo, ly = I.yhi - I.ylo;
    const wm_u64 mine = tside ? lx : ly, row = tside ? ly : lx;
    /* A difference keeps x either way: its table always gains. */
    if (I.ymode == 2 || mine <= WM_GPU_TABLE_RATIO * row) {
      if (tside == 0) wm_iter_set_x(I, I.y, I.ylo, I.yhi, I.yv, I.ycode);
      I.yv = WM_YV_TABLE;
      return;
    }
  }
  if (I.ymode == 1 && I.yhi - I.ylo < I.xhi - I.xlo) {
    const uint32_t *tp = I.x;
    I.x = I.y;
    I.y = tp;
    uint32_t t = I.xlo;
    I.xlo = I.ylo;
    I.ylo = t;
    t = I.xhi;
    I.xhi = I.yhi;
    I.yhi = t;
    int v = I.xv;
    I.xv = I.yv;
    I.yv = v;
    uint8_t k = I.xcode;
    I.xcode = I.ycode;
    I.ycode = k;
  }
}

/* Runs the ops of level L for the n members of its unrolled group, in plan
 * order (a later op may read an earlier one of the same level). */
__device__ void wm_run_level_ops(wm_kctx &c, int L, int n, bool count_ops) {
  const wm_gpu_plan *P = c.P;
  for (int i = P->op_begin[L]; i < P->op_begin[L + 1]; ++i) {
    if (i == P->fused_op) continue;
    const wm_gpu_op op = P->ops[i];
    const bool ranged = (op.lower | op.upper) != 0;
    wm_iter I;
    if (c.lane < n) {
      wm_load_sides(c, op, L, c.lane, I);
      I.vlo = 0;
      I.vhi = 0xFFFFFFFFu;
      if (ranged) wm_value_range(c, op.lower, op.upper, L, c.lane, I.vlo, I.vhi);
      c.its[c.lane] = I;
    }
    if (ranged) wm_trim_members(c, n, 2);
    wm_u64 len = 0;
    if (c.lane < n) {
      int u = c.lane, idx = i * c.U + u;
      I = c.its[u];
      wm_finish_sides(c, u, 2, ranged, -1, I);
      uint32_t bound = I.xhi - I.xlo;
      if ((wm_u64)bound > c.A->cap) {
        /* Could overflow the buffer: stays virtual over x's range. */
        c.dbase[idx] = I.xcode;
        c.dlo[idx] = I.xlo;
        c.dhi[idx] = I.xhi;
        I.xhi = I.xlo;
      } else {
        c.dbase[idx] = WM_DESC_MAT;
        c.dlo[idx] = 0;
        I.out = wm_slotbuf(c, i, u);
        len = bound;
      }
      c.its[u] = I;
      c.cnt[u] = 0;
    }
    wm_u64 T = wm_publish_lengths(c, n, len);
    wm_iterate_materialise(c, n, L, T);
    if (c.lane < n && c.dbase[i * c.U + c.lane] == WM_DESC_MAT) c.dhi[i * c.U + c.lane] = c.cnt[c.lane];
    __syncwarp();
    if (count_ops && c.lane == 0) c.set_ops += n;
  }
}

/* ---- the last position: counted (and listed) in bulk --------------------- */

/* Reserves `want` rows of the listing buffer; ~0 when it is full. */
__device__ __forceinline__ wm_u64 wm_reserve_rows(const wm_gpu_args *A, unsigned want) {
  volatile wm_u64 *vn = A->out_n;
  wm_u64 old = *vn;
  for (;;) {
    if (old + want > A->out_cap) return ~0ull;
    wm_u64 prev = atomicCAS(A->out_n, old, old + want);
    if (prev == old) return old;
    old = prev;
  }
}

/* ---- the product of the last two positions (WM_PAIRS_PRODUCT) ----------
 *
 * The plan was folded: position q = P->k is not iterated.  For member u of
 * level L's group, B is q's candidate set in its range; m[u] (in cnt[u]) is
 * its size less the earlier vertices q excludes, and every accepted
 * candidate x of position k-1 adds m[u] - [x in B].  B's array and bounds
 * wait in tr[] (free once the last position's sides are set up): its
 * pointer, then [lo, hi) of its indices, or, when product_subset, of its
 * values. */

/* Member u's B: position q = P->k's set trimmed to its range [vlo, vhi). */
__device__ __forceinline__ wm_set wm_product_set(const wm_kctx &c, int L, int u, uint32_t &vlo, uint32_t &vhi) {
  const wm_gpu_plan *P = c.P;
  wm_set B = wm_resolve(c, P->cand[P->k], L, u);
  wm_value_range(c, P->lower[P->k], P->upper[P->k], L, u, vlo, vhi);
  wm_trim(B, vlo, vhi);
  return B;
}

/* The earlier vertices q excludes, but for v[k-1] (the product's own term). */
__device__ __forceinline__ unsigned wm_product_excluded(const wm_gpu_plan *P) {
  return P->distinct[P->k] & ~(1u << (P->k - 1));
}

/* Lane u < n: member u's B, trimmed, into tr[]; its m, or ~0u when B is a
 * virtual slot (counted by wm_product_count_virtual). */
__device__ __forceinline__ uint32_t wm_product_b(const wm_kctx &c, int L, int u) {
  const wm_gpu_plan *P = c.P;
  uint32_t vlo, vhi;
  const wm_set B = wm_product_set(c, L, u, vlo, vhi);
  uint32_t *t = c.tr + 4 * u;
  t[0] = (uint32_t)(wm_u64)B.p;
  t[1] = (uint32_t)((wm_u64)B.p >> 32);
  t[2] = P->product_subset ? vlo : B.lo;
  t[3] = P->product_subset ? vhi : B.hi;
  if (B.vs >= 0) return ~0u;
  uint32_t m = B.hi - B.lo;
  for (unsigned mk = wm_product_excluded(P); mk; mk &= mk - 1)
    if (wm_contains(B.p, B.lo, B.hi, wm_vval(c, __ffs(mk) - 1, L, u))) m--;
  return m;
}

/* Whole warp: cnt[u] for the members whose B is a virtual slot (hub-sized
 * sets only), its base scanned by the 32 lanes. */
__device__ void wm_product_count_virtual(wm_kctx &c, int L, unsigned virt) {
  for (; virt; virt &= virt - 1) {
    const int u = __ffs(virt) - 1;
    uint32_t vlo, vhi;
    const wm_set B = wm_product_set(c, L, u, vlo, vhi);
    uint32_t m = 0;
    for (uint32_t t = B.lo + (uint32_t)c.lane; t < B.hi; t += 32) {
      const uint32_t x = __ldg(B.p + t);
      bool ok = wm_member(c, B.vs, x, L, u);
      for (unsigned mk = wm_product_excluded(c.P); ok && mk; mk &= mk - 1)
        ok = wm_vval(c, __ffs(mk) - 1, L, u) != x;
      m += ok;
    }
    for (int d = 16; d; d >>= 1) m += __shfl_xor_sync(WM_FULL, m, d);
    if (c.lane == 0) c.cnt[u] = m;
  }
  __syncwarp();
}

/* Position p's candidates in member u's concrete range I.x[xlo, xhi): its
 * size less the distinct vertices in it. */
__device__ __forceinline__ wm_u64 wm_range_count(const wm_kctx &c, int p, int L, int u, const wm_iter &I) {
  wm_u64 cnt = I.xhi - I.xlo;
  for (unsigned m = c.P->distinct[p]; m; m &= m - 1) {
    uint32_t v = wm_vval(c, __ffs(m) - 1, L, u);
    if (v >= I.vlo && v < I.vhi && wm_contains(I.x, I.xlo, I.xhi, v)) cnt--;
  }
  return cnt;
}

/* Whole warp, after the last position's sides are set up in its[]: every
 * member's B and m (cnt[u]); a member without pairs iterates nothing, and
 * one whose candidates all lie in B (product_subset, its range within
 * B's) counts (m - 1) per candidate without a scan.  Returns lane u's
 * length left to scan. */
__device__ wm_u64 wm_product_setup(wm_kctx &c, int n, int L, bool fast) {
  const int p = (int)c.P->k - 1;
  uint32_t m = c.lane < n ? wm_product_b(c, L, c.lane) : 0;
  if (c.lane < n) c.cnt[c.lane] = m;
  const unsigned virt = __ballot_sync(WM_FULL, c.lane < n && m == ~0u);
  if (virt) wm_product_count_virtual(c, L, virt);
  if (c.lane >= n) return 0;
  const int u = c.lane;
  const uint32_t *t = c.tr + 4 * u;
  wm_iter I = c.its[u];
  m = c.cnt[u];
  if (m == 0) {
    I.xhi = I.xlo;
  } else if (fast && I.ymode == 0 && I.xv < 0 && c.P->product_subset && t[2] <= I.vlo && I.vhi <= t[3]) {
    wm_partial_add(&c.count, wm_range_count(c, p, L, u, I) * (wm_u64)(m - 1u), c.A->count);
    I.xhi = I.xlo;
  }
  c.its[u] = I;
  return I.xhi - I.xlo;
}

/* Whether x, an accepted candidate of member u's last position, is in B. */
__device__ __forceinline__ bool wm_product_in_b(const wm_kctx &c, int L, int u, uint32_t x) {
  const uint32_t *t = c.tr + 4 * u;
  if (c.P->product_subset) return x >= t[2] && x < t[3];
  const uint32_t *p = (const uint32_t *)(((wm_u64)t[1] << 32) | t[0]);
  if (!wm_contains(p, t[2], t[3], x)) return false;
  const uint8_t b = c.P->cand[c.P->k];
  if (WM_IS_NBR(b) || c.dbase[b * c.U + wm_varof(c, c.P->ops[b].level, L, u)] == WM_DESC_MAT) return true;
  return wm_member(c, b, x, L, u);
}

/* Counts the candidates of position k-1 of every member of level L = k-2's
 * group (n members, their sets already computed), from global index
 * `start` of their concatenation; under P->pairs each member adds the
 * pairs of its count instead, or under PROD (the kernel built for
 * WM_PAIRS_PRODUCT: that code costs the other plans spills) its product.
 * Listing writes each match; when the buffer is full it returns the index
 * of the batch to resume at, else ~0. */
template <bool TAB, bool PROD>
__device__ wm_u64 wm_bulk_last(wm_kctx &c, int n, wm_u64 start) {
  const wm_gpu_plan *P = c.P;
  const wm_gpu_args *A = c.A;
  const int L = (int)P->k - 2, p = (int)P->k - 1;
  const bool fast = !A->listing && !A->per_vertex && P->label[p] == WM_ANY_LABEL && !A->allowed;
  const bool fused = P->fused_op >= 0;
  const bool product = PROD && P->pairs == WM_PAIRS_PRODUCT;
  const bool per_member = A->per_vertex || (P->pairs && !product); /* counts kept per member in cnt[] */
  const int sides = fused ? 2 : 1;
  bool ranged = (P->lower[p] | P->upper[p]) != 0;
  wm_iter I;
  int tside = -1;
  if (fused) {
    ranged = ranged || (P->ops[P->fused_op].lower | P->ops[P->fused_op].upper) != 0;
    tside = wm_table_side<TAB>(c, P->ops[P->fused_op], L);
  }
  if (c.lane < n) {
    int u = c.lane;
    wm_value_range(c, P->lower[p], P->upper[p], L, u, I.vlo, I.vhi);
    if (fused) {
      const wm_gpu_op op = P->ops[P->fused_op];
      wm_load_sides(c, op, L, u, I);
      uint32_t olo, ohi;
      wm_value_range(c, op.lower, op.upper, L, u, olo, ohi);
      if (olo > I.vlo) I.vlo = olo;
      if (ohi < I.vhi) I.vhi = ohi;
    } else {
      wm_set X = wm_resolve(c, P->cand[p], L, u);
      wm_iter_set_x(I, X.p, X.lo, X.hi, X.vs, X.code);
      I.y = NULL;
      I.ylo = I.yhi = 0;
      I.yv = -1;
      I.ymode = 0;
      I.out = NULL;
    }
    c.its[u] = I;
  }
  if (ranged) wm_trim_members(c, n, sides);
  wm_u64 len = 0;
  if (c.lane < n) {
    int u = c.lane;
    I = c.its[u];
    wm_finish_sides(c, u, sides, ranged, tside, I);
    if (fast && I.ymode == 0 && I.xv < 0 && !product) {
      /* Count without a scan: the range's size less the distinct vertices in it. */
      if (start == 0) wm_partial_add(&c.count, wm_pairs_of(P->pairs, wm_range_count(c, p, L, u, I)), A->count);
      I.xhi = I.xlo;
    }
    len = I.xhi - I.xlo;
    c.its[u] = I;
    c.cnt[u] = 0;
  }
  if (product) len = wm_product_setup(c, n, L, fast);
  if (fused && start == 0 && c.lane == 0) c.set_ops += n;
  wm_u64 T = wm_publish_lengths(c, n, len);

  const unsigned lt = (1u << c.lane) - 1u;
  wm_u64 resume_at = ~0ull;
  for (wm_u64 t0 = start; t0 < T; t0 += 32) {
    wm_u64 t = t0 + (wm_u64)c.lane;
    bool act = t < T;
    int u = -1;
    uint32_t x = 0;
    bool ok = false;
    if (act) {
      u = wm_member_of(c.pre, n, t);
      const wm_iter &I = c.its[u];
      x = __ldg(I.x + I.xlo + (uint32_t)(t - c.pre[u]));
      ok = wm_iter_test<TAB>(c, I, x, L, u) && wm_accept(c, p, x, L, u);
    }
    unsigned mask = __ballot_sync(WM_FULL, ok);
    unsigned am = __ballot_sync(WM_FULL, act);
    if (A->listing && mask) {
      wm_u64 row0 = 0;
      if (c.lane == 0) row0 = wm_reserve_rows(A, __popc(mask));
      row0 = __shfl_sync(WM_FULL, row0, 0);
      if (row0 == ~0ull) { /* buffer full: suspend before this batch */
        resume_at = t0;
        break;
      }
      if (ok) {
        wm_u64 row = (row0 + __popc(mask & lt)) * P->k;
        for (int i = 0; i < p; i++) A->out[row + P->order[i]] = wm_vval(c, i, L, u);
        A->out[row + P->order[p]] = x;
      }
    }
    if (ok) {
      if (product)
        wm_partial_add(&c.count, c.cnt[u] - (wm_product_in_b(c, L, u, x) ? 1u : 0u), A->count);
      else if (!P->pairs)
        wm_partial_add(&c.count, 1, A->count);
      if (A->per_vertex) atomicAdd(A->per_vertex + x, 1ull);
    }
    if (per_member) {
      unsigned same = __match_any_sync(WM_FULL, u);
      if (act && (same & lt) == 0) c.cnt[u] += __popc(mask & same);
      __syncwarp();
    }
    if (c.lane == 0) {
      c.used += __popc(am);
      c.issued += 32;
    }
  }
  if (per_member && P->pairs) {
    __syncwarp();
    if (c.lane < n) wm_partial_add(&c.count, wm_pairs_of(P->pairs, c.cnt[c.lane]), A->count);
  }
  if (A->per_vertex) {
    /* Each match also counts once for every bound vertex of its prefix.
     * These 64-bit adds cannot wrap in any run: with per-vertex counts
     * every match is enumerated (no fast count), and each add is of
     * matches this warp just enumerated, so 2^64 would take centuries; the
     * host adds the devices' and the processes' arrays with a check
     * (wm_per_vertex_overflow). */
    __syncwarp();
    uint32_t mine = c.lane < n ? c.cnt[c.lane] : 0;
    if (mine) atomicAdd(A->per_vertex + wm_vval(c, L, L, c.lane), (wm_u64)mine);
    wm_u64 total = mine;
    for (int d = 16; d; d >>= 1) total += __shfl_xor_sync(WM_FULL, total, d);
    if (total && c.lane < L) atomicAdd(A->per_vertex + wm_vval(c, c.lane, L, 0), total);
  }
  return resume_at;
}

#endif
