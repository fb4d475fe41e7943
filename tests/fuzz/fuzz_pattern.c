/* Fuzz target: the pattern text reader (wm_pattern_parse, which also hands
 * STMatch / GSI texts to pattern_gsi.c), and wm_pattern_load on the same
 * bytes as a file: both must agree, on the pattern or on refusing it. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"

enum { MAX_PATTERN_FILE = 1 << 20 }; /* pattern_parse.c's limit */

static void same_pattern(const wm_pattern *a, const wm_pattern *b) {
  FUZZ_REQUIRE(a->k == b->k && a->labeled == b->labeled, "pattern: text and file differ in k or labels");
  FUZZ_REQUIRE(memcmp(a->adj, b->adj, sizeof a->adj) == 0, "pattern: text and file differ in edges");
  FUZZ_REQUIRE(memcmp(a->label, b->label, sizeof a->label) == 0, "pattern: text and file differ in labels");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_text(data, size);
  wm_pattern p, q;
  wm_error err = {0};
  int rc = wm_pattern_parse(text, "fuzz.pat", &p, &err);
  if (rc == WM_OK) fuzz_check_pattern("pattern", &p);
  else fuzz_check_refusal("pattern", rc, NULL, &err);
  /* The file reader refuses what is binary or too long; otherwise it is
   * the text reader over the file's bytes. */
  if (!memchr(data, '\0', size) && size <= MAX_PATTERN_FILE) {
    wm_error ferr = {0};
    int frc = wm_pattern_load(fuzz_file(data, size), &q, &ferr);
    FUZZ_REQUIRE(frc == rc, "pattern: text gives %d, file gives %d (%s)", rc, frc, ferr.msg);
    if (rc == WM_OK) same_pattern(&p, &q);
  }
  free(text);
  return 0;
}
