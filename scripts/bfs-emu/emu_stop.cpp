/* gpu_check.h's stop record for the emulators: their kernels run on the
 * host, so the record's word is the monitor's own flag (base.h), which
 * warpmatch_interrupt sets, instead of a pinned copy of it.  One record
 * for the process: an emulated call runs alone, and nothing is allocated
 * that the no-CUDA library's wm_gpu_stop_word_free would have to free. */
#include "base.h"
#include "gpu_check.h"

static wm_stop record;

int wm_gpu_stop_word(wm_monitor *m, wm_stop **dev_stop, wm_error *err) {
  (void)err;
  *dev_stop = nullptr;
  if (!m) return WM_OK;
  record = wm_stop{&m->stop, 0, 0, 0};
  *dev_stop = &record;
  return WM_OK;
}
