#include <unistd.h>

#include "cli.h"

void wm_progress_init(wm_progress *p, const char *label, uint64_t total, int enabled) {
  p->label = label;
  p->total = total;
  p->start = p->last = wm_now();
  p->enabled = enabled && isatty(STDERR_FILENO);
  p->shown = 0;
}

void wm_progress_update(wm_progress *p, uint64_t done) {
  if (!p->enabled) return;
  double t = wm_now();
  if (t - p->last < 0.2) return;
  p->last = t;
  p->shown = 1;
  double mb = done / 1e6, rate = mb / (t - p->start);
  if (p->total)
    fprintf(stderr, "\r%s: %.1f / %.1f MB (%.0f%%, %.0f MB/s)   ", p->label, mb, p->total / 1e6,
            100.0 * done / p->total, rate);
  else
    fprintf(stderr, "\r%s: %.1f MB (%.0f MB/s)   ", p->label, mb, rate);
}

void wm_progress_finish(wm_progress *p) {
  if (p->enabled && p->shown) fprintf(stderr, "\r\033[K");
}
