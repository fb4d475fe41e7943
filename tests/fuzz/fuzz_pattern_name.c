/* Fuzz target: pattern names (wm_pattern_from_name: the catalogue, the
 * K-clique / K-cycle / K-path / K-star families and the aliases).  An
 * accepted name gives a valid pattern, and when the catalogue names that
 * pattern's class, the name it gives resolves to the same class. */
#include <stdlib.h>

#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *name = fuzz_text(data, size);
  wm_pattern p;
  wm_error err = {0};
  int rc = wm_pattern_from_name(name, &p, &err);
  if (rc != WM_OK) {
    fuzz_check_refusal("pattern name", rc, NULL, &err);
    free(name);
    return 0;
  }
  fuzz_check_pattern("pattern name", &p);
  char primary[64];
  if (wm_catalogue_name_of(&p, primary, sizeof primary)) {
    wm_pattern q;
    FUZZ_REQUIRE(wm_pattern_from_name(primary, &q, &err) == WM_OK, "'%s' names no pattern: %s", primary, err.msg);
    wm_canonical a, b;
    wm_pattern_canonical(&p, &a);
    wm_pattern_canonical(&q, &b);
    FUZZ_REQUIRE(wm_canonical_same(&a, &b), "'%s' and its catalogue name '%s' differ", name, primary);
  }
  free(name);
  return 0;
}
