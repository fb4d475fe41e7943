/* What the modules share on the host besides the graph: a monotonic clock,
 * binary search in sorted lists, a JSON writer (the plan dump, the command
 * line), the progress line of long phases, and output files that appear
 * whole or not at all. */
#ifndef WM_SUPPORT_H
#define WM_SUPPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "exact_count.h"
#include "wm_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- time ----------------------------------------------------------- */

double wm_now(void); /* seconds, monotonic */

/* Whether the trace variable `name` (WM_BFS_TRACE, WM_MOTIF_TRACE) asks
 * for lines on stderr: set, not empty and not "0". */
int wm_trace_on(const char *name);

/* ---- memory --------------------------------------------------------- */

/* Asks the kernel to back the 2 MB pages inside p[0, bytes) with huge
 * pages where it offers them (transparent huge pages in madvise mode):
 * the first touches of gigabytes of fresh memory fault in, and their free
 * unmaps, a 4 KB page at a time otherwise, several times slower.  A hint
 * for arrays of 32 MB and more (smaller ones are left alone); p may be
 * NULL. */
void wm_big_pages(void *p, size_t bytes);

/* Zeroed memory mapped straight from the kernel, for scratch that many
 * threads fill at once: each page faults in where a thread first writes
 * it, with no allocator lock or arena growth between the threads (their
 * own callocs and frees of it cost milliseconds on 16 threads), and one
 * unmap frees it all.  NULL where refused; no huge-page hint (scratch
 * is touched sparsely). */
void *wm_zeroed_map(size_t bytes);
void wm_zeroed_unmap(void *p, size_t bytes);
/* Gives back the pages of p[0, bytes) (page-aligned) before the unmap,
 * so that threads free their own parts at once rather than the unmap
 * freeing all of them on one thread. */
void wm_zeroed_release(void *p, size_t bytes);

/* ---- threads -------------------------------------------------------- */

/* Runs fn(ctx, i) for every i in [0, n), each once, on up to `threads`
 * threads (the caller's among them) that take the next task in turn; the
 * others are started for the call and joined before it returns, so none
 * spins when idle (run_tasks.c says why).  fn must be safe to run
 * concurrently with itself; where threads cannot be started the caller
 * runs every task. */
void wm_run_tasks(unsigned n, unsigned threads, void (*fn)(void *ctx, unsigned task), void *ctx);

/* ---- sorted lists --------------------------------------------------- */

/* The first index of the ascending a[0, n) whose value is >= x (n: none). */
static inline uint64_t wm_sorted_lower_bound(const uint32_t *a, uint64_t n, uint32_t x) {
  uint64_t lo = 0, hi = n;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (a[mid] < x)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* Whether the ascending a[0, n) holds x. */
static inline int wm_sorted_contains(const uint32_t *a, uint64_t n, uint32_t x) {
  const uint64_t i = wm_sorted_lower_bound(a, n, x);
  return i < n && a[i] == x;
}

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
/* The members of `object`, a JSON object's text as this writer writes it
 * (e.g. a library call's answer), into the innermost open object. */
void wm_json_members(wm_json *j, const char *object);

/* ---- progress ------------------------------------------------------- */

/* A library call's monitor (the context's, warpmatch_interrupt and
 * warpmatch_set_progress_callback): the stop flag the long loops poll and
 * the callback their progress goes to.  The API makes it the calling
 * thread's current monitor while a call runs (wm_monitor_enter); a phase's
 * wm_progress_init takes it from there, so that the module code below
 * needs no new argument, and its worker threads reach it through the
 * wm_progress. */
typedef void (*wm_progress_fn)(void *user, const char *phase, uint64_t done, uint64_t total);
#define WM_MONITOR_GPUS 16 /* at least device.h's WM_MAX_GPUS */
typedef struct wm_monitor {
  int stop;          /* read and written atomically (a signal handler may set it) */
  int busy;          /* the callback is running: one at a time */
  wm_progress_fn fn; /* or NULL */
  void *user;
  /* The GPUs' copy of stop: one pinned host word mapped into every device,
   * which the kernels see through a record in each device's memory
   * (device/gpu_stop.cu: gpu_stop[device]); made by the first GPU call on
   * each, freed with the context; NULL until then. */
  int *gpu_word;
  void *gpu_stop[WM_MONITOR_GPUS];
} wm_monitor;
/* Makes m (may be NULL) the calling thread's current monitor; returns the
 * one it replaces, for wm_monitor_leave. */
wm_monitor *wm_monitor_enter(wm_monitor *m);
void wm_monitor_leave(wm_monitor *previous);
/* The calling thread's current monitor, or NULL (a module called outside
 * the API): for drivers whose waits run on threads of their own. */
wm_monitor *wm_monitor_current(void);
/* Whether m (may be NULL: never) was asked to stop. */
int wm_monitor_stopped(const wm_monitor *m);

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
  int64_t cb_ms;   /* when the callback was last called, from start */
  int enabled;     /* reported: on the line or to the callback (the GPU waits poll while set) */
  int line, lines, bytes, shown, busy;
  wm_monitor *mon; /* the call's monitor at init, or NULL */
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
/* Whether the call this phase belongs to was asked to stop (a relaxed
 * atomic load: cheap enough for every task of a loop).  A loop that sees it
 * gives up; its module then fails with WM_EINTERRUPTED (wm_interrupted). */
int wm_progress_stopped(const wm_progress *p);
/* WM_EINTERRUPTED with "what: interrupted (warpmatch_interrupt)". */
int wm_interrupted(wm_error *err, const char *what);

/* ---- atomic output files -------------------------------------------- */

/* Output that appears whole or not at all and never replaces what its path
 * names (outfile.c says how): a regular file or a new path is written to a
 * temporary name beside it, flushed, fsynced and renamed; a symlink's target
 * is written so and the link kept; a character device or FIFO is written in
 * place; a directory, block device or socket is refused.  commit reports any
 * write error with its cause; abort removes the temporary. */
typedef struct wm_outfile {
  FILE *f;
  int direct;      /* a device or FIFO written in place: no temporary, not seekable */
  int slot;        /* the temporary's place in the signal registry, or -1 */
  int no_sync;     /* WM_OUTFILE_NO_SYNC: renamed into place without the fsyncs */
  char name[4096]; /* the path as given, for messages */
  char path[4096]; /* where the output lands: name with its symlinks followed */
  char tmp[4096];  /* the temporary, "" when there is none */
} wm_outfile;

/* flags: the .wmg cache, which is only ever a regular file, created 0644
 * (before the umask) and never taking a replaced file's mode or owner:
 * a cache that others may write is not trusted (graph_load.c). */
enum { WM_OUTFILE_CACHE = 1 };
/* flags: output that its inputs make again (orbits' counts): still written
 * whole under a temporary name and renamed, so that no reader and no crash
 * of the program ever sees part of it, but neither the file nor its folder
 * is fsynced (milliseconds on a disk, more than a small count takes).  Only
 * a crash of the system itself may leave the new file missing or short. */
enum { WM_OUTFILE_NO_SYNC = 2 };

int wm_outfile_open(wm_outfile *o, const char *path, int flags, wm_error *err);
int wm_outfile_commit(wm_outfile *o, wm_error *err);
void wm_outfile_abort(wm_outfile *o);
/* Unlinks every temporary being written, with async-signal-safe calls only:
 * for a program's SIGINT/SIGTERM handler (the library installs none). */
void wm_outfile_remove_all(void);
/* The temporary name a writer with this pid gives its seq-th file for target
 * (TARGET.wmtmp.PID.HOST.SEQ); -1 when it does not fit. */
int wm_outfile_tmp_name(char *buf, size_t size, const char *target, long pid, unsigned seq);
/* Flushes f; 0, or the errno of the failure (of an earlier failed write
 * too: glibc keeps the unwritten bytes, so the retry names the cause; EIO
 * when it cannot). */
int wm_flush_errno(FILE *f);

#ifdef __cplusplus
}
#endif
#endif
