/* Exact counts past 2^64.  Motif counts grow as d^4 in a hub's degree d
 * (the 5-stars of a degree-10^6 vertex number 4.2e22), so sums that can
 * pass 2^64 are held in 128 bits with every add and multiply checked: an
 * overflow is reported, never wrapped. */
#ifndef WM_EXACT_COUNT_H
#define WM_EXACT_COUNT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

__extension__ typedef unsigned __int128 wm_u128;
__extension__ typedef __int128 wm_i128;

/* Room for any 128-bit value in decimal, with a sign and the NUL. */
#define WM_I128_CHARS 42

/* v in decimal into buf (WM_I128_CHARS bytes); returns buf. */
char *wm_u128_str(wm_u128 v, char *buf);
char *wm_i128_str(wm_i128 v, char *buf);

/* A signed 128-bit sum that remembers whether any step overflowed. */
typedef struct wm_acc {
  wm_i128 v;
  int overflow;
} wm_acc;

/* Two factors of 64 bits (nearly every one: degrees, triangles, counts
 * below 2^63) take one multiply that cannot overflow; the checked 128-bit
 * product is a sequence of several. */
static inline wm_i128 wm_mul_chk(wm_i128 a, wm_i128 b, int *overflow) {
  if (a == (int64_t)a && b == (int64_t)b) return (wm_i128)(int64_t)a * (int64_t)b;
  wm_i128 r;
  if (__builtin_mul_overflow(a, b, &r)) *overflow = 1;
  return r;
}

static inline wm_i128 wm_add_chk(wm_i128 a, wm_i128 b, int *overflow) {
  wm_i128 r;
  if (__builtin_add_overflow(a, b, &r)) *overflow = 1;
  return r;
}

static inline wm_i128 wm_sub_chk(wm_i128 a, wm_i128 b, int *overflow) {
  wm_i128 r;
  if (__builtin_sub_overflow(a, b, &r)) *overflow = 1;
  return r;
}

static inline void wm_acc_add(wm_acc *a, wm_i128 x) { a->v = wm_add_chk(a->v, x, &a->overflow); }

/* C(x, r): r = 2 for 0 <= x < 2^63, r = 3 or 4 for 0 <= x <= 2^32 (a degree,
 * a vertex's or an edge's triangles). */
static inline wm_i128 wm_choose(wm_i128 x, unsigned r) {
  if (x < (wm_i128)r) return 0;
  /* In 64 bits where the products fit: a 128-bit division is a library
   * call, a 64-bit one by a constant a multiply. */
  const uint64_t y = (uint64_t)x;
  if (r == 2 && x < ((wm_i128)1 << 32)) return (wm_i128)(y * (y - 1) / 2);
  if (r == 3 && x < ((wm_i128)1 << 21)) return (wm_i128)(y * (y - 1) * (y - 2) / 6);
  if (r == 4 && x < ((wm_i128)1 << 16)) return (wm_i128)(y * (y - 1) * (y - 2) / 6 * (y - 3) / 4);
  switch (r) {
  case 2: return x * (x - 1) / 2;
  case 3: return x * (x - 1) * (x - 2) / 6;
  default: return x * (x - 1) * (x - 2) / 6 * (x - 3) / 4;
  }
}

/* Test hook, not an interface: where the environment variable
 * WM_TEST_COUNT_START holds a decimal number N (0 <= N < 2^64), every
 * executor's total count, and every per-vertex count, starts at N instead
 * of 0 (the first process's and the first device's only), so that a small
 * graph carries a count past 2^64 through each accumulator: the GPU's
 * device words, the sums over threads, devices and processes, and the
 * per-vertex overflow checks.  0 when unset or not a number.  Read at
 * each call (an executor's run calls it once). */
uint64_t wm_count_start(void);

#ifdef __cplusplus
}
#endif
#endif
