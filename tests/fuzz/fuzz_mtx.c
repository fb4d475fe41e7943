/* Fuzz target: the Matrix Market reader (wm_read_mtx), undirected and
 * directed, on the same bytes. */
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (fuzz_mtx_huge(data, size)) return 0;
  const char *path = fuzz_file(data, size);
  for (int directed = 0; directed <= 1; directed++) {
    wm_graph *g = NULL;
    wm_error err = {0};
    int rc = wm_read_mtx(path, directed, 0, &g, &err);
    if (rc == WM_OK) fuzz_check_graph("mtx", g, directed);
    else fuzz_check_refusal("mtx", rc, g, &err);
    wm_graph_destroy(g);
  }
  return 0;
}
