/* The directed classes of 3 and 4 vertices and igraph's numbering of them.
 *
 * The tables below hold, for each class, the arcs of the graph igraph
 * builds for its id (Graph.Isoclass(k, id, directed=True).get_edgelist(),
 * python-igraph 1.0), as an arc code (motifs_directed.h).  They were made
 * by scripts/directed-classes.py, which prints them from igraph and
 * networkx; python/tests/test_directed_motifs.py checks every row against
 * igraph's isoclass() and, for size 3, networkx's triad_type().  Every
 * other code is mapped to its class here by permuting the representatives,
 * and wm_dir_tables_check proves that this covers each code exactly once. */
#include <pthread.h>
#include <stdio.h>

#include "motifs_directed.h"

/* Size 3 in the triad census's order (Batagelj and Mrvar; networkx's
 * triadic_census): MAN code, igraph id, igraph's representative. */
static const struct {
  const char *man;
  unsigned igraph_id, code;
} table3[WM_DIR_ROWS3] = {
    {"003", 0, 0x0},   {"012", 1, 0x4},   {"102", 3, 0x5},    {"021D", 6, 0x30},
    {"021U", 2, 0x14}, {"021C", 4, 0x11}, {"111D", 5, 0x15},  {"111U", 9, 0x7},
    {"030T", 7, 0x34}, {"030C", 11, 0x26}, {"201", 10, 0x17}, {"120D", 8, 0x35},
    {"120U", 13, 0x33}, {"120C", 12, 0x36}, {"210", 14, 0x37}, {"300", 15, 0x3f},
};

/* Size 4: igraph id i's representative at [i]. */
static const uint16_t table4[WM_DIR_ROWS4] = {
    0x0,   0x8,   0x48,  0x248, 0x9,   0x41,  0x49,  0x241, 0x249, 0xc0,  0xc8,  0x280, 0x288, 0x2c0, 0x2c8,
    0xc9,  0x289, 0x2c1, 0x2c9, 0x6c0, 0x6c8, 0x6c9, 0xb,   0x4b,  0x203, 0x20b, 0x24b, 0x8a,  0xca,  0x282,
    0x28a, 0x2c2, 0x2ca, 0xc3,  0xcb,  0x283, 0x28b, 0x2c3, 0x2cb, 0x442, 0x44a, 0x602, 0x60a, 0x642, 0x64a,
    0x443, 0x44b, 0x603, 0x60b, 0x643, 0x64b, 0x4ca, 0x682, 0x68a, 0x6c2, 0x6ca, 0x4c3, 0x4cb, 0x683, 0x68b,
    0x6c3, 0x6cb, 0xdb,  0x293, 0x29b, 0x2db, 0x612, 0x61a, 0x652, 0x65a, 0x61b, 0x653, 0x65b, 0x6d2, 0x6da,
    0x6db, 0xe00, 0xe08, 0xe48, 0xe09, 0xe41, 0xe49, 0xec0, 0xec8, 0xec9, 0xe0b, 0xe4b, 0xe8a, 0xeca, 0xec3,
    0xecb, 0xedb, 0xf,   0x4f,  0x24f, 0x8e,  0xc6,  0xce,  0x286, 0x28e, 0x2c6, 0x2ce, 0x8f,  0xc7,  0xcf,
    0x287, 0x28f, 0x2c7, 0x2cf, 0x48e, 0x4c6, 0x4ce, 0x6c6, 0x6ce, 0x48f, 0x4c7, 0x4cf, 0x6c7, 0x6cf, 0xdc,
    0x294, 0x29c, 0x2dc, 0xd5,  0xdd,  0x29d, 0x2d5, 0x2dd, 0x454, 0x45c, 0x654, 0x65c, 0x45d, 0x655, 0x65d,
    0x6d4, 0x6dc, 0x6dd, 0x9f,  0xdf,  0x297, 0x29f, 0x2df, 0x41e, 0x45e, 0x61e, 0x656, 0x65e, 0x41f, 0x457,
    0x45f, 0x617, 0x61f, 0x657, 0x65f, 0x49e, 0x4de, 0x696, 0x69e, 0x6d6, 0x6de, 0x49f, 0x4d7, 0x4df, 0x697,
    0x69f, 0x6d7, 0x6df, 0xccc, 0xec4, 0xecc, 0xcc5, 0xccd, 0xec5, 0xecd, 0xc4f, 0xe07, 0xe0f, 0xe4f, 0xcce,
    0xe8e, 0xec6, 0xece, 0xccf, 0xe87, 0xe8f, 0xec7, 0xecf, 0xcdc, 0xe9c, 0xedc, 0xcdd, 0xe9d, 0xed5, 0xedd,
    0xcdf, 0xe97, 0xe9f, 0xedf, 0xff,  0x2bf, 0x2f7, 0x2ff, 0x6f6, 0x6fe, 0x6ff, 0x8ef, 0xaef, 0xcee, 0xeee,
    0xeaf, 0xee7, 0xeef, 0xe3f, 0xe7f, 0xefe, 0xeff, 0xfff,
};

#define NO_ROW 0xFF

static wm_dir_class rows3[WM_DIR_ROWS3], rows4[WM_DIR_ROWS4];
static uint8_t row_of3[1u << 6], row_of4[1u << 12];
static int tables_bad; /* 0 ok, else what went wrong (see wm_dir_tables_check) */
static unsigned bad_code;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* The code of the graph `code` with vertex i renamed p[i]. */
static unsigned permute(unsigned k, unsigned code, const unsigned *p) {
  unsigned out = 0;
  for (unsigned i = 0; i < k; i++)
    for (unsigned j = 0; j < k; j++)
      if (i != j && (code >> wm_dir_arc_bit(k, i, j) & 1)) out |= 1u << wm_dir_arc_bit(k, p[i], p[j]);
  return out;
}

/* Weakly connected: every vertex reached from 0 over arcs either way. */
static int weakly_connected(unsigned k, unsigned code) {
  unsigned seen = 1, grew = 1;
  while (grew) {
    grew = 0;
    for (unsigned i = 0; i < k; i++)
      for (unsigned j = 0; j < k; j++)
        if (i != j && (seen >> i & 1) && !(seen >> j & 1) &&
            ((code >> wm_dir_arc_bit(k, i, j) & 1) || (code >> wm_dir_arc_bit(k, j, i) & 1)))
          seen |= 1u << j, grew = 1;
  }
  return seen == (1u << k) - 1;
}

/* Marks every relabelling of row r's representative as row r; a code
 * already marked by another row means two rows are one class. */
static void mark_class(unsigned k, uint8_t *row_of, unsigned r, unsigned code) {
  unsigned p[4];
  for (p[0] = 0; p[0] < k; p[0]++)
    for (p[1] = 0; p[1] < k; p[1]++)
      for (p[2] = 0; p[2] < k; p[2]++)
        for (p[3] = 0; p[3] < (k == 4 ? 4u : 1u); p[3]++) {
          if (p[0] == p[1] || p[0] == p[2] || p[1] == p[2]) continue;
          if (k == 4 && (p[3] == p[0] || p[3] == p[1] || p[3] == p[2])) continue;
          const unsigned c = permute(k, code, p);
          if (row_of[c] != NO_ROW && row_of[c] != r) tables_bad = 1, bad_code = c;
          row_of[c] = (uint8_t)r;
        }
}

static void build(unsigned k, wm_dir_class *rows, uint8_t *row_of) {
  const unsigned n = wm_dir_rows(k), codes = 1u << (k * (k - 1));
  for (unsigned c = 0; c < codes; c++) row_of[c] = NO_ROW;
  for (unsigned r = 0; r < n; r++) {
    rows[r].igraph_id = k == 3 ? table3[r].igraph_id : r;
    rows[r].code = k == 3 ? table3[r].code : table4[r];
    rows[r].man = k == 3 ? table3[r].man : NULL;
    rows[r].connected = weakly_connected(k, rows[r].code);
    mark_class(k, row_of, r, rows[r].code);
  }
  for (unsigned c = 0; c < codes && !tables_bad; c++)
    if (row_of[c] == NO_ROW) tables_bad = 2, bad_code = c;
}

static void build_all(void) {
  build(3, rows3, row_of3);
  build(4, rows4, row_of4);
}

unsigned wm_dir_rows(unsigned k) { return k == 3 ? WM_DIR_ROWS3 : k == 4 ? WM_DIR_ROWS4 : 0; }

const wm_dir_class *wm_dir_class_row(unsigned k, unsigned r) {
  pthread_once(&once, build_all);
  return k == 3 ? &rows3[r] : &rows4[r];
}

unsigned wm_dir_row_of(unsigned k, unsigned code) {
  pthread_once(&once, build_all);
  return k == 3 ? row_of3[code] : row_of4[code];
}

int wm_dir_tables_check(wm_error *err) {
  pthread_once(&once, build_all);
  if (tables_bad == 1)
    return wm_fail(err, WM_EINPUT, "directed motifs: two rows of the class table are isomorphic (arc code %#x)",
                   bad_code);
  if (tables_bad == 2)
    return wm_fail(err, WM_EINPUT, "directed motifs: arc code %#x belongs to no row of the class table", bad_code);
  return WM_OK;
}

void wm_dir_arcs_string(unsigned k, unsigned code, char *buf, unsigned size) {
  unsigned len = 0;
  if (size) buf[0] = '\0';
  for (unsigned i = 0; i < k; i++)
    for (unsigned j = 0; j < k; j++)
      if (i != j && (code >> wm_dir_arc_bit(k, i, j) & 1) && len < size) {
        const int w = snprintf(buf + len, size - len, "%s%u->%u", len ? " " : "", i, j);
        len = w < 0 ? size : len + (unsigned)w;
      }
}
