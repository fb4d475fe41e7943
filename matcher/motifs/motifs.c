/* Motif counts: the vertex-induced count of every connected k-vertex
 * pattern, k = 3..5.
 *
 * The formula method takes edge-induced counts N from aggregates
 * (motif_sums.h, motif_formulas.c) for every class but the triangle,
 * which it enumerates edge-induced (one plan, which the GPU runs on its
 * triangle kernels), and the 4-clique, which the sums' pass 4 enumerates
 * once per edge on the degree order (on the GPU on graphs of up to
 * WM_MOTIF_K4_ARCS arcs, one plan on the clique kernels above); for size 5 every class,
 * the 5-clique too, has a formula.  Edge-induced counts are N = M I over
 * the induced ones, M the spanning-subgraph matrix, upper triangular with a unit
 * diagonal in edge order; so from the densest class down, I_i is N_i less
 * the copies of class i inside the denser classes already known (a class
 * without a formula would be enumerated vertex-induced and taken as it
 * is).  Its work grows with the graph's wedges on the degree order and,
 * for sizes 3 and 4, the enumerated cliques, not with the counts.
 *
 * The enumerate method runs one vertex-induced plan per class. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "engine.h"
#include "matcher.h"
#include "motifs_internal.h"

/* The formula counts the whole graph: not a seeded, ball-limited, listed
 * or per-vertex count. */
static int whole_graph_count(const wm_match_options *o) {
  return !o || (!o->first && !o->allowed && !o->sink && !o->per_vertex);
}

static void add_result(wm_match_result *sum, const wm_match_result *r) {
  sum->set_ops += r->set_ops;
  sum->kernel_ms += r->kernel_ms;
  sum->transfer_ms += r->transfer_ms;
}

static void set_total(wm_match_result *sum, const wm_u128 *counts, unsigned n) {
  wm_u128 total = 0;
  for (unsigned i = 0; i < n; i++) total += counts[i];
  sum->count = total;
}

/* One plan for pats[i], edge- or vertex-induced, on either executor. */
static int match_one(const wm_graph *g, const wm_pattern *p, int induced, int use_gpu, const wm_match_options *o,
                     const wm_graph_summary *gs, wm_match_result *r, wm_error *err) {
  const double t_plan = wm_now();
  wm_plan_options po;
  wm_plan_options_init(&po);
  po.induced = induced;
  wm_engine_plan_policy(&po, use_gpu, 0);
  wm_plan plan;
  int rc = wm_plan_build(p, gs, &po, &plan, err);
  if (rc) return rc;
  wm_match_options named;
  if (o)
    named = *o;
  else
    wm_match_options_init(&named);
  named.progress_label = p->name;
  const double t0 = wm_now();
  rc = wm_engine_match(g, &plan, use_gpu, &named, r, NULL, err);
  if (wm_trace_on("WM_MOTIF_TRACE"))
    fprintf(stderr, "motifs: %s matched %s in %.3f ms, its plan made in %.3f ms\n", p->name,
            induced ? "vertex-induced" : "edge-induced", 1e3 * (wm_now() - t0), 1e3 * (t0 - t_plan));
  return rc;
}

static int by_enumeration(const wm_graph *g, const wm_pattern *pats, unsigned n, int use_gpu,
                          const wm_match_options *o, wm_u128 *counts, int *how, wm_match_result *total,
                          wm_error *err) {
  wm_graph_summary gs;
  wm_graph_summary_compute(g, &gs);
  char first[sizeof total->launch] = "";
  for (unsigned i = 0; i < n; i++) {
    wm_match_result r;
    int rc = match_one(g, &pats[i], 1, use_gpu, o, &gs, &r, err);
    if (rc) return rc;
    counts[i] = r.count;
    if (how) how[i] = WM_MOTIF_BY_INDUCED_MATCH;
    add_result(total, &r);
    if (!first[0]) memcpy(first, r.launch, sizeof first);
  }
  snprintf(total->launch, sizeof total->launch, "enumerate: one vertex-induced plan per class; the first: %.200s",
           first);
  return WM_OK;
}

/* I from the edge-induced counts N (where !induced[i]) and the enumerated
 * induced ones (where induced[i]), densest class first. */
static int solve(const wm_pattern *pats, unsigned n, const uint64_t *M, const wm_i128 *value, const int *induced,
                 wm_u128 *counts, wm_error *err) {
  wm_i128 *I = calloc(n, sizeof *I);
  if (!I) return wm_fail(err, WM_EINPUT, "out of memory");
  int rc = WM_OK;
  for (unsigned ii = n; ii-- > 0 && rc == WM_OK;) {
    int overflow = 0;
    wm_i128 x = value[ii];
    for (unsigned j = ii + 1; j < n && !induced[ii]; j++)
      if (M[(size_t)ii * n + j]) x = wm_add_chk(x, -wm_mul_chk((wm_i128)M[(size_t)ii * n + j], I[j], &overflow), &overflow);
    if (overflow) rc = wm_fail(err, WM_EINPUT, "motif %s: the count overflows 128 bits", pats[ii].name);
    else if (x < 0) {
      char buf[WM_I128_CHARS];
      rc = wm_fail(err, WM_EINPUT, "motif %s: the formulas give a negative induced count (%s); please report it",
                   pats[ii].name, wm_i128_str(x, buf));
    }
    I[ii] = x;
  }
  for (unsigned i = 0; i < n && rc == WM_OK; i++) counts[i] = (wm_u128)I[i];
  free(I);
  return rc;
}

/* Appends name and note to the list of enumerated classes. */
static void list_matched(char *matched, size_t size, const char *name, const char *note) {
  const size_t used = strlen(matched);
  snprintf(matched + used, size - used, "%s%s%s", used ? ", " : "", name, note);
}

/* Each class's value: its formula, or one plan (edge-induced for the
 * triangle and the 4-clique, vertex-induced for a class without a
 * formula); the 4-clique is taken from the sums where their pass 4
 * counted them (WM_MOTIF_K4_ARCS).  The graph's summary, which plans
 * need, is made only for a class that has one. */
static int class_values(const wm_graph *g, const wm_pattern *pats, unsigned n, int use_gpu,
                        const wm_match_options *o, const wm_motif_sums *sums, wm_i128 *value, int *induced,
                        int *how, wm_match_result *total, char *matched, size_t matched_size, wm_error *err) {
  wm_graph_summary gs;
  int have_gs = 0;
  matched[0] = '\0';
  for (unsigned i = 0; i < n; i++) {
    /* the classes carry their catalogue names (wm_connected_patterns) */
    const int formula = wm_motif_class_formula(&pats[i], sums, &value[i]);
    const int h = formula ? WM_MOTIF_BY_FORMULA : wm_motif_class_how(&pats[i]);
    if (how) how[i] = h;
    induced[i] = h == WM_MOTIF_BY_INDUCED_MATCH;
    if (formula) continue;
    if (h == WM_MOTIF_BY_FORMULA) return wm_fail(err, WM_EINPUT, "motif %s: no formula", pats[i].name);
    if (h == WM_MOTIF_BY_EDGE_MATCH && sums->k4_counted && strcmp(pats[i].name, "4-clique") == 0) {
      value[i] = sums->s[WM_SUM_K4X4] / 4;
      list_matched(matched, matched_size, pats[i].name, " (per edge, in pass 4 of the aggregates)");
      continue;
    }
    if (!have_gs) wm_graph_summary_compute(g, &gs), have_gs = 1;
    wm_match_result r;
    int rc = match_one(g, &pats[i], induced[i], use_gpu, o, &gs, &r, err);
    if (rc) return rc;
    value[i] = r.count;
    add_result(total, &r);
    list_matched(matched, matched_size, pats[i].name, induced[i] ? " (induced)" : "");
  }
  return WM_OK;
}

/* The sums size k needs: on the GPU for sizes 4 and 5 when use_gpu (size
 * 3 needs degrees only), else on the CPU; their kernel ms go to total and
 * what was done to how. */
static int compute_sums(const wm_graph *g, unsigned k, int use_gpu, const wm_match_options *o, wm_motif_sums *sums,
                        wm_match_result *total, char *how, size_t how_size, wm_error *err) {
  int rc;
  const double *ps = sums->pass_seconds;
  const uint64_t k4_arcs = o && o->motif_k4_arcs ? o->motif_k4_arcs : use_gpu ? WM_MOTIF_K4_ARCS : UINT64_MAX;
  const int skip_k4 = k == 4 && g->m > k4_arcs;
  const char *k4_where = k >= 5 ? "per triangle" : skip_k4 ? "(left to a plan)" : "per edge";
  if (use_gpu && k >= 4) {
    double ms = 0;
    wm_motif_gpu_policy policy = {.warps = o && o->gpu_blocks > 0 ? 4u * (unsigned)o->gpu_blocks : 0,
                                  .list_room = o ? o->gpu_set_capacity : 0,
                                  .gpus = o ? o->gpus : 0,
                                  .graph = o ? o->gpu_graph : NULL,
                                  .skip_k4 = skip_k4,
                                  .share = o ? o->share : NULL};
    rc = wm_motif_sums_gpu(g, k, &policy, sums, &ms, err);
    if (rc) return rc;
    total->kernel_ms += ms;
    char where[96] = "the GPU";
    if (o && o->share)
      snprintf(where, sizeof where, "a GPU in each of %d processes (windows handed out dynamically)",
               o->share->processes);
    else if (sums->gpus > 1)
      snprintf(where, sizeof where, "%d GPUs (handed out dynamically)", sums->gpus);
    else if (o && o->gpus > 1)
      snprintf(where, sizeof where, "1 GPU of %d (%.60s)", o->gpus, sums->gpu_note);
    snprintf(how, how_size,
             "aggregates on %s in %.3f ms of kernels (triangles per edge %.3f, vertex and edge sums %.3f, "
             "4-cycles %.3f, pair lists %.3f, 4-cliques %s %.3f; %.3f s with the upload)",
             where, ms, 1e3 * ps[0], 1e3 * ps[1], 1e3 * ps[2], 1e3 * ps[3], k4_where, 1e3 * ps[4], sums->seconds);
  } else {
    rc = wm_motif_sums_cpu_shared(g, k, o ? o->threads : 0, skip_k4, o ? o->share : NULL, sums, err);
    if (rc) return rc;
    snprintf(how, how_size,
             "aggregates on the CPU in %.3f s (triangles per edge %.3f, vertex and edge sums %.3f, 4-cycles, pair "
             "lists and 5-cycles %.3f, 4-cliques %s %.3f)",
             sums->seconds, ps[0], ps[1], ps[2], k4_where, ps[4]);
  }
  total->formula_paths =
      sums->s[WM_SUM_PATHS] > (wm_i128)UINT64_MAX ? UINT64_MAX : (uint64_t)sums->s[WM_SUM_PATHS];
  return WM_OK;
}

/* g itself when renumbered by degree, else a renumbered copy in *sorted:
 * the passes' work bound needs the degree order. */
static int by_degree(const wm_graph *g, wm_graph **sorted, const wm_graph **use, wm_error *err) {
  *sorted = NULL;
  *use = g;
  if (g->flags & WM_GRAPH_DEGREE_SORTED) return WM_OK;
  int rc = wm_graph_relabel_by_degree(g, sorted, err);
  if (!rc) *use = *sorted;
  return rc;
}

static int by_formula(const wm_graph *g0, unsigned k, const wm_pattern *pats, unsigned n, int use_gpu,
                      const wm_match_options *o, wm_u128 *counts, int *how, wm_match_result *total,
                      wm_error *err) {
  wm_graph *sorted;
  const wm_graph *g;
  int rc = by_degree(g0, &sorted, &g, err);
  if (rc) return rc;
  uint64_t *M = calloc((size_t)n * n, sizeof *M);
  wm_i128 *value = calloc(n, sizeof *value);
  int *induced = calloc(n, sizeof *induced);
  wm_motif_sums sums;
  char matched[256], sums_how[320];
  if (!M || !value || !induced) rc = wm_fail(err, WM_EINPUT, "out of memory");
  double at[5];
  at[0] = wm_now();
  if (!rc) rc = wm_spanning_matrix(pats, n, M, err);
  at[1] = wm_now();
  if (!rc) rc = compute_sums(g, k, use_gpu, o, &sums, total, sums_how, sizeof sums_how, err);
  at[2] = wm_now();
  if (!rc) rc = class_values(g, pats, n, use_gpu, o, &sums, value, induced, how, total, matched, sizeof matched, err);
  at[3] = wm_now();
  if (!rc) rc = solve(pats, n, M, value, induced, counts, err);
  at[4] = wm_now();
  if (wm_trace_on("WM_MOTIF_TRACE"))
    fprintf(stderr,
            "motifs (formula, size %u): matrix %.3f ms, sums %.3f ms, enumerated classes %.3f ms, solve %.3f ms\n", k,
            1e3 * (at[1] - at[0]), 1e3 * (at[2] - at[1]), 1e3 * (at[3] - at[2]), 1e3 * (at[4] - at[3]));
  if (!rc)
    snprintf(total->launch, sizeof total->launch, "formula: %s; enumerated on the %s: %s", sums_how,
             use_gpu ? "GPU" : "CPU", matched[0] ? matched : "none");
  free(M);
  free(value);
  free(induced);
  wm_graph_destroy(sorted);
  return rc;
}

int wm_motifs(const wm_graph *g, unsigned k, int use_gpu, const wm_match_options *o, wm_u128 *counts, int *how,
              wm_match_result *sum, wm_error *err) {
  if (k < 3 || k > 5) return wm_fail(err, WM_EUSAGE, "motifs: size must be 3, 4 or 5 (got %u)", k);
  const int method = o ? o->motif_method : WM_MOTIF_AUTO;
  if (method == WM_MOTIF_FORMULA && !whole_graph_count(o))
    return wm_fail(err, WM_EUSAGE, "motifs: the formula counts the whole graph: not with seeds, a ball, "
                                   "listing or per-vertex counts (use --method enumerate)");
  wm_pattern *pats = NULL;
  unsigned n = 0;
  int rc = wm_connected_patterns(k, &pats, &n, err);
  if (rc) return rc;
  wm_match_result total;
  memset(&total, 0, sizeof total);
  const double t0 = wm_now();
  if (method == WM_MOTIF_ENUMERATE || !whole_graph_count(o))
    rc = by_enumeration(g, pats, n, use_gpu, o, counts, how, &total, err);
  else
    rc = by_formula(g, k, pats, n, use_gpu, o, counts, how, &total, err);
  total.seconds = wm_now() - t0;
  if (rc == WM_OK) set_total(&total, counts, n);
  free(pats);
  if (rc == WM_OK && sum) *sum = total;
  return rc;
}

int wm_motif_formula_applies(const wm_pattern *p) {
  return !p->labeled && p->k >= 3 && p->k <= 5 && wm_motif_how(p) == WM_MOTIF_BY_FORMULA;
}

/* Edge-induced: the class's formula over the sums; vertex-induced: the
 * class's row of the size's motif table. */
int wm_count_by_formula(const wm_graph *g0, const wm_pattern *p, int induced, int use_gpu, const wm_match_options *o,
                        wm_u128 *exact, wm_match_result *r, wm_error *err) {
  if (!wm_motif_formula_applies(p))
    return wm_fail(err, WM_EUSAGE, "pattern %s has no motif formula (use --method enumerate)", p->name);
  if (o && !whole_graph_count(o))
    return wm_fail(err, WM_EUSAGE, "the formula counts the whole graph: not with seeds, a ball or per-vertex counts");
  memset(r, 0, sizeof *r);
  const double t0 = wm_now();
  char name[64];
  wm_catalogue_name_of(p, name, sizeof name);
  int rc;
  if (induced) {
    wm_pattern *pats = NULL;
    unsigned n = 0;
    rc = wm_connected_patterns(p->k, &pats, &n, err);
    wm_u128 *counts = rc ? NULL : calloc(n, sizeof *counts);
    if (!rc && !counts) rc = wm_fail(err, WM_EINPUT, "out of memory");
    wm_match_options mo;
    if (o) mo = *o;
    else wm_match_options_init(&mo);
    mo.motif_method = WM_MOTIF_FORMULA;
    if (!rc) rc = wm_motifs(g0, p->k, use_gpu, &mo, counts, NULL, r, err);
    for (unsigned i = 0; !rc && i < n; i++)
      if (strcmp(pats[i].name, name) == 0) *exact = counts[i];
    if (!rc) {
      char inner[sizeof r->launch];
      memcpy(inner, r->launch, sizeof inner);
      snprintf(r->launch, sizeof r->launch, "vertex-induced from the %u-vertex motif table (%.280s)", p->k, inner);
    }
    free(counts);
    free(pats);
  } else {
    wm_graph *sorted;
    const wm_graph *g;
    wm_motif_sums sums;
    wm_i128 value = 0;
    char sums_how[320];
    rc = by_degree(g0, &sorted, &g, err);
    if (!rc) rc = compute_sums(g, wm_motif_formula_level(p), use_gpu, o, &sums, r, sums_how, sizeof sums_how, err);
    if (!rc && (!wm_motif_formula(p, &sums, &value) || value < 0))
      rc = wm_fail(err, WM_EINPUT, "pattern %s: the formula gives a negative count; please report it", name);
    if (!rc) {
      *exact = (wm_u128)value;
      snprintf(r->launch, sizeof r->launch, "formula: %.180s; %.190s", wm_motif_formula_text(p), sums_how);
    }
    wm_graph_destroy(sorted);
  }
  r->seconds = wm_now() - t0;
  r->count = *exact;
  return rc;
}
