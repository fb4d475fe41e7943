/* Host driver of the GPU triangle path: uploads the graph and its pivot
 * split (triangle_split.h), launches both kernels and times them (o->trials
 * after a warm-up, medians reported).  Work items are dealt round-robin over
 * --gpus devices. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpu_triangles.h"

#define TRI_CU(call)                                                                          \
  do {                                                                                        \
    cudaError_t e_ = (call);                                                                  \
    if (e_ != cudaSuccess) {                                                                  \
      cudaGetLastError();                                                                     \
      return wm_fail(err, WM_EDEVICE, "%s:%d: %s failed: %s", __FILE__, __LINE__, #call,      \
                     e_ == cudaErrorMemoryAllocation ? "device out of memory"                 \
                                                     : cudaGetErrorString(e_));               \
    }                                                                                         \
  } while (0)

enum { TRI_COUNT, TRI_NEXT_LIGHT, TRI_NEXT_HEAVY, TRI_CTRS };

typedef struct tri_dev {
  int id;
  cudaStream_t light, heavy;
  cudaEvent_t ev0, ev_heavy, ev1;
  wm_u64 *off, *ctr;
  uint32_t *adj, *dplus;
  wm_tri_item *items;
  wm_tri_args args;
  unsigned light_blocks, heavy_blocks;
  float ms;
} tri_dev;

typedef struct tri_run {
  const wm_graph *g;
  wm_tri_split split;
  int ndev;
  tri_dev dev[16];
} tri_run;

static int upload(tri_dev *d, void **dst, const void *src, size_t bytes, wm_error *err) {
  TRI_CU(cudaMalloc(dst, bytes ? bytes : 1));
  if (bytes) TRI_CU(cudaMemcpyAsync(*dst, src, bytes, cudaMemcpyHostToDevice, d->light));
  return WM_OK;
}

static int open_dev(tri_run *T, int i, wm_error *err) {
  const wm_graph *g = T->g;
  tri_dev *d = &T->dev[i];
  d->id = i;
  TRI_CU(cudaSetDevice(i));
  TRI_CU(cudaStreamCreateWithFlags(&d->light, cudaStreamNonBlocking));
  TRI_CU(cudaStreamCreateWithFlags(&d->heavy, cudaStreamNonBlocking));
  TRI_CU(cudaEventCreate(&d->ev0));
  TRI_CU(cudaEventCreate(&d->ev1));
  TRI_CU(cudaEventCreateWithFlags(&d->ev_heavy, cudaEventDisableTiming));
  int rc;
  if ((rc = upload(d, (void **)&d->off, g->offsets, ((size_t)g->n + 1) * 8, err)) ||
      (rc = upload(d, (void **)&d->adj, g->adj, (size_t)g->m * 4, err)) ||
      (rc = upload(d, (void **)&d->dplus, T->split.dplus, (size_t)g->n * 4, err)) ||
      (rc = upload(d, (void **)&d->items, T->split.items, T->split.n_items * sizeof(wm_tri_item), err)))
    return rc;
  TRI_CU(cudaMalloc(&d->ctr, TRI_CTRS * 8));
  int light_per_sm = 0, heavy_per_sm = 0, sms = 0;
  TRI_CU(wm_tri_prepare(&light_per_sm, &heavy_per_sm));
  TRI_CU(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, i));
  if (light_per_sm < 1 || heavy_per_sm < 1)
    return wm_fail(err, WM_EDEVICE, "triangles: device %d cannot hold a block (%zu / %zu bytes of shared memory)",
                   i, wm_tri_light_smem(), wm_tri_heavy_smem());
  d->heavy_blocks = (unsigned)(sms * heavy_per_sm);
  d->light_blocks = (unsigned)(sms * light_per_sm);
  wm_tri_args *a = &d->args;
  a->off = d->off;
  a->adj = d->adj;
  a->dplus = d->dplus;
  a->n = g->n;
  /* grabs of up to WM_TRI_LIGHT_CHUNK pivots, but at least ~4 per warp, so
   * that a small graph still spreads over every warp */
  uint64_t per = (uint64_t)g->n / ((uint64_t)d->light_blocks * WM_TRI_LIGHT_WARPS * 4);
  a->light_chunk = per < 1 ? 1 : per > WM_TRI_LIGHT_CHUNK ? WM_TRI_LIGHT_CHUNK : (uint32_t)per;
  a->heavy = d->items;
  a->n_heavy = T->split.n_items;
  a->count = d->ctr + TRI_COUNT;
  a->next_light = d->ctr + TRI_NEXT_LIGHT;
  a->next_heavy = d->ctr + TRI_NEXT_HEAVY;
  a->dev = (uint32_t)i;
  a->ndev = (uint32_t)T->ndev;
  return WM_OK;
}

static void close_dev(tri_dev *d) {
  if (cudaSetDevice(d->id) != cudaSuccess) return;
  void *p[] = {d->off, d->adj, d->dplus, d->items, d->ctr};
  for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
    if (p[i]) cudaFree(p[i]);
  cudaEvent_t ev[] = {d->ev0, d->ev1, d->ev_heavy};
  for (size_t i = 0; i < 3; i++)
    if (ev[i]) cudaEventDestroy(ev[i]);
  if (d->light) cudaStreamDestroy(d->light);
  if (d->heavy) cudaStreamDestroy(d->heavy);
  cudaGetLastError();
}

/* Both kernels on both streams, between d->ev0 and d->ev1. */
static int launch(tri_dev *d, wm_error *err) {
  TRI_CU(cudaSetDevice(d->id));
  TRI_CU(cudaMemsetAsync(d->ctr, 0, TRI_CTRS * 8, d->light));
  TRI_CU(cudaEventRecord(d->ev0, d->light));
  TRI_CU(cudaStreamWaitEvent(d->heavy, d->ev0, 0));
  TRI_CU(wm_tri_launch(&d->args, d->light_blocks, d->heavy_blocks, d->light, d->heavy));
  TRI_CU(cudaEventRecord(d->ev_heavy, d->heavy));
  TRI_CU(cudaStreamWaitEvent(d->light, d->ev_heavy, 0));
  TRI_CU(cudaEventRecord(d->ev1, d->light));
  return WM_OK;
}

/* One timed run over every device: the count, kernel ms (slowest device)
 * and wall seconds. */
static int trial(tri_run *T, uint64_t *count, double *ms, double *seconds, wm_error *err) {
  double t0 = wm_now();
  int rc;
  for (int i = 0; i < T->ndev; i++)
    if ((rc = launch(&T->dev[i], err))) return rc;
  *count = 0;
  *ms = 0;
  for (int i = 0; i < T->ndev; i++) {
    tri_dev *d = &T->dev[i];
    wm_u64 c = 0;
    float m = 0;
    TRI_CU(cudaSetDevice(d->id));
    TRI_CU(cudaStreamSynchronize(d->light));
    TRI_CU(cudaEventElapsedTime(&m, d->ev0, d->ev1));
    TRI_CU(cudaMemcpy(&c, d->ctr + TRI_COUNT, 8, cudaMemcpyDeviceToHost));
    *count += c;
    if (m > *ms) *ms = m;
  }
  *seconds = wm_now() - t0;
  return WM_OK;
}

static int run_trials(tri_run *T, const wm_match_options *o, wm_match_result *r, wm_error *err) {
  unsigned n = o->trials > 1 ? (unsigned)o->trials : 1;
  double secs[WM_MAX_TRIALS], ms;
  uint64_t first = 0, c = 0;
  int rc;
  if (n > 1 && (rc = trial(T, &first, &ms, &secs[0], err))) return rc; /* warm-up */
  for (unsigned t = 0; t < n; t++) {
    if ((rc = trial(T, &c, &r->trial_ms[t], &secs[t], err))) return rc;
    if (t == 0 && n == 1) first = c;
    if (c != first)
      return wm_fail(err, WM_EDEVICE, "triangles: trial %u counted %llu, the warm-up %llu", t + 1,
                     (unsigned long long)c, (unsigned long long)first);
  }
  r->count = first;
  r->trials = n > 1 ? n : 0;
  r->kernel_ms = wm_match_median(r->trial_ms, n);
  r->seconds = wm_match_median(secs, n);
  return WM_OK;
}

int wm_match_gpu_triangles(const wm_graph *g, const wm_plan *plan, const wm_match_options *o,
                           wm_match_result *r, wm_error *err) {
  (void)plan;
  tri_run *T = (tri_run *)calloc(1, sizeof *T);
  if (!T) return wm_fail(err, WM_EINPUT, "triangles: out of host memory");
  T->g = g;
  T->ndev = o->gpus > 1 ? (o->gpus < 16 ? o->gpus : 16) : 1;
  int present = 0, rc = WM_OK;
  cudaError_t e = cudaGetDeviceCount(&present);
  if (e != cudaSuccess || T->ndev > present)
    rc = wm_fail(err, WM_EDEVICE, "--gpus %d asks for more GPUs than the %d present", T->ndev,
                 e == cudaSuccess ? present : 0);
  double t0 = wm_now();
  if (!rc) rc = wm_tri_split_build(g, &T->split, err);
  for (int i = 0; !rc && i < T->ndev; i++) rc = open_dev(T, i, err);
  for (int i = 0; !rc && i < T->ndev; i++) {
    cudaError_t s = cudaSetDevice(i);
    if (s == cudaSuccess) s = cudaStreamSynchronize(T->dev[i].light);
    if (s != cudaSuccess) rc = wm_fail(err, WM_EDEVICE, "triangles: upload: %s", cudaGetErrorString(s));
  }
  r->transfer_ms = (wm_now() - t0) * 1e3;
  if (!rc) rc = run_trials(T, o, r, err);
  if (!rc) {
    r->set_ops = T->split.pairs;
    snprintf(r->launch, sizeof r->launch,
             "gpu: %dx triangle kernel (pivot hashing, ids by degree): %u light blocks x %d warps "
             "(%u-slot tables), %u heavy blocks x %d warps (%u-slot tables), %llu heavy items",
             T->ndev, T->dev[0].light_blocks, WM_TRI_LIGHT_WARPS, WM_TRI_LIGHT_SLOTS,
             T->dev[0].heavy_blocks, WM_TRI_HEAVY_WARPS, WM_TRI_HEAVY_SLOTS,
             (unsigned long long)T->split.n_items);
  }
  for (int i = 0; i < T->ndev; i++) close_dev(&T->dev[i]);
  wm_tri_split_free(&T->split);
  free(T);
  return rc;
}
