#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "base.h"

/* Separator and key for the next member at the current depth. */
static void member(wm_json *j, const char *key) {
  if (j->count[j->depth]++) fputc(',', j->f);
  if (key) fprintf(j->f, "\"%s\":", key);
}

static void push(wm_json *j, const char *key, int open) {
  member(j, key);
  fputc(open, j->f);
  if (j->depth + 1 < (int)(sizeof j->count / sizeof j->count[0])) j->depth++;
  j->count[j->depth] = 0;
}

void wm_json_begin(wm_json *j, FILE *f) {
  j->f = f;
  j->depth = 0;
  j->count[0] = 0;
  fputc('{', f);
}

void wm_json_end(wm_json *j) {
  while (j->depth > 0) wm_json_close(j);
  fputs("}\n", j->f);
  /* no fflush: the stream's owner flushes and checks it (a failed fflush
   * empties glibc's buffer, and the error's cause goes with it) */
}

void wm_json_object(wm_json *j, const char *key) {
  push(j, key, '{');
  j->closer[j->depth] = '}';
}

void wm_json_array(wm_json *j, const char *key) {
  push(j, key, '[');
  j->closer[j->depth] = ']';
}

void wm_json_close(wm_json *j) {
  if (j->depth == 0) return;
  fputc(j->closer[j->depth], j->f);
  j->depth--;
}

void wm_json_u64(wm_json *j, const char *key, uint64_t v) {
  member(j, key);
  fprintf(j->f, "%" PRIu64, v);
}

void wm_json_i64(wm_json *j, const char *key, int64_t v) {
  member(j, key);
  fprintf(j->f, "%" PRId64, v);
}

void wm_json_u128(wm_json *j, const char *key, wm_u128 v) {
  char buf[WM_I128_CHARS];
  member(j, key);
  fputs(wm_u128_str(v, buf), j->f);
}

void wm_json_double(wm_json *j, const char *key, double v) {
  member(j, key);
  if (isfinite(v))
    fprintf(j->f, "%.9g", v);
  else
    fputs("null", j->f);
}

void wm_json_bool(wm_json *j, const char *key, int v) {
  member(j, key);
  fputs(v ? "true" : "false", j->f);
}

void wm_json_null(wm_json *j, const char *key) {
  member(j, key);
  fputs("null", j->f);
}

void wm_json_str(wm_json *j, const char *key, const char *s) {
  member(j, key);
  fputc('"', j->f);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\')
      fprintf(j->f, "\\%c", *p);
    else if (*p < 0x20)
      fprintf(j->f, "\\u%04x", *p);
    else
      fputc(*p, j->f);
  }
  fputc('"', j->f);
}

void wm_json_members(wm_json *j, const char *object) {
  const char *open = strchr(object, '{'), *close = strrchr(object, '}');
  if (!open || !close || close <= open + 1) return; /* no members */
  member(j, NULL);
  fwrite(open + 1, 1, (size_t)(close - open - 1), j->f);
}
