/* The --device choice of the traversal commands. */
#include "bfs_cli.h"
#include "matcher.h"

int wm_bfs_cli_device(const wm_cli *cli, int *use_gpu, wm_error *err) {
  static const char *const choices[] = {"auto", "cpu", "gpu", NULL};
  int which = 0;
  int rc = wm_cli_choice(cli, "device", choices, 0, &which, err);
  if (rc) return rc;
  int have = wm_gpu_available();
  if (which == 2 && !have)
    return wm_fail(err, WM_EDEVICE,
                   "%s: --device gpu, but no CUDA device is usable (or this build has no CUDA); "
                   "use --device cpu",
                   cli->command);
  *use_gpu = which == 2 || (which == 0 && have);
  return WM_OK;
}
