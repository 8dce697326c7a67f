/* SPDX-License-Identifier: MIT */
/*
 * Consistency rules (metrics/rules.h). The expectations are written from the
 * Top-Down method and the vendor formulas' shape, not from the code's
 * output: the four level-2 splits and the level-1 sum must be derived for
 * SKL (formulas in events) and SPR (PERF_METRICS); SKL's Memory_Bound, whose
 * five children come from separate stall events, and Zen 4's level-1 nodes,
 * each its own d_ratio of dispatch-slot events, are not sums the formulas
 * imply (Zen 4's level 1 is a partition of the slots by the formulas'
 * shape instead, a rule of its own); a count set made by hand to be consistent holds every rule, and
 * one event scaled by 2 breaks a rule that names it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/builtin.h"
#include "base/array.h"
#include "metrics/rules.h"
#include "tests/unit/lib/test.h"

struct fixture {
	struct bt_model *m;
	struct bt_rule_set *rs;
};

static int open_rules(const char *id, struct fixture *f)
{
	struct bt_diag d = { "" };
	const struct bt_model_def *def = bt_builtin_find(id);

	f->m = NULL;
	f->rs = NULL;
	if (!def || bt_model_open(def, &f->m, &d) != BT_OK)
		return -1;
	if (bt_rules_derive(f->m, &f->rs, &d) != BT_OK) {
		bt_model_close(f->m);
		return -1;
	}
	return 0;
}

static void close_rules(struct fixture *f)
{
	bt_rules_free(f->rs);
	bt_model_close(f->m);
}

/* Is there a rule of this kind over exactly these nodes (parent NULL: level-1 sum)? */
static int has_sum(const struct fixture *f, const char *parent, const char *const *terms)
{
	unsigned n_terms = 0;
	while (terms[n_terms])
		n_terms++;
	for (unsigned i = 0; i < f->rs->n; i++) {
		const struct bt_rule *x = &f->rs->rules[i];
		if (x->kind != (parent ? BT_RULE_PARENT_SUM : BT_RULE_LEVEL1_SUM) ||
		    x->n_terms != n_terms)
			continue;
		if (parent && strcmp(bt_model_node(f->m, (unsigned)x->node)->name, parent))
			continue;
		unsigned found = 0;
		for (unsigned k = 0; k < n_terms; k++)
			for (unsigned t = 0; t < x->n_terms; t++)
				found += !strcmp(bt_model_node(f->m, x->terms[t])->name, terms[k]);
		if (found == n_terms)
			return 1;
	}
	return 0;
}

static int sum_not_implied(const struct fixture *f, const char *parent)
{
	for (unsigned i = 0; i < f->rs->n_not_implied; i++) {
		int n = f->rs->not_implied[i].node;
		if (parent ? n >= 0 && !strcmp(bt_model_node(f->m, (unsigned)n)->name, parent) : n < 0)
			return 1;
	}
	return 0;
}

static const char *const level1[] = { "Frontend_Bound", "Bad_Speculation", "Backend_Bound",
				      "Retiring", NULL };
static const char *const fe[] = { "Fetch_Latency", "Fetch_Bandwidth", NULL };
static const char *const bs[] = { "Branch_Mispredicts", "Machine_Clears", NULL };
static const char *const be[] = { "Memory_Bound", "Core_Bound", NULL };
static const char *const ret[] = { "Light_Operations", "Heavy_Operations", NULL };

static void check_top_down_splits(const char *id)
{
	struct fixture f;
	if (open_rules(id, &f) < 0) {
		CHECK_MSG(0, "%s: no rules", id);
		return;
	}
	CHECK_MSG(has_sum(&f, NULL, level1), "%s: level-1 sum", id);
	CHECK_MSG(has_sum(&f, "Frontend_Bound", fe), "%s: Frontend_Bound split", id);
	CHECK_MSG(has_sum(&f, "Bad_Speculation", bs), "%s: Bad_Speculation split", id);
	CHECK_MSG(has_sum(&f, "Backend_Bound", be), "%s: Backend_Bound split", id);
	CHECK_MSG(has_sum(&f, "Retiring", ret), "%s: Retiring split", id);
	/* one fraction rule per tree node, one IPC rule at the model's width */
	unsigned tree = 0;
	for (unsigned i = 0; i < bt_model_node_count(f.m); i++)
		tree += bt_model_node(f.m, i)->kind == BT_NODE_TREE;
	CHECK_EQ_INT(f.rs->n_kind[BT_RULE_FRACTION], tree);
	CHECK_EQ_INT(f.rs->n_kind[BT_RULE_IPC_WIDTH], 1);
	close_rules(&f);
}

TEST(skl_and_spr_derive_the_level_2_splits)
{
	check_top_down_splits("SKL");
	check_top_down_splits("SPR");
}

TEST(ipc_bound_is_the_models_width)
{
	struct fixture f;
	CHECK(open_rules("SKL", &f) == 0);
	for (unsigned i = 0; f.rs && i < f.rs->n; i++)
		if (f.rs->rules[i].kind == BT_RULE_IPC_WIDTH)
			CHECK_NEAR(f.rs->rules[i].bound, 4, 0, 0);
	close_rules(&f);
	CHECK(open_rules("SPR", &f) == 0);
	for (unsigned i = 0; f.rs && i < f.rs->n; i++)
		if (f.rs->rules[i].kind == BT_RULE_IPC_WIDTH)
			CHECK_NEAR(f.rs->rules[i].bound, 6, 0, 0);
	close_rules(&f);
}

TEST(relations_the_formulas_do_not_imply_are_not_derived)
{
	static const char *const mem[] = { "L1_Bound", "L2_Bound", "L3_Bound", "DRAM_Bound",
					   "Store_Bound", NULL };
	static const char *const zen_l1[] = { "frontend_bound", "bad_speculation", "backend_bound",
					      "smt_contention", "retiring", NULL };
	struct fixture f;

	CHECK(open_rules("SKL", &f) == 0);
	CHECK(!has_sum(&f, "Memory_Bound", mem));
	CHECK(sum_not_implied(&f, "Memory_Bound"));
	close_rules(&f);
	/* Zen 4: each level-1 node is its own event over the dispatch slots:
	 * no identity of the formulas, but their shape (one denominator) makes
	 * the sum the slots' partition, a rule with perf's 5-point tolerance */
	CHECK(open_rules("ZEN4", &f) == 0);
	CHECK(has_sum(&f, NULL, zen_l1));
	CHECK(!sum_not_implied(&f, NULL));
	CHECK_EQ_INT(f.rs->n_kind[BT_RULE_LEVEL1_SUM], 1);
	for (unsigned i = 0; f.rs && i < f.rs->n; i++)
		if (f.rs->rules[i].kind == BT_RULE_LEVEL1_SUM) {
			CHECK_EQ_INT(f.rs->rules[i].partition, 1);
			CHECK_NEAR(f.rs->rules[i].tol_abs, 0.05, 0, 0);
		}
	close_rules(&f);
	/* SKL's level-1 sum is an identity (Backend_Bound is 1 - the others) */
	CHECK(open_rules("SKL", &f) == 0);
	for (unsigned i = 0; f.rs && i < f.rs->n; i++)
		if (f.rs->rules[i].kind == BT_RULE_LEVEL1_SUM)
			CHECK_EQ_INT(f.rs->rules[i].partition, 0);
	close_rules(&f);
}

/* Does some violated rule involve the event? */
static int violation_names(const struct fixture *f, const struct bt_consistency *cs,
			   const struct bt_result *r, const char *event);
static int state_of(const struct fixture *f, const struct bt_consistency *cs, uint8_t kind,
		    const char *node);

/*
 * Zen 4's level 1 over 1,000,000 cycles (6 dispatch slots a cycle, the
 * de_no_dispatch_per_slot umasks AMD's pipeline.json reads): frontend 0.1,
 * backend 0.3, SMT contention 0.05, dispatched ops 0.55 of the slots of
 * which 0.5 retire. With the umasks of PMCx1A0 decoded as 0 (the
 * umask-ignored defect: no slot class selected, nothing counted), the three
 * not-dispatched shares read 0 and level 1 sums to 0.55.
 */
TEST(zen4_level1_partition_catches_a_dead_dispatch_slot_event)
{
	struct fixture f;
	CHECK(open_rules("ZEN4", &f) == 0);
	if (!f.rs)
		return;
	struct bt_counts *c = bt_counts_new(f.m);
	struct bt_result *r = bt_result_new(f.m);
	struct bt_consistency *cs = bt_consistency_new(f.rs);
	for (int dead = 0; dead < 2; dead++) {
		bt_counts_reset(c);
		CHECK(bt_counts_set_event(c, "ls_not_halted_cyc", 1000000) == BT_OK);
		CHECK(bt_counts_set_event(c, "de_no_dispatch_per_slot.no_ops_from_frontend",
					  dead ? 0 : 600000) == BT_OK);
		CHECK(bt_counts_set_event(c, "de_no_dispatch_per_slot.backend_stalls",
					  dead ? 0 : 1800000) == BT_OK);
		CHECK(bt_counts_set_event(c, "de_no_dispatch_per_slot.smt_contention",
					  dead ? 0 : 300000) == BT_OK);
		CHECK(bt_counts_set_event(c, "de_src_op_disp.all", 3300000) == BT_OK);
		CHECK(bt_counts_set_event(c, "ex_ret_ops", 3000000) == BT_OK);
		CHECK(bt_evaluate(f.m, c, r) == BT_OK);
		bt_consistency_check(cs, c, r);
		int want = dead ? BT_RULE_VIOLATED : BT_RULE_HELD;
		CHECK_EQ_INT(state_of(&f, cs, BT_RULE_LEVEL1_SUM, NULL), want);
		if (dead)
			CHECK(violation_names(&f, cs, r, "de_no_dispatch_per_slot.backend_stalls"));
	}
	bt_consistency_free(cs);
	bt_result_free(r);
	bt_counts_free(c);
	close_rules(&f);
}

/*
 * SPR's Fetch_Bandwidth = max(0, Frontend_Bound - Fetch_Latency) over the
 * PERF_METRICS fields (Intel's sapphirerapids_metrics.json). A Fetch_Latency
 * field 10 points above its level-1 field (a level-2 class larger than the
 * class it is part of) is clamped to a plausible 0: the range rule reads the
 * value before the clamp and is violated, saying so; half a point (the
 * fields' rounding is 1/255) is noise and holds.
 */
TEST(a_clamp_that_hides_a_negative_share_is_violated)
{
	struct fixture f;
	CHECK(open_rules("SPR", &f) == 0);
	if (!f.rs)
		return;
	struct bt_counts *c = bt_counts_new(f.m);
	struct bt_result *r = bt_result_new(f.m);
	struct bt_consistency *cs = bt_consistency_new(f.rs);
	static const double fl[] = { 20.5, 30 };
	for (int k = 0; k < 2; k++) {
		bt_counts_reset(c);
		CHECK(bt_counts_set_event(c, "PERF_METRICS.FRONTEND_BOUND", 20) == BT_OK);
		CHECK(bt_counts_set_event(c, "PERF_METRICS.BAD_SPECULATION", 10) == BT_OK);
		CHECK(bt_counts_set_event(c, "PERF_METRICS.RETIRING", 40) == BT_OK);
		CHECK(bt_counts_set_event(c, "PERF_METRICS.BACKEND_BOUND", 30) == BT_OK);
		CHECK(bt_counts_set_event(c, "PERF_METRICS.FETCH_LATENCY", fl[k]) == BT_OK);
		CHECK(bt_counts_set_event(c, "INT_MISC.UOP_DROPPING", 0) == BT_OK);
		CHECK(bt_counts_set_event(c, "TOPDOWN.SLOTS", 1000000) == BT_OK);
		CHECK(bt_evaluate(f.m, c, r) == BT_OK);
		bt_consistency_check(cs, c, r);
		int fb = bt_model_node_find(f.m, "Fetch_Bandwidth");
		CHECK(fb >= 0);
		if (fb >= 0)
			CHECK_NEAR(r->value[fb], 0, 0, 0); /* clamped */
		int want = k ? BT_RULE_VIOLATED : BT_RULE_HELD;
		CHECK_EQ_INT(state_of(&f, cs, BT_RULE_FRACTION, "Fetch_Bandwidth"), want);
		for (unsigned i = 0; i < f.rs->n; i++)
			if (f.rs->rules[i].kind == BT_RULE_FRACTION &&
			    !strcmp(bt_model_node(f.m, (unsigned)f.rs->rules[i].node)->name,
				    "Fetch_Bandwidth")) {
				CHECK_EQ_INT(cs->verdict[i].unclamped, 1);
				CHECK_NEAR(cs->verdict[i].lhs, (20 - fl[k]) / 100, 1e-9, 0);
			}
		if (k)
			CHECK(violation_names(&f, cs, r, "PERF_METRICS.FETCH_LATENCY"));
	}
	bt_consistency_free(cs);
	bt_result_free(r);
	bt_counts_free(c);
	close_rules(&f);
}

TEST(derivation_is_deterministic)
{
	struct fixture a, b;
	CHECK(open_rules("SPR", &a) == 0);
	CHECK(open_rules("SPR", &b) == 0);
	CHECK_EQ_INT(a.rs->n, b.rs->n);
	for (unsigned k = 0; k < BT_RULE_KIND_COUNT; k++)
		CHECK_EQ_INT(a.rs->n_kind[k], b.rs->n_kind[k]);
	close_rules(&a);
	close_rules(&b);
}

/*
 * SKL levels 1-2 for 1,000,000 cycles, SMT off (4 slots a cycle):
 * Frontend 0.2 (Fetch_Latency 0.12 + Fetch_Bandwidth 0.08), Bad_Speculation
 * 0.075, Retiring 0.5 (Heavy 0.05), Backend 0.225; IPC 1.9; the general
 * cycle counter 0.05 % off the fixed one.
 */
static const struct {
	const char *name;
	double v;
} skl_counts[] = {
	{ "CPU_CLK_UNHALTED.THREAD", 1000000 },
	{ "CPU_CLK_UNHALTED.THREAD_P", 1000500 },
	{ "INST_RETIRED.ANY", 1900000 },
	{ "IDQ_UOPS_NOT_DELIVERED.CORE", 800000 },
	{ "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", 120000 },
	{ "UOPS_ISSUED.ANY", 2200000 },
	{ "UOPS_RETIRED.RETIRE_SLOTS", 2000000 },
	{ "INT_MISC.RECOVERY_CYCLES", 25000 },
	{ "BR_MISP_RETIRED.ALL_BRANCHES", 9000 },
	{ "MACHINE_CLEARS.COUNT", 1000 },
	{ "CYCLE_ACTIVITY.STALLS_MEM_ANY", 100000 },
	{ "EXE_ACTIVITY.BOUND_ON_STORES", 10000 },
	{ "CYCLE_ACTIVITY.STALLS_TOTAL", 200000 },
	{ "EXE_ACTIVITY.1_PORTS_UTIL", 50000 },
	{ "EXE_ACTIVITY.2_PORTS_UTIL", 60000 },
	{ "UOPS_RETIRED.MACRO_FUSED", 100000 },
};

static void set_skl(struct bt_counts *c, const char *scaled)
{
	bt_counts_reset(c);
	for (unsigned i = 0; i < BT_ARRAY_SIZE(skl_counts); i++)
		CHECK(bt_counts_set_event(c, skl_counts[i].name,
					  skl_counts[i].v * (scaled && !strcmp(scaled, skl_counts[i].name)
								 ? 2 : 1)) == BT_OK);
	CHECK(bt_counts_set_constant(c, "HYPERTHREADING_ON", 0) == BT_OK);
}

/* Does some violated rule involve the event? */
static int violation_names(const struct fixture *f, const struct bt_consistency *cs,
			   const struct bt_result *r, const char *event)
{
	uint16_t *ev = malloc((bt_model_event_count(f->m) + 1) * sizeof(*ev));
	int found = 0;
	for (unsigned i = 0; ev && i < f->rs->n && !found; i++) {
		if (cs->verdict[i].state != BT_RULE_VIOLATED)
			continue;
		unsigned n = bt_rule_events(f->rs, i, r, ev);
		for (unsigned k = 0; k < n; k++)
			found |= !strcmp(bt_model_event(f->m, ev[k])->name, event);
	}
	free(ev);
	return found;
}

static int state_of(const struct fixture *f, const struct bt_consistency *cs, uint8_t kind,
		    const char *node)
{
	for (unsigned i = 0; i < f->rs->n; i++) {
		const struct bt_rule *x = &f->rs->rules[i];
		if (x->kind == kind &&
		    (!node || (x->node >= 0 && !strcmp(bt_model_node(f->m, (unsigned)x->node)->name, node))))
			return cs->verdict[i].state;
	}
	return -1;
}

TEST(consistent_counts_hold_and_a_doubled_event_is_named)
{
	struct fixture f;
	CHECK(open_rules("SKL", &f) == 0);
	if (!f.rs)
		return;
	struct bt_counts *c = bt_counts_new(f.m);
	struct bt_result *r = bt_result_new(f.m);
	struct bt_consistency *cs = bt_consistency_new(f.rs);

	set_skl(c, NULL);
	CHECK(bt_evaluate(f.m, c, r) == BT_OK);
	bt_consistency_check(cs, c, r);
	CHECK_EQ_INT(cs->n_violated, 0);
	CHECK_EQ_INT(cs->n_held + cs->n_violated + cs->n_na, f.rs->n);
	CHECK_EQ_INT(state_of(&f, cs, BT_RULE_LEVEL1_SUM, NULL), BT_RULE_HELD);
	CHECK_EQ_INT(state_of(&f, cs, BT_RULE_PARENT_SUM, "Frontend_Bound"), BT_RULE_HELD);
	CHECK_EQ_INT(state_of(&f, cs, BT_RULE_PARENT_SUM, "Bad_Speculation"), BT_RULE_HELD);
	CHECK_EQ_INT(state_of(&f, cs, BT_RULE_PARENT_SUM, "Backend_Bound"), BT_RULE_HELD);
	CHECK_EQ_INT(state_of(&f, cs, BT_RULE_PARENT_SUM, "Retiring"), BT_RULE_HELD);
	CHECK_EQ_INT(state_of(&f, cs, BT_RULE_FRACTION, "Backend_Bound"), BT_RULE_HELD);
	CHECK_EQ_INT(state_of(&f, cs, BT_RULE_IPC_WIDTH, NULL), BT_RULE_HELD);
	CHECK_EQ_INT(state_of(&f, cs, BT_RULE_FIXED_GENERAL, NULL), BT_RULE_HELD);
	/* a node deeper than the counts go cannot be checked */
	CHECK_EQ_INT(state_of(&f, cs, BT_RULE_FRACTION, "L1_Bound"), BT_RULE_NA);

	/* twice the issued uops: Backend_Bound = 1 - 0.2 - 4.5/4 < 0 */
	set_skl(c, "UOPS_ISSUED.ANY");
	CHECK(bt_evaluate(f.m, c, r) == BT_OK);
	bt_consistency_check(cs, c, r);
	CHECK(cs->n_violated > 0);
	CHECK(violation_names(&f, cs, r, "UOPS_ISSUED.ANY"));
	CHECK_EQ_INT(state_of(&f, cs, BT_RULE_FRACTION, "Backend_Bound"), BT_RULE_VIOLATED);

	/* the general cycle counter counting twice: the twins disagree */
	set_skl(c, "CPU_CLK_UNHALTED.THREAD_P");
	CHECK(bt_evaluate(f.m, c, r) == BT_OK);
	bt_consistency_check(cs, c, r);
	CHECK(violation_names(&f, cs, r, "CPU_CLK_UNHALTED.THREAD_P"));
	CHECK_EQ_INT(state_of(&f, cs, BT_RULE_FIXED_GENERAL, NULL), BT_RULE_VIOLATED);

	/* a dead cycle counter (0 cycles while 1.9 M instructions retired):
	 * every level-1 node divides by zero slots, and with every count
	 * given that is a violated level-1 sum, not "not applicable" */
	set_skl(c, NULL);
	CHECK(bt_counts_set_event(c, "CPU_CLK_UNHALTED.THREAD", 0) == BT_OK);
	CHECK(bt_evaluate(f.m, c, r) == BT_OK);
	bt_consistency_check(cs, c, r);
	CHECK_EQ_INT(state_of(&f, cs, BT_RULE_LEVEL1_SUM, NULL), BT_RULE_VIOLATED);
	for (unsigned i = 0; i < f.rs->n; i++)
		if (f.rs->rules[i].kind == BT_RULE_LEVEL1_SUM)
			CHECK_EQ_INT(cs->verdict[i].undefined, 1);
	CHECK(violation_names(&f, cs, r, "CPU_CLK_UNHALTED.THREAD"));
	/* ... and the same counts give CPI 0: 1.9 M instructions in no cycle,
	 * an infinite IPC beyond any width */
	CHECK_EQ_INT(state_of(&f, cs, BT_RULE_IPC_WIDTH, NULL), BT_RULE_VIOLATED);
	/* a dead instruction counter: CPI divides by zero with every count
	 * given, a violated IPC rule (undefined), not "not applicable" */
	set_skl(c, NULL);
	CHECK(bt_counts_set_event(c, "INST_RETIRED.ANY", 0) == BT_OK);
	CHECK(bt_evaluate(f.m, c, r) == BT_OK);
	bt_consistency_check(cs, c, r);
	CHECK_EQ_INT(state_of(&f, cs, BT_RULE_IPC_WIDTH, NULL), BT_RULE_VIOLATED);
	for (unsigned i = 0; i < f.rs->n; i++)
		if (f.rs->rules[i].kind == BT_RULE_IPC_WIDTH)
			CHECK_EQ_INT(cs->verdict[i].undefined, 1);
	/* a level-1 count not given: not applicable, as before */
	set_skl(c, NULL);
	CHECK(bt_counts_set_event(c, "CPU_CLK_UNHALTED.THREAD", 0) == BT_OK);
	CHECK(bt_counts_set_event(c, "UOPS_ISSUED.ANY", NAN) == BT_OK);
	CHECK(bt_evaluate(f.m, c, r) == BT_OK);
	bt_consistency_check(cs, c, r);
	CHECK_EQ_INT(state_of(&f, cs, BT_RULE_LEVEL1_SUM, NULL), BT_RULE_NA);

	/* twice the instructions: IPC 3.8 is still within SKL's 4 */
	set_skl(c, "INST_RETIRED.ANY");
	CHECK(bt_evaluate(f.m, c, r) == BT_OK);
	bt_consistency_check(cs, c, r);
	CHECK_EQ_INT(state_of(&f, cs, BT_RULE_IPC_WIDTH, NULL), BT_RULE_HELD);

	bt_consistency_free(cs);
	bt_result_free(r);
	bt_counts_free(c);
	close_rules(&f);
}

/*
 * A node a few percent below zero is impossible, not noise: the fraction
 * rule's tolerance is one percentage point (rules.c), so SKL's Backend_Bound
 * at -3 % (the size of the negative nodes an unmeasured retire latency used
 * to produce) is violated, naming the events of its formula, while the
 * level-1 sum (Backend_Bound is 1 - the others) still holds.
 */
TEST(a_node_slightly_below_zero_is_violated)
{
	struct fixture f;
	CHECK(open_rules("SKL", &f) == 0);
	if (!f.rs)
		return;
	struct bt_counts *c = bt_counts_new(f.m);
	struct bt_result *r = bt_result_new(f.m);
	struct bt_consistency *cs = bt_consistency_new(f.rs);

	set_skl(c, NULL);
	/* Frontend_Bound 1,820,000 / 4,000,000 = 0.455: Backend_Bound = 1 - 0.455
	 * - 0.075 - 0.5 = -0.03 */
	CHECK(bt_counts_set_event(c, "IDQ_UOPS_NOT_DELIVERED.CORE", 1820000) == BT_OK);
	CHECK(bt_evaluate(f.m, c, r) == BT_OK);
	bt_consistency_check(cs, c, r);
	int backend = bt_model_node_find(f.m, "Backend_Bound");
	CHECK(backend >= 0 && fabs(r->value[backend] + 0.03) < 1e-12);
	CHECK_EQ_INT(state_of(&f, cs, BT_RULE_FRACTION, "Backend_Bound"), BT_RULE_VIOLATED);
	CHECK_EQ_INT(state_of(&f, cs, BT_RULE_LEVEL1_SUM, NULL), BT_RULE_HELD);
	CHECK(violation_names(&f, cs, r, "IDQ_UOPS_NOT_DELIVERED.CORE"));
	for (unsigned i = 0; i < f.rs->n; i++)
		if (f.rs->rules[i].kind == BT_RULE_FRACTION)
			CHECK(f.rs->rules[i].tol_abs <= 0.01);
	/* within the tolerance (-0.5 %): held */
	CHECK(bt_counts_set_event(c, "IDQ_UOPS_NOT_DELIVERED.CORE", 1720000) == BT_OK);
	CHECK(bt_evaluate(f.m, c, r) == BT_OK);
	bt_consistency_check(cs, c, r);
	CHECK(fabs(r->value[backend] + 0.005) < 1e-12);
	CHECK_EQ_INT(state_of(&f, cs, BT_RULE_FRACTION, "Backend_Bound"), BT_RULE_HELD);

	bt_consistency_free(cs);
	bt_result_free(r);
	bt_counts_free(c);
	close_rules(&f);
}

/*
 * What a violated rule points at (bt_rule_suspects). A share below 0 has a
 * numerator below 0: a positive divisor cannot give it its sign, so the
 * events of the numerator are the suspects and the divisor's (the cycles
 * every node divides by) are not; through a clamp against a literal and a
 * product with 100. A share above 1 can come from a numerator too large
 * or a divisor too small: every event of the rule.
 */
TEST(a_share_below_zero_points_at_its_numerator)
{
	static const struct bt_event ev[] = {
		{ .name = "A", .fixed = -1 }, { .name = "B", .fixed = -1 }, { .name = "C", .fixed = -1 },
	};
	static const struct bt_node_def nodes[] = {
		{ .name = "Diff", .kind = BT_NODE_TREE, .level = 1, .formula = "(A - B) / C",
		  .threshold = "1" },
		{ .name = "Pct", .kind = BT_NODE_TREE, .level = 1, .percent = 1,
		  .formula = "100 * max(0, A - B) / C", .threshold = "1" },
		{ .name = "Plain", .kind = BT_NODE_TREE, .level = 1, .formula = "B / C",
		  .threshold = "1" },
	};
	struct bt_model_def def = { .id = "T", .n_nodes = 3, .nodes = nodes, .n_events = 3,
				    .events = ev };
	struct bt_diag d = { "" };
	struct bt_model *m = NULL;
	struct bt_rule_set *rs = NULL;
	CHECK(bt_model_open(&def, &m, &d) == BT_OK);
	if (!m)
		return;
	CHECK(bt_rules_derive(m, &rs, &d) == BT_OK);
	if (!rs) {
		bt_model_close(m);
		return;
	}
	struct bt_counts *c = bt_counts_new(m);
	struct bt_result *r = bt_result_new(m);
	struct bt_consistency *cs = bt_consistency_new(rs);
	uint16_t sus[4];
	int diff = -1, pct = -1, plain = -1;
	for (unsigned i = 0; i < rs->n; i++) {
		if (rs->rules[i].kind != BT_RULE_FRACTION)
			continue;
		const char *name = bt_model_node(m, (unsigned)rs->rules[i].node)->name;
		*(strcmp(name, "Diff") == 0 ? &diff : strcmp(name, "Pct") == 0 ? &pct : &plain) = (int)i;
	}
	CHECK(diff >= 0 && pct >= 0 && plain >= 0);
	/* (100 - 300) / 1000 = -0.2: below 0, A and B, not C */
	bt_counts_set_event(c, "A", 100);
	bt_counts_set_event(c, "B", 300);
	bt_counts_set_event(c, "C", 1000);
	CHECK(bt_evaluate(m, c, r) == BT_OK);
	bt_consistency_check(cs, c, r);
	CHECK_EQ_INT(cs->verdict[diff].state, BT_RULE_VIOLATED);
	CHECK_EQ_INT(bt_rule_suspects(rs, (unsigned)diff, cs, c, r, sus), 2);
	CHECK_STR(bt_model_event(m, sus[0])->name, "A");
	CHECK_STR(bt_model_event(m, sus[1])->name, "B");
	/* the clamp hid -20 % (a level-1 node is judged unclamped): the same two */
	CHECK_EQ_INT(cs->verdict[pct].state, BT_RULE_VIOLATED);
	CHECK_EQ_INT(bt_rule_suspects(rs, (unsigned)pct, cs, c, r, sus), 2);
	CHECK_STR(bt_model_event(m, sus[0])->name, "A");
	CHECK_STR(bt_model_event(m, sus[1])->name, "B");
	/* a rule that held points at nothing */
	CHECK_EQ_INT(cs->verdict[plain].state, BT_RULE_HELD);
	CHECK_EQ_INT(bt_rule_suspects(rs, (unsigned)plain, cs, c, r, sus), 0);
	/* (3000 - 0) / 1000 = 3: above 1, every event, the divisor too */
	bt_counts_set_event(c, "A", 3000);
	bt_counts_set_event(c, "B", 0);
	CHECK(bt_evaluate(m, c, r) == BT_OK);
	bt_consistency_check(cs, c, r);
	CHECK_EQ_INT(cs->verdict[diff].state, BT_RULE_VIOLATED);
	CHECK_EQ_INT(bt_rule_suspects(rs, (unsigned)diff, cs, c, r, sus), 3);
	CHECK_STR(bt_model_event(m, sus[2])->name, "C");
	bt_consistency_free(cs);
	bt_result_free(r);
	bt_counts_free(c);
	bt_rules_free(rs);
	bt_model_close(m);
}

/* A rule violated because it is undefined (a division by zero with every
 * count given) points at the events that counted 0: a dead instruction
 * counter (SKL, INST_RETIRED.ANY 0 over 1 M cycles) at INST_RETIRED.ANY,
 * not at the cycles CPI also reads; a dead cycle counter at the cycles. */
TEST(an_undefined_rule_points_at_the_count_of_zero)
{
	struct fixture f;
	CHECK(open_rules("SKL", &f) == 0);
	if (!f.rs)
		return;
	struct bt_counts *c = bt_counts_new(f.m);
	struct bt_result *r = bt_result_new(f.m);
	struct bt_consistency *cs = bt_consistency_new(f.rs);
	uint16_t *sus = malloc((bt_model_event_count(f.m) + 1) * sizeof(*sus));
	int ipc = -1, l1 = -1;
	for (unsigned i = 0; i < f.rs->n; i++) {
		if (f.rs->rules[i].kind == BT_RULE_IPC_WIDTH)
			ipc = (int)i;
		if (f.rs->rules[i].kind == BT_RULE_LEVEL1_SUM)
			l1 = (int)i;
	}
	CHECK(ipc >= 0 && l1 >= 0 && sus);
	set_skl(c, NULL);
	CHECK(bt_counts_set_event(c, "INST_RETIRED.ANY", 0) == BT_OK);
	CHECK(bt_evaluate(f.m, c, r) == BT_OK);
	bt_consistency_check(cs, c, r);
	CHECK_EQ_INT(cs->verdict[ipc].state, BT_RULE_VIOLATED);
	CHECK_EQ_INT(bt_rule_suspects(f.rs, (unsigned)ipc, cs, c, r, sus), 1);
	CHECK_STR(bt_model_event(f.m, sus[0])->name, "INST_RETIRED.ANY");
	set_skl(c, NULL);
	CHECK(bt_counts_set_event(c, "CPU_CLK_UNHALTED.THREAD", 0) == BT_OK);
	CHECK(bt_evaluate(f.m, c, r) == BT_OK);
	bt_consistency_check(cs, c, r);
	CHECK_EQ_INT(cs->verdict[l1].state, BT_RULE_VIOLATED);
	CHECK_EQ_INT(bt_rule_suspects(f.rs, (unsigned)l1, cs, c, r, sus), 1);
	CHECK_STR(bt_model_event(f.m, sus[0])->name, "CPU_CLK_UNHALTED.THREAD");
	free(sus);
	bt_consistency_free(cs);
	bt_result_free(r);
	bt_counts_free(c);
	close_rules(&f);
}

/*
 * SPR's TOPDOWN.SLOTS at 0 while the PERF_METRICS fields (shares of those
 * slots, SDM vol. 3B 21.3.9.3) and the cycles are not: no core counts that
 * (RDPMC reading a general counter for fixed counter 3 does). The slots
 * rule is violated and points at the slots and the fields, so every level-1
 * node (each reads the fields) is untrusted and off the path; with the
 * slots counted it holds, and with nothing counted at all too (a workload
 * that did not run).
 */
TEST(slots_at_zero_while_the_core_ran_untrusts_level_1)
{
	struct fixture f;
	CHECK(open_rules("SPR", &f) == 0);
	if (!f.rs)
		return;
	CHECK_EQ_INT(f.rs->n_kind[BT_RULE_SLOTS_COUNTED], 1);
	struct bt_counts *c = bt_counts_new(f.m);
	struct bt_result *r = bt_result_new(f.m);
	struct bt_consistency *cs = bt_consistency_new(f.rs);
	struct bt_untrust *u = calloc(bt_model_node_count(f.m) + 1, sizeof(*u));
	uint16_t *sus = malloc((bt_model_event_count(f.m) + 1) * sizeof(*sus));
	CHECK(c && r && cs && u && sus);
	if (!c || !r || !cs || !u || !sus)
		goto out;
	/* 1,000,000 cycles of 6 slots: level 1 30/10/40/20 % in the fields */
	static const struct {
		const char *name;
		double v;
	} k[] = { { "TOPDOWN.SLOTS", 0 }, { "CPU_CLK_UNHALTED.THREAD", 1e6 }, { "INST_RETIRED.ANY", 1.5e6 },
		  { "PERF_METRICS.FRONTEND_BOUND", 1.8e6 }, { "PERF_METRICS.BAD_SPECULATION", 0.6e6 },
		  { "PERF_METRICS.BACKEND_BOUND", 2.4e6 }, { "PERF_METRICS.RETIRING", 1.2e6 },
		  { "INT_MISC.UOP_DROPPING", 0 } };
	for (int pass = 0; pass < 3; pass++) {
		bt_counts_reset(c);
		for (unsigned i = 0; i < BT_ARRAY_SIZE(k); i++)
			bt_counts_set_event(c, k[i].name, pass == 1 && i == 0 ? 6e6 : pass == 2 ? 0 : k[i].v);
		bt_counts_set_constant(c, "HYPERTHREADING_ON", 0);
		memset(r->exclude, 0, bt_model_node_count(f.m));
		memset(u, 0, (bt_model_node_count(f.m) + 1) * sizeof(*u));
		CHECK(bt_evaluate(f.m, c, r) == BT_OK);
		bt_consistency_check(cs, c, r);
		int st = state_of(&f, cs, BT_RULE_SLOTS_COUNTED, NULL);
		CHECK_EQ_INT(st, pass == 0 ? BT_RULE_VIOLATED : BT_RULE_HELD);
		if (pass)
			continue;
		unsigned marked = bt_rules_untrust(cs, c, r, c->constants, NULL, u, NULL);
		CHECK(marked >= 4);
		for (unsigned i = 0; level1[i]; i++) {
			int n = bt_model_node_find(f.m, level1[i]);
			CHECK_MSG(n >= 0 && !strcmp(u[n].verdict, "RULE") && (r->exclude[n] & BT_EXCLUDE_UNTRUSTED),
				  "%s not untrusted", level1[i]);
		}
		/* the path, taken again, goes through none of them */
		CHECK(bt_evaluate(f.m, c, r) == BT_OK);
		CHECK_EQ_INT(r->path_len, 0);
		/* the slots are named first, not the cycles that counted */
		int fb = bt_model_node_find(f.m, "Frontend_Bound");
		CHECK(fb >= 0 && !strcmp(u[fb].event, "TOPDOWN.SLOTS"));
		for (unsigned i = 0; i < f.rs->n; i++)
			if (f.rs->rules[i].kind == BT_RULE_SLOTS_COUNTED) {
				unsigned n = bt_rule_suspects(f.rs, i, cs, c, r, sus);
				for (unsigned e = 0; e < n; e++)
					CHECK(strcmp(bt_model_event(f.m, sus[e])->name, "CPU_CLK_UNHALTED.THREAD"));
			}
	}
out:
	free(sus);
	free(u);
	bt_consistency_free(cs);
	bt_result_free(r);
	bt_counts_free(c);
	close_rules(&f);
}
