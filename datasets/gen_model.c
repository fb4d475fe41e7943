/* The models beyond Kronecker and R-MAT (gen_*.c): their defaults, their
 * ranges and the edges each draws.  The ranges are checked here once, so
 * that each model's file holds only its drawing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datasets.h"
#include "gen_random.h"

static const char *model_name(int model) {
  static const char *names[] = {"chung-lu", "ba", "hub", "sbm", "regular", "grid"};
  return model >= WM_GEN_CHUNG_LU && model <= WM_GEN_GRID ? names[model - WM_GEN_CHUNG_LU] : "?";
}

void wm_gen_model_defaults(wm_gen_model *o, int model, uint64_t n, uint64_t seed) {
  memset(o, 0, sizeof *o);
  o->model = model;
  o->n = n;
  o->seed = seed;
  o->mean_degree = model == WM_GEN_HUB ? 4.0 : 16.0;
  o->exponent = 2.5;
  o->attach = 8;
  o->hub_fraction = 0.5;
  o->communities = 16;
  o->degree_in = 16.0;
  o->degree_out = 2.0;
  o->degree = 16;
  /* As near square as n allows (n = 2^scale: exact for an even scale). */
  o->width = n ? (uint64_t)sqrt((double)n) : 0;
  if (o->width == 0) o->width = 1;
  o->height = n / o->width;
  o->shortcuts = 0.0;
}

static uint64_t half_round(uint64_t n, double d) { return (uint64_t)llround((double)n * d / 2.0); }

/* In double, so that no product can wrap before it is checked. */
static double drawn_real(const wm_gen_model *o) {
  const double n = (double)o->n;
  switch (o->model) {
  case WM_GEN_CHUNG_LU: return n * o->mean_degree / 2;
  case WM_GEN_BA: return n * o->attach;
  case WM_GEN_HUB: return (n - 1) * (o->hub_fraction + o->mean_degree / 2);
  case WM_GEN_SBM: return n * (o->degree_in + o->degree_out) / 2;
  case WM_GEN_REGULAR: return n * o->degree / 2;
  case WM_GEN_GRID: return 2.0 * (double)o->width * (double)o->height * (1 + o->shortcuts);
  }
  return 0;
}

uint64_t wm_gen_model_drawn(const wm_gen_model *o) {
  const uint64_t n = o->n;
  switch (o->model) {
  case WM_GEN_CHUNG_LU: return half_round(n, o->mean_degree);
  case WM_GEN_BA: return (uint64_t)o->attach * (o->attach + 1) / 2 + (n - o->attach - 1) * o->attach;
  case WM_GEN_HUB: return (uint64_t)llround(o->hub_fraction * (double)(n - 1)) + half_round(n - 1, o->mean_degree);
  case WM_GEN_SBM: return half_round(n, o->degree_in) + half_round(n, o->degree_out);
  case WM_GEN_REGULAR: return n * o->degree / 2;
  case WM_GEN_GRID: {
    uint64_t lattice = 2 * o->width * o->height - o->width - o->height;
    return lattice + (uint64_t)llround(o->shortcuts * (double)lattice);
  }
  }
  return 0;
}

/* x in [lo, hi] (NaN is not). */
static int in_range(double x, double lo, double hi) { return x >= lo && x <= hi; }

static int check_sbm(const wm_gen_model *o, const char *who, wm_error *err) {
  if (o->communities < 1 || o->communities > o->n / 2)
    return wm_fail(err, WM_EUSAGE, "%s: communities must be 1..vertices/2 = %llu (2 vertices or more each), got %llu",
                   who, (unsigned long long)(o->n / 2), (unsigned long long)o->communities);
  const uint64_t smallest = o->n / o->communities, largest = (o->n + o->communities - 1) / o->communities;
  if (!in_range(o->degree_in, 0, (double)(smallest - 1)))
    return wm_fail(err, WM_EUSAGE, "%s: degree in must be 0..%llu (the smallest community's size - 1), got %g", who,
                   (unsigned long long)(smallest - 1), o->degree_in);
  if (!in_range(o->degree_out, 0, (double)(o->n - largest)))
    return wm_fail(err, WM_EUSAGE,
                   "%s: degree out must be 0..%llu (the vertices outside the largest community), got %g", who,
                   (unsigned long long)(o->n - largest), o->degree_out);
  return WM_OK;
}

static int check_grid(const wm_gen_model *o, const char *who, wm_error *err) {
  if (o->width < 1 || o->height < 1 || o->width > WM_GEN_MAX_VERTICES / o->height)
    return wm_fail(err, WM_EUSAGE,
                   "%s: width and height must be 1 or more with width x height at most %llu (32-bit ids), "
                   "got %llu x %llu",
                   who, WM_GEN_MAX_VERTICES, (unsigned long long)o->width, (unsigned long long)o->height);
  if (!in_range(o->shortcuts, 0, 1))
    return wm_fail(err, WM_EUSAGE, "%s: shortcuts must be in [0, 1] (a share of the lattice's edges), got %g",
                   who, o->shortcuts);
  return WM_OK;
}

/* The ranges of everything but the vertex count and the edges drawn. */
static int check_model(const wm_gen_model *o, const char *who, wm_error *err) {
  const double n = (double)o->n;
  switch (o->model) {
  case WM_GEN_CHUNG_LU:
    if (!in_range(o->exponent, WM_GEN_MIN_EXPONENT, WM_GEN_MAX_EXPONENT))
      return wm_fail(err, WM_EUSAGE, "%s: exponent must be in [%g, %g], got %g", who, WM_GEN_MIN_EXPONENT,
                     WM_GEN_MAX_EXPONENT, o->exponent);
    if (!(o->mean_degree > 0) || !(o->mean_degree <= n - 1))
      return wm_fail(err, WM_EUSAGE, "%s: mean degree must be in (0, vertices - 1 = %llu], got %g", who,
                     (unsigned long long)o->n - 1, o->mean_degree);
    return WM_OK;
  case WM_GEN_BA:
    if (o->attach < 1 || o->attach > o->n - 1)
      return wm_fail(err, WM_EUSAGE, "%s: attach must be 1..vertices - 1 = %llu, got %u", who,
                     (unsigned long long)o->n - 1, o->attach);
    return WM_OK;
  case WM_GEN_HUB:
    if (!in_range(o->hub_fraction, 0, 1))
      return wm_fail(err, WM_EUSAGE, "%s: hub fraction must be in [0, 1], got %g", who, o->hub_fraction);
    if (!in_range(o->mean_degree, 0, n - 2))
      return wm_fail(err, WM_EUSAGE, "%s: mean degree must be in [0, vertices - 2 = %llu] (the tail's), got %g",
                     who, (unsigned long long)o->n - 2, o->mean_degree);
    return WM_OK;
  case WM_GEN_SBM: return check_sbm(o, who, err);
  case WM_GEN_REGULAR:
    if (o->degree < 1 || o->degree > o->n - 1)
      return wm_fail(err, WM_EUSAGE, "%s: degree must be 1..vertices - 1 = %llu, got %u", who,
                     (unsigned long long)o->n - 1, o->degree);
    if ((o->n & 1) && (o->degree & 1))
      return wm_fail(err, WM_EUSAGE, "%s: vertices x degree must be even (each edge takes two stubs), got %llu x %u",
                     who, (unsigned long long)o->n, o->degree);
    return WM_OK;
  case WM_GEN_GRID: return check_grid(o, who, err);
  }
  return wm_fail(err, WM_EUSAGE, "generator: model %d: expected %d..%d (chung-lu .. grid)", o->model,
                 WM_GEN_CHUNG_LU, WM_GEN_GRID);
}

int wm_gen_model_check(const wm_gen_model *o, wm_error *err) {
  char who[64];
  snprintf(who, sizeof who, "generator %s", model_name(o->model));
  /* grid's n is width x height, checked with them. */
  if (o->model != WM_GEN_GRID && (o->n < 2 || o->n > WM_GEN_MAX_VERTICES))
    return wm_fail(err, WM_EUSAGE, "%s: vertices must be 2..%llu (32-bit ids), got %llu", who,
                   WM_GEN_MAX_VERTICES, (unsigned long long)o->n);
  int rc = check_model(o, who, err);
  if (rc) return rc;
  if (drawn_real(o) > (double)WM_GEN_MAX_EDGES)
    return wm_fail(err, WM_EUSAGE, "%s: at most 2^40 = %llu edges may be drawn, these options draw about %.4g",
                   who, WM_GEN_MAX_EDGES, drawn_real(o));
  return WM_OK;
}

int wm_generate_model(const wm_gen_model *o, wm_graph **out, wm_error *err) {
  *out = NULL;
  int rc = wm_gen_model_check(o, err);
  if (rc) return rc;
  wm_gen_model m = *o;
  if (m.model == WM_GEN_GRID) m.n = m.width * m.height;
  switch (m.model) {
  case WM_GEN_CHUNG_LU: return wm_gen_chung_lu(&m, out, err);
  case WM_GEN_BA: return wm_gen_ba(&m, out, err);
  case WM_GEN_HUB: return wm_gen_hub(&m, out, err);
  case WM_GEN_SBM: return wm_gen_sbm(&m, out, err);
  case WM_GEN_REGULAR: return wm_gen_regular(&m, out, err);
  default: return wm_gen_grid(&m, out, err);
  }
}

int wm_gen_alloc_arcs(const char *model, uint64_t count, uint32_t **src, uint32_t **dst, wm_error *err) {
  *src = count ? malloc(count * sizeof **src) : NULL;
  *dst = count ? malloc(count * sizeof **dst) : NULL;
  if (count && (!*src || !*dst)) {
    free(*src);
    free(*dst);
    *src = *dst = NULL;
    return wm_fail(err, WM_EINPUT, "generator %s: out of host memory for %llu edges (needs about %llu MiB)", model,
                   (unsigned long long)count, (unsigned long long)((count * 8) >> 20));
  }
  return WM_OK;
}

int wm_gen_finish(uint32_t *src, uint32_t *dst, uint64_t count, uint64_t n, wm_graph **out, wm_error *err) {
  int rc = wm_graph_from_arcs(src, dst, count, n, 0, out, err);
  free(src);
  free(dst);
  return rc;
}
