/* bfs-emu: the CUB pieces the BFS, the motif sums and the edge switching use, on the emulated threads. */
#ifndef BFS_EMU_CUB_CUH
#define BFS_EMU_CUB_CUH

#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

namespace cub {

template <class T, int BLOCK>
class BlockScan {
 public:
  struct TempStorage {
    T in[BLOCK];
    T prefix[BLOCK];
    T total;
  };
  explicit BlockScan(TempStorage &t) : t_(t) {}
  void ExclusiveSum(T input, T &output, T &aggregate) {
    unsigned tid = threadIdx.x;
    t_.in[tid] = input;
    __syncthreads();
    if (tid == 0) {
      T run = T();
      for (unsigned i = 0; i < blockDim.x; i++) {
        t_.prefix[i] = run;
        run += t_.in[i];
      }
      t_.total = run;
    }
    __syncthreads();
    output = t_.prefix[tid];
    aggregate = t_.total;
    /* like CUB, the caller must __syncthreads() before reusing t_ */
  }

 private:
  TempStorage &t_;
};

struct DeviceScan {
  template <class In, class Out, class N>
  static cudaError_t ExclusiveSum(void *tmp, size_t &bytes, In in, Out out, N n, cudaStream_t stream = 0) {
    if (!tmp) {
      bytes = 256;
      return cudaSuccess;
    }
    if (bytes < 256) return cudaErrorInvalidValue;
    /* a one-thread launch, ordered on the stream as the real scan is (a
     * device whose work the emulator holds back scans after its kernels) */
    emu_launch(emu_cfg(dim3(1), dim3(1), 0, stream), [in, out, n]() {
      auto run = decltype(+in[0])();
      for (N i = 0; i < n; i++) {
        auto x = in[i];
        out[i] = run;
        run += x;
      }
    });
    return cudaSuccess;
  }
};

/* Keys sorted whole (the callers' keys are zero outside [begin_bit, end_bit)). */
struct DeviceRadixSort {
  template <class K, class N>
  static cudaError_t SortKeys(void *tmp, size_t &bytes, const K *in, K *out, N n, int begin_bit = 0,
                              int end_bit = (int)(sizeof(K) * 8), cudaStream_t stream = 0) {
    (void)begin_bit, (void)end_bit;
    if (!tmp) {
      bytes = 256;
      return cudaSuccess;
    }
    emu_launch(emu_cfg(dim3(1), dim3(1), 0, stream), [in, out, n]() {
      for (N i = 0; i < n; i++) out[i] = in[i];
      std::sort(out, out + n);
    });
    return cudaSuccess;
  }
  /* Pairs by key, stably (as CUB's sort is). */
  template <class K, class V, class N>
  static cudaError_t SortPairs(void *tmp, size_t &bytes, const K *keys_in, K *keys_out, const V *values_in,
                               V *values_out, N n, int begin_bit = 0, int end_bit = (int)(sizeof(K) * 8),
                               cudaStream_t stream = 0) {
    (void)begin_bit, (void)end_bit;
    if (!tmp) {
      bytes = 256;
      return cudaSuccess;
    }
    emu_launch(emu_cfg(dim3(1), dim3(1), 0, stream), [keys_in, keys_out, values_in, values_out, n]() {
      std::vector<N> order(n);
      for (N i = 0; i < n; i++) order[i] = i;
      std::stable_sort(order.begin(), order.end(), [&](N a, N b) { return keys_in[a] < keys_in[b]; });
      for (N i = 0; i < n; i++) keys_out[i] = keys_in[order[i]], values_out[i] = values_in[order[i]];
    });
    return cudaSuccess;
  }
};

}  // namespace cub
#endif
