/* The .wmg cache of text graphs: written, reused, rebuilt when stale or
 * damaged, placed in the fallback folder when the input's folder is
 * read-only, and never fatal when it cannot be written. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "datasets.h"
#include "testutil.h"

static char dir[256], fallback[512];
static void setup(void) {
  wm_test_tmpdir(dir, sizeof dir);
  snprintf(fallback, sizeof fallback, "%s/cachedir", dir);
  setenv("WARPMATCH_CACHE_DIR", fallback, 1);
}
static void teardown(void) {
  chmod(dir, 0755);
  char sub[512];
  snprintf(sub, sizeof sub, "%s/ro", dir);
  chmod(sub, 0755);
  wm_test_rmdir(dir);
}
TestSuite(cache, .init = setup, .fini = teardown);

static wm_graph *load(const char *path, int directed, int use_cache, wm_load_info *info) {
  wm_load_options o;
  wm_load_options_init(&o);
  o.directed = directed;
  o.use_cache = use_cache;
  wm_graph *g = NULL;
  wm_error err;
  cr_assert_eq(wm_graph_load(path, &o, &g, info, &err), WM_OK, "load failed: %s", err.msg);
  return g;
}

static int exists(const char *p) { return access(p, F_OK) == 0; }

static void damage(const char *path, long at, int truncate_to) {
  if (truncate_to >= 0) {
    cr_assert_eq(truncate(path, truncate_to), 0);
    return;
  }
  FILE *f = fopen(path, "r+b");
  cr_assert_not_null(f);
  fseek(f, at, SEEK_SET);
  int c = fgetc(f);
  fseek(f, at, SEEK_SET);
  fputc(c ^ 0x55, f);
  fclose(f);
}

Test(cache, written_then_reused) {
  char in[512], want[600];
  wm_test_write(in, sizeof in, dir, "g.txt", "0 1\n1 2\n2 0\n2 3\n");
  snprintf(want, sizeof want, "%s.wmg", in);
  wm_load_info info;
  wm_graph *a = load(in, 0, 1, &info);
  cr_assert(info.cache_written && !info.from_cache);
  cr_assert_str_eq(info.cache_path, want, "cache goes beside a writable input");
  cr_assert(exists(want));
  wm_graph *b = load(in, 0, 1, &info);
  cr_assert(info.from_cache && !info.cache_written);
  cr_assert_eq(a->n, b->n);
  cr_assert_eq(a->m, b->m);
  cr_assert(memcmp(a->adj, b->adj, a->m * 4) == 0);
  wm_graph_destroy(a);
  wm_graph_destroy(b);
}

Test(cache, stale_after_source_edit_is_rebuilt) {
  char in[512];
  wm_test_write(in, sizeof in, dir, "g.txt", "0 1\n1 2\n");
  wm_load_info info;
  wm_graph_destroy(load(in, 0, 1, &info));
  cr_assert(info.cache_written);
  wm_test_write(in, sizeof in, dir, "g.txt", "0 1\n1 2\n2 3\n"); /* edited source */
  wm_graph *g = load(in, 0, 1, &info);
  cr_assert(!info.from_cache && info.cache_written, "a stale cache must be rebuilt");
  cr_assert_eq(wm_graph_edges(g), 3);
  wm_graph_destroy(g);
  g = load(in, 0, 1, &info);
  cr_assert(info.from_cache);
  cr_assert_eq(wm_graph_edges(g), 3);
  wm_graph_destroy(g);
}

Test(cache, corrupt_or_truncated_cache_is_rebuilt) {
  char in[512];
  wm_test_write(in, sizeof in, dir, "g.txt", "5 6\n6 7\n7 5\n");
  wm_load_info info;
  wm_graph_destroy(load(in, 0, 1, &info));
  damage(info.cache_path, 70, -1);
  wm_graph *g = load(in, 0, 1, &info);
  cr_assert(!info.from_cache && info.cache_written, "a corrupt cache must not be used");
  cr_assert_eq(wm_graph_edges(g), 3);
  cr_assert_eq(wm_graph_file_id(g, 2), 7);
  wm_graph_destroy(g);
  damage(info.cache_path, 0, 30);
  g = load(in, 0, 1, &info);
  cr_assert(!info.from_cache && info.cache_written, "a truncated cache must not be used");
  wm_graph_destroy(g);
  g = load(in, 0, 1, &info);
  cr_assert(info.from_cache);
  wm_graph_destroy(g);
}

Test(cache, directed_has_its_own_cache) {
  char in[512], want[600];
  wm_test_write(in, sizeof in, dir, "d.txt", "0 1\n1 2\n");
  wm_load_info info;
  wm_graph_destroy(load(in, 0, 1, &info));
  wm_graph *g = load(in, 1, 1, &info);
  snprintf(want, sizeof want, "%s.directed.wmg", in);
  cr_assert_str_eq(info.cache_path, want);
  cr_assert(!info.from_cache && info.cache_written);
  cr_assert_eq(g->m, 2);
  wm_graph_destroy(g);
  g = load(in, 1, 1, &info);
  cr_assert(info.from_cache && (g->flags & WM_GRAPH_DIRECTED));
  wm_graph_destroy(g);
  g = load(in, 0, 1, &info);
  cr_assert(info.from_cache && !(g->flags & WM_GRAPH_DIRECTED) && g->m == 4);
  wm_graph_destroy(g);
}

Test(cache, read_only_folder_uses_cache_dir) {
  char sub[512], in[600];
  snprintf(sub, sizeof sub, "%s/ro", dir);
  cr_assert_eq(mkdir(sub, 0755), 0);
  wm_test_write(in, sizeof in, sub, "g.txt", "1 2\n2 3\n");
  cr_assert_eq(chmod(sub, 0555), 0);
  wm_load_info info;
  wm_graph_destroy(load(in, 0, 1, &info));
  cr_assert(info.cache_written, "cache should be written to the fallback folder");
  cr_assert(strncmp(info.cache_path, fallback, strlen(fallback)) == 0, "cache at %s", info.cache_path);
  cr_assert(strstr(info.cache_path, "g.txt."), "cache named after the input: %s", info.cache_path);
  char beside[700];
  snprintf(beside, sizeof beside, "%s.wmg", in);
  cr_assert(!exists(beside), "nothing may be written into a read-only folder");
  wm_graph_destroy(load(in, 0, 1, &info));
  cr_assert(info.from_cache);
  /* Without WARPMATCH_CACHE_DIR: $XDG_CACHE_HOME/warpmatch. */
  char xdg[512];
  snprintf(xdg, sizeof xdg, "%s/xdg", dir);
  unsetenv("WARPMATCH_CACHE_DIR");
  setenv("XDG_CACHE_HOME", xdg, 1);
  wm_graph_destroy(load(in, 0, 1, &info));
  cr_assert(info.cache_written);
  char want_prefix[600];
  snprintf(want_prefix, sizeof want_prefix, "%s/warpmatch/g.txt.", xdg);
  cr_assert(strncmp(info.cache_path, want_prefix, strlen(want_prefix)) == 0, "cache at %s", info.cache_path);
}

Test(cache, unwritable_cache_is_not_an_error) {
  char sub[512], in[600];
  snprintf(sub, sizeof sub, "%s/ro", dir);
  cr_assert_eq(mkdir(sub, 0755), 0);
  wm_test_write(in, sizeof in, sub, "g.txt", "1 2\n");
  cr_assert_eq(chmod(sub, 0555), 0);
  setenv("WARPMATCH_CACHE_DIR", "/proc/warpmatch-no-such-dir", 1);
  wm_load_info info;
  wm_graph *g = load(in, 0, 1, &info);
  cr_assert(!info.cache_written && !info.from_cache);
  cr_assert_eq(wm_graph_edges(g), 1);
  wm_graph_destroy(g);
}

Test(cache, no_cache_option_writes_nothing) {
  char in[512], beside[600];
  wm_test_write(in, sizeof in, dir, "g.txt", "1 2\n");
  wm_load_info info;
  wm_graph_destroy(load(in, 0, 0, &info));
  snprintf(beside, sizeof beside, "%s.wmg", in);
  cr_assert(!exists(beside));
  cr_assert(!info.cache_written && !info.from_cache && info.cache_path[0] == '\0');
}

Test(cache, wmg_input_needs_no_cache) {
  char in[512], out[600];
  wm_test_write(in, sizeof in, dir, "g.txt", "1 2\n2 3\n");
  snprintf(out, sizeof out, "%s/plain.bin", dir);
  wm_graph *g = load(in, 0, 0, NULL);
  wm_error err;
  cr_assert_eq(wm_write_wmg(g, out, 0, &err), WM_OK);
  wm_graph_destroy(g);
  wm_load_info info;
  g = load(out, 0, 1, &info);
  cr_assert_eq(info.format, WM_FORMAT_WMG, "detected by content, not by name");
  cr_assert(!info.cache_written && !info.from_cache);
  cr_assert_eq(wm_graph_file_id(g, 0), 1);
  wm_graph_destroy(g);
}
