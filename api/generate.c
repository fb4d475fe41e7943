/* Synthetic graphs (warpmatch_generate): the kinds' defaults and ranges
 * over the modules' generators (datasets/generate.c, datasets/gen_*.c). */
#include <string.h>

#include "api_internal.h"

_Static_assert(WARPMATCH_GEN_MAX_SCALE == WM_GEN_MAX_SCALE && WARPMATCH_GEN_MAX_EDGE_FACTOR == WM_GEN_MAX_EDGE_FACTOR,
               "the public ranges are the generator's");
_Static_assert(WARPMATCH_GEN_MAX_VERTICES == WM_GEN_MAX_VERTICES && WARPMATCH_GEN_MAX_EDGES == WM_GEN_MAX_EDGES,
               "the public ranges are the models'");
/* (int): the two enums are distinct types. */
_Static_assert((int)WARPMATCH_GEN_CHUNG_LU == (int)WM_GEN_CHUNG_LU && (int)WARPMATCH_GEN_BA == (int)WM_GEN_BA &&
                   (int)WARPMATCH_GEN_HUB == (int)WM_GEN_HUB && (int)WARPMATCH_GEN_SBM == (int)WM_GEN_SBM &&
                   (int)WARPMATCH_GEN_REGULAR == (int)WM_GEN_REGULAR && (int)WARPMATCH_GEN_GRID == (int)WM_GEN_GRID,
               "the public kinds are the models' numbers");

static int is_model(int kind) { return kind >= WARPMATCH_GEN_CHUNG_LU && kind <= WARPMATCH_GEN_GRID; }

/* The module's model options as the struct's, and back. */
static void model_out(warpmatch_gen_options *o, const wm_gen_model *m) {
  o->vertices = m->n;
  o->mean_degree = m->mean_degree;
  o->exponent = m->exponent;
  o->attach = m->attach;
  o->hub_fraction = m->hub_fraction;
  o->communities = m->communities;
  o->degree_in = m->degree_in;
  o->degree_out = m->degree_out;
  o->degree = m->degree;
  o->width = m->width;
  o->height = m->height;
  o->shortcuts = m->shortcuts;
}

static wm_gen_model model_in(const warpmatch_gen_options *o) {
  const wm_gen_model m = {
      .model = o->kind, .n = o->vertices, .seed = o->seed, .mean_degree = o->mean_degree,
      .exponent = o->exponent, .attach = o->attach, .hub_fraction = o->hub_fraction,
      .communities = o->communities, .degree_in = o->degree_in, .degree_out = o->degree_out,
      .degree = o->degree, .width = o->width, .height = o->height, .shortcuts = o->shortcuts,
  };
  return m;
}

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
    memset(&mo, 0, sizeof mo); /* refused by warpmatch_generate, or a model's */
  if (is_model(kind)) {
    wm_gen_model m;
    wm_gen_model_defaults(&m, kind, scale >= 1 && scale <= WARPMATCH_GEN_MAX_SCALE ? 1ull << scale : 0, seed);
    model_out(o, &m);
  }
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
    return wm_api_fail(ctx, WARPMATCH_EUSAGE,
                       "%s: kind %d: expected WARPMATCH_GEN_KRON, _RMAT, _CHUNG_LU, _BA, _HUB, _SBM, _REGULAR or "
                       "_GRID (1..8)",
                       who, o->kind);
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

/* The caller's options over the defaults, checked: the ranges of kron and
 * rmat here, the models' by the module (its messages name each range). */
static int options_in(warpmatch_context *ctx, const char *who, const warpmatch_gen_options *opt,
                      warpmatch_gen_options *o) {
  if (!opt) return wm_api_null(ctx, who, "o");
  warpmatch_gen_options_init(o, WARPMATCH_GEN_KRON, 0, 0);
  int rc = wm_api_struct_in(ctx, who, o, sizeof *o, opt);
  if (rc) return rc;
  if (!is_model(o->kind)) return check(ctx, who, o);
  const wm_gen_model m = model_in(o);
  wm_error err;
  return wm_api_status(ctx, wm_gen_model_check(&m, &err), &err);
}

int warpmatch_gen_edges_drawn(warpmatch_context *ctx, const warpmatch_gen_options *opt, uint64_t *drawn) {
  static const char who[] = "warpmatch_gen_edges_drawn";
  if (!ctx) return WARPMATCH_EUSAGE;
  if (!drawn) return wm_api_null(ctx, who, "drawn");
  *drawn = 0;
  warpmatch_gen_options o;
  int rc = options_in(ctx, who, opt, &o);
  if (rc) return rc;
  if (is_model(o.kind)) {
    const wm_gen_model m = model_in(&o);
    *drawn = wm_gen_model_drawn(&m);
  } else {
    *drawn = (uint64_t)o.edge_factor << o.scale;
  }
  return WARPMATCH_OK;
}

int warpmatch_generate(warpmatch_context *ctx, const warpmatch_gen_options *opt, warpmatch_graph **out) {
  static const char who[] = "warpmatch_generate";
  if (!ctx) return WARPMATCH_EUSAGE;
  if (!out) return wm_api_null(ctx, who, "out");
  *out = NULL;
  warpmatch_gen_options o;
  int rc = options_in(ctx, who, opt, &o);
  if (rc) return rc;
  const wm_gen_options mo = {
      .scale = o.scale, .edge_factor = o.edge_factor, .a = o.a, .b = o.b, .c = o.c, .seed = o.seed,
      .permute = o.permute != 0,
  };
  wm_error err;
  wm_graph *g = NULL;
  wm_api_threads t;
  wm_api_threads_enter(ctx, &t);
  if (is_model(o.kind)) {
    const wm_gen_model m = model_in(&o);
    rc = wm_generate_model(&m, &g, &err);
  } else {
    rc = wm_generate(&mo, &g, &err);
  }
  wm_api_threads_leave(&t);
  if (rc) return wm_api_status(ctx, rc, &err);
  return wm_api_graph_wrap(ctx, who, g, out);
}
