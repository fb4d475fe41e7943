/* warpmatch gen kron|rmat: writes a synthetic graph as .wmg. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const wm_optspec spec[] = {
    {"scale", "S", "2^S vertices (1..31; required)"},
    {"edge-factor", "K", "edges generated = K * 2^S, before duplicates are dropped (default 16)"},
    {"seed", "N", "random seed; the same seed gives the same graph (default 1)"},
    {"a", "A", "quadrant probability A (kron 0.57, rmat 0.45)"},
    {"b", "B", "quadrant probability B (kron 0.19, rmat 0.15)"},
    {"c", "C", "quadrant probability C (kron 0.19, rmat 0.15); D = 1 - A - B - C"},
    {"permute", NULL, "relabel vertices by a random permutation (default for kron)"},
    {"no-permute", NULL, "keep the generator's vertex ids (default for rmat)"},
    {"output", "OUT.wmg", "where to write the graph (required)"},
    {NULL, NULL, NULL},
};

/* Reads the generator name and every option into o.  The scale and the
 * edge factor are checked here, naming the options; the probabilities by
 * the library. */
static int parse_options(const wm_cli *cli, warpmatch_gen_options *o, const char **kind,
                         const char **output, wm_error *err) {
  *kind = cli->positional[0];
  int gen;
  if (strcmp(*kind, "kron") == 0)
    gen = WARPMATCH_GEN_KRON;
  else if (strcmp(*kind, "rmat") == 0)
    gen = WARPMATCH_GEN_RMAT;
  else
    return wm_fail(err, WM_EUSAGE, "gen: unknown generator '%s' (expected kron or rmat)", *kind);
  *output = wm_cli_str(cli, "output");
  if (!*output || !**output) return wm_fail(err, WM_EUSAGE, "gen: --output OUT.wmg is required");
  if (!wm_cli_str(cli, "scale")) return wm_fail(err, WM_EUSAGE, "gen: --scale S is required");

  uint64_t scale, seed, ef;
  int rc = wm_cli_u64(cli, "scale", 0, 0, UINT64_MAX, &scale, err);
  if (rc) return rc;
  if (scale < 1 || scale > WARPMATCH_GEN_MAX_SCALE)
    return wm_fail(err, WM_EUSAGE,
                   "gen: --scale must be 1..%d (2^scale vertices; vertex ids are 32-bit, so "
                   "scale %d and above cannot be stored), got %llu",
                   WARPMATCH_GEN_MAX_SCALE, WARPMATCH_GEN_MAX_SCALE + 1, (unsigned long long)scale);
  if ((rc = wm_cli_u64(cli, "seed", 1, 0, UINT64_MAX, &seed, err))) return rc;
  warpmatch_gen_options_init(o, gen, (unsigned)scale, seed);
  if ((rc = wm_cli_u64(cli, "edge-factor", o->edge_factor, 1, WARPMATCH_GEN_MAX_EDGE_FACTOR, &ef, err))) return rc;
  o->edge_factor = (unsigned)ef;
  if ((rc = wm_cli_double(cli, "a", o->a, &o->a, err)) ||
      (rc = wm_cli_double(cli, "b", o->b, &o->b, err)) ||
      (rc = wm_cli_double(cli, "c", o->c, &o->c, err)))
    return rc;
  if (wm_cli_flag(cli, "permute") && wm_cli_flag(cli, "no-permute"))
    return wm_fail(err, WM_EUSAGE, "gen: --permute and --no-permute contradict each other");
  if (wm_cli_flag(cli, "permute")) o->permute = 1;
  if (wm_cli_flag(cli, "no-permute")) o->permute = 0;
  return WM_OK;
}

static void print_summary(const wm_cli *cli, const char *kind, const warpmatch_gen_options *o,
                          const warpmatch_graph *g, const warpmatch_degree_stats *st, const char *output,
                          double gen_s, double write_s) {
  double d = 1.0 - o->a - o->b - o->c;
  const uint32_t n = warpmatch_graph_vertices(g);
  if (cli->json) {
    wm_json j;
    wm_json_begin(&j, stdout);
    wm_json_str(&j, "generator", kind);
    wm_json_u64(&j, "scale", o->scale);
    wm_json_u64(&j, "edge_factor", o->edge_factor);
    wm_json_u64(&j, "seed", o->seed);
    wm_json_double(&j, "a", o->a);
    wm_json_double(&j, "b", o->b);
    wm_json_double(&j, "c", o->c);
    wm_json_double(&j, "d", d < 0 ? 0 : d);
    wm_json_bool(&j, "permuted", o->permute);
    wm_json_u64(&j, "vertices", n);
    wm_json_u64(&j, "edges", warpmatch_graph_edges(g));
    wm_json_u64(&j, "edges_generated", (uint64_t)o->edge_factor << o->scale);
    wm_json_u64(&j, "max_degree", st->max_degree);
    wm_json_double(&j, "mean_degree", st->mean_degree);
    wm_json_u64(&j, "isolated", st->isolated);
    wm_json_str(&j, "output", output);
    wm_json_double(&j, "generate_seconds", gen_s);
    wm_json_double(&j, "write_seconds", write_s);
    wm_json_double(&j, "seconds", gen_s + write_s);
    wm_json_end(&j);
    return;
  }
  printf("%s scale %u, edge factor %u, seed %llu, a/b/c/d %.4g/%.4g/%.4g/%.4g%s\n", kind, o->scale,
         o->edge_factor, (unsigned long long)o->seed, o->a, o->b, o->c, d < 0 ? 0 : d,
         o->permute ? ", permuted" : "");
  printf("vertices   %u (%llu isolated)\n", n, (unsigned long long)st->isolated);
  printf("edges      %llu (undirected, unique; %llu generated)\n",
         (unsigned long long)warpmatch_graph_edges(g), (unsigned long long)o->edge_factor << o->scale);
  printf("degree     max %llu, mean %.2f\n", (unsigned long long)st->max_degree, st->mean_degree);
  printf("seconds    %.3f (generate %.3f, write %.3f)\n", gen_s + write_s, gen_s, write_s);
  printf("output     %s\n", output);
}

int wm_cmd_gen(int argc, char **argv) {
  wm_cli cli;
  wm_error err;
  if (wm_cli_parse(&cli, "gen", "kron|rmat --scale S --output OUT.wmg [options]",
                   "Generate a Graph500 Kronecker or R-MAT graph (symmetric, simple) and write it "
                   "as .wmg.\nThe same options and seed always give the same file, whatever the "
                   "number of threads.",
                   spec, 1, 1, argc, argv, &err))
    return wm_cli_report(&err);
  if (cli.help) return WM_OK;

  warpmatch_gen_options o;
  const char *kind = NULL, *output = NULL;
  if (parse_options(&cli, &o, &kind, &output, &err)) return wm_cli_report(&err);

  warpmatch_context *ctx = NULL;
  warpmatch_graph *g = NULL;
  warpmatch_degree_stats st;
  st.size = sizeof st;
  int rc = wm_cli_context(&cli, &ctx, &err);
  double t0 = wm_now();
  if (!rc) rc = wm_cli_api(ctx, warpmatch_generate(ctx, &o, &g), &err);
  double t1 = wm_now();
  if (!rc) rc = wm_cli_api(ctx, warpmatch_graph_save(ctx, g, output), &err);
  double t2 = wm_now();
  if (!rc) rc = wm_cli_api(ctx, warpmatch_graph_degree_stats(ctx, g, &st), &err);
  if (!rc) print_summary(&cli, kind, &o, g, &st, output, t1 - t0, t2 - t1);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
  return rc ? wm_cli_report(&err) : WM_OK;
}
