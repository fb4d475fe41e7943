/* count --trials N (GAP-style timing) on the CPU: an untimed warm-up and N
 * timed runs, the same count as a plain run, N per-trial times in --json,
 * "median of N" in the text; bad values and --per-vertex are usage errors
 * that name the option; N = 1 prints exactly what a plain run prints. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_check.h"
#include "testutil.h"

/* K6 on file ids 1..6 (20 triangles) and a tail 6-7-8. */
static const char graph_text[] =
    "1 2\n1 3\n1 4\n1 5\n1 6\n2 3\n2 4\n2 5\n2 6\n3 4\n3 5\n3 6\n4 5\n4 6\n5 6\n6 7\n7 8\n";

/* Numbers in the JSON array `key`; each must be a time >= 0. */
static unsigned json_array_len(const char *json, const char *key) {
  char pat[64];
  snprintf(pat, sizeof pat, "\"%s\":[", key);
  const char *p = strstr(json, pat);
  cr_assert_not_null(p, "no array %s in %s", key, json);
  p += strlen(pat);
  unsigned n = 0;
  while (*p && *p != ']') {
    char *end;
    double v = strtod(p, &end);
    cr_assert(end != p && v >= 0, "bad %s entry at '%.20s'", key, p);
    n++;
    p = *end == ',' ? end + 1 : end;
  }
  cr_assert_eq(*p, ']', "%s not closed: %s", key, json);
  return n;
}

Test(count_trials, cpu_json_reports_each_trial) {
  wm_test_files f;
  wm_test_graph_file(&f, graph_text);
  char *out, *err;
  int rc = wm_test_run(&out, &err, "count %s --pattern triangle --device cpu --json --no-cache", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  uint64_t plain = json_u64(out, "count");
  cr_assert_eq(plain, 20, "K6 has 20 triangles: %s", out);
  cr_assert_null(strstr(out, "\"trials\""), "a plain run has no trials key: %s", out);
  free(out), free(err);
  rc = wm_test_run(&out, &err, "count %s --pattern triangle --device cpu --trials 3 --json --no-cache", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(json_valid_object(out), "not one JSON object: %s", out);
  cr_assert_eq(json_u64(out, "count"), plain, "%s", out);
  cr_assert_eq(json_u64(out, "trials"), 3, "%s", out);
  cr_assert_eq(json_array_len(out, "trial_ms"), 3, "%s", out);
  free(out), free(err);
  wm_test_rmdir(f.dir);
}

Test(count_trials, cpu_text_says_median) {
  wm_test_files f;
  wm_test_graph_file(&f, graph_text);
  char *out, *err;
  int rc = wm_test_run(&out, &err, "count %s --pattern 4-clique --device cpu --trials 4 --no-cache", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(strstr(out, "count      15\n"), "C(6,4) = 15 4-cliques: %s", out);
  const char *line = strstr(out, "trials     median of 4");
  cr_assert_not_null(line, "%s", out);
  unsigned times = 0;
  for (const char *p = strstr(line, "ms:"); p && *p && *p != '\n'; p++) times += *p == ' ';
  cr_assert_eq(times, 4, "one time per trial on the trials line: %s", out);
  free(out), free(err);
  /* --trials 1 is a plain run: no trials line. */
  rc = wm_test_run(&out, &err, "count %s --pattern 4-clique --device cpu --trials 1 --no-cache", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert_null(strstr(out, "trials"), "%s", out);
  cr_assert_null(strstr(out, "median"), "%s", out);
  free(out), free(err);
  wm_test_rmdir(f.dir);
}

/* Checked before the graph is loaded: a missing graph still gives exit 2. */
Test(count_trials, bad_values_are_usage_errors) {
  wm_test_files f;
  wm_test_graph_file(&f, graph_text);
  static const char *const bad[] = {"0", "abc", "1001", "-3", "2x"};
  char *out, *err;
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    int rc = wm_test_run(&out, &err, "count %s/missing.txt --pattern triangle --device cpu --trials %s", f.dir,
                         bad[i]);
    cr_assert_eq(rc, 2, "--trials %s: exit %d, %s", bad[i], rc, err);
    cr_assert(strstr(err, "--trials"), "--trials %s: the message names the option: %s", bad[i], err);
    free(out), free(err);
  }
  int rc = wm_test_run(&out, &err, "count %s --pattern triangle --device cpu --trials 2 --per-vertex --no-cache",
                       f.graph);
  cr_assert_eq(rc, 2, "--per-vertex with --trials 2: exit %d", rc);
  cr_assert(strstr(err, "--trials") && strstr(err, "--per-vertex"), "%s", err);
  free(out), free(err);
  rc = wm_test_run(&out, &err, "list %s --pattern triangle --device cpu --trials 2 --no-cache", f.graph);
  cr_assert_eq(rc, 2, "list takes no --trials: exit %d", rc);
  free(out), free(err);
  rc = wm_test_run(&out, &err, "count --help");
  cr_assert_eq(rc, 0);
  cr_assert(strstr(out, "--trials"), "the help lists --trials (the benchmark script looks): %s", out);
  free(out), free(err);
  wm_test_rmdir(f.dir);
}
