/* Every reader against a few thousand random and mutated inputs
 * (deterministic seed): each call returns WM_OK with a valid graph, or
 * WM_EINPUT with a message -- never a crash, hang or out-of-bounds read. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>

#include "datasets.h"
#include "testutil.h"

static char dir[256], path[512];
static uint64_t seed;
static void setup(void) {
  wm_test_tmpdir(dir, sizeof dir);
  path[0] = '\0';
  seed = 20240611;
}
static void teardown(void) { wm_test_rmdir(dir); }
TestSuite(fuzz, .init = setup, .fini = teardown);

static uint32_t rnd(uint32_t k) { return (uint32_t)(wm_test_rand(&seed) % k); }

/* A fresh name each time: rewriting one file in place makes ext4 flush it
 * to disk on close (auto_da_alloc), which would dominate the run time. */
static void spit(const unsigned char *b, size_t len) {
  static unsigned serial;
  if (path[0]) unlink(path);
  snprintf(path, sizeof path, "%s/fuzz.%u", dir, serial++);
  FILE *f = fopen(path, "wb");
  cr_assert_not_null(f);
  if (len) cr_assert_eq(fwrite(b, 1, len, f), len);
  fclose(f);
}

static void check_valid(const wm_graph *g) {
  cr_assert_eq(g->offsets[0], 0);
  cr_assert_eq(g->offsets[g->n], g->m);
  for (uint32_t v = 0; v < g->n; v++)
    for (uint64_t e = g->offsets[v]; e < g->offsets[v + 1]; e++) {
      cr_assert_lt(g->adj[e], g->n);
      cr_assert_neq(g->adj[e], v);
      if (e > g->offsets[v]) cr_assert_lt(g->adj[e - 1], g->adj[e]);
    }
}

static void check_outcome(int rc, wm_graph *g, const wm_error *err, const char *what) {
  if (rc == WM_OK) {
    cr_assert_not_null(g, "%s: OK without a graph", what);
    check_valid(g);
    wm_graph_destroy(g);
  } else {
    cr_assert_eq(rc, WM_EINPUT, "%s: unexpected code %d", what, rc);
    cr_assert_null(g, "%s: error but a graph was returned", what);
    cr_assert(err->msg[0] != '\0', "%s: error without a message", what);
  }
}

/* Text-like noise: digits and separators mostly, some anything. */
static size_t noise(unsigned char *b, size_t max) {
  static const char alphabet[] = "0123456789012345678901234567890123456789  \t\t\n\n\n\r#%-.xe";
  size_t len = rnd((uint32_t)max);
  for (size_t i = 0; i < len; i++)
    b[i] = rnd(10) == 0 ? (unsigned char)rnd(256) : (unsigned char)alphabet[rnd(sizeof alphabet - 1)];
  return len;
}

/* Flips bits, overwrites, inserts or truncates a valid input. */
static size_t mutate(unsigned char *b, size_t len, size_t cap) {
  int ops = 1 + (int)rnd(4);
  for (int k = 0; k < ops && len; k++) {
    switch (rnd(4)) {
    case 0: b[rnd((uint32_t)len)] ^= (unsigned char)(1u << rnd(8)); break;
    case 1: b[rnd((uint32_t)len)] = (unsigned char)rnd(256); break;
    case 2: len = rnd((uint32_t)len + 1); break;
    default:
      if (len < cap) {
        size_t at = rnd((uint32_t)len + 1);
        memmove(b + at + 1, b + at, len - at);
        b[at] = (unsigned char)"0123456789 \n#"[rnd(13)];
        len++;
      }
    }
  }
  return len;
}

static const char *valid_edgelist = "# g\n0 1\n1 2\t1.5\n2 0\r\n3 4\n% c\n4 0\n10 3\n";
static const char *valid_mtx =
    "%%MatrixMarket matrix coordinate real symmetric\n% x\n6 6 5\n2 1 1.0\n3 2 2\n4 1 3\n6 5 4\n5 5 1\n";

Test(fuzz, edge_lists, .timeout = 120) {
  unsigned char b[4096];
  for (int it = 0; it < 1500; it++) {
    size_t len;
    if (it % 2) {
      len = noise(b, 400);
    } else {
      len = strlen(valid_edgelist);
      memcpy(b, valid_edgelist, len);
      len = mutate(b, len, sizeof b);
    }
    spit(b, len);
    wm_graph *g = NULL;
    wm_error err = {0};
    int rc = wm_read_edgelist(path, it % 3 == 0, 0, &g, &err);
    check_outcome(rc, g, &err, "edge list");
  }
}

Test(fuzz, matrix_market, .timeout = 120) {
  unsigned char b[4096];
  for (int it = 0; it < 1500; it++) {
    size_t len = strlen(valid_mtx);
    memcpy(b, valid_mtx, len);
    if (it % 4 == 3) len = 48 + noise(b + 48, 300); /* banner + noise */
    else len = mutate(b, len, sizeof b);
    spit(b, len);
    wm_graph *g = NULL;
    wm_error err = {0};
    int rc = wm_read_mtx(path, it % 3 == 0, 0, &g, &err);
    check_outcome(rc, g, &err, "mtx");
  }
}

/* Mutated .wmg files, half of them with both hashes recomputed so that the
 * size and structure checks (not just the checksum) are what stands
 * between the bytes and the consumers. */
Test(fuzz, wmg, .timeout = 120) {
  wm_graph *g0 = wm_test_powerlaw(60, 6, 2, 0.4, 3);
  wm_error err;
  char src[512];
  snprintf(src, sizeof src, "%s/valid.wmg", dir);
  cr_assert_eq(wm_write_wmg(g0, src, 7, &err), WM_OK);
  FILE *f = fopen(src, "rb");
  static unsigned char valid[1 << 16], b[1 << 16];
  size_t vlen = fread(valid, 1, sizeof valid, f);
  fclose(f);
  cr_assert_lt(vlen, sizeof valid);
  int accepted = 0;
  for (int it = 0; it < 2000; it++) {
    size_t len;
    if (it % 10 == 9) {
      len = rnd(300);
      for (size_t i = 0; i < len; i++) b[i] = (unsigned char)rnd(256);
      if (len >= 8 && rnd(2)) memcpy(b, "WMGRAPH", 8);
    } else {
      memcpy(b, valid, vlen);
      len = vlen;
      int ops = 1 + (int)rnd(3);
      for (int k = 0; k < ops; k++) {
        size_t at = rnd(it % 2 ? (uint32_t)len : 64); /* header or anywhere */
        b[at] ^= (unsigned char)(1u << rnd(8));
      }
      if (rnd(8) == 0) len = rnd((uint32_t)len);
      if (it % 2 == 0 && len > 64) {
        uint64_t ph = XXH3_64bits(b + 64, len - 64), hh; /* one 64 MiB chunk */
        ph = XXH3_64bits(&ph, 8);
        memcpy(b + 48, &ph, 8);
        hh = XXH3_64bits(b, 56);
        memcpy(b + 56, &hh, 8);
      }
    }
    spit(b, len);
    wm_graph *g = NULL;
    wm_error e = {0};
    int rc = wm_read_wmg(path, &g, NULL, &e);
    accepted += rc == WM_OK;
    check_outcome(rc, g, &e, "wmg");
  }
  cr_assert_lt(accepted, 1000, "most mutations must be rejected (%d accepted)", accepted);
  wm_graph_destroy(g0);
}

Test(fuzz, labels, .timeout = 120) {
  uint32_t s[] = {3, 5, 9, 3}, d[] = {5, 9, 3, 12};
  wm_graph *g = NULL;
  wm_error err;
  cr_assert_eq(wm_graph_from_arcs(s, d, 4, 0, 0, &g, &err), WM_OK);
  const char *valid = "# labels\n3 1\n5 2\n9 0\n12 2147483647\n";
  unsigned char b[4096];
  for (int it = 0; it < 1500; it++) {
    size_t len;
    if (it % 2) {
      len = noise(b, 300);
    } else {
      len = strlen(valid);
      memcpy(b, valid, len);
      len = mutate(b, len, sizeof b);
    }
    spit(b, len);
    int32_t *lab = NULL;
    wm_error e = {0};
    int rc = wm_read_labels(path, g, &lab, &e);
    if (rc == WM_OK) {
      cr_assert_not_null(lab);
      for (uint32_t v = 0; v < g->n; v++) cr_assert_geq(lab[v], 0);
      free(lab);
    } else {
      cr_assert_eq(rc, WM_EINPUT);
      cr_assert_null(lab);
      cr_assert(e.msg[0]);
    }
  }
  wm_graph_destroy(g);
}
