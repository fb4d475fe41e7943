/* Helpers shared by the Criterion suites. */
#ifndef WM_TESTUTIL_H
#define WM_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>

#include "datasets.h"
#include "matcher.h"
#include "planner.h"

/* Runs the warpmatch program with the given arguments (a shell word list,
 * printf-style); captures stdout (and stderr, separately) into malloc'd
 * strings the caller frees (either pointer may be NULL).  Returns the exit
 * code, or -1 when it died by a signal. */
int wm_test_run(char **out, char **errout, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The same with stdout sent to stdout_path (e.g. /dev/full). */
int wm_test_run_to(const char *stdout_path, char **errout, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A fresh temporary directory (removed by wm_test_rmdir). */
void wm_test_tmpdir(char *buf, size_t size);
void wm_test_rmdir(const char *dir);
/* Writes text to dir/name and returns the full path in buf. */
void wm_test_write(char *buf, size_t size, const char *dir, const char *name, const char *text);
/* A fresh temporary directory holding one graph file, dir/g.txt. */
typedef struct wm_test_files {
  char dir[256], graph[512];
} wm_test_files;
void wm_test_graph_file(wm_test_files *f, const char *text);
/* The edge list of a k-clique on file ids first, first + step, ... */
void wm_test_clique_text(char *buf, size_t size, unsigned k, unsigned first, unsigned step);

/* text's lines, split in place and sorted (list's lines come in no fixed
 * order: docs/list.md); *n gets their number.  A malloc'd array into text. */
char **wm_test_sorted_lines(char *text, size_t *n);

/* Path of a real graph in datasets/real, e.g. "facebook_combined.txt"
 * (fails the test if it is missing). */
void wm_test_real_graph(char *buf, size_t size, const char *file);
/* Path of a pattern file under patterns/, e.g. "stmatch/p1.txt" (fails the
 * test if it is missing). */
void wm_test_pattern_file(char *buf, size_t size, const char *file);
/* STMatch's query pattern n (1..24), patterns/stmatch/pN.txt. */
wm_pattern wm_test_stmatch_pattern(unsigned n);
/* A real graph loaded, without writing a cache beside the file. */
wm_graph *wm_test_load_real(const char *file);

/* p planned with its matching order forced to `order` (the suite fails
 * where it cannot be). */
wm_plan wm_test_forced_plan(const wm_pattern *p, const wm_graph_summary *gs, const uint8_t *order);
/* The same, planned for the GPU (wm_plan_options.first_edge_up, as count plans it). */
wm_plan wm_test_forced_gpu_plan(const wm_pattern *p, const wm_graph_summary *gs, const uint8_t *order);

/* Small random symmetric simple graphs for oracle tests, deterministic by seed:
 * Erdos-Renyi G(n, p), and a power-law graph with `hubs` hub vertices each
 * joined to about hub_frac of the others. */
wm_graph *wm_test_er(uint32_t n, double p, uint64_t seed);
/* The symmetric graph of vertices 0..n-1 (isolated ones kept) and the cnt
 * edges src[i]-dst[i]; takes and frees both malloc'd arrays. */
wm_graph *wm_test_graph_of_arcs(uint32_t n, uint32_t *src, uint32_t *dst, uint64_t cnt);
/* Vertex 0 joined to each other vertex with probability p_hub, the others
 * G(n - 1, p): a hub over most of the graph, as on heavy-tailed graphs. */
wm_graph *wm_test_hub_graph(uint32_t n, double p_hub, double p, uint64_t seed);
/* fn(v, ctx) for every 5 vertices v[0] < ... < v[4] of g: the brute-force
 * oracles' walk. */
void wm_test_each_5_subset(const wm_graph *g, void (*fn)(const uint32_t *v, void *ctx), void *ctx);
wm_graph *wm_test_powerlaw(uint32_t n, double avg_degree, uint32_t hubs, double hub_frac, uint64_t seed);
/* The Graph500 Kronecker graph of 2^scale vertices (the generator's
 * defaults, seed given; fails the test if generating fails). */
wm_graph *wm_test_kron(unsigned scale, uint64_t seed);
/* g renumbered by descending degree (fails the test if that fails). */
wm_graph *wm_test_by_degree(const wm_graph *g);
/* Seconds of the monotonic clock; a sleep of ms milliseconds. */
double wm_test_now(void);
void wm_test_pause_ms(long ms);
/* Vertex i joined to i+1 .. i+k (mod n): arcs that way when directed, else
 * the symmetric ring lattice (degree 2k, 3n triangles for k = 3). */
wm_graph *wm_test_ring(uint32_t n, uint32_t k, int directed);
/* r a randomisation of g: the same out- and in-degree everywhere, rows
 * strictly ascending (no multi-edge), in range, no loop; symmetric graphs
 * stay symmetric (fails the test otherwise). */
void wm_test_assert_randomized(const wm_graph *g, const wm_graph *r);
/* Triangles of the symmetric closure (directions ignored), by brute force
 * over a dense adjacency matrix: small graphs only. */
uint64_t wm_test_triangles(const wm_graph *g);
/* The same vertices and rows. */
int wm_test_same_graph(const wm_graph *a, const wm_graph *b);
/* w through the public API, ids 0..n-1: its arcs when directed, else each
 * edge once (fails the test if the library refuses it). */
struct warpmatch_context;
struct warpmatch_graph;
struct warpmatch_graph *wm_test_api_graph(struct warpmatch_context *ctx, const wm_graph *w, int directed);
/* warpmatch_count_ex with o, its result sized and returned (fails the test
 * where the call does, naming the library's message). */
struct warpmatch_pattern;
struct warpmatch_match_options;
struct warpmatch_match_result;
struct warpmatch_match_result wm_test_count(struct warpmatch_context *ctx, const struct warpmatch_graph *g,
                                            const struct warpmatch_pattern *p,
                                            const struct warpmatch_match_options *o);

/* Plans catalogue pattern `name` for g (NULL: the planner's default
 * statistics) with the given semantics; fails the test if planning fails. */
void wm_test_plan(const wm_graph *g, const char *name, int induced, int code_motion, int count_only,
                  wm_plan *out);

/* splitmix64 step, for deterministic test randomness. */
uint64_t wm_test_rand(uint64_t *state);

/* A wm_share (matcher.h) for process `process` of `processes` run one
 * after another by the test, not at once: of every loop's items (or
 * windows) it takes p, p + processes, p + 2 * processes, ..., and its sums
 * are its own, so that the processes' answers add up to the whole. */
typedef struct wm_test_deal {
  wm_share share;
  uint64_t taken[64]; /* grabs so far, per loop */
  unsigned next;      /* the next loop id */
} wm_test_deal;
void wm_test_deal_init(wm_test_deal *d, int processes, int process);

#endif
