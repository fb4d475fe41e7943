/* The stop word when the build has no CUDA: never made, nothing to free. */
#include "base.h"
#include "device.h"

void wm_gpu_stop_word_free(wm_monitor *m) { (void)m; }

/* gpu_check.h's, for the BFS emulator (traversal's kernels built on the
 * host against this build): no word, so its kernels never stop early. */
int wm_gpu_stop_word(wm_monitor *m, const int **dev_word, wm_error *err);
int wm_gpu_stop_word(wm_monitor *m, const int **dev_word, wm_error *err) {
  (void)m, (void)err;
  *dev_word = NULL;
  return WM_OK;
}
