/* Large host-device copies through a pinned double buffer (device.h). */
#include <cuda_runtime.h>
#include <stdlib.h>

#include "gpu_check.h"

/* A chunk: large enough that a copy's fixed cost is small beside it, small
 * enough that the first and last (not overlapped) are short. */
static const size_t kChunk = (size_t)16 << 20;

struct wm_stage {
  size_t chunk, min; /* kChunk and WM_STAGE_MIN, or the test hook's */
  char *buf;         /* 2 * chunk, pinned */
  cudaStream_t stream;
  cudaEvent_t done[2]; /* the last copy through each half */
};

void wm_stage_destroy(wm_stage *s) {
  if (!s) return;
  if (s->buf) cudaFreeHost(s->buf);
  if (s->stream) cudaStreamDestroy(s->stream);
  for (int k = 0; k < 2; k++)
    if (s->done[k]) cudaEventDestroy(s->done[k]);
  cudaGetLastError(); /* a failed create's error is not the caller's */
  free(s);
}

wm_stage *wm_stage_create(void) {
  wm_stage *s = (wm_stage *)calloc(1, sizeof *s);
  if (!s) return NULL;
  /* WM_TEST_STAGE_CHUNK=N: chunks of N bytes and every copy staged, so
   * that the tests' small graphs go through many chunks and odd ends */
  const char *hook = getenv("WM_TEST_STAGE_CHUNK");
  const long long n = hook ? atoll(hook) : 0;
  s->chunk = n > 0 ? (size_t)n : kChunk, s->min = n > 0 ? 1 : WM_STAGE_MIN;
  bool ok = cudaMallocHost(&s->buf, 2 * s->chunk) == cudaSuccess &&
            cudaStreamCreateWithFlags(&s->stream, cudaStreamNonBlocking) == cudaSuccess;
  for (int k = 0; ok && k < 2; k++) ok = cudaEventCreateWithFlags(&s->done[k], cudaEventDisableTiming) == cudaSuccess;
  if (!ok) wm_stage_destroy(s), s = NULL;
  return s;
}

static size_t chunk_len(const wm_stage *s, size_t bytes, size_t i) {
  return bytes - i * s->chunk < s->chunk ? bytes - i * s->chunk : s->chunk;
}

/* Chunk i is filled into its half on the host once the link has read
 * chunk i - 2 out of it, then sent. */
static cudaError_t up(wm_stage *s, char *dst, const char *src, size_t bytes) {
  const size_t chunks = (bytes + s->chunk - 1) / s->chunk;
  cudaError_t e = cudaSuccess;
  for (size_t i = 0; e == cudaSuccess && i < chunks; i++) {
    char *half = s->buf + (i % 2) * s->chunk;
    if (i >= 2) e = cudaEventSynchronize(s->done[i % 2]);
    if (e != cudaSuccess) break;
    wm_host_copy(half, src + i * s->chunk, chunk_len(s, bytes, i));
    e = cudaMemcpyAsync(dst + i * s->chunk, half, chunk_len(s, bytes, i), cudaMemcpyHostToDevice, s->stream);
    if (e == cudaSuccess) e = cudaEventRecord(s->done[i % 2], s->stream);
  }
  const cudaError_t last = cudaStreamSynchronize(s->stream); /* also where a chunk failed: none left reading */
  return e == cudaSuccess ? last : e;
}

/* Chunk i crosses into its half while the host copies chunk i - 1 out of
 * the other (which frees it for chunk i + 1). */
static cudaError_t down(wm_stage *s, char *dst, const char *src, size_t bytes) {
  const size_t chunks = (bytes + s->chunk - 1) / s->chunk;
  cudaError_t e = cudaSuccess;
  for (size_t i = 0; e == cudaSuccess && i <= chunks; i++) {
    if (i < chunks) {
      e = cudaMemcpyAsync(s->buf + (i % 2) * s->chunk, src + i * s->chunk, chunk_len(s, bytes, i),
                          cudaMemcpyDeviceToHost, s->stream);
      if (e == cudaSuccess) e = cudaEventRecord(s->done[i % 2], s->stream);
    }
    if (e == cudaSuccess && i >= 1) {
      e = cudaEventSynchronize(s->done[(i - 1) % 2]);
      if (e == cudaSuccess)
        wm_host_copy(dst + (i - 1) * s->chunk, s->buf + ((i - 1) % 2) * s->chunk, chunk_len(s, bytes, i - 1));
    }
  }
  if (e != cudaSuccess) cudaStreamSynchronize(s->stream); /* nothing left in flight into a freed buffer */
  return e;
}

int wm_stage_copy(wm_stage *s, void *dst, const void *src, size_t bytes, wm_copy_way way, wm_error *err) {
  const cudaMemcpyKind kind = way == WM_TO_DEVICE ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
  if (!s) {
    WM_CU(cudaMemcpy(dst, src, bytes, kind));
  } else if (bytes < s->min) { /* one copy, on the stage's stream all the same */
    WM_CU(cudaMemcpyAsync(dst, src, bytes, kind, s->stream));
    WM_CU(cudaStreamSynchronize(s->stream));
  } else {
    WM_CU(way == WM_TO_DEVICE ? up(s, (char *)dst, (const char *)src, bytes)
                              : down(s, (char *)dst, (const char *)src, bytes));
  }
  return WM_OK;
}
