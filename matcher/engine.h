/* The engine: which executor counts a job, and the one entry that runs it.
 *
 * A job is a graph view, a pattern and its plan, the options it runs with,
 * prepared once (api/job.c).  The table (engine.c) lists the executors in
 * the order they are tried: the motif formula, each dedicated GPU kernel
 * (one row of matcher/dag/dag_kernels.def each: triangle, clique,
 * diamond), the GPU stack kernel, the CPU executor.  Each row says whether
 * it accepts a job, and why not; the first that accepts runs it (a
 * dedicated kernel that declines at run time, its buffers too large for
 * the device, hands the job to the next row that accepts).  docs/engine.md
 * says how to add a row. */
#ifndef WM_ENGINE_H
#define WM_ENGINE_H

#include "matcher.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wm_engine_job {
  const wm_graph *g;         /* the graph matched on */
  const wm_pattern *pattern; /* as matched */
  const wm_plan *plan;
  int use_gpu;
  int method;                /* wm_motif_method: auto, formula (that row or WM_EUSAGE), enumerate */
  int labels_given;          /* the caller gave data labels (even for an unlabeled pattern) */
  int order_given;           /* a matching order was given, which only a plan has */
  unsigned trials;           /* timed runs after a warm-up (0 or 1: one run) */
  const wm_match_options *mo; /* labels, ball, per-vertex counts, GPU tuning, share */
} wm_engine_job;

typedef struct wm_executor wm_executor;
struct wm_executor {
  const char *name;  /* "formula", "triangle", "clique", "diamond", "stack", "cpu" */
  int formula;       /* counts by formula (the result's method), not by the plan */
  int gpu;           /* runs on the GPU */
  unsigned dag_row;  /* dedicated kernels: the row of dag_kernels.def */
  /* 1 when it counts job; else 0, with why (NULL, or size bytes) saying why not. */
  int (*accepts)(const wm_executor *e, const wm_engine_job *job, char *why, size_t size);
  /* One run of job (o: job->mo, with the GPU drivers' trials): r's count
   * and figures.  *declined: nothing counted, the next row runs it. */
  int (*run)(const wm_executor *e, const wm_engine_job *job, const wm_match_options *o, wm_match_result *r,
             int *declined, wm_error *err);
};

/* The table, in the order its rows are tried; *n receives their number. */
const wm_executor *wm_engine_table(unsigned *n);

/* The row that counts job, or NULL with why saying why none does. */
const wm_executor *wm_engine_choose(const wm_engine_job *job, char *why, size_t size);

/* 1 when job's method cannot be honoured (method formula, which the
 * formula row does not accept for it), with why: what it needs. */
int wm_engine_refuses(const wm_engine_job *job, char *why, size_t size);

/* Counts job with the first row that accepts it, with its trials (the GPU
 * drivers repeat their own launches; the formula and the CPU executor are
 * repeated here): r as wm_match_result says; *by (may be NULL) receives the
 * row that counted.  WM_EUSAGE when the method is refused. */
int wm_engine_count(const wm_engine_job *job, wm_match_result *r, const wm_executor **by, wm_error *err);

/* A plan run by the table's plan rows (the formula is not asked: listing,
 * the motif passes' enumerated classes, the tests): on the GPU a dedicated
 * kernel where one counts it, else the stack kernel; on the CPU the CPU
 * executor.  *by (may be NULL) receives the row that ran it. */
int wm_engine_match(const wm_graph *g, const wm_plan *plan, int use_gpu, const wm_match_options *o,
                    wm_match_result *r, const wm_executor **by, wm_error *err);

/* The planner's options that are engine policy: the GPU's plan (first edge
 * upwards) and, with the automatic planner, when sampling orders pays. */
void wm_engine_plan_policy(wm_plan_options *po, int gpu_plan, int planner_auto);

/* Timed slices (the auto planner, a long count: docs/plan.md): how many
 * of the candidate orders to run on one slice of level 0, and the slice,
 * so that timing them and the planning before them (planned_s: the
 * model's search and the probes) cost at most kSliceShare (5%; the CPU
 * 4%) of the count's predicted time, each slice long enough to time (WM_SLICE_MIN_SECONDS;
 * on the GPU 0.1 ms, each run's set-up counted in the 5%).  The
 * prediction is the plan's work (the probes' measure where they measured
 * it, else the model's estimate) at the executor's time per work unit (the
 * CPU's measured on WM_CPU_UNIT_THREADS threads, scaled to `threads`).
 * Returns the orders to time (0 or at least 2, at most `available` and
 * WM_SLICE_MAX_ORDERS), *every the slice's stride (wm_engine_slice_roots:
 * a slice is about 1/every of each order's count; on the GPU 1 in every
 * of the stack kernel's level-0 chunks, gpu_l0_every) and *budget_s the
 * seconds the timing may take (slices longer than predicted stop the
 * timing there: slices.c). */
#define WM_SLICE_MAX_ORDERS 6
#define WM_SLICE_MIN_SECONDS 2e-3
#define WM_SLICE_ROUNDS 1 /* each order timed this many times, the least kept */
#define WM_CPU_UNIT_THREADS 2 /* the threads the CPU's time per unit of work was measured on (engine.c) */
unsigned wm_engine_slice_policy(const wm_plan *plan, int gpu, int threads, uint32_t n, unsigned available,
                                double planned_s, uint32_t *every, double *budget_s);
/* The seconds the GPU's stripes may take for a count predicted to take
 * predicted_s (re-read from the first stripe's time: the prediction from
 * work units is a guess there); the CPU's slices aim at 4% (engine.c). */
double wm_engine_slice_budget(double predicted_s);

/* The level-0 vertices of a slice's parts: the head, vertices
 * 0..every-1 (on a graph numbered by descending degree the hubs, whose
 * work a slice samples by their level-1 arcs, cpu_level1_every); the
 * tail, the vertices v >= every with v % every == 0, the first of each
 * later run of `every` vertices of like degree, run whole; the rest, the
 * others.  The same for every order timed.  *out is malloc'd (*count
 * entries). */
enum { WM_SLICE_HEAD = 0, WM_SLICE_TAIL = 1, WM_SLICE_REST = 2 };
int wm_engine_slice_roots(const wm_graph *g, uint32_t every, int part, uint32_t **out, uint64_t *count,
                          wm_error *err);

/* The ball of a job: the vertices within `hops` of vertex v, from a BFS
 * limited to that many levels (threads: OpenMP's, 0 = all), as
 * *allowed (n bytes, marked) and *first (its vertices, *n_first of them),
 * both malloc'd; who names the caller in an out-of-memory message. */
int wm_engine_ball(const wm_graph *g, uint32_t v, unsigned hops, int threads, const char *who, uint8_t **allowed,
                   uint32_t **first, uint64_t *n_first, wm_error *err);

#ifdef __cplusplus
}
#endif
#endif
