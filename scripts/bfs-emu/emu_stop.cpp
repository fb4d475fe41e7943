/* gpu_check.h's stop word for the emulators: their kernels run on the
 * host, so they read the monitor's own flag (base.h), which
 * warpmatch_interrupt sets, instead of a pinned copy of it. */
#include "base.h"

int wm_gpu_stop_word(wm_monitor *m, const int **dev_word, wm_error *err) {
  (void)err;
  *dev_word = m ? &m->stop : nullptr;
  return WM_OK;
}
