/* The pattern type: construction, edge count, validation, edge string. */
#include <stdio.h>
#include <string.h>

#include "pattern_internal.h"
#include "patterns.h"

void wm_pattern_init(wm_pattern *p, unsigned k) {
  memset(p, 0, sizeof *p);
  p->k = k;
  for (unsigned i = 0; i < WM_MAX_K; i++) p->label[i] = WM_ANY_LABEL;
}

/* A loop or an edge to a vertex >= k is recorded as given (when it fits the
 * bitmasks) so that wm_pattern_validate can name it. */
void wm_pattern_add_edge(wm_pattern *p, unsigned i, unsigned j) {
  if (i >= WM_MAX_K || j >= WM_MAX_K) return;
  p->adj[i] |= (uint8_t)(1u << j);
  p->adj[j] |= (uint8_t)(1u << i);
}

void wm_pattern_set_label(wm_pattern *p, unsigned v, int32_t label) {
  if (v >= WM_MAX_K) return;
  p->label[v] = label < 0 ? WM_ANY_LABEL : label;
  p->labeled = 0;
  for (unsigned i = 0; i < p->k && i < WM_MAX_K; i++)
    if (p->label[i] != WM_ANY_LABEL) p->labeled = 1;
}

unsigned wm_pattern_edges(const wm_pattern *p) {
  unsigned twice = 0;
  for (unsigned i = 0; i < p->k && i < WM_MAX_K; i++)
    twice += (unsigned)__builtin_popcount(p->adj[i] & (uint8_t)~(1u << i));
  return twice / 2;
}

int wm_name_equal(const char *a, const char *b) {
  for (; *a && *b; a++, b++) {
    char x = (*a >= 'A' && *a <= 'Z') ? (char)(*a + 32) : *a;
    char y = (*b >= 'A' && *b <= 'Z') ? (char)(*b + 32) : *b;
    if (x != y) return 0;
  }
  return *a == *b;
}

static int check_shape(const wm_pattern *p, const char *who, wm_error *err) {
  if (p->k < 2 || p->k > WM_MAX_K)
    return wm_fail(err, WM_EINPUT, "%s: has %u vertices; a pattern needs 2 to %d", who,
                   (unsigned)p->k, WM_MAX_K);
  uint8_t inside = (uint8_t)((1u << p->k) - 1u);
  for (unsigned i = 0; i < WM_MAX_K; i++) {
    if (i >= p->k) {
      if (p->adj[i])
        return wm_fail(err, WM_EINPUT, "%s: vertex %u has edges but the pattern has %u vertices",
                       who, i, (unsigned)p->k);
      continue;
    }
    if ((p->adj[i] >> i) & 1u)
      return wm_fail(err, WM_EINPUT, "%s: self-loop at vertex %u (patterns have no loops)", who, i);
    if (p->adj[i] & (uint8_t)~inside)
      return wm_fail(err, WM_EINPUT, "%s: vertex %u has an edge to vertex %d, beyond its %u vertices",
                     who, i, __builtin_ctz(p->adj[i] & (uint8_t)~inside), (unsigned)p->k);
    for (unsigned j = 0; j < p->k; j++)
      if (((p->adj[i] >> j) & 1u) != ((p->adj[j] >> i) & 1u))
        return wm_fail(err, WM_EINPUT, "%s: edge %u-%u is recorded in one direction only", who,
                       i, j);
  }
  return WM_OK;
}

static int check_labels(const wm_pattern *p, const char *who, wm_error *err) {
  int any = 0;
  for (unsigned i = 0; i < p->k; i++) {
    if (p->label[i] < WM_ANY_LABEL)
      return wm_fail(err, WM_EINPUT, "%s: vertex %u has label %d; labels are >= 0 (or any)", who,
                     i, (int)p->label[i]);
    if (p->label[i] != WM_ANY_LABEL) any = 1;
  }
  if (any != (p->labeled != 0))
    return wm_fail(err, WM_EINPUT, "%s: the 'labeled' flag disagrees with the vertex labels "
                   "(set labels with wm_pattern_set_label)", who);
  return WM_OK;
}

/* Lists the vertices outside vertex 0's component in the message. */
static int check_connected(const wm_pattern *p, const char *who, wm_error *err) {
  uint8_t all = (uint8_t)((1u << p->k) - 1u), seen = 1, frontier = 1;
  while (frontier) {
    uint8_t next = 0;
    for (unsigned v = 0; v < p->k; v++)
      if ((frontier >> v) & 1u) next |= p->adj[v];
    frontier = (uint8_t)(next & ~seen);
    seen |= next;
  }
  uint8_t rest = (uint8_t)(all & ~seen);
  if (!rest) return WM_OK;
  char list[64] = "";
  unsigned n = 0, total = (unsigned)__builtin_popcount(rest), len = 0;
  for (unsigned v = 0; v < p->k; v++) {
    if (!((rest >> v) & 1u)) continue;
    const char *sep = n == 0 ? "" : (n + 1 == total ? " and " : ", ");
    len += (unsigned)snprintf(list + len, sizeof list - len, "%s%u", sep, v);
    n++;
  }
  return wm_fail(err, WM_EINPUT, "%s: %s %s %s not connected to the rest", who,
                 total == 1 ? "vertex" : "vertices", list, total == 1 ? "is" : "are");
}

int wm_pattern_validate_as(const wm_pattern *p, const char *who, wm_error *err) {
  int rc = check_shape(p, who, err);
  if (rc) return rc;
  if (wm_pattern_edges(p) == 0)
    return wm_fail(err, WM_EINPUT, "%s: has no edges (a pattern needs at least one)", who);
  rc = check_labels(p, who, err);
  if (rc) return rc;
  return check_connected(p, who, err);
}

int wm_pattern_validate(const wm_pattern *p, wm_error *err) {
  char who[96];
  if (p->name[0])
    snprintf(who, sizeof who, "pattern '%.63s'", p->name);
  else
    snprintf(who, sizeof who, "pattern (unnamed)");
  return wm_pattern_validate_as(p, who, err);
}

void wm_pattern_edge_string(const wm_pattern *p, char *buf, unsigned size) {
  if (size == 0) return;
  buf[0] = '\0';
  unsigned len = 0;
  for (unsigned i = 0; i < p->k && i < WM_MAX_K; i++)
    for (unsigned j = i + 1; j < p->k && j < WM_MAX_K; j++) {
      if (!wm_pattern_has_edge(p, i, j)) continue;
      if (len >= size) return;
      int w = snprintf(buf + len, size - len, "%s%u-%u", len ? " " : "", i, j);
      if (w < 0 || (unsigned)w >= size - len) {
        buf[len] = '\0'; /* never leave half an edge behind */
        return;
      }
      len += (unsigned)w;
    }
}
