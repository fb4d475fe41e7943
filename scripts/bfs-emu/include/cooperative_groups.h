/* bfs-emu: the grid-wide barrier of cooperative groups, on the emulated
 * threads (a kernel launched with cudaLaunchCooperativeKernel). */
#ifndef BFS_EMU_COOPERATIVE_GROUPS_H
#define BFS_EMU_COOPERATIVE_GROUPS_H

#include <cuda_runtime.h>

namespace cooperative_groups {
struct grid_group {
  void sync() const { emu_grid_sync(); }
};
inline grid_group this_grid() { return grid_group(); }
}  // namespace cooperative_groups

#endif
