/* A CPU count's default team is cut to the threads its work can use
 * (issue 46: a small call paid for waking every core): a 6-vertex count
 * runs on one thread, a Kronecker scale 14 count on several where the
 * context has several, an explicit warpmatch_set_threads is taken as
 * given, and the counts do not depend on it. */
#include <criterion/criterion.h>
#include <stdio.h>

#include "testutil.h"
#include "warpmatch.h"

/* The threads the count's launch line names ("cpu: N threads, ..."), and
 * its count. */
static int threads_of(warpmatch_context *ctx, const warpmatch_graph *g, uint64_t *count) {
  warpmatch_pattern *p = NULL;
  cr_assert_eq(warpmatch_pattern_create(ctx, "triangle", &p), WARPMATCH_OK);
  warpmatch_match_options o;
  warpmatch_match_options_init(&o);
  o.count.device = WARPMATCH_DEVICE_CPU;
  o.count.method = WARPMATCH_METHOD_ENUMERATE;
  const warpmatch_match_result r = wm_test_count(ctx, g, p, &o);
  warpmatch_pattern_destroy(p);
  int threads = 0;
  cr_assert_eq(sscanf(r.launch, "cpu: %d threads", &threads), 1, "launch: %s", r.launch);
  *count = r.count.count;
  return threads;
}

Test(cpu_threads, small_calls_run_on_one_thread) {
  warpmatch_context *ctx = NULL;
  cr_assert_eq(warpmatch_context_create(&ctx), WARPMATCH_OK);
  /* two triangles sharing vertex 2 */
  const uint32_t src[] = {0, 1, 2, 2, 3, 4}, dst[] = {1, 2, 0, 3, 4, 2};
  warpmatch_graph *small = NULL;
  cr_assert_eq(warpmatch_graph_from_edges(ctx, 5, src, dst, 6, 0, &small), WARPMATCH_OK);
  uint64_t count = 0;
  cr_assert_eq(threads_of(ctx, small, &count), 1);
  cr_assert_eq(count, 2);
  cr_assert_eq(warpmatch_set_threads(ctx, 2), WARPMATCH_OK);
  cr_assert_eq(threads_of(ctx, small, &count), 2, "an explicit team is the caller's");
  cr_assert_eq(count, 2);

  cr_assert_eq(warpmatch_set_threads(ctx, 0), WARPMATCH_OK);
  warpmatch_gen_options go;
  warpmatch_gen_options_init(&go, WARPMATCH_GEN_KRON, 14, 1);
  warpmatch_graph *big = NULL;
  cr_assert_eq(warpmatch_generate(ctx, &go, &big), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  uint64_t by_default = 0, by_one = 0;
  const int all = warpmatch_threads(ctx), used = threads_of(ctx, big, &by_default);
  cr_assert(used <= all && (all == 1 || used > 1), "%d of %d threads on a count of millions of reads", used, all);
  cr_assert_eq(warpmatch_set_threads(ctx, 1), WARPMATCH_OK);
  cr_assert_eq(threads_of(ctx, big, &by_one), 1);
  cr_assert_eq(by_default, by_one);
  warpmatch_graph_destroy(big);
  warpmatch_graph_destroy(small);
  warpmatch_context_destroy(ctx);
}
