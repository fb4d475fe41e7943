/* warpmatch orbits: the graphlet orbit counts of every vertex (the graphlet
 * degree vector), 15 orbits up to 4 vertices or 73 up to 5, numbered as ORCA
 * numbers them.  Output in ORCA's layout by default (one line per vertex id
 * 0..max, counts space-separated; ids the file lacks are isolated vertices,
 * all zeros, as ORCA would print them), the same rows as a NumPy .npy
 * array (row i is id i), or as CSV with the file's ids; to
 * --output F (written whole or not at all) or stdout; --json a summary.
 * Through the public API and base/ only (the graph is loaded here, since
 * --format names the output's layout, not the input's). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

enum { OUT_ORCA = 0, OUT_CSV = 1, OUT_NPY = 2 };

static const wm_optspec spec[] = {
    {"size", "2|3|4|5", "graphlets of up to this many vertices (required): 4 gives 15 orbits, 5 gives 73"},
    {"output", "F", "write the counts to F (default: stdout; with --json, none unless given)"},
    {"format", "orca|csv|npy", "orca (default): one line per vertex id 0..max, counts in orbit order; csv: a header "
                               "'vertex,o0,...' and one row per vertex with its id; npy: orca's rows as a NumPy "
                               "uint64 array (row i: vertex id i; a count past 2^64 - 1 is refused: orca and csv "
                               "spell every count whole)"},
    {"edges", NULL, "edge orbits (ORCA's edge mode, --size 3|4|5): one row per edge u-v, u < v, in ascending (u, v) "
                    "order by file id; csv names the ends"},
    {"method", "auto|formula|enumerate",
     "formula: per-vertex and per-edge aggregates and the orbit relations; enumerate: every connected induced "
     "subgraph once; auto (default): the formula"},
    {"device", "auto|cpu|gpu",
     "where the formula runs (default auto: size 5 on the GPU where one is usable, sizes 2-4 on the CPU); the "
     "enumerator and the edge orbits run on the CPU"},
    {"gpus", "N", "GPU: size 5's walks, clique sums and 5-cycles on N GPUs of this host (default 1)"},
    {"trials", "N", "time N counts (1-1000) after an untimed warm-up that must agree; report the median (default 1; "
                    "--json also gives the warm-up's first_seconds)"},
    {"threads", "N", "CPU threads (default: all)"},
    {"input-format", "auto|edgelist|mtx|wmg", "the graph file's format (default: from its content)"},
    {"no-cache", NULL, "neither read nor write the .wmg cache of a text graph"},
    {NULL, NULL, NULL},
};

typedef struct orbits_cmd {
  const char *path, *output;
  int format;
  warpmatch_orbit_options o;
  warpmatch_orbit_result r;
  warpmatch_context *ctx;
  warpmatch_graph *g;
  uint64_t *counts, *high; /* each count's low and high 64 bits */
  uint64_t rows;    /* of counts: vertices, or edges with --edges */
  uint32_t *eu, *ev; /* --edges: each row's ends (indices) */
  double load_seconds;
} orbits_cmd;

static int options(const wm_cli *cli, orbits_cmd *c, wm_error *err) {
  static const char *const formats[] = {"orca", "csv", "npy", NULL};
  static const char *const methods[] = {"auto", "formula", "enumerate", NULL};
  uint64_t size;
  warpmatch_orbit_options_init(&c->o);
  if (!wm_cli_str(cli, "size")) return wm_fail(err, WM_EUSAGE, "orbits: --size 2|3|4|5 is required");
  int rc = wm_cli_u64(cli, "size", 0, 2, 5, &size, err);
  if (!rc) rc = wm_cli_choice(cli, "format", formats, OUT_ORCA, &c->format, err);
  if (!rc && c->format == OUT_NPY && !wm_cli_str(cli, "output") && isatty(STDOUT_FILENO))
    rc = wm_fail(err, WM_EUSAGE, "orbits: --format npy is binary: give --output F or redirect stdout");
  if (!rc) rc = wm_cli_choice(cli, "method", methods, 0, &c->o.method, err);
  c->o.graphlet_size = (unsigned)size;
  c->o.edges = wm_cli_flag(cli, "edges");
  if (!rc && c->o.edges && !warpmatch_edge_orbit_count(c->o.graphlet_size))
    rc = wm_fail(err, WM_EUSAGE, "orbits: --edges counts the edge orbits of graphlets of up to 3, 4 or 5 vertices; "
                                 "use --size 3, 4 or 5");

  c->output = wm_cli_str(cli, "output");
  if (!rc) rc = wm_cli_context(cli, &c->ctx, err);
  int use_gpu = 0;
  /* auto at sizes 2-4 is the CPU (api/orbits.c says why): no GPU probed */
  const char *device = wm_cli_str(cli, "device");
  const int cpu_by_size = (!device || !strcmp(device, "auto")) && c->o.graphlet_size <= 4;
  if (!rc && !cpu_by_size) rc = wm_cli_use_gpu(cli, c->ctx, &use_gpu, err);
  c->o.device = use_gpu ? WARPMATCH_DEVICE_GPU : WARPMATCH_DEVICE_CPU;
  uint64_t gpus = 1, trials = 1;
  if (!rc) rc = wm_cli_u64(cli, "trials", 1, 1, WARPMATCH_MAX_TRIALS, &trials, err);
  c->o.trials = (unsigned)trials;
  if (!rc) rc = wm_cli_u64(cli, "gpus", 1, 1, WARPMATCH_MAX_GPUS, &gpus, err);
  c->o.gpus = (int)gpus;
  if (!rc && gpus > 1 && !use_gpu)
    rc = wm_fail(err, WM_EUSAGE, "orbits: --gpus %d splits the sums over GPUs, but this count runs on the CPU "
                                 "(--device cpu, or no usable GPU)", c->o.gpus);
  if (!rc && gpus > 1 && (c->o.graphlet_size != 5 || c->o.edges))
    rc = wm_fail(err, WM_EUSAGE, "orbits: --gpus %d splits the 5-vertex sums of vertex orbits; use --size 5 "
                                 "without --edges", c->o.gpus);
  return rc;
}

static int load(const wm_cli *cli, orbits_cmd *c, wm_error *err) {
  static const char *const formats[] = {"auto", "edgelist", "mtx", "wmg", NULL};
  int fmt = 0;
  int rc = wm_cli_choice(cli, "input-format", formats, 0, &fmt, err);
  if (rc) return rc;
  warpmatch_load_options lo;
  warpmatch_load_options_init(&lo);
  lo.use_cache = !wm_cli_flag(cli, "no-cache");
  warpmatch_load_info info;
  info.size = sizeof info;
  const double t0 = wm_now();
  rc = wm_cli_api(c->ctx, warpmatch_graph_load_ex(c->ctx, c->path, &lo, fmt, &c->g, &info), err);
  c->load_seconds = wm_now() - t0;
  if (!rc && info.note[0]) fprintf(stderr, "warpmatch: note: %s\n", info.note);
  return rc;
}

static int count(orbits_cmd *c, wm_error *err) {
  c->rows = c->o.edges ? warpmatch_graph_edges(c->g) : warpmatch_graph_vertices(c->g);
  const unsigned orbits =
      c->o.edges ? warpmatch_edge_orbit_count(c->o.graphlet_size) : warpmatch_orbit_count(c->o.graphlet_size);
  const size_t cells = (size_t)c->rows * orbits;
  c->counts = malloc(cells ? cells * sizeof *c->counts : 1);
  c->high = malloc(cells ? cells * sizeof *c->high : 1);
  if (!c->counts || !c->high) return wm_fail(err, WM_EINPUT, "orbits: out of memory for %zu counts", cells);
  c->o.counts_high = c->high; /* every output spells a count past 2^64 - 1 exactly */
  if (c->o.edges) {
    c->eu = malloc(c->rows ? c->rows * sizeof *c->eu : 1);
    c->ev = malloc(c->rows ? c->rows * sizeof *c->ev : 1);
    if (!c->eu || !c->ev) return wm_fail(err, WM_EINPUT, "orbits: out of memory for %" PRIu64 " edges", c->rows);
    warpmatch_graph_edge_ends(c->g, c->eu, c->ev);
  }
  c->r.size = sizeof c->r;
  return wm_cli_api(c->ctx, warpmatch_orbits(c->ctx, c->g, &c->o, c->counts, &c->r), err);
}

/* Text gathered in a buffer and written a buffer at a time: a printf per
 * count, then an fwrite per row and a memcpy per count, were most of the
 * time a 4-vertex run spent writing its rows. */
typedef struct text {
  FILE *f;
  size_t len;
  char buf[1 << 16];
} text;

/* x in decimal at p, two digits a division; returns the end. */
static char *put_decimal(char *p, uint64_t x) {
  static const char pairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                              "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                              "8081828384858687888990919293949596979899";
  unsigned len = 1;
  for (uint64_t ten = 10; len < 20 && x >= ten; ten *= 10) len++;
  char *end = p + len;
  for (; x >= 100; x /= 100) {
    const unsigned two = (unsigned)(x % 100);
    *--end = pairs[2 * two + 1], *--end = pairs[2 * two];
  }
  if (x >= 10) *--end = pairs[2 * x + 1], *--end = pairs[2 * x];
  else *--end = (char)('0' + x);
  return p + len;
}

/* x and then the character `after`. */
static void text_u64(text *t, uint64_t x, char after) {
  if (t->len + 21 > sizeof t->buf) fwrite(t->buf, 1, t->len, t->f), t->len = 0;
  char *end = put_decimal(t->buf + t->len, x);
  *end++ = after;
  t->len = (size_t)(end - t->buf);
}

/* high * 2^64 + low and then `after` (no high words: low alone). */
static void text_count(text *t, uint64_t low, uint64_t high, char after) {
  if (!high) {
    text_u64(t, low, after);
    return;
  }
  char digits[WM_I128_CHARS];
  const char *s = wm_u128_str((wm_u128)high << 64 | low, digits);
  const size_t len = strlen(s);
  if (t->len + len + 1 > sizeof t->buf) fwrite(t->buf, 1, t->len, t->f), t->len = 0;
  memcpy(t->buf + t->len, s, len);
  t->len += len;
  t->buf[t->len++] = after;
}

static void text_row(text *t, const uint64_t *row, const uint64_t *high, unsigned orbits, char sep) {
  for (unsigned o = 0; o < orbits; o++) text_count(t, row[o], high[o], o + 1 < orbits ? sep : '\n');
}

static void text_end(text *t) { fwrite(t->buf, 1, t->len, t->f); }

/* ORCA's layout: row i is vertex id i, for every id up to the largest;
 * *rows gets their number (0 for an empty graph). */
static int orca_rows(const orbits_cmd *c, uint64_t *rows, wm_error *err) {
  if (c->o.edges) { /* a row per edge, as counted */
    *rows = c->rows;
    return WM_OK;
  }
  const uint32_t n = warpmatch_graph_vertices(c->g);
  const uint64_t last = n ? warpmatch_graph_id(c->g, n - 1) : 0;
  if (n && last >= (uint64_t)n * 16 + (1u << 20))
    return wm_fail(err, WM_EUSAGE, "orbits: %s: vertex ids reach %" PRIu64 " for %u vertices; ORCA's layout would "
                                   "print a line for each id up to it; use --format csv", c->path, last, n);
  *rows = n ? last + 1 : 0;
  return WM_OK;
}

typedef void put_row(void *out, const uint64_t *row, const uint64_t *high, unsigned orbits);

/* Calls put(out, row, high) for ORCA's rows in order: a vertex's counts,
 * or zeros for an id the file does not name. */
static int each_orca_row(const orbits_cmd *c, void *out, put_row *put, wm_error *err) {
  const unsigned orbits = c->r.orbits;
  uint64_t rows = 0;
  int rc = orca_rows(c, &rows, err);
  if (rc) return rc;
  uint64_t *zero = calloc(orbits, sizeof *zero);
  if (!zero) return wm_fail(err, WM_EINPUT, "out of memory");
  uint32_t v = 0;
  for (uint64_t id = 0; id < rows && c->o.edges; id++)
    put(out, c->counts + (size_t)id * orbits, c->high + (size_t)id * orbits, orbits);
  for (uint64_t id = 0; id < rows && !c->o.edges; id++) {
    const int present = warpmatch_graph_id(c->g, v) == id;
    put(out, present ? c->counts + (size_t)v * orbits : zero, present ? c->high + (size_t)v * orbits : zero, orbits);
    v += present;
  }
  free(zero);
  return WM_OK;
}

static void put_text(void *t, const uint64_t *row, const uint64_t *high, unsigned orbits) {
  text_row(t, row, high, orbits, ' ');
}

/* Little-endian whatever the host, as the header's '<u8' says (no high
 * words: write_counts refused them). */
static void put_le(void *f, const uint64_t *row, const uint64_t *high, unsigned orbits) {
  (void)high;
  for (unsigned o = 0; o < orbits; o++) {
    unsigned char b[8];
    for (unsigned i = 0; i < 8; i++) b[i] = (unsigned char)(row[o] >> (8 * i));
    fwrite(b, 1, sizeof b, f);
  }
}

/* NumPy's .npy format 1.0: the magic, the header's length (2 bytes,
 * little-endian), then a Python dict literal padded with spaces to a
 * newline so that the data starts at a multiple of 64 bytes. */
static void npy_header(FILE *f, uint64_t rows, unsigned cols) {
  char dict[160];
  int len = snprintf(dict, sizeof dict, "{'descr': '<u8', 'fortran_order': False, 'shape': (%" PRIu64 ", %u), }",
                     rows, cols);
  const int total = (10 + len + 1 + 63) / 64 * 64; /* magic 6, version 2, length 2, dict, '\n' */
  const int pad = total - 10 - len - 1;
  fwrite("\x93NUMPY\x01\x00", 1, 8, f);
  const unsigned hlen = (unsigned)(total - 10);
  fputc((int)(hlen & 0xFF), f);
  fputc((int)(hlen >> 8), f);
  fputs(dict, f);
  fprintf(f, "%*s\n", pad, "");
}

static int write_orca(const orbits_cmd *c, FILE *f, wm_error *err) {
  text *t = malloc(sizeof *t);
  if (!t) return wm_fail(err, WM_EINPUT, "out of memory");
  t->f = f, t->len = 0;
  int rc = each_orca_row(c, t, put_text, err);
  text_end(t);
  free(t);
  return rc;
}

static int write_npy(const orbits_cmd *c, FILE *f, wm_error *err) {
  uint64_t rows = 0;
  int rc = orca_rows(c, &rows, err);
  if (rc) return rc;
  npy_header(f, rows, c->r.orbits);
  return each_orca_row(c, f, put_le, err);
}

static void csv_rows(const orbits_cmd *c, text *t) {
  const unsigned orbits = c->r.orbits;
  for (uint64_t i = 0; i < c->rows && c->o.edges; i++) {
    text_u64(t, warpmatch_graph_id(c->g, c->eu[i]), ',');
    text_u64(t, warpmatch_graph_id(c->g, c->ev[i]), ',');
    text_row(t, c->counts + (size_t)i * orbits, c->high + (size_t)i * orbits, orbits, ',');
  }
  for (uint32_t v = 0; v < warpmatch_graph_vertices(c->g) && !c->o.edges; v++) {
    text_u64(t, warpmatch_graph_id(c->g, v), ',');
    text_row(t, c->counts + (size_t)v * orbits, c->high + (size_t)v * orbits, orbits, ',');
  }
}

static int write_csv(const orbits_cmd *c, FILE *f, wm_error *err) {
  const unsigned orbits = c->r.orbits;
  text *t = malloc(sizeof *t);
  if (!t) return wm_fail(err, WM_EINPUT, "out of memory");
  fputs(c->o.edges ? "u,v" : "vertex", f);
  for (unsigned o = 0; o < orbits; o++) fprintf(f, c->o.edges ? ",e%u" : ",o%u", o);
  fputc('\n', f);
  t->f = f, t->len = 0;
  csv_rows(c, t);
  text_end(t);
  free(t);
  return WM_OK;
}

static int write_to(const orbits_cmd *c, FILE *f, wm_error *err) {
  if (c->format == OUT_NPY) return write_npy(c, f, err);
  return c->format == OUT_CSV ? write_csv(c, f, err) : write_orca(c, f, err);
}

/* .npy holds uint64: a count past it is refused before anything is
 * written, naming the first such count whole. */
static int fits_npy(const orbits_cmd *c, wm_error *err) {
  if (c->format != OUT_NPY || !c->r.wide) return WM_OK;
  size_t i = 0;
  while (!c->high[i]) i++;
  const size_t row = i / c->r.orbits;
  char digits[WM_I128_CHARS], what[64];
  if (c->o.edges)
    snprintf(what, sizeof what, "edge %" PRIu64 "-%" PRIu64, warpmatch_graph_id(c->g, c->eu[row]),
             warpmatch_graph_id(c->g, c->ev[row]));
  else snprintf(what, sizeof what, "vertex %" PRIu64, warpmatch_graph_id(c->g, (uint32_t)row));
  return wm_fail(err, WM_EINPUT, "orbits: %" PRIu64 " counts pass 2^64 - 1 (%s: orbit %zu is %s); --format npy holds "
                 "uint64: use --format orca or csv, which spell every count whole", c->r.wide, what, i % c->r.orbits,
                 wm_u128_str((wm_u128)c->high[i] << 64 | c->counts[i], digits));
}

static int write_counts(const orbits_cmd *c, wm_error *err) {
  if (fits_npy(c, err)) return err->code;
  if (!c->output) {
    int rc = write_to(c, stdout, err);
    if (!rc && (fflush(stdout) || ferror(stdout))) rc = wm_fail(err, WM_EINPUT, "orbits: writing to stdout failed");
    return rc;
  }
  wm_outfile of;
  int rc = wm_outfile_open(&of, c->output, WM_OUTFILE_NO_SYNC, err); /* docs/orbits.md says why */
  if (rc) return rc;
  /* a write call per MiB, not per 4 KiB (glibc sizes a buffer it makes itself by the file's block) */
  char *buffer = malloc(1 << 20);
  if (buffer) setvbuf(of.f, buffer, _IOFBF, 1 << 20);
  rc = write_to(c, of.f, err);
  if (rc) wm_outfile_abort(&of);
  else rc = wm_outfile_commit(&of, err);
  free(buffer); /* after the stream's close */
  return rc;
}

static const char *method_name(int method) { return method == WARPMATCH_METHOD_FORMULA ? "formula" : "enumerate"; }

static void print_json(const orbits_cmd *c) {
  const uint32_t n = warpmatch_graph_vertices(c->g);
  wm_json j;
  wm_json_begin(&j, stdout);
  wm_json_str(&j, "graph", c->path);
  wm_json_u64(&j, "vertices", n);
  wm_json_u64(&j, "edges", warpmatch_graph_edges(c->g));
  wm_json_u64(&j, "size", c->o.graphlet_size);
  wm_json_u64(&j, "orbits", c->r.orbits);
  wm_json_str(&j, "rows", c->o.edges ? "edges" : "vertices");
  wm_json_double(&j, "seconds", c->r.seconds);
  if (c->r.device == WARPMATCH_DEVICE_GPU) wm_json_double(&j, "kernel_ms", c->r.kernel_ms);
  if (c->r.trials > 1) wm_json_u64(&j, "trials", c->r.trials), wm_json_double(&j, "first_seconds", c->r.first_seconds);
  wm_json_double(&j, "load_seconds", c->load_seconds);
  wm_json_str(&j, "method", method_name(c->r.method));
  wm_json_str(&j, "device", c->r.device == WARPMATCH_DEVICE_GPU ? "gpu" : "cpu");
  wm_json_u64(&j, "threads", (uint64_t)warpmatch_threads(c->ctx));
  if (wm_mpi_ranks() > 1) wm_json_u64(&j, "mpi_ranks", (uint64_t)wm_mpi_ranks());
  static const char *const format_names[] = {"orca", "csv", "npy"};
  if (c->output) wm_json_str(&j, "output", c->output), wm_json_str(&j, "format", format_names[c->format]);
  wm_json_u64(&j, "wide_counts", c->r.wide); /* past 2^64 - 1 */
  wm_json_array(&j, "totals"); /* per orbit, over the rows: its graphlets times their vertices in it */
  for (unsigned o = 0; o < c->r.orbits; o++) {
    wm_u128 sum = 0;
    for (uint64_t v = 0; v < c->rows; v++) {
      const size_t i = (size_t)v * c->r.orbits + o;
      sum += (wm_u128)c->high[i] << 64 | c->counts[i];
    }
    wm_json_u128(&j, NULL, sum);
  }
  wm_json_close(&j);
  wm_json_end(&j);
}

static void print_text(const orbits_cmd *c) {
  printf("%s orbits of graphlets of %u-%u vertices in %s (%u vertices, %" PRIu64 " edges): %u per %s, written to "
         "%s\ntime: load %.3f s, count %.3f s%s (%s, %d threads)\n",
         c->o.edges ? "edge" : "vertex", c->o.edges ? 3 : 2, c->o.graphlet_size, c->path,
         warpmatch_graph_vertices(c->g), warpmatch_graph_edges(c->g), c->r.orbits, c->o.edges ? "edge" : "vertex",
         c->output, c->load_seconds, c->r.seconds, c->r.trials > 1 ? " (median)" : "", method_name(c->r.method),
         warpmatch_threads(c->ctx));
}

/* WM_ORBIT_TRACE=1: where the command's time went, on stderr (the
 * library adds its own phases of the count). */
static void trace(const double *at) {
  if (!wm_trace_on("WM_ORBIT_TRACE")) return;
  fprintf(stderr, "orbits: options %.3f ms, load %.3f ms, count %.3f ms, write %.3f ms, free %.3f ms\n",
          1e3 * (at[1] - at[0]), 1e3 * (at[2] - at[1]), 1e3 * (at[3] - at[2]), 1e3 * (at[4] - at[3]),
          1e3 * (at[5] - at[4]));
}

int wm_cmd_orbits(int argc, char **argv) {
  wm_cli cli;
  wm_error err;
  wm_error_clear(&err);
  if (wm_cli_parse(&cli, "orbits", "GRAPH --size 4|5 [options]",
                   "Count the graphlet orbits of every vertex (the graphlet degree vector, ORCA's numbering):\n"
                   "15 orbits for graphlets of up to 4 vertices, 73 up to 5; with --edges, ORCA's edge orbits\n"
                   "of every edge (2 up to 3 vertices, 12 up to 4, 68 up to 5).",
                   spec, 1, 1, argc, argv, &err))
    return wm_cli_report(&err);
  if (cli.help) return WM_OK;
  orbits_cmd c = {0};
  c.path = cli.positional[0];
  double at[6] = {wm_now()};
  int rc = options(&cli, &c, &err);
  at[1] = wm_now();
  if (!rc) rc = load(&cli, &c, &err);
  rc = wm_mpi_agree(rc, &err); /* under mpirun all ranks stop if one failed to load */
  at[2] = wm_now();
  if (!rc) rc = wm_mpi_after_work(count(&c, &err), &err);
  at[3] = wm_now();
  if (!rc && wm_mpi_rank() > 0) { /* every rank holds the counts; rank 0 writes them */
  } else if (!rc && (c.output || !cli.json)) {
    rc = write_counts(&c, &err);
  }
  if (!rc && cli.json) print_json(&c);
  else if (!rc && c.output) print_text(&c);
  at[4] = wm_now();
  free(c.counts);
  free(c.high);
  free(c.eu);
  free(c.ev);
  warpmatch_graph_destroy(c.g);
  warpmatch_context_destroy(c.ctx);
  at[5] = wm_now();
  trace(at);
  return rc ? wm_cli_report(&err) : WM_OK;
}
