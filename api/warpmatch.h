/* warpmatch: count and list small patterns, count motifs and run BFS on large
 * graphs, on NVIDIA GPUs or on the CPU.
 *
 * Handles are opaque and come in create/destroy pairs.  A context owns the
 * device state and the last error; graphs and patterns are made in a context
 * (which receives their errors) and any context may use them.  Every call
 * returns WARPMATCH_OK (0) or an error code, and then
 * warpmatch_last_error(ctx) says what went wrong (for input files: the file,
 * the line and what was expected).  Nothing exits or prints.  The environment
 * is read only for where a text graph's .wmg cache goes when not beside it
 * (see warpmatch_load_options) and for WM_BFS_TRACE (a developer's trace of
 * the GPU BFS on stderr), besides OpenMP's and CUDA's own variables.  A
 * context is used by one thread at a time; separate contexts may run
 * concurrently, also on the same graphs and patterns.  A graph keeps what
 * queries on it share (its copy renumbered by degree for matching, its
 * statistics for the planner, a directed graph's transpose), built on first
 * use; the GPU calls upload the graph on each call.
 *
 * Vertices: a graph has vertices 0..n-1, its *indices*.  A graph made from
 * edge arrays keeps the ids it was given as indices.  A graph loaded from
 * an edge list numbers the distinct ids that occur in it in increasing
 * order; one from Matrix Market has the header's vertices 1..N as indices
 * 0..N-1 (isolated ones included); a .wmg file keeps the numbering it was
 * written with.  warpmatch_graph_ids gives each index's id in the file.
 * Matches, levels and parents are indices; an index outside 0..n-1 given
 * to a call is WARPMATCH_EUSAGE. */
#ifndef WARPMATCH_H
#define WARPMATCH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WARPMATCH_VERSION_MAJOR 0
#define WARPMATCH_VERSION_MINOR 1
#define WARPMATCH_VERSION_PATCH 0

/* "0.1.0", the library's version (may differ from the header's). */
const char *warpmatch_version(void);

/* Error codes; the command line exits with the same numbers. */
enum {
  WARPMATCH_OK = 0,
  WARPMATCH_EINPUT = 1,  /* bad input: a file, an array, a pattern */
  WARPMATCH_EUSAGE = 2,  /* a call or option that cannot be honoured */
  WARPMATCH_EDEVICE = 3  /* no usable GPU where one was required, or a CUDA failure */
};

enum { WARPMATCH_DEVICE_AUTO = 0, WARPMATCH_DEVICE_CPU = 1, WARPMATCH_DEVICE_GPU = 2 };
enum { WARPMATCH_METHOD_AUTO = 0, WARPMATCH_METHOD_FORMULA = 1, WARPMATCH_METHOD_ENUMERATE = 2 };

typedef struct warpmatch_context warpmatch_context;
typedef struct warpmatch_graph warpmatch_graph;
typedef struct warpmatch_pattern warpmatch_pattern;

/* ---- context ----------------------------------------------------------- */

int warpmatch_context_create(warpmatch_context **out);
void warpmatch_context_destroy(warpmatch_context *ctx);
/* The message of the context's last failed call ("" when none failed). */
const char *warpmatch_last_error(const warpmatch_context *ctx);
/* 1 when a CUDA device is usable (and the library was built with CUDA). */
int warpmatch_gpu_available(warpmatch_context *ctx);
/* CPU threads for later calls; 0 (the default) = all cores. */
int warpmatch_set_threads(warpmatch_context *ctx, int threads);
/* GPUs 0..gpus-1 of this host for later GPU calls (default 1): count, list
 * and motifs hand their work out across them, bfs and reach split the graph
 * over them (this needs a library built with NCCL).  WARPMATCH_EDEVICE at
 * the call when the host has fewer. */
int warpmatch_set_gpus(warpmatch_context *ctx, int gpus);

/* ---- graphs ------------------------------------------------------------ */

typedef struct warpmatch_load_options {
  int directed;  /* an edge list's lines are arcs (default 0: symmetrise) */
  int use_cache; /* read/write the .wmg cache of a text graph (default 1): beside it
                    when its folder is writable, else in $WARPMATCH_CACHE_DIR,
                    $XDG_CACHE_HOME/warpmatch or ~/.cache/warpmatch */
} warpmatch_load_options;
void warpmatch_load_options_init(warpmatch_load_options *o);

/* Edge list, Matrix Market or .wmg, told from the content; opt may be NULL. */
int warpmatch_graph_load(warpmatch_context *ctx, const char *path, const warpmatch_load_options *opt,
                         warpmatch_graph **out);
/* The graph of the m edges src[i]-dst[i] on vertices 0..n-1 (n = 0: one
 * more than the largest id).  Undirected unless `directed` (then arcs);
 * self-loops and duplicates are dropped.  The arrays are copied. */
int warpmatch_graph_from_edges(warpmatch_context *ctx, uint32_t n, const uint32_t *src, const uint32_t *dst,
                               uint64_t m, int directed, warpmatch_graph **out);
void warpmatch_graph_destroy(warpmatch_graph *g);
uint32_t warpmatch_graph_vertices(const warpmatch_graph *g);
/* Undirected edges (arcs for a directed graph). */
uint64_t warpmatch_graph_edges(const warpmatch_graph *g);
int warpmatch_graph_directed(const warpmatch_graph *g);
/* ids[i] = the id of index i in the input (n entries, caller's array). */
void warpmatch_graph_ids(const warpmatch_graph *g, uint64_t *ids);

/* ---- patterns ---------------------------------------------------------- */

/* A catalogue name ("triangle", "4-clique", "house", ...), or a pattern file
 * (this project's format, or an STMatch/cuTS/GSI .g file). */
int warpmatch_pattern_create(warpmatch_context *ctx, const char *name_or_path, warpmatch_pattern **out);
/* The connected pattern of k vertices (2..8) and the m edges
 * edges[2i]-edges[2i+1]. */
int warpmatch_pattern_from_edges(warpmatch_context *ctx, unsigned k, const unsigned *edges, unsigned m,
                                 warpmatch_pattern **out);
/* Vertex v must match a data vertex of this label (label >= 0), or any
 * (label -1, the default). */
int warpmatch_pattern_set_label(warpmatch_context *ctx, warpmatch_pattern *p, unsigned v, int32_t label);
void warpmatch_pattern_destroy(warpmatch_pattern *p);
unsigned warpmatch_pattern_vertices(const warpmatch_pattern *p);
/* The catalogue name of its shape where it has one, else its file's name, else "". */
const char *warpmatch_pattern_name(const warpmatch_pattern *p);

/* ---- count, list, plan -------------------------------------------------- */

typedef struct warpmatch_count_options {
  int induced;           /* vertex-induced matches (default 0: edge-induced) */
  int embeddings;        /* every embedding, not each subgraph once (default 0) */
  int device;            /* WARPMATCH_DEVICE_* (default AUTO: the GPU when usable) */
  int method;            /* WARPMATCH_METHOD_* (default AUTO, as `count --method`) */
  const int32_t *labels; /* the graph's vertex labels (>= 0), one per index, for a
                            labeled pattern; NULL: none */
  int ignore_labels;     /* match the pattern's shape only */
} warpmatch_count_options;
void warpmatch_count_options_init(warpmatch_count_options *o);

typedef struct warpmatch_count_result {
  uint64_t count;      /* the low 64 bits of the count */
  uint64_t count_high; /* the count is count_high * 2^64 + count (formula counts can pass 2^64) */
  double seconds;      /* the matching's wall time */
  double kernel_ms;    /* GPU kernel time (0 on the CPU) */
  int device;          /* WARPMATCH_DEVICE_CPU or _GPU: where it ran */
  int method;          /* WARPMATCH_METHOD_FORMULA or _ENUMERATE: how it was counted */
} warpmatch_count_result;

/* o may be NULL (the defaults). */
int warpmatch_count(warpmatch_context *ctx, const warpmatch_graph *g, const warpmatch_pattern *p,
                    const warpmatch_count_options *o, warpmatch_count_result *out);

/* Called with n matches of k indices each (match j at matches[j*k], in the
 * pattern's vertex order); return non-zero to stop the listing. */
typedef int (*warpmatch_match_fn)(void *user, const uint32_t *matches, uint64_t n, unsigned k);
/* Hands every match (at most `limit`, 0 = all) to fn in batches; *listed
 * (may be NULL) gets how many were handed over.  Stopping early is not an
 * error.  Listing enumerates: method FORMULA is WARPMATCH_EUSAGE. */
int warpmatch_list(warpmatch_context *ctx, const warpmatch_graph *g, const warpmatch_pattern *p,
                   const warpmatch_count_options *o, uint64_t limit, warpmatch_match_fn fn, void *user,
                   uint64_t *listed);

enum { WARPMATCH_PLAN_TEXT = 0, WARPMATCH_PLAN_JSON = 1 };
/* The plan that count runs when it enumerates (method AUTO counts some 3-5
 * vertex patterns by formula instead; see warpmatch_count_result.method),
 * planned from g's statistics (g may be NULL: the planner's defaults), as
 * `warpmatch plan` prints it: text (the loops, then the statistics) or one
 * JSON object.  Into buf (NUL-terminated, cut to size; buf may be NULL when
 * size is 0); *needed (may be NULL) gets the full length without the NUL.
 * Labels are not needed for a labeled pattern's plan. */
int warpmatch_plan(warpmatch_context *ctx, const warpmatch_graph *g, const warpmatch_pattern *p,
                   const warpmatch_count_options *o, int format, char *buf, size_t size, size_t *needed);

/* ---- motifs ------------------------------------------------------------ */

typedef struct warpmatch_motif {
  char name[32];       /* catalogue name, e.g. "tailed-triangle" */
  char edges[64];      /* e.g. "0-1 0-2 0-3 1-2" */
  uint64_t count;      /* vertex-induced count: count_high * 2^64 + count */
  uint64_t count_high;
} warpmatch_motif;

/* 2, 6 or 21: the connected patterns of size 3, 4 or 5 (0 otherwise). */
unsigned warpmatch_motif_classes(unsigned size);
/* Every connected pattern of `size` (3..5) vertices counted vertex-induced,
 * into out[0..warpmatch_motif_classes(size)); device and method as in
 * warpmatch_count_options (NULL: defaults; its other fields are ignored).
 * The graph must be undirected. */
int warpmatch_motifs(warpmatch_context *ctx, const warpmatch_graph *g, unsigned size,
                     const warpmatch_count_options *o, warpmatch_motif *out);

/* ---- traversal --------------------------------------------------------- */

typedef struct warpmatch_bfs_result {
  uint32_t reached; /* vertices reached, the source included */
  uint32_t depth;   /* levels (the source's is level 0) */
  double ms;        /* the search's time */
  int device;       /* where it ran */
} warpmatch_bfs_result;

/* BFS from index `source`: levels[v] = hops from the source or -1 (n
 * entries, or NULL); parents[v] = v's parent in the BFS tree, the source's
 * itself, UINT32_MAX unreached (n entries, or NULL).  device:
 * WARPMATCH_DEVICE_*.  out may be NULL. */
int warpmatch_bfs(warpmatch_context *ctx, const warpmatch_graph *g, uint32_t source, int device, int32_t *levels,
                  uint32_t *parents, warpmatch_bfs_result *out);
/* *hops = the length of a shortest path from index `from` to `to`, or -1. */
int warpmatch_reach(warpmatch_context *ctx, const warpmatch_graph *g, uint32_t from, uint32_t to, int device,
                    int64_t *hops);

#ifdef __cplusplus
}
#endif
#endif
