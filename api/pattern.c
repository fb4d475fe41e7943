/* Pattern handles: a catalogue name, a pattern file or edge arrays, and
 * vertex labels. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "matcher.h"

/* The name the handle reports: its shape's catalogue name where it has
 * one (whatever its labels), else what the pattern already carries. */
static void name_by_shape(wm_pattern *p) {
  wm_pattern shape = *p;
  for (unsigned v = 0; v < shape.k && v < WM_MAX_K; v++) wm_pattern_set_label(&shape, v, WM_ANY_LABEL);
  char name[sizeof p->name];
  if (wm_catalogue_name_of(&shape, name, sizeof name)) memcpy(p->name, name, sizeof name);
}

static int wrap(warpmatch_context *ctx, const char *who, const wm_pattern *p, warpmatch_pattern **out) {
  warpmatch_pattern *h = malloc(sizeof *h);
  if (!h) return wm_api_fail(ctx, WARPMATCH_EINPUT, "%s: out of memory", who);
  h->p = *p;
  memcpy(h->given, p->name, sizeof h->given);
  name_by_shape(&h->p);
  *out = h;
  return WARPMATCH_OK;
}

int warpmatch_pattern_create(warpmatch_context *ctx, const char *name_or_path, warpmatch_pattern **out) {
  static const char who[] = "warpmatch_pattern_create";
  if (!ctx) return WARPMATCH_EUSAGE;
  if (!out) return wm_api_null(ctx, who, "out");
  *out = NULL;
  if (!name_or_path) return wm_api_null(ctx, who, "name_or_path");
  wm_pattern p;
  wm_error err;
  int rc = wm_pattern_resolve(name_or_path, &p, &err);
  if (rc) return wm_api_status(ctx, rc, &err);
  return wrap(ctx, who, &p, out);
}

int warpmatch_pattern_from_edges(warpmatch_context *ctx, unsigned k, const unsigned *edges, unsigned m,
                                 warpmatch_pattern **out) {
  static const char who[] = "warpmatch_pattern_from_edges";
  if (!ctx) return WARPMATCH_EUSAGE;
  if (!out) return wm_api_null(ctx, who, "out");
  *out = NULL;
  if (m && !edges) return wm_api_null(ctx, who, "edges");
  if (k < 2 || k > WM_MAX_K)
    return wm_api_fail(ctx, WARPMATCH_EINPUT, "%s: %u vertices; a pattern has 2 to %d", who, k, WM_MAX_K);
  wm_pattern p;
  wm_pattern_init(&p, k);
  for (unsigned i = 0; i < m; i++) {
    const unsigned a = edges[2 * i], b = edges[2 * i + 1];
    if (a >= k || b >= k)
      return wm_api_fail(ctx, WARPMATCH_EINPUT, "%s: edge %u (%u-%u) has a vertex outside 0..%u", who, i, a, b, k - 1);
    wm_pattern_add_edge(&p, a, b);
  }
  wm_error err;
  int rc = wm_pattern_validate(&p, &err); /* loops, no edges, not connected */
  if (rc) return wm_api_status(ctx, rc, &err);
  return wrap(ctx, who, &p, out);
}

int warpmatch_pattern_set_label(warpmatch_context *ctx, warpmatch_pattern *p, unsigned v, int32_t label) {
  static const char who[] = "warpmatch_pattern_set_label";
  if (!ctx) return WARPMATCH_EUSAGE;
  if (!p) return wm_api_null(ctx, who, "p");
  if (v >= p->p.k)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: vertex %u, but pattern '%s' has vertices 0..%u", who, v, p->p.name,
                       p->p.k - 1);
  if (label < -1)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: label %d for vertex %u; labels are >= 0, or -1 for any", who,
                       (int)label, v);
  wm_pattern_set_label(&p->p, v, label);
  return WARPMATCH_OK;
}

void warpmatch_pattern_destroy(warpmatch_pattern *p) { free(p); }
unsigned warpmatch_pattern_vertices(const warpmatch_pattern *p) { return p ? p->p.k : 0; }
const char *warpmatch_pattern_name(const warpmatch_pattern *p) { return p ? p->p.name : ""; }
const char *warpmatch_pattern_given_name(const warpmatch_pattern *p) { return p ? p->given : ""; }
int warpmatch_pattern_labeled(const warpmatch_pattern *p) { return p && p->p.labeled; }
int warpmatch_pattern_has_formula(const warpmatch_pattern *p) { return p && wm_motif_formula_applies(&p->p); }

unsigned warpmatch_pattern_edges(const warpmatch_pattern *p, char *buf, size_t size) {
  if (!p) return 0;
  if (buf && size) wm_pattern_edge_string(&p->p, buf, size > UINT_MAX ? UINT_MAX : (unsigned)size);
  return wm_pattern_edges(&p->p);
}

/* ---- the catalogue ---------------------------------------------------- */

const char *warpmatch_catalogue_name(unsigned i) {
  const char *const *names = wm_catalogue_names();
  for (unsigned j = 0; names[j]; j++)
    if (j == i) return names[j];
  return NULL;
}

int warpmatch_pattern_automorphisms(warpmatch_context *ctx, const warpmatch_pattern *p, uint64_t *count) {
  static const char who[] = "warpmatch_pattern_automorphisms";
  if (!ctx) return WARPMATCH_EUSAGE;
  if (!p) return wm_api_null(ctx, who, "p");
  if (!count) return wm_api_null(ctx, who, "count");
  wm_automorphisms a;
  wm_error err;
  int rc = wm_pattern_automorphisms(&p->p, &a, &err);
  if (rc) return wm_api_status(ctx, rc, &err);
  *count = a.count;
  wm_automorphisms_free(&a);
  return WARPMATCH_OK;
}
