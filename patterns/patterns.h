/* patterns: small query graphs (up to 8 vertices), their text format, the
 * named catalogue, automorphisms, canonical form and motif enumeration.
 * A pattern is plain data: adjacency bitmasks plus optional labels. */
#ifndef WM_PATTERNS_H
#define WM_PATTERNS_H

#include <stdint.h>

#include "wm_error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WM_MAX_K 8
#define WM_ANY_LABEL (-1)

typedef struct wm_pattern {
  uint32_t k;                /* vertices, 1..WM_MAX_K */
  uint8_t adj[WM_MAX_K];     /* bit j of adj[i] set iff edge i-j (symmetric, no loops) */
  int32_t label[WM_MAX_K];   /* WM_ANY_LABEL or a label >= 0 */
  int labeled;               /* some label is not WM_ANY_LABEL */
  char name[64];             /* catalogue name or file name; "" if none */
} wm_pattern;

static inline int wm_pattern_has_edge(const wm_pattern *p, unsigned i, unsigned j) {
  return (p->adj[i] >> j) & 1u;
}
unsigned wm_pattern_edges(const wm_pattern *p);

/* Empty k-vertex pattern (no edges, no labels). */
void wm_pattern_init(wm_pattern *p, unsigned k);
void wm_pattern_add_edge(wm_pattern *p, unsigned i, unsigned j);
/* Sets vertex v's label (WM_ANY_LABEL or >= 0) and keeps `labeled` right. */
void wm_pattern_set_label(wm_pattern *p, unsigned v, int32_t label);

/* Checks 1 <= k <= 8 (k >= 2), symmetric, loop-free, at least one edge,
 * connected; errors name the pattern and the problem. */
int wm_pattern_validate(const wm_pattern *p, wm_error *err);

/* Named catalogue: "triangle", "K-clique" (3..8), "K-cycle", "K-path",
 * "K-star" (K vertices in all), "diamond", "tailed-triangle", "house", and
 * the other connected 4- and 5-vertex graphs (see wm_catalogue_names). */
int wm_pattern_from_name(const char *name, wm_pattern *p, wm_error *err);
/* NULL-terminated list of one name per connected graph on 3, 4 and 5
 * vertices (2 + 6 + 21 names, by vertex then edge count); the families also
 * resolve for K up to 8 ("8-clique"), and aliases ("paw", "claw",
 * "butterfly", "K5", ...) resolve to the primary names.  Case-insensitive. */
const char *const *wm_catalogue_names(void);
/* Writes the catalogue name of p's isomorphism class into buf and returns 1
 * (p unlabeled and isomorphic to a named graph), else returns 0. */
int wm_catalogue_name_of(const wm_pattern *p, char *buf, unsigned size);

/* Text format: one edge "a b" per line (vertex ids 0..7), optional
 * "v ID LABEL" lines, '#' comments, blank lines.  Errors name file and line.
 * A text whose first line other than comments and 'v' lines is a 't' or an
 * 'e' line is read as an STMatch / GSI pattern file instead ("t # 0",
 * "v ID LABEL [DEGREE]", "e A B [LABEL]"; see pattern_gsi.c): its vertex
 * labels are kept unless all are equal, and its edges must all carry the
 * same edge label or none. */
int wm_pattern_parse(const char *text, const char *source_name, wm_pattern *p, wm_error *err);
int wm_pattern_load(const char *path, wm_pattern *p, wm_error *err);
/* A name from the catalogue, else a file path (a name with '/' or '.' is
 * always taken as a path). */
int wm_pattern_resolve(const char *name_or_path, wm_pattern *p, wm_error *err);

/* Writes "a-b c-d ..." into buf. */
void wm_pattern_edge_string(const wm_pattern *p, char *buf, unsigned size);

/* ---- symmetry ------------------------------------------------------- */

/* Automorphisms (label-preserving): up to 8! = 40320 permutations, each as
 * perm[i] = image of vertex i. */
typedef struct wm_automorphisms {
  uint32_t count;
  uint8_t (*perm)[WM_MAX_K]; /* count entries, malloc'd */
} wm_automorphisms;

int wm_pattern_automorphisms(const wm_pattern *p, wm_automorphisms *out, wm_error *err);
void wm_automorphisms_free(wm_automorphisms *a);

/* Symmetry-breaking restrictions (GraphZero): pairs (a, b) meaning the data
 * vertex matched to pattern vertex a must be smaller than the one matched to
 * b; with them each subgraph is found exactly once (count with restrictions
 * = embeddings / |Aut|).  Returns the count.  p must be valid.  Implied
 * pairs are kept (triangle: 0<1, 0<2, 1<2), so a pair prunes as soon as
 * both of its vertices are bound, whatever the matching order. */
typedef struct wm_restriction {
  uint8_t a, b;
} wm_restriction;
unsigned wm_pattern_restrictions(const wm_pattern *p, wm_restriction out[WM_MAX_K * WM_MAX_K]);
/* The same with the orbit representatives taken in `order` (a permutation
 * of 0..k-1, e.g. the matching order): each restriction's a is the member
 * of its orbit that comes first in order, so restrictions bind early.
 * order == NULL means 0..k-1 (what wm_pattern_restrictions does). */
unsigned wm_pattern_restrictions_ordered(const wm_pattern *p, const uint8_t order[],
                                         wm_restriction out[WM_MAX_K * WM_MAX_K]);
/* The same restrictions from the group listed (aut of a k-vertex pattern,
 * wm_pattern_automorphisms): a pass over its members per vertex instead of
 * a search per pair, for the planner, which tries hundreds of orders. */
unsigned wm_pattern_restrictions_in_group(const wm_automorphisms *aut, unsigned k, const uint8_t order[],
                                          wm_restriction out[WM_MAX_K * WM_MAX_K]);

/* Canonical form, equal for isomorphic patterns (labels included) and
 * different otherwise: vertices ordered by (label ascending, degree
 * descending), and among such orderings the one whose upper-triangle
 * adjacency read column by column ((0,1), (0,2), (1,2), (0,3), ...) is the
 * largest bit string.  hash is xxHash64 (seed 0) of the bytes k, labels
 * (int32 little-endian each), adjacency rows, over the form's k vertices.
 * The form keeps p's name. */
typedef struct wm_canonical {
  wm_pattern form;
  uint8_t perm[WM_MAX_K]; /* form vertex i = pattern vertex perm[i] */
  uint64_t hash;
} wm_canonical;
void wm_pattern_canonical(const wm_pattern *p, wm_canonical *out);
/* Whether two canonical forms are the same pattern (hash, size and
 * adjacency; the hash covers the labels). */
int wm_canonical_same(const wm_canonical *a, const wm_canonical *b);

/* Every connected unlabeled pattern on k vertices (k = 2..8: 1, 2, 6, 21,
 * 112, 853, 11117 of them), in canonical form, ordered by edge count then
 * canonical adjacency rows, each named from the catalogue where it has a
 * name, else "Kv-Ee-I" (I-th unnamed one with E edges).  *out is malloc'd;
 * the caller frees it.  Fast enough for k = 8 on one core. */
int wm_connected_patterns(unsigned k, wm_pattern **out, unsigned *count, wm_error *err);

/* M[i * n + j] = the copies of pats[i] among the spanning subgraphs of
 * pats[j]: edge subsets of pats[j] that touch all its k vertices and form a
 * graph isomorphic to pats[i].  pats are distinct unlabeled classes of one
 * size k = 2..6 (wm_connected_patterns(k)); ordered by edge count, M is
 * upper triangular with a unit diagonal.  Edge-induced counts are M times
 * the vertex-induced ones. */
int wm_spanning_matrix(const wm_pattern *pats, unsigned n, uint64_t *M, wm_error *err);

#ifdef __cplusplus
}
#endif
#endif
