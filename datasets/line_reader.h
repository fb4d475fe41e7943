/* Line-by-line reading of big text graphs without per-line stdio calls:
 * the file is read in 16 MB blocks and lines are handed out as pointer
 * ranges into the block.  A gzip file (known by its magic bytes, whatever
 * its name) is decompressed on the way.  Also the small number parser the
 * readers share. */
#ifndef WM_LINE_READER_H
#define WM_LINE_READER_H

#include <stdint.h>
#include <stdio.h>

#include <zlib.h>

#include "base.h"
#include "wm_error.h"

typedef struct wm_lines {
  FILE *f;
  gzFile gz;            /* instead of f for a gzip file */
  const char *path;
  char *buf;
  size_t cap, len, pos; /* buf[pos..len) is unread */
  int eof;
  uint64_t line;        /* number of the line last returned (1-based) */
  uint64_t consumed;    /* bytes read from the file so far (compressed ones for gzip) */
  uint64_t size;        /* file size (0 if unknown) */
  wm_progress progress;
} wm_lines;

/* Opens path for reading (a directory or unreadable file is an error). */
int wm_lines_open(wm_lines *r, const char *path, int progress, wm_error *err);
/* Whether the first bytes of a file are gzip's magic (1f 8b). */
static inline int wm_is_gzip(const void *head, size_t got) {
  const unsigned char *h = head;
  return got >= 2 && h[0] == 0x1f && h[1] == 0x8b;
}
/* Reads up to size bytes from the start of path, decompressed when it is
 * gzip, into head; *got says how many.  *gzip is set when it was. */
int wm_peek_text(const char *path, char *head, size_t size, size_t *got, int *gzip, wm_error *err);
/* Next line without its "\n" or "\r\n": returns 1 and sets [*s, *e), 0 at
 * the end of the file, or WM_EINPUT-coded -1 on a read error (err filled). */
int wm_lines_next(wm_lines *r, const char **s, const char **e, wm_error *err);
/* Next run of whole lines [*s, *e) (each ending in '\n' except perhaps the
 * file's last): as much as the buffer holds, for parsers that split it
 * among threads.  Returns 1, 0 at the end of the file, or -1 on a read
 * error.  The caller counts lines itself (r->line is not advanced).  Do
 * not mix with wm_lines_next on one reader. */
int wm_lines_block(wm_lines *r, const char **s, const char **e, wm_error *err);
void wm_lines_close(wm_lines *r);

/* Parses decimal digits at p (before e): returns the end of the digits, or
 * NULL when p holds no digit.  Values above 2^36 saturate (one compare per
 * digit on the readers' hot path), which callers treat as out of range: ids
 * must be <= 2^32 - 2 anyway.  A message shows the digits themselves
 * (wm_quote_number), never the value. */
static inline const char *wm_parse_uint(const char *p, const char *e, uint64_t *v) {
  const char *start = p;
  uint64_t x = 0;
  while (p < e && (unsigned)(*p - '0') < 10) {
    if (x < (1ull << 36)) x = x * 10 + (uint64_t)(*p - '0');
    p++;
  }
  *v = x;
  return p == start ? NULL : p;
}

static inline const char *wm_skip_blank(const char *p, const char *e) {
  while (p < e && (*p == ' ' || *p == '\t')) p++;
  return p;
}

/* Copies the digits [s, e) into out for a message: all of them when they
 * fit, else the first ones and "... (N digits)". */
void wm_quote_number(const char *s, const char *e, char *out, size_t size);

/* Copies the line [s, e) into out (at most size-1 chars, non-printable
 * bytes as '?', "..." when cut), for error messages. */
void wm_quote_line(const char *s, const char *e, char *out, size_t size);

/* Growable pair of arc arrays the text readers fill. */
typedef struct wm_arcs {
  uint32_t *src, *dst;
  uint64_t count, cap;
} wm_arcs;

int wm_arcs_reserve(wm_arcs *a, uint64_t cap); /* 0 ok, -1 out of memory */
static inline int wm_arcs_push(wm_arcs *a, uint32_t s, uint32_t d) {
  if (a->count == a->cap && wm_arcs_reserve(a, a->cap ? 2 * a->cap : 1024) != 0) return -1;
  a->src[a->count] = s;
  a->dst[a->count++] = d;
  return 0;
}
void wm_arcs_free(wm_arcs *a);

#endif
