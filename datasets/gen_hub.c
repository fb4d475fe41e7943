/* Hub: vertex 0 joined to exactly round(h (n - 1)) of the others, chosen
 * uniformly (selection sampling, sequential: one pass, one draw a vertex),
 * over a sparse tail of round((n - 1) d / 2) uniform random edges among
 * vertices 1..n-1 (parallel, edge e a pure function of (seed, e)).  The
 * hub's degree is therefore exact; the tail's mean degree is d less the
 * few duplicates dropped. */
#include <math.h>

#include "gen_random.h"

static const uint64_t STREAM_HUB = 0x687562ull;    /* "hub" */
static const uint64_t STREAM_TAIL = 0x7461696cull; /* "tail" */

/* Knuth's algorithm S: vertex v in 1..n-1 is taken with probability
 * (wanted - taken) / (vertices left), which gives every subset of the
 * wanted size the same chance. */
static void choose_spokes(const wm_gen_model *o, uint64_t wanted, uint32_t *src, uint32_t *dst) {
  const uint64_t key = wm_gen_stream_key(o->seed, STREAM_HUB);
  uint64_t taken = 0;
  for (uint64_t v = 1; v < o->n && taken < wanted; v++) {
    uint64_t ctr = 0;
    if (wm_gen_below64(wm_gen_item_key(key, v), &ctr, o->n - v) < wanted - taken) {
      src[taken] = 0;
      dst[taken] = (uint32_t)v;
      taken++;
    }
  }
}

int wm_gen_hub(const wm_gen_model *o, wm_graph **out, wm_error *err) {
  const uint64_t spokes = (uint64_t)llround(o->hub_fraction * (double)(o->n - 1));
  const uint64_t count = wm_gen_model_drawn(o), tail = count - spokes;
  uint32_t *src, *dst;
  int rc = wm_gen_alloc_arcs("hub", count, &src, &dst, err);
  if (rc) return rc;
  choose_spokes(o, spokes, src, dst);
  const uint64_t key = wm_gen_stream_key(o->seed, STREAM_TAIL), others = o->n - 1;
#pragma omp parallel for schedule(static)
  for (int64_t e = 0; e < (int64_t)tail; e++) {
    uint64_t k = wm_gen_item_key(key, (uint64_t)e), ctr = 0;
    src[spokes + e] = (uint32_t)(1 + wm_gen_below64(k, &ctr, others));
    dst[spokes + e] = (uint32_t)(1 + wm_gen_below64(k, &ctr, others));
  }
  return wm_gen_finish(src, dst, count, o->n, out, err);
}
