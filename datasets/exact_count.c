#include "exact_count.h"

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
