/* SNAP-style edge lists: "u v" per line, any spaces or tabs between, '#'
 * and '%' comment lines, blank lines, CRLF, and extra columns (weight,
 * timestamp) after the two ids, which are ignored.  CSV and TSV too: a
 * comma (with blanks around it or not) separates fields as blanks do, and
 * a header line (see is_header) is skipped.
 *
 * Each 16 MB block of whole lines is cut at line ends into one piece per
 * thread, at most one per BYTES_PER_THREAD (facebook's 0.8 MB took 2.5-4
 * ms on one thread of a 16-core host); threads parse into their own arc
 * lists, appended in order, so the result does not depend on the thread
 * count.  Line numbers for error messages come from per-piece line
 * counts. */
#include <stdlib.h>
#include <string.h>

#include "datasets.h"
#include "graph_internal.h"
#include "line_reader.h"

enum { BAD_SYNTAX = 1, BAD_RANGE = 2, BAD_MEMORY = 3 };

/* About 6,000 lines of a SNAP file (wm_par_threads says why not all). */
#define BYTES_PER_THREAD ((uint64_t)WM_PAR_MIN)

static int min_int(int a, int b) { return a < b ? a : b; }

/* One thread's share of a block. */
typedef struct piece {
  const char *s, *e;
  wm_arcs arcs;
  uint64_t lines;        /* lines parsed (up to and including a bad one) */
  int bad;               /* BAD_* of the first bad line, 0 if none */
  const char *bad_s, *bad_e;
  const char *num_s, *num_e; /* BAD_RANGE: the digits of the id */
} piece;

/* Skips the separator after a field: blanks, or one comma with blanks
 * around it or not; NULL when there is none. */
static const char *skip_separator(const char *p, const char *e) {
  const char *q = wm_skip_blank(p, e);
  if (q < e && *q == ',') q = wm_skip_blank(q + 1, e);
  return q > p ? q : NULL;
}

static int comment_or_blank(const char *s, const char *e) {
  const char *p = wm_skip_blank(s, e);
  return p == e || *p == '#' || *p == '%';
}

/* Parses one line into arcs; returns 0 or a BAD_* code (BAD_RANGE: the
 * id's digits in *num). */
static int parse_line(const char *s, const char *e, wm_arcs *arcs, const char *num[2]) {
  if (comment_or_blank(s, e)) return 0;
  const char *p = wm_skip_blank(s, e);
  uint64_t a, b;
  const char *q = wm_parse_uint(p, e, &a);
  const char *t = q ? skip_separator(q, e) : NULL;
  const char *z = t ? wm_parse_uint(t, e, &b) : NULL;
  if (!z || (z < e && *z != ' ' && *z != '\t' && *z != ',')) return BAD_SYNTAX;
  if (a > WM_MAX_VERTEX_ID || b > WM_MAX_VERTEX_ID) {
    num[0] = a > WM_MAX_VERTEX_ID ? p : t;
    num[1] = a > WM_MAX_VERTEX_ID ? q : z;
    return BAD_RANGE;
  }
  return wm_arcs_push(arcs, (uint32_t)a, (uint32_t)b) ? BAD_MEMORY : 0;
}

static void parse_piece(piece *pc) {
  const char *s = pc->s;
  while (s < pc->e) {
    const char *nl = memchr(s, '\n', (size_t)(pc->e - s));
    const char *end = nl ? nl : pc->e, *line_end = end;
    if (line_end > s && line_end[-1] == '\r') line_end--;
    pc->lines++;
    const char *num[2] = {NULL, NULL};
    int bad = parse_line(s, line_end, &pc->arcs, num);
    if (bad) {
      pc->num_s = num[0];
      pc->num_e = num[1];
      pc->bad = bad;
      pc->bad_s = s;
      pc->bad_e = line_end;
      return;
    }
    s = nl ? nl + 1 : pc->e;
  }
}

/* Cuts [s, e) into k pieces at line ends. */
static void cut(const char *s, const char *e, piece *pcs, int k) {
  const char *at = s;
  for (int t = 0; t < k; t++) {
    const char *want = s + (size_t)(e - s) * (size_t)(t + 1) / (size_t)k;
    if (want < at) want = at;
    while (want < e && want > s && want[-1] != '\n') want++;
    pcs[t].s = at;
    pcs[t].e = t == k - 1 ? e : want;
    at = pcs[t].e;
  }
}

static int report(const char *path, uint64_t line, const piece *pc, wm_error *err) {
  char quoted[64];
  wm_quote_line(wm_skip_blank(pc->bad_s, pc->bad_e), pc->bad_e, quoted, sizeof quoted);
  if (pc->bad == BAD_SYNTAX)
    return wm_fail(err, WM_EINPUT, "%s:%llu: expected two vertex ids, got '%s'", path,
                   (unsigned long long)line, quoted);
  if (pc->bad == BAD_RANGE) {
    char id[72];
    wm_quote_number(pc->num_s, pc->num_e, id, sizeof id);
    return wm_fail(err, WM_EINPUT, "%s:%llu: vertex id %s is above the largest supported id %lu", path,
                   (unsigned long long)line, id, (unsigned long)WM_MAX_VERTEX_ID);
  }
  return wm_fail(err, WM_EINPUT, "%s:%llu: out of memory", path, (unsigned long long)line);
}

/* Parses one block with k threads and appends its arcs in order. */
static int parse_block(const char *path, const char *s, const char *e, piece *pcs, int k,
                       wm_arcs *all, uint64_t *lines, wm_error *err) {
  cut(s, e, pcs, k);
#pragma omp parallel for num_threads(k) schedule(static, 1) if (k > 1)
  for (int t = 0; t < k; t++) {
    pcs[t].arcs.count = 0;
    pcs[t].lines = 0;
    pcs[t].bad = 0;
    parse_piece(&pcs[t]);
  }
  for (int t = 0; t < k; t++) {
    if (pcs[t].bad) return report(path, *lines + pcs[t].lines, &pcs[t], err);
    *lines += pcs[t].lines;
    uint64_t c = pcs[t].arcs.count;
    if (!c) continue;
    if (all->count + c > all->cap && wm_arcs_reserve(all, 2 * (all->count + c)) != 0)
      return wm_fail(err, WM_EINPUT, "%s: out of memory after %llu edges", path, (unsigned long long)all->count);
    memcpy(all->src + all->count, pcs[t].arcs.src, c * sizeof *all->src);
    memcpy(all->dst + all->count, pcs[t].arcs.dst, c * sizeof *all->dst);
    all->count += c;
  }
  return WM_OK;
}

/* Whether [s, e) is an optionally signed integer, blanks around it allowed. */
static int integer_field(const char *s, const char *e) {
  const char *p = wm_skip_blank(s, e);
  if (p < e && (*p == '-' || *p == '+')) p++;
  uint64_t v;
  const char *q = wm_parse_uint(p, e, &v);
  return q && wm_skip_blank(q, e) == e;
}

/* A CSV or TSV header such as "source,target": a line with a comma or a
 * tab whose first two fields (split at commas, else at tabs) are neither
 * of them an integer.  Only the file's first line that is not blank or a
 * comment can be one. */
static int is_header(const char *s, const char *e) {
  const char *comma = memchr(s, ',', (size_t)(e - s));
  char sep = comma ? ',' : '\t';
  const char *f1 = memchr(s, sep, (size_t)(e - s));
  if (!f1) return 0;
  const char *f2 = memchr(f1 + 1, sep, (size_t)(e - f1 - 1));
  if (!f2) f2 = e;
  return !integer_field(s, f1) && !integer_field(f1 + 1, f2);
}

/* Skips the comment lines and the header at the start of the first block
 * [*s, e), counting them in *lines; a data line stays where it is. */
static void skip_header(const char **s, const char *e, uint64_t *lines) {
  const char *p = *s;
  uint64_t n = 0;
  while (p < e) {
    const char *nl = memchr(p, '\n', (size_t)(e - p));
    const char *end = nl ? nl : e, *line_end = end;
    if (line_end > p && line_end[-1] == '\r') line_end--;
    n++;
    const char *next = nl ? nl + 1 : e;
    if (!comment_or_blank(p, line_end)) {
      if (!is_header(p, line_end)) return;
      *s = next;
      *lines += n;
      return;
    }
    p = next;
  }
}

static int read_arcs(wm_lines *r, wm_arcs *all, uint64_t *lines, wm_error *err) {
  enum { MAX_PIECES = 64 };
  piece pcs[MAX_PIECES];
  memset(pcs, 0, sizeof pcs);
  int rc = WM_OK;
  const char *s, *e;
  int got;
  int first = 1;
  while (!rc && (got = wm_lines_block(r, &s, &e, err)) != 0) {
    if (got > 0 && first) skip_header(&s, e, lines);
    first = 0;
    if (got < 0) rc = WM_EINPUT;
    else
      rc = parse_block(r->path, s, e, pcs, min_int(MAX_PIECES, wm_par_threads((uint64_t)(e - s), BYTES_PER_THREAD)),
                       all, lines, err);
  }
  for (int t = 0; t < MAX_PIECES; t++) wm_arcs_free(&pcs[t].arcs);
  return rc;
}

int wm_read_edgelist(const char *path, int directed, int progress, wm_graph **out, wm_error *err) {
  *out = NULL;
  wm_lines r;
  int rc = wm_lines_open(&r, path, progress, err);
  if (rc) return rc;
  wm_arcs arcs = {0};
  uint64_t lines = 0;
  /* About 12 bytes per line in typical files: reserve once, grow rarely. */
  if (wm_arcs_reserve(&arcs, r.size / 12 + 1024) != 0) rc = wm_fail(err, WM_EINPUT, "%s: out of memory", path);
  if (!rc) rc = read_arcs(&r, &arcs, &lines, err);
  wm_lines_close(&r);
  if (!rc && arcs.count == 0)
    rc = wm_fail(err, WM_EINPUT, "%s: no edges found in %llu lines (expected lines 'u v' of vertex ids)",
                 path, (unsigned long long)lines);
  if (!rc) {
    rc = wm_graph_from_arcs(arcs.src, arcs.dst, arcs.count, 0, directed, out, err);
    if (rc) {
      wm_error inner = *err;
      wm_fail(err, rc, "%s: %s", path, inner.msg);
    }
  }
  wm_arcs_free(&arcs);
  return rc;
}
