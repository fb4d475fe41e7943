/* Barabasi-Albert by Batagelj and Brandes' list of endpoints: the seed is
 * a clique on vertices 0..k, then each vertex v > k attaches k edges to
 * earlier vertices, each target the endpoint at a uniform position of the
 * list of the edges before v (so chosen with probability proportional to
 * its degree).  A target v has already taken is drawn again, so every
 * vertex after the seed has exactly k distinct earlier neighbours and the
 * graph has k (k + 1) / 2 + (n - k - 1) k edges, none dropped: mean degree
 * about 2k.
 *
 * Sequential: a target depends on the targets drawn before it.  Draw a of
 * edge e is a pure function of (seed, e, a), so the graph depends on the
 * options only. */
#include <stdlib.h>

#include "gen_random.h"

static const uint64_t STREAM_BA = 0x6261ull; /* "ba" */

/* Endpoint r of the list: edge r / 2's source or target. */
static inline uint32_t endpoint(const uint32_t *src, const uint32_t *dst, uint64_t r) {
  return (r & 1) ? dst[r / 2] : src[r / 2];
}

static uint64_t seed_clique(unsigned k, uint32_t *src, uint32_t *dst) {
  uint64_t e = 0;
  for (uint32_t v = 1; v <= k; v++)
    for (uint32_t u = 0; u < v; u++, e++) {
      src[e] = v;
      dst[e] = u;
    }
  return e;
}

int wm_gen_ba(const wm_gen_model *o, wm_graph **out, wm_error *err) {
  const unsigned k = o->attach;
  const uint64_t count = wm_gen_model_drawn(o);
  uint32_t *src, *dst, *taken_by = malloc(o->n * sizeof *taken_by);
  int rc = taken_by ? wm_gen_alloc_arcs("ba", count, &src, &dst, err)
                    : wm_fail(err, WM_EINPUT, "generator ba: out of host memory for %llu vertices",
                              (unsigned long long)o->n);
  if (rc) {
    free(taken_by);
    return rc;
  }
  /* taken_by[t] = the last vertex that chose t (0 is never a chooser). */
  for (uint64_t v = 0; v < o->n; v++) taken_by[v] = 0;
  const uint64_t key = wm_gen_stream_key(o->seed, STREAM_BA);
  uint64_t e = seed_clique(k, src, dst);
  for (uint64_t v = k + 1; v < o->n; v++) {
    const uint64_t before = 2 * e; /* endpoints of the edges before v's */
    for (unsigned i = 0; i < k; i++, e++) {
      uint64_t ek = wm_gen_item_key(key, e), ctr = 0;
      uint32_t t;
      do t = endpoint(src, dst, wm_gen_below64(ek, &ctr, before));
      while (taken_by[t] == (uint32_t)v);
      taken_by[t] = (uint32_t)v;
      src[e] = (uint32_t)v;
      dst[e] = t;
    }
  }
  free(taken_by);
  return wm_gen_finish(src, dst, count, o->n, out, err);
}
