/* Synthetic graphs (warpmatch_generate): the kinds' defaults and ranges
 * over the modules' generators (datasets/generate.c). */
#include <string.h>

#include "api_internal.h"

_Static_assert(WARPMATCH_GEN_MAX_SCALE == WM_GEN_MAX_SCALE && WARPMATCH_GEN_MAX_EDGE_FACTOR == WM_GEN_MAX_EDGE_FACTOR,
               "the public ranges are the generator's");

void warpmatch_gen_options_init(warpmatch_gen_options *o, int kind, unsigned scale, uint64_t seed) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->size = sizeof *o;
  o->kind = kind;
  wm_gen_options mo;
  if (kind == WARPMATCH_GEN_KRON)
    wm_gen_kron_defaults(&mo, scale, seed);
  else if (kind == WARPMATCH_GEN_RMAT)
    wm_gen_rmat_defaults(&mo, scale, seed);
  else
    memset(&mo, 0, sizeof mo); /* refused by warpmatch_generate */
  o->scale = scale;
  o->seed = seed;
  o->edge_factor = mo.edge_factor;
  o->a = mo.a;
  o->b = mo.b;
  o->c = mo.c;
  o->permute = mo.permute;
}

/* The ranges a module's check would also refuse, named here as the
 * command line names them; the probabilities are the module's to check
 * (its messages name each one and the sum). */
static int check(warpmatch_context *ctx, const char *who, const warpmatch_gen_options *o) {
  if (o->kind != WARPMATCH_GEN_KRON && o->kind != WARPMATCH_GEN_RMAT)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: kind %d: expected WARPMATCH_GEN_KRON or WARPMATCH_GEN_RMAT", who,
                       o->kind);
  if (o->scale < 1 || o->scale > WARPMATCH_GEN_MAX_SCALE)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE,
                       "%s: scale must be 1..%d (2^scale vertices; vertex ids are 32-bit, so scale %d and above "
                       "cannot be stored), got %u",
                       who, WARPMATCH_GEN_MAX_SCALE, WARPMATCH_GEN_MAX_SCALE + 1, o->scale);
  if (o->edge_factor < 1 || o->edge_factor > WARPMATCH_GEN_MAX_EDGE_FACTOR)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: edge factor must be 1..%d, got %u", who,
                       WARPMATCH_GEN_MAX_EDGE_FACTOR, o->edge_factor);
  return WARPMATCH_OK;
}

int warpmatch_generate(warpmatch_context *ctx, const warpmatch_gen_options *opt, warpmatch_graph **out) {
  static const char who[] = "warpmatch_generate";
  if (!ctx) return WARPMATCH_EUSAGE;
  if (!out) return wm_api_null(ctx, who, "out");
  *out = NULL;
  if (!opt) return wm_api_null(ctx, who, "o");
  warpmatch_gen_options o;
  warpmatch_gen_options_init(&o, WARPMATCH_GEN_KRON, 0, 0);
  int rc = wm_api_struct_in(ctx, who, &o, sizeof o, opt);
  if (!rc) rc = check(ctx, who, &o);
  if (rc) return rc;
  const wm_gen_options mo = {
      .scale = o.scale, .edge_factor = o.edge_factor, .a = o.a, .b = o.b, .c = o.c, .seed = o.seed,
      .permute = o.permute != 0,
  };
  wm_error err;
  wm_graph *g = NULL;
  wm_api_threads t;
  wm_api_threads_enter(ctx, &t);
  rc = wm_generate(&mo, &g, &err);
  wm_api_threads_leave(&t);
  if (rc) return wm_api_status(ctx, rc, &err);
  return wm_api_graph_wrap(ctx, who, g, out);
}
