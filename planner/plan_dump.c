/* Plan dumps: readable nested loops (each set op at its level, hoisted and
 * shared ops marked with the level they came from) and JSON. */
#include <stdio.h>
#include <string.h>

#include "base.h"
#include "planner.h"

static void operand_name(uint8_t x, char *buf, size_t size) {
  if (WM_IS_NBR(x))
    snprintf(buf, size, "N(v%u)", (unsigned)WM_NBR_POS(x));
  else
    snprintf(buf, size, "S%u", (unsigned)x);
}

/* Positions whose candidate chain passes through op o.  A chain is
 * followed back through first operands; the op that wrote a slot for a
 * reader is the last writer of that slot before the reader (the slot
 * allocator never lets a later op clobber a slot still being read). */
static unsigned op_users(const wm_plan *plan, unsigned o) {
  unsigned users = 0;
  for (unsigned p = 1; p < plan->k; p++) {
    uint8_t x = plan->cand[p];
    unsigned before = plan->op_begin[p];
    while (!WM_IS_NBR(x)) {
      int w = wm_plan_writer(plan, x, before);
      if (w < 0) break;
      if ((unsigned)w == o) users |= 1u << p;
      before = (unsigned)w;
      x = plan->ops[w].a;
    }
  }
  return users;
}

static int op_hoisted(const wm_plan *plan, unsigned o, unsigned users) {
  const wm_plan_op *op = &plan->ops[o];
  return op->level < op->natural_level || (users & ~(1u << op->for_position)) != 0;
}

static void mask_list(char *buf, size_t size, unsigned mask, const char *pre, const char *rel) {
  for (unsigned j = 0; j < WM_MAX_K; j++)
    if ((mask >> j) & 1u) {
      size_t len = strlen(buf);
      snprintf(buf + len, size - len, "%s%s v%u", pre, rel, j);
    }
}

/* ", v2 > v1, v2 != v0, label 3" for position p. */
static void filters(const wm_plan *plan, unsigned p, char *buf, size_t size) {
  buf[0] = 0;
  char me[8];
  snprintf(me, sizeof me, ", v%u", p);
  mask_list(buf, size, plan->lower[p], me, " >");
  mask_list(buf, size, plan->upper[p], me, " <");
  mask_list(buf, size, plan->distinct[p], me, " !=");
  if (plan->label[p] != WM_ANY_LABEL) {
    size_t len = strlen(buf);
    snprintf(buf + len, size - len, ", label(v%u) = %d", p, (int)plan->label[p]);
  }
}

static void dump_op(const wm_plan *plan, unsigned o, int indent, FILE *f) {
  const wm_plan_op *op = &plan->ops[o];
  char a[16], b[16], line[160], note[256] = "";
  operand_name(op->a, a, sizeof a);
  operand_name(op->b, b, sizeof b);
  snprintf(line, sizeof line, "S%u = %s %s %s", op->dst, a, op->kind == WM_OP_INTERSECT ? "&" : "-", b);
  unsigned users = op_users(plan, o);
  snprintf(note, sizeof note, "# for v%u", op->for_position);
  for (unsigned p = op->for_position + 1u; p < plan->k; p++)
    if ((users >> p) & 1u) snprintf(note + strlen(note), sizeof note - strlen(note), ", v%u", p);
  if (op_hoisted(plan, o, users)) {
    unsigned from = op->natural_level;
    for (unsigned p = 0; p < plan->k; p++)
      if (((users >> p) & 1u) && p - 1u > from) from = p - 1u;
    snprintf(note + strlen(note), sizeof note - strlen(note), "; hoisted from level %u", from);
  }
  if (op->lower | op->upper) {
    char r[96] = "";
    mask_list(r, sizeof r, op->lower, ",", " >");
    mask_list(r, sizeof r, op->upper, ",", " <");
    snprintf(note + strlen(note), sizeof note - strlen(note), "; only values%s", r + 1);
  }
  fprintf(f, "%*s%-30s %s\n", indent, "", line, note);
}

static const char *semantics(const wm_plan *plan) {
  return (plan->flags & WM_PLAN_INDUCED) ? "vertex-induced" : "edge-induced";
}

static void dump_header(const wm_plan *plan, FILE *f) {
  char edges[256];
  wm_pattern_edge_string(&plan->pattern, edges, sizeof edges);
  fprintf(f, "plan for %s (%u vertices, %u edges: %s)\n",
          plan->pattern.name[0] ? plan->pattern.name : "pattern", plan->k,
          wm_pattern_edges(&plan->pattern), edges);
  fprintf(f, "semantics: %s, %s (|Aut| = %u), code motion %s%s\n", semantics(plan),
          (plan->flags & WM_PLAN_EMBEDDINGS) ? "embeddings, no symmetry breaking"
                                             : "subgraphs, each found once",
          plan->automorphisms, (plan->flags & WM_PLAN_CODE_MOTION) ? "on" : "off",
          plan->pair_count == WM_PAIRS_PRODUCT ? ", last two levels counted as a product"
          : plan->pair_count ? ", last two levels counted as pairs"
          : plan->count_only ? ", last level count-only" : "");
  fprintf(f, "order:");
  for (unsigned i = 0; i < plan->k; i++) fprintf(f, " v%u=u%u", i, plan->order[i]);
  fprintf(f, "   (v = data vertex at each position, u = pattern vertex)\nrestrictions:");
  int any = 0;
  for (unsigned i = 0; i < plan->k; i++)
    for (unsigned j = 0; j < plan->k; j++) {
      if ((plan->lower[i] >> j) & 1u) fprintf(f, "%s v%u > v%u", any++ ? "," : "", i, j);
      if ((plan->upper[i] >> j) & 1u) fprintf(f, "%s v%u < v%u", any++ ? "," : "", i, j);
    }
  unsigned hoisted = 0;
  for (unsigned o = 0; o < plan->n_ops; o++) hoisted += (unsigned)op_hoisted(plan, o, op_users(plan, o));
  fprintf(f, "%s\nset operations: %u (%u hoisted), slots: %u\nestimated cost: %.4g", any ? "" : " none",
          plan->n_ops, hoisted, plan->n_slots, plan->est_cost);
  if (plan->sampled_cost > 0.0)
    fprintf(f, "; sampled on the graph: %.4g (%u order%s measured)", plan->sampled_cost, plan->sampled_orders,
            plan->sampled_orders == 1 ? "" : "s");
  fputc('\n', f);
  fprintf(f, "(& intersect, - subtract, N(vj) neighbours of vj, Si set slot i)\n\n");
}

void wm_plan_dump_text(const wm_plan *plan, FILE *f) {
  dump_header(plan, f);
  char filt[256], c[16];
  filters(plan, 0, filt, sizeof filt);
  fprintf(f, "for v0 in V%s:\n", filt);
  for (unsigned L = 0; L + 1 < plan->k; L++) {
    int indent = 2 * (int)(L + 1);
    for (unsigned o = plan->op_begin[L]; o < plan->op_begin[L + 1]; o++) dump_op(plan, o, indent, f);
    unsigned p = L + 1;
    operand_name(plan->cand[p], c, sizeof c);
    filters(plan, p, filt, sizeof filt);
    if (p + 2 == plan->k && plan->pair_count == WM_PAIRS_PRODUCT) {
      char cb[16], fb[256];
      operand_name(plan->cand[p + 1], cb, sizeof cb);
      filters(plan, p + 1, fb, sizeof fb);
      fprintf(f, "%*scount v%u in %s%s: n; v%u in %s%s: m; then n*m less the v%u in both\n", indent, "",
              p, c, filt, p + 1, cb, fb, p);
      break;
    }
    if (p + 2 == plan->k && plan->pair_count) {
      fprintf(f, "%*scount v%u in %s%s: n, then %s pairs (v%u, v%u)\n", indent, "", p, c, filt,
              plan->pair_count == WM_PAIRS_UNORDERED ? "n(n-1)/2" : "n(n-1)", p, p + 1);
      break;
    }
    if (p + 1 == plan->k)
      fprintf(f, "%*s%s v%u in %s%s\n", indent, "", plan->count_only ? "count" : "for each match:", p, c,
              filt);
    else
      fprintf(f, "%*sfor v%u in %s%s:\n", indent, "", p, c, filt);
  }
}

static void json_positions(wm_json *j, const char *key, unsigned mask) {
  wm_json_array(j, key);
  for (unsigned i = 0; i < WM_MAX_K; i++)
    if ((mask >> i) & 1u) wm_json_u64(j, NULL, i);
  wm_json_close(j);
}

static void json_op(const wm_plan *plan, unsigned o, wm_json *j) {
  const wm_plan_op *op = &plan->ops[o];
  char a[16], b[16], d[16];
  operand_name(op->a, a, sizeof a);
  operand_name(op->b, b, sizeof b);
  operand_name(op->dst, d, sizeof d);
  unsigned users = op_users(plan, o);
  wm_json_object(j, NULL);
  wm_json_str(j, "kind", op->kind == WM_OP_INTERSECT ? "intersect" : "subtract");
  wm_json_str(j, "dst", d);
  wm_json_str(j, "a", a);
  wm_json_str(j, "b", b);
  wm_json_u64(j, "level", op->level);
  wm_json_u64(j, "natural_level", op->natural_level);
  wm_json_u64(j, "for_position", op->for_position);
  json_positions(j, "used_by", users);
  wm_json_bool(j, "hoisted", op_hoisted(plan, o, users));
  json_positions(j, "range_lower", op->lower);
  json_positions(j, "range_upper", op->upper);
  wm_json_close(j);
}

void wm_plan_dump_json(const wm_plan *plan, struct wm_json *j) {
  char edges[256];
  wm_pattern_edge_string(&plan->pattern, edges, sizeof edges);
  wm_json_str(j, "pattern", plan->pattern.name);
  wm_json_u64(j, "k", plan->k);
  wm_json_str(j, "pattern_edges", edges);
  wm_json_bool(j, "induced", (plan->flags & WM_PLAN_INDUCED) != 0);
  wm_json_bool(j, "embeddings", (plan->flags & WM_PLAN_EMBEDDINGS) != 0);
  wm_json_bool(j, "code_motion", (plan->flags & WM_PLAN_CODE_MOTION) != 0);
  wm_json_bool(j, "labeled", (plan->flags & WM_PLAN_LABELED) != 0);
  wm_json_bool(j, "count_only", plan->count_only != 0);
  wm_json_str(j, "pair_count", plan->pair_count == WM_PAIRS_UNORDERED ? "unordered"
                               : plan->pair_count == WM_PAIRS_ORDERED ? "ordered"
                               : plan->pair_count == WM_PAIRS_PRODUCT ? "product"
                                                                      : "none");
  wm_json_u64(j, "automorphisms", plan->automorphisms);
  wm_json_double(j, "est_cost", plan->est_cost);
  if (plan->sampled_cost > 0.0) {
    wm_json_double(j, "sampled_cost", plan->sampled_cost);
    wm_json_u64(j, "sampled_orders", plan->sampled_orders);
    wm_json_double(j, "sampled_reads", plan->sampled_reads);
  }
  wm_json_u64(j, "n_ops", plan->n_ops);
  wm_json_u64(j, "n_slots", plan->n_slots);
  wm_json_array(j, "order");
  for (unsigned i = 0; i < plan->k; i++) wm_json_u64(j, NULL, plan->order[i]);
  wm_json_close(j);
  wm_json_array(j, "positions");
  for (unsigned i = 0; i < plan->k; i++) {
    char c[16] = "V";
    if (i) operand_name(plan->cand[i], c, sizeof c);
    wm_json_object(j, NULL);
    wm_json_u64(j, "position", i);
    wm_json_u64(j, "pattern_vertex", plan->order[i]);
    wm_json_str(j, "candidates", c);
    json_positions(j, "greater_than", plan->lower[i]);
    json_positions(j, "less_than", plan->upper[i]);
    json_positions(j, "distinct_from", plan->distinct[i]);
    if (plan->label[i] == WM_ANY_LABEL)
      wm_json_null(j, "label");
    else
      wm_json_i64(j, "label", plan->label[i]);
    wm_json_close(j);
  }
  wm_json_close(j);
  wm_json_array(j, "ops");
  for (unsigned o = 0; o < plan->n_ops; o++) json_op(plan, o, j);
  wm_json_close(j);
}

void wm_plan_candidates_dump_json(const wm_plan_candidates *c, const wm_plan *plan, struct wm_json *j) {
  if (!c->n) return;
  wm_json_u64(j, "orders_scored", c->orders_scored);
  wm_json_array(j, "candidate_orders");
  for (unsigned i = 0; i < c->n; i++) {
    const wm_plan_candidate *x = &c->c[i];
    wm_json_object(j, NULL);
    wm_json_array(j, "order");
    for (unsigned v = 0; v < plan->k; v++) wm_json_u64(j, NULL, x->order[v]);
    wm_json_close(j);
    wm_json_double(j, "model_cost", x->model_cost);
    if (x->sampled) wm_json_double(j, "sampled_cost", x->sampled_cost); /* null: could not be planned */
    wm_json_bool(j, "chosen", !memcmp(x->order, plan->order, plan->k));
    wm_json_close(j);
  }
  wm_json_close(j);
}

void wm_graph_summary_dump_text(const wm_graph_summary *gs, FILE *f) {
  fprintf(f, "graph statistics: %s; n = %llu, mean degree %.3g, E[d^2]/E[d] %.3g, max degree %llu, "
             "triangle density %.3g\n",
          gs->known ? "measured" : "defaults (no --graph)", (unsigned long long)gs->n, gs->mean_degree,
          gs->mean_degree > 0 ? gs->mean_sq_degree / gs->mean_degree : 0.0, (unsigned long long)gs->max_degree,
          gs->triangle_density);
}

void wm_graph_summary_dump_json(const wm_graph_summary *gs, struct wm_json *j) {
  wm_json_object(j, "graph_summary");
  wm_json_bool(j, "from_graph", gs->known);
  wm_json_u64(j, "vertices", gs->n);
  wm_json_u64(j, "arcs", gs->m);
  wm_json_double(j, "mean_degree", gs->mean_degree);
  wm_json_double(j, "mean_sq_degree", gs->mean_sq_degree);
  wm_json_u64(j, "max_degree", gs->max_degree);
  wm_json_double(j, "triangle_density", gs->triangle_density);
  wm_json_close(j);
}
