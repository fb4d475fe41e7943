/* Private helpers shared by the files of patterns/ (not part of the API). */
#ifndef WM_PATTERN_INTERNAL_H
#define WM_PATTERN_INTERNAL_H

#include <stddef.h>
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

/* ---- the two text readers (pattern_parse.c, pattern_gsi.c) -------- */

#define WM_PATTERN_MAX_TOKENS 4

typedef struct wm_pattern_line {
  const char *src;
  unsigned lineno;
  char shown[72]; /* the line as quoted in messages */
} wm_pattern_line;

/* Splits s (modified) on blanks; returns the token count, at most
 * WM_PATTERN_MAX_TOKENS + 1 (meaning "too many"). */
unsigned wm_pattern_tokenize(char *s, char *tok[WM_PATTERN_MAX_TOKENS + 1]);
/* A decimal integer, the whole token; 1 when it is one. */
int wm_pattern_parse_long(const char *t, long *out);
/* A vertex id 0..WM_MAX_K-1: WM_OK; -1 when t is no integer (the caller
 * says what it expected); an error naming the line when out of range. */
int wm_pattern_vertex_id(const wm_pattern_line *c, const char *t, unsigned *id, wm_error *err);
/* Copies the line (without its outer blanks) into c->shown for messages. */
void wm_pattern_show_line(wm_pattern_line *c, const char *s, size_t len);
/* Names p after src, sets `labeled`, and validates; a pattern without
 * edges gets "SRC: no edges (expected EXPECTED)". */
int wm_pattern_finish(wm_pattern *p, const char *src, const char *expected, wm_error *err);

/* 1 when text is an STMatch / GSI pattern file: its first data line that is
 * not a 'v' line is a 't' (graph header) or 'e' (edge) line, which the
 * edge-list format has none of. */
int wm_pattern_text_is_gsi(const char *text);
int wm_pattern_parse_gsi(const char *text, const char *src, wm_pattern *p, wm_error *err);

#endif
