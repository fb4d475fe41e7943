/* Output files that appear whole or not at all, without replacing what the
 * path names.  A new path or a regular file is written to a temporary name
 * in the same folder, flushed, fsynced and renamed over it (the folder is
 * fsynced after; WM_OUTFILE_NO_SYNC skips both fsyncs, not the rename).  A
 * symlink is followed: its final target is written so, and the link stays.
 * A character device or FIFO (/dev/null, a named pipe) is written in place,
 * streaming, as `cp` would, and so is a file that is already our stdout or
 * stderr (/dev/stdout); a directory, block device or socket is refused.
 *
 * The temporary name is TARGET.wmtmp.PID.HOST.SEQ: the writer's pid and a
 * hash of its host name let a later writer know that one left by a killed
 * process is stale (wm_outfile_open removes those in the folder it writes
 * to: our exact pattern, this host, our user, a pid that no longer exists).
 * Temporaries still being written are listed in a registry that
 * wm_outfile_remove_all clears from a signal handler. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#include "base.h"

/* ---- the registry of temporaries being written ----------------------- */

/* A slot is free (0), being filled (1), or names a temporary
 * the signal handler may unlink (2).  Fixed storage and lock-free atomics,
 * so that the handler needs nothing but loads and unlink(). */
enum { SLOTS = 64, FREE = 0, BUSY = 1, LIVE = 2 };
static atomic_int slot_state[SLOTS];
static char slot_name[SLOTS][4096];

static int registry_add(const char *tmp) {
  for (int i = 0; i < SLOTS; i++) {
    int expect = FREE;
    if (!atomic_compare_exchange_strong(&slot_state[i], &expect, BUSY)) continue;
    snprintf(slot_name[i], sizeof slot_name[i], "%s", tmp);
    atomic_store(&slot_state[i], LIVE);
    return i;
  }
  return -1; /* more writers than slots: this one is only cleaned as stale */
}

static void registry_drop(int slot) {
  if (slot >= 0) atomic_store(&slot_state[slot], FREE);
}

void wm_outfile_remove_all(void) {
  for (int i = 0; i < SLOTS; i++)
    if (atomic_load(&slot_state[i]) == LIVE) unlink(slot_name[i]);
}

/* ---- temporary names ------------------------------------------------- */

static unsigned host_tag(void) {
  char host[256] = "";
  if (gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  return (unsigned)XXH32(host, strlen(host), 0);
}

int wm_outfile_tmp_name(char *buf, size_t size, const char *target, long pid, unsigned seq) {
  int w = snprintf(buf, size, "%s.wmtmp.%ld.%08x.%u", target, pid, host_tag(), seq);
  return w >= 0 && (size_t)w < size ? 0 : -1;
}

/* Digits only, 1 to 10 of them, ending at *end; returns the value or -1. */
static long digits(const char *s, const char **end) {
  long v = 0;
  const char *p = s;
  while (*p >= '0' && *p <= '9' && p - s < 10) v = v * 10 + (*p++ - '0');
  *end = p;
  return p == s ? -1 : v;
}

/* 1 when name is SOMETHING.wmtmp.PID.HOST.SEQ exactly; gives PID and HOST. */
static int parse_tmp_name(const char *name, long *pid, unsigned *host) {
  const char *mark = NULL;
  for (const char *p = strstr(name, ".wmtmp."); p; p = strstr(p + 1, ".wmtmp.")) mark = p;
  if (!mark || mark == name) return 0;
  const char *p = mark + 7;
  if ((*pid = digits(p, &p)) <= 0 || *p++ != '.') return 0;
  *host = 0;
  for (int i = 0; i < 8; i++, p++) {
    int h = *p >= '0' && *p <= '9' ? *p - '0' : *p >= 'a' && *p <= 'f' ? *p - 'a' + 10 : -1;
    if (h < 0) return 0;
    *host = *host << 4 | (unsigned)h;
  }
  if (*p++ != '.' || digits(p, &p) < 0) return 0;
  return *p == '\0';
}

/* A temporary whose writer is gone: this host's, ours, and its pid does not
 * exist (pid reuse can only keep a stale file, never remove a live one). */
static int stale(int dirfd, const char *name, unsigned host) {
  long pid;
  unsigned tag;
  struct stat st;
  if (!parse_tmp_name(name, &pid, &tag) || tag != host || pid == (long)getpid()) return 0;
  if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) return 0;
  if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) return 0;
  return S_ISREG(st.st_mode) && st.st_uid == geteuid();
}

/* Removes the stale temporaries in dir (best effort: a folder that cannot be
 * read only keeps them). */
static void clean_stale(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return;
  const unsigned host = host_tag();
  for (struct dirent *e = readdir(d); e; e = readdir(d))
    if (stale(dirfd(d), e->d_name, host)) unlinkat(dirfd(d), e->d_name, 0);
  closedir(d);
}

/* ---- where the output goes ------------------------------------------- */

/* Follows path's symlinks to the final name, into out; *st is that name's
 * lstat and *exists whether it exists.  -1 with errno on failure. */
static int resolve(const char *path, char *out, size_t size, struct stat *st, int *exists) {
  if (snprintf(out, size, "%s", path) >= (int)size) return errno = ENAMETOOLONG, -1;
  for (int hops = 0;; hops++) {
    if (lstat(out, st) != 0) {
      *exists = 0;
      return errno == ENOENT ? 0 : -1;
    }
    *exists = 1;
    if (!S_ISLNK(st->st_mode)) return 0;
    if (hops == 40) return errno = ELOOP, -1;
    char link[4096];
    ssize_t k = readlink(out, link, sizeof link - 1);
    if (k < 0) return -1;
    link[k] = '\0';
    char *slash = strrchr(out, '/');
    size_t keep = link[0] == '/' || !slash ? 0 : (size_t)(slash - out) + 1; /* a relative link is beside the link */
    if (keep + (size_t)k >= size) return errno = ENAMETOOLONG, -1;
    memcpy(out + keep, link, (size_t)k + 1);
  }
}

static void dir_of(const char *path, char *dir, size_t size) {
  const char *slash = strrchr(path, '/');
  if (!slash) snprintf(dir, size, ".");
  else if (slash == path) snprintf(dir, size, "/");
  else snprintf(dir, size, "%.*s", (int)(slash - path), path);
}

static const char *refused(mode_t m, int flags) {
  if (S_ISDIR(m)) return "is a directory";
  if (S_ISBLK(m)) return "is a block device; warpmatch writes regular files, character devices and FIFOs";
  if (S_ISSOCK(m)) return "is a socket; warpmatch writes regular files, character devices and FIFOs";
  if (!S_ISREG(m) && (flags & WM_OUTFILE_CACHE)) return "is not a regular file";
  if (!S_ISREG(m) && !S_ISCHR(m) && !S_ISFIFO(m)) return "is not a regular file, character device or FIFO";
  return NULL;
}

/* A device or FIFO, opened as it is (a FIFO waits here for its reader). */
static int open_direct(wm_outfile *o, int *fd, wm_error *err) {
  struct stat st;
  *fd = open(o->path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
  if (*fd < 0) return wm_fail(err, WM_EINPUT, "%s: cannot open for writing: %s", o->name, strerror(errno));
  if (fstat(*fd, &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) { /* replaced since lstat */
    close(*fd);
    return wm_fail(err, WM_EINPUT, "%s: changed while being opened; not written", o->name);
  }
  o->direct = 1;
  return WM_OK;
}

/* A file that is already our stdout or stderr (--output /dev/stdout with
 * stdout redirected to a file) is written through that descriptor, in
 * order with what the program prints there: a rename would leave the
 * stream writing into the replaced file. */
static int open_std_stream(wm_outfile *o, const struct stat *st, int *fd) {
  for (int std = 1; std <= 2; std++) {
    struct stat s;
    if (fstat(std, &s) != 0 || s.st_dev != st->st_dev || s.st_ino != st->st_ino) continue;
    fflush(std == 1 ? stdout : stderr);
    if ((*fd = dup(std)) < 0) return 0;
    o->direct = 1;
    return 1;
  }
  return 0;
}

/* O_EXCL with the permissions of a new file, so that the umask applies by
 * itself; a regular file being replaced lends its permissions (and, where
 * we may set them, its owner and group) to the new one, except to a cache. */
static int open_temporary(wm_outfile *o, const struct stat *old, int flags, int *fd, wm_error *err) {
  static atomic_uint seq;
  char dir[4096];
  dir_of(o->path, dir, sizeof dir);
  clean_stale(dir);
  *fd = -1;
  for (int tries = 0; *fd < 0 && tries < 100; tries++) {
    if (wm_outfile_tmp_name(o->tmp, sizeof o->tmp, o->path, (long)getpid(), atomic_fetch_add(&seq, 1)) != 0) {
      o->tmp[0] = '\0';
      return wm_fail(err, WM_EINPUT, "%s: path too long", o->name);
    }
    /* Registered before it exists: a signal handled between the open and a
     * later registration (a writer descheduled right after open, on a
     * loaded machine) would leave it.  The name is this process's (pid,
     * host, sequence), so what the handler may unlink under it is ours or a
     * stale one of a former process with our pid. */
    o->slot = registry_add(o->tmp);
    *fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, (flags & WM_OUTFILE_CACHE) ? 0644 : 0666);
    if (*fd < 0) { /* registry_drop leaves errno as it is */
      registry_drop(o->slot);
      o->slot = -1;
    }
    if (*fd < 0 && errno != EEXIST) break; /* EEXIST: a stale one of a former process with our pid */
  }
  if (*fd < 0) {
    o->tmp[0] = '\0';
    return wm_fail(err, WM_EINPUT, "%s: cannot create output file: %s", o->name, strerror(errno));
  }
  if (flags & WM_OUTFILE_CACHE) old = NULL;
  if (old && (old->st_uid != geteuid() || old->st_gid != getegid()) && fchown(*fd, old->st_uid, old->st_gid) != 0) {
    /* not ours to give: the new file is the writer's */
  }
  if (old && fchmod(*fd, old->st_mode & 0777) != 0) { /* a file system without modes keeps its default */
  }
  return WM_OK;
}

int wm_outfile_open(wm_outfile *o, const char *path, int flags, wm_error *err) {
  memset(o, 0, sizeof *o);
  o->slot = -1;
  o->no_sync = (flags & WM_OUTFILE_NO_SYNC) != 0;
  if (snprintf(o->name, sizeof o->name, "%s", path) >= (int)sizeof o->name)
    return wm_fail(err, WM_EINPUT, "%s: path too long", path);
  struct stat st;
  int exists = stat(path, &st) == 0, fd, rc;
  if (!exists || S_ISREG(st.st_mode)) {
    /* a file or a new name: the name at the end of the links is what the rename replaces */
    if (resolve(path, o->path, sizeof o->path, &st, &exists) != 0)
      return wm_fail(err, WM_EINPUT, "%s: cannot write: %s", path, strerror(errno));
  } else {
    /* anything else is opened where the kernel's own resolution leads, which
     * also follows /proc's links (/dev/stdout to a pipe reads "pipe:[N]") */
    snprintf(o->path, sizeof o->path, "%s", path);
  }
  const char *why = exists ? refused(st.st_mode, flags) : NULL;
  if (why) return wm_fail(err, WM_EINPUT, "%s: %s", path, why);
  if (exists && !S_ISREG(st.st_mode)) rc = open_direct(o, &fd, err);
  else if (exists && open_std_stream(o, &st, &fd)) rc = WM_OK;
  else rc = open_temporary(o, exists ? &st : NULL, flags, &fd, err);
  if (rc) return rc;
  if (!(o->f = fdopen(fd, "wb"))) {
    int e = errno;
    close(fd);
    wm_outfile_abort(o);
    return wm_fail(err, WM_EINPUT, "%s: cannot open output file: %s", path, strerror(e));
  }
  return WM_OK;
}

int wm_flush_errno(FILE *f) {
  int seen = ferror(f);
  clearerr(f);
  errno = 0;
  if (fflush(f) != 0) return errno ? errno : EIO;
  return seen ? EIO : 0;
}

/* WARPMATCH_TEST_COMMIT_DELAY=S: the writer waits S seconds with its
 * finished temporary before renaming it, so that a test can signal it
 * mid-write. */
static void test_delay(void) {
  const char *s = getenv("WARPMATCH_TEST_COMMIT_DELAY");
  double d = s ? atof(s) : 0;
  if (d <= 0) return;
  struct timespec ts = {(time_t)d, (long)((d - (double)(time_t)d) * 1e9)};
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
}

/* The rename is durable only once the folder is synced; a folder that
 * cannot be (some network file systems) leaves the file in place anyway. */
static void sync_dir(const char *path) {
  char dir[4096];
  dir_of(path, dir, sizeof dir);
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  if (fsync(fd) != 0) { /* best effort, see above */
  }
  close(fd);
}

int wm_outfile_commit(wm_outfile *o, wm_error *err) {
  int e = wm_flush_errno(o->f);
  if (!e && !o->direct && !o->no_sync && fsync(fileno(o->f)) != 0) e = errno;
  if (fclose(o->f) != 0 && !e) e = errno ? errno : EIO;
  o->f = NULL;
  if (!e && !o->direct) {
    test_delay();
    if (rename(o->tmp, o->path) != 0) e = errno;
  }
  if (e) {
    wm_outfile_abort(o);
    return wm_fail(err, WM_EINPUT, "%s: cannot write: %s", o->name, strerror(e));
  }
  registry_drop(o->slot);
  o->slot = -1;
  if (!o->direct && !o->no_sync) sync_dir(o->path);
  return WM_OK;
}

void wm_outfile_abort(wm_outfile *o) {
  if (o->f) fclose(o->f);
  o->f = NULL;
  if (o->tmp[0]) unlink(o->tmp);
  o->tmp[0] = '\0';
  registry_drop(o->slot);
  o->slot = -1;
}
