/* Helpers shared by the fuzz targets (tests/fuzz/fuzz_*.c).
 *
 * Each target defines LLVMFuzzerTestOneInput: it hands the bytes to one
 * reader and, when the reader accepts them, checks every invariant its
 * result promises and frees it; when it refuses them, checks that the
 * refusal is a clean WM_EINPUT with a message and no result.  A broken
 * invariant aborts, so that libFuzzer (scripts/fuzz.sh) and the replay
 * driver (replay_main.c, under ctest) both report it as a crash with the
 * input that caused it. */
#ifndef WM_FUZZ_UTIL_H
#define WM_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "datasets.h"
#include "patterns.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Aborts with the message when cond is false. */
#define FUZZ_REQUIRE(cond, ...) \
  ((cond) ? (void)0 : fuzz_fail(__FILE__, __LINE__, #cond, __VA_ARGS__))
void fuzz_fail(const char *file, int line, const char *cond, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 4, 5)));

/* A path naming a file that holds exactly data[0..size): an in-memory file
 * (memfd) reopened through /proc/self/fd, rewritten on each call, so that
 * the readers that take a path open it as they would any regular file. */
const char *fuzz_file(const uint8_t *data, size_t size);

/* data as a NUL-terminated string (malloc'd; the caller frees it).  A NUL
 * inside the bytes ends the string early, as it would for any C caller. */
char *fuzz_text(const uint8_t *data, size_t size);

/* Whether a Matrix Market text declares over 2^17 rows or columns.  Such a
 * graph is valid (its isolated vertices count), but billions of vertices
 * take gigabytes, which libFuzzer reports as running out of memory, and
 * millions take a fuzz run's time; 2^17 still passes the size at which the
 * readers go parallel.  The targets leave these inputs out.  The check is
 * loose (the first two numbers of the first line after the banner that is
 * not blank or a comment), so it may leave out an input the reader would
 * refuse anyway, never keep a huge one in. */
int fuzz_mtx_huge(const uint8_t *data, size_t size);

/* A reader's refusal: rc is WM_EINPUT, no result, a non-empty message. */
void fuzz_check_refusal(const char *what, int rc, const void *result, const wm_error *err);

/* The CSR contract of datasets.h: offsets start at 0, never decrease and end
 * at m; every id is < n; rows strictly ascending (sorted, no duplicates)
 * without self-loops; known flags only, ORIENTED only with DIRECTED;
 * symmetric unless DIRECTED; file ids <= WM_MAX_VERTEX_ID and ascending
 * unless DEGREE_SORTED.  want_directed: 0 or 1 to require the DIRECTED
 * flag's value, -1 to take either. */
void fuzz_check_graph(const char *what, const wm_graph *g, int want_directed);

/* The pattern contract of patterns.h: 2 <= k <= 8, adjacency symmetric and
 * loop-free within the k vertices, labels WM_ANY_LABEL or >= 0 with
 * `labeled` saying whether any is set, a terminated name, and
 * wm_pattern_validate agrees; its automorphisms and canonical form (what
 * every command computes next) succeed. */
void fuzz_check_pattern(const char *what, const wm_pattern *p);

#endif
