/* warpmatch info GRAPH: size, degree summary and how the graph was loaded. */
#include <stdio.h>

#include "cli.h"

static const wm_optspec spec[] = {
    WM_GRAPH_OPTSPEC,
    {NULL, NULL, NULL},
};

static const char *format_name(int f) {
  switch (f) {
  case WARPMATCH_FORMAT_EDGELIST: return "edgelist";
  case WARPMATCH_FORMAT_MTX: return "mtx";
  case WARPMATCH_FORMAT_WMG: return "wmg";
  default: return "auto";
  }
}

/* 1234567 -> "1,234,567" (readable summaries; JSON gets plain numbers). */
static const char *grouped(uint64_t v, char *buf, size_t size) {
  char digits[32];
  int len = snprintf(digits, sizeof digits, "%llu", (unsigned long long)v), w = 0;
  for (int i = 0; i < len && w + 2 < (int)size; i++) {
    if (i && (len - i) % 3 == 0) buf[w++] = ',';
    buf[w++] = digits[i];
  }
  buf[w] = '\0';
  return buf;
}

static const char *cache_word(const warpmatch_load_info *info) {
  if (info->format == WARPMATCH_FORMAT_WMG) return "not needed (binary input)";
  if (info->from_cache) return "used";
  if (info->cache_written) return "written";
  return info->cache_path[0] ? "not written" : "off";
}

static void print_json(const warpmatch_graph *g, const warpmatch_degree_stats *st, const warpmatch_load_info *info) {
  wm_json j;
  wm_json_begin(&j, stdout);
  wm_json_u64(&j, "vertices", warpmatch_graph_vertices(g));
  wm_json_u64(&j, "edges", warpmatch_graph_edges(g));
  wm_json_u64(&j, "arcs", st->arcs);
  wm_json_bool(&j, "directed", warpmatch_graph_directed(g));
  wm_json_u64(&j, "max_degree", st->max_degree);
  wm_json_u64(&j, "min_degree", st->min_degree);
  wm_json_double(&j, "mean_degree", st->mean_degree);
  wm_json_u64(&j, "median_degree", st->median_degree);
  wm_json_u64(&j, "p99_degree", st->p99_degree);
  wm_json_u64(&j, "isolated", st->isolated);
  wm_json_str(&j, "format", format_name(info->format));
  wm_json_u64(&j, "bytes", info->bytes);
  wm_json_double(&j, "seconds", info->seconds);
  wm_json_bool(&j, "cache", info->from_cache);
  wm_json_bool(&j, "cache_written", info->cache_written);
  if (info->cache_path[0]) wm_json_str(&j, "cache_path", info->cache_path);
  else wm_json_null(&j, "cache_path");
  wm_json_end(&j);
}

static void print_text(const char *path, const warpmatch_graph *g, const warpmatch_degree_stats *st,
                       const warpmatch_load_info *info) {
  char a[32], b[32], c[32], d[32];
  int directed = warpmatch_graph_directed(g);
  printf("graph      %s (%s)\n", path, format_name(info->format));
  printf("vertices   %s\n", grouped(warpmatch_graph_vertices(g), a, sizeof a));
  printf("edges      %s %s\n", grouped(warpmatch_graph_edges(g), a, sizeof a),
         directed ? "arcs (directed)" : "(undirected, unique)");
  printf("degree     max %s  min %s  mean %.2f  median %s  p99 %s%s\n", grouped(st->max_degree, a, sizeof a),
         grouped(st->min_degree, b, sizeof b), st->mean_degree, grouped(st->median_degree, c, sizeof c),
         grouped(st->p99_degree, d, sizeof d), directed ? " (out-degree)" : "");
  printf("isolated   %s\n", grouped(st->isolated, a, sizeof a));
  printf("load       %.3f s, %.1f MB/s, cache %s%s%s\n", info->seconds,
         info->seconds > 0 ? info->bytes / 1e6 / info->seconds : 0.0, cache_word(info),
         info->cache_path[0] ? ": " : "", info->cache_path);
}

int wm_cmd_info(int argc, char **argv) {
  wm_cli cli;
  wm_error err;
  if (wm_cli_parse(&cli, "info", "GRAPH [options]", "Print vertices, edges and the degree summary of a graph",
                   spec, 1, 1, argc, argv, &err))
    return wm_cli_report(&err);
  if (cli.help) return WM_OK;
  warpmatch_context *ctx = NULL;
  warpmatch_graph *g = NULL;
  warpmatch_load_info info;
  warpmatch_degree_stats st;
  st.size = sizeof st;
  int rc = wm_cli_context(&cli, &ctx, &err);
  if (!rc) rc = wm_cli_open_graph(&cli, ctx, cli.positional[0], &g, &info, &err);
  if (!rc) rc = wm_cli_api(ctx, warpmatch_graph_degree_stats(ctx, g, &st), &err);
  if (!rc && cli.json) print_json(g, &st, &info);
  if (!rc && !cli.json) print_text(cli.positional[0], g, &st, &info);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
  return rc ? wm_cli_report(&err) : WM_OK;
}
