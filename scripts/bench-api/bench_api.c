/* The library side of scripts/bench-api.sh: one graph loaded once, then N
 * queries of each kind through the C API, each timed on the host's wall
 * clock (it is the per-query cost a caller sees).  Prints one CSV line per
 * kind: kind,queries,load_ms,median_ms,mean_ms,min_ms,result. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <warpmatch.h>

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static int fail(warpmatch_context *ctx, const char *what) {
  fprintf(stderr, "bench_api: %s: %s\n", what, warpmatch_last_error(ctx));
  return 1;
}

/* One query of `kind`; *result gets a number to print beside the times. */
static int query(warpmatch_context *ctx, const warpmatch_graph *g, const char *kind, warpmatch_pattern *p,
                 const warpmatch_count_options *o, unsigned long long *result) {
  if (strcmp(kind, "motifs-4") == 0) {
    warpmatch_motif m[6];
    if (warpmatch_motifs(ctx, g, 4, o, m)) return 1;
    *result = 0;
    for (int i = 0; i < 6; i++) *result += m[i].count;
    return 0;
  }
  warpmatch_count_result r;
  if (warpmatch_count(ctx, g, p, o, &r)) return 1;
  *result = r.count;
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: bench_api GRAPH QUERIES auto|cpu|gpu\n");
    return 2;
  }
  const int n = atoi(argv[2]);
  warpmatch_count_options o;
  warpmatch_count_options_init(&o);
  o.device = strcmp(argv[3], "cpu") == 0 ? WARPMATCH_DEVICE_CPU
             : strcmp(argv[3], "gpu") == 0 ? WARPMATCH_DEVICE_GPU
                                            : WARPMATCH_DEVICE_AUTO;
  warpmatch_context *ctx;
  warpmatch_graph *g;
  if (n < 1 || warpmatch_context_create(&ctx)) return 2;
  double t0 = now_ms();
  if (warpmatch_graph_load(ctx, argv[1], NULL, &g)) return fail(ctx, argv[1]);
  const double load_ms = now_ms() - t0;
  const char *kinds[] = {"triangle", "4-cycle", "motifs-4"};
  double *ms = malloc(n * sizeof *ms);
  for (int k = 0; k < 3; k++) {
    warpmatch_pattern *p = NULL;
    if (k < 2 && warpmatch_pattern_create(ctx, kinds[k], &p)) return fail(ctx, kinds[k]);
    unsigned long long result = 0;
    double sum = 0;
    for (int i = 0; i < n; i++) {
      double a = now_ms();
      if (query(ctx, g, kinds[k], p, &o, &result)) return fail(ctx, kinds[k]);
      ms[i] = now_ms() - a;
      sum += ms[i];
    }
    qsort(ms, n, sizeof *ms, cmp);
    printf("%s,%d,%.3f,%.4f,%.4f,%.4f,%llu\n", kinds[k], n, load_ms, ms[n / 2], sum / n, ms[0], result);
    warpmatch_pattern_destroy(p);
  }
  free(ms);
  warpmatch_graph_destroy(g);
  warpmatch_context_destroy(ctx);
  return 0;
}
