/* Matrix Market reader: fields, symmetry kinds, 1-based ids, header size
 * and entry count checks, unsupported variants. */
#include <criterion/criterion.h>
#include <string.h>
#include <sys/resource.h>

#include "datasets.h"
#include "testutil.h"

static char dir[256];
static void setup(void) { wm_test_tmpdir(dir, sizeof dir); }
static void teardown(void) { wm_test_rmdir(dir); }
TestSuite(mtx, .init = setup, .fini = teardown);

static int has_arc(const wm_graph *g, uint32_t u, uint32_t v) {
  for (uint64_t e = g->offsets[u]; e < g->offsets[u + 1]; e++)
    if (g->adj[e] == v) return 1;
  return 0;
}

static int read_text(const char *text, int directed, wm_graph **g, wm_error *err) {
  char path[512];
  wm_test_write(path, sizeof path, dir, "m.mtx", text);
  return wm_read_mtx(path, directed, 0, g, err);
}

static wm_graph *load(const char *text, int directed) {
  wm_graph *g = NULL;
  wm_error err;
  cr_assert_eq(read_text(text, directed, &g, &err), WM_OK, "read failed: %s", err.msg);
  return g;
}

static void expect_error(const char *text, const char *want) {
  wm_graph *g = NULL;
  wm_error err;
  cr_assert_eq(read_text(text, 0, &g, &err), WM_EINPUT, "accepted: %s", text);
  cr_assert_null(g);
  cr_assert(strstr(err.msg, "m.mtx"), "message names no file: %s", err.msg);
  cr_assert(strstr(err.msg, want), "message '%s' lacks '%s'", err.msg, want);
}

Test(mtx, pattern_general_one_based_with_isolated) {
  wm_graph *g = load("%%MatrixMarket matrix coordinate pattern general\n% comment\n%\n6 5 3\n1 2\n2 3\n3 1\n", 0);
  cr_assert_eq(g->n, 6, "n = max(rows, cols) keeps isolated vertices");
  cr_assert_eq(wm_graph_edges(g), 3);
  cr_assert(has_arc(g, 0, 1) && has_arc(g, 1, 0) && has_arc(g, 2, 0));
  cr_assert_eq(wm_degree(g, 5), 0);
  cr_assert_eq(wm_graph_file_id(g, 0), 1, "users see the file's 1-based ids");
  cr_assert_eq(wm_graph_internal_id(g, 6), 5);
  cr_assert_eq(wm_graph_internal_id(g, 0), WM_NO_VERTEX);
  wm_graph_destroy(g);
}

Test(mtx, symmetric_real_and_integer_values_ignored) {
  wm_graph *g = load("%%MatrixMarket matrix coordinate real symmetric\n4 4 4\n2 1 0.5\n3 1 -1e3\n4 3 2\n4 4 9.0\n", 0);
  cr_assert_eq(g->n, 4);
  cr_assert_eq(wm_graph_edges(g), 3, "diagonal entry is a self-loop and dropped");
  wm_graph_destroy(g);
  g = load("%%MatrixMarket MATRIX Coordinate Integer Skew-Symmetric\n3 3 2\n2 1 5\n3 2 -5\n", 0);
  cr_assert_eq(wm_graph_edges(g), 2);
  wm_graph_destroy(g);
}

Test(mtx, directed_general_and_symmetric) {
  wm_graph *g = load("%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n2 3\n", 1);
  cr_assert_eq(g->m, 2);
  cr_assert(has_arc(g, 0, 1) && !has_arc(g, 1, 0));
  wm_graph_destroy(g);
  g = load("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 2\n", 1);
  cr_assert_eq(g->m, 4, "a symmetric file stores both directions");
  cr_assert(has_arc(g, 0, 1) && has_arc(g, 1, 0));
  wm_graph_destroy(g);
}

Test(mtx, unsupported_variants) {
  expect_error("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", "array");
  expect_error("%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 2 1 0\n", "complex");
  expect_error("%%MatrixMarket matrix coordinate real hermitian\n2 2 1\n1 2 1\n", "hermitian");
  expect_error("%%MatrixMarket vector coordinate real general\n2 2 1\n1 2 1\n", "MatrixMarket");
}

Test(mtx, entry_count_and_range_checks) {
  expect_error("%%MatrixMarket matrix coordinate pattern general\n3 3 3\n1 2\n2 3\n", "declares 3");
  expect_error("%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2\n2 3\n", "m.mtx:4:");
  expect_error("%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 4\n", "outside");
  expect_error("%%MatrixMarket matrix coordinate pattern general\n3 3 1\n0 1\n", "1-based");
  expect_error("%%MatrixMarket matrix coordinate pattern general\n3 3\n1 2\n", "size line");
  expect_error("%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 x\n", "m.mtx:3: expected an entry");
  expect_error("%%MatrixMarket matrix coordinate pattern general\n3 3 0\n", "no edges");
  expect_error("%%MatrixMarket matrix coordinate pattern general\n% only comments\n", "size line");
}

/* A short file declaring 2^31 - 1 entries reserves what the file can hold,
 * not 16 GB: under a 1 GB address-space limit it is still refused for its
 * missing entries, not for memory.  Criterion runs each test in a process
 * of its own. */
Test(mtx, declared_entries_do_not_reserve_memory) {
  struct rlimit lim = {1ull << 30, 1ull << 30};
  cr_assert_eq(setrlimit(RLIMIT_AS, &lim), 0);
  wm_graph *g = NULL;
  wm_error err;
  const char *text = "%%MatrixMarket matrix coordinate pattern general\n10 10 2147483647\n2 1\n";
  cr_assert_eq(read_text(text, 0, &g, &err), WM_EINPUT);
  cr_assert(strstr(err.msg, "ends after 1 entries"), "%s", err.msg);
}

Test(mtx, auto_detected_by_content) {
  char path[512];
  wm_test_write(path, sizeof path, dir, "graph.data", "%%MatrixMarket matrix coordinate pattern symmetric\n5 5 2\n2 1\n5 4\n");
  wm_load_options o;
  wm_load_options_init(&o);
  o.use_cache = 0;
  wm_graph *g = NULL;
  wm_load_info info;
  wm_error err;
  cr_assert_eq(wm_graph_load(path, &o, &g, &info, &err), WM_OK, "%s", err.msg);
  cr_assert_eq(info.format, WM_FORMAT_MTX);
  cr_assert_eq(g->n, 5);
  wm_graph_destroy(g);
}
