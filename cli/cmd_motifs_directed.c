/* warpmatch motifs --directed: every directed class of 3 or 4 vertices
 * counted vertex-induced (the triad census's MAN codes for 3, igraph's
 * isoclass ids for both), as a table or one JSON object, on the CPU or the
 * GPU (--device, --gpus).  A client of warpmatch_motifs_directed only. */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

/* Options of the undirected counts that mean nothing here. */
static const char *const undirected_only[] = {"trials",    "steal",      "unroll",    "level0",
                                              "gpu-chunk", "gpu-blocks", "gpu-warps", "gpu-table",
                                              "stack-kernel", "no-relabel", NULL};

static int options(const wm_cli *cli, uint64_t *k, warpmatch_directed_motif_options *o, wm_error *err) {
  for (unsigned i = 0; undirected_only[i]; i++)
    if (wm_cli_str(cli, undirected_only[i]))
      return wm_fail(err, WM_EUSAGE, "motifs --directed: --%s is for undirected motifs", undirected_only[i]);
  if (wm_mpi_ranks() > 1)
    return wm_fail(err, WM_EUSAGE, "motifs --directed: runs in one process (not shared across mpirun's ranks yet)");
  if (!wm_cli_str(cli, "size")) return wm_fail(err, WM_EUSAGE, "motifs --directed: --size 3|4 is required");
  int rc = wm_cli_u64(cli, "size", 0, 3, 4, k, err);
  static const char *const methods[] = {"auto", "formula", "enumerate", NULL}; /* WARPMATCH_METHOD_* */
  warpmatch_directed_motif_options_init(o);
  if (!rc) rc = wm_cli_choice(cli, "method", methods, 0, &o->method, err);
  o->all_classes = wm_cli_flag(cli, "all-classes");
  uint64_t gpus = 1;
  if (!rc) rc = wm_cli_u64(cli, "gpus", 1, 1, WARPMATCH_MAX_GPUS, &gpus, err);
  o->gpus = (int)gpus;
  return rc;
}

/* --device (auto: the GPU when usable) and whether --gpus fits it. */
static int device(const wm_cli *cli, warpmatch_context *ctx, uint64_t k, warpmatch_directed_motif_options *o,
                  wm_error *err) {
  int use_gpu = 0;
  int rc = wm_cli_use_gpu(cli, ctx, &use_gpu, err);
  o->device = use_gpu ? WARPMATCH_DEVICE_GPU : WARPMATCH_DEVICE_CPU;
  if (!rc && o->gpus > 1 && !use_gpu)
    rc = wm_fail(err, WM_EUSAGE, "motifs --directed: --gpus %d splits the count over GPUs, but it runs on the CPU "
                                 "(--device cpu, or no usable GPU)", o->gpus);
  if (!rc && o->gpus > 1 && k == 4 && o->method == WARPMATCH_METHOD_ENUMERATE)
    rc = wm_fail(err, WM_EUSAGE, "motifs --directed: --gpus %d, but --method enumerate counts size 4 on the CPU",
                 o->gpus);
  return rc;
}

static wm_u128 count_of(const warpmatch_directed_motif *m) { return (wm_u128)m->count_high << 64 | m->count; }

static void print_text(const char *path, const warpmatch_graph *g, unsigned k, const warpmatch_directed_motif *rows,
                       const warpmatch_directed_motif_result *r, double load_seconds) {
  printf("directed motifs of size %u in %s (%u vertices, %llu arcs), vertex-induced counts\n\n", k, path,
         warpmatch_graph_vertices(g), (unsigned long long)warpmatch_graph_edges(g));
  const int w = k == 3 ? 29 : 59; /* the arcs of the complete class */
  printf("%-8s %6s  %-*s %26s\n", "name", "igraph", w, "arcs", "count");
  char num[WM_I128_CHARS];
  wm_u128 total = 0;
  for (unsigned i = 0; i < r->classes; i++) {
    printf("%-8s %6u  %-*s %26s\n", rows[i].name, rows[i].igraph_id, w, rows[i].arcs[0] ? rows[i].arcs : "(none)",
           wm_u128_str(count_of(&rows[i]), num));
    total += count_of(&rows[i]);
  }
  printf("%-8s %6s  %-*s %26s\n\n", "total", "", w,
         r->classes == warpmatch_motif_classes_directed(k, 0) ? "(every vertex set)" : "(weakly connected)",
         wm_u128_str(total, num));
  printf("time: load %.3f s, count %.3f s\n", load_seconds, r->seconds);
  if (r->device == WARPMATCH_DEVICE_GPU) printf("kernels: %.3f ms\n", r->kernel_ms);
  printf("method: %s\n", r->how);
}

static void print_json(const char *path, const warpmatch_graph *g, unsigned k, const warpmatch_directed_motif *rows,
                       const warpmatch_directed_motif_result *r, double load_seconds) {
  wm_json j;
  wm_json_begin(&j, stdout);
  wm_json_str(&j, "graph", path);
  wm_json_u64(&j, "vertices", warpmatch_graph_vertices(g));
  wm_json_u64(&j, "arcs", warpmatch_graph_edges(g));
  wm_json_u64(&j, "size", k);
  wm_json_bool(&j, "directed", 1);
  wm_json_bool(&j, "all_classes", r->classes == warpmatch_motif_classes_directed(k, 0));
  wm_u128 total = 0;
  wm_json_array(&j, "motifs");
  for (unsigned i = 0; i < r->classes; i++) {
    wm_json_object(&j, NULL);
    wm_json_str(&j, "name", rows[i].name);
    wm_json_u64(&j, "igraph_id", rows[i].igraph_id);
    wm_json_str(&j, "arcs", rows[i].arcs);
    wm_json_bool(&j, "connected", rows[i].connected);
    wm_json_u128(&j, "count", count_of(&rows[i]));
    wm_json_close(&j);
    total += count_of(&rows[i]);
  }
  wm_json_close(&j);
  wm_json_u128(&j, "total", total);
  wm_json_double(&j, "seconds", r->seconds);
  wm_json_str(&j, "device", r->device == WARPMATCH_DEVICE_GPU ? "gpu" : "cpu");
  if (r->device == WARPMATCH_DEVICE_GPU) wm_json_double(&j, "kernel_ms", r->kernel_ms);
  wm_json_str(&j, "how", r->how);
  wm_json_double(&j, "load_seconds", load_seconds);
  wm_json_end(&j);
}

int wm_cmd_motifs_directed(const wm_cli *cli, wm_error *err) {
  uint64_t k = 0;
  warpmatch_directed_motif_options o;
  warpmatch_context *ctx = NULL;
  warpmatch_graph *g = NULL;
  warpmatch_directed_motif rows[218]; /* the most classes: size 4, all */
  warpmatch_directed_motif_result r = {.size = sizeof r};
  const char *path = cli->positional[0];
  int rc = options(cli, &k, &o, err);
  if (!rc) rc = wm_cli_context(cli, &ctx, err);
  if (!rc) rc = device(cli, ctx, k, &o, err);
  const double t0 = wm_now();
  if (!rc) rc = wm_cli_open_graph(cli, ctx, path, &g, NULL, err);
  const double load_seconds = wm_now() - t0;
  if (!rc && !warpmatch_graph_directed(g))
    rc = wm_fail(err, WM_EUSAGE, "motifs --directed: %s holds an undirected graph (a .wmg or Matrix Market file "
                                 "written symmetric); directed motifs need arcs: give the edge list itself", path);
  if (!rc) rc = wm_cli_api(ctx, warpmatch_motifs_directed(ctx, g, (unsigned)k, &o, rows, &r), err);
  if (!rc && cli->json) print_json(path, g, (unsigned)k, rows, &r, load_seconds);
  else if (!rc) print_text(path, g, (unsigned)k, rows, &r, load_seconds);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
  return rc;
}
