/* Fuzz target: wm_graph_load, which tells the format from the content
 * (.wmg magic, %%MatrixMarket banner, else an edge list) and hands the
 * file to that reader; without the cache, so nothing is written. */
#include <strings.h>

#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size >= 14 && strncasecmp((const char *)data, "%%MatrixMarket", 14) == 0 && fuzz_mtx_huge(data, size))
    return 0;
  const char *path = fuzz_file(data, size);
  for (int directed = 0; directed <= 1; directed++) {
    wm_load_options opt;
    wm_load_options_init(&opt);
    opt.use_cache = 0;
    opt.directed = directed;
    wm_graph *g = NULL;
    wm_load_info info;
    wm_error err = {0};
    int rc = wm_graph_load(path, &opt, &g, &info, &err);
    if (rc == WM_OK) {
      /* A .wmg carries its own DIRECTED flag; the text formats follow opt. */
      fuzz_check_graph("load", g, info.format == WM_FORMAT_WMG ? -1 : directed);
      FUZZ_REQUIRE(!info.from_cache && !info.cache_written, "load: used a cache with use_cache = 0");
    } else {
      fuzz_check_refusal("load", rc, g, &err);
    }
    wm_graph_destroy(g);
  }
  return 0;
}
