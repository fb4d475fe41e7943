/* gzip-compressed text graphs (edge list, Matrix Market, labels), known by
 * their magic bytes whatever their names; CSV and TSV edge lists with and
 * without a header; binary files that are no graph; a truncated gzip, which
 * fails with the file's name and leaves no cache behind. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "datasets.h"
#include "testutil.h"

static char dir[256];
static void setup(void) { wm_test_tmpdir(dir, sizeof dir); }
static void teardown(void) { wm_test_rmdir(dir); }
TestSuite(compressed, .init = setup, .fini = teardown);

/* Writes text gzip-compressed to dir/name; the path into buf. */
static void write_gz(char *buf, size_t size, const char *name, const char *text) {
  snprintf(buf, size, "%s/%s", dir, name);
  gzFile gz = gzopen(buf, "wb");
  cr_assert_not_null(gz);
  cr_assert_eq(gzwrite(gz, text, (unsigned)strlen(text)), (int)strlen(text));
  cr_assert_eq(gzclose(gz), Z_OK);
}

static wm_graph *load(const char *path, int use_cache, wm_load_info *info) {
  wm_load_options o;
  wm_load_options_init(&o);
  o.use_cache = use_cache;
  wm_graph *g = NULL;
  wm_error err;
  int rc = wm_graph_load(path, &o, &g, info, &err);
  cr_assert_eq(rc, WM_OK, "%s: %s", path, err.msg);
  return g;
}

static void expect_load_error(const char *path, const char *frag1, const char *frag2) {
  wm_load_options o;
  wm_load_options_init(&o);
  wm_graph *g = NULL;
  wm_error err;
  cr_assert_eq(wm_graph_load(path, &o, &g, NULL, &err), WM_EINPUT, "%s loaded", path);
  cr_assert_null(g);
  cr_assert(strstr(err.msg, frag1), "'%s' lacks '%s'", err.msg, frag1);
  if (frag2) cr_assert(strstr(err.msg, frag2), "'%s' lacks '%s'", err.msg, frag2);
}

/* The same graph (vertices, edges, adjacency) from both paths. */
static void expect_same(const char *a, const char *b) {
  wm_graph *g = load(a, 0, NULL), *h = load(b, 0, NULL);
  cr_assert_eq(g->n, h->n, "%s: %u vertices, %s: %u", a, g->n, b, h->n);
  cr_assert_eq(g->m, h->m);
  cr_assert_eq(memcmp(g->offsets, h->offsets, (g->n + 1) * sizeof *g->offsets), 0);
  cr_assert_eq(memcmp(g->adj, h->adj, g->m * sizeof *g->adj), 0);
  wm_graph_destroy(g);
  wm_graph_destroy(h);
}

static const char *EDGES = "# a comment\n0 1\n1 2\n2 0\n2 3 0.5\n3 4\n";

Test(compressed, gzip_edge_list_matches_plain_and_is_cached) {
  char plain[512], gz[512];
  wm_test_write(plain, sizeof plain, dir, "g.txt", EDGES);
  write_gz(gz, sizeof gz, "g.txt.gz", EDGES);
  expect_same(plain, gz);
  /* The cache beside the input, named from its path, keyed by its bytes. */
  wm_load_info info;
  wm_graph *g = load(gz, 1, &info);
  cr_assert(info.cache_written && !info.from_cache);
  cr_assert(strstr(info.cache_path, "g.txt.gz.wmg"), "cache at %s", info.cache_path);
  cr_assert_eq(info.format, WM_FORMAT_EDGELIST);
  wm_graph_destroy(g);
  g = load(gz, 1, &info);
  cr_assert(info.from_cache, "second load did not use %s", info.cache_path);
  cr_assert_eq(wm_graph_edges(g), 5);
  wm_graph_destroy(g);
}

Test(compressed, gzip_known_by_magic_not_name) {
  char plain[512], gz[512];
  wm_test_write(plain, sizeof plain, dir, "g.txt", EDGES);
  write_gz(gz, sizeof gz, "edges.dat", EDGES);
  expect_same(plain, gz);
}

Test(compressed, gzip_many_blocks_and_concatenated_members) {
  /* More text than one read buffer of a small file, in two gzip members
   * (as `cat a.gz b.gz` makes). */
  size_t cap = 4u << 20, len = 0;
  char *text = malloc(cap);
  cr_assert_not_null(text);
  for (unsigned i = 0; i < 200000; i++) len += (size_t)snprintf(text + len, cap - len, "%u %u\n", i, i + 1);
  char path[512], plain[512];
  snprintf(path, sizeof path, "%s/long.txt.gz", dir);
  gzFile gz = gzopen(path, "wb");
  cr_assert_not_null(gz);
  cr_assert_eq(gzwrite(gz, text, (unsigned)(len / 2)), (int)(len / 2));
  cr_assert_eq(gzclose(gz), Z_OK);
  gz = gzopen(path, "ab");
  cr_assert_not_null(gz);
  cr_assert_eq(gzwrite(gz, text + len / 2, (unsigned)(len - len / 2)), (int)(len - len / 2));
  cr_assert_eq(gzclose(gz), Z_OK);
  wm_test_write(plain, sizeof plain, dir, "long.txt", text);
  free(text);
  expect_same(plain, path);
}

Test(compressed, gzip_matrix_market) {
  const char *mtx = "%%MatrixMarket matrix coordinate pattern symmetric\n% c\n5 5 4\n2 1\n3 2\n4 3\n5 4\n";
  char plain[512], gz[512];
  wm_test_write(plain, sizeof plain, dir, "m.mtx", mtx);
  write_gz(gz, sizeof gz, "m.mtx.gz", mtx);
  wm_load_info info;
  wm_graph *g = load(gz, 0, &info);
  cr_assert_eq(info.format, WM_FORMAT_MTX, "format %d", (int)info.format);
  cr_assert_eq(wm_graph_edges(g), 4);
  wm_graph_destroy(g);
  expect_same(plain, gz);
}

Test(compressed, gzip_labels) {
  char graph[512], labels[512];
  wm_test_write(graph, sizeof graph, dir, "g.txt", "0 1\n1 2\n");
  write_gz(labels, sizeof labels, "labels.txt.gz", "# id label\n0 7\n1 8\n2 7\n");
  wm_graph *g = load(graph, 0, NULL);
  int32_t *lab = NULL;
  wm_error err;
  cr_assert_eq(wm_read_labels(labels, g, &lab, &err), WM_OK, "%s", err.msg);
  cr_assert(lab[0] == 7 && lab[1] == 8 && lab[2] == 7, "labels %d %d %d", lab[0], lab[1], lab[2]);
  free(lab);
  wm_graph_destroy(g);
}

Test(compressed, csv_with_and_without_header_and_tsv) {
  char plain[512], p[512];
  wm_test_write(plain, sizeof plain, dir, "g.txt", EDGES);
  wm_test_write(p, sizeof p, dir, "h.csv", "source,target,weight\n0,1,0.5\n1, 2,1\n2 ,0\r\n2,3\n3,4,9,x\n");
  expect_same(plain, p);
  wm_test_write(p, sizeof p, dir, "n.csv", "0,1\n1,2\n2,0\n2,3\n3,4\n");
  expect_same(plain, p);
  wm_test_write(p, sizeof p, dir, "h.tsv", "# exported\nfrom\tto\n0\t1\n1\t2\n2\t0\t1.5\n2\t3\n3\t4\n");
  expect_same(plain, p);
  write_gz(p, sizeof p, "h.csv.gz", "\"source\",\"target\"\n0,1\n1,2\n2,0\n2,3\n3,4\n");
  expect_same(plain, p);
}

Test(compressed, header_rules) {
  char p[512];
  /* Only the first line that is not blank or a comment can be a header. */
  wm_test_write(p, sizeof p, dir, "late.csv", "0,1\nsource,target\n");
  expect_load_error(p, "late.csv:2: expected two vertex ids", "'source,target'");
  /* A line with an integer field is data, however bad. */
  wm_test_write(p, sizeof p, dir, "neg.csv", "-1,2\n0,1\n");
  expect_load_error(p, "neg.csv:1: expected two vertex ids", "'-1,2'");
  /* Without a comma or a tab the words are no header. */
  wm_test_write(p, sizeof p, dir, "words.txt", "source target\n0 1\n");
  expect_load_error(p, "words.txt:1: expected two vertex ids", NULL);
  /* Two commas in a row leave a field empty. */
  wm_test_write(p, sizeof p, dir, "empty.csv", "0,,1\n");
  expect_load_error(p, "empty.csv:1: expected two vertex ids", NULL);
  /* A header and nothing else. */
  wm_test_write(p, sizeof p, dir, "only.csv", "source,target\n");
  expect_load_error(p, "only.csv", "no edges");
}

Test(compressed, binary_data_is_no_graph) {
  char p[512];
  snprintf(p, sizeof p, "%s/blob.bin", dir);
  FILE *f = fopen(p, "wb");
  cr_assert_not_null(f);
  uint64_t s = 42;
  for (int i = 0; i < 4096; i++) fputc((int)(wm_test_rand(&s) & 0xff), f);
  fclose(f);
  expect_load_error(p, "blob.bin: not a graph this program reads (binary data;", "gzip of a text one");
  /* Binary inside gzip: the same. */
  char bin[300];
  for (int i = 0; i < 300; i++) bin[i] = (char)(i % 7 == 0 ? 1 : 'a' + i % 3);
  bin[299] = '\0';
  char gz[512];
  write_gz(gz, sizeof gz, "blob.gz", bin);
  expect_load_error(gz, "blob.gz: not a graph this program reads", NULL);
}

/* No file in dir whose name contains frag. */
static void assert_absent(const char *frag) {
  DIR *d = opendir(dir);
  cr_assert_not_null(d);
  struct dirent *e;
  while ((e = readdir(d))) cr_assert(!strstr(e->d_name, frag), "left behind: %s/%s", dir, e->d_name);
  closedir(d);
}

Test(compressed, truncated_gzip_names_the_file_and_leaves_no_cache) {
  size_t cap = 2u << 20, len = 0;
  char *text = malloc(cap);
  cr_assert_not_null(text);
  for (unsigned i = 0; i < 100000; i++) len += (size_t)snprintf(text + len, cap - len, "%u %u\n", i, i + 3);
  char gz[512];
  write_gz(gz, sizeof gz, "cut.txt.gz", text);
  free(text);
  FILE *f = fopen(gz, "rb");
  cr_assert_not_null(f);
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fclose(f);
  cr_assert(size > 1000);
  cr_assert_eq(truncate(gz, size / 2), 0);
  expect_load_error(gz, "cut.txt.gz: gzip data ends early", NULL);
  assert_absent(".wmg");
  /* Cut in its 8-byte trailer: all the text is there, the check is not. */
  write_gz(gz, sizeof gz, "tail.txt.gz", "0 1\n1 2\n");
  f = fopen(gz, "rb");
  fseek(f, 0, SEEK_END);
  size = ftell(f);
  fclose(f);
  cr_assert_eq(truncate(gz, size - 3), 0);
  expect_load_error(gz, "tail.txt.gz: gzip data ends early", NULL);
  assert_absent(".wmg");
}

Test(compressed, damaged_gzip_names_the_file) {
  char gz[512];
  write_gz(gz, sizeof gz, "bad.txt.gz", "0 1\n1 2\n2 0\n");
  FILE *f = fopen(gz, "r+b");
  cr_assert_not_null(f);
  fseek(f, -6, SEEK_END); /* the CRC */
  fputc(0x55, f);
  fputc(0xaa, f);
  fclose(f);
  expect_load_error(gz, "bad.txt.gz: damaged gzip data", NULL);
  assert_absent(".wmg");
}
