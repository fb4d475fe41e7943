/* The progress line of the GPU paths (WM_PROGRESS=1: every update a line):
 * the stack kernel's level-0 share read beside the running kernel, the
 * dedicated kernels' time, and the GPU motif sums' steps; the counts stay
 * those of a silent run. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static char dir[256], graph[512];

static void setup(void) {
  wm_test_tmpdir(dir, sizeof dir);
  snprintf(graph, sizeof graph, "%s/k12.wmg", dir);
  char *out, *err;
  cr_assert_eq(wm_test_run(&out, &err, "gen kron --scale 12 --seed 5 --output '%s'", graph), 0, "%s", err);
  free(out), free(err);
}

static void teardown(void) { wm_test_rmdir(dir); }

TestSuite(gpu_progress, .init = setup, .fini = teardown);

/* Runs `args` with progress lines and silent: stderr holds `want` only in
 * the first, --json silences it, and the counts agree. */
static void check(const char *args, const char *want) {
  char *loud_out, *loud_err, *quiet_out, *quiet_err;
  setenv("WM_PROGRESS", "1", 1);
  int rc = wm_test_run(&loud_out, &loud_err, "%s --json", args);
  cr_assert_eq(rc, 0, "%s: %s", args, loud_err);
  cr_assert_str_empty(loud_err, "%s --json printed progress:\n%s", args, loud_err);
  free(loud_out), free(loud_err);
  rc = wm_test_run(&loud_out, &loud_err, "%s", args);
  cr_assert_eq(rc, 0, "%s: %s", args, loud_err);
  cr_assert(strstr(loud_err, want), "%s: no '%s' in stderr:\n%s", args, want, loud_err);
  setenv("WM_PROGRESS", "0", 1);
  rc = wm_test_run(&quiet_out, &quiet_err, "%s", args);
  cr_assert_eq(rc, 0, "%s: %s", args, quiet_err);
  /* Everything above the times: the graph, the pattern and the counts. */
  const char *a = strstr(loud_out, "\ntime"), *b = strstr(quiet_out, "\ntime");
  cr_assert(a && b, "%s: no time line in\n%s", args, loud_out);
  cr_assert(a - loud_out == b - quiet_out && strncmp(loud_out, quiet_out, (size_t)(a - loud_out)) == 0,
            "%s: the counts differ:\n%s\n%s", args, loud_out, quiet_out);
  free(loud_out), free(loud_err), free(quiet_out), free(quiet_err);
}

Test(gpu_progress, stack_kernel_reaches_100) {
  char args[1024];
  snprintf(args, sizeof args, "count '%s' --pattern house --method enumerate --device gpu", graph);
  check(args, "counting: 100%");
}

Test(gpu_progress, dedicated_kernels_show_time) {
  char args[1024];
  snprintf(args, sizeof args, "count '%s' --pattern 4-clique --method enumerate --device gpu", graph);
  check(args, "counting:");
}

Test(gpu_progress, motif_sums_reach_100) {
  char args[1024];
  for (int k = 4; k <= 5; k++) {
    snprintf(args, sizeof args, "motifs '%s' --size %d --device gpu", graph, k);
    check(args, "motif sums: 100%");
  }
}
