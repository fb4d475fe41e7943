/* Edge-induced counts of the 3-, 4- and 5-vertex patterns from the sums of
 * motif_sums.h, or the word that a pattern is enumerated instead.
 *
 * Most formulas cut the pattern at a vertex or an edge into stars,
 * triangles, 4-cycles and 4-cliques, multiply the pieces' counts there,
 * and take away the products in which two pieces share a vertex they
 * should not (those are copies of smaller patterns: 4-cycles, diamonds,
 * 4-cliques).  E.g. the bowtie is two triangles at a vertex: sum C(t_v, 2)
 * less the pairs of triangles that share an edge, two per diamond.
 * The patterns that do not cut this way have sums of their own: the
 * 5-cycle, K2,3, W4 and W4 less a spoke over the lists S_uw of the 4-cycle
 * pass, the 5-clique over the edges' common neighbours.  Only the triangle
 * and the 4-clique are enumerated: the triangle by one plan (edge-induced,
 * on the GPU's clique kernels), the 4-clique per edge in the size-4 sums'
 * last pass, or by one plan on graphs above WM_MOTIF_K4_ARCS arcs. */
#include <string.h>

#include "motif_sums.h"
#include "motifs_internal.h"

typedef struct formula {
  const char *name;
  int how;
  unsigned level;   /* the sums it needs: those of motif size 3, 4 or 5 */
  const char *text; /* the edge-induced count, for --dump-plan */
} formula;

/* d degree, t_v / t_e triangles at a vertex / on an edge, s_v the sum of
 * (d_a - 1) over v's neighbours, c4 4-cycles, k4_T the 4-cliques on
 * triangle T, S_uw the common neighbours of u and w ranked below u. */
static const formula table[] = {
    {"3-path", WM_MOTIF_BY_FORMULA, 3, "sum over vertices of C(d, 2)"},
    {"triangle", WM_MOTIF_BY_EDGE_MATCH, 4, "the triangle count"},
    {"4-path", WM_MOTIF_BY_FORMULA, 4, "sum over edges uv of (d_u - 1)(d_v - 1), less 3 per triangle"},
    {"4-star", WM_MOTIF_BY_FORMULA, 3, "sum over vertices of C(d, 3)"},
    {"4-cycle", WM_MOTIF_BY_FORMULA, 4, "sum over tops u and w below u of C(paths u-v-w below u, 2)"},
    {"tailed-triangle", WM_MOTIF_BY_FORMULA, 4, "sum over vertices of t_v (d_v - 2)"},
    {"diamond", WM_MOTIF_BY_FORMULA, 4, "sum over edges of C(t_e, 2)"},
    {"4-clique", WM_MOTIF_BY_EDGE_MATCH, 4, "the 4-clique count"},
    {"5-path", WM_MOTIF_BY_FORMULA, 4,
     "(sum s_v^2 - sum d_v (d_v - 1)^2 - 8 c4 - 2 sum over edges t_e (d_u + d_v - 2) + 6 triangles) / 2"},
    {"5-star", WM_MOTIF_BY_FORMULA, 3, "sum over vertices of C(d, 4)"},
    {"fork", WM_MOTIF_BY_FORMULA, 4, "sum over vertices of C(d_v - 1, 2) s_v, less 2 tailed triangles"},
    {"5-cycle", WM_MOTIF_BY_FORMULA, 5,
     "over tops u and edges rs below u: (|S_ur| - [s~u])(|S_us| - [r~u]), less the triangles p-r-s with p in S_ur & S_us"},
    {"banner", WM_MOTIF_BY_FORMULA, 5, "sum over vertices of c4_v (d_v - 2), less 2 diamonds"},
    {"bull", WM_MOTIF_BY_FORMULA, 4, "sum over edges of t_e ((d_u - 2)(d_v - 2) - t_e + 1)"},
    {"cricket", WM_MOTIF_BY_FORMULA, 4, "sum over vertices of t_v C(d_v - 2, 2)"},
    {"long-tailed-triangle", WM_MOTIF_BY_FORMULA, 4, "sum over vertices of t_v (s_v - 2 d_v + 2), less 4 diamonds"},
    {"house", WM_MOTIF_BY_FORMULA, 5, "sum over edges of c4_e t_e, less 4 diamonds"},
    {"bowtie", WM_MOTIF_BY_FORMULA, 4, "sum over vertices of C(t_v, 2), less 2 diamonds"},
    {"K2,3", WM_MOTIF_BY_FORMULA, 5,
     "over lists S_uw: C(|S|, 3) + C(|S|, 2) up_uw + sum over x above u of C(|S & N(x)|, 2)"},
    {"kite", WM_MOTIF_BY_FORMULA, 5,
     "sum over triangles and their vertices p of (d_p - 2)(t of the opposite edge - 1), less 12 4-cliques"},
    {"dart", WM_MOTIF_BY_FORMULA, 4, "sum over vertices of (d_v - 3) times the sum of C(t_e, 2) over v's edges"},
    {"gem", WM_MOTIF_BY_FORMULA, 5,
     "sum over triangles and their vertices h of (t_hb - 1)(t_hc - 1), less 12 4-cliques"},
    {"3-book", WM_MOTIF_BY_FORMULA, 4, "sum over edges of C(t_e, 3)"},
    {"tailed-4-clique", WM_MOTIF_BY_FORMULA, 5, "sum over triangles of k4_T (d_a + d_b + d_c - 9), over 3"},
    {"W4-minus-spoke", WM_MOTIF_BY_FORMULA, 5,
     "over lists S_uw: e(S)(|S| - 2 + up_uw) and sums over x above u of |S & N(x)| by x's edges to u and w"},
    {"W4", WM_MOTIF_BY_FORMULA, 5,
     "over lists S_uw: sum over h in S of C(its neighbours in S, 2) + sum over x above u adjacent to u and w of "
     "C(|S & N(x)|, 2)"},
    {"house-x", WM_MOTIF_BY_FORMULA, 5, "sum over triangles of k4_T (t_ab + t_bc + t_ca - 6), over 2"},
    {"5-clique-minus-edge", WM_MOTIF_BY_FORMULA, 5, "sum over triangles of C(k4_T, 2)"},
    {"5-clique", WM_MOTIF_BY_FORMULA, 5, "over edges uv: the triangles among the common neighbours ranked above both"},
};

/* The table's row of the class of catalogue name `name`, or NULL. */
static const formula *entry_named(const char *name) {
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (strcmp(table[i].name, name) == 0) return &table[i];
  return NULL;
}

/* p's row, by its class's catalogue name, or NULL: one canonical form of
 * p. */
static const formula *entry_of(const wm_pattern *p) {
  char name[64];
  if (p->labeled || !wm_catalogue_name_of(p, name, sizeof name)) return NULL;
  return entry_named(name);
}

unsigned wm_motif_formula_level(const wm_pattern *p) {
  const formula *f = entry_of(p);
  return f ? f->level : 5;
}

const char *wm_motif_formula_text(const wm_pattern *p) {
  const formula *f = entry_of(p);
  return f ? f->text : NULL;
}

int wm_motif_how(const wm_pattern *p) {
  const formula *f = entry_of(p);
  return f ? f->how : WM_MOTIF_BY_INDUCED_MATCH;
}

int wm_motif_class_how(const wm_pattern *c) {
  const formula *f = entry_named(c->name);
  return f ? f->how : WM_MOTIF_BY_INDUCED_MATCH;
}

const char *wm_motif_how_name(int how) {
  switch (how) {
  case WM_MOTIF_BY_FORMULA: return "formula";
  case WM_MOTIF_BY_EDGE_MATCH: return "enumerated";
  default: return "enumerated-induced";
  }
}

/* Row f's count from the sums; 0 where f is NULL or enumerated. */
static int value_of(const formula *f, const wm_motif_sums *sums, wm_i128 *out) {
  if (!f || f->how != WM_MOTIF_BY_FORMULA) return 0;
  const char *name = f->name;
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

int wm_motif_formula(const wm_pattern *p, const wm_motif_sums *sums, wm_i128 *out) {
  return value_of(entry_of(p), sums, out);
}

int wm_motif_class_formula(const wm_pattern *c, const wm_motif_sums *sums, wm_i128 *out) {
  return value_of(entry_named(c->name), sums, out);
}
