/* Formula or plan: how `count` and the library count a pattern. */
#include <string.h>

#include "matcher.h"

int wm_count_method(const wm_pattern *p, int method, int whole) {
  const int applies = whole && wm_motif_formula_applies(p);
  if (method == WM_MOTIF_FORMULA) return applies ? 1 : -1;
  if (method != WM_MOTIF_AUTO || !applies) return 0;
  /* The dedicated kernels count the diamond and the cliques faster than
   * the formula's aggregates. */
  char name[64] = "";
  wm_catalogue_name_of(p, name, sizeof name);
  const unsigned k = p->k;
  const int dedicated = strcmp(name, "diamond") == 0 || wm_pattern_edges(p) == k * (k - 1) / 2;
  return !dedicated;
}
