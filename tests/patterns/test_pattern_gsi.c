/* patterns/pattern_gsi.c: STMatch / GSI pattern files ('t', 'v', 'e' lines),
 * told apart from the edge-list format by content, their errors, and the
 * 24 STMatch patterns of patterns/stmatch written in that format
 * read back as the edge lists they are. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_check.h"
#include "patterns.h"
#include "testutil.h"

static wm_pattern parse_ok(const char *text) {
  wm_pattern p;
  wm_error err;
  int rc = wm_pattern_parse(text, "p.g", &p, &err);
  cr_assert_eq(rc, WM_OK, "parse failed: %s\n%s", err.msg, text);
  return p;
}

/* Parses text expecting an input error whose message contains want. */
static void parse_fails(const char *text, const char *want) {
  wm_pattern p;
  wm_error err;
  wm_error_clear(&err);
  int rc = wm_pattern_parse(text, "p.g", &p, &err);
  cr_assert_eq(rc, WM_EINPUT, "'%s' should fail", text);
  cr_assert(strstr(err.msg, want), "message '%s' lacks '%s'", err.msg, want);
}

static void edges_are(const wm_pattern *p, const char *want) {
  char buf[256];
  wm_pattern_edge_string(p, buf, sizeof buf);
  cr_assert_str_eq(buf, want);
}

/* STMatch's data/pattern/1.g, byte for byte. */
static const char stmatch_1g[] = "# t 0\nv 0 0\nv 1 1\nv 2 2\nv 3 3\nv 4 4\n"
                                 "e 1 0 1\ne 0 1 1\ne 2 0 1\ne 0 2 1\ne 2 1 1\ne 1 2 1\n"
                                 "e 3 2 1\ne 2 3 1\ne 4 2 1\ne 2 4 1\ne 4 3 1\ne 3 4 1\n";

/* GSI's query triangle (data/triangle.g of its repository). */
static const char gsi_triangle[] = "t # 0\n3 3 1 1\nv 0 1\nv 1 1\nv 2 1\ne 0 1 1\ne 1 2 1\ne 2 0 1\nt # -1\n";

Test(gsi, stmatch_and_gsi_files) {
  wm_pattern p = parse_ok(stmatch_1g);
  cr_assert_eq(p.k, 5);
  edges_are(&p, "0-1 0-2 1-2 2-3 2-4 3-4");
  cr_assert_eq(p.labeled, 1, "STMatch labels vertex i with i");
  for (unsigned i = 0; i < 5; i++) cr_assert_eq(p.label[i], (int32_t)i);
  cr_assert_str_eq(p.name, "p.g");
  p = parse_ok(gsi_triangle);
  cr_assert_eq(p.k, 3);
  edges_are(&p, "0-1 0-2 1-2");
  cr_assert_eq(p.labeled, 0, "one label for all: unlabeled");
  /* GSI writes no newline after "t # -1"; CRLF lines and comments */
  p = parse_ok("t # 0\r\n2 1 1 1\r\nv 0 7 # the first\r\n\r\nv 1 7\r\ne 0 1 2\r\nt # -1");
  cr_assert_eq(p.k, 2);
  cr_assert_eq(p.labeled, 0);
}

Test(gsi, header_forms_and_order) {
  /* CFL / RapidMatch style: "t N M", degrees, no edge labels */
  wm_pattern p = parse_ok("t 3 2\nv 0 0 1\nv 1 0 2\nv 2 0 1\ne 0 1\ne 1 2\n");
  edges_are(&p, "0-1 1-2");
  /* no header at all, vertices in any order, edges before their vertices */
  p = parse_ok("e 2 1\ne 1 0\nv 2 4\nv 0 4\nv 1 4\n");
  edges_are(&p, "0-1 1-2");
  cr_assert_eq(p.labeled, 0);
  p = parse_ok("v 1 1\nv 0 1\ne 0 1\n");
  cr_assert_eq(p.k, 2);
  /* "t # 1" as the header (not the end marker) */
  p = parse_ok("t # 1\nv 0 0\nv 1 0\ne 0 1\n");
  cr_assert_eq(p.k, 2);
}

Test(gsi, labels) {
  wm_pattern p = parse_ok("t\nv 0 3\nv 1 5\nv 2 3\ne 0 1\ne 1 2\n");
  cr_assert_eq(p.labeled, 1);
  cr_assert_eq(p.label[0], 3);
  cr_assert_eq(p.label[1], 5);
  cr_assert_eq(p.label[2], 3);
  p = parse_ok("t\nv 0 2147483647\nv 1 0\ne 0 1\n");
  cr_assert_eq(p.label[0], 2147483647);
  parse_fails("t\nv 0 2147483648\nv 1 0\ne 0 1\n", "p.g:2: expected 'v ID LABEL [DEGREE]'");
  parse_fails("t\nv 0 -1\nv 1 0\ne 0 1\n", "p.g:2: expected 'v ID LABEL [DEGREE]' (ID 0-7, LABEL and DEGREE "
                                           "integers >= 0), got 'v 0 -1'");
  parse_fails("t\nv 0 *\n", "p.g:2: expected 'v ID LABEL [DEGREE]'");
}

Test(gsi, edge_labels) {
  wm_pattern p = parse_ok("t\nv 0 0\nv 1 0\nv 2 0\ne 0 1 3\ne 1 0 3\ne 1 2 3\n");
  cr_assert_eq(wm_pattern_edges(&p), 2);
  parse_fails("t\nv 0 0\nv 1 0\nv 2 0\ne 0 1 1\ne 1 2 2\n",
              "p.g:6: edge 1-2 has label 2, but edge 0-1 (line 5) has label 1: edge labels are not supported");
  parse_fails("t\nv 0 0\nv 1 0\ne 0 1 1\ne 1 0 2\n",
              "p.g:5: edge 1-0 has label 2 here but label 1 at line 4: an undirected edge has one label");
  parse_fails("t\nv 0 0\nv 1 0\nv 2 0\ne 0 1\ne 1 2 1\n", "p.g:6: edge 1-2 has label 1, but edge 0-1 (line 5) has no label");
  parse_fails("t\nv 0 0\nv 1 0\ne 0 1 1\ne 1 0\n", "p.g:5: edge 1-0 has no label here but label 1 at line 4");
}

Test(gsi, vertex_errors) {
  parse_fails("t\nv 0 0\nv 8 0\ne 0 8\n", "p.g:3: vertex id 8 is out of range 0-7 (a pattern has at most 8 vertices)");
  parse_fails("t\nv 0 0\nv 1 0\ne 1 9\n", "p.g:4: vertex id 9 is out of range 0-7");
  /* nine vertices: the ninth line is the one out of range */
  parse_fails("t\nv 0 0\nv 1 0\nv 2 0\nv 3 0\nv 4 0\nv 5 0\nv 6 0\nv 7 0\nv 8 0\n", "p.g:10: vertex id 8 is out of range");
  parse_fails("t # 0\n9 8 1 1\n", "p.g:2: the counts line says 9 vertices; a pattern has at most 8");
  parse_fails("t\nv 0 0\nv 2 0\ne 0 2\ne 2 1\n",
              "p.g:5: vertex 1 of this edge has no 'v 1 LABEL' line; expected one 'v ID LABEL' line for each vertex 0-2");
  parse_fails("t\nv 0 0\nv 1 0\nv 3 0\ne 0 1\n",
              "p.g: vertex 2 has no 'v 2 LABEL' line; expected one 'v ID LABEL' line for each vertex 0-3");
  parse_fails("t\ne 0 1\nv 0 0\n", "p.g:2: vertex 1 of this edge has no 'v 1 LABEL' line");
  parse_fails("e 0 1\n", "p.g:1:"); /* no 'v' lines at all */
  parse_fails("t\nv 0 0\nv 0 0\nv 1 0\ne 0 1\n", "p.g:3: vertex 0 is declared again (first at line 2)");
  parse_fails("t\nv 0 0 2\nv 1 0 1\ne 0 1\n", "p.g:2: vertex 0 has degree 2 here, but its 'e' lines give it 1");
  parse_fails("t\nv 0 0 1 4\n", "p.g:2: expected 'v ID LABEL [DEGREE]'");
  parse_fails("t\nv 0\n", "got 'v 0'");
  parse_fails("t\nv x 0\n", "p.g:2: expected 'v ID LABEL [DEGREE]'");
}

Test(gsi, edge_errors) {
  parse_fails("t\nv 0 0\nv 1 0\ne 1 1\n", "p.g:4: self-loop 1-1");
  parse_fails("t\nv 0 0\nv 1 0\ne 0\n", "p.g:4: expected 'e A B [LABEL]' (A and B vertex ids 0-7, LABEL an integer), got 'e 0'");
  parse_fails("t\nv 0 0\nv 1 0\ne 0 1 x\n", "p.g:4: expected 'e A B [LABEL]'");
  parse_fails("t\nv 0 0\nv 1 0\ne 0 1 1 1\n", "p.g:4: expected 'e A B [LABEL]'");
  parse_fails("t\nv 0 0\nv 1 0\n0 1\n",
              "p.g:4: expected 'v ID LABEL [DEGREE]' or 'e A B [LABEL]' (GSI pattern format, vertex ids 0-7), got '0 1'");
  parse_fails("t\nv 0 0\nv 1 0\nx 0 1\n", "p.g:4: expected 'v ID LABEL [DEGREE]' or 'e A B [LABEL]'");
  parse_fails("t # 0\nv 0 0\nv 1 0\nv 2 0\nv 3 0\ne 0 1\ne 2 3\n",
              "pattern 'p.g': vertices 2 and 3 are not connected to the rest");
  parse_fails("t # 0\nv 0 0\nv 1 0\n", "p.g: no edges (expected 'e A B [LABEL]' lines)");
  parse_fails("t # 0\nt # -1\n", "p.g: no edges");
}

Test(gsi, headers_and_counts) {
  parse_fails("t # 0\nv 0 0\nv 1 0\ne 0 1\nt # 1\nv 0 0\n",
              "p.g:5: a second graph header 't # 1' after the header at line 1: only one pattern per file is supported");
  parse_fails("v 0 0\nv 1 0\ne 0 1\nt 2 1\n",
              "p.g:4: a second graph header 't 2 1' after the vertices and edges at line 1: only one pattern");
  parse_fails("t # 0\nt # 1\n", "p.g:2: a second graph header");
  parse_fails("t # 0\nv 0 0\nv 1 0\ne 0 1\nt # -1\nv 2 0\ne 1 2\n",
              "p.g:6: 'v 2 0' after the end of the graph ('t ... -1' at line 5)");
  parse_fails("t # 0\nv 0 0\nv 1 0\ne 0 1\nt # -1\nt # 1\n", "p.g:6: 't # 1' after the end of the graph");
  /* after the end, comments and blank lines are fine */
  parse_ok("t # 0\nv 0 0\nv 1 0\ne 0 1\nt # -1\n# done\n\n");
  /* the counts line: edges as listed or as distinct edges */
  parse_ok("t # 0\n2 1 1 1\nv 0 1\nv 1 1\ne 0 1 1\ne 1 0 1\n");
  parse_ok("t # 0\n2 2 1 1\nv 0 1\nv 1 1\ne 0 1 1\ne 1 0 1\n");
  parse_fails("t # 0\n3 1 1 1\nv 0 1\nv 1 1\ne 0 1 1\n", "p.g:2: the counts line says 3 vertices, but the file has 2");
  parse_fails("t # 0\n2 5 1 1\nv 0 1\nv 1 1\ne 0 1 1\ne 1 0 1\n",
              "p.g:2: the counts line says 5 edges, but the file has 2 'e' lines (1 distinct edges)");
  parse_fails("t # 0\n2 1 1\n", "p.g:2: expected GSI's counts line 'VERTICES EDGES VERTEX-LABELS EDGE-LABELS'");
  parse_fails("t # 0\nv 0 1\n2 1 1 1\n", "p.g:3: expected 'v ID LABEL [DEGREE]' or 'e A B [LABEL]'");
}

/* The edge-list format is unchanged where a file starts with 'v' lines or
 * a "# t" comment: only 't' and 'e' lines make a file GSI. */
Test(gsi, edge_list_format_unchanged) {
  wm_pattern p = parse_ok("v 0 5\nv 1 *\n0 1\n1 2\n");
  cr_assert_eq(p.labeled, 1);
  cr_assert_eq(p.label[1], WM_ANY_LABEL);
  p = parse_ok("# t 0\n0 1\n1 2\n");
  edges_are(&p, "0-1 1-2");
  parse_fails("v 1 2 3\n0 1\n", "p.g:1: expected 'v ID LABEL' (ID 0-7, LABEL an integer >= 0 or '*'), got 'v 1 2 3'");
  parse_fails("0 1\ne 1 2\n", "p.g:2: expected 'a b' (two vertex ids 0-7) or 'v ID LABEL', got 'e 1 2'");
}

Test(gsi, load_names_the_file) {
  char dir[256], path[512], want[700];
  wm_test_tmpdir(dir, sizeof dir);
  wm_test_write(path, sizeof path, dir, "13.g", "# t 0\nv 0 0\nv 1 1\ne 0 1 1\ne 1 1 1\n");
  wm_pattern p;
  wm_error err;
  cr_assert_eq(wm_pattern_resolve(path, &p, &err), WM_EINPUT);
  snprintf(want, sizeof want, "%s:5: self-loop 1-1", path);
  cr_assert(strstr(err.msg, want), "%s", err.msg);
  /* detected by content, whatever the name */
  wm_test_write(path, sizeof path, dir, "pattern.txt", gsi_triangle);
  cr_assert_eq(wm_pattern_load(path, &p, &err), WM_OK, "%s", err.msg);
  cr_assert_str_eq(p.name, "pattern.txt");
  cr_assert_eq(wm_pattern_edges(&p), 3);
  wm_test_rmdir(dir);
}

/* ---- the 24 STMatch patterns ------------------------------------------ */

enum gsi_style { STMATCH, GSI_ONCE, CFL_BOTH, N_STYLES };

static size_t add(char *buf, size_t size, size_t len, const char *fmt, unsigned a, unsigned b, unsigned c) {
  int w = snprintf(buf + len, size - len, fmt, a, b, c);
  cr_assert(w >= 0 && (size_t)w < size - len, "pattern text too long");
  return len + (size_t)w;
}

/* p in one of three spellings of the format: STMatch's own (labels = ids,
 * each edge both ways with label 1); GSI's (header, counts line, one label
 * for all, vertices in reverse, each edge once, end marker without a final
 * newline); CFL's (edges first, both ways, no labels, degrees given). */
static void write_as(const wm_pattern *p, enum gsi_style style, char *buf, size_t size) {
  size_t len = 0;
  unsigned k = p->k, m = wm_pattern_edges(p);
  if (style == STMATCH) len = add(buf, size, len, "# t 0\n", 0, 0, 0);
  if (style == GSI_ONCE) len = add(buf, size, len, "t # 0\n%u %u 1 1\n", k, m, 0);
  if (style == CFL_BOTH) len = add(buf, size, len, "t %u %u\n", k, m, 0);
  for (unsigned v = 0; style != CFL_BOTH && v < k; v++)
    len = add(buf, size, len, "v %u %u\n", style == GSI_ONCE ? k - 1 - v : v, style == GSI_ONCE ? 1 : v, 0);
  for (unsigned a = 0; a < k; a++)
    for (unsigned b = a + 1; b < k; b++) {
      if (!wm_pattern_has_edge(p, a, b)) continue;
      if (style == STMATCH) len = add(buf, size, len, "e %u %u 1\n", b, a, 0);
      len = add(buf, size, len, style == CFL_BOTH ? "e %u %u\n" : "e %u %u 1\n", a, b, 0);
      if (style == CFL_BOTH) len = add(buf, size, len, "e %u %u\n", b, a, 0);
    }
  for (unsigned v = 0; style == CFL_BOTH && v < k; v++)
    len = add(buf, size, len, "v %u 0 %u\n", v, (unsigned)__builtin_popcount(p->adj[v]), 0);
  if (style == GSI_ONCE) add(buf, size, len, "t # -1", 0, 0, 0);
}

static void same_pattern(const wm_pattern *got, const wm_pattern *want, const char *what) {
  cr_assert_eq(got->k, want->k, "%s: k %u, want %u", what, got->k, want->k);
  cr_assert_eq(memcmp(got->adj, want->adj, sizeof got->adj), 0, "%s: other edges", what);
  cr_assert_eq(got->labeled, 0, "%s: should be unlabeled", what);
  wm_canonical a, b;
  wm_pattern_canonical(got, &a);
  wm_pattern_canonical(want, &b);
  cr_assert_eq(a.hash, b.hash, "%s: canonical hashes differ", what);
}

Test(gsi, stmatch_patterns_read_as_their_edge_lists) {
  char dir[256];
  wm_test_tmpdir(dir, sizeof dir);
  for (unsigned n = 1; n <= 24; n++) {
    char name[64], path[512], text[4096];
    snprintf(name, sizeof name, "stmatch/p%u.txt", n);
    wm_test_pattern_file(path, sizeof path, name);
    wm_pattern want, got;
    wm_error err;
    cr_assert_eq(wm_pattern_load(path, &want, &err), WM_OK, "%s", err.msg);
    for (int style = 0; style < N_STYLES; style++) {
      write_as(&want, (enum gsi_style)style, text, sizeof text);
      snprintf(name, sizeof name, "%u-%d.g", n, style);
      wm_test_write(path, sizeof path, dir, name, text);
      cr_assert_eq(wm_pattern_resolve(path, &got, &err), WM_OK, "%s\n%s", err.msg, text);
      cr_assert_str_eq(got.name, name);
      if (style == STMATCH) {
        cr_assert_eq(got.labeled, 1, "%s", name);
        for (unsigned v = 0; v < got.k; v++) {
          cr_assert_eq(got.label[v], (int32_t)v, "%s: vertex %u", name, v);
          wm_pattern_set_label(&got, v, WM_ANY_LABEL);
        }
      }
      same_pattern(&got, &want, name);
    }
  }
  wm_test_rmdir(dir);
}

/* ---- count end to end --------------------------------------------------- */

/* count's "count" for one pattern file (extra: more options); fails the
 * test unless it exits 0. */
static uint64_t count_of(const char *graph, const char *pattern, const char *extra) {
  char *out, *err;
  int rc = wm_test_run(&out, &err, "count %s --pattern %s --json --no-cache --device cpu %s", graph, pattern, extra);
  cr_assert_eq(rc, 0, "count --pattern %s %s: exit %d: %s", pattern, extra, rc, err);
  uint64_t c = json_u64(out, "count");
  free(out), free(err);
  return c;
}

/* STMatch's 1.g (two triangles sharing a vertex) counts as p1.txt does:
 * its shape with --ignore-labels or when every label is the same, its
 * labels 0..4 against the graph's with --labels as the edge list's 'v'
 * lines do; without either it is a usage error that names both options. */
Test(gsi, count_agrees_with_the_edge_list) {
  wm_test_files f;
  char text[1024], stm[512], gsi[512], txt[512], txt_lab[512], lab[512];
  wm_test_clique_text(text, sizeof text, 7, 0, 1);
  strcat(text, "6 7\n7 8\n8 6\n");
  wm_test_graph_file(&f, text);
  wm_test_write(stm, sizeof stm, f.dir, "1.g", stmatch_1g);
  wm_test_write(txt, sizeof txt, f.dir, "p1.txt", "0 1\n0 2\n1 2\n2 3\n2 4\n3 4\n");
  wm_pattern p1 = parse_ok(stmatch_1g);
  for (unsigned v = 0; v < p1.k; v++) wm_pattern_set_label(&p1, v, WM_ANY_LABEL);
  write_as(&p1, GSI_ONCE, text, sizeof text);
  wm_test_write(gsi, sizeof gsi, f.dir, "gsi1.g", text);
  uint64_t want = count_of(f.graph, txt, "");
  cr_assert_gt(want, 0);
  cr_assert_eq(count_of(f.graph, stm, "--ignore-labels"), want);
  cr_assert_eq(count_of(f.graph, gsi, ""), want);
  cr_assert_eq(count_of(f.graph, gsi, "--method enumerate"), count_of(f.graph, txt, "--method enumerate"));

  wm_test_write(lab, sizeof lab, f.dir, "lab.txt", "0 0\n1 1\n2 2\n3 3\n4 4\n5 2\n6 0\n7 1\n8 2\n");
  wm_test_write(txt_lab, sizeof txt_lab, f.dir, "p1-lab.txt",
                "0 1\n0 2\n1 2\n2 3\n2 4\n3 4\nv 0 0\nv 1 1\nv 2 2\nv 3 3\nv 4 4\n");
  char opt[600];
  snprintf(opt, sizeof opt, "--labels %s", lab);
  uint64_t labeled = count_of(f.graph, txt_lab, opt);
  cr_assert_gt(labeled, 0);
  cr_assert_lt(labeled, want);
  cr_assert_eq(count_of(f.graph, stm, opt), labeled);

  char *out, *err;
  cr_assert_eq(wm_test_run(&out, &err, "count %s --pattern %s --no-cache --device cpu", f.graph, stm), 2);
  cr_assert(strstr(err, "--labels") && strstr(err, "--ignore-labels"), "%s", err);
  free(out), free(err);
  wm_test_write(stm, sizeof stm, f.dir, "bad.g", "t # 0\nv 0 0\nv 1 0\ne 0 1 1\ne 1 2 1\n");
  cr_assert_eq(wm_test_run(&out, &err, "count %s --pattern %s --no-cache --device cpu", f.graph, stm), 1);
  char want_msg[700];
  snprintf(want_msg, sizeof want_msg, "%s:5: vertex 2 of this edge has no 'v 2 LABEL' line", stm);
  cr_assert(strstr(err, want_msg), "%s", err);
  free(out), free(err);
  wm_test_rmdir(f.dir);
}
