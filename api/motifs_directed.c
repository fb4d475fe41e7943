/* warpmatch_motifs_directed: every directed class of 3 or 4 vertices
 * counted vertex-induced, on the graph's own numbering (the counts do not
 * depend on it), rows named and numbered as igraph numbers the classes. */
#include <stdio.h>
#include <string.h>

#include "api_internal.h"
#include "base.h"
#include "motifs_directed.h"

unsigned warpmatch_motif_classes_directed(unsigned size, int connected_only) {
  unsigned n = 0;
  for (unsigned r = 0; r < wm_dir_rows(size); r++) n += !connected_only || wm_dir_class_row(size, r)->connected;
  return n;
}

void warpmatch_directed_motif_options_init(warpmatch_directed_motif_options *o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->size = sizeof *o;
  o->device = WARPMATCH_DEVICE_AUTO;
}

static int check(warpmatch_context *ctx, const char *who, const warpmatch_graph *g, unsigned size,
                 const warpmatch_directed_motif_options *o) {
  if (size != 3 && size != 4)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: size %u; directed motifs have 3 or 4 vertices", who, size);
  if (o->method < WARPMATCH_METHOD_AUTO || o->method > WARPMATCH_METHOD_ENUMERATE)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: method %d; use WARPMATCH_METHOD_AUTO, _FORMULA or _ENUMERATE", who,
                       o->method);
  if (o->gpus < 0 || o->gpus > WARPMATCH_MAX_GPUS)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: gpus %d; give 1 to %d (0: the context's)", who, o->gpus,
                       WARPMATCH_MAX_GPUS);
  if (!(g->g->flags & WM_GRAPH_DIRECTED))
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: needs a directed graph (this one is undirected: load it with "
                       "`directed`, or use warpmatch_motifs)", who);
  return WARPMATCH_OK;
}

static void fill(unsigned size, unsigned r, wm_u128 count, warpmatch_directed_motif *out) {
  const wm_dir_class *c = wm_dir_class_row(size, r);
  memset(out, 0, sizeof *out);
  if (c->man)
    snprintf(out->name, sizeof out->name, "%s", c->man);
  else
    snprintf(out->name, sizeof out->name, "d%u-%u", size, c->igraph_id);
  wm_dir_arcs_string(size, c->code, out->arcs, sizeof out->arcs); /* 12 arcs take 59 characters */
  out->igraph_id = c->igraph_id;
  out->connected = c->connected;
  out->count = (uint64_t)count;
  out->count_high = (uint64_t)(count >> 64);
}

int warpmatch_motifs_directed(warpmatch_context *ctx, const warpmatch_graph *g, unsigned size,
                              const warpmatch_directed_motif_options *opt, warpmatch_directed_motif *out,
                              warpmatch_directed_motif_result *r) {
  static const char who[] = "warpmatch_motifs_directed";
  if (!ctx) return WARPMATCH_EUSAGE;
  if (!g) return wm_api_null(ctx, who, "g");
  if (!out) return wm_api_null(ctx, who, "out");
  warpmatch_directed_motif_options o;
  warpmatch_directed_motif_options_init(&o);
  int rc = opt ? wm_api_struct_in(ctx, who, &o, sizeof o, opt) : WARPMATCH_OK;
  if (!rc) rc = check(ctx, who, g, size, &o);
  int use_gpu = 0;
  if (!rc) rc = wm_api_use_gpu(ctx, who, o.device, &use_gpu);
  if (rc) return rc;
  warpmatch_directed_motif_result x;
  memset(&x, 0, sizeof x);
  x.size = sizeof x;
  wm_u128 counts[WM_DIR_MAX_ROWS];
  const int gpus = o.gpus ? o.gpus : ctx->gpus ? ctx->gpus : 1;
  wm_dir_run run = {o.all_classes != 0, o.method == WARPMATCH_METHOD_ENUMERATE, use_gpu ? gpus : 0, 0, 0, ""};
  wm_api_threads t;
  wm_api_threads_enter(ctx, &t);
  const double t0 = wm_now();
  wm_error err;
  wm_error_clear(&err);
  rc = wm_api_status(ctx, wm_motifs_directed_run(g->g, size, &run, counts, &err), &err);
  x.seconds = wm_now() - t0;
  wm_api_threads_leave(&t);
  /* size 4's enumeration runs on the CPU whatever the device */
  x.device = run.on_gpu ? WARPMATCH_DEVICE_GPU : WARPMATCH_DEVICE_CPU;
  x.kernel_ms = run.on_gpu ? run.kernel_ms : 0;
  for (unsigned i = 0; !rc && i < wm_dir_rows(size); i++)
    if (o.all_classes || wm_dir_class_row(size, i)->connected) fill(size, i, counts[i], &out[x.classes++]);
  snprintf(x.how, sizeof x.how, "%s: %s", run.on_gpu ? "GPU" : "CPU", run.how ? run.how : "");
  int out_rc = r ? wm_api_struct_out(ctx, who, r, &x, sizeof x) : WARPMATCH_OK;
  return rc ? rc : out_rc;
}
