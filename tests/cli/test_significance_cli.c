/* `motifs --random N`: the significance table as text, JSON and CSV, the
 * same for the same seed (and thread count), other for another seed; bad N,
 * methods and options are usage errors; --directed counts the directed
 * classes; a CSV that cannot be written fails whole. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json_check.h"
#include "testutil.h"

/* A random graph of 150 vertices and about 600 edges, with a planted
 * 8-clique so that triangles are over-represented. */
static void graph_file(wm_test_files *f) {
  char *text = malloc(1 << 16);
  size_t len = 0;
  uint64_t s = 12345;
  for (int e = 0; e < 600; e++)
    len += (size_t)sprintf(text + len, "%u %u\n", (unsigned)(wm_test_rand(&s) % 150), (unsigned)(wm_test_rand(&s) % 150));
  for (unsigned u = 0; u < 8; u++)
    for (unsigned v = u + 1; v < 8; v++) len += (size_t)sprintf(text + len, "%u %u\n", u, v);
  wm_test_graph_file(f, text);
  free(text);
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  cr_assert_not_null(f, "%s was not written", path);
  char *buf = calloc(1, 1 << 16);
  cr_assert_not_null(buf);
  const size_t got = fread(buf, 1, (1 << 16) - 1, f);
  cr_assert(got > 0 && !ferror(f), "%s could not be read", path);
  fclose(f);
  return buf;
}

static unsigned count_of(const char *s, const char *what) {
  unsigned n = 0;
  for (const char *p = s; (p = strstr(p, what)); p += strlen(what)) n++;
  return n;
}

Test(significance_cli, text_table) {
  wm_test_files f;
  graph_file(&f);
  char *out, *err;
  int rc = wm_test_run(&out, &err, "motifs %s --size 3 --random 5 --seed 3 --no-cache --device cpu", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(strstr(out, "5 random graphs, seed 3"), "%s", out);
  cr_assert(strstr(out, "randomisation: switch, 10 swaps per edge: "), "%s", out);
  cr_assert(strstr(out, "accepted a graph (mean); edges kept "), "%s", out);
  cr_assert(strstr(out, "real count") && strstr(out, "random mean") && strstr(out, "p(>=)"), "%s", out);
  cr_assert(strstr(out, "\n3-path ") && strstr(out, "\ntriangle "), "%s", out);
  free(out), free(err);
  rc = wm_test_run(&out, &err, "motifs %s --size 3 --random 3 --method curveball --swaps-per-edge 2 --no-cache",
                   f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(strstr(out, "randomisation: curveball, 2 rounds of global trades a graph: 150 trades"), "%s", out);
  free(out), free(err);
  wm_test_rmdir(f.dir);
}

Test(significance_cli, json_and_csv_well_formed_and_reproducible) {
  wm_test_files f;
  graph_file(&f);
  char *out, *err, csv[3][600];
  for (int i = 0; i < 3; i++) snprintf(csv[i], sizeof csv[i], "%s/t%d.csv", f.dir, i);
  /* runs 0 and 1: one seed, 2 threads and 1; run 2: another seed */
  const char *extra[3] = {"--seed 9 --threads 2", "--seed 9 --threads 1", "--seed 10"};
  for (int i = 0; i < 3; i++) {
    int rc = wm_test_run(&out, &err, "motifs %s --size 4 --random 6 %s --no-cache --device cpu --json --csv %s",
                         f.graph, extra[i], csv[i]);
    cr_assert_eq(rc, 0, "%s", err);
    cr_assert(json_valid_object(out), "%s", out);
    cr_assert_eq(json_u64(out, "random_graphs"), 6);
    cr_assert_eq(json_u64(out, "swaps_per_edge"), 10);
    cr_assert_eq(count_of(out, "\"name\":"), 6, "%s", out);
    cr_assert_eq(count_of(out, "\"p_over\":"), 6, "%s", out);
    cr_assert(strstr(out, "\"method\":\"switch\""), "%s", out);
    free(out), free(err);
  }
  char *a = slurp(csv[0]), *b = slurp(csv[1]), *c = slurp(csv[2]);
  cr_assert(!strncmp(a, "name,edges,count,random_mean,random_sd,z,p_over,p_under,profile\n", 64), "%s", a);
  cr_assert_eq(count_of(a, "\n"), 7, "%s", a);
  cr_assert_eq(count_of(a, ","), 7 * 8, "every line has 9 fields: %s", a);
  cr_assert_str_eq(a, b, "the same seed on 2 threads and 1 gave other tables");
  cr_assert_str_neq(a, c, "another seed gave the same table");
  free(a), free(b), free(c);
  wm_test_rmdir(f.dir);
}

/* The real counts are the plain motifs command's. */
Test(significance_cli, real_counts_are_motifs_counts) {
  wm_test_files f;
  graph_file(&f);
  char *out, *err, *plain, *perr;
  int rc = wm_test_run(&out, &err, "motifs %s --size 3 --random 2 --no-cache --json", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  rc = wm_test_run(&plain, &perr, "motifs %s --size 3 --no-cache --json", f.graph);
  cr_assert_eq(rc, 0, "%s", perr);
  const char *t1 = strstr(out, "\"name\":\"triangle\""), *t2 = strstr(plain, "\"name\":\"triangle\"");
  cr_assert(t1 && t2);
  cr_assert_eq(json_u64(t1, "count"), json_u64(t2, "count"));
  cr_assert_geq(json_u64(t1, "count"), 56, "the planted 8-clique alone has 56 triangles");
  free(out), free(err), free(plain), free(perr);
  wm_test_rmdir(f.dir);
}

Test(significance_cli, usage_errors) {
  wm_test_files f;
  graph_file(&f);
  static const struct {
    const char *args, *says;
  } cases[] = {
      {"--random 1", "from 2 to 100000"},
      {"--random 100001", "from 2 to 100000"},
      {"--random x", "--random"},
      {"--random 4 --method shuffle", "auto|formula|enumerate|switch|curveball"},
      {"--method curveball", "give --random N too"},
      {"--seed 3", "--seed is for significance"},
      {"--csv x.csv", "--csv is for significance"},
      {"--random 4 --swaps-per-edge 0", "--swaps-per-edge"},
      {"--random 4 --trials 3", "--trials"},
      {"--random 4 --directed --size 5", "directed motifs have 3 or 4"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *out, *err;
    int rc = wm_test_run(&out, &err, "motifs %s --size 3 --no-cache %s --csv %s/never.csv", f.graph, cases[i].args,
                         f.dir);
    if (strstr(cases[i].args, "--csv")) {
      free(out), free(err);
      rc = wm_test_run(&out, &err, "motifs %s --size 3 --no-cache %s", f.graph, cases[i].args);
    }
    cr_assert_eq(rc, 2, "%s: exit %d, %s", cases[i].args, rc, err);
    cr_assert(strstr(err, cases[i].says), "%s: %s", cases[i].args, err);
    cr_assert_str_eq(out, "", "%s: printed %s", cases[i].args, out);
    free(out), free(err);
  }
  char never[600];
  snprintf(never, sizeof never, "%s/never.csv", f.dir);
  cr_assert_neq(access(never, F_OK), 0, "a failed run left its CSV behind");
  wm_test_rmdir(f.dir);
}

/* A CSV that cannot be written: exit 1 and nothing printed. */
Test(significance_cli, unwritable_csv_fails_whole) {
  wm_test_files f;
  graph_file(&f);
  char *out, *err;
  int rc = wm_test_run(&out, &err, "motifs %s --size 3 --random 2 --no-cache --csv %s/no/such/dir.csv", f.graph, f.dir);
  cr_assert_eq(rc, 1, "exit %d: %s", rc, err);
  cr_assert(strstr(err, "dir.csv"), "%s", err);
  cr_assert_str_eq(out, "");
  free(out), free(err);
  wm_test_rmdir(f.dir);
}

/* K5 is the only graph of its degrees: sd 0, so z is "-" in the text (with
 * a note), null in the JSON and empty in the CSV; never a division by 0. */
Test(significance_cli, zero_sd_prints_no_z) {
  wm_test_files f;
  char text[256];
  wm_test_clique_text(text, sizeof text, 5, 1, 1);
  wm_test_graph_file(&f, text);
  char *out, *err, csv[600];
  snprintf(csv, sizeof csv, "%s/k5.csv", f.dir);
  int rc = wm_test_run(&out, &err, "motifs %s --size 3 --random 3 --no-cache --csv %s", f.graph, csv);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(strstr(out, "every random count equal (sd 0), so no z-score"), "%s", out);
  cr_assert(strstr(out, "\ntriangle "), "%s", out);
  free(out), free(err);
  rc = wm_test_run(&out, &err, "motifs %s --size 3 --random 3 --no-cache --json", f.graph);
  cr_assert_eq(rc, 0, "%s", err);
  cr_assert(json_valid_object(out), "%s", out);
  cr_assert(strstr(out, "\"random_sd\":0,\"z\":null"), "%s", out);
  cr_assert(strstr(out, "\"profile\":null"), "%s", out);
  free(out), free(err);
  char *c = slurp(csv);
  cr_assert(strstr(c, "triangle,0-1 0-2 1-2,10,10,0,,1,1,\n"), "%s", c);
  free(c);
  wm_test_rmdir(f.dir);
}
