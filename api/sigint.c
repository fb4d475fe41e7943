/* warpmatch_catch_sigint: SIGINT interrupts a context's calls for a while.
 *
 * A binding whose interpreter handles Ctrl-C between its own steps (Python)
 * cannot see it while a C call runs on that thread; without this it would
 * run every call on a second thread and wait for it, which costs each small
 * call two thread wake-ups.  The handler does what warpmatch_interrupt does
 * (atomic stores, async-signal-safe) and notes the signal, so the binding
 * can hand it to its own handler once the call has returned. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <string.h>

#include "api_internal.h"

/* One catch at a time in the process: a signal has one handler. */
static warpmatch_context *volatile caught_for;
static volatile sig_atomic_t caught;
static struct sigaction saved;
static int active, installed;

static void on_sigint(int sig) {
  (void)sig;
  caught = 1;
  warpmatch_interrupt(caught_for, 1);
}

static int start(warpmatch_context *ctx) {
  if (active)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "warpmatch_catch_sigint: a catch is active already (one at a time)");
  if (sigaction(SIGINT, NULL, &saved))
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "warpmatch_catch_sigint: cannot read SIGINT's handler");
  caught = 0;
  caught_for = ctx;
  active = 1;
  installed = 0;
  if (saved.sa_handler == SIG_IGN) return WARPMATCH_OK; /* ignored stays ignored */
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  if (sigaction(SIGINT, &sa, NULL)) {
    active = 0;
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "warpmatch_catch_sigint: cannot set SIGINT's handler");
  }
  installed = 1;
  return WARPMATCH_OK;
}

static void finish(int *got) {
  if (installed) sigaction(SIGINT, &saved, NULL);
  if (got) *got = active && caught;
  active = installed = 0;
  caught = 0;
  caught_for = NULL;
}

int warpmatch_catch_sigint(warpmatch_context *ctx, int on, int *got) {
  if (!ctx) return WARPMATCH_EUSAGE;
  if (on) return start(ctx);
  if (active && caught_for != ctx)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "warpmatch_catch_sigint: the active catch is another context's");
  finish(got);
  return WARPMATCH_OK;
}
