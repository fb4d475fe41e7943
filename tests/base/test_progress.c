/* The progress line on stderr: each long phase names itself and reaches
 * 100% (WM_PROGRESS=1 shows every update as a line, for logs), and nothing
 * is printed under --json, --quiet, WM_PROGRESS=0 or when stderr is not a
 * terminal. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static char dir[256], graph[512];

static void setup(void) {
  wm_test_tmpdir(dir, sizeof dir);
  snprintf(graph, sizeof graph, "%s/k10.wmg", dir);
  char *out, *err;
  cr_assert_eq(wm_test_run(&out, &err, "gen kron --scale 10 --seed 3 --output '%s'", graph), 0, "%s", err);
  free(out), free(err);
}

static void teardown(void) { wm_test_rmdir(dir); }

TestSuite(progress, .init = setup, .fini = teardown);

/* stderr of the command with WM_PROGRESS set as given (NULL: unset). */
static char *stderr_of(const char *mode, const char *args) {
  if (mode)
    setenv("WM_PROGRESS", mode, 1);
  else
    unsetenv("WM_PROGRESS");
  char *out, *err;
  int rc = wm_test_run(&out, &err, "%s", args);
  cr_assert_eq(rc, 0, "%s: %s", args, err);
  free(out);
  return err;
}

static void expect_done(const char *err, const char *phase) {
  char want[128];
  snprintf(want, sizeof want, "%s: 100%%", phase);
  cr_assert(strstr(err, want), "no '%s' in stderr:\n%s", want, err);
}

Test(progress, generation_reaches_100) {
  char args[1024];
  snprintf(args, sizeof args, "gen rmat --scale 12 --seed 1 --output '%s/r.wmg'", dir);
  char *err = stderr_of("1", args);
  expect_done(err, "generating edges");
  free(err);
}

Test(progress, cpu_counting_reaches_100) {
  char args[1024];
  snprintf(args, sizeof args, "count '%s' --pattern triangle --device cpu", graph);
  char *err = stderr_of("1", args);
  expect_done(err, "counting");
  free(err);
}

Test(progress, motifs_name_their_phases) {
  char args[1024];
  snprintf(args, sizeof args, "motifs '%s' --size 4 --device cpu", graph);
  char *err = stderr_of("1", args);
  expect_done(err, "motif sums"); /* the 4-cliques too, in the sums' last pass */
  free(err);
  snprintf(args, sizeof args, "motifs '%s' --size 3 --device cpu", graph);
  err = stderr_of("1", args);
  expect_done(err, "motif sums");
  expect_done(err, "triangle"); /* the class enumerated beside the formula */
  free(err);
  snprintf(args, sizeof args, "motifs '%s' --size 3 --device cpu --method enumerate", graph);
  err = stderr_of("1", args);
  expect_done(err, "triangle");
  free(err);
}

Test(progress, multi_root_bfs_counts_searches) {
  char args[1024];
  snprintf(args, sizeof args, "bfs '%s' --sources 4 --device cpu", graph);
  char *err = stderr_of("1", args);
  expect_done(err, "searches");
  free(err);
}

Test(progress, silent_under_json_quiet_and_off) {
  const char *how[][2] = {{"1", "--json"}, {"1", "--quiet"}, {"0", ""}, {NULL, ""}};
  for (size_t i = 0; i < sizeof how / sizeof how[0]; i++) {
    char args[1024];
    snprintf(args, sizeof args, "motifs '%s' --size 4 --device cpu %s", graph, how[i][1]);
    char *err = stderr_of(how[i][0], args);
    cr_assert_str_empty(err, "WM_PROGRESS=%s %s printed:\n%s", how[i][0] ? how[i][0] : "(unset)", how[i][1], err);
    free(err);
  }
}
