#include "exact_count.h"

#include <errno.h>
#include <stdlib.h>

char *wm_u128_str(wm_u128 v, char *buf) {
  char tmp[WM_I128_CHARS];
  int n = 0;
  do {
    tmp[n++] = (char)('0' + (int)(v % 10));
    v /= 10;
  } while (v);
  for (int i = 0; i < n; i++) buf[i] = tmp[n - 1 - i];
  buf[n] = '\0';
  return buf;
}

char *wm_i128_str(wm_i128 v, char *buf) {
  if (v >= 0) return wm_u128_str((wm_u128)v, buf);
  buf[0] = '-';
  wm_u128_str((wm_u128)0 - (wm_u128)v, buf + 1);
  return buf;
}

uint64_t wm_count_start(void) {
  const char *s = getenv("WM_TEST_COUNT_START");
  if (!s || *s < '0' || *s > '9') return 0;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  return errno || *end ? 0 : (uint64_t)v;
}
