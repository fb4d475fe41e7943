/* The orbit numbering: ORCA's, which is the numbering of Przulj's figure of
 * the graphlets G0..G29 and their automorphism orbits 0..72.  Each graphlet
 * is drawn once below with the orbit of each of its vertices (the figure's
 * facts); everything else is derived here: every labelled connected subgraph
 * of 2..5 positions is matched to its drawing through canonical forms, which
 * gives each position's orbit, and each drawing's orbit labels are checked
 * against its automorphism group (equal within an automorphism orbit,
 * different across), so that a wrong drawing cannot pass unnoticed. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "orbits.h"
#include "patterns.h"

typedef struct drawing {
  unsigned k;
  const char *edges;    /* "0-1 0-2 ..." */
  uint8_t orbit[WM_ORBIT_MAX_K];
} drawing;

/* G0..G29 in order; a graphlet's orbits are numbered after the previous one's. */
static const drawing graphlets[30] = {
    {2, "0-1", {0, 0}},
    {3, "0-1 0-2", {2, 1, 1}},
    {3, "0-1 0-2 1-2", {3, 3, 3}},
    {4, "0-1 0-2 1-3", {5, 5, 4, 4}},                /* path */
    {4, "0-1 0-2 0-3", {7, 6, 6, 6}},                /* star */
    {4, "0-1 0-2 1-3 2-3", {8, 8, 8, 8}},            /* 4-cycle */
    {4, "0-1 0-2 0-3 1-2", {11, 10, 10, 9}},         /* paw */
    {4, "0-1 0-2 0-3 1-2 1-3", {13, 13, 12, 12}},    /* diamond */
    {4, "0-1 0-2 0-3 1-2 1-3 2-3", {14, 14, 14, 14}}, /* 4-clique */
    {5, "0-1 0-2 1-3 2-4", {17, 16, 16, 15, 15}},
    {5, "0-1 0-2 0-3 1-4", {21, 20, 19, 19, 18}},
    {5, "0-1 0-2 0-3 0-4", {23, 22, 22, 22, 22}},
    {5, "0-1 0-2 0-3 1-2 1-4", {26, 26, 25, 24, 24}},
    {5, "0-1 0-2 0-3 1-2 3-4", {30, 29, 29, 28, 27}},
    {5, "0-1 0-2 0-3 0-4 1-2", {33, 32, 32, 31, 31}},
    {5, "0-1 0-2 1-3 2-4 3-4", {34, 34, 34, 34, 34}},
    {5, "0-1 0-2 0-3 1-4 2-4", {38, 37, 37, 35, 36}},
    {5, "0-1 0-2 0-3 0-4 1-2 1-3", {42, 41, 40, 40, 39}},
    {5, "0-1 0-2 0-3 0-4 1-2 3-4", {44, 43, 43, 43, 43}},
    {5, "0-1 0-2 0-3 1-2 1-3 2-4", {48, 48, 47, 46, 45}},
    {5, "0-1 0-2 0-3 1-4 2-4 3-4", {50, 49, 49, 49, 50}},
    {5, "0-1 0-2 0-3 1-2 1-4 3-4", {53, 53, 52, 51, 51}},
    {5, "0-1 0-2 0-3 0-4 1-2 1-3 1-4", {55, 55, 54, 54, 54}},
    {5, "0-1 0-2 0-3 0-4 1-2 1-3 2-3", {58, 57, 57, 57, 56}},
    {5, "0-1 0-2 0-3 0-4 1-2 1-3 2-4", {61, 60, 60, 59, 59}},
    {5, "0-1 0-2 0-3 1-2 1-3 2-4 3-4", {64, 64, 63, 63, 62}},
    {5, "0-1 0-2 0-3 0-4 1-2 1-3 1-4 2-3", {67, 67, 66, 66, 65}},
    {5, "0-1 0-2 0-3 0-4 1-2 1-3 2-4 3-4", {69, 68, 68, 68, 68}},
    {5, "0-1 0-2 0-3 0-4 1-2 1-3 1-4 2-3 2-4", {71, 71, 71, 70, 70}},
    {5, "0-1 0-2 0-3 0-4 1-2 1-3 1-4 2-3 2-4 3-4", {72, 72, 72, 72, 72}},
};

/* ORCA's edge orbits (orca.cpp's ecount4/ecount5: "edge-orbit 2 = (4,5)"
 * and so on): in graphlets of up to 5 vertices an edge orbit is told by the
 * vertex orbits of its two ends, smaller first.  Those of 5 vertices (12..67)
 * were read from ORCA's `orca edge 5` on each graphlet G9..G29 alone (the
 * one edge orbit past 11 that each edge holds once); they follow the vertex
 * orbits in order.  Checked against the drawings' automorphisms as the
 * vertex orbits are. */
static const uint8_t edge_orbit_ends[WM_EDGE_ORBIT_MAX][2] = {
    {1, 2},   /* 0: the 3-path */
    {3, 3},   /* 1: the triangle */
    {4, 5},   /* 2: the 4-path's end edges */
    {5, 5},   /* 3: its middle edge */
    {6, 7},   /* 4: the 3-star */
    {8, 8},   /* 5: the 4-cycle */
    {9, 11},  /* 6: the paw's tail */
    {10, 10}, /* 7: the paw's triangle edge away from the tail */
    {10, 11}, /* 8: its triangle edges at the tail's vertex */
    {12, 13}, /* 9: the diamond's outer edges */
    {13, 13}, /* 10: its chord */
    {14, 14}, /* 11: the 4-clique */
    {15, 16}, /* 12 */
    {16, 17}, /* 13 */
    {18, 20}, /* 14 */
    {19, 21}, /* 15 */
    {20, 21}, /* 16 */
    {22, 23}, /* 17 */
    {24, 26}, /* 18 */
    {25, 26}, /* 19 */
    {26, 26}, /* 20 */
    {27, 28}, /* 21 */
    {28, 30}, /* 22 */
    {29, 29}, /* 23 */
    {29, 30}, /* 24 */
    {31, 33}, /* 25 */
    {32, 32}, /* 26 */
    {32, 33}, /* 27 */
    {34, 34}, /* 28 */
    {35, 38}, /* 29 */
    {36, 37}, /* 30 */
    {37, 38}, /* 31 */
    {39, 42}, /* 32 */
    {40, 41}, /* 33 */
    {40, 42}, /* 34 */
    {41, 42}, /* 35 */
    {43, 43}, /* 36 */
    {43, 44}, /* 37 */
    {45, 47}, /* 38 */
    {46, 48}, /* 39 */
    {47, 48}, /* 40 */
    {48, 48}, /* 41 */
    {49, 50}, /* 42 */
    {51, 51}, /* 43 */
    {51, 53}, /* 44 */
    {52, 53}, /* 45 */
    {53, 53}, /* 46 */
    {54, 55}, /* 47 */
    {55, 55}, /* 48 */
    {56, 58}, /* 49 */
    {57, 57}, /* 50 */
    {57, 58}, /* 51 */
    {59, 60}, /* 52 */
    {59, 61}, /* 53 */
    {60, 60}, /* 54 */
    {60, 61}, /* 55 */
    {62, 63}, /* 56 */
    {63, 64}, /* 57 */
    {64, 64}, /* 58 */
    {65, 67}, /* 59 */
    {66, 66}, /* 60 */
    {66, 67}, /* 61 */
    {67, 67}, /* 62 */
    {68, 68}, /* 63 */
    {68, 69}, /* 64 */
    {70, 71}, /* 65 */
    {71, 71}, /* 66 */
    {72, 72}, /* 67 */
};

unsigned wm_edge_orbit_count(unsigned k) {
  return k == 3 ? 2 : k == 4 ? WM_EDGE_ORBIT4 : k == 5 ? WM_EDGE_ORBIT_MAX : 0;
}

static uint8_t edge_orbit_of(unsigned a, unsigned b) {
  const unsigned lo = a < b ? a : b, hi = a < b ? b : a;
  for (unsigned e = 0; e < WM_EDGE_ORBIT_MAX; e++)
    if (edge_orbit_ends[e][0] == lo && edge_orbit_ends[e][1] == hi) return (uint8_t)e;
  return WM_ORBIT_NONE;
}

unsigned wm_orbit_count(unsigned k) {
  static const unsigned per_size[] = {0, 0, 1, 4, 15, 73};
  return k <= WM_ORBIT_MAX_K ? per_size[k] : 0;
}

void wm_orbit_graphlet_edges(unsigned gid, char *buf, unsigned size) {
  snprintf(buf, size, "%s", gid < 30 ? graphlets[gid].edges : "");
}

static unsigned pair_bit(unsigned i, unsigned j) { return j * (j - 1) / 2 + i; } /* i < j */

static void pattern_of_mask(unsigned k, unsigned mask, wm_pattern *p) {
  wm_pattern_init(p, k);
  for (unsigned j = 1; j < k; j++)
    for (unsigned i = 0; i < j; i++)
      if (mask >> pair_bit(i, j) & 1u) wm_pattern_add_edge(p, i, j);
}

static unsigned mask_of_drawing(const drawing *d) {
  unsigned mask = 0, a, b;
  for (const char *s = d->edges; sscanf(s, "%u-%u", &a, &b) == 2;) {
    mask |= 1u << (a < b ? pair_bit(a, b) : pair_bit(b, a));
    s = strchr(s, ' ');
    if (!s) break;
    s++;
  }
  return mask;
}

static int connected(unsigned k, unsigned mask) {
  unsigned seen = 1, grown = 1;
  while (grown) {
    grown = 0;
    for (unsigned j = 1; j < k; j++)
      for (unsigned i = 0; i < j; i++)
        if ((mask >> pair_bit(i, j) & 1u) && ((seen >> i ^ seen >> j) & 1u)) seen |= 1u << i | 1u << j, grown = 1;
  }
  return seen == (1u << k) - 1;
}

/* The drawing's labels agree with its automorphisms: positions share a
 * label exactly when an automorphism maps one onto the other. */
static int check_drawing(unsigned gid, const wm_pattern *p, wm_error *err) {
  wm_automorphisms aut;
  if (wm_pattern_automorphisms(p, &aut, err)) return err->code;
  const drawing *d = &graphlets[gid];
  int ok = 1;
  for (unsigned a = 0; a < d->k; a++)
    for (unsigned b = 0; b < d->k; b++) {
      int mapped = 0;
      for (uint32_t s = 0; s < aut.count && !mapped; s++) mapped = aut.perm[s][a] == b;
      if (mapped != (d->orbit[a] == d->orbit[b])) ok = 0;
    }
  wm_automorphisms_free(&aut);
  return ok ? WM_OK : wm_fail(err, WM_EINPUT, "orbit table: graphlet G%u (%s): its orbit labels disagree with its "
                                              "automorphisms", gid, d->edges);
}

/* The same for the edge orbits of a drawing of 3 to 5 vertices: two edges
 * share an edge orbit exactly when an automorphism maps one onto the other. */
static int check_edge_orbits(unsigned gid, const wm_pattern *p, wm_error *err) {
  const drawing *d = &graphlets[gid];
  if (d->k < 3 || d->k > WM_EDGE_ORBIT_MAX_K) return WM_OK;
  wm_automorphisms aut;
  if (wm_pattern_automorphisms(p, &aut, err)) return err->code;
  int ok = 1;
  for (unsigned a = 0; a < d->k; a++)
    for (unsigned b = a + 1; b < d->k; b++)
      for (unsigned x = 0; x < d->k; x++)
        for (unsigned y = x + 1; y < d->k; y++) {
          if (!wm_pattern_has_edge(p, a, b) || !wm_pattern_has_edge(p, x, y)) continue;
          const uint8_t e1 = edge_orbit_of(d->orbit[a], d->orbit[b]), e2 = edge_orbit_of(d->orbit[x], d->orbit[y]);
          int mapped = 0;
          for (uint32_t s = 0; s < aut.count && !mapped; s++) {
            const unsigned pa = aut.perm[s][a], pb = aut.perm[s][b];
            mapped = (pa == x && pb == y) || (pa == y && pb == x);
          }
          if (e1 == WM_ORBIT_NONE || mapped != (e1 == e2)) ok = 0;
        }
  wm_automorphisms_free(&aut);
  return ok ? WM_OK : wm_fail(err, WM_EINPUT, "orbit table: graphlet G%u (%s): its edge orbits disagree with its "
                                              "automorphisms", gid, d->edges);
}

/* Every drawing's tallies; the automorphism checks of those of up to
 * `checked` vertices (the others' come with the 5-position masks, which
 * alone read them). */
static int tally_orbits(wm_orbit_tables *t, unsigned checked, wm_error *err) {
  for (unsigned gid = 0; gid < 30; gid++) {
    const drawing *d = &graphlets[gid];
    wm_pattern p;
    t->graphlet_mask[gid] = (uint16_t)mask_of_drawing(d);
    pattern_of_mask(d->k, t->graphlet_mask[gid], &p);
    if (d->k <= checked && (check_drawing(gid, &p, err) || check_edge_orbits(gid, &p, err))) return err->code;
    t->graphlet_vertices[gid] = (uint8_t)d->k;
    t->graphlet_edges[gid] = (uint8_t)wm_pattern_edges(&p);
    for (unsigned i = 0; i < d->k; i++)
      t->graphlet_of_orbit[d->orbit[i]] = (uint8_t)gid, t->orbit_vertices[d->orbit[i]]++;
  }
  return WM_OK;
}

/* Each edge's orbit from its ends' orbits (the automorphism check of the
 * drawings holds the pairs to the edge orbits). */
static void fill_edge_orbits(wm_orbit_tables *t, unsigned k, unsigned mask) {
  for (unsigned j = 1; j < k; j++)
    for (unsigned i = 0; i < j; i++)
      if (mask >> pair_bit(i, j) & 1u)
        t->edge_orbit[k][mask][pair_bit(i, j)] = edge_orbit_of(t->orbit[k][mask][i], t->orbit[k][mask][j]);
}

/* Every connected mask of k positions: its drawing by canonical form, and
 * each position's orbit through the two canonical permutations. */
static int fill_masks(wm_orbit_tables *t, unsigned k, wm_error *err) {
  wm_canonical ref[30];
  for (unsigned gid = 0; gid < 30; gid++) {
    if (graphlets[gid].k != k) continue; /* only k's are compared below */
    wm_pattern p;
    pattern_of_mask(graphlets[gid].k, t->graphlet_mask[gid], &p);
    wm_pattern_canonical(&p, &ref[gid]);
  }
  for (unsigned mask = 0; mask < 1u << (k * (k - 1) / 2); mask++) {
    memset(t->orbit[k][mask], WM_ORBIT_NONE, sizeof t->orbit[k][mask]);
    if (!connected(k, mask)) continue;
    wm_pattern p;
    wm_canonical c;
    pattern_of_mask(k, mask, &p);
    wm_pattern_canonical(&p, &c);
    unsigned gid = 0;
    while (gid < 30 && !(graphlets[gid].k == k && wm_canonical_same(&c, &ref[gid]))) gid++;
    if (gid == 30) return wm_fail(err, WM_EINPUT, "orbit table: a connected %u-vertex graph has no drawing", k);
    /* form vertex i is position c.perm[i] here and drawing vertex ref.perm[i] there */
    for (unsigned i = 0; i < k; i++) t->orbit[k][mask][c.perm[i]] = graphlets[gid].orbit[ref[gid].perm[i]];
    if (k >= 3 && k <= WM_EDGE_ORBIT_MAX_K) fill_edge_orbits(t, k, mask);
  }
  return WM_OK;
}

/* Built in two steps: up to 4 positions, then the 5-position masks (most
 * of the work: a canonical form for each of 1024) and the checks of the
 * 5-vertex drawings, which the 4-vertex formula never reads. */
static wm_orbit_tables tables;
static wm_error small_err, five_err;
static pthread_once_t small_once = PTHREAD_ONCE_INIT, five_once = PTHREAD_ONCE_INIT;

static void build_small(void) {
  wm_error_clear(&small_err);
  memset(tables.edge_orbit, WM_ORBIT_NONE, sizeof tables.edge_orbit);
  if (tally_orbits(&tables, WM_ORBIT_MAX_K - 1, &small_err)) return;
  for (unsigned k = 2; k < WM_ORBIT_MAX_K && !small_err.code; k++) fill_masks(&tables, k, &small_err);
}

static void build_five(void) {
  wm_error_clear(&five_err);
  for (unsigned gid = 0; gid < 30 && !five_err.code; gid++) {
    wm_pattern p;
    if (graphlets[gid].k != WM_ORBIT_MAX_K) continue;
    pattern_of_mask(WM_ORBIT_MAX_K, tables.graphlet_mask[gid], &p);
    if (!check_drawing(gid, &p, &five_err)) check_edge_orbits(gid, &p, &five_err);
  }
  if (!five_err.code) fill_masks(&tables, WM_ORBIT_MAX_K, &five_err);
}

const wm_orbit_tables *wm_orbit_tables_upto(unsigned k, wm_error *err) {
  pthread_once(&small_once, build_small);
  if (!small_err.code && k >= WM_ORBIT_MAX_K) pthread_once(&five_once, build_five);
  const wm_error *e = small_err.code ? &small_err : k >= WM_ORBIT_MAX_K ? &five_err : NULL;
  if (e && e->code) {
    if (err) *err = *e;
    return NULL;
  }
  return &tables;
}

const wm_orbit_tables *wm_orbit_tables_get(wm_error *err) { return wm_orbit_tables_upto(WM_ORBIT_MAX_K, err); }

/* For orbit b, its drawing's spanning edge subsets that are connected are
 * the non-induced copies inside that graphlet; the orbit of b's position in
 * each is the a it adds to.  A count is at most the 252 5-edge subsets of
 * K5's 10 edges, so a byte holds it. */
void wm_orbit_copies_in(const wm_orbit_tables *t, unsigned first, unsigned last, uint8_t *c, unsigned stride) {
  for (unsigned a = first; a < last; a++) memset(c + (size_t)(a - first) * stride, 0, last - first);
  for (unsigned b = first; b < last; b++) {
    const unsigned gid = t->graphlet_of_orbit[b], k = t->graphlet_vertices[gid], mask = t->graphlet_mask[gid];
    unsigned p = 0;
    while (t->orbit[k][mask][p] != b) p++;
    for (unsigned s = mask;; s = (s - 1) & mask) { /* every edge subset */
      const uint8_t a = t->orbit[k][s][p];
      if (a != WM_ORBIT_NONE && a >= first && a < last) c[(size_t)(a - first) * stride + (b - first)]++;
      if (!s) break;
    }
  }
}

