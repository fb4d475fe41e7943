/* patterns/pattern_parse.c: the pattern text format and its errors. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "patterns.h"
#include "testutil.h"

static wm_pattern parse_ok(const char *text) {
  wm_pattern p;
  wm_error err;
  int rc = wm_pattern_parse(text, "p.txt", &p, &err);
  cr_assert_eq(rc, WM_OK, "parse failed: %s", err.msg);
  return p;
}

/* Parses text expecting an input error whose message contains want. */
static void parse_fails(const char *text, const char *want) {
  wm_pattern p;
  wm_error err;
  wm_error_clear(&err);
  int rc = wm_pattern_parse(text, "p.txt", &p, &err);
  cr_assert_eq(rc, WM_EINPUT, "'%s' should fail", text);
  cr_assert_eq(err.code, WM_EINPUT);
  cr_assert(strstr(err.msg, want), "message '%s' lacks '%s'", err.msg, want);
}

static void edges_are(const wm_pattern *p, const char *want) {
  char buf[256];
  wm_pattern_edge_string(p, buf, sizeof buf);
  cr_assert_str_eq(buf, want);
}

Test(parse, edges_and_k) {
  wm_pattern p = parse_ok("0 1\n1 2\n2 0\n");
  cr_assert_eq(p.k, 3);
  edges_are(&p, "0-1 0-2 1-2");
  cr_assert_str_eq(p.name, "p.txt");
  cr_assert_eq(p.labeled, 0);
  p = parse_ok("0 1\n1 2\n2 3\n3 4\n4 5\n5 6\n6 7\n7 0"); /* no final newline */
  cr_assert_eq(p.k, 8);
  cr_assert_eq(wm_pattern_edges(&p), 8);
}

Test(parse, comments_blanks_and_whitespace) {
  wm_pattern p = parse_ok("# a diamond\n"
                          "\n"
                          "   \t \n"
                          "0 1   # the spine\n"
                          "\t0\t2\r\n"
                          "  1 2  \n"
                          "# another comment\n"
                          "0 3\n1 3\n");
  cr_assert_eq(p.k, 4);
  edges_are(&p, "0-1 0-2 0-3 1-2 1-3");
}

Test(parse, duplicate_edges_are_ignored) {
  wm_pattern p = parse_ok("0 1\n1 0\n0 1\n1 2\n");
  cr_assert_eq(wm_pattern_edges(&p), 2);
  edges_are(&p, "0-1 1-2");
}

Test(parse, labels) {
  wm_pattern p = parse_ok("v 0 5\nv 1 *\n0 1\n1 2\nv 2 0\nv 0 5\n");
  cr_assert_eq(p.labeled, 1);
  cr_assert_eq(p.label[0], 5);
  cr_assert_eq(p.label[1], WM_ANY_LABEL);
  cr_assert_eq(p.label[2], 0);
  p = parse_ok("V 1 2147483647\n0 1\n");
  cr_assert_eq(p.label[1], 2147483647);
}

Test(parse, bad_line_names_file_and_line) {
  wm_pattern p;
  wm_error err;
  cr_assert_eq(wm_pattern_parse("0 1\n1 2\nfoo bar # x\n", "p.txt", &p, &err), WM_EINPUT);
  cr_assert_str_eq(err.msg,
                   "p.txt:3: expected 'a b' (two vertex ids 0-7) or 'v ID LABEL', got 'foo bar'");
  parse_fails("0 1 2\n", "p.txt:1: expected 'a b'");
  parse_fails("0\n", "got '0'");
  parse_fails("0 1\n0-1\n", "p.txt:2: expected 'a b'");
  parse_fails("0 1.5\n", "p.txt:1: expected 'a b'");
  parse_fails("e 0 1\n", "p.txt:1:");
  char longline[400];
  memset(longline, 'x', sizeof longline - 1);
  longline[sizeof longline - 1] = '\0';
  parse_fails(longline, "...'");
}

Test(parse, vertex_ids_out_of_range) {
  parse_fails("0 1\n1 8\n",
              "p.txt:2: vertex id 8 is out of range 0-7 (a pattern has at most 8 vertices)");
  parse_fails("-1 2\n", "vertex id -1 is out of range");
  parse_fails("0 99999999999999999999\n", "p.txt:1: expected 'a b'"); /* overflow: not a number */
}

Test(parse, self_loop) {
  parse_fails("0 1\n3 3\n", "p.txt:2: self-loop 3-3");
}

Test(parse, disconnected) {
  wm_pattern p;
  wm_error err;
  cr_assert_eq(wm_pattern_parse("0 1\n2 3\n", "x.pat", &p, &err), WM_EINPUT);
  cr_assert_str_eq(err.msg, "pattern 'x.pat': vertices 2 and 3 are not connected to the rest");
  parse_fails("0 1\nv 2 4\n", "pattern 'p.txt': vertex 2 is not connected to the rest");
  parse_fails("0 1\n1 2\n3 4\n5 6\n", "vertices 3, 4, 5 and 6 are not connected");
}

Test(parse, empty) {
  parse_fails("", "p.txt: no edges");
  parse_fails("# nothing\n\n   \n", "p.txt: no edges");
  parse_fails("v 0 1\n", "p.txt: no edges");
}

Test(parse, label_syntax) {
  parse_fails("v 1\n0 1\n", "p.txt:1: expected 'v ID LABEL'");
  parse_fails("v 1 x\n0 1\n", "p.txt:1: expected 'v ID LABEL'");
  parse_fails("v 1 -2\n0 1\n", "p.txt:1: expected 'v ID LABEL'");
  parse_fails("v 1 2 3\n0 1\n", "got 'v 1 2 3'");
  parse_fails("v 1 2147483648\n0 1\n", "p.txt:1: expected 'v ID LABEL'");
  parse_fails("0 1\nv 9 1\n", "p.txt:2: vertex id 9 is out of range");
  parse_fails("0 1\nv 1 2\nv 1 3\n", "p.txt:3: vertex 1 already has label 2, now 3");
}

Test(parse, load_and_resolve_files) {
  char dir[256], path[512];
  wm_test_tmpdir(dir, sizeof dir);
  wm_test_write(path, sizeof path, dir, "star.pat", "# star\n0 1\n0 2\n0 3\n");
  wm_pattern p;
  wm_error err;
  cr_assert_eq(wm_pattern_load(path, &p, &err), WM_OK, "%s", err.msg);
  cr_assert_str_eq(p.name, "star.pat");
  cr_assert_eq(p.k, 4);
  wm_automorphisms a;
  cr_assert_eq(wm_pattern_automorphisms(&p, &a, &err), WM_OK);
  cr_assert_eq(a.count, 6);
  wm_automorphisms_free(&a);
  cr_assert_eq(wm_pattern_resolve(path, &p, &err), WM_OK, "%s", err.msg);
  cr_assert_eq(wm_pattern_edges(&p), 3);

  wm_test_write(path, sizeof path, dir, "bad.pat", "0 1\n\n1 x\n");
  cr_assert_eq(wm_pattern_resolve(path, &p, &err), WM_EINPUT);
  char want[600];
  snprintf(want, sizeof want, "%s:3: expected 'a b'", path);
  cr_assert(strstr(err.msg, want), "%s", err.msg);

  wm_test_write(path, sizeof path, dir, "split.pat", "0 1\n2 3\n");
  cr_assert_eq(wm_pattern_load(path, &p, &err), WM_EINPUT);
  snprintf(want, sizeof want, "pattern '%s': vertices 2 and 3 are not connected", path);
  cr_assert(strstr(err.msg, want), "%s", err.msg);

  snprintf(path, sizeof path, "%s/missing.pat", dir);
  cr_assert_eq(wm_pattern_load(path, &p, &err), WM_EINPUT);
  cr_assert(strstr(err.msg, "cannot open pattern file") && strstr(err.msg, "missing.pat"), "%s",
            err.msg);

  snprintf(path, sizeof path, "%s/bin.pat", dir);
  FILE *f = fopen(path, "wb");
  cr_assert_not_null(f);
  fwrite("0 1\n\0\0", 1, 6, f);
  fclose(f);
  cr_assert_eq(wm_pattern_load(path, &p, &err), WM_EINPUT);
  cr_assert(strstr(err.msg, "binary"), "%s", err.msg);

  /* catalogue names win over files of the same name in the working dir */
  cr_assert_eq(wm_pattern_resolve("house", &p, &err), WM_OK);
  cr_assert_str_eq(p.name, "house");
  wm_test_rmdir(dir);
}

Test(parse, parsed_patterns_match_the_catalogue) {
  wm_pattern p = parse_ok("0 1\n1 2\n2 3\n3 0\n0 4\n1 4\n"); /* house */
  char name[64];
  cr_assert(wm_catalogue_name_of(&p, name, sizeof name));
  cr_assert_str_eq(name, "house");
  wm_pattern q;
  wm_error err;
  cr_assert_eq(wm_pattern_from_name("house", &q, &err), WM_OK);
  wm_canonical cp, cq;
  wm_pattern_canonical(&p, &cp);
  wm_pattern_canonical(&q, &cq);
  cr_assert_eq(cp.hash, cq.hash);
}
