/* xxHash of buffers and files: cache keys and the .wmg payload checksum.
 * XXH3 (64-bit) runs at memory speed, so checking a cached graph costs far
 * less than parsing its text. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "datasets.h"

uint64_t wm_hash64(const void *data, size_t len, uint64_t seed) {
  return XXH3_64bits_withSeed(data, len, seed);
}

int wm_hash_file(const char *path, uint64_t seed, uint64_t *out, uint64_t *bytes, wm_error *err) {
  enum { CHUNK = 256 << 10 }; /* a buffer that stays in the cache, its pages faulted once */
  FILE *f = fopen(path, "rb");
  if (!f) return wm_fail(err, WM_EINPUT, "%s: cannot open: %s", path, strerror(errno));
  char *buf = malloc(CHUNK);
  XXH3_state_t *st = XXH3_createState();
  if (!buf || !st) {
    free(buf);
    XXH3_freeState(st);
    fclose(f);
    return wm_fail(err, WM_EINPUT, "%s: out of memory while hashing", path);
  }
  XXH3_64bits_reset_withSeed(st, seed);
  uint64_t total = 0;
  size_t got;
  while ((got = fread(buf, 1, CHUNK, f)) > 0) {
    XXH3_64bits_update(st, buf, got);
    total += got;
  }
  int bad = ferror(f);
  fclose(f);
  free(buf);
  uint64_t h = XXH3_64bits_digest(st);
  XXH3_freeState(st);
  if (bad) return wm_fail(err, WM_EINPUT, "%s: read error while hashing", path);
  if (out) *out = h;
  if (bytes) *bytes = total;
  return WM_OK;
}
