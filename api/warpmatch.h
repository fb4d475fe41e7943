/* warpmatch: count and list small patterns, count motifs and run BFS on large
 * graphs, on NVIDIA GPUs or on the CPU.
 *
 * Handles are opaque and come in create/destroy pairs.  A context owns the
 * device state and the last error; graphs and patterns are made in a context
 * (which receives their errors) and any context may use them.  Every call
 * returns WARPMATCH_OK (0) or an error code, and then
 * warpmatch_last_error(ctx) says what went wrong (for input files: the file,
 * the line and what was expected).  Nothing exits or prints (but the
 * progress line a program asks for, warpmatch_set_progress).  The environment
 * is read only for where a text graph's .wmg cache goes when not beside it
 * (see warpmatch_load_options) and, after warpmatch_set_progress(1), for
 * WM_PROGRESS, besides OpenMP's and CUDA's own variables
 * (and developers' hooks, which are no part of this API).  A
 * context is used by one thread at a time; separate contexts may run
 * concurrently, also on the same graphs and patterns.  A graph keeps what
 * queries on it share (its copy renumbered by degree for matching, its
 * statistics for the planner, a directed graph's transpose), built on first
 * use.  A context keeps the graph its last GPU bfs or reach searched on the
 * device, so that searching it again uploads nothing; searching another
 * graph replaces it, and warpmatch_context_destroy frees it.  Likewise the
 * graph its last GPU count, list or motifs call matched on (its copy
 * renumbered by degree): a second copy, beside the search's, with a memory
 * pool on each of its GPUs that keeps up to 2 GiB of the motif calls'
 * buffers between calls (small graphs' motif calls would otherwise spend
 * more on allocating than on counting).
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

/* WARPMATCH_VERSION_MAJOR, _MINOR, _PATCH and _STRING: this header's
 * version, generated from the project's (installed beside this header). */
#include "warpmatch_version.h"

/* "x.y.z", the library's version (may differ from the header's). */
const char *warpmatch_version(void);

/* ---- limits --------------------------------------------------------------
 * Every option's range, in one place: the library's checks, the command
 * line and the Python package read these (a value outside is
 * WARPMATCH_EUSAGE naming the range), and the modules' own tables are
 * asserted to be these sizes.  (The generator's, WARPMATCH_GEN_MAX_*, are
 * with warpmatch_gen_options; warpmatch_limit answers all of them at run
 * time.) */
/* The most CPU threads a context takes: OpenMP starts that many at once,
 * and libgomp ends the process when it cannot (100000 threads did). */
#define WARPMATCH_MAX_THREADS 4096
/* The most GPUs one call uses (the GPU drivers' tables hold that many). */
#define WARPMATCH_MAX_GPUS 16
/* The largest pattern: 2..8 vertices. */
#define WARPMATCH_MAX_PATTERN_VERTICES 8
/* Timed runs of one count or motifs call. */
#define WARPMATCH_MAX_TRIALS 1000
/* GPU tuning (warpmatch_match_options' gpu_* fields; 0 is each one's default). */
#define WARPMATCH_GPU_MAX_TABLE_WORDS 8192
#define WARPMATCH_GPU_MAX_UNROLL 32
#define WARPMATCH_GPU_MAX_WARPS 32
#define WARPMATCH_GPU_MAX_BLOCKS (1 << 20)
#define WARPMATCH_GPU_MAX_CHUNK (1 << 20)

/* Error codes; the command line exits with the same numbers (but for 4: it
 * dies of SIGINT, removing its temporaries). */
enum {
  WARPMATCH_OK = 0,
  WARPMATCH_EINPUT = 1,  /* bad input: a file, an array, a pattern */
  WARPMATCH_EUSAGE = 2,  /* a call or option that cannot be honoured */
  WARPMATCH_EDEVICE = 3, /* no usable GPU where one was required, or a CUDA failure */
  WARPMATCH_EINTERRUPTED = 4 /* stopped by warpmatch_interrupt; nothing returned, handles usable */
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
/* CPU threads for later calls: 1..WARPMATCH_MAX_THREADS, or 0 (the
 * default) = all cores (OpenMP's default: OMP_NUM_THREADS where set, held
 * to WARPMATCH_MAX_THREADS); anything else is WARPMATCH_EUSAGE naming the
 * range.  (OpenMP's own OMP_THREAD_LIMIT, where lower, still caps them.) */
int warpmatch_set_threads(warpmatch_context *ctx, int threads);
/* GPUs 0..gpus-1 of this host for later GPU calls (default 1;
 * 1..WARPMATCH_MAX_GPUS): count, list and motifs hand their work out across
 * them, bfs and reach split the graph over them (this needs a library built
 * with NCCL).  WARPMATCH_EDEVICE at the call when the host has fewer. */
int warpmatch_set_gpus(warpmatch_context *ctx, int gpus);
/* Stops the context's running and later calls (on != 0) until cleared
 * (on = 0): on the CPU, counting and listing (the enumerator), motifs
 * (their aggregates; directed ones of size 4), orbits, generating and
 * reading a text graph give up at their next check, before each root,
 * vertex or block (milliseconds), and return WARPMATCH_EINTERRUPTED with
 * their outputs unset; the graph and context stay usable.  So do BFS
 * (between levels, on the CPU and on one or several GPUs, also across MPI
 * ranks) and the triad census, and the GPU's counts, motifs
 * and orbits,
 * on every GPU of the call: their kernels check, where they claim their
 * next work item, a record in device memory that follows a pinned host
 * word this sets (one read of the word per device every 50 us at most),
 * take no more, and the call reports the interrupt instead of a partial
 * count, within 0.5 s of it.
 * Atomic stores: safe from another thread and from a signal handler (a
 * binding's SIGINT).  Clear it once the call has returned, before the
 * next. */
void warpmatch_interrupt(warpmatch_context *ctx, int on);
/* From on = 1 until on = 0, a SIGINT to the process interrupts ctx's calls
 * (warpmatch_interrupt(ctx, 1)) instead of reaching its previous handler,
 * which on = 0 puts back; *caught (may be NULL) then says whether one came,
 * so that the caller can re-raise it to that handler once the call has
 * returned (and clear the interrupt).  For a binding that runs its calls on
 * the thread where its own Ctrl-C handling lives (Python); one catch at a
 * time in the process (a second on = 1 is WARPMATCH_EUSAGE); SIGINT set to
 * be ignored stays ignored. */
int warpmatch_catch_sigint(warpmatch_context *ctx, int on, int *caught);
/* The progress of a call's long phases: fn(user, phase, done, total), with
 * phase a name ("counting", "motif sums", a file's path), done growing
 * towards total in the phase's own units (total 0: unknown).  Called at its
 * first update, at most 5 times a second, and at its end; from any of the
 * call's threads, never twice at once.  fn NULL turns it off. */
typedef void (*warpmatch_progress_fn)(void *user, const char *phase, uint64_t done, uint64_t total);
int warpmatch_set_progress_callback(warpmatch_context *ctx, warpmatch_progress_fn fn, void *user);

/* ---- graphs ------------------------------------------------------------ */

typedef struct warpmatch_load_options {
  size_t size;   /* sizeof(warpmatch_load_options), set by _init (a versioned struct: see
                    WARPMATCH_MAX_STRUCT_SIZE) */
  int directed;  /* an edge list's lines are arcs (default 0: symmetrise) */
  int use_cache; /* read/write the .wmg cache of a text graph (default 1): beside it
                    when its folder is writable and no one else may write to it, else
                    in $WARPMATCH_CACHE_DIR, $XDG_CACHE_HOME/warpmatch or
                    ~/.cache/warpmatch; a cache another user could have written is
                    ignored (see warpmatch_load_info.note) */
} warpmatch_load_options;
void warpmatch_load_options_init(warpmatch_load_options *o);

/* Edge list (CSV and TSV too), Matrix Market or .wmg, told from the content, the text ones
 * gzip-compressed or not; opt may be NULL. */
int warpmatch_graph_load(warpmatch_context *ctx, const char *path, const warpmatch_load_options *opt,
                         warpmatch_graph **out);
/* The graph of the m edges src[i]-dst[i] on vertices 0..n-1 (n = 0: one
 * more than the largest id).  Undirected unless `directed` (then arcs);
 * self-loops and duplicates are dropped.  The arrays are copied. */
int warpmatch_graph_from_edges(warpmatch_context *ctx, uint32_t n, const uint32_t *src, const uint32_t *dst,
                               uint64_t m, int directed, warpmatch_graph **out);
/* The same with edge i's ends side by side, pairs[2i] and pairs[2i + 1]
 * (a row-major m x 2 array, as numpy keeps one), read without a copy of
 * the caller's. */
int warpmatch_graph_from_pairs(warpmatch_context *ctx, uint32_t n, const uint32_t *pairs, uint64_t m, int directed,
                               warpmatch_graph **out);
void warpmatch_graph_destroy(warpmatch_graph *g);
uint32_t warpmatch_graph_vertices(const warpmatch_graph *g);
/* Undirected edges (arcs for a directed graph). */
uint64_t warpmatch_graph_edges(const warpmatch_graph *g);
int warpmatch_graph_directed(const warpmatch_graph *g);
/* ids[i] = the id of index i in the input (n entries, caller's array). */
void warpmatch_graph_ids(const warpmatch_graph *g, uint64_t *ids);
/* The edges as index pairs, warpmatch_graph_edges(g) entries in each
 * caller's array: u[i] < v[i], ascending by (u, v), the rows of edge orbit
 * counts (for a directed graph its arcs u[i] -> v[i] in the same order).
 * Indices follow the input's ids, so for a loaded file this is by id. */
void warpmatch_graph_edge_ends(const warpmatch_graph *g, uint32_t *u, uint32_t *v);

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

/* warpmatch_count_options, warpmatch_count_result, warpmatch_bfs_result and
 * warpmatch_motif are fixed records: their layout never changes (the _ex
 * structs below embed the first three), and what the calls learn later
 * goes into the versioned _ex structs. */

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
  uint64_t count_high; /* the count is count_high * 2^64 + count (counts pass 2^64 on hubs, by
                          formula or enumerated, on the CPU or the GPU) */
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

/* ---- directed motifs -----------------------------------------------------
 * Every directed class of 3 or 4 vertices (16 and 218 classes, of which
 * 13 and 199 are weakly connected), mutual arcs included, counted
 * vertex-induced in a directed graph, and numbered as igraph numbers
 * them (its isoclass ids, so the counts line up with igraph's
 * motifs_randesu).  On the CPU or the GPU (see device). */
typedef struct warpmatch_directed_motif {
  char name[32];      /* size 3: the triad census's MAN code ("021D", as networkx's triadic_census
                         names it); size 4: "d4-" and the igraph id ("d4-38") */
  char arcs[64];      /* the class's arcs on vertices 0..size-1, as igraph's Isoclass(size, id)
                         graph has them, ascending: "0->1 1->0 2->0" */
  unsigned igraph_id; /* igraph's isoclass id (Graph.Isoclass(size, id, directed=True)) */
  int connected;      /* 1 when weakly connected */
  uint64_t count;     /* vertex-induced count: count_high * 2^64 + count */
  uint64_t count_high;
} warpmatch_directed_motif;

/* The rows warpmatch_motifs_directed writes for `size` (3 or 4): 13 or 199
 * when connected_only, else 16 or 218; 0 for another size. */
unsigned warpmatch_motif_classes_directed(unsigned size, int connected_only);

typedef struct warpmatch_directed_motif_options {
  size_t size;     /* sizeof(warpmatch_directed_motif_options), set by _init (versioned) */
  int all_classes; /* 1: the disconnected classes too; 0 (default): the weakly connected ones */
  int device;      /* WARPMATCH_DEVICE_AUTO (default: the GPU when usable), _CPU or _GPU (the
                      census and the 3-edge paths on the GPU, the rest on the host;
                      WARPMATCH_EDEVICE without a usable GPU) */
  int method;      /* size 4: WARPMATCH_METHOD_AUTO (default) or _FORMULA, the stars from each
                      vertex's neighbour triples and the other classes from the skeleton's
                      3-edge paths; _ENUMERATE, every connected 4-set one by one (the
                      cross-check, on the CPU whatever the device).  Size 3 is the triad
                      census either way */
  int gpus;        /* on the GPU: the work dealt over this many GPUs of the host (0, the
                      default: the context's; at most WARPMATCH_MAX_GPUS) */
} warpmatch_directed_motif_options;
void warpmatch_directed_motif_options_init(warpmatch_directed_motif_options *o);

typedef struct warpmatch_directed_motif_result {
  size_t size;      /* sizeof(warpmatch_directed_motif_result), set by the caller */
  unsigned classes; /* rows written */
  int device;       /* where it ran (WARPMATCH_DEVICE_CPU or _GPU) */
  double seconds;   /* the counting's wall time */
  char how[256];    /* how it was counted, in words */
  double kernel_ms; /* GPU kernel time (the slowest GPU's; 0 on the CPU) */
} warpmatch_directed_motif_result;

/* Every class of `size` (3 or 4) counted vertex-induced in the directed
 * graph g (one loaded or made with `directed`; an undirected one is
 * WARPMATCH_EUSAGE) into out[0..warpmatch_motif_classes_directed(size,
 * !all_classes)): size 3 in the census's order (003, 012, 102, 021D, 021U,
 * 021C, 111D, 111U, 030T, 030C, 201, 120D, 120U, 120C, 210, 300), size 4
 * by igraph id; the disconnected rows left out unless all_classes.  o and
 * r may be NULL (the defaults; no figures).  CPU threads: the context's.
 * Size 3 is the triad census (Batagelj and Mrvar); size 4 walks the
 * undirected skeleton's 3-edge paths (see method); a disconnected class of
 * 4 follows from the census, the dyads and C(n,4).  Counts are exact: one
 * past 2^127 is WARPMATCH_EINPUT. */
int warpmatch_motifs_directed(warpmatch_context *ctx, const warpmatch_graph *g, unsigned size,
                              const warpmatch_directed_motif_options *o, warpmatch_directed_motif *out,
                              warpmatch_directed_motif_result *r);

/* ---- graphlet orbits (per-vertex motif counts) --------------------------
 * The graphlet degree vector: for each vertex, how many connected induced
 * subgraphs of 2..size vertices touch it in each automorphism orbit of
 * their graphlet, numbered as ORCA numbers them (Przulj's figure: orbit 0 the
 * degree, 1-3 the 3-vertex graphlets, 4-14 the 4-vertex ones, 15-72 the
 * 5-vertex ones; docs/orbits.md has the table).  Counts are exact: a count
 * past 2^64 - 1 (a vertex of degree 10^6 is in C(10^6, 4) = 4.2e22 4-stars)
 * is kept whole where the caller asks for the high words
 * (warpmatch_orbit_options.counts_high), else it is WARPMATCH_EINPUT naming
 * the vertex and the orbit; never wrapped. */

/* The orbits of the graphlets of 2..size vertices: 1, 4, 15 or 73 for
 * size 2..5 (0 otherwise). */
unsigned warpmatch_orbit_count(unsigned size);
/* ORCA's edge orbits of the graphlets of 3..size vertices, the row length
 * of warpmatch_orbit_options.edges: 2 for size 3, 12 for size 4, 68 for
 * size 5 (0 otherwise). */
unsigned warpmatch_edge_orbit_count(unsigned size);

typedef struct warpmatch_orbit_options {
  size_t size;            /* sizeof(warpmatch_orbit_options), set by _init (versioned) */
  unsigned graphlet_size; /* graphlets of 2..graphlet_size vertices, 2..5 (default 5) */
  int device;             /* WARPMATCH_DEVICE_*: GPU, the formula on the GPU (its aggregates;
                             at size 5 also its clique sums, 5-cycles and per-vertex walks;
                             WARPMATCH_EDEVICE without a usable one); AUTO (default), size 5
                             on the GPU where one is usable, sizes 2-4 on the CPU; CPU.  The enumerator
                             (method ENUMERATE) and the edge orbits have no GPU executor: they
                             run on the CPU, and the result's device says CPU */
  int method;             /* WARPMATCH_METHOD_*: FORMULA, counts from per-vertex and per-edge
                             aggregates and the orbit relations (every size); ENUMERATE, every
                             connected induced subgraph once; AUTO (default), the formula */
  int edges;              /* 1: edge orbits (ORCA's edge mode) instead of vertex orbits: a row
                             per undirected edge in warpmatch_graph_edge_ends' order, how many
                             connected induced subgraphs of 3..graphlet_size vertices hold the
                             edge in each edge orbit (graphlet_size 3, 4 or 5; on the CPU, by
                             the edge formula, or with method ENUMERATE the enumerator) */
  int gpus;               /* GPUs 0..gpus-1 for size 5's heavy pieces: the non-induced
                             counts' per-vertex walks, clique sums and 5-cycles, or the sums
                             of the walk over 4-vertex sets (WM_ORBIT5_WALK=1); docs/orbits.md
                             (1..WARPMATCH_MAX_GPUS; 0, the default: the context's,
                             warpmatch_set_gpus); WARPMATCH_EDEVICE where the host has fewer.
                             The other passes use the first */
  uint64_t *counts_high;  /* where not NULL, the high 64 bits of every count, laid out as counts
                             (the caller's array, apart from counts, overwritten): count =
                             counts_high[i] * 2^64 + counts[i], exact to 2^128 - 1.  NULL
                             (default): a count past 2^64 - 1 is WARPMATCH_EINPUT */
  unsigned trials;        /* > 1: an untimed warm-up call, then this many timed calls (at most
                             WARPMATCH_MAX_TRIALS) that must give the same counts; the result's
                             seconds and kernel_ms are their medians (0 or 1, the default: one call) */
} warpmatch_orbit_options;
void warpmatch_orbit_options_init(warpmatch_orbit_options *o);

typedef struct warpmatch_orbit_result {
  size_t size;     /* sizeof(warpmatch_orbit_result), set by the caller */
  unsigned orbits; /* warpmatch_orbit_count(graphlet_size), or with edges
                      warpmatch_edge_orbit_count: the row length */
  int device;      /* where it ran */
  int method;      /* how it was counted: WARPMATCH_METHOD_FORMULA or _ENUMERATE */
  double seconds;  /* the counting's wall time (on the GPU, after the CUDA context and the graph's
                      upload, which the context keeps for its next calls, as motifs' time) */
  double kernel_ms; /* GPU: the formula's kernels by CUDA events (0 on the CPU) */
  uint64_t wide;    /* the counts past 2^64 - 1 (their high words in counts_high) */
  unsigned trials;  /* timed calls behind the medians (1: one call) */
  double first_seconds; /* the first call's seconds (with trials > 1 the warm-up's: a process's first
                           GPU call also loads the kernels and allocates the buffers it keeps) */
} warpmatch_orbit_result;

/* counts[v * orbits + o] = the count of orbit o at index v, for every index
 * (n x orbits, row-major; the caller's array, overwritten; with edges, a
 * row per edge: warpmatch_graph_edges(g) x orbits); o and r may be
 * NULL (the defaults; no figures).  The graph must be undirected.  CPU
 * threads: the context's.  On failure counts are unspecified. */
int warpmatch_orbits(warpmatch_context *ctx, const warpmatch_graph *g, const warpmatch_orbit_options *o,
                     uint64_t *counts, warpmatch_orbit_result *r);

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

/* ---- the detailed calls ------------------------------------------------
 *
 * What the command line (and a benchmark) needs beyond the calls above:
 * how a graph was read, vertex ids, label files, the planner's switches, a
 * BFS ball, timed repetitions, per-vertex counts, GPU tuning, several
 * sources, and the figures that explain a run.  Each struct of these calls
 * (and warpmatch_load_options) starts with `size`, which the caller sets to
 * sizeof the struct it was compiled with (the _init functions do it): a
 * later library appends fields and still reads and writes only that many
 * bytes.  A size below sizeof(size_t)
 * or above WARPMATCH_MAX_STRUCT_SIZE (no struct of this API comes near it:
 * the size was never set) is WARPMATCH_EUSAGE. */
#define WARPMATCH_MAX_STRUCT_SIZE 65536

enum {
  WARPMATCH_FORMAT_AUTO = 0, /* told from the content */
  WARPMATCH_FORMAT_EDGELIST = 1,
  WARPMATCH_FORMAT_MTX = 2,
  WARPMATCH_FORMAT_WMG = 3
};

typedef struct warpmatch_load_info {
  size_t size;           /* sizeof(warpmatch_load_info), set by the caller */
  int format;            /* WARPMATCH_FORMAT_*: what was read */
  int from_cache;        /* read from a valid .wmg cache */
  int cache_written;     /* a new cache file was written */
  char cache_path[4096]; /* the cache consulted, "" if none */
  double seconds;        /* the load's wall time */
  uint64_t bytes;        /* of the input read */
  char note[1024];       /* one line for the user, "" if none: a cache that was
                            ignored because others could have written it */
} warpmatch_load_info;

/* warpmatch_graph_load with the format forced (WARPMATCH_FORMAT_AUTO: told
 * from the content), and how the graph was read into info (may be NULL). */
int warpmatch_graph_load_ex(warpmatch_context *ctx, const char *path, const warpmatch_load_options *opt, int format,
                            warpmatch_graph **out, warpmatch_load_info *info);
/* The input's id of index v (v < n; warpmatch_graph_ids for all of them). */
uint64_t warpmatch_graph_id(const warpmatch_graph *g, uint32_t v);
/* 1 with *v its index when the input has a vertex `id`, else 0. */
int warpmatch_graph_find(const warpmatch_graph *g, uint64_t id, uint32_t *v);
/* Index v's neighbours (out-arcs in a directed graph); 0 when v >= n. */
uint64_t warpmatch_graph_degree(const warpmatch_graph *g, uint32_t v);
typedef struct warpmatch_degree_stats {
  size_t size;             /* sizeof(warpmatch_degree_stats), set by the caller */
  uint64_t max_degree, min_degree, median_degree, p99_degree; /* out-degrees when directed */
  double mean_degree;
  uint64_t isolated;       /* vertices without neighbours */
  uint64_t arcs;           /* adjacency entries: two per undirected edge, one per arc */
} warpmatch_degree_stats;
/* The degree summary `warpmatch info` prints. */
int warpmatch_graph_degree_stats(warpmatch_context *ctx, const warpmatch_graph *g, warpmatch_degree_stats *out);
/* A labels file ('ID LABEL' lines in the input's ids, labels 0..2^31-1,
 * '#' or '%' comments) as labels[v] for each index (n entries; vertices it
 * does not list get 0), for warpmatch_count_options.labels. */
int warpmatch_graph_read_labels(warpmatch_context *ctx, const warpmatch_graph *g, const char *path, int32_t *labels);

/* The name the pattern was made with: the catalogue's spelling of the name
 * given, or the pattern file's name; "" from edges.  (warpmatch_pattern_name
 * names its shape instead.) */
const char *warpmatch_pattern_given_name(const warpmatch_pattern *p);
/* The number of edges; buf (may be NULL when size is 0) gets them as
 * "0-1 0-2 1-2", NUL-terminated and cut to size. */
unsigned warpmatch_pattern_edges(const warpmatch_pattern *p, char *buf, size_t size);
/* 1 when some vertex must match a given label (warpmatch_pattern_set_label,
 * or the pattern file's labels). */
int warpmatch_pattern_labeled(const warpmatch_pattern *p);
/* 1 when count may take method FORMULA for p: an unlabeled 3-5 vertex
 * pattern other than the triangle and the cliques (counted over the whole
 * graph: no labels, ball, per-vertex counts or embeddings). */
int warpmatch_pattern_has_formula(const warpmatch_pattern *p);

/* The threads a CPU call uses: warpmatch_set_threads's, or all cores (at
 * most WARPMATCH_MAX_THREADS). */
int warpmatch_threads(const warpmatch_context *ctx);

typedef struct warpmatch_match_options {
  size_t size;                   /* sizeof(warpmatch_match_options), set by _init */
  warpmatch_count_options count; /* as for warpmatch_count (the _init's defaults) */
  int relabel;     /* 1 (default): match on the graph renumbered by degree, kept with the
                      graph; 0: on its own numbering (the planner then measures that) */
  int code_motion; /* 1 (default): hoist and share set operations */
  int pair_count;  /* 1 (default): count the last two positions as pairs of one set */
  int ball;        /* 1: match only inside the BFS ball of `hops` around index `seed` */
  uint32_t seed, hops;
  unsigned trials; /* count and motifs: > 1 runs an untimed warm-up, then this many timed
                      runs (at most WARPMATCH_MAX_TRIALS) that must agree; the times become
                      medians */
  double *trial_ms;      /* trials entries, or NULL: each timed run's ms (GPU kernels, else wall) */
  uint64_t *per_vertex;  /* count: n counters, or NULL: the matches containing each index
                            (zeroed first; the count enumerates; not with trials); one past
                            2^64 - 1 is WARPMATCH_EINPUT, the message naming the vertex */
  int gpus;        /* GPUs for this call, 1..WARPMATCH_MAX_GPUS; 0 (default): the context's
                      (warpmatch_set_gpus) */
  int planner;           /* how the matching order is chosen: WARPMATCH_PLANNER_MODEL, the cost
                            model from the graph's statistics; _SAMPLED, the model's best few
                            measured on the graph by random probes, the least work winning
                            (tenths of a second to plan; better on graphs with dense cores);
                            _AUTO (default), as many of the model's best measured by probes as
                            4% of the count's predicted time pays for, another order taken only
                            at half its work or less; where a CPU count is long enough, its best
                            few are then timed on a slice of level 0 and the fastest counts (the
                            result's slice_*; with trials, the trials time the fastest's whole
                            count); _PROBES, AUTO without the slices */
  const unsigned *order; /* NULL (default): the planner's matching order; else the pattern's k
                            vertices in the order to match them, each after the first adjacent
                            to an earlier one (count and list; the dedicated kernels keep their
                            own, and a count by formula has none: AUTO then enumerates) */
  /* ---- GPU tuning, for benchmarks and the ablation (the CPU ignores it),
   * apart from what a user sets above; 0 leaves each to the policy.  A
   * later version appends its fields after these (sizes version the
   * struct: nothing here moves for a program built against this header). */
  int gpu_steal;       /* -1 (default): two-level; 0 none, 1 within a block, 2 two-level */
  int gpu_level0;      /* first level handed out as 0 (default) the plan's choice, 1 vertices, 2 edges */
  uint32_t gpu_chunk;  /* first-level items per grab of the global counter (at most
                          WARPMATCH_GPU_MAX_CHUNK); 0: from the grid */
  int gpu_unroll;      /* iterations of a level expanded together (1..WARPMATCH_GPU_MAX_UNROLL);
                          0: the policy's */
  int gpu_blocks;      /* blocks of a launch (at most WARPMATCH_GPU_MAX_BLOCKS); 0: from the device */
  int gpu_warps;       /* warps per block (1..WARPMATCH_GPU_MAX_WARPS); 0: from the device */
  int gpu_table_words; /* each warp's probe table of a row in shared memory: 0 (default) 128
                          words where occupancy allows, -1 none, else that many (at most
                          WARPMATCH_GPU_MAX_TABLE_WORDS) */
  int gpu_dedicated;   /* 1 (default): triangles, cliques and diamonds on their own kernels;
                          0: on the general stack kernel */
} warpmatch_match_options;
void warpmatch_match_options_init(warpmatch_match_options *o);
#define WARPMATCH_PLANNER_MODEL 0
#define WARPMATCH_PLANNER_SAMPLED 1
#define WARPMATCH_PLANNER_AUTO 2
#define WARPMATCH_PLANNER_PROBES 3 /* AUTO without the timed slices */

#define WARPMATCH_MAX_SLICE_ORDERS 6
typedef struct warpmatch_match_result {
  size_t size;                  /* sizeof(warpmatch_match_result), set by the caller */
  warpmatch_count_result count; /* the count, the matching's seconds (a median with trials),
                                   kernel ms, device and method */
  uint64_t set_ops;             /* set operations executed */
  uint64_t listed;              /* list: matches handed over */
  uint64_t ball_vertices;       /* with a ball: its vertices */
  uint64_t formula_paths;       /* motifs and counts by formula: the 4-cycle pass's work */
  double relabel_seconds;       /* renumbering the graph (and labels) for matching; 0 when an
                                   earlier call on the graph did it */
  double stats_seconds;         /* measuring the graph for the planner; 0 likewise */
  double plan_seconds;          /* planning */
  double transfer_ms;           /* GPU: copies between host and device */
  double lane_util;             /* GPU: useful lanes / lanes issued in set operations (0: not measured) */
  unsigned trials;              /* timed runs behind the medians (0 or 1: one run) */
  const char *formula;          /* method FORMULA: the edge-induced count's formula in words
                                   (static text), else NULL */
  char launch[384];             /* how it ran: executor and launch, or the formula's pieces */
  const char *executor;         /* the engine's row that ran it (static text): "formula", "triangle",
                                   "clique", "diamond", "stack" or "cpu" (docs/engine.md) */
  /* count, planner AUTO, a count long enough to pay for it: the candidate
   * orders timed on one slice of level 0 (docs/plan.md), the fastest
   * counted with (on the CPU its slice's count reused); slice_orders 0: none */
  unsigned slice_orders;        /* orders timed, at most WARPMATCH_MAX_SLICE_ORDERS */
  unsigned slice_chosen;        /* the index of the one counted with */
  uint32_t slice_every;         /* the slice: about 1 in `every` of each order's work (the first
                                   `every` vertices of the degree-ordered graph by 1 in every of
                                   their level-1 arcs, then one vertex of each `every`) */
  uint64_t slice_vertices;      /* the slice's level-0 vertices (of both parts); 0 on the GPU, whose
                                   slice is 1 in every of the stack kernel's level-0 chunks */
  unsigned slice_order[WARPMATCH_MAX_SLICE_ORDERS][WARPMATCH_MAX_PATTERN_VERTICES]; /* pattern vertices */
  double slice_ms[WARPMATCH_MAX_SLICE_ORDERS]; /* each order's wall time on the slice (every x it
                                                  estimates its count; on the GPU its launch's);
                                                  the least counts (on the GPU, an order stopped
                                                  past 1.5x the fastest's cannot: the time it ran) */
} warpmatch_match_result;

/* warpmatch_count, warpmatch_list and warpmatch_motifs with the options and
 * figures above (o may be NULL: the defaults; out may be NULL for list and
 * motifs).  Unlike the calls without _ex, plans and messages name a
 * pattern file by its file, as the program does. */
int warpmatch_count_ex(warpmatch_context *ctx, const warpmatch_graph *g, const warpmatch_pattern *p,
                       const warpmatch_match_options *o, warpmatch_match_result *out);
int warpmatch_list_ex(warpmatch_context *ctx, const warpmatch_graph *g, const warpmatch_pattern *p,
                      const warpmatch_match_options *o, uint64_t limit, warpmatch_match_fn fn, void *user,
                      warpmatch_match_result *out);
/* how (may be NULL, one per class): how each class was counted, "formula",
 * "enumerated" (its edge-induced count, then the motif table) or
 * "enumerated-induced" (static text); edge_induced (may be NULL): the same
 * rows with each class's edge-induced count (its copies inside every
 * vertex-induced class). */
int warpmatch_motifs_ex(warpmatch_context *ctx, const warpmatch_graph *g, unsigned size,
                        const warpmatch_match_options *o, warpmatch_motif *out, const char **how,
                        warpmatch_motif *edge_induced, warpmatch_match_result *result);

/* ---- motif significance against degree-preserving random graphs -------
 * Random graphs with the degrees of g (in- and out-degrees when directed),
 * without self-loops or multi-edges, by one of two Markov chains started
 * at g: edge switching (double-edge swaps; arc swaps when directed) or
 * global curveball trades (docs/motifs.md#significance).  Graph `index` of a
 * seed is the same whatever the threads. */
enum { WARPMATCH_RANDOMIZE_SWITCH = 1, WARPMATCH_RANDOMIZE_CURVEBALL = 2 };
/* swaps_per_edge: 1..WARPMATCH_MAX_SWAPS_PER_EDGE (default 10). */
#define WARPMATCH_MAX_SWAPS_PER_EDGE 10000
/* Random graphs of one significance call: 2..WARPMATCH_MAX_RANDOM_GRAPHS. */
#define WARPMATCH_MAX_RANDOM_GRAPHS 100000

typedef struct warpmatch_randomize_options {
  size_t size;             /* sizeof(warpmatch_randomize_options), set by _init */
  int method;              /* WARPMATCH_RANDOMIZE_* (default SWITCH) */
  uint64_t seed;           /* default 1 */
  uint64_t index;          /* graph `index` of the seed's sequence (default 0): the significance
                              call's i-th random graph is index i */
  unsigned swaps_per_edge; /* switch: attempted swaps per edge; curveball: global trade rounds
                              (each vertex trades once a round); default 10 */
  int device;              /* WARPMATCH_DEVICE_* that makes a switch graph (default CPU): the GPU
                              switches in rounds of disjoint pairs, another chain than the CPU's
                              (its own graphs of a seed, as reproducible); curveball runs on the
                              CPU whatever this says */
} warpmatch_randomize_options;
void warpmatch_randomize_options_init(warpmatch_randomize_options *o);

typedef struct warpmatch_randomize_stats {
  size_t size;                /* sizeof(warpmatch_randomize_stats), set by the caller */
  uint64_t attempted;         /* swaps (switch) or trades (curveball) tried */
  uint64_t accepted;          /* swaps made, or trades that moved a neighbour */
  uint64_t edges_kept;        /* edges (arcs) of g still present: the mixing check */
  double edges_kept_expected; /* their number expected at full mixing: the sum over g's edges
                                 of min(1, d(u) d(v) / 2m) (arcs: min(1, out(u) in(v) / m)) */
  double seconds;
} warpmatch_randomize_stats;

/* *out: a new graph of g's vertices (the same ids) and degrees; g is
 * untouched.  o may be NULL (the defaults), stats too.  An oriented graph
 * is WARPMATCH_EINPUT. */
int warpmatch_randomize(warpmatch_context *ctx, const warpmatch_graph *g, const warpmatch_randomize_options *o,
                        warpmatch_graph **out, warpmatch_randomize_stats *stats);

typedef struct warpmatch_significance_options {
  size_t size;             /* sizeof(warpmatch_significance_options), set by _init */
  unsigned graphs;         /* random graphs, 2..WARPMATCH_MAX_RANDOM_GRAPHS (default 100) */
  int method;              /* WARPMATCH_RANDOMIZE_* (default SWITCH) */
  uint64_t seed;           /* default 1: the same seed, the same answer */
  unsigned swaps_per_edge; /* as warpmatch_randomize_options' (default 10) */
  int directed;            /* 1: directed classes of a directed graph (needs the directed motif
                              counts: WARPMATCH_EUSAGE until they are in the library) */
  int device;              /* WARPMATCH_DEVICE_* of every count (default AUTO) */
  int count_method;        /* WARPMATCH_METHOD_* of every count (default AUTO) */
  const warpmatch_match_options *match; /* NULL (default), or the rest of every count's options
                                           (relabel, GPU tuning, gpus); its count.device and
                                           count.method give way to the two above, and its
                                           trials, trial_ms, per_vertex, order and ball are
                                           not used */
} warpmatch_significance_options;
void warpmatch_significance_options_init(warpmatch_significance_options *o);

/* One class's row: a fixed record. */
typedef struct warpmatch_significance_row {
  warpmatch_motif motif; /* the class and g's vertex-induced count */
  double mean, sd;       /* of the random graphs' counts (sd: the sample's, over N - 1) */
  double z;              /* (count - mean) / sd; NaN where sd is 0 (every random count equal) */
  double p_over;         /* the share of random counts >= g's: small = over-represented */
  double p_under;        /* the share of random counts <= g's: small = under-represented */
  double profile;        /* z over the length of the vector of the classes' z (the significance
                            profile, Milo et al. 2004); NaN where z is, or where every z is 0 */
} warpmatch_significance_row;

typedef struct warpmatch_significance_result {
  size_t size;                /* sizeof(warpmatch_significance_result), set by the caller */
  unsigned graphs, classes;
  uint64_t attempted, accepted; /* swaps or trades, summed over the random graphs */
  uint64_t edges_kept;        /* g's edges present, summed over the random graphs */
  double edges_kept_expected; /* per graph at full mixing (warpmatch_randomize_stats) */
  double real_seconds;        /* counting g */
  double randomize_seconds;   /* making the random graphs (wall, in parallel) */
  double count_seconds;       /* counting them */
  int device;                 /* WARPMATCH_DEVICE_CPU or _GPU: where the counts ran */
  int randomize_device;       /* WARPMATCH_DEVICE_CPU or _GPU: where the random graphs were made
                                 (switch on the GPU when o->device is, or is AUTO on a GPU host) */
  int randomize_gpus;         /* GPUs that made them (graph i on GPU i mod this); 0 on the CPU */
} warpmatch_significance_result;

/* The rows of a significance call of (size, directed): 2, 6 or 21
 * undirected; 0 where the library cannot count those classes. */
unsigned warpmatch_significance_classes(unsigned size, int directed);
/* g's classes of `size` vertices (3..5 undirected) counted, then those of
 * o->graphs random graphs of its degrees (graph i is warpmatch_randomize's
 * index i of o->seed on the same device; made a batch at a time, in
 * parallel over the context's threads, or switch graphs on the GPU when
 * o->device is (graph i on GPU i mod the match options' or the context's
 * gpus), then counted one after another by warpmatch_motifs_ex on
 * o->device), into rows[0..warpmatch_significance_classes(size,
 * o->directed)); random (may be NULL) gets graph i's counts at
 * random[i * classes + c].  o NULL: the defaults; result may be NULL. */
int warpmatch_motif_significance(warpmatch_context *ctx, const warpmatch_graph *g, unsigned size,
                                 const warpmatch_significance_options *o, warpmatch_significance_row *rows,
                                 warpmatch_motif *random, warpmatch_significance_result *result);

/* Or'd into warpmatch_plan_ex's format: the plan alone, without the graph
 * statistics; the plan listing runs (no count-only last level); the GPU's
 * plan whatever the device (its first edge bounded v1 > v0). */
enum { WARPMATCH_PLAN_NO_STATS = 4, WARPMATCH_PLAN_FOR_LIST = 8, WARPMATCH_PLAN_FOR_GPU = 16 };
/* warpmatch_plan with the options above (the ball, trials, per-vertex and
 * GPU tuning do not change a plan); out (may be NULL) gets the relabel,
 * statistics and planning seconds. */
int warpmatch_plan_ex(warpmatch_context *ctx, const warpmatch_graph *g, const warpmatch_pattern *p,
                      const warpmatch_match_options *o, int format, char *buf, size_t size, size_t *needed,
                      warpmatch_match_result *out);

typedef struct warpmatch_bfs_options {
  size_t size;        /* sizeof(warpmatch_bfs_options), set by _init */
  int device;         /* WARPMATCH_DEVICE_* (default AUTO) */
  uint32_t max_depth; /* stop after this many levels: exactly the ball of that radius
                         (default UINT32_MAX: none) */
  uint32_t target;    /* stop with the level that reaches this index (levels stay exact;
                         default UINT32_MAX: none) */
  int direction_opt;  /* 1 (default): switch top-down <-> bottom-up */
  double alpha;       /* bottom-up when frontier hubs / all hubs > alpha (default 0.3) */
  double edge_ratio;  /* ... or frontier edges x edge_ratio > unexplored edges (default 14; 0 off) */
  int gpus;           /* GPUs to split the graph over, 1..WARPMATCH_MAX_GPUS; 0 (default): the
                         context's */
  /* ---- GPU tuning: the pipeline's stages (default 1 each), switched off for
   * the ablation; last, apart from the fields above. */
  int queue_gen, classify, hub_cache, small_kernel;
  int small_grid; /* the small-level kernel's levels over every SM (off: one block) */
  int cluster_kernel; /* a small graph's whole search in one launch of a thread block cluster */
} warpmatch_bfs_options;
void warpmatch_bfs_options_init(warpmatch_bfs_options *o);

typedef struct warpmatch_bfs_stats {
  size_t size;                /* sizeof(warpmatch_bfs_stats), set by the caller */
  warpmatch_bfs_result bfs;   /* reached, depth, ms, device */
  uint64_t edges_traversed;   /* out-degrees of the reached vertices */
  uint64_t teps_edges;        /* Graph500's TEPS edges: input edges within the traversed component */
  uint32_t bottom_up_levels;  /* levels expanded bottom-up */
  int truncated;              /* max_depth or target stopped the search */
  double kernel_ms;           /* GPU: the kernels' time by events */
} warpmatch_bfs_stats;

/* BFS from the n indices `sources` at once (a multi-source search;
 * duplicates are ignored), levels and parents as warpmatch_bfs's (a
 * source's parent is itself).  The GPU search keeps the graph on the GPU
 * in the context for later bfs and reach calls on the same graph. */
int warpmatch_bfs_ex(warpmatch_context *ctx, const warpmatch_graph *g, const uint32_t *sources, uint32_t n,
                     const warpmatch_bfs_options *o, int32_t *levels, uint32_t *parents, warpmatch_bfs_stats *out);
/* Graph500's checks of a search from `sources` (its levels, parents (may
 * be NULL) and figures as warpmatch_bfs_ex gave them): WARPMATCH_EINPUT
 * naming the first violation. */
int warpmatch_bfs_validate(warpmatch_context *ctx, const warpmatch_graph *g, const uint32_t *sources, uint32_t n,
                           const int32_t *levels, const uint32_t *parents, const warpmatch_bfs_stats *stats);
/* The device and launch set-up of the context's GPU search, "" before one. */
const char *warpmatch_bfs_describe(const warpmatch_context *ctx);
/* The GPU's memory bandwidth, measured (a device-to-device copy, bytes
 * read + written per second). */
int warpmatch_gpu_bandwidth(warpmatch_context *ctx, double *gbps);


/* ---- generators, rewriting and saving graphs --------------------------
 *
 * What `warpmatch gen` and `warpmatch convert` do: synthetic graphs, the
 * graph renumbered by degree or oriented, and .wmg files. */

/* Generators (warpmatch_gen_options.kind); later versions add kinds after
 * these, never renumbering them (0 is none, so an unset struct is refused). */
enum {
  WARPMATCH_GEN_KRON = 1,
  WARPMATCH_GEN_RMAT = 2,
  WARPMATCH_GEN_CHUNG_LU = 3, /* power-law expected degrees (exponent, mean_degree) */
  WARPMATCH_GEN_BA = 4,       /* Barabasi-Albert preferential attachment (attach) */
  WARPMATCH_GEN_HUB = 5,      /* one hub over a sparse uniform tail (hub_fraction, mean_degree) */
  WARPMATCH_GEN_SBM = 6,      /* stochastic block model (communities, degree_in, degree_out) */
  WARPMATCH_GEN_REGULAR = 7,  /* random regular, configuration model (degree) */
  WARPMATCH_GEN_GRID = 8,     /* width x height lattice, optional random shortcuts */
};
/* 2^scale vertices, 1..WARPMATCH_GEN_MAX_SCALE: vertex ids are 32-bit. */
#define WARPMATCH_GEN_MAX_SCALE 31
/* Edges generated per vertex, 1..WARPMATCH_GEN_MAX_EDGE_FACTOR (Graph500
 * uses 16; far above is a typo, not a graph). */
#define WARPMATCH_GEN_MAX_EDGE_FACTOR (1 << 20)
/* The other kinds: vertices 2..WARPMATCH_GEN_MAX_VERTICES (grid: width x
 * height, 1 or more), at most WARPMATCH_GEN_MAX_EDGES edges drawn. */
#define WARPMATCH_GEN_MAX_VERTICES 4294967295
#define WARPMATCH_GEN_MAX_EDGES 1099511627776 /* 2^40 */

typedef struct warpmatch_gen_options {
  size_t size;          /* sizeof(warpmatch_gen_options), set by _init */
  int kind;             /* WARPMATCH_GEN_* */
  unsigned scale;       /* 2^scale vertices */
  unsigned edge_factor; /* edges generated = edge_factor * 2^scale, before duplicates and
                           self-loops are dropped (default 16) */
  uint64_t seed;        /* the same options and seed give the same graph, whatever the threads */
  double a, b, c;       /* quadrant probabilities in [0, 1], a + b + c <= 1 (d = 1 - a - b - c):
                           kron 0.57, 0.19, 0.19 (Graph500); rmat 0.45, 0.15, 0.15 */
  int permute;          /* renumber the vertices by a random permutation (kron 1, rmat 0) */
  /* The other kinds' (docs/gen.md); kron and rmat ignore them. */
  uint64_t vertices;     /* n, 2..WARPMATCH_GEN_MAX_VERTICES (all but grid) */
  double mean_degree;    /* chung-lu: the mean (> 0, default 16); hub: the tail's (default 4) */
  double exponent;       /* chung-lu: P(deg = k) ~ k^-exponent, 2.1..3.5 (default 2.5) */
  unsigned attach;       /* ba: edges each new vertex attaches, 1..n-1 (default 8) */
  double hub_fraction;   /* hub: share of the others joined to vertex 0, [0, 1] (default 0.5) */
  uint64_t communities;  /* sbm: equal communities, 1..n/2 (default 16) */
  double degree_in;      /* sbm: mean degree inside a community (default 16) */
  double degree_out;     /* sbm: mean degree across communities (default 2) */
  unsigned degree;       /* regular: the degree, 1..n-1, n x degree even (default 16) */
  uint64_t width, height; /* grid: the lattice (default as square as 2^scale allows) */
  double shortcuts;      /* grid: random extra edges as a share of the lattice's, [0, 1] (default 0) */
} warpmatch_gen_options;
/* The defaults of `kind` (an unknown kind gets zeros, which
 * warpmatch_generate refuses).  For the kinds after rmat, scale gives the
 * default vertices 2^scale (0: none, to be set). */
void warpmatch_gen_options_init(warpmatch_gen_options *o, int kind, unsigned scale, uint64_t seed);
/* A symmetric simple graph (self-loops and duplicate edges dropped), its
 * vertices 0..2^scale-1 (the other kinds: 0..vertices-1, grid
 * 0..width x height-1).  An unknown kind or a value outside its range is
 * WARPMATCH_EUSAGE naming the range. */
int warpmatch_generate(warpmatch_context *ctx, const warpmatch_gen_options *o, warpmatch_graph **out);
/* The edges warpmatch_generate draws for o before self-loops and duplicates
 * are dropped (kron, rmat: edge_factor x 2^scale; regular: vertices x
 * degree / 2; ...): the graph's edges subtracted from it are the dropped
 * ones.  Options it would refuse are refused the same way. */
int warpmatch_gen_edges_drawn(warpmatch_context *ctx, const warpmatch_gen_options *o, uint64_t *drawn);

/* A graph's properties (warpmatch_graph_flags), or'd. */
enum {
  WARPMATCH_GRAPH_DIRECTED = 1,   /* arcs as given (an oriented graph is directed too) */
  WARPMATCH_GRAPH_RELABELLED = 2, /* indices renumbered by descending degree */
  WARPMATCH_GRAPH_ORIENTED = 4    /* each edge kept once, from lower to higher (degree, index): a DAG */
};
unsigned warpmatch_graph_flags(const warpmatch_graph *g);

/* warpmatch_graph_rewrite's `how`, or'd (relabelling first). */
enum { WARPMATCH_REWRITE_RELABEL_DEGREE = 1, WARPMATCH_REWRITE_ORIENT = 2 };
/* A new graph: g renumbered by descending degree (ties by index) and/or
 * oriented (the input symmetric: a directed or oriented one is
 * WARPMATCH_EINPUT); g is untouched.  Its indices are new, but each keeps
 * its vertex's id in the input (warpmatch_graph_id, _find and a label file
 * still speak the input's ids).  No bit, or an unknown one, is
 * WARPMATCH_EUSAGE. */
int warpmatch_graph_rewrite(warpmatch_context *ctx, const warpmatch_graph *g, unsigned how, warpmatch_graph **out);
/* Writes g as .wmg (its indices, ids and flags: loading the file gives the
 * same graph).  The file appears whole or not at all: written under a
 * temporary name beside it, synced, renamed (a symlink's target is written
 * so; a character device or FIFO is written in place; a directory is
 * refused).  On failure nothing is left behind. */
int warpmatch_graph_save(warpmatch_context *ctx, const warpmatch_graph *g, const char *path);

/* ---- catalogue --------------------------------------------------------- */

/* The i-th name of the pattern catalogue (one per connected graph on 3, 4
 * and 5 vertices, by vertices then edges), NULL past the end.  The families
 * (K-clique, K-cycle, K-path, K-star up to 8 vertices) and aliases resolve
 * too (warpmatch_pattern_create). */
const char *warpmatch_catalogue_name(unsigned i);
/* The size of p's automorphism group (the permutations keeping its edges
 * and labels). */
int warpmatch_pattern_automorphisms(warpmatch_context *ctx, const warpmatch_pattern *p, uint64_t *count);

/* ---- the program around the library ------------------------------------ */

/* Whether the library's long phases (loading a big text graph,
 * generating, matching, motifs) may show their progress line on stderr:
 * 0 (the default) never; 1 as the environment's WM_PROGRESS says (1: every
 * update a line, 0: none), else when stderr is a terminal.  Process-wide:
 * for a program that owns its terminal, not for a library user. */
void warpmatch_set_progress(int show);
/* Removes every temporary the library is writing (a .wmg being saved, a
 * text graph's cache), with async-signal-safe calls only: for a program's
 * SIGINT/SIGTERM handler (the library installs none). */
void warpmatch_remove_temporaries(void);

/* The numeric fields of warpmatch_match_options that a command line sets
 * one for one (gpus, gpu_chunk, gpu_unroll, ...), i = 0..count-1. */
typedef struct warpmatch_option_info {
  size_t size;        /* sizeof(warpmatch_option_info), set by the caller */
  const char *field;  /* the struct's field ("gpu_unroll") */
  const char *option; /* the program's --option ("unroll") */
  long long lo, hi;   /* the range of a value other than 0, the default */
} warpmatch_option_info;
unsigned warpmatch_match_option_count(void);
/* WARPMATCH_EUSAGE for i >= the count, a NULL out or its size not set. */
int warpmatch_match_option_info(unsigned i, warpmatch_option_info *out);
/* Sets option i of o to v: 0 (the default) or lo..hi, else WARPMATCH_EUSAGE
 * naming the field and its range. */
int warpmatch_match_option_set(warpmatch_context *ctx, warpmatch_match_options *o, unsigned i, long long v);

/* The i-th of this header's limits as the library was built with them:
 * its #define's name ("WARPMATCH_MAX_THREADS") and *value, for bindings
 * that read them rather than mirror them; NULL past the end. */
const char *warpmatch_limit(unsigned i, long long *value);

#ifdef __cplusplus
}
#endif
#endif
