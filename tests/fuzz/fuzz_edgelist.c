/* Fuzz target: the edge-list reader (wm_read_edgelist), undirected and
 * directed, on the same bytes. */
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = fuzz_file(data, size);
  for (int directed = 0; directed <= 1; directed++) {
    wm_graph *g = NULL;
    wm_error err = {0};
    int rc = wm_read_edgelist(path, directed, 0, &g, &err);
    if (rc == WM_OK) fuzz_check_graph("edge list", g, directed);
    else fuzz_check_refusal("edge list", rc, g, &err);
    wm_graph_destroy(g);
  }
  return 0;
}
