/* Helpers shared by the fuzz targets (see fuzz_util.h). */
#define _GNU_SOURCE /* memfd_create */
#include "fuzz_util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

void fuzz_fail(const char *file, int line, const char *cond, const char *fmt, ...) {
  fprintf(stderr, "%s:%d: fuzz invariant broken: %s: ", file, line, cond);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  abort();
}

/* One in-memory file for the process, rewritten per input; a temporary file
 * (unlinked) where memfd_create is missing. */
const char *fuzz_file(const uint8_t *data, size_t size) {
  static int fd = -1;
  static char path[64];
  if (fd < 0) {
    fd = memfd_create("wm-fuzz-input", 0);
    if (fd < 0) {
      FILE *f = tmpfile();
      FUZZ_REQUIRE(f != NULL, "no memfd and no temporary file for the input");
      fd = fileno(f);
    }
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  }
  FUZZ_REQUIRE(ftruncate(fd, 0) == 0, "cannot empty the input file");
  for (size_t done = 0; done < size;) {
    ssize_t w = pwrite(fd, data + done, size - done, (off_t)done);
    FUZZ_REQUIRE(w > 0, "cannot write the input file");
    done += (size_t)w;
  }
  return path;
}

char *fuzz_text(const uint8_t *data, size_t size) {
  char *t = malloc(size + 1);
  FUZZ_REQUIRE(t != NULL, "out of memory for %zu bytes", size);
  if (size) memcpy(t, data, size);
  t[size] = '\0';
  return t;
}

/* The first two numbers of line [p, e): 1 when either exceeds 2^17. */
static int huge_numbers(const uint8_t *p, const uint8_t *e) {
  for (int found = 0; found < 2 && p < e; found++) {
    while (p < e && (*p < '0' || *p > '9')) p++;
    uint64_t x = 0;
    for (; p < e && *p >= '0' && *p <= '9'; p++)
      if ((x = x * 10 + (uint64_t)(*p - '0')) > (1u << 17)) return 1;
  }
  return 0;
}

int fuzz_mtx_huge(const uint8_t *data, size_t size) {
  const uint8_t *p = data, *end = data + size;
  for (int line = 0; p < end; line++) {
    const uint8_t *nl = memchr(p, '\n', (size_t)(end - p)), *e = nl ? nl : end, *q = p;
    while (q < e && (*q == ' ' || *q == '\t' || *q == '\r')) q++;
    if (line > 0 && q < e && *q != '%') return huge_numbers(q, e);
    p = nl ? nl + 1 : end;
  }
  return 0;
}

void fuzz_check_refusal(const char *what, int rc, const void *result, const wm_error *err) {
  FUZZ_REQUIRE(rc == WM_EINPUT, "%s: code %d, expected WM_OK or WM_EINPUT", what, rc);
  FUZZ_REQUIRE(result == NULL, "%s: refused but returned a result", what);
  FUZZ_REQUIRE(memchr(err->msg, '\0', sizeof err->msg) != NULL, "%s: message not terminated", what);
  FUZZ_REQUIRE(err->msg[0] != '\0', "%s: refused without a message", what);
}

static void check_rows(const char *what, const wm_graph *g) {
  FUZZ_REQUIRE(g->offsets[0] == 0, "%s: offsets[0] = %llu", what, (unsigned long long)g->offsets[0]);
  for (uint32_t v = 0; v < g->n; v++)
    FUZZ_REQUIRE(g->offsets[v] <= g->offsets[v + 1], "%s: offsets decrease at vertex %u", what, v);
  FUZZ_REQUIRE(g->offsets[g->n] == g->m, "%s: offsets end at %llu, m = %llu", what,
               (unsigned long long)g->offsets[g->n], (unsigned long long)g->m);
  for (uint32_t v = 0; v < g->n; v++)
    for (uint64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++) {
      FUZZ_REQUIRE(g->adj[e] < g->n, "%s: vertex %u has neighbour %u >= n = %u", what, v, g->adj[e], g->n);
      FUZZ_REQUIRE(g->adj[e] != v, "%s: self-loop at vertex %u", what, v);
      FUZZ_REQUIRE(e == g->offsets[v] || g->adj[e - 1] < g->adj[e],
                   "%s: row %u not strictly ascending at %u", what, v, g->adj[e]);
    }
}

void fuzz_check_graph(const char *what, const wm_graph *g, int want_directed) {
  FUZZ_REQUIRE(g != NULL && g->offsets != NULL, "%s: accepted without a graph", what);
  FUZZ_REQUIRE(g->m == 0 || g->adj != NULL, "%s: %llu arcs without an array", what, (unsigned long long)g->m);
  FUZZ_REQUIRE((g->flags & ~7u) == 0, "%s: unknown flags 0x%x", what, g->flags);
  FUZZ_REQUIRE(!(g->flags & WM_GRAPH_ORIENTED) || (g->flags & WM_GRAPH_DIRECTED),
               "%s: ORIENTED without DIRECTED", what);
  int directed = (g->flags & WM_GRAPH_DIRECTED) != 0;
  FUZZ_REQUIRE(want_directed < 0 || directed == want_directed, "%s: DIRECTED is %d, expected %d", what,
               directed, want_directed);
  check_rows(what, g);
  if (!directed) {
    FUZZ_REQUIRE(g->m % 2 == 0, "%s: undirected with an odd arc count %llu", what, (unsigned long long)g->m);
    for (uint32_t v = 0; v < g->n; v++)
      for (uint64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++)
        FUZZ_REQUIRE(wm_graph_has_arc(g, g->adj[e], v), "%s: undirected but arc %u->%u has no reverse", what, v,
                     g->adj[e]);
  }
  if (!g->orig_ids) return;
  for (uint32_t v = 0; v < g->n; v++) {
    FUZZ_REQUIRE(g->orig_ids[v] <= WM_MAX_VERTEX_ID, "%s: file id %u out of range", what, g->orig_ids[v]);
    FUZZ_REQUIRE((g->flags & WM_GRAPH_DEGREE_SORTED) || v == 0 || g->orig_ids[v - 1] < g->orig_ids[v],
                 "%s: file ids not ascending at vertex %u", what, v);
  }
}

void fuzz_check_pattern(const char *what, const wm_pattern *p) {
  FUZZ_REQUIRE(p->k >= 2 && p->k <= WM_MAX_K, "%s: k = %u", what, p->k);
  int labeled = 0;
  for (unsigned i = 0; i < WM_MAX_K; i++) {
    unsigned inside = i < p->k ? (1u << p->k) - 1 : 0;
    FUZZ_REQUIRE((p->adj[i] & ~inside) == 0, "%s: vertex %u has edges outside the %u vertices", what, i, p->k);
    FUZZ_REQUIRE(!((p->adj[i] >> i) & 1u), "%s: loop at vertex %u", what, i);
    for (unsigned j = 0; j < p->k; j++)
      FUZZ_REQUIRE(wm_pattern_has_edge(p, i, j) == wm_pattern_has_edge(p, j, i),
                   "%s: edge %u-%u one way only", what, i, j);
    if (i < p->k) {
      FUZZ_REQUIRE(p->label[i] == WM_ANY_LABEL || p->label[i] >= 0, "%s: label %d", what, p->label[i]);
      labeled |= p->label[i] != WM_ANY_LABEL;
    }
  }
  FUZZ_REQUIRE(p->labeled == labeled, "%s: labeled = %d, the labels say %d", what, p->labeled, labeled);
  FUZZ_REQUIRE(memchr(p->name, '\0', sizeof p->name) != NULL, "%s: name not terminated", what);
  wm_error err;
  FUZZ_REQUIRE(wm_pattern_validate(p, &err) == WM_OK, "%s: accepted but invalid: %s", what, err.msg);
  wm_automorphisms aut = {0};
  FUZZ_REQUIRE(wm_pattern_automorphisms(p, &aut, &err) == WM_OK, "%s: automorphisms: %s", what, err.msg);
  FUZZ_REQUIRE(aut.count >= 1, "%s: no automorphism (the identity is one)", what);
  wm_automorphisms_free(&aut);
  wm_canonical c;
  wm_pattern_canonical(p, &c);
  FUZZ_REQUIRE(c.form.k == p->k && wm_pattern_edges(&c.form) == wm_pattern_edges(p),
               "%s: canonical form has another size", what);
}
