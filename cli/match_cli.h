/* What 'count' and 'list' share: resolving the pattern, loading the graph
 * and its labels, planning, the BFS ball of --seed/--hops, and choosing the
 * device. */
#ifndef WM_MATCH_CLI_H
#define WM_MATCH_CLI_H

#include "cli.h"
#include "matcher.h"

/* Options every matching command takes (put them in its spec array). */
#define WM_MATCH_OPTSPEC                                                                          \
  {"pattern", "NAME|FILE", "a catalogue name (triangle, 4-clique, house, ...) or a pattern file"}, \
  {"induced", NULL, "vertex-induced matches (default: edge-induced)"},                               \
  {"embeddings", NULL, "count every embedding (no symmetry breaking)"},                              \
  {"labels", "F", "vertex labels of the graph ('ID LABEL' lines), for labeled patterns"},         \
  {"ignore-labels", NULL, "match the pattern file's shape only (STMatch's .g files label vertex i with i)"}, \
  {"no-code-motion", NULL, "plan without hoisting or sharing set operations"},                       \
  {"no-pair-count", NULL, "iterate the last two positions, not count them as pairs of one set"},     \
  {"threads", "N", "CPU threads (default: all)"},                                                    \
  {"seed", "V", "match only inside the BFS ball around vertex V (with --hops)"},                    \
  {"hops", "H", "radius of the --seed ball"},                                                        \
  WM_RELABEL_OPTSPEC

#define WM_RELABEL_OPTSPEC                                                                          \
  {"no-relabel", NULL, "match on the file's vertex order (default: renumber by descending degree)"}

typedef struct wm_match_job {
  wm_graph *g;
  wm_load_info info;
  const char *graph_path;
  wm_pattern pattern;
  int32_t *labels;        /* NULL without --labels */
  uint8_t *allowed;       /* BFS ball, or NULL */
  uint32_t *first;        /* the ball's vertices, or NULL */
  uint64_t n_first;
  wm_plan plan;
  double load_seconds, relabel_seconds, plan_seconds;
  int threads;
} wm_match_job;

/* Parses the shared options, loads everything and builds the plan
 * (count_only as given; for the GPU when use_gpu: wm_plan_options'
 * first_edge_up).  On failure the job is freed. */
int wm_match_job_prepare(const wm_cli *cli, int count_only, int use_gpu, wm_match_job *job, wm_error *err);
void wm_match_job_free(wm_match_job *job);

/* Match options from the job (labels, ball, threads). */
void wm_match_job_options(const wm_match_job *job, wm_match_options *mo);

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

/* Reads the WM_GPU_OPTSPEC options into mo. */
int wm_cli_gpu_options(const wm_cli *cli, wm_match_options *mo, wm_error *err);

/* Renumbers *g by descending degree (hubs first; with the planner's
 * restrictions the bounded lists then keep only higher-degree neighbours),
 * unless --no-relabel, the graph is already so numbered, or directed.
 * *labels (indexed by the old ids, may be NULL) follows.  File ids are
 * kept for output. */
int wm_match_relabel(const wm_cli *cli, wm_graph **g, int32_t **labels, double *seconds, wm_error *err);

/* The graph file's base name, for summaries. */
const char *wm_match_graph_name(const wm_match_job *job);

#endif
