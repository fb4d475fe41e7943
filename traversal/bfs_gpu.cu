/* GPU BFS, host side: device buffers sized from the graph and the free
 * device memory, streams, the level loop and its direction decisions.
 *
 * One level of the full pipeline (queue_gen on):
 *   top-down:  the Small/Middle/Large/Extreme regions of the frontier queue
 *              are expanded by a kernel each (on four streams where more
 *              than one class has vertices), whose visits
 *              mark the new level in a bitmap, which the two-step queue
 *              generation then reads (it also classifies, counts hubs and
 *              fills the hub table), and the first bottom-up step too;
 *   bottom-up: the unvisited vertices look for parents in a bitmap of the
 *              current level, and the step itself lists those it reached
 *              (the new frontier, its bitmap and figures) and those it
 *              left (the next step's queue); the first step after a
 *              top-down level goes over every vertex instead of a queue,
 *              and the frontier is classified only on a switch back.
 * Small frontiers run in the small-level kernel, several levels per launch
 * (one block, or every SM for the levels one block should not expand alone:
 * a small graph's whole search is one launch).  Before all of these, a small
 * graph whose bitmaps fit a block's shared memory is searched whole by the
 * cluster search (kernel_cluster_search.cu), one launch of a block cluster,
 * unless the deep-level kernel keeps it.
 * The host reads back one small struct per level (sizes, hubs, edges),
 * and waits for that copy only: the scratch the level left is cleared
 * behind it (Scratch). */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bfs_gpu_internal.cuh"
#include "bfs_part.cuh"
#include "gpu_check.h" /* wm_gpu_stop_word */
#include "base.h"
#include "traversal.h"

using namespace wm_bfs;

/* Levels a search must spend in the deep-level kernel to pay for handing
 * over to the pipeline when its frontier outgrows one block: a handover
 * costs a host round trip and a queue generation (30-50 µs a search on an
 * H200, a random 8-regular graph of 10^6 vertices), a level there saves
 * about 2 µs against the small-level kernel's block tier (the grid
 * 1024x1024). */
static const uint32_t kDeepWorthLevels = 32;

/* The most arcs of a graph that the cluster search takes (whose vertices'
 * bits also fit its blocks' shared memory).  Its C blocks run on C SMs of
 * the device's 132, so it pays while a level's arcs cost those few SMs
 * less than the pipeline's host round trip (tens of microseconds): on an
 * H200 it was 1.5-1.6x faster at 2 x 10^6 arcs (Kronecker 16, R-MAT 16)
 * and no faster at 4.2 x 10^6 (Kronecker 17). */
static const uint64_t kClusterArcs = 1ull << 22;

/* Sources a search stages in pinned memory (the Graph500 protocol's one;
 * a longer list is copied from where it is). */
static const uint32_t kPinnedSources = 1024;


struct wm_bfs_gpu_ctx {
  const wm_graph *g;
  PartCtx *part; /* --gpus N > 1: the partitioned search (bfs_part_gpu.cu) instead */
  int device, sms;
  DevGraph out, in;
  int have_in; /* bottom-up possible: symmetric, or the transpose is on the device */
  uint64_t *d_off, *d_in_off;
  uint32_t *d_adj, *d_in_adj;
  uint32_t *d_status, *d_parent, *d_q[2];
  uint32_t *d_has_in; /* bitmap: vertices with in-arcs */
  unsigned long long *d_hub_table; /* two tables of BottomUpPolicy::CACHE: a bottom-up step reads one, fills the other */
  uint32_t *d_fb[2]; /* bottom-up: the frontier's bitmap and the next one's (fb_words each) */
  uint64_t fb_words;
  unsigned *d_counts; /* the queue generation's block counts */
  int max_blocks;
  DevStats *d_stats, *h_stats;
  uint32_t *h_src; /* pinned: the sources on their way to the device (kPinnedSources) */
  cudaStream_t st, side[4];
  cudaEvent_t ev_start, ev_stop, ev_fork, ev_join[4];
  cudaEvent_t ev_lap[2]; /* WM_BFS_TRACE: a step's first and last operation on the device */
  cudaEvent_t ev_figures; /* a step's figures are on the host (its scratch's clears may still run) */
  unsigned clean; /* Scratch bits: buffers known zero on the device (cleared while the host waited) */
  uint64_t tau, nhubs;
  uint32_t small_cap;
  size_t small_smem;
  int small_blocks;   /* the small-level kernel's grid tier: blocks of its cooperative launch (1: none) */
  void *d_small;      /* its scratch (the grid tier's queues) */
  int cluster_blocks; /* the cluster search's blocks (0: not for this graph or device) */
  uint32_t cluster_wb; /* ... each one's words of the bitmaps */
  size_t cluster_smem;
  uint32_t *d_ell;    /* the deep-level kernel's padded rows, or NULL: not for this graph */
  uint32_t deep_shift, deep_cap;
  size_t deep_smem;
  int deep_shallow;   /* a search left it within kDeepWorthLevels: the next ones start elsewhere */
  unsigned long long *d_clk; /* WM_BFS_TRACE: its clock marks (made by the first traced search) */
  char desc[768];
};

/* ---- context ---------------------------------------------------------- */

static double gib(uint64_t b) { return (double)b / (1u << 30); }

/* Uploads the bitmap of vertices with in-arcs (in_off: the in-arc offsets,
 * the graph's own when symmetric). */
static int upload_has_in(wm_bfs_gpu_ctx *c, const uint64_t *in_off, wm_error *err) {
  uint64_t words = ((uint64_t)c->g->n + 31) / 32;
  uint32_t *bits = (uint32_t *)calloc(words ? words : 1, 4);
  if (!bits) return wm_fail(err, WM_EINPUT, "bfs: out of host memory");
  for (uint64_t w = 0; w < words; w++) {
    uint32_t x = 0;
    for (uint64_t v = 32 * w; v < 32 * w + 32 && v < c->g->n; v++) x |= (uint32_t)(in_off[v + 1] > in_off[v]) << (v & 31);
    bits[w] = x;
  }
  cudaError_t e = cudaMemcpy(c->d_has_in, bits, 4 * words, cudaMemcpyHostToDevice);
  free(bits);
  CK(e);
  return WM_OK;
}

/* A directed graph's transpose, for bottom-up steps (the memory was
 * checked by the caller). */
static int upload_in_arcs(wm_bfs_gpu_ctx *c, wm_error *err) {
  const wm_graph *g = c->g;
  wm_graph *t = NULL;
  int rc = wm_graph_transpose(g, &t, err);
  if (rc) return rc;
  size_t off_b = 8 * ((size_t)g->n + 1), adj_b = 4 * (g->m ? g->m : 1);
  cudaError_t e = cudaMalloc(&c->d_in_off, off_b);
  if (e == cudaSuccess) e = cudaMalloc(&c->d_in_adj, adj_b);
  if (e == cudaSuccess) e = cudaMemcpy(c->d_in_off, t->offsets, off_b, cudaMemcpyHostToDevice);
  if (e == cudaSuccess && t->m) e = cudaMemcpy(c->d_in_adj, t->adj, 4 * t->m, cudaMemcpyHostToDevice);
  if (e == cudaSuccess) rc = upload_has_in(c, t->offsets, err);
  wm_graph_destroy(t);
  CK(e);
  if (rc) return rc;
  c->in = DevGraph{c->d_in_off, c->d_in_adj, g->n};
  c->have_in = 1;
  return WM_OK;
}

static int ctx_buffers(wm_bfs_gpu_ctx *c, const wm_bfs_options *o, wm_error *err) {
  const wm_graph *g = c->g;
  uint64_t n = g->n, off_b = 8 * (n + 1), adj_b = 4 * (g->m ? g->m : 1);
  c->max_blocks = c->sms * QueueGenPolicy::BLOCKS_PER_SM;
  uint64_t counts_b = 4 * (uint64_t)Q_CLASSES * c->max_blocks;
  uint64_t need = off_b + adj_b + 4 * n /* status */ + 4 * n /* parent */ + 8 * n /* queues */ +
                  4 * ((n + 31) / 32 + 1) /* in-arc bitmap */ +
                  2 * 4 * ((n + 31) / 32 + 1) /* frontier bitmaps */ + 2 * 8 * BottomUpPolicy::CACHE +
                  counts_b + sizeof(DevStats);
  size_t free_b = 0, total_b = 0;
  CK(cudaMemGetInfo(&free_b, &total_b));
  uint64_t usable = free_b - free_b / 20; /* leave 5% for the runtime */
  if (need > usable)
    return wm_fail(err, WM_EDEVICE,
                   "bfs: the graph (%u vertices, %llu arcs) needs %.2f GiB of device memory, "
                   "%.2f GiB are free",
                   g->n, (unsigned long long)g->m, gib(need), gib(free_b));
  int directed = (g->flags & WM_GRAPH_DIRECTED) != 0;
  int want_in = directed && o->direction_opt && need + off_b + adj_b <= usable;
  CK(cudaMalloc(&c->d_off, off_b));
  CK(cudaMalloc(&c->d_adj, adj_b));
  /* status and parent in one allocation: one memset clears both */
  CK(cudaMalloc(&c->d_status, 8 * (n ? n : 1)));
  c->d_parent = c->d_status + (n ? n : 1);
  CK(cudaMalloc(&c->d_q[0], 4 * (n ? n : 1)));
  CK(cudaMalloc(&c->d_q[1], 4 * (n ? n : 1)));
  CK(cudaMalloc(&c->d_hub_table, 2 * 8 * BottomUpPolicy::CACHE));
  c->fb_words = (n + 31) / 32 + 1;
  CK(cudaMalloc(&c->d_fb[0], 4 * c->fb_words));
  CK(cudaMalloc(&c->d_fb[1], 4 * c->fb_words));
  CK(cudaMalloc(&c->d_has_in, 4 * ((n + 31) / 32 + 1)));
  CK(cudaMalloc(&c->d_counts, counts_b));
  CK(cudaMalloc(&c->d_stats, sizeof(DevStats)));
  CK(cudaMallocHost(&c->h_stats, sizeof(DevStats)));
  CK(cudaMallocHost(&c->h_src, 4 * kPinnedSources));
  CK(cudaMemcpy(c->d_off, g->offsets, off_b, cudaMemcpyHostToDevice));
  if (g->m) CK(cudaMemcpy(c->d_adj, g->adj, 4 * g->m, cudaMemcpyHostToDevice));
  c->out = DevGraph{c->d_off, c->d_adj, g->n};
  c->in = c->out;
  c->have_in = !directed;
  if (want_in) return upload_in_arcs(c, err);
  return c->have_in ? upload_has_in(c, g->offsets, err) : WM_OK;
}

static int ctx_streams(wm_bfs_gpu_ctx *c, wm_error *err) {
  CK(cudaStreamCreateWithFlags(&c->st, cudaStreamNonBlocking));
  for (int i = 0; i < 4; i++) {
    CK(cudaStreamCreateWithFlags(&c->side[i], cudaStreamNonBlocking));
    CK(cudaEventCreateWithFlags(&c->ev_join[i], cudaEventDisableTiming));
  }
  CK(cudaEventCreateWithFlags(&c->ev_fork, cudaEventDisableTiming));
  CK(cudaEventCreate(&c->ev_start));
  CK(cudaEventCreate(&c->ev_stop));
  for (int i = 0; i < 2; i++) CK(cudaEventCreate(&c->ev_lap[i]));
  CK(cudaEventCreateWithFlags(&c->ev_figures, cudaEventDisableTiming));
  return WM_OK;
}

/* The most arcs of a graph the cluster search takes (the test hook
 * WM_BFS_CLUSTER_ARCS: another number). */
static uint64_t cluster_arcs() {
  const char *arcs = getenv("WM_BFS_CLUSTER_ARCS");
  return arcs && *arcs ? strtoull(arcs, NULL, 10) : kClusterArcs;
}

/* The cluster search's shape for this graph (none: c->cluster_blocks 0);
 * its prefix sums are 32-bit. */
static cudaError_t ctx_cluster(wm_bfs_gpu_ctx *c, const wm_graph *g) {
  if (g->m > cluster_arcs() || g->m >= (1ull << 32)) return cudaSuccess;
  const char *want = getenv("WM_BFS_CLUSTER_BLOCKS"); /* a test hook: the most blocks of the cluster */
  return cluster_search_prepare(c->device, g->n, want ? atoi(want) : 0, &c->cluster_blocks, &c->cluster_wb,
                                &c->cluster_smem);
}

/* The deep-level kernel's part of the context's description: its rows'
 * width, or why it is off. */
static void describe_deep(const wm_bfs_gpu_ctx *c, const wm_graph *g, char *out, size_t size) {
  const unsigned most = (unsigned)DeepLevelPolicy::MAX_WIDTH;
  if (c->d_ell)
    snprintf(out, size, "rows of %u", 1u << c->deep_shift);
  else if (wm_graph_max_degree(g) > most)
    snprintf(out, size, "off (out-degrees above %u)", most);
  else
    snprintf(out, size, "off (%s; out-degrees up to %u)",
             c->deep_cap ? "no device memory for its rows" : "more vertices than its shared memory holds", most);
}

extern "C" int wm_bfs_gpu_create(const wm_graph *g, const wm_bfs_options *o, wm_bfs_gpu_ctx **out,
                                 wm_error *err) {
  *out = NULL;
  wm_bfs_gpu_ctx *c = (wm_bfs_gpu_ctx *)calloc(1, sizeof *c);
  if (!c) return wm_fail(err, WM_EINPUT, "bfs: out of host memory");
  c->g = g;
  int rc = WM_OK;
  if (o->gpus > 1 || (o->procs && o->procs->processes > 1)) {
    if ((rc = part_create(g, o, &c->part, err))) {
      free(c);
      return rc;
    }
    *out = c;
    return WM_OK;
  }
  cudaDeviceProp prop;
  cudaError_t e = cudaGetDevice(&c->device);
  if (e == cudaSuccess) e = cudaGetDeviceProperties(&prop, c->device);
  if (e != cudaSuccess) {
    cudaGetLastError();
    free(c);
    return wm_fail(err, WM_EDEVICE, "bfs: no usable CUDA device: %s", cudaGetErrorString(e));
  }
  c->sms = prop.multiProcessorCount;
  wm_bfs_hub_threshold(g, &c->tau, &c->nhubs);
  if ((rc = ctx_buffers(c, o, err)) || (rc = ctx_streams(c, err))) goto fail;
  e = small_levels_prepare(c->device, &c->small_cap, &c->small_smem, &c->small_blocks);
  if (e == cudaSuccess) e = cudaMalloc(&c->d_small, small_levels_scratch_bytes(c->small_cap));
  if (e == cudaSuccess)
    e = deep_levels_prepare(c->device, g->n, wm_graph_max_degree(g), &c->deep_shift, &c->deep_cap, &c->deep_smem);
  if (e == cudaSuccess && c->deep_cap) {
    /* the padded rows are a speed-up: without room for them the searches start elsewhere */
    if (cudaMalloc(&c->d_ell, ((size_t)g->n << c->deep_shift) * sizeof *c->d_ell) != cudaSuccess)
      cudaGetLastError(), c->d_ell = NULL;
    if (c->d_ell) e = deep_levels_ell(c->out, c->deep_shift, c->d_ell, c->st);
    if (c->d_ell && e == cudaSuccess) e = cudaStreamSynchronize(c->st);
  }
  if (e == cudaSuccess) e = ctx_cluster(c, g);
  if (e != cudaSuccess) {
    rc = wm_fail(err, WM_EDEVICE, "bfs: small-level kernel setup: %s", cudaGetErrorString(e));
    goto fail;
  }
  char deep[96], cluster[64];
  describe_deep(c, g, deep, sizeof deep);
  if (c->cluster_blocks)
    snprintf(cluster, sizeof cluster, "%d blocks of %u words", c->cluster_blocks, c->cluster_wb);
  else
    snprintf(cluster, sizeof cluster, "off (%s)", g->m > cluster_arcs() ? "too many arcs" : "not on this device or graph");
  snprintf(c->desc, sizeof c->desc,
           "%s (%d SMs, sm_%d%d); hub threshold %llu (%llu hubs, cache %d); small-level kernel: "
           "%u-vertex frontier, %llu edges/level a block, %d blocks; deep levels: %s; cluster search: %s; "
           "bottom-up: %s",
           prop.name, c->sms, prop.major, prop.minor, (unsigned long long)c->tau,
           (unsigned long long)c->nhubs, BottomUpPolicy::CACHE, c->small_cap,
           (unsigned long long)SmallLevelPolicy::EDGE_BUDGET, c->small_blocks,
           deep, cluster,
           !(g->flags & WM_GRAPH_DIRECTED) ? "symmetric graph"
           : c->have_in                   ? "in-arcs (transpose) on the device"
                                          : "off (directed graph without its transpose)");
  *out = c;
  return WM_OK;
fail:
  wm_bfs_gpu_destroy(c);
  return rc;
}

extern "C" void wm_bfs_gpu_destroy(wm_bfs_gpu_ctx *c) {
  if (!c) return;
  part_destroy(c->part);
  void *bufs[] = {c->d_off,       c->d_in_off,   c->d_adj,    c->d_in_adj, c->d_status,
                  c->d_q[0],     c->d_q[1],   c->d_has_in, c->d_hub_table, c->d_fb[0], c->d_fb[1],
                  c->d_counts,    c->d_stats,  c->d_small, c->d_clk, c->d_ell};
  for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
    if (bufs[i]) cudaFree(bufs[i]);
  if (c->h_stats) cudaFreeHost(c->h_stats);
  if (c->h_src) cudaFreeHost(c->h_src);
  for (int i = 0; i < 4; i++) {
    if (c->side[i]) cudaStreamDestroy(c->side[i]);
    if (c->ev_join[i]) cudaEventDestroy(c->ev_join[i]);
  }
  if (c->st) cudaStreamDestroy(c->st);
  if (c->ev_fork) cudaEventDestroy(c->ev_fork);
  if (c->ev_start) cudaEventDestroy(c->ev_start);
  if (c->ev_stop) cudaEventDestroy(c->ev_stop);
  for (int i = 0; i < 2; i++)
    if (c->ev_lap[i]) cudaEventDestroy(c->ev_lap[i]);
  if (c->ev_figures) cudaEventDestroy(c->ev_figures);
  free(c);
}

extern "C" const char *wm_bfs_gpu_describe(const wm_bfs_gpu_ctx *c) {
  return c->part ? part_describe(c->part) : c->desc;
}

/* ---- one search -------------------------------------------------------- */

int wm_bfs::dedupe_sources(const wm_graph *g, const uint32_t *sources, uint32_t nsources, uint32_t **out,
                   uint32_t *count, wm_error *err) {
  uint32_t *v = (uint32_t *)malloc((size_t)nsources * sizeof *v);
  if (!v) return wm_fail(err, WM_EINPUT, "bfs: out of host memory");
  uint32_t k = 0;
  for (uint32_t i = 0; i < nsources; i++) {
    if (sources[i] >= g->n) {
      free(v);
      return wm_fail(err, WM_EINPUT, "bfs: source %u is not a vertex (the graph has %u)", sources[i], g->n);
    }
    v[k++] = sources[i];
  }
  qsort(v, k, sizeof *v, [](const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
  });
  uint32_t u = 0;
  for (uint32_t i = 0; i < k; i++)
    if (u == 0 || v[u - 1] != v[i]) v[u++] = v[i];
  *out = v;
  *count = u;
  return WM_OK;
}

namespace {

/* The scratch a step wants zero before its kernels write it: the figures,
 * the two frontier bitmaps, the two hub tables.  A step starts with the
 * device idle (the host has just read the last one's figures), so each
 * clear enqueued then is a gap before its kernels; instead the buffers a
 * step leaves dead are cleared behind its figures' copy, while the host
 * waits for the copy and decides the next step (wm_bfs_gpu_ctx.clean). */
enum Scratch : unsigned { SCRATCH_STATS = 1, SCRATCH_FB = 2 /* << i */, SCRATCH_HUB = 8 /* << i */ };

/* What the host knows about the current frontier (level L). */
struct Frontier {
  uint32_t L;
  uint32_t count;
  uint64_t edges;
  uint32_t hubs;
  uint32_t target_level;
  uint32_t offs[Q_CLASSES + 1]; /* regions of d_q[cur] (queue_gen on) */
};

struct Search {
  wm_bfs_gpu_ctx *c;
  int trace; /* WM_BFS_TRACE=1: one line per decision on stderr */
  double t_mark; /* trace: host time of the last synchronisation */
  const wm_bfs_options *o;
  wm_error *err;
  DevState s;
  int queue_gen, classify, hub_cache, small, deep, dir_opt;
  int cluster; /* the whole search in the cluster search's one launch */
  int symmetric; /* every arc's reverse is an arc (the graph is not directed) */
  int small_blocks; /* the small-level kernel's launch: 1, or its grid tier's blocks */
  uint32_t target;
  int cur;
  Frontier f;
  int bottom_up;
  uint32_t bu_begin, bu_len; /* the bottom-up queue in d_q[cur] */
  int bu_range;     /* the next bottom-up step goes over every vertex (the first after top-down) */
  int unclassified; /* the frontier is listed in d_q[cur][0, f.count) but not classified (f.offs) */
  int hub_cur, fb_cur; /* the hub table and frontier bitmap of level f.L (bottom-up) */
  unsigned dead;       /* Scratch this step leaves for the next steps, cleared behind its figures */
  int fb_valid;        /* d_fb[fb_cur] holds the frontier of level f.L (a top-down level marked it) */
  uint32_t bu_levels;
  int truncated;
  wm_monitor *mon; /* the call's (warpmatch_interrupt), or NULL: polled between levels */
  wm_stop *stop; /* its stop word as the device reads it (the small-level kernel's) */

  /* trace: each step (the work between two synchronisations) as the host
   * saw it and as the device did, from its first operation to its last:
   * the difference is the round trip (the wait's wake-up, the copy of the
   * figures, the host's decision) and the gaps while it enqueued */
  int lap_open;
  uint32_t laps;
  double lap_gpu_total, lap_host_total;
  char lap_text[64];
  void lap_begin() {
    if (trace && !lap_open && cudaEventRecord(c->ev_lap[0], c->st) == cudaSuccess) lap_open = 1;
  }
  const char *lap() {
    double t = wm_now(), host = (t - t_mark) * 1e3;
    float gpu = 0;
    t_mark = t;
    if (!lap_open || cudaEventElapsedTime(&gpu, c->ev_lap[0], c->ev_lap[1]) != cudaSuccess) cudaGetLastError(), gpu = 0;
    lap_open = 0;
    laps++, lap_gpu_total += gpu, lap_host_total += host;
    snprintf(lap_text, sizeof lap_text, "%.3f ms (on the device %.3f)", host, gpu);
    return lap_text;
  }
  int sync_stats();
  int fresh(unsigned what);
  int clear(unsigned what);
  int gen(const uint32_t *in, uint32_t len, uint32_t want, int out, const uint32_t *bits = NULL);
  void take_frontier(uint32_t L);
  uint64_t small_budget() const;
  int small_levels(const uint32_t *in, uint32_t count, int seed = 0);
  int deep_levels(const uint32_t *sources, uint32_t count);
  int cluster_search(const uint32_t *sources, uint32_t count);
  unsigned long long *trace_marks(uint32_t *from);
  template <class Args> void levels_args(Args &a, const uint32_t *in, uint32_t count, uint32_t capacity);
  int stats_back(DevStats *h);
  int levels_exit(const DevStats &h);
  void trace_small_levels(const unsigned long long *d_clk, uint32_t from, uint32_t to);
  int topdown();
  int bottomup();
  int to_bottom_up();
  int classify_frontier();
  unsigned long long *hubs(int which) const { return hub_cache ? c->d_hub_table + which * BottomUpPolicy::CACHE : NULL; }
  int loop(uint32_t nsrc);
};

/* One queue generation of the vertices on level `want` into d_q[out] (out
 * < 0: counts only), from the list in[0, len), the vertices [0, len) or,
 * with bits, the words [0, len) of that bitmap of them; reads the stats
 * back into c->h_stats. */
int Search::gen(const uint32_t *in, uint32_t len, uint32_t want, int out, const uint32_t *bits) {
  const int R = bits ? QueueGenPolicy::BLOCK : QueueGenPolicy::ROUND;
  uint64_t want_blocks = ((uint64_t)len + R - 1) / R;
  int blocks = want_blocks < (uint64_t)c->max_blocks ? (int)want_blocks : c->max_blocks;
  if (blocks < 1) blocks = 1;
  uint64_t tile = ((uint64_t)len + blocks - 1) / blocks;
  tile = (tile + R - 1) / R * R;
  QueueGenArgs a;
  memset(&a, 0, sizeof a);
  a.in = in;
  a.bits = bits;
  a.len = len;
  a.want = want;
  a.classify = classify;
  a.hub_table = hubs(hub_cur);
  a.hub_tau = c->tau;
  a.tile = tile ? tile : R;
  a.block_counts = c->d_counts;
  a.out = out >= 0 ? c->d_q[out] : NULL;
  a.stats = c->d_stats;
  a.target = target;
  lap_begin();
  int rc = fresh(SCRATCH_STATS | (a.hub_table ? SCRATCH_HUB << hub_cur : 0u));
  if (rc) return rc;
  if (hub_cache) dead |= SCRATCH_HUB << (hub_cur ^ 1); /* the next bottom-up step's to fill */
  CK(queue_gen_launch(c->out, s.status, a, blocks, out >= 0, c->st));
  return sync_stats();
}

/* The device's figures into c->h_stats, once the step's work is done;
 * the figures and the scratch the step left dead are cleared behind the
 * copy, which is all the host waits for. */
int Search::sync_stats() {
  CK(cudaMemcpyAsync(c->h_stats, c->d_stats, sizeof(DevStats), cudaMemcpyDeviceToHost, c->st));
  if (lap_open) CK(cudaEventRecord(c->ev_lap[1], c->st));
  CK(cudaEventRecord(c->ev_figures, c->st));
  int rc = clear(SCRATCH_STATS | dead);
  if (rc) return rc;
  dead = 0;
  CK(cudaEventSynchronize(c->ev_figures));
  return WM_OK;
}

/* Clears the scratch `what` that is not known zero. */
int Search::clear(unsigned what) {
  for (unsigned b = 1; b <= (SCRATCH_HUB << 1); b <<= 1) {
    if (!(what & b) || (c->clean & b)) continue;
    if (b == SCRATCH_STATS) CK(cudaMemsetAsync(c->d_stats, 0, sizeof(DevStats), c->st));
    else if (b & (SCRATCH_FB | SCRATCH_FB << 1)) CK(cudaMemsetAsync(c->d_fb[b == SCRATCH_FB << 1], 0, 4 * c->fb_words, c->st));
    else CK(cudaMemsetAsync(c->d_hub_table + (b == SCRATCH_HUB << 1) * BottomUpPolicy::CACHE, 0, 8 * BottomUpPolicy::CACHE, c->st));
    c->clean |= b;
  }
  return WM_OK;
}

/* The scratch `what`, zero, for a writer enqueued next: from here it is
 * not known zero. */
int Search::fresh(unsigned what) {
  int rc = clear(what);
  c->clean &= ~what;
  return rc;
}

/* The last generation collected the frontier of level L. */
void Search::take_frontier(uint32_t L) {
  const DevStats &h = *c->h_stats;
  f.L = L;
  f.count = h.offs[Q_CLASSES];
  f.edges = h.frontier_edges;
  f.hubs = h.hubs;
  f.target_level = h.target_level;
  memcpy(f.offs, h.offs, sizeof f.offs);
  if (trace)
    fprintf(stderr, "bfs-gpu: level %u: %u vertices (S/M/L/E %u/%u/%u/%u), %llu edges, %u hubs; %s\n", L,
            f.count, f.offs[1] - f.offs[0], f.offs[2] - f.offs[1], f.offs[3] - f.offs[2], f.offs[4] - f.offs[3],
            (unsigned long long)f.edges, f.hubs, lap());
}

/* WM_BFS_TRACE: the small-level kernel's marks, a line per level from
 * `from` to `to` (those it ran), in microseconds of block 0's clock. */
void Search::trace_small_levels(const unsigned long long *d_clk, uint32_t from, uint32_t to) {
  unsigned long long k[kSmallTraceWords];
  int khz = 0, dev = 0;
  if (cudaMemcpy(k, d_clk, sizeof k, cudaMemcpyDeviceToHost) != cudaSuccess || cudaGetDevice(&dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev) != cudaSuccess || khz <= 0) {
    cudaGetLastError();
    return;
  }
  const double us = 1e3 / khz;
  for (uint32_t L = from; L < to && L - from < (uint32_t)kSmallTraceLevels; L++) {
    const unsigned long long *m = k + 1 + kMarks * (L - from);
    if (!m[MARK_BEGIN]) continue;
    /* thread 0's first pass: when its row, claim and append were done (none: it had no item) */
    const auto at = [&](int i) { return m[i] ? (m[i] - m[MARK_BEGIN]) * us : 0.0; };
    char fine[96] = "";
    if (m[MARK_TIER] >= 4) { /* the cluster search's */
      fprintf(stderr, "bfs-gpu: cluster level %u (%s): begins at %.2f us, expanded in %.2f us, barrier %.2f us, "
              "copies %.2f us\n", L, m[MARK_TIER] == 5 ? "bottom-up" : "top-down", (m[MARK_BEGIN] - k[0]) * us,
              at(MARK_EXPANDED), (m[MARK_PAST] - m[MARK_EXPANDED]) * us, (m[MARK_APPEND] - m[MARK_PAST]) * us);
      continue;
    }
    if (m[MARK_ROW])
      snprintf(fine, sizeof fine, " (first pass: row %.2f, claim %.2f, append %.2f)", at(MARK_ROW), at(MARK_CLAIM),
               at(MARK_APPEND));
    fprintf(stderr, "bfs-gpu: small level %u (%s): begins at %.2f us, expanded in %.2f us%s, barrier %.2f us\n", L,
            m[MARK_TIER] == 3 ? "deep" : m[MARK_TIER] == 2 ? "grid" : "block", (m[MARK_BEGIN] - k[0]) * us,
            at(MARK_EXPANDED), fine, (m[MARK_PAST] - m[MARK_EXPANDED]) * us);
  }
}

/* The most edges of a level the small-level kernel expands over `blocks`
 * blocks: EDGE_BUDGET for each (the policy says why), within what its
 * counters can hold. */
static uint64_t small_budget_of(int blocks) {
  uint64_t b = (uint64_t)blocks * SmallLevelPolicy::EDGE_BUDGET;
  return b < SmallLevelPolicy::MAX_LEVEL_EDGES ? b : SmallLevelPolicy::MAX_LEVEL_EDGES;
}
uint64_t Search::small_budget() const { return small_budget_of(small_blocks); }

/* A levels kernel's figures (it writes every one), once it is done. */
int Search::stats_back(DevStats *h) {
  int rc = sync_stats();
  if (rc) return rc;
  *h = *c->h_stats;
  return WM_OK;
}

/* WM_BFS_TRACE: the levels kernels' clock marks, cleared, and in *from the
 * first level they mark (WM_BFS_TRACE_FROM=N: levels N on, a deep graph's
 * later, larger ones); NULL where the trace is off, and where it has no
 * room for them it goes on without. */
unsigned long long *Search::trace_marks(uint32_t *from) {
  *from = f.L;
  if (!trace) return NULL;
  if ((!c->d_clk && cudaMalloc(&c->d_clk, kSmallTraceWords * sizeof *c->d_clk) != cudaSuccess) ||
      cudaMemsetAsync(c->d_clk, 0, kSmallTraceWords * sizeof *c->d_clk, c->st) != cudaSuccess) {
    cudaGetLastError();
    return NULL;
  }
  const char *at = getenv("WM_BFS_TRACE_FROM");
  if (at && (uint32_t)atol(at) > f.L) *from = (uint32_t)atol(at);
  return c->d_clk;
}

/* What the small- and deep-level kernels' arguments share: the search's
 * state from level f.L, the list in[0, count), the frontier's capacity,
 * where an overflowing frontier, the figures and the trace marks go. */
template <class Args> void Search::levels_args(Args &a, const uint32_t *in, uint32_t count, uint32_t capacity) {
  a.s = s;
  a.in = in;
  a.count = count;
  a.level = f.L;
  a.max_depth = o->max_depth;
  a.target = target;
  a.capacity = capacity;
  a.out = c->d_q[cur ^ 1];
  a.stats = c->d_stats;
  a.stop = stop;
  a.clk = trace_marks(&a.trace_from);
}

/* Runs the small-level kernel from the list in[0, count) (level f.L; seed:
 * the sources, which it puts on their level) and rebuilds the host's view
 * of the frontier where it stopped. */
int Search::small_levels(const uint32_t *in, uint32_t count, int seed) {
  SmallArgs a;
  levels_args(a, in, count, c->small_cap);
  a.g = c->out;
  a.seed = seed;
  a.edge_budget = small_budget();
  a.block_budget = small_blocks > 1 ? SmallLevelPolicy::BLOCK_ITEMS : a.edge_budget;
  a.scratch = c->d_small;
  lap_begin();
  c->clean &= ~SCRATCH_STATS; /* the kernel writes every figure */
  CK(small_levels_launch(a, c->small_smem, small_blocks, c->st));
  DevStats h;
  int rc = stats_back(&h);
  if (rc) return rc;
  const uint32_t L = h.small_level;
  if (trace)
    fprintf(stderr, "bfs-gpu: small-level kernel (%d blocks) from level %u (%u vertices) to level %u (%u vertices), exit %u; %s\n",
            small_blocks, f.L, count, L, h.small_count, h.small_exit, lap());
  if (a.clk) trace_small_levels(a.clk, a.trace_from, L), t_mark = wm_now(); /* its reading is the trace's, not the search's */
  return levels_exit(h);
}

/* The search from the sources on the deep-level kernel, as far as it goes. */
int Search::deep_levels(const uint32_t *sources, uint32_t count) {
  DeepArgs a;
  levels_args(a, sources, count, c->deep_cap);
  a.ell = c->d_ell;
  a.n = c->g->n;
  a.shift = c->deep_shift;
  lap_begin();
  c->clean &= ~SCRATCH_STATS; /* the kernel writes every figure */
  CK(deep_levels_launch(a, c->deep_smem, c->st));
  DevStats h;
  int rc = stats_back(&h);
  if (rc) return rc;
  if (trace)
    fprintf(stderr, "bfs-gpu: deep-level kernel from level %u (%u vertices) to level %u (%u vertices), exit %u; %s\n",
            f.L, count, h.small_level, h.small_count, h.small_exit, lap());
  if (a.clk) trace_small_levels(a.clk, a.trace_from, h.small_level), t_mark = wm_now();
  if ((h.small_exit == SMALL_OVERFLOW || h.small_exit == SMALL_EDGES) && h.small_level - f.L < kDeepWorthLevels)
    c->deep_shallow = 1;
  return levels_exit(h);
}

/* The whole search from the sources on the cluster search. */
int Search::cluster_search(const uint32_t *sources, uint32_t count) {
  ClusterArgs a;
  memset(&a, 0, sizeof a);
  a.out = c->out;
  if (c->have_in) a.in = c->in;
  a.s = s;
  a.sources = sources;
  a.count = count;
  a.max_depth = o->max_depth;
  a.target = target;
  a.words_per_block = c->cluster_wb;
  a.m = c->g->m;
  a.edge_ratio = o->edge_ratio;
  a.dir_opt = dir_opt;
  a.symmetric = symmetric;
  a.stats = c->d_stats;
  a.stop = stop;
  a.clk = trace_marks(&a.trace_from);
  lap_begin();
  c->clean &= ~SCRATCH_STATS; /* the kernel writes the figures it is read for */
  CK(cluster_search_launch(a, c->cluster_blocks, c->cluster_smem, c->st));
  DevStats h;
  int rc = stats_back(&h);
  if (rc) return rc;
  bu_levels += h.levels_bottom_up;
  if (trace)
    fprintf(stderr, "bfs-gpu: cluster search (%d blocks) from %u sources to level %u (%u vertices, %u bottom-up), "
            "exit %u; %s\n", c->cluster_blocks, count, h.small_level, h.small_count, h.levels_bottom_up,
            h.small_exit, lap());
  if (a.clk) trace_small_levels(a.clk, a.trace_from, h.small_level), t_mark = wm_now();
  return levels_exit(h);
}

/* Where a levels kernel stopped (h.small_*), the host's view of the frontier. */
int Search::levels_exit(const DevStats &h) {
  const uint32_t L = h.small_level;
  int rc = WM_OK;
  fb_valid = 0; /* its levels claim in its own bitmap */
  switch (h.small_exit) {
  case SMALL_STOPPED:
    return wm_interrupted(err, "bfs");
  case SMALL_DONE:
  case SMALL_DEPTH:
  case SMALL_TARGET: /* the loop's checks stop the search */
    f.L = L;
    f.count = h.small_count;
    f.target_level = h.target_level;
    return WM_OK;
  case SMALL_EDGES: /* the frontier is in d_q[cur ^ 1] (and in the status array) */
    if (queue_gen)
      rc = gen(c->d_q[cur ^ 1], h.small_count, L, cur);
    else
      rc = gen(NULL, c->g->n, L, -1);
    if (rc) return rc;
    take_frontier(L);
    return WM_OK;
  case SMALL_OVERFLOW: /* the level is complete in the status array only */
    if ((rc = gen(NULL, c->g->n, L, queue_gen ? cur ^ 1 : -1))) return rc;
    if (queue_gen) cur ^= 1;
    take_frontier(L);
    return WM_OK;
  default:
    return wm_fail(err, WM_EDEVICE, "bfs: a levels kernel stopped without a reason (%u)", h.small_exit);
  }
}

int Search::topdown() {
  if (classify && unclassified) {
    int rc = classify_frontier(); /* a step of its own */
    if (rc) return rc;
  }
  lap_begin();
  const uint32_t L = f.L;
  if (!queue_gen) {
    CK(topdown_status_launch(c->out, s, L, c->sms, c->st));
    int rc = gen(NULL, c->g->n, L + 1, -1);
    if (rc) return rc;
    take_frontier(L + 1);
    return WM_OK;
  }
  /* the visits mark the new frontier in the other bitmap, which the
   * queue generation then reads instead of the status array */
  DevState ts = s;
  ts.marks = c->d_fb[fb_cur ^ 1];
  int rc = fresh(SCRATCH_FB << (fb_cur ^ 1));
  if (rc) return rc;
  /* the classes' kernels on the side streams where more than one runs */
  int classes = 0, only = Q_SMALL;
  for (int k = Q_SMALL; classify && k <= Q_EXTREME; k++)
    if (f.offs[k + 1] > f.offs[k]) classes++, only = k;
  if (!classify) {
    CK(expand_topdown_launch(Q_SMALL, c->out, ts, c->d_q[cur], f.count, L, c->sms, c->st));
  } else if (classes == 1) {
    CK(expand_topdown_launch(only, c->out, ts, c->d_q[cur] + f.offs[only], f.offs[only + 1] - f.offs[only], L, c->sms,
                             c->st));
  } else {
    CK(cudaEventRecord(c->ev_fork, c->st));
    for (int k = Q_SMALL; k <= Q_EXTREME; k++) {
      uint32_t n = f.offs[k + 1] - f.offs[k];
      if (!n) continue;
      CK(cudaStreamWaitEvent(c->side[k], c->ev_fork, 0));
      CK(expand_topdown_launch(k, c->out, ts, c->d_q[cur] + f.offs[k], n, L, c->sms, c->side[k]));
      CK(cudaEventRecord(c->ev_join[k], c->side[k]));
      CK(cudaStreamWaitEvent(c->st, c->ev_join[k], 0));
    }
  }
  dead |= SCRATCH_FB << fb_cur; /* level L's bitmap */
  rc = gen(NULL, (uint32_t)(c->fb_words - 1), L + 1, cur ^ 1, ts.marks);
  if (rc) return rc;
  cur ^= 1, fb_cur ^= 1, fb_valid = 1;
  take_frontier(L + 1);
  return WM_OK;
}

/* Switch to bottom-up: the frontier (d_q[cur][0, f.count), classified
 * or not) into its bitmap; the first step then goes over every vertex,
 * leaving out those without in-arcs (isolated vertices, of which a
 * Kronecker graph has many), which no bottom-up step can reach. */
int Search::to_bottom_up() {
  if (!queue_gen) return WM_OK; /* the baseline scans all vertices each step */
  lap_begin();
  if (!fb_valid) {
    int rc = fresh(SCRATCH_FB << fb_cur);
    if (rc) return rc;
    CK(bits_from_list_launch(c->d_q[cur], f.count, c->d_fb[fb_cur], c->sms, c->st));
    fb_valid = 1;
  }
  bu_range = 1;
  return WM_OK;
}

/* The frontier a bottom-up step listed, classified for a top-down level. */
int Search::classify_frontier() {
  int rc = gen(c->d_q[cur], f.count, f.L, cur ^ 1);
  if (rc) return rc;
  cur ^= 1;
  unclassified = 0;
  take_frontier(f.L);
  return WM_OK;
}

int Search::bottomup() {
  const uint32_t L = f.L;
  bu_levels++;
  lap_begin();
  if (!queue_gen) {
    CK(bottom_up_launch(c->in, s, L, hubs(hub_cur), c->sms, c->st));
    int rc = gen(NULL, c->g->n, L + 1, -1);
    if (rc) return rc;
    take_frontier(L + 1);
    return WM_OK;
  }
  const uint32_t n = c->g->n;
  BottomUpArgs a;
  memset(&a, 0, sizeof a);
  a.in = c->in, a.out = c->out, a.s = s;
  a.list = bu_range ? NULL : c->d_q[cur] + bu_begin;
  a.len = bu_range ? n : bu_len;
  a.has_in = c->d_has_in;
  a.F = c->d_fb[fb_cur], a.Fn = c->d_fb[fb_cur ^ 1];
  a.hub_table = hubs(hub_cur), a.hub_next = hubs(hub_cur ^ 1);
  a.hub_tau = c->tau;
  a.frontier = c->d_q[cur ^ 1], a.left_end = c->d_q[cur ^ 1] + n;
  a.level = L, a.target = target;
  a.stats = c->d_stats;
  int rc = fresh(SCRATCH_STATS | SCRATCH_FB << (fb_cur ^ 1) | (a.hub_next ? SCRATCH_HUB << (hub_cur ^ 1) : 0u));
  if (rc) return rc;
  CK(bottom_up_step_launch(a, c->sms, c->st));
  /* level L's bitmap and hub table */
  dead |= SCRATCH_FB << fb_cur | (a.hub_table ? SCRATCH_HUB << hub_cur : 0u);
  rc = sync_stats();
  if (rc) return rc;
  const DevStats &h = *c->h_stats;
  cur ^= 1, fb_cur ^= 1, hub_cur ^= 1, bu_range = 0, unclassified = 1, fb_valid = 1;
  f.L = L + 1;
  f.count = h.found;
  f.edges = h.frontier_edges;
  f.hubs = h.hubs;
  /* a target reached bottom-up is on a level >= 1; 0 is the cleared word */
  f.target_level = h.target_level ? h.target_level : kUnreached;
  bu_begin = n - h.left;
  bu_len = h.left;
  if (trace)
    fprintf(stderr, "bfs-gpu: level %u: %u vertices (bottom-up), %llu edges, %u hubs; %u unvisited queued; %s\n",
            f.L, f.count, (unsigned long long)f.edges, f.hubs, bu_len, lap());
  return WM_OK;
}

/* The sources are in d_q[cur] (nsrc of them, not yet on level 0). */
int Search::loop(uint32_t nsrc) {
  int rc;
  f.L = 0;
  if (cluster) {
    if ((rc = cluster_search(c->d_q[cur], nsrc))) return rc;
  } else if (deep && nsrc <= c->deep_cap) {
    if ((rc = deep_levels(c->d_q[cur], nsrc))) return rc;
  } else if (small && nsrc <= c->small_cap) {
    if ((rc = small_levels(c->d_q[cur], nsrc, 1))) return rc;
  } else {
    lap_begin();
    CK(seed_sources_launch(s, c->d_q[cur], nsrc, c->st));
    if ((rc = gen(c->d_q[cur], nsrc, 0, queue_gen ? cur ^ 1 : -1))) return rc;
    if (queue_gen) cur ^= 1;
    take_frontier(0);
  }
  uint32_t prev_count = 0;
  uint64_t explored = 0; /* out-edges of the frontiers seen (small-kernel levels aside) */
  const uint64_t n = c->g->n;
  for (;;) {
    /* each level ends synchronised on the host: the flag between them */
    if (wm_monitor_stopped(mon)) return wm_interrupted(err, "bfs");
    if (f.count == 0) return WM_OK;
    if ((target != kNoVertex && f.target_level != kUnreached) || f.L >= o->max_depth) {
      truncated = 1;
      return WM_OK;
    }
    /* a symmetric graph's frontier past level 0 whose every vertex has one
     * arc (to its parent) has no next level: the step that would find it
     * empty is skipped (a power-law graph's last level is such leaves) */
    if (symmetric && f.L > 0 && f.edges == f.count) return WM_OK;
    /* to bottom-up while the frontier grows and holds a share > alpha of the
     * hubs or too many edges (wm_bfs_go_bottom_up); back once it shrinks
     * below n / beta and has fewer edges than there are unvisited vertices
     * queued, each of which a bottom-up step reads at least one arc of (the
     * baseline's steps scan every vertex: n / beta alone); no ping-pong: a
     * shrinking frontier never turns bottom-up */
    explored += f.edges;
    if (!bottom_up && dir_opt && f.count >= prev_count &&
        wm_bfs_go_bottom_up(o, f.hubs, c->nhubs, f.edges, c->g->m > explored ? c->g->m - explored : 0)) {
      bottom_up = 1;
      if (trace) fprintf(stderr, "bfs-gpu: level %u: switch to bottom-up\n", f.L);
      if ((rc = to_bottom_up())) return rc;
    } else if (bottom_up && f.count < prev_count && f.count < n / kBackToTopDownBeta &&
               (!queue_gen || f.edges < bu_len)) {
      bottom_up = 0; /* the frontier is listed in d_q[cur], classified by the next top-down level */
      if (trace) fprintf(stderr, "bfs-gpu: level %u: back to top-down (%llu edges, %u unvisited)\n", f.L,
                         (unsigned long long)f.edges, bu_len);
    }
    prev_count = f.count;
    if (!bottom_up && small && queue_gen && f.count <= c->small_cap && f.edges <= small_budget()) {
      rc = small_levels(c->d_q[cur], f.count);
    } else {
      rc = bottom_up ? bottomup() : topdown();
    }
    if (rc) return rc;
  }
}

int copy_back(wm_bfs_gpu_ctx *c, const Search &S, wm_bfs_result *r, wm_error *err) {
  size_t n = c->g->n ? c->g->n : 1;
  r->level = (uint32_t *)malloc(n * 4);
  if (S.s.parent) r->parent = (uint32_t *)malloc(n * 4);
  if (!r->level || (S.s.parent && !r->parent)) return wm_fail(err, WM_EINPUT, "bfs: out of host memory");
  CK(cudaMemcpyAsync(r->level, c->d_status, 4 * (size_t)c->g->n, cudaMemcpyDeviceToHost, c->st));
  if (r->parent) CK(cudaMemcpyAsync(r->parent, c->d_parent, 4 * (size_t)c->g->n, cudaMemcpyDeviceToHost, c->st));
  CK(cudaStreamSynchronize(c->st));
  return WM_OK;
}

int run_search(wm_bfs_gpu_ctx *c, const uint32_t *src, uint32_t nsrc, const wm_bfs_options *o,
               wm_bfs_result *r, wm_error *err) {
  Search S;
  memset(&S, 0, sizeof S);
  S.c = c;
  S.o = o;
  S.err = err;
  S.s = DevState{c->d_status, o->want_parents ? c->d_parent : NULL};
  S.queue_gen = o->queue_gen;
  S.classify = o->queue_gen && o->classify;
  S.hub_cache = o->hub_cache;
  /* the kernel's counters hold a level's out-degree sum in COUNT_SHIFT bits */
  S.small = o->small_kernel && c->g->m < (1ull << SmallLevelPolicy::COUNT_SHIFT);
  /* every SM only for a graph whose arcs all fit one grid level's budget:
   * its whole search is then worth a few host round trips, while on larger
   * graphs the pipeline's direction-optimising levels pay for themselves */
  S.deep = S.small && c->d_ell && !c->deep_shallow;
  S.small_blocks = o->small_grid && c->g->m <= small_budget_of(c->small_blocks) ? c->small_blocks : 1;
  S.dir_opt = o->direction_opt && c->have_in;
  /* the deep-level kernel keeps a graph of small degrees whose searches
   * stay in it: its levels (one block, no cluster barrier nor copies) are
   * the cheaper where there are many small ones */
  S.cluster = o->cluster_kernel && c->cluster_blocks > 0 && !S.deep;
  S.symmetric = !(c->g->flags & WM_GRAPH_DIRECTED);
  S.target = o->target;
  S.trace = wm_trace_on("WM_BFS_TRACE");
  S.mon = wm_monitor_current();
  if (wm_gpu_stop_word(S.mon, &S.stop, err)) return err->code; /* once a search: a driver call */
  const size_t n = c->g->n;
  double t0 = wm_now();
  S.t_mark = t0;
  CK(cudaEventRecord(c->ev_start, c->st));
  S.lap_begin(); /* the first step's lap has the reset in it */
  /* status and parent: one block (ctx_buffers), which the cluster search
   * writes whole; a few sources go through pinned memory, so that the copy
   * is queued without a wait */
  if (!S.cluster) CK(cudaMemsetAsync(c->d_status, 0xFF, (S.s.parent ? 8 : 4) * (n ? n : 1), c->st));
  const uint32_t *from = src;
  if (nsrc <= kPinnedSources) from = (const uint32_t *)memcpy(c->h_src, src, 4 * (size_t)nsrc);
  CK(cudaMemcpyAsync(c->d_q[0], from, 4 * (size_t)nsrc, cudaMemcpyHostToDevice, c->st));
  int rc = S.loop(nsrc);
  if (rc) return rc;
  CK(cudaEventRecord(c->ev_stop, c->st));
  CK(cudaEventSynchronize(c->ev_stop));
  r->seconds = wm_now() - t0;
  float ms = 0;
  CK(cudaEventElapsedTime(&ms, c->ev_start, c->ev_stop));
  r->kernel_ms = ms;
  if (S.trace)
    fprintf(stderr, "bfs-gpu: search: %.3f ms, %u steps: on the device %.3f ms of their %.3f on the host\n",
            r->seconds * 1e3, S.laps, S.lap_gpu_total, S.lap_host_total);
  r->truncated = S.truncated;
  r->bottom_up_levels = S.bu_levels;
  if ((rc = copy_back(c, S, r, err))) return rc;
  return wm_bfs_result_stats(c->g, r, err);
}

}  // namespace

extern "C" int wm_bfs_gpu_run(wm_bfs_gpu_ctx *c, const uint32_t *sources, uint32_t nsources,
                              const wm_bfs_options *o, wm_bfs_result *r, wm_error *err) {
  memset(r, 0, sizeof *r);
  if (nsources == 0) return wm_fail(err, WM_EUSAGE, "bfs: no source vertex given");
  if (o->target != WM_NO_VERTEX && o->target >= c->g->n)
    return wm_fail(err, WM_EUSAGE, "bfs: target %u is not a vertex (the graph has %u)", o->target, c->g->n);
  if (o->procs && o->procs->processes > 1 && !c->part)
    return wm_fail(err, WM_EUSAGE, "bfs: this GPU context was made for one process, not %d", o->procs->processes);
  if (c->part) {
    int rc = part_run(c->part, sources, nsources, o, r, err);
    if (rc) wm_bfs_result_free(r);
    return rc;
  }
  uint32_t *src = NULL, nsrc = 0;
  int rc = dedupe_sources(c->g, sources, nsources, &src, &nsrc, err);
  if (rc) return rc;
  rc = run_search(c, src, nsrc, o, r, err);
  free(src);
  if (rc) wm_bfs_result_free(r);
  return rc;
}

extern "C" int wm_bfs_gpu(const wm_graph *g, const uint32_t *sources, uint32_t nsources,
                          const wm_bfs_options *o, wm_bfs_result *r, wm_error *err) {
  memset(r, 0, sizeof *r);
  wm_bfs_gpu_ctx *c = NULL;
  int rc = wm_bfs_gpu_create(g, o, &c, err);
  if (rc) return rc;
  rc = wm_bfs_gpu_run(c, sources, nsources, o, r, err);
  wm_bfs_gpu_destroy(c);
  return rc;
}
