/* The --device option of the matching and traversal commands. */
#include "cli.h"

int wm_cli_use_gpu(const wm_cli *cli, warpmatch_context *ctx, int *use_gpu, wm_error *err) {
  static const char *const devices[] = {"auto", "cpu", "gpu", NULL};
  int d = 0;
  int rc = wm_cli_choice(cli, "device", devices, 0, &d, err);
  if (rc) return rc;
  /* Several ranks share work on the CPU only; auto then means the CPU. */
  if (d == 2 && wm_mpi_ranks() > 1)
    return wm_fail(err, WM_EUSAGE, "%s: --device gpu does not run under mpirun with more than one rank; use --device cpu",
                   cli->command);
  if (d == 2 && !warpmatch_gpu_available(ctx))
    return wm_fail(err, WM_EDEVICE,
                   "%s: --device gpu, but no CUDA device is usable (or this build has no CUDA); use --device cpu",
                   cli->command);
  *use_gpu = d == 2 || (d == 0 && wm_mpi_ranks() == 1 && warpmatch_gpu_available(ctx));
  return WM_OK;
}
