/* Matrix Market coordinate files as graphs: entry (i, j) is arc i-1 -> j-1.
 * Pattern, integer and real fields (values ignored); general, symmetric and
 * skew-symmetric storage (the latter two list one triangle: both directions
 * are added, also for --directed).  n = max(rows, cols), so isolated
 * vertices count; the graph keeps the file's 1-based ids as orig_ids. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "datasets.h"
#include "line_reader.h"

typedef struct mtx_header {
  int symmetric;
  uint64_t rows, cols, entries;
  char entries_text[72]; /* the size line's digits, for messages */
} mtx_header;

/* Next whitespace-separated word of [*p, e) into w (lower-cased). */
static int next_word(const char **p, const char *e, char *w, size_t size) {
  const char *s = wm_skip_blank(*p, e);
  size_t k = 0;
  while (s < e && *s != ' ' && *s != '\t') {
    if (k + 1 < size) w[k++] = (char)((*s >= 'A' && *s <= 'Z') ? *s + 32 : *s);
    s++;
  }
  w[k] = '\0';
  *p = s;
  return k > 0;
}

static int parse_banner(const wm_lines *r, const char *s, const char *e, mtx_header *h, wm_error *err) {
  char w[5][32];
  const char *p = s;
  for (int i = 0; i < 5; i++) next_word(&p, e, w[i], sizeof w[i]);
  if (strcmp(w[0], "%%matrixmarket") != 0 || strcmp(w[1], "matrix") != 0)
    return wm_fail(err, WM_EINPUT, "%s:1: expected '%%%%MatrixMarket matrix coordinate ...', got a different banner", r->path);
  if (strcmp(w[2], "array") == 0)
    return wm_fail(err, WM_EINPUT, "%s:1: dense 'array' Matrix Market files are not graphs; expected 'coordinate'", r->path);
  if (strcmp(w[2], "coordinate") != 0)
    return wm_fail(err, WM_EINPUT, "%s:1: expected format 'coordinate', got '%s'", r->path, w[2]);
  if (strcmp(w[3], "complex") == 0)
    return wm_fail(err, WM_EINPUT, "%s:1: complex matrices are not supported; expected field pattern, integer or real", r->path);
  if (strcmp(w[3], "pattern") != 0 && strcmp(w[3], "integer") != 0 && strcmp(w[3], "real") != 0)
    return wm_fail(err, WM_EINPUT, "%s:1: expected field pattern, integer or real, got '%s'", r->path, w[3]);
  if (strcmp(w[4], "hermitian") == 0)
    return wm_fail(err, WM_EINPUT, "%s:1: hermitian matrices are not supported; expected general, symmetric or skew-symmetric", r->path);
  if (strcmp(w[4], "general") == 0) h->symmetric = 0;
  else if (strcmp(w[4], "symmetric") == 0 || strcmp(w[4], "skew-symmetric") == 0) h->symmetric = 1;
  else
    return wm_fail(err, WM_EINPUT, "%s:1: expected symmetry general, symmetric or skew-symmetric, got '%s'", r->path, w[4]);
  return WM_OK;
}

static int parse_size(const wm_lines *r, const char *s, const char *e, mtx_header *h, wm_error *err) {
  const char *p = wm_skip_blank(s, e), *from[3], *to[3];
  uint64_t v[3];
  for (int i = 0; i < 3; i++) {
    from[i] = p;
    const char *q = to[i] = p ? wm_parse_uint(p, e, &v[i]) : NULL;
    if (!q || (q < e && *q != ' ' && *q != '\t')) p = NULL;
    else p = wm_skip_blank(q, e);
  }
  if (!p || p != e) {
    char quoted[64];
    wm_quote_line(s, e, quoted, sizeof quoted);
    return wm_fail(err, WM_EINPUT, "%s:%llu: expected the size line 'rows cols entries', got '%s'",
                   r->path, (unsigned long long)r->line, quoted);
  }
  h->rows = v[0], h->cols = v[1], h->entries = v[2];
  wm_quote_number(from[2], to[2], h->entries_text, sizeof h->entries_text);
  /* File ids are 1..n and must themselves be valid ids (<= 2^32 - 2). */
  for (int i = 0; i < 2; i++)
    if (v[i] > WM_MAX_VERTEX_ID) {
      char num[72];
      wm_quote_number(from[i], to[i], num, sizeof num);
      return wm_fail(err, WM_EINPUT, "%s:%llu: size line: %s %s is more than the largest vertex count %lu",
                     r->path, (unsigned long long)r->line, num, i ? "columns" : "rows",
                     (unsigned long)WM_MAX_VERTEX_ID);
    }
  return WM_OK;
}

/* One entry line "i j [value]" (1-based). */
static int parse_entry(const wm_lines *r, const mtx_header *h, const char *s, const char *e,
                       uint32_t *u, uint32_t *v, wm_error *err) {
  const char *p = wm_skip_blank(s, e);
  uint64_t i, j;
  const char *q = wm_parse_uint(p, e, &i);
  const char *t = q ? wm_skip_blank(q, e) : NULL;
  const char *z = (t && t > q) ? wm_parse_uint(t, e, &j) : NULL;
  if (!z || (z < e && *z != ' ' && *z != '\t')) {
    char quoted[64];
    wm_quote_line(p, e, quoted, sizeof quoted);
    return wm_fail(err, WM_EINPUT, "%s:%llu: expected an entry 'row col [value]', got '%s'", r->path,
                   (unsigned long long)r->line, quoted);
  }
  if (i < 1 || i > h->rows || j < 1 || j > h->cols) {
    char a[72], b[72];
    wm_quote_number(p, q, a, sizeof a);
    wm_quote_number(t, z, b, sizeof b);
    return wm_fail(err, WM_EINPUT, "%s:%llu: entry (%s, %s) is outside the %llu x %llu matrix (ids are 1-based)",
                   r->path, (unsigned long long)r->line, a, b, (unsigned long long)h->rows,
                   (unsigned long long)h->cols);
  }
  *u = (uint32_t)(i - 1);
  *v = (uint32_t)(j - 1);
  return WM_OK;
}

/* Reads banner, comments and size line; leaves r at the first entry. */
static int read_header(wm_lines *r, mtx_header *h, wm_error *err) {
  const char *s, *e;
  int got = wm_lines_next(r, &s, &e, err);
  if (got < 0) return WM_EINPUT;
  if (got == 0) return wm_fail(err, WM_EINPUT, "%s: empty file, expected a Matrix Market banner", r->path);
  int rc = parse_banner(r, s, e, h, err);
  if (rc) return rc;
  while ((got = wm_lines_next(r, &s, &e, err)) > 0) {
    const char *p = wm_skip_blank(s, e);
    if (p == e || *p == '%') continue;
    return parse_size(r, s, e, h, err);
  }
  if (got < 0) return WM_EINPUT;
  return wm_fail(err, WM_EINPUT, "%s:%llu: unexpected end of file, expected the size line 'rows cols entries'",
                 r->path, (unsigned long long)r->line);
}

static int read_entries(wm_lines *r, const mtx_header *h, int directed, wm_arcs *arcs, wm_error *err) {
  /* Room for the declared entries, but not beyond what the file can hold
   * (an entry line takes 4 bytes at least, "1 1\n"), so that a short file
   * declaring billions of entries does not reserve gigabytes. */
  uint64_t mult = (h->symmetric && directed) ? 2 : 1, want = h->entries;
  if (r->size && want > r->size / 4 + 1) want = r->size / 4 + 1;
  want *= mult;
  if (want < (1ull << 31) && wm_arcs_reserve(arcs, want) != 0)
    return wm_fail(err, WM_EINPUT, "%s: out of memory for %llu entries", r->path, (unsigned long long)h->entries);
  const char *s, *e;
  int got;
  uint64_t seen = 0;
  while ((got = wm_lines_next(r, &s, &e, err)) > 0) {
    const char *p = wm_skip_blank(s, e);
    if (p == e || *p == '%') continue;
    if (++seen > h->entries)
      return wm_fail(err, WM_EINPUT, "%s:%llu: more entries than the %s the size line declares",
                     r->path, (unsigned long long)r->line, h->entries_text);
    uint32_t u = 0, v = 0;
    if (parse_entry(r, h, s, e, &u, &v, err) != WM_OK) return WM_EINPUT;
    if (wm_arcs_push(arcs, u, v) != 0 || (h->symmetric && directed && wm_arcs_push(arcs, v, u) != 0))
      return wm_fail(err, WM_EINPUT, "%s: out of memory after %llu entries", r->path, (unsigned long long)seen);
  }
  if (got < 0) return WM_EINPUT;
  if (seen < h->entries)
    return wm_fail(err, WM_EINPUT, "%s:%llu: the file ends after %llu entries, the size line declares %s",
                   r->path, (unsigned long long)r->line, (unsigned long long)seen, h->entries_text);
  return WM_OK;
}

/* Users give and see the file's 1-based ids, so internal v is file id v+1. */
static int set_file_ids(wm_graph *g, const char *path, wm_error *err) {
  g->orig_ids = malloc(((size_t)g->n + 1) * sizeof *g->orig_ids);
  if (!g->orig_ids) return wm_fail(err, WM_EINPUT, "%s: out of memory", path);
  for (uint32_t v = 0; v < g->n; v++) g->orig_ids[v] = v + 1;
  return WM_OK;
}

int wm_read_mtx(const char *path, int directed, int progress, wm_graph **out, wm_error *err) {
  *out = NULL;
  wm_lines r;
  int rc = wm_lines_open(&r, path, progress, err);
  if (rc) return rc;
  mtx_header h = {0};
  wm_arcs arcs = {0};
  rc = read_header(&r, &h, err);
  if (!rc && h.entries == 0)
    rc = wm_fail(err, WM_EINPUT, "%s: no edges: the size line declares 0 entries", path);
  if (!rc) rc = read_entries(&r, &h, directed, &arcs, err);
  wm_lines_close(&r);
  if (!rc) {
    uint64_t n = h.rows > h.cols ? h.rows : h.cols;
    rc = wm_graph_from_arcs(arcs.src, arcs.dst, arcs.count, n, directed, out, err);
    if (!rc) rc = set_file_ids(*out, path, err);
    if (rc) {
      wm_graph_destroy(*out);
      *out = NULL;
      if (!strstr(err->msg, path)) {
        wm_error inner = *err;
        wm_fail(err, rc, "%s: %s", path, inner.msg);
      }
    }
  }
  wm_arcs_free(&arcs);
  return rc;
}
