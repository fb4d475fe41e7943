/* warpmatch gen kron|rmat|chung-lu|ba|hub|sbm|regular|grid: writes a
 * synthetic graph as .wmg. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const wm_optspec spec[] = {
    {"scale", "S", "kron, rmat: 2^S vertices (1..31; required)"},
    {"edge-factor", "K", "edges generated = K * 2^S, before duplicates are dropped (default 16)"},
    {"seed", "N", "random seed; the same seed gives the same graph (default 1)"},
    {"a", "A", "quadrant probability A (kron 0.57, rmat 0.45)"},
    {"b", "B", "quadrant probability B (kron 0.19, rmat 0.15)"},
    {"c", "C", "quadrant probability C (kron 0.19, rmat 0.15); D = 1 - A - B - C"},
    {"permute", NULL, "relabel vertices by a random permutation (default for kron)"},
    {"no-permute", NULL, "keep the generator's vertex ids (default for rmat)"},
    {"vertices", "N", "vertices, 2..4294967295 (chung-lu, ba, hub, sbm, regular; required)"},
    {"mean-degree", "D", "chung-lu: mean degree (16); hub: the tail's mean degree (4)"},
    {"exponent", "G", "chung-lu: power-law exponent, 2.1..3.5 (2.5)"},
    {"attach", "K", "ba: edges each new vertex attaches (8)"},
    {"hub-fraction", "H", "hub: share of the other vertices joined to the hub, 0..1 (0.5)"},
    {"communities", "C", "sbm: equal communities, 1..N/2 (16)"},
    {"degree-in", "D", "sbm: mean degree inside a community (16)"},
    {"degree-out", "D", "sbm: mean degree across communities (2)"},
    {"degree", "D", "regular: every vertex's degree (16)"},
    {"width", "W", "grid: columns (required)"},
    {"height", "H", "grid: rows (default: the width)"},
    {"shortcuts", "S", "grid: random extra edges as a share of the lattice's, 0..1 (0)"},
    {"output", "OUT.wmg", "where to write the graph (required)"},
    {NULL, NULL, NULL},
};

/* Each generator's name, kind and own options (--seed and --output are
 * everyone's); another generator's option is refused, not ignored. */
static const struct {
  const char *name;
  int kind;
  const char *options;
} generators[] = {
    {"kron", WARPMATCH_GEN_KRON, " scale edge-factor a b c permute no-permute "},
    {"rmat", WARPMATCH_GEN_RMAT, " scale edge-factor a b c permute no-permute "},
    {"chung-lu", WARPMATCH_GEN_CHUNG_LU, " vertices mean-degree exponent "},
    {"ba", WARPMATCH_GEN_BA, " vertices attach "},
    {"hub", WARPMATCH_GEN_HUB, " vertices hub-fraction mean-degree "},
    {"sbm", WARPMATCH_GEN_SBM, " vertices communities degree-in degree-out "},
    {"regular", WARPMATCH_GEN_REGULAR, " vertices degree "},
    {"grid", WARPMATCH_GEN_GRID, " width height shortcuts "},
};
#define GENERATORS (int)(sizeof generators / sizeof generators[0])

static int find_generator(const char *name) {
  for (int i = 0; i < GENERATORS; i++)
    if (strcmp(generators[i].name, name) == 0) return i;
  return -1;
}

/* Whether the space-framed list holds name. */
static int listed(const char *list, const char *name) {
  char word[64];
  snprintf(word, sizeof word, " %s ", name);
  return strstr(list, word) != NULL;
}

static int only_own_options(const wm_cli *cli, int g, wm_error *err) {
  for (int i = 0; cli->spec[i].name; i++) {
    const char *name = cli->spec[i].name;
    if (!cli->value[i] || strcmp(name, "seed") == 0 || strcmp(name, "output") == 0) continue;
    if (!listed(generators[g].options, name))
      return wm_fail(err, WM_EUSAGE, "gen %s: --%s is not one of its options (its own:%.*s)", generators[g].name,
                     name, (int)strlen(generators[g].options) - 1, generators[g].options);
  }
  return WM_OK;
}

/* kron and rmat: the scale and the edge factor are checked here, naming
 * the options; the probabilities by the library. */
static int parse_graph500(const wm_cli *cli, int gen, uint64_t seed, warpmatch_gen_options *o, wm_error *err) {
  if (!wm_cli_str(cli, "scale")) return wm_fail(err, WM_EUSAGE, "gen: --scale S is required");
  uint64_t scale, ef;
  int rc = wm_cli_u64(cli, "scale", 0, 0, UINT64_MAX, &scale, err);
  if (rc) return rc;
  if (scale < 1 || scale > WARPMATCH_GEN_MAX_SCALE)
    return wm_fail(err, WM_EUSAGE,
                   "gen: --scale must be 1..%d (2^scale vertices; vertex ids are 32-bit, so "
                   "scale %d and above cannot be stored), got %llu",
                   WARPMATCH_GEN_MAX_SCALE, WARPMATCH_GEN_MAX_SCALE + 1, (unsigned long long)scale);
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

/* An unsigned option into an unsigned field. */
static int cli_unsigned(const wm_cli *cli, const char *name, unsigned *field, wm_error *err) {
  uint64_t v;
  int rc = wm_cli_u64(cli, name, *field, 1, UINT32_MAX, &v, err);
  if (!rc) *field = (unsigned)v;
  return rc;
}

/* The other models: the sizes are checked here, the models' ranges by the
 * library (its messages name each range). */
static int parse_model(const wm_cli *cli, int gen, uint64_t seed, warpmatch_gen_options *o, wm_error *err) {
  warpmatch_gen_options_init(o, gen, 0, seed);
  int rc;
  if (gen == WARPMATCH_GEN_GRID) {
    if (!wm_cli_str(cli, "width")) return wm_fail(err, WM_EUSAGE, "gen grid: --width W is required");
    if ((rc = wm_cli_u64(cli, "width", 0, 1, WARPMATCH_GEN_MAX_VERTICES, &o->width, err)) ||
        (rc = wm_cli_u64(cli, "height", o->width, 1, WARPMATCH_GEN_MAX_VERTICES, &o->height, err)))
      return rc;
    return wm_cli_double(cli, "shortcuts", o->shortcuts, &o->shortcuts, err);
  }
  if (!wm_cli_str(cli, "vertices")) return wm_fail(err, WM_EUSAGE, "gen: --vertices N is required");
  if ((rc = wm_cli_u64(cli, "vertices", 0, 2, WARPMATCH_GEN_MAX_VERTICES, &o->vertices, err)) ||
      (rc = wm_cli_double(cli, "mean-degree", o->mean_degree, &o->mean_degree, err)) ||
      (rc = wm_cli_double(cli, "exponent", o->exponent, &o->exponent, err)) ||
      (rc = cli_unsigned(cli, "attach", &o->attach, err)) ||
      (rc = wm_cli_double(cli, "hub-fraction", o->hub_fraction, &o->hub_fraction, err)) ||
      (rc = wm_cli_u64(cli, "communities", o->communities, 1, WARPMATCH_GEN_MAX_VERTICES, &o->communities, err)) ||
      (rc = wm_cli_double(cli, "degree-in", o->degree_in, &o->degree_in, err)) ||
      (rc = wm_cli_double(cli, "degree-out", o->degree_out, &o->degree_out, err)) ||
      (rc = cli_unsigned(cli, "degree", &o->degree, err)))
    return rc;
  return WM_OK;
}

/* Reads the generator name and every option into o. */
static int parse_options(const wm_cli *cli, warpmatch_gen_options *o, const char **kind,
                         const char **output, wm_error *err) {
  *kind = cli->positional[0];
  const int g = find_generator(*kind);
  if (g < 0)
    return wm_fail(err, WM_EUSAGE,
                   "gen: unknown generator '%s' (expected kron, rmat, chung-lu, ba, hub, sbm, regular or grid)",
                   *kind);
  *output = wm_cli_str(cli, "output");
  if (!*output || !**output) return wm_fail(err, WM_EUSAGE, "gen: --output OUT.wmg is required");
  uint64_t seed;
  int rc = only_own_options(cli, g, err);
  if (!rc) rc = wm_cli_u64(cli, "seed", 1, 0, UINT64_MAX, &seed, err);
  if (rc) return rc;
  const int gen = generators[g].kind;
  return gen == WARPMATCH_GEN_KRON || gen == WARPMATCH_GEN_RMAT ? parse_graph500(cli, gen, seed, o, err)
                                                                : parse_model(cli, gen, seed, o, err);
}

/* The model's own parameters, as JSON members or as text after its name. */
static void model_parameters(const warpmatch_gen_options *o, wm_json *j) {
  switch (o->kind) {
  case WARPMATCH_GEN_CHUNG_LU:
    if (j) {
      wm_json_double(j, "mean_degree_asked", o->mean_degree);
      wm_json_double(j, "exponent", o->exponent);
    } else {
      printf(", mean degree %g, exponent %g", o->mean_degree, o->exponent);
    }
    break;
  case WARPMATCH_GEN_BA:
    if (j) wm_json_u64(j, "attach", o->attach);
    else printf(", attach %u", o->attach);
    break;
  case WARPMATCH_GEN_HUB:
    if (j) {
      wm_json_double(j, "hub_fraction", o->hub_fraction);
      wm_json_double(j, "tail_mean_degree", o->mean_degree);
    } else {
      printf(", hub fraction %g, tail mean degree %g", o->hub_fraction, o->mean_degree);
    }
    break;
  case WARPMATCH_GEN_SBM:
    if (j) {
      wm_json_u64(j, "communities", o->communities);
      wm_json_double(j, "degree_in", o->degree_in);
      wm_json_double(j, "degree_out", o->degree_out);
    } else {
      printf(", %llu communities, degree in %g, out %g", (unsigned long long)o->communities, o->degree_in,
             o->degree_out);
    }
    break;
  case WARPMATCH_GEN_REGULAR:
    if (j) wm_json_u64(j, "degree", o->degree);
    else printf(", degree %u", o->degree);
    break;
  default:
    if (j) {
      wm_json_u64(j, "width", o->width);
      wm_json_u64(j, "height", o->height);
      wm_json_double(j, "shortcuts", o->shortcuts);
    } else {
      printf(", %llu x %llu, shortcuts %g", (unsigned long long)o->width, (unsigned long long)o->height,
             o->shortcuts);
    }
  }
}

/* The summary of the models after rmat: their parameters, then the graph,
 * with the edges drawn and how many were dropped as self-loops or
 * duplicates (regular: the configuration model's collisions). */
static void print_model_summary(const wm_cli *cli, const char *kind, const warpmatch_gen_options *o,
                                const warpmatch_graph *g, const warpmatch_degree_stats *st, uint64_t drawn,
                                const char *output, double gen_s, double write_s) {
  const uint32_t n = warpmatch_graph_vertices(g);
  const uint64_t edges = warpmatch_graph_edges(g);
  if (cli->json) {
    wm_json j;
    wm_json_begin(&j, stdout);
    wm_json_str(&j, "generator", kind);
    wm_json_u64(&j, "seed", o->seed);
    model_parameters(o, &j);
    wm_json_u64(&j, "vertices", n);
    wm_json_u64(&j, "edges", edges);
    wm_json_u64(&j, "edges_drawn", drawn);
    wm_json_u64(&j, "dropped", drawn - edges);
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
  printf("%s seed %llu", kind, (unsigned long long)o->seed);
  model_parameters(o, NULL);
  printf("\nvertices   %u (%llu isolated)\n", n, (unsigned long long)st->isolated);
  printf("edges      %llu (undirected, unique; %llu drawn, %llu dropped as self-loops or duplicates)\n",
         (unsigned long long)edges, (unsigned long long)drawn, (unsigned long long)(drawn - edges));
  printf("degree     max %llu, mean %.2f\n", (unsigned long long)st->max_degree, st->mean_degree);
  printf("seconds    %.3f (generate %.3f, write %.3f)\n", gen_s + write_s, gen_s, write_s);
  printf("output     %s\n", output);
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
  if (wm_cli_parse(&cli, "gen",
                   "kron|rmat --scale S | chung-lu|ba|hub|sbm|regular --vertices N | grid --width W "
                   "--output OUT.wmg [options]",
                   "Generate a synthetic graph (symmetric, simple) and write it as .wmg: Graph500 "
                   "Kronecker, R-MAT,\nChung-Lu power law, Barabasi-Albert, one hub over a sparse "
                   "tail, stochastic block model,\nrandom regular or grid (docs/gen.md).  The same "
                   "options and seed always give the same file,\nwhatever the number of threads.",
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
  uint64_t drawn = 0;
  if (!rc) rc = wm_cli_api(ctx, warpmatch_gen_edges_drawn(ctx, &o, &drawn), &err);
  if (!rc && (o.kind == WARPMATCH_GEN_KRON || o.kind == WARPMATCH_GEN_RMAT))
    print_summary(&cli, kind, &o, g, &st, output, t1 - t0, t2 - t1);
  else if (!rc)
    print_model_summary(&cli, kind, &o, g, &st, drawn, output, t1 - t0, t2 - t1);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
  return rc ? wm_cli_report(&err) : WM_OK;
}
