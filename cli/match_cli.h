/* What 'count' and 'list' share: their options as the library's match
 * options, the pattern, and the graph with its labels and the seed of
 * --seed/--hops.  'motifs' shares the device, relabel and GPU options. */
#ifndef WM_MATCH_CLI_H
#define WM_MATCH_CLI_H

#include "cli.h"

/* Options every matching command takes (put them in its spec array). */
#define WM_MATCH_OPTSPEC                                                                          \
  {"pattern", "NAME|FILE", "a catalogue name (triangle, 4-clique, house, ...) or a pattern file"}, \
  {"induced", NULL, "vertex-induced matches (default: edge-induced)"},                               \
  {"embeddings", NULL, "count every embedding (no symmetry breaking)"},                              \
  {"labels", "F", "vertex labels of the graph ('ID LABEL' lines), for labeled patterns"},         \
  {"ignore-labels", NULL, "match the pattern file's shape only (STMatch's .g files label vertex i with i)"}, \
  {"no-code-motion", NULL, "plan without hoisting or sharing set operations"},                       \
  {"no-pair-count", NULL, "iterate the last two positions, not count them as pairs of one set"},     \
  WM_ORDER_OPTSPEC,                                                                                  \
  {"threads", "N", "CPU threads (default: all)"},                                                    \
  {"seed", "V", "match only inside the BFS ball around vertex V (with --hops)"},                    \
  {"hops", "H", "radius of the --seed ball"},                                                        \
  WM_RELABEL_OPTSPEC

#define WM_ORDER_OPTSPEC                                                                            \
  {"order", "U,U,...", "match the pattern's vertices in this order (default: the planner's choice)"}, \
  {"planner", "auto|model|sampled|probes", "choose the order by the cost model, measure its best few on the graph, or (auto, default) measure them where a run is long and switch at half the work, then time the best few on a slice of level 0 where the count pays for it (probes: auto without the slices)"}

#define WM_RELABEL_OPTSPEC                                                                          \
  {"no-relabel", NULL, "match on the file's vertex order (default: renumber by descending degree)"}

#define WM_DEVICE_OPTSPEC {"device", "auto|cpu|gpu", "where to match (default: the GPU when one is usable)"}

/* GPU tuning, for the ablation and the benchmarks (ignored on the CPU). */
#define WM_GPU_OPTSPEC                                                                          \
  {"steal", "none|block|two-level", "GPU work stealing (default: two-level)"},                    \
  {"unroll", "U", "GPU: iterations of a level expanded together (default: the policy's)"},       \
  {"level0", "auto|vertices|edges", "GPU: hand out the first level as vertices or as edges (default: edges where the plan allows)"}, \
  {"gpu-chunk", "N", "GPU: first-level vertices or edges per grab of the global counter (default: from the grid)"}, \
  {"gpus", "N", "GPUs of this host to split the first level over (default 1)"},                  \
  {"gpu-blocks", "N", "GPU: blocks of the launch (default: from the device)"},                    \
  {"gpu-warps", "N", "GPU: warps per block (default: from the device)"},                        \
  {"gpu-table", "WORDS", "GPU: each warp's probe table of a row in shared memory, 0 for none (default 128 where occupancy allows)"}, \
  {"stack-kernel", NULL, "GPU: count triangles and cliques with the general stack kernel, not the dedicated ones"}

/* The options shared by count, list and motifs: --device (with the
 * context's GPU check), the WM_GPU_OPTSPEC tuning and --no-relabel, into o.
 * Usage errors come here, before anything is loaded. */
int wm_cli_match_options(const wm_cli *cli, warpmatch_context *ctx, warpmatch_match_options *o, wm_error *err);

/* --order's pattern vertices into order[] (room for
 * WARPMATCH_MAX_PATTERN_VERTICES), *n of them; *n = 0 when it is absent. */
int wm_cli_order(const wm_cli *cli, unsigned *order, unsigned *n, wm_error *err);
/* --planner into o->planner. */
int wm_cli_planner(const wm_cli *cli, warpmatch_match_options *o, wm_error *err);
/* The order's length against the pattern's k, once the pattern is known. */
int wm_cli_order_fits(const wm_cli *cli, unsigned n, unsigned k, wm_error *err);

typedef struct wm_match_job {
  warpmatch_context *ctx;
  warpmatch_graph *g;
  warpmatch_pattern *p;
  warpmatch_load_info info;
  const char *graph_path;
  int32_t *labels;         /* --labels, one per index, or NULL */
  warpmatch_match_options o;
  unsigned order[WARPMATCH_MAX_PATTERN_VERTICES], order_n; /* --order (o.order points here) */
  double load_seconds;     /* the graph and its labels */
} wm_match_job;

/* The context and every option of the job (wm_cli_match_options and the
 * WM_MATCH_OPTSPEC ones): usage errors before anything is loaded. */
int wm_match_job_options(const wm_cli *cli, wm_match_job *job, wm_error *err);
/* The pattern, the graph and its labels, and the --seed vertex. */
int wm_match_job_load(const wm_cli *cli, wm_match_job *job, wm_error *err);
void wm_match_job_free(wm_match_job *job);

/* The job's pattern: its name as given, and its edges. */
const char *wm_match_pattern_name(const wm_match_job *job);

#endif
