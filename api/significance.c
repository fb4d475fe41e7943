/* Motif significance (warpmatch_randomize, warpmatch_motif_significance):
 * degree-preserving random graphs (datasets/randomize.h), made a batch at
 * a time in parallel over the context's threads (or, switch graphs when the
 * counts go to a GPU, over the GPUs: datasets/gpu_rand_switch.cu), each
 * counted by the motif counter on the context's device, and per class the
 * real count against the random counts' mean, sd, z-score and empirical
 * p-values. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "base.h"
#include "device.h"
#include "matcher.h"
#include "motifs_directed.h"
#include "randomize.h"

_Static_assert(WARPMATCH_MAX_SWAPS_PER_EDGE == WM_RANDOMIZE_MAX_SWAPS, "the public range is the module's");
_Static_assert((int)WARPMATCH_RANDOMIZE_SWITCH == (int)WM_RANDOMIZE_SWITCH &&
                   (int)WARPMATCH_RANDOMIZE_CURVEBALL == (int)WM_RANDOMIZE_CURVEBALL,
               "the public methods are the module's numbers");

void warpmatch_randomize_options_init(warpmatch_randomize_options *o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->size = sizeof *o;
  o->method = WARPMATCH_RANDOMIZE_SWITCH;
  o->seed = 1;
  o->swaps_per_edge = WM_RANDOMIZE_DEFAULT_SWAPS;
  o->device = WARPMATCH_DEVICE_CPU;
}

void warpmatch_significance_options_init(warpmatch_significance_options *o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->size = sizeof *o;
  o->graphs = 100;
  o->method = WARPMATCH_RANDOMIZE_SWITCH;
  o->seed = 1;
  o->swaps_per_edge = WM_RANDOMIZE_DEFAULT_SWAPS;
  o->device = WARPMATCH_DEVICE_AUTO;
  o->count_method = WARPMATCH_METHOD_AUTO;
}

static int check_chain(warpmatch_context *ctx, const char *who, int method, unsigned swaps) {
  if (method != WARPMATCH_RANDOMIZE_SWITCH && method != WARPMATCH_RANDOMIZE_CURVEBALL)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE,
                       "%s: method %d; expected WARPMATCH_RANDOMIZE_SWITCH (1) or _CURVEBALL (2)", who, method);
  if (swaps < 1 || swaps > WARPMATCH_MAX_SWAPS_PER_EDGE)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: %u swaps per edge; give 1 to %d", who, swaps,
                       WARPMATCH_MAX_SWAPS_PER_EDGE);
  return WARPMATCH_OK;
}

int warpmatch_randomize(warpmatch_context *ctx, const warpmatch_graph *g, const warpmatch_randomize_options *opt,
                        warpmatch_graph **out, warpmatch_randomize_stats *stats) {
  static const char who[] = "warpmatch_randomize";
  if (!ctx) return WARPMATCH_EUSAGE;
  if (!g) return wm_api_null(ctx, who, "g");
  if (!out) return wm_api_null(ctx, who, "out");
  *out = NULL;
  warpmatch_randomize_options o;
  warpmatch_randomize_options_init(&o);
  int rc = opt ? wm_api_struct_in(ctx, who, &o, sizeof o, opt) : WARPMATCH_OK;
  if (!rc) rc = check_chain(ctx, who, o.method, o.swaps_per_edge);
  int use_gpu = 0;
  if (!rc) rc = wm_api_use_gpu(ctx, who, o.device, &use_gpu);
  if (rc) return rc;
  wm_api_threads t;
  wm_api_threads_enter(ctx, &t);
  wm_progress stop; /* silent: only the context's interrupt flag */
  wm_progress_init(&stop, who, 0, 0);
  const wm_randomize_options mo = {.method = o.method, .seed = o.seed, .index = o.index,
                                   .swaps_per_edge = o.swaps_per_edge, .use_gpu = use_gpu, .gpu = 0, .stop = &stop};
  wm_randomize_stats st;
  wm_graph *r = NULL;
  wm_error err;
  const double t0 = wm_now();
  rc = wm_randomize(g->g, &mo, &r, &st, &err);
  wm_api_threads_leave(&t);
  if (rc) return wm_api_status(ctx, rc, &err);
  warpmatch_randomize_stats s = {sizeof s, st.attempted, st.accepted, st.edges_kept, st.edges_kept_expected,
                                 wm_now() - t0};
  rc = wm_api_graph_wrap(ctx, who, r, out);
  if (!rc && stats) rc = wm_api_struct_out(ctx, who, stats, &s, sizeof s);
  if (rc) warpmatch_graph_destroy(*out), *out = NULL;
  return rc;
}

/* ---- the counting seam --------------------------------------------------
 * Significance counts every graph, the real one and each random one, by
 * these calls alone: the motif counter, or for directed classes the
 * directed one (warpmatch_motifs_directed, its rows as motif records: the
 * name, the arcs as the edges, the count). */
typedef struct count_job {
  unsigned size;
  int directed, device, method;
  warpmatch_match_options match; /* the rest of the count's options */
} count_job;

/* The classes of (size, directed): 0 where nothing counts them. */
static unsigned class_count(unsigned size, int directed) {
  return directed ? warpmatch_motif_classes_directed(size, 1) : warpmatch_motif_classes(size);
}

unsigned warpmatch_significance_classes(unsigned size, int directed) { return class_count(size, directed); }

static int classes_of(warpmatch_context *ctx, const char *who, const count_job *j, unsigned *classes) {
  if (j->directed && (j->size < 3 || j->size > 4))
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: size %u; directed motifs have 3 or 4 vertices", who, j->size);
  if (j->size < 3 || j->size > 5)
    return wm_api_fail(ctx, WARPMATCH_EUSAGE, "%s: size %u; motifs have 3, 4 or 5 vertices", who, j->size);
  *classes = class_count(j->size, j->directed);
  return WARPMATCH_OK;
}

static int count_directed(warpmatch_context *ctx, const warpmatch_graph *g, const count_job *j, warpmatch_motif *rows,
                          int *device) {
  const unsigned n = warpmatch_motif_classes_directed(j->size, 1);
  warpmatch_directed_motif *d = calloc(n ? n : 1, sizeof *d);
  if (!d) return wm_api_fail(ctx, WARPMATCH_EINPUT, "warpmatch_motif_significance: out of memory");
  warpmatch_directed_motif_options o;
  warpmatch_directed_motif_options_init(&o);
  o.device = j->device, o.method = j->method;
  warpmatch_directed_motif_result r;
  memset(&r, 0, sizeof r);
  r.size = sizeof r;
  const int rc = warpmatch_motifs_directed(ctx, g, j->size, &o, d, &r);
  for (unsigned c = 0; !rc && c < n; c++) {
    memset(&rows[c], 0, sizeof rows[c]);
    snprintf(rows[c].name, sizeof rows[c].name, "%s", d[c].name);
    snprintf(rows[c].edges, sizeof rows[c].edges, "%s", d[c].arcs);
    rows[c].count = d[c].count, rows[c].count_high = d[c].count_high;
  }
  *device = r.device;
  free(d);
  return rc;
}

/* g's vertex-induced count of every class into rows; *device where it ran. */
static int count_graph(warpmatch_context *ctx, const warpmatch_graph *g, const count_job *j, warpmatch_motif *rows,
                       int *device) {
  if (j->directed) return count_directed(ctx, g, j, rows, device);
  warpmatch_match_options mo = j->match;
  mo.count.device = j->device;
  mo.count.method = j->method;
  warpmatch_match_result r;
  memset(&r, 0, sizeof r);
  r.size = sizeof r;
  const int rc = warpmatch_motifs_ex(ctx, g, j->size, &mo, rows, NULL, NULL, &r);
  *device = r.count.device;
  return rc;
}

/* ---- the random graphs ------------------------------------------------ */

static wm_u128 count_of(const warpmatch_motif *m) { return (wm_u128)m->count_high << 64 | m->count; }

typedef struct sig_run {
  warpmatch_context *ctx;
  const char *who;
  const warpmatch_graph *g;
  warpmatch_significance_options o;
  count_job job;
  unsigned classes;
  int make_gpus;            /* GPUs that make the switch graphs (graph i on GPU i mod this); 0: the CPU */
  int lanes;                /* 1: GPU d also counts the graphs it makes (per-GPU pipelines) */
  warpmatch_motif *scratch; /* one graph's rows */
  wm_u128 *random;          /* graphs x classes counts (16 bytes each, not a record's 112) */
  warpmatch_significance_result r;
} sig_run;

/* Graph first + i of the batch; on the GPU, on GPU (first + i) mod gpus. */
static int make_one(const sig_run *s, uint64_t first, int i, const wm_progress *stop, wm_graph **out,
                    wm_randomize_stats *st, wm_error *err) {
  const uint64_t index = first + (uint64_t)i;
  const int gpus = s->make_gpus;
  const wm_randomize_options mo = {.method = s->o.method, .seed = s->o.seed, .index = index,
                                   .swaps_per_edge = s->o.swaps_per_edge, .use_gpu = gpus > 0,
                                   .gpu = gpus > 0 ? (int)(index % (uint64_t)gpus) : 0, .stop = stop};
  return wm_randomize(s->g->g, &mo, out, st, err);
}

/* Graphs first .. first + n - 1 of the seed's sequence, made in parallel:
 * on the CPU over the threads (each one's chain is sequential on its own
 * stream); on the GPUs by one host thread a GPU, each making the batch's
 * graphs dealt to it in order.  Either way graph i depends on (seed, i)
 * alone. */
static int make_batch(sig_run *s, uint64_t first, int n, wm_graph **batch) {
  int *rcs = calloc((size_t)n, sizeof *rcs);
  wm_error *errs = calloc((size_t)n, sizeof *errs);
  wm_randomize_stats *st = calloc((size_t)n, sizeof *st);
  if (!rcs || !errs || !st) {
    free(rcs), free(errs), free(st);
    return wm_api_fail(s->ctx, WARPMATCH_EINPUT, "%s: out of memory", s->who);
  }
  wm_progress stop; /* silent: the context's interrupt flag for the worker threads */
  wm_progress_init(&stop, s->who, 0, 0);
  const int gpus = s->make_gpus;
  if (gpus > 0) {
#pragma omp parallel num_threads(gpus)
    { /* fewer threads than GPUs (a nested call) still deal every GPU's graphs */
      const int nt = omp_get_num_threads();
      for (int d = omp_get_thread_num(); d < gpus; d += nt)
        for (int i = 0; i < n; i++)
          if ((first + (uint64_t)i) % (uint64_t)gpus == (uint64_t)d)
            rcs[i] = make_one(s, first, i, &stop, &batch[i], &st[i], &errs[i]);
    }
  } else {
#pragma omp parallel for schedule(dynamic, 1) num_threads(n)
    for (int i = 0; i < n; i++) rcs[i] = make_one(s, first, i, &stop, &batch[i], &st[i], &errs[i]);
  }
  int rc = WARPMATCH_OK;
  for (int i = 0; i < n; i++) {
    if (!rc && rcs[i]) rc = wm_api_status(s->ctx, rcs[i], &errs[i]);
    s->r.attempted += st[i].attempted;
    s->r.accepted += st[i].accepted;
    s->r.edges_kept += st[i].edges_kept;
    s->r.edges_kept_expected = st[i].edges_kept_expected;
  }
  free(rcs), free(errs), free(st);
  return rc;
}

/* Counts the batch's graphs into s->random from row `first` on; frees them. */
static int count_batch(sig_run *s, uint64_t first, int n, wm_graph **batch) {
  int rc = WARPMATCH_OK;
  for (int i = 0; i < n; i++) {
    warpmatch_graph *h = NULL;
    if (!rc) rc = wm_api_graph_wrap(s->ctx, s->who, batch[i], &h);
    else wm_graph_destroy(batch[i]);
    batch[i] = NULL;
    if (!rc) rc = count_graph(s->ctx, h, &s->job, s->scratch, &s->r.device);
    for (unsigned c = 0; !rc && c < s->classes; c++)
      s->random[(first + (uint64_t)i) * s->classes + c] = count_of(&s->scratch[c]);
    warpmatch_graph_destroy(h);
  }
  return rc;
}

/* Every random graph, a batch of the context's threads at a time: the
 * graphs of a batch are made in parallel, then counted one by one (the
 * counter itself runs on every thread, or on the GPU). */
static int random_counts(sig_run *s) {
  const int cpu_threads = warpmatch_threads(s->ctx);
  /* on the GPUs a batch gives each GPU a few graphs in a row */
  const int threads = s->make_gpus ? 4 * s->make_gpus : cpu_threads;
  wm_graph **batch = calloc((size_t)threads, sizeof *batch);
  if (!batch) return wm_api_fail(s->ctx, WARPMATCH_EINPUT, "%s: out of memory", s->who);
  int rc = WARPMATCH_OK;
  for (uint64_t first = 0; !rc && first < s->o.graphs; first += (uint64_t)threads) {
    const int n = (int)(s->o.graphs - first < (uint64_t)threads ? s->o.graphs - first : (uint64_t)threads);
    double t0 = wm_now();
    wm_api_threads t;
    wm_api_threads_enter(s->ctx, &t);
    rc = make_batch(s, first, n, batch);
    wm_api_threads_leave(&t);
    s->r.randomize_seconds += wm_now() - t0;
    t0 = wm_now();
    if (rc)
      for (int i = 0; i < n; i++) wm_graph_destroy(batch[i]);
    else
      rc = count_batch(s, first, n, batch);
    s->r.count_seconds += wm_now() - t0;
  }
  free(batch);
  return rc;
}

/* ---- per-GPU pipelines ---------------------------------------------------
 * When the graphs are made on G GPUs and counted on the GPU, GPU d makes
 * and counts graphs d, d + G, ... one after another, a host thread per
 * GPU: each count runs on its own device alone (wm_match_options.gpu_first;
 * the motif sums and the directed census on the thread's current device).
 * The lanes call the module's counters, not the API's: a context (its last
 * error, the graph it keeps on the GPUs) serves one thread at a time.  A
 * graph depends on (seed, i) alone and a count is exact, so the counts are
 * one GPU's whatever G. */
typedef struct lane {
  int dev;
  int rc;
  uint64_t failed_at; /* the graph whose make or count failed (rc) */
  wm_error err;
  wm_randomize_stats sum; /* attempted, accepted, edges_kept added over the lane's graphs */
  double expected;
  double make_s, count_s;
} lane;

/* r renumbered by degree (as the API counts it; any numbering counts the
 * same), unless its maker renumbered it already (lane_input), and put in
 * the lane's GPU graph, whose device buffers and memory
 * pool every graph of the lane reuses: the counters read it from there
 * instead of uploading it each (NULL *gg, when it cannot be made: they
 * upload it). */
static int lane_graph(const wm_graph *r, int dev, wm_gpu_graph **gg, wm_graph **sorted, const wm_graph **use,
                      wm_error *err) {
  *sorted = NULL, *use = r;
  if (!(r->flags & WM_GRAPH_DEGREE_SORTED)) {
    const int rc = wm_graph_relabel_by_degree(r, sorted, err);
    if (rc) return rc;
    *use = *sorted;
  }
  wm_error ignored;
  if (*gg && wm_gpu_graph_reload(*gg, *use, &ignored)) wm_gpu_graph_destroy(*gg), *gg = NULL;
  else if (!*gg && wm_gpu_graph_create_on(*use, dev, gg, &ignored)) *gg = NULL;
  return WM_OK;
}

/* Graph r's counts of every class into row (s->classes of them). */
static int lane_count(const sig_run *s, const wm_graph *r, const wm_match_options *base, wm_gpu_graph **gg,
                      wm_u128 *row, wm_error *err) {
  wm_u128 counts[WM_DIR_MAX_ROWS > 32 ? WM_DIR_MAX_ROWS : 32]; /* 21 classes of size 5 */
  if (!s->job.directed) {
    if (s->classes > sizeof counts / sizeof *counts) return wm_fail(err, WM_EINPUT, "too many classes");
    wm_graph *sorted = NULL;
    const wm_graph *use = r;
    int rc = lane_graph(r, base->gpu_first, gg, &sorted, &use, err);
    wm_match_options mo = *base;
    mo.gpu_graph = *gg;
    if (!rc) rc = wm_motifs(use, s->job.size, 1, &mo, counts, NULL, NULL, err);
    for (unsigned c = 0; !rc && c < s->classes; c++) row[c] = counts[c];
    wm_graph_destroy(sorted);
    return rc;
  }
  wm_dir_run run = {0, s->job.method == WARPMATCH_METHOD_ENUMERATE, 1, 0, 0, ""};
  const int rc = wm_motifs_directed_run(r, s->job.size, &run, counts, err);
  unsigned c = 0; /* the connected rows, as warpmatch_motifs_directed lists them */
  for (unsigned i = 0; !rc && i < wm_dir_rows(s->job.size); i++)
    if (wm_dir_class_row(s->job.size, i)->connected) row[c++] = counts[i];
  return rc;
}

/* What every lane shares: the undirected input renumbered by degree (or
 * NULL), in which numbering the makers emit their graphs' rows, so that
 * the counters need not renumber each graph on the host. */
typedef struct lane_input {
  const wm_match_options *base;
  const wm_progress *stop;
  const wm_graph *sorted; /* s->g->g by degree, or NULL: the rows in s->g->g's ids */
  const uint32_t *old_of; /* sorted's vertex -> s->g->g's */
  int failed;
} lane_input;

/* GPU L->dev's graphs: made, counted into s->random, freed.  Stops at its
 * first failure, or once another lane failed (in->failed). */
static void lane_run(sig_run *s, lane *L, lane_input *in) {
  if ((uint64_t)L->dev >= s->o.graphs) return; /* more GPUs than graphs: nothing to make here */
  wm_match_options mo = *in->base;
  mo.gpus = 1, mo.gpu_first = L->dev;
  const wm_graph *shape = in->sorted ? in->sorted : s->g->g; /* the made graphs' numbering */
  wm_gpu_switcher *w = NULL; /* the maker's buffers, kept for all the lane's graphs */
  wm_gpu_graph *gg = NULL;   /* the counters' graph on the device, likewise */
  double t0 = wm_now();
  L->rc = wm_gpu_select(L->dev, &L->err);
  if (!L->rc)
    L->rc = in->sorted ? wm_gpu_switcher_create_renumbered(s->g->g, in->sorted, in->old_of, L->dev, &w, &L->err)
                       : wm_gpu_switcher_create(s->g->g, L->dev, &w, &L->err);
  L->make_s += wm_now() - t0;
  for (uint64_t i = (uint64_t)L->dev; !L->rc && i < s->o.graphs; i += (uint64_t)s->make_gpus) {
    if (__atomic_load_n(&in->failed, __ATOMIC_RELAXED)) break;
    L->failed_at = i;
    wm_graph *r = NULL;
    wm_randomize_stats st;
    const wm_randomize_options ro = {.method = s->o.method, .seed = s->o.seed, .index = i,
                                     .swaps_per_edge = s->o.swaps_per_edge, .use_gpu = 1, .gpu = L->dev,
                                     .switcher = w, .stop = in->stop};
    t0 = wm_now();
    L->rc = wm_randomize(shape, &ro, &r, &st, &L->err);
    L->make_s += wm_now() - t0;
    if (L->rc) break;
    L->sum.attempted += st.attempted, L->sum.accepted += st.accepted, L->sum.edges_kept += st.edges_kept;
    L->expected = st.edges_kept_expected;
    t0 = wm_now();
    L->rc = lane_count(s, r, &mo, &gg, &s->random[i * s->classes], &L->err);
    L->count_s += wm_now() - t0;
    wm_graph_destroy(r);
  }
  wm_gpu_switcher_destroy(w);
  wm_gpu_graph_destroy(gg); /* its graph is gone: only its buffers and pool remain */
  if (L->rc) __atomic_store_n(&in->failed, 1, __ATOMIC_RELAXED);
}

/* Every random graph by the lanes; the seconds are the slowest lane's. */
static int lane_counts(sig_run *s) {
  const int gpus = s->make_gpus;
  lane *L = calloc((size_t)gpus, sizeof *L);
  if (!L) return wm_api_fail(s->ctx, WARPMATCH_EINPUT, "%s: out of memory", s->who);
  wm_match_options base;
  wm_api_executor_options(s->ctx, &s->job.match, NULL, &base);
  base.motif_method = s->job.method; /* WARPMATCH_METHOD_* are wm_motif_method's values */
  base.gpu_graph = NULL, base.share = NULL;
  base.threads = base.threads > gpus ? base.threads / gpus : 1; /* the host's share of each lane */
  wm_progress stop; /* silent: the context's interrupt flag for the lanes */
  wm_progress_init(&stop, s->who, 0, 0);
  lane_input in = {&base, &stop, NULL, NULL, 0};
  wm_graph *sorted = NULL;
  uint32_t *old_of = NULL;
  const wm_graph *g = s->g->g;
  if (!s->job.directed && !(g->flags & WM_GRAPH_DEGREE_SORTED)) {
    wm_error err;
    const int rc = wm_graph_relabel_by_degree_map(g, &sorted, &old_of, &err);
    if (rc) {
      free(L);
      return wm_api_status(s->ctx, rc, &err);
    }
    in.sorted = sorted, in.old_of = old_of;
  }
  wm_api_threads t;
  wm_api_threads_enter(s->ctx, &t);
#pragma omp parallel num_threads(gpus)
  { /* fewer threads than GPUs (a nested call) still run every GPU's lane */
    const int nt = omp_get_num_threads();
    for (int d = omp_get_thread_num(); d < gpus; d += nt) {
      L[d].dev = d;
      lane_run(s, &L[d], &in);
    }
  }
  wm_api_threads_leave(&t);
  int rc = WARPMATCH_OK, first = -1;
  for (int d = 0; d < gpus; d++) {
    if (L[d].rc && (first < 0 || L[d].failed_at < L[first].failed_at)) first = d;
    s->r.attempted += L[d].sum.attempted, s->r.accepted += L[d].sum.accepted;
    s->r.edges_kept += L[d].sum.edges_kept;
    if (L[d].expected > 0) s->r.edges_kept_expected = L[d].expected;
    if (L[d].make_s > s->r.randomize_seconds) s->r.randomize_seconds = L[d].make_s;
    if (L[d].count_s > s->r.count_seconds) s->r.count_seconds = L[d].count_s;
  }
  if (first >= 0) rc = wm_api_status(s->ctx, L[first].rc, &L[first].err);
  wm_graph_destroy(sorted);
  free(old_of);
  free(L);
  return rc;
}

/* ---- the statistics ----------------------------------------------------- */

/* Mean, sample sd, z and the p-values of class c (its row's count real). */
static void class_stats(const sig_run *s, unsigned c, warpmatch_significance_row *row) {
  const wm_u128 real = count_of(&row->motif);
  const unsigned n = s->o.graphs;
  long double sum = 0, sq = 0;
  unsigned over = 0, under = 0;
  for (unsigned i = 0; i < n; i++) {
    const wm_u128 x = s->random[(size_t)i * s->classes + c];
    sum += (long double)x;
    over += x >= real;
    under += x <= real;
  }
  const long double mean = sum / n;
  for (unsigned i = 0; i < n; i++) {
    const long double d = (long double)s->random[(size_t)i * s->classes + c] - mean;
    sq += d * d;
  }
  row->mean = (double)mean;
  row->sd = (double)sqrtl(sq / (n - 1));
  row->z = row->sd > 0 ? (double)(((long double)real - mean) / sqrtl(sq / (n - 1))) : NAN;
  row->p_over = (double)over / n;
  row->p_under = (double)under / n;
}

/* The significance profile: z over the length of the classes' z vector. */
static void profile(warpmatch_significance_row *rows, unsigned classes) {
  double norm = 0;
  for (unsigned c = 0; c < classes; c++)
    if (!isnan(rows[c].z)) norm += rows[c].z * rows[c].z;
  norm = sqrt(norm);
  for (unsigned c = 0; c < classes; c++) rows[c].profile = !isnan(rows[c].z) && norm > 0 ? rows[c].z / norm : NAN;
}

static int significance(sig_run *s, warpmatch_significance_row *rows) {
  warpmatch_motif *real = calloc(s->classes, sizeof *real);
  s->random = calloc((size_t)s->o.graphs * s->classes, sizeof *s->random);
  s->scratch = calloc(s->classes, sizeof *s->scratch);
  if (!real || !s->random || !s->scratch) {
    free(real);
    return wm_api_fail(s->ctx, WARPMATCH_EINPUT, "%s: out of memory for %u graphs' counts", s->who, s->o.graphs);
  }
  const double t0 = wm_now();
  int rc = count_graph(s->ctx, s->g, &s->job, real, &s->r.device);
  s->r.real_seconds = wm_now() - t0;
  if (!rc) rc = s->lanes ? lane_counts(s) : random_counts(s);
  for (unsigned c = 0; !rc && c < s->classes; c++) {
    memset(&rows[c], 0, sizeof rows[c]);
    rows[c].motif = real[c];
    class_stats(s, c, &rows[c]);
  }
  if (!rc) profile(rows, s->classes);
  free(real);
  return rc;
}

/* Where the random graphs are made: switch graphs on the GPUs when the
 * counts go to a GPU (the device given, or AUTO on a GPU host), dealt over
 * the match options' gpus, else the context's; curveball on the CPU. */
static int make_device(sig_run *s) {
  int use_gpu = 0;
  int rc = wm_api_use_gpu(s->ctx, s->who, s->o.device, &use_gpu);
  if (rc || !use_gpu || s->o.method != WARPMATCH_RANDOMIZE_SWITCH) return rc;
  const int gpus = s->job.match.gpus > 0 ? s->job.match.gpus : s->ctx->gpus > 0 ? s->ctx->gpus : 1;
  const int have = wm_gpu_count();
  if (gpus > have)
    return wm_api_fail(s->ctx, WARPMATCH_EDEVICE, "%s: %d GPUs asked for, but this host has %d", s->who, gpus, have);
  s->make_gpus = gpus;
  /* processes sharing each count (MPI) count together, graph by graph;
   * one process counts through a lane per GPU, one GPU included: each graph
   * made, kept and counted on its device (on one H200, facebook's 4- and
   * 5-motifs 2.5x and 1.8x faster a graph than the batches' uploads) */
  s->lanes = !s->ctx->share;
  return WARPMATCH_OK;
}

static int sig_options(sig_run *s, const warpmatch_significance_options *opt, unsigned size) {
  warpmatch_significance_options_init(&s->o);
  int rc = opt ? wm_api_struct_in(s->ctx, s->who, &s->o, sizeof s->o, opt) : WARPMATCH_OK;
  if (rc) return rc;
  if (s->o.graphs < 2 || s->o.graphs > WARPMATCH_MAX_RANDOM_GRAPHS)
    return wm_api_fail(s->ctx, WARPMATCH_EUSAGE, "%s: %u random graphs; give 2 to %d (a standard deviation needs two)",
                       s->who, s->o.graphs, WARPMATCH_MAX_RANDOM_GRAPHS);
  rc = check_chain(s->ctx, s->who, s->o.method, s->o.swaps_per_edge);
  if (rc) return rc;
  if (!s->o.directed != !warpmatch_graph_directed(s->g))
    return wm_api_fail(s->ctx, WARPMATCH_EUSAGE, "%s: %s classes of a%s graph: %s", s->who,
                       s->o.directed ? "directed" : "undirected", s->o.directed ? "n undirected" : " directed",
                       s->o.directed ? "load it with directed arcs" : "ask for directed classes");
  count_job *j = &s->job;
  j->size = size, j->directed = s->o.directed, j->device = s->o.device, j->method = s->o.count_method;
  warpmatch_match_options_init(&j->match);
  if (s->o.match) rc = wm_api_struct_in(s->ctx, s->who, &j->match, sizeof j->match, s->o.match);
  if (rc) return rc;
  /* one plain count a graph: no timed trials, per-vertex counts, order or ball */
  j->match.trials = 1, j->match.trial_ms = NULL, j->match.per_vertex = NULL, j->match.order = NULL;
  j->match.ball = 0;
  rc = classes_of(s->ctx, s->who, &s->job, &s->classes);
  return rc ? rc : make_device(s);
}

int warpmatch_motif_significance(warpmatch_context *ctx, const warpmatch_graph *g, unsigned size,
                                 const warpmatch_significance_options *opt, warpmatch_significance_row *rows,
                                 warpmatch_motif *random, warpmatch_significance_result *result) {
  static const char who[] = "warpmatch_motif_significance";
  if (!ctx) return WARPMATCH_EUSAGE;
  if (!g) return wm_api_null(ctx, who, "g");
  if (!rows) return wm_api_null(ctx, who, "rows");
  sig_run s;
  memset(&s, 0, sizeof s);
  s.ctx = ctx, s.who = who, s.g = g;
  s.r.size = sizeof s.r;
  int rc = sig_options(&s, opt, size);
  if (!rc) rc = significance(&s, rows);
  s.r.graphs = s.o.graphs;
  s.r.classes = s.classes;
  s.r.randomize_device = s.make_gpus ? WARPMATCH_DEVICE_GPU : WARPMATCH_DEVICE_CPU;
  s.r.randomize_gpus = s.make_gpus;
  for (uint64_t i = 0; !rc && random && i < s.o.graphs; i++) /* the real rows' names with each graph's counts */
    for (unsigned c = 0; c < s.classes; c++) {
      warpmatch_motif *m = &random[i * s.classes + c];
      *m = rows[c].motif;
      m->count = (uint64_t)s.random[i * s.classes + c];
      m->count_high = (uint64_t)(s.random[i * s.classes + c] >> 64);
    }
  free(s.random);
  free(s.scratch);
  if (!rc && result) rc = wm_api_struct_out(ctx, who, result, &s.r, sizeof s.r);
  return rc;
}
