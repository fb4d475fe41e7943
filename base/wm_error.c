#include "wm_error.h"

#include <stdarg.h>
#include <stdio.h>

int wm_fail(wm_error *err, int code, const char *fmt, ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    err->code = code;
  }
  return code;
}

void wm_error_clear(wm_error *err) {
  if (err) {
    err->code = WM_OK;
    err->msg[0] = '\0';
  }
}
