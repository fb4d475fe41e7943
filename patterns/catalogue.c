/* The named catalogue: the families K-clique, K-cycle, K-path, K-star and
 * fixed graphs, among them every connected graph on 4 and 5 vertices.
 *
 * Names follow graph theory (ISGCI's list of small graphs, House of Graphs)
 * where a name exists.  "K-star" has K vertices in all (a centre and K-1
 * leaves), so "4-star" is the claw; "K-path" has K vertices.  Lookup is
 * case-insensitive, and aliases resolve to the primary name.
 *
 * The 6 connected graphs on 4 vertices
 *   edges  name              aliases              edges (vertex ids 0..3)
 *   3      4-path            P4                   0-1 1-2 2-3
 *   3      4-star            claw, K1,3           0-1 0-2 0-3
 *   4      4-cycle           C4, square           0-1 1-2 2-3 3-0
 *   4      tailed-triangle   paw, 3-pan           0-1 0-2 1-2 2-3
 *   5      diamond           K4-e                 0-1 0-2 1-2 0-3 1-3
 *   6      4-clique          K4                   all pairs
 *
 * The 21 connected graphs on 5 vertices (ISGCI name in brackets where the
 * primary name differs; co-X is the complement of X)
 *   4  5-path                [P5]                 0-1 1-2 2-3 3-4
 *   4  5-star                [K1,4]               0-1 0-2 0-3 0-4
 *   4  fork                  [chair]              0-1 0-2 0-3 3-4
 *   5  5-cycle               [C5]                 0-1 1-2 2-3 3-4 4-0
 *   5  banner                [P, 4-pan]           0-1 1-2 2-3 3-0 0-4
 *   5  bull                                       0-1 1-2 2-0 1-3 2-4
 *   5  cricket                                    0-1 1-2 2-0 0-3 0-4
 *   5  long-tailed-triangle  [co-P]               0-1 1-2 2-0 0-3 3-4
 *   6  house                 [co-P5]              0-1 1-2 2-3 3-0 0-4 1-4
 *   6  bowtie                [butterfly]          0-1 0-2 1-2 0-3 0-4 3-4
 *   6  K2,3                                       0-2 0-3 0-4 1-2 1-3 1-4
 *   6  kite                  [co-fork]            diamond + 2-4 (tail at a degree-2 vertex)
 *   6  dart                                       diamond + 0-4 (tail at a degree-3 vertex)
 *   7  gem                   [3-fan]              0-1 0-2 0-3 0-4 1-2 2-3 3-4
 *   7  3-book                [K1,1,3, co-(K3+2K1)] 0-1 0-2 0-3 0-4 1-2 1-3 1-4
 *   7  tailed-4-clique       [co-(claw+K1)]       4-clique on 0..3 + 3-4
 *   7  W4-minus-spoke        [co-(P2+P3)]         1-2 2-3 3-4 4-1 0-2 0-3 0-4
 *   8  W4                    [4-wheel]            1-2 2-3 3-4 4-1 0-1 0-2 0-3 0-4
 *   8  house-x               [co-(P3+2K1)]        house + 0-2 1-3
 *   9  5-clique-minus-edge   [K5-e]               all pairs but 3-4
 *   10 5-clique              [K5]                 all pairs */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pattern_internal.h"
#include "patterns.h"

typedef struct cat_entry {
  const char *name;
  const char *aliases; /* '|'-separated, may be "" */
  unsigned k;
  const char *edges;   /* "a-b a-b ..." */
} cat_entry;

/* Graphs that are not members of a family.  Listed before the families
 * when naming a graph, so a triangle is "triangle", not "3-clique". */
static const cat_entry fixed[] = {
    {"triangle", "K3", 3, "0-1 1-2 2-0"},
    {"tailed-triangle", "paw|3-pan", 4, "0-1 0-2 1-2 2-3"},
    {"diamond", "K4-e|4-clique-minus-edge", 4, "0-1 0-2 1-2 0-3 1-3"},
    {"fork", "chair", 5, "0-1 0-2 0-3 3-4"},
    {"banner", "4-pan", 5, "0-1 1-2 2-3 3-0 0-4"},
    {"bull", "", 5, "0-1 1-2 2-0 1-3 2-4"},
    {"cricket", "", 5, "0-1 1-2 2-0 0-3 0-4"},
    {"long-tailed-triangle", "co-P|co-banner", 5, "0-1 1-2 2-0 0-3 3-4"},
    {"house", "co-P5", 5, "0-1 1-2 2-3 3-0 0-4 1-4"},
    {"bowtie", "butterfly", 5, "0-1 0-2 1-2 0-3 0-4 3-4"},
    {"K2,3", "K_{2,3}|K23", 5, "0-2 0-3 0-4 1-2 1-3 1-4"},
    {"kite", "co-fork|co-chair", 5, "0-1 0-2 1-2 0-3 1-3 2-4"},
    {"dart", "", 5, "0-1 0-2 1-2 0-3 1-3 0-4"},
    {"gem", "3-fan", 5, "0-1 0-2 0-3 0-4 1-2 2-3 3-4"},
    {"3-book", "book|K1,1,3", 5, "0-1 0-2 0-3 0-4 1-2 1-3 1-4"},
    {"tailed-4-clique", "K4-tail", 5, "0-1 0-2 0-3 1-2 1-3 2-3 3-4"},
    {"W4-minus-spoke", "K2,3-plus-edge", 5, "1-2 2-3 3-4 4-1 0-2 0-3 0-4"},
    {"W4", "4-wheel|wheel", 5, "1-2 2-3 3-4 4-1 0-1 0-2 0-3 0-4"},
    {"house-x", "K5-minus-P3", 5, "0-1 1-2 2-3 3-0 0-4 1-4 0-2 1-3"},
    {"5-clique-minus-edge", "K5-e", 5, "0-1 0-2 0-3 0-4 1-2 1-3 1-4 2-3 2-4"},
};
#define N_FIXED (sizeof fixed / sizeof fixed[0])

/* Aliases of family members, e.g. "claw" for "4-star". */
static const struct {
  const char *alias, *name;
} family_alias[] = {
    {"wedge", "3-path"}, {"edge", "2-path"}, {"P4", "4-path"},  {"claw", "4-star"},
    {"K1,3", "4-star"},  {"C4", "4-cycle"},  {"square", "4-cycle"}, {"K4", "4-clique"},
    {"P5", "5-path"},    {"K1,4", "5-star"}, {"C5", "5-cycle"}, {"K5", "5-clique"},
};

enum family { FAM_CLIQUE, FAM_CYCLE, FAM_PATH, FAM_STAR, FAM_COUNT };
static const struct {
  const char *word;
  unsigned min_k;
} families[FAM_COUNT] = {{"clique", 3}, {"cycle", 3}, {"path", 2}, {"star", 3}};

/* One name per connected graph on 3 to 5 vertices, by edge count. */
static const char *const names[] = {
    "3-path", "triangle",
    "4-path", "4-star", "4-cycle", "tailed-triangle", "diamond", "4-clique",
    "5-path", "5-star", "fork", "5-cycle", "banner", "bull", "cricket", "long-tailed-triangle",
    "house", "bowtie", "K2,3", "kite", "dart", "gem", "3-book", "tailed-4-clique",
    "W4-minus-spoke", "W4", "house-x", "5-clique-minus-edge", "5-clique", NULL,
};

const char *const *wm_catalogue_names(void) { return names; }

static void build_fixed(const cat_entry *e, wm_pattern *p) {
  wm_pattern_init(p, e->k);
  for (const char *s = e->edges; *s;) {
    char *end;
    unsigned a = (unsigned)strtoul(s, &end, 10);
    unsigned b = (unsigned)strtoul(end + 1, &end, 10); /* skip the '-' */
    wm_pattern_add_edge(p, a, b);
    s = end;
    while (*s == ' ') s++;
  }
  snprintf(p->name, sizeof p->name, "%s", e->name);
}

static void build_family(enum family f, unsigned k, wm_pattern *p) {
  wm_pattern_init(p, k);
  for (unsigned i = 0; i < k; i++)
    for (unsigned j = i + 1; j < k; j++) {
      int edge = f == FAM_CLIQUE || (f == FAM_STAR && i == 0) ||
                 ((f == FAM_PATH || f == FAM_CYCLE) && j == i + 1) ||
                 (f == FAM_CYCLE && i == 0 && j == k - 1);
      if (edge) wm_pattern_add_edge(p, i, j);
    }
  snprintf(p->name, sizeof p->name, "%u-%s", k, families[f].word);
}

static int alias_listed(const char *aliases, const char *name) {
  char buf[128];
  snprintf(buf, sizeof buf, "%s", aliases);
  for (char *tok = buf, *bar; tok && *tok; tok = bar ? bar + 1 : NULL) {
    bar = strchr(tok, '|');
    if (bar) *bar = '\0';
    if (wm_name_equal(tok, name)) return 1;
  }
  return 0;
}

/* "K-word" with K a decimal number; returns 1 and fills f, k when the word
 * names a family (K is not range-checked here). */
static int split_family(const char *name, enum family *f, unsigned long *k) {
  char *end;
  if (name[0] < '0' || name[0] > '9') return 0;
  *k = strtoul(name, &end, 10);
  if (*end != '-') return 0;
  for (int i = 0; i < FAM_COUNT; i++)
    if (wm_name_equal(end + 1, families[i].word)) {
      *f = (enum family)i;
      return 1;
    }
  return 0;
}

int wm_pattern_from_name(const char *name, wm_pattern *p, wm_error *err) {
  for (size_t i = 0; i < N_FIXED; i++)
    if (wm_name_equal(fixed[i].name, name) || alias_listed(fixed[i].aliases, name)) {
      build_fixed(&fixed[i], p);
      return WM_OK;
    }
  for (size_t i = 0; i < sizeof family_alias / sizeof family_alias[0]; i++)
    if (wm_name_equal(family_alias[i].alias, name)) return wm_pattern_from_name(family_alias[i].name, p, err);
  enum family f;
  unsigned long k;
  if (split_family(name, &f, &k)) {
    if (k < families[f].min_k || k > WM_MAX_K)
      return wm_fail(err, WM_EINPUT, "pattern '%s': K-%s needs K from %u to %d", name,
                     families[f].word, families[f].min_k, WM_MAX_K);
    build_family(f, (unsigned)k, p);
    return WM_OK;
  }
  char known[512] = "";
  unsigned len = 0;
  for (unsigned i = 0; names[i] && len < sizeof known; i++)
    len += (unsigned)snprintf(known + len, sizeof known - len, "%s%s", i ? ", " : "", names[i]);
  return wm_fail(err, WM_EINPUT,
                 "unknown pattern '%s': expected a pattern file or a catalogue name (%s; "
                 "and K-clique, K-cycle, K-path, K-star for K up to %d; `warpmatch patterns` lists them)",
                 name, known, WM_MAX_K);
}

/* The catalogue's canonical forms, made once: motif counting names each of
 * its classes on every call, and forming every entry anew for each name
 * took longer than a small graph's whole 5-motif count on the GPU. */
static wm_canonical fixed_forms[N_FIXED];
static wm_canonical family_forms[FAM_COUNT][WM_MAX_K + 1]; /* [f][k], k from the family's least */
static pthread_once_t forms_made = PTHREAD_ONCE_INIT;

static void make_forms(void) {
  wm_pattern c;
  for (size_t i = 0; i < N_FIXED; i++) {
    build_fixed(&fixed[i], &c);
    wm_pattern_canonical(&c, &fixed_forms[i]);
  }
  for (int f = 0; f < FAM_COUNT; f++)
    for (unsigned k = families[f].min_k; k <= WM_MAX_K; k++) {
      build_family((enum family)f, k, &c);
      wm_pattern_canonical(&c, &family_forms[f][k]);
    }
}

int wm_catalogue_name_of(const wm_pattern *p, char *buf, unsigned size) {
  if (p->labeled || p->k < 2 || p->k > WM_MAX_K) return 0;
  pthread_once(&forms_made, make_forms);
  wm_canonical cp;
  wm_pattern_canonical(p, &cp);
  wm_pattern c;
  for (size_t i = 0; i < N_FIXED; i++)
    if (fixed[i].k == p->k && wm_canonical_same(&cp, &fixed_forms[i])) {
      build_fixed(&fixed[i], &c);
      goto found;
    }
  for (int f = 0; f < FAM_COUNT; f++)
    if (p->k >= families[f].min_k && wm_canonical_same(&cp, &family_forms[f][p->k])) {
      build_family((enum family)f, p->k, &c);
      goto found;
    }
  return 0;
found:
  if (size) snprintf(buf, size, "%s", c.name);
  return 1;
}
