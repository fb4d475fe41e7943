/* Vertex labels for labeled patterns: "ID LABEL" lines in the graph file's
 * ids, '#' or '%' comments, blank lines; unlisted vertices get label 0. */
#include <stdlib.h>

#include "datasets.h"
#include "line_reader.h"

enum { MAX_LABEL = 0x7FFFFFFF };

static int bad_line(const wm_lines *r, const char *s, const char *e, wm_error *err) {
  char quoted[64];
  wm_quote_line(s, e, quoted, sizeof quoted);
  return wm_fail(err, WM_EINPUT, "%s:%llu: expected 'vertex-id label' (label 0..%d), got '%s'", r->path,
                 (unsigned long long)r->line, MAX_LABEL, quoted);
}

/* Applies one line to labels; seen marks vertices already given. */
static int label_line(const wm_lines *r, const char *s, const char *e, const wm_graph *g,
                      int32_t *labels, unsigned char *seen, wm_error *err) {
  const char *p = wm_skip_blank(s, e);
  if (p == e || *p == '#' || *p == '%') return WM_OK;
  uint64_t id, lab;
  const char *q = wm_parse_uint(p, e, &id);
  const char *t = q ? wm_skip_blank(q, e) : NULL;
  const char *z = (t && t > q) ? wm_parse_uint(t, e, &lab) : NULL;
  if (!z || wm_skip_blank(z, e) != e || lab > MAX_LABEL) return bad_line(r, p, e, err);
  uint32_t v = wm_graph_internal_id(g, id);
  if (v == WM_NO_VERTEX) {
    char num[72];
    wm_quote_number(p, q, num, sizeof num);
    return wm_fail(err, WM_EINPUT, "%s:%llu: vertex %s is not in the graph", r->path, (unsigned long long)r->line,
                   num);
  }
  if (seen[v] && labels[v] != (int32_t)lab)
    return wm_fail(err, WM_EINPUT, "%s:%llu: vertex %llu was already given label %ld", r->path,
                   (unsigned long long)r->line, (unsigned long long)id, (long)labels[v]);
  seen[v] = 1;
  labels[v] = (int32_t)lab;
  return WM_OK;
}

int wm_read_labels(const char *path, const wm_graph *g, int32_t **labels, wm_error *err) {
  *labels = NULL;
  wm_lines r;
  int rc = wm_lines_open(&r, path, 0, err);
  if (rc) return rc;
  int32_t *lab = calloc((size_t)g->n + 1, sizeof *lab);
  unsigned char *seen = calloc((size_t)g->n + 1, 1);
  if (!lab || !seen) rc = wm_fail(err, WM_EINPUT, "%s: out of memory", path);
  const char *s, *e;
  int got;
  while (!rc && (got = wm_lines_next(&r, &s, &e, err)) != 0)
    rc = got < 0 ? WM_EINPUT : label_line(&r, s, e, g, lab, seen, err);
  wm_lines_close(&r);
  free(seen);
  if (rc) {
    free(lab);
    return rc;
  }
  *labels = lab;
  return WM_OK;
}
