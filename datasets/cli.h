/* The program's shared pieces: one small option parser used by every
 * command, a JSON writer for --json, a progress line, atomic output files and
 * a monotonic clock.  Commands are `int wm_cmd_NAME(int argc, char **argv)`
 * returning the exit code (0 ok, 1 bad input, 2 usage, 3 device error). */
#ifndef WM_CLI_H
#define WM_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "datasets.h"
#include "exact_count.h"
#include "wm_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- options -------------------------------------------------------- */

#define WM_CLI_MAX_OPTS 48
#define WM_CLI_MAX_POSITIONAL 4

typedef struct wm_optspec {
  const char *name; /* long name without "--" */
  const char *arg;  /* placeholder of the argument ("N"), NULL for a flag */
  const char *help; /* one line */
} wm_optspec;

typedef struct wm_cli {
  const char *command;
  const char *usage;        /* e.g. "GRAPH [options]" */
  const char *summary;      /* one line saying what the command does */
  const wm_optspec *spec;   /* terminated by a {NULL} entry */
  int nspec;
  const char *value[WM_CLI_MAX_OPTS]; /* per spec entry; flags get "1" */
  const char *positional[WM_CLI_MAX_POSITIONAL];
  int npositional;
  int min_positional, max_positional;
  int help;                 /* --help was given (help already printed) */
  int json;                 /* --json was given (always accepted) */
  int quiet;                /* --quiet was given (always accepted) */
} wm_cli;

/* Parses argv (argv[0] is the command name).  --help prints the help to
 * stdout and sets cli->help; --json and --quiet are accepted by every command
 * and turn the progress line off (wm_progress_choose).  Unknown
 * options, missing arguments and wrong positional counts give WM_EUSAGE. */
int wm_cli_parse(wm_cli *cli, const char *command, const char *usage, const char *summary,
                 const wm_optspec *spec, int min_positional, int max_positional, int argc,
                 char **argv, wm_error *err);
void wm_cli_print_help(const wm_cli *cli, FILE *f);

const char *wm_cli_str(const wm_cli *cli, const char *name); /* NULL if absent */
int wm_cli_flag(const wm_cli *cli, const char *name);
/* Typed getters: absent -> def; malformed or out of [lo, hi] -> WM_EUSAGE. */
int wm_cli_u64(const wm_cli *cli, const char *name, uint64_t def, uint64_t lo, uint64_t hi,
               uint64_t *out, wm_error *err);
int wm_cli_double(const wm_cli *cli, const char *name, double def, double *out, wm_error *err);
/* One of a fixed set of words; returns its index in `choices` (NULL-ended). */
int wm_cli_choice(const wm_cli *cli, const char *name, const char *const *choices, int def,
                  int *out, wm_error *err);

/* Parses a whole decimal unsigned number ("12", not "12x" or "-1"). */
int wm_parse_u64(const char *s, uint64_t *out);

/* Prints "warpmatch: <msg>" to stderr (and a usage hint for WM_EUSAGE);
 * returns err->code, for `return wm_cli_report(&err)`. */
int wm_cli_report(const wm_error *err);

/* ---- JSON ----------------------------------------------------------- */

typedef struct wm_json {
  FILE *f;
  int depth;
  int count[32];   /* members written so far at each depth */
  char closer[32]; /* '}' or ']' for each open depth */
} wm_json;

void wm_json_begin(wm_json *j, FILE *f); /* writes "{" */
void wm_json_end(wm_json *j);            /* writes "}\n" */
/* key is NULL inside arrays. */
void wm_json_object(wm_json *j, const char *key);
void wm_json_array(wm_json *j, const char *key);
void wm_json_close(wm_json *j); /* closes the innermost object or array */
void wm_json_u64(wm_json *j, const char *key, uint64_t v);
void wm_json_i64(wm_json *j, const char *key, int64_t v);
/* An exact integer of any size up to 2^128 (JSON numbers have no bound). */
void wm_json_u128(wm_json *j, const char *key, wm_u128 v);
void wm_json_double(wm_json *j, const char *key, double v);
void wm_json_bool(wm_json *j, const char *key, int v);
void wm_json_str(wm_json *j, const char *key, const char *s);
void wm_json_null(wm_json *j, const char *key);

/* ---- progress ------------------------------------------------------- */

/* One updating line on stderr for a phase that can take seconds:
 * "motifs: 42% 3.1 s".  The program chooses once whether it may be shown
 * (wm_progress_choose); a phase then shows its line only after a second has
 * passed, so quick runs print nothing.  WM_PROGRESS=1 in the environment
 * shows every update as its own line from the start, also when stderr is not
 * a terminal (for logs and tests); WM_PROGRESS=0 never shows it.  Updates may
 * come from several threads at once. */
typedef struct wm_progress {
  const char *label;
  uint64_t total;  /* 0 when unknown */
  uint64_t done;   /* updated atomically */
  double start;
  int64_t last_ms; /* when the last line was shown, from start */
  int enabled, lines, bytes, shown, busy;
} wm_progress;

/* Called by the option parser: off under --json or --quiet, else as
 * WM_PROGRESS says, else when stderr is a terminal.  Until it is called
 * (a library user) no line is shown. */
void wm_progress_choose(int silent);
/* enabled: 0 keeps this phase silent whatever the program chose. */
void wm_progress_init(wm_progress *p, const char *label, uint64_t total, int enabled);
void wm_progress_update(wm_progress *p, uint64_t done); /* shows at most 5 per second */
void wm_progress_add(wm_progress *p, uint64_t n);       /* done += n, then as update */
void wm_progress_finish(wm_progress *p);                /* clears the line */

/* ---- atomic output files -------------------------------------------- */

typedef struct wm_outfile {
  FILE *f;
  char path[4096];
  char tmp[4096];
} wm_outfile;

/* Opens a temporary file beside path; commit fsyncs-free closes and renames,
 * abort closes and removes it, so no partial output is ever left. */
int wm_outfile_open(wm_outfile *o, const char *path, wm_error *err);
int wm_outfile_commit(wm_outfile *o, wm_error *err);
void wm_outfile_abort(wm_outfile *o);

/* ---- graph arguments (datasets/cli_graph.c) ------------------------- */

/* Options of every command that reads a GRAPH: put WM_GRAPH_OPTSPEC in its
 * spec array and load with wm_cli_load_graph. */
#define WM_GRAPH_OPTSPEC                                                                 \
  {"directed", NULL, "read an edge list as directed arcs (default: symmetrise)"},        \
  {"format", "auto|edgelist|mtx|wmg", "input format (default: from the file's content)"}, \
  {"no-cache", NULL, "neither read nor write the .wmg cache of a text graph"}

int wm_cli_load_graph(const wm_cli *cli, const char *path, wm_graph **g, wm_load_info *info,
                      wm_error *err);
/* Reads option `name` as a vertex in the FILE's ids and returns the internal
 * id; WM_EUSAGE if malformed, WM_EINPUT if the graph has no such vertex. */
int wm_cli_vertex(const wm_cli *cli, const wm_graph *g, const char *name, uint32_t *v, wm_error *err);

/* ---- commands (one file each, in the module they serve) ----------- */

int wm_cmd_info(int argc, char **argv);    /* datasets/cmd_info.c */
int wm_cmd_convert(int argc, char **argv); /* datasets/cmd_convert.c */
int wm_cmd_gen(int argc, char **argv);     /* datasets/cmd_gen.c */
int wm_cmd_count(int argc, char **argv);   /* matcher/cmd_count.c */
int wm_cmd_list(int argc, char **argv);    /* matcher/cmd_list.c */
int wm_cmd_motifs(int argc, char **argv);  /* matcher/cmd_motifs.c */
int wm_cmd_plan(int argc, char **argv);    /* planner/cmd_plan.c */
int wm_cmd_bfs(int argc, char **argv);     /* traversal/cmd_bfs.c */
int wm_cmd_reach(int argc, char **argv);   /* traversal/cmd_reach.c */

/* ---- time ----------------------------------------------------------- */

double wm_now(void); /* seconds, monotonic */

#ifdef __cplusplus
}
#endif
#endif
