/* The library side of scripts/bench-planner.sh: one graph loaded once and
 * one context (on the GPU: one CUDA context, the graph uploaded once) for
 * every count of the graph's cells, so that a cell's runs cost their
 * planning and matching only, not a process, a load and a device start
 * each.  It answers requests read from stdin, one per line, with one JSON
 * line each on stdout:
 *
 *   plan PATTERN PLANNER           the plan JSON (warpmatch_plan_ex) with that planner
 *   count PATTERN PLANNER ORDER S  a count (method enumerate); ORDER is "-" (the planner's)
 *                                  or the pattern's vertices joined by commas; past S
 *                                  seconds the context is interrupted: {"status":"timeout"}
 *
 * PLANNER is auto, model, sampled or probes.  A count's line has the
 * result's count (decimal), seconds (the matching: a median with trials),
 * plan_seconds, executor, k and the order it ran ("ran_order": the slice's
 * winner when auto timed slices; empty: the plan's, which a plan request
 * gives), and the slices' stride, each order's time on them and the orders
 * ("slice_every", "slice_ms", "slice_order", in the order timed).  Errors: {"status":
 * "error","message":...}; the process goes on with the next request. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <warpmatch.h>

enum { MAX_PATTERNS = 256, MAX_PLAN_JSON = 1 << 20 };

static warpmatch_context *ctx;
static warpmatch_graph *graph;
static int device;
static unsigned trials;

/* The watchdog: a thread that interrupts the context once the armed
 * deadline passes (the library's stop word, as a caller's SIGINT would). */
static atomic_llong deadline_ns; /* 0: disarmed */
static atomic_int fired;

static long long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void *watchdog(void *unused) {
  (void)unused;
  const struct timespec tick = {0, 5000000};
  for (;;) {
    long long d = atomic_load(&deadline_ns);
    if (d && now_ns() > d && !atomic_exchange(&fired, 1)) warpmatch_interrupt(ctx, 1);
    nanosleep(&tick, NULL);
  }
  return NULL;
}

static struct {
  char name[512];
  warpmatch_pattern *p;
} patterns[MAX_PATTERNS];
static int npatterns;

static warpmatch_pattern *pattern(const char *name) {
  for (int i = 0; i < npatterns; i++)
    if (strcmp(patterns[i].name, name) == 0) return patterns[i].p;
  if (npatterns == MAX_PATTERNS || strlen(name) >= sizeof patterns[0].name) return NULL;
  warpmatch_pattern *p;
  if (warpmatch_pattern_create(ctx, name, &p)) return NULL;
  strcpy(patterns[npatterns].name, name);
  patterns[npatterns++].p = p;
  return p;
}

static int planner_id(const char *s) {
  if (strcmp(s, "auto") == 0) return WARPMATCH_PLANNER_AUTO;
  if (strcmp(s, "model") == 0) return WARPMATCH_PLANNER_MODEL;
  if (strcmp(s, "sampled") == 0) return WARPMATCH_PLANNER_SAMPLED;
  if (strcmp(s, "probes") == 0) return WARPMATCH_PLANNER_PROBES;
  return -1;
}

/* A JSON string's body: the message's quotes and backslashes escaped. */
static void put_escaped(const char *s) {
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') putchar('\\');
    putchar(*s == '\n' ? ' ' : *s);
  }
}

static void error_line(const char *what) {
  printf("{\"status\":\"error\",\"message\":\"");
  put_escaped(what);
  printf(": ");
  put_escaped(warpmatch_last_error(ctx));
  printf("\"}\n");
}

static void options(warpmatch_match_options *o, int planner, const unsigned *order) {
  warpmatch_match_options_init(o);
  o->count.device = device;
  o->count.method = WARPMATCH_METHOD_ENUMERATE;
  o->planner = planner;
  o->order = order;
  o->trials = trials;
}

/* "0,2,1,3" into order[]; the count of vertices read, or -1. */
static int parse_order(const char *s, unsigned *order) {
  int n = 0;
  for (char *end; *s; s = *end == ',' ? end + 1 : end) {
    unsigned long v = strtoul(s, &end, 10);
    if (end == s || n == WARPMATCH_MAX_PATTERN_VERTICES || (*end && *end != ',')) return -1;
    order[n++] = (unsigned)v;
  }
  return n;
}

static void plan_request(warpmatch_pattern *p, int planner) {
  static char buf[MAX_PLAN_JSON];
  warpmatch_match_options o;
  options(&o, planner, NULL);
  int format = WARPMATCH_PLAN_JSON | (device == WARPMATCH_DEVICE_GPU ? WARPMATCH_PLAN_FOR_GPU : 0);
  size_t needed;
  if (warpmatch_plan_ex(ctx, graph, p, &o, format, buf, sizeof buf, &needed, NULL)) return error_line("plan");
  if (needed >= sizeof buf) {
    printf("{\"status\":\"error\",\"message\":\"plan JSON over %d bytes\"}\n", MAX_PLAN_JSON);
    return;
  }
  for (char *c = buf; *c; c++)
    if (*c == '\n') *c = ' ';
  printf("%s\n", buf);
}

/* The order the count ran where the result knows it: the given order, or
 * the slice's winner when auto timed slices (else [], the plan's). */
static void put_ran_order(const unsigned *order, int k, const warpmatch_match_result *r) {
  printf(",\"ran_order\":[");
  if (order || r->slice_orders) {
    const unsigned *ran = order ? order : r->slice_order[r->slice_chosen];
    for (int i = 0; i < k; i++) printf(i ? ",%u" : "%u", ran[i]);
  }
  printf("],\"slice_orders\":%u,\"slice_every\":%u,\"slice_ms\":[", r->slice_orders, r->slice_every);
  for (unsigned i = 0; i < r->slice_orders; i++) printf(i ? ",%.4f" : "%.4f", r->slice_ms[i]);
  printf("],\"slice_order\":[");
  for (unsigned i = 0; i < r->slice_orders; i++) {
    printf(i ? ",[" : "[");
    for (int j = 0; j < k; j++) printf(j ? ",%u" : "%u", r->slice_order[i][j]);
    printf("]");
  }
  printf("]");
}

static void count_request(warpmatch_pattern *p, int planner, const unsigned *order, double limit_s) {
  warpmatch_match_options o;
  options(&o, planner, order);
  warpmatch_match_result r;
  memset(&r, 0, sizeof r);
  r.size = sizeof r;
  atomic_store(&fired, 0);
  atomic_store(&deadline_ns, now_ns() + (long long)(limit_s * 1e9));
  int rc = warpmatch_count_ex(ctx, graph, p, &o, &r);
  atomic_store(&deadline_ns, 0);
  if (atomic_load(&fired)) warpmatch_interrupt(ctx, 0);
  if (rc == WARPMATCH_EINTERRUPTED && atomic_load(&fired)) {
    printf("{\"status\":\"timeout\"}\n");
    return;
  }
  if (rc) return error_line("count");
  char count[48];
  unsigned __int128 c = ((unsigned __int128)r.count.count_high << 64) | r.count.count;
  char *s = count + sizeof count - 1;
  *s = 0;
  do *--s = (char)('0' + (int)(c % 10)); while ((c /= 10) != 0);
  const int k = (int)warpmatch_pattern_vertices(p);
  printf("{\"status\":\"ok\",\"count\":\"%s\",\"seconds\":%.9f,\"plan_seconds\":%.9f,\"kernel_ms\":%.4f,"
         "\"k\":%d,\"executor\":\"%s\"",
         s, r.count.seconds, r.plan_seconds, r.count.kernel_ms, k, r.executor ? r.executor : "");
  put_ran_order(order, k, &r);
  printf("}\n");
}

static void request(char *line) {
  char *verb = strtok(line, " \t\n"), *name = strtok(NULL, " \t\n"), *pl = strtok(NULL, " \t\n");
  int planner = pl ? planner_id(pl) : -1;
  warpmatch_pattern *p = name ? pattern(name) : NULL;
  if (!verb || !p || planner < 0) {
    printf("{\"status\":\"error\",\"message\":\"bad request or pattern\"}\n");
    return;
  }
  if (strcmp(verb, "plan") == 0) return plan_request(p, planner);
  char *ord = strtok(NULL, " \t\n"), *lim = strtok(NULL, " \t\n");
  unsigned order[WARPMATCH_MAX_PATTERN_VERTICES];
  int n = ord && strcmp(ord, "-") != 0 ? parse_order(ord, order) : 0;
  double limit_s = lim ? atof(lim) : 0;
  if (strcmp(verb, "count") != 0 || n < 0 || (n && n != (int)warpmatch_pattern_vertices(p)) || limit_s <= 0) {
    printf("{\"status\":\"error\",\"message\":\"bad count request\"}\n");
    return;
  }
  count_request(p, planner, n ? order : NULL, limit_s);
}

int main(int argc, char **argv) {
  if (argc != 4 || (strcmp(argv[2], "cpu") && strcmp(argv[2], "gpu")) || atoi(argv[3]) < 1) {
    fprintf(stderr, "usage: bench_planner GRAPH cpu|gpu TRIALS  (requests on stdin)\n");
    return 2;
  }
  device = strcmp(argv[2], "gpu") == 0 ? WARPMATCH_DEVICE_GPU : WARPMATCH_DEVICE_CPU;
  trials = (unsigned)atoi(argv[3]);
  if (warpmatch_context_create(&ctx)) return 2;
  if (warpmatch_graph_load(ctx, argv[1], NULL, &graph)) {
    fprintf(stderr, "bench_planner: %s: %s\n", argv[1], warpmatch_last_error(ctx));
    return 1;
  }
  /* The graph's upload, renumbering and statistics belong to no cell: a
   * first count pays them before any request. */
  warpmatch_pattern *warm = pattern("triangle");
  warpmatch_match_options o;
  options(&o, WARPMATCH_PLANNER_MODEL, NULL);
  o.trials = 1;
  warpmatch_match_result r;
  memset(&r, 0, sizeof r);
  r.size = sizeof r;
  if (!warm || warpmatch_count_ex(ctx, graph, warm, &o, &r)) {
    fprintf(stderr, "bench_planner: warm-up: %s\n", warpmatch_last_error(ctx));
    return 1;
  }
  pthread_t t;
  if (pthread_create(&t, NULL, watchdog, NULL)) return 2;
  setvbuf(stdout, NULL, _IOLBF, 0);
  char line[4096];
  while (fgets(line, sizeof line, stdin)) request(line);
  return 0;
}
