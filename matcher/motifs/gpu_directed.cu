/* Directed motifs on the GPU: the triad census (size 3) and the skeleton's
 * 3-edge paths (size 4), the loops of directed_count.c's census_edge and
 * directed_paths.c's paths_from, which are their oracles.
 *
 * The work is flattened so that a hub never holds one thread: each
 * skeleton edge v-u with v < u owns a range of items, d(v) + d(u) for the
 * census (a neighbour w of either end) and d(v) d(u) for the paths (a
 * neighbour a of b = v and a neighbour d of c = u), and every thread takes
 * one item: it finds its edge by binary search in the ranges' prefix, and
 * the arcs between the set's other vertices by binary search in the
 * shorter of their two skeleton rows (the CPU marks a row instead, which
 * would cost n entries per thread here).  Items go out in launches of
 * 2^28 a device (the host moves the progress line and sees a stop request
 * between them), each in chunks of a block's threads, chunk i to device
 * i mod gpus, as gpu_orbit_sums5.cu deals its tasks.
 *
 * Counts are exact: per block, each class has a 64-bit word and a carry
 * word in shared memory (a carry past the low word adds one to the high,
 * as gpu_orbit_sums5.cu's add_e), a warp's items of one class added at
 * once; each block adds its two words into the device's at the end.  The
 * census adds n - 2 to the edge's dyad class once per edge and takes one
 * off per vertex adjacent to either end, that in a table of its own, so
 * that every word only grows; the host subtracts.  Under the test hook
 * wm_count_start (N), the first device's words and its first block's
 * start at N, so that a small graph carries past 2^64 in both, and the
 * host takes the 2N off again.  The classes are looked
 * up in the host's tables (wm_dir_row_of, wm_dir_accept4), copied to each
 * block's shared memory. */
#include <stdlib.h>
#include <string.h>

#include "directed_internal.h"
#include "gpu_check.h"

namespace {

constexpr int kThreads = 256;
constexpr int kBlocksPerSm = 8;
constexpr unsigned kFull = 0xffffffffu;

struct params {
  const uint64_t *off;
  const uint32_t *nbr;
  const uint8_t *dir;
  const uint32_t *tv;    /* task t's edge: its lower end v */
  const uint64_t *te;    /* and the entry of its higher end u in v's row */
  const uint64_t *start; /* ntasks + 1: the prefix of the tasks' items */
  uint64_t ntasks, items;
  uint64_t base, end; /* this launch's items */
  uint32_t n;
  int part, gpus; /* this device takes the chunks c with c mod gpus == part */
  unsigned long long first; /* block 0's words start here (the test hook) */
  const uint8_t *row_of; /* 64 or 4096 codes */
  const uint8_t *accept; /* size 4: wm_dir_accept4's 64 x 256 */
  unsigned long long *lo, *hi; /* the device's words per counter */
};

/* Size 3 counts a table of added rows and one of subtracted ones. */
template <int K>
struct shape {
  static constexpr int rows = K == 3 ? 2 * WM_DIR_ROWS3 : WM_DIR_ROWS4;
  static constexpr int codes = K == 3 ? 64 : 4096;
  static constexpr int accept = K == 3 ? 1 : 64 * 256;
};

__device__ __forceinline__ unsigned arc_bit(unsigned k, unsigned i, unsigned j) {
  return i * (k - 1) + (j < i ? j : j - 1);
}

/* wm_dir_pair_code on the device. */
__device__ __forceinline__ unsigned pair_code(unsigned k, unsigned i, unsigned j, unsigned d) {
  return ((d & 1u) << arc_bit(k, i, j)) | ((d >> 1 & 1u) << arc_bit(k, j, i));
}

__device__ __forceinline__ uint64_t deg(const params &p, uint32_t v) { return p.off[v + 1] - p.off[v]; }

/* The arcs between x and y as x's row holds them (bit 0 x->y, bit 1
 * y->x; 0 when not adjacent), searched in the shorter row. */
__device__ unsigned pair_dir(const params &p, uint32_t x, uint32_t y) {
  const bool flip = deg(p, y) < deg(p, x);
  const uint32_t r = flip ? y : x, z = flip ? x : y;
  uint64_t lo = p.off[r], hi = p.off[r + 1];
  const uint64_t end = hi;
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (p.nbr[mid] < z) lo = mid + 1;
    else hi = mid;
  }
  if (lo == end || p.nbr[lo] != z) return 0;
  const unsigned d = p.dir[lo];
  return flip ? (d >> 1 | (d & 1u) << 1) : d;
}

/* The task whose items hold item i: the last t with start[t] <= i. */
__device__ uint64_t task_of(const params &p, uint64_t i) {
  uint64_t lo = 0, hi = p.ntasks - 1;
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo + 1) / 2;
    if (p.start[mid] <= i) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

__device__ __forceinline__ void add128(unsigned long long *lo, unsigned long long *hi, int r, unsigned long long v) {
  const unsigned long long old = atomicAdd(&lo[r], v);
  if (old + v < old) atomicAdd(&hi[r], 1ull);
}

/* Whole warp: each lane's row (-1: none) counted once, a class's lanes
 * by their leader. */
__device__ __forceinline__ void warp_add(unsigned long long *lo, unsigned long long *hi, int row) {
  const unsigned peers = __match_any_sync(kFull, row);
  if (row >= 0 && (int)(threadIdx.x & 31u) == __ffs(peers) - 1) add128(lo, hi, row, (unsigned long long)__popc(peers));
}

/* Item j of edge v-u (census_edge's loop, the union of the two rows in
 * two halves): w of v's row, or of u's row when not in v's (those were
 * met in the first half).  *plus gets the triad's row when (v, u, w) is
 * counted at this edge, *minus the dyad's row (offset by the table) when
 * w is in the union; item 0 adds the edge's n - 2. */
__device__ void census_item(const params &p, const uint8_t *row_of, uint64_t t, uint64_t j, int *plus, int *minus,
                            unsigned long long *lo, unsigned long long *hi) {
  const uint32_t v = p.tv[t];
  const uint64_t e = p.te[t];
  const uint32_t u = p.nbr[e];
  const unsigned vu = pair_code(3, 0, 1, p.dir[e]);
  if (j == 0) add128(lo, hi, row_of[vu], (unsigned long long)(p.n - 2));
  const uint64_t dv_len = deg(p, v);
  const bool first = j < dv_len;
  const uint64_t f = first ? p.off[v] + j : p.off[u] + (j - dv_len);
  const uint32_t w = p.nbr[f];
  if (w == u || w == v) return;
  unsigned dv, du;
  if (first) {
    dv = p.dir[f], du = pair_dir(p, u, w);
  } else {
    du = p.dir[f], dv = pair_dir(p, v, w);
    if (dv) return;
  }
  *minus = WM_DIR_ROWS3 + row_of[vu];
  if (u < w || (v < w && w < u && !dv)) *plus = row_of[vu | pair_code(3, 0, 2, dv) | pair_code(3, 1, 2, du)];
}

__device__ __forceinline__ unsigned rank_code(uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
  const unsigned ra = (b < a) + (c < a) + (d < a), rb = (a < b) + (c < b) + (d < b);
  const unsigned rc = (a < c) + (b < c) + (d < c), rd = (a < d) + (b < d) + (c < d);
  return ra | rb << 2 | rc << 4 | rd << 6;
}

/* Item j of edge b-c (paths_from's loops): the path a-b-c-d with a the
 * (j / d(c))th of b's row and d the (j mod d(c))th of c's; its class's
 * row when it is its set's least Hamiltonian path, else -1. */
__device__ int path_item(const params &p, const uint8_t *row_of, const uint8_t *accept, uint64_t t, uint64_t j) {
  const uint32_t b = p.tv[t];
  const uint64_t e = p.te[t];
  const uint32_t c = p.nbr[e];
  const uint64_t dc = deg(p, c), fa = p.off[b] + j / dc, fd = p.off[c] + j % dc;
  const uint32_t a = p.nbr[fa], d = p.nbr[fd];
  if (a == c || d == b || d == a) return -1;
  const unsigned ac = pair_dir(p, a, c), ad = pair_dir(p, a, d), bd = pair_dir(p, b, d);
  /* pair bits 0-1, 0-2, 0-3, 1-2, 1-3, 2-3 (directed_paths.c's pair_bit) */
  const unsigned mask = 1u | (ac ? 2u : 0u) | (ad ? 4u : 0u) | 8u | (bd ? 16u : 0u) | 32u;
  if (!accept[mask * 256 + rank_code(a, b, c, d)]) return -1;
  const unsigned code = pair_code(4, 1, 0, p.dir[fa]) | pair_code(4, 1, 2, p.dir[e]) | pair_code(4, 0, 2, ac) |
                        pair_code(4, 2, 3, p.dir[fd]) | pair_code(4, 0, 3, ad) | pair_code(4, 1, 3, bd);
  return row_of[code];
}

template <int K>
__global__ void __launch_bounds__(kThreads) dir_counts(params p) {
  __shared__ unsigned long long lo[shape<K>::rows], hi[shape<K>::rows];
  __shared__ uint8_t row_of[shape<K>::codes];
  __shared__ uint8_t accept[shape<K>::accept];
  for (int i = threadIdx.x; i < shape<K>::rows; i += blockDim.x) lo[i] = blockIdx.x ? 0 : p.first, hi[i] = 0;
  for (int i = threadIdx.x; i < shape<K>::codes; i += blockDim.x) row_of[i] = p.row_of[i];
  if (K == 4)
    for (int i = threadIdx.x; i < shape<K>::accept; i += blockDim.x) accept[i] = p.accept[i];
  __syncthreads();
  const uint64_t chunks = (p.end - p.base + kThreads - 1) / kThreads;
  /* c is the block's: every lane of a warp meets warp_add each round */
  for (uint64_t c = (uint64_t)blockIdx.x * p.gpus + p.part; c < chunks; c += (uint64_t)gridDim.x * p.gpus) {
    const uint64_t i = p.base + c * kThreads + threadIdx.x;
    int row = -1, row2 = -1;
    if (i < p.end) {
      const uint64_t t = task_of(p, i), j = i - p.start[t];
      if (K == 3) census_item(p, row_of, t, j, &row, &row2, lo, hi);
      else row = path_item(p, row_of, accept, t, j);
    }
    warp_add(lo, hi, row);
    if (K == 3) warp_add(lo, hi, row2);
  }
  __syncthreads();
  for (int r = threadIdx.x; r < shape<K>::rows; r += blockDim.x) {
    const unsigned long long l = lo[r], h = hi[r];
    if (!l && !h) continue;
    const unsigned long long old = atomicAdd(&p.lo[r], l);
    atomicAdd(&p.hi[r], h + (old + l < old ? 1ull : 0ull));
  }
}

/* The edges v-u (v < u) as tasks, with their items' prefix. */
struct tasks {
  uint32_t *tv;
  uint64_t *te, *start;
  uint64_t n;
};

void tasks_free(tasks *t) { free(t->tv), free(t->te), free(t->start); }

int tasks_of(const wm_dir_skeleton *s, unsigned k, tasks *t, wm_error *err) {
  memset(t, 0, sizeof *t);
  for (uint32_t v = 0; v < s->n; v++)
    for (uint64_t e = s->off[v]; e < s->off[v + 1]; e++) t->n += s->nbr[e] > v;
  t->tv = (uint32_t *)malloc((t->n ? t->n : 1) * sizeof *t->tv);
  t->te = (uint64_t *)malloc((t->n ? t->n : 1) * sizeof *t->te);
  t->start = (uint64_t *)malloc((t->n + 1) * sizeof *t->start);
  if (!t->tv || !t->te || !t->start) {
    tasks_free(t);
    return wm_fail(err, WM_EINPUT, "directed motifs: out of memory for the GPU's tasks (%llu edges)",
                   (unsigned long long)t->n);
  }
  uint64_t i = 0, at = 0;
  int overflow = 0;
  for (uint32_t v = 0; v < s->n; v++)
    for (uint64_t e = s->off[v]; e < s->off[v + 1]; e++) {
      const uint32_t u = s->nbr[e];
      if (u < v) continue;
      const uint64_t dv = s->off[v + 1] - s->off[v], du = s->off[u + 1] - s->off[u];
      uint64_t items = 0;
      overflow |= k == 3 ? __builtin_add_overflow(dv, du, &items) : __builtin_mul_overflow(dv, du, &items);
      t->tv[i] = v, t->te[i] = e, t->start[i++] = at;
      overflow |= __builtin_add_overflow(at, items, &at);
    }
  t->start[i] = at;
  if (overflow) {
    tasks_free(t);
    return wm_fail(err, WM_EINPUT, "directed motifs: the skeleton's %s pass 2^64; count on the CPU",
                   k == 3 ? "(edge, neighbour) pairs" : "3-edge paths");
  }
  return WM_OK;
}

/* One device's buffers and its kernels' time. */
struct bufs {
  int dev, sms;
  uint64_t *off, *te, *start;
  uint32_t *nbr, *tv;
  uint8_t *dir, *row_of, *accept;
  unsigned long long *words; /* rows low words, then rows high words */
  cudaEvent_t begin, end;
  int launched;
  float ms;
};

void release(bufs &b) {
  if (cudaSetDevice(b.dev) != cudaSuccess) return;
  void *p[] = {b.off, b.te, b.start, b.nbr, b.tv, b.dir, b.row_of, b.accept, b.words};
  for (void *x : p)
    if (x) cudaFree(x);
  if (b.begin) cudaEventDestroy(b.begin);
  if (b.end) cudaEventDestroy(b.end);
  cudaGetLastError();
}

/* The host's tables of size k: the rows of every code, and size 4's paths. */
struct tables {
  uint8_t row_of[4096];
  const uint8_t *accept;
};

int rows_of(unsigned k) { return k == 3 ? 2 * WM_DIR_ROWS3 : WM_DIR_ROWS4; }

/* On device b.dev: the skeleton, the tasks, the tables and the words
 * (their low words at start: the test hook). */
int setup(bufs &b, const wm_dir_skeleton *s, unsigned k, const tasks &t, const tables &q, uint64_t start,
          wm_error *err) {
  const int rows = rows_of(k);
  WM_CU(cudaSetDevice(b.dev));
  WM_CU(cudaDeviceGetAttribute(&b.sms, cudaDevAttrMultiProcessorCount, b.dev));
  const uint64_t len = s->off[s->n];
  WM_CU(wm_cuda_upload(&b.off, s->off, ((size_t)s->n + 1) * sizeof *s->off));
  WM_CU(wm_cuda_upload(&b.nbr, s->nbr, len * sizeof *s->nbr));
  WM_CU(wm_cuda_upload(&b.dir, s->dir, len));
  WM_CU(wm_cuda_upload(&b.tv, t.tv, t.n * sizeof *t.tv));
  WM_CU(wm_cuda_upload(&b.te, t.te, t.n * sizeof *t.te));
  WM_CU(wm_cuda_upload(&b.start, t.start, (t.n + 1) * sizeof *t.start));
  WM_CU(wm_cuda_upload(&b.row_of, q.row_of, k == 3 ? 64 : 4096));
  if (k == 4) WM_CU(wm_cuda_upload(&b.accept, q.accept, 64 * 256));
  unsigned long long words[2 * WM_DIR_ROWS4];
  for (int r = 0; r < 2 * rows; r++) words[r] = r < rows ? start : 0;
  WM_CU(wm_cuda_upload(&b.words, words, 2 * rows * sizeof *words));
  WM_CU(cudaEventCreate(&b.begin));
  WM_CU(cudaEventCreate(&b.end));
  return WM_OK;
}

/* The kernel over items [base, end), the chunks c with c mod gpus ==
 * part, on b's device, started and not waited for (none when the part
 * has no chunk); first: block 0's words' start. */
int launch(bufs &b, const wm_dir_skeleton *s, unsigned k, const tasks &t, int part, int gpus, uint64_t base,
           uint64_t end, uint64_t first, wm_error *err) {
  const uint64_t chunks = (end - base + kThreads - 1) / kThreads;
  const uint64_t mine = chunks / (uint64_t)gpus + ((uint64_t)part < chunks % (uint64_t)gpus);
  b.launched = mine > 0;
  if (!mine) return WM_OK;
  params p;
  memset(&p, 0, sizeof p);
  p.off = b.off, p.nbr = b.nbr, p.dir = b.dir, p.tv = b.tv, p.te = b.te, p.start = b.start;
  p.ntasks = t.n, p.items = t.start[t.n], p.base = base, p.end = end, p.n = s->n;
  p.part = part, p.gpus = gpus, p.first = first;
  p.row_of = b.row_of, p.accept = b.accept, p.lo = b.words, p.hi = b.words + rows_of(k);
  const uint64_t most = (uint64_t)(b.sms > 0 ? b.sms : 1) * kBlocksPerSm;
  const unsigned blocks = (unsigned)(mine < most ? mine : most);
  WM_CU(cudaSetDevice(b.dev));
  WM_CU(cudaEventRecord(b.begin, 0));
  if (k == 3) dir_counts<3><<<blocks, kThreads>>>(p);
  else dir_counts<4><<<blocks, kThreads>>>(p);
  WM_CU(cudaGetLastError());
  WM_CU(cudaEventRecord(b.end, 0));
  return WM_OK;
}

/* Waits for b's launch; its time added to b.ms. */
int wait(bufs &b, wm_error *err) {
  if (!b.launched) return WM_OK;
  float ms = 0;
  WM_CU(cudaSetDevice(b.dev));
  WM_CU(cudaEventSynchronize(b.end));
  WM_CU(cudaDeviceSynchronize());
  WM_CU(cudaEventElapsedTime(&ms, b.begin, b.end));
  b.ms += ms, b.launched = 0;
  return WM_OK;
}

/* b's words added into sums (128-bit per row). */
int collect(bufs &b, unsigned k, wm_u128 *sums, wm_error *err) {
  const int rows = rows_of(k);
  unsigned long long words[2 * WM_DIR_ROWS4];
  WM_CU(cudaSetDevice(b.dev));
  WM_CU(cudaMemcpy(words, b.words, 2 * rows * sizeof *words, cudaMemcpyDeviceToHost));
  for (int r = 0; r < rows; r++) sums[r] += (wm_u128)words[rows + r] << 64 | words[r];
  return WM_OK;
}

/* Items per launch and GPU: a launch takes well over the few
 * microseconds of its start, and the host sees a stop request (and moves
 * the progress line) between launches. */
constexpr uint64_t kBatch = 1ull << 28;

/* The items in batches, each dealt to every device at once, the stop
 * request polled between them; the test hook's start (in part 0's words
 * and its first launch's block 0) taken off again. */
int run_devices(bufs *b, int gpus, const wm_dir_skeleton *s, unsigned k, const tasks &t, const tables &q,
                wm_u128 *sums, double *kernel_ms, wm_error *err) {
  const uint64_t start = wm_count_start(), items = t.start[t.n], batch = kBatch * (uint64_t)gpus;
  int rc = WM_OK;
  for (int d = 0; !rc && d < gpus; d++)
    rc = wm_gpu_on_device(err, b[d].dev, setup(b[d], s, k, t, q, d ? 0 : start, err));
  wm_progress p;
  wm_progress_init(&p, k == 3 ? "triad census (GPU)" : "directed 4-paths (GPU)", items, 1);
  for (uint64_t base = 0; !rc && base < items; base += batch) {
    if (wm_progress_stopped(&p)) break;
    const uint64_t end = items - base < batch ? items : base + batch;
    for (int d = 0; !rc && d < gpus; d++)
      rc = wm_gpu_on_device(err, b[d].dev, launch(b[d], s, k, t, d, gpus, base, end, !d && !base ? start : 0, err));
    for (int d = 0; !rc && d < gpus; d++) rc = wm_gpu_on_device(err, b[d].dev, wait(b[d], err));
    wm_progress_add(&p, end - base);
  }
  wm_progress_finish(&p);
  if (!rc && wm_progress_stopped(&p)) rc = wm_interrupted(err, k == 3 ? "triad census" : "directed 4-paths");
  for (int d = 0; !rc && d < gpus; d++) rc = wm_gpu_on_device(err, b[d].dev, collect(b[d], k, sums, err));
  for (int r = 0; !rc && r < rows_of(k); r++) sums[r] -= 2 * (wm_u128)start;
  float slowest = 0;
  for (int d = 0; d < gpus; d++) slowest = b[d].ms > slowest ? b[d].ms : slowest;
  if (!rc) *kernel_ms += slowest;
  return rc;
}

/* counts += sums, size 3's added rows less its subtracted ones. */
int add_counts(unsigned k, const wm_u128 *sums, wm_u128 *counts, wm_error *err) {
  if (k == 4) {
    for (unsigned r = 0; r < WM_DIR_ROWS4; r++) counts[r] += sums[r];
    return WM_OK;
  }
  for (unsigned r = 0; r < WM_DIR_ROWS3; r++) {
    if (sums[r] < sums[WM_DIR_ROWS3 + r])
      return wm_fail(err, WM_EINPUT, "directed motifs: the GPU's census of row %u comes out negative (internal error)",
                     r);
    counts[r] += sums[r] - sums[WM_DIR_ROWS3 + r];
  }
  return WM_OK;
}

}  // namespace

int wm_dir_gpu(const wm_dir_skeleton *s, unsigned k, int gpus, wm_u128 *counts, double *kernel_ms, wm_error *err) {
  if (k != 3 && k != 4) return wm_fail(err, WM_EUSAGE, "directed motifs: size %u on the GPU; 3 or 4", k);
  if (gpus < 1) gpus = 1;
  int have = 0, was = 0;
  WM_CU(cudaGetDeviceCount(&have));
  WM_CU(cudaGetDevice(&was));
  if (gpus > have) return wm_fail(err, WM_EDEVICE, "directed motifs: %d GPUs asked for, this host has %d", gpus, have);
  tasks t;
  int rc = tasks_of(s, k, &t, err);
  if (rc) return rc;
  if (!t.start[t.n]) { /* no edge: nothing for the GPU */
    tasks_free(&t);
    return WM_OK;
  }
  tables q;
  for (unsigned c = 0; c < (k == 3 ? 64u : 4096u); c++) q.row_of[c] = (uint8_t)wm_dir_row_of(k, c);
  q.accept = k == 4 ? wm_dir_accept4() : NULL;
  bufs *b = (bufs *)calloc((size_t)gpus, sizeof *b);
  if (!b) {
    tasks_free(&t);
    return wm_fail(err, WM_EINPUT, "directed motifs: out of memory for the GPUs' buffers");
  }
  for (int d = 0; d < gpus; d++) b[d].dev = gpus == 1 ? was : d;
  wm_u128 sums[2 * WM_DIR_ROWS4];
  memset(sums, 0, sizeof sums);
  rc = run_devices(b, gpus, s, k, t, q, sums, kernel_ms, err);
  for (int d = 0; d < gpus; d++) release(b[d]);
  free(b);
  tasks_free(&t);
  cudaSetDevice(was);
  return rc ? rc : add_counts(k, sums, counts, err);
}
