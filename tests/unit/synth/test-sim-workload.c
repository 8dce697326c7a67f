/* SPDX-License-Identifier: MIT */
/*
 * The workload model behind the simulated PMU (synth/workload-counts.c):
 * for one model of each family (SKL, ICX, SPR, ADL P and E cores, LNL/ARL
 * P and E cores, Zen 4), the counts of a workload's profile evaluate to a
 * tree that holds every consistency rule the counts reach (metrics/rules.h),
 * with the workload's character on top; and one event made to miscount (as
 * --sim-miscount does) breaks a rule that names that event.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/sim/sim.h"
#include "base/array.h"
#include "synth/count-sources.h"
#include "synth/wl-profile.h"
#include "metrics/builtin.h"
#include "metrics/rules.h"
#include "workloads/workload.h"
#include "tests/unit/lib/test.h"

extern const struct bt_workload bt_wl_ptr_chase_dram, bt_wl_branch_mispredict, bt_wl_multiply1,
	bt_wl_false_sharing;

struct run {
	struct bt_model *m;
	struct bt_rule_set *rs;
	struct bt_counts *c;
	struct bt_result *r;
	struct bt_consistency *cs;
	struct bt_sim_count *src;
};

static int open_run(struct run *x, const char *id)
{
	struct bt_diag d = { "" };
	const struct bt_model_def *def = bt_builtin_find(id);
	memset(x, 0, sizeof(*x));
	if (!def || bt_model_open(def, &x->m, &d) != BT_OK ||
	    bt_rules_derive(x->m, &x->rs, &d) != BT_OK)
		return -1;
	x->c = bt_counts_new(x->m);
	x->r = bt_result_new(x->m);
	x->cs = bt_consistency_new(x->rs);
	x->src = calloc(bt_model_event_count(x->m) + 1, sizeof(*x->src));
	return x->c && x->r && x->cs && x->src ? 0 : -1;
}

static void close_run(struct run *x)
{
	free(x->src);
	bt_consistency_free(x->cs);
	bt_result_free(x->r);
	bt_counts_free(x->c);
	bt_rules_free(x->rs);
	bt_model_close(x->m);
}

static bool wl_param(const void *ctx, const char *name, uint64_t *ret)
{
	return bt_wl_config_get(ctx, name, ret);
}

/* Count the workload model into x->c (as the simulated PMU would deliver
 * it), optionally with `bad` multiplied by `scale`, then evaluate and check. */
static int count(struct run *x, const struct bt_workload *wl, double width, const char *bad,
		 double scale)
{
	unsigned n = bt_model_event_count(x->m);
	const struct bt_event **evp = calloc(n + 1, sizeof(*evp));
	char unknown[1024];
	struct bt_wl_config cfg;
	if (!evp)
		return -1;
	for (unsigned i = 0; i < n; i++)
		evp[i] = bt_model_event(x->m, i);
	bt_wl_config_init(&cfg, wl, BT_WL_QUICK);
	const struct bt_wl_profile *p = bt_wl_profile_find(wl->name);
	struct bt_wl_profile run;
	/* resolved as the synth does it (a chase's split comes from the
	 * hierarchy: here the default one, mem-hierarchy.h) */
	if (p)
		bt_wl_profile_resolve(p, wl_param, &cfg, width, NULL, &run);
	bt_status st = p ? bt_sim_workload_counts(evp, n, &run, bt_wl_profile_insts(p, wl_param, &cfg),
						  width, 7, x->src, unknown, sizeof(unknown), NULL)
			 : BT_ERR_INVALID;
	free(evp);
	if (st != BT_OK)
		return -1;
	bt_counts_reset(x->c);
	x->c->constants[BT_C_HYPERTHREADING_ON] = 0;
	x->c->constants[BT_C_THREADS_PER_CORE] = 1;
	for (unsigned i = 0; i < n; i++) {
		double v = (double)x->src[i].count;
		const char *name = bt_model_event(x->m, i)->name;
		if (bad && !strcmp(name, bad))
			v *= scale;
		x->c->events[i] = v;
	}
	if (bt_evaluate(x->m, x->c, x->r) != BT_OK)
		return -1;
	bt_consistency_check(x->cs, x->c, x->r);
	return 0;
}

/* Does a violated rule name event `name`? */
static bool violation_names(struct run *x, const char *name)
{
	int ev = bt_model_event_find(x->m, name);
	uint16_t *idx = calloc(bt_model_event_count(x->m) + 1, sizeof(*idx));
	bool found = false;
	for (unsigned i = 0; idx && ev >= 0 && i < x->rs->n && !found; i++) {
		if (x->cs->verdict[i].state != BT_RULE_VIOLATED)
			continue;
		unsigned k = bt_rule_events(x->rs, i, x->r, idx);
		for (unsigned j = 0; j < k; j++)
			found |= idx[j] == ev;
	}
	free(idx);
	return found;
}

static double node(struct run *x, const char *name)
{
	int i = bt_model_node_find(x->m, name);
	return i < 0 ? NAN : x->r->value[i];
}

static void family(const char *id, double width, const char *top, const char *bad, double scale)
{
	struct run x;
	CHECK(open_run(&x, id) == 0);
	if (!x.cs) {
		close_run(&x);
		return;
	}
	CHECK(count(&x, &bt_wl_ptr_chase_dram, width, NULL, 1) == 0);
	CHECK_EQ_INT(x.cs->n_violated, 0);
	CHECK(x.cs->n_held > 0);
	CHECK(node(&x, top) > 0.5);
	CHECK(count(&x, &bt_wl_branch_mispredict, width, NULL, 1) == 0);
	CHECK_EQ_INT(x.cs->n_violated, 0);

	CHECK(count(&x, &bt_wl_ptr_chase_dram, width, bad, scale) == 0);
	CHECK(x.cs->n_violated > 0);
	CHECK(violation_names(&x, bad));
	close_run(&x);
}

/* SKL: a DRAM chase issues one uop in ~150 slots (a step costs the DRAM
 * latency, mem-hierarchy.h): 40x its issued uops reads as a plausible
 * Bad_Speculation of ~25 %, not a contradiction; 400x cannot be. */
TEST(skl_miscount_is_named) { family("SKL", 4, "Backend_Bound", "UOPS_ISSUED.ANY", 400); }
TEST(icx_miscount_is_named) { family("ICX", 5, "Backend_Bound", "CPU_CLK_UNHALTED.THREAD_P", 2); }
TEST(spr_miscount_is_named) { family("SPR", 6, "Backend_Bound", "MEMORY_ACTIVITY.STALLS_L3_MISS", 3); }
TEST(adl_p_miscount_is_named) { family("ADL-GLC", 6, "Backend_Bound", "MEMORY_ACTIVITY.STALLS_L2_MISS", 3); }
TEST(adl_e_miscount_is_named) { family("ADL-GRT", 5, "Backend_Bound", "TOPDOWN_FE_BOUND.ALL", 30); }
TEST(lnl_p_miscount_is_named) { family("LNL-LNC", 8, "Backend_Bound", "CPU_CLK_UNHALTED.THREAD_P", 0.5); }
TEST(arl_e_miscount_is_named) { family("ARL-SKT", 8, "Backend_Bound", "TOPDOWN_RETIRING.ALL", 100); }
TEST(zen4_miscount_is_named) { family("ZEN4", 6, "backend_bound", "ex_ret_ops", 30); }

/* The profiles are keyed by workload name (synth/workload-profiles.c): every
 * built-in workload has one, and every profile names a built-in workload,
 * so a renamed workload cannot silently lose its model. Instructions per
 * run follow the parameters: multiply1 at its quick n = 128 retires
 * 6 x 128 x 128 by its profile (6 instructions per inner iteration). */
TEST(every_workload_has_a_profile)
{
	size_t n;
	const struct bt_workload *const *all = bt_wl_all(&n);
	struct bt_wl_config cfg;

	for (size_t k = 0; k < n; k++)
		CHECK(bt_wl_profile_find(all[k]->name) != NULL);
	size_t k = 0;
	for (; bt_wl_profile_name(k); k++)
		CHECK(bt_wl_find(bt_wl_profile_name(k)) != NULL);
	CHECK_EQ_INT((int)k, (int)n);
	CHECK(bt_wl_profile_find("no-such-workload") == NULL);
	CHECK(bt_wl_profile_find(NULL) == NULL);
	bt_wl_config_init(&cfg, bt_wl_find("multiply1"), BT_WL_QUICK);
	CHECK(bt_wl_profile_insts(bt_wl_profile_find("multiply1"), wl_param, &cfg) ==
	      6.0 * 128 * 128 * 128);
	CHECK(bt_wl_profile_insts(NULL, wl_param, &cfg) == 0);
}

/* Instructions per run scale as each workload's loop nest does, read from
 * workloads/ (not from the profiles): doubling a parameter multiplies them
 * by 2^exponent. multiply1/2/3 are an n x n x n nest (n -> 2n: x8); the
 * others are linear in their trip counts and independent of sizes and
 * choices that do not add iterations. Every parameter of every workload is
 * listed, so a new one must be declared here. */
static const struct {
	const char *wl, *param;
	int exponent;
} complexity[] = {
	{ "multiply1", "n", 3 }, { "multiply1", "isa", 0 },
	{ "multiply2", "n", 3 }, { "multiply2", "isa", 0 },
	{ "multiply3", "n", 3 }, { "multiply3", "isa", 0 },
	{ "ptr-chase-l1", "steps", 1 }, { "ptr-chase-l1", "size", 0 },
	{ "ptr-chase-l2", "steps", 1 }, { "ptr-chase-l2", "size", 0 },
	{ "ptr-chase-l3", "steps", 1 }, { "ptr-chase-l3", "size", 0 },
	{ "ptr-chase-dram", "steps", 1 }, { "ptr-chase-dram", "size", 0 },
	{ "stream-read", "size", 1 }, { "stream-read", "laps", 1 },
	{ "stream-triad", "size", 1 }, { "stream-triad", "laps", 1 },
	{ "branch-mispredict", "entries", 1 }, { "branch-mispredict", "laps", 1 },
	{ "branch-mispredict", "taken_pct", 0 },
	{ "code-footprint", "blocks", 1 }, { "code-footprint", "laps", 1 },
	{ "code-footprint", "spacing", 0 },
	{ "div-chain", "iterations", 1 }, { "div-chain", "divisor", 0 },
	{ "alu-dep-chain", "iterations", 1 }, { "alu-independent", "iterations", 1 },
	{ "store-fwd-block", "iterations", 1 }, { "store-fwd-block", "store_bytes", 0 },
	{ "4k-alias", "laps", 1 }, { "4k-alias", "offset", 0 },
	{ "denormal-assist", "laps", 1 }, { "denormal-assist", "denormal", 0 },
	{ "false-sharing", "iterations", 1 }, { "false-sharing", "layout", 0 },
	{ "memory-order-clears", "iterations", 1 }, { "memory-order-clears", "layout", 0 },
};

TEST(instructions_scale_as_the_loops_do)
{
	size_t n;
	const struct bt_workload *const *all = bt_wl_all(&n);

	for (size_t k = 0; k < n; k++) {
		const struct bt_workload *wl = all[k];
		const struct bt_wl_profile *p = bt_wl_profile_find(wl->name);
		for (unsigned i = 0; i < wl->n_params; i++) {
			const struct bt_wl_param *par = &wl->params[i];
			int e = -1;
			for (size_t c = 0; c < BT_ARRAY_SIZE(complexity); c++)
				if (!strcmp(complexity[c].wl, wl->name) &&
				    !strcmp(complexity[c].param, par->name))
					e = complexity[c].exponent;
			if (e < 0) {
				fprintf(stderr, "  %s: parameter %s has no declared complexity\n",
					wl->name, par->name);
				CHECK(e >= 0);
				continue;
			}
			struct bt_wl_config a, b;
			bt_wl_config_init(&a, wl, BT_WL_QUICK);
			b = a;
			/* Another valid value: twice the quick one, else the next choice. */
			uint64_t v = a.values[i];
			uint64_t w = par->kind == BT_WL_PARAM_CHOICE ? (v + 1 <= par->max ? v + 1 : v - 1)
								     : (v ? 2 * v : 1);
			if (w > par->max)
				w = v / 2 >= par->min ? v / 2 : v;
			b.values[i] = w;
			double ia = bt_wl_profile_insts(p, wl_param, &a);
			double ib = bt_wl_profile_insts(p, wl_param, &b);
			double want = e == 0 || par->kind == BT_WL_PARAM_CHOICE
					      ? 1 : pow((double)w / (double)v, e);
			if (fabs(ib / ia - want) > 1e-12) {
				fprintf(stderr, "  %s: %s %llu -> %llu: instructions x%.6g, want x%.6g\n",
					wl->name, par->name, (unsigned long long)v,
					(unsigned long long)w, ib / ia, want);
				CHECK(fabs(ib / ia - want) <= 1e-12);
			}
		}
	}
}

/* A parameter that changes the workload's behaviour changes the model's:
 * branch-mispredict's branch is taken with probability taken_pct/100, so
 * 0 and 100 are predictable (the README's "predictable control": Bad
 * Speculation low) and 50 mispredicts half the draws (Bad Speculation the
 * bottleneck); the same instructions each time. Also: the events the SKL
 * formulas divide by never coincide by accident: Other_Mispredicts divides
 * by INT_MISC.CLEARS_COUNT - MACHINE_CLEARS.COUNT, and every clear is a
 * mispredict or a machine clear, so CLEARS_COUNT counts more. */
static double bad_spec_at(struct run *x, unsigned pct, double *other, double *insts)
{
	const struct bt_workload *wl = &bt_wl_branch_mispredict;
	unsigned n = bt_model_event_count(x->m);
	const struct bt_event **evp = calloc(n + 1, sizeof(*evp));
	char unknown[1024], set[32];
	struct bt_wl_config cfg;
	struct bt_wl_profile run;
	struct bt_diag d = { "" };
	double cycles = 0;

	if (!evp)
		return NAN;
	for (unsigned i = 0; i < n; i++)
		evp[i] = bt_model_event(x->m, i);
	bt_wl_config_init(&cfg, wl, BT_WL_QUICK);
	snprintf(set, sizeof(set), "taken_pct=%u", pct);
	CHECK(bt_wl_config_set(&cfg, set, &d) == BT_OK);
	const struct bt_wl_profile *p = bt_wl_profile_find(wl->name);
	bt_wl_profile_resolve(p, wl_param, &cfg, 4, NULL, &run);
	*insts = bt_wl_profile_insts(p, wl_param, &cfg);
	CHECK(bt_sim_workload_counts(evp, n, &run, *insts, 4, 7, x->src, unknown, sizeof(unknown),
				     &cycles) == BT_OK);
	free(evp);
	CHECK(cycles > 0);
	bt_counts_reset(x->c);
	x->c->constants[BT_C_HYPERTHREADING_ON] = 0;
	x->c->constants[BT_C_THREADS_PER_CORE] = 1;
	for (unsigned i = 0; i < n; i++)
		x->c->events[i] = (double)x->src[i].count;
	int clears = bt_model_event_find(x->m, "INT_MISC.CLEARS_COUNT");
	int mc = bt_model_event_find(x->m, "MACHINE_CLEARS.COUNT");
	CHECK(clears >= 0 && mc >= 0);
	if (clears >= 0 && mc >= 0)
		CHECK(x->c->events[clears] > x->c->events[mc]);
	CHECK(bt_evaluate(x->m, x->c, x->r) == BT_OK);
	bt_consistency_check(x->cs, x->c, x->r);
	CHECK_EQ_INT(x->cs->n_violated, 0);
	*other = node(x, "Other_Mispredicts");
	return node(x, "Bad_Speculation");
}

TEST(taken_pct_changes_bad_speculation)
{
	struct run x;
	double other[3], insts[3], bs[3];
	const unsigned pct[3] = { 0, 50, 100 };

	CHECK(open_run(&x, "SKL") == 0);
	if (!x.cs) {
		close_run(&x);
		return;
	}
	for (int k = 0; k < 3; k++) {
		bs[k] = bad_spec_at(&x, pct[k], &other[k], &insts[k]);
		CHECK(isfinite(other[k]));
	}
	CHECK(bs[0] < 0.05);
	CHECK(bs[2] < 0.05);
	CHECK(bs[1] > 0.5);
	CHECK(insts[0] == insts[1] && insts[1] == insts[2]);
	/* Wrong-path mispredicts: a small part of Branch_Mispredicts, not 0/0. */
	CHECK(other[1] > 0.001 && other[1] < 0.2 * bs[1]);
	close_run(&x);
}

/* The CPI stack adds up (metrics/eval.c cpi_stack; Eyerman et al.: every
 * cycle in one component), on every built-in model, with the counts the
 * simulated PMU gives for three workloads: each node's children that have
 * shares sum to its share, the level-1 shares to CPI x the level-1 sum (1
 * up to PERF_METRICS rounding), and no child exceeds its parent. multiply1
 * on SKL is where value x CPI put MEM_Latency above DRAM_Bound. */
TEST(cpi_stack_adds_up_on_every_model)
{
	const struct bt_workload *wls[] = { bt_wl_find("multiply1"), &bt_wl_ptr_chase_dram,
					    &bt_wl_branch_mispredict };
	unsigned models_with_stack = 0;

	for (unsigned k = 0; k < bt_builtin_model_count; k++) {
		const char *id = bt_builtin_models[k]->id;
		const struct bt_model_def *def = bt_builtin_find(id);
		struct run x;
		if (!def || open_run(&x, id) != 0) {
			CHECK(0);
			continue;
		}
		double width = def->pipeline_width ? def->pipeline_width : 4;
		for (unsigned w = 0; w < 3; w++) {
			if (count(&x, wls[w], width, NULL, 1) != 0)
				continue; /* a model the workload model cannot count (no slots) */
			const struct bt_result *r = x.r;
			unsigned n = bt_model_node_count(x.m);
			double l1_share = 0, l1_value = 0;
			bool any = false;
			for (unsigned i = 0; i < n; i++) {
				const struct bt_node_def *nd = bt_model_node(x.m, i);
				if (nd->kind != BT_NODE_TREE || isnan(r->cpi_share[i]))
					continue;
				any = true;
				if (nd->level == 1) {
					l1_share += r->cpi_share[i];
					l1_value += r->value[i] > 0 ? r->value[i] : 0;
				}
				double sum = 0;
				unsigned with = 0, kids = 0;
				for (unsigned c = 0; c < n; c++) {
					const struct bt_node_def *cd = bt_model_node(x.m, c);
					if (cd->kind != BT_NODE_TREE || !cd->parent ||
					    strcmp(cd->parent, nd->name))
						continue;
					kids++;
					if (isnan(r->cpi_share[c]))
						continue;
					with++;
					sum += r->cpi_share[c];
					if (r->cpi_share[c] > r->cpi_share[i] * (1 + 1e-12)) {
						fprintf(stderr, "  %s %s: %s %.6g > parent %s %.6g\n", id,
							wls[w]->name, cd->name, r->cpi_share[c], nd->name,
							r->cpi_share[i]);
						CHECK(0);
					}
				}
				/* All children or none carry a share. */
				CHECK(with == 0 || with == kids);
				if (with && fabs(sum - r->cpi_share[i]) > 1e-9 * r->cpi_share[i] + 1e-15) {
					fprintf(stderr, "  %s %s: children of %s sum to %.9g, not %.9g\n",
						id, wls[w]->name, nd->name, sum, r->cpi_share[i]);
					CHECK(0);
				}
			}
			if (!any)
				continue;
			models_with_stack += w == 0;
			CHECK(fabs(l1_share - r->cpi * l1_value) <= 1e-9 * l1_share);
			CHECK(fabs(l1_value - 1) <= 0.02);
		}
		if (!strcmp(id, "SKL")) {
			CHECK(count(&x, wls[0], width, NULL, 1) == 0);
			double dram = x.r->cpi_share[bt_model_node_find(x.m, "DRAM_Bound")];
			double lat = x.r->cpi_share[bt_model_node_find(x.m, "MEM_Latency")];
			double bw = x.r->cpi_share[bt_model_node_find(x.m, "MEM_Bandwidth")];
			CHECK(lat <= dram && fabs(lat + bw - dram) <= 1e-9 * dram);
		}
		close_run(&x);
	}
	/* The stack needs a CPI node: every Intel model has one. */
	CHECK(models_with_stack >= 18);
}

/* The events the formulas divide by are never equal by accident: on every
 * model that has both, INT_MISC.CLEARS_COUNT (every clear: mispredicts and
 * machine clears) exceeds MACHINE_CLEARS.COUNT for every built-in workload,
 * even one whose profile has no mispredict share (a loop still mispredicts
 * its exit), so Other_Mispredicts is never 0/0. */
TEST(clears_count_exceeds_machine_clears_on_every_workload)
{
	size_t nw;
	const struct bt_workload *const *all = bt_wl_all(&nw);
	unsigned checked = 0;

	for (unsigned k = 0; k < bt_builtin_model_count; k++) {
		const char *id = bt_builtin_models[k]->id;
		const struct bt_model_def *def = bt_builtin_find(id);
		struct run x;
		if (!def || open_run(&x, id) != 0) {
			CHECK(0);
			continue;
		}
		int clears = bt_model_event_find(x.m, "INT_MISC.CLEARS_COUNT");
		int mc = bt_model_event_find(x.m, "MACHINE_CLEARS.COUNT");
		int other = bt_model_node_find(x.m, "Other_Mispredicts");
		double width = def->pipeline_width ? def->pipeline_width : 4;
		for (size_t w = 0; clears >= 0 && mc >= 0 && w < nw; w++) {
			if (count(&x, all[w], width, NULL, 1) != 0)
				continue;
			checked++;
			if (!(x.c->events[clears] > x.c->events[mc]) ||
			    (other >= 0 && x.r->state[other] != BT_NODE_OK)) {
				fprintf(stderr, "  %s %s: CLEARS_COUNT %.0f, MACHINE_CLEARS.COUNT %.0f\n", id,
					all[w]->name, x.c->events[clears], x.c->events[mc]);
				CHECK(0);
			}
		}
		close_run(&x);
	}
	CHECK(checked >= 100);
}


/* Count workload wl with parameters `set` ("n=512") on model x at `width`
 * into x->c, evaluate and check; *insts: the instructions it retires. */
static void count_with(struct run *x, const struct bt_workload *wl, const char *set, double width,
		       double *insts)
{
	unsigned n = bt_model_event_count(x->m);
	const struct bt_event **evp = calloc(n + 1, sizeof(*evp));
	char unknown[1024];
	struct bt_wl_config cfg;
	struct bt_wl_profile run;
	struct bt_diag d = { "" };

	CHECK(evp != NULL);
	if (!evp)
		return;
	for (unsigned i = 0; i < n; i++)
		evp[i] = bt_model_event(x->m, i);
	bt_wl_config_init(&cfg, wl, BT_WL_QUICK);
	CHECK(bt_wl_config_set(&cfg, set, &d) == BT_OK);
	const struct bt_wl_profile *p = bt_wl_profile_find(wl->name);
	bt_wl_profile_resolve(p, wl_param, &cfg, width, NULL, &run);
	*insts = bt_wl_profile_insts(p, wl_param, &cfg);
	double cycles = 0;
	CHECK(bt_sim_workload_counts(evp, n, &run, *insts, width, 7, x->src, unknown,
				     sizeof(unknown), &cycles) == BT_OK);
	free(evp);
	bt_counts_reset(x->c);
	x->c->constants[BT_C_HYPERTHREADING_ON] = 0;
	x->c->constants[BT_C_THREADS_PER_CORE] = 1;
	/* As a run sets them (app/count-run.c): the TSC ticks of one run (the
	 * simulated core runs at the TSC's 3 GHz) and its time. */
	x->c->constants[BT_C_TSC_HZ] = 3e9;
	x->c->constants[BT_C_SYSTEM_TSC_FREQ] = cycles;
	x->c->constants[BT_C_DURATIONTIMEINMILLISECONDS] = cycles * 1e3 / 3e9;
	for (unsigned i = 0; i < n; i++)
		x->c->events[i] = (double)x->src[i].count;
	CHECK(bt_evaluate(x->m, x->c, x->r) == BT_OK);
	bt_consistency_check(x->cs, x->c, x->r);
}

/* An event's count per retired instruction (INST_RETIRED.ANY: the run's
 * instructions with the model's +-1 % noise, which every count shares). */
static double per_inst(struct run *x, const char *name)
{
	int e = bt_model_event_find(x->m, name), i = bt_model_event_find(x->m, "INST_RETIRED.ANY");
	CHECK(e >= 0 && i >= 0);
	return e < 0 || i < 0 ? NAN : x->c->events[e] / x->c->events[i];
}

#define NEAR(a, b, tol) CHECK(fabs((a) - (b)) <= (tol))

/* multiply1's column walk of B (synth/workload-profiles.c): one load of B
 * per 6 instructions, n x 8 bytes after the previous one. Hand-computed from
 * the profile (uops/inst 1.1, retiring 1 - 0.945 = 0.055, memory 0.77 of the
 * slots, L2/L3/DRAM 0.1/0.2/0.6 of the memory cycles, no stores) on a 4-wide
 * SKL: cycles C = 1.1 / 0.055 / 4 = 5 per instruction, load stalls
 * 0.77 x 5 = 3.85.
 *   n = 128 (a row of B is 1 KiB < 4 KiB): no DTLB miss.
 *   n = 512 (4 KiB, 512 pages <= 1536 STLB entries): every load of B an
 *     STLB hit: 1/6 per instruction, at 9 cycles 1.5 per instruction; the
 *     L2/L3/DRAM cycles shrink by (3.85 - 1.5) / 3.85, so L1 stalls are
 *     3.85 - 0.9 x 2.35 = 1.735: L1_Bound 1.735 / 5 = 0.347 and SKL's
 *     DTLB_Load = min(9 x STLB_HIT + WALK_ACTIVE, 1.2 x 1.735) / 5 = 0.3.
 *   n = 2048 (2048 pages > 1536): page walks at 30 cycles, 5 per
 *     instruction, more than the 3.85 stall cycles the profile has: capped
 *     at 3.85 / 30 = 0.128333 walks per instruction, every load stall an
 *     L1 (walk) stall: L1_Bound = Load_STLB_Miss = 0.77, no L2 miss.
 * On an 8-wide Lunar Lake P-core (C = 2.5, load stalls 1.925) at n = 512:
 * MEM_INST_RETIRED.STLB_HIT_LOADS 1/6 per instruction, MEMORY_STALLS.L1
 * (L1_Bound) (1.925 - 0.9 x 0.425) / 2.5 = 0.617. */
TEST(multiply1_column_walk_misses_the_dtlb)
{
	struct run x;
	double insts;

	CHECK(open_run(&x, "SKL") == 0);
	if (x.cs) {
		count_with(&x, &bt_wl_multiply1, "n=128", 4, &insts);
		CHECK(per_inst(&x, "DTLB_LOAD_MISSES.STLB_HIT:c1") == 0);
		CHECK(per_inst(&x, "DTLB_LOAD_MISSES.WALK_ACTIVE") == 0);
		CHECK_EQ_INT(x.cs->n_violated, 0);

		count_with(&x, &bt_wl_multiply1, "n=512", 4, &insts);
		CHECK(insts == 6.0 * 512 * 512 * 512);
		NEAR(per_inst(&x, "DTLB_LOAD_MISSES.STLB_HIT:c1"), 1.0 / 6, 1e-6);
		CHECK(per_inst(&x, "DTLB_LOAD_MISSES.WALK_ACTIVE") == 0);
		NEAR(node(&x, "L1_Bound"), 0.347, 1e-3);
		NEAR(node(&x, "DTLB_Load"), 0.3, 1e-3);
		NEAR(node(&x, "Load_STLB_Hit"), 0.3, 1e-3);
		CHECK_EQ_INT(x.cs->n_violated, 0);

		count_with(&x, &bt_wl_multiply1, "n=2048", 4, &insts);
		CHECK(per_inst(&x, "DTLB_LOAD_MISSES.STLB_HIT:c1") == 0);
		NEAR(per_inst(&x, "DTLB_LOAD_MISSES.WALK_COMPLETED_4K"), 3.85 / 30, 1e-6);
		NEAR(per_inst(&x, "DTLB_LOAD_MISSES.WALK_ACTIVE"), 3.85, 1e-5);
		CHECK(per_inst(&x, "CYCLE_ACTIVITY.STALLS_L2_MISS") == 0);
		NEAR(node(&x, "L1_Bound"), 0.77, 1e-3);
		NEAR(node(&x, "Load_STLB_Miss"), 0.77, 1e-3);
		CHECK_EQ_INT(x.cs->n_violated, 0);
	}
	close_run(&x);

	CHECK(open_run(&x, "LNL-LNC") == 0);
	if (x.cs) {
		count_with(&x, &bt_wl_multiply1, "n=512", 8, &insts);
		NEAR(per_inst(&x, "MEM_INST_RETIRED.STLB_HIT_LOADS"), 1.0 / 6, 1e-6);
		CHECK(per_inst(&x, "MEM_INST_RETIRED.STLB_MISS_LOADS") == 0);
		NEAR(node(&x, "L1_Bound"), 0.617, 1e-3);
		CHECK_EQ_INT(x.cs->n_violated, 0);
	}
	close_run(&x);

	/* An E-core (ADL-GRT, 5 wide: load stalls 0.77 x 1.1 / 0.055 / 5 = 3.08
	 * per instruction): the load at the head of retirement waits 1.5 cycles
	 * per instruction on STLB hits, and the parts add up to ANY_AT_RET. */
	CHECK(open_run(&x, "ADL-GRT") == 0);
	if (x.cs) {
		count_with(&x, &bt_wl_multiply1, "n=512", 5, &insts);
		NEAR(per_inst(&x, "LD_HEAD.DTLB_MISS_AT_RET"), 1.5, 1e-5);
		CHECK(per_inst(&x, "LD_HEAD.PGWALK_AT_RET") == 0);
		NEAR(per_inst(&x, "LD_HEAD.ANY_AT_RET"), 3.08, 1e-5);
		NEAR(per_inst(&x, "LD_HEAD.L1_MISS_AT_RET") + per_inst(&x, "LD_HEAD.L1_BOUND_AT_RET") +
			     per_inst(&x, "LD_HEAD.DTLB_MISS_AT_RET"),
		     3.08, 1e-5);
		CHECK_EQ_INT(x.cs->n_violated, 0);
	}
	close_run(&x);
}

/* Snoops (synth/workload-profiles.c): false-sharing at 10^6 iterations
 * (4 x 10^6 instructions, uops/inst 1.2, retiring 1 - 0.88 = 0.12) on SKL,
 * 4 wide: C = 1.2 / 0.12 / 4 = 2.5 per instruction, memory 0.8 x 2.5 = 2,
 * of which stores 0.7 (1.4) and L3 0.15 (0.3). HITM loads: 0.9 of the L3
 * time at 240 cycles = 0.9 x 0.3 / 240 = 0.001125 per instruction; every L3
 * hit: that + 0.1 x 0.3 / 100 = 0.001425; RFOs finding the line modified:
 * 0.9 x 1.4 / 240 = 0.00525. SPR's XSNP_FWD (umask 0x04, HitM responses)
 * and LNL's XSNP_HITM count the same loads; LNL's XSNP_FWD (umask 0x10, clean
 * forwards) none. No locked instruction in the workload:
 * LOCK_LOADS 0. */
TEST(false_sharing_snoops_hitm)
{
	struct run x;
	double insts;

	CHECK(open_run(&x, "SKL") == 0);
	if (x.cs) {
		count_with(&x, &bt_wl_false_sharing, "iterations=1000000", 4, &insts);
		CHECK(insts == 4e6);
		NEAR(per_inst(&x, "MEM_LOAD_L3_HIT_RETIRED.XSNP_HITM"), 0.001125, 1e-6);
		NEAR(per_inst(&x, "MEM_LOAD_RETIRED.L3_HIT"), 0.001425, 1e-6);
		NEAR(per_inst(&x, "OFFCORE_RESPONSE.DEMAND_RFO.L3_HIT.SNOOP_HITM"), 0.00525, 1e-6);
		CHECK(per_inst(&x, "MEM_LOAD_L3_HIT_RETIRED.XSNP_MISS") == 0);
		CHECK(per_inst(&x, "MEM_INST_RETIRED.LOCK_LOADS") == 0);
		CHECK(node(&x, "Contested_Accesses") > 0.01);
		CHECK(node(&x, "Contested_Accesses") <= node(&x, "L3_Bound"));
		CHECK(node(&x, "False_Sharing") > 0.05);
		CHECK(node(&x, "False_Sharing") <= node(&x, "Store_Bound"));
		CHECK_EQ_INT(x.cs->n_violated, 0);
	}
	close_run(&x);
	CHECK(open_run(&x, "SPR") == 0);
	if (x.cs) {
		count_with(&x, &bt_wl_false_sharing, "iterations=1000000", 6, &insts);
		CHECK(per_inst(&x, "MEM_LOAD_L3_HIT_RETIRED.XSNP_FWD") > 0);
		CHECK(node(&x, "Contested_Accesses") <= node(&x, "L3_Bound"));
		CHECK(node(&x, "False_Sharing") <= node(&x, "Store_Bound"));
		CHECK_EQ_INT(x.cs->n_violated, 0);
	}
	close_run(&x);
	/* Lunar Lake: XSNP_HITM counts them; its XSNP_FWD (umask 0x10, a clean
	 * line forwarded) does not. */
	CHECK(open_run(&x, "LNL-LNC") == 0);
	if (x.cs) {
		count_with(&x, &bt_wl_false_sharing, "iterations=1000000", 8, &insts);
		CHECK(per_inst(&x, "MEM_LOAD_L3_HIT_RETIRED.XSNP_HITM") > 0);
		CHECK(per_inst(&x, "MEM_LOAD_L3_HIT_RETIRED.XSNP_FWD") == 0);
		CHECK(per_inst(&x, "MEM_INST_RETIRED.LOCK_LOADS") == 0);
		CHECK(node(&x, "Contested_Accesses") <= node(&x, "L3_Bound"));
		CHECK_EQ_INT(x.cs->n_violated, 0);
	}
	close_run(&x);
}
