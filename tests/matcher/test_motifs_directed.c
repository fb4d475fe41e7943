/* Directed motifs (warpmatch_motifs_directed) against brute force: every
 * 3- and 4-subset of small random directed graphs (mutual arcs, isolated
 * vertices, a hub) classified by this file's own canonical form (the
 * least arc code over every relabelling), tallied by class and compared
 * with the library's rows, connected and disconnected; the class tables
 * (13/16 and 199/218 classes, igraph ids 0..15 and 0..217 once each, every
 * arc code in the class of its row); counts past 2^64; and the calls'
 * refusals (size, an undirected graph, a device or GPU count out of
 * range, the GPU where there is none). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "exact_count.h"
#include "motifs_directed.h"
#include "testutil.h"
#include "warpmatch.h"

/* ---- the test's own classification ----------------------------------- */

static unsigned bit(unsigned k, unsigned i, unsigned j) { return i * (k - 1) + (j < i ? j : j - 1); }

/* The least code over the k! relabellings (Heap-free: all k-tuples). */
static unsigned canon(unsigned k, unsigned code) {
  unsigned best = ~0u, p[4];
  for (unsigned t = 0; t < 256; t++) {
    unsigned used = 0, ok = 1;
    for (unsigned i = 0; i < k; i++) {
      p[i] = t >> (2 * i) & 3;
      ok &= p[i] < k && !(used >> p[i] & 1);
      used |= 1u << p[i];
    }
    if (!ok || (k == 3 && t >> 6)) continue;
    unsigned c = 0;
    for (unsigned i = 0; i < k; i++)
      for (unsigned j = 0; j < k; j++)
        if (i != j && (code >> bit(k, i, j) & 1)) c |= 1u << bit(k, p[i], p[j]);
    if (c < best) best = c;
  }
  return best;
}

/* ---- graphs ------------------------------------------------------------ */

typedef struct dgraph {
  unsigned n;
  uint64_t out[64]; /* out[u] bit v: arc u->v */
} dgraph;

/* n vertices: arcs with probability p, half of them made mutual; vertex 0
 * a hub with arcs to or from most others; the last `isolated` untouched. */
static void random_dgraph(dgraph *d, unsigned n, double p, unsigned isolated, uint64_t seed) {
  memset(d, 0, sizeof *d);
  d->n = n;
  uint64_t st = seed;
  const unsigned live = n - isolated;
  for (unsigned u = 0; u < live; u++)
    for (unsigned v = 0; v < live; v++) {
      if (u == v) continue;
      const double r = (double)(wm_test_rand(&st) >> 11) / 9007199254740992.0;
      if (r < p || (u == 0 && r < 0.8)) {
        d->out[u] |= 1ull << v;
        if (wm_test_rand(&st) & 1) d->out[v] |= 1ull << u;
      }
    }
}

static warpmatch_graph *api_dgraph(warpmatch_context *ctx, const dgraph *d) {
  uint32_t src[64 * 64], dst[64 * 64];
  uint64_t m = 0;
  for (unsigned u = 0; u < d->n; u++)
    for (unsigned v = 0; v < d->n; v++)
      if (d->out[u] >> v & 1) src[m] = u, dst[m++] = v;
  warpmatch_graph *g = NULL;
  cr_assert_eq(warpmatch_graph_from_edges(ctx, d->n, src, dst, m, 1, &g), WARPMATCH_OK, "%s",
               warpmatch_last_error(ctx));
  cr_assert_eq(warpmatch_graph_vertices(g), d->n);
  return g;
}

static unsigned induced(const dgraph *d, unsigned k, const unsigned *pick) {
  unsigned c = 0;
  for (unsigned i = 0; i < k; i++)
    for (unsigned j = 0; j < k; j++)
      if (i != j && (d->out[pick[i]] >> pick[j] & 1)) c |= 1u << bit(k, i, j);
  return c;
}

/* tally[canonical code] over every k-subset. */
static void brute(const dgraph *d, unsigned k, wm_u128 *tally) {
  unsigned pick[4];
  for (pick[0] = 0; pick[0] < d->n; pick[0]++)
    for (pick[1] = pick[0] + 1; pick[1] < d->n; pick[1]++)
      for (pick[2] = pick[1] + 1; pick[2] < d->n; pick[2]++) {
        if (k == 3) {
          tally[canon(3, induced(d, 3, pick))]++;
          continue;
        }
        for (pick[3] = pick[2] + 1; pick[3] < d->n; pick[3]++) tally[canon(4, induced(d, 4, pick))]++;
      }
}

/* The arc code of a row's "arcs" text ("0->1 2->0"). */
static unsigned code_of_arcs(unsigned k, const char *arcs) {
  unsigned c = 0, i, j;
  int used;
  while (sscanf(arcs, " %u->%u%n", &i, &j, &used) == 2) c |= 1u << bit(k, i, j), arcs += used;
  return c;
}

static wm_u128 count_of(const warpmatch_directed_motif *m) { return (wm_u128)m->count_high << 64 | m->count; }

static void check_graph_by(const dgraph *d, unsigned k, int all, int method) {
  warpmatch_context *ctx = NULL;
  cr_assert_eq(warpmatch_context_create(&ctx), WARPMATCH_OK);
  warpmatch_set_threads(ctx, 2);
  warpmatch_graph *g = api_dgraph(ctx, d);
  static wm_u128 tally[1u << 12];
  memset(tally, 0, sizeof tally);
  brute(d, k, tally);
  warpmatch_directed_motif rows[WM_DIR_ROWS4];
  warpmatch_directed_motif_options o;
  warpmatch_directed_motif_options_init(&o);
  o.all_classes = all;
  o.method = method;
  o.device = WARPMATCH_DEVICE_CPU; /* the oracle; test_gpu_motifs_directed holds the GPU to it */
  warpmatch_directed_motif_result r = {.size = sizeof r};
  cr_assert_eq(warpmatch_motifs_directed(ctx, g, k, &o, rows, &r), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  cr_assert_eq(r.classes, warpmatch_motif_classes_directed(k, !all));
  cr_assert_eq(r.device, WARPMATCH_DEVICE_CPU);
  wm_u128 sum = 0, nonzero = 0;
  for (unsigned i = 0; i < r.classes; i++) {
    const unsigned c = canon(k, code_of_arcs(k, rows[i].arcs));
    cr_assert_eq(count_of(&rows[i]), tally[c], "size %u, %s (igraph %u): %llu, brute force %llu", k, rows[i].name,
                 rows[i].igraph_id, (unsigned long long)count_of(&rows[i]), (unsigned long long)tally[c]);
    cr_assert(all || rows[i].connected);
    sum += count_of(&rows[i]), nonzero += tally[c] > 0;
  }
  cr_assert_gt(nonzero, k == 3 ? 8u : 40u, "the graph is too plain to test much (%u classes seen)", (unsigned)nonzero);
  if (all) cr_assert(sum == (k == 3 ? (wm_u128)wm_choose(d->n, 3) : (wm_u128)wm_choose(d->n, 4)));
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

/* Both methods of size 4 (size 3 is the census either way). */
static void check_graph(const dgraph *d, unsigned k, int all) {
  check_graph_by(d, k, all, WARPMATCH_METHOD_AUTO);
  check_graph_by(d, k, all, WARPMATCH_METHOD_ENUMERATE);
}

Test(motifs_directed, size3_against_brute_force) {
  dgraph d;
  for (uint64_t seed = 1; seed <= 4; seed++) {
    random_dgraph(&d, 40, 0.08 + 0.04 * (double)seed, 3, seed);
    check_graph(&d, 3, 1);
    check_graph(&d, 3, 0);
  }
}

Test(motifs_directed, size4_against_brute_force) {
  dgraph d;
  for (uint64_t seed = 1; seed <= 3; seed++) {
    random_dgraph(&d, 30, 0.06 + 0.05 * (double)seed, 2, seed * 77);
    check_graph(&d, 4, 1);
    check_graph(&d, 4, 0);
  }
}

/* Few arcs: the disconnected classes (isolated vertex beside a triad, two
 * disjoint dyads, one dyad, none) carry most of the count. */
Test(motifs_directed, size4_sparse_disconnected_classes) {
  dgraph d;
  random_dgraph(&d, 26, 0.04, 4, 5);
  d.out[0] = 0; /* no hub */
  check_graph(&d, 4, 1);
  check_graph(&d, 3, 1);
}

/* ---- the class tables ------------------------------------------------ */

static void check_tables(unsigned k, unsigned classes, unsigned connected) {
  wm_error err;
  cr_assert_eq(wm_dir_tables_check(&err), WM_OK, "%s", err.msg);
  cr_assert_eq(wm_dir_rows(k), classes);
  cr_assert_eq(warpmatch_motif_classes_directed(k, 0), classes);
  cr_assert_eq(warpmatch_motif_classes_directed(k, 1), connected);
  unsigned *canon_of_row = calloc(classes, sizeof *canon_of_row);
  unsigned seen_ids[256] = {0};
  for (unsigned r = 0; r < classes; r++) {
    const wm_dir_class *c = wm_dir_class_row(k, r);
    cr_assert_lt(c->igraph_id, classes);
    cr_assert_eq(seen_ids[c->igraph_id]++, 0, "igraph id %u twice", c->igraph_id);
    canon_of_row[r] = canon(k, c->code);
    for (unsigned s = 0; s < r; s++) cr_assert_neq(canon_of_row[s], canon_of_row[r], "rows %u and %u isomorphic", s, r);
    cr_assert_eq(k == 3, c->man != NULL);
  }
  for (unsigned code = 0; code < 1u << (k * (k - 1)); code++) {
    const unsigned r = wm_dir_row_of(k, code);
    cr_assert_lt(r, classes);
    cr_assert_eq(canon(k, code), canon_of_row[r], "code %#x in row %u (igraph %u), not its class", code, r,
                 wm_dir_class_row(k, r)->igraph_id);
  }
  free(canon_of_row);
}

Test(motifs_directed, class_tables) {
  check_tables(3, 16, 13);
  check_tables(4, 218, 199);
  cr_assert_eq(warpmatch_motif_classes_directed(5, 0), 0);
  /* the census's names: M, A, N digits = mutual, asymmetric and null dyads */
  for (unsigned r = 0; r < 16; r++) {
    const wm_dir_class *c = wm_dir_class_row(3, r);
    unsigned dy[3] = {0};
    for (unsigned i = 0; i < 3; i++)
      for (unsigned j = i + 1; j < 3; j++) dy[(c->code >> bit(3, i, j) & 1) + (c->code >> bit(3, j, i) & 1)]++;
    cr_assert(c->man[0] - '0' == (int)dy[2] && c->man[1] - '0' == (int)dy[1] && c->man[2] - '0' == (int)dy[0],
              "%s has %u mutual, %u asymmetric, %u null dyads", c->man, dy[2], dy[1], dy[0]);
  }
}

/* ---- exact past 2^64, and refusals ------------------------------------ */

static void big_empty_class(unsigned k, uint32_t n) {
  warpmatch_context *ctx = NULL;
  cr_assert_eq(warpmatch_context_create(&ctx), WARPMATCH_OK);
  const uint32_t src[] = {0, 1, 1, 2, 5, 7}, dst[] = {1, 0, 2, 3, 6, 5};
  warpmatch_graph *g = NULL;
  cr_assert_eq(warpmatch_graph_from_edges(ctx, n, src, dst, 6, 1, &g), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  warpmatch_directed_motif rows[WM_DIR_ROWS4];
  warpmatch_directed_motif_options o;
  warpmatch_directed_motif_options_init(&o);
  o.all_classes = 1;
  cr_assert_eq(warpmatch_motifs_directed(ctx, g, k, &o, rows, NULL), WARPMATCH_OK, "%s", warpmatch_last_error(ctx));
  wm_u128 sum = 0, empty = 0;
  for (unsigned i = 0; i < warpmatch_motif_classes_directed(k, 0); i++) {
    sum += count_of(&rows[i]);
    if (!rows[i].arcs[0]) empty = count_of(&rows[i]);
  }
  const wm_u128 total = (wm_u128)wm_choose(n, k);
  cr_assert(total >> 64, "C(%u,%u) below 2^64: the case tests nothing", n, k);
  cr_assert(sum == total && empty > ((wm_u128)1 << 64));
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
}

Test(motifs_directed, counts_past_2_64) {
  big_empty_class(3, 5000000u); /* C(5e6, 3) = 2.1e19 */
  big_empty_class(4, 160000u);  /* C(1.6e5, 4) = 2.7e19 */
}

Test(motifs_directed, refusals) {
  warpmatch_context *ctx = NULL;
  cr_assert_eq(warpmatch_context_create(&ctx), WARPMATCH_OK);
  const uint32_t src[] = {0, 1, 2}, dst[] = {1, 2, 0};
  warpmatch_graph *und = NULL, *dir = NULL;
  cr_assert_eq(warpmatch_graph_from_edges(ctx, 3, src, dst, 3, 0, &und), WARPMATCH_OK);
  cr_assert_eq(warpmatch_graph_from_edges(ctx, 3, src, dst, 3, 1, &dir), WARPMATCH_OK);
  warpmatch_directed_motif rows[WM_DIR_ROWS4];
  cr_assert_eq(warpmatch_motifs_directed(ctx, und, 3, NULL, rows, NULL), WARPMATCH_EUSAGE);
  cr_assert(strstr(warpmatch_last_error(ctx), "needs a directed graph"), "%s", warpmatch_last_error(ctx));
  cr_assert_eq(warpmatch_motifs_directed(ctx, dir, 5, NULL, rows, NULL), WARPMATCH_EUSAGE);
  cr_assert(strstr(warpmatch_last_error(ctx), "3 or 4"), "%s", warpmatch_last_error(ctx));
  cr_assert_eq(warpmatch_motifs_directed(ctx, dir, 3, NULL, NULL, NULL), WARPMATCH_EUSAGE);
  warpmatch_directed_motif_options o;
  warpmatch_directed_motif_options_init(&o);
  /* the GPU: a device error without one (test_gpu_motifs_directed counts on it) */
  o.device = WARPMATCH_DEVICE_GPU;
  if (!warpmatch_gpu_available(ctx)) {
    cr_assert_eq(warpmatch_motifs_directed(ctx, dir, 3, &o, rows, NULL), WARPMATCH_EDEVICE);
    cr_assert(strstr(warpmatch_last_error(ctx), "no usable CUDA device"), "%s", warpmatch_last_error(ctx));
  }
  o.device = 7;
  cr_assert_eq(warpmatch_motifs_directed(ctx, dir, 3, &o, rows, NULL), WARPMATCH_EUSAGE);
  o.device = WARPMATCH_DEVICE_CPU;
  o.gpus = WARPMATCH_MAX_GPUS + 1;
  cr_assert_eq(warpmatch_motifs_directed(ctx, dir, 3, &o, rows, NULL), WARPMATCH_EUSAGE);
  cr_assert(strstr(warpmatch_last_error(ctx), "gpus"), "%s", warpmatch_last_error(ctx));
  o.gpus = 0;
  o.size = 0;
  cr_assert_eq(warpmatch_motifs_directed(ctx, dir, 3, &o, rows, NULL), WARPMATCH_EUSAGE);
  /* the 3-cycle: one 030C, nothing else connected */
  cr_assert_eq(warpmatch_motifs_directed(ctx, dir, 3, NULL, rows, NULL), WARPMATCH_OK);
  for (unsigned i = 0; i < 13; i++)
    cr_assert_eq(rows[i].count, strcmp(rows[i].name, "030C") == 0, "%s: %llu", rows[i].name,
                 (unsigned long long)rows[i].count);
  warpmatch_graph_destroy(und);
  warpmatch_graph_destroy(dir);
  warpmatch_context_destroy(ctx);
}
