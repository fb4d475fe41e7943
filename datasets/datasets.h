/* datasets: graph input and output, preprocessing and generators.
 *
 * The graph is CSR with 32-bit vertex ids and 64-bit edge offsets; each
 * adjacency row is sorted ascending with no duplicates and no self-loops.
 * The struct is plain data (no hidden state) so that the arrays can be
 * copied to a GPU as they are; create/destroy it only through this API. */
#ifndef WM_DATASETS_H
#define WM_DATASETS_H

#include <stddef.h>
#include <stdint.h>

#include "wm_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest vertex id a file may use: 2^32 - 2 (2^32 - 1 is WM_NO_VERTEX). */
#define WM_MAX_VERTEX_ID 0xFFFFFFFEu
#define WM_NO_VERTEX 0xFFFFFFFFu

enum wm_graph_flags {
  WM_GRAPH_DIRECTED = 1u << 0,      /* arcs as given; otherwise symmetric */
  WM_GRAPH_DEGREE_SORTED = 1u << 1, /* ids relabelled by descending degree */
  WM_GRAPH_ORIENTED = 1u << 2,      /* DAG: u->v iff (deg u, u) < (deg v, v) */
};

typedef struct wm_graph {
  uint32_t n;         /* vertices */
  uint32_t flags;     /* wm_graph_flags */
  uint64_t m;         /* arcs stored (2 x undirected edges when symmetric) */
  uint64_t *offsets;  /* n + 1 entries; row v is adj[offsets[v] .. offsets[v+1]) */
  uint32_t *adj;      /* m entries, each row sorted ascending */
  uint32_t *orig_ids; /* file id of internal vertex v, or NULL when identical */
  const uint32_t *index_of; /* a renumbered copy: v's index in the graph it was made from, for
                             * messages (not owned), or NULL when identical */
} wm_graph;

/* v's index as the caller numbers it (a renumbered copy's index_of). */
static inline uint32_t wm_graph_index(const wm_graph *g, uint32_t v) {
  return g->index_of && v < g->n ? g->index_of[v] : v;
}

static inline uint64_t wm_degree(const wm_graph *g, uint32_t v) {
  return g->offsets[v + 1] - g->offsets[v];
}

/* The first position of row u whose vertex is not below v (the arc u->v's
 * index where the row holds v), by binary search (rows are sorted). */
static inline uint64_t wm_graph_arc_at(const wm_graph *g, uint32_t u, uint32_t v) {
  uint64_t lo = g->offsets[u], hi = g->offsets[u + 1];
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (g->adj[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* Whether row u holds v. */
static inline int wm_graph_has_arc(const wm_graph *g, uint32_t u, uint32_t v) {
  const uint64_t at = wm_graph_arc_at(g, u, v);
  return at < g->offsets[u + 1] && g->adj[at] == v;
}

/* The triangles w < u < v on the arc v->u at index i of v's row: the
 * common ids of v's row before i and u's row below u.  Writes w's index
 * in v's row to ia and in u's row to ib; returns how many. */
static inline uint64_t wm_graph_triangles_below(const wm_graph *g, uint32_t v, uint64_t i, uint32_t u, uint32_t *ia,
                                                uint32_t *ib) {
  const uint32_t *rv = g->adj + g->offsets[v], *ru = g->adj + g->offsets[u];
  const uint64_t nu = wm_graph_arc_at(g, u, u) - g->offsets[u];
  uint64_t a = 0, b = 0, found = 0;
  while (a < i && b < nu) {
    if (rv[a] < ru[b]) a++;
    else if (rv[a] > ru[b]) b++;
    else ia[found] = (uint32_t)a++, ib[found++] = (uint32_t)b++;
  }
  return found;
}

/* Undirected edges for a symmetric graph, arcs for a directed one. */
uint64_t wm_graph_edges(const wm_graph *g);

/* Allocates a graph with room for n vertices and m arcs (offsets zeroed,
 * orig_ids NULL).  Returns NULL when out of memory. */
wm_graph *wm_graph_create(uint32_t n, uint64_t m);
void wm_graph_destroy(wm_graph *g);

/* File id of internal vertex v, and the reverse look-up (binary search over
 * orig_ids, which is ascending); WM_NO_VERTEX when the file has no such id.
 * After wm_graph_relabel_by_degree orig_ids is a permutation instead and the
 * look-up scans it (O(n): meant for command-line arguments). */
uint32_t wm_graph_file_id(const wm_graph *g, uint32_t v);
uint32_t wm_graph_internal_id(const wm_graph *g, uint64_t file_id);

/* ---- building ------------------------------------------------------- */

/* Builds a CSR graph from arcs (src[i], dst[i]) given in file ids.
 * Drops self-loops and duplicates; symmetrises unless `directed`.  When
 * `n_hint` is non-zero ids are taken as 0..n_hint-1 (Matrix Market: the
 * header fixes n and isolated vertices count); otherwise the ids that
 * occur are compacted, keeping their order, and orig_ids is set unless they
 * are already 0..n-1.  The arrays are consumed (may be reused as scratch). */
int wm_graph_from_arcs(uint32_t *src, uint32_t *dst, uint64_t count, uint64_t n_hint,
                       int directed, wm_graph **out, wm_error *err);

/* ---- preprocessing (each returns a new graph; the input is untouched) -- */

/* Relabels vertices by descending degree (ties by id); orig_ids follow. */
int wm_graph_relabel_by_degree(const wm_graph *g, wm_graph **out, wm_error *err);
/* The same; *old_of (n entries, malloc'd, or NULL when not wanted) gets for
 * each new vertex the vertex of g it was, to map results and per-vertex
 * data between the two numberings. */
int wm_graph_relabel_by_degree_map(const wm_graph *g, wm_graph **out, uint32_t **old_of, wm_error *err);
/* Keeps arc u->v iff (deg u, u) < (deg v, v): a DAG whose out-degrees are
 * bounded by O(sqrt m), used by clique plans.  The input must be symmetric
 * (not DIRECTED, not ORIENTED: WM_EINPUT otherwise); the result has m/2 arcs
 * and flags ORIENTED | DIRECTED, so wm_graph_edges is unchanged. */
int wm_graph_orient_by_degree(const wm_graph *g, wm_graph **out, wm_error *err);

/* ---- statistics ----------------------------------------------------- */

typedef struct wm_degree_stats {
  uint64_t max_degree;
  uint64_t min_degree;
  double mean_degree;
  uint64_t median_degree;
  uint64_t p99_degree;
  uint64_t isolated;     /* vertices of degree 0 */
  uint64_t degree_sum;   /* = m */
} wm_degree_stats;

void wm_graph_degree_stats(const wm_graph *g, wm_degree_stats *st);
/* g's largest degree alone (out-degree when directed), without the rest. */
uint64_t wm_graph_max_degree(const wm_graph *g);

/* ---- files ---------------------------------------------------------- */

typedef enum wm_format {
  WM_FORMAT_AUTO = 0, /* by content: .wmg magic, %%MatrixMarket, else edge list */
  WM_FORMAT_EDGELIST,
  WM_FORMAT_MTX,
  WM_FORMAT_WMG,
} wm_format;

typedef struct wm_load_options {
  wm_format format;
  int directed;       /* keep arcs as given (edge lists); default symmetrise */
  int use_cache;      /* text inputs: reuse / write the .wmg cache (default 1) */
  const char *cache_dir; /* NULL: beside the file (<file>.wmg, or
                            <file>.directed.wmg) when its folder's mode allows
                            writing and it is this user's (or root's) and
                            no one else's to write, else $WARPMATCH_CACHE_DIR, else
                            $XDG_CACHE_HOME/warpmatch, else ~/.cache/warpmatch;
                            non-NULL: that folder.  In a folder the cache is
                            named <basename>.<hash of the absolute path>.wmg.
                            A cache is read only from such a folder, and only
                            when the file is this user's and no one else's
                            to write (graph_load.c); else info->note says so */
  int progress;       /* progress line on stderr (set when stderr is a tty) */
} wm_load_options;

void wm_load_options_init(wm_load_options *o);

/* What a load did, for the summary line and the benchmarks. */
typedef struct wm_load_info {
  wm_format format;      /* the format actually read */
  int from_cache;        /* 1 when a valid .wmg cache was used */
  int cache_written;     /* 1 when a new cache file was written */
  char cache_path[4096]; /* the cache consulted, "" if none */
  double seconds;
  uint64_t bytes;        /* size of the input read */
  char note[1024];       /* one line for the user (a cache not trusted), "" if none */
} wm_load_info;

/* Loads any supported file.  info may be NULL. */
int wm_graph_load(const char *path, const wm_load_options *opt, wm_graph **out,
                  wm_load_info *info, wm_error *err);

/* Readers for one format each (no cache).  Matrix Market ids are 1-based in
 * the file: internal v is file id v+1 (orig_ids is set accordingly).  The
 * .wmg layout is described in wmg_format.c. */
int wm_read_edgelist(const char *path, int directed, int progress, wm_graph **out, wm_error *err);
int wm_read_mtx(const char *path, int directed, int progress, wm_graph **out, wm_error *err);
int wm_read_wmg(const char *path, wm_graph **out, uint64_t *source_key, wm_error *err);

/* Writes the binary format through wm_outfile (support.h): a file appears
 * whole or not at all, a symlink's target is written, a device or FIFO is
 * streamed.  source_key is stored in the header (the cache key; 0 for a
 * plain conversion); a cache (source_key != 0) is written only to a regular
 * file or a new path, with mode 0644 (before the umask), so that it is trusted. */
int wm_write_wmg(const wm_graph *g, const char *path, uint64_t source_key, wm_error *err);

/* Vertex labels for labeled patterns: lines "ID LABEL" (file ids, labels
 * 0..2^31-1), '#' comments; vertices not listed get label 0.  Returns an
 * array of g->n labels indexed by internal id. */
int wm_read_labels(const char *path, const wm_graph *g, int32_t **labels, wm_error *err);

/* ---- generators ----------------------------------------------------- */

/* Largest scale whose vertex ids fit in 32 bits (WM_MAX_VERTEX_ID); the
 * public WARPMATCH_GEN_MAX_SCALE is it (api/ asserts so). */
#define WM_GEN_MAX_SCALE 31u
/* Graph500 uses 16; anything far above this is a typo, not a graph. */
#define WM_GEN_MAX_EDGE_FACTOR (1u << 20)

typedef struct wm_gen_options {
  unsigned scale;       /* n = 2^scale */
  unsigned edge_factor; /* arcs generated = edge_factor * n (default 16) */
  double a, b, c;       /* quadrant probabilities; d = 1 - a - b - c */
  uint64_t seed;
  int permute;          /* random vertex permutation (Kronecker: yes) */
} wm_gen_options;

/* Graph500 Kronecker defaults: A,B,C = 0.57,0.19,0.19, edge factor 16, permuted. */
void wm_gen_kron_defaults(wm_gen_options *o, unsigned scale, uint64_t seed);
/* R-MAT defaults: a,b,c = 0.45,0.15,0.15, edge factor 16, not permuted. */
void wm_gen_rmat_defaults(wm_gen_options *o, unsigned scale, uint64_t seed);
/* Generates a symmetric simple graph, deterministic for given options and
 * independent of the number of threads. */
int wm_generate(const wm_gen_options *o, wm_graph **out, wm_error *err);

/* The other models (gen_*.c, one file each); their numbers are the public
 * WARPMATCH_GEN_* kinds (api/ asserts so). */
enum {
  WM_GEN_CHUNG_LU = 3, /* power-law expected degrees, edges drawn by weight */
  WM_GEN_BA = 4,       /* Barabasi-Albert preferential attachment */
  WM_GEN_HUB = 5,      /* one hub over a sparse uniform tail */
  WM_GEN_SBM = 6,      /* stochastic block model, equal communities */
  WM_GEN_REGULAR = 7,  /* d-regular configuration model */
  WM_GEN_GRID = 8,     /* W x H lattice, optional random shortcuts */
};
/* Largest vertex count: ids 0..n-1 must be at most WM_MAX_VERTEX_ID. */
#define WM_GEN_MAX_VERTICES 4294967295ull
/* Most edges a model may draw: 2^40, past any host's memory at 8 bytes an
 * edge, so a larger request is a typo, not a graph. */
#define WM_GEN_MAX_EDGES (1ull << 40)
/* Chung-Lu's exponent range. */
#define WM_GEN_MIN_EXPONENT 2.1
#define WM_GEN_MAX_EXPONENT 3.5

typedef struct wm_gen_model {
  int model;            /* WM_GEN_CHUNG_LU .. WM_GEN_GRID */
  uint64_t n;           /* vertices (all but grid) */
  uint64_t seed;
  double mean_degree;   /* chung-lu: the mean; hub: the tail's mean */
  double exponent;      /* chung-lu: gamma of P(deg = k) ~ k^-gamma */
  unsigned attach;      /* ba: edges each new vertex attaches */
  double hub_fraction;  /* hub: share of the other vertices joined to the hub */
  uint64_t communities; /* sbm: equal blocks of consecutive ids */
  double degree_in;     /* sbm: mean degree inside a vertex's community */
  double degree_out;    /* sbm: mean degree to the other communities */
  unsigned degree;      /* regular: every vertex's degree before drops */
  uint64_t width, height; /* grid: vertex (x, y) is y * width + x */
  double shortcuts;     /* grid: random extra edges, as a share of the lattice's */
} wm_gen_model;

/* The model's defaults: n vertices (grid: width x height as near square as
 * n's factors of 2 allow when n is a power of 2, else n x 1). */
void wm_gen_model_defaults(wm_gen_model *o, int model, uint64_t n, uint64_t seed);
/* WM_EUSAGE naming the range of the first value outside it. */
int wm_gen_model_check(const wm_gen_model *o, wm_error *err);
/* Edges the model draws (options checked) before self-loops and duplicates are dropped (hub:
 * the tail's plus the expected hub edges); 0 for an unknown model. */
uint64_t wm_gen_model_drawn(const wm_gen_model *o);
/* Generates a symmetric simple graph on vertices 0..n-1, deterministic for
 * given options and independent of the number of threads.  A value outside
 * its model's range is WM_EUSAGE naming the range. */
int wm_generate_model(const wm_gen_model *o, wm_graph **out, wm_error *err);
/* The models, for wm_generate_model (options already checked). */
int wm_gen_chung_lu(const wm_gen_model *o, wm_graph **out, wm_error *err);
int wm_gen_ba(const wm_gen_model *o, wm_graph **out, wm_error *err);
int wm_gen_hub(const wm_gen_model *o, wm_graph **out, wm_error *err);
int wm_gen_sbm(const wm_gen_model *o, wm_graph **out, wm_error *err);
int wm_gen_regular(const wm_gen_model *o, wm_graph **out, wm_error *err);
int wm_gen_grid(const wm_gen_model *o, wm_graph **out, wm_error *err);

/* ---- hashing -------------------------------------------------------- */

/* xxHash64 of a buffer, and of a whole file (streamed). */
uint64_t wm_hash64(const void *data, size_t len, uint64_t seed);
int wm_hash_file(const char *path, uint64_t seed, uint64_t *out, uint64_t *bytes, wm_error *err);

#ifdef __cplusplus
}
#endif
#endif
