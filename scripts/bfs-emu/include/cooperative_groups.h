/* bfs-emu: the grid-wide barrier of cooperative groups, on the emulated
 * threads (a kernel launched with cudaLaunchCooperativeKernel), and a
 * cluster's barrier and distributed shared memory. */
#ifndef BFS_EMU_COOPERATIVE_GROUPS_H
#define BFS_EMU_COOPERATIVE_GROUPS_H

#include <cuda_runtime.h>

namespace cooperative_groups {
struct grid_group {
  void sync() const { emu_grid_sync(); }
};
inline grid_group this_grid() { return grid_group(); }
/* A cluster launch (cudaLaunchKernelEx) runs as one cluster of the whole
 * grid, its blocks interleaved: its barrier is the grid's, and a block's
 * view of another's shared memory is that block's dynamic shared memory
 * at the same offset. */
struct cluster_group {
  void sync() const { emu_grid_sync(); }
  unsigned num_blocks() const { return gridDim.x; }
  unsigned block_rank() const { return blockIdx.x; }
  template <class T> T *map_shared_rank(T *p, unsigned rank) const {
    return (T *)emu_map_shared_rank((void *)p, rank);
  }
};
inline cluster_group this_cluster() { return cluster_group(); }
}  // namespace cooperative_groups

#endif
