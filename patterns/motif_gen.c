/* All connected unlabeled graphs on k vertices, for motif counting.
 *
 * Every connected graph on k vertices has a vertex whose removal leaves a
 * connected graph (a leaf of a spanning tree), so the k-vertex graphs are
 * the (k-1)-vertex ones plus one vertex joined to a non-empty subset of
 * them.  Each candidate is put in canonical form and kept once, found
 * through an open-addressing table keyed by the canonical hash. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pattern_internal.h"
#include "patterns.h"

typedef struct graph_set {
  wm_pattern *items;
  unsigned count, cap;
  uint32_t *slots; /* index + 1, 0 = empty */
  uint64_t *slot_hash;
  unsigned n_slots; /* power of two */
} graph_set;

static void set_free(graph_set *s) {
  free(s->items);
  free(s->slots);
  free(s->slot_hash);
  memset(s, 0, sizeof *s);
}

static int set_rehash(graph_set *s, unsigned n_slots) {
  uint32_t *slots = calloc(n_slots, sizeof *slots);
  uint64_t *hashes = calloc(n_slots, sizeof *hashes);
  if (!slots || !hashes) {
    free(slots);
    free(hashes);
    return 0;
  }
  for (unsigned i = 0; i < s->n_slots; i++) {
    if (!s->slots[i]) continue;
    unsigned j = (unsigned)s->slot_hash[i] & (n_slots - 1);
    while (slots[j]) j = (j + 1) & (n_slots - 1);
    slots[j] = s->slots[i];
    hashes[j] = s->slot_hash[i];
  }
  free(s->slots);
  free(s->slot_hash);
  s->slots = slots;
  s->slot_hash = hashes;
  s->n_slots = n_slots;
  return 1;
}

/* Adds c's form unless an equal form is present; 0 when out of memory. */
static int set_add(graph_set *s, const wm_canonical *c) {
  if (2 * (s->count + 1) > s->n_slots && !set_rehash(s, s->n_slots ? 2 * s->n_slots : 1024))
    return 0;
  unsigned j = (unsigned)c->hash & (s->n_slots - 1);
  for (; s->slots[j]; j = (j + 1) & (s->n_slots - 1)) {
    const wm_pattern *f = &s->items[s->slots[j] - 1];
    if (s->slot_hash[j] == c->hash && memcmp(f->adj, c->form.adj, sizeof f->adj) == 0) return 1;
  }
  if (s->count == s->cap) {
    unsigned cap = s->cap ? 2 * s->cap : 256;
    wm_pattern *items = realloc(s->items, (size_t)cap * sizeof *items);
    if (!items) return 0;
    s->items = items;
    s->cap = cap;
  }
  s->items[s->count] = c->form;
  s->slots[j] = ++s->count;
  s->slot_hash[j] = c->hash;
  return 1;
}

static int grow(const graph_set *prev, unsigned k, graph_set *out) {
  memset(out, 0, sizeof *out);
  if (k == 2) {
    wm_pattern e;
    wm_pattern_init(&e, 2);
    wm_pattern_add_edge(&e, 0, 1);
    wm_canonical c;
    wm_pattern_canonical(&e, &c);
    return set_add(out, &c);
  }
  for (unsigned g = 0; g < prev->count; g++)
    for (unsigned mask = 1; mask < (1u << (k - 1)); mask++) {
      wm_pattern h = prev->items[g];
      h.k = k;
      h.name[0] = '\0';
      for (unsigned v = 0; v < k - 1; v++)
        if ((mask >> v) & 1u) wm_pattern_add_edge(&h, v, k - 1);
      wm_canonical c;
      wm_pattern_canonical(&h, &c);
      if (!set_add(out, &c)) return 0;
    }
  return 1;
}

static int by_edges_then_adjacency(const void *x, const void *y) {
  const wm_pattern *a = x, *b = y;
  unsigned ea = wm_pattern_edges(a), eb = wm_pattern_edges(b);
  if (ea != eb) return ea < eb ? -1 : 1;
  return memcmp(a->adj, b->adj, sizeof a->adj);
}

/* Catalogue name where one exists, else "Kv-Ee-I" with I counting the
 * unnamed graphs of that edge count from 1. */
static void name_all(wm_pattern *items, unsigned count) {
  unsigned serial = 0, last_edges = ~0u;
  for (unsigned i = 0; i < count; i++) {
    unsigned e = wm_pattern_edges(&items[i]);
    if (e != last_edges) serial = 0, last_edges = e;
    if (wm_catalogue_name_of(&items[i], items[i].name, sizeof items[i].name)) continue;
    snprintf(items[i].name, sizeof items[i].name, "%uv-%ue-%u", (unsigned)items[i].k, e, ++serial);
  }
}

/* The classes of k vertices, sorted and named. */
static int make_classes(unsigned k, wm_pattern **out, unsigned *count, wm_error *err) {
  graph_set cur = {0};
  for (unsigned size = 2; size <= k; size++) {
    graph_set next;
    int ok = grow(&cur, size, &next);
    set_free(&cur);
    cur = next;
    if (!ok) {
      set_free(&cur);
      return wm_fail(err, WM_EINPUT, "out of memory enumerating %u-vertex patterns", size);
    }
  }
  qsort(cur.items, cur.count, sizeof *cur.items, by_edges_then_adjacency);
  name_all(cur.items, cur.count);
  *out = cur.items;
  *count = cur.count;
  free(cur.slots);
  free(cur.slot_hash);
  return WM_OK;
}

/* Each size's classes, made once per process: a motif call asks for them
 * every time, and making the 21 of size 5 (about a thousand canonical
 * forms) took a tenth of a small graph's 5-motif call on the GPU. */
static wm_pattern *made[WM_MAX_K + 1];
static unsigned made_count[WM_MAX_K + 1];
static pthread_mutex_t made_lock = PTHREAD_MUTEX_INITIALIZER;

int wm_connected_patterns(unsigned k, wm_pattern **out, unsigned *count, wm_error *err) {
  *out = NULL;
  *count = 0;
  if (k < 2 || k > WM_MAX_K)
    return wm_fail(err, WM_EUSAGE, "connected patterns need 2 to %d vertices, not %u", WM_MAX_K, k);
  pthread_mutex_lock(&made_lock);
  int rc = made[k] ? WM_OK : make_classes(k, &made[k], &made_count[k], err);
  wm_pattern *copy = rc ? NULL : malloc((size_t)made_count[k] * sizeof *copy);
  if (!rc && !copy) rc = wm_fail(err, WM_EINPUT, "out of memory");
  if (!rc) {
    memcpy(copy, made[k], (size_t)made_count[k] * sizeof *copy);
    *out = copy;
    *count = made_count[k];
  }
  pthread_mutex_unlock(&made_lock);
  return rc;
}
