/* Host driver of the dedicated DAG kernels (gpu_dag.h): uploads the graph
 * and its split (dag_split.h), captures a family's light and heavy kernels
 * on two streams as a CUDA graph, and replays it (o->trials after a
 * warm-up, medians reported).  Over --gpus devices, the light pivots and
 * the triangle and diamond heavy items are handed out dynamically from
 * counters in device 0's memory that every device grabs from (peer access,
 * system-scope atomics); the clique heavy pivots, whose matrices are built
 * and counted on one device, are dealt round-robin, as is everything where
 * some device has no peer atomics to device 0.  The clique kernels build their heavy pivots' matrices in a
 * device pool; when the pool cannot hold them all, the heavy pivots go in
 * batches that fit. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "gpu_check.h"
#include "gpu_dag.h"

/* CTR_COUNT, CTR_COUNT_HIGH: the count's low and high words (gpu_count.cuh) */
enum { CTR_COUNT, CTR_COUNT_HIGH, CTR_LIGHT, CTR_HEAVY, CTR_ITEMS, CTR_N };

#ifndef WM_TRI_NARROW_MIN_ARCS
#define WM_TRI_NARROW_MIN_ARCS (1ull << 22)
#endif

/* Heavy pivots [p0, p1) and their items [i0, i1): one pool's worth. */
typedef struct dag_batch {
  uint64_t p0, p1, i0, i1;
} dag_batch;

typedef struct dag_dev {
  int id;
  cudaStream_t light, heavy;
  cudaEvent_t ev0, ev_heavy, ev_light, ev1; /* timing: nodes of the graph */
  cudaEvent_t fork, join;                   /* the heavy stream's edges in the graph */
  cudaGraphExec_t exec;                     /* one trial's work (capture) */
  wm_u64 *off, *ctr, *base;
  wm_u64 *count_host; /* pinned: the count (low, high) comes back in the launch's stream, no second round
                         trip; [2]: the test hook's start (exact_count.h), copied to device 0's count */
  uint32_t *adj, *dplus, *pivots, *pool, *stacks;
  uint16_t *adj16;
  int borrowed; /* off and adj are the resident graph's, not this run's to free */
  wm_dag_item *items;
  wm_dag_args args;
  unsigned light_blocks, heavy_blocks;
  float heavy_ms, light_ms; /* each stream's kernels, in the last trial */
} dag_dev;

typedef struct dag_run {
  const wm_graph *g;
  const struct wm_gpu_graph *resident; /* g on the devices already (wm_match_options.gpu_graph), or NULL */
  const wm_dag_kernels *K;
  unsigned k;
  wm_dag_split split;
  int ndev;
  int first; /* one device: its ordinal (wm_match_options.gpu_first) */
  dag_dev dev[WM_MAX_GPUS];
  dag_batch *batches;
  unsigned n_batches;
  uint64_t pool_words; /* per device */
  wm_progress progress; /* the warm-up's time spent */
  uint64_t warps;       /* light warps of every device */
  int shared;           /* the work counters below are shared by every device */
  const wm_share *share; /* processes sharing the work (o->share), or NULL: then every process's
                            devices take part in one static deal, the split made for the warps
                            of them all */
  wm_u64 *sh;           /* device 0: the shared light and heavy counters */
  uint64_t start;       /* the test hook's start (exact_count.h), in device 0's count */
  char static_why[96];  /* why not shared, over several devices */
  wm_monitor *mon;      /* the call's (warpmatch_interrupt), or NULL */
} dag_run;

static int upload(dag_dev *d, void **dst, const void *src, size_t bytes, wm_error *err) {
  WM_CU(cudaMalloc(dst, bytes ? bytes : 1));
  if (bytes) WM_CU(cudaMemcpyAsync(*dst, src, bytes, cudaMemcpyHostToDevice, d->light));
  return WM_OK;
}

/* Greedy batches of consecutive heavy pivots whose matrices fit `words`;
 * declined when one alone does not. */
static int plan_batches(dag_run *T, uint64_t words, int *declined, wm_error *err) {
  const wm_dag_split *s = &T->split;
  T->batches = (dag_batch *)calloc(s->n_pivots + 1, sizeof *T->batches);
  if (!T->batches) return wm_fail(err, WM_EINPUT, "cliques: out of host memory");
  uint64_t p = 0, item = 0, need = 0;
  while (p < s->n_pivots) {
    dag_batch *b = &T->batches[T->n_batches++];
    b->p0 = p;
    while (p < s->n_pivots && s->base[p + 1] - s->base[b->p0] <= words) p++;
    if (p == b->p0) {
      *declined = 1;
      return WM_OK;
    }
    b->p1 = p;
    b->i0 = item;
    while (item < s->n_items && s->items[item].v < p) item++;
    b->i1 = item;
    if (s->base[p] - s->base[b->p0] > need) need = s->base[p] - s->base[b->p0];
  }
  T->pool_words = need;
  return WM_OK;
}

/* The pool's budget on device i: most of what is free once the graph is
 * up, less the count kernel's global stacks. */
static int pool_budget(dag_run *T, dag_dev *d, uint64_t *words, wm_error *err) {
  size_t free_b = 0, total_b = 0;
  WM_CU(cudaMemGetInfo(&free_b, &total_b));
  uint64_t stack_bytes = 0;
  const uint32_t row_words = (T->split.max_dplus + 31) / 32;
  if (row_words > (WM_CLQ_STACK_D + 31) / 32) {
    d->args.stack_words = WM_CLQ_STACK_WORDS(T->k, row_words);
    stack_bytes = (uint64_t)d->heavy_blocks * WM_CLQ_WARPS * d->args.stack_words * 4;
  }
  uint64_t avail = (uint64_t)(free_b * 0.8);
  *words = avail > stack_bytes ? (avail - stack_bytes) / 4 : 0;
  if (stack_bytes) WM_CU(cudaMalloc(&d->stacks, stack_bytes));
  d->args.stacks = d->stacks;
  return WM_OK;
}

/* Each device's scratch for its heavy blocks (wm_dag_kernels.scratch_bytes),
 * zeroed here; declined when it would take over half the free memory. */
static int scratch(dag_run *T, int *declined, wm_error *err) {
  for (int i = 0; T->K->scratch_bytes && i < T->ndev; i++) {
    dag_dev *d = &T->dev[i];
    size_t free_b = 0, total_b = 0, bytes = T->K->scratch_bytes(T->g, &T->split, d->heavy_blocks);
    if (!bytes) continue;
    WM_CU(cudaSetDevice(d->id));
    WM_CU(cudaMemGetInfo(&free_b, &total_b));
    if (bytes > free_b / 2) {
      *declined = 1;
      return WM_OK;
    }
    WM_CU(cudaMalloc(&d->pool, bytes));
    WM_CU(cudaMemsetAsync(d->pool, 0, bytes, d->light));
    d->args.pool = d->pool;
  }
  return WM_OK;
}

/* Streams, events and the grid of device i (before the split, which is
 * cut to the light warps there are). */
static int open_dev(dag_run *T, int i, wm_error *err) {
  dag_dev *d = &T->dev[i];
  d->id = T->ndev == 1 ? T->first : i;
  WM_CU(cudaSetDevice(d->id));
  WM_CU(cudaStreamCreateWithFlags(&d->light, cudaStreamNonBlocking));
  WM_CU(cudaStreamCreateWithFlags(&d->heavy, cudaStreamNonBlocking));
  WM_CU(cudaEventCreate(&d->ev0));
  WM_CU(cudaEventCreate(&d->ev1));
  WM_CU(cudaEventCreate(&d->ev_heavy));
  WM_CU(cudaEventCreate(&d->ev_light));
  WM_CU(cudaEventCreate(&d->fork));
  WM_CU(cudaEventCreate(&d->join));
  int light_per_sm = 0, heavy_per_sm = 0, sms = 0;
  WM_CU(T->K->prepare(T->k, &light_per_sm, &heavy_per_sm));
  WM_CU(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, d->id));
  if (light_per_sm < 1 || heavy_per_sm < 1)
    return wm_fail(err, WM_EDEVICE, "%s: device %d cannot hold a block (%zu / %zu bytes of shared memory)",
                   T->K->name, i, T->K->light_smem(T->k), T->K->heavy_smem(T->k));
  d->heavy_blocks = (unsigned)(sms * heavy_per_sm);
  d->light_blocks = (unsigned)(sms * light_per_sm);
  return WM_OK;
}

/* The graph and the split onto device i, and the kernels' arguments. */
static int upload_dev(dag_run *T, int i, wm_error *err) {
  const wm_graph *g = T->g;
  const wm_dag_split *s = &T->split;
  dag_dev *d = &T->dev[i];
  WM_CUD(d->id, cudaSetDevice(d->id));
  int rc = WM_OK;
  d->borrowed = wm_gpu_graph_on(T->resident, g, d->id, (void **)&d->off, (void **)&d->adj);
  if ((!d->borrowed && ((rc = upload(d, (void **)&d->off, g->offsets, ((size_t)g->n + 1) * 8, err)) ||
                        (rc = upload(d, (void **)&d->adj, g->adj, (size_t)g->m * 4, err)))) ||
      (rc = upload(d, (void **)&d->dplus, s->dplus, (size_t)g->n * 4, err)) ||
      (rc = upload(d, (void **)&d->items, s->items, s->n_items * sizeof(wm_dag_item), err)) ||
      (rc = upload(d, (void **)&d->pivots, s->pivots, s->n_pivots * 4, err)) ||
      (rc = upload(d, (void **)&d->base, s->base, s->pivots ? (s->n_pivots + 1) * 8 : 0, err)))
    return rc;
  WM_CU(cudaMalloc(&d->ctr, CTR_N * 8));
  WM_CU(cudaMallocHost(&d->count_host, 3 * 8));
  d->count_host[2] = i == 0 ? T->start : 0;
  /* The heavy triangle kernel's 16-bit ids, where they fit easily and pay
   * for their fill: half the bytes read save more than the fill costs on a
   * large graph, not on one below WM_TRI_NARROW_MIN_ARCS arcs. */
  if (T->K->narrow_rows && s->n_items && g->m >= WM_TRI_NARROW_MIN_ARCS) {
    size_t free_b = 0, total_b = 0;
    WM_CU(cudaMemGetInfo(&free_b, &total_b));
    if ((size_t)g->m * 2 < free_b / 2) WM_CU(cudaMalloc(&d->adj16, (size_t)g->m * 2));
  }
  wm_dag_args *a = &d->args;
  a->off = d->off;
  a->adj = d->adj;
  a->dplus = d->dplus;
  a->adj16 = d->adj16;
  a->m = g->m;
  a->n = g->n;
  a->k = T->k;
  /* grabs of up to WM_TRI_LIGHT_CHUNK pivots, but at least ~4 per warp of
   * every device, so that a small graph still spreads over every warp; one
   * size for every device, which read the same chunk indices */
  uint64_t per = (uint64_t)g->n / (T->warps * 4);
  a->light_chunk = per < 1 ? 1 : per > WM_TRI_LIGHT_CHUNK ? WM_TRI_LIGHT_CHUNK : (uint32_t)per;
  a->light_in = s->light_in;
  a->items = d->items;
  a->n_items = s->n_items;
  a->pivots = d->pivots;
  a->base = d->base;
  a->count = d->ctr + CTR_COUNT;
  a->next_light = T->shared ? T->sh : d->ctr + CTR_LIGHT;
  a->next_heavy = T->shared && !T->K->matrices ? T->sh + 1 : d->ctr + CTR_HEAVY;
  a->next_count = d->ctr + CTR_ITEMS;
  /* with a share, device i of process p is device p * ndev + i of the deal */
  a->dev = (uint32_t)((T->share ? T->share->process * T->ndev : 0) + i);
  a->ndev = (uint32_t)((T->share ? T->share->processes : 1) * T->ndev);
  a->shared = T->shared;
  return wm_gpu_stop_word(T->mon, &a->stop, err);
}

static void close_dev(dag_dev *d) {
  if (cudaSetDevice(d->id) != cudaSuccess) return;
  void *p[] = {d->borrowed ? NULL : d->off, d->borrowed ? NULL : d->adj, d->adj16, d->dplus, d->items, d->pivots, d->base, d->pool, d->stacks, d->ctr};
  for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
    if (p[i]) cudaFree(p[i]);
  if (d->count_host) cudaFreeHost(d->count_host);
  if (d->exec) cudaGraphExecDestroy(d->exec);
  cudaEvent_t ev[] = {d->ev0, d->ev1, d->fork, d->join, d->ev_heavy, d->ev_light};
  for (size_t i = 0; i < sizeof ev / sizeof ev[0]; i++)
    if (ev[i]) cudaEventDestroy(ev[i]);
  if (d->light) cudaStreamDestroy(d->light);
  if (d->heavy) cudaStreamDestroy(d->heavy);
  cudaGetLastError();
}

/* Records e on s as a node of the graph being captured (a plain record
 * would only be an edge between streams), so that it times the replays. */
static cudaError_t mark(cudaEvent_t e, cudaStream_t s) {
  return cudaEventRecordWithFlags(e, s, cudaEventRecordExternal);
}

/* One trial's work on device d: the heavy batches in turn on one stream,
 * the light kernel on the other, between d->ev0 and d->ev1, and the count
 * back to the host. */
static int queue(dag_run *T, dag_dev *d, wm_error *err) {
  WM_CU(cudaMemsetAsync(d->ctr, 0, CTR_N * 8, d->light));
  if (d->count_host[2])
    WM_CU(cudaMemcpyAsync(d->ctr + CTR_COUNT, d->count_host + 2, 8, cudaMemcpyHostToDevice, d->light));
  WM_CU(mark(d->ev0, d->light));
  if (T->K->launch_first) WM_CU(T->K->launch_first(&d->args, d->heavy_blocks, d->light));
  WM_CU(cudaEventRecord(d->fork, d->light));
  WM_CU(cudaStreamWaitEvent(d->heavy, d->fork, 0));
  if (!T->n_batches) WM_CU(T->K->launch_heavy(&d->args, d->heavy_blocks, d->heavy));
  for (unsigned b = 0; b < T->n_batches; b++) {
    const dag_batch *B = &T->batches[b];
    wm_dag_args a = d->args;
    a.p0 = B->p0;
    a.p1 = B->p1;
    a.items = d->items + B->i0;
    a.n_items = B->i1 - B->i0;
    a.pool = d->pool;
    if (b) WM_CU(cudaMemsetAsync(d->ctr + CTR_HEAVY, 0, 2 * 8, d->heavy));
    WM_CU(T->K->launch_heavy(&a, d->heavy_blocks, d->heavy));
  }
  WM_CU(mark(d->ev_heavy, d->heavy));
  WM_CU(cudaEventRecord(d->join, d->heavy));
  WM_CU(T->K->launch_light(&d->args, d->light_blocks, d->light));
  WM_CU(mark(d->ev_light, d->light));
  WM_CU(cudaStreamWaitEvent(d->light, d->join, 0));
  WM_CU(mark(d->ev1, d->light));
  WM_CU(cudaMemcpyAsync(d->count_host, d->ctr + CTR_COUNT, 2 * 8, cudaMemcpyDeviceToHost, d->light));
  return WM_OK;
}

/* Captures device d's trial as a CUDA graph, so that a trial is one launch
 * call: queued call by call, the host's calls would take a large share of a
 * short count's wall time. */
static int capture(dag_run *T, dag_dev *d, wm_error *err) {
  WM_CU(cudaSetDevice(d->id));
  WM_CU(cudaStreamBeginCapture(d->light, cudaStreamCaptureModeThreadLocal));
  int rc = queue(T, d, err);
  cudaGraph_t g = NULL;
  cudaError_t e = cudaStreamEndCapture(d->light, &g);
  if (!rc && e == cudaSuccess) e = cudaGraphInstantiate(&d->exec, g, 0);
  if (g) cudaGraphDestroy(g);
  if (rc) return rc;
  WM_CU(e);
  return WM_OK;
}

/* One run over this process's devices: its count, kernel ms of the
 * slowest device and wall seconds (x's other fields are left as they are). */
static int run_trial(dag_run *T, wm_match_result *x, wm_error *err) {
  double t0 = wm_now();
  if (T->shared) {
    /* Zeroed before any device's graph runs (each graph zeroes only its
     * own device's counters). */
    WM_CUD(0, cudaSetDevice(T->dev[0].id));
    WM_CUD(0, cudaMemsetAsync(T->sh, 0, 2 * sizeof *T->sh, T->dev[0].light));
    WM_CUD(0, cudaStreamSynchronize(T->dev[0].light));
  }
  for (int i = 0; i < T->ndev; i++) {
    WM_CUD(i, cudaSetDevice(T->dev[i].id));
    if (wm_gpu_fault_here(i)) WM_CUD(i, wm_gpu_fault_launch(T->dev[i].light));
    WM_CUD(i, cudaGraphLaunch(T->dev[i].exec, T->dev[i].light));
  }
  /* The kernels' work queues are several: the line shows the time only.
   * Over several devices, the first that fails ends the wait. */
  if (T->ndev > 1) {
    int ids[WM_MAX_GPUS];
    cudaStream_t s[WM_MAX_GPUS];
    for (int i = 0; i < T->ndev; i++) ids[i] = T->dev[i].id, s[i] = T->dev[i].light;
    int rc = wm_gpu_watch_all(T->ndev, ids, s, &T->progress, NULL, NULL, err);
    if (rc) return rc;
  }
  for (int i = 0; i < T->ndev; i++) {
    WM_CUD(i, cudaSetDevice(T->dev[i].id));
    int rc = wm_gpu_watch(T->dev[i].light, &T->progress, NULL, NULL, err);
    if (rc) return wm_gpu_on_device(err, i, rc);
    WM_CUD(i, cudaStreamSynchronize(T->dev[i].light));
  }
  /* a stopped kernel's count is partial */
  if (wm_monitor_stopped(T->mon)) return wm_interrupted(err, T->K->name);
  x->seconds = wm_now() - t0; /* the count is in: the events are read after */
  x->count = 0;
  x->kernel_ms = 0;
  for (int i = 0; i < T->ndev; i++) {
    dag_dev *d = &T->dev[i];
    float m = 0;
    WM_CUD(i, cudaSetDevice(d->id));
    WM_CUD(i, cudaEventElapsedTime(&m, d->ev0, d->ev1));
    WM_CUD(i, cudaEventElapsedTime(&d->heavy_ms, d->ev0, d->ev_heavy));
    WM_CUD(i, cudaEventElapsedTime(&d->light_ms, d->ev0, d->ev_light));
    x->count += (wm_u128)((volatile wm_u64 *)d->count_host)[1] << 64 | ((volatile wm_u64 *)d->count_host)[0];
    if (m > x->kernel_ms) x->kernel_ms = m;
  }
  return WM_OK;
}

/* rc (this process's outcome) where it is not WM_OK, else the error that
 * the sums report (processes interrupted, failed), if any: a process
 * sharing the work never returns an answer that another did not finish. */
static int others(const dag_run *T, int rc, bool interrupted, bool failed, wm_error *err) {
  if (rc) return rc;
  if (interrupted) return wm_share_interrupted(err, T->K->name, 0);
  if (failed) return wm_fail(err, WM_EDEVICE, "%s: failed on another process sharing the work", T->K->name);
  return WM_OK;
}

/* One run over every device (wm_trial_fn).  With a share, every process's
 * count is added up (each returns the total) in a sum that also carries
 * each process's interrupt and failure, whatever this trial gave here:
 * then every process returns so, none with a partial count, and none
 * leaves another waiting in the sum. */
static int trial(void *ctx, wm_match_result *x, wm_error *err) {
  dag_run *T = (dag_run *)ctx;
  int rc = wm_monitor_stopped(T->mon) ? wm_interrupted(err, T->K->name) : run_trial(T, x, err);
  if (!T->share) return rc;
  wm_i128 t[3] = {rc ? 0 : (wm_i128)x->count, rc == WM_EINTERRUPTED, rc && rc != WM_EINTERRUPTED};
  int overflow = 0;
  if (T->share->sum_i128(T->share->ctx, t, 3, &overflow) && !rc)
    return wm_fail(err, WM_EDEVICE, "%s: adding the processes' counts failed", T->K->name);
  if ((rc = others(T, rc, t[1] != 0, t[2] != 0, err))) return rc;
  if (overflow) return wm_fail(err, WM_EDEVICE, "%s: adding the processes' counts failed", T->K->name);
  x->count = (wm_u128)t[0];
  return WM_OK;
}

/* With a share, every process declines when one does (its pool or bitmaps
 * do not fit), so that all of them take the stack kernel together; and
 * every one fails (interrupted where one was) when one did so far (rc:
 * this one's outcome), before the trials' sums. */
static int agree_declined(dag_run *T, int rc, int *declined, wm_error *err) {
  if (!T->share) return rc;
  uint64_t t[3] = {(uint64_t)*declined, rc == WM_EINTERRUPTED, rc && rc != WM_EINTERRUPTED};
  if (T->share->sum_u64(T->share->ctx, t, 3) && !rc)
    return wm_fail(err, WM_EDEVICE, "%s: the processes could not agree on their buffers", T->K->name);
  if ((rc = others(T, rc, t[1] != 0, t[2] != 0, err))) return rc;
  *declined = t[0] != 0;
  return WM_OK;
}

/* Uploads, sizes the clique pool (or declines), then the warm-up and the
 * timed trials. */
static int run(dag_run *T, const wm_match_options *o, wm_match_result *r, int *declined, wm_error *err) {
  int rc = WM_OK;
  uint64_t warps = 0;
  for (int i = 0; !rc && i < T->ndev; i++) {
    rc = wm_gpu_on_device(err, i, open_dev(T, i, err));
    warps += (uint64_t)T->dev[i].light_blocks * T->K->light_warps;
  }
  /* processes deal the same split, made for the warps of them all */
  if (T->share && T->share->sum_u64(T->share->ctx, &warps, 1) && !rc) /* whatever rc: as every process */
    rc = wm_fail(err, WM_EDEVICE, "%s: adding the processes' warps failed", T->K->name);
  T->warps = warps ? warps : 1;
  if (!rc) rc = wm_gpu_share_counter(T->ndev, &T->shared, T->static_why, sizeof T->static_why, err);
  if (T->share) T->shared = 0; /* one static deal over every process's devices */
  if (!rc && T->shared) {
    WM_CUD(0, cudaSetDevice(T->dev[0].id));
    WM_CUD(0, cudaMalloc(&T->sh, 2 * sizeof *T->sh));
  }
  if (!rc) rc = T->K->split(T->g, T->k, warps, &T->split, err);
  /* the split and the uploads take a good part of a second on large
   * graphs: the flag is read after each, not only at the trial */
  if (!rc && wm_monitor_stopped(T->mon)) rc = wm_interrupted(err, T->K->name);
  double t0 = wm_now();
  for (int i = 0; !rc && i < T->ndev; i++) rc = wm_gpu_on_device(err, i, upload_dev(T, i, err));
  if (!rc && wm_monitor_stopped(T->mon)) rc = wm_interrupted(err, T->K->name);
  if (!rc) rc = scratch(T, declined, err);
  if (!rc && !*declined && T->K->matrices && T->split.n_pivots) {
    uint64_t words = UINT64_MAX;
    for (int i = 0; !rc && i < T->ndev; i++) {
      uint64_t w = 0;
      WM_CU(cudaSetDevice(T->dev[i].id));
      rc = pool_budget(T, &T->dev[i], &w, err);
      if (w < words) words = w;
    }
    if (!rc) rc = plan_batches(T, words, declined, err);
  }
  /* with a share, whatever rc (an interrupt above included): as every process */
  if ((rc = agree_declined(T, rc, declined, err)) || *declined) return rc;
  for (int i = 0; T->pool_words && i < T->ndev; i++) {
    WM_CU(cudaSetDevice(T->dev[i].id));
    WM_CU(cudaMalloc(&T->dev[i].pool, T->pool_words * 4));
  }
  for (int i = 0; !rc && i < T->ndev; i++) {
    WM_CUD(i, cudaSetDevice(T->dev[i].id));
    WM_CUD(i, cudaStreamSynchronize(T->dev[i].light));
  }
  r->transfer_ms = (wm_now() - t0) * 1e3;
  for (int i = 0; !rc && i < T->ndev; i++) rc = wm_gpu_on_device(err, i, capture(T, &T->dev[i], err));
  if (rc) return rc;
  unsigned n = o->trials > 1 ? (unsigned)o->trials : 1;
  wm_progress_init(&T->progress, o->progress_label ? o->progress_label : "counting", 0, 1);
  rc = trial(T, r, err); /* the warm-up */
  wm_progress_finish(&T->progress);
  if (rc) return rc;
  return n > 1 ? wm_match_trials(trial, T, n, r->count, 1, r, err) : WM_OK;
}

/* Runs family K (k: the clique's size) over --gpus devices and describes
 * the launch; hook: the count starts at the test hook's start
 * (exact_count.h; a count to subtract from another does not). */
static int match_dag(const wm_graph *g, const wm_dag_kernels *K, unsigned k, const wm_match_options *o, int hook,
                     wm_match_result *r, int *declined, wm_error *err) {
  *declined = 0;
  dag_run *T = (dag_run *)calloc(1, sizeof *T);
  if (!T) return wm_fail(err, WM_EINPUT, "%s: out of host memory", K->name);
  T->g = g;
  T->resident = o->gpu_graph;
  T->share = o->share;
  T->start = hook && !(o->share && o->share->process) ? wm_count_start() : 0;
  T->k = k;
  T->K = K;
  T->mon = wm_monitor_current();
  int present = 0, rc = wm_gpu_devices(o->gpus, &T->ndev, err);
  cudaError_t e = cudaGetDeviceCount(&present);
  if (!rc && (e != cudaSuccess || T->ndev > present))
    rc = wm_fail(err, WM_EDEVICE, "--gpus %d asks for more GPUs than the %d present", T->ndev,
                 e == cudaSuccess ? present : 0);
  T->first = o->gpu_first;
  if (!rc && T->ndev == 1 && (T->first < 0 || T->first >= present))
    rc = wm_fail(err, WM_EDEVICE, "GPU %d asked for, but %d are present", T->first, present);
  if (!rc) rc = run(T, o, r, declined, err);
  if (!rc && !*declined) {
    r->set_ops = T->split.work;
    const dag_dev *d = &T->dev[0];
    int len = snprintf(r->launch, sizeof r->launch,
                       "gpu: %dx %s: %u light blocks x %d warps (%.3g ms), %u heavy blocks x %d warps (%.3g ms), "
                       "%llu heavy items",
                       T->ndev, T->K->name, d->light_blocks, T->K->light_warps, d->light_ms, d->heavy_blocks,
                       T->K->heavy_warps, d->heavy_ms, (unsigned long long)T->split.n_items);
    if (!K->matrices && len > 0 && (size_t)len < sizeof r->launch)
      len += snprintf(r->launch + len, sizeof r->launch - (size_t)len, ", light %s <= %u%s%s",
               "N-", T->split.light_in, d->adj16 ? ", 16-bit rows" : "",
               d->pool ? ", bitmaps in device memory" : "");
    if (K->matrices && len > 0 && (size_t)len < sizeof r->launch)
      len += snprintf(r->launch + len, sizeof r->launch - (size_t)len, ", %u batch(es), pool %.2f GB",
                      T->n_batches, T->pool_words * 4 / 1e9);
    if (T->share && len > 0 && (size_t)len < sizeof r->launch)
      snprintf(r->launch + len, sizeof r->launch - (size_t)len,
               ", work dealt statically over the %d GPU(s) of each of %d processes", T->ndev, T->share->processes);
    else if (T->ndev > 1 && len > 0 && (size_t)len < sizeof r->launch)
      snprintf(r->launch + len, sizeof r->launch - (size_t)len, T->shared ? ", work handed out dynamically over %d GPUs%s"
                                                                          : ", work dealt statically over %d GPUs (%.60s)",
               T->ndev, T->shared ? (K->matrices ? " (heavy pivots dealt statically)" : "") : T->static_why);
  }
  /* After a failure the other devices may still run: their work
   * counters are set past every index (best effort: a failed device's
   * memory may be out of reach, and a later pool batch zeroes its own),
   * so that they end with the work in hand.  The shared counters are
   * device 0's: every device's work ends before any memory is freed. */
  if (rc && T->ndev > 1) {
    const wm_u64 end = g->n + T->split.n_items + T->split.n_pivots + 1, past[3] = {end, end, end};
    for (int i = 0; i < T->ndev; i++)
      if (T->dev[i].ctr && cudaSetDevice(T->dev[i].id) == cudaSuccess)
        cudaMemcpy(T->dev[i].ctr + CTR_LIGHT, past, sizeof past, cudaMemcpyHostToDevice);
    if (T->sh && cudaSetDevice(0) == cudaSuccess) cudaMemcpy(T->sh, past, 2 * sizeof *T->sh, cudaMemcpyHostToDevice);
    cudaGetLastError();
  }
  for (int i = 0; i < T->ndev; i++)
    if (T->dev[i].light && cudaSetDevice(T->dev[i].id) == cudaSuccess) {
      cudaStreamSynchronize(T->dev[i].light);
      cudaStreamSynchronize(T->dev[i].heavy);
    }
  cudaGetLastError();
  for (int i = 0; i < T->ndev; i++) close_dev(&T->dev[i]);
  if (T->sh && cudaSetDevice(0) == cudaSuccess) cudaFree(T->sh);
  cudaGetLastError();
  wm_dag_split_free(&T->split);
  free(T->batches);
  free(T);
  return rc;
}

/* r, an edge-induced count, becomes the vertex-induced one: less `per`
 * for each k-clique in k4 (wm_dag_kernels.induced_less).  The times add
 * up, trial by trial. */
static void less_cliques(wm_match_result *r, const wm_match_result *k4, unsigned per, unsigned k) {
  r->count -= (wm_u128)per * k4->count;
  r->set_ops += k4->set_ops;
  r->seconds += k4->seconds;
  r->transfer_ms += k4->transfer_ms;
  r->kernel_ms += k4->kernel_ms;
  for (unsigned i = 0; i < r->trials; i++) r->trial_ms[i] += k4->trial_ms[i];
  if (r->trials > 1) r->kernel_ms = wm_match_median(r->trial_ms, r->trials);
  char first[sizeof r->launch];
  memcpy(first, r->launch, sizeof first);
  snprintf(r->launch, sizeof r->launch, "%.200s; less %u per %u-clique, %.160s", first, per, k, k4->launch);
}

/* The kernels of each row of dag_kernels.def, in its order. */
static const wm_dag_kernels *const families[] = {
#define WM_DAG_KERNEL(family, k_min, k_max, edges) &wm_##family##_kernels,
#include "dag_kernels.def"
#undef WM_DAG_KERNEL
};

int wm_match_gpu_dedicated(unsigned row, const wm_graph *g, unsigned k, int induced, const wm_match_options *o,
                           wm_match_result *r, int *declined, wm_error *err) {
  *declined = 0;
  if (row >= sizeof families / sizeof families[0])
    return wm_fail(err, WM_EUSAGE, "no dedicated kernel row %u", row);
  const wm_dag_row *w = &wm_dag_rows[row];
  if (k < w->k_min || k > w->k_max)
    return wm_fail(err, WM_EUSAGE, "the %s kernels count %u to %u vertices, not %u", w->family, w->k_min, w->k_max, k);
  const wm_dag_kernels *K = families[row];
  int rc = match_dag(g, K, k, o, 1, r, declined, err);
  if (rc || *declined || !induced || !K->induced_less) return rc;
  wm_match_result kk;
  memset(&kk, 0, sizeof kk);
  if ((rc = match_dag(g, &wm_clique_kernels, k, o, 0, &kk, declined, err)) || *declined) return rc;
  less_cliques(r, &kk, K->induced_less, k);
  return WM_OK;
}
