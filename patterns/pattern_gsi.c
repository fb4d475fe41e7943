/* STMatch / cuTS / GSI pattern files (data/pattern/N.g of STMatch, GSI's
 * query graphs), read beside the edge-list format of pattern_parse.c, which
 * has no 't' or 'e' lines (wm_pattern_text_is_gsi tells them apart):
 *
 *   # t 0          STMatch's first line: a comment, as in the edge-list format
 *   t # 0          a graph header: any 't' line before the vertices and edges
 *   6 18 6 1       GSI's counts line, only right after the header: vertices,
 *                  edges (its 'e' lines or its distinct edges), and the largest
 *                  vertex and edge labels, which are not checked
 *   v 0 0          vertex ID (0..n-1, once each, in any order) and LABEL (an
 *   v 1 1 3        integer >= 0); a fourth field, the degree (CFL and RapidMatch
 *                  files), must equal the vertex's degree in the 'e' lines
 *   e 1 0 1        undirected edge A-B with an optional LABEL, listed once or in
 *   e 0 1 1        both directions; an 'e' may come before its 'v' lines
 *   t # -1         GSI's end of the graph: a 't' line whose last field is -1
 *
 * A '#' starts a comment except in a 't' line, which is taken whole (GSI
 * writes "t # 0").  One pattern per file: another header is an error.
 * wm_pattern has vertex labels only.  A file whose vertices all carry one
 * label is an unlabeled pattern, so that it runs exactly as its edge list
 * does; otherwise every vertex keeps its label (STMatch labels vertex i
 * with i, and its unlabeled builds drop them, as `count --ignore-labels`
 * does).  Edge labels are accepted only when every edge has the same one,
 * or none. */
#include <stdio.h>
#include <string.h>

#include "pattern_internal.h"
#include "patterns.h"

typedef struct gsi_reader {
  wm_pattern_line c;
  wm_pattern *p;
  unsigned header_line, end_line, counts_line, data_line; /* 0: not seen */
  long said_n, said_m;
  unsigned v_line[WM_MAX_K]; /* line of vertex i's 'v', 0 if none */
  int32_t v_label[WM_MAX_K];
  long v_degree[WM_MAX_K];    /* -1 when not given */
  unsigned used_line[WM_MAX_K]; /* first 'e' line naming vertex i */
  unsigned e_line[WM_MAX_K][WM_MAX_K]; /* [a][b], a < b: first line of edge a-b */
  long e_label[WM_MAX_K][WM_MAX_K];
  int e_has[WM_MAX_K][WM_MAX_K];
  unsigned e_lines;
} gsi_reader;

static int is_keyword(const char *tok, char lower) {
  return (tok[0] == lower || tok[0] == lower - 'a' + 'A') && tok[1] == '\0';
}

/* The first blank-separated word of s[0..len) into buf ("" if none). */
static void first_word(const char *s, size_t len, char *buf, size_t size) {
  size_t i = 0, n = 0;
  while (i < len && strchr(" \t\r\v\f", s[i])) i++;
  while (i < len && !strchr(" \t\r\v\f", s[i]) && n + 1 < size) buf[n++] = s[i++];
  buf[n] = '\0';
}

int wm_pattern_text_is_gsi(const char *text) {
  for (const char *s = text; *s;) {
    const char *nl = strchr(s, '\n');
    size_t len = nl ? (size_t)(nl - s) : strlen(s);
    char w[4];
    first_word(s, len, w, sizeof w);
    if (w[0] && w[0] != '#' && !is_keyword(w, 'v')) return is_keyword(w, 't') || is_keyword(w, 'e');
    s += len + (nl ? 1 : 0);
  }
  return 0;
}

static int bad_line(const gsi_reader *r, wm_error *err) {
  return wm_fail(err, WM_EINPUT,
                 "%s:%u: expected 'v ID LABEL [DEGREE]' or 'e A B [LABEL]' (GSI pattern format, "
                 "vertex ids 0-%d), got '%s'",
                 r->c.src, r->c.lineno, WM_MAX_K - 1, r->c.shown);
}

/* GSI ends a graph with "t # -1"; any 't' line ending in the field -1 does. */
static int ends_graph(const char *s, size_t len) {
  while (len && strchr(" \t\r\v\f", s[len - 1])) len--;
  return len >= 4 && memcmp(s + len - 2, "-1", 2) == 0 && strchr(" \t", s[len - 3]);
}

static int header_line(gsi_reader *r, const char *s, size_t len, wm_error *err) {
  if (ends_graph(s, len)) {
    r->end_line = r->c.lineno;
    return WM_OK;
  }
  if (r->header_line || r->data_line)
    return wm_fail(err, WM_EINPUT,
                   "%s:%u: a second graph header '%s' after the %s at line %u: only one pattern per "
                   "file is supported",
                   r->c.src, r->c.lineno, r->c.shown, r->header_line ? "header" : "vertices and edges",
                   r->header_line ? r->header_line : r->data_line);
  r->header_line = r->c.lineno;
  return WM_OK;
}

/* GSI's "VERTICES EDGES VLABELS ELABELS" right after the header. */
static int counts_line(gsi_reader *r, char **tok, unsigned n, wm_error *err) {
  long v[4];
  int ok = n == 4;
  for (unsigned i = 0; ok && i < 4; i++) ok = wm_pattern_parse_long(tok[i], &v[i]) && v[i] >= 0;
  if (!ok)
    return wm_fail(err, WM_EINPUT,
                   "%s:%u: expected GSI's counts line 'VERTICES EDGES VERTEX-LABELS EDGE-LABELS' "
                   "(integers >= 0), 'v ID LABEL [DEGREE]' or 'e A B [LABEL]', got '%s'",
                   r->c.src, r->c.lineno, r->c.shown);
  if (v[0] > WM_MAX_K)
    return wm_fail(err, WM_EINPUT, "%s:%u: the counts line says %ld vertices; a pattern has at most %d",
                   r->c.src, r->c.lineno, v[0], WM_MAX_K);
  r->counts_line = r->c.lineno;
  r->said_n = v[0];
  r->said_m = v[1];
  return WM_OK;
}

static int vertex_line(gsi_reader *r, char **tok, unsigned n, wm_error *err) {
  unsigned id = 0;
  long label = 0, degree = -1;
  int ok = (n == 3 || n == 4) && wm_pattern_parse_long(tok[2], &label) && label >= 0 &&
           label <= INT32_MAX && (n == 3 || (wm_pattern_parse_long(tok[3], &degree) && degree >= 0));
  int rc = ok ? wm_pattern_vertex_id(&r->c, tok[1], &id, err) : -1;
  if (rc > 0) return rc;
  if (rc < 0)
    return wm_fail(err, WM_EINPUT,
                   "%s:%u: expected 'v ID LABEL [DEGREE]' (ID 0-%d, LABEL and DEGREE integers >= 0), "
                   "got '%s'",
                   r->c.src, r->c.lineno, WM_MAX_K - 1, r->c.shown);
  if (r->v_line[id])
    return wm_fail(err, WM_EINPUT, "%s:%u: vertex %u is declared again (first at line %u); expected one "
                   "'v' line per vertex", r->c.src, r->c.lineno, id, r->v_line[id]);
  r->v_line[id] = r->c.lineno;
  r->v_label[id] = (int32_t)label;
  r->v_degree[id] = degree;
  return WM_OK;
}

static const char *label_text(char buf[32], int has, long label) {
  if (!has) return "no label";
  snprintf(buf, 32, "label %ld", label);
  return buf;
}

/* One label per undirected edge, and one for all edges (wm_pattern has no
 * edge labels); (a, b) as written, lo < hi. */
static int check_edge_label(const gsi_reader *r, unsigned a, unsigned b, unsigned lo, unsigned hi,
                            int has, long label, wm_error *err) {
  char x[32], y[32];
  unsigned seen = r->e_line[lo][hi];
  if (seen && (has != r->e_has[lo][hi] || (has && label != r->e_label[lo][hi])))
    return wm_fail(err, WM_EINPUT,
                   "%s:%u: edge %u-%u has %s here but %s at line %u: an undirected edge has one label",
                   r->c.src, r->c.lineno, a, b, label_text(x, has, label),
                   label_text(y, r->e_has[lo][hi], r->e_label[lo][hi]), seen);
  for (unsigned i = 0; !seen && i < WM_MAX_K; i++)
    for (unsigned j = i + 1; j < WM_MAX_K; j++)
      if (r->e_line[i][j] && (has != r->e_has[i][j] || (has && label != r->e_label[i][j])))
        return wm_fail(err, WM_EINPUT,
                       "%s:%u: edge %u-%u has %s, but edge %u-%u (line %u) has %s: edge labels are not "
                       "supported (patterns have vertex labels only), so all edges must carry the same "
                       "label or none",
                       r->c.src, r->c.lineno, a, b, label_text(x, has, label), i, j, r->e_line[i][j],
                       label_text(y, r->e_has[i][j], r->e_label[i][j]));
  return WM_OK;
}

static int edge_line(gsi_reader *r, char **tok, unsigned n, wm_error *err) {
  unsigned a = 0, b = 0;
  long label = 0;
  int ok = (n == 3 || n == 4) && (n == 3 || wm_pattern_parse_long(tok[3], &label));
  int rc = ok ? wm_pattern_vertex_id(&r->c, tok[1], &a, err) : -1;
  if (rc == WM_OK) rc = wm_pattern_vertex_id(&r->c, tok[2], &b, err);
  if (rc > 0) return rc;
  if (rc < 0)
    return wm_fail(err, WM_EINPUT,
                   "%s:%u: expected 'e A B [LABEL]' (A and B vertex ids 0-%d, LABEL an integer), got '%s'",
                   r->c.src, r->c.lineno, WM_MAX_K - 1, r->c.shown);
  if (a == b)
    return wm_fail(err, WM_EINPUT, "%s:%u: self-loop %u-%u: a pattern edge joins two different vertices",
                   r->c.src, r->c.lineno, a, b);
  unsigned lo = a < b ? a : b, hi = a < b ? b : a;
  if ((rc = check_edge_label(r, a, b, lo, hi, n == 4, label, err))) return rc;
  if (!r->e_line[lo][hi]) {
    r->e_line[lo][hi] = r->c.lineno;
    r->e_has[lo][hi] = n == 4;
    r->e_label[lo][hi] = label;
  }
  if (!r->used_line[a]) r->used_line[a] = r->c.lineno;
  if (!r->used_line[b]) r->used_line[b] = r->c.lineno;
  wm_pattern_add_edge(r->p, a, b);
  r->e_lines++;
  return WM_OK;
}

/* A line whose comment is cut off: 'v', 'e', or the counts line. */
static int data_line(gsi_reader *r, char *buf, wm_error *err) {
  char *tok[WM_PATTERN_MAX_TOKENS + 1];
  unsigned n = wm_pattern_tokenize(buf, tok);
  if (n == 0) return WM_OK;
  if (r->end_line)
    return wm_fail(err, WM_EINPUT, "%s:%u: '%s' after the end of the graph ('t ... -1' at line %u)",
                   r->c.src, r->c.lineno, r->c.shown, r->end_line);
  int v = is_keyword(tok[0], 'v'), e = is_keyword(tok[0], 'e');
  if (!v && !e) {
    long x;
    if (r->header_line && !r->counts_line && !r->data_line && wm_pattern_parse_long(tok[0], &x))
      return counts_line(r, tok, n, err);
    return bad_line(r, err);
  }
  if (!r->data_line) r->data_line = r->c.lineno;
  return v ? vertex_line(r, tok, n, err) : edge_line(r, tok, n, err);
}

static int parse_line(gsi_reader *r, const char *s, size_t len, wm_error *err) {
  char buf[256], w[4];
  first_word(s, len, w, sizeof w);
  int header = is_keyword(w, 't');
  if (!header && memchr(s, '#', len)) len = (size_t)((const char *)memchr(s, '#', len) - s);
  wm_pattern_show_line(&r->c, s, len);
  if (len >= sizeof buf) return bad_line(r, err); /* no valid line is that long */
  if (header) {
    if (r->end_line)
      return wm_fail(err, WM_EINPUT, "%s:%u: '%s' after the end of the graph ('t ... -1' at line %u): only "
                     "one pattern per file is supported", r->c.src, r->c.lineno, r->c.shown, r->end_line);
    return header_line(r, s, len, err);
  }
  memcpy(buf, s, len);
  buf[len] = '\0';
  return data_line(r, buf, err);
}

/* Every id below the largest has its 'v' line. */
static int check_vertices(const gsi_reader *r, unsigned n, wm_error *err) {
  for (unsigned i = 0; i < n; i++) {
    if (r->v_line[i]) continue;
    if (r->used_line[i])
      return wm_fail(err, WM_EINPUT,
                     "%s:%u: vertex %u of this edge has no 'v %u LABEL' line; expected one 'v ID LABEL' "
                     "line for each vertex 0-%u",
                     r->c.src, r->used_line[i], i, i, n - 1);
    return wm_fail(err, WM_EINPUT,
                   "%s: vertex %u has no 'v %u LABEL' line; expected one 'v ID LABEL' line for each "
                   "vertex 0-%u (the largest id used)",
                   r->c.src, i, i, n - 1);
  }
  return WM_OK;
}

/* The counts line and the degree fields against what the file holds. */
static int check_declared(const gsi_reader *r, unsigned n, wm_error *err) {
  unsigned distinct = wm_pattern_edges(r->p);
  if (r->counts_line && r->said_n != (long)n)
    return wm_fail(err, WM_EINPUT, "%s:%u: the counts line says %ld vertices, but the file has %u",
                   r->c.src, r->counts_line, r->said_n, n);
  if (r->counts_line && r->said_m != (long)r->e_lines && r->said_m != (long)distinct)
    return wm_fail(err, WM_EINPUT,
                   "%s:%u: the counts line says %ld edges, but the file has %u 'e' lines (%u distinct edges)",
                   r->c.src, r->counts_line, r->said_m, r->e_lines, distinct);
  for (unsigned i = 0; i < n; i++)
    if (r->v_degree[i] >= 0 && r->v_degree[i] != (long)wm_pattern_degree(r->p, i))
      return wm_fail(err, WM_EINPUT, "%s:%u: vertex %u has degree %ld here, but its 'e' lines give it %u",
                     r->c.src, r->v_line[i], i, r->v_degree[i], wm_pattern_degree(r->p, i));
  return WM_OK;
}

/* Vertex labels stay only where they tell vertices apart. */
static void apply_labels(const gsi_reader *r, unsigned n) {
  for (unsigned i = 1; i < n; i++)
    if (r->v_label[i] != r->v_label[0]) {
      for (unsigned j = 0; j < n; j++) r->p->label[j] = r->v_label[j];
      return;
    }
}

static int finish(gsi_reader *r, wm_error *err) {
  unsigned n = 0;
  for (unsigned i = 0; i < WM_MAX_K; i++)
    if (r->v_line[i] || r->used_line[i]) n = i + 1;
  r->p->k = n;
  int rc = check_vertices(r, n, err);
  if (!rc) rc = check_declared(r, n, err);
  if (rc) return rc;
  apply_labels(r, n);
  return wm_pattern_finish(r->p, r->c.src, "'e A B [LABEL]' lines", err);
}

int wm_pattern_parse_gsi(const char *text, const char *src, wm_pattern *p, wm_error *err) {
  gsi_reader r;
  memset(&r, 0, sizeof r);
  r.c.src = src;
  r.p = p;
  for (unsigned i = 0; i < WM_MAX_K; i++) r.v_degree[i] = -1;
  wm_pattern_init(p, 0);
  for (const char *s = text; *s;) {
    const char *nl = strchr(s, '\n');
    size_t len = nl ? (size_t)(nl - s) : strlen(s);
    r.c.lineno++;
    int rc = parse_line(&r, s, len, err);
    if (rc) return rc;
    s += len + (nl ? 1 : 0);
  }
  return finish(&r, err);
}
