/* Bad input through the program: each case gives the right exit code and a
 * message naming the file (and line) and what was expected; `convert`
 * leaves no partial output behind on any failure. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "datasets.h"
#include "testutil.h"
#include "warpmatch.h"

static char dir[256];
static void setup(void) {
  wm_test_tmpdir(dir, sizeof dir);
  char c[512];
  snprintf(c, sizeof c, "%s/cache", dir);
  setenv("WARPMATCH_CACHE_DIR", c, 1);
}
static void teardown(void) { wm_test_rmdir(dir); }
TestSuite(bad_input, .init = setup, .fini = teardown);

/* Runs `warpmatch ARGS`, expects exit code `want`, and checks that stderr
 * contains each of the (up to two) fragments. */
static void expect(int want, const char *frag1, const char *frag2, const char *args) {
  char *out = NULL, *err = NULL;
  int rc = wm_test_run(&out, &err, "%s", args);
  cr_assert_eq(rc, want, "'%s' exited %d, expected %d; stderr: %s", args, rc, want, err);
  if (frag1) cr_assert(strstr(err, frag1), "stderr of '%s' lacks '%s': %s", args, frag1, err);
  if (frag2) cr_assert(strstr(err, frag2), "stderr of '%s' lacks '%s': %s", args, frag2, err);
  free(out);
  free(err);
}

static void write_wmg(char *path, size_t size) {
  char txt[512];
  wm_test_write(txt, sizeof txt, dir, "ok.txt", "0 1\n1 2\n2 0\n2 3\n3 4\n");
  snprintf(path, size, "%s/ok.wmg", dir);
  char args[1200];
  snprintf(args, sizeof args, "convert %s %s", txt, path);
  expect(0, NULL, NULL, args);
}

/* No file in dir starts with `prefix` (the output or its temporary). */
static void assert_no_output(const char *prefix) {
  DIR *d = opendir(dir);
  cr_assert_not_null(d);
  struct dirent *e;
  while ((e = readdir(d)))
    cr_assert(strncmp(e->d_name, prefix, strlen(prefix)) != 0, "left behind: %s/%s", dir, e->d_name);
  closedir(d);
}

Test(bad_input, missing_file) {
  char args[600];
  snprintf(args, sizeof args, "info %s/nope.txt", dir);
  expect(1, "nope.txt", "cannot open", args);
}

Test(bad_input, unreadable_file) {
  /* Root reads any file whatever its mode, so a directory stands for the
   * unreadable input; a chmod-000 file is checked too when not root. */
  char args[600];
  snprintf(args, sizeof args, "info %s", dir);
  expect(1, dir, "directory", args);
  if (geteuid() != 0) {
    char p[512];
    wm_test_write(p, sizeof p, dir, "secret.txt", "0 1\n");
    cr_assert_eq(chmod(p, 0), 0);
    snprintf(args, sizeof args, "info %s", p);
    expect(1, "secret.txt", "Permission denied", args);
  }
}

Test(bad_input, malformed_line) {
  char p[512], args[600];
  wm_test_write(p, sizeof p, dir, "bad.txt", "# comment\n0 1\n1 2\n2 three\n");
  snprintf(args, sizeof args, "info %s", p);
  expect(1, "bad.txt:4: expected two vertex ids", "'2 three'", args);
}

Test(bad_input, vertex_id_beyond_limit) {
  char p[512], args[600];
  wm_test_write(p, sizeof p, dir, "big.txt", "0 1\n1 4294967295\n");
  snprintf(args, sizeof args, "info %s", p);
  expect(1, "big.txt:2:", "4294967295", args);
}

Test(bad_input, empty_graph) {
  char p[512], args[600];
  wm_test_write(p, sizeof p, dir, "empty.txt", "# no edges at all\n\n");
  snprintf(args, sizeof args, "info %s", p);
  expect(1, "empty.txt", "no edges", args);
}

Test(bad_input, truncated_wmg) {
  char p[512], args[600];
  write_wmg(p, sizeof p);
  cr_assert_eq(truncate(p, 100), 0);
  snprintf(args, sizeof args, "info %s", p);
  expect(1, "ok.wmg", "truncated", args);
}

Test(bad_input, corrupted_wmg) {
  char p[512], args[600];
  write_wmg(p, sizeof p);
  FILE *f = fopen(p, "r+b");
  cr_assert_not_null(f);
  fseek(f, 80, SEEK_SET);
  fputc(0x7f, f);
  fclose(f);
  snprintf(args, sizeof args, "info %s", p);
  expect(1, "ok.wmg", "checksum mismatch", args);
}

Test(bad_input, unknown_option_and_usage) {
  expect(2, "unknown option", "--frobnicate", "info x.txt --frobnicate");
  expect(2, "expected", NULL, "info");
  expect(2, "--format", NULL, "info x.txt --format csv");
  expect(2, NULL, NULL, "convert only-one-argument");
}

Test(bad_input, convert_failure_leaves_no_output) {
  char bad[512], args[1200];
  wm_test_write(bad, sizeof bad, dir, "bad.txt", "0 1\n1 x\n");
  snprintf(args, sizeof args, "convert %s %s/out.wmg", bad, dir);
  expect(1, "bad.txt:2:", NULL, args);
  assert_no_output("out.wmg");
  /* fails after loading, before writing */
  char ok[512];
  wm_test_write(ok, sizeof ok, dir, "ok.txt", "0 1\n1 2\n");
  snprintf(args, sizeof args, "convert %s %s/out.wmg --directed --orient", ok, dir);
  expect(1, "undirected", NULL, args);
  assert_no_output("out.wmg");
}

/* A write that fails half way (file size limit: fwrite gets EFBIG) must
 * remove the temporary file and leave no output. */
Test(bad_input, convert_write_failure_leaves_no_output) {
  char big[512];
  snprintf(big, sizeof big, "%s/big.txt", dir);
  FILE *f = fopen(big, "w");
  cr_assert_not_null(f);
  for (int i = 0; i < 50000; i++) fprintf(f, "%d %d\n", i, (i * 31 + 7) % 50000);
  fclose(f);
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "sh -c \"trap '' XFSZ; ulimit -f 64; exec '%s' convert --no-cache '%s' '%s/out.wmg'\" 2>%s/err.log",
           WM_BIN, big, dir, dir);
  int st = system(cmd);
  cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 1, "expected exit 1, got status %d", st);
  assert_no_output("out.wmg");
}

/* --threads and --gpus at their limits (WARPMATCH_MAX_THREADS, _MAX_GPUS):
 * 4096 threads run, one more is a usage error naming the range, as is a
 * number past any integer; --gpus 17 too (count took up to 64 before, which
 * the GPU drivers cut to 16). */
Test(bad_input, threads_and_gpus_limits) {
  char txt[512], args[1200];
  wm_test_write(txt, sizeof txt, dir, "tri.txt", "0 1\n1 2\n2 0\n");
  snprintf(args, sizeof args, "count %s --pattern triangle --device cpu --threads 4096", txt);
  expect(0, NULL, NULL, args);
  snprintf(args, sizeof args, "count %s --pattern triangle --device cpu --threads 4097", txt);
  expect(2, "--threads", "from 0 to 4096, got '4097'", args);
  snprintf(args, sizeof args, "count %s --pattern triangle --device cpu --threads 99999999999999999999999", txt);
  expect(2, "--threads", "from 0 to 4096", args);
  snprintf(args, sizeof args, "count %s --pattern triangle --device cpu --gpus 17", txt);
  expect(2, "--gpus", "from 1 to 16, got '17'", args);
  snprintf(args, sizeof args, "bfs %s --source 0 --device cpu --gpus 17", txt);
  expect(2, "--gpus", "from 1 to 16, got '17'", args);
  snprintf(args, sizeof args, "motifs %s --size 3 --device cpu --gpus 17", txt);
  expect(2, "--gpus", "from 1 to 16, got '17'", args);
  snprintf(args, sizeof args, "list %s --pattern triangle --device cpu --gpus 17", txt);
  expect(2, "--gpus", "from 1 to 16, got '17'", args);
}

/* Every GPU tuning option and --trials at the header's limit (the CPU
 * ignores the tuning: the count runs) and one past it, refused naming the
 * option and the range the API's checks use too. */
Test(bad_input, gpu_tuning_limits) {
  char txt[512], args[1200], range[96];
  wm_test_write(txt, sizeof txt, dir, "tri.txt", "0 1\n1 2\n2 0\n");
  const struct {
    const char *option;
    long lo, hi;
  } knobs[] = {
      {"gpus", 1, WARPMATCH_MAX_GPUS},
      {"unroll", 1, WARPMATCH_GPU_MAX_UNROLL},
      {"gpu-warps", 1, WARPMATCH_GPU_MAX_WARPS},
      {"gpu-blocks", 1, WARPMATCH_GPU_MAX_BLOCKS},
      {"gpu-chunk", 1, WARPMATCH_GPU_MAX_CHUNK},
      {"gpu-table", 0, WARPMATCH_GPU_MAX_TABLE_WORDS},
      {"trials", 1, WARPMATCH_MAX_TRIALS},
  };
  for (unsigned i = 0; i < sizeof knobs / sizeof *knobs; i++) {
    snprintf(args, sizeof args, "count %s --pattern triangle --device cpu --%s %ld", txt, knobs[i].option, knobs[i].hi);
    expect(0, NULL, NULL, args);
    snprintf(args, sizeof args, "count %s --pattern triangle --device cpu --%s %ld", txt, knobs[i].option,
             knobs[i].hi + 1);
    snprintf(range, sizeof range, "from %ld to %ld, got '%ld'", knobs[i].lo, knobs[i].hi, knobs[i].hi + 1);
    expect(2, knobs[i].option, range, args);
  }
}

/* Numbers too big for their place are quoted as written, not as the
 * parser's saturated value. */
Test(bad_input, numbers_quoted_as_written) {
  char p[512], args[600];
  wm_test_write(p, sizeof p, dir, "rows.mtx",
                "%%MatrixMarket matrix coordinate pattern general\n18446744073709551615 3 2\n1 2\n");
  snprintf(args, sizeof args, "info %s", p);
  expect(1, "rows.mtx:2: size line: 18446744073709551615 rows is more than the largest vertex count 4294967294",
         NULL, args);
  wm_test_write(p, sizeof p, dir, "cols.mtx",
                "%%MatrixMarket matrix coordinate pattern general\n3 99999999999999999999999 2\n1 2\n");
  snprintf(args, sizeof args, "info %s", p);
  expect(1, "cols.mtx:2: size line: 99999999999999999999999 columns is more than", NULL, args);
  wm_test_write(p, sizeof p, dir, "entries.mtx",
                "%%MatrixMarket matrix coordinate pattern general\n3 3 18446744073709551615\n1 2\n");
  snprintf(args, sizeof args, "info %s", p);
  expect(1, "entries.mtx:3: the file ends after 1 entries, the size line declares 18446744073709551615", NULL, args);
  wm_test_write(p, sizeof p, dir, "entry.mtx",
                "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 184467440737095516150\n");
  snprintf(args, sizeof args, "info %s", p);
  expect(1, "entry.mtx:3: entry (1, 184467440737095516150) is outside the 3 x 3 matrix", NULL, args);
  wm_test_write(p, sizeof p, dir, "ids.txt", "0 1\n123456789012345678901234567890 1\n");
  snprintf(args, sizeof args, "info %s", p);
  expect(1, "ids.txt:2: vertex id 123456789012345678901234567890 is above the largest supported id 4294967294", NULL,
         args);
  /* digits beyond what a message holds: the first ones and their count */
  char text[400] = "0 ";
  memset(text + 2, '7', 300);
  strcpy(text + 302, "\n");
  wm_test_write(p, sizeof p, dir, "long.txt", text);
  snprintf(args, sizeof args, "info %s", p);
  expect(1, "long.txt:1: vertex id 7777777777", "... (300 digits) is above", args);
}

/* A .wmg whose magic is damaged says so, rather than failing as an edge
 * list ("expected two vertex ids, got 'WMGRAP?'"). */
Test(bad_input, damaged_wmg_magic) {
  char p[512], bin[512], args[1200];
  write_wmg(p, sizeof p);
  FILE *f = fopen(p, "r+b");
  cr_assert_not_null(f);
  fseek(f, 6, SEEK_SET);
  fputc('?', f); /* "WMGRAP?" */
  fclose(f);
  snprintf(args, sizeof args, "info %s", p);
  expect(1, "ok.wmg: not a valid .wmg file: bad magic 'WMGRAP?\?'", NULL, args);
  /* not named .wmg: told by "WMG" at the start, or most of the magic and a 0 byte */
  snprintf(bin, sizeof bin, "%s/graph.bin", dir);
  snprintf(args, sizeof args, "cp %s %s", p, bin);
  cr_assert_eq(system(args), 0);
  snprintf(args, sizeof args, "info %s", bin);
  expect(1, "graph.bin: not a valid .wmg file: bad magic", NULL, args);
  f = fopen(bin, "r+b");
  cr_assert_not_null(f);
  fputc('X', f); /* "XMGRAP?" */
  fclose(f);
  expect(1, "graph.bin: not a valid .wmg file: bad magic 'XMGRAP?\?'", NULL, args);
  /* a text graph named .wmg */
  wm_test_write(p, sizeof p, dir, "text.wmg", "0 1\n1 2\n");
  snprintf(args, sizeof args, "info %s", p);
  expect(1, "text.wmg: not a valid .wmg file: bad magic '0 1?1 2?'", NULL, args);
  snprintf(args, sizeof args, "info %s --format edgelist", p);
  expect(0, NULL, NULL, args);
  /* text that merely starts like the magic's letters is still text */
  wm_test_write(p, sizeof p, dir, "words.txt", "# MGRAPH-like comment\n0 1\n");
  snprintf(args, sizeof args, "info %s", p);
  expect(0, NULL, NULL, args);
}

/* A crafted .wmg with right hashes but a one-way arc: refused by the
 * program with exit 1 and the arc named. */
Test(bad_input, crafted_wmg_one_way_arc) {
  wm_graph *g = wm_graph_create(3, 3);
  cr_assert_not_null(g);
  uint64_t off[] = {0, 2, 3, 3};
  uint32_t adj[] = {1, 2, 0}; /* 0 -> 2 alone */
  memcpy(g->offsets, off, sizeof off);
  memcpy(g->adj, adj, sizeof adj);
  char p[512], args[600];
  snprintf(p, sizeof p, "%s/crafted.wmg", dir);
  wm_error err;
  cr_assert_eq(wm_write_wmg(g, p, 0, &err), WM_OK);
  wm_graph_destroy(g);
  snprintf(args, sizeof args, "count %s --pattern triangle", p);
  expect(1, "crafted.wmg: invalid .wmg file: arc 0 -> 2 has no 2 -> 0 although the graph is marked undirected", NULL,
         args);
}

Test(bad_input, binary_and_truncated_gzip_inputs) {
  char p[512], args[600];
  snprintf(p, sizeof p, "%s/blob.dat", dir);
  FILE *f = fopen(p, "wb");
  cr_assert_not_null(f);
  uint64_t s = 7;
  for (int i = 0; i < 2048; i++) fputc((int)(wm_test_rand(&s) & 0xff), f);
  fclose(f);
  snprintf(args, sizeof args, "info %s", p);
  expect(1, "blob.dat: not a graph this program reads (binary data; expected an edge list, Matrix Market, .wmg or gzip of a text one)", NULL, args);
  /* A gzip cut short: the file named, exit 1, no cache written. */
  char txt[512];
  wm_test_write(txt, sizeof txt, dir, "g.txt", "0 1\n1 2\n2 0\n");
  snprintf(args, sizeof args, "gzip -c %.300s | head -c 20 > %.250s/cut.txt.gz", txt, dir);
  cr_assert_eq(system(args), 0);
  snprintf(args, sizeof args, "info %s/cut.txt.gz", dir);
  expect(1, "cut.txt.gz: gzip data ends early", NULL, args);
  assert_no_output("cut.txt.gz.");
}

/* A directed graph where an undirected one is needed is the same mistake
 * in every command: a usage error (exit 2), whose hint names the command. */
Test(bad_input, directed_graph_same_code_everywhere) {
  char txt[512], wmg[512], args[1200];
  wm_test_write(txt, sizeof txt, dir, "d.txt", "0 1\n1 2\n2 0\n2 3\n");
  snprintf(wmg, sizeof wmg, "%s/d.wmg", dir);
  snprintf(args, sizeof args, "convert %s %s --directed", txt, wmg);
  expect(0, NULL, NULL, args);
  snprintf(args, sizeof args, "count %s --pattern triangle", wmg);
  expect(2, "undirected", "(see 'warpmatch count --help')", args);
  snprintf(args, sizeof args, "count %s --pattern triangle --directed", txt);
  expect(2, "undirected", "(see 'warpmatch count --help')", args);
  snprintf(args, sizeof args, "orbits %s --size 3", wmg);
  expect(2, "undirected", "(see 'warpmatch orbits --help')", args);
  snprintf(args, sizeof args, "list %s --pattern triangle", wmg);
  expect(2, "undirected", "(see 'warpmatch list --help')", args);
}

Test(bad_input, usage_hint_names_the_subcommand) {
  expect(2, "unknown option", "(see 'warpmatch info --help')", "info x.txt --frobnicate");
  expect(2, NULL, "(see 'warpmatch bfs --help')", "bfs x.txt --frobnicate");
}
