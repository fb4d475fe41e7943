/* Host driver of the GPU matcher: copies the graph and the compiled plan to
 * each device, sizes the per-warp set buffers from the graph's maximum
 * degree and the device's free memory, launches the stack kernel, times it
 * with CUDA events, and in listing mode drains the device's match buffer to
 * the sink in batches, relaunching the suspended warps until the work is
 * done.  Over --gpus devices, level 0 is handed out in chunks from one
 * counter in device 0's memory that every device's warps grab from (peer
 * access, system-scope atomics), so that a device that meets the hubs
 * takes fewer chunks; where some device has no peer atomics to device 0,
 * each device takes every ndev-th chunk from a counter of its own. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "gpu_kernel.h"
#include "gpu_plan.h"
#include "gpu_policy.h"
#include "gpu_check.h"
#include "matcher.h"

#define WM_DEFAULT_LIST_BATCH (1u << 20)

/* Counters of one device, in one allocation. */
/* C_COUNT and C_COUNT_HIGH: the count's low and high words (gpu_count.cuh) */
enum { C_L0, C_COUNT, C_COUNT_HIGH, C_SETOPS, C_USED, C_ISSUED, C_OUTN, C_SUSP, C_PROF, C_N = C_PROF + WM_PROF_N };

typedef struct wm_gpu_dev {
  int id;
  cudaStream_t stream;
  cudaEvent_t ev0, ev1;
  wm_u64 *off;
  uint32_t *adj;
  int borrowed;   /* off and adj are o->gpu_graph's, not this run's to free */
  int32_t *labels;
  uint8_t *allowed;
  uint32_t *first;
  uint32_t *sets;
  wm_u64 *ctr;
  wm_u64 *per_vertex;
  int *ints; /* active, idle_blocks, block_idle[blocks], mail_state[blocks] */
  wm_gpu_mail *mail;
  uint32_t *out;
  unsigned char *save;
  wm_gpu_args args;
  unsigned blocks;
  unsigned table_words; /* each warp's probe table (0: none) */
  int sms;
  char name[256];
  wm_gpu_sizing sz;
  double kernel_ms;
  int running; /* a launch is in flight or suspended warps remain */
  cudaStream_t side; /* progress: reads the level-0 counter beside the kernel */
  wm_u64 *peek;      /* progress: pinned host copy of the counter */
} wm_gpu_dev;

typedef struct wm_gpu_run {
  const wm_graph *g;
  const wm_match_options *o;
  wm_gpu_plan plan;
  wm_gpu_policy pol;
  int listing;
  uint64_t max_degree;
  uint64_t n0;       /* level-0 iterations: vertices, seeds or arcs */
  uint64_t n_taken;  /* those of them this run takes (a stripe's: wm_match_options.gpu_l0_every) */
  int l0_edges;      /* level 0 is handed out as arcs */
  uint64_t list_batch;
  int ndev;
  wm_gpu_dev dev[WM_MAX_GPUS];
  uint32_t *host_out;
  double transfer_ms;
  wm_gpu_hold *hold; /* counting launches wait behind it until queued (gpu_hold.cu) */
  uint32_t chunk;    /* level-0 iterations per grab of the counter */
  wm_progress progress; /* in level-0 iterations handed out */
  int l0_shared;     /* one level-0 counter (device 0's) for every device */
  char static_why[96]; /* why not, when several devices split level 0 statically */
  uint64_t start;      /* the test hook's start (exact_count.h): device 0's count begins there */
  wm_monitor *mon;     /* the call's (warpmatch_interrupt), or NULL */
} wm_gpu_run;

static int dev_alloc(void **p, size_t bytes, const char *what, int dev, wm_error *err) {
  *p = NULL;
  if (bytes == 0) return WM_OK;
  cudaError_t e = cudaMalloc(p, bytes);
  if (e == cudaSuccess) return WM_OK;
  *p = NULL;
  cudaGetLastError();
  if (e == cudaErrorMemoryAllocation)
    return wm_fail(err, WM_EDEVICE, "device %d out of memory: %s needs %zu bytes", dev, what, bytes);
  return wm_fail(err, WM_EDEVICE, "device %d: cudaMalloc for %s (%zu bytes) failed: %s", dev, what,
                 bytes, cudaGetErrorString(e));
}

/* The per-warp set buffers are the one large allocation, sized for every
 * resident warp; allocating and freeing hundreds of MB per call would
 * dominate short runs (the motif enumeration runs dozens of plans, the
 * tests thousands), so each device keeps the last one and reuses it when it
 * is large enough. */
static struct {
  void *p;
  size_t bytes;
} set_cache[WM_MAX_GPUS];

static int sets_alloc(wm_gpu_dev *d, size_t bytes, wm_error *err) {
  if (set_cache[d->id].p && set_cache[d->id].bytes >= bytes) {
    d->sets = (uint32_t *)set_cache[d->id].p;
    return WM_OK;
  }
  if (set_cache[d->id].p) {
    WM_CU(cudaFree(set_cache[d->id].p));
    set_cache[d->id].p = NULL;
    set_cache[d->id].bytes = 0;
  }
  int rc = dev_alloc((void **)&d->sets, bytes, "set buffers", d->id, err);
  if (rc == WM_OK && d->sets) {
    set_cache[d->id].p = d->sets;
    set_cache[d->id].bytes = bytes;
  }
  return rc;
}

static void dev_release(wm_gpu_dev *d) {
  if (cudaSetDevice(d->id) != cudaSuccess) return;
  void *ptrs[] = {d->borrowed ? NULL : d->off, d->borrowed ? NULL : d->adj, d->labels, d->allowed, d->first, d->ctr,
                  d->per_vertex, d->ints, d->mail, d->out, d->save};
  for (size_t i = 0; i < sizeof ptrs / sizeof ptrs[0]; i++)
    if (ptrs[i]) cudaFree(ptrs[i]);
  if (d->ev0) cudaEventDestroy(d->ev0);
  if (d->ev1) cudaEventDestroy(d->ev1);
  if (d->stream) cudaStreamDestroy(d->stream);
  if (d->side) cudaStreamDestroy(d->side);
  if (d->peek) cudaFreeHost(d->peek);
  cudaGetLastError();
  memset(d, 0, sizeof *d);
}

/* The CPU executor's input checks, with the same codes. */

static int copy_in(wm_gpu_run *R, wm_gpu_dev *d, void **dst, const void *src, size_t bytes,
                   const char *what, wm_error *err) {
  int rc = dev_alloc(dst, bytes, what, d->id, err);
  if (rc || !bytes) return rc;
  WM_CU(cudaMemcpyAsync(*dst, src, bytes, cudaMemcpyHostToDevice, d->stream));
  (void)R;
  return WM_OK;
}

/* Graph, labels, seeds and result arrays on device d. */
static int setup_inputs(wm_gpu_run *R, wm_gpu_dev *d, wm_error *err) {
  const wm_graph *g = R->g;
  const wm_match_options *o = R->o;
  int rc;
  if (wm_gpu_graph_on(o->gpu_graph, g, d->id, (void **)&d->off, (void **)&d->adj))
    d->borrowed = 1;
  else if ((rc = copy_in(R, d, (void **)&d->off, g->offsets, ((size_t)g->n + 1) * 8, "vertex offsets", err)) ||
           (rc = copy_in(R, d, (void **)&d->adj, g->adj, (size_t)g->m * 4, "adjacency", err)))
    return rc;
  if (R->plan.labeled &&
      (rc = copy_in(R, d, (void **)&d->labels, o->vertex_labels, (size_t)g->n * 4, "labels", err)))
    return rc;
  if (o->allowed && (rc = copy_in(R, d, (void **)&d->allowed, o->allowed, g->n, "allowed set", err)))
    return rc;
  if (o->first &&
      (rc = copy_in(R, d, (void **)&d->first, o->first, (size_t)o->n_first * 4, "seed vertices", err)))
    return rc;
  if ((rc = dev_alloc((void **)&d->ctr, C_N * 8, "counters", d->id, err))) return rc;
  WM_CU(cudaMemsetAsync(d->ctr, 0, C_N * 8, d->stream));
  if (d == &R->dev[0] && R->start)
    WM_CU(cudaMemcpyAsync(d->ctr + C_COUNT, &R->start, 8, cudaMemcpyHostToDevice, d->stream));
  if (o->per_vertex) {
    if ((rc = dev_alloc((void **)&d->per_vertex, (size_t)g->n * 8, "per-vertex counts", d->id, err)))
      return rc;
    WM_CU(cudaMemsetAsync(d->per_vertex, 0, (size_t)g->n * 8, d->stream));
  }
  if (R->listing) {
    size_t bytes = (size_t)R->list_batch * R->plan.k * 4;
    if ((rc = dev_alloc((void **)&d->out, bytes, "listing buffer", d->id, err))) return rc;
  }
  return WM_OK;
}

/* Words of each warp's probe table on device d: none when the plan's fused
 * op has no side to probe (wm_gpu_plan_table_side) or the policy says so;
 * the policy's when forced; else the largest power of two up to
 * WM_GPU_TABLE_WORDS that costs no block of occupancy (the shared memory
 * the registers leave unused), none below WM_GPU_TABLE_MIN_WORDS.  smem and
 * per_sm come in for the kernel without a table and go out for the one
 * chosen. */
static int fit_table(const wm_gpu_run *R, wm_gpu_dev *d, size_t *smem, int *per_sm, wm_error *err) {
  const wm_gpu_policy *pol = &R->pol;
  const unsigned W = (unsigned)pol->warps_per_block, U = (unsigned)pol->unroll, G = (unsigned)pol->last_group;
  d->table_words = 0;
  if (*per_sm < 1 || pol->table_words < 0 || wm_gpu_plan_table_side(&R->plan) < 0) return WM_OK;
  if (pol->table_words > 0) {
    d->table_words = (unsigned)pol->table_words;
    *smem = wm_gpu_stack_smem(R->plan.n_ops, U, G, W, d->table_words);
    WM_CU(wm_gpu_stack_occupancy(W, true, *smem, per_sm));
    return WM_OK;
  }
  int optin = 0;
  WM_CU(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, d->id));
  for (unsigned T = WM_GPU_TABLE_WORDS; T >= WM_GPU_TABLE_MIN_WORDS; T /= 2) {
    size_t with = wm_gpu_stack_smem(R->plan.n_ops, U, G, W, T); /* its header included */
    int fit = 0;
    if (with > (size_t)optin) continue;
    WM_CU(wm_gpu_stack_occupancy(W, true, with, &fit));
    if (fit >= *per_sm) {
      d->table_words = T;
      *smem = with;
      *per_sm = fit;
      return WM_OK;
    }
  }
  return WM_OK;
}

/* Grid and set-buffer capacity from occupancy and free memory, then the
 * buffers whose size depends on the grid. */
static int setup_grid(wm_gpu_run *R, wm_gpu_dev *d, wm_error *err) {
  const wm_gpu_policy *pol = &R->pol;
  unsigned W = (unsigned)pol->warps_per_block, U = (unsigned)pol->unroll, G = (unsigned)pol->last_group;
  size_t smem = wm_gpu_stack_smem(R->plan.n_ops, U, G, W, 0);
  int per_sm = 0;
  WM_CU(wm_gpu_stack_occupancy(W, false, smem, &per_sm));
  int rc = fit_table(R, d, &smem, &per_sm, err);
  if (rc) return rc;
  if (per_sm < 1)
    return wm_fail(err, WM_EDEVICE, "device %d cannot hold one block of %u warps (%zu bytes of shared memory)",
                   d->id, W, smem);
  wm_warp_layout Ly = wm_warp_layout_of(R->plan.n_ops, U, G);
  size_t free_b = 0, total_b = 0;
  WM_CU(cudaMemGetInfo(&free_b, &total_b));
  free_b += set_cache[d->id].bytes; /* ours to reuse or give back */
  wm_gpu_sizing_in in;
  memset(&in, 0, sizeof in);
  in.free_bytes = free_b;
  in.max_degree = R->max_degree;
  in.n_bufs = R->plan.n_bufs;
  in.unroll = U;
  in.warps_per_block = W;
  unsigned resident = (unsigned)per_sm * (unsigned)d->sms;
  in.max_blocks = pol->blocks > 0 && (unsigned)pol->blocks < resident ? (unsigned)pol->blocks : resident;
  in.forced_cap = pol->set_capacity;
  in.per_warp_fixed = R->listing ? Ly.bytes : 0;
  if ((rc = wm_gpu_size_buffers(&in, &d->sz, err))) return rc;
  d->blocks = d->sz.blocks;
  uint64_t warps = (uint64_t)d->blocks * W;
  if ((rc = sets_alloc(d, (size_t)(warps * d->sz.per_warp_elems * 4), err))) return rc;
  size_t nints = 2 + 2 * (size_t)d->blocks;
  if ((rc = dev_alloc((void **)&d->ints, nints * sizeof(int), "stealing flags", d->id, err)) ||
      (rc = dev_alloc((void **)&d->mail, d->blocks * sizeof(wm_gpu_mail), "mailboxes", d->id, err)))
    return rc;
  WM_CU(cudaMemsetAsync(d->ints, 0, nints * sizeof(int), d->stream));
  if (R->listing) {
    if ((rc = dev_alloc((void **)&d->save, (size_t)warps * Ly.bytes, "listing save area", d->id, err)))
      return rc;
    WM_CU(cudaMemsetAsync(d->save, 0, (size_t)warps * Ly.bytes, d->stream));
  }
  return WM_OK;
}

static void fill_args(wm_gpu_run *R, wm_gpu_dev *d, int dev_index, uint32_t chunk) {
  wm_gpu_args *a = &d->args;
  memset(a, 0, sizeof *a);
  a->off = d->off;
  a->adj = d->adj;
  a->n = R->g->n;
  a->labels = d->labels;
  a->allowed = d->allowed;
  a->first = d->first;
  a->l0_edges = R->l0_edges;
  a->n0 = R->n0;
  a->l0_next = (R->l0_shared ? R->dev[0].ctr : d->ctr) + C_L0;
  a->l0_shared = R->l0_shared;
  a->chunk = chunk;
  a->l0_every = R->o->gpu_l0_every > 1 ? R->o->gpu_l0_every : 0;
  a->l0_rest = a->l0_every && R->o->gpu_l0_rest;
  a->dev = (uint32_t)dev_index;
  a->ndev = (uint32_t)R->ndev;
  a->sets = d->sets;
  a->cap = d->sz.cap;
  a->warp_elems = d->sz.per_warp_elems;
  a->count = d->ctr + C_COUNT;
  a->set_ops = d->ctr + C_SETOPS;
  a->lanes_used = d->ctr + C_USED;
  a->lanes_issued = d->ctr + C_ISSUED;
  a->prof = d->ctr + C_PROF;
  a->per_vertex = d->per_vertex;
  a->active = d->ints;
  a->idle_blocks = d->ints + 1;
  a->block_idle = d->ints + 2;
  a->mail_state = d->ints + 2 + d->blocks;
  a->mail = d->mail;
  a->out = d->out;
  a->out_n = d->ctr + C_OUTN;
  a->out_cap = R->list_batch;
  a->listing = R->listing;
  a->save = d->save;
  a->resume = 0;
  a->suspended = d->ctr + C_SUSP;
  a->unroll = R->pol.unroll;
  a->steal = R->pol.steal;
  a->stop_level = R->pol.stop_level;
  a->detect_level = R->pol.detect_level;
  a->warps = R->pol.warps_per_block;
  a->group = R->pol.last_group;
  a->table_words = d->table_words;
  a->warp_state_bytes =
      wm_warp_layout_of(R->plan.n_ops, (unsigned)R->pol.unroll, (unsigned)R->pol.last_group).bytes;
}

/* Device name and SM count, looked up once per process (the full property
 * query costs milliseconds, and the motif enumeration runs dozens of
 * plans). */
static int device_identity(int i, char *name, size_t size, int *sms, wm_error *err) {
  static char names[WM_MAX_GPUS][256];
  static int counts[WM_MAX_GPUS];
  if (!counts[i]) {
    cudaDeviceProp prop;
    WM_CU(cudaGetDeviceProperties(&prop, i));
    snprintf(names[i], sizeof names[i], "%.200s", prop.name);
    counts[i] = prop.multiProcessorCount;
  }
  snprintf(name, size, "%.200s", names[i]);
  *sms = counts[i];
  return WM_OK;
}

static int open_device(wm_gpu_run *R, int i, wm_error *err) {
  wm_gpu_dev *d = &R->dev[i];
  d->id = R->ndev == 1 ? R->o->gpu_first : i; /* matcher.h: gpu_first */
  WM_CU(cudaSetDevice(d->id));
  int rc = device_identity(d->id, d->name, sizeof d->name, &d->sms, err);
  if (rc) return rc;
  WM_CU(cudaStreamCreateWithFlags(&d->stream, cudaStreamNonBlocking));
  WM_CU(cudaEventCreate(&d->ev0));
  WM_CU(cudaEventCreate(&d->ev1));
  return WM_OK;
}

/* Queues device d's launch between its events, behind the hold when one
 * is armed. */
static int launch(wm_gpu_run *R, wm_gpu_dev *d, int resume, wm_gpu_hold *hold, wm_error *err) {
  WM_CUD(d->id, cudaSetDevice(d->id));
  d->args.resume = resume;
  if (resume) {
    WM_CUD(d->id, cudaMemsetAsync(d->ctr + C_OUTN, 0, 16, d->stream)); /* out_n and suspended */
  }
  int rc = hold ? wm_gpu_hold_stream(hold, d->stream, err) : WM_OK;
  if (rc) return rc;
  if (wm_gpu_fault_here(d->id)) WM_CUD(d->id, wm_gpu_fault_launch(d->stream));
  WM_CUD(d->id, cudaEventRecord(d->ev0, d->stream));
  WM_CUD(d->id, wm_gpu_launch_stack(&R->plan, &d->args, d->blocks, d->stream));
  WM_CUD(d->id, cudaEventRecord(d->ev1, d->stream));
  d->running = 1;
  return WM_OK;
}

/* Level-0 iterations handed out so far, read by a copy on a stream of the
 * counter's device while the kernels run: device 0's shared counter, or
 * the sum of every device's own. */
static int handed_out(wm_gpu_run *R, uint64_t *handed, wm_error *err) {
  uint64_t chunks = 0;
  for (int i = 0; i < (R->l0_shared ? 1 : R->ndev); i++) {
    wm_gpu_dev *x = &R->dev[i];
    WM_CUD(x->id, cudaSetDevice(x->id));
    WM_CUD(x->id, cudaMemcpyAsync(x->peek, x->ctr + C_L0, sizeof *x->peek, cudaMemcpyDeviceToHost, x->side));
    WM_CUD(x->id, cudaStreamSynchronize(x->side));
    chunks += *x->peek;
  }
  *handed = chunks * R->chunk < R->n_taken ? chunks * R->chunk : R->n_taken;
  return WM_OK;
}

/* Each device's side stream and pinned word for handed_out, made before
 * any launch (pinned allocation may wait for the device). */
static int progress_setup(wm_gpu_run *R, wm_error *err) {
  for (int i = 0; R->progress.enabled && i < R->ndev; i++) {
    wm_gpu_dev *x = &R->dev[i];
    WM_CU(cudaSetDevice(x->id));
    WM_CU(cudaStreamCreateWithFlags(&x->side, cudaStreamNonBlocking));
    WM_CU(cudaMallocHost((void **)&x->peek, sizeof *x->peek));
  }
  return WM_OK;
}

/* The progress line's amount while device d's launch runs (wm_gpu_amount_fn):
 * handed_out, back on d's device for the next query of its stream. */
typedef struct watched {
  wm_gpu_run *R;
  wm_gpu_dev *d;
} watched;

static int amount_handed_out(void *ctx, uint64_t *done, wm_error *err) {
  const watched *w = (const watched *)ctx;
  int rc = handed_out(w->R, done, err);
  if (rc) return rc;
  WM_CU(cudaSetDevice(w->d->id));
  return WM_OK;
}

/* Waits for device d's launch (the progress line follows the level-0
 * counters meanwhile); adds its kernel time. */
static int finish(wm_gpu_run *R, wm_gpu_dev *d, wm_error *err) {
  WM_CUD(d->id, cudaSetDevice(d->id));
  watched w = {R, d};
  int rc = wm_gpu_watch(d->stream, &R->progress, amount_handed_out, &w, err);
  if (rc) return rc;
  WM_CUD(d->id, cudaStreamSynchronize(d->stream));
  float ms = 0;
  WM_CUD(d->id, cudaEventElapsedTime(&ms, d->ev0, d->ev1));
  d->kernel_ms += ms;
  return WM_OK;
}

/* Waits for every device's launch at once: the first device that fails
 * ends the wait (naming it), rather than a wait on a device before it. */
static int finish_all(wm_gpu_run *R, wm_error *err) {
  if (R->ndev == 1) return finish(R, &R->dev[0], err);
  int ids[WM_MAX_GPUS];
  cudaStream_t s[WM_MAX_GPUS];
  for (int i = 0; i < R->ndev; i++) ids[i] = R->dev[i].id, s[i] = R->dev[i].stream;
  watched w = {R, &R->dev[0]};
  int rc = wm_gpu_watch_all(R->ndev, ids, s, &R->progress, amount_handed_out, &w, err);
  for (int i = 0; !rc && i < R->ndev; i++) rc = finish(R, &R->dev[i], err);
  return rc;
}

/* WM_EINTERRUPTED once the call was asked to stop: checked before each
 * launch and after the wait, since a stopped kernel's count is partial. */
static int check_stop(const wm_gpu_run *R, wm_error *err) {
  return wm_monitor_stopped(R->mon) ? wm_interrupted(err, "matching") : WM_OK;
}

/* Hands device d's buffered matches to the sink; *halt when it or the
 * limit says stop. */
static int drain(wm_gpu_run *R, wm_gpu_dev *d, uint64_t *listed, int *halt, wm_error *err) {
  wm_u64 n = 0, susp = 0;
  WM_CUD(d->id, cudaMemcpy(&n, d->ctr + C_OUTN, 8, cudaMemcpyDeviceToHost));
  WM_CUD(d->id, cudaMemcpy(&susp, d->ctr + C_SUSP, 8, cudaMemcpyDeviceToHost));
  if (n > R->list_batch)
    return wm_fail(err, WM_EDEVICE, "device %d: listing buffer overran (%llu > %llu rows)", d->id, n,
                   (unsigned long long)R->list_batch);
  unsigned k = R->plan.k;
  if (n) {
    double t0 = wm_now();
    WM_CUD(d->id, cudaMemcpy(R->host_out, d->out, (size_t)n * k * 4, cudaMemcpyDeviceToHost));
    R->transfer_ms += (wm_now() - t0) * 1e3;
  }
  const wm_match_options *o = R->o;
  for (wm_u64 i = 0; i < n && !*halt; i++) {
    (*listed)++;
    if (o->sink(o->sink_ctx, R->host_out + i * k, k) != 0 || (o->limit && *listed >= o->limit))
      *halt = 1;
  }
  d->running = susp != 0;
  return WM_OK;
}

static int run_listing(wm_gpu_run *R, uint64_t *listed, wm_error *err) {
  int halt = 0, rc;
  *listed = 0;
  R->host_out = (uint32_t *)malloc((size_t)R->list_batch * R->plan.k * 4);
  if (!R->host_out) return wm_fail(err, WM_EINPUT, "out of host memory for the listing batch");
  if ((rc = check_stop(R, err))) return rc;
  for (int i = 0; i < R->ndev; i++)
    if ((rc = launch(R, &R->dev[i], 0, NULL, err))) return rc;
  for (int more = 1; more && !halt;) {
    more = 0;
    for (int i = 0; i < R->ndev && !halt; i++) {
      wm_gpu_dev *d = &R->dev[i];
      if (!d->running) continue;
      if ((rc = finish(R, d, err)) || (rc = check_stop(R, err)) || (rc = drain(R, d, listed, &halt, err)))
        return rc;
      if (d->running && !halt) {
        if ((rc = launch(R, d, 1, NULL, err))) return rc;
        more = 1;
      }
    }
  }
  /* A halted run may leave launches in flight: wait for them. */
  for (int i = 0; i < R->ndev; i++) {
    WM_CU(cudaSetDevice(R->dev[i].id));
    WM_CU(cudaStreamSynchronize(R->dev[i].stream));
  }
  return WM_OK;
}

static int collect(wm_gpu_run *R, wm_match_result *r, wm_error *err) {
  uint64_t used = 0, issued = 0;
  uint64_t *pv = NULL;
  if (R->o->per_vertex) {
    pv = (uint64_t *)malloc((size_t)R->g->n * 8);
    if (!pv) return wm_fail(err, WM_EINPUT, "out of host memory for per-vertex counts");
  }
  for (int i = 0; i < R->ndev; i++) {
    wm_gpu_dev *d = &R->dev[i];
    wm_u64 c[C_N];
    cudaError_t e = cudaSetDevice(d->id);
    if (e == cudaSuccess) e = cudaMemcpy(c, d->ctr, sizeof c, cudaMemcpyDeviceToHost);
    if (e == cudaSuccess && pv) e = cudaMemcpy(pv, d->per_vertex, (size_t)R->g->n * 8, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
      free(pv);
      return wm_cuda_fail_dev(err, d->id, e, "copying results back", __FILE__, __LINE__);
    }
    if (!R->listing) r->count += (wm_u128)c[C_COUNT_HIGH] << 64 | c[C_COUNT];
    r->set_ops += c[C_SETOPS];
    used += c[C_USED];
    issued += c[C_ISSUED];
    for (uint32_t v = 0; pv && v < R->g->n; v++)
      if (__builtin_add_overflow(R->o->per_vertex[v], pv[v], &R->o->per_vertex[v])) {
        free(pv);
        return wm_per_vertex_overflow(R->g, v, err);
      }
    if (d->kernel_ms > r->kernel_ms) r->kernel_ms = d->kernel_ms;
#ifdef WM_GPU_PROFILE
    static const char *const phase[WM_PROF_N] = {"acquire", "pick", "ops", "bulk", "descend", "total"};
    fprintf(stderr, "profile (share of warp cycles):");
    for (int ph = 0; ph < WM_PROF_N; ph++)
      fprintf(stderr, " %s %.3f", phase[ph], c[C_PROF + ph] / (double)(c[C_PROF + WM_PROF_TOTAL] ? c[C_PROF + WM_PROF_TOTAL] : 1));
    fprintf(stderr, " (%.3g warp cycles)\n", (double)c[C_PROF + WM_PROF_TOTAL]);
#endif
  }
  free(pv);
  r->lane_util = issued ? (double)used / (double)issued : 0.0;
  return WM_OK;
}

/* Zeroes device d's stealing state (active, idle hints, per-block idle
 * flags and mailbox states), which every launch starts from. */
static int reset_stealing(wm_gpu_dev *d, wm_error *err) {
  WM_CUD(d->id, cudaMemsetAsync(d->ints, 0, (2 + 2 * (size_t)d->blocks) * sizeof(int), d->stream));
  return WM_OK;
}

/* The same and its counters (level-0 counter included), so that a relaunch
 * counts from scratch; the graph and buffers stay. */
static int reset_counters(const wm_gpu_run *R, wm_gpu_dev *d, wm_error *err) {
  WM_CUD(d->id, cudaSetDevice(d->id));
  WM_CUD(d->id, cudaMemsetAsync(d->ctr, 0, C_N * 8, d->stream));
  if (d == &R->dev[0] && R->start)
    WM_CUD(d->id, cudaMemcpyAsync(d->ctr + C_COUNT, &R->start, 8, cudaMemcpyHostToDevice, d->stream));
  d->kernel_ms = 0;
  return reset_stealing(d, err);
}

/* One counting launch on every device, waited for. */
static int count_all(wm_gpu_run *R, wm_error *err) {
  int rc = check_stop(R, err);
  if (rc) return rc;
  wm_gpu_hold_arm(R->hold);
  for (int i = 0; !rc && i < R->ndev; i++) rc = launch(R, &R->dev[i], 0, R->hold, err);
  wm_gpu_hold_release(R->hold);
  if (rc) return rc;
  if ((rc = finish_all(R, err))) return rc;
  return check_stop(R, err);
}

/* The share, when there is one and the launches count (listing is the
 * caller's alone, as on the CPU). */
static const wm_share *share_of(const wm_gpu_run *R) { return R->listing ? NULL : R->o->share; }

/* Level-0 items [first, first + size) counted by a launch on every
 * device, the level-0 counter zeroed first. */
static int count_window(wm_gpu_run *R, uint64_t first, uint64_t size, wm_error *err) {
  for (int i = 0; i < R->ndev; i++) {
    wm_gpu_dev *d = &R->dev[i];
    d->args.l0_base = first;
    d->args.n0 = R->n0 - first > size ? first + size : R->n0;
    WM_CUD(d->id, cudaSetDevice(d->id));
    WM_CUD(d->id, cudaMemsetAsync(d->ctr + C_L0, 0, 8, d->stream));
    int rc = reset_stealing(d, err);
    if (rc) return rc;
  }
  if (R->l0_shared) WM_CUD(R->dev[0].id, cudaStreamSynchronize(R->dev[0].stream));
  return count_all(R, err);
}

/* The counting launches.  With a share, level 0 is cut into
 * WM_SHARE_WINDOWS windows (whole chunks) per process, which this process
 * takes from the share's counter one at a time and counts by a launch on
 * every device, the level-0 counter zeroed between them; the totals then
 * add up in share_totals.  A process stopped here (interrupted, failed)
 * halts the windows, so that the others take none after their current
 * one. */
static int count_level0(wm_gpu_run *R, wm_error *err) {
  const wm_share *s = share_of(R);
  if (!s) return count_all(R, err);
  const unsigned loop = s->loops(s->ctx, 1);
  const uint64_t parts = (uint64_t)WM_SHARE_WINDOWS * (uint64_t)s->processes;
  const uint64_t chunks = (R->n0 + R->chunk - 1) / R->chunk, size = (chunks + parts - 1) / parts * R->chunk;
  const uint64_t windows = (R->n0 + size - 1) / size;
  int rc = WM_OK;
  for (uint64_t w; !rc && !(rc = check_stop(R, err)) && (w = s->grab(s->ctx, loop, 1)) < windows;)
    rc = count_window(R, w * size, size, err);
  if (rc) wm_share_halt(s, loop, 1);
  return rc;
}

/* With a share, each process's counts (and per-vertex counts) become the
 * sums over the processes, so every process returns the whole answer.
 * Called by every process whatever its own launches gave (rc, returned
 * as it is), so that none waits for another in vain: the first sum
 * carries each process's interrupt and failure, and where any is set
 * every process returns so, without adding the counts. */
static int share_totals(wm_gpu_run *R, wm_match_result *r, int rc, wm_error *err) {
  const wm_share *s = share_of(R);
  if (!s) return rc;
  uint64_t t[3] = {r->set_ops, rc == WM_EINTERRUPTED, rc && rc != WM_EINTERRUPTED};
  if (s->sum_u64(s->ctx, t, 3) && !rc) return wm_fail(err, WM_EDEVICE, "adding the processes' counts failed");
  if (rc) return rc;
  if (t[1]) return wm_share_interrupted(err, "matching", 0);
  if (t[2]) return wm_fail(err, WM_EDEVICE, "matching failed on another process sharing the work");
  r->set_ops = t[0];
  uint64_t full = 0;
  if (wm_share_count(s, &r->count) ||
      (R->o->per_vertex && wm_share_per_vertex(s, R->o->per_vertex, R->g->n, r->count, &full)))
    return wm_fail(err, WM_EDEVICE, "adding the processes' counts failed");
  return full ? wm_per_vertex_overflow(R->g, (uint32_t)(full - 1), err) : WM_OK;
}

/* One timed trial (wm_trial_fn): counters zeroed, a counting launch
 * on every device. */
static int count_once(void *ctx, wm_match_result *x, wm_error *err) {
  wm_gpu_run *R = (wm_gpu_run *)ctx;
  int rc;
  for (int i = 0; i < R->ndev; i++)
    if ((rc = reset_counters(R, &R->dev[i], err))) return rc;
  /* The shared counter is zeroed on device 0's stream: done before any
   * other device's launch can grab from it. */
  if (R->l0_shared) WM_CUD(R->dev[0].id, cudaStreamSynchronize(R->dev[0].stream));
  double t0 = wm_now();
  rc = count_level0(R, err);
  x->seconds = wm_now() - t0;
  if (!rc) rc = collect(R, x, err);
  return share_totals(R, x, rc, err);
}

/* Level-0 iterations in the chunks of a stripe (every > 1: the chunks
 * whose index % every == 0, or with rest the others), or n0. */
static uint64_t stripe_items(uint64_t n0, uint32_t chunk, uint64_t every, int rest) {
  if (every <= 1) return n0;
  const uint64_t chunks = (n0 + chunk - 1) / chunk, first = (chunks + every - 1) / every;
  uint64_t in = 0;
  if (first) in = (first - 1) * chunk + (((first - 1) * every == chunks - 1) ? n0 - (chunks - 1) * chunk : chunk);
  return rest ? n0 - in : in;
}

static const char *steal_name(int s) {
  return s == WM_STEAL_NONE ? "none" : s == WM_STEAL_BLOCK ? "block" : "two-level";
}

static void describe(const wm_gpu_run *R, wm_match_result *r) {
  const wm_gpu_dev *d = &R->dev[0];
  const wm_gpu_policy *p = &R->pol;
  double gb = 0;
  for (int i = 0; i < R->ndev; i++) gb += R->dev[i].sz.total_bytes / 1e9;
  char split[128] = "";
  if (R->ndev > 1 && R->l0_shared)
    snprintf(split, sizeof split, " handed out dynamically over %d GPUs (counter on device 0)", R->ndev);
  else if (R->ndev > 1)
    snprintf(split, sizeof split, " interleaved statically over %d GPUs (%.60s)", R->ndev, R->static_why);
  if (R->o->gpu_l0_every > 1) {
    const size_t at = strlen(split);
    snprintf(split + at, sizeof split - at, ", %s 1 chunk in %u", R->o->gpu_l0_rest ? "all but" : "only",
             R->o->gpu_l0_every);
  }
  if (share_of(R)) {
    const size_t at = strlen(split);
    snprintf(split + at, sizeof split - at, ", in windows shared with %d processes", share_of(R)->processes);
  }
  snprintf(r->launch, sizeof r->launch,
           "gpu: %dx %.64s (%d SMs), grid %u x %d warps, U=%d (last group %d), steal=%s (stop %d, detect %d), "
           "level 0: %s in chunks of %u%s, %u set buffers x %llu elems/warp (max degree %llu), %.2f GB, "
           "probe table %u words/warp%s%s",
           R->ndev, d->name, d->sms, d->blocks, p->warps_per_block, p->unroll, p->last_group, steal_name(p->steal),
           p->stop_level, p->detect_level, R->l0_edges ? "edges" : "vertices", d->args.chunk, split, R->plan.n_bufs * (unsigned)p->unroll,
           (unsigned long long)d->sz.cap, (unsigned long long)R->max_degree, gb, d->table_words,
           R->plan.pairs == WM_PAIRS_PRODUCT ? ", pairs counted at the last position, as a product"
           : R->plan.pairs                    ? ", pairs counted at the last position"
                                              : "",
           R->listing ? ", listing" : "");
}

static int run(wm_gpu_run *R, wm_match_result *r, wm_error *err) {
  int rc, ndev_present = 0, T = R->o->trials;
  if (T > 1 && (R->listing || R->o->per_vertex))
    return wm_fail(err, WM_EUSAGE, "trials > 1 times plain counting only (not listing or per-vertex counts)");
  if (T > WM_MAX_TRIALS)
    return wm_fail(err, WM_EUSAGE, "trials %d: at most %d", T, WM_MAX_TRIALS);
  WM_CU(cudaGetDeviceCount(&ndev_present));
  if (R->ndev > ndev_present)
    return wm_fail(err, WM_EDEVICE, "--gpus %d asks for more GPUs than the %d present", R->ndev,
                   ndev_present);
  if (R->ndev == 1 && (R->o->gpu_first < 0 || R->o->gpu_first >= ndev_present))
    return wm_fail(err, WM_EDEVICE, "GPU %d asked for, but %d are present", R->o->gpu_first, ndev_present);
  if ((rc = wm_gpu_hold_create(&R->hold, err))) return rc;
  double t0 = wm_now();
  for (int i = 0; i < R->ndev; i++)
    if ((rc = open_device(R, i, err)) || (rc = setup_inputs(R, &R->dev[i], err)) ||
        (rc = setup_grid(R, &R->dev[i], err)))
      return wm_gpu_on_device(err, R->dev[i].id, rc);
  R->mon = wm_monitor_current();
  if ((rc = wm_gpu_share_counter(R->ndev, &R->l0_shared, R->static_why, sizeof R->static_why, err))) return rc;
  uint64_t warps = 0;
  for (int i = 0; i < R->ndev; i++) warps += (uint64_t)R->dev[i].blocks * R->pol.warps_per_block;
  uint32_t min_chunk = R->l0_edges && R->plan.k == 3 ? (uint32_t)R->pol.last_group : 1;
  /* A stripe's chunks are sized as if it were all of level 0, so that it
   * spreads over the grid as a whole count does; its rest takes the same. */
  const uint64_t every = R->o->gpu_l0_every > 1 ? R->o->gpu_l0_every : 1;
  uint32_t chunk =
      R->pol.chunk ? R->pol.chunk : wm_gpu_default_chunk(R->n0 / every, warps, R->l0_edges, min_chunk);
  R->n_taken = stripe_items(R->n0, chunk, every, R->o->gpu_l0_rest);
  for (int i = 0; i < R->ndev; i++) {
    fill_args(R, &R->dev[i], i, chunk);
    WM_CUD(i, cudaSetDevice(R->dev[i].id));
    if ((rc = wm_gpu_stop_word(R->mon, &R->dev[i].args.stop, err)) ||
        (rc = wm_gpu_stop_limit(R->dev[i].args.stop, R->o->time_limit_s, err)))
      return wm_gpu_on_device(err, R->dev[i].id, rc);
    WM_CUD(i, cudaStreamSynchronize(R->dev[i].stream));
  }
  R->transfer_ms += (wm_now() - t0) * 1e3;
  R->chunk = chunk;
  wm_progress_init(&R->progress, R->o->progress_label ? R->o->progress_label : "counting", R->n_taken, 1);
  if ((rc = progress_setup(R, err))) return rc;
  double t1 = wm_now();
  rc = R->listing ? run_listing(R, &r->listed, err) : count_level0(R, err);
  if (!rc) R->progress.done = R->n_taken;
  wm_progress_finish(&R->progress);
  if (!rc && R->listing) r->count = r->listed;
  r->seconds = wm_now() - t1;
  if (!rc) rc = collect(R, r, err);
  if (!rc && R->o->time_limit_s > 0) rc = wm_gpu_stop_seen(R->dev[0].args.stop, &r->cut_short, err);
  if (!rc && R->o->time_limit_s > 0)
    rc = wm_gpu_stop_span(R->dev[0].args.stop, (uint64_t)R->dev[0].blocks * R->pol.warps_per_block, &r->span_s,
                          &r->busy_s, err);
  if ((rc = share_totals(R, r, rc, err))) return rc; /* with a share, whatever rc, as every process */
  /* The first launch was the warm-up: set operations and lane use stay
   * its (the same work), the times become the trials' medians. */
  if (T > 1 && (rc = wm_match_trials(count_once, R, (unsigned)T, r->count, 1, r, err))) return rc;
  r->transfer_ms = R->transfer_ms;
  describe(R, r);
  return WM_OK;
}

static uint64_t max_degree_of(const wm_graph *g) {
  uint64_t m = 0;
  for (uint32_t v = 0; v < g->n; v++) {
    uint64_t d = g->offsets[v + 1] - g->offsets[v];
    if (d > m) m = d;
  }
  return m;
}

extern "C" int wm_match_gpu_stack(const wm_graph *g, const wm_plan *plan, const wm_match_options *o,
                                  wm_match_result *r, wm_error *err) {
  memset(r, 0, sizeof *r);
  int rc;
  wm_gpu_run *R = (wm_gpu_run *)calloc(1, sizeof *R);
  if (!R) return wm_fail(err, WM_EINPUT, "out of host memory");
  R->g = g;
  R->o = o;
  if ((rc = wm_gpu_plan_compile(plan, &R->plan, err))) {
    free(R);
    return rc;
  }
  R->listing = o->sink != NULL;
  if (o->gpu_l0_every > 1 && (R->listing || o->per_vertex || o->first || o->share || o->gpus > 1)) {
    free(R);
    return wm_fail(err, WM_EUSAGE, "a stripe of level 0 is for counting the whole graph on one GPU "
                                   "(no listing, per-vertex counts, seeds, share or several GPUs)");
  }
  if (o->time_limit_s > 0 && (R->listing || o->share || o->gpus > 1 || o->trials > 1)) {
    free(R);
    return wm_fail(err, WM_EUSAGE, "a time limit is for one count on one GPU (no listing, share, "
                                   "several GPUs or trials)");
  }
  /* Plain counts (no listing, per-vertex counts or ball) let wm_bulk_last
   * count a member without a scan, and count pairs per member. */
  const int plain = !R->listing && !o->per_vertex && !o->allowed;
  if (plain) wm_gpu_plan_fold_pairs(&R->plan, plan->pair_count);
  const unsigned k = R->plan.k;
  wm_gpu_policy_from_options(&R->pol, o, k);
  /* A suspended warp must not be split by another block while it is away. */
  if (R->listing && R->pol.steal > WM_STEAL_BLOCK) R->pol.steal = WM_STEAL_BLOCK;
  if ((rc = wm_gpu_devices(o->gpus, &R->ndev, err))) {
    free(R);
    return rc;
  }
  R->max_degree = max_degree_of(g);
  wm_gpu_policy_fit_plan(&R->pol, k, plain && wm_gpu_plan_lane_count(&R->plan));
  R->l0_edges = wm_gpu_level0_edges(R->pol.level0, k, R->plan.cand[1] == WM_NBR(0), o->first != NULL);
  R->n0 = R->l0_edges ? g->m : o->first ? o->n_first : g->n;
  R->list_batch = o->gpu_list_batch ? o->gpu_list_batch : WM_DEFAULT_LIST_BATCH;
  if (R->list_batch < WM_GPU_MIN_LIST_BATCH) R->list_batch = WM_GPU_MIN_LIST_BATCH;
  /* the test hook's start, in the first process only (exact_count.h) */
  R->start = o->share && o->share->process ? 0 : wm_count_start();
  for (uint32_t v = 0; o->per_vertex && v < g->n; v++) o->per_vertex[v] = R->start;
  if (R->n0)
    rc = run(R, r, err);
  else
    snprintf(r->launch, sizeof r->launch, "gpu: not launched (no level-0 vertices or edges)");
  /* After a failure the other devices may still run: level 0 is closed
   * (the counters set past the last chunk; best effort, a failed device's
   * memory may be out of reach), so they end with the work in hand.
   * Device 0's memory holds the shared counter: every device's work ends
   * before any memory is freed. */
  if (rc && R->ndev > 1)
    for (int i = 0; i < (R->l0_shared ? 1 : R->ndev); i++) {
      const wm_u64 past = R->n0;
      if (R->dev[i].ctr && cudaSetDevice(R->dev[i].id) == cudaSuccess)
        cudaMemcpy(R->dev[i].ctr + C_L0, &past, sizeof past, cudaMemcpyHostToDevice);
    }
  for (int i = 0; i < R->ndev; i++)
    if (R->dev[i].stream && cudaSetDevice(R->dev[i].id) == cudaSuccess) cudaStreamSynchronize(R->dev[i].stream);
  cudaGetLastError();
  for (int i = 0; i < R->ndev; i++)
    if (R->dev[i].stream) dev_release(&R->dev[i]);
  wm_gpu_hold_destroy(R->hold);
  free(R->host_out);
  free(R);
  return rc;
}
