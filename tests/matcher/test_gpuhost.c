/* Host-side logic of the GPU matcher, tested without a GPU: the sizing of
 * the per-warp set buffers, the plan compilation (one slot per op, the
 * counted last op), and an emulator that runs a compiled plan with the
 * kernel's set semantics — op ranges, results that could exceed the buffer
 * capacity kept unmaterialised (a base range plus a membership test), the
 * last level counted in bulk with its fast path — against the CPU executor.
 * The emulator mirrors gpu_set_ops.cuh one element at a time; the warp
 * mechanics themselves are covered by the gpu suite. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_plan.h"
#include "gpu_policy.h"
#include "matcher.h"
#include "base.h"
#include "testutil.h"
#include "warpmatch.h"

/* ---- sizing ---------------------------------------------------------- */

static wm_gpu_sizing_in sizing_in(uint64_t free_b, uint64_t maxdeg, unsigned nbufs, unsigned U) {
  wm_gpu_sizing_in in;
  memset(&in, 0, sizeof in);
  in.free_bytes = free_b;
  in.max_degree = maxdeg;
  in.n_bufs = nbufs;
  in.unroll = U;
  in.warps_per_block = 8;
  in.max_blocks = 264;
  return in;
}

Test(gpu_sizing, capacity_is_max_degree_when_it_fits) {
  wm_gpu_sizing_in in = sizing_in(80ull << 30, 1045, 3, 8);
  wm_gpu_sizing s;
  wm_error err;
  cr_assert_eq(wm_gpu_size_buffers(&in, &s, &err), WM_OK, "%s", err.msg);
  cr_assert_eq(s.cap, 1045);
  cr_assert_eq(s.blocks, 264);
  cr_assert_eq(s.per_warp_elems, 3ull * 8 * 1045);
  cr_assert_eq(s.total_bytes, 3ull * 8 * 1045 * 4 * 264 * 8);
}

Test(gpu_sizing, no_buffers_needed) {
  wm_gpu_sizing_in in = sizing_in(1ull << 30, 1u << 30, 0, 8);
  wm_gpu_sizing s;
  wm_error err;
  cr_assert_eq(wm_gpu_size_buffers(&in, &s, &err), WM_OK, "%s", err.msg);
  cr_assert_eq(s.cap, 0);
  cr_assert_eq(s.blocks, 264);
  cr_assert_eq(s.total_bytes, 0);
}

Test(gpu_sizing, capacity_shrinks_before_the_grid) {
  /* A hub of degree 2^24: full capacity would need 2112 warps x 3 x 8 x 64 MB. */
  wm_gpu_sizing_in in = sizing_in(40ull << 30, 1u << 24, 3, 8);
  wm_gpu_sizing s;
  wm_error err;
  cr_assert_eq(wm_gpu_size_buffers(&in, &s, &err), WM_OK, "%s", err.msg);
  cr_assert_eq(s.blocks, 264);
  cr_assert(s.cap >= WM_GPU_MIN_CAP && s.cap < (1u << 24), "cap %llu", (unsigned long long)s.cap);
  cr_assert(s.total_bytes <= in.free_bytes, "%llu bytes of %llu", (unsigned long long)s.total_bytes,
            (unsigned long long)in.free_bytes);
}

Test(gpu_sizing, grid_shrinks_at_the_floor) {
  wm_gpu_sizing_in in = sizing_in(200ull << 20, 1u << 24, 8, 32);
  wm_gpu_sizing s;
  wm_error err;
  cr_assert_eq(wm_gpu_size_buffers(&in, &s, &err), WM_OK, "%s", err.msg);
  cr_assert_eq(s.cap, WM_GPU_MIN_CAP);
  cr_assert(s.blocks >= 1 && s.blocks < 264, "blocks %u", s.blocks);
  cr_assert(s.total_bytes <= in.free_bytes);
}

Test(gpu_sizing, out_of_memory_is_a_device_error) {
  wm_gpu_sizing_in in = sizing_in(16ull << 20, 1u << 24, 8, 32);
  wm_gpu_sizing s;
  wm_error err;
  cr_assert_eq(wm_gpu_size_buffers(&in, &s, &err), WM_EDEVICE);
  cr_assert(strstr(err.msg, "out of memory") != NULL, "%s", err.msg);
}

Test(gpu_sizing, forced_capacity) {
  wm_gpu_sizing_in in = sizing_in(8ull << 30, 5000, 4, 8);
  wm_gpu_sizing s;
  wm_error err;
  in.forced_cap = 3;
  cr_assert_eq(wm_gpu_size_buffers(&in, &s, &err), WM_OK, "%s", err.msg);
  cr_assert_eq(s.cap, 3);
  in.forced_cap = 1u << 20; /* above the max degree: the bound is exact already */
  cr_assert_eq(wm_gpu_size_buffers(&in, &s, &err), WM_OK, "%s", err.msg);
  cr_assert_eq(s.cap, 5000);
}

Test(gpu_sizing, never_more_than_free_memory) {
  uint64_t seed = 3;
  for (int i = 0; i < 20000; i++) {
    wm_gpu_sizing_in in = sizing_in(wm_test_rand(&seed) % (100ull << 30), wm_test_rand(&seed) % (1ull << 32),
                                    (unsigned)(wm_test_rand(&seed) % 65), 1 + (unsigned)(wm_test_rand(&seed) % 32));
    in.warps_per_block = 1 + (unsigned)(wm_test_rand(&seed) % 16);
    in.max_blocks = 1 + (unsigned)(wm_test_rand(&seed) % 2000);
    in.per_warp_fixed = wm_test_rand(&seed) % 8192;
    if (wm_test_rand(&seed) % 4 == 0) in.forced_cap = 1 + wm_test_rand(&seed) % 100000;
    wm_gpu_sizing s;
    wm_error err;
    if (wm_gpu_size_buffers(&in, &s, &err) != WM_OK) continue;
    cr_assert(s.blocks >= 1 && s.blocks <= in.max_blocks);
    cr_assert(s.total_bytes <= in.free_bytes, "case %d: %llu > %llu", i, (unsigned long long)s.total_bytes,
              (unsigned long long)in.free_bytes);
    if (in.n_bufs) cr_assert(s.cap >= 1 && (in.max_degree == 0 || s.cap <= in.max_degree), "cap %llu", (unsigned long long)s.cap);
  }
}

Test(gpu_sizing, policy_defaults_and_overrides) {
  wm_match_options o;
  wm_match_options_init(&o);
  wm_gpu_policy p;
  wm_gpu_policy_from_options(&p, &o, 6);
  cr_assert_eq(p.steal, WM_STEAL_TWO_LEVEL);
  cr_assert_eq(p.unroll, WM_GPU_DEFAULT_UNROLL);
  cr_assert_eq(p.stop_level, 2);
  cr_assert_eq(p.detect_level, 2);
  wm_gpu_policy_from_options(&p, &o, 5); /* 5 vertices: down to the last level, k-2 */
  cr_assert_eq(p.stop_level, 3);
  cr_assert_eq(p.detect_level, 3);
  wm_gpu_policy_from_options(&p, &o, 3);
  cr_assert_eq(p.stop_level, 1);
  cr_assert_eq(p.detect_level, 1);
  wm_gpu_policy_from_options(&p, &o, 2);
  cr_assert_eq(p.stop_level, 0);
  o.gpu_unroll = 1000;
  o.gpu_steal = WM_STEAL_NONE;
  wm_gpu_policy_from_options(&p, &o, 4);
  cr_assert_eq(p.unroll, WM_GPU_MAX_UNROLL);
  cr_assert_eq(p.steal, WM_STEAL_NONE);
  cr_assert_eq(p.table_words, 0, "the probe table is sized by the driver");
  o.gpu_table_words = -1;
  wm_gpu_policy_from_options(&p, &o, 4);
  cr_assert_eq(p.table_words, -1, "none");
  o.gpu_table_words = 1 << 20;
  wm_gpu_policy_from_options(&p, &o, 4);
  cr_assert_eq(p.table_words, (int)WM_GPU_MAX_TABLE_WORDS);
  cr_assert_eq(wm_gpu_default_chunk(0, 100, 0, 1), 1);
  cr_assert_eq(wm_gpu_default_chunk(1u << 30, 10, 0, 1), 64);
  cr_assert_eq(wm_gpu_default_chunk(3200, 100, 0, 1), 2);
  /* Edges: twice the grabs per warp, up to 512 edges a grab. */
  cr_assert_eq(wm_gpu_default_chunk(0, 100, 1, 1), 1);
  cr_assert_eq(wm_gpu_default_chunk(1u << 30, 10, 1, 1), 512);
  cr_assert_eq(wm_gpu_default_chunk(160000, 100, 1, 1), 50);
  /* A 3-vertex plan's pieces fill its position-1 group. */
  cr_assert_eq(wm_gpu_default_chunk(3200, 100, 1, 8), 8);
  cr_assert_eq(wm_gpu_default_chunk(160000, 100, 1, 8), 50);
}

/* Level 0 as edges: by default wherever the plan's position 1 iterates N(v0)
 * and no seeds are given; never for fewer than 3 positions. */
/* The devices a GPU driver opens (wm_gpu_devices): 0 and 1 are one, up to
 * WM_MAX_GPUS as asked, past it a usage error naming the limit where the
 * drivers cut it to 16 silently; their tables hold exactly that many. */
Test(gpu_sizing, devices_up_to_the_table_size) {
  _Static_assert(WM_MAX_GPUS == WARPMATCH_MAX_GPUS, "the drivers' tables hold the public limit");
  const int asked[] = {-1, 0, 1, 2, WM_MAX_GPUS};
  const int want[] = {1, 1, 1, 2, WM_MAX_GPUS};
  wm_error err;
  for (unsigned i = 0; i < sizeof asked / sizeof *asked; i++) {
    int n = -7;
    cr_assert_eq(wm_gpu_devices(asked[i], &n, &err), WM_OK, "%d GPUs", asked[i]);
    cr_assert_eq(n, want[i], "%d GPUs: %d devices", asked[i], n);
  }
  const int over[] = {WM_MAX_GPUS + 1, 64, 2147483647};
  for (unsigned i = 0; i < sizeof over / sizeof *over; i++) {
    int n = -7;
    cr_assert_eq(wm_gpu_devices(over[i], &n, &err), WM_EUSAGE, "%d GPUs", over[i]);
    char want_msg[64];
    snprintf(want_msg, sizeof want_msg, "%d GPUs asked for; one call uses at most %d", over[i], WM_MAX_GPUS);
    cr_assert_str_eq(err.msg, want_msg);
    cr_assert_eq(n, 1, "no device count past the table");
  }
}

Test(gpu_sizing, level0_edges_when_the_plan_allows) {
  cr_assert(wm_gpu_level0_edges(WM_LEVEL0_AUTO, 4, 1, 0));
  cr_assert(wm_gpu_level0_edges(WM_LEVEL0_EDGES, 3, 1, 0));
  cr_assert(!wm_gpu_level0_edges(WM_LEVEL0_VERTICES, 4, 1, 0));
  cr_assert(!wm_gpu_level0_edges(WM_LEVEL0_AUTO, 4, 0, 0));
  cr_assert(!wm_gpu_level0_edges(WM_LEVEL0_EDGES, 4, 1, 1));
  cr_assert(!wm_gpu_level0_edges(WM_LEVEL0_EDGES, 2, 1, 0));
  wm_match_options o;
  wm_match_options_init(&o);
  wm_gpu_policy p;
  wm_gpu_policy_from_options(&p, &o, 4);
  cr_assert_eq(p.level0, WM_LEVEL0_AUTO);
  o.gpu_level0 = WM_LEVEL0_VERTICES;
  wm_gpu_policy_from_options(&p, &o, 4);
  cr_assert_eq(p.level0, WM_LEVEL0_VERTICES);
}

/* ---- plan compilation ------------------------------------------------ */

static void plan_of(const wm_graph *g, const wm_pattern *p, int induced, int motion, wm_plan *plan) {
  wm_graph_summary gs;
  if (g)
    wm_graph_summary_compute(g, &gs);
  else
    wm_graph_summary_default(&gs);
  wm_plan_options po;
  wm_plan_options_init(&po);
  po.induced = induced;
  po.code_motion = motion;
  wm_error err;
  cr_assert_eq(wm_plan_build(p, &gs, &po, plan, &err), WM_OK, "planning %s: %s", p->name, err.msg);
}

static void check_ssa(const wm_gpu_plan *g, const char *name) {
  for (unsigned i = 0; i < g->n_ops; i++) {
    const wm_gpu_op *op = &g->ops[i];
    uint8_t x[2] = {op->a, op->b};
    for (int j = 0; j < 2; j++) {
      if (WM_IS_NBR(x[j]))
        cr_assert(WM_NBR_POS(x[j]) <= op->level, "%s: op %u reads a later neighbour list", name, i);
      else
        cr_assert(x[j] < i && g->ops[x[j]].level <= op->level, "%s: op %u reads op %u", name, i, x[j]);
    }
  }
  for (unsigned p = 1; p < g->k; p++) {
    uint8_t c = g->cand[p];
    if (WM_IS_NBR(c))
      cr_assert(WM_NBR_POS(c) < p, "%s: position %u", name, p);
    else
      cr_assert(c < g->n_ops && g->ops[c].level < p, "%s: position %u reads op %u", name, p, c);
  }
  if (g->fused_op >= 0) {
    cr_assert_eq(g->cand[g->k - 1], g->fused_op, "%s", name);
    cr_assert_eq(g->ops[g->fused_op].level, g->k - 2, "%s", name);
    cr_assert_eq(g->ops[g->fused_op].buf, WM_GPU_NO_BUF, "%s", name);
  }
  cr_assert_eq(g->n_bufs, g->n_ops - (g->fused_op >= 0), "%s", name);
  for (unsigned L = 0; L < g->k; L++)
    for (unsigned i = g->op_begin[L]; i < g->op_begin[L + 1]; i++) cr_assert_eq(g->ops[i].level, L, "%s", name);
}

Test(gpu_plan, compiles_every_pattern) {
  for (unsigned k = 3; k <= 6; k++) {
    wm_pattern *ps;
    unsigned np;
    wm_error err;
    cr_assert_eq(wm_connected_patterns(k, &ps, &np, &err), WM_OK, "%s", err.msg);
    for (unsigned i = 0; i < np; i++)
      for (int induced = 0; induced <= 1; induced++)
        for (int motion = 0; motion <= 1; motion++) {
          wm_plan plan;
          wm_gpu_plan g;
          plan_of(NULL, &ps[i], induced, motion, &plan);
          cr_assert_eq(wm_gpu_plan_compile(&plan, &g, &err), WM_OK, "%s: %s", ps[i].name, err.msg);
          check_ssa(&g, ps[i].name);
        }
    free(ps);
  }
}

Test(gpu_plan, triangle_counts_in_place) {
  wm_pattern p;
  wm_error err;
  cr_assert_eq(wm_pattern_from_name("triangle", &p, &err), WM_OK);
  wm_plan plan;
  wm_gpu_plan g;
  plan_of(NULL, &p, 0, 1, &plan);
  cr_assert_eq(wm_gpu_plan_compile(&plan, &g, &err), WM_OK, "%s", err.msg);
  cr_assert_eq(g.n_ops, 1);
  cr_assert_eq(g.fused_op, 0, "the triangle's one op is only counted");
  cr_assert_eq(g.n_bufs, 0);
  cr_assert_eq(g.weigh, 2u, "groups of v[1] bring N(v[1]) into the count, those of v[0] nothing");
}

/* The last group widens to 32 exactly where position k-1 is a lane's count:
 * no set op at level k-2 (the diamond's and the house's last sets are
 * hoisted; the tailed triangle counts N(v2)), not where one is fused into
 * the count (triangle, 4-cycle, induced 4-star) or the last is labeled. */
Test(gpu_plan, last_group_widens_where_a_lane_counts) {
  static const struct { const char *name; int induced, lane; } cases[] = {
      {"diamond", 0, 1}, {"house", 0, 1}, {"tailed-triangle", 0, 1}, {"4-star", 0, 1},
      {"triangle", 0, 0}, {"4-cycle", 0, 0}, {"4-star", 1, 0}, {"diamond", 1, 0},
  };
  for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    wm_pattern p;
    wm_error err;
    cr_assert_eq(wm_pattern_from_name(cases[i].name, &p, &err), WM_OK);
    wm_plan plan;
    wm_gpu_plan g;
    plan_of(NULL, &p, cases[i].induced, 1, &plan);
    cr_assert_eq(wm_gpu_plan_compile(&plan, &g, &err), WM_OK, "%s", err.msg);
    cr_assert_eq(wm_gpu_plan_lane_count(&g), cases[i].lane, "%s induced=%d", cases[i].name, cases[i].induced);
    g.label[g.k - 1] = 0; /* a labeled last position checks each candidate's label */
    cr_assert_not(wm_gpu_plan_lane_count(&g), "%s labeled", cases[i].name);
  }
  wm_match_options o;
  wm_match_options_init(&o);
  wm_gpu_policy pol;
  wm_gpu_policy_from_options(&pol, &o, 4);
  cr_assert_eq(pol.last_group, pol.unroll, "widened only once the plan is known");
  wm_gpu_policy_fit_plan(&pol, 4, 0);
  cr_assert_eq(pol.last_group, pol.unroll);
  cr_assert_eq(pol.stop_level, 2);
  wm_gpu_policy_fit_plan(&pol, 4, 1);
  cr_assert_eq(pol.last_group, WM_GPU_MAX_UNROLL);
  cr_assert_eq(pol.stop_level, 1, "position k-2 is not split");
  cr_assert_eq(pol.detect_level, 1);
  wm_gpu_policy_from_options(&pol, &o, 5);
  wm_gpu_policy_fit_plan(&pol, 5, 1);
  cr_assert_eq(pol.stop_level, 2);
  cr_assert_eq(pol.detect_level, 2);
  o.gpu_unroll = 1;
  wm_gpu_policy_from_options(&pol, &o, 4);
  wm_gpu_policy_fit_plan(&pol, 4, 1);
  cr_assert_eq(pol.last_group, 1, "U = 1 is the no-grouping ablation");
  cr_assert_eq(pol.stop_level, 1);
}

/* STMatch's p (default planning at the default statistics, the GPU's first
 * edge) in the given order, compiled and folded as a plain count is. */
static void stmatch_gpu_plan(unsigned n, const uint8_t *order, wm_gpu_plan *g) {
  wm_pattern p = wm_test_stmatch_pattern(n);
  wm_graph_summary gs;
  wm_graph_summary_default(&gs);
  wm_plan_options po;
  wm_plan_options_init(&po);
  po.first_edge_up = 1;
  po.forced_order = order;
  wm_plan plan;
  wm_error err;
  cr_assert_eq(wm_plan_build(&p, &gs, &po, &plan, &err), WM_OK, "p%u: %s", n, err.msg);
  cr_assert_eq(wm_gpu_plan_compile(&plan, g, &err), WM_OK, "p%u: %s", n, err.msg);
  wm_gpu_plan_fold_pairs(g, plan.pair_count);
}

/* Groups of one exactly at the positions 1..k-3 whose level runs no op:
 * p10 as 0-1-2-3-5-4 iterates the hoisted N(v0) & N(v1) at positions 2 and
 * 3 (folded to k = 5: bit 2), as 0-2-1-3-5-4 it intersects at levels 1 and
 * 2 (none); p2 as 0-1-2-4-3 runs nothing at level 2; and on every
 * connected pattern the mask is that rule. */
Test(gpu_plan, groups_of_one_where_a_level_runs_no_op) {
  static const uint8_t p10_hoisted[] = {0, 1, 2, 3, 5, 4}, p10_ops[] = {0, 2, 1, 3, 5, 4}, p2[] = {0, 1, 2, 4, 3};
  wm_gpu_plan g;
  stmatch_gpu_plan(10, p10_hoisted, &g);
  cr_assert_eq(g.k, 5);
  cr_assert_eq(g.single, 1u << 2, "p10 0-1-2-3-5-4: %#x", g.single);
  stmatch_gpu_plan(10, p10_ops, &g);
  cr_assert_eq(g.single, 0u, "p10 0-2-1-3-5-4: %#x", g.single);
  stmatch_gpu_plan(2, p2, &g);
  cr_assert_eq(g.single, 1u << 2, "p2 0-1-2-4-3: %#x", g.single);
  for (unsigned k = 4; k <= 6; k++) {
    wm_pattern *ps;
    unsigned np;
    wm_error err;
    cr_assert_eq(wm_connected_patterns(k, &ps, &np, &err), WM_OK, "%s", err.msg);
    for (unsigned i = 0; i < np; i++) {
      wm_plan plan;
      plan_of(NULL, &ps[i], 0, 1, &plan);
      cr_assert_eq(wm_gpu_plan_compile(&plan, &g, &err), WM_OK, "%s", err.msg);
      for (int fold = 0; fold <= 1; fold++) {
        if (fold) wm_gpu_plan_fold_pairs(&g, plan.pair_count);
        for (unsigned q = 0; q < g.k; q++) {
          int none = 1;
          for (unsigned o = 0; o < g.n_ops; o++) none &= g.ops[o].level != q;
          cr_assert_eq((g.single >> q) & 1u, (unsigned)(q >= 1 && q + 3 <= g.k && none), "%s position %u",
                       ps[i].name, q);
        }
      }
    }
    free(ps);
  }
}

/* Folding pairs drops the last position: the diamond then counts
 * |N(v0) & N(v1)| in place per edge (no buffer), the 4-star a lane's range
 * at position 2, the 3-path a range per vertex; plans without pairs, or
 * with an op between the two positions, stay as they are. */
Test(gpu_plan, fold_pairs) {
  static const struct { const char *name; unsigned k, fused, lane; } cases[] = {
      {"diamond", 3, 1, 0}, {"4-star", 3, 0, 1}, {"3-path", 2, 0, 0},
  };
  wm_error err;
  wm_pattern p;
  wm_plan plan;
  wm_gpu_plan g;
  for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cr_assert_eq(wm_pattern_from_name(cases[i].name, &p, &err), WM_OK);
    plan_of(NULL, &p, 0, 1, &plan);
    cr_assert_eq(plan.pair_count, WM_PAIRS_UNORDERED, "%s", cases[i].name);
    cr_assert_eq(wm_gpu_plan_compile(&plan, &g, &err), WM_OK, "%s", err.msg);
    wm_gpu_plan_fold_pairs(&g, plan.pair_count);
    cr_assert_eq(g.k, cases[i].k, "%s", cases[i].name);
    cr_assert_eq(g.pairs, WM_PAIRS_UNORDERED);
    cr_assert_eq(g.fused_op >= 0, (int)cases[i].fused, "%s", cases[i].name);
    cr_assert_eq(wm_gpu_plan_lane_count(&g), (int)cases[i].lane, "%s", cases[i].name);
    check_ssa(&g, cases[i].name);
  }
  cr_assert_eq(g.n_bufs, 0, "3-path: nothing to materialise");
  cr_assert_eq(wm_pattern_from_name("diamond", &p, &err), WM_OK);
  plan_of(NULL, &p, 0, 1, &plan);
  cr_assert_eq(wm_gpu_plan_compile(&plan, &g, &err), WM_OK, "%s", err.msg);
  wm_gpu_plan_fold_pairs(&g, plan.pair_count);
  cr_assert_eq(g.n_bufs, 0, "diamond: the set is counted in place");
  cr_assert_eq(wm_pattern_from_name("house", &p, &err), WM_OK);
  plan_of(NULL, &p, 0, 1, &plan);
  cr_assert_eq(wm_gpu_plan_compile(&plan, &g, &err), WM_OK, "%s", err.msg);
  wm_gpu_plan_fold_pairs(&g, plan.pair_count);
  cr_assert_eq(g.k, 4, "house: v3 in S0 and v4 in S1, a product");
  cr_assert_eq(g.pairs, WM_PAIRS_PRODUCT);
  cr_assert_eq(g.product_subset, 0, "S0 is not within S1");
  check_ssa(&g, "house");
  /* STMatch's p17: v5 in S3 = S2 & N(v4), S2 = S1 & N(v3), v6 in S1. */
  p = wm_test_stmatch_pattern(17);
  plan_of(NULL, &p, 0, 1, &plan);
  cr_assert_eq(plan.pair_count, WM_PAIRS_PRODUCT);
  cr_assert_eq(wm_gpu_plan_compile(&plan, &g, &err), WM_OK, "%s", err.msg);
  wm_gpu_plan_fold_pairs(&g, plan.pair_count);
  cr_assert_eq(g.k, 6);
  cr_assert_eq(g.product_subset, 1, "S3 lies within S1");
  cr_assert(g.fused_op >= 0 && g.cand[6] != (uint8_t)g.fused_op, "S3 counted in place, S1 kept");
  check_ssa(&g, "p17");
  /* An op at level k-2 keeps the plan whole whatever the caller says. */
  cr_assert_eq(wm_pattern_from_name("tailed-triangle", &p, &err), WM_OK);
  plan_of(NULL, &p, 1, 1, &plan);
  cr_assert_eq(wm_gpu_plan_compile(&plan, &g, &err), WM_OK, "%s", err.msg);
  cr_assert(g.op_begin[g.k - 2] != g.op_begin[g.k - 1], "an induced tailed triangle subtracts at level k-2");
  wm_gpu_plan_fold_pairs(&g, WM_PAIRS_UNORDERED);
  cr_assert_eq(g.k, 4);
  cr_assert_eq(g.pairs, 0);
}

/* The probe table holds a row read by every member of an op's group: the
 * neighbour list of a position below the op's level, either side of an
 * intersection, only the removed side of a difference, and only where the
 * op's range is the same for the whole group. */
Test(gpu_plan, table_side) {
  wm_gpu_op op = {WM_OP_INTERSECT, 2, WM_NBR(1), WM_NBR(2), 0, 0, 0, 0};
  cr_assert_eq(wm_gpu_op_table_side(&op), 0, "the 4-cycle's N(v1) & N(v2): N(v1)");
  op.a = WM_NBR(2);
  op.b = WM_NBR(0);
  cr_assert_eq(wm_gpu_op_table_side(&op), 1);
  op.upper = 1u << 2;
  cr_assert_eq(wm_gpu_op_table_side(&op), -1, "a range that moves with the member");
  op.upper = 1u << 1;
  cr_assert_eq(wm_gpu_op_table_side(&op), 1, "a range fixed for the group");
  op.upper = 0;
  op.b = WM_NBR(2);
  cr_assert_eq(wm_gpu_op_table_side(&op), -1, "both rows are the member's");
  op.a = 0; /* a slot: rewritten as the kernel runs, never tabled */
  op.b = WM_NBR(2);
  cr_assert_eq(wm_gpu_op_table_side(&op), -1);
  op.kind = WM_OP_SUBTRACT;
  op.a = WM_NBR(0);
  cr_assert_eq(wm_gpu_op_table_side(&op), -1, "a difference iterates its a");
  op.a = WM_NBR(2);
  op.b = WM_NBR(1);
  cr_assert_eq(wm_gpu_op_table_side(&op), 1);
  /* Whether the plan's fused op, the only one the kernel tables, has a side
   * to table: the house's (its order counts its last two as a product of
   * the slot made at level 2, fused) does; the tailed triangle's one op is
   * not fused. */
  static const struct { const char *name; int induced; int tabled; } cases[] = {
      {"diamond", 0, 1}, {"4-cycle", 0, 1}, {"house", 0, 1}, {"tailed-triangle", 0, 0}, {"triangle", 0, 0},
      {"4-clique", 0, 0}, {"4-star", 0, 0},
      {"3-path", 1, 0}, /* N(v0) - N(v1): the member's row is the one removed */
  };
  for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    wm_error err;
    wm_pattern p;
    wm_plan plan;
    wm_gpu_plan g;
    cr_assert_eq(wm_pattern_from_name(cases[i].name, &p, &err), WM_OK);
    plan_of(NULL, &p, cases[i].induced, 1, &plan);
    cr_assert_eq(wm_gpu_plan_compile(&plan, &g, &err), WM_OK, "%s", err.msg);
    wm_gpu_plan_fold_pairs(&g, plan.pair_count);
    cr_assert_eq(wm_gpu_plan_table_side(&g) >= 0, cases[i].tabled, "%s", cases[i].name);
    if (cases[i].tabled) cr_assert_eq(wm_gpu_plan_table_side(&g), wm_gpu_op_table_side(&g.ops[g.fused_op]));
  }
}

/* The triangle and clique kernels take exactly the unlabelled k-cliques,
 * k = 3..8 (all the catalogue has), counted as subgraphs: not other
 * patterns, not embeddings, not listing. */
Test(gpu_plan, dedicated_kernels_take_counted_cliques) {
  wm_error err;
  for (unsigned k = 3; k <= 6; k++) {
    wm_pattern *ps;
    unsigned np;
    cr_assert_eq(wm_connected_patterns(k, &ps, &np, &err), WM_OK, "%s", err.msg);
    for (unsigned i = 0; i < np; i++) {
      int clique = wm_pattern_edges(&ps[i]) == k * (k - 1) / 2;
      for (int induced = 0; induced <= 1; induced++) {
        wm_plan plan;
        plan_of(NULL, &ps[i], induced, 1, &plan);
        cr_assert_eq(wm_gpu_plan_clique_k(&plan), clique ? k : 0u, "%s (induced %d)", ps[i].name, induced);
      }
    }
    free(ps);
  }
  static const struct {
    const char *name;
    unsigned want;
  } big[] = {{"7-clique", 7}, {"8-clique", 8}, {"6-cycle", 0}, {"8-cycle", 0}};
  for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
    wm_pattern p;
    wm_plan plan;
    cr_assert_eq(wm_pattern_from_name(big[i].name, &p, &err), WM_OK, "%s", err.msg);
    plan_of(NULL, &p, 0, 1, &plan);
    cr_assert_eq(wm_gpu_plan_clique_k(&plan), big[i].want, "%s", big[i].name);
  }
  wm_pattern p;
  cr_assert_eq(wm_pattern_from_name("4-clique", &p, &err), WM_OK, "%s", err.msg);
  wm_graph_summary gs;
  wm_graph_summary_default(&gs);
  wm_plan_options po;
  wm_plan_options_init(&po);
  po.embeddings = 1;
  wm_plan plan;
  cr_assert_eq(wm_plan_build(&p, &gs, &po, &plan, &err), WM_OK, "%s", err.msg);
  cr_assert_eq(wm_gpu_plan_clique_k(&plan), 0u, "embeddings take the stack kernel");
  wm_plan_options_init(&po);
  po.count_only = 0;
  cr_assert_eq(wm_plan_build(&p, &gs, &po, &plan, &err), WM_OK, "%s", err.msg);
  cr_assert_eq(wm_gpu_plan_clique_k(&plan), 0u, "listing takes the stack kernel");
}

Test(gpu_plan, rejects_malformed_plans) {
  wm_pattern p;
  wm_error err;
  cr_assert_eq(wm_pattern_from_name("4-clique", &p, &err), WM_OK);
  wm_plan good, bad;
  wm_gpu_plan g;
  plan_of(NULL, &p, 0, 1, &good);
  cr_assert(good.n_ops >= 2);
  bad = good;
  bad.ops[0].level = (uint8_t)(good.k - 1);
  cr_assert_eq(wm_gpu_plan_compile(&bad, &g, &err), WM_EINPUT);
  bad = good;
  bad.ops[0].a = 17; /* a slot nobody wrote */
  bad.ops[0].dst = 3;
  cr_assert_eq(wm_gpu_plan_compile(&bad, &g, &err), WM_EINPUT);
  cr_assert(strstr(err.msg, "slot") != NULL, "%s", err.msg);
  bad = good;
  bad.ops[0].a = WM_NBR(3); /* a position not bound yet */
  cr_assert_eq(wm_gpu_plan_compile(&bad, &g, &err), WM_EINPUT);
  bad = good;
  bad.k = 9;
  cr_assert_eq(wm_gpu_plan_compile(&bad, &g, &err), WM_EINPUT);
}

/* A planner that reuses slots (as code motion's allocation does) must give
 * the same SSA names whatever the slot numbers. */
Test(gpu_plan, slot_reuse_is_renamed) {
  wm_pattern p;
  wm_error err;
  cr_assert_eq(wm_pattern_from_name("5-clique", &p, &err), WM_OK);
  wm_plan plan, shuffled;
  wm_gpu_plan a, b;
  plan_of(NULL, &p, 0, 1, &plan);
  shuffled = plan;
  /* Renumber slots s -> (s + 5) % 32 everywhere. */
  for (unsigned i = 0; i < plan.n_ops; i++) {
    wm_plan_op *op = &shuffled.ops[i];
    op->dst = (uint8_t)((op->dst + 5) % WM_MAX_SLOTS);
    if (!WM_IS_NBR(op->a)) op->a = (uint8_t)((op->a + 5) % WM_MAX_SLOTS);
    if (!WM_IS_NBR(op->b)) op->b = (uint8_t)((op->b + 5) % WM_MAX_SLOTS);
  }
  for (unsigned i = 1; i < plan.k; i++)
    if (!WM_IS_NBR(shuffled.cand[i])) shuffled.cand[i] = (uint8_t)((shuffled.cand[i] + 5) % WM_MAX_SLOTS);
  cr_assert_eq(wm_gpu_plan_compile(&plan, &a, &err), WM_OK, "%s", err.msg);
  cr_assert_eq(wm_gpu_plan_compile(&shuffled, &b, &err), WM_OK, "%s", err.msg);
  cr_assert(memcmp(a.ops, b.ops, sizeof a.ops) == 0 && memcmp(a.cand, b.cand, sizeof a.cand) == 0);
}

/* ---- the kernel's set semantics, emulated ------------------------------ */

#define MAT 0xFFu

typedef struct emu {
  const wm_graph *g;
  const wm_gpu_plan *P;
  const wm_match_options *o;
  uint64_t cap;
  int table;      /* probe the table side's whole row, as the kernel with a probe table */
  uint64_t tabled;
  uint32_t v[WM_MAX_K];
  uint32_t *buf[WM_MAX_OPS];
  uint32_t lo[WM_MAX_OPS], hi[WM_MAX_OPS];
  uint8_t base[WM_MAX_OPS];
  uint64_t count, virtual_ops;
} emu;

typedef struct eset {
  const uint32_t *p;
  uint32_t lo, hi;
  int vs;
  uint8_t code;
} eset;

/* the device's wm_lower_bound over p[lo, hi) */
static uint32_t lower_bound(const uint32_t *p, uint32_t lo, uint32_t hi, uint32_t x) {
  return lo + (uint32_t)wm_sorted_lower_bound(p + lo, hi - lo, x);
}

static int contains(const uint32_t *p, uint32_t lo, uint32_t hi, uint32_t x) {
  return wm_sorted_contains(p + lo, hi - lo, x);
}

static eset concrete(const emu *e, uint8_t x) {
  eset r = {NULL, 0, 0, -1, x};
  if (WM_IS_NBR(x)) {
    uint32_t v = e->v[WM_NBR_POS(x)];
    r.p = e->g->adj + e->g->offsets[v];
    r.hi = (uint32_t)wm_degree(e->g, v);
  } else {
    r.p = e->buf[x];
    r.hi = e->hi[x];
  }
  return r;
}

static eset resolve(const emu *e, uint8_t x) {
  if (!WM_IS_NBR(x) && e->base[x] != MAT) {
    eset r = concrete(e, e->base[x]);
    r.lo = e->lo[x];
    r.hi = e->hi[x];
    r.vs = x;
    return r;
  }
  return concrete(e, x);
}

static void vrange(const emu *e, unsigned lower, unsigned upper, uint32_t *lo, uint32_t *hi) {
  *lo = 0;
  *hi = UINT32_MAX;
  for (unsigned j = 0; j < WM_MAX_K; j++) {
    if (((lower >> j) & 1u) && e->v[j] + 1 > *lo) *lo = e->v[j] + 1;
    if (((upper >> j) & 1u) && e->v[j] < *hi) *hi = e->v[j];
  }
}

static void trim(eset *s, uint32_t lo, uint32_t hi) {
  if (lo > 0) s->lo = lower_bound(s->p, s->lo, s->hi, lo);
  if (hi != UINT32_MAX) s->hi = lower_bound(s->p, s->lo, s->hi, hi);
}

static int member(const emu *e, int s, uint32_t x);

static int in_operand(const emu *e, uint8_t o, uint32_t x) {
  if (WM_IS_NBR(o)) {
    eset n = concrete(e, o);
    return contains(n.p, n.lo, n.hi, x);
  }
  return member(e, o, x);
}

static int member(const emu *e, int s, uint32_t x) {
  if (e->base[s] == MAT) return contains(e->buf[s], 0, e->hi[s], x);
  const wm_gpu_op *op = &e->P->ops[s];
  uint32_t lo, hi;
  vrange(e, op->lower, op->upper, &lo, &hi);
  if (x < lo || x >= hi || !in_operand(e, op->a, x)) return 0;
  int inb = in_operand(e, op->b, x);
  return op->kind == WM_OP_INTERSECT ? inb : !inb;
}

static int passes(const emu *e, const eset *X, const eset *Y, int ymode, uint32_t x) {
  if (X->vs >= 0 && !member(e, X->vs, x)) return 0;
  if (!ymode) return 1;
  int in = Y->vs >= 0 ? member(e, Y->vs, x) : contains(Y->p, Y->lo, Y->hi, x);
  return in == (ymode == 1);
}

/* tab: op may probe the table (the fused op, as in the kernel). */
static void pick_sides(emu *e, const wm_gpu_op *op, int tab, const eset *A, const eset *B, eset *X, eset *Y,
                       int *ymode) {
  int inter = op->kind == WM_OP_INTERSECT;
  int ts = tab && e->table ? wm_gpu_op_table_side(op) : -1;
  if (ts >= 0) {
    const eset *row = ts ? B : A, *mine = ts ? A : B;
    if (!inter || (uint64_t)(mine->hi - mine->lo) <= WM_GPU_TABLE_RATIO * (uint64_t)(row->hi - row->lo)) {
      *X = *mine; /* trimmed to the op's range, so the whole row may be probed */
      *Y = concrete(e, ts ? op->b : op->a);
      *ymode = inter ? 1 : 2;
      e->tabled++;
      return;
    }
  }
  int swap = inter && B->hi - B->lo < A->hi - A->lo;
  *X = swap ? *B : *A;
  *Y = swap ? *A : *B;
  *ymode = inter ? 1 : 2;
}

static void run_ops(emu *e, unsigned L) {
  const wm_gpu_plan *P = e->P;
  for (unsigned i = P->op_begin[L]; i < P->op_begin[L + 1]; i++) {
    if ((int)i == P->fused_op) continue;
    const wm_gpu_op *op = &P->ops[i];
    eset A = resolve(e, op->a), B = resolve(e, op->b), X, Y;
    int ymode;
    if (op->lower | op->upper) {
      uint32_t lo, hi;
      vrange(e, op->lower, op->upper, &lo, &hi);
      trim(&A, lo, hi);
      trim(&B, lo, hi);
    }
    pick_sides(e, op, 0, &A, &B, &X, &Y, &ymode);
    if (X.hi - X.lo > e->cap) {
      e->base[i] = X.code;
      e->lo[i] = X.lo;
      e->hi[i] = X.hi;
      e->virtual_ops++;
      continue;
    }
    e->base[i] = MAT;
    uint32_t n = 0;
    for (uint32_t t = X.lo; t < X.hi; t++)
      if (passes(e, &X, &Y, ymode, X.p[t])) e->buf[i][n++] = X.p[t];
    e->hi[i] = n;
  }
}

static int accept(const emu *e, unsigned p, uint32_t x) {
  for (unsigned j = 0; j < p; j++)
    if (((e->P->distinct[p] >> j) & 1u) && e->v[j] == x) return 0;
  if (e->P->label[p] != WM_ANY_LABEL && e->o->vertex_labels[x] != e->P->label[p]) return 0;
  return !e->o->allowed || e->o->allowed[x];
}

/* WM_PAIRS_PRODUCT, as wm_bulk_last counts it: position q = k was folded;
 * B is its set in its range, m its members less the earlier vertices it
 * excludes, and each accepted candidate x of the last position adds
 * m - [x in B] (product_subset: B's range alone decides). */
static uint64_t product_of(const emu *e, const eset *X, const eset *Y, int ymode) {
  const wm_gpu_plan *P = e->P;
  const unsigned p = P->k - 1, q = P->k;
  eset B = resolve(e, P->cand[q]);
  uint32_t blo, bhi;
  vrange(e, P->lower[q], P->upper[q], &blo, &bhi);
  trim(&B, blo, bhi);
  uint64_t m = 0;
  for (uint32_t t = B.lo; t < B.hi; t++) {
    uint32_t y = B.p[t];
    int ok = B.vs < 0 || member(e, B.vs, y);
    for (unsigned j = 0; j < p; j++)
      if (((P->distinct[q] >> j) & 1u) && e->v[j] == y) ok = 0;
    m += (uint64_t)ok;
  }
  uint64_t c = 0;
  for (uint32_t t = X->lo; m && t < X->hi; t++) {
    uint32_t x = X->p[t];
    if (!passes(e, X, Y, ymode, x) || !accept(e, p, x)) continue;
    int in_b = P->product_subset ? x >= blo && x < bhi
                                 : contains(B.p, B.lo, B.hi, x) && (B.vs < 0 || member(e, B.vs, x));
    c += m - (uint64_t)in_b;
  }
  return c;
}

static void last_level(emu *e) {
  const wm_gpu_plan *P = e->P;
  unsigned p = P->k - 1;
  uint32_t lo, hi;
  vrange(e, P->lower[p], P->upper[p], &lo, &hi);
  eset X, Y = {NULL, 0, 0, -1, 0};
  int ymode = 0;
  if (P->fused_op >= 0) {
    const wm_gpu_op *op = &P->ops[P->fused_op];
    eset A = resolve(e, op->a), B = resolve(e, op->b);
    uint32_t olo, ohi;
    vrange(e, op->lower, op->upper, &olo, &ohi);
    if (olo > lo) lo = olo;
    if (ohi < hi) hi = ohi;
    trim(&A, lo, hi);
    trim(&B, lo, hi);
    pick_sides(e, op, 1, &A, &B, &X, &Y, &ymode);
  } else {
    X = resolve(e, P->cand[p]);
    trim(&X, lo, hi);
  }
  if (P->pairs == WM_PAIRS_PRODUCT) {
    e->count += product_of(e, &X, &Y, ymode);
    return;
  }
  int fast = !e->o->per_vertex && P->label[p] == WM_ANY_LABEL && !e->o->allowed;
  if (fast && !ymode && X.vs < 0) {
    uint64_t c = X.hi - X.lo;
    for (unsigned j = 0; j < p; j++)
      if (((P->distinct[p] >> j) & 1u) && e->v[j] >= lo && e->v[j] < hi && contains(X.p, X.lo, X.hi, e->v[j])) c--;
    e->count += wm_pairs_of(P->pairs, c);
    return;
  }
  uint64_t c = 0;
  for (uint32_t t = X.lo; t < X.hi; t++)
    if (passes(e, &X, &Y, ymode, X.p[t]) && accept(e, p, X.p[t])) c++;
  e->count += wm_pairs_of(P->pairs, c);
}

static void bind(emu *e, unsigned p) {
  const wm_gpu_plan *P = e->P;
  eset X = resolve(e, P->cand[p]);
  uint32_t lo, hi;
  vrange(e, P->lower[p], P->upper[p], &lo, &hi);
  trim(&X, lo, hi);
  for (uint32_t t = X.lo; t < X.hi; t++) {
    uint32_t x = X.p[t];
    if ((X.vs >= 0 && !member(e, X.vs, x)) || !accept(e, p, x)) continue;
    e->v[p] = x;
    run_ops(e, p);
    if (p + 2 == P->k)
      last_level(e);
    else
      bind(e, p + 1);
  }
}

static uint64_t emulate(const wm_graph *g, const wm_plan *plan, const wm_match_options *o, uint64_t cap,
                        int table, uint64_t *virtual_ops, uint64_t *tabled) {
  wm_gpu_plan P;
  wm_error err;
  cr_assert_eq(wm_gpu_plan_compile(plan, &P, &err), WM_OK, "%s", err.msg);
  if (!o->per_vertex && !o->allowed) wm_gpu_plan_fold_pairs(&P, plan->pair_count); /* as the driver */
  emu *e = calloc(1, sizeof *e);
  e->g = g;
  e->P = &P;
  e->o = o;
  e->cap = cap;
  e->table = table;
  const uint64_t maxdeg = wm_graph_max_degree(g);
  for (unsigned i = 0; i < P.n_ops; i++) e->buf[i] = malloc((maxdeg + 1) * 4);
  uint64_t n0 = o->first ? o->n_first : g->n;
  for (uint64_t i = 0; i < n0; i++) {
    uint32_t v = o->first ? o->first[i] : (uint32_t)i;
    if (!accept(e, 0, v)) continue;
    e->v[0] = v;
    run_ops(e, 0);
    if (P.k == 2)
      last_level(e);
    else
      bind(e, 1);
  }
  uint64_t c = e->count;
  *virtual_ops = e->virtual_ops;
  *tabled += e->tabled;
  for (unsigned i = 0; i < P.n_ops; i++) free(e->buf[i]);
  free(e);
  return c;
}

static wm_graph *test_graph(int i) {
  switch (i) {
    case 0: return wm_test_er(30, 0.3, 1);
    case 1: return wm_test_powerlaw(80, 5, 2, 0.6, 2);
    default: return wm_test_powerlaw(120, 4, 3, 0.5, 3);
  }
}

Test(gpu_emulation, equals_cpu_with_any_capacity, .timeout = 120) {
  uint64_t virt_total = 0, folded = 0, tabled = 0;
  for (int gi = 0; gi < 3; gi++) {
    wm_graph *g = test_graph(gi);
    int32_t *lab = malloc(g->n * sizeof *lab);
    uint8_t *allowed = malloc(g->n);
    uint64_t s = 9 + gi;
    for (uint32_t v = 0; v < g->n; v++) {
      lab[v] = (int32_t)(wm_test_rand(&s) % 2);
      allowed[v] = wm_test_rand(&s) % 8 != 0;
    }
    for (unsigned k = 3; k <= 5; k++) {
      wm_pattern *ps;
      unsigned np;
      wm_error err;
      cr_assert_eq(wm_connected_patterns(k, &ps, &np, &err), WM_OK, "%s", err.msg);
      for (unsigned i = 0; i < np; i++)
        for (int variant = 0; variant < 4; variant++) {
          wm_pattern p = ps[i];
          wm_match_options o;
          wm_match_options_init(&o);
          if (variant == 2) {
            wm_pattern_set_label(&p, 0, 1);
            o.vertex_labels = lab;
          }
          if (variant == 3) o.allowed = allowed;
          wm_plan plan;
          plan_of(g, &p, variant == 1, variant != 3, &plan);
          wm_match_result r;
          cr_assert_eq(wm_match_cpu(g, &plan, &o, &r, &err), WM_OK, "%s", err.msg);
          if (plan.pair_count) { /* the reference iterates both positions */
            wm_plan iter = plan;
            iter.pair_count = WM_PAIRS_NONE;
            cr_assert_eq(wm_match_cpu(g, &iter, &o, &r, &err), WM_OK, "%s", err.msg);
            folded++;
          }
          static const uint64_t caps[] = {1, 4, UINT64_MAX};
          for (int ci = 0; ci < 3; ci++) {
            uint64_t virt = 0, got = emulate(g, &plan, &o, caps[ci], ci != 1, &virt, &tabled);
            virt_total += virt;
            cr_assert_eq(got, r.count, "graph %d, %s, variant %d, capacity %llu: emulated %llu, cpu %llu",
                         gi, p.name, variant, (unsigned long long)caps[ci], (unsigned long long)got,
                         (unsigned long long)r.count);
          }
        }
      free(ps);
    }
    free(lab);
    free(allowed);
    wm_graph_destroy(g);
  }
  cr_assert(virt_total > 1000, "the small capacities should force the unmaterialised path (%llu times)",
            (unsigned long long)virt_total);
  cr_assert(folded > 10, "plans counted as pairs: %llu", (unsigned long long)folded);
  cr_assert(tabled > 1000, "ops probing a table: %llu", (unsigned long long)tabled);
}

/* Two hubs joined to every vertex: their lists and N(h1) ∩ N(h2) are far
 * above capacities 1..100, as in the gpu suite's hub test. */
Test(gpu_emulation, hub_graph_beyond_capacity, .timeout = 120) {
  const uint32_t n = 300;
  uint64_t cap_arcs = 4 * (uint64_t)n * 4, cnt = 0, seed = 5;
  uint32_t *src = malloc(cap_arcs * 4), *dst = malloc(cap_arcs * 4);
  for (uint32_t h = 0; h < 2; h++)
    for (uint32_t v = h + 1; v < n; v++) src[cnt] = h, dst[cnt++] = v;
  for (uint32_t i = 0; i < 2 * n; i++) {
    uint32_t u = 2 + (uint32_t)(wm_test_rand(&seed) % (n - 2)), v = 2 + (uint32_t)(wm_test_rand(&seed) % (n - 2));
    if (u != v) src[cnt] = u, dst[cnt++] = v;
  }
  wm_graph *g = wm_test_graph_of_arcs(n, src, dst, cnt);
  wm_error err;
  uint64_t virt_total = 0;
  for (unsigned k = 3; k <= 4; k++) {
    wm_pattern *ps;
    unsigned np;
    cr_assert_eq(wm_connected_patterns(k, &ps, &np, &err), WM_OK, "%s", err.msg);
    for (unsigned i = 0; i < np; i++)
      for (int induced = 0; induced <= 1; induced++) {
        wm_match_options o;
        wm_match_options_init(&o);
        wm_plan plan;
        plan_of(g, &ps[i], induced, 1, &plan);
        wm_plan iter = plan; /* the reference iterates both positions */
        iter.pair_count = WM_PAIRS_NONE;
        wm_match_result r;
        cr_assert_eq(wm_match_cpu(g, &iter, &o, &r, &err), WM_OK, "%s", err.msg);
        static const uint64_t caps[] = {1, 16, 100};
        for (int ci = 0; ci < 3; ci++) {
          uint64_t virt = 0, tabled = 0, got = emulate(g, &plan, &o, caps[ci], ci != 1, &virt, &tabled);
          virt_total += virt;
          cr_assert_eq(got, r.count, "%s (%s), capacity %llu: emulated %llu, cpu %llu", ps[i].name,
                       induced ? "induced" : "edge", (unsigned long long)caps[ci],
                       (unsigned long long)got, (unsigned long long)r.count);
        }
      }
    free(ps);
  }
  cr_assert(virt_total > 1000, "hub sets should exceed the capacities (%llu)", (unsigned long long)virt_total);
  wm_graph_destroy(g);
}
