/* Enumerated counts past 2^64 on the CPU executor, exact end to end: a
 * 4-star on a star of 5,000,000 leaves (C(n, 3) = 2.08e19, counted by the
 * plan's pairs in O(n)), plain, as embeddings and labeled, through the
 * library and the program (text and JSON), against the formula and
 * against C(n, 3) in 128 bits.  Paths too slow to pass 2^64 on a real
 * graph here (vertex-induced, per-vertex counts, trials) run under the
 * test hook WM_TEST_COUNT_START (exact_count.h), whose totals start near
 * 2^64; a per-vertex count that would pass 2^64 - 1 is an error naming
 * the vertex. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exact_count.h"
#include "matcher.h"
#include "testutil.h"

#define LEAVES 5000000u

static wm_u128 choose3(wm_u128 n) { return n * (n - 1) * (n - 2) / 6; }

/* Vertex 0 joined to 1..leaves. */
static wm_graph *star(uint32_t leaves) {
  uint32_t *src = malloc((size_t)leaves * 4), *dst = malloc((size_t)leaves * 4);
  cr_assert(src && dst);
  for (uint32_t i = 0; i < leaves; i++) src[i] = 0, dst[i] = i + 1;
  return wm_test_graph_of_arcs(leaves + 1, src, dst, leaves);
}

/* The same star as an edge-list file in dir. */
static void star_file(char *path, size_t size, const char *dir, uint32_t leaves) {
  snprintf(path, size, "%s/star.txt", dir);
  FILE *f = fopen(path, "w");
  cr_assert(f != NULL);
  for (uint32_t i = 1; i <= leaves; i++) fprintf(f, "0 %u\n", i);
  cr_assert_eq(fclose(f), 0);
}

static wm_u128 count_star(const wm_graph *g, int embeddings, int induced) {
  wm_pattern p;
  wm_error err;
  cr_assert_eq(wm_pattern_from_name("4-star", &p, &err), WM_OK, "%s", err.msg);
  wm_plan_options po;
  wm_plan_options_init(&po);
  po.embeddings = embeddings;
  po.induced = induced;
  wm_plan plan;
  cr_assert_eq(wm_plan_build(&p, NULL, &po, &plan, &err), WM_OK, "%s", err.msg);
  wm_match_options o;
  wm_match_options_init(&o);
  o.threads = 2;
  wm_match_result r;
  cr_assert_eq(wm_match_cpu(g, &plan, &o, &r, &err), WM_OK, "%s", err.msg);
  return r.count;
}

Test(exact, cpu_executor_star_past_2_64, .timeout = 300) {
  wm_graph *g = star(LEAVES);
  const wm_u128 want = choose3(LEAVES);
  cr_assert_gt(want >> 64, 0, "the case must pass 2^64");
  char a[WM_I128_CHARS], b[WM_I128_CHARS];
  wm_u128 got = count_star(g, 0, 0);
  cr_assert(got == want, "4-stars: %s, C(n, 3) = %s", wm_u128_str(got, a), wm_u128_str(want, b));
  got = count_star(g, 1, 0);
  cr_assert(got == 6 * want, "4-star embeddings: %s, 6 C(n, 3) = %s", wm_u128_str(got, a),
            wm_u128_str(6 * want, b));
  wm_graph_destroy(g);
}

/* stdout's line "count      N" as a number. */
static wm_u128 printed_count(const char *out) {
  const char *at = strstr(out, "count      ");
  cr_assert(at != NULL, "no count line in:\n%s", out);
  wm_u128 v = 0;
  for (at += 11; *at >= '0' && *at <= '9'; at++) v = v * 10 + (wm_u128)(*at - '0');
  return v;
}

Test(exact, cli_star_past_2_64_text_json_labels, .timeout = 600) {
  char dir[256], graph[512], pat[512], lab[512], want_s[WM_I128_CHARS], want6[WM_I128_CHARS], key[80];
  wm_test_tmpdir(dir, sizeof dir);
  star_file(graph, sizeof graph, dir, LEAVES);
  wm_test_write(pat, sizeof pat, dir, "lstar.txt", "# a 4-star whose centre has label 1\n0 1\n0 2\n0 3\nv 0 1\n");
  wm_test_write(lab, sizeof lab, dir, "labels.txt", "0 1\n");
  const wm_u128 want = choose3(LEAVES);
  wm_u128_str(want, want_s);
  wm_u128_str(6 * want, want6);
  char labeled[1100];
  snprintf(labeled, sizeof labeled, "--pattern %s --labels %s", pat, lab);
  char *out = NULL;
  const char *runs[][2] = {{"--pattern 4-star --method enumerate", want_s},
                           {"--pattern 4-star --method formula", want_s},
                           {"--pattern 4-star --embeddings", want6},
                           {labeled, want_s}};
  for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
    const char *args = runs[i][0];
    cr_assert_eq(wm_test_run(&out, NULL, "count %s %s --quiet", graph, args), 0, "%s", args);
    char got[WM_I128_CHARS];
    cr_assert_str_eq(wm_u128_str(printed_count(out), got), runs[i][1], "%s:\n%s", args, out);
    free(out);
    cr_assert_eq(wm_test_run(&out, NULL, "count %s %s --quiet --json", graph, args), 0, "%s --json", args);
    snprintf(key, sizeof key, "\"count\":%s,", runs[i][1]);
    cr_assert(strstr(out, key) != NULL, "%s --json: no %s in\n%s", args, key, out);
    free(out);
  }
  wm_test_rmdir(dir);
}

/* The test hook's start near 2^64 on a small star: vertex-induced counts
 * (O(n^2) set operations: no real hub here passes 2^64) and trials. */
Test(exact, hook_induced_and_trials_carry_past_2_64) {
  const uint64_t start = UINT64_MAX - 100; /* C(60, 3) = 34220 more passes 2^64 */
  char s[32];
  snprintf(s, sizeof s, "%llu", (unsigned long long)start);
  cr_assert_eq(setenv("WM_TEST_COUNT_START", s, 1), 0);
  wm_graph *g = star(60);
  char a[WM_I128_CHARS], b[WM_I128_CHARS];
  const wm_u128 want = (wm_u128)start + choose3(60);
  wm_u128 got = count_star(g, 0, 1);
  cr_assert(got == want, "induced: %s, want %s", wm_u128_str(got, a), wm_u128_str(want, b));
  got = count_star(g, 1, 0);
  cr_assert(got == (wm_u128)start + 6 * choose3(60), "embeddings: %s", wm_u128_str(got, a));
  wm_graph_destroy(g);

  wm_test_files f;
  char text[2048] = "";
  for (unsigned i = 1; i <= 60; i++) snprintf(text + strlen(text), sizeof text - strlen(text), "0 %u\n", i);
  wm_test_graph_file(&f, text);
  char *out = NULL;
  const char *args[] = {"--induced --method enumerate --threads 2", "--method enumerate --trials 3",
                        "--induced --method enumerate --json"};
  for (size_t i = 0; i < 3; i++) {
    cr_assert_eq(wm_test_run(&out, NULL, "count %s --pattern 4-star %s --quiet", f.graph, args[i]), 0, "%s", args[i]);
    wm_u128_str(want, b);
    cr_assert(strstr(out, b) != NULL, "%s: no %s in\n%s", args[i], b, out);
    free(out);
  }
  wm_test_rmdir(f.dir);
}

/* A per-vertex count that would pass 2^64 - 1 fails, naming the vertex
 * (a file id of the triangle), with nothing on stdout; one that reaches
 * 2^64 - 1 exactly is printed. */
Test(exact, per_vertex_past_2_64_is_an_error) {
  wm_test_files f;
  wm_test_graph_file(&f, "10 20\n20 30\n30 10\n30 40\n");
  char *out = NULL, *err = NULL;
  cr_assert_eq(setenv("WM_TEST_COUNT_START", "18446744073709551614", 1), 0); /* 2^64 - 2 */
  cr_assert_eq(wm_test_run(&out, &err, "count %s --pattern triangle --per-vertex --quiet", f.graph), 0, "%s", err);
  cr_assert(strstr(out, "\n10 18446744073709551615\n") && strstr(out, "\n40 18446744073709551614"), "%s", out);
  free(out), free(err);
  cr_assert_eq(setenv("WM_TEST_COUNT_START", "18446744073709551615", 1), 0); /* 2^64 - 1 */
  cr_assert_eq(wm_test_run(&out, &err, "count %s --pattern triangle --per-vertex --quiet", f.graph), 1, "%s", out);
  cr_assert_str_eq(out, "");
  const char *v = strstr(err, "per-vertex counts: vertex ");
  cr_assert(v != NULL, "%s", err);
  v += strlen("per-vertex counts: vertex ");
  cr_assert(strncmp(v, "10'", 3) == 0 || strncmp(v, "20'", 3) == 0 || strncmp(v, "30'", 3) == 0, "%s", err);
  cr_assert(strstr(err, "passes 2^64 - 1") != NULL, "%s", err);
  free(out), free(err);
  wm_test_rmdir(f.dir);
}
