/* What the directed motif counters share (directed_count.c, directed_paths.c). */
#ifndef WM_DIRECTED_INTERNAL_H
#define WM_DIRECTED_INTERNAL_H

#include "motifs_directed.h"

/* The undirected skeleton: row v holds every u with an arc v->u or u->v,
 * ascending, and dir's bit 0 says v->u, bit 1 u->v. */
typedef struct wm_dir_skeleton {
  uint32_t n;
  uint64_t *off;
  uint32_t *nbr;
  uint8_t *dir;
} wm_dir_skeleton;

/* A pair's dir (bits as a skeleton row's, for the pair's first vertex i)
 * as arc bits on k vertices. */
static inline unsigned wm_dir_pair_code(unsigned k, unsigned i, unsigned j, unsigned d) {
  return ((d & 1) << wm_dir_arc_bit(k, i, j)) | ((d >> 1 & 1) << wm_dir_arc_bit(k, j, i));
}

/* The progress line's units: a vertex and its skeleton row. */
static inline uint64_t wm_dir_units(const wm_dir_skeleton *s, int64_t v) { return s->off[v + 1] - s->off[v] + 1; }

/* counts[r] += the connected 4-vertex classes' counts, the stars by the
 * relation of directed_paths.c and the others from their Hamiltonian
 * paths. */
int wm_dir_paths4(const wm_dir_skeleton *s, wm_u128 *counts, wm_error *err);

#endif
