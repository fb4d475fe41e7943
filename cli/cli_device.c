/* The --device option of the matching and traversal commands. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int wm_cli_use_gpu(const wm_cli *cli, warpmatch_context *ctx, int *use_gpu, wm_error *err) {
  static const char *const devices[] = {"auto", "cpu", "gpu", NULL};
  int d = 0;
  int rc = wm_cli_choice(cli, "device", devices, 0, &d, err);
  if (rc) return rc;
  /* Several ranks: auto means the CPU; count, motifs and bfs take --device
   * gpu, each rank on GPUs of its own (pinned before CUDA starts). */
  if (d == 2 && wm_mpi_ranks() > 1) {
    if (strcmp(cli->command, "count") && strcmp(cli->command, "motifs") && strcmp(cli->command, "bfs"))
      return wm_fail(err, WM_EUSAGE,
                     "%s: --device gpu does not run under mpirun with more than one rank (count, motifs and "
                     "bfs do); use --device cpu, or one process with --gpus N",
                     cli->command);
    uint64_t gpus = 1;
    int rc = wm_cli_str(cli, "gpus") ? wm_cli_u64(cli, "gpus", 0, 1, WARPMATCH_MAX_GPUS, &gpus, err) : WM_OK;
    if (!rc) rc = wm_mpi_pin_gpus((unsigned)gpus, err);
    if (rc) return rc;
  }
  if (d == 2 && !warpmatch_gpu_available(ctx)) {
    if (wm_mpi_ranks() > 1)
      return wm_fail(err, WM_EDEVICE,
                     "%s: --device gpu, but this rank's GPUs (CUDA_VISIBLE_DEVICES=%s) are not usable here (or "
                     "this build has no CUDA): each rank needs GPUs of its own",
                     cli->command, getenv("CUDA_VISIBLE_DEVICES") ? getenv("CUDA_VISIBLE_DEVICES") : "");
    return wm_fail(err, WM_EDEVICE,
                   "%s: --device gpu, but no CUDA device is usable (or this build has no CUDA); use --device cpu",
                   cli->command);
  }
  *use_gpu = d == 2 || (d == 0 && wm_mpi_ranks() == 1 && warpmatch_gpu_available(ctx));
  return WM_OK;
}
