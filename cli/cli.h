/* The command line: one small option parser used by every command, the
 * options of commands that read a graph, and the command table's entries.
 * Commands are `int wm_cmd_NAME(int argc, char **argv)` returning the exit
 * code (0 ok, 1 bad input, 2 usage, 3 device error).  Every command runs
 * through the library's public API (warpmatch.h) alone; the clock, the JSON
 * writer, the progress line, atomic output files and exact counts are
 * base/'s (base.h), of which the program keeps its own copy: the library's
 * progress choice and temporaries are reached through warpmatch.h
 * (warpmatch_set_progress, warpmatch_remove_temporaries). */
#ifndef WM_CLI_H
#define WM_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "exact_count.h"
#include "base.h"
#include "warpmatch.h"
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
 * and turn the progress line off (the program's and the library's).  Unknown
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
/* Names the subcommand that runs, for wm_cli_report's hint. */
void wm_cli_set_command(const char *name);

/* ---- graph arguments (cli_graph.c) ---------------------------------- */

/* Options of every command that reads a GRAPH: put WM_GRAPH_OPTSPEC in its
 * spec array and load with wm_cli_open_graph. */
#define WM_GRAPH_OPTSPEC                                                                 \
  {"directed", NULL, "read an edge list as directed arcs (default: symmetrise)"},        \
  {"format", "auto|edgelist|mtx|wmg", "input format (default: from the file's content)"}, \
  {"no-cache", NULL, "neither read nor write the .wmg cache of a text graph"}

/* The graph as a library handle; info (may be NULL) says how it was read. */
int wm_cli_open_graph(const wm_cli *cli, warpmatch_context *ctx, const char *path, warpmatch_graph **g,
                      warpmatch_load_info *info, wm_error *err);
/* Reads option `name` as a vertex in the FILE's ids and returns its index;
 * WM_EUSAGE if malformed, WM_EINPUT if the graph has no such vertex. */
int wm_cli_vertex(const wm_cli *cli, const warpmatch_graph *g, const char *name, uint32_t *v, wm_error *err);
/* A path's last component, for summaries. */
const char *wm_cli_base_name(const char *path);

/* ---- the library (cli_graph.c) ---------------------------------------- */

/* The context a command's queries run in: --threads N where the command
 * takes it, and under mpirun the ranks' share of the work. */
int wm_cli_context(const wm_cli *cli, warpmatch_context **ctx, wm_error *err);
/* A library call's outcome: on failure the context's message becomes err
 * (the library's messages are the modules', file, line and all). */
int wm_cli_api(const warpmatch_context *ctx, int rc, wm_error *err);

/* ---- device (cli_device.c) ------------------------------------------- */

/* --device auto|cpu|gpu -> 1 for the GPU (auto: when one is usable);
 * WM_EDEVICE when gpu is asked for and none is usable.  The spec entry is
 * each command's own (its help says what runs there). */
int wm_cli_use_gpu(const wm_cli *cli, warpmatch_context *ctx, int *use_gpu, wm_error *err);
#define WM_BFS_DEVICE_OPTSPEC \
  {"device", "auto|cpu|gpu", "where to search (default auto: the GPU when one is usable)"}

/* ---- MPI ranks (cli_mpi.c) -------------------------------------------- */

/* Under mpirun, in a build with MPI (WM_HAVE_MPI): MPI_Init_thread, and for
 * more than one rank rank 0 alone keeps stdout and the work dispenser is
 * made, and each rank's watcher thread starts (cli_mpi_watch.c: a rank
 * silent for WM_MPI_TIMEOUT seconds ends the job, naming it).  Elsewhere
 * nothing happens and the calls below give the one-process answers (rank 0
 * of 1, no share). */
int wm_mpi_start(int *argc, char ***argv);
/* The exit status, agreed over the ranks (the worst); MPI_Finalize. */
int wm_mpi_finish(int rc);
int wm_mpi_rank(void);
int wm_mpi_ranks(void);
/* Under mpirun with several ranks: ctx's count and motifs calls share
 * their first level across the ranks (one-sided counters on rank 0), and
 * its GPU searches split the graph over every rank's GPUs. */
void wm_mpi_share_work(warpmatch_context *ctx);
/* Collective over the ranks: each rank's set-up outcome (rc, *err); the
 * worst is returned on every rank, with err naming the first rank that
 * failed and its message (or, where every rank failed, rank 0's own).  Called before any collective work, so that a
 * rank that failed to load makes every rank stop, not wait. */
int wm_mpi_agree(int rc, wm_error *err);
/* Every rank waits here for every other (nothing without mpirun). */
void wm_mpi_barrier(void);
/* Under mpirun with several ranks, before CUDA starts: this rank's `gpus`
 * GPUs are the next ones of its host, by its rank among the host's ranks
 * (CUDA_VISIBLE_DEVICES: a slice of the list the launcher gave, else of
 * the host's devices; left alone where the launcher gave exactly `gpus`).
 * WM_EUSAGE where the launcher's list is too short. */
int wm_mpi_pin_gpus(unsigned gpus, wm_error *err);
/* After a command's distributed work: a rank whose work failed cannot tell
 * where the other ranks wait, so under mpirun with several ranks it prints
 * its error, prefixed with its rank, and ends the whole job (MPI_Abort)
 * instead of leaving them waiting in a collective, unless every rank comes
 * here failing within a few seconds (a GPU search's failure, which all
 * ranks learn): then err is prefixed with the rank and rc returned, so that
 * each rank reports its error and the job ends normally.  Returns rc
 * otherwise.
 * WM_MPI_FAIL_WORK_RANK=r makes rank r's work fail here, =all every
 * rank's (fault injection for the tests). */
int wm_mpi_after_work(int rc, wm_error *err);
/* Fault injection for the tests: WM_MPI_FAIL_RANK=r under mpirun makes
 * rank r's graph load fail. */
int wm_mpi_injected_failure(void);
/* bfs across the ranks (the library's, warpmatch_mpi.h's
 * warpmatch_bfs_mpi): the vertices split in ranges, frontiers
 * exchanged each level; with o->device GPU the library's search over every
 * rank's GPUs (wm_mpi_share_work).  Collective; on rank 0 levels, parents and stats
 * are the whole search's, as warpmatch_bfs_ex gives them.  _prepare
 * builds what every search shares (a directed graph's in-arcs) first. */
int wm_mpi_bfs_prepare(warpmatch_context *ctx, const warpmatch_graph *g, wm_error *err);
int wm_mpi_bfs(warpmatch_context *ctx, const warpmatch_graph *g, const uint32_t *sources, uint32_t n,
               const warpmatch_bfs_options *o, int32_t *levels, uint32_t *parents, warpmatch_bfs_stats *stats,
               wm_error *err);

/* ---- commands (one file each) ----------------------------------------- */

int wm_cmd_info(int argc, char **argv);
int wm_cmd_convert(int argc, char **argv);
int wm_cmd_gen(int argc, char **argv);
int wm_cmd_count(int argc, char **argv);
int wm_cmd_list(int argc, char **argv);
int wm_cmd_motifs(int argc, char **argv);
/* motifs --directed (cmd_motifs_directed.c), after wm_cmd_motifs parsed the options. */
int wm_cmd_motifs_directed(const wm_cli *cli, wm_error *err);
int wm_cmd_orbits(int argc, char **argv);
int wm_cmd_plan(int argc, char **argv);
int wm_cmd_patterns(int argc, char **argv);
int wm_cmd_bfs(int argc, char **argv);
int wm_cmd_reach(int argc, char **argv);

#ifdef __cplusplus
}
#endif
#endif
