/* Output is never lost and never replaces what its path names: standard
 * output's write errors are exit 1 with their cause; --output and convert
 * follow a symlink, stream into a FIFO or device, write a file whole or not
 * at all with the umask's mode; a signal mid-write leaves no temporary; a
 * dead writer's temporary is cleaned by the next write, a live one's kept. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base.h"
#include "testutil.h"

/* A triangle with a tail: one triangle, 4 vertices, 4 edges. */
static const char *const TRI = "0 1\n1 2\n2 0\n2 3\n";

static wm_test_files tf;
static void setup(void) { wm_test_graph_file(&tf, TRI); }
static void teardown(void) { wm_test_rmdir(tf.dir); }
TestSuite(output, .init = setup, .fini = teardown);

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  cr_assert_not_null(f, "cannot read %s", path);
  char *s = calloc(1, 1 << 20);
  size_t n = fread(s, 1, (1 << 20) - 1, f);
  s[n] = '\0';
  fclose(f);
  return s;
}

/* The names in dir containing part (0 when none). */
static int count_names(const char *dir, const char *part) {
  DIR *d = opendir(dir);
  cr_assert_not_null(d, "cannot list %s", dir);
  int n = 0;
  for (struct dirent *e = readdir(d); e; e = readdir(d)) n += strstr(e->d_name, part) != NULL;
  closedir(d);
  return n;
}

/* ---- standard output ------------------------------------------------- */

static void full_stdout_fails(const char *args) {
  char *err;
  int rc = wm_test_run_to("/dev/full", &err, "%s", args);
  cr_expect_eq(rc, 1, "%s > /dev/full: exit %d, stderr: %s", args, rc, err);
  cr_expect(strstr(err, "No space left on device") && strstr(err, "standard output"), "%s: stderr: %s", args, err);
  free(err);
}

Test(output, stdout_write_errors_are_exit_1_with_the_cause) {
  char args[1024];
  static const char *const cmds[] = {
      "count '%s' --pattern triangle", "count '%s' --pattern triangle --json", "info '%s'",
      "bfs '%s' --source 0", "motifs '%s' --size 3", "list '%s' --pattern triangle",
      "list '%s' --pattern triangle --json", "convert '%s' '%s.wmg'", NULL,
  };
  for (int i = 0; cmds[i]; i++) {
    snprintf(args, sizeof args, cmds[i], tf.graph, tf.graph);
    full_stdout_fails(args);
  }
  full_stdout_fails("--help");
}

Test(output, list_write_error_names_the_cause_and_stops) {
  char fb[1024], *err;
  wm_test_real_graph(fb, sizeof fb, "facebook_combined.txt"); /* 1.6 M triangles: fails mid-stream */
  int rc = wm_test_run_to("/dev/full", &err, "list '%s' --pattern triangle --no-cache --device cpu", fb);
  cr_assert_eq(rc, 1, "stderr: %s", err);
  cr_assert(strstr(err, "list: writing the matches to standard output: No space left on device"), "%s", err);
  cr_assert_null(strstr(err, "listed"), "no summary after a failed listing: %s", err);
  free(err);
}

/* ---- output paths ---------------------------------------------------- */

Test(output, output_to_dev_full_fails_with_the_cause) {
  static const char *const cmds[] = {
      "list '%s' --pattern triangle --output /dev/full",
      "bfs '%s' --source 0 --output /dev/full",
      "convert '%s' /dev/full",
      NULL,
  };
  for (int i = 0; cmds[i]; i++) {
    char *out, *err;
    char args[1024];
    snprintf(args, sizeof args, cmds[i], tf.graph);
    int rc = wm_test_run(&out, &err, "%s", args);
    cr_expect_eq(rc, 1, "%s: exit %d, stderr: %s", args, rc, err);
    cr_expect(strstr(err, "/dev/full") && strstr(err, "No space left on device"), "%s: %s", args, err);
    free(out);
    free(err);
  }
}

Test(output, convert_to_dev_null_leaves_it_a_device) {
  char *out, *err;
  int rc = wm_test_run(&out, &err, "convert '%s' /dev/null", tf.graph);
  cr_assert_eq(rc, 0, "stderr: %s", err);
  struct stat st;
  cr_assert_eq(lstat("/dev/null", &st), 0);
  cr_assert(S_ISCHR(st.st_mode), "/dev/null is no longer a character device (uid %d)", (int)geteuid());
  free(out);
  free(err);
}

Test(output, symlink_target_is_written_and_the_link_kept) {
  char target[600], link[600], *out, *err;
  snprintf(target, sizeof target, "%s/levels.txt", tf.dir);
  snprintf(link, sizeof link, "%s/link.txt", tf.dir);
  FILE *f = fopen(target, "w");
  fputs("old\n", f);
  fclose(f);
  cr_assert_eq(symlink("levels.txt", link), 0); /* relative: beside the link */
  int rc = wm_test_run(&out, &err, "bfs '%s' --source 0 --output '%s'", tf.graph, link);
  cr_assert_eq(rc, 0, "stderr: %s", err);
  struct stat st;
  cr_assert_eq(lstat(link, &st), 0);
  cr_assert(S_ISLNK(st.st_mode), "the symlink was replaced");
  char *text = slurp(target);
  cr_assert(strstr(text, "# vertex level") && strstr(text, "\n3 2\n"), "target: %s", text);
  cr_assert_eq(count_names(tf.dir, ".wmtmp."), 0);
  free(text);
  free(out);
  free(err);
}

Test(output, dangling_symlink_creates_its_target) {
  char link[600], target[600], *out, *err;
  snprintf(link, sizeof link, "%s/g.wmg", tf.dir);
  snprintf(target, sizeof target, "%s/made.wmg", tf.dir);
  cr_assert_eq(symlink(target, link), 0);
  int rc = wm_test_run(&out, &err, "convert '%s' '%s'", tf.graph, link);
  cr_assert_eq(rc, 0, "stderr: %s", err);
  struct stat st;
  cr_assert(lstat(link, &st) == 0 && S_ISLNK(st.st_mode), "the symlink was replaced");
  cr_assert(lstat(target, &st) == 0 && S_ISREG(st.st_mode), "the link's target was not written");
  free(out);
  free(err);
  rc = wm_test_run(&out, &err, "info '%s'", link);
  cr_assert_eq(rc, 0, "stderr: %s", err);
  cr_assert(strstr(out, "vertices   4"), "%s", out);
  free(out);
  free(err);
}

/* A reader of fifo into file, started before the writer opens it. */
static pid_t fifo_reader(const char *fifo, const char *file) {
  pid_t pid = fork();
  cr_assert(pid >= 0);
  if (pid == 0) {
    execl("/bin/sh", "sh", "-c", "cat \"$0\" > \"$1\"", fifo, file, (char *)NULL);
    _exit(127);
  }
  return pid;
}

static void reader_done(pid_t pid) {
  int st;
  cr_assert_eq(waitpid(pid, &st, 0), pid);
  cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the FIFO's reader failed");
}

Test(output, fifo_is_streamed_not_replaced) {
  char fifo[600], got[600], *out, *err;
  snprintf(fifo, sizeof fifo, "%s/pipe", tf.dir);
  snprintf(got, sizeof got, "%s/got.txt", tf.dir);
  cr_assert_eq(mkfifo(fifo, 0600), 0);
  pid_t r = fifo_reader(fifo, got);
  int rc = wm_test_run(&out, &err, "list '%s' --pattern 3-path --output '%s'", tf.graph, fifo);
  cr_assert_eq(rc, 0, "stderr: %s", err);
  reader_done(r);
  free(out);
  free(err);
  char *streamed = slurp(got);
  rc = wm_test_run(&out, &err, "list '%s' --pattern 3-path", tf.graph);
  cr_assert_eq(rc, 0);
  cr_assert_gt(strlen(streamed), 0);
  size_t ns, no;
  char **sl = wm_test_sorted_lines(streamed, &ns), **ol = wm_test_sorted_lines(out, &no);
  cr_assert_eq(ns, no, "the FIFO's reader got %zu lines, stdout %zu", ns, no);
  for (size_t i = 0; i < ns; i++) cr_assert_str_eq(sl[i], ol[i], "the FIFO's reader got other lines than stdout");
  free(sl), free(ol);
  struct stat st;
  cr_assert(lstat(fifo, &st) == 0 && S_ISFIFO(st.st_mode), "the FIFO was replaced");
  free(streamed);
  free(out);
  free(err);
}

Test(output, wmg_is_streamed_into_a_fifo) {
  char fifo[600], got[600], *out, *err;
  snprintf(fifo, sizeof fifo, "%s/pipe", tf.dir);
  snprintf(got, sizeof got, "%s/got.wmg", tf.dir);
  cr_assert_eq(mkfifo(fifo, 0600), 0);
  pid_t r = fifo_reader(fifo, got);
  int rc = wm_test_run(&out, &err, "convert '%s' '%s'", tf.graph, fifo);
  cr_assert_eq(rc, 0, "stderr: %s", err);
  reader_done(r);
  free(out);
  free(err);
  wm_graph *g = NULL;
  wm_error e;
  cr_assert_eq(wm_read_wmg(got, &g, NULL, &e), WM_OK, "%s", e.msg); /* both hashes checked */
  cr_assert_eq(g->n, 4);
  cr_assert_eq(g->m, 8);
  wm_graph_destroy(g);
  struct stat st;
  cr_assert(lstat(fifo, &st) == 0 && S_ISFIFO(st.st_mode), "the FIFO was replaced");
}

/* /dev/stdout: to a pipe (a magic link whose text is "pipe:[N]") and to a
 * file, the matches and the summary both arrive, in order, and the link
 * stays. */
Test(output, dev_stdout_is_written_in_place) {
  char cmd[2048], got[600];
  snprintf(got, sizeof got, "%s/got.txt", tf.dir);
  for (int piped = 0; piped < 2; piped++) {
    snprintf(cmd, sizeof cmd, "%s list '%s' --pattern triangle --output /dev/stdout %s '%s'", WM_BIN, tf.graph,
             piped ? "| cat >" : ">", got);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    char *out = slurp(got);
    const char *m = strstr(out, "1 0 2\n"), *s = strstr(out, "listed 1 matches");
    cr_assert(m && s && m < s, "%s: %s", cmd, out);
    free(out);
  }
  struct stat st;
  cr_assert(lstat("/dev/stdout", &st) == 0 && S_ISLNK(st.st_mode), "/dev/stdout was replaced");
}

Test(output, directory_is_refused) {
  char *out, *err;
  int rc = wm_test_run(&out, &err, "bfs '%s' --source 0 --output '%s'", tf.graph, tf.dir);
  cr_assert_eq(rc, 1, "stderr: %s", err);
  cr_assert(strstr(err, "is a directory"), "%s", err);
  free(out);
  free(err);
}

Test(output, cache_path_that_is_a_fifo_is_left_alone) {
  char cache[600], *out, *err;
  snprintf(cache, sizeof cache, "%s.wmg", tf.graph);
  cr_assert_eq(mkfifo(cache, 0600), 0);
  int rc = wm_test_run(&out, &err, "info '%s'", tf.graph); /* would block on the FIFO if it opened it */
  cr_assert_eq(rc, 0, "stderr: %s", err);
  cr_assert(strstr(out, "vertices   4"), "%s", out);
  struct stat st;
  cr_assert(lstat(cache, &st) == 0 && S_ISFIFO(st.st_mode), "the FIFO was replaced by a cache");
  free(out);
  free(err);
}

/* ---- modes ----------------------------------------------------------- */

static mode_t convert_mode(mode_t mask, const char *name) {
  char path[600], *out, *err;
  snprintf(path, sizeof path, "%s/%s", tf.dir, name);
  mode_t old = umask(mask);
  int rc = wm_test_run(&out, &err, "convert '%s' '%s'", tf.graph, path);
  umask(old);
  cr_assert_eq(rc, 0, "stderr: %s", err);
  free(out);
  free(err);
  struct stat st;
  cr_assert_eq(stat(path, &st), 0);
  return st.st_mode & 0777;
}

Test(output, new_file_mode_follows_the_umask) {
  cr_assert_eq(convert_mode(022, "a.wmg"), 0644);
  cr_assert_eq(convert_mode(077, "b.wmg"), 0600);
  cr_assert_eq(convert_mode(027, "c.wmg"), 0640);
}

Test(output, replaced_file_keeps_its_mode) {
  char path[600];
  snprintf(path, sizeof path, "%s/kept.wmg", tf.dir);
  FILE *f = fopen(path, "w");
  fclose(f);
  cr_assert_eq(chmod(path, 0604), 0);
  cr_assert_eq(convert_mode(077, "kept.wmg"), 0604);
  struct stat st;
  cr_assert(stat(path, &st) == 0 && st.st_size > 64, "not replaced");
}

/* WM_OUTFILE_NO_SYNC skips the fsyncs, not the temporary: until the commit
 * the old file is whole under its name, after it the new one; an abort
 * leaves the old one.  (That no fsync ran is not visible from here.) */
Test(output, no_sync_still_replaces_whole_or_not_at_all) {
  char path[600];
  snprintf(path, sizeof path, "%s/counts.txt", tf.dir);
  FILE *f = fopen(path, "w");
  fputs("old counts, longer than the new ones\n", f);
  fclose(f);
  for (int commit = 0; commit <= 1; commit++) {
    wm_outfile o;
    wm_error err;
    cr_assert_eq(wm_outfile_open(&o, path, WM_OUTFILE_NO_SYNC, &err), WM_OK, "%s", err.msg);
    cr_assert(o.tmp[0] && strstr(o.tmp, ".wmtmp."), "no temporary: %s", o.tmp);
    fputs("new\n", o.f);
    fflush(o.f);
    char *during = slurp(path);
    cr_assert_str_eq(during, "old counts, longer than the new ones\n", "the target changed before the commit");
    free(during);
    if (commit) cr_assert_eq(wm_outfile_commit(&o, &err), WM_OK, "%s", err.msg);
    else wm_outfile_abort(&o);
    char *after = slurp(path);
    cr_assert_str_eq(after, commit ? "new\n" : "old counts, longer than the new ones\n");
    free(after);
    cr_assert_eq(count_names(tf.dir, ".wmtmp."), 0);
  }
}

/* ---- signals and stale temporaries ------------------------------------ */

/* The program with argv, its writer holding each finished temporary 30 s
 * before the rename (WARPMATCH_TEST_COMMIT_DELAY). */
static pid_t spawn_slow(char *const argv[]) {
  pid_t pid = fork();
  cr_assert(pid >= 0);
  if (pid == 0) {
    setenv("WARPMATCH_TEST_COMMIT_DELAY", "30", 1);
    signal(SIGINT, SIG_DFL); /* as a shell's foreground job has them */
    signal(SIGTERM, SIG_DFL);
    if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)) _exit(126);
    execv(WM_BIN, argv);
    _exit(127);
  }
  return pid;
}

/* Waits (10 s at most) for a temporary to appear in dir, signals pid, and
 * checks that it died of the signal and left no temporary and no target. */
static void signal_mid_write(pid_t pid, int sig, const char *dir, const char *target) {
  int seen = 0;
  for (int i = 0; i < 1000 && !seen; i++) {
    seen = count_names(dir, ".wmtmp.") > 0;
    if (!seen) nanosleep(&(struct timespec){0, 10000000}, NULL);
  }
  cr_assert(seen, "no temporary appeared in %s", dir);
  cr_assert_eq(kill(pid, sig), 0);
  int st;
  cr_assert_eq(waitpid(pid, &st, 0), pid);
  cr_assert(WIFSIGNALED(st) && WTERMSIG(st) == sig, "did not die of signal %d (status %#x)", sig, st);
  cr_assert_eq(count_names(dir, ".wmtmp."), 0, "a temporary is left in %s", dir);
  cr_assert_neq(access(target, F_OK), 0, "%s was published", target);
}

Test(output, sigterm_during_convert_leaves_no_temporary) {
  char target[600];
  snprintf(target, sizeof target, "%s/out.wmg", tf.dir);
  char *argv[] = {"warpmatch", "convert", tf.graph, target, "--no-cache", NULL};
  signal_mid_write(spawn_slow(argv), SIGTERM, tf.dir, target);
}

Test(output, sigint_during_list_output_leaves_no_temporary) {
  char target[600];
  snprintf(target, sizeof target, "%s/matches.txt", tf.dir);
  char *argv[] = {"warpmatch", "list", tf.graph, "--pattern", "triangle", "--no-cache", "--output", target, NULL};
  signal_mid_write(spawn_slow(argv), SIGINT, tf.dir, target);
}

Test(output, sigterm_during_cache_write_leaves_no_temporary) {
  char cache[600];
  snprintf(cache, sizeof cache, "%s.wmg", tf.graph);
  char *argv[] = {"warpmatch", "info", tf.graph, NULL};
  signal_mid_write(spawn_slow(argv), SIGTERM, tf.dir, cache);
}

static pid_t dead_pid(void) {
  pid_t pid = fork();
  cr_assert(pid >= 0);
  if (pid == 0) _exit(0);
  cr_assert_eq(waitpid(pid, NULL, 0), pid);
  return pid;
}

static void touch(const char *path) {
  FILE *f = fopen(path, "w");
  cr_assert_not_null(f, "cannot create %s", path);
  fputs("partial", f);
  fclose(f);
}

Test(output, stale_temporaries_of_dead_writers_are_cleaned) {
  char target[600], dead[1024], live[1024], other_host[1024], lookalike[1024], *out, *err;
  snprintf(target, sizeof target, "%s/old.wmg", tf.dir);
  cr_assert_eq(wm_outfile_tmp_name(dead, sizeof dead, target, (long)dead_pid(), 3), 0);
  cr_assert_eq(wm_outfile_tmp_name(live, sizeof live, target, (long)getpid(), 0), 0); /* this test: alive */
  /* the dead writer's name with another host's tag: its pid means nothing here */
  snprintf(other_host, sizeof other_host, "%s", dead);
  char *tag = strrchr(other_host, '.') - 8;
  tag[0] = tag[0] == 'f' ? '0' : 'f';
  snprintf(lookalike, sizeof lookalike, "%s/old.wmg.wmtmp.%ld.x", tf.dir, (long)dead_pid());
  touch(dead);
  touch(live);
  touch(other_host);
  touch(lookalike);
  int rc = wm_test_run(&out, &err, "convert '%s' '%s/new.wmg'", tf.graph, tf.dir);
  cr_assert_eq(rc, 0, "stderr: %s", err);
  cr_assert_neq(access(dead, F_OK), 0, "the dead writer's temporary is left");
  cr_assert_eq(access(live, F_OK), 0, "a live writer's temporary was removed");
  cr_assert_eq(access(other_host, F_OK), 0, "another host's temporary was removed");
  cr_assert_eq(access(lookalike, F_OK), 0, "a name outside the pattern was removed");
  free(out);
  free(err);
}
