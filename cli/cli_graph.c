/* GRAPH arguments of the commands: the shared graph options (--directed,
 * --format, --no-cache) and vertex ids given in the file's numbering. */
#include <stdio.h>

#include "cli.h"

int wm_cli_load_graph(const wm_cli *cli, const char *path, wm_graph **g, wm_load_info *info,
                      wm_error *err) {
  static const char *const formats[] = {"auto", "edgelist", "mtx", "wmg", NULL};
  wm_load_options opt;
  wm_load_options_init(&opt);
  int fmt = 0;
  int rc = wm_cli_choice(cli, "format", formats, 0, &fmt, err);
  if (rc) return rc;
  opt.format = (wm_format)fmt; /* the order of `formats` is the enum's */
  opt.directed = wm_cli_flag(cli, "directed");
  opt.use_cache = !wm_cli_flag(cli, "no-cache");
  opt.progress = 1; /* shown only when stderr is a terminal */
  if (wm_mpi_injected_failure())
    return wm_fail(err, WM_EINPUT, "%s: load failed (fault injected by WM_MPI_FAIL_RANK)", path);
  return wm_graph_load(path, &opt, g, info, err);
}

int wm_cli_vertex(const wm_cli *cli, const wm_graph *g, const char *name, uint32_t *v, wm_error *err) {
  const char *s = wm_cli_str(cli, name);
  uint64_t id;
  if (!s) return wm_fail(err, WM_EUSAGE, "%s: missing --%s (a vertex id of the graph file)", cli->command, name);
  if (!wm_parse_u64(s, &id))
    return wm_fail(err, WM_EUSAGE, "%s: --%s expects a vertex id (a whole number), got '%s'", cli->command, name, s);
  uint32_t x = wm_graph_internal_id(g, id);
  if (x == WM_NO_VERTEX)
    return wm_fail(err, WM_EINPUT, "%s: --%s %s: the graph has no vertex with this id", cli->command, name, s);
  *v = x;
  return WM_OK;
}
