/* BFS over several GPUs of one host, host side (see bfs_part.cuh for the
 * partition and the level step): the parts' buffers, one NCCL communicator
 * per GPU made by ncclCommInitAll, and the level loop, which a thread per
 * GPU runs for its part (the same threads for every search), so that a
 * level costs one part's launches, not all parts' in a row.  The threads
 * take the same decisions from the same sums and meet once per level.  The
 * exchanges, each one NCCL call per part:
 *   gather: each part's new-frontier words to every part, an all-gather of
 *           equal slots (the largest part's words) that the level's last
 *           kernel unpacks;
 *   swap:   dense top-down only, each part's candidate words to their
 *           owners (send/receive pairs in a group), whose merge ORs them;
 *   lists:  sparse top-down only, instead of both: each part's candidate
 *           list to every part (an all-gather sized by the frontier's arcs).
 * A thread waits by polling its stream, its communicator's asynchronous
 * error and the other parts' failures, so a failing GPU ends the search on
 * all with its error instead of leaving the others waiting in a
 * collective.
 *
 * Several processes (o->procs, the program's MPI ranks): the partition
 * spans every process's GPUs, part i being GPU i % G of process i / G;
 * each process uploads its own parts only and knows the others' bounds.
 * Their communicators are one NCCL clique (process 0's unique id, each
 * process's ranks set up in a group), so the exchanges above are the same
 * calls.  At each level's end, once this process's threads are done,
 * thread 0 (the caller's: an MPI that admits only the main thread serves)
 * sums every part's figures and failure flags over the processes, the
 * other threads waiting at the barrier, and every thread of every process
 * then takes the same decisions from the same sums.  A process that fails
 * raises an alarm first, which the others' thread 0 polls while waiting
 * on its GPUs (their exchanges with a dead GPU never end), then joins that
 * level's sums like the others: every process leaves at the same level,
 * the message naming the failed GPUs.  At the end the same sums say
 * whether every process copied its levels, and process 0 gathers them. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <new>
#include <thread>

#include "bfs_part.cuh"
#include "gpu_check.h"
#include "base.h"

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
  if (o->procs && o->procs->processes > 1)
    return wm_fail(err, WM_EDEVICE,
                   "bfs: a search over the GPUs of %d processes needs NCCL, and this warpmatch was built without "
                   "it (configure with NCCL found, e.g. -DWM_NCCL_ROOT=DIR)",
                   o->procs->processes);
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

#define WM_MAX_PARTS PartPolicy::MAX_PARTS

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
  uint32_t *tparent, *work, *bq[2], *list, *lists;
  unsigned *bq_len; /* two counters: bq[0]'s and bq[1]'s lengths */
  uint32_t src_cap;
  PartStats *d_stats, *h_stats; /* [2] each: level L's are [L & 1] */
  PartRows out, in;
  ncclComm_t comm;
};

struct PartCtx {
  const wm_graph *g;
  int nparts;         /* every process's parts */
  int first, nlocal;  /* this process's: parts first .. first + nlocal - 1, the others' bounds only */
  int dev0;           /* the CUDA device of part first */
  const wm_bfs_procs *procs; /* several processes (bfs_part.cuh), or NULL */
  int broken;                /* set up failed: communicators are aborted, not destroyed */
  Part part[WM_MAX_PARTS];
  uint64_t words; /* bitmap words of the whole graph */
  uint64_t slot;  /* the largest part's words: one swap or gather slot */
  uint64_t sparse_arcs; /* top-down levels up to this many arcs exchange lists */
  uint64_t lslot;       /* the most words of one part's list */
  uint32_t wlo[WM_MAX_PARTS + 1]; /* the parts' first words, wlo[nparts] = words */
  uint64_t tau, nhubs;
  char desc[512];
  struct Pool *pool; /* the parts' threads (after the search's code) */
};

static uint64_t part_words(const Part &p) { return ((uint64_t)(p.out.hi - p.out.lo) + 31) / 32; }

/* Words of a candidate list for `arcs` out-arcs: its count, then a
 * (vertex, parent) pair per arc at most, rounded up to 32 words. */
static uint64_t list_words(uint64_t arcs) { return (1 + 2 * arcs + 31) / 32 * 32; }

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
  uint64_t need = rows_b + 4 * (W + c->slot) * 2 + 4 * W * 2 + 4 * c->slot * c->nparts + 4 * own * 8 +
                  4 * (uint64_t)c->g->n + 4 * c->lslot * (c->nparts + 1) + 2 * sizeof(PartStats);
  if (need > free_b - free_b / 20)
    return wm_fail(err, WM_EDEVICE, "bfs: GPU %d: its part (%llu vertices) needs %.2f GiB, %.2f GiB are free",
                   p.dev, (unsigned long long)own, need / 1073741824.0, free_b / 1073741824.0);
  /* the gather sends slot words from a part's first: the last part's run past W */
  for (int i = 0; i < 2; i++) CK(cudaMalloc(&p.F[i], 4 * (W + c->slot)));
  CK(cudaMalloc(&p.V, 4 * W));
  CK(cudaMalloc(&p.cand, 4 * W));
  uint64_t recv_words = c->slot * (uint64_t)c->nparts;
  CK(cudaMalloc(&p.recv, 4 * (recv_words ? recv_words : 1)));
  uint32_t **own_bufs[] = {&p.level, &p.parent, &p.qsmall, &p.qbig, &p.qhuge, &p.work, &p.bq[0], &p.bq[1]};
  for (uint32_t **b : own_bufs) CK(cudaMalloc(b, 4 * (own ? own : 1)));
  CK(cudaMalloc(&p.few, 4 * PartPolicy::FEW));
  CK(cudaMalloc(&p.tparent, 4 * (size_t)(c->g->n ? c->g->n : 1)));
  CK(cudaMalloc(&p.bq_len, 2 * sizeof(unsigned)));
  CK(cudaMalloc(&p.list, 4 * c->lslot));
  CK(cudaMalloc(&p.lists, 4 * c->lslot * c->nparts));
  CK(cudaMemset(p.list, 0, 4));
  CK(cudaMalloc(&p.d_stats, 2 * sizeof(PartStats)));
  CK(cudaMallocHost(&p.h_stats, 2 * sizeof(PartStats)));
  CK(cudaMemset(p.cand, 0, 4 * W));
  CK(cudaStreamCreateWithFlags(&p.st, cudaStreamNonBlocking));
  CK(cudaEventCreate(&p.ev0));
  CK(cudaEventCreate(&p.ev1));
  return WM_OK;
}

static int setup_part(PartCtx *c, int i, const uint32_t *bound, const wm_graph *t, wm_error *err) {
  Part &p = c->part[i];
  p.dev = c->dev0 + i - c->first;
  CK(cudaSetDevice(p.dev));
  CK(cudaDeviceGetAttribute(&p.sms, cudaDevAttrMultiProcessorCount, p.dev));
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
static int pool_start(PartCtx *c, wm_error *err);
static void pool_stop(PartCtx *c);

/* Several processes: whether every one got this far (rc: this one's
 * result); one that did learns which did not.  Alone: rc. */
static int agree(const PartCtx *c, int rc, const char *what, wm_error *err) {
  const wm_bfs_procs *P = c->procs;
  if (!P) return rc;
  uint64_t bad[WM_MAX_PARTS] = {0}; /* a process per entry: processes <= parts */
  bad[P->process] = rc != WM_OK;
  if (P->sum_u64(P->ctx, bad, (unsigned)P->processes))
    return rc ? rc : wm_fail(err, WM_EDEVICE, "bfs: the processes could not tell each other whether they %s", what);
  for (int q = 0; !rc && q < P->processes; q++)
    if (bad[q])
      return wm_fail(err, WM_EDEVICE, "bfs: process %d of %d could not %s (its own message says why)", q,
                     P->processes, what);
  return rc;
}

/* The parts' communicators, once this process's parts are set up (rc: how
 * that went): one process makes them all; several first agree that every
 * one set up its parts, then join one clique by process 0's unique id,
 * each its own parts' ranks. */
static int join(PartCtx *c, int rc, wm_error *err) {
  const wm_bfs_procs *P = c->procs;
  if (!P) {
    if (rc) return rc;
    ncclComm_t comms[WM_MAX_PARTS];
    int devs[WM_MAX_PARTS];
    for (int i = 0; i < c->nparts; i++) devs[i] = i;
    ncclResult_t r = ncclCommInitAll(comms, c->nparts, devs);
    if (r != ncclSuccess)
      return wm_fail(err, WM_EDEVICE, "bfs: NCCL could not join the %d GPUs: %s", c->nparts, ncclGetErrorString(r));
    for (int i = 0; i < c->nparts; i++) c->part[i].comm = comms[i];
    return WM_OK;
  }
  ncclUniqueId id;
  memset(&id, 0, sizeof id);
  if (!rc && P->process == 0) {
    ncclResult_t r = ncclGetUniqueId(&id);
    if (r != ncclSuccess) rc = wm_fail(err, WM_EDEVICE, "bfs: NCCL could not make a unique id: %s", ncclGetErrorString(r));
  }
  if ((rc = agree(c, rc, "set up their GPUs' parts", err))) return rc;
  if (P->bcast(P->ctx, &id, sizeof id, 0)) return wm_fail(err, WM_EDEVICE, "bfs: NCCL's unique id did not reach every process");
  /* NCCL needs a group to set up several ranks from one thread */
  NK(ncclGroupStart());
  for (int i = c->first; i < c->first + c->nlocal; i++) {
    CK(cudaSetDevice(c->part[i].dev));
    NK(ncclCommInitRank(&c->part[i].comm, c->nparts, id, i));
  }
  NK(ncclGroupEnd());
  return WM_OK;
}

/* The parts: several processes' (o->procs) or this one's o->gpus. */
static int count_parts(PartCtx *c, const wm_bfs_options *o, wm_error *err) {
  const wm_bfs_procs *P = o->procs && o->procs->processes > 1 ? o->procs : NULL;
  const int per = o->gpus > 1 ? o->gpus : 1, procs = P ? P->processes : 1;
  if (per * procs > WM_MAX_PARTS)
    return wm_fail(err, WM_EUSAGE, "bfs: %d GPUs x %d processes: at most %d GPUs in all", per, procs, WM_MAX_PARTS);
  c->procs = P;
  c->nlocal = per;
  c->nparts = per * procs;
  c->first = P ? P->process * per : 0;
  c->dev0 = P ? P->first_device : 0;
  return WM_OK;
}

/* This process's GPUs, each with its part (all parts' bounds known). */
static int local_parts(PartCtx *c, const wm_bfs_options *o, const uint32_t *bound, wm_error *err) {
  int present = 0;
  cudaError_t e = cudaGetDeviceCount(&present);
  if (e != cudaSuccess) {
    cudaGetLastError();
    return wm_fail(err, WM_EDEVICE, "bfs: no usable CUDA device: %s", cudaGetErrorString(e));
  }
  if (c->dev0 + c->nlocal > present)
    return c->procs ? wm_fail(err, WM_EDEVICE, "bfs: %d GPUs from device %d asked for, %d present", c->nlocal, c->dev0,
                              present)
                    : wm_fail(err, WM_EDEVICE, "bfs: --gpus %d asks for more GPUs than the %d present", o->gpus, present);
  wm_graph *t = NULL;
  const wm_graph *g = c->g;
  int rc = (g->flags & WM_GRAPH_DIRECTED) ? wm_graph_transpose(g, &t, err) : WM_OK;
  for (int i = c->first; !rc && i < c->first + c->nlocal; i++) rc = setup_part(c, i, bound, t, err);
  wm_graph_destroy(t);
  return rc;
}

static void describe(PartCtx *c, const uint32_t *bound) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, c->part[c->first].dev);
  int len = c->procs ? snprintf(c->desc, sizeof c->desc, "%d processes x %d x %s, 1-D partition by arcs (vertices",
                                c->procs->processes, c->nlocal, prop.name)
                     : snprintf(c->desc, sizeof c->desc, "%d x %s, 1-D partition by arcs (vertices", c->nparts, prop.name);
  for (int i = 0; i < c->nparts && len < (int)sizeof c->desc; i++)
    len += snprintf(c->desc + len, sizeof c->desc - len, "%s%u", i ? "/" : " ", bound[i + 1] - bound[i]);
  if (len < (int)sizeof c->desc)
    snprintf(c->desc + len, sizeof c->desc - len,
             "), a thread per GPU, frontier bitmaps all-gathered by NCCL%s (candidate lists up to %llu arcs); "
             "hub threshold %llu",
             c->procs ? " across the processes" : "", (unsigned long long)c->sparse_arcs, (unsigned long long)c->tau);
}

int part_create(const wm_graph *g, const wm_bfs_options *o, PartCtx **out, wm_error *err) {
  *out = NULL;
  PartCtx *c = new (std::nothrow) PartCtx();
  if (!c) return wm_fail(err, WM_EINPUT, "bfs: out of host memory");
  c->g = g;
  int rc = count_parts(c, o, err); /* the same answer on every process */
  if (rc) {
    delete c;
    return rc;
  }
  c->words = ((uint64_t)g->n + 31) / 32;
  wm_bfs_hub_threshold(g, &c->tau, &c->nhubs);
  uint32_t bound[WM_MAX_PARTS + 1];
  split(g, c->nparts, bound);
  for (int i = 0; i < c->nparts; i++) {
    c->part[i].out.lo = bound[i], c->part[i].out.hi = bound[i + 1];
    uint64_t w = part_words(c->part[i]);
    if (w > c->slot) c->slot = w;
    c->wlo[i] = (bound[i] + 31) / 32; /* bound[i] is a multiple of 32 unless the parts from i on are empty */
  }
  c->wlo[c->nparts] = (uint32_t)c->words;
  c->sparse_arcs = g->n / PartPolicy::SPARSE_DIV;
  c->lslot = list_words(c->sparse_arcs);
  rc = join(c, local_parts(c, o, bound, err), err);
  if (!rc) rc = warm_up(c, err);
  if (c->procs) rc = agree(c, rc, "join the NCCL clique of all GPUs", err);
  if (!rc) rc = pool_start(c, err);
  if (rc) {
    c->broken = 1; /* a peer may be gone: no communicator waits for it */
    part_destroy(c);
    return rc;
  }
  describe(c, bound);
  *out = c;
  return WM_OK;
}

void part_destroy(PartCtx *c) {
  if (!c) return;
  pool_stop(c);
  for (int i = c->first; i < c->first + c->nlocal; i++) {
    Part &p = c->part[i];
    if (cudaSetDevice(p.dev) != cudaSuccess) continue;
    if (p.comm) c->broken ? ncclCommAbort(p.comm) : ncclCommDestroy(p.comm);
    void *bufs[] = {p.d_off, p.d_adj, p.d_in_off, p.d_in_adj, p.F[0], p.F[1], p.V, p.cand, p.recv,
                    p.level, p.parent, p.qsmall, p.qbig, p.qhuge, p.few, p.src, p.d_stats,
                    p.tparent, p.work, p.bq[0], p.bq[1], p.bq_len, p.list, p.lists};
    for (void *b : bufs)
      if (b) cudaFree(b);
    if (p.h_stats) cudaFreeHost(p.h_stats);
    if (p.st) cudaStreamDestroy(p.st);
    if (p.ev0) cudaEventDestroy(p.ev0);
    if (p.ev1) cudaEventDestroy(p.ev1);
  }
  delete c;
}

const char *part_describe(const PartCtx *c) { return c->desc; }

/* ---- one search -------------------------------------------------------- */

namespace {

/* A part's figures of a level in Shared::sums. */
enum { kCount, kEdges, kHubs, kHit, kOverflow, kFailed, kFigures };

/* A part's stats of a level as its figures, no failure among them. */
void stats_figures(const PartStats &h, uint64_t f[kFigures]) {
  f[kCount] = h.count, f[kEdges] = h.edges, f[kHubs] = h.hubs;
  f[kHit] = h.target_hit, f[kOverflow] = h.overflow, f[kFailed] = 0;
}

/* What the parts' threads share during one search: a thread per GPU issues
 * its part's launches and NCCL calls, so that a level costs one part's
 * issue time, not the sum of all parts'. */
struct Shared {
  PartCtx *c;
  const wm_bfs_options *o;
  const uint32_t *src;
  uint32_t nsrc;
  int trace;
  uint32_t *level = nullptr, *parent = nullptr; /* the result's arrays, each part's thread fills its own */
  std::atomic<int> failed{0};        /* a part failed: every thread leaves */
  std::atomic<unsigned> arrived{0}, generation{0}; /* the level barrier */
  std::mutex lock;                   /* guards why */
  char why[400] = "";                /* the failed parts, each with its error */
  /* thread 0's record: the search's end and, with trace, the phases */
  uint32_t bu_levels = 0, list_levels = 0;
  int truncated = 0;
  double phase_ms[5], mark_t, t_end = 0;
  int slept[WM_MAX_PARTS] = {}; /* with trace: the parts whose threads had gone to sleep */
  /* several processes: each level's figures of every part (kFigures a
   * part), then a failure flag per process and the processes interrupted,
   * summed over the processes */
  uint64_t sums[WM_MAX_PARTS * (kFigures + 1) + 1] = {};
  int part_failed[WM_MAX_PARTS] = {}; /* this process's parts that noted a failure */
  int alarmed = 0;                    /* another process's failure ended the search here */
  /* warpmatch_interrupt: the level every part stops at.  One process: a
   * thread that sees the flag at the top of level L sets it to L+1 (the
   * first to do so wins): every thread is then still before the barrier
   * that ends level L, so all of them meet it at the top of L+1.  Several:
   * the lead sets it so when level L's sums say some process was
   * interrupted (its flag read once, before them), before the barrier
   * that hands the sums out, so that every part of every process stops
   * at the same level. */
  wm_monitor *mon = nullptr;
  std::atomic<uint32_t> stop_level{UINT32_MAX};
  int stopped_here = 0; /* several processes: this one's interrupt was among those that stopped it */
};

/* One part's thread.  Every thread takes the same decisions from the same
 * sums of the parts' stats, so they need no more than the barrier that ends
 * each level. */
struct PartThread {
  Shared *s;
  PartCtx *c;
  int i;          /* the part, among every process's */
  int k;          /* ... among this process's: thread k == 0 keeps the record and talks to the other processes */
  int cur = 0;    /* F[cur] is the frontier of level L */
  int qb = 0;     /* bottom-up: bq[qb] is the queue of the next step */
  uint32_t L = 0;
  uint64_t lslot = 0; /* sparse top-down: this level's list slot */

  Part &part() const { return c->part[i]; }

  PartLevel args() const {
    const Part &p = c->part[i];
    const wm_bfs_options *o = s->o;
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
    a.list = p.list;
    a.lists = p.lists;
    a.lslot = lslot;
    a.lcap = lslot ? (uint32_t)((lslot - 1) / 2) : 0;
    a.stage = p.recv;
    memcpy(a.wlo, c->wlo, sizeof a.wlo);
    a.Fdone = p.F[cur];
    a.L = L;
    a.hub_tau = c->tau;
    a.target = o->target == WM_NO_VERTEX ? kNoVertex : o->target;
    a.stats = p.d_stats + (L & 1);
    a.next_stats = p.d_stats + ((L + 1) & 1);
    return a;
  }

  /* This part's error, added to the search's message. */
  void note(const char *what) {
    std::lock_guard<std::mutex> g(s->lock);
    s->failed.store(1);
    if (s->part_failed[i]) return; /* named once, by its first error */
    size_t len = strlen(s->why);
    if (c->procs)
      snprintf(s->why + len, sizeof s->why - len, "%sGPU %d (process %d's GPU %d) failed: %s", len ? "; " : "", i,
               c->procs->process, k, what);
    else
      snprintf(s->why + len, sizeof s->why - len, "%sGPU %d failed: %s", len ? "; " : "", i, what);
    s->part_failed[i] = 1;
  }

  /* Thread 0 of a process among several: whether another process has
   * failed (then every thread here leaves as for a failure of its own). */
  bool alarmed() {
    if (!c->procs || k != 0 || !c->procs->alarmed(c->procs->ctx)) return false;
    s->alarmed = 1;
    s->failed.store(1);
    return true;
  }

  /* This part failed: its communicator is aborted so that no peer waits on
   * it, and the others leave at their next wait. */
  int fail(const char *what) {
    note(what);
    return leave(false);
  }

  /* Leaving for another part's failure, this part's stream is checked once
   * its communicator is aborted: a GPU whose NCCL kernel read a dead peer's
   * memory has failed too, and the message names it, whichever part's
   * thread saw its failure first. */
  int leave(bool check = true) {
    Part &p = part();
    if (p.comm) ncclCommAbort(p.comm), p.comm = NULL;
    if (check) {
      cudaError_t e;
      const double t0 = wm_now();
      while ((e = cudaStreamQuery(p.st)) == cudaErrorNotReady && wm_now() - t0 < 1.0) {
      }
      if (e != cudaSuccess && e != cudaErrorNotReady) note(cudaGetErrorString(e));
    }
    return WM_EDEVICE;
  }

#define PK(call)                                                                              \
  do {                                                                                        \
    cudaError_t e_ = (call);                                                                  \
    if (e_ != cudaSuccess) return fail(cudaGetErrorString(e_));                               \
  } while (0)
#define PN(call)                                                                              \
  do {                                                                                        \
    ncclResult_t r_ = (call);                                                                 \
    if (r_ != ncclSuccess) return fail(ncclGetErrorString(r_));                               \
  } while (0)

  /* Until this part's stream is done, watching its communicator and the
   * other parts. */
  int wait_own() {
    Part &p = part();
    for (;;) {
      cudaError_t e = cudaStreamQuery(p.st);
      if (e == cudaSuccess) return WM_OK;
      if (e != cudaErrorNotReady) return fail(cudaGetErrorString(e));
      ncclResult_t r = ncclSuccess;
      if (ncclCommGetAsyncError(p.comm, &r) == ncclSuccess && r != ncclSuccess && r != ncclInProgress)
        return fail(ncclGetErrorString(r));
      if (s->failed.load(std::memory_order_relaxed) || alarmed()) return leave();
    }
  }

  /* Every part's thread here, or WM_EDEVICE once one has failed. */
  int barrier() {
    const unsigned gen = s->generation.load();
    if (s->arrived.fetch_add(1) + 1 == (unsigned)c->nlocal) {
      s->arrived.store(0);
      s->generation.fetch_add(1);
    } else {
      for (unsigned spins = 0; s->generation.load() == gen; spins++) {
        if (s->failed.load(std::memory_order_relaxed) || alarmed()) return leave();
        if (spins > 1024) std::this_thread::yield();
      }
    }
    return s->failed.load() ? leave() : WM_OK;
  }

  /* Level's end (k = 4), or with trace a phase's: this part done, then all;
   * thread 0 adds the time since the last mark to phase k. */
  int sync(int k) {
    if (k < 4 && !s->trace) return WM_OK;
    int rc = wait_own();
    if (!rc) rc = barrier();
    if (!rc && k == 0 && s->trace) {
      double t = wm_now();
      s->phase_ms[k] += (t - s->mark_t) * 1e3;
      s->mark_t = t;
    }
    return rc;
  }

  /* Each part's words of F[buf] to every part's recv, slot q for part q. */
  int gather(int buf) {
    Part &p = part();
    if (c->slot) PN(ncclAllGather(p.F[buf] + c->wlo[i], p.recv, c->slot, ncclUint32, p.comm, p.st));
    return WM_OK;
  }

  /* This part's first `words` of its list to every part's lists, slot q for part q. */
  int lists(uint64_t words) {
    Part &p = part();
    PN(ncclAllGather(p.list, p.lists, words, ncclUint32, p.comm, p.st));
    return WM_OK;
  }

  /* This part's candidates for part q's words to q, into q's slot for it. */
  int swap() {
    Part &p = part();
    PN(ncclGroupStart());
    for (int q = 0; q < c->nparts; q++) {
      if (q == i) continue;
      const Part &peer = c->part[q];
      if (part_words(peer)) PN(ncclSend(p.cand + peer.out.lo / 32, part_words(peer), ncclUint32, q, p.comm, p.st));
      if (part_words(p)) PN(ncclRecv(p.recv + (uint64_t)q * c->slot, part_words(p), ncclUint32, q, p.comm, p.st));
    }
    PN(ncclGroupEnd());
    return WM_OK;
  }

  /* One level; few: the frontier has at most PartPolicy::FEW vertices (the
   * merge's parent search by binary search, bfs_part.cuh); sparse (top-down
   * only): the candidates go as lists of lslot words, no bitmaps. */
  int step(int bottom_up, int few, int to_bottom_up, int sparse) {
    Part &p = part();
    int rc;
    if (L == 0 && wm_gpu_fault_here(i)) PK(wm_gpu_fault_launch(p.st)); /* tests: a GPU that fails (by part) */
    PartLevel a = args();
    if (bottom_up && to_bottom_up) { /* this part's unvisited vertices into bq[qb] */
      PK(cudaMemsetAsync(p.bq_len + qb, 0, sizeof(unsigned), p.st));
      a.bq_next = p.bq[qb];
      a.bq_next_len = p.bq_len + qb;
      PK(part_unvisited_launch(a, p.sms, p.st));
      a = args();
    }
    if (bottom_up) {
      PK(cudaMemsetAsync(p.bq_len + (qb ^ 1), 0, sizeof(unsigned), p.st));
      PK(part_bottom_up_launch(a, p.sms, p.st));
    } else {
      PK(part_topdown_launch(a, sparse, p.sms, p.st));
    }
    if ((rc = sync(0))) return rc;
    if (sparse) {
      if ((rc = lists(lslot)) || (rc = sync(3))) return rc;
      PK(part_sparse_apply_launch(a, c->words, p.sms, p.st));
      return finish();
    }
    if (!bottom_up) {
      if ((rc = swap()) || (rc = sync(1))) return rc;
      if (few && s->o->want_parents) {
        a.few = p.few;
        PK(part_few_launch(a, c->words, p.sms, p.st));
      }
      PK(part_merge_launch(a, p.sms, p.st));
      if ((rc = sync(2))) return rc;
    }
    if ((rc = gather(cur ^ 1)) || (rc = sync(3))) return rc;
    PK(part_visit_launch(a, c->words, !bottom_up, p.sms, p.st));
    return finish();
  }

  /* The level's stats to the host (h_stats[L & 1]: a thread a level ahead
   * writes the other), then every part done. */
  int finish() {
    Part &p = part();
    PK(cudaMemcpyAsync(p.h_stats + (L & 1), p.d_stats + (L & 1), sizeof(PartStats), cudaMemcpyDeviceToHost, p.st));
    return sync(4);
  }

  int seed() {
    Part &p = part();
    const uint32_t nsrc = s->nsrc;
    const size_t W = c->words ? c->words : 1;
    if (p.src_cap < nsrc) {
      if (p.src) PK(cudaFree(p.src));
      p.src = NULL;
      PK(cudaMalloc(&p.src, 4 * (size_t)nsrc));
      p.src_cap = nsrc;
    }
    uint64_t own = p.out.hi - p.out.lo;
    PK(cudaEventRecord(p.ev0, p.st));
    /* After an idle spell between searches the first exchanges wait
     * 0.2-0.3 ms, against 0.02-0.05 ms at later levels, whatever the
     * threads did; bulk traffic between the GPUs ahead of them takes that
     * wait away (a few words or a busy kernel on each GPU do not).  The
     * gather goes into recv, which every level writes before it reads. */
    int rc = gather(0);
    if (rc) return rc;
    PK(cudaMemsetAsync(p.level, 0xFF, 4 * (own ? own : 1), p.st));
    if (s->o->want_parents) PK(cudaMemsetAsync(p.parent, 0xFF, 4 * (own ? own : 1), p.st));
    PK(cudaMemsetAsync(p.F[0], 0, 4 * W, p.st));
    PK(cudaMemsetAsync(p.F[1], 0, 4 * W, p.st));
    PK(cudaMemsetAsync(p.V, 0, 4 * W, p.st));
    PK(cudaMemsetAsync(p.d_stats, 0, 2 * sizeof(PartStats), p.st));
    PK(cudaMemsetAsync(p.list, 0, 4, p.st));
    PK(cudaMemcpyAsync(p.src, s->src, 4 * (size_t)nsrc, cudaMemcpyHostToDevice, p.st));
    PK(part_seed_launch(args(), p.F[cur], p.V, p.src, nsrc, p.st));
    return WM_OK;
  }

  /* The whole search on this part; thread 0 also keeps the record. */
  /* Thread 0 of a process among several: it takes this process's part in
   * the exchanges between processes, the others wait for it. */
  bool lead() const { return c->procs && k == 0; }

  int start() {
    Part &p = part();
    PK(cudaSetDevice(p.dev));
    /* every part's events start once all threads are here (a woken one comes
     * late); the search's wall time counts the wait */
    const double t_arrive = wm_now();
    int rc = barrier();
    if (rc || (rc = seed())) return rc;
    if (s->trace && k == 0) {
      fprintf(stderr, "bfs-gpus: start: %.3f ms waiting for the parts' threads; asleep:", (wm_now() - t_arrive) * 1e3);
      for (int q = 1; q < c->nlocal; q++)
        if (s->slept[q]) fprintf(stderr, " %d", q);
      fprintf(stderr, "\n");
    }
    return WM_OK;
  }

  /* Part q's figures of level L: its stats, or across processes the sums. */
  void figures(int q, uint64_t f[kFigures]) const {
    if (c->procs) {
      memcpy(f, s->sums + (size_t)q * kFigures, kFigures * sizeof *f);
      return;
    }
    stats_figures(c->part[q].h_stats[L & 1], f);
  }

  /* The lead's sums of s->sums over the processes, after an alarm when
   * this process failed, so that no other waits on its GPUs.  WM_EDEVICE
   * (and every thread here leaves) when any process failed, the message
   * naming the other processes' failed GPUs. */
  int sum_over_processes(bool bad) {
    const wm_bfs_procs *P = c->procs;
    if (bad && !s->alarmed) {
      std::lock_guard<std::mutex> g(s->lock);
      P->alarm(P->ctx, s->why);
    }
    const int base = c->nparts * kFigures;
    uint64_t *v = s->sums;
    v[base + P->process] = bad && !s->alarmed; /* alarmed: the process that raised it says so */
    const int stopped = wm_monitor_stopped(s->mon);
    v[base + P->processes] = (uint64_t)stopped;
    if (P->sum_u64(P->ctx, v, (unsigned)(base + P->processes + 1))) {
      note("the sums of a level's figures over the processes failed");
      return leave();
    }
    bool any = false;
    for (int q = 0; q < P->processes; q++) any |= v[base + q] != 0;
    if (!any && v[base + P->processes]) { /* every part of every process stops after this level */
      s->stopped_here = stopped;
      uint32_t none = UINT32_MAX;
      s->stop_level.compare_exchange_strong(none, L + 1);
    }
    if (!any) return WM_OK;
    named_elsewhere();
    s->failed.store(1);
    return leave(); /* no communicator of this process waits for a peer that is gone */
  }

  /* The failures the sums report of other processes, added to the message. */
  void named_elsewhere() {
    const wm_bfs_procs *P = c->procs;
    const int base = c->nparts * kFigures;
    const uint64_t *v = s->sums;
    std::lock_guard<std::mutex> g(s->lock);
    for (int q = 0; q < c->nparts; q++) {
      size_t len = strlen(s->why);
      if (v[(size_t)q * kFigures + kFailed] && (q < c->first || q >= c->first + c->nlocal))
        snprintf(s->why + len, sizeof s->why - len, "%sGPU %d (process %d's GPU %d) failed there", len ? "; " : "", q,
                 q / c->nlocal, q % c->nlocal);
    }
    for (int q = 0; q < P->processes; q++) {
      bool named = false; /* by one of its GPUs */
      for (int j = q * c->nlocal; j < (q + 1) * c->nlocal; j++) named |= v[(size_t)j * kFigures + kFailed] != 0;
      size_t len = strlen(s->why);
      if (v[base + q] && !named && q != P->process)
        snprintf(s->why + len, sizeof s->why - len, "%sprocess %d failed", len ? "; " : "", q);
    }
  }

  /* s->sums before they are summed: this process's parts' failures, and
   * with `stats` their figures of level L; zero elsewhere. */
  void own_figures(bool stats) {
    memset(s->sums, 0, sizeof s->sums);
    for (int q = c->first; q < c->first + c->nlocal; q++) {
      uint64_t *f = s->sums + (size_t)q * kFigures;
      if (stats) stats_figures(c->part[q].h_stats[L & 1], f);
      f[kFailed] = s->part_failed[q];
    }
  }

  /* Several processes, a level's end: the lead sums every part's figures
   * (and failures) over the processes; the other threads wait for it. */
  int exchange_figures(int rc) {
    if (k != 0) return barrier();
    const bool bad = rc != WM_OK || s->failed.load();
    own_figures(!bad);
    if ((rc = sum_over_processes(bad))) return rc;
    return barrier(); /* the sums are there for every thread */
  }

  /* The whole search on this part; thread 0 also keeps the record. */
  int run() {
    const wm_graph *g = c->g;
    const wm_bfs_options *o = s->o;
    int rc = start();
    if (rc && !lead()) return rc; /* the lead fails at the next exchange, with the other processes */
    uint64_t count = s->nsrc, edges = 0, most = 0, hubs = 0, explored = 0, prev = 0;
    int bottom_up = 0, was_bottom_up = 0, hit = 0;
    for (uint32_t j = 0; j < s->nsrc; j++) {
      uint64_t d = wm_degree(g, s->src[j]);
      edges += d, hubs += d >= c->tau, hit |= s->src[j] == o->target;
    }
    most = edges;
    for (;;) {
      if (!c->procs && wm_monitor_stopped(s->mon)) {
        uint32_t none = UINT32_MAX;
        s->stop_level.compare_exchange_strong(none, L + 1);
      }
      if (L >= s->stop_level.load()) return rc; /* every part stops here: search reports it */
      if (count == 0) break;
      if (hit || L >= o->max_depth) {
        if (k == 0) s->truncated = 1;
        break;
      }
      /* the single-GPU rule (bfs_gpu.cu): bottom-up while the frontier
       * grows and is heavy, back once it shrinks below n / beta */
      explored += edges;
      if (!bottom_up && o->direction_opt && count >= prev &&
          wm_bfs_go_bottom_up(o, hubs, c->nhubs, edges, g->m > explored ? g->m - explored : 0))
        bottom_up = 1;
      else if (bottom_up && count < prev && count < g->n / kBackToTopDownBeta)
        bottom_up = 0;
      prev = count;
      double lap = wm_now();
      if (k == 0) memset(s->phase_ms, 0, sizeof s->phase_ms), s->mark_t = lap;
      /* a sparse level's list holds at most its part's frontier out-arcs */
      const int sparse = !bottom_up && edges <= c->sparse_arcs;
      lslot = sparse ? list_words(most) : 0;
      if (!rc) rc = step(bottom_up, count <= PartPolicy::FEW, bottom_up && !was_bottom_up, sparse);
      if (rc && !lead()) return rc;
      if (c->procs && (rc = exchange_figures(rc))) return rc;
      if (bottom_up) qb ^= 1;
      was_bottom_up = bottom_up;
      if (k == 0) s->bu_levels += bottom_up, s->list_levels += sparse;
      cur ^= 1;
      count = edges = most = hubs = 0;
      for (int q = 0; q < c->nparts; q++) {
        uint64_t f[kFigures];
        figures(q, f);
        count += f[kCount], edges += f[kEdges], hubs += f[kHubs], hit |= f[kHit] != 0;
        if (f[kEdges] > most) most = f[kEdges];
        if (f[kOverflow]) return fail("listed more candidates than its frontier's arcs");
      }
      L++;
      if (s->trace && k == 0)
        fprintf(stderr,
                "bfs-gpus: level %u (%s): %llu vertices, %llu edges, %llu hubs; %.3f ms (kernels %.3f, swap %.3f, "
                "merge %.3f, gather %.3f, end %.3f)\n",
                L, bottom_up ? "bottom-up" : sparse ? "top-down, lists" : "top-down", (unsigned long long)count,
                (unsigned long long)edges, (unsigned long long)hubs, (wm_now() - lap) * 1e3, s->phase_ms[0],
                s->phase_ms[1], s->phase_ms[2], s->phase_ms[3], s->phase_ms[4]);
    }
    if (!rc) rc = end();
    return c->procs ? close(rc) : rc;
  }

  /* Every part done: the search's time, then this part's levels and
   * parents into the result, while the other parts copy theirs. */
  int end() {
    Part &p = part();
    PK(cudaEventRecord(p.ev1, p.st));
    PK(cudaEventSynchronize(p.ev1));
    int rc = barrier();
    if (rc) return rc;
    if (k == 0) s->t_end = wm_now(); /* the search's time leaves out the copies */
    return copy_back();
  }

  /* Several processes, the search's end: once this process's parts are
   * copied, the lead learns whether every process's were, and process 0
   * gathers every process's levels and parents. */
  int close(int rc) {
    if (k != 0) return rc ? rc : barrier();
    if (!rc) rc = barrier();
    own_figures(false);
    if ((rc = sum_over_processes(rc != WM_OK || s->failed.load()))) return rc;
    const wm_bfs_procs *P = c->procs;
    uint32_t lo[WM_MAX_PARTS], hi[WM_MAX_PARTS];
    for (int q = 0; q < P->processes; q++) lo[q] = c->part[q * c->nlocal].out.lo, hi[q] = c->part[(q + 1) * c->nlocal - 1].out.hi;
    if (P->gather_u32(P->ctx, s->level, lo, hi) || (s->parent && P->gather_u32(P->ctx, s->parent, lo, hi))) {
      note("gathering the levels to process 0 failed");
      return leave(false);
    }
    return WM_OK;
  }

  /* This part's levels and parents into the result, while the other parts
   * copy theirs. */
  int copy_back() {
    Part &p = part();
    size_t own = p.out.hi - p.out.lo;
    if (!own) return WM_OK;
    PK(cudaMemcpy(s->level + p.out.lo, p.level, 4 * own, cudaMemcpyDeviceToHost));
    if (s->parent) PK(cudaMemcpy(s->parent + p.out.lo, p.parent, 4 * own, cudaMemcpyDeviceToHost));
    return WM_OK;
  }
#undef PK
#undef PN
};

}  // namespace

/* NCCL connects peers on their first exchange, which costs far more than a
 * search: each kind of exchange once here, by the search's own calls (the
 * lists at a few sizes, which NCCL may move by different protocols), keeps
 * that out of the first search.  One thread, one group over all the
 * communicators per exchange. */
/* A thread for each of this process's parts, t[0] the caller's. */
static void threads(PartCtx *c, Shared *S, PartThread *t) {
  for (int k = 0; k < c->nlocal; k++) t[k].s = S, t[k].c = c, t[k].i = c->first + k, t[k].k = k;
}

static int warm_up(PartCtx *c, wm_error *err) {
  Shared S;
  S.c = c;
  PartThread t[WM_MAX_PARTS];
  threads(c, &S, t);
  const uint64_t sizes[] = {32, 1024, 32768, c->lslot};
  for (int k = 0; k <= 5; k++) { /* the swap, the lists at each size, the bitmaps */
    NK(ncclGroupStart());
    for (int i = 0; i < c->nlocal; i++) {
      if (k == 0)
        t[i].swap();
      else if (k <= 4)
        t[i].lists(sizes[k - 1] < c->lslot ? sizes[k - 1] : c->lslot);
      else
        t[i].gather(0);
    }
    NK(ncclGroupEnd());
    if (S.failed.load()) return wm_fail(err, WM_EDEVICE, "bfs: NCCL's first exchanges: %s", S.why);
  }
  for (int i = c->first; i < c->first + c->nlocal; i++) {
    CK(cudaSetDevice(c->part[i].dev));
    CK(cudaStreamSynchronize(c->part[i].st));
  }
  return WM_OK;
}

/* The parts' threads, kept for the context's life: a thread's first CUDA
 * and NCCL calls cost more than a level, so every search hands its parts to
 * the same threads.  Thread i >= 1 runs part i, the caller's thread part 0.
 * Between searches a thread spins a little (a Graph500 run's searches come
 * back to back), then sleeps. */
struct Pool {
  std::thread th[WM_MAX_PARTS];
  std::mutex m;
  std::condition_variable cv;
  std::atomic<unsigned> posted{0}; /* searches posted (or the end) */
  std::atomic<int> running{0};     /* threads of parts >= 1 still in the search */
  bool quit = false;
  PartThread *t = nullptr;         /* the posted search's parts */
};

/* How long a thread spins after a search before it sleeps.  A woken thread
 * starts a little late (the start barrier waits for it), but it is not
 * what makes a search's first levels slow: on two H100s, kron-25 searches
 * 200 ms apart in the CLI took 2.37 ms (median of 16) with this spin and
 * 2.24 ms with the threads spinning 2 s, never asleep, whose traces still
 * show the first two all-gathers at 0.28-0.31 and 0.14 ms against
 * 0.02-0.05 ms at later levels.  Those are the first exchanges after
 * 50 ms or more of idling, which seed() answers with a gather of its own.
 * A spin that long would hold a core between a library user's calls for
 * 5%, so a thread spins only for callers that search back to back, and
 * yields its core meanwhile. */
static const double kPoolSpinSeconds = 0.005;

static void pool_loop(Pool *pool, int i) {
  unsigned seen = 0;
  for (;;) {
    const double t0 = wm_now();
    while (pool->posted.load() == seen && wm_now() - t0 < kPoolSpinSeconds) std::this_thread::yield();
    const int slept = pool->posted.load() == seen;
    {
      std::unique_lock<std::mutex> lk(pool->m);
      pool->cv.wait(lk, [&] { return pool->posted.load() != seen; });
      seen = pool->posted.load();
      if (pool->quit) return;
    }
    pool->t[i].s->slept[i] = slept;
    pool->t[i].run();
    pool->running.fetch_sub(1);
  }
}

static int pool_start(PartCtx *c, wm_error *err) {
  Pool *pool = new (std::nothrow) Pool();
  if (!pool) return wm_fail(err, WM_EINPUT, "bfs: out of host memory");
  c->pool = pool;
  try {
    for (int i = 1; i < c->nlocal; i++) pool->th[i] = std::thread(pool_loop, pool, i);
  } catch (const std::exception &e) {
    return wm_fail(err, WM_EDEVICE, "bfs: could not start a thread per GPU: %s", e.what());
  }
  return WM_OK;
}

static void pool_stop(PartCtx *c) {
  Pool *pool = c->pool;
  if (!pool) return;
  {
    std::lock_guard<std::mutex> g(pool->m);
    pool->quit = true;
    pool->posted.fetch_add(1);
  }
  pool->cv.notify_all();
  for (int i = 1; i < c->nlocal; i++)
    if (pool->th[i].joinable()) pool->th[i].join();
  delete pool;
  c->pool = NULL;
}

/* One search on every part's thread; returns when all have left it. */
static void pool_run(PartCtx *c, PartThread *t) {
  Pool *pool = c->pool;
  {
    std::lock_guard<std::mutex> g(pool->m);
    pool->t = t;
    pool->running.store(c->nlocal - 1);
    pool->posted.fetch_add(1);
  }
  pool->cv.notify_all();
  t[0].run();
  while (pool->running.load()) std::this_thread::yield();
}

static int search(PartCtx *c, const uint32_t *src, uint32_t nsrc, const wm_bfs_options *o, wm_bfs_result *r,
                  wm_error *err) {
  Shared S;
  S.c = c, S.o = o, S.src = src, S.nsrc = nsrc;
  S.trace = wm_trace_on("WM_BFS_TRACE");
  S.mon = wm_monitor_current();
  size_t n = c->g->n ? c->g->n : 1;
  r->level = S.level = (uint32_t *)malloc(n * 4);
  if (o->want_parents) r->parent = S.parent = (uint32_t *)malloc(n * 4);
  if (!r->level || (o->want_parents && !r->parent)) {
    if (!c->procs) return wm_fail(err, WM_EINPUT, "bfs: out of host memory");
    /* the other processes learn it at the first exchange */
    snprintf(S.why, sizeof S.why, "process %d: out of host memory for the result", c->procs->process);
    S.failed.store(1);
  } else if (c->procs && c->procs->process != 0) {
    /* outside its own range a process's result stays unreached */
    const size_t lo = c->part[c->first].out.lo, hi = c->part[c->first + c->nlocal - 1].out.hi;
    uint32_t *a[] = {S.level, S.parent};
    for (uint32_t *x : a)
      if (x) memset(x, 0xFF, 4 * lo), memset(x + hi, 0xFF, 4 * (c->g->n - hi));
  }
  /* Several processes start the clock together, as Graph500's reference
   * does with a barrier before each search: one still on its own host work
   * (process 1 filling the result outside its range, process 0 the last
   * search's gather) held the others' first exchange 30-60 ms on kron-24,
   * timed as their first level. */
  const int together = agree(c, WM_OK, "start the search together", err);
  if (together) return together;
  double t0 = wm_now();
  PartThread t[WM_MAX_PARTS];
  threads(c, &S, t);
  pool_run(c, t);
  if (S.failed.load() && c->procs)
    return wm_fail(err, WM_EDEVICE, "bfs: %s (the search on all %d GPUs of %d processes is abandoned)", S.why,
                   c->nparts, c->procs->processes);
  if (S.failed.load())
    return wm_fail(err, WM_EDEVICE, "bfs: %s (the search on all %d GPUs is abandoned)", S.why, c->nparts);
  if (S.stop_level.load() != UINT32_MAX) {
    for (int i = c->first; i < c->first + c->nlocal; i++) /* nothing of the search left running */
      if (cudaSetDevice(c->part[i].dev) == cudaSuccess) cudaStreamSynchronize(c->part[i].st);
    cudaGetLastError();
    if (c->procs && !S.stopped_here)
      return wm_fail(err, WM_EINTERRUPTED, "bfs: interrupted (warpmatch_interrupt on another process of the search)");
    return wm_interrupted(err, "bfs");
  }
  float ms = 0;
  for (int i = c->first; i < c->first + c->nlocal; i++) {
    Part &p = c->part[i];
    float e = 0;
    CK(cudaSetDevice(p.dev));
    CK(cudaEventElapsedTime(&e, p.ev0, p.ev1));
    if (e > ms) ms = e;
  }
  r->seconds = S.t_end - t0;
  r->kernel_ms = ms;
  r->truncated = S.truncated;
  r->bottom_up_levels = S.bu_levels;
  r->list_levels = S.list_levels;
  return wm_bfs_result_stats(c->g, r, err);
}

int part_run(PartCtx *c, const uint32_t *sources, uint32_t nsources, const wm_bfs_options *o,
             wm_bfs_result *r, wm_error *err) {
  for (int i = c->first; i < c->first + c->nlocal; i++)
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
