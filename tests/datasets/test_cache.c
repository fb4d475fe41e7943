/* The .wmg cache of text graphs: written, reused, rebuilt when stale or
 * damaged, placed in the fallback folder when the input's folder is
 * read-only, and never fatal when it cannot be written. */
#define _XOPEN_SOURCE 700
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

/* ---- whose cache: the key is no secret, so only a cache no one else could
 * have written is read ------------------------------------------------- */

/* Writes `g` as a cache for the text `in` (its true key, read from the
 * cache a load of `in` wrote to the trusted fallback folder) at `where`:
 * what someone else could plant, with valid hashes and the right key. */
static void plant(const char *in, const wm_graph *g, const char *where) {
  wm_load_info info;
  setenv("WARPMATCH_CACHE_DIR", fallback, 1);
  wm_load_options o;
  wm_load_options_init(&o);
  o.cache_dir = fallback;
  wm_graph *t = NULL;
  wm_error err;
  cr_assert_eq(wm_graph_load(in, &o, &t, &info, &err), WM_OK, "%s", err.msg);
  wm_graph_destroy(t);
  uint64_t key = 0;
  cr_assert_eq(wm_read_wmg(info.cache_path, &t, &key, &err), WM_OK, "%s", err.msg);
  wm_graph_destroy(t);
  cr_assert_eq(unlink(info.cache_path), 0);
  cr_assert_eq(wm_write_wmg(g, where, key, &err), WM_OK, "%s", err.msg);
}

/* A path graph 0-1-2-3: 3 edges, where the text has a triangle. */
static wm_graph *impostor(void) {
  uint32_t *s = malloc(3 * 4), *d = malloc(3 * 4);
  for (uint32_t i = 0; i < 3; i++) s[i] = i, d[i] = i + 1;
  return wm_test_graph_of_arcs(4, s, d, 3);
}

Test(cache, planted_beside_in_a_world_writable_folder_is_ignored) {
  char ww[512], in[600], beside[700];
  snprintf(ww, sizeof ww, "%s/shared", dir);
  cr_assert_eq(mkdir(ww, 0755), 0);
  cr_assert_eq(chmod(ww, 01777), 0); /* like /tmp */
  wm_test_write(in, sizeof in, ww, "g.txt", "0 1\n1 2\n2 0\n");
  snprintf(beside, sizeof beside, "%s.wmg", in);
  wm_graph *fake = impostor();
  plant(in, fake, beside);
  wm_graph_destroy(fake);
  /* Without the check the plant would be used: it is a valid cache. */
  wm_graph *check = NULL;
  uint64_t key;
  wm_error err;
  cr_assert_eq(wm_read_wmg(beside, &check, &key, &err), WM_OK);
  wm_graph_destroy(check);
  wm_load_info info;
  wm_graph *g = load(in, 0, 1, &info);
  cr_assert_eq(wm_graph_edges(g), 3);
  cr_assert_eq(wm_degree(g, 0), 2, "the text's triangle, not the planted path");
  cr_assert(!info.from_cache);
  cr_assert(strstr(info.note, beside) && strstr(info.note, "ignored") &&
                strstr(info.note, "writable by other users (sticky)"),
            "note: '%s'", info.note);
  cr_assert(strncmp(info.cache_path, fallback, strlen(fallback)) == 0, "own cache goes to %s", info.cache_path);
  wm_graph_destroy(g);
  /* The program says so on stderr and answers from the text. */
  char *out = NULL, *errs = NULL;
  int rc = wm_test_run(&out, &errs, "count %s --pattern triangle", in);
  cr_assert_eq(rc, 0, "%s", errs);
  cr_assert(strstr(out, "count      1\n"), "%s", out);
  cr_assert(strstr(errs, "warpmatch: note: cache ") && strstr(errs, "ignored"), "stderr: %s", errs);
  free(out);
  free(errs);
}

Test(cache, world_writable_cache_folder_is_not_used) {
  char ww[512], in[600], planted[900], abs[4096];
  snprintf(ww, sizeof ww, "%s/sharedcache", dir);
  cr_assert_eq(mkdir(ww, 0755), 0);
  cr_assert_eq(chmod(ww, 01777), 0);
  char ro[512];
  snprintf(ro, sizeof ro, "%s/ro", dir);
  cr_assert_eq(mkdir(ro, 0755), 0);
  wm_test_write(in, sizeof in, ro, "g.txt", "0 1\n1 2\n2 0\n");
  cr_assert_eq(chmod(ro, 0555), 0); /* so the cache would go to the folder */
  cr_assert_not_null(realpath(in, abs));
  snprintf(planted, sizeof planted, "%s/g.txt.%016llx.wmg", ww, (unsigned long long)wm_hash64(abs, strlen(abs), 0));
  wm_graph *fake = impostor();
  plant(in, fake, planted);
  wm_graph_destroy(fake);
  setenv("WARPMATCH_CACHE_DIR", ww, 1);
  wm_load_info info;
  wm_graph *g = load(in, 0, 1, &info);
  cr_assert_eq(wm_degree(g, 0), 2, "the text's triangle, not the planted path");
  cr_assert(!info.from_cache && !info.cache_written && info.cache_path[0] == '\0');
  cr_assert(strstr(info.note, "cache not used") && strstr(info.note, ww) && strstr(info.note, "writable by other users"),
            "note: '%s'", info.note);
  wm_graph_destroy(g);
}

/* The cache file itself: another user's, or writable by others, is not
 * read (and is replaced by this user's own). */
static void foreign_cache_is_ignored(int as_nobody) {
  char in[512];
  wm_test_write(in, sizeof in, dir, "g.txt", "0 1\n1 2\n2 0\n");
  char beside[600];
  snprintf(beside, sizeof beside, "%s.wmg", in);
  wm_graph *fake = impostor();
  plant(in, fake, beside);
  wm_graph_destroy(fake);
  if (as_nobody) cr_assert_eq(chown(beside, 65534, 65534), 0);
  else cr_assert_eq(chmod(beside, 0666), 0);
  wm_load_info info;
  wm_graph *g = load(in, 0, 1, &info);
  cr_assert_eq(wm_degree(g, 0), 2, "the text's triangle, not the planted path");
  cr_assert(!info.from_cache && info.cache_written, "the text is parsed and its own cache written");
  cr_assert(strstr(info.note, beside) &&
                strstr(info.note, as_nobody ? "belongs to another user (uid 65534)" : "other users may write it"),
            "note: '%s'", info.note);
  wm_graph_destroy(g);
  struct stat sb;
  cr_assert_eq(stat(beside, &sb), 0);
  cr_assert(sb.st_uid == geteuid() && !(sb.st_mode & 022), "rewritten as this user's, 0644");
  wm_graph_destroy(load(in, 0, 1, &info));
  cr_assert(info.from_cache && info.note[0] == '\0');
}

Test(cache, cache_of_another_user_is_ignored) {
  if (geteuid() != 0) cr_skip_test("chown to another user needs root (the writable-file case runs regardless)");
  foreign_cache_is_ignored(1);
}

Test(cache, cache_writable_by_others_is_ignored) { foreign_cache_is_ignored(0); }

/* Under a umask that lets the group write, the cache is still written
 * 0644, so that it is trusted next time; a group-writable folder is passed
 * over for the fallback. */
Test(cache, group_writable_umask_and_folder) {
  mode_t old = umask(002);
  char in[512];
  wm_test_write(in, sizeof in, dir, "g.txt", "0 1\n1 2\n");
  wm_load_info info;
  wm_graph_destroy(load(in, 0, 1, &info));
  struct stat sb;
  cr_assert(info.cache_written);
  cr_assert_eq(stat(info.cache_path, &sb), 0);
  cr_assert_eq(sb.st_mode & 0777, 0644);
  wm_graph_destroy(load(in, 0, 1, &info));
  cr_assert(info.from_cache, "%s", info.note);
  char grp[512], in2[600];
  snprintf(grp, sizeof grp, "%s/team", dir);
  cr_assert_eq(mkdir(grp, 0775), 0);
  cr_assert_eq(chmod(grp, 0775), 0);
  wm_test_write(in2, sizeof in2, grp, "g.txt", "0 1\n1 2\n");
  wm_graph_destroy(load(in2, 0, 1, &info));
  cr_assert(info.cache_written && strncmp(info.cache_path, fallback, strlen(fallback)) == 0, "cache at %s",
            info.cache_path);
  cr_assert(info.note[0] == '\0', "nothing was ignored: %s", info.note);
  umask(old);
}
