/* What the 5-vertex non-induced counts need to share their heavy loops
 * with other processes (MPI ranks, wm_share in matcher.h): the agreement
 * on how each shared step ended, and exact sums of what the processes
 * made.  Every process calls these in the same order, whatever its own
 * work gave, so that none waits in a collective the others never enter. */
#ifndef WM_ORBIT_SHARE5_H
#define WM_ORBIT_SHARE5_H

#include <stdint.h>

#include "matcher.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The result every process returns after a shared step, from each one's
 * own rc (its message in err): WM_EINTERRUPTED where any process was
 * interrupted, else this process's error where it failed, else an error
 * saying another process failed, else WM_OK.  what names the call. */
int wm_o5s_agree(const wm_share *s, int rc, const char *what, wm_error *err);

/* Sums over the processes of arrays whose every word only one process
 * wrote (the others hold zeros): plain 64-bit sums are then exact, and so
 * are the words of wider values and structs.  Non-zero on an MPI error. */
int wm_o5s_sum_owned(const wm_share *s, void *a, uint64_t bytes);

/* a[i] becomes the sum over the processes of a[i], modulo 2^64, each
 * added exactly (by its 32-bit halves): where carry is not NULL, carry[i]
 * gets the 2^64s of the total added; else *over is set where a total
 * passes 2^64 - 1.  *over also ends set on every process where it was on
 * any.  Non-zero on an MPI error. */
int wm_o5s_sum_exact(const wm_share *s, uint64_t *a, uint64_t n, int64_t *carry, int *over);

#ifdef __cplusplus
}
#endif

#endif
