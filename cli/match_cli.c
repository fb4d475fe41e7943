/* Shared set-up of the matching commands (see match_cli.h). */
#include <stdlib.h>
#include <string.h>

#include "gpu_policy.h"
#include "match_cli.h"
#include "traversal.h"

int wm_cli_gpu_options(const wm_cli *cli, wm_match_options *mo, wm_error *err) {
  static const char *const steal[] = {"none", "block", "two-level", NULL};
  static const char *const level0[] = {"auto", "vertices", "edges", NULL};
  int mode, l0;
  uint64_t unroll, gpus, blocks, warps, chunk, table = 0;
  int rc = wm_cli_choice(cli, "steal", steal, -1, &mode, err);
  if (!rc) rc = wm_cli_choice(cli, "level0", level0, 0, &l0, err);
  if (!rc) rc = wm_cli_u64(cli, "gpu-chunk", 0, 1, 1u << 20, &chunk, err);
  if (!rc) rc = wm_cli_u64(cli, "unroll", 0, 1, 32, &unroll, err);
  if (!rc) rc = wm_cli_u64(cli, "gpus", 0, 1, 64, &gpus, err);
  if (!rc) rc = wm_cli_u64(cli, "gpu-blocks", 0, 1, 1u << 20, &blocks, err);
  if (!rc) rc = wm_cli_u64(cli, "gpu-warps", 0, 1, 32, &warps, err);
  if (!rc && wm_cli_str(cli, "gpu-table"))
    rc = wm_cli_u64(cli, "gpu-table", 0, 0, WM_GPU_MAX_TABLE_WORDS, &table, err);
  if (rc) return rc;
  if (wm_cli_str(cli, "gpu-table")) mo->gpu_table_words = table ? (int)table : -1;
  if (mode >= 0) mo->gpu_steal = mode; /* WM_STEAL_NONE, _BLOCK, _TWO_LEVEL in order */
  mo->gpu_level0 = l0; /* WM_LEVEL0_AUTO, _VERTICES, _EDGES in order */
  if (chunk) mo->gpu_chunk = (uint32_t)chunk;
  if (unroll) mo->gpu_unroll = (int)unroll;
  if (gpus) mo->gpus = (int)gpus;
  if (blocks) mo->gpu_blocks = (int)blocks;
  if (warps) mo->gpu_warps_per_block = (int)warps;
  if (wm_cli_flag(cli, "stack-kernel")) mo->gpu_clique_kernels = 0;
  return WM_OK;
}

const char *wm_match_graph_name(const wm_match_job *job) {
  const char *slash = strrchr(job->graph_path, '/');
  return slash ? slash + 1 : job->graph_path;
}

/* The vertices within H hops of V, from a BFS limited to H levels. */
static int seed_ball(const wm_cli *cli, wm_match_job *job, wm_error *err) {
  const char *seed = wm_cli_str(cli, "seed"), *hops = wm_cli_str(cli, "hops");
  if (!seed && !hops) return WM_OK;
  if (!seed || !hops)
    return wm_fail(err, WM_EUSAGE, "%s: --seed V and --hops H go together", cli->command);
  uint32_t v;
  uint64_t h;
  int rc = wm_cli_vertex(cli, job->g, "seed", &v, err);
  if (!rc) rc = wm_cli_u64(cli, "hops", 0, 0, 1000000, &h, err);
  if (rc) return rc;
  wm_bfs_options bo;
  wm_bfs_options_init(&bo);
  bo.threads = job->threads;
  bo.max_depth = (uint32_t)h;
  wm_bfs_result br;
  memset(&br, 0, sizeof br);
  if ((rc = wm_bfs_cpu(job->g, &v, 1, &bo, &br, err))) return rc;
  job->allowed = calloc(job->g->n ? job->g->n : 1, 1);
  job->first = malloc((br.reached ? br.reached : 1) * sizeof *job->first);
  if (!job->allowed || !job->first) {
    wm_bfs_result_free(&br);
    return wm_fail(err, WM_EINPUT, "out of memory");
  }
  for (uint32_t u = 0; u < job->g->n; u++)
    if (br.level[u] != WM_UNREACHED && br.level[u] <= h && job->n_first < br.reached) {
      job->allowed[u] = 1;
      job->first[job->n_first++] = u;
    }
  wm_bfs_result_free(&br);
  return WM_OK;
}

int wm_match_relabel(const wm_cli *cli, wm_graph **g, int32_t **labels, double *seconds, wm_error *err) {
  *seconds = 0.0;
  if (wm_cli_flag(cli, "no-relabel")) return WM_OK;
  double t0 = wm_now();
  wm_graph *h = NULL;
  uint32_t *old_of = NULL;
  const int moving = labels && *labels;
  int rc = wm_match_graph_by_degree(*g, &h, moving ? &old_of : NULL, err);
  if (rc || !h) return rc;
  if (moving) {
    int32_t *moved = NULL;
    rc = wm_match_move_labels(*labels, old_of, h->n, &moved, err);
    free(old_of);
    if (rc) {
      wm_graph_destroy(h);
      return rc;
    }
    free(*labels);
    *labels = moved;
  }
  wm_graph_destroy(*g);
  *g = h;
  *seconds = wm_now() - t0;
  return WM_OK;
}

static int load(const wm_cli *cli, wm_match_job *job, wm_error *err) {
  const char *lab = wm_cli_str(cli, "labels");
  uint64_t threads;
  int rc = wm_cli_u64(cli, "threads", 0, 0, 4096, &threads, err);
  if (rc) return rc;
  job->threads = (int)threads;
  if (job->pattern.labeled && !lab)
    return wm_fail(err, WM_EUSAGE,
                   "%s: pattern '%s' has vertex labels: give the graph's with --labels F (or match its "
                   "shape only with --ignore-labels)",
                   cli->command, job->pattern.name);
  double t0 = wm_now();
  if ((rc = wm_cli_load_graph(cli, job->graph_path, &job->g, &job->info, err))) return rc;
  if (lab && (rc = wm_read_labels(lab, job->g, &job->labels, err))) return rc;
  job->load_seconds = wm_now() - t0;
  if ((rc = wm_match_relabel(cli, &job->g, &job->labels, &job->relabel_seconds, err))) return rc;
  return seed_ball(cli, job, err);
}

int wm_match_job_prepare(const wm_cli *cli, int count_only, int use_gpu, wm_match_job *job, wm_error *err) {
  memset(job, 0, sizeof *job);
  job->graph_path = cli->positional[0];
  const char *name = wm_cli_str(cli, "pattern");
  if (!name) return wm_fail(err, WM_EUSAGE, "%s: --pattern NAME|FILE is required", cli->command);
  int rc = wm_pattern_resolve(name, &job->pattern, err);
  /* STMatch's unlabeled builds read the same .g files and drop their labels */
  for (unsigned i = 0; !rc && wm_cli_flag(cli, "ignore-labels") && i < job->pattern.k; i++)
    wm_pattern_set_label(&job->pattern, i, WM_ANY_LABEL);
  if (!rc) rc = load(cli, job, err);
  if (!rc) {
    double t0 = wm_now();
    wm_graph_summary gs;
    wm_graph_summary_compute(job->g, &gs);
    wm_plan_options po;
    wm_plan_options_init(&po);
    po.induced = wm_cli_flag(cli, "induced");
    po.embeddings = wm_cli_flag(cli, "embeddings");
    po.code_motion = !wm_cli_flag(cli, "no-code-motion");
    po.pair_count = !wm_cli_flag(cli, "no-pair-count");
    po.count_only = count_only;
    po.first_edge_up = use_gpu;
    rc = wm_plan_build(&job->pattern, &gs, &po, &job->plan, err);
    job->plan_seconds = wm_now() - t0;
  }
  if (rc) wm_match_job_free(job);
  return rc;
}

void wm_match_job_free(wm_match_job *job) {
  wm_graph_destroy(job->g);
  free(job->labels);
  free(job->allowed);
  free(job->first);
  job->g = NULL;
  job->labels = NULL;
  job->allowed = NULL;
  job->first = NULL;
}

void wm_match_job_options(const wm_match_job *job, wm_match_options *mo) {
  wm_match_options_init(mo);
  mo->threads = job->threads;
  mo->vertex_labels = job->labels;
  mo->allowed = job->allowed;
  mo->first = job->first;
  mo->n_first = job->n_first;
}
