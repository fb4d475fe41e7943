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

static _Thread_local wm_monitor *t_monitor;

wm_monitor *wm_monitor_enter(wm_monitor *m) {
  wm_monitor *previous = t_monitor;
  t_monitor = m;
  return previous;
}

void wm_monitor_leave(wm_monitor *previous) { t_monitor = previous; }

wm_monitor *wm_monitor_current(void) { return t_monitor; }

int wm_monitor_stopped(const wm_monitor *m) { return m && __atomic_load_n(&m->stop, __ATOMIC_SEQ_CST); }

int wm_interrupted(wm_error *err, const char *what) {
  return wm_fail(err, WM_EINTERRUPTED, "%s: interrupted (warpmatch_interrupt)", what);
}

void wm_progress_init(wm_progress *p, const char *label, uint64_t total, int enabled) {
  memset(p, 0, sizeof *p);
  p->label = label;
  p->total = total;
  p->start = wm_now();
  p->mon = t_monitor;
  p->line = enabled && g_mode != MODE_OFF;
  p->enabled = p->line || (enabled && p->mon && p->mon->fn);
  p->lines = g_mode == MODE_LINES;
  p->last_ms = p->lines ? -1000 : 800; /* a terminal's first line after 1 s */
  p->cb_ms = -1000;                    /* a callback hears of the phase at once */
}

int wm_progress_stopped(const wm_progress *p) {
  return p->mon && __atomic_load_n(&p->mon->stop, __ATOMIC_RELAXED);
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

/* The callback, one call at a time over every phase of the monitor's call
 * (a phase per GPU may report at once); wait: the last report of a phase. */
static void call_back(wm_progress *p, uint64_t done, int wait) {
  wm_monitor *m = p->mon;
  while (__atomic_exchange_n(&m->busy, 1, __ATOMIC_ACQUIRE))
    if (!wait) return;
  m->fn(m->user, p->label, done, p->total);
  __atomic_store_n(&m->busy, 0, __ATOMIC_RELEASE);
}

/* One thread at a time shows; the others go on.  The line and the
 * callback each at most 5 times a second. */
static void maybe_show(wm_progress *p) {
  double t = wm_now();
  int64_t ms = (int64_t)((t - p->start) * 1e3);
  int line_due = p->line && ms - __atomic_load_n(&p->last_ms, __ATOMIC_RELAXED) >= 200;
  int cb_due = p->mon && p->mon->fn && ms - __atomic_load_n(&p->cb_ms, __ATOMIC_RELAXED) >= 200;
  if (!line_due && !cb_due) return;
  if (__atomic_exchange_n(&p->busy, 1, __ATOMIC_ACQUIRE)) return;
  uint64_t done = __atomic_load_n(&p->done, __ATOMIC_RELAXED);
  if (p->line && ms - p->last_ms >= 200) {
    __atomic_store_n(&p->last_ms, ms, __ATOMIC_RELAXED);
    show(p, done, t);
  }
  if (cb_due && ms - p->cb_ms >= 200) {
    __atomic_store_n(&p->cb_ms, ms, __ATOMIC_RELAXED);
    call_back(p, done, 0);
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

/* A log gets the phase's last line; a terminal's line is cleared; a
 * callback hears the last amount. */
void wm_progress_finish(wm_progress *p) {
  if (!p->enabled) return;
  if (p->line && p->lines)
    show(p, p->done, wm_now());
  else if (p->line && p->shown)
    fprintf(stderr, "\r\033[K");
  if (p->mon && p->mon->fn) call_back(p, p->done, 1);
  p->enabled = 0;
}
