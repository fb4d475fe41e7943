/* bfs-emu: the CUB pieces the BFS and the motif sums use, on the emulated threads. */
#ifndef BFS_EMU_CUB_CUH
#define BFS_EMU_CUB_CUH

#include <cuda_runtime.h>

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

}  // namespace cub
#endif
