#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support.h"

int wm_outfile_open(wm_outfile *o, const char *path, wm_error *err) {
  memset(o, 0, sizeof *o);
  if (snprintf(o->path, sizeof o->path, "%s", path) >= (int)sizeof o->path ||
      snprintf(o->tmp, sizeof o->tmp, "%s.tmp.XXXXXX", path) >= (int)sizeof o->tmp)
    return wm_fail(err, WM_EINPUT, "%s: path too long", path);
  int fd = mkstemp(o->tmp);
  if (fd < 0) return wm_fail(err, WM_EINPUT, "%s: cannot create output file: %s", path, strerror(errno));
  o->f = fdopen(fd, "wb");
  if (!o->f) {
    close(fd);
    unlink(o->tmp);
    return wm_fail(err, WM_EINPUT, "%s: cannot open output file: %s", path, strerror(errno));
  }
  return WM_OK;
}

int wm_outfile_commit(wm_outfile *o, wm_error *err) {
  int bad = ferror(o->f);
  if (fclose(o->f) != 0) bad = 1;
  o->f = NULL;
  /* mkstemp creates 0600; give the file the usual permissions. */
  mode_t mask = umask(0);
  umask(mask);
  if (!bad && chmod(o->tmp, (o->mode ? o->mode : 0666) & ~mask) != 0) bad = 1;
  if (bad || rename(o->tmp, o->path) != 0) {
    int e = errno;
    unlink(o->tmp);
    return wm_fail(err, WM_EINPUT, "%s: cannot write output file: %s", o->path, strerror(e ? e : EIO));
  }
  return WM_OK;
}

void wm_outfile_abort(wm_outfile *o) {
  if (o->f) fclose(o->f);
  o->f = NULL;
  if (o->tmp[0]) unlink(o->tmp);
}
