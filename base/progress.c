/* The progress line (cli.h). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base.h"

enum { MODE_OFF, MODE_TERMINAL, MODE_LINES };
static int g_mode = MODE_OFF;

void wm_progress_choose(int silent) {
  const char *env = getenv("WM_PROGRESS");
  if (silent || (env && strcmp(env, "0") == 0))
    g_mode = MODE_OFF;
  else if (env && strcmp(env, "1") == 0)
    g_mode = MODE_LINES;
  else
    g_mode = isatty(STDERR_FILENO) ? MODE_TERMINAL : MODE_OFF;
}

void wm_progress_init(wm_progress *p, const char *label, uint64_t total, int enabled) {
  memset(p, 0, sizeof *p);
  p->label = label;
  p->total = total;
  p->start = wm_now();
  p->enabled = enabled && g_mode != MODE_OFF;
  p->lines = g_mode == MODE_LINES;
  p->last_ms = p->lines ? -1000 : 800; /* a terminal's first line after 1 s */
}

static void show(wm_progress *p, uint64_t done, double t) {
  char amount[64] = "";
  if (p->bytes)
    snprintf(amount, sizeof amount, " %.1f MB", done / 1e6);
  else if (!p->total && done)
    snprintf(amount, sizeof amount, " %llu", (unsigned long long)done);
  char pct[16] = "";
  if (p->total) snprintf(pct, sizeof pct, " %3.0f%%", 100.0 * (done < p->total ? done : p->total) / p->total);
  fprintf(stderr, p->lines ? "%s:%s%s %.1f s\n" : "\r%s:%s%s %.1f s   ", p->label, pct, amount, t - p->start);
  fflush(stderr);
  p->shown = 1;
}

/* One thread at a time shows; the others go on. */
static void maybe_show(wm_progress *p) {
  double t = wm_now();
  int64_t ms = (int64_t)((t - p->start) * 1e3);
  if (ms - __atomic_load_n(&p->last_ms, __ATOMIC_RELAXED) < 200) return;
  if (__atomic_exchange_n(&p->busy, 1, __ATOMIC_ACQUIRE)) return;
  if (ms - p->last_ms >= 200) {
    __atomic_store_n(&p->last_ms, ms, __ATOMIC_RELAXED);
    show(p, __atomic_load_n(&p->done, __ATOMIC_RELAXED), t);
  }
  __atomic_store_n(&p->busy, 0, __ATOMIC_RELEASE);
}

void wm_progress_update(wm_progress *p, uint64_t done) {
  if (!p->enabled) return;
  __atomic_store_n(&p->done, done, __ATOMIC_RELAXED);
  maybe_show(p);
}

void wm_progress_add(wm_progress *p, uint64_t n) {
  if (!p->enabled) return;
  __atomic_fetch_add(&p->done, n, __ATOMIC_RELAXED);
  maybe_show(p);
}

/* A log gets the phase's last line; a terminal's line is cleared. */
void wm_progress_finish(wm_progress *p) {
  if (!p->enabled) return;
  if (p->lines)
    show(p, p->done, wm_now());
  else if (p->shown)
    fprintf(stderr, "\r\033[K");
  p->enabled = 0;
}
