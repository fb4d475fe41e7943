/* The .wmg binary format: round trip, and every way a file can be bad
 * (truncated, flipped byte, bad magic, bad version, structurally invalid
 * with correct checksums). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "datasets.h"
#include "testutil.h"

static char dir[256];
static void setup(void) { wm_test_tmpdir(dir, sizeof dir); }
static void teardown(void) { wm_test_rmdir(dir); }
TestSuite(wmg, .init = setup, .fini = teardown);

static unsigned char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  cr_assert_not_null(f);
  fseek(f, 0, SEEK_END);
  *len = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *b = malloc(*len + 1);
  cr_assert_eq(fread(b, 1, *len, f), *len);
  fclose(f);
  return b;
}

static void spit(const char *path, const unsigned char *b, size_t len) {
  FILE *f = fopen(path, "wb");
  cr_assert_not_null(f);
  cr_assert_eq(fwrite(b, 1, len, f), len);
  fclose(f);
}

static void same_graph(const wm_graph *a, const wm_graph *b) {
  cr_assert_eq(a->n, b->n);
  cr_assert_eq(a->m, b->m);
  cr_assert_eq(a->flags, b->flags);
  cr_assert(memcmp(a->offsets, b->offsets, (a->n + 1) * sizeof *a->offsets) == 0);
  cr_assert(memcmp(a->adj, b->adj, a->m * sizeof *a->adj) == 0);
  cr_assert_eq(!a->orig_ids, !b->orig_ids);
  if (a->orig_ids) cr_assert(memcmp(a->orig_ids, b->orig_ids, a->n * sizeof *a->orig_ids) == 0);
}

/* Writes a small graph with sparse ids (so orig_ids is stored) to path. */
static wm_graph *write_sample(const char *path, uint64_t key) {
  uint32_t s[] = {10, 20, 30, 10, 40}, d[] = {20, 30, 10, 50, 10};
  wm_graph *g = NULL;
  wm_error err;
  cr_assert_eq(wm_graph_from_arcs(s, d, 5, 0, 0, &g, &err), WM_OK);
  cr_assert_eq(wm_write_wmg(g, path, key, &err), WM_OK, "%s", err.msg);
  return g;
}

static void expect_bad(const char *path, const char *want) {
  wm_graph *g = NULL;
  wm_error err;
  cr_assert_eq(wm_read_wmg(path, &g, NULL, &err), WM_EINPUT, "accepted a bad file");
  cr_assert_null(g);
  cr_assert(strstr(err.msg, path), "message names no file: %s", err.msg);
  cr_assert(strstr(err.msg, want), "message '%s' lacks '%s'", err.msg, want);
}

/* Recomputes both hashes so a test reaches the structural checks. */
static void fix_hashes(unsigned char *b, size_t len) {
  uint64_t ph = XXH3_64bits(b + 64, len - 64); /* one 64 MiB chunk */
  ph = XXH3_64bits(&ph, 8);
  memcpy(b + 48, &ph, 8);
  uint64_t hh = XXH3_64bits(b, 56);
  memcpy(b + 56, &hh, 8);
}

Test(wmg, round_trip_with_ids_and_key) {
  char path[512];
  snprintf(path, sizeof path, "%s/g.wmg", dir);
  wm_graph *g = write_sample(path, 0x1234abcdull);
  wm_graph *h = NULL;
  uint64_t key = 0;
  wm_error err;
  cr_assert_eq(wm_read_wmg(path, &h, &key, &err), WM_OK, "%s", err.msg);
  same_graph(g, h);
  cr_assert_eq(key, 0x1234abcdull);
  cr_assert_eq(wm_graph_internal_id(h, 50), 4);
  wm_graph_destroy(h);
  wm_graph_destroy(g);
}

Test(wmg, round_trip_directed_and_random) {
  char path[512];
  snprintf(path, sizeof path, "%s/r.wmg", dir);
  wm_graph *g = wm_test_powerlaw(300, 8, 3, 0.3, 5);
  wm_error err;
  cr_assert_eq(wm_write_wmg(g, path, 0, &err), WM_OK);
  wm_graph *h = NULL;
  cr_assert_eq(wm_read_wmg(path, &h, NULL, &err), WM_OK, "%s", err.msg);
  same_graph(g, h);
  wm_graph_destroy(h);
  wm_graph *o = NULL;
  cr_assert_eq(wm_graph_orient_by_degree(g, &o, &err), WM_OK);
  cr_assert_eq(wm_write_wmg(o, path, 0, &err), WM_OK);
  cr_assert_eq(wm_read_wmg(path, &h, NULL, &err), WM_OK, "%s", err.msg);
  same_graph(o, h);
  wm_graph_destroy(h);
  wm_graph_destroy(o);
  wm_graph_destroy(g);
}

Test(wmg, truncated_file) {
  char path[512];
  snprintf(path, sizeof path, "%s/t.wmg", dir);
  wm_graph_destroy(write_sample(path, 0));
  size_t len;
  unsigned char *b = slurp(path, &len);
  spit(path, b, len - 3);
  expect_bad(path, "truncated");
  spit(path, b, 40);
  expect_bad(path, "truncated");
  spit(path, b, 0);
  expect_bad(path, "truncated");
  free(b);
}

Test(wmg, flipped_byte_is_a_checksum_mismatch) {
  char path[512];
  snprintf(path, sizeof path, "%s/c.wmg", dir);
  wm_graph_destroy(write_sample(path, 0));
  size_t len;
  unsigned char *b = slurp(path, &len);
  for (size_t at = 64; at < len; at += 7) {
    b[at] ^= 0x10;
    spit(path, b, len);
    expect_bad(path, "checksum mismatch");
    b[at] ^= 0x10;
  }
  b[20] ^= 1; /* n in the header */
  spit(path, b, len);
  expect_bad(path, "checksum mismatch");
  free(b);
}

Test(wmg, bad_magic_and_version) {
  char path[512];
  snprintf(path, sizeof path, "%s/m.wmg", dir);
  wm_graph_destroy(write_sample(path, 0));
  size_t len;
  unsigned char *b = slurp(path, &len);
  b[0] = 'X';
  spit(path, b, len);
  expect_bad(path, "bad magic");
  b[0] = 'W';
  b[8] = 9; /* version 9 */
  spit(path, b, len);
  expect_bad(path, "version 9");
  free(b);
}

/* Correct hashes but broken CSR: the structural checks must catch each. */
Test(wmg, structurally_invalid_with_valid_checksums) {
  char path[512];
  snprintf(path, sizeof path, "%s/s.wmg", dir);
  wm_graph *g = write_sample(path, 0);
  size_t len;
  unsigned char *orig = slurp(path, &len), *b = malloc(len);
  size_t adj_at = 64 + 8 * (g->n + 1), ids_at = adj_at + 4 * g->m;
  struct { size_t at; uint32_t value; const char *want; } cases[] = {
      {adj_at, 99, "arc 0 -> 99 leads past the last vertex 4"},  /* neighbour >= n */
      {adj_at, 0, "vertex 0 lists itself (a self loop)"},        /* row 0 = {0, 2, ...} */
      {adj_at + 4, 1, "vertex 0 lists neighbour 1 twice"},       /* row 0 = {1, 1, ...} */
      {ids_at + 4, 5, "file ids are not ascending (vertex 0 has 10, vertex 1 has 5)"},
      {ids_at + 16, WM_NO_VERTEX, "a file id is 4294967295, above the largest id"}, /* the last file id */
      {64 + 8, 7, "offsets decrease at vertex 1 (7, then 6)"},  /* offsets[1] > offsets[2] */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    memcpy(b, orig, len);
    memcpy(b + cases[i].at, &cases[i].value, 4);
    fix_hashes(b, len);
    spit(path, b, len);
    expect_bad(path, cases[i].want);
  }
  free(orig);
  free(b);
  wm_graph_destroy(g);
}

/* Correct hashes, sorted rows, but undirected flags over arcs without their
 * reverse (orientation would write past its m/2 arcs): one case where the
 * upward and downward arc counts differ, one where they agree and only the
 * arcs do not; and ORIENTED without DIRECTED, which the writer never sets. */
Test(wmg, undirected_must_be_symmetric) {
  char path[512];
  snprintf(path, sizeof path, "%s/a.wmg", dir);
  wm_graph *g = write_sample(path, 0);
  cr_assert_eq(g->offsets[3], 8); /* row 3 (file id 40) = {0} at adj[8] */
  cr_assert_eq(g->adj[8], 0);
  size_t len;
  unsigned char *orig = slurp(path, &len), *b = malloc(len);
  size_t row3 = 64 + 8 * (g->n + 1) + 4 * 8;
  uint32_t turned[] = {4, 1}; /* 3->4: one more arc up; 3->1: as many up as down */
  for (int i = 0; i < 2; i++) {
    memcpy(b, orig, len);
    memcpy(b + row3, &turned[i], 4);
    fix_hashes(b, len);
    spit(path, b, len);
    expect_bad(path, "although the graph is marked undirected");
  }
  memcpy(b, orig, len);
  b[12] = WM_GRAPH_ORIENTED;
  fix_hashes(b, len);
  spit(path, b, len);
  expect_bad(path, "oriented but not directed");
  free(orig);
  free(b);
  wm_graph_destroy(g);
}

Test(wmg, write_failure_leaves_nothing) {
  char path[512];
  snprintf(path, sizeof path, "%s/no/such/dir/x.wmg", dir);
  wm_graph *g = wm_test_er(10, 0.5, 1);
  wm_error err;
  cr_assert_eq(wm_write_wmg(g, path, 0, &err), WM_EINPUT);
  cr_assert(strstr(err.msg, "x.wmg"), "%s", err.msg);
  wm_graph_destroy(g);
}

/* A payload of several 64 MiB hash chunks, with chunk borders inside adj
 * and orig_ids: round trip, and damage in a later chunk is still caught. */
Test(wmg, multi_chunk_payload, .timeout = 60) {
  enum { N = 6000000 };
  wm_graph *g = wm_graph_create(N, 2ull * N);
  cr_assert_not_null(g);
  g->orig_ids = malloc(N * sizeof *g->orig_ids);
  for (uint32_t v = 0; v < N; v++) {
    uint32_t a = (v + 1) % N, b = (v + 2) % N;
    g->offsets[v] = 2ull * v;
    g->adj[2ull * v] = a < b ? a : b;
    g->adj[2ull * v + 1] = a < b ? b : a;
    g->orig_ids[v] = 3 * v + 1;
  }
  g->offsets[N] = 2ull * N;
  g->flags = WM_GRAPH_DIRECTED;
  char path[512];
  snprintf(path, sizeof path, "%s/big.wmg", dir);
  wm_error err;
  cr_assert_eq(wm_write_wmg(g, path, 5, &err), WM_OK, "%s", err.msg);
  wm_graph *h = NULL;
  cr_assert_eq(wm_read_wmg(path, &h, NULL, &err), WM_OK, "%s", err.msg);
  same_graph(g, h);
  wm_graph_destroy(h);
  /* flip one byte of orig_ids, in the second chunk */
  FILE *f = fopen(path, "r+b");
  cr_assert_not_null(f);
  long at = 64 + 8L * (N + 1) + 4L * 2 * N + 100;
  cr_assert_gt(at, 64L << 20);
  fseek(f, at, SEEK_SET);
  fputc(0xEE, f);
  fclose(f);
  expect_bad(path, "checksum mismatch");
  wm_graph_destroy(g);
}

/* ---- crafted files: written by the project's own writer, so both hashes
 * are right, yet each breaks one promise of the format ---------------- */

/* Writes the CSR given by rows[] ("1 2 3" per vertex; ids as given, in the
 * order given) with these flags and file ids (NULL: none) to dir/x.wmg. */
static void craft(char *path, size_t size, uint32_t n, const char *const *rows, uint32_t flags, const uint32_t *ids) {
  uint32_t cell[64];
  uint64_t m = 0, offsets[16];
  for (uint32_t v = 0; v < n; v++) {
    offsets[v] = m;
    for (const char *p = rows[v]; *p;) {
      char *end;
      cell[m++] = (uint32_t)strtoul(p, &end, 10);
      p = end;
      while (*p == ' ') p++;
    }
  }
  offsets[n] = m;
  wm_graph *g = wm_graph_create(n, m);
  cr_assert_not_null(g);
  memcpy(g->offsets, offsets, (n + 1) * sizeof *offsets);
  memcpy(g->adj, cell, m * sizeof *cell);
  g->flags = flags;
  if (ids) {
    g->orig_ids = malloc(n * sizeof *ids);
    memcpy(g->orig_ids, ids, n * sizeof *ids);
  }
  snprintf(path, size, "%s/x.wmg", dir);
  wm_error err;
  cr_assert_eq(wm_write_wmg(g, path, 0, &err), WM_OK, "%s", err.msg);
  wm_graph_destroy(g);
}

static void crafted_is_refused(uint32_t n, const char *const *rows, uint32_t flags, const uint32_t *ids,
                               const char *want) {
  char path[512];
  craft(path, sizeof path, n, rows, flags, ids);
  expect_bad(path, "invalid .wmg");
  expect_bad(path, want);
}

static void crafted_is_accepted(uint32_t n, const char *const *rows, uint32_t flags, const uint32_t *ids) {
  char path[512];
  craft(path, sizeof path, n, rows, flags, ids);
  wm_graph *g = NULL;
  wm_error err;
  cr_assert_eq(wm_read_wmg(path, &g, NULL, &err), WM_OK, "%s", err.msg);
  wm_graph_destroy(g);
}

/* K4 with the arc 2 -> 3 alone: a triangle count of 0 if it were used. */
Test(wmg, one_way_arc_in_an_undirected_graph) {
  const char *k4[] = {"1 2 3", "0 2 3", "0 1 3", "0 1 2"};
  crafted_is_accepted(4, k4, 0, NULL);
  const char *up[] = {"1 2 3", "0 2 3", "0 1 3", "0 1"};
  crafted_is_refused(4, up, 0, NULL, "arc 2 -> 3 has no 3 -> 2 although the graph is marked undirected");
  const char *down[] = {"1 2 3", "0 2", "0 1 3", "0 1 2"}; /* the one arc below the diagonal */
  crafted_is_refused(4, down, 0, NULL, "arc 3 -> 1 has no 1 -> 3 although the graph is marked undirected");
  crafted_is_accepted(4, down, WM_GRAPH_DIRECTED, NULL); /* as arcs, it is fine */
}

Test(wmg, rows_out_of_order_or_range) {
  const char *repeated[] = {"1 1", "0", ""};
  crafted_is_refused(3, repeated, WM_GRAPH_DIRECTED, NULL, "vertex 0 lists neighbour 1 twice");
  const char *unsorted[] = {"2 1", "0", "0"};
  crafted_is_refused(3, unsorted, 0, NULL, "the row of vertex 0 is not sorted (1 after 2)");
  const char *beyond[] = {"1", "0 3", ""};
  crafted_is_refused(3, beyond, WM_GRAPH_DIRECTED, NULL, "arc 1 -> 3 leads past the last vertex 2");
  const char *loop[] = {"1", "0 1", ""};
  crafted_is_refused(3, loop, 0, NULL, "vertex 1 lists itself (a self loop)");
}

/* Offsets the writer takes as they are: decreasing, or not ending at m. */
Test(wmg, offsets_that_lie) {
  char path[512];
  const char *rows[] = {"1 2", "0", "0"};
  uint64_t bad[][4] = {{0, 2, 1, 4}, {0, 2, 3, 3}};
  const char *want[] = {"the offsets decrease at vertex 1 (2, then 1)",
                        "the offsets end at 3, not at the 4 arcs the header gives"};
  for (int i = 0; i < 2; i++) {
    craft(path, sizeof path, 3, rows, 0, NULL);
    wm_graph *g = NULL;
    wm_error err;
    g = wm_graph_create(3, 4);
    memcpy(g->offsets, bad[i], sizeof bad[i]);
    uint32_t adj[] = {1, 2, 0, 0};
    memcpy(g->adj, adj, sizeof adj);
    cr_assert_eq(wm_write_wmg(g, path, 0, &err), WM_OK);
    wm_graph_destroy(g);
    expect_bad(path, want[i]);
  }
}

Test(wmg, flags_kept) {
  const char *pair[] = {"1", "0", ""};
  crafted_is_refused(3, pair, WM_GRAPH_ORIENTED | WM_GRAPH_DIRECTED, NULL,
                     "arcs 0 -> 1 and 1 -> 0 are both stored although the graph is marked oriented");
  char path[512];
  const char *dag[] = {"1", "", ""};
  crafted_is_accepted(3, dag, WM_GRAPH_ORIENTED | WM_GRAPH_DIRECTED, NULL);
  craft(path, sizeof path, 3, dag, WM_GRAPH_ORIENTED, NULL);
  expect_bad(path, "mark the graph oriented but not directed");
  const char *rising[] = {"1", "0 2", "1"}; /* degrees 1, 2, 1 */
  uint32_t ids[] = {4, 5, 6};
  crafted_is_refused(3, rising, WM_GRAPH_DEGREE_SORTED, ids,
                     "vertex 0 has degree 1, vertex 1 has 2, although the graph is marked sorted by descending degree");
  const char *falling[] = {"1 2", "0", "0"};
  uint32_t perm[] = {6, 4, 5};
  crafted_is_accepted(3, falling, WM_GRAPH_DEGREE_SORTED, perm);
}

/* A renumbered graph's file ids are a permutation: a repeated one would
 * list a triangle as "7 7 7". */
Test(wmg, repeated_file_ids) {
  const char *tri[] = {"1 2", "0 2", "0 1"};
  uint32_t ids[] = {7, 7, 7};
  crafted_is_refused(3, tri, WM_GRAPH_DEGREE_SORTED, ids, "file id 7 is given to more than one vertex (vertex 1");
  crafted_is_refused(3, tri, 0, ids, "the file ids are not ascending (vertex 0 has 7, vertex 1 has 7)");
  uint32_t sparse[] = {4000000000u, 3, 4000000000u}; /* far apart: the sorted-copy path */
  crafted_is_refused(3, tri, WM_GRAPH_DEGREE_SORTED, sparse, "file id 4000000000 is given to more than one vertex (vertex 2");
  uint32_t none[] = {1, 2, 0xFFFFFFFFu};
  crafted_is_refused(3, tri, 0, none, "a file id is 4294967295, above the largest id 4294967294");
}

/* What the writer makes of relabelling and orienting, in either order, and
 * a graph big enough for the parallel paths: all accepted. */
Test(wmg, preprocessed_graphs_are_accepted, .timeout = 60) {
  wm_graph *g = NULL, *s = NULL, *o = NULL, *so = NULL, *os = NULL;
  wm_error err;
  wm_gen_options k;
  wm_gen_kron_defaults(&k, 16, 3);
  cr_assert_eq(wm_generate(&k, &g, &err), WM_OK);
  cr_assert_eq(wm_graph_relabel_by_degree(g, &s, &err), WM_OK);
  cr_assert_eq(wm_graph_orient_by_degree(g, &o, &err), WM_OK);
  cr_assert_eq(wm_graph_orient_by_degree(s, &so, &err), WM_OK);
  cr_assert_eq(wm_graph_relabel_by_degree(o, &os, &err), WM_OK);
  wm_graph *all[] = {g, s, o, so, os};
  char path[512];
  snprintf(path, sizeof path, "%s/p.wmg", dir);
  for (int i = 0; i < 5; i++) {
    cr_assert_eq(wm_write_wmg(all[i], path, 0, &err), WM_OK);
    wm_graph *h = NULL;
    cr_assert_eq(wm_read_wmg(path, &h, NULL, &err), WM_OK, "graph %d: %s", i, err.msg);
    same_graph(all[i], h);
    wm_graph_destroy(h);
  }
  /* Far from vertex 0, row v's last neighbour w becomes w + 1: the arcs
   * v -> w + 1 and w -> v are one-way, and the first is named. */
  uint32_t v = g->n / 2;
  while (!(wm_degree(g, v) && g->adj[g->offsets[v + 1] - 1] > v && g->adj[g->offsets[v + 1] - 1] + 1 < g->n)) v++;
  uint32_t w = g->adj[g->offsets[v + 1] - 1]++;
  cr_assert_eq(wm_write_wmg(g, path, 0, &err), WM_OK);
  char want[160];
  snprintf(want, sizeof want, "arc %u -> %u has no %u -> %u although", v, w + 1, w + 1, v);
  expect_bad(path, want);
  for (int i = 0; i < 5; i++) wm_graph_destroy(all[i]);
}
