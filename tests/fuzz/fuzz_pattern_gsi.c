/* Fuzz target: the STMatch / GSI pattern reader (wm_pattern_parse_gsi)
 * directly, on any text, not only the texts wm_pattern_parse sends it. */
#include <stdlib.h>

#include "fuzz_util.h"
#include "pattern_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_text(data, size);
  wm_pattern p;
  wm_error err = {0};
  int rc = wm_pattern_parse_gsi(text, "fuzz.g", &p, &err);
  if (rc == WM_OK) fuzz_check_pattern("gsi pattern", &p);
  else fuzz_check_refusal("gsi pattern", rc, NULL, &err);
  free(text);
  return 0;
}
