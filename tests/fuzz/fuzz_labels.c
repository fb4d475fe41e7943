/* Fuzz target: the vertex-label reader (wm_read_labels), against two
 * graphs: one whose file ids are sparse (3, 5, 9, 12, 40: internal ids
 * differ, orig_ids set) and one whose file ids are 0..9. */
#include <stdlib.h>

#include "fuzz_util.h"

static wm_graph *graph_of(const uint32_t *s, const uint32_t *d, uint64_t count, uint64_t n_hint) {
  uint32_t src[16], dst[16];
  for (uint64_t i = 0; i < count; i++) src[i] = s[i], dst[i] = d[i];
  wm_graph *g = NULL;
  wm_error err;
  FUZZ_REQUIRE(wm_graph_from_arcs(src, dst, count, n_hint, 0, &g, &err) == WM_OK, "%s", err.msg);
  return g;
}

static void read_against(const char *path, const wm_graph *g) {
  int32_t *labels = NULL;
  wm_error err = {0};
  int rc = wm_read_labels(path, g, &labels, &err);
  if (rc != WM_OK) {
    fuzz_check_refusal("labels", rc, labels, &err);
    return;
  }
  FUZZ_REQUIRE(labels != NULL, "labels: accepted without an array");
  for (uint32_t v = 0; v < g->n; v++) FUZZ_REQUIRE(labels[v] >= 0, "labels: vertex %u has label %d", v, labels[v]);
  free(labels);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static wm_graph *sparse, *dense;
  if (!sparse) {
    static const uint32_t s1[] = {3, 5, 9, 3, 12}, d1[] = {5, 9, 3, 12, 40};
    static const uint32_t s2[] = {0, 1, 2, 3, 4, 5, 6, 7, 8}, d2[] = {1, 2, 3, 4, 5, 6, 7, 8, 0};
    sparse = graph_of(s1, d1, 5, 0);
    dense = graph_of(s2, d2, 9, 10); /* vertex 9 isolated */
  }
  const char *path = fuzz_file(data, size);
  read_against(path, sparse);
  read_against(path, dense);
  return 0;
}
