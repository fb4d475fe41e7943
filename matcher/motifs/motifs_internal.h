/* How the formula path gets each motif class (motif_formulas.c). */
#ifndef WM_MOTIFS_INTERNAL_H
#define WM_MOTIFS_INTERNAL_H

#include "exact_count.h"
#include "motif_sums.h"
#include "patterns.h"

enum {
  WM_MOTIF_BY_FORMULA = 0,       /* edge-induced count from the sums */
  WM_MOTIF_BY_EDGE_MATCH = 1,    /* edge-induced count, enumerated (the triangle, the 4-clique) */
  WM_MOTIF_BY_INDUCED_MATCH = 2, /* vertex-induced count, enumerated */
};

/* How the formula path gets pattern p's class. */
int wm_motif_how(const wm_pattern *p);
/* The motif size whose sums p's formula needs (3: degrees alone; 4: and
 * triangles and 4-cycles; 5: all). */
unsigned wm_motif_formula_level(const wm_pattern *p);
/* p's edge-induced count from the sums; 0 when p has no formula. */
int wm_motif_formula(const wm_pattern *p, const wm_motif_sums *sums, wm_i128 *out);
/* The same for a class of wm_connected_patterns, found by the catalogue
 * name it carries, without p's canonical form (a motif call has 21). */
int wm_motif_class_how(const wm_pattern *c);
int wm_motif_class_formula(const wm_pattern *c, const wm_motif_sums *sums, wm_i128 *out);

#endif
