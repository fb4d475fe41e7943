/* main() of every GPU suite: without a usable CUDA device the whole suite
 * exits 77, which ctest (SKIP_RETURN_CODE) reports as Skipped, never Passed.
 * So does a suite whose every case skipped itself (cr_skip: a host with one
 * GPU for a suite that needs two); where only some did, it says how many. */
#include <criterion/criterion.h>
#include <criterion/hooks.h>
#include <stdio.h>

#include "matcher.h"

static size_t cases, skipped;

ReportHook(POST_ALL)(struct criterion_global_stats *stats) {
  cases = stats->nb_tests;
  skipped = stats->tests_skipped;
}

int main(int argc, char *argv[]) {
  if (!wm_gpu_available()) {
    printf("SKIPPED: no CUDA device (or built without CUDA)\n");
    return 77;
  }
  struct criterion_test_set *tests = criterion_initialize();
  int result = 0;
  if (criterion_handle_args(argc, argv, true)) result = !criterion_run_all_tests(tests);
  criterion_finalize(tests);
  if (result == 0 && skipped > 0) {
    printf("SKIPPED: %zu of %zu cases (--verbose names each and why)\n", skipped, cases);
    if (skipped == cases) return 77;
  }
  return result;
}
