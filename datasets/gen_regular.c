/* Random d-regular graph by the configuration model: vertex v owns stubs
 * v d .. v d + d - 1; the n d stubs are shuffled (Fisher-Yates, sequential:
 * one pass over 4 bytes a stub, each swap drawn from the seed's stream) and
 * consecutive stubs paired.  The self-loops and repeated edges that the
 * pairing makes are dropped, not repaired: their number is the n d / 2
 * edges drawn less the graph's edges, about (d^2 - 1) / 4 in expectation
 * whatever n, so a few vertices end below d. */
#include <stdlib.h>

#include "gen_random.h"

static const uint64_t STREAM_STUBS = 0x7374756273ull; /* "stubs" */

int wm_gen_regular(const wm_gen_model *o, wm_graph **out, wm_error *err) {
  const uint64_t stubs = o->n * o->degree, count = stubs / 2;
  uint32_t *stub = malloc(stubs * sizeof *stub);
  if (!stub)
    return wm_fail(err, WM_EINPUT, "generator regular: out of host memory for %llu stubs (needs about %llu MiB)",
                   (unsigned long long)stubs, (unsigned long long)((stubs * 12) >> 20));
#pragma omp parallel for schedule(static)
  for (int64_t s = 0; s < (int64_t)stubs; s++) stub[s] = (uint32_t)((uint64_t)s / o->degree);
  const uint64_t key = wm_gen_stream_key(o->seed, STREAM_STUBS);
  uint64_t ctr = 0;
  for (uint64_t i = stubs - 1; i > 0; i--) {
    uint64_t j = wm_gen_below64(key, &ctr, i + 1);
    uint32_t t = stub[i];
    stub[i] = stub[j];
    stub[j] = t;
  }
  uint32_t *src, *dst;
  int rc = wm_gen_alloc_arcs("regular", count, &src, &dst, err);
  if (rc) {
    free(stub);
    return rc;
  }
#pragma omp parallel for schedule(static)
  for (int64_t e = 0; e < (int64_t)count; e++) {
    src[e] = stub[2 * e];
    dst[e] = stub[2 * e + 1];
  }
  free(stub);
  return wm_gen_finish(src, dst, count, o->n, out, err);
}
