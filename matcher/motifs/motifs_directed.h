/* Directed motifs: vertex-induced counts of every directed class of 3 or 4
 * vertices (16 and 218 classes, 13 and 199 of them weakly connected),
 * mutual arcs included, in igraph's isoclass numbering.
 *
 * A class is held as an arc code: on k vertices, arc i->j is bit
 * i*(k-1) + (j < i ? j : j - 1) (6 bits for k = 3, 12 for k = 4).  The
 * rows of a size are its classes in a fixed order: size 3 in the triad
 * census's order (003, 012, 102, 021D, ... 300), size 4 by igraph id.
 *
 * Counting: size 3 by Batagelj and Mrvar's triad census over the
 * undirected skeleton (O(m * max degree)), 003 as C(n,3) less the rest;
 * size 4's connected classes from the skeleton's 3-edge paths and, for the
 * stars, a relation over each vertex's neighbour triples (directed_paths.c),
 * or by enumerating the connected 4-sets once each (ESU, OpenMP over the
 * smallest vertex), the disconnected classes from the census, the dyads
 * and C(n,4) by the relations in directed_count.c. */
#ifndef WM_MOTIFS_DIRECTED_H
#define WM_MOTIFS_DIRECTED_H

#include <stdint.h>

#include "datasets.h"
#include "exact_count.h"
#include "wm_error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WM_DIR_ROWS3 16
#define WM_DIR_ROWS4 218
#define WM_DIR_MAX_ROWS WM_DIR_ROWS4

typedef struct wm_dir_class {
  unsigned igraph_id; /* igraph's isoclass id (Graph.Isoclass(k, id, directed=True)) */
  unsigned code;      /* the arcs of igraph's representative graph of the class */
  const char *man;    /* size 3: the MAN code as networkx's triadic_census names it; NULL for 4 */
  int connected;      /* weakly connected */
} wm_dir_class;

/* 16 or 218 for k = 3 or 4, else 0. */
unsigned wm_dir_rows(unsigned k);
/* Row r of size k (r < wm_dir_rows(k)). */
const wm_dir_class *wm_dir_class_row(unsigned k, unsigned r);
/* The row of the class of arc code `code` on k vertices. */
unsigned wm_dir_row_of(unsigned k, unsigned code);
/* The bit of arc i->j on k vertices. */
static inline unsigned wm_dir_arc_bit(unsigned k, unsigned i, unsigned j) { return i * (k - 1) + (j < i ? j : j - 1); }
/* The class tables built from the committed representatives: WM_EINPUT
 * (an internal error) when two representatives are isomorphic or some
 * code has no class, which would make every count wrong. */
int wm_dir_tables_check(wm_error *err);
/* "0->1 1->0 2->0": the arcs of code on k vertices, ascending (i, j). */
void wm_dir_arcs_string(unsigned k, unsigned code, char *buf, unsigned size);

/* counts[r] = the vertex-induced count of row r of size k (3 or 4) in the
 * directed graph g, every row (the disconnected ones too when all, else
 * those left 0).  Size 4's connected classes by their paths and the stars'
 * relation, or with enumerate every connected 4-set one by one (the
 * cross-check).  CPU threads: OpenMP's default.  *how gets a static
 * description of the method. */
int wm_motifs_directed(const wm_graph *g, unsigned k, int all, int enumerate, wm_u128 *counts, const char **how,
                       wm_error *err);

/* wm_motifs_directed with the device's say: gpus > 0 puts the triad census
 * (size 3, and size 4's when all) and size 4's 3-edge paths on that many
 * GPUs (WM_EDEVICE without one); what is left (003, the stars, the
 * disconnected classes, the enumeration) stays on the host.  Size 4's
 * enumeration is the CPU's: gpus is then ignored for it. */
typedef struct wm_dir_run {
  int all, enumerate, gpus; /* in */
  int on_gpu;               /* out: whether the GPU counted */
  double kernel_ms;         /* out: the GPUs' kernel time (the slowest device's, summed over launches) */
  const char *how;          /* out: a static description of the method */
} wm_dir_run;
int wm_motifs_directed_run(const wm_graph *g, unsigned k, wm_dir_run *run, wm_u128 *counts, wm_error *err);

#ifdef __cplusplus
}
#endif

#endif
