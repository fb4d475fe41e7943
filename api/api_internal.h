/* The handles behind warpmatch.h and the helpers every api/ file shares.
 * Not installed: the public header keeps the structs opaque. */
#ifndef WM_API_INTERNAL_H
#define WM_API_INTERNAL_H

#include <pthread.h>

#include "datasets.h"
#include "patterns.h"
#include "planner.h"
#include "warpmatch.h"
#include "wm_error.h"

struct warpmatch_context {
  wm_error err; /* the last failed call's code and message */
  int threads;  /* CPU threads, 0 = all */
  int gpus;     /* GPUs for GPU calls, 0 = 1 */
  int gpu;      /* a usable CUDA device: -1 not asked yet, else 0 or 1 */
};

/* A graph numbered by its indices, and what matching on it needs, built
 * on first use and kept for every later query. */
struct warpmatch_graph {
  wm_graph *g;
  pthread_mutex_t lock; /* the lazy members below, shared by every context using the graph */
  int matching_ready;
  wm_graph *sorted;     /* g renumbered by degree, or NULL: g is matched on as it is */
  uint32_t *old_of;     /* sorted's vertex -> index (with sorted) */
  wm_graph_summary summary; /* of the graph matched on: the planner's cost model */
  wm_graph *transpose;  /* directed graphs: in-arcs for the CPU's bottom-up BFS steps */
};

struct warpmatch_pattern {
  wm_pattern p; /* p.name: warpmatch_pattern_name's answer */
};

/* The graph the matchers run on, its map back to indices (NULL: the same
 * numbering) and its statistics; built on the first call. */
typedef struct wm_api_matching {
  const wm_graph *g;
  const uint32_t *old_of;
  const wm_graph_summary *summary;
} wm_api_matching;
int wm_api_matching_of(warpmatch_context *ctx, const warpmatch_graph *g, wm_api_matching *m);
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

/* WARPMATCH_DEVICE_* -> 1 for the GPU; EDEVICE when GPU is asked for and
 * none is usable, EUSAGE for an unknown value. */
int wm_api_use_gpu(warpmatch_context *ctx, const char *who, int device, int *use_gpu);

/* The context's thread count as OpenMP's default for the calling thread
 * while a call runs (the modules' preprocessing takes the default), and
 * back to the caller's afterwards. */
typedef struct wm_api_threads {
  int saved; /* 0: nothing was changed */
} wm_api_threads;
void wm_api_threads_enter(const warpmatch_context *ctx, wm_api_threads *t);
void wm_api_threads_leave(const wm_api_threads *t);

/* Checks count options (NULL: the defaults, copied into *o). */
int wm_api_count_options(warpmatch_context *ctx, const char *who, const warpmatch_count_options *in,
                         warpmatch_count_options *o);

/* What count, list and plan share: the pattern as matched (labels dropped
 * with ignore_labels), the graph, the labels in its numbering, and the plan. */
typedef struct wm_api_job {
  wm_pattern pattern;
  wm_api_matching m;   /* m.g NULL: plan only, with the default statistics */
  int32_t *moved;      /* labels renumbered with the graph (owned), or NULL */
  const int32_t *labels; /* the labels to match with (moved or the caller's), or NULL */
  int use_gpu;
  wm_plan plan;
} wm_api_job;
/* plan_only: the plan without matching (g may then be NULL: the default
 * statistics; labels are neither needed nor read). */
int wm_api_job_prepare(warpmatch_context *ctx, const char *who, const warpmatch_graph *g,
                       const warpmatch_pattern *p, const warpmatch_count_options *o, int count_only,
                       int plan_only, wm_api_job *job);
void wm_api_job_free(wm_api_job *job);

#endif
