/* testutil.h's helpers that go through the public API (kept apart from
 * testutil.c, which the emulators build without api/ on their path). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "warpmatch.h"

warpmatch_graph *wm_test_api_graph(warpmatch_context *ctx, const wm_graph *w, int directed) {
  uint32_t *src = malloc((w->m ? w->m : 1) * sizeof *src), *dst = malloc((w->m ? w->m : 1) * sizeof *dst);
  cr_assert(src && dst);
  uint64_t k = 0;
  for (uint32_t u = 0; u < w->n; u++)
    for (uint64_t i = w->offsets[u]; i < w->offsets[u + 1]; i++) {
      if (!directed && w->adj[i] < u) continue;
      src[k] = u, dst[k] = w->adj[i], k++;
    }
  warpmatch_graph *g = NULL;
  cr_assert_eq(warpmatch_graph_from_edges(ctx, w->n, src, dst, k, directed, &g), WARPMATCH_OK, "%s",
               warpmatch_last_error(ctx));
  free(src), free(dst);
  return g;
}

warpmatch_match_result wm_test_count(warpmatch_context *ctx, const warpmatch_graph *g, const warpmatch_pattern *p,
                                     const warpmatch_match_options *o) {
  warpmatch_match_result r;
  memset(&r, 0, sizeof r);
  r.size = sizeof r;
  cr_assert_eq(warpmatch_count_ex(ctx, g, p, o, &r), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  return r;
}
