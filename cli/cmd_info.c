/* warpmatch info GRAPH: size, degree summary and how the graph was loaded. */
#include <stdio.h>

#include "cli.h"

static const wm_optspec spec[] = {
    WM_GRAPH_OPTSPEC,
    {NULL, NULL, NULL},
};

static const char *format_name(wm_format f) {
  switch (f) {
  case WM_FORMAT_EDGELIST: return "edgelist";
  case WM_FORMAT_MTX: return "mtx";
  case WM_FORMAT_WMG: return "wmg";
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

static const char *cache_word(const wm_load_info *info) {
  if (info->format == WM_FORMAT_WMG) return "not needed (binary input)";
  if (info->from_cache) return "used";
  if (info->cache_written) return "written";
  return info->cache_path[0] ? "not written" : "off";
}

static void print_json(const wm_graph *g, const wm_degree_stats *st, const wm_load_info *info) {
  wm_json j;
  wm_json_begin(&j, stdout);
  wm_json_u64(&j, "vertices", g->n);
  wm_json_u64(&j, "edges", wm_graph_edges(g));
  wm_json_u64(&j, "arcs", g->m);
  wm_json_bool(&j, "directed", (g->flags & WM_GRAPH_DIRECTED) != 0);
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

static void print_text(const char *path, const wm_graph *g, const wm_degree_stats *st,
                       const wm_load_info *info) {
  char a[32], b[32], c[32], d[32];
  int directed = (g->flags & WM_GRAPH_DIRECTED) != 0;
  printf("graph      %s (%s)\n", path, format_name(info->format));
  printf("vertices   %s\n", grouped(g->n, a, sizeof a));
  printf("edges      %s %s\n", grouped(wm_graph_edges(g), a, sizeof a),
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
  wm_graph *g = NULL;
  wm_load_info info;
  if (wm_cli_load_graph(&cli, cli.positional[0], &g, &info, &err)) return wm_cli_report(&err);
  wm_degree_stats st;
  wm_graph_degree_stats(g, &st);
  if (cli.json) print_json(g, &st, &info);
  else print_text(cli.positional[0], g, &st, &info);
  wm_graph_destroy(g);
  return WM_OK;
}
