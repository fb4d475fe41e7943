/* The table of match_knobs.h. */
#include "match_knobs.h"

#include "api_internal.h"

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

/* ---- published (warpmatch.h) ------------------------------------------ */

unsigned warpmatch_match_option_count(void) { return wm_match_knob_count; }

int warpmatch_match_option_info(unsigned i, warpmatch_option_info *out) {
  size_t size;
  if (i >= wm_match_knob_count || !out) return WARPMATCH_EUSAGE;
  memcpy(&size, out, sizeof size);
  if (size < sizeof size || size > WARPMATCH_MAX_STRUCT_SIZE) return WARPMATCH_EUSAGE;
  const wm_match_knob *k = &wm_match_knobs[i];
  const warpmatch_option_info mine = {
      .size = sizeof mine, .field = k->field, .option = k->option, .lo = k->lo, .hi = k->hi};
  memcpy((char *)out + sizeof size, (const char *)&mine + sizeof size,
         (size < sizeof mine ? size : sizeof mine) - sizeof size);
  return WARPMATCH_OK;
}

int warpmatch_match_option_set(warpmatch_context *ctx, warpmatch_match_options *o, unsigned i, long long v) {
  static const char who[] = "warpmatch_match_option_set";
  if (!ctx) return WARPMATCH_EUSAGE;
  if (!o) return wm_api_null(ctx, who, "o");
  if (i >= wm_match_knob_count)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: option %u; there are %u (0 to %u)", who, i, wm_match_knob_count,
                       wm_match_knob_count - 1);
  const wm_match_knob *k = &wm_match_knobs[i];
  if (v != 0 && (v < k->lo || v > k->hi))
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: %s %lld; expected %lld to %lld, or 0 for the default", who,
                       k->field, v, k->lo, k->hi);
  /* The field must lie inside the caller's struct (an older, shorter one
   * has none of the later fields). */
  if (o->size < k->offset + (k->is_unsigned ? sizeof(uint32_t) : sizeof(int)) || o->size > WARPMATCH_MAX_STRUCT_SIZE)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: the options' size is %zu, without %s; set it to their sizeof", who,
                       o->size, k->field);
  wm_match_knob_set(k, o, v);
  return WARPMATCH_OK;
}
