/* main() of every GPU suite: without a usable CUDA device the whole suite
 * exits 77, which ctest (SKIP_RETURN_CODE) reports as Skipped, never Passed. */
#include <criterion/criterion.h>
#include <stdio.h>

#include "matcher.h"

int main(int argc, char *argv[]) {
  if (!wm_gpu_available()) {
    printf("SKIPPED: no CUDA device (or built without CUDA)\n");
    return 77;
  }
  struct criterion_test_set *tests = criterion_initialize();
  int result = 0;
  if (criterion_handle_args(argc, argv, true)) result = !criterion_run_all_tests(tests);
  criterion_finalize(tests);
  return result;
}
