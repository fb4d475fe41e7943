/* device: what every GPU driver shares (the matcher's executors and the
 * traversal's searches): device discovery, the graph kept on the GPUs
 * between calls, the number of devices one call drives, and the stand-ins
 * of a build without CUDA.  CUDA C++ callers also have gpu_check.h (checked
 * CUDA calls, the hold kernel, the wait with a progress line) and
 * gpu_count.cuh (exact 128-bit counters on the device). */
#ifndef WM_DEVICE_H
#define WM_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include "datasets.h"
#include "wm_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most GPUs one call drives: every GPU driver's per-device tables
 * (matcher/stack, dag, motifs, device/gpu_graph.cu,
 * traversal) are sized by it, and the
 * public WARPMATCH_MAX_GPUS is it (api/ asserts so).  The API and the
 * command line refuse more before a driver is reached. */
#define WM_MAX_GPUS 16

/* The devices a GPU driver opens for o->gpus: 1 for 0 or 1, else gpus.
 * Above WM_MAX_GPUS (the API refuses that first: only a module caller can
 * get here) WM_EUSAGE naming the limit, where the drivers used to cut it
 * to 16 silently. */
int wm_gpu_devices(int gpus, int *ndev, wm_error *err);

/* 1 when a CUDA device is usable (and the build has CUDA), else 0. */
int wm_gpu_available(void);
/* The CUDA devices usable (0 without CUDA): the most --gpus can ask for. */
int wm_gpu_count(void);
/* Makes CUDA device dev the calling thread's current device: the drivers
 * that run on one device run there (the motif sums and the directed census
 * on the current device, the executors on wm_match_options.gpu_first).
 * WM_EDEVICE naming dev when it is not one of this host's (or without CUDA). */
int wm_gpu_select(int dev, wm_error *err);
/* A graph's CSR kept on GPUs 0..gpus-1 for many GPU calls on it (the
 * library's context keeps one): the stack kernel, the dedicated kernels
 * and the motif sums read it where wm_match_options.gpu_graph names it,
 * instead of uploading g per call.  g must outlive it. */
typedef struct wm_gpu_graph wm_gpu_graph;
int wm_gpu_graph_create(const wm_graph *g, int gpus, wm_gpu_graph **out, wm_error *err);
void wm_gpu_graph_destroy(wm_gpu_graph *gg);
/* The same on device dev alone (gg then holds nothing on the others), for
 * a thread that counts many graphs there; reload points it at another
 * graph of as many vertices and arcs (else WM_EUSAGE), copying that one's
 * CSR into the same device buffers and dropping any kept buffer, so that a
 * run of graphs reuses one upload's memory and the device's pool. */
int wm_gpu_graph_create_on(const wm_graph *g, int dev, wm_gpu_graph **out, wm_error *err);
int wm_gpu_graph_reload(wm_gpu_graph *gg, const wm_graph *g, wm_error *err);
/* 1 with *off and *adj (device pointers) when gg holds g on device dev. */
int wm_gpu_graph_on(const wm_gpu_graph *gg, const wm_graph *g, int dev, void **off, void **adj);
/* gg's memory pool on device dev (a cudaMemPool_t), or NULL: the motif
 * sums on gg take their buffers from it, and it keeps up to 2 GiB of them
 * reserved between calls, until gg is destroyed. */
void *wm_gpu_graph_pool(const wm_gpu_graph *gg, int dev);
/* What gg keeps between calls on a device: its pool's reserve, and the
 * largest buffer wm_gpu_graph_keep takes. */
#define WM_GPU_GRAPH_KEEP_BYTES (2ull << 30)
/* A device buffer of up to WM_GPU_GRAPH_KEEP_BYTES that a call leaves with gg, in a state its
 * next call of the same kind can use as it is (the motif sums' scratch:
 * zeroed where it must be, each warp's stamps above its marks), so that
 * the next call need not clear it.  keep hands p (bytes long, tagged with
 * what it holds) to gg, freeing any buffer kept before, and returns 1; or
 * 0 where gg does not keep it (then the caller frees p).  take returns the
 * kept buffer where its bytes and tag match, and gives it up to the
 * caller; else NULL, and one kept of another size or tag is freed.  A
 * buffer goes back after 256 takes.  Both are safe from several threads. */
void *wm_gpu_graph_take(const wm_gpu_graph *gg, int dev, size_t bytes, uint64_t tag);
int wm_gpu_graph_keep(const wm_gpu_graph *gg, int dev, void *p, size_t bytes, uint64_t tag);

/* Frees the GPUs' stop word of monitor m (wm_gpu_stop_word, gpu_check.h),
 * when it has one: with the context that owns m. */
struct wm_monitor;
void wm_gpu_stop_word_free(struct wm_monitor *m);

/* Large copies between pageable host memory and the current device at the
 * link's speed.  The driver stages a pageable copy through a small pinned
 * buffer of its own, one thread faulting in a fresh destination page by
 * page, several times slower for gigabytes.  A stage is a
 * pinned double buffer and a stream of its own for the copies of one
 * batch, not ordered after the default stream's work (so that a copy can
 * run beside a kernel): the caller copies what it has waited for.  The
 * host's side of each chunk goes through every OpenMP thread
 * (wm_host_copy) while the other chunk crosses the link; copies below
 * WM_STAGE_MIN go whole on the stage's stream.  Through a NULL stage
 * (creating one may fail, as pinning can) a copy is a plain cudaMemcpy.
 * Each copy returns once its data is in place; a failure is WM_EDEVICE
 * (without CUDA, always). */
#define WM_STAGE_MIN ((size_t)32 << 20)
typedef struct wm_stage wm_stage;
typedef enum { WM_TO_DEVICE, WM_TO_HOST } wm_copy_way;
wm_stage *wm_stage_create(void); /* NULL where the pinned buffer or the stream cannot be had */
void wm_stage_destroy(wm_stage *s);
int wm_stage_copy(wm_stage *s, void *dst, const void *src, size_t bytes, wm_copy_way way, wm_error *err);

/* dst = src, n bytes, copied by the host's OpenMP threads in equal parts
 * where n is large: a fresh destination's pages are then faulted in by all
 * of them at once, not one after another (host_copy.c). */
void wm_host_copy(void *dst, const void *src, size_t n);

#ifdef __cplusplus
}
#endif
#endif
