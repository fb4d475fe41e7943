/* Pattern argument of the command line: a catalogue name, else a file. */
#define _POSIX_C_SOURCE 200809L /* stat */
#include <string.h>
#include <sys/stat.h>

#include "patterns.h"

int wm_pattern_resolve(const char *name_or_path, wm_pattern *p, wm_error *err) {
  wm_error name_err;
  if (wm_pattern_from_name(name_or_path, p, &name_err) == WM_OK) return WM_OK;
  struct stat st;
  int looks_like_path = strchr(name_or_path, '/') || strchr(name_or_path, '.');
  if (looks_like_path || stat(name_or_path, &st) == 0) return wm_pattern_load(name_or_path, p, err);
  /* Neither: the catalogue's message says what names exist. */
  if (err) *err = name_err;
  return name_err.code;
}
