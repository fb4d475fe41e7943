/* BFS over several GPUs of one host, host side (see bfs_part.cuh for the
 * partition and the level step): the parts' buffers, one NCCL communicator
 * per GPU made by ncclCommInitAll, and the level loop, which one host thread
 * drives for all GPUs.  Two exchanges per level, both NCCL group calls:
 *   gather: each part's new-frontier words to every part, one broadcast per
 *           part in place (an all-gather of unequal slices);
 *   swap:   top-down only, each part's candidate words to their owners
 *           (send/receive pairs), whose merge ORs them.
 * The host waits for a level by polling every stream and every
 * communicator's asynchronous error, so a failing GPU ends the search with
 * its error instead of leaving the others waiting in a collective. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bfs_part.cuh"
#include "gpu_check.h"
#include "support.h"

#ifdef WM_HAVE_NCCL
#include <nccl.h>
#endif

namespace wm_bfs {

#ifndef WM_HAVE_NCCL

struct PartCtx {
  int unused;
};

int part_create(const wm_graph *g, const wm_bfs_options *o, PartCtx **out, wm_error *err) {
  (void)g;
  *out = NULL;
  return wm_fail(err, WM_EDEVICE,
                 "bfs: --gpus %d needs NCCL, and this warpmatch was built without it (configure with "
                 "NCCL found, e.g. -DWM_NCCL_ROOT=DIR); --gpus 1 runs on one GPU",
                 o->gpus);
}
int part_run(PartCtx *c, const uint32_t *sources, uint32_t nsources, const wm_bfs_options *o,
             wm_bfs_result *r, wm_error *err) {
  (void)c, (void)sources, (void)nsources, (void)o, (void)r;
  return wm_fail(err, WM_EDEVICE, "bfs: built without NCCL");
}
void part_destroy(PartCtx *c) { (void)c; }
const char *part_describe(const PartCtx *c) {
  (void)c;
  return "built without NCCL";
}

#else

#define WM_MAX_PARTS 16

/* NCCL's error as WM_EDEVICE, with the call and where. */
#define NK(call)                                                                              \
  do {                                                                                        \
    ncclResult_t r_ = (call);                                                                 \
    if (r_ != ncclSuccess)                                                                    \
      return wm_fail(err, WM_EDEVICE, "%s:%d: %s: NCCL: %s", __FILE__, __LINE__, #call,       \
                     ncclGetErrorString(r_));                                                 \
  } while (0)

struct Part {
  int dev, sms;
  cudaStream_t st;
  cudaEvent_t ev0, ev1;
  uint64_t *d_off, *d_in_off;
  uint32_t *d_adj, *d_in_adj;
  uint32_t *F[2], *V, *cand, *recv, *level, *parent, *qsmall, *qbig, *qhuge, *few, *src;
  uint32_t *tparent, *work, *bq[2];
  unsigned *bq_len; /* two counters: bq[0]'s and bq[1]'s lengths */
  uint32_t src_cap;
  PartStats *d_stats, *h_stats;
  PartRows out, in;
  ncclComm_t comm;
};

struct PartCtx {
  const wm_graph *g;
  int nparts;
  Part part[WM_MAX_PARTS];
  uint64_t words; /* bitmap words of the whole graph */
  uint64_t slot;  /* the largest part's words: one swap slot */
  uint64_t tau, nhubs;
  char desc[512];
};

static uint64_t part_words(const Part &p) { return ((uint64_t)(p.out.hi - p.out.lo) + 31) / 32; }

/* Bounds at multiples of 32 that give each part about m / parts arcs. */
static void split(const wm_graph *g, int parts, uint32_t *bound) {
  bound[0] = 0;
  for (int p = 1; p < parts; p++) {
    uint64_t want = g->m / parts * p, lo = bound[p - 1], hi = g->n;
    while (lo < hi) { /* first v with offsets[v] >= want */
      uint64_t mid = (lo + hi) / 2;
      if (g->offsets[mid] < want) lo = mid + 1;
      else hi = mid;
    }
    uint64_t b = (lo + 31) / 32 * 32;
    bound[p] = (uint32_t)(b < g->n ? b : g->n);
    if (bound[p] < bound[p - 1]) bound[p] = bound[p - 1];
  }
  bound[parts] = g->n;
}

/* Part p's rows of graph h (the graph or its transpose) on its device. */
static int upload_rows(const wm_graph *h, uint32_t lo, uint32_t hi, uint64_t **d_off, uint32_t **d_adj,
                       PartRows *rows, wm_error *err) {
  uint64_t base = h->offsets[lo], arcs = h->offsets[hi] - base;
  CK(cudaMalloc(d_off, 8 * ((size_t)(hi - lo) + 1)));
  CK(cudaMalloc(d_adj, 4 * (arcs ? arcs : 1)));
  CK(cudaMemcpy(*d_off, h->offsets + lo, 8 * ((size_t)(hi - lo) + 1), cudaMemcpyHostToDevice));
  if (arcs) CK(cudaMemcpy(*d_adj, h->adj + base, 4 * arcs, cudaMemcpyHostToDevice));
  *rows = PartRows{*d_off, *d_adj, base, lo, hi};
  return WM_OK;
}

static int part_buffers(PartCtx *c, Part &p, const wm_graph *t, wm_error *err) {
  const uint64_t own = (uint64_t)(p.out.hi - p.out.lo), W = c->words ? c->words : 1;
  size_t free_b = 0, total_b = 0;
  CK(cudaMemGetInfo(&free_b, &total_b));
  uint64_t rows_b = 8 * (own + 1) + 4 * (c->g->offsets[p.out.hi] - c->g->offsets[p.out.lo]);
  if (t) rows_b *= 2;
  uint64_t need = rows_b + 4 * W * 4 + 4 * c->slot * c->nparts + 4 * own * 8 + 4 * (uint64_t)c->g->n +
                  sizeof(PartStats);
  if (need > free_b - free_b / 20)
    return wm_fail(err, WM_EDEVICE, "bfs: GPU %d: its part (%llu vertices) needs %.2f GiB, %.2f GiB are free",
                   p.dev, (unsigned long long)own, need / 1073741824.0, free_b / 1073741824.0);
  for (int i = 0; i < 2; i++) CK(cudaMalloc(&p.F[i], 4 * W));
  CK(cudaMalloc(&p.V, 4 * W));
  CK(cudaMalloc(&p.cand, 4 * W));
  uint64_t recv_words = c->slot * (uint64_t)c->nparts;
  CK(cudaMalloc(&p.recv, 4 * (recv_words ? recv_words : 1)));
  uint32_t **own_bufs[] = {&p.level, &p.parent, &p.qsmall, &p.qbig, &p.qhuge, &p.work, &p.bq[0], &p.bq[1]};
  for (uint32_t **b : own_bufs) CK(cudaMalloc(b, 4 * (own ? own : 1)));
  CK(cudaMalloc(&p.few, 4 * PartPolicy::FEW));
  CK(cudaMalloc(&p.tparent, 4 * (size_t)(c->g->n ? c->g->n : 1)));
  CK(cudaMalloc(&p.bq_len, 2 * sizeof(unsigned)));
  CK(cudaMalloc(&p.d_stats, sizeof(PartStats)));
  CK(cudaMallocHost(&p.h_stats, sizeof(PartStats)));
  CK(cudaMemset(p.cand, 0, 4 * W));
  CK(cudaStreamCreateWithFlags(&p.st, cudaStreamNonBlocking));
  CK(cudaEventCreate(&p.ev0));
  CK(cudaEventCreate(&p.ev1));
  return WM_OK;
}

static int setup_part(PartCtx *c, int i, const uint32_t *bound, const wm_graph *t, wm_error *err) {
  Part &p = c->part[i];
  p.dev = i;
  CK(cudaSetDevice(i));
  CK(cudaDeviceGetAttribute(&p.sms, cudaDevAttrMultiProcessorCount, i));
  int rc = upload_rows(c->g, bound[i], bound[i + 1], &p.d_off, &p.d_adj, &p.out, err);
  if (rc) return rc;
  if (t) {
    if ((rc = upload_rows(t, bound[i], bound[i + 1], &p.d_in_off, &p.d_in_adj, &p.in, err))) return rc;
  } else {
    p.in = p.out;
  }
  return part_buffers(c, p, t, err);
}

static int warm_up(PartCtx *c, wm_error *err);

int part_create(const wm_graph *g, const wm_bfs_options *o, PartCtx **out, wm_error *err) {
  *out = NULL;
  int present = 0;
  cudaError_t e = cudaGetDeviceCount(&present);
  if (e != cudaSuccess) {
    cudaGetLastError();
    return wm_fail(err, WM_EDEVICE, "bfs: no usable CUDA device: %s", cudaGetErrorString(e));
  }
  if (o->gpus > present)
    return wm_fail(err, WM_EDEVICE, "bfs: --gpus %d asks for more GPUs than the %d present", o->gpus, present);
  if (o->gpus > WM_MAX_PARTS)
    return wm_fail(err, WM_EUSAGE, "bfs: --gpus %d: at most %d GPUs", o->gpus, WM_MAX_PARTS);
  PartCtx *c = (PartCtx *)calloc(1, sizeof *c);
  if (!c) return wm_fail(err, WM_EINPUT, "bfs: out of host memory");
  c->g = g;
  c->nparts = o->gpus;
  c->words = ((uint64_t)g->n + 31) / 32;
  wm_bfs_hub_threshold(g, &c->tau, &c->nhubs);
  uint32_t bound[WM_MAX_PARTS + 1];
  split(g, c->nparts, bound);
  for (int i = 0; i < c->nparts; i++) {
    c->part[i].out.lo = bound[i], c->part[i].out.hi = bound[i + 1];
    uint64_t w = part_words(c->part[i]);
    if (w > c->slot) c->slot = w;
  }
  wm_graph *t = NULL;
  int rc = (g->flags & WM_GRAPH_DIRECTED) ? wm_graph_transpose(g, &t, err) : WM_OK;
  for (int i = 0; !rc && i < c->nparts; i++) rc = setup_part(c, i, bound, t, err);
  wm_graph_destroy(t);
  if (!rc) {
    ncclComm_t comms[WM_MAX_PARTS];
    int devs[WM_MAX_PARTS];
    for (int i = 0; i < c->nparts; i++) devs[i] = i;
    ncclResult_t r = ncclCommInitAll(comms, c->nparts, devs);
    if (r != ncclSuccess)
      rc = wm_fail(err, WM_EDEVICE, "bfs: NCCL could not join the %d GPUs: %s", c->nparts, ncclGetErrorString(r));
    else
      for (int i = 0; i < c->nparts; i++) c->part[i].comm = comms[i];
  }
  if (!rc) rc = warm_up(c, err);
  if (rc) {
    part_destroy(c);
    return rc;
  }
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  int len = snprintf(c->desc, sizeof c->desc, "%d x %s, 1-D partition by arcs (vertices", c->nparts, prop.name);
  for (int i = 0; i < c->nparts && len < (int)sizeof c->desc; i++)
    len += snprintf(c->desc + len, sizeof c->desc - len, "%s%u", i ? "/" : " ", bound[i + 1] - bound[i]);
  if (len < (int)sizeof c->desc)
    snprintf(c->desc + len, sizeof c->desc - len, "), frontier bitmaps gathered by NCCL; hub threshold %llu",
             (unsigned long long)c->tau);
  *out = c;
  return WM_OK;
}

void part_destroy(PartCtx *c) {
  if (!c) return;
  for (int i = 0; i < c->nparts; i++) {
    Part &p = c->part[i];
    if (cudaSetDevice(p.dev) != cudaSuccess) continue;
    if (p.comm) ncclCommDestroy(p.comm);
    void *bufs[] = {p.d_off, p.d_adj, p.d_in_off, p.d_in_adj, p.F[0], p.F[1], p.V, p.cand, p.recv,
                    p.level, p.parent, p.qsmall, p.qbig, p.qhuge, p.few, p.src, p.d_stats,
                    p.tparent, p.work, p.bq[0], p.bq[1], p.bq_len};
    for (void *b : bufs)
      if (b) cudaFree(b);
    if (p.h_stats) cudaFreeHost(p.h_stats);
    if (p.st) cudaStreamDestroy(p.st);
    if (p.ev0) cudaEventDestroy(p.ev0);
    if (p.ev1) cudaEventDestroy(p.ev1);
  }
  free(c);
}

const char *part_describe(const PartCtx *c) { return c->desc; }

/* ---- one search -------------------------------------------------------- */

namespace {

struct PartSearch {
  PartCtx *c;
  const wm_bfs_options *o;
  wm_error *err;
  int cur;    /* F[cur] is the frontier of level L */
  int qb;     /* bottom-up: bq[qb] is the queue of the next step */
  uint32_t L;
  int trace;

  PartLevel args(int i) const {
    const Part &p = c->part[i];
    PartLevel a;
    memset(&a, 0, sizeof a);
    a.out = p.out;
    a.in = p.in;
    a.F = p.F[cur];
    a.V = p.V;
    a.Fn = p.F[cur ^ 1];
    a.cand = p.cand;
    a.recv = p.recv;
    a.slot = c->slot;
    a.parts = c->nparts;
    a.self = i;
    a.level = p.level;
    a.parent = o->want_parents ? p.parent : NULL;
    a.qsmall = p.qsmall;
    a.qbig = p.qbig;
    a.qhuge = p.qhuge;
    a.tparent = o->want_parents ? p.tparent : NULL;
    a.work = p.work;
    a.bq = p.bq[qb];
    a.bq_len = p.bq_len + qb;
    a.bq_next = p.bq[qb ^ 1];
    a.bq_next_len = p.bq_len + (qb ^ 1);
    a.L = L;
    a.hub_tau = c->tau;
    a.target = o->target == WM_NO_VERTEX ? kNoVertex : o->target;
    a.stats = p.d_stats;
    return a;
  }

  /* A failed call on part i's device (in a loop over the parts, index i)
   * ends the search on every GPU, naming that one. */
#define PK(call)                                                                              \
  do {                                                                                        \
    cudaError_t e_ = (call);                                                                  \
    if (e_ != cudaSuccess) return abort_all(i, cudaGetErrorString(e_));                       \
  } while (0)

  /* Ends the search on every GPU when one fails, so that none waits in a
   * collective for a peer that will not come. */
  int abort_all(int i, const char *what) {
    for (int k = 0; k < c->nparts; k++)
      if (c->part[k].comm) ncclCommAbort(c->part[k].comm), c->part[k].comm = NULL;
    return wm_fail(err, WM_EDEVICE, "bfs: GPU %d failed: %s (the search on all %d GPUs is abandoned)", i, what,
                   c->nparts);
  }

  int wait_all() {
    for (;;) {
      int pending = 0;
      for (int i = 0; i < c->nparts; i++) {
        Part &p = c->part[i];
        cudaError_t e = cudaStreamQuery(p.st);
        if (e == cudaErrorNotReady) {
          pending++;
          ncclResult_t r = ncclSuccess;
          if (ncclCommGetAsyncError(p.comm, &r) == ncclSuccess && r != ncclSuccess && r != ncclInProgress)
            return abort_all(i, ncclGetErrorString(r));
        } else if (e != cudaSuccess) {
          return abort_all(i, cudaGetErrorString(e));
        }
      }
      if (!pending) return WM_OK;
    }
  }

  /* Every part's words of F[buf] to every part. */
  int gather(int buf) {
    NK(ncclGroupStart());
    for (int q = 0; q < c->nparts; q++) {
      const Part &owner = c->part[q];
      uint64_t words = part_words(owner), at = owner.out.lo / 32;
      if (!words) continue;
      for (int i = 0; i < c->nparts; i++) {
        Part &p = c->part[i];
        NK(ncclBroadcast(p.F[buf] + at, p.F[buf] + at, words, ncclUint32, q, p.comm, p.st));
      }
    }
    NK(ncclGroupEnd());
    return WM_OK;
  }

  /* Each part's candidates for part q's words to q, into q's slot for it. */
  int swap() {
    NK(ncclGroupStart());
    for (int i = 0; i < c->nparts; i++) {
      Part &p = c->part[i];
      for (int q = 0; q < c->nparts; q++) {
        if (q == i) continue;
        const Part &peer = c->part[q];
        if (part_words(peer)) NK(ncclSend(p.cand + peer.out.lo / 32, part_words(peer), ncclUint32, q, p.comm, p.st));
        if (part_words(p)) NK(ncclRecv(p.recv + (uint64_t)q * c->slot, part_words(p), ncclUint32, q, p.comm, p.st));
      }
    }
    NK(ncclGroupEnd());
    return WM_OK;
  }

  /* trace: waits for every GPU and adds the time since the last mark to
   * phase k (kernels, swap, merge, gather, visit) */
  double phase_ms[5], mark_t;
  int phase(int k) {
    if (!trace) return WM_OK;
    int rc = wait_all();
    double t = wm_now();
    phase_ms[k] += (t - mark_t) * 1e3;
    mark_t = t;
    return rc;
  }

  /* One level; few: the frontier has at most PartPolicy::FEW vertices (the
   * merge's parent search by binary search, bfs_part.cuh). */
  int step(int bottom_up, int few, int to_bottom_up) {
    int rc;
    for (int i = 0; i < c->nparts; i++) {
      Part &p = c->part[i];
      PK(cudaSetDevice(p.dev));
      PK(cudaMemsetAsync(p.d_stats, 0, sizeof(PartStats), p.st));
      if (L == 0 && wm_gpu_fault_here(p.dev)) PK(wm_gpu_fault_launch(p.st)); /* tests: a GPU that fails */
      PartLevel a = args(i);
      if (bottom_up && to_bottom_up) { /* this part's unvisited vertices into bq[qb] */
        PK(cudaMemsetAsync(p.bq_len + qb, 0, sizeof(unsigned), p.st));
        a.bq_next = p.bq[qb];
        a.bq_next_len = p.bq_len + qb;
        PK(part_unvisited_launch(a, p.sms, p.st));
        a = args(i);
      }
      if (bottom_up) {
        PK(cudaMemsetAsync(p.bq_len + (qb ^ 1), 0, sizeof(unsigned), p.st));
        PK(cudaMemsetAsync(p.F[cur ^ 1] + p.out.lo / 32, 0, 4 * part_words(p), p.st));
        PK(part_bottom_up_launch(a, p.sms, p.st));
      } else {
        PK(part_topdown_launch(a, p.sms, p.st));
      }
    }
    if ((rc = phase(0))) return rc;
    if (!bottom_up) {
      if ((rc = swap()) || (rc = phase(1))) return rc;
      for (int i = 0; i < c->nparts; i++) {
        Part &p = c->part[i];
        PK(cudaSetDevice(p.dev));
        PartLevel a = args(i);
        if (few && o->want_parents) {
          a.few = p.few;
          PK(part_few_launch(a, c->words, p.sms, p.st));
        }
        PK(part_merge_launch(a, p.sms, p.st));
        PK(cudaMemsetAsync(p.cand, 0, 4 * (c->words ? c->words : 1), p.st));
      }
      if ((rc = phase(2))) return rc;
    }
    if ((rc = gather(cur ^ 1)) || (rc = phase(3))) return rc;
    for (int i = 0; i < c->nparts; i++) {
      Part &p = c->part[i];
      PK(cudaSetDevice(p.dev));
      PK(part_visit_launch(p.V, p.F[cur ^ 1], c->words, p.sms, p.st));
      PK(cudaMemcpyAsync(p.h_stats, p.d_stats, sizeof(PartStats), cudaMemcpyDeviceToHost, p.st));
    }
    if ((rc = wait_all())) return rc;
    return phase(4);
  }

  int seed(const uint32_t *src, uint32_t nsrc) {
    const size_t W = c->words ? c->words : 1;
    for (int i = 0; i < c->nparts; i++) {
      Part &p = c->part[i];
      PK(cudaSetDevice(p.dev));
      if (p.src_cap < nsrc) {
        if (p.src) PK(cudaFree(p.src));
        p.src = NULL;
        PK(cudaMalloc(&p.src, 4 * (size_t)nsrc));
        p.src_cap = nsrc;
      }
      uint64_t own = p.out.hi - p.out.lo;
      PK(cudaEventRecord(p.ev0, p.st));
      PK(cudaMemsetAsync(p.level, 0xFF, 4 * (own ? own : 1), p.st));
      if (o->want_parents) PK(cudaMemsetAsync(p.parent, 0xFF, 4 * (own ? own : 1), p.st));
      PK(cudaMemsetAsync(p.F[cur], 0, 4 * W, p.st));
      PK(cudaMemsetAsync(p.V, 0, 4 * W, p.st));
      PK(cudaMemcpyAsync(p.src, src, 4 * (size_t)nsrc, cudaMemcpyHostToDevice, p.st));
      PK(part_seed_launch(args(i), p.F[cur], p.V, p.src, nsrc, p.st));
    }
    return WM_OK;
  }
};

}  // namespace

/* NCCL connects peers on their first exchange, which costs far more than a
 * search: one swap and one gather here keep that out of the first search. */
static int warm_up(PartCtx *c, wm_error *err) {
  PartSearch S;
  memset(&S, 0, sizeof S);
  S.c = c, S.err = err;
  int rc = S.swap();
  if (!rc) rc = S.gather(0);
  if (!rc) rc = S.wait_all();
  return rc;
}

static int copy_back(PartCtx *c, int parents, wm_bfs_result *r, wm_error *err) {
  size_t n = c->g->n ? c->g->n : 1;
  r->level = (uint32_t *)malloc(n * 4);
  if (parents) r->parent = (uint32_t *)malloc(n * 4);
  if (!r->level || (parents && !r->parent)) return wm_fail(err, WM_EINPUT, "bfs: out of host memory");
  for (int i = 0; i < c->nparts; i++) {
    Part &p = c->part[i];
    size_t own = p.out.hi - p.out.lo;
    if (!own) continue;
    CK(cudaSetDevice(p.dev));
    CK(cudaMemcpy(r->level + p.out.lo, p.level, 4 * own, cudaMemcpyDeviceToHost));
    if (parents) CK(cudaMemcpy(r->parent + p.out.lo, p.parent, 4 * own, cudaMemcpyDeviceToHost));
  }
  return WM_OK;
}

static int search(PartCtx *c, const uint32_t *src, uint32_t nsrc, const wm_bfs_options *o, wm_bfs_result *r,
                  wm_error *err) {
  const wm_graph *g = c->g;
  PartSearch S;
  memset(&S, 0, sizeof S);
  S.c = c, S.o = o, S.err = err;
  const char *tr = getenv("WM_BFS_TRACE");
  S.trace = tr && *tr && *tr != '0';
  double t0 = wm_now();
  int rc = S.seed(src, nsrc);
  if (rc) return rc;
  uint64_t count = nsrc, edges = 0, hubs = 0, explored = 0, prev = 0;
  for (uint32_t i = 0; i < nsrc; i++) {
    uint64_t d = wm_degree(g, src[i]);
    edges += d, hubs += d >= c->tau;
  }
  int bottom_up = 0, was_bottom_up = 0, hit = 0;
  for (uint32_t i = 0; i < nsrc; i++) hit |= src[i] == o->target;
  uint32_t bu_levels = 0;
  for (;;) {
    if (count == 0) break;
    if (hit || S.L >= o->max_depth) {
      r->truncated = 1;
      break;
    }
    /* the single-GPU rule (bfs_gpu.cu): bottom-up while the frontier grows
     * and is heavy, back once it shrinks below n / beta */
    explored += edges;
    if (!bottom_up && o->direction_opt && count >= prev &&
        wm_bfs_go_bottom_up(o, hubs, c->nhubs, edges, g->m > explored ? g->m - explored : 0))
      bottom_up = 1;
    else if (bottom_up && count < prev && count < g->n / kBackToTopDownBeta)
      bottom_up = 0;
    prev = count;
    double lap = wm_now();
    memset(S.phase_ms, 0, sizeof S.phase_ms);
    S.mark_t = lap;
    if ((rc = S.step(bottom_up, count <= PartPolicy::FEW, bottom_up && !was_bottom_up))) return rc;
    if (bottom_up) S.qb ^= 1;
    was_bottom_up = bottom_up;
    bu_levels += bottom_up;
    S.cur ^= 1;
    S.L++;
    count = edges = hubs = 0;
    for (int i = 0; i < c->nparts; i++) {
      const PartStats &h = *c->part[i].h_stats;
      count += h.count, edges += h.edges, hubs += h.hubs, hit |= h.target_hit != 0;
    }
    if (S.trace)
      fprintf(stderr,
              "bfs-gpus: level %u (%s): %llu vertices, %llu edges, %llu hubs; %.3f ms (kernels %.3f, swap %.3f, "
              "merge %.3f, gather %.3f, visit %.3f)\n",
              S.L, bottom_up ? "bottom-up" : "top-down", (unsigned long long)count, (unsigned long long)edges,
              (unsigned long long)hubs, (wm_now() - lap) * 1e3, S.phase_ms[0], S.phase_ms[1], S.phase_ms[2],
              S.phase_ms[3], S.phase_ms[4]);
  }
  float ms = 0;
  for (int i = 0; i < c->nparts; i++) {
    Part &p = c->part[i];
    CK(cudaSetDevice(p.dev));
    CK(cudaEventRecord(p.ev1, p.st));
  }
  for (int i = 0; i < c->nparts; i++) {
    Part &p = c->part[i];
    CK(cudaSetDevice(p.dev));
    CK(cudaEventSynchronize(p.ev1));
    float t = 0;
    CK(cudaEventElapsedTime(&t, p.ev0, p.ev1));
    if (t > ms) ms = t;
  }
  r->seconds = wm_now() - t0;
  r->kernel_ms = ms;
  r->bottom_up_levels = bu_levels;
  if ((rc = copy_back(c, o->want_parents, r, err))) return rc;
  return wm_bfs_result_stats(g, r, err);
}

int part_run(PartCtx *c, const uint32_t *sources, uint32_t nsources, const wm_bfs_options *o,
             wm_bfs_result *r, wm_error *err) {
  for (int i = 0; i < c->nparts; i++)
    if (!c->part[i].comm)
      return wm_fail(err, WM_EDEVICE, "bfs: the GPUs' communicators were abandoned after a failure");
  uint32_t *src = NULL, nsrc = 0;
  int rc = dedupe_sources(c->g, sources, nsources, &src, &nsrc, err);
  if (rc) return rc;
  rc = search(c, src, nsrc, o, r, err);
  free(src);
  return rc;
}

#endif /* WM_HAVE_NCCL */

}  // namespace wm_bfs
