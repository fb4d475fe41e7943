/* A graph relabelled by the degree order (ascending, ties by index), rows
 * sorted: a vertex's neighbours below it are a prefix of its row and those
 * above it the rest, so that walks that go only upward or downward (the
 * orbits' aggregates, the 5-cycles) read a hub's row from one side. */
#ifndef WM_ORBIT_RANKED_H
#define WM_ORBIT_RANKED_H

#include "datasets.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wm_orbit_ranked {
  uint32_t n;
  uint32_t *old;     /* rank -> g's vertex */
  uint64_t *offsets; /* n + 1 */
  uint64_t *up;      /* n: where row r's neighbours above r start */
  uint32_t *adj;     /* the rows, ascending */
  uint32_t *from;    /* with from: per arc r -> s, where g's arc old(r) -> old(s) lies in old(r)'s row */
  const uint64_t *g_offsets;
} wm_orbit_ranked;

/* g by rank into r (from only where with_from: the way back to g's arcs);
 * -1 out of memory, r then freed. */
int wm_orbit_ranked_init(const wm_graph *g, int with_from, wm_orbit_ranked *r);
void wm_orbit_ranked_free(wm_orbit_ranked *r);
/* The first row of thread t's share (of T) of the arcs of the rows offsets
 * holds (n rows; n for t = T, whatever the rounding). */
uint32_t wm_orbit_share_start(const uint64_t *offsets, uint32_t n, int t, int T);

#ifdef __cplusplus
}
#endif

#endif
