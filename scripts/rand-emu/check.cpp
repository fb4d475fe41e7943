// rand-emu: the GPU's edge switching (datasets/gpu_rand_switch.cu) on the
// CPU emulator, through wm_randomize with use_gpu: every degree (in and out)
// kept, no loop or multi-edge, the same key the same graph, another seed or
// index another graph, exactly swaps x m attempts, and a ring lattice mixed
// (its 6000 triangles down to tens).  Exits 1 at the first failure.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vector>

#include "randomize.h"

static int failures = 0;
#define CHECK(cond, ...)                                   \
  do {                                                     \
    if (!(cond)) {                                         \
      printf("FAIL %s:%d: ", __FILE__, __LINE__);          \
      printf(__VA_ARGS__);                                 \
      printf("\n");                                        \
      failures++;                                          \
    }                                                      \
  } while (0)

static wm_graph *from(std::vector<uint32_t> src, std::vector<uint32_t> dst, uint32_t n, int directed) {
  wm_graph *g = NULL;
  wm_error err;
  if (wm_graph_from_arcs(src.data(), dst.data(), src.size(), n, directed, &g, &err) != WM_OK) {
    printf("graph: %s\n", err.msg);
    exit(1);
  }
  return g;
}

static wm_graph *ring(uint32_t n, uint32_t k, int directed) {
  std::vector<uint32_t> s, d;
  for (uint32_t i = 0; i < n; i++)
    for (uint32_t j = 1; j <= k; j++) s.push_back(i), d.push_back((i + j) % n);
  return from(s, d, n, directed);
}

// A skewed random graph: each edge's ends drawn with weight ~ 1/(i+1).
static wm_graph *skewed(uint32_t n, uint64_t edges, int directed, uint64_t seed) {
  std::vector<uint32_t> s, d;
  uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
  auto next = [&x]() {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    return x;
  };
  for (uint64_t e = 0; e < edges; e++) {
    const double a = (double)(next() >> 11) * 0x1p-53, b = (double)(next() >> 11) * 0x1p-53;
    const uint32_t u = (uint32_t)(n * a * a), v = (uint32_t)(n * b);
    if (u != v) s.push_back(u), d.push_back(v);
  }
  return from(s, d, n, directed);
}

static wm_graph *on_gpu(const wm_graph *g, uint64_t seed, uint64_t index, unsigned swaps, wm_randomize_stats *st) {
  wm_randomize_options o;
  memset(&o, 0, sizeof o);
  o.method = WM_RANDOMIZE_SWITCH, o.seed = seed, o.index = index, o.swaps_per_edge = swaps, o.use_gpu = 1;
  wm_graph *r = NULL;
  wm_error err;
  if (wm_randomize(g, &o, &r, st, &err) != WM_OK) {
    printf("FAIL wm_randomize: %s\n", err.msg);
    exit(1);
  }
  return r;
}

static void same_degrees_simple(const wm_graph *g, const wm_graph *r, const char *what) {
  CHECK(r->n == g->n && r->m == g->m, "%s: size", what);
  std::vector<uint64_t> a(g->n), b(g->n);
  for (uint64_t e = 0; e < g->m; e++) a[g->adj[e]]++, b[r->adj[e]]++;
  for (uint32_t v = 0; v < g->n; v++) {
    CHECK(wm_degree(r, v) == wm_degree(g, v), "%s: vertex %u out-degree", what, v);
    CHECK(a[v] == b[v], "%s: vertex %u in-degree", what, v);
    for (uint64_t i = r->offsets[v]; i < r->offsets[v + 1]; i++) {
      CHECK(r->adj[i] != v, "%s: loop at %u", what, v);
      if (i > r->offsets[v]) CHECK(r->adj[i] > r->adj[i - 1], "%s: multi-edge at %u", what, v);
      if (!(g->flags & WM_GRAPH_DIRECTED)) CHECK(wm_graph_has_arc(r, r->adj[i], v), "%s: asymmetric at %u", what, v);
    }
  }
}

static uint64_t triangles(const wm_graph *g) {
  const uint32_t n = g->n;
  std::vector<unsigned char> adj((size_t)n * n);
  for (uint32_t u = 0; u < n; u++)
    for (uint64_t i = g->offsets[u]; i < g->offsets[u + 1]; i++)
      adj[(size_t)u * n + g->adj[i]] = adj[(size_t)g->adj[i] * n + u] = 1;
  uint64_t t = 0;
  for (uint32_t u = 0; u < n; u++)
    for (uint32_t v = u + 1; v < n; v++)
      if (adj[(size_t)u * n + v])
        for (uint32_t w = v + 1; w < n; w++) t += adj[(size_t)u * n + w] & adj[(size_t)v * n + w];
  return t;
}

static int same(const wm_graph *a, const wm_graph *b) {
  return a->m == b->m && !memcmp(a->adj, b->adj, a->m * sizeof *a->adj);
}

int main() {
  wm_graph *gs[] = {skewed(400, 1600, 0, 1), skewed(400, 1600, 1, 2), ring(300, 4, 1), ring(101, 1, 0),
                    skewed(3000, 20000, 0, 3)};
  const char *names[] = {"skewed undirected", "skewed directed", "directed ring", "101-cycle", "skewed 3000"};
  for (int k = 0; k < 5; k++) {
    wm_randomize_stats s1, s2, s3;
    const unsigned swaps = k == 3 ? 7 : 10;
    wm_graph *a = on_gpu(gs[k], 42, 3, swaps, &s1), *b = on_gpu(gs[k], 42, 3, swaps, &s2);
    wm_graph *c = on_gpu(gs[k], 43, 3, swaps, &s3), *d = on_gpu(gs[k], 42, 4, swaps, &s3);
    same_degrees_simple(gs[k], a, names[k]);
    same_degrees_simple(gs[k], c, names[k]);
    CHECK(s1.attempted == (uint64_t)swaps * wm_graph_edges(gs[k]), "%s: %llu attempted", names[k],
          (unsigned long long)s1.attempted);
    CHECK(s1.accepted > 0 && s1.accepted <= s1.attempted, "%s: %llu accepted", names[k],
          (unsigned long long)s1.accepted);
    CHECK(same(a, b) && s1.accepted == s2.accepted, "%s: the same key, another graph", names[k]);
    CHECK(!same(a, c), "%s: another seed, the same graph", names[k]);
    CHECK(!same(a, d), "%s: another index, the same graph", names[k]);
    printf("%-18s m %6llu: %llu attempted, %llu accepted, %llu of the edges kept (%.1f expected)\n", names[k],
           (unsigned long long)wm_graph_edges(gs[k]), (unsigned long long)s1.attempted,
           (unsigned long long)s1.accepted, (unsigned long long)s1.edges_kept, s1.edges_kept_expected);
    wm_graph_destroy(a), wm_graph_destroy(b), wm_graph_destroy(c), wm_graph_destroy(d), wm_graph_destroy(gs[k]);
  }
  /* one switcher (the buffers kept) for graphs 0..3 in a row: each the one-shot maker's */
  for (int directed = 0; directed < 2; directed++) {
    wm_graph *g = skewed(500, 2500, directed, 5 + directed);
    wm_gpu_switcher *w = NULL;
    wm_error err;
    CHECK(wm_gpu_switcher_create(g, 0, &w, &err) == WM_OK, "switcher: %s", err.msg);
    for (uint64_t i = 0; w && i < 4; i++) {
      wm_randomize_stats one, kept;
      wm_graph *a = on_gpu(g, 8, i, 10, &one), *b = NULL;
      wm_randomize_options o;
      memset(&o, 0, sizeof o);
      o.method = WM_RANDOMIZE_SWITCH, o.seed = 8, o.index = i, o.swaps_per_edge = 10, o.use_gpu = 1, o.switcher = w;
      CHECK(wm_randomize(g, &o, &b, &kept, &err) == WM_OK, "switcher graph %llu: %s", (unsigned long long)i, err.msg);
      if (b)
        CHECK(same(a, b) && one.accepted == kept.accepted, "switcher (directed %d) graph %llu: another graph",
              directed, (unsigned long long)i);
      wm_graph_destroy(a), wm_graph_destroy(b);
    }
    printf("switcher (directed %d): graphs 0..3 with kept buffers are the one-shot maker's\n", directed);
    wm_gpu_switcher_destroy(w);
    /* renumbered on the device: each graph is the one-shot maker's renumbered by degree on the host */
    wm_graph *sorted = NULL;
    uint32_t *old_of = NULL;
    CHECK(wm_graph_relabel_by_degree_map(g, &sorted, &old_of, &err) == WM_OK, "relabel: %s", err.msg);
    w = NULL;
    CHECK(wm_gpu_switcher_create_renumbered(g, sorted, old_of, 0, &w, &err) == WM_OK, "renumbered: %s", err.msg);
    free(old_of);
    for (uint64_t i = 0; w && i < 3; i++) {
      wm_randomize_stats one, kept;
      wm_graph *a = on_gpu(g, 8, i, 10, &one), *as = NULL, *b = NULL;
      CHECK(wm_graph_relabel_by_degree(a, &as, &err) == WM_OK, "relabel: %s", err.msg);
      wm_randomize_options o;
      memset(&o, 0, sizeof o);
      o.method = WM_RANDOMIZE_SWITCH, o.seed = 8, o.index = i, o.swaps_per_edge = 10, o.use_gpu = 1, o.switcher = w;
      CHECK(wm_randomize(sorted, &o, &b, &kept, &err) == WM_OK, "renumbered graph %llu: %s", (unsigned long long)i,
            err.msg);
      if (b && as)
        CHECK(same(as, b) && !memcmp(as->offsets, b->offsets, ((size_t)g->n + 1) * sizeof *b->offsets) &&
                  one.accepted == kept.accepted && one.edges_kept == kept.edges_kept,
              "renumbered (directed %d) graph %llu: not the one-shot graph renumbered", directed,
              (unsigned long long)i);
      wm_graph_destroy(a), wm_graph_destroy(as), wm_graph_destroy(b);
    }
    printf("switcher (directed %d): renumbered on the device = renumbered on the host\n", directed);
    wm_gpu_switcher_destroy(w);
    wm_graph_destroy(sorted);
    wm_graph_destroy(g);
  }
  for (int directed = 0; directed < 2; directed++) {
    wm_graph *g = ring(2000, 3, directed);
    wm_randomize_stats st;
    wm_graph *r = on_gpu(g, 1 + directed, 0, 10, &st);
    same_degrees_simple(g, r, "lattice");
    const uint64_t t = triangles(r);
    CHECK(t < 100, "lattice directed %d: %llu triangles", directed, (unsigned long long)t);
    printf("ring lattice (directed %d): 6000 triangles -> %llu; %llu edges kept (%.1f expected)\n", directed,
           (unsigned long long)t, (unsigned long long)st.edges_kept, st.edges_kept_expected);
    wm_graph_destroy(r), wm_graph_destroy(g);
  }
  if (failures) printf("rand-emu: %d failures\n", failures);
  return failures ? 1 : 0;
}
