#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <time.h>

#include "base.h"

double wm_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int wm_trace_on(const char *name) {
  const char *v = getenv(name);
  return v && *v && *v != '0';
}
