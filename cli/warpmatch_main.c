/* warpmatch: the command-line program.  Dispatches to one function per
 * command; each parses its own options with the shared parser (cli.h).
 * Every command's standard output is checked here, at its end, and the
 * output files' temporaries are removed when a signal ends the program. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

typedef struct command {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *summary;
  int shares;
} command;

/* shares: runs across the ranks of an mpirun; the other commands refuse
 * more than one rank (each rank would write the same files). */
static const command commands[] = {
    {"count", wm_cmd_count, "count the occurrences of a pattern", 1},
    {"list", wm_cmd_list, "list the occurrences of a pattern", 0},
    {"motifs", wm_cmd_motifs, "count every connected pattern of 3, 4 or 5 vertices", 1},
    {"orbits", wm_cmd_orbits, "graphlet orbit counts of every vertex (ORCA's 15 or 73 orbits)", 1},
    {"plan", wm_cmd_plan, "print the plan chosen for a pattern, without running it", 0},
    {"patterns", wm_cmd_patterns, "the named patterns --pattern accepts", 0},
    {"bfs", wm_cmd_bfs, "breadth-first search: levels, parents, GTEPS", 1},
    {"reach", wm_cmd_reach, "is W reachable from V, and in how many hops", 0},
    {"info", wm_cmd_info, "vertices, edges and degree summary of a graph", 0},
    {"convert", wm_cmd_convert, "convert a graph to the binary .wmg format", 0},
    {"gen", wm_cmd_gen, "generate a synthetic graph (Kronecker, R-MAT, Chung-Lu, BA, hub, SBM, regular, grid)", 0},
};
enum { NCOMMANDS = sizeof commands / sizeof commands[0] };

static void usage(FILE *f) {
  fprintf(f,
          "usage: warpmatch COMMAND [options]   (warpmatch COMMAND --help for its options)\n\n"
          "commands:\n");
  for (int i = 0; i < NCOMMANDS; i++) fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
  fprintf(f,
          "\nGRAPH is a SNAP-style edge list (CSV and TSV too), a Matrix Market file, either of them\n"
          "gzip-compressed (.gz), or a .wmg binary graph.\n"
          "Exit codes: 0 ok, 1 bad input, 2 usage, 3 device error.\n");
}

static int dispatch(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return WM_EUSAGE;
  }
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
    usage(stdout);
    return WM_OK;
  }
  if (strcmp(argv[1], "--version") == 0) {
    printf("warpmatch %s\n", warpmatch_version());
    return WM_OK;
  }
  for (int i = 0; i < NCOMMANDS; i++) {
    if (strcmp(argv[1], commands[i].name) != 0) continue;
    if (!commands[i].shares && wm_mpi_ranks() > 1) {
      if (wm_mpi_rank() == 0)
        fprintf(stderr, "warpmatch: %s does not run under mpirun with more than one rank (count, motifs, orbits and bfs "
                        "do); run it as one process\n",
                argv[1]);
      return WM_EUSAGE;
    }
    wm_cli_set_command(commands[i].name);
    return commands[i].run(argc - 1, argv + 1);
  }
  if (wm_mpi_rank() == 0) {
    fprintf(stderr, "warpmatch: unknown command '%s'\n", argv[1]);
    usage(stderr);
  }
  return WM_EUSAGE;
}

/* A run whose output did not all reach standard output failed: flushed
 * and closed here, so that a full disk or a closed pipe is exit 1 with its
 * cause (a command that already failed has said why). */
static int close_stdout(int rc) {
  int e = wm_flush_errno(stdout);
  /* EBADF with nothing pending: stdout was closed and nothing was written */
  if (fclose(stdout) != 0 && !e && errno != EBADF) e = errno ? errno : EIO;
  if (!e || rc != WM_OK) return rc;
  fprintf(stderr, "warpmatch: writing standard output: %s\n", strerror(e));
  return WM_EINPUT;
}

/* SIGINT, SIGTERM, SIGHUP: remove the temporaries being written (the
 * program's own output files and the library's .wmg files and caches: each
 * copy of base/ keeps its own list), then die of the signal as before
 * (SA_RESETHAND restored the default action). */
static void on_signal(int sig) {
  wm_outfile_remove_all();
  warpmatch_remove_temporaries();
  raise(sig);
}

/* Only where the default action is in place: a signal the caller ignores
 * (nohup, a background job's SIGINT) stays ignored. */
static void remove_temporaries_on_signals(void) {
  static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
  struct sigaction sa, old;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sa.sa_flags = SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
    if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL) sigaction(sigs[i], &sa, NULL);
}

int main(int argc, char **argv) {
  int rc = wm_mpi_start(&argc, &argv);
  if (rc) return rc;
  remove_temporaries_on_signals();
  return wm_mpi_finish(close_stdout(dispatch(argc, argv)));
}
