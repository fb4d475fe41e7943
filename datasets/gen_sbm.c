/* Stochastic block model: c communities of consecutive ids, sizes n/c
 * rounded down or up; round(n d_in / 2) edges inside communities (a
 * uniform vertex, then a uniform vertex of its community) and round(n
 * d_out / 2) across (a uniform vertex, then a uniform vertex outside its
 * community).  Edge e is a pure function of (seed, e).  Duplicates are
 * dropped, so very dense communities lose some of d_in. */
#include <math.h>

#include "gen_random.h"

static const uint64_t STREAM_SBM = 0x73626dull; /* "sbm" */

/* Community b is [first(b), first(b + 1)). */
static uint64_t first(uint64_t b, uint64_t n, uint64_t c) { return (uint64_t)((wm_u128)b * n / c); }
/* The largest b with first(b) <= v. */
static uint64_t community(uint64_t v, uint64_t n, uint64_t c) { return (uint64_t)(((wm_u128)(v + 1) * c - 1) / n); }

int wm_gen_sbm(const wm_gen_model *o, wm_graph **out, wm_error *err) {
  const uint64_t n = o->n, c = o->communities;
  const uint64_t inside = (uint64_t)llround((double)n * o->degree_in / 2);
  const uint64_t count = wm_gen_model_drawn(o);
  uint32_t *src, *dst;
  int rc = wm_gen_alloc_arcs("sbm", count, &src, &dst, err);
  if (rc) return rc;
  const uint64_t key = wm_gen_stream_key(o->seed, STREAM_SBM);
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < (int64_t)count; i++) {
    uint64_t k = wm_gen_item_key(key, (uint64_t)i), ctr = 0;
    const uint64_t u = wm_gen_below64(k, &ctr, n), b = community(u, n, c);
    const uint64_t lo = first(b, n, c), size = first(b + 1, n, c) - lo;
    uint64_t v;
    if ((uint64_t)i < inside) {
      v = lo + wm_gen_below64(k, &ctr, size);
    } else {
      v = wm_gen_below64(k, &ctr, n - size);
      if (v >= lo) v += size;
    }
    src[i] = (uint32_t)u;
    dst[i] = (uint32_t)v;
  }
  return wm_gen_finish(src, dst, count, n, out, err);
}
