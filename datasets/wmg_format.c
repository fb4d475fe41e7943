/* The .wmg binary graph: a fixed 64-byte little-endian header, then the CSR
 * arrays as they lie in memory, so that loading is big parallel reads plus
 * XXH3 hashing (at memory speed) instead of parsing text.
 *
 *   off  size  field
 *     0     8  magic "WMGRAPH\0"
 *     8     4  version (1)
 *    12     4  flags (wm_graph_flags)
 *    16     8  n (vertices)
 *    24     8  m (arcs)
 *    32     4  has_orig_ids (0 or 1)
 *    36     4  reserved, 0
 *    40     8  source_key (cache key of the text it came from; 0 if none)
 *    48     8  payload hash: the payload (everything after the header) is cut
 *              into 64 MiB chunks, the last one shorter; this is XXH3-64 of
 *              the array of the chunks' XXH3-64 digests (u64 LE), so that
 *              threads hash their chunks as they read or write them
 *    56     8  header hash: XXH3-64 of bytes 0..55
 *    64        offsets[n+1] u64, adj[m] u32, orig_ids[n] u32 if has_orig_ids
 *
 * A file is trusted only after its sizes agree with the file's length, both
 * hashes match and the CSR keeps every promise of its flags (wmg_check.c):
 * the hashes catch damage, not a crafted file, so no input can make the
 * loader read or index out of bounds or a consumer count wrong. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include "base.h"
#include "datasets.h"
#include "graph_internal.h"
#include "line_reader.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the .wmg payload is written as in memory and must be little-endian"
#endif

enum { HEADER_SIZE = 64, WMG_VERSION = 1, KNOWN_FLAGS = 7 };
static const char MAGIC[8] = {'W', 'M', 'G', 'R', 'A', 'P', 'H', '\0'};
#define CHUNK ((uint64_t)64 << 20)

static void put32(unsigned char *p, uint32_t x) {
  for (int i = 0; i < 4; i++) p[i] = (unsigned char)(x >> (8 * i));
}
static void put64(unsigned char *p, uint64_t x) {
  for (int i = 0; i < 8; i++) p[i] = (unsigned char)(x >> (8 * i));
}
static uint32_t get32(const unsigned char *p) {
  uint32_t x = 0;
  for (int i = 3; i >= 0; i--) x = (x << 8) | p[i];
  return x;
}
static uint64_t get64(const unsigned char *p) {
  uint64_t x = 0;
  for (int i = 7; i >= 0; i--) x = (x << 8) | p[i];
  return x;
}

/* ---- payload I/O ---------------------------------------------------- */

/* The payload as up to three memory segments (offsets, adj, orig_ids). */
typedef struct payload {
  unsigned char *seg[3];
  uint64_t len[3];
  uint64_t total, chunks;
} payload;

static void payload_of(const wm_graph *g, payload *p) {
  p->seg[0] = (unsigned char *)g->offsets;
  p->len[0] = ((uint64_t)g->n + 1) * sizeof *g->offsets;
  p->seg[1] = (unsigned char *)g->adj;
  p->len[1] = g->m * sizeof *g->adj;
  p->seg[2] = (unsigned char *)g->orig_ids;
  p->len[2] = g->orig_ids ? (uint64_t)g->n * sizeof *g->orig_ids : 0;
  p->total = p->len[0] + p->len[1] + p->len[2];
  p->chunks = (p->total + CHUNK - 1) / CHUNK;
}

static int pio_full(int fd, unsigned char *buf, uint64_t len, uint64_t at, int writing) {
  while (len) {
    size_t k = len < ((size_t)1 << 30) ? (size_t)len : ((size_t)1 << 30);
    ssize_t r = writing ? pwrite(fd, buf, k, (off_t)at) : pread(fd, buf, k, (off_t)at);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) {
      if (r == 0) errno = writing ? EIO : ENODATA;
      return -1;
    }
    buf += r;
    len -= (uint64_t)r;
    at += (uint64_t)r;
  }
  return 0;
}

/* Reads or writes payload chunk c at its place in the file (fd < 0: only
 * hashes it) and returns its XXH3 digest in *digest; -1 with errno on an
 * I/O failure. */
static int chunk_io(const payload *p, uint64_t c, int fd, int writing, uint64_t *digest) {
  uint64_t lo = c * CHUNK, hi = lo + CHUNK < p->total ? lo + CHUNK : p->total, base = 0;
  XXH3_state_t *st = XXH3_createState();
  if (!st) {
    errno = ENOMEM;
    return -1;
  }
  XXH3_64bits_reset(st);
  for (int s = 0; s < 3; base += p->len[s], s++) {
    uint64_t a = lo > base ? lo : base, b = hi < base + p->len[s] ? hi : base + p->len[s];
    if (a >= b) continue;
    unsigned char *ptr = p->seg[s] + (a - base);
    if (fd >= 0 && pio_full(fd, ptr, b - a, HEADER_SIZE + a, writing) != 0) {
      XXH3_freeState(st);
      return -1;
    }
    XXH3_64bits_update(st, ptr, (size_t)(b - a));
  }
  *digest = XXH3_64bits_digest(st);
  XXH3_freeState(st);
  return 0;
}

/* All chunks in parallel; returns the payload hash, or -1 (errno kept in
 * *err_no) on failure. */
static int payload_io(const payload *p, int fd, int writing, uint64_t *hash, int *err_no) {
  uint64_t *dig = malloc((p->chunks ? p->chunks : 1) * sizeof *dig);
  if (!dig) {
    *err_no = ENOMEM;
    return -1;
  }
  int bad = 0, first_errno = 0;
#pragma omp parallel for schedule(dynamic, 1) reduction(| : bad) if (p->chunks > 1)
  for (uint64_t c = 0; c < p->chunks; c++) {
    if (chunk_io(p, c, fd, writing, &dig[c]) != 0) {
      bad = 1;
#pragma omp atomic write
      first_errno = errno;
    }
  }
  *hash = XXH3_64bits(dig, (size_t)p->chunks * sizeof *dig);
  free(dig);
  *err_no = first_errno;
  return bad ? -1 : 0;
}

/* ---- writing -------------------------------------------------------- */

static void header_of(const wm_graph *g, uint64_t source_key, uint64_t payload_hash, unsigned char *h) {
  memset(h, 0, HEADER_SIZE);
  memcpy(h, MAGIC, 8);
  put32(h + 8, WMG_VERSION);
  put32(h + 12, g->flags);
  put64(h + 16, g->n);
  put64(h + 24, g->m);
  put32(h + 32, g->orig_ids != NULL);
  put64(h + 40, source_key);
  put64(h + 48, payload_hash);
  put64(h + 56, XXH3_64bits(h, 56));
}

/* The payload of g hashed (and written at its offsets to fd, or only
 * hashed where fd is -1), then the header that carries its hash.  0 or an
 * errno. */
static int payload_and_header(const wm_graph *g, uint64_t source_key, int fd, payload *p, unsigned char *h) {
  payload_of(g, p);
  uint64_t ph = 0;
  int e = 0;
  if (payload_io(p, fd, 1, &ph, &e) != 0) return e ? e : EIO;
  header_of(g, source_key, ph, h);
  return 0;
}

/* A file: the payload in parallel at its offsets first (its hash goes into
 * the header), then the header.  0 or an errno. */
static int write_placed(const wm_graph *g, uint64_t source_key, int fd) {
  payload p;
  unsigned char h[HEADER_SIZE];
  int e = payload_and_header(g, source_key, fd, &p, h);
  if (e) return e;
  return pio_full(fd, h, HEADER_SIZE, 0, 1) != 0 ? (errno ? errno : EIO) : 0;
}

static int write_all(int fd, const unsigned char *buf, uint64_t len) {
  while (len) {
    ssize_t r = write(fd, buf, len < ((uint64_t)1 << 30) ? (size_t)len : (size_t)1 << 30);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return r == 0 ? EIO : errno;
    buf += r;
    len -= (uint64_t)r;
  }
  return 0;
}

/* A device or FIFO, which cannot seek: the payload hashed in memory first,
 * then everything in file order.  0 or an errno. */
static int write_streamed(const wm_graph *g, uint64_t source_key, int fd) {
  payload p;
  unsigned char h[HEADER_SIZE];
  int e = payload_and_header(g, source_key, -1, &p, h);
  if (!e) e = write_all(fd, h, HEADER_SIZE);
  for (int s = 0; s < 3 && !e; s++) e = write_all(fd, p.seg[s], p.len[s]);
  return e;
}

int wm_write_wmg(const wm_graph *g, const char *path, uint64_t source_key, wm_error *err) {
  wm_outfile o;
  /* a cache is not fsynced: one that a crash of the system left short or
   * damaged fails its hashes when read, and is made again */
  int rc = wm_outfile_open(&o, path, source_key ? WM_OUTFILE_CACHE | WM_OUTFILE_NO_SYNC : 0, err);
  if (rc) return rc;
  int e = o.direct ? write_streamed(g, source_key, fileno(o.f)) : write_placed(g, source_key, fileno(o.f));
  if (e) {
    wm_outfile_abort(&o);
    return wm_fail(err, WM_EINPUT, "%s: cannot write: %s", path, strerror(e));
  }
  return wm_outfile_commit(&o, err);
}

/* ---- reading -------------------------------------------------------- */

typedef struct header {
  uint32_t version, flags, has_orig;
  uint64_t n, m, source_key, payload_hash;
} header;

static int parse_header(const char *path, const unsigned char *h, uint64_t file_size, header *hd,
                        wm_error *err) {
  hd->version = get32(h + 8);
  if (hd->version != WMG_VERSION)
    return wm_fail(err, WM_EINPUT, "%s: unsupported .wmg version %u (this build reads version %d)",
                   path, hd->version, WMG_VERSION);
  if (get64(h + 56) != XXH3_64bits(h, 56))
    return wm_fail(err, WM_EINPUT, "%s: checksum mismatch in the .wmg header (file corrupted)", path);
  hd->flags = get32(h + 12);
  hd->n = get64(h + 16);
  hd->m = get64(h + 24);
  hd->has_orig = get32(h + 32);
  hd->source_key = get64(h + 40);
  hd->payload_hash = get64(h + 48);
  if (hd->flags & ~(uint32_t)KNOWN_FLAGS)
    return wm_fail(err, WM_EINPUT, "%s: unknown .wmg flags 0x%x", path, hd->flags);
  if ((hd->flags & WM_GRAPH_ORIENTED) && !(hd->flags & WM_GRAPH_DIRECTED))
    return wm_fail(err, WM_EINPUT, "%s: invalid .wmg header: flags 0x%x mark the graph oriented but not directed",
                   path, hd->flags);
  if (hd->has_orig > 1 || hd->n > (uint64_t)WM_MAX_VERTEX_ID + 1)
    return wm_fail(err, WM_EINPUT, "%s: invalid .wmg header (n=%llu, has_orig_ids=%u)", path,
                   (unsigned long long)hd->n, hd->has_orig);
  /* Sizes in u64 cannot overflow: n < 2^32 and m is bounded by the file. */
  uint64_t fixed = HEADER_SIZE + 8 * (hd->n + 1) + (hd->has_orig ? 4 * hd->n : 0);
  if (file_size < fixed || hd->m > (file_size - fixed) / 4 || fixed + 4 * hd->m != file_size) {
    unsigned long long want = hd->m <= UINT64_MAX / 8 ? (unsigned long long)(fixed + 4 * hd->m) : 0;
    return wm_fail(err, WM_EINPUT,
                   "%s: %s .wmg file: the header says %llu vertices and %llu arcs (%llu bytes), "
                   "the file has %llu bytes",
                   path, file_size < want ? "truncated" : "malformed", (unsigned long long)hd->n,
                   (unsigned long long)hd->m, want, (unsigned long long)file_size);
  }
  return WM_OK;
}

static int read_payload(int fd, const char *path, const header *hd, wm_graph **out, wm_error *err) {
  wm_graph *g = wm_graph_create((uint32_t)hd->n, hd->m);
  if (g && hd->has_orig) g->orig_ids = wm_alloc_big((hd->n ? hd->n : 1) * sizeof *g->orig_ids);
  if (!g || (hd->has_orig && !g->orig_ids)) {
    wm_graph_destroy(g);
    return wm_fail(err, WM_EINPUT, "%s: out of memory for %llu vertices and %llu arcs", path,
                   (unsigned long long)hd->n, (unsigned long long)hd->m);
  }
  g->flags = hd->flags;
  payload p;
  payload_of(g, &p);
  uint64_t h = 0;
  int e = 0, rc = WM_OK;
  if (payload_io(&p, fd, 0, &h, &e) != 0)
    rc = wm_fail(err, WM_EINPUT, "%s: read error: %s", path, strerror(e ? e : EIO));
  else if (h != hd->payload_hash)
    rc = wm_fail(err, WM_EINPUT, "%s: checksum mismatch (the .wmg file is corrupted)", path);
  else rc = wm_wmg_check(g, path, err);
  if (rc) {
    wm_graph_destroy(g);
    return rc;
  }
  *out = g;
  return WM_OK;
}

/* The magic first, so that a short text file named .wmg is no "truncated
 * .wmg", then the header's length. */
static int read_header(int fd, const char *path, uint64_t size, unsigned char *h, wm_error *err) {
  size_t head = size < 8 ? (size_t)size : 8;
  if (pio_full(fd, h, head, 0, 0) != 0) return wm_fail(err, WM_EINPUT, "%s: read error: %s", path, strerror(errno));
  if (memcmp(h, MAGIC, head) != 0) { /* a short file that starts like one is truncated */
    char seen[12];
    wm_quote_line((const char *)h, (const char *)h + head, seen, sizeof seen);
    return wm_fail(err, WM_EINPUT, "%s: not a valid .wmg file: bad magic '%s' (expected 'WMGRAPH' and a 0 byte)",
                   path, seen);
  }
  if (size < HEADER_SIZE || pio_full(fd, h, HEADER_SIZE, 0, 0) != 0)
    return wm_fail(err, WM_EINPUT, "%s: truncated .wmg file: %llu bytes, shorter than the %d-byte header", path,
                   (unsigned long long)size, HEADER_SIZE);
  return WM_OK;
}

int wm_read_wmg(const char *path, wm_graph **out, uint64_t *source_key, wm_error *err) {
  *out = NULL;
  int fd = open(path, O_RDONLY);
  if (fd < 0) return wm_fail(err, WM_EINPUT, "%s: cannot open: %s", path, strerror(errno));
  struct stat sb;
  unsigned char h[HEADER_SIZE];
  int rc;
  if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode))
    rc = wm_fail(err, WM_EINPUT, "%s: not a regular file", path);
  else if (!(rc = read_header(fd, path, (uint64_t)sb.st_size, h, err))) {
    header hd = {0};
    rc = parse_header(path, h, (uint64_t)sb.st_size, &hd, err);
    if (!rc) rc = read_payload(fd, path, &hd, out, err);
    if (!rc && source_key) *source_key = hd.source_key;
  }
  close(fd);
  return rc;
}
