/* The replay driver: a fuzz target without libFuzzer.  Feeds every file
 * named on the command line, and every file inside each folder named (the
 * seed corpus, crash inputs), to LLVMFuzzerTestOneInput once, in name
 * order.  A broken invariant aborts (the input's name is printed first);
 * finding no input at all is a failure too, so that a lost corpus does not
 * pass as an empty one.  ctest runs it over tests/fuzz/corpus/<target>. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_util.h"

static int replay_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "replay: cannot open %s\n", path);
    return -1;
  }
  size_t cap = 1 << 16, len = 0;
  uint8_t *buf = malloc(cap);
  for (size_t got; buf && (got = fread(buf + len, 1, cap - len, f)) > 0;) {
    len += got;
    if (len == cap) {
      uint8_t *nb = realloc(buf, cap *= 2);
      if (!nb) free(buf);
      buf = nb;
    }
  }
  int bad = ferror(f) || !buf;
  fclose(f);
  if (bad) {
    free(buf);
    fprintf(stderr, "replay: cannot read %s\n", path);
    return -1;
  }
  fprintf(stderr, "replay: %s (%zu bytes)\n", path, len);
  LLVMFuzzerTestOneInput(buf, len);
  free(buf);
  return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b) {
  return strcmp((*a)->d_name, (*b)->d_name);
}
static int not_hidden(const struct dirent *d) { return d->d_name[0] != '.'; }

/* Replays path, or the regular files directly inside it; returns how many
 * inputs ran, or -1 on an I/O failure. */
static long replay_path(const char *path) {
  struct stat sb;
  if (stat(path, &sb) != 0) {
    fprintf(stderr, "replay: no such file or folder: %s\n", path);
    return -1;
  }
  if (!S_ISDIR(sb.st_mode)) return replay_file(path) == 0 ? 1 : -1;
  struct dirent **names;
  int n = scandir(path, &names, not_hidden, by_name);
  if (n < 0) {
    fprintf(stderr, "replay: cannot list %s\n", path);
    return -1;
  }
  long ran = 0;
  for (int i = 0; i < n; i++) {
    char full[4096];
    snprintf(full, sizeof full, "%s/%s", path, names[i]->d_name);
    if (ran >= 0 && stat(full, &sb) == 0 && S_ISREG(sb.st_mode)) ran = replay_file(full) == 0 ? ran + 1 : -1;
    free(names[i]);
  }
  free(names);
  return ran;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s FILE-OR-FOLDER...\n", argv[0]);
    return 2;
  }
  long total = 0;
  for (int i = 1; i < argc; i++) {
    long ran = replay_path(argv[i]);
    if (ran < 0) return 1;
    total += ran;
  }
  if (total == 0) {
    fprintf(stderr, "replay: no inputs found\n");
    return 1;
  }
  printf("%s: %ld inputs replayed, every invariant held\n", argv[0], total);
  return 0;
}
