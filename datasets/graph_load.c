/* Loading any supported graph file, with the .wmg cache for text inputs.
 *
 * The cache key is XXH3 of the source bytes combined with everything that
 * changes the resulting graph (directed or not, the text format, and
 * CACHE_VERSION, bumped whenever a reader's semantics change).  A cache is
 * used only when its stored key equals the key just computed and it passes
 * every check of wm_read_wmg; otherwise it is rebuilt.  Failing to write a
 * cache is never an error.
 *
 * The key is no secret (anyone can hash the text), so a cache is only as
 * good as whoever could have put it there: it is read only from a folder
 * that belongs to this user (or root) and that no one else may write to (a
 * sticky world-writable folder such as /tmp does not count), and only when
 * the file itself is this user's and no one else's to write.  Anything else
 * is ignored with a note in wm_load_info and the text is parsed. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base.h"
#include "datasets.h"
#include "graph_internal.h"
#include "line_reader.h"

enum { CACHE_VERSION = 1 };

void wm_load_options_init(wm_load_options *o) {
  memset(o, 0, sizeof *o);
  o->format = WM_FORMAT_AUTO;
  o->use_cache = 1;
}

/* A .wmg file whose magic is damaged, rather than a text graph: it is
 * named .wmg, starts with "WMG", or has most of the magic's bytes where
 * they belong and a 0 byte in its first 16 (text has none). */
static int damaged_wmg(const char *path, const char *head, size_t got) {
  static const char magic[8] = "WMGRAPH";
  size_t len = strlen(path);
  if (len >= 4 && strcasecmp(path + len - 4, ".wmg") == 0) return 1;
  if (got >= 3 && memcmp(head, magic, 3) == 0) return 1;
  int same = 0;
  for (size_t i = 0; i < 8 && i < got; i++) same += head[i] == magic[i];
  return same >= 5 && memchr(head, '\0', got) != NULL;
}

/* Binary data rather than text: a 0 byte, or more than one byte in eight
 * a control character other than tab, line feed, carriage return, vertical
 * tab or form feed (UTF-8 in a comment is text). */
static int binary_head(const char *head, size_t got) {
  if (memchr(head, '\0', got)) return 1;
  size_t ctl = 0;
  for (size_t i = 0; i < got; i++) {
    unsigned char c = (unsigned char)head[i];
    ctl += (c < 32 && (c < 9 || c > 13)) || c == 127;
  }
  return ctl * 8 > got;
}

static int detect_format(const char *path, wm_format *fmt, wm_error *err) {
  struct stat sb;
  if (stat(path, &sb) != 0) return wm_fail(err, WM_EINPUT, "%s: cannot open: %s", path, strerror(errno));
  if (S_ISDIR(sb.st_mode)) return wm_fail(err, WM_EINPUT, "%s: is a directory, expected a graph file", path);
  char head[512];
  size_t got = 0;
  int gzip = 0;
  int rc = wm_peek_text(path, head, sizeof head, &got, &gzip, err); /* gzip: the text inside */
  if (rc) return rc;
  if (!gzip && got >= 8 && memcmp(head, "WMGRAPH", 8) == 0) *fmt = WM_FORMAT_WMG;
  else if (!gzip && damaged_wmg(path, head, got < 16 ? got : 16)) *fmt = WM_FORMAT_WMG; /* wm_read_wmg says what is wrong */
  else if (got >= 14 && strncasecmp(head, "%%MatrixMarket", 14) == 0) *fmt = WM_FORMAT_MTX;
  else if (binary_head(head, got))
    return wm_fail(err, WM_EINPUT,
                   "%s: not a graph this program reads (binary data; expected an edge list, Matrix Market, "
                   ".wmg or gzip of a text one)", path);
  else *fmt = WM_FORMAT_EDGELIST;
  return WM_OK;
}

/* ---- where the cache lives ----------------------------------------- */

/* Writable by intent: the mode bits allow writing (root ignores them for
 * access(), and a shared read-only folder must stay untouched). */
static int dir_writable(const char *dir) {
  struct stat sb;
  return stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode) && (sb.st_mode & 0222) && access(dir, W_OK) == 0;
}

static void set_note(wm_load_info *info, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void set_note(wm_load_info *info, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(info->note, sizeof info->note, fmt, ap); /* a long path may be cut */
  va_end(ap);
}

/* Whether only this user (or root) can have put a file in dir; otherwise
 * why not, in why. */
static int folder_trusted(const char *dir, char *why, size_t size) {
  struct stat sb;
  if (stat(dir, &sb) != 0) {
    snprintf(why, size, "cannot inspect the folder %s: %s", dir, strerror(errno));
    return 0;
  }
  if (sb.st_uid != geteuid() && sb.st_uid != 0) {
    snprintf(why, size, "the folder %s belongs to another user (uid %lu)", dir, (unsigned long)sb.st_uid);
    return 0;
  }
  if (sb.st_mode & (S_IWGRP | S_IWOTH)) {
    snprintf(why, size, "the folder %s is writable by other users%s", dir,
             (sb.st_mode & S_ISVTX) ? " (sticky)" : "");
    return 0;
  }
  return 1;
}

/* Whether the cache file is this user's and no one else may write it. */
static int file_trusted(const char *path, char *why, size_t size) {
  struct stat sb;
  if (stat(path, &sb) != 0) {
    snprintf(why, size, "cannot inspect it: %s", strerror(errno));
    return 0;
  }
  if (sb.st_uid != geteuid()) {
    snprintf(why, size, "it belongs to another user (uid %lu)", (unsigned long)sb.st_uid);
    return 0;
  }
  if (sb.st_mode & (S_IWGRP | S_IWOTH)) {
    snprintf(why, size, "other users may write it");
    return 0;
  }
  return 1;
}

static int make_dirs(const char *dir) {
  char tmp[4096];
  if (snprintf(tmp, sizeof tmp, "%s", dir) >= (int)sizeof tmp) return -1;
  for (char *p = tmp + 1; *p; p++)
    if (*p == '/') {
      *p = '\0';
      if (mkdir(tmp, 0755) != 0 && errno != EEXIST) return -1;
      *p = '/';
    }
  if (mkdir(tmp, 0755) != 0 && errno != EEXIST) return -1;
  return dir_writable(tmp) ? 0 : -1;
}

/* The user-level cache folder: $WARPMATCH_CACHE_DIR, $XDG_CACHE_HOME/warpmatch
 * or ~/.cache/warpmatch. */
static int user_cache_dir(char *out, size_t size) {
  const char *e = getenv("WARPMATCH_CACHE_DIR");
  if (e && *e) return snprintf(out, size, "%s", e) < (int)size ? 0 : -1;
  e = getenv("XDG_CACHE_HOME");
  if (e && *e) return snprintf(out, size, "%s/warpmatch", e) < (int)size ? 0 : -1;
  e = getenv("HOME");
  if (e && *e) return snprintf(out, size, "%s/.cache/warpmatch", e) < (int)size ? 0 : -1;
  return -1;
}

/* Fills out with the cache file for path; returns -1 when there is nowhere
 * to put one (then the load simply runs without a cache).  A folder
 * others may write to is passed over (beside the input) or refused (the
 * cache folder), with a note when that ignores a cache. */
static int cache_path_for(const char *path, const wm_load_options *opt, char *out, size_t size,
                          wm_load_info *info) {
  const char *suffix = opt->directed ? ".directed.wmg" : ".wmg";
  char dir[4096], why[600];
  const char *slash = strrchr(path, '/');
  if (!opt->cache_dir) {
    if (slash) snprintf(dir, sizeof dir, "%.*s", (int)(slash - path == 0 ? 1 : slash - path), path);
    else snprintf(dir, sizeof dir, ".");
    if (dir_writable(dir) && folder_trusted(dir, why, sizeof why))
      return snprintf(out, size, "%s%s", path, suffix) < (int)size ? 0 : -1;
    char beside[4200];
    snprintf(beside, sizeof beside, "%s%s", path, suffix);
    if (access(beside, F_OK) == 0 && !folder_trusted(dir, why, sizeof why))
      set_note(info, "cache %s ignored: %s", beside, why);
    if (user_cache_dir(dir, sizeof dir) != 0) return -1;
  } else if (snprintf(dir, sizeof dir, "%s", opt->cache_dir) >= (int)sizeof dir) {
    return -1;
  }
  if (make_dirs(dir) != 0) return -1;
  if (!folder_trusted(dir, why, sizeof why)) {
    set_note(info, "cache not used: %s", why);
    return -1;
  }
  /* One shared folder for many inputs: name each by its absolute path. */
  char abs[PATH_MAX];
  if (!realpath(path, abs)) return -1;
  const char *base = slash ? slash + 1 : path;
  uint64_t h = wm_hash64(abs, strlen(abs), 0);
  return snprintf(out, size, "%s/%s.%016llx%s", dir, base, (unsigned long long)h, suffix) < (int)size ? 0 : -1;
}

static int cache_key(const char *path, wm_format fmt, int directed, uint64_t *key, wm_error *err) {
  uint64_t words[4];
  int rc = wm_hash_file(path, 0, &words[0], NULL, err);
  if (rc) return rc;
  words[1] = (uint64_t)(directed != 0);
  words[2] = (uint64_t)fmt;
  words[3] = CACHE_VERSION;
  *key = wm_hash64(words, sizeof words, 0x776d6361636865ull);
  if (*key == 0) *key = 1; /* 0 means "not a cache" in the header */
  return WM_OK;
}

/* ---- loading -------------------------------------------------------- */

static int read_text(const char *path, wm_format fmt, const wm_load_options *opt, wm_graph **out,
                     wm_error *err) {
  if (fmt == WM_FORMAT_MTX) return wm_read_mtx(path, opt->directed, opt->progress, out, err);
  return wm_read_edgelist(path, opt->directed, opt->progress, out, err);
}

/* Returns 1 when a valid cache with this key was loaded into *out. */
static int try_cache(const char *cache, uint64_t key, int directed, wm_graph **out, wm_load_info *info) {
  struct stat st;
  if (stat(cache, &st) != 0 || !S_ISREG(st.st_mode)) return 0; /* a FIFO there would block the load */
  char why[256];
  if (!file_trusted(cache, why, sizeof why)) {
    set_note(info, "cache %s ignored: %s", cache, why);
    return 0;
  }
  wm_error ignored;
  uint64_t stored = 0;
  wm_graph *g = NULL;
  if (wm_read_wmg(cache, &g, &stored, &ignored) != WM_OK) return 0; /* corrupt: rebuild */
  if (stored != key || g->flags != (directed ? (uint32_t)WM_GRAPH_DIRECTED : 0u)) { /* stale, or not a cache */
    wm_graph_destroy(g);
    return 0;
  }
  *out = g;
  return 1;
}

static int load_text_cached(const char *path, wm_format fmt, const wm_load_options *opt,
                            wm_graph **out, wm_load_info *info, wm_error *err) {
  uint64_t key = 0;
  int rc = cache_key(path, fmt, opt->directed, &key, err);
  if (rc) return rc;
  if (cache_path_for(path, opt, info->cache_path, sizeof info->cache_path, info) != 0) {
    info->cache_path[0] = '\0';
    return read_text(path, fmt, opt, out, err);
  }
  if (try_cache(info->cache_path, key, opt->directed, out, info)) {
    info->from_cache = 1;
    return WM_OK;
  }
  rc = read_text(path, fmt, opt, out, err);
  if (rc) return rc;
  wm_error ignored;
  info->cache_written = wm_write_wmg(*out, info->cache_path, key, &ignored) == WM_OK;
  return WM_OK;
}

int wm_graph_load(const char *path, const wm_load_options *opt, wm_graph **out,
                  wm_load_info *info, wm_error *err) {
  wm_load_options defaults;
  if (!opt) {
    wm_load_options_init(&defaults);
    opt = &defaults;
  }
  wm_load_info local;
  if (!info) info = &local;
  memset(info, 0, sizeof *info);
  *out = NULL;
  double t0 = wm_now();
  wm_format fmt = opt->format;
  int rc = fmt == WM_FORMAT_AUTO ? detect_format(path, &fmt, err) : WM_OK;
  if (rc) return rc;
  struct stat sb;
  if (stat(path, &sb) != 0) return wm_fail(err, WM_EINPUT, "%s: cannot open: %s", path, strerror(errno));
  if (S_ISDIR(sb.st_mode)) return wm_fail(err, WM_EINPUT, "%s: is a directory, expected a graph file", path);
  info->format = fmt;
  info->bytes = (uint64_t)sb.st_size;
  if (fmt == WM_FORMAT_WMG) rc = wm_read_wmg(path, out, NULL, err);
  else if (opt->use_cache && S_ISREG(sb.st_mode)) rc = load_text_cached(path, fmt, opt, out, info, err);
  else rc = read_text(path, fmt, opt, out, err);
  info->seconds = wm_now() - t0;
  return rc;
}
