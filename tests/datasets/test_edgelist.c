/* SNAP-style edge list reader: comments, whitespace, CRLF, extra columns,
 * sparse ids, directed input, block boundaries, and its error messages. */
#include <criterion/criterion.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datasets.h"
#include "line_reader.h"
#include "testutil.h"

static char dir[256];
static void setup(void) { wm_test_tmpdir(dir, sizeof dir); }
static void teardown(void) { wm_test_rmdir(dir); }
TestSuite(edgelist, .init = setup, .fini = teardown);

static int has_arc(const wm_graph *g, uint32_t u, uint32_t v) {
  for (uint64_t e = g->offsets[u]; e < g->offsets[u + 1]; e++)
    if (g->adj[e] == v) return 1;
  return 0;
}

static wm_graph *load_text(const char *text, int directed) {
  char path[512];
  wm_test_write(path, sizeof path, dir, "g.txt", text);
  wm_graph *g = NULL;
  wm_error err;
  int rc = wm_read_edgelist(path, directed, 0, &g, &err);
  cr_assert_eq(rc, WM_OK, "read failed: %s", err.msg);
  return g;
}

static void expect_error(const char *text, const char *want1, const char *want2) {
  char path[512];
  wm_test_write(path, sizeof path, dir, "bad.txt", text);
  wm_graph *g = NULL;
  wm_error err;
  int rc = wm_read_edgelist(path, 0, 0, &g, &err);
  cr_assert_eq(rc, WM_EINPUT, "expected an input error for %s", text);
  cr_assert_null(g);
  cr_assert(strstr(err.msg, want1), "message '%s' lacks '%s'", err.msg, want1);
  if (want2) cr_assert(strstr(err.msg, want2), "message '%s' lacks '%s'", err.msg, want2);
}

Test(edgelist, comments_blank_lines_whitespace_crlf_weights) {
  wm_graph *g = load_text("# Directed graph: x\r\n% konect style comment\n\n0 1\r\n1\t2\n  2 \t 0  \n"
                          "0 3 0.5\n3 1 7 1234567\n\t\n1 0\n2 2\n3 0",
                          0);
  cr_assert_eq(g->n, 4);
  cr_assert_eq(wm_graph_edges(g), 5, "edges 01 12 20 03 13, got %llu", (unsigned long long)wm_graph_edges(g));
  cr_assert(has_arc(g, 1, 3) && has_arc(g, 3, 1) && !has_arc(g, 2, 2));
  cr_assert_null(g->orig_ids);
  wm_graph_destroy(g);
}

Test(edgelist, sparse_ids_round_trip) {
  wm_graph *g = load_text("100 5\n5 4294967294\n70000 100\n", 0);
  cr_assert_eq(g->n, 4);
  uint32_t ids[] = {5, 100, 70000, 4294967294u};
  for (uint32_t v = 0; v < 4; v++) {
    cr_assert_eq(wm_graph_file_id(g, v), ids[v]);
    cr_assert_eq(wm_graph_internal_id(g, ids[v]), v);
  }
  cr_assert(has_arc(g, 1, 0) && has_arc(g, 2, 1) && has_arc(g, 0, 3));
  wm_graph_destroy(g);
}

Test(edgelist, directed_keeps_direction) {
  wm_graph *g = load_text("0 1\n1 2\n2 1\n1 2\n", 1);
  cr_assert_eq(g->m, 3);
  cr_assert(g->flags & WM_GRAPH_DIRECTED);
  cr_assert(has_arc(g, 0, 1) && !has_arc(g, 1, 0) && has_arc(g, 2, 1) && has_arc(g, 1, 2));
  wm_graph_destroy(g);
}

/* A file larger than the 16 MB read block, so lines straddle blocks, and a
 * line longer than a block. */
Test(edgelist, lines_across_blocks, .timeout = 60) {
  char path[512];
  snprintf(path, sizeof path, "%s/big.txt", dir);
  FILE *f = fopen(path, "wb");
  cr_assert_not_null(f);
  fputc('#', f);
  for (int i = 0; i < (17 << 20); i++) fputc('x', f);
  fputc('\n', f);
  enum { N = 1500000 };
  for (uint32_t i = 0; i < N; i++) fprintf(f, "%u\t%u\n", i, (i * 7u + 1) % N);
  fclose(f);
  wm_graph *g = NULL;
  wm_error err;
  cr_assert_eq(wm_read_edgelist(path, 1, 0, &g, &err), WM_OK, "%s", err.msg);
  cr_assert_eq(g->n, N);
  cr_assert_eq(g->m, N);
  for (uint32_t i = 0; i < N; i += 9973) cr_assert(has_arc(g, i, (i * 7u + 1) % N), "arc from %u", i);
  wm_graph_destroy(g);
}

/* A small file gets a buffer of its size, not a 16 MB block; when the file
 * grows after it was opened, the buffer grows with it, through lines longer
 * than the whole first buffer, and every line still comes back whole. */
Test(edgelist, small_file_buffer_grows) {
  char path[512];
  wm_test_write(path, sizeof path, dir, "grow.txt", "0 1\n");
  wm_lines r;
  wm_error err;
  cr_assert_eq(wm_lines_open(&r, path, 0, &err), WM_OK, "%s", err.msg);
  cr_assert_leq(r.cap, 4 + 2, "a 4-byte file got a %zu-byte buffer", r.cap);
  FILE *f = fopen(path, "ab");
  cr_assert_not_null(f);
  for (int i = 1; i <= 40; i++) {
    fprintf(f, "%d ", i);
    for (int k = 0; k < i * 7; k++) fputc('0' + k % 10, f);
    fputc('\n', f);
  }
  fclose(f);
  const char *s, *e;
  cr_assert_eq(wm_lines_next(&r, &s, &e, &err), 1);
  cr_assert_eq(e - s, 3);
  cr_assert(memcmp(s, "0 1", 3) == 0);
  for (int i = 1; i <= 40; i++) {
    char head[16];
    int hl = snprintf(head, sizeof head, "%d ", i);
    cr_assert_eq(wm_lines_next(&r, &s, &e, &err), 1, "line %d missing", i + 1);
    cr_assert_eq(e - s, hl + i * 7, "line %d has %td bytes", i + 1, e - s);
    cr_assert(memcmp(s, head, (size_t)hl) == 0 && s[hl + i * 7 - 1] == '0' + (i * 7 - 1) % 10);
  }
  cr_assert_eq(wm_lines_next(&r, &s, &e, &err), 0);
  cr_assert_gt(r.cap, 4 + 2);
  wm_lines_close(&r);
}

Test(edgelist, malformed_line_names_file_line_and_expectation) {
  expect_error("# header\n1 2\n3 abc\n", "bad.txt:3: expected two vertex ids", "'3 abc'");
  expect_error("1 2\n7\n", "bad.txt:2: expected two vertex ids", "'7'");
  expect_error("1 2\n-1 2\n", "bad.txt:2:", "'-1 2'");
  expect_error("1 2x\n", "bad.txt:1:", "'1 2x'");
  expect_error("1,,2\n", "bad.txt:1:", "'1,,2'"); /* one comma separates (CSV), two leave a field empty */
}

Test(edgelist, id_above_limit_names_line) {
  expect_error("1 2\n4294967295 3\n", "bad.txt:2:", "4294967295");
  expect_error("1 99999999999999999999999\n", "bad.txt:1:", "above the largest");
}

Test(edgelist, empty_graph_is_an_error) {
  expect_error("# nothing here\n\n% still nothing\n", "no edges", NULL);
  expect_error("", "no edges", NULL);
}

Test(edgelist, missing_file_and_directory) {
  wm_graph *g = NULL;
  wm_error err;
  char path[512];
  snprintf(path, sizeof path, "%s/absent.txt", dir);
  cr_assert_eq(wm_read_edgelist(path, 0, 0, &g, &err), WM_EINPUT);
  cr_assert(strstr(err.msg, "absent.txt") && strstr(err.msg, "cannot open"), "%s", err.msg);
  cr_assert_eq(wm_read_edgelist(dir, 0, 0, &g, &err), WM_EINPUT);
  cr_assert(strstr(err.msg, "directory"), "%s", err.msg);
}

/* Big enough for the parallel parser: the line number of an error deep in
 * the file, and the graph itself, must not depend on the thread count. */
Test(edgelist, parallel_parse_line_numbers_and_order, .timeout = 60) {
  char path[512];
  snprintf(path, sizeof path, "%s/par.txt", dir);
  enum { LINES = 400000, BAD = 234567 };
  for (int pass = 0; pass < 2; pass++) {
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    for (uint32_t i = 1; i <= LINES; i++) {
      if (pass == 1 && i == BAD) fputs("12 x13\n", f);
      else if (i % 1000 == 0) fputs("# comment\n", f);
      else fprintf(f, "%u %u\n", i * 2654435761u % 100000, (i * 40503u + 7) % 100000);
    }
    fclose(f);
    wm_graph *ref = NULL;
    for (int threads = 1; threads <= 5; threads += 2) {
      omp_set_num_threads(threads);
      wm_graph *g = NULL;
      wm_error err;
      int rc = wm_read_edgelist(path, 0, 0, &g, &err);
      if (pass == 1) {
        cr_assert_eq(rc, WM_EINPUT);
        cr_assert(strstr(err.msg, "par.txt:234567: expected two vertex ids, got '12 x13'"),
                  "%d threads: %s", threads, err.msg);
        continue;
      }
      cr_assert_eq(rc, WM_OK, "%s", err.msg);
      if (!ref) {
        ref = g;
        continue;
      }
      cr_assert_eq(g->n, ref->n);
      cr_assert_eq(g->m, ref->m);
      cr_assert(memcmp(g->adj, ref->adj, g->m * 4) == 0, "%d threads gave another graph", threads);
      cr_assert_eq(!g->orig_ids, !ref->orig_ids);
      if (g->orig_ids) cr_assert(memcmp(g->orig_ids, ref->orig_ids, g->n * 4ull) == 0);
      wm_graph_destroy(g);
    }
    wm_graph_destroy(ref);
  }
}
