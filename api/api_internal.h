/* The handles behind warpmatch.h and the helpers every api/ file shares.
 * Not installed: the public header keeps the structs opaque. */
#ifndef WM_API_INTERNAL_H
#define WM_API_INTERNAL_H

#include <pthread.h>

#include "base.h"
#include "datasets.h"
#include "matcher.h"
#include "patterns.h"
#include "planner.h"
#include "traversal.h"
#include "warpmatch.h"
#include "wm_error.h"

struct wm_bfs_gpu_ctx;
struct warpmatch_mpi_share;

struct warpmatch_context {
  wm_error err; /* the last failed call's code and message */
  int threads;  /* CPU threads, 0 = all */
  int gpus;     /* GPUs for GPU calls, 0 = 1 */
  int gpu;      /* a usable CUDA device: -1 not asked yet, else 0 or 1 */
  /* The MPI ranks this context works with (warpmatch_mpi.h, api_mpi.c), or
   * NULL: their share of the CPU work, their GPU searches (traversal.h),
   * and whether only one thread may claim shared work (MPI below
   * MPI_THREAD_SERIALIZED). */
  const struct warpmatch_mpi_share *mpi;
  const wm_share *share;
  const struct wm_bfs_procs *bfs_procs;
  int share_one_thread;
  /* The graph kept on the GPU for BFS and reach: made by the first GPU
   * search, reused while the same graph (by serial, never by address: a
   * freed handle's address comes back) is searched on as many GPUs. */
  struct wm_bfs_gpu_ctx *bfs;
  uint64_t bfs_serial;
  int bfs_gpus, bfs_dopt;
  const struct wm_bfs_procs *bfs_made_procs; /* the processes bfs was made for */
  /* The graph matched on (count, list, motifs) kept on the GPUs likewise:
   * made by the first GPU call on it, reused while the same graph (serial
   * and the copy matched on) goes to as many GPUs. */
  struct wm_gpu_graph *match;
  uint64_t match_serial;
  const wm_graph *match_g;
  int match_gpus;
  /* warpmatch_interrupt's flag and the progress callback: the calling
   * thread's monitor while a call runs (wm_api_threads_enter). */
  wm_monitor monitor;
};

/* A graph numbered by its indices, and what matching on it needs, built
 * on first use and kept for every later query. */
struct warpmatch_graph {
  wm_graph *g;
  uint64_t serial;      /* unique among the process's handles */
  pthread_mutex_t lock; /* the lazy members below, shared by every context using the graph */
  int sorted_ready;
  wm_graph *sorted;     /* g renumbered by degree, or NULL: g is matched on as it is */
  uint32_t *old_of;     /* sorted's vertex -> index (with sorted) */
  int summary_ready[2];
  wm_graph_summary summary[2]; /* the planner's cost model: [0] of g, [1] of sorted */
  wm_graph *transpose;  /* directed graphs: in-arcs for the CPU's bottom-up BFS steps */
};

struct warpmatch_pattern {
  wm_pattern p;              /* p.name: warpmatch_pattern_name's answer */
  char given[sizeof((wm_pattern *)0)->name]; /* warpmatch_pattern_given_name's */
};

/* The graph the matchers run on (renumbered by degree with relabel), its
 * map back to indices (NULL: the same numbering) and, with stats, its
 * statistics (else summary is NULL); built by the first call that needs
 * them, whose seconds they add to *relabel_s and *stats_s (either may be
 * NULL). */
typedef struct wm_api_matching {
  const wm_graph *g;
  const uint32_t *old_of;
  const wm_graph_summary *summary;
} wm_api_matching;
int wm_api_matching_of(warpmatch_context *ctx, const warpmatch_graph *g, int relabel, int stats, wm_api_matching *m,
                       double *relabel_s, double *stats_s);
/* A new handle owning g (g is destroyed when the handle cannot be made). */
int wm_api_graph_wrap(warpmatch_context *ctx, const char *who, wm_graph *g, warpmatch_graph **out);
/* The transpose of a directed graph (NULL for a symmetric one), built on
 * the first call. */
int wm_api_transpose_of(warpmatch_context *ctx, const warpmatch_graph *g, const wm_graph **t);

/* ---- errors: every failing call ends in one of these ---------------- */

/* Records code and message as the context's last error; returns code. */
int wm_api_fail(warpmatch_context *ctx, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* A module's result: on failure its error becomes the context's. */
int wm_api_status(warpmatch_context *ctx, int rc, const wm_error *err);
/* WARPMATCH_EUSAGE naming the NULL argument `what` of call `who`. */
int wm_api_null(warpmatch_context *ctx, const char *who, const char *what);

/* ---- shared choices ------------------------------------------------- */

/* BFS (bfs.c, and the ranks' search of api_mpi.c): the caller's options
 * (in may be NULL: the defaults) checked into the module's, with the
 * device chosen; and a result copied out as warpmatch_bfs_ex gives it
 * (levels and parents may be NULL; stats as the library's struct). */
int wm_api_bfs_options(warpmatch_context *ctx, const char *who, const warpmatch_graph *g,
                       const warpmatch_bfs_options *in, wm_bfs_options *o, int *use_gpu);
int wm_api_bfs_out(warpmatch_context *ctx, const char *who, const wm_bfs_result *r, uint32_t n, int use_gpu,
                   int32_t *levels, uint32_t *parents, warpmatch_bfs_stats *stats);

/* WARPMATCH_DEVICE_* -> 1 for the GPU; EDEVICE when GPU is asked for and
 * none is usable, EUSAGE for an unknown value. */
int wm_api_use_gpu(warpmatch_context *ctx, const char *who, int device, int *use_gpu);

/* The context's thread count as OpenMP's default for the calling thread
 * while a call runs (the modules' preprocessing takes the default), and
 * back to the caller's afterwards. */
typedef struct wm_api_threads {
  int saved; /* 0: nothing was changed */
  wm_monitor *monitor; /* the thread's monitor before the call (a call within a call) */
} wm_api_threads;
void wm_api_threads_enter(const warpmatch_context *ctx, wm_api_threads *t);
void wm_api_threads_leave(const wm_api_threads *t);

/* Checks count options (NULL: the defaults, copied into *o). */
int wm_api_count_options(warpmatch_context *ctx, const char *who, const warpmatch_count_options *in,
                         warpmatch_count_options *o);
/* The caller's match options over the defaults (NULL: the defaults;
 * count: the count options of the calls without _ex, or NULL), checked. */
int wm_api_match_options(warpmatch_context *ctx, const char *who, const warpmatch_match_options *in,
                         const warpmatch_count_options *count, warpmatch_match_options *o);
/* The start of the _ex calls: *r zeroed and sized, *o the caller's
 * options (in may be NULL: the defaults) checked. */
int wm_api_ex_begin(warpmatch_context *ctx, const char *who, const warpmatch_match_options *in,
                    warpmatch_match_options *o, warpmatch_match_result *r);

/* The versioned structs (warpmatch.h: `size` first): the caller's bytes
 * over the defaults in *dst, or EUSAGE when size is not set. */
int wm_api_struct_in(warpmatch_context *ctx, const char *who, void *dst, size_t dst_size, const void *src);
/* The library's *src into the caller's struct, as many bytes as it has. */
int wm_api_struct_out(warpmatch_context *ctx, const char *who, void *dst, const void *src, size_t src_size);

/* What count, list and plan share: the pattern as matched (labels dropped
 * with ignore_labels), the graph, the labels in its numbering, the ball,
 * and the plan. */
typedef struct wm_api_job {
  wm_pattern pattern;
  wm_api_matching m;     /* m.g NULL: plan only, with the default statistics */
  int32_t *moved;        /* labels renumbered with the graph (owned), or NULL */
  const int32_t *labels; /* the labels to match with (moved or the caller's), or NULL */
  uint8_t *allowed;      /* the ball: its vertices marked (owned), or NULL */
  uint32_t *first;       /* the ball's vertices (owned), or NULL */
  uint64_t n_first;
  int use_gpu;
  uint64_t serial; /* the graph handle's */
  wm_plan plan;
  wm_plan_candidates candidates; /* the orders the plan was chosen among (plan purposes only) */
  double relabel_seconds, stats_seconds, plan_seconds;
} wm_api_job;
/* What the job is for: counting (a count-only last level), listing, or the
 * plan alone of either (g may then be NULL: the default statistics; labels
 * and the ball are neither needed nor read); or'd with WM_API_GIVEN_NAME
 * (the _ex calls) the pattern is named in plans and messages as it was
 * given (a pattern file by its file, as the program names it), else by its
 * shape (warpmatch_pattern_name, as 0.1 did).  gpu_plan: the GPU's plan
 * whatever the device. */
enum { WM_API_COUNT = 1, WM_API_LIST = 2, WM_API_PLAN_COUNT = 3, WM_API_PLAN_LIST = 4, WM_API_GIVEN_NAME = 8 };
int wm_api_job_prepare(warpmatch_context *ctx, const char *who, const warpmatch_graph *g,
                       const warpmatch_pattern *p, const warpmatch_match_options *o, int purpose, int gpu_plan,
                       wm_api_job *job);
void wm_api_job_free(wm_api_job *job);
/* A count job's plan with the matching order `order`, as it was planned
 * otherwise (the same options). */
int wm_api_job_replan(const warpmatch_context *ctx, const warpmatch_match_options *o, wm_api_job *job,
                      const uint8_t *order, wm_plan *out, wm_error *err);

/* Timed slices (slices.c): whether a count job is one (the auto planner,
 * the whole graph, no order, listing, per-vertex counts or share, counted
 * by a plan, and a count long enough: wm_engine_slice_policy), and then
 * its count: the candidate orders the policy affords timed on one slice
 * of level 0, the fastest kept, its slice's count reused and the rest of
 * level 0 counted with it (*sliced set).  *r and *by as wm_engine_count's;
 * job->plan becomes the order counted with, and out's slice_* members say
 * what was timed (job->plan_seconds gains the others' slices).  With
 * trials the slices only choose: *sliced stays 0, the caller counts
 * job->plan with its trials, and every slice was planning. */
struct wm_engine_job;
struct wm_executor;
struct wm_match_result;
int wm_api_count_sliced(const warpmatch_context *ctx, const warpmatch_match_options *o, wm_api_job *job,
                        const struct wm_engine_job *ej, struct wm_match_result *r, const struct wm_executor **by,
                        warpmatch_match_result *out, int *sliced, wm_error *err);
/* mo->gpu_graph: g, the copy matched on of handle `serial`, kept on
 * mo->gpus GPUs for the context's later calls (uploaded here by the first
 * GPU call, again when another graph or number of GPUs comes).  Best
 * effort: where it cannot be made, the GPU drivers upload g themselves. */
void wm_api_gpu_graph(warpmatch_context *ctx, uint64_t serial, const wm_graph *g, wm_match_options *mo);
void wm_api_gpu_graph_drop(warpmatch_context *ctx);

/* What an executor's run of a job tells the caller: seconds, kernel ms,
 * device, set operations, the ball, the phase times, the launch (the count,
 * the method and the formula are the caller's to set). */
void wm_api_job_result(const wm_api_job *job, const wm_match_result *r, warpmatch_match_result *out);

/* The executors' options for a job (job may be NULL: motifs): threads,
 * GPUs, tuning, labels, ball, the ranks' share. */
void wm_api_executor_options(const warpmatch_context *ctx, const warpmatch_match_options *o, const wm_api_job *job,
                             wm_match_options *mo);

#endif
