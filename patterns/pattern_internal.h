/* Private helpers shared by the files of patterns/ (not part of the API). */
#ifndef WM_PATTERN_INTERNAL_H
#define WM_PATTERN_INTERNAL_H

#include <stdint.h>

#include "patterns.h"

/* wm_pattern_validate with the subject of the messages given, e.g.
 * "pattern 'x.pat'" or "p.txt". */
int wm_pattern_validate_as(const wm_pattern *p, const char *who, wm_error *err);

/* Searches for one label-preserving automorphism g with g[v] == want[v]
 * for every v whose want[v] >= 0; fills out and returns 1 when one exists. */
int wm_pattern_find_automorphism(const wm_pattern *p, const int8_t want[WM_MAX_K],
                                 uint8_t out[WM_MAX_K]);

/* Vertex degree within the pattern. */
static inline unsigned wm_pattern_degree(const wm_pattern *p, unsigned v) {
  return (unsigned)__builtin_popcount(p->adj[v]);
}

/* Case-insensitive ASCII string equality. */
int wm_name_equal(const char *a, const char *b);

#endif
