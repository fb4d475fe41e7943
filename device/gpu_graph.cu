/* A graph's CSR kept on the GPUs between calls (wm_gpu_graph, matcher.h). */
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_check.h"
#include "device.h"

/* What a device's pool keeps reserved between calls: enough for the motif
 * scratch of graphs whose calls take milliseconds (hub's is 948 MB), where
 * allocating costs as much as the kernels; a larger graph's goes back to
 * the device when its call ends. */
static const uint64_t kPoolKeepBytes = WM_GPU_GRAPH_KEEP_BYTES;

/* A buffer that a call left ready for the next (wm_gpu_graph_keep). */
struct kept {
  void *p;
  size_t bytes;
  uint64_t tag;
  unsigned uses; /* calls that took it since it was first kept */
};

/* Calls that may take one kept buffer before it goes back: a motif call
 * takes at most a few thousand stamps per warp on a graph whose scratch is
 * kept, far below their 2^31. */
static const unsigned kKeptUses = 256;

struct wm_gpu_graph {
  const wm_graph *g;
  uint32_t n; /* g's vertices and arcs, the buffers' sizes (reload: g may be gone by then) */
  uint64_t m;
  int ndev;
  void *off[WM_MAX_GPUS];
  void *adj[WM_MAX_GPUS];
  cudaMemPool_t pool[WM_MAX_GPUS]; /* NULL where the device has no memory pools */
  kept keep[WM_MAX_GPUS];          /* a cache: taken and kept under `busy` */
  int busy[WM_MAX_GPUS];
};

static void hold(const wm_gpu_graph *gg, int dev) {
  int *b = (int *)&gg->busy[dev];
  while (__atomic_exchange_n(b, 1, __ATOMIC_ACQUIRE)) {
  }
}

static void unhold(const wm_gpu_graph *gg, int dev) { __atomic_store_n((int *)&gg->busy[dev], 0, __ATOMIC_RELEASE); }

void wm_gpu_graph_destroy(wm_gpu_graph *gg) {
  if (!gg) return;
  int dev = 0;
  cudaGetDevice(&dev);
  for (int i = 0; i < gg->ndev; i++)
    if (gg->off[i] && cudaSetDevice(i) == cudaSuccess) {
      cudaFree(gg->off[i]), cudaFree(gg->adj[i]), cudaFree(gg->keep[i].p);
      if (gg->pool[i]) cudaMemPoolDestroy(gg->pool[i]); /* its memory goes once every call's is freed */
    }
  cudaSetDevice(dev);
  cudaGetLastError();
  free(gg);
}

static int upload_to(const wm_graph *g, int i, wm_gpu_graph *gg, wm_error *err) {
  const size_t off_b = ((size_t)g->n + 1) * 8, adj_b = (g->m ? g->m : 1) * 4;
  WM_CUD(i, cudaSetDevice(i));
  WM_CUD(i, cudaMalloc(&gg->off[i], off_b));
  WM_CUD(i, cudaMalloc(&gg->adj[i], adj_b));
  WM_CUD(i, cudaMemcpy(gg->off[i], g->offsets, off_b, cudaMemcpyHostToDevice));
  if (g->m) WM_CUD(i, cudaMemcpy(gg->adj[i], g->adj, (size_t)g->m * 4, cudaMemcpyHostToDevice));
  int pools = 0;
  WM_CUD(i, cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, i));
  if (pools) {
    cudaMemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = i;
    uint64_t keep = kPoolKeepBytes;
    WM_CUD(i, cudaMemPoolCreate(&gg->pool[i], &props));
    WM_CUD(i, cudaMemPoolSetAttribute(gg->pool[i], cudaMemPoolAttrReleaseThreshold, &keep));
  }
  return WM_OK;
}

int wm_gpu_graph_create(const wm_graph *g, int gpus, wm_gpu_graph **out, wm_error *err) {
  *out = NULL;
  int present = 0;
  if (cudaGetDeviceCount(&present) != cudaSuccess || present < 1) {
    cudaGetLastError();
    return wm_fail(err, WM_EDEVICE, "no CUDA device");
  }
  int ndev = 1, rc = wm_gpu_devices(gpus, &ndev, err);
  if (rc) return rc;
  if (ndev > present) return wm_fail(err, WM_EDEVICE, "%d GPUs asked for, %d present", ndev, present);
  wm_gpu_graph *gg = (wm_gpu_graph *)calloc(1, sizeof *gg);
  if (!gg) return wm_fail(err, WM_EINPUT, "out of memory");
  gg->g = g, gg->n = g->n, gg->m = g->m;
  gg->ndev = ndev;
  int dev = 0;
  cudaGetDevice(&dev);
  for (int i = 0; i < ndev && !rc; i++) rc = upload_to(g, i, gg, err);
  cudaSetDevice(dev);
  if (rc) {
    wm_gpu_graph_destroy(gg);
    return rc;
  }
  *out = gg;
  return WM_OK;
}

int wm_gpu_graph_create_on(const wm_graph *g, int dev, wm_gpu_graph **out, wm_error *err) {
  *out = NULL;
  int present = 0;
  if (cudaGetDeviceCount(&present) != cudaSuccess) cudaGetLastError(), present = 0;
  if (dev < 0 || dev >= present || dev >= WM_MAX_GPUS)
    return wm_fail(err, WM_EDEVICE, "GPU %d asked for, but this host has %d", dev, present);
  wm_gpu_graph *gg = (wm_gpu_graph *)calloc(1, sizeof *gg);
  if (!gg) return wm_fail(err, WM_EINPUT, "out of memory");
  gg->g = g, gg->n = g->n, gg->m = g->m;
  gg->ndev = dev + 1; /* the devices below hold nothing: off[i] NULL */
  int prev = 0;
  cudaGetDevice(&prev);
  const int rc = upload_to(g, dev, gg, err);
  cudaSetDevice(prev);
  if (rc) {
    wm_gpu_graph_destroy(gg);
    return rc;
  }
  *out = gg;
  return WM_OK;
}

int wm_gpu_graph_reload(wm_gpu_graph *gg, const wm_graph *g, wm_error *err) {
  if (g->n != gg->n || g->m != gg->m)
    return wm_fail(err, WM_EUSAGE, "a GPU graph of %u vertices and %llu arcs reloaded with %u and %llu", gg->n,
                   (unsigned long long)gg->m, g->n, (unsigned long long)g->m);
  int prev = 0;
  cudaGetDevice(&prev);
  gg->g = g;
  for (int i = 0; i < gg->ndev; i++) {
    if (!gg->off[i]) continue;
    WM_CUD(i, cudaSetDevice(i));
    cudaFree(gg->keep[i].p); /* a buffer left by the last graph's call: nothing of it carries over */
    gg->keep[i].p = NULL, gg->keep[i].uses = 0;
    WM_CUD(i, cudaMemcpy(gg->off[i], g->offsets, ((size_t)g->n + 1) * 8, cudaMemcpyHostToDevice));
    if (g->m) WM_CUD(i, cudaMemcpy(gg->adj[i], g->adj, (size_t)g->m * 4, cudaMemcpyHostToDevice));
  }
  cudaSetDevice(prev);
  return WM_OK;
}

void *wm_gpu_graph_pool(const wm_gpu_graph *gg, int dev) {
  return gg && dev >= 0 && dev < gg->ndev ? (void *)gg->pool[dev] : NULL;
}

int wm_gpu_graph_on(const wm_gpu_graph *gg, const wm_graph *g, int dev, void **off, void **adj) {
  if (!gg || gg->g != g || dev < 0 || dev >= gg->ndev || !gg->off[dev]) return 0; /* create_on: one device's */
  *off = gg->off[dev];
  *adj = gg->adj[dev];
  return 1;
}

void *wm_gpu_graph_take(const wm_gpu_graph *gg, int dev, size_t bytes, uint64_t tag) {
  if (!gg || dev < 0 || dev >= gg->ndev) return NULL;
  hold(gg, dev);
  kept *k = (kept *)&gg->keep[dev];
  void *p = NULL, *stale = NULL;
  if (k->p && k->bytes == bytes && k->tag == tag && k->uses < kKeptUses) p = k->p, k->uses++;
  else stale = k->p, k->uses = 0; /* another size's, or used enough: its memory goes back */
  k->p = NULL;
  unhold(gg, dev);
  if (stale) cudaFree(stale), cudaGetLastError();
  return p;
}

int wm_gpu_graph_keep(const wm_gpu_graph *gg, int dev, void *p, size_t bytes, uint64_t tag) {
  if (!gg || dev < 0 || dev >= gg->ndev || !p || bytes > kPoolKeepBytes) return 0;
  hold(gg, dev);
  kept *k = (kept *)&gg->keep[dev];
  void *stale = k->p;
  k->p = p, k->bytes = bytes, k->tag = tag;
  unhold(gg, dev);
  if (stale) cudaFree(stale), cudaGetLastError();
  return 1;
}
