/* Edge-induced counts of the 3-, 4- and 5-vertex patterns from the sums of
 * motif_sums.h, or the word that a pattern is enumerated instead.
 *
 * Each formula cuts the pattern at a vertex or an edge into stars,
 * triangles, 4-cycles and 4-cliques, multiplies the pieces' counts there,
 * and takes away the products in which two pieces share a vertex they
 * should not (those are copies of smaller patterns: 4-cycles, diamonds,
 * 4-cliques).  E.g. the bowtie is two triangles at a vertex: sum C(t_v, 2)
 * less the pairs of triangles that share an edge, two per diamond.
 * The patterns that do not cut this way (the 5-cycle, K2,3, W4 and W4
 * less a spoke) are enumerated vertex-induced, and the cliques by the
 * clique kernels, each subgraph once. */
#include <string.h>

#include "motif_sums.h"
#include "motifs_internal.h"

typedef struct formula {
  const char *name;
  int how;
} formula;

static const formula table[] = {
    {"3-path", WM_MOTIF_BY_FORMULA},
    {"triangle", WM_MOTIF_BY_EDGE_MATCH},
    {"4-path", WM_MOTIF_BY_FORMULA},
    {"4-star", WM_MOTIF_BY_FORMULA},
    {"4-cycle", WM_MOTIF_BY_FORMULA},
    {"tailed-triangle", WM_MOTIF_BY_FORMULA},
    {"diamond", WM_MOTIF_BY_FORMULA},
    {"4-clique", WM_MOTIF_BY_EDGE_MATCH},
    {"5-path", WM_MOTIF_BY_FORMULA},
    {"5-star", WM_MOTIF_BY_FORMULA},
    {"fork", WM_MOTIF_BY_FORMULA},
    {"5-cycle", WM_MOTIF_BY_FORMULA},
    {"banner", WM_MOTIF_BY_FORMULA},
    {"bull", WM_MOTIF_BY_FORMULA},
    {"cricket", WM_MOTIF_BY_FORMULA},
    {"long-tailed-triangle", WM_MOTIF_BY_FORMULA},
    {"house", WM_MOTIF_BY_FORMULA},
    {"bowtie", WM_MOTIF_BY_FORMULA},
    {"K2,3", WM_MOTIF_BY_FORMULA},
    {"kite", WM_MOTIF_BY_FORMULA},
    {"dart", WM_MOTIF_BY_FORMULA},
    {"gem", WM_MOTIF_BY_FORMULA},
    {"3-book", WM_MOTIF_BY_FORMULA},
    {"tailed-4-clique", WM_MOTIF_BY_FORMULA},
    {"W4-minus-spoke", WM_MOTIF_BY_FORMULA},
    {"W4", WM_MOTIF_BY_FORMULA},
    {"house-x", WM_MOTIF_BY_FORMULA},
    {"5-clique-minus-edge", WM_MOTIF_BY_FORMULA},
    {"5-clique", WM_MOTIF_BY_FORMULA},
};

int wm_motif_how(const wm_pattern *p) {
  if (p->labeled) return WM_MOTIF_BY_INDUCED_MATCH;
  char name[64];
  if (!wm_catalogue_name_of(p, name, sizeof name)) return WM_MOTIF_BY_INDUCED_MATCH;
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (strcmp(table[i].name, name) == 0) return table[i].how;
  return WM_MOTIF_BY_INDUCED_MATCH;
}

const char *wm_motif_how_name(int how) {
  switch (how) {
  case WM_MOTIF_BY_FORMULA: return "formula";
  case WM_MOTIF_BY_EDGE_MATCH: return "enumerated";
  default: return "enumerated-induced";
  }
}

int wm_motif_formula(const wm_pattern *p, const wm_motif_sums *sums, wm_i128 *out) {
  char name[64];
  if (wm_motif_how(p) != WM_MOTIF_BY_FORMULA || !wm_catalogue_name_of(p, name, sizeof name)) return 0;
  const wm_i128 *s = sums->s;
  const wm_i128 k4 = s[WM_SUM_K4X4] / 4, d = s[WM_SUM_DIAMOND];
  int bad = 0;
#define IS(x) (strcmp(name, x) == 0)
  if (IS("3-path")) *out = s[WM_SUM_D2];
  else if (IS("4-star")) *out = s[WM_SUM_D3];
  else if (IS("4-path")) *out = s[WM_SUM_P4] - s[WM_SUM_T3];
  else if (IS("tailed-triangle")) *out = s[WM_SUM_PAW];
  else if (IS("4-cycle")) *out = s[WM_SUM_C4];
  else if (IS("diamond")) *out = d;
  else if (IS("5-star")) *out = s[WM_SUM_D4];
  else if (IS("fork")) *out = s[WM_SUM_FORK] - 2 * s[WM_SUM_PAW];
  else if (IS("5-path"))
    *out = (s[WM_SUM_S2] - s[WM_SUM_DDD] - 8 * s[WM_SUM_C4] - 2 * s[WM_SUM_TD] + 2 * s[WM_SUM_T3]) / 2;
  else if (IS("cricket")) *out = s[WM_SUM_CRICKET];
  else if (IS("bull")) *out = s[WM_SUM_BULL];
  else if (IS("long-tailed-triangle")) *out = s[WM_SUM_LTT] - 4 * d;
  else if (IS("banner")) *out = s[WM_SUM_BANNER] - 2 * d;
  else if (IS("house")) *out = s[WM_SUM_HOUSE] - 4 * d;
  else if (IS("bowtie")) *out = s[WM_SUM_BOWTIE] - 2 * d;
  else if (IS("kite")) *out = s[WM_SUM_KITE] - 12 * k4;
  else if (IS("dart")) *out = s[WM_SUM_DART];
  else if (IS("gem")) *out = s[WM_SUM_GEM] - 12 * k4;
  else if (IS("3-book")) *out = s[WM_SUM_BOOK];
  else if (IS("tailed-4-clique")) *out = s[WM_SUM_T4C] / 3;
  else if (IS("house-x")) *out = s[WM_SUM_HOUSEX] / 2;
  else if (IS("5-clique-minus-edge")) *out = s[WM_SUM_K5E];
  else if (IS("5-cycle")) *out = s[WM_SUM_C5];
  else if (IS("5-clique")) *out = s[WM_SUM_K5];
  else if (IS("K2,3")) *out = s[WM_SUM_K23];
  else if (IS("W4")) *out = s[WM_SUM_W4];
  else if (IS("W4-minus-spoke")) *out = s[WM_SUM_W4S];
  else bad = 1;
#undef IS
  return !bad;
}
