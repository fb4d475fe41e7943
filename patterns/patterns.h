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

/* Checks 1 <= k <= 8 (k >= 2), symmetric, loop-free, at least one edge,
 * connected; errors name the pattern and the problem. */
int wm_pattern_validate(const wm_pattern *p, wm_error *err);

/* Named catalogue: "triangle", "K-clique" (3..8), "K-cycle", "K-path",
 * "K-star" (K vertices in all), "diamond", "tailed-triangle", "house", and
 * the other connected 4- and 5-vertex graphs (see wm_catalogue_names). */
int wm_pattern_from_name(const char *name, wm_pattern *p, wm_error *err);
/* NULL-terminated list of the fixed names (k-families listed once as e.g. "4-clique"). */
const char *const *wm_catalogue_names(void);

/* Text format: one edge "a b" per line (vertex ids 0..7), optional
 * "v ID LABEL" lines, '#' comments, blank lines.  Errors name file and line. */
int wm_pattern_parse(const char *text, const char *source_name, wm_pattern *p, wm_error *err);
int wm_pattern_load(const char *path, wm_pattern *p, wm_error *err);
/* A name from the catalogue, else a file path. */
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
 * b; with them each subgraph is found exactly once.  Returns the count. */
typedef struct wm_restriction {
  uint8_t a, b;
} wm_restriction;
unsigned wm_pattern_restrictions(const wm_pattern *p, wm_restriction out[WM_MAX_K * WM_MAX_K]);

/* Canonical form: the lexicographically smallest (labels, adjacency) over all
 * vertex permutations; equal for isomorphic patterns.  hash is xxHash64 of it. */
typedef struct wm_canonical {
  wm_pattern form;
  uint8_t perm[WM_MAX_K]; /* form vertex i = pattern vertex perm[i] */
  uint64_t hash;
} wm_canonical;
void wm_pattern_canonical(const wm_pattern *p, wm_canonical *out);

/* Every connected unlabeled pattern on k vertices (k = 3..5: 2, 6, 21 of
 * them; up to 8 works), in canonical form, ordered by edge count then
 * canonical adjacency, each named from the catalogue where it has a name. */
int wm_connected_patterns(unsigned k, wm_pattern **out, unsigned *count, wm_error *err);

#ifdef __cplusplus
}
#endif
#endif
