/* The aggregates behind the motif formulas: sums over the vertices, the
 * edges, the triangles and the 4-cycles of a graph, from which every
 * edge-induced count of a 3-, 4- or 5-vertex pattern that cuts into
 * stars, triangles, 4-cycles and 4-cliques at a vertex or an edge is a
 * short linear formula (ESCAPE's cuts; motif_formulas.c); and, for the
 * 5-vertex patterns that do not cut so, sums over the lists of common
 * neighbours of pairs below a top (the 5-cycle, K2,3, W4, W4 less a
 * spoke) and the 5-clique count.  Both executors fill the same sums; the
 * CPU's are the oracle for the GPU's.
 *
 * Notation: d_v degree, t_v triangles at v, t_e triangles on edge e,
 * s_v = sum over v's neighbours a of (d_a - 1), k4_T the common neighbours
 * of triangle T (the 4-cliques on it), c4 the 4-cycles. */
#ifndef WM_MOTIF_SUMS_H
#define WM_MOTIF_SUMS_H

#include "datasets.h"
#include "exact_count.h"
#include "matcher.h"
#include "wm_error.h"

#ifdef __cplusplus
extern "C" {
#endif

enum wm_motif_sum {
  /* over the vertices */
  WM_SUM_D2,      /* sum C(d_v, 2): wedges */
  WM_SUM_D3,      /* sum C(d_v, 3) */
  WM_SUM_D4,      /* sum C(d_v, 4) */
  WM_SUM_PAW,     /* sum t_v (d_v - 2) */
  WM_SUM_FORK,    /* sum C(d_v - 1, 2) s_v */
  WM_SUM_S2,      /* sum s_v^2 */
  WM_SUM_DDD,     /* sum d_v (d_v - 1)^2 */
  WM_SUM_CRICKET, /* sum t_v C(d_v - 2, 2) */
  WM_SUM_LTT,     /* sum t_v (s_v - 2 d_v + 2) */
  WM_SUM_BOWTIE,  /* sum C(t_v, 2) */
  WM_SUM_DART,    /* sum (d_v - 3) * (sum over v's edges e of C(t_e, 2)) */
  /* over the edges uv */
  WM_SUM_T3,      /* sum t_e = 3 * triangles */
  WM_SUM_P4,      /* sum (d_u - 1)(d_v - 1) */
  WM_SUM_DIAMOND, /* sum C(t_e, 2) */
  WM_SUM_TD,      /* sum t_e (d_u + d_v - 2) */
  WM_SUM_BULL,    /* sum t_e ((d_u - 2)(d_v - 2) - t_e + 1) */
  WM_SUM_BOOK,    /* sum C(t_e, 3) */
  /* over the 4-cycles (each counted once from its lowest id) */
  WM_SUM_PATHS,   /* paths u-v-w with v, w > u: the 4-cycle pass's work */
  WM_SUM_C4,      /* 4-cycles */
  WM_SUM_BANNER,  /* sum over vertices of c4_v (d_v - 2) */
  WM_SUM_HOUSE,   /* sum over edges of c4_e t_e */
  /* over the lists of common neighbours of pairs below a top (size 5) */
  WM_SUM_K23,     /* K2,3 */
  WM_SUM_W4,      /* W4 */
  WM_SUM_W4S,     /* W4 less a spoke */
  WM_SUM_C5,      /* 5-cycles */
  /* over the triangles T = {a, b, c} */
  WM_SUM_K4X4,    /* sum k4_T = 4 * 4-cliques */
  WM_SUM_K5E,     /* sum C(k4_T, 2) */
  WM_SUM_KITE,    /* sum over T's vertices p of (d_p - 2)(t of the edge opposite p - 1) */
  WM_SUM_GEM,     /* sum over T's vertices h of (t_hb - 1)(t_hc - 1) */
  WM_SUM_T4C,     /* sum k4_T (d_a + d_b + d_c - 9) */
  WM_SUM_HOUSEX,  /* sum k4_T (t_ab + t_bc + t_ca - 6) */
  WM_SUM_K5,      /* 5-cliques */
  WM_SUM_COUNT
};

/* Which passes a size needs: 3 the vertices only, 4 adds the edges'
 * triangles and the 4-cycles, 5 adds the sums over 4-cycles and pair lists
 * and the triangles' 4-cliques (the sums a size does not need stay 0). */
enum { WM_MOTIF_PASSES = 5 };

typedef struct wm_motif_sums {
  unsigned k;
  wm_i128 s[WM_SUM_COUNT];
  double seconds;         /* wall time of all the passes */
  double pass_seconds[WM_MOTIF_PASSES]; /* triangles per edge, vertex and edge sums, 4-cycles,
                             pair lists, 4-cliques per triangle (size 4: per edge);
                             the CPU does pass 3
                             (4-cycles, pair lists, 5-cycles) top by top and counts it
                             all under 4-cycles, the GPU the 5-cycles' triangle term
                             with the triangles per edge; over several GPUs, the
                             slowest device's, the pair lists under 4-cycles too */
  int k4_counted;         /* K4X4 holds 4 x the 4-cliques (size 5; size 4 unless skip_k4) */
  int gpus;               /* GPU: the devices the passes ran on */
  char gpu_note[96];      /* GPU: why one device ran where several were asked, or "" */
} wm_motif_sums;

/* Fills the sums that size k (3..5) needs over the whole symmetric graph g
 * with `threads` OpenMP threads (0: all); for size 4 also the 4-cliques
 * (pass 4, per edge), unless skip_k4.  Any order of ids is correct; the
 * passes orient edges from higher to lower id, so a graph renumbered by
 * descending degree (wm_graph_relabel_by_degree) bounds their work by the
 * degeneracy.  WM_EINPUT when a sum passes 2^127 (reported, never
 * wrapped) or memory runs out. */
int wm_motif_sums_cpu(const wm_graph *g, unsigned k, int threads, int skip_k4, wm_motif_sums *out, wm_error *err);
/* The same, the passes' tops shared with other processes (share may be
 * NULL): every process returns the sums over all tops. */
int wm_motif_sums_cpu_shared(const wm_graph *g, unsigned k, int threads, int skip_k4, const wm_share *share,
                             wm_motif_sums *out, wm_error *err);

/* How the GPU's motif aggregates size themselves; zero fields take the
 * defaults.  Tests shrink them to force many chunks and the per-kernel
 * scratch layouts. */
typedef struct wm_motif_gpu_policy {
  unsigned warps;         /* concurrent warps at most (0: all the device runs) */
  uint64_t list_room;     /* pair-list entries per chunk (0: from the free memory) */
  uint64_t scratch_words; /* per-vertex scratch (0: 75% of the free memory) */
  int gpus;               /* devices 0..gpus-1 share the passes (0 or 1: the current one);
                             one where some device has no peer atomics to device 0 */
  uint64_t heavy_paths;   /* tops of more paths than this are swept by a block each (0: on
                             one device the paths per warp, between 256 and 32,768;
                             shared by devices or processes 32,768) */
  const struct wm_gpu_graph *graph; /* g already on the devices (matcher.h), or NULL */
  int skip_k4;            /* size 4: leave the 4-cliques out (a plan counts them) */
  const wm_share *share;  /* processes sharing passes 2-4 (matcher.h), one device each, or
                             NULL; the sums come back added over the processes */
} wm_motif_gpu_policy;

/* The same sums on the GPU, for sizes 4 and 5 (size 3 needs degrees only).
 * Each warp keeps up to 5 words per vertex of scratch; where that does not
 * fit every warp, each kernel keeps only the arrays it uses, over as many
 * warps as fit.  Size 5 keeps the lists of common neighbours of all tops
 * at once where 70% of the remaining free memory holds them, else in
 * chunks of tops.  On one device alone, passes 1 and 2 run on a second
 * stream beside the plan of the tops and pass 3.  policy may be NULL.
 * pass_seconds are each pass's kernels by CUDA events (they overlap where
 * the passes do), and kernel_ms (or NULL) the span from the first pass's
 * start to the last one's end (several devices: the slowest device's,
 * whose passes run one after another).  WM_EDEVICE without a
 * device, on a CUDA error, or when one warp's scratch or one top's lists
 * do not fit. */
int wm_motif_sums_gpu(const wm_graph *g, unsigned k, const wm_motif_gpu_policy *policy, wm_motif_sums *out,
                      double *kernel_ms, wm_error *err);

#ifdef __cplusplus
}
#endif
#endif
