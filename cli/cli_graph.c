/* GRAPH arguments of the commands: the shared graph options (--directed,
 * --format, --no-cache), vertex ids given in the file's numbering, and the
 * context the queries run in. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* The options into *lo and *format (WARPMATCH_FORMAT_*). */
static int graph_options(const wm_cli *cli, const char *path, warpmatch_load_options *lo, int *format,
                         wm_error *err) {
  static const char *const formats[] = {"auto", "edgelist", "mtx", "wmg", NULL};
  warpmatch_load_options_init(lo);
  int rc = wm_cli_choice(cli, "format", formats, 0, format, err); /* the order of WARPMATCH_FORMAT_* */
  if (rc) return rc;
  lo->directed = wm_cli_flag(cli, "directed");
  lo->use_cache = !wm_cli_flag(cli, "no-cache");
  if (wm_mpi_injected_failure())
    return wm_fail(err, WM_EINPUT, "%s: load failed (fault injected by WM_MPI_FAIL_RANK)", path);
  return WM_OK;
}

/* The load's note (a cache ignored), once under mpirun. */
static void print_note(const char *note) {
  if (note[0] && wm_mpi_rank() == 0) fprintf(stderr, "warpmatch: note: %s\n", note);
}

int wm_cli_open_graph(const wm_cli *cli, warpmatch_context *ctx, const char *path, warpmatch_graph **g,
                      warpmatch_load_info *info, wm_error *err) {
  warpmatch_load_options lo;
  int format = WARPMATCH_FORMAT_AUTO;
  int rc = graph_options(cli, path, &lo, &format, err);
  warpmatch_load_info mine;
  if (!info) info = &mine;
  info->size = sizeof *info;
  /* Under mpirun rank 0 reads a text graph first and writes its .wmg cache;
   * the others then read the cache instead of parsing the text again.
   * Every rank passes the barrier once, whether its load fails or not. */
  if (wm_mpi_rank() != 0) wm_mpi_barrier();
  if (!rc) rc = wm_cli_api(ctx, warpmatch_graph_load_ex(ctx, path, &lo, format, g, info), err);
  if (wm_mpi_rank() == 0) wm_mpi_barrier();
  if (!rc) print_note(info->note);
  return rc;
}

int wm_cli_vertex(const wm_cli *cli, const warpmatch_graph *g, const char *name, uint32_t *v, wm_error *err) {
  const char *s = wm_cli_str(cli, name);
  uint64_t id;
  if (!s) return wm_fail(err, WM_EUSAGE, "%s: missing --%s (a vertex id of the graph file)", cli->command, name);
  if (!wm_parse_u64(s, &id))
    return wm_fail(err, WM_EUSAGE, "%s: --%s expects a vertex id (a whole number), got '%s'", cli->command, name, s);
  if (!warpmatch_graph_find(g, id, v))
    return wm_fail(err, WM_EINPUT, "%s: --%s %s: the graph has no vertex with this id", cli->command, name, s);
  return WM_OK;
}

const char *wm_cli_base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

int wm_cli_context(const wm_cli *cli, warpmatch_context **ctx, wm_error *err) {
  uint64_t threads;
  int rc = wm_cli_u64(cli, "threads", 0, 0, WARPMATCH_MAX_THREADS, &threads, err);
  if (rc) return rc;
  if (warpmatch_context_create(ctx)) return wm_fail(err, WM_EINPUT, "out of memory");
  wm_mpi_share_work(*ctx);
  return wm_cli_api(*ctx, warpmatch_set_threads(*ctx, (int)threads), err);
}

int wm_cli_api(const warpmatch_context *ctx, int rc, wm_error *err) {
  if (rc == WARPMATCH_OK) return WM_OK;
  err->code = rc;
  snprintf(err->msg, sizeof err->msg, "%s", warpmatch_last_error(ctx));
  return rc;
}
