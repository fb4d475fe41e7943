/* Pieces the bfs and reach commands share (not part of the public API). */
#ifndef WM_BFS_CLI_H
#define WM_BFS_CLI_H

#include "cli.h"
#include "traversal.h"

/* Option spec entry of --device, and its reading: auto picks the GPU when
 * one is usable; gpu without one is WM_EDEVICE (exit 3). */
#define WM_BFS_DEVICE_OPTSPEC \
  {"device", "auto|cpu|gpu", "where to search (default auto: the GPU when one is usable)"}
int wm_bfs_cli_device(const wm_cli *cli, int *use_gpu, wm_error *err);

#endif
