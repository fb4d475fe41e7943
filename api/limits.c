/* The header's limits as the library was built with them
 * (warpmatch_limit), for bindings that would otherwise mirror them. */
#include <stddef.h>

#include "api_internal.h"

#define LIMIT(name) {#name, name}

static const struct {
  const char *name;
  long long value;
} limits[] = {
    LIMIT(WARPMATCH_MAX_THREADS),
    LIMIT(WARPMATCH_MAX_GPUS),
    LIMIT(WARPMATCH_MAX_PATTERN_VERTICES),
    LIMIT(WARPMATCH_MAX_TRIALS),
    LIMIT(WARPMATCH_MAX_SLICE_ORDERS),
    LIMIT(WARPMATCH_GPU_MAX_TABLE_WORDS),
    LIMIT(WARPMATCH_GPU_MAX_UNROLL),
    LIMIT(WARPMATCH_GPU_MAX_WARPS),
    LIMIT(WARPMATCH_GPU_MAX_BLOCKS),
    LIMIT(WARPMATCH_GPU_MAX_CHUNK),
    LIMIT(WARPMATCH_MAX_STRUCT_SIZE),
    LIMIT(WARPMATCH_GEN_MAX_SCALE),
    LIMIT(WARPMATCH_GEN_MAX_EDGE_FACTOR),
    LIMIT(WARPMATCH_GEN_MAX_VERTICES),
    LIMIT(WARPMATCH_GEN_MAX_EDGES),
    LIMIT(WARPMATCH_MAX_SWAPS_PER_EDGE),
    LIMIT(WARPMATCH_MAX_RANDOM_GRAPHS),
};

const char *warpmatch_limit(unsigned i, long long *value) {
  if (i >= sizeof limits / sizeof *limits) return NULL;
  if (value) *value = limits[i].value;
  return limits[i].name;
}
