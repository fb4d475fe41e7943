/* scripts/planner-judge.py, which judges the planner on orders a
 * bench-planner.sh run timed: on a small generated graph, a table of two
 * timed orders of STMatch's p1 (the order the planner takes, made to take
 * twice the other's time) must come back as that order at regret 2.00,
 * offline (`plan`, and in the train half with --split) and online
 * (`--count cpu`: counted through bench_planner.c), and a count that is
 * not the program's must fail the online judge. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "json_check.h"
#include "testutil.h"

/* The output of a shell command and its exit code. */
static int shell(const char *cmd, char *out, size_t size) {
  FILE *f = popen(cmd, "r");
  cr_assert(f, "cannot start: %s", cmd);
  size_t n = fread(out, 1, size - 1, f);
  out[n] = 0;
  const int st = pclose(f);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

typedef struct judged {
  char dir[256], csv[512], order[64];
  uint64_t count;
} judged;

/* dir/g.wmg and its p1 plan (order as "a-b-c-d-e") and count. */
static void setup_graph(judged *j) {
  wm_test_tmpdir(j->dir, sizeof j->dir);
  char *out = NULL, *err = NULL, pattern[512];
  wm_test_pattern_file(pattern, sizeof pattern, "stmatch/p1.txt");
  cr_assert_eq(wm_test_run(NULL, &err, "gen ba --vertices 400 --attach 4 --seed 4 --output %s/g.wmg", j->dir), 0,
               "%s", err);
  free(err);
  cr_assert_eq(wm_test_run(&out, &err, "plan --graph %s/g.wmg --pattern %s --json --quiet", j->dir, pattern), 0,
               "%s", err);
  const char *at = strstr(out, "\"order\":["); /* [2,0,3,4,1] */
  cr_assert(at, "no order in %s", out);
  size_t k = 0;
  for (at += 9; *at != ']' && k < 10; at++)
    if (*at >= '0' && *at <= '9') j->order[k++] = *at, j->order[k++] = '-';
  cr_assert_eq(k, 10, "order in %s", out);
  j->order[k - 1] = 0;
  free(out), free(err);
  cr_assert_eq(wm_test_run(&out, &err, "count %s/g.wmg --pattern %s --device cpu --json", j->dir, pattern), 0,
               "%s", err);
  j->count = json_u64(out, "count");
  free(out), free(err);
}

/* The timings: the planner's order 2 ms, another 1 ms, both with `count`. */
static void write_csv(judged *j, uint64_t count) {
  char text[1024];
  snprintf(text, sizeof text,
           "graph,pattern,run,order,model_cost,sampled_cost,sampled_reads,plan_ms,match_ms,ms,count,status\n"
           "g,p1,order,%s,,,,0,2.0,2.0,%llu,ok\n"
           "g,p1,order,9-9-9-9-9,,,,0,1.0,1.0,%llu,ok\n",
           j->order, (unsigned long long)count, (unsigned long long)count);
  wm_test_write(j->csv, sizeof j->csv, j->dir, "g-orders.csv", text);
}

static int judge(const judged *j, const char *how, char *out, size_t size) {
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "WM_BIN='%s' python3 '%s/scripts/planner-judge.py' --corpus '%s' %s --list '%s' 2>&1",
           WM_BIN, WM_SOURCE_DIR, j->dir, how, j->csv);
  return shell(cmd, out, size);
}

Test(planner_judge, regret_offline_and_online, .timeout = 120) {
  judged j;
  setup_graph(&j);
  write_csv(&j, j.count);
  char out[8192], want[128];
  snprintf(want, sizeof want, "p1       %-16s     2.00", j.order);
  cr_assert_eq(judge(&j, "", out, sizeof out), 0, "%s", out);
  cr_assert(strstr(out, want), "expected \"%s\" in:\n%s", want, out);
  cr_assert(strstr(out, "cells 1: within 1.25x of the best 0, unknown 0, worst 2.00x"), "%s", out);
  /* the corpus's first graph is the train half's */
  char tsv[512];
  wm_test_write(tsv, sizeof tsv, j.dir, "corpus.tsv", "name\tgenerator\ng\tgen ba\n");
  cr_assert_eq(judge(&j, "--split", out, sizeof out), 0, "%s", out);
  cr_assert(strstr(out, "train    cells   1: within 1.25x of the best 0, worst 2.00x (g)"), "%s", out);
  cr_assert(strstr(out, "test     cells   0:"), "%s", out);

  cr_assert_eq(judge(&j, "--count cpu", out, sizeof out), 0, "%s", out);
  cr_assert(strstr(out, want), "expected \"%s\" in:\n%s", want, out);
  cr_assert(strstr(out, "counts differing 0"), "%s", out);
  cr_assert(strstr(out, "planning within max(10 ms, 5%) 1"), "a count of a 400-vertex graph planned past 10 ms:\n%s",
            out);
  wm_test_rmdir(j.dir);
}

Test(planner_judge, a_wrong_count_fails_online, .timeout = 120) {
  judged j;
  setup_graph(&j);
  write_csv(&j, j.count + 1);
  char out[8192];
  cr_assert_eq(judge(&j, "--count cpu", out, sizeof out), 1, "%s", out);
  cr_assert(strstr(out, "DIFFERS from the timings'"), "%s", out);
  cr_assert(strstr(out, "counts differing 1"), "%s", out);
  wm_test_rmdir(j.dir);
}
