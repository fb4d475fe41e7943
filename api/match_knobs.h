/* The numeric options of warpmatch_match_options that the command line
 * sets one for one (--gpus N, --unroll U, ...): each defined once, with its
 * range, in match_knobs.c.  The API's check (wm_api_match_options) takes 0,
 * the default, or lo..hi; the table is published as
 * warpmatch_match_option_count/_info/_set (warpmatch.h), through which the
 * command line's parser (cli/match_cli.c) takes lo..hi and leaves an
 * absent option at 0.  Not installed. */
#ifndef WM_MATCH_KNOBS_H
#define WM_MATCH_KNOBS_H

#include <stddef.h>

#include "warpmatch.h"

typedef struct wm_match_knob {
  const char *field;  /* the struct's field, as the API's messages name it */
  const char *option; /* the command line's --option */
  size_t offset;      /* in warpmatch_match_options */
  int is_unsigned;    /* a uint32_t field, else an int */
  long long lo, hi;   /* the range of a value other than the default 0 */
} wm_match_knob;

extern const wm_match_knob wm_match_knobs[];
extern const unsigned wm_match_knob_count;

/* The knob's value in o, and setting it. */
long long wm_match_knob_get(const wm_match_knob *k, const warpmatch_match_options *o);
void wm_match_knob_set(const wm_match_knob *k, warpmatch_match_options *o, long long v);

#endif
