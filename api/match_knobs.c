/* The table of match_knobs.h. */
#include "match_knobs.h"

#include <stdint.h>
#include <string.h>

#define KNOB(field, option, is_unsigned, lo, hi) \
  {#field, option, offsetof(warpmatch_match_options, field), is_unsigned, lo, hi}

const wm_match_knob wm_match_knobs[] = {
    KNOB(gpus, "gpus", 0, 1, WARPMATCH_MAX_GPUS),
    KNOB(gpu_chunk, "gpu-chunk", 1, 1, WARPMATCH_GPU_MAX_CHUNK),
    KNOB(gpu_unroll, "unroll", 0, 1, WARPMATCH_GPU_MAX_UNROLL),
    KNOB(gpu_blocks, "gpu-blocks", 0, 1, WARPMATCH_GPU_MAX_BLOCKS),
    KNOB(gpu_warps, "gpu-warps", 0, 1, WARPMATCH_GPU_MAX_WARPS),
};
const unsigned wm_match_knob_count = sizeof wm_match_knobs / sizeof *wm_match_knobs;

long long wm_match_knob_get(const wm_match_knob *k, const warpmatch_match_options *o) {
  const char *p = (const char *)o + k->offset;
  if (k->is_unsigned) {
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
  }
  int v;
  memcpy(&v, p, sizeof v);
  return v;
}

void wm_match_knob_set(const wm_match_knob *k, warpmatch_match_options *o, long long v) {
  char *p = (char *)o + k->offset;
  if (k->is_unsigned) {
    uint32_t u = (uint32_t)v;
    memcpy(p, &u, sizeof u);
  } else {
    int i = (int)v;
    memcpy(p, &i, sizeof i);
  }
}
