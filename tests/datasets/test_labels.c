/* Vertex label files: file ids mapped to internal ids, defaults, errors. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "datasets.h"
#include "testutil.h"

static char dir[256];
static void setup(void) { wm_test_tmpdir(dir, sizeof dir); }
static void teardown(void) { wm_test_rmdir(dir); }
TestSuite(labels, .init = setup, .fini = teardown);

static wm_graph *sparse_graph(void) {
  uint32_t s[] = {10, 20, 30}, d[] = {20, 30, 40};
  wm_graph *g = NULL;
  wm_error err;
  cr_assert_eq(wm_graph_from_arcs(s, d, 3, 0, 0, &g, &err), WM_OK);
  return g;
}

Test(labels, file_ids_comments_and_default_zero) {
  wm_graph *g = sparse_graph();
  char path[512];
  wm_test_write(path, sizeof path, dir, "l.txt", "# id label\n40 7\r\n\n10\t3\n% c\n30 2147483647\n");
  int32_t *lab = NULL;
  wm_error err;
  cr_assert_eq(wm_read_labels(path, g, &lab, &err), WM_OK, "%s", err.msg);
  cr_assert_eq(lab[wm_graph_internal_id(g, 10)], 3);
  cr_assert_eq(lab[wm_graph_internal_id(g, 20)], 0, "unlisted vertices get label 0");
  cr_assert_eq(lab[wm_graph_internal_id(g, 30)], 2147483647);
  cr_assert_eq(lab[wm_graph_internal_id(g, 40)], 7);
  free(lab);
  wm_graph_destroy(g);
}

static void expect_error(const char *text, const char *want) {
  wm_graph *g = sparse_graph();
  char path[512];
  wm_test_write(path, sizeof path, dir, "bad.txt", text);
  int32_t *lab = NULL;
  wm_error err;
  cr_assert_eq(wm_read_labels(path, g, &lab, &err), WM_EINPUT, "accepted: %s", text);
  cr_assert_null(lab);
  cr_assert(strstr(err.msg, want), "message '%s' lacks '%s'", err.msg, want);
  wm_graph_destroy(g);
}

Test(labels, errors_name_file_and_line) {
  expect_error("10 1\n20 x\n", "bad.txt:2: expected 'vertex-id label'");
  expect_error("10 1\n20 2147483648\n", "bad.txt:2:");
  expect_error("10 1 5\n", "bad.txt:1:");
  expect_error("10 1\n11 2\n", "bad.txt:2: vertex 11 is not in the graph");
  expect_error("10 1\n10 2\n", "bad.txt:2: vertex 10 was already given label 1");
  expect_error("10 -1\n", "bad.txt:1:");
}
