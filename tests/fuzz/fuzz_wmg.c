/* Fuzz target: the binary graph reader (wm_read_wmg).  Each input is read
 * as it is, and again with both of its hashes made right (payload, then
 * header), as the writer would have stored them: most mutations only break
 * a checksum, and the second read is what lets them reach the size and
 * structure checks that stand between a file and the graph's consumers. */
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "fuzz_util.h"

enum { HEADER = 64 };
#define CHUNK ((uint64_t)64 << 20)

static void put64(uint8_t *p, uint64_t x) {
  for (int i = 0; i < 8; i++) p[i] = (uint8_t)(x >> (8 * i));
}

/* wmg_format.c's payload hash: XXH3 of the chunks' XXH3 digests (u64 LE). */
static uint64_t payload_hash(const uint8_t *p, uint64_t len) {
  XXH3_state_t *st = XXH3_createState();
  FUZZ_REQUIRE(st != NULL, "out of memory");
  XXH3_64bits_reset(st);
  for (uint64_t at = 0; at < len; at += CHUNK) {
    uint8_t d[8];
    put64(d, XXH3_64bits(p + at, (size_t)(len - at < CHUNK ? len - at : CHUNK)));
    XXH3_64bits_update(st, d, sizeof d);
  }
  uint64_t h = XXH3_64bits_digest(st);
  XXH3_freeState(st);
  return h;
}

static void read_once(const char *what, const uint8_t *data, size_t size) {
  const char *path = fuzz_file(data, size);
  wm_graph *g = NULL;
  uint64_t key = 0;
  wm_error err = {0};
  int rc = wm_read_wmg(path, &g, &key, &err);
  if (rc == WM_OK) fuzz_check_graph(what, g, -1);
  else fuzz_check_refusal(what, rc, g, &err);
  wm_graph_destroy(g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  read_once("wmg", data, size);
  if (size < HEADER) return 0;
  uint8_t *fixed = malloc(size);
  FUZZ_REQUIRE(fixed != NULL, "out of memory for %zu bytes", size);
  memcpy(fixed, data, size);
  put64(fixed + 48, payload_hash(fixed + HEADER, size - HEADER));
  put64(fixed + 56, XXH3_64bits(fixed, 56));
  read_once("wmg (hashes fixed)", fixed, size);
  free(fixed);
  return 0;
}
