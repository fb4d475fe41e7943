/* Block reading of text graphs (see line_reader.h). */
#define _POSIX_C_SOURCE 200809L
#include "line_reader.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { BLOCK = 16 << 20 };

/* Whether the file behind f starts with gzip's magic; f is rewound. */
static int starts_gzip(FILE *f) {
  unsigned char head[2];
  size_t got = fread(head, 1, sizeof head, f);
  rewind(f);
  return wm_is_gzip(head, got);
}

/* Replaces r->f by a gzip stream on the same open file (not the path
 * again, which may name another file by now). */
static int open_gzip(wm_lines *r, wm_error *err) {
  int fd = dup(fileno(r->f));
  fclose(r->f);
  r->f = NULL;
  r->gz = fd >= 0 ? gzdopen(fd, "rb") : NULL;
  if (!r->gz) {
    int e = errno ? errno : ENOMEM;
    if (fd >= 0) close(fd);
    return wm_fail(err, WM_EINPUT, "%s: cannot open: %s", r->path, strerror(e));
  }
  gzbuffer(r->gz, 1u << 17);
  return WM_OK;
}

int wm_lines_open(wm_lines *r, const char *path, int progress, wm_error *err) {
  memset(r, 0, sizeof *r);
  r->path = path;
  struct stat sb;
  if (stat(path, &sb) != 0) return wm_fail(err, WM_EINPUT, "%s: cannot open: %s", path, strerror(errno));
  if (S_ISDIR(sb.st_mode)) return wm_fail(err, WM_EINPUT, "%s: is a directory, expected a graph file", path);
  r->f = fopen(path, "rb");
  if (!r->f) return wm_fail(err, WM_EINPUT, "%s: cannot open: %s", path, strerror(errno));
  r->size = S_ISREG(sb.st_mode) ? (uint64_t)sb.st_size : 0;
  /* Only a regular file can be looked at and rewound; a pipe is read as text. */
  if (S_ISREG(sb.st_mode) && starts_gzip(r->f) && open_gzip(r, err) != WM_OK) return WM_EINPUT;
  /* A file smaller than a block gets a buffer of its size: the label and
   * pattern files are a few bytes, and a block would be 16 MB to allocate,
   * and for the sanitizers to poison, per file.  Compressed text is some
   * times its file's size; the buffer grows when a line needs it. */
  uint64_t text = r->gz ? r->size * 4 : r->size;
  r->cap = (text && text < BLOCK ? (size_t)text + 1 : BLOCK) + 1;
  r->buf = malloc(r->cap);
  if (!r->buf) {
    wm_lines_close(r);
    return wm_fail(err, WM_EINPUT, "%s: out of memory", path);
  }
  wm_progress_init(&r->progress, path, r->size, progress && r->size > (64u << 20));
  r->progress.bytes = 1;
  return WM_OK;
}

/* Decompresses up to want bytes into to; returns how many (0 at the end),
 * or -1 with err filled: damaged data, or a stream cut short (zlib reports
 * that only as Z_BUF_ERROR once the input runs out). */
static long read_gzip(wm_lines *r, char *to, size_t want, wm_error *err) {
  int got = gzread(r->gz, to, (unsigned)(want < (1u << 30) ? want : (1u << 30)));
  int code = Z_OK;
  const char *msg = gzerror(r->gz, &code);
  if (got >= 0 && (got > 0 || code == Z_OK)) {
    r->consumed = (uint64_t)gzoffset(r->gz);
    return got;
  }
  if (code == Z_BUF_ERROR)
    wm_fail(err, WM_EINPUT, "%s: gzip data ends early (a truncated file?)", r->path);
  else if (code == Z_ERRNO)
    wm_fail(err, WM_EINPUT, "%s: read error: %s", r->path, strerror(errno ? errno : EIO));
  else
    wm_fail(err, WM_EINPUT, "%s: damaged gzip data: %s", r->path, msg);
  return -1;
}

/* Moves the unread tail to the front and appends the next block; doubles
 * the buffer when the unread tail fills half of it (a line longer than
 * half a buffer), so each read still fills at least half. */
static int refill(wm_lines *r, wm_error *err) {
  if (wm_progress_stopped(&r->progress)) return wm_interrupted(err, r->path);
  size_t rest = r->len - r->pos;
  memmove(r->buf, r->buf + r->pos, rest);
  r->pos = 0;
  r->len = rest;
  if (r->cap - 1 - rest < (r->cap - 1) / 2) {
    size_t ncap = r->cap * 2;
    char *nb = realloc(r->buf, ncap);
    if (!nb) return wm_fail(err, WM_EINPUT, "%s: out of memory (a line of %zu bytes)", r->path, rest);
    r->buf = nb;
    r->cap = ncap;
  }
  size_t got;
  if (r->gz) {
    long n = read_gzip(r, r->buf + r->len, r->cap - 1 - r->len, err);
    if (n < 0) return WM_EINPUT;
    got = (size_t)n;
  } else {
    got = fread(r->buf + r->len, 1, r->cap - 1 - r->len, r->f);
    if (got == 0 && ferror(r->f))
      return wm_fail(err, WM_EINPUT, "%s: read error: %s", r->path, strerror(errno ? errno : EIO));
    r->consumed += got;
  }
  if (got == 0) r->eof = 1;
  r->len += got;
  wm_progress_update(&r->progress, r->consumed);
  return WM_OK;
}

int wm_lines_next(wm_lines *r, const char **s, const char **e, wm_error *err) {
  for (;;) {
    char *p = r->buf + r->pos, *end = r->buf + r->len;
    char *nl = p < end ? memchr(p, '\n', (size_t)(end - p)) : NULL;
    if (!nl && r->eof) {
      if (p == end) return 0;
      nl = end; /* last line without a newline */
    }
    if (nl) {
      r->pos = (size_t)(nl - r->buf) + (nl < end);
      r->line++;
      if (nl > p && nl[-1] == '\r') nl--;
      *s = p;
      *e = nl;
      return 1;
    }
    if (refill(r, err) != WM_OK) return -1;
  }
}

int wm_lines_block(wm_lines *r, const char **s, const char **e, wm_error *err) {
  for (;;) {
    char *p = r->buf + r->pos, *end = r->buf + r->len, *last = end;
    while (last > p && last[-1] != '\n') last--;
    if (last == p && r->eof) last = end; /* final line without a newline */
    if (last > p) {
      r->pos = (size_t)(last - r->buf);
      *s = p;
      *e = last;
      return 1;
    }
    if (r->eof) return 0;
    if (refill(r, err) != WM_OK) return -1;
  }
}

void wm_lines_close(wm_lines *r) {
  if (r->f) fclose(r->f);
  if (r->gz) gzclose(r->gz);
  r->gz = NULL;
  wm_progress_finish(&r->progress);
  free(r->buf);
  r->f = NULL;
  r->buf = NULL;
}

int wm_peek_text(const char *path, char *head, size_t size, size_t *got, int *gzip, wm_error *err) {
  *got = 0;
  *gzip = 0;
  FILE *f = fopen(path, "rb");
  if (!f) return wm_fail(err, WM_EINPUT, "%s: cannot open: %s", path, strerror(errno));
  size_t n = fread(head, 1, size, f);
  int bad = ferror(f);
  fclose(f);
  if (bad) return wm_fail(err, WM_EINPUT, "%s: read error: %s", path, strerror(errno ? errno : EIO));
  *got = n;
  if (!wm_is_gzip(head, n)) return WM_OK;
  *gzip = 1;
  gzFile gz = gzopen(path, "rb");
  if (!gz) return wm_fail(err, WM_EINPUT, "%s: cannot open: %s", path, strerror(errno ? errno : ENOMEM));
  /* What comes out before an error is all the format check needs; the
   * reader reports a damaged or cut stream with its line. */
  int k = gzread(gz, head, (unsigned)size);
  gzclose(gz);
  *got = k > 0 ? (size_t)k : 0;
  return WM_OK;
}

void wm_quote_line(const char *s, const char *e, char *out, size_t size) {
  size_t w = 0, max = size - 1;
  int cut = (size_t)(e - s) > max;
  if (cut) max = max > 3 ? max - 3 : 0;
  for (; s < e && w < max; s++) out[w++] = (*s >= 32 && *s < 127) ? *s : '?';
  if (cut) for (int i = 0; i < 3 && w < size - 1; i++) out[w++] = '.';
  out[w] = '\0';
}

void wm_quote_number(const char *s, const char *e, char *out, size_t size) {
  size_t len = (size_t)(e - s);
  if (len < size) {
    memcpy(out, s, len);
    out[len] = '\0';
    return;
  }
  char tail[40];
  int t = snprintf(tail, sizeof tail, "... (%zu digits)", len);
  size_t keep = size - 1 > (size_t)t ? size - 1 - (size_t)t : 0;
  memcpy(out, s, keep);
  snprintf(out + keep, size - keep, "%s", tail);
}

int wm_arcs_reserve(wm_arcs *a, uint64_t cap) {
  if (cap <= a->cap) return 0;
  uint32_t *s = realloc(a->src, cap * sizeof *s);
  if (!s) return -1;
  a->src = s;
  uint32_t *d = realloc(a->dst, cap * sizeof *d);
  if (!d) return -1;
  a->dst = d;
  a->cap = cap;
  return 0;
}

void wm_arcs_free(wm_arcs *a) {
  free(a->src);
  free(a->dst);
  memset(a, 0, sizeof *a);
}
