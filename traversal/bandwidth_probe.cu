/* Device memory bandwidth, measured the way the BFS benchmark needs it: a
 * large device-to-device copy timed with events, counting the bytes read
 * and written, the median of several runs. */
#include <cuda_runtime.h>
#include <stdlib.h>

#include "bfs_gpu_internal.cuh"
#include "traversal.h"

namespace {

constexpr int kRuns = 7;

struct Buffers {
  void *a = nullptr, *b = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  ~Buffers() {
    if (a) cudaFree(a);
    if (b) cudaFree(b);
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
  }
};

int cmp_float(const void *x, const void *y) {
  float a = *(const float *)x, b = *(const float *)y;
  return (a > b) - (a < b);
}

}  // namespace


extern "C" int wm_gpu_bandwidth_probe(double *gbps, wm_error *err) {
  *gbps = 0;
  size_t free_b = 0, total_b = 0;
  CK(cudaMemGetInfo(&free_b, &total_b));
  /* 1 GiB each way, far beyond the L2, or a quarter of what is free */
  size_t bytes = (size_t)1 << 30;
  if (bytes > free_b / 4) bytes = free_b / 4 / 256 * 256;
  if (bytes < ((size_t)1 << 20))
    return wm_fail(err, WM_EDEVICE, "bandwidth probe: only %zu bytes of device memory free", free_b);
  Buffers B;
  CK(cudaMalloc(&B.a, bytes));
  CK(cudaMalloc(&B.b, bytes));
  CK(cudaEventCreate(&B.start));
  CK(cudaEventCreate(&B.stop));
  CK(cudaMemset(B.a, 1, bytes));
  CK(cudaMemcpy(B.b, B.a, bytes, cudaMemcpyDeviceToDevice)); /* warm-up */
  float ms[kRuns];
  for (int i = 0; i < kRuns; i++) {
    CK(cudaEventRecord(B.start, 0));
    CK(cudaMemcpyAsync(i & 1 ? B.a : B.b, i & 1 ? B.b : B.a, bytes, cudaMemcpyDeviceToDevice, 0));
    CK(cudaEventRecord(B.stop, 0));
    CK(cudaEventSynchronize(B.stop));
    CK(cudaEventElapsedTime(&ms[i], B.start, B.stop));
  }
  qsort(ms, kRuns, sizeof ms[0], cmp_float);
  float med = ms[kRuns / 2];
  if (med <= 0) return wm_fail(err, WM_EDEVICE, "bandwidth probe: the copy took no measurable time");
  *gbps = 2.0 * (double)bytes / (med * 1e-3) / 1e9;
  return WM_OK;
}
