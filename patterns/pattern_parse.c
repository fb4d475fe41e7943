/* The pattern text format:
 *
 *   # a comment (also after the data on a line)
 *   0 1          an edge between vertex ids 0..7
 *   v 2 5        vertex 2 carries label 5 (an integer >= 0, or '*' for any)
 *
 * k is the largest id used plus one.  Repeated edges are ignored; a repeated
 * "v" line must repeat the same label.  The result is validated (connected,
 * at least one edge), and every error names the source and the line.
 * Files in the STMatch / GSI format ('t', 'v' and 'e' lines) are told apart
 * by their content and read by pattern_gsi.c. */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pattern_internal.h"
#include "patterns.h"

#define MAX_TOKENS WM_PATTERN_MAX_TOKENS
#define MAX_PATTERN_FILE (1u << 20)

typedef wm_pattern_line line_ctx;

unsigned wm_pattern_tokenize(char *s, char *tok[MAX_TOKENS + 1]) {
  unsigned n = 0;
  for (char *save = NULL, *t = strtok_r(s, " \t\r\v\f", &save); t;
       t = strtok_r(NULL, " \t\r\v\f", &save)) {
    tok[n++] = t;
    if (n == MAX_TOKENS + 1) break;
  }
  return n;
}

int wm_pattern_parse_long(const char *t, long *out) {
  char *end;
  errno = 0;
  long v = strtol(t, &end, 10);
  if (end == t || *end || errno) return 0;
  *out = v;
  return 1;
}

int wm_pattern_vertex_id(const line_ctx *c, const char *t, unsigned *id, wm_error *err) {
  long v;
  if (!wm_pattern_parse_long(t, &v)) return -1;
  if (v < 0 || v >= WM_MAX_K)
    return wm_fail(err, WM_EINPUT,
                   "%s:%u: vertex id %s is out of range 0-%d (a pattern has at most %d vertices)",
                   c->src, c->lineno, t, WM_MAX_K - 1, WM_MAX_K);
  *id = (unsigned)v;
  return WM_OK;
}

static int bad_edge_line(const line_ctx *c, wm_error *err) {
  return wm_fail(err, WM_EINPUT,
                 "%s:%u: expected 'a b' (two vertex ids 0-%d) or 'v ID LABEL', got '%s'", c->src,
                 c->lineno, WM_MAX_K - 1, c->shown);
}

static int label_line(const line_ctx *c, char **tok, unsigned n, wm_pattern *p,
                      unsigned *max_id, wm_error *err) {
  unsigned id = 0;
  long label = WM_ANY_LABEL;
  int ok = n == 3 && (strcmp(tok[2], "*") == 0 ||
                      (wm_pattern_parse_long(tok[2], &label) && label >= 0 && label <= INT32_MAX));
  int rc = ok ? wm_pattern_vertex_id(c, tok[1], &id, err) : -1;
  if (rc > 0) return rc;
  if (!ok || rc < 0)
    return wm_fail(err, WM_EINPUT,
                   "%s:%u: expected 'v ID LABEL' (ID 0-%d, LABEL an integer >= 0 or '*'), got '%s'",
                   c->src, c->lineno, WM_MAX_K - 1, c->shown);
  if (p->label[id] != WM_ANY_LABEL && p->label[id] != (int32_t)label)
    return wm_fail(err, WM_EINPUT, "%s:%u: vertex %u already has label %d, now %ld", c->src,
                   c->lineno, id, (int)p->label[id], label);
  p->label[id] = (int32_t)label;
  if (id + 1 > *max_id) *max_id = id + 1;
  return WM_OK;
}

static int edge_line(const line_ctx *c, char **tok, unsigned n, wm_pattern *p, unsigned *max_id,
                     wm_error *err) {
  if (n != 2) return bad_edge_line(c, err);
  unsigned a = 0, b = 0;
  int rc = wm_pattern_vertex_id(c, tok[0], &a, err);
  if (rc == WM_OK) rc = wm_pattern_vertex_id(c, tok[1], &b, err);
  if (rc < 0) return bad_edge_line(c, err);
  if (rc) return rc;
  if (a == b)
    return wm_fail(err, WM_EINPUT, "%s:%u: self-loop %u-%u: a pattern edge joins two different vertices",
                   c->src, c->lineno, a, b);
  wm_pattern_add_edge(p, a, b);
  unsigned hi = (a > b ? a : b) + 1;
  if (hi > *max_id) *max_id = hi;
  return WM_OK;
}

void wm_pattern_show_line(line_ctx *c, const char *s, size_t len) {
  while (len && (*s == ' ' || *s == '\t')) s++, len--;
  while (len && strchr(" \t\r\v\f", s[len - 1])) len--;
  if (len >= sizeof c->shown) {
    snprintf(c->shown, sizeof c->shown, "%.*s...", (int)(sizeof c->shown - 4), s);
  } else {
    memcpy(c->shown, s, len);
    c->shown[len] = '\0';
  }
}

static int parse_line(line_ctx *c, const char *s, size_t len, wm_pattern *p, unsigned *max_id,
                      wm_error *err) {
  const char *hash = memchr(s, '#', len);
  if (hash) len = (size_t)(hash - s);
  char buf[256];
  wm_pattern_show_line(c, s, len);
  if (len >= sizeof buf) return bad_edge_line(c, err); /* no valid line is that long */
  memcpy(buf, s, len);
  buf[len] = '\0';
  char *tok[MAX_TOKENS + 1];
  unsigned n = wm_pattern_tokenize(buf, tok);
  if (n == 0) return WM_OK;
  if (strcmp(tok[0], "v") == 0 || strcmp(tok[0], "V") == 0)
    return label_line(c, tok, n, p, max_id, err);
  return edge_line(c, tok, n, p, max_id, err);
}

static void set_name(wm_pattern *p, const char *source) {
  const char *slash = strrchr(source, '/');
  snprintf(p->name, sizeof p->name, "%s", slash ? slash + 1 : source);
}

int wm_pattern_finish(wm_pattern *p, const char *src, const char *expected, wm_error *err) {
  set_name(p, src);
  for (unsigned i = 0; i < p->k; i++)
    if (p->label[i] != WM_ANY_LABEL) p->labeled = 1;
  if (wm_pattern_edges(p) == 0) return wm_fail(err, WM_EINPUT, "%s: no edges (expected %s)", src, expected);
  char who[1100];
  snprintf(who, sizeof who, "pattern '%s'", src);
  return wm_pattern_validate_as(p, who, err);
}

int wm_pattern_parse(const char *text, const char *source_name, wm_pattern *p, wm_error *err) {
  line_ctx c = {.src = source_name ? source_name : "<pattern>", .lineno = 0};
  if (wm_pattern_text_is_gsi(text)) return wm_pattern_parse_gsi(text, c.src, p, err);
  wm_pattern_init(p, 0);
  unsigned max_id = 0;
  for (const char *s = text; *s;) {
    const char *nl = strchr(s, '\n');
    size_t len = nl ? (size_t)(nl - s) : strlen(s);
    c.lineno++;
    int rc = parse_line(&c, s, len, p, &max_id, err);
    if (rc) return rc;
    s += len + (nl ? 1 : 0);
  }
  p->k = max_id;
  char expected[64];
  snprintf(expected, sizeof expected, "lines 'a b' with vertex ids 0-%d", WM_MAX_K - 1);
  return wm_pattern_finish(p, c.src, expected, err);
}

int wm_pattern_load(const char *path, wm_pattern *p, wm_error *err) {
  FILE *f = fopen(path, "rb");
  if (!f) return wm_fail(err, WM_EINPUT, "cannot open pattern file '%s': %s", path, strerror(errno));
  char *text = malloc(MAX_PATTERN_FILE + 1);
  if (!text) {
    fclose(f);
    return wm_fail(err, WM_EINPUT, "out of memory reading pattern file '%s'", path);
  }
  size_t got = fread(text, 1, MAX_PATTERN_FILE + 1, f);
  int read_error = ferror(f);
  fclose(f);
  int rc;
  if (read_error)
    rc = wm_fail(err, WM_EINPUT, "cannot read pattern file '%s'", path);
  else if (got > MAX_PATTERN_FILE)
    rc = wm_fail(err, WM_EINPUT, "pattern file '%s' is over %u bytes; expected a few edge lines",
                 path, MAX_PATTERN_FILE);
  else if (memchr(text, '\0', got))
    rc = wm_fail(err, WM_EINPUT, "pattern file '%s' is binary; expected text lines 'a b'", path);
  else {
    text[got] = '\0';
    rc = wm_pattern_parse(text, path, p, err);
  }
  free(text);
  return rc;
}
