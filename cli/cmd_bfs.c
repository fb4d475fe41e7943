/* warpmatch bfs: breadth-first search from one vertex (--source), from a
 * set of vertices at once (--source-list: multi-source BFS), or from N
 * random roots one after another (--sources N: the Graph500 protocol,
 * harmonic-mean TEPS).  Prints levels, vertices per level, time and GTEPS;
 * --validate runs the Graph500 checks, --output writes levels or parents,
 * --ablation runs every variant of the GPU pipeline on the same roots. */
#define _POSIX_C_SOURCE 200809L /* getline */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const wm_optspec spec[] = {
    WM_GRAPH_OPTSPEC,
    {"source", "V", "search from vertex V (the file's id)"},
    {"sources", "N", "Graph500 protocol: N searches from random roots of non-zero degree"},
    {"source-list", "F", "one multi-source search from the vertex ids listed in F"},
    {"seed", "S", "random seed for choosing the --sources roots (default 1)"},
    {"max-depth", "H", "stop after H levels: reach exactly the vertices within H hops"},
    {"validate", NULL, "run the Graph500 checks on every result"},
    {"output", "F", "write 'ID VALUE' per vertex (-1: unreached); one search only"},
    {"write", "levels|parents", "what --output writes (default levels; parents as file ids)"},
    WM_BFS_DEVICE_OPTSPEC,
    {"gpus", "N", "GPU: split the graph over N GPUs of this host, of each rank under mpirun (needs NCCL; default 1)"},
    {"threads", "N", "CPU threads (default: all)"},
    {"no-direction-opt", NULL, "top-down steps only"},
    {"alpha", "X", "go bottom-up when frontier hubs / all hubs > X (default 0.3)"},
    {"edge-ratio", "R", "... or when frontier edges x R > unexplored edges (default 14; 0: off)"},
    {"no-queue-gen", NULL, "GPU: status-array BFS, no frontier queues (implies --no-classify)"},
    {"no-classify", NULL, "GPU: a thread per frontier vertex, no degree classes"},
    {"no-hub-cache", NULL, "GPU: bottom-up without the shared-memory hub cache"},
    {"no-small-kernel", NULL, "GPU: no small-level or deep-level kernel (several levels a launch)"},
    {"no-small-grid", NULL, "GPU: the small-level kernel on one block only, not every SM"},
    {"no-cluster-kernel", NULL, "GPU: no cluster search (a small graph's whole search in one launch of a block cluster)"},
    {"ablation", NULL, "run every variant of the ablation on the same roots"},
    {"probe-bandwidth", NULL, "GPU: measure memory bandwidth; report the share of the bound"},
    {NULL, NULL, NULL},
};

static const char summary[] =
    "Breadth-first search: levels reached, vertices per level, time and GTEPS.\n"
    "TEPS edges follow Graph500: the undirected input edges within the traversed component\n"
    "(sum of the reached vertices' degrees / 2; directed graphs: arcs leaving reached\n"
    "vertices), divided by the traversal time (GPU: excluding the graph upload and the copy\n"
    "of the result back to the host).  --sources N reports the harmonic mean over N roots.\n"
    "Directed graphs (--directed) are searched along out-arcs; bottom-up steps use the\n"
    "transpose.  --ablation variants: baseline (status-array BFS, direction-optimising),\n"
    "+queue-gen, +classify, +hub-cache, +small-kernel (one block), +small-grid (= all on),\n"
    "and top-down only.\n"
    "Bandwidth bound of one search: 8 B per vertex offset, 4 B per adjacency entry of the\n"
    "reached vertices, 4 B status + 4 B parent per vertex, at the measured copy bandwidth;\n"
    "share = bound time / measured time (direction optimisation skips edges, so > 100% is\n"
    "possible).";

typedef struct run_rec {
  uint32_t source; /* first source (index) */
  double seconds, kernel_ms;
  uint64_t teps_edges, edges_traversed, reached;
  uint32_t depth, bu_levels;
  int valid; /* 1 ok, 0 failed, -1 not checked */
} run_rec;

typedef struct variant {
  const char *name;
  warpmatch_bfs_options o;
  run_rec *runs;
} variant;

/* One search's answer: levels and parents of every vertex, its figures. */
typedef struct search {
  int32_t *level;
  uint32_t *parent;
  warpmatch_bfs_stats stats;
} search;

typedef struct bfs_cmd {
  wm_cli cli;
  warpmatch_context *ctx;
  warpmatch_graph *g;
  uint32_t n; /* the graph's vertices */
  const char *path;
  uint32_t *src;
  uint32_t nsrc;
  int per_root; /* --sources N: each src[i] is one search */
  uint64_t seed;
  int validate, use_gpu, write_parents, probe;
  const char *output;
  double bandwidth; /* GB/s, 0 when not measured */
  variant var[8];
  int nvar;
  search last; /* each search's answer; after a single search, its own (the summary, --output) */
} bfs_cmd;

/* ---- options ----------------------------------------------------------- */

static int read_base_options(bfs_cmd *c, warpmatch_bfs_options *o, wm_error *err) {
  warpmatch_bfs_options_init(o);
  o->device = c->use_gpu ? WARPMATCH_DEVICE_GPU : WARPMATCH_DEVICE_CPU;
  uint64_t v;
  int rc;
  if ((rc = wm_cli_u64(&c->cli, "max-depth", UINT32_MAX, 0, UINT32_MAX, &v, err))) return rc;
  o->max_depth = (uint32_t)v;
  if ((rc = wm_cli_double(&c->cli, "alpha", 0.3, &o->alpha, err))) return rc;
  if (!(o->alpha >= 0 && o->alpha <= 1))
    return wm_fail(err, WM_EUSAGE, "bfs: --alpha expects a share from 0 to 1, got %g", o->alpha);
  if ((rc = wm_cli_double(&c->cli, "edge-ratio", 14, &o->edge_ratio, err))) return rc;
  if (!(o->edge_ratio >= 0 && o->edge_ratio <= 1e6))
    return wm_fail(err, WM_EUSAGE, "bfs: --edge-ratio expects a number from 0 to 1e6, got %g", o->edge_ratio);
  o->direction_opt = !wm_cli_flag(&c->cli, "no-direction-opt");
  o->queue_gen = !wm_cli_flag(&c->cli, "no-queue-gen");
  o->classify = !wm_cli_flag(&c->cli, "no-classify");
  o->hub_cache = !wm_cli_flag(&c->cli, "no-hub-cache");
  o->small_kernel = !wm_cli_flag(&c->cli, "no-small-kernel");
  o->small_grid = !wm_cli_flag(&c->cli, "no-small-grid");
  o->cluster_kernel = !wm_cli_flag(&c->cli, "no-cluster-kernel");
  if ((rc = wm_cli_u64(&c->cli, "gpus", 1, 1, WARPMATCH_MAX_GPUS, &v, err))) return rc;
  o->gpus = (int)v;
  if (o->gpus > 1 && !c->use_gpu)
    return wm_fail(err, WM_EUSAGE, "bfs: --gpus %d splits the search over GPUs, but this search runs on the CPU (--device cpu, or no usable GPU)", o->gpus);
  return WM_OK;
}

static void add_variant(bfs_cmd *c, const char *name, const warpmatch_bfs_options *base, int qg, int cl,
                        int hc, int sk, int sg, int ck, int dopt) {
  variant *v = &c->var[c->nvar++];
  v->name = name;
  v->o = *base;
  v->o.queue_gen = qg, v->o.classify = cl, v->o.hub_cache = hc, v->o.small_kernel = sk, v->o.small_grid = sg;
  v->o.cluster_kernel = ck;
  v->o.direction_opt = dopt;
}

static int choose_variants(bfs_cmd *c, wm_error *err) {
  warpmatch_bfs_options base;
  int rc = read_base_options(c, &base, err);
  if (rc) return rc;
  if (wm_cli_flag(&c->cli, "ablation") && base.gpus > 1)
    return wm_fail(err, WM_EUSAGE, "bfs: --ablation varies the one-GPU pipeline; not with --gpus %d", base.gpus);
  if (!wm_cli_flag(&c->cli, "ablation")) {
    c->var[0].name = c->use_gpu ? "gpu" : "cpu";
    c->var[0].o = base;
    c->nvar = 1;
    return WM_OK;
  }
  static const char *const no[] = {"no-direction-opt", "no-queue-gen", "no-classify", "no-hub-cache",
                                   "no-small-kernel", "no-small-grid", "no-cluster-kernel"};
  for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
    if (wm_cli_flag(&c->cli, no[i]))
      return wm_fail(err, WM_EUSAGE, "bfs: --ablation chooses the variants itself; drop --%s", no[i]);
  if (!c->use_gpu) {
    add_variant(c, "top-down", &base, 1, 1, 1, 1, 1, 1, 0);
    add_variant(c, "direction-optimising", &base, 1, 1, 1, 1, 1, 1, 1);
    return WM_OK;
  }
  add_variant(c, "baseline", &base, 0, 0, 0, 0, 0, 0, 1);
  add_variant(c, "+queue-gen", &base, 1, 0, 0, 0, 0, 0, 1);
  add_variant(c, "+classify", &base, 1, 1, 0, 0, 0, 0, 1);
  add_variant(c, "+hub-cache", &base, 1, 1, 1, 0, 0, 0, 1);
  add_variant(c, "+small-kernel", &base, 1, 1, 1, 1, 0, 0, 1);
  add_variant(c, "+small-grid", &base, 1, 1, 1, 1, 1, 0, 1);
  add_variant(c, "+cluster-kernel", &base, 1, 1, 1, 1, 1, 1, 1);
  add_variant(c, "top-down only", &base, 1, 1, 1, 1, 1, 1, 0);
  return WM_OK;
}

static int check_usage(bfs_cmd *c, wm_error *err) {
  int modes = !!wm_cli_str(&c->cli, "source") + !!wm_cli_str(&c->cli, "sources") +
              !!wm_cli_str(&c->cli, "source-list");
  if (modes != 1)
    return wm_fail(err, WM_EUSAGE, "bfs: give exactly one of --source V, --sources N, --source-list F");
  static const char *const what[] = {"levels", "parents", NULL};
  int w = 0, rc = wm_cli_choice(&c->cli, "write", what, 0, &w, err);
  if (rc) return rc;
  c->write_parents = w == 1;
  c->output = wm_cli_str(&c->cli, "output");
  if (wm_cli_str(&c->cli, "write") && !c->output)
    return wm_fail(err, WM_EUSAGE, "bfs: --write says what --output writes; give --output F too");
  if (c->output && (wm_cli_str(&c->cli, "sources") || wm_cli_flag(&c->cli, "ablation")))
    return wm_fail(err, WM_EUSAGE, "bfs: --output writes the result of one search; not with "
                                   "--sources or --ablation");
  c->validate = wm_cli_flag(&c->cli, "validate");
  c->probe = wm_cli_flag(&c->cli, "probe-bandwidth");
  return wm_cli_u64(&c->cli, "seed", 1, 0, UINT64_MAX, &c->seed, err);
}

/* ---- sources ----------------------------------------------------------- */

static uint64_t splitmix(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* N distinct random roots of non-zero out-degree (all of them when the graph
 * has no more than N). */
static int pick_roots(bfs_cmd *c, uint64_t want, wm_error *err) {
  const warpmatch_graph *g = c->g;
  uint64_t cand = 0;
  for (uint32_t v = 0; v < c->n; v++) cand += warpmatch_graph_degree(g, v) > 0;
  if (cand == 0) return wm_fail(err, WM_EINPUT, "bfs: %s has no vertex with an edge to start from", c->path);
  uint64_t k = want < cand ? want : cand;
  c->src = malloc(k * sizeof *c->src);
  uint8_t *taken = calloc(c->n, 1);
  if (!c->src || !taken) {
    free(taken);
    return wm_fail(err, WM_EINPUT, "bfs: out of memory");
  }
  uint64_t state = c->seed;
  if (k == cand) { /* every candidate, in id order */
    for (uint32_t v = 0; v < c->n; v++)
      if (warpmatch_graph_degree(g, v) > 0) c->src[c->nsrc++] = v;
  } else {
    while (c->nsrc < k) {
      uint32_t v = (uint32_t)(splitmix(&state) % c->n);
      if (warpmatch_graph_degree(g, v) == 0 || taken[v]) continue;
      taken[v] = 1;
      c->src[c->nsrc++] = v;
    }
  }
  free(taken);
  c->per_root = 1;
  return WM_OK;
}

static int append_source(bfs_cmd *c, uint32_t v, uint32_t *cap, wm_error *err) {
  if (c->nsrc == *cap) {
    uint32_t *p = realloc(c->src, 2 * (size_t)*cap * sizeof *p);
    if (!p) return wm_fail(err, WM_EINPUT, "bfs: out of memory");
    c->src = p, *cap *= 2;
  }
  c->src[c->nsrc++] = v;
  return WM_OK;
}

/* One line of a source list: ids separated by blanks or commas. */
static int parse_source_line(bfs_cmd *c, char *line, const char *file, unsigned long lineno, uint32_t *cap,
                             wm_error *err) {
  char *hash = strchr(line, '#');
  if (hash) *hash = '\0';
  for (char *p = line; *p;) {
    if (strchr(" \t\r\n,", *p)) {
      p++;
      continue;
    }
    char *tok = p;
    while (*p && !strchr(" \t\r\n,", *p)) p++;
    if (*p) *p++ = '\0';
    uint64_t id;
    uint32_t v;
    if (!wm_parse_u64(tok, &id))
      return wm_fail(err, WM_EINPUT, "%s:%lu: expected a vertex id, got '%s'", file, lineno, tok);
    if (!warpmatch_graph_find(c->g, id, &v))
      return wm_fail(err, WM_EINPUT, "%s:%lu: the graph has no vertex %s", file, lineno, tok);
    int rc = append_source(c, v, cap, err);
    if (rc) return rc;
  }
  return WM_OK;
}

/* Vertex ids of the file F: whitespace-separated, '#' starts a comment. */
static int read_source_list(bfs_cmd *c, const char *file, wm_error *err) {
  FILE *f = fopen(file, "r");
  if (!f) return wm_fail(err, WM_EINPUT, "%s: cannot open the source list", file);
  uint32_t cap = 64;
  c->src = malloc(cap * sizeof *c->src);
  char *line = NULL;
  size_t len = 0;
  int rc = c->src ? WM_OK : wm_fail(err, WM_EINPUT, "bfs: out of memory");
  for (unsigned long lineno = 1; rc == WM_OK && getline(&line, &len, f) >= 0; lineno++)
    rc = parse_source_line(c, line, file, lineno, &cap, err);
  free(line);
  fclose(f);
  if (rc == WM_OK && c->nsrc == 0) rc = wm_fail(err, WM_EINPUT, "%s: no vertex ids in the source list", file);
  return rc;
}

static int resolve_sources(bfs_cmd *c, wm_error *err) {
  const char *list = wm_cli_str(&c->cli, "source-list");
  if (list) return read_source_list(c, list, err);
  if (wm_cli_str(&c->cli, "sources")) {
    uint64_t n;
    int rc = wm_cli_u64(&c->cli, "sources", 0, 1, 1u << 20, &n, err);
    return rc ? rc : pick_roots(c, n, err);
  }
  c->src = malloc(sizeof *c->src);
  if (!c->src) return wm_fail(err, WM_EINPUT, "bfs: out of memory");
  c->nsrc = 1;
  return wm_cli_vertex(&c->cli, c->g, "source", &c->src[0], err);
}

/* ---- running ----------------------------------------------------------- */

static int one_search(bfs_cmd *c, const variant *v, const uint32_t *src, uint32_t nsrc, run_rec *rec,
                      wm_error *err) {
  search *r = &c->last;
  r->stats.size = sizeof r->stats;
  int rc = wm_mpi_ranks() > 1 /* the vertices split across the ranks; rank 0 gets the result */
               ? wm_mpi_bfs(c->ctx, c->g, src, nsrc, &v->o, r->level, r->parent, &r->stats, err)
               : wm_cli_api(c->ctx, warpmatch_bfs_ex(c->ctx, c->g, src, nsrc, &v->o, r->level, r->parent, &r->stats),
                            err);
  if (rc) return rc;
  rec->source = src[0];
  rec->seconds = r->stats.bfs.ms / 1e3;
  rec->kernel_ms = r->stats.kernel_ms;
  rec->teps_edges = r->stats.teps_edges;
  rec->edges_traversed = r->stats.edges_traversed;
  rec->reached = r->stats.bfs.reached;
  rec->depth = r->stats.bfs.depth;
  rec->bu_levels = r->stats.bottom_up_levels;
  rec->valid = -1;
  if (c->validate && wm_mpi_rank() == 0) { /* under mpirun rank 0 holds the whole result */
    rec->valid = warpmatch_bfs_validate(c->ctx, c->g, src, nsrc, r->level, r->parent, &r->stats) == WARPMATCH_OK;
    if (!rec->valid) fprintf(stderr, "warpmatch: %s (variant %s)\n", warpmatch_last_error(c->ctx), v->name);
  }
  return WM_OK;
}

static int run_all(bfs_cmd *c, wm_error *err) {
  uint32_t searches = c->per_root ? c->nsrc : 1;
  wm_progress progress;
  wm_progress_init(&progress, "searches", (uint64_t)searches * c->nvar, searches * c->nvar > 1);
  int rc = WM_OK;
  for (int k = 0; k < c->nvar && !rc; k++) {
    variant *v = &c->var[k];
    v->runs = calloc(searches, sizeof *v->runs);
    if (!v->runs) {
      rc = wm_fail(err, WM_EINPUT, "bfs: out of memory");
      break;
    }
    for (uint32_t i = 0; i < searches && !rc; i++) {
      const uint32_t *s = c->per_root ? &c->src[i] : c->src;
      rc = one_search(c, v, s, c->per_root ? 1 : c->nsrc, &v->runs[i], err);
      wm_progress_add(&progress, 1);
    }
  }
  wm_progress_finish(&progress);
  return rc;
}

/* ---- summary ----------------------------------------------------------- */

typedef struct var_summary {
  double hmean_gteps, median_ms, min_ms, max_ms, share, bound_ms_total, ms_total;
  uint32_t nvalid, nchecked, n;
} var_summary;

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Bytes one search must move at least (see the help text). */
static double bound_bytes(uint32_t n, const run_rec *r) {
  return 8.0 * ((double)n + 1) + 4.0 * (double)r->edges_traversed + 8.0 * (double)n;
}

static void summarise(const bfs_cmd *c, const variant *v, var_summary *s) {
  memset(s, 0, sizeof *s);
  uint32_t n = c->per_root ? c->nsrc : 1;
  double inv = 0, *ms = malloc(n * sizeof *ms);
  uint32_t counted = 0;
  for (uint32_t i = 0; i < n; i++) {
    const run_rec *r = &v->runs[i];
    if (ms) ms[i] = r->seconds * 1e3;
    if (r->teps_edges && r->seconds > 0) inv += r->seconds / (double)r->teps_edges, counted++;
    s->ms_total += r->seconds * 1e3;
    if (c->bandwidth > 0) s->bound_ms_total += bound_bytes(c->n, r) / (c->bandwidth * 1e9) * 1e3;
    if (r->valid >= 0) s->nchecked++, s->nvalid += r->valid;
  }
  s->n = n;
  s->hmean_gteps = counted ? (double)counted / inv / 1e9 : 0;
  if (ms) {
    qsort(ms, n, sizeof *ms, cmp_double);
    s->median_ms = n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2;
    s->min_ms = ms[0];
    s->max_ms = ms[n - 1];
    free(ms);
  }
  s->share = c->bandwidth > 0 && s->ms_total > 0 ? s->bound_ms_total / s->ms_total : NAN;
}

/* Vertices per level of the single search, from its levels. */
static uint64_t *per_level(const bfs_cmd *c) {
  const search *r = &c->last;
  uint64_t *count = calloc(r->stats.bfs.depth ? r->stats.bfs.depth : 1, sizeof *count);
  for (uint32_t v = 0; count && v < c->n; v++)
    if (r->level[v] >= 0 && (uint32_t)r->level[v] < r->stats.bfs.depth) count[r->level[v]]++;
  return count;
}

static void print_levels(const bfs_cmd *c) {
  const uint32_t depth = c->last.stats.bfs.depth;
  uint64_t *count = per_level(c);
  printf("levels    ");
  for (uint32_t l = 0; count && l < depth; l++) {
    if (l == 40) {
      printf(" ... (%u more)", depth - l);
      break;
    }
    printf(" %u:%llu", l, (unsigned long long)count[l]);
  }
  printf("\n");
  free(count);
}

static void print_text(const bfs_cmd *c) {
  printf("graph      %s: %u vertices, %llu %s\n", c->path, c->n, (unsigned long long)warpmatch_graph_edges(c->g),
         warpmatch_graph_directed(c->g) ? "arcs (directed)" : "edges");
  if (wm_mpi_ranks() > 1 && c->use_gpu)
    printf("device     gpu, %d MPI ranks x %d GPU(s) each, each searching its range of vertices: %s\n", wm_mpi_ranks(),
           c->var[0].o.gpus, warpmatch_bfs_describe(c->ctx));
  else if (wm_mpi_ranks() > 1)
    printf("device     cpu (OpenMP), %d MPI ranks, each searching its range of vertices\n", wm_mpi_ranks());
  else
    printf("device     %s\n", c->use_gpu ? warpmatch_bfs_describe(c->ctx) : "cpu (OpenMP)");
  if (c->per_root)
    printf("roots      %u random vertices of non-zero degree (seed %llu)\n", c->nsrc, (unsigned long long)c->seed);
  else if (c->nsrc > 1)
    printf("sources    %u vertices (multi-source)\n", c->nsrc);
  else
    printf("source     %llu\n", (unsigned long long)warpmatch_graph_id(c->g, c->src[0]));
  if (c->bandwidth > 0) printf("bandwidth  %.1f GB/s (device-to-device copy, read + write)\n", c->bandwidth);
  if (!c->per_root && c->nvar == 1) {
    const warpmatch_bfs_stats *r = &c->last.stats;
    const run_rec *rec = &c->var[0].runs[0];
    printf("reached    %llu vertices on %u levels%s (bottom-up levels: %u)\n", (unsigned long long)r->bfs.reached,
           r->bfs.depth, r->truncated ? ", stopped early" : "", r->bottom_up_levels);
    print_levels(c);
    printf("time       %.3f ms", r->bfs.ms);
    if (c->use_gpu) printf(" (kernels %.3f ms by events)", r->kernel_ms);
    printf("\nedges      %llu (Graph500: input edges within the traversed component)\n",
           (unsigned long long)r->teps_edges);
    printf("GTEPS      %.4f\n", rec->seconds > 0 ? (double)r->teps_edges / rec->seconds / 1e9 : 0.0);
    if (rec->valid >= 0) printf("valid      %s (Graph500 checks)\n", rec->valid ? "yes" : "NO");
    return;
  }
  printf("%-22s %12s %10s %10s %10s %9s %8s\n", "variant", "GTEPS(hm)", "median ms", "min ms", "max ms",
         "bw share", "valid");
  for (int k = 0; k < c->nvar; k++) {
    var_summary s;
    summarise(c, &c->var[k], &s);
    char share[32] = "-", valid[32] = "-";
    if (!isnan(s.share)) snprintf(share, sizeof share, "%.1f%%", 100 * s.share);
    if (s.nchecked) snprintf(valid, sizeof valid, "%u/%u", s.nvalid, s.nchecked);
    printf("%-22s %12.4f %10.3f %10.3f %10.3f %9s %8s\n", c->var[k].name, s.hmean_gteps, s.median_ms,
           s.min_ms, s.max_ms, share, valid);
  }
  printf("(GTEPS: harmonic mean over the searches, Graph500 edge count; share: bandwidth-bound time "
         "/ measured time)\n");
}

static void json_runs(const bfs_cmd *c, wm_json *j, const variant *v) {
  wm_json_array(j, "runs");
  uint32_t n = c->per_root ? c->nsrc : 1;
  for (uint32_t i = 0; i < n; i++) {
    const run_rec *r = &v->runs[i];
    wm_json_object(j, NULL);
    wm_json_u64(j, "source", warpmatch_graph_id(c->g, r->source));
    wm_json_u64(j, "reached", r->reached);
    wm_json_u64(j, "depth", r->depth);
    wm_json_u64(j, "bottom_up_levels", r->bu_levels);
    wm_json_double(j, "seconds", r->seconds);
    if (c->use_gpu) wm_json_double(j, "kernel_ms", r->kernel_ms);
    wm_json_u64(j, "teps_edges", r->teps_edges);
    wm_json_double(j, "gteps", r->seconds > 0 ? (double)r->teps_edges / r->seconds / 1e9 : 0);
    if (r->valid >= 0) wm_json_bool(j, "valid", r->valid);
    wm_json_close(j);
  }
  wm_json_close(j);
}

static void print_json(const bfs_cmd *c) {
  wm_json j;
  wm_json_begin(&j, stdout);
  wm_json_str(&j, "graph", c->path);
  wm_json_u64(&j, "vertices", c->n);
  wm_json_u64(&j, "edges", warpmatch_graph_edges(c->g));
  wm_json_bool(&j, "directed", warpmatch_graph_directed(c->g));
  wm_json_str(&j, "device", c->use_gpu ? "gpu" : "cpu");
  if (wm_mpi_ranks() > 1) wm_json_u64(&j, "mpi_ranks", (uint64_t)wm_mpi_ranks());
  if (c->use_gpu && wm_mpi_ranks() > 1) wm_json_u64(&j, "gpus_per_rank", (uint64_t)c->var[0].o.gpus);
  if (c->use_gpu) wm_json_str(&j, "device_info", warpmatch_bfs_describe(c->ctx));
  wm_json_str(&j, "teps_edges_convention", "Graph500: input edges within the traversed component");
  wm_json_u64(&j, "searches", c->per_root ? c->nsrc : 1);
  wm_json_u64(&j, "sources_per_search", c->per_root ? 1 : c->nsrc);
  if (c->bandwidth > 0) wm_json_double(&j, "bandwidth_gbps", c->bandwidth);
  if (!c->per_root && c->nvar == 1) {
    const warpmatch_bfs_stats *r = &c->last.stats;
    uint64_t *count = per_level(c);
    wm_json_u64(&j, "reached", r->bfs.reached);
    wm_json_u64(&j, "depth", r->bfs.depth);
    wm_json_bool(&j, "truncated", r->truncated);
    wm_json_array(&j, "per_level");
    for (uint32_t l = 0; count && l < r->bfs.depth; l++) wm_json_u64(&j, NULL, count[l]);
    wm_json_close(&j);
    free(count);
  }
  wm_json_array(&j, "variants");
  for (int k = 0; k < c->nvar; k++) {
    var_summary s;
    summarise(c, &c->var[k], &s);
    wm_json_object(&j, NULL);
    wm_json_str(&j, "name", c->var[k].name);
    wm_json_double(&j, "gteps", s.hmean_gteps);
    wm_json_double(&j, "median_ms", s.median_ms);
    wm_json_double(&j, "min_ms", s.min_ms);
    wm_json_double(&j, "max_ms", s.max_ms);
    if (!isnan(s.share)) {
      wm_json_double(&j, "bound_ms_total", s.bound_ms_total);
      wm_json_double(&j, "bandwidth_share", s.share);
    }
    if (s.nchecked) wm_json_u64(&j, "valid", s.nvalid);
    json_runs(c, &j, &c->var[k]);
    wm_json_close(&j);
  }
  wm_json_close(&j);
  wm_json_end(&j);
}

/* ---- output file ------------------------------------------------------- */

static int write_output(const bfs_cmd *c, wm_error *err) {
  const search *r = &c->last;
  wm_outfile of;
  int rc = wm_outfile_open(&of, c->output, 0, err);
  if (rc) return rc;
  fprintf(of.f, "# vertex %s (-1: unreached)\n", c->write_parents ? "parent" : "level");
  for (uint32_t v = 0; v < c->n; v++) {
    const unsigned long long id = (unsigned long long)warpmatch_graph_id(c->g, v);
    const int reached = c->write_parents ? r->parent[v] != UINT32_MAX : r->level[v] >= 0;
    if (!reached)
      fprintf(of.f, "%llu -1\n", id);
    else if (c->write_parents)
      fprintf(of.f, "%llu %llu\n", id, (unsigned long long)warpmatch_graph_id(c->g, r->parent[v]));
    else
      fprintf(of.f, "%llu %d\n", id, r->level[v]);
  }
  return wm_outfile_commit(&of, err);
}

/* ---- main -------------------------------------------------------------- */

static int failed(const bfs_cmd *c) {
  for (int k = 0; k < c->nvar; k++)
    for (uint32_t i = 0; i < (c->per_root ? c->nsrc : 1); i++)
      if (c->var[k].runs && c->var[k].runs[i].valid == 0) return 1;
  return 0;
}

/* Under mpirun with several ranks: the search split by vertex ranges over
 * the ranks' CPUs or over all their GPUs, which keeps the depth limit and
 * the sources but not the ablation. */
static int mpi_usage(const bfs_cmd *c, wm_error *err) {
  if (wm_cli_flag(&c->cli, "ablation"))
    return wm_fail(err, WM_EUSAGE, "bfs: --ablation does not run under mpirun with more than one rank");
  return WM_OK;
}

/* The graph, its sources, and the arrays every search answers into. */
static int load(bfs_cmd *c, wm_error *err) {
  int rc = wm_cli_open_graph(&c->cli, c->ctx, c->path, &c->g, NULL, err);
  if (rc) return rc;
  c->n = warpmatch_graph_vertices(c->g);
  c->last.level = malloc((c->n ? c->n : 1) * sizeof *c->last.level);
  c->last.parent = malloc((c->n ? c->n : 1) * sizeof *c->last.parent);
  if (!c->last.level || !c->last.parent) return wm_fail(err, WM_EINPUT, "bfs: out of memory");
  return resolve_sources(c, err);
}

static int run(bfs_cmd *c, wm_error *err) {
  int rc;
  if ((rc = check_usage(c, err)) || (rc = wm_cli_context(&c->cli, &c->ctx, err)) ||
      (rc = wm_cli_use_gpu(&c->cli, c->ctx, &c->use_gpu, err)))
    return rc;
  if (c->probe && !c->use_gpu)
    return wm_fail(err, WM_EUSAGE, "bfs: --probe-bandwidth measures the GPU; not with the CPU");
  if ((rc = choose_variants(c, err))) return rc;
  if (wm_mpi_ranks() > 1 && (rc = mpi_usage(c, err))) return rc;
  if ((rc = wm_mpi_agree(load(c, err), err))) return rc; /* under mpirun all ranks stop if one failed */
  if (wm_mpi_ranks() > 1 && !c->use_gpu && (rc = wm_mpi_agree(wm_mpi_bfs_prepare(c->ctx, c->g, err), err)))
    return rc; /* the GPU search builds its in-arcs itself */
  if (c->probe && (rc = wm_cli_api(c->ctx, warpmatch_gpu_bandwidth(c->ctx, &c->bandwidth), err))) return rc;
  if ((rc = wm_mpi_after_work(run_all(c, err), err))) return rc;
  if (c->cli.json)
    print_json(c);
  else
    print_text(c);
  if (c->output && wm_mpi_rank() == 0 && (rc = write_output(c, err))) return rc; /* rank 0 holds the result */
  if (failed(c)) return wm_fail(err, WM_EINPUT, "bfs: validation failed (see above)");
  return WM_OK;
}

int wm_cmd_bfs(int argc, char **argv) {
  bfs_cmd c;
  memset(&c, 0, sizeof c);
  wm_error err;
  wm_error_clear(&err);
  if (wm_cli_parse(&c.cli, "bfs", "GRAPH (--source V | --sources N | --source-list F) [options]", summary, spec,
                   1, 1, argc, argv, &err))
    return wm_cli_report(&err);
  if (c.cli.help) return WM_OK;
  c.path = c.cli.positional[0];
  int rc = run(&c, &err);
  for (int k = 0; k < c.nvar; k++) free(c.var[k].runs);
  free(c.last.level);
  free(c.last.parent);
  free(c.src);
  warpmatch_graph_destroy(c.g);
  warpmatch_context_destroy(c.ctx);
  return rc ? wm_cli_report(&err) : WM_OK;
}
