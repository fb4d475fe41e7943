/* Grid: a W x H lattice, each vertex joined to its 4 neighbours (fewer on
 * the border), vertex (x, y) numbered y * W + x; optionally a share of
 * random shortcuts (uniform pairs), which makes it road-like: long
 * distances, low degree, a few long links.  Edge e of the lattice is
 * horizontal for e < H (W - 1), vertical after; shortcut s is a pure
 * function of (seed, s). */
#include <math.h>

#include "gen_random.h"

static const uint64_t STREAM_SHORTCUTS = 0x73686f7274ull; /* "short" */

int wm_gen_grid(const wm_gen_model *o, wm_graph **out, wm_error *err) {
  const uint64_t w = o->width, h = o->height, n = w * h;
  const uint64_t across = h * (w - 1), lattice = across + w * (h - 1);
  const uint64_t count = wm_gen_model_drawn(o);
  uint32_t *src, *dst;
  int rc = wm_gen_alloc_arcs("grid", count, &src, &dst, err);
  if (rc) return rc;
  const uint64_t key = wm_gen_stream_key(o->seed, STREAM_SHORTCUTS);
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < (int64_t)count; i++) {
    const uint64_t e = (uint64_t)i;
    uint64_t u, v;
    if (e < across) {
      u = e / (w - 1) * w + e % (w - 1);
      v = u + 1;
    } else if (e < lattice) {
      u = e - across;
      v = u + w;
    } else {
      uint64_t k = wm_gen_item_key(key, e - lattice), ctr = 0;
      u = wm_gen_below64(k, &ctr, n);
      v = wm_gen_below64(k, &ctr, n);
    }
    src[e] = (uint32_t)u;
    dst[e] = (uint32_t)v;
  }
  return wm_gen_finish(src, dst, count, n, out, err);
}
