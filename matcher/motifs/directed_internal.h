/* What the directed motif counters share (directed_count.c, directed_paths.c). */
#ifndef WM_DIRECTED_INTERNAL_H
#define WM_DIRECTED_INTERNAL_H

#include "motifs_directed.h"

#ifdef __cplusplus
extern "C" {
#endif

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
/* counts[r] of the stars from each vertex's neighbour triples, once every
 * other connected class of 4 is in counts (wm_dir_paths4's second half). */
int wm_dir_stars4(const wm_dir_skeleton *s, wm_u128 *counts, wm_error *err);
/* The paths' table (directed_paths.c): entry [mask * 256 + ranks] is 1
 * when the path 0-1-2-3 of a 4-set whose skeleton is mask (pair bits
 * 0-1, 0-2, 0-3, 1-2, 1-3, 2-3) and whose ids rank as ranks (two bits a
 * position) is the set's least Hamiltonian path: the one path it is
 * counted at. */
const uint8_t *wm_dir_accept4(void);

/* The GPU's part (gpu_directed.cu; without CUDA, WM_EDEVICE): counts[r]
 * += size 3, every connected triad of row r (003 is left to the caller);
 * size 4, the connected classes but the stars, each 4-set at its least
 * Hamiltonian path as on the CPU.  Work is one item per (skeleton edge,
 * neighbour) for 3 and per 3-edge path for 4, dealt in chunks to `gpus`
 * devices in turn; *kernel_ms += the slowest device's kernel time. */
int wm_dir_gpu(const wm_dir_skeleton *s, unsigned k, int gpus, wm_u128 *counts, double *kernel_ms, wm_error *err);

#ifdef __cplusplus
}
#endif

#endif
