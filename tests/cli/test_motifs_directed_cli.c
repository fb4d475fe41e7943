/* `warpmatch motifs --directed` end to end: the table and the JSON of a
 * small directed graph whose counts are known by hand, and the usage
 * errors (size, an undirected graph, options of the undirected counts,
 * --gpus on the CPU, the GPU where there is none) and bad input, each with its exit code and message. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_check.h"
#include "testutil.h"

/* The 3-cycle 1->2->3->1, a mutual pair 3<->4 and the arc 5->4. */
static const char graph_text[] = "# directed\n1 2\n2 3\n3 1\n3 4\n4 3\n5 4\n";

static void expect(int code, const char *needle, const char *fmt, const char *path) {
  char *out, *err;
  int rc = wm_test_run(&out, &err, fmt, path);
  cr_assert_eq(rc, code, "%s -> %d (expected %d): %s", fmt, rc, code, err);
  cr_assert(strstr(err, needle), "%s: expected '%s' in: %s", fmt, needle, err);
  cr_assert_eq(out[0], '\0', "%s printed: %s", fmt, out);
  free(out), free(err);
}

Test(motifs_directed_cli, table_and_json) {
  wm_test_files f;
  wm_test_graph_file(&f, graph_text);
  char *out, *err;
  int rc = wm_test_run(&out, &err, "motifs %s --directed --size 3 --no-cache", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  /* 030C is {1,2,3}; every connected triad is listed, named and numbered as igraph does */
  cr_assert(strstr(out, "030C         11  0->2 1->0 2->1") && strstr(out, "021D") && strstr(out, "300"), "%s", out);
  cr_assert(!strstr(out, "\n003 "), "disconnected classes without --all-classes: %s", out);
  free(out), free(err);
  rc = wm_test_run(&out, &err, "motifs %s --directed --size 3 --all-classes --json --no-cache --threads 2", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(json_valid_object(out), "%s", out);
  cr_assert(strstr(out, "{\"name\":\"030C\",\"igraph_id\":11,\"arcs\":\"0->2 1->0 2->1\",\"connected\":true,"
                        "\"count\":1}"),
            "%s", out);
  /* connected triads: {1,2,3} {1,3,4} {2,3,4} {3,4,5}; {1,2,4} {1,2,5} {1,4,5} {2,4,5} have one dyad;
   * {1,3,5} {2,3,5} one too (3-1 and 2-3) */
  cr_assert(strstr(out, "{\"name\":\"003\",\"igraph_id\":0,\"arcs\":\"\",\"connected\":false,\"count\":0}"), "%s", out);
  cr_assert_eq(json_u64(out, "total"), 10, "C(5,3): %s", out);
  cr_assert_eq(json_u64(out, "arcs"), 6, "%s", out);
  free(out), free(err);
  rc = wm_test_run(&out, &err, "motifs %s --directed --size 4 --json --no-cache", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  /* weakly connected 4-sets: {1,2,3,4} {1,3,4,5} {2,3,4,5}; {1,2,3,5} is not */
  cr_assert_eq(json_u64(out, "total"), 3, "%s", out);
  cr_assert(strstr(out, "\"name\":\"d4-"), "%s", out);
  free(out), free(err);
  rc = wm_test_run(&out, &err, "motifs %s --directed --size 4 --method enumerate --json --no-cache", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert_eq(json_u64(out, "total"), 3, "%s", out);
  cr_assert(strstr(out, "enumerated (ESU)"), "%s", out);
  free(out), free(err);
  rc = wm_test_run(&out, &err, "motifs %s --directed --size 4 --all-classes --json --no-cache", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert_eq(json_u64(out, "total"), 5, "C(5,4): %s", out);
  free(out), free(err);
  wm_test_rmdir(f.dir);
}

Test(motifs_directed_cli, usage_errors_and_bad_input) {
  wm_test_files f;
  wm_test_graph_file(&f, graph_text);
  expect(2, "--size expects a whole number from 3 to 4", "motifs %s --directed --size 5 --no-cache", f.graph);
  expect(2, "--size 3|4 is required", "motifs %s --directed --no-cache", f.graph);
  expect(2, "--trials is for undirected motifs", "motifs %s --directed --size 3 --trials 3 --no-cache", f.graph);
  expect(2, "--method expects", "motifs %s --directed --size 4 --method sideways --no-cache", f.graph);
  if (!wm_gpu_available()) /* the GPU's own counts: test_gpu_motifs_directed */
    expect(3, "no CUDA device is usable", "motifs %s --directed --size 3 --device gpu --no-cache", f.graph);
  expect(2, "runs on the CPU", "motifs %s --directed --size 3 --device cpu --gpus 2 --no-cache", f.graph);
  expect(2, "--gpus expects", "motifs %s --directed --size 3 --gpus 0 --no-cache", f.graph);
  expect(2, "--gpu-blocks is for undirected motifs", "motifs %s --directed --size 3 --gpu-blocks 4 --no-cache",
         f.graph);
  expect(2, "--all-classes is for directed motifs", "motifs %s --size 3 --all-classes --no-cache", f.graph);
  /* .wmg files keep how they were written: an undirected one cannot give arcs, a directed one
     is not counted as undirected */
  char cmd[2048], und[600], dir[600];
  snprintf(und, sizeof und, "%s/und.wmg", f.dir);
  snprintf(dir, sizeof dir, "%s/dir.wmg", f.dir);
  snprintf(cmd, sizeof cmd, "convert %s %s --no-cache", f.graph, und);
  cr_assert_eq(wm_test_run(NULL, NULL, "%s", cmd), 0);
  snprintf(cmd, sizeof cmd, "convert %s %s --directed --no-cache", f.graph, dir);
  cr_assert_eq(wm_test_run(NULL, NULL, "%s", cmd), 0);
  expect(2, "holds an undirected graph", "motifs %s --directed --size 3", und);
  expect(2, "is a directed graph; count its directed motifs with --directed", "motifs %s --size 3", dir);
  char *out, *err;
  cr_assert_eq(wm_test_run(&out, &err, "motifs %s --directed --size 3 --json", dir), 0, "%s", err);
  cr_assert_eq(json_u64(out, "total"), 4, "%s", out);
  free(out), free(err);
  wm_test_files bad;
  wm_test_graph_file(&bad, "1 2\n2 x\n");
  expect(1, ":2", "motifs %s --directed --size 3 --no-cache", bad.graph);
  wm_test_rmdir(bad.dir);
  wm_test_rmdir(f.dir);
}
