/* SPDX-License-Identifier: MIT */
/*
 * Evaluation semantics on small hand-made models: thresholds with invalid
 * values, missing inputs, the bottleneck path, the CPI stack, Python's exact
 * integer arithmetic, retire latencies, and event collection for the planner.
 */
#include <math.h>

#include "metrics/builtin.h"
#include "base/array.h"
#include "metrics/model.h"
#include "tests/unit/lib/test.h"

static const struct bt_event ev_abcz[] = {
	{ .name = "A", .fixed = -1 }, { .name = "B", .fixed = -1 },
	{ .name = "C", .fixed = -1 }, { .name = "Z", .fixed = -1 },
};

struct fixture {
	struct bt_model *m;
	struct bt_counts *c;
	struct bt_result *r;
};

static int setup(struct fixture *f, const struct bt_model_def *def)
{
	struct bt_diag d = { "" };
	if (bt_model_open(def, &f->m, &d) != BT_OK) {
		printf("# open: %s\n", d.text);
		return 0;
	}
	f->c = bt_counts_new(f->m);
	f->r = bt_result_new(f->m);
	return f->c && f->r;
}

static void teardown(struct fixture *f)
{
	bt_result_free(f->r);
	bt_counts_free(f->c);
	bt_model_close(f->m);
}

static int node(struct fixture *f, const char *name)
{
	return bt_model_node_find(f->m, name);
}

TEST(thresholds_follow_the_vendor_rules)
{
	static const struct bt_node_def nodes[] = {
		{ .name = "Top", .kind = BT_NODE_TREE, .level = 1, .percent = 1,
		  .formula = "100 * A / B", .threshold = "$Top > 20" },
		{ .name = "Bad", .kind = BT_NODE_TREE, .level = 2, .parent = "Top", .percent = 1,
		  .formula = "100 * A / Z", .threshold = "1 > 0" },
		/* names an invalid node: that comparison is false, the rest decides */
		{ .name = "Kid", .kind = BT_NODE_TREE, .level = 2, .parent = "Top", .percent = 1,
		  .formula = "100 * C / B", .threshold = "$Kid > 5 and ($Bad < 1 or $Top > 20)" },
		{ .name = "Kid2", .kind = BT_NODE_TREE, .level = 2, .parent = "Top", .percent = 1,
		  .formula = "100 * C / B", .threshold = "$Kid2 > 5 and $Bad < 1" },
		{ .name = "Neg", .kind = BT_NODE_INFO, .formula = "A / Z", .threshold = "not $Neg > 1" },
	};
	struct bt_model_def def = { .id = "T", .n_nodes = 5, .nodes = nodes, .n_events = 4,
				    .events = ev_abcz };
	struct fixture f;
	CHECK(setup(&f, &def));
	bt_counts_set_event(f.c, "A", 30);
	bt_counts_set_event(f.c, "B", 100);
	bt_counts_set_event(f.c, "C", 10);
	bt_counts_set_event(f.c, "Z", 0);
	bt_evaluate(f.m, f.c, f.r);
	CHECK_NEAR(f.r->value[node(&f, "Top")], 0.3, 1e-15, 0); /* percent formulas report fractions */
	CHECK_NEAR(f.r->raw[node(&f, "Top")], 30, 1e-15, 0);
	CHECK(f.r->flag[node(&f, "Top")]);
	CHECK(isnan(f.r->value[node(&f, "Bad")]) && f.r->state[node(&f, "Bad")] == BT_NODE_INVALID);
	CHECK(!f.r->flag[node(&f, "Bad")]);                     /* invalid node: flag false */
	CHECK(f.r->flag[node(&f, "Kid")]);
	CHECK(!f.r->flag[node(&f, "Kid2")]);
	CHECK(!f.r->flag[node(&f, "Neg")]);
	teardown(&f);
}

TEST(missing_counts_are_reported_per_node)
{
	static const struct bt_node_def nodes[] = {
		{ .name = "UsesA", .kind = BT_NODE_TREE, .level = 1, .formula = "A / B" },
		{ .name = "UsesC", .kind = BT_NODE_TREE, .level = 1, .formula = "C / B" },
		{ .name = "Div0", .kind = BT_NODE_TREE, .level = 1, .formula = "A / Z" },
		/* C only on the branch not taken: computable */
		{ .name = "Branch", .kind = BT_NODE_TREE, .level = 1,
		  .formula = "C if #HYPERTHREADING_ON else A" },
	};
	struct bt_model_def def = { .id = "T", .n_nodes = 4, .nodes = nodes, .n_events = 4,
				    .events = ev_abcz };
	struct fixture f;
	CHECK(setup(&f, &def));
	bt_counts_set_event(f.c, "A", 3);
	bt_counts_set_event(f.c, "B", 4);
	bt_counts_set_event(f.c, "Z", 0);
	bt_counts_set_constant(f.c, "HYPERTHREADING_ON", 0);
	bt_evaluate(f.m, f.c, f.r);
	CHECK_NEAR(f.r->value[node(&f, "UsesA")], 0.75, 0, 0);
	CHECK(f.r->state[node(&f, "UsesC")] == BT_NODE_MISSING);
	CHECK(f.r->state[node(&f, "Div0")] == BT_NODE_INVALID);
	CHECK(f.r->state[node(&f, "Branch")] == BT_NODE_OK);
	CHECK_NEAR(f.r->value[node(&f, "Branch")], 3, 0, 0);
	CHECK_EQ_INT(f.r->n_missing_events, 1);
	CHECK_STR(bt_model_event(f.m, f.r->missing_events[0])->name, "C");
	/* a missing constant is reported too */
	bt_counts_reset(f.c);
	bt_counts_set_event(f.c, "A", 3);
	bt_counts_set_event(f.c, "B", 4);
	bt_counts_set_event(f.c, "C", 1);
	bt_counts_set_event(f.c, "Z", 0);
	bt_evaluate(f.m, f.c, f.r);
	CHECK(f.r->state[node(&f, "Branch")] == BT_NODE_MISSING);
	CHECK(f.r->missing_constants == 1u << BT_C_HYPERTHREADING_ON);
	teardown(&f);
}

TEST(bottleneck_path_and_cpi_stack)
{
	static const struct bt_node_def nodes[] = {
		{ .name = "X", .kind = BT_NODE_TREE, .level = 1, .formula = "0.3", .threshold = "1" },
		{ .name = "Y", .kind = BT_NODE_TREE, .level = 1, .formula = "0.5", .threshold = "1" },
		{ .name = "Zz", .kind = BT_NODE_TREE, .level = 1, .formula = "0.9", .threshold = "0" },
		{ .name = "Y1", .kind = BT_NODE_TREE, .level = 2, .parent = "Y", .formula = "0.2",
		  .threshold = "1" },
		{ .name = "Y2", .kind = BT_NODE_TREE, .level = 2, .parent = "Y", .formula = "0.3",
		  .threshold = "0" },
		{ .name = "Zz1", .kind = BT_NODE_TREE, .level = 2, .parent = "Zz", .formula = "0.9",
		  .threshold = "1" },
		{ .name = "CPI", .kind = BT_NODE_HELPER, .formula = "A / B" },
	};
	struct bt_model_def def = { .id = "T", .n_nodes = 7, .nodes = nodes, .n_events = 4,
				    .events = ev_abcz, .cpi_node = "CPI" };
	struct fixture f;
	CHECK(setup(&f, &def));
	bt_counts_set_event(f.c, "A", 3);
	bt_counts_set_event(f.c, "B", 2);
	bt_evaluate(f.m, f.c, f.r);
	/* flagged nodes only, the largest flagged child at each level */
	CHECK_EQ_INT(f.r->path_len, 2);
	CHECK_STR(bt_model_node(f.m, f.r->path[0])->name, "Y");
	CHECK_STR(bt_model_node(f.m, f.r->path[1])->name, "Y1");
	CHECK_NEAR(f.r->cpi, 1.5, 0, 0);
	/* Level 1: value x CPI, flagged or not (a stack has every component). */
	CHECK_NEAR(f.r->cpi_share[node(&f, "Y")], 0.75, 1e-15, 0);
	CHECK_NEAR(f.r->cpi_share[node(&f, "X")], 0.45, 1e-15, 0);
	CHECK_NEAR(f.r->cpi_share[node(&f, "Zz")], 1.35, 1e-15, 0);
	/* Below: the parent's share split by the children's values (0.2 : 0.3
	 * of Y's 0.75), adding up to it; an only child takes all of it, even
	 * where its own value x CPI would be another figure. */
	CHECK_NEAR(f.r->cpi_share[node(&f, "Y1")], 0.3, 1e-15, 0);
	CHECK_NEAR(f.r->cpi_share[node(&f, "Y2")], 0.45, 1e-15, 0);
	CHECK_NEAR(f.r->cpi_share[node(&f, "Zz1")], 1.35, 1e-15, 0);
	teardown(&f);
}

/* --bring-up's input: an excluded node (its formula reads an event that
 * failed validation) keeps its value and flag but is never on the path;
 * the path takes the largest trusted flagged node instead, or stops. Which
 * events make a node's number: its value formula only, not its threshold. */
TEST(excluded_nodes_stay_off_the_bottleneck_path)
{
	static const struct bt_node_def nodes[] = {
		{ .name = "X", .kind = BT_NODE_TREE, .level = 1, .formula = "A / B", .threshold = "1" },
		{ .name = "Y", .kind = BT_NODE_TREE, .level = 1, .formula = "C / B",
		  .threshold = "$Y > 0.1" },
		{ .name = "Y1", .kind = BT_NODE_TREE, .level = 2, .parent = "Y", .formula = "0.2",
		  .threshold = "$Y > 0.1" },
	};
	struct bt_model_def def = { .id = "T", .n_nodes = 3, .nodes = nodes, .n_events = 4,
				    .events = ev_abcz };
	struct fixture f;
	uint16_t ev[4];
	unsigned n = 0;
	CHECK(setup(&f, &def));
	bt_counts_set_event(f.c, "A", 1);
	bt_counts_set_event(f.c, "B", 4);
	bt_counts_set_event(f.c, "C", 2);
	bt_evaluate(f.m, f.c, f.r);
	CHECK_EQ_INT(f.r->path_len, 2); /* Y (0.5) > X (0.25), then Y1 */
	CHECK_STR(bt_model_node(f.m, f.r->path[0])->name, "Y");
	f.r->exclude[node(&f, "Y")] = 1;
	bt_evaluate(f.m, f.c, f.r);
	CHECK_NEAR(f.r->value[node(&f, "Y")], 0.5, 0, 0);
	CHECK(f.r->flag[node(&f, "Y")]);
	CHECK_EQ_INT(f.r->path_len, 1);
	CHECK_STR(bt_model_node(f.m, f.r->path[0])->name, "X");
	f.r->exclude[node(&f, "X")] = 1;
	bt_evaluate(f.m, f.c, f.r);
	CHECK_EQ_INT(f.r->path_len, 0);
	/* Y1's value reads no event; its threshold reads C through $Y */
	CHECK(bt_model_node_value_events(f.m, (unsigned)node(&f, "Y1"), NULL, ev, &n) == BT_OK);
	CHECK_EQ_INT(n, 0);
	CHECK(bt_model_node_value_events(f.m, (unsigned)node(&f, "Y"), NULL, ev, &n) == BT_OK);
	CHECK_EQ_INT(n, 2);
	CHECK_STR(bt_model_event(f.m, ev[0])->name, "B");
	CHECK_STR(bt_model_event(f.m, ev[1])->name, "C");
	teardown(&f);
}

TEST(integer_arithmetic_is_exact_like_python)
{
	/* Expected values from Python 3 (counts are ints there):
	 *   A=2**48-1, B=2**48-3
	 *   (34*(A+B) - 34*(A+B-1)) / 7   -> 4.857142857142857 (doubles: 4.5714...)
	 *   A*(A-4) / (A-1)               -> 281474976710652.0
	 *   34*(A+B) / 3                  -> 6380099472108157.0 */
	static const struct bt_node_def nodes[] = {
		{ .name = "Cancel", .kind = BT_NODE_INFO, .formula = "(34 * (A + B) - 34 * (A + B - 1)) / 7" },
		{ .name = "Prod", .kind = BT_NODE_INFO, .formula = "A * (A - 4) / (A - 1)" },
		{ .name = "Big", .kind = BT_NODE_INFO, .formula = "34 * (A + B) / 3" },
		/* a float literal makes it float arithmetic, as in Python */
		{ .name = "Float", .kind = BT_NODE_INFO, .formula = "(34.0 * (A + B) - 34 * (A + B - 1)) / 7" },
	};
	struct bt_model_def def = { .id = "T", .n_nodes = 4, .nodes = nodes, .n_events = 4,
				    .events = ev_abcz };
	struct fixture f;
	CHECK(setup(&f, &def));
	bt_counts_set_event(f.c, "A", 281474976710655.0);
	bt_counts_set_event(f.c, "B", 281474976710653.0);
	bt_evaluate(f.m, f.c, f.r);
	CHECK(f.r->exact_int);
	CHECK(f.r->value[node(&f, "Cancel")] == 4.857142857142857);
	CHECK(f.r->value[node(&f, "Prod")] == 281474976710652.0);
	CHECK(f.r->value[node(&f, "Big")] == 6380099472108157.0);
	/* Python: (34.0*(A+B) - 34*(A+B-1)) / 7 = 4.571428571428571 */
	CHECK(f.r->value[node(&f, "Float")] == 4.571428571428571);
	/* small counts stay on the plain double path */
	bt_counts_set_event(f.c, "A", 1000);
	bt_counts_set_event(f.c, "B", 10);
	bt_evaluate(f.m, f.c, f.r);
	CHECK(!f.r->exact_int);
	CHECK(f.r->value[node(&f, "Cancel")] == 34.0 / 7);
	teardown(&f);
}

TEST(retire_latency_defaults)
{
	const struct bt_model_def *def = bt_builtin_find("GNR");
	struct fixture f;
	CHECK(def && setup(&f, def));
	CHECK(bt_model_retire_latency_count(f.m) > 0);
	/* not measured: -1, the vendor formulas' "not measured" value */
	unsigned i;
	for (i = 0; i < bt_model_retire_latency_count(f.m); i++)
		if (!strcmp(bt_model_retire_latency_name(f.m, i), "MEM_LOAD_RETIRED.L3_HIT"))
			break;
	CHECK(i < bt_model_retire_latency_count(f.m));
	CHECK_NEAR(f.c->retire_latency[i], -1, 0, 0);
	unsigned n = bt_counts_use_default_retire_latencies(f.c);
	CHECK(n > 0);
	/* graniterapids_retire_latency.json: MEM_LOAD_RETIRED.L3_HIT MEAN 57.64 */
	CHECK_NEAR(f.c->retire_latency[i], 57.64, 1e-12, 0);
	CHECK(f.c->retire_latency_default[i]);
	/* a measured value is kept */
	bt_counts_set_retire_latency(f.c, "MEM_LOAD_RETIRED.L3_HIT", 50);
	CHECK(bt_counts_use_default_retire_latencies(f.c) == 0);
	CHECK_NEAR(f.c->retire_latency[i], 50, 0, 0);
	teardown(&f);
}

static int has_event(struct bt_model *m, const uint16_t *ev, unsigned n, const char *name)
{
	for (unsigned k = 0; k < n; k++)
		if (!strcmp(bt_model_event(m, ev[k])->name, name))
			return 1;
	return 0;
}

/*
 * A latency not measured (-1): a formula that tests it ("X if rl >= 0 else
 * default", the vendor fallback) takes its default branch and has a value; a
 * formula that multiplies by it without a test is "not measured (no retire
 * latency)": no value, no flag, the formula's number kept in raw, and the
 * latency named. Measured, every node has its value.
 */
TEST(unmeasured_retire_latency_is_not_a_value)
{
	static const struct bt_node_def nodes[] = {
		{ .name = "Top", .kind = BT_NODE_TREE, .level = 1, .formula = "A / B",
		  .threshold = "$Top > 0.1" },
		/* LNL's Ret_Mispredicts shape: a * b / c, no fallback */
		{ .name = "NoFb", .kind = BT_NODE_TREE, .level = 2, .parent = "Top",
		  .formula = "C * retire_latency(C) / B", .threshold = "1 > 0" },
		/* LNL's Contested_Accesses shape: min(a * b, a * 7) if b >= 0 else a * 7 */
		{ .name = "Fb", .kind = BT_NODE_TREE, .level = 2, .parent = "Top",
		  .formula = "min(C * retire_latency(C), C * 7) if retire_latency(C) >= 0 else C * 7",
		  .threshold = "1 > 0" },
		/* the latency only in the condition of a branch not using it */
		{ .name = "Cond", .kind = BT_NODE_TREE, .level = 2, .parent = "Top",
		  .formula = "A / B if retire_latency(Z) > 3 else C / B" },
		/* two latencies, one with a fallback */
		{ .name = "Two", .kind = BT_NODE_TREE, .level = 2, .parent = "Top",
		  .formula = "(A * retire_latency(A) + (C * retire_latency(C) if retire_latency(C) >= 0 else C)) / B" },
		/* a count times its latency: 0 when the event did not occur */
		{ .name = "ZeroCount", .kind = BT_NODE_TREE, .level = 2, .parent = "Top",
		  .formula = "Z * retire_latency(Z) / B" },
	};
	struct bt_model_def def = { .id = "T", .n_nodes = 6, .nodes = nodes, .n_events = 4,
				    .events = ev_abcz };
	struct fixture f;
	CHECK(setup(&f, &def));
	bt_counts_set_event(f.c, "A", 30);
	bt_counts_set_event(f.c, "B", 1000);
	bt_counts_set_event(f.c, "C", 10);
	bt_counts_set_event(f.c, "Z", 5);
	bt_evaluate(f.m, f.c, f.r);
	int nofb = node(&f, "NoFb"), fb = node(&f, "Fb"), cond = node(&f, "Cond"), two = node(&f, "Two");
	CHECK_EQ_INT(f.r->state[nofb], BT_NODE_NO_RETIRE_LATENCY);
	CHECK(isnan(f.r->value[nofb]));
	CHECK_EQ_INT(f.r->flag[nofb], 0);
	CHECK_EQ_INT(f.r->formula_flag[nofb], 1);
	CHECK_NEAR(f.r->raw[nofb], 10 * -1.0 / 1000, 1e-15, 0); /* what perf would print */
	uint16_t rl[8];
	CHECK_EQ_INT(bt_result_node_latencies(f.r, (unsigned)nofb, rl), 1);
	CHECK_STR(bt_model_retire_latency_name(f.m, rl[0]), "C");
	CHECK_EQ_INT(f.r->state[fb], BT_NODE_OK);
	CHECK_NEAR(f.r->value[fb], 70, 0, 0);
	CHECK_EQ_INT(bt_result_node_latencies(f.r, (unsigned)fb, rl), 0);
	/* Z's latency not measured: -1 > 3 is false, the else branch has none */
	CHECK_EQ_INT(f.r->state[cond], BT_NODE_OK);
	CHECK_NEAR(f.r->value[cond], 0.01, 1e-15, 0);
	CHECK_EQ_INT(f.r->state[two], BT_NODE_NO_RETIRE_LATENCY);
	CHECK_EQ_INT(bt_result_node_latencies(f.r, (unsigned)two, rl), 1);
	CHECK_STR(bt_model_retire_latency_name(f.m, rl[0]), "A");
	CHECK_EQ_INT(f.r->state[node(&f, "Top")], BT_NODE_OK);
	/* Z = 5 with its latency not measured: not measured; Z = 0: 0 whatever
	 * the latency (no event, no latency needed) */
	CHECK_EQ_INT(f.r->state[node(&f, "ZeroCount")], BT_NODE_NO_RETIRE_LATENCY);
	bt_counts_set_event(f.c, "Z", 0);
	bt_evaluate(f.m, f.c, f.r);
	CHECK_EQ_INT(f.r->state[node(&f, "ZeroCount")], BT_NODE_OK);
	CHECK(f.r->value[node(&f, "ZeroCount")] == 0);
	bt_counts_set_event(f.c, "Z", 5);
	/* measured: values */
	bt_counts_set_retire_latency(f.c, "A", 2);
	bt_counts_set_retire_latency(f.c, "C", 4);
	bt_evaluate(f.m, f.c, f.r);
	CHECK_EQ_INT(f.r->state[nofb], BT_NODE_OK);
	CHECK_NEAR(f.r->value[nofb], 0.04, 1e-15, 0);
	CHECK_NEAR(f.r->value[fb], 40, 0, 0);
	CHECK_NEAR(f.r->value[two], 0.1, 1e-15, 0);
	CHECK_EQ_INT(f.r->flag[nofb], 1);
	/* a missing count wins over a missing latency: it has no number at all */
	bt_counts_reset(f.c);
	bt_counts_set_event(f.c, "A", 30);
	bt_counts_set_event(f.c, "B", 1000);
	bt_evaluate(f.m, f.c, f.r);
	CHECK_EQ_INT(f.r->state[nofb], BT_NODE_MISSING);
	teardown(&f);
}

TEST(events_for_the_planner)
{
	struct fixture f;
	CHECK(setup(&f, bt_builtin_find("SKL")));
	uint16_t ev[512];
	unsigned n;
	double consts[BT_CONST_COUNT];
	for (int k = 0; k < BT_CONST_COUNT; k++)
		consts[k] = NAN;
	/* SKL level 1: slots are 4 * CPU_CLK_UNHALTED.THREAD, or THREAD_ANY / 2 with SMT */
	consts[BT_C_HYPERTHREADING_ON] = 0;
	CHECK(bt_model_events_up_to_level(f.m, 1, consts, ev, &n) == BT_OK);
	CHECK(has_event(f.m, ev, n, "CPU_CLK_UNHALTED.THREAD"));
	CHECK(!has_event(f.m, ev, n, "CPU_CLK_UNHALTED.THREAD_ANY"));
	CHECK(has_event(f.m, ev, n, "IDQ_UOPS_NOT_DELIVERED.CORE"));
	unsigned n_off = n;
	consts[BT_C_HYPERTHREADING_ON] = 1;
	CHECK(bt_model_events_up_to_level(f.m, 1, consts, ev, &n) == BT_OK);
	CHECK(has_event(f.m, ev, n, "CPU_CLK_UNHALTED.THREAD_ANY"));
	/* unknown constants: both branches */
	CHECK(bt_model_events_up_to_level(f.m, 1, NULL, ev, &n) == BT_OK);
	CHECK(n > n_off);
	/* sorted and unique */
	for (unsigned k = 1; k < n; k++)
		CHECK(ev[k - 1] < ev[k]);
	/* drill-down: one node's events only */
	unsigned idx = (unsigned)bt_model_node_find(f.m, "Divider");
	CHECK(bt_model_events_for_nodes(f.m, &idx, 1, consts, ev, &n) == BT_OK);
	CHECK(has_event(f.m, ev, n, "ARITH.DIVIDER_ACTIVE"));
	CHECK(!has_event(f.m, ev, n, "ICACHE_16B.IFDATA_STALL"));
	teardown(&f);
}

TEST(compile_errors_name_model_and_node)
{
	static const struct bt_node_def nodes[] = {
		{ .name = "Ok", .kind = BT_NODE_TREE, .level = 1, .formula = "A / B" },
		{ .name = "Broken", .kind = BT_NODE_TREE, .level = 1, .formula = "A / NO_SUCH.EVENT" },
	};
	struct bt_model_def def = { .id = "T", .n_nodes = 2, .nodes = nodes, .n_events = 4,
				    .events = ev_abcz };
	struct bt_model *m;
	struct bt_diag d = { "" };
	CHECK(bt_model_open(&def, &m, &d) == BT_ERR_NOT_FOUND);
	CHECK_STR(d.text, "model T: node Broken: event NO_SUCH.EVENT is not in the model's event table");
	static const struct bt_node_def cyc[] = {
		{ .name = "P", .kind = BT_NODE_INFO, .formula = "$Q + 1" },
		{ .name = "Q", .kind = BT_NODE_INFO, .formula = "$P + 1" },
	};
	struct bt_model_def def2 = { .id = "T", .n_nodes = 2, .nodes = cyc, .n_events = 4,
				     .events = ev_abcz };
	CHECK(bt_model_open(&def2, &m, &d) == BT_ERR_INVALID);
	CHECK(strstr(d.text, "refers to itself") != NULL);
	static const struct bt_node_def orphan[] = {
		{ .name = "K", .kind = BT_NODE_TREE, .level = 2, .parent = "Nobody", .formula = "A" },
	};
	struct bt_model_def def3 = { .id = "T", .n_nodes = 1, .nodes = orphan, .n_events = 4,
				     .events = ev_abcz };
	CHECK(bt_model_open(&def3, &m, &d) == BT_ERR_INVALID);
	CHECK_STR(d.text, "model T: node K: parent Nobody is not a tree node");
}

/*
 * The path and the CPI stack stop where measurement stopped: a node the run
 * did not measure (BT_EXCLUDE_NOT_MEASURED: drill-down, --level N) is never
 * on the path, even flagged with a value from events counted for others,
 * and its parent's stack is not split (all children or none), so no node
 * below gets a share; an untrusted one stays off the path but keeps its
 * share (it was measured).
 */
TEST(not_measured_nodes_stop_the_path_and_the_stack)
{
	static const struct bt_node_def nodes[] = {
		{ .name = "Y", .kind = BT_NODE_TREE, .level = 1, .formula = "0.5", .threshold = "1" },
		{ .name = "Y1", .kind = BT_NODE_TREE, .level = 2, .parent = "Y", .formula = "0.2",
		  .threshold = "1" },
		{ .name = "Y2", .kind = BT_NODE_TREE, .level = 2, .parent = "Y", .formula = "0.3",
		  .threshold = "1" },
		{ .name = "CPI", .kind = BT_NODE_HELPER, .formula = "A / B" },
	};
	struct bt_model_def def = { .id = "T", .n_nodes = 4, .nodes = nodes, .n_events = 4,
				    .events = ev_abcz, .cpi_node = "CPI" };
	struct fixture f;
	CHECK(setup(&f, &def));
	bt_counts_set_event(f.c, "A", 2);
	bt_counts_set_event(f.c, "B", 1);
	bt_evaluate(f.m, f.c, f.r);
	CHECK_EQ_INT(f.r->path_len, 2); /* Y > Y2 (0.3 > 0.2) */
	CHECK_STR(bt_model_node(f.m, f.r->path[1])->name, "Y2");
	CHECK_NEAR(f.r->cpi_share[node(&f, "Y2")], 0.6, 1e-15, 0);
	/* Y2 not measured: Y1 is the path's next node; no child gets a share */
	f.r->exclude[node(&f, "Y2")] = BT_EXCLUDE_NOT_MEASURED;
	bt_evaluate(f.m, f.c, f.r);
	CHECK_EQ_INT(f.r->path_len, 2);
	CHECK_STR(bt_model_node(f.m, f.r->path[1])->name, "Y1");
	CHECK_NEAR(f.r->cpi_share[node(&f, "Y")], 1.0, 1e-15, 0);
	CHECK(isnan(f.r->cpi_share[node(&f, "Y1")]));
	CHECK(isnan(f.r->cpi_share[node(&f, "Y2")]));
	CHECK(f.r->flag[node(&f, "Y2")]); /* its value and flag are still computed */
	/* neither child measured: the path ends at Y */
	f.r->exclude[node(&f, "Y1")] = BT_EXCLUDE_NOT_MEASURED;
	bt_evaluate(f.m, f.c, f.r);
	CHECK_EQ_INT(f.r->path_len, 1);
	/* Y1 measured but untrusted, Y2 measured: the path goes to Y2, and
	 * both children have their share */
	f.r->exclude[node(&f, "Y1")] = BT_EXCLUDE_UNTRUSTED;
	f.r->exclude[node(&f, "Y2")] = 0;
	bt_evaluate(f.m, f.c, f.r);
	CHECK_EQ_INT(f.r->path_len, 2);
	CHECK_STR(bt_model_node(f.m, f.r->path[1])->name, "Y2");
	CHECK_NEAR(f.r->cpi_share[node(&f, "Y1")], 0.4, 1e-15, 0);
	teardown(&f);
}

/*
 * A share within rounding of 0 is 0: 0.3 - 0.1 - 0.2 is -2.8e-17 in
 * doubles, which "%.2f" would print as "-0.00"; raw keeps the formula's
 * number. A share truly below 0 (one count in 10^7) keeps its sign.
 */
TEST(rounding_noise_of_a_share_is_zero)
{
	static const struct bt_node_def nodes[] = {
		{ .name = "N", .kind = BT_NODE_TREE, .level = 1, .formula = "0.3 - 0.1 - 0.2",
		  .threshold = "1" },
		{ .name = "R", .kind = BT_NODE_TREE, .level = 1, .formula = "(A - B) / C",
		  .threshold = "1" },
		{ .name = "I", .kind = BT_NODE_INFO, .formula = "0.3 - 0.1 - 0.2" },
	};
	struct bt_model_def def = { .id = "T", .n_nodes = 3, .nodes = nodes, .n_events = 4,
				    .events = ev_abcz };
	struct fixture f;
	CHECK(setup(&f, &def));
	bt_counts_set_event(f.c, "A", 9999999);
	bt_counts_set_event(f.c, "B", 10000000);
	bt_counts_set_event(f.c, "C", 10000000);
	bt_evaluate(f.m, f.c, f.r);
	CHECK(0.3 - 0.1 - 0.2 < 0); /* the premise: doubles round it below 0 */
	CHECK(f.r->value[node(&f, "N")] == 0 && !signbit(f.r->value[node(&f, "N")]));
	CHECK(f.r->raw[node(&f, "N")] < 0);
	CHECK_NEAR(f.r->value[node(&f, "R")], -1e-7, 1e-20, 0);
	/* an Info metric is no share: left as computed */
	CHECK(f.r->value[node(&f, "I")] < 0);
	teardown(&f);
}

/*
 * HYPERTHREADING_ON from the measured SMT sibling (model.h bt_smt_decide):
 * the SMT branches from half the time on, the per-thread ones below; a
 * given HYPERTHREADING_ON or no measurement leaves the constants as they
 * are. bt_smt_decided_constants gives the constants a node's events are
 * read with (untrusting, app/count-run.c and replay alike): the same.
 */
TEST(smt_decided_constants_follow_the_measured_sibling)
{
	static const struct {
		double ht, f, want_ht;
		int formulas;
	} cases[] = {
		{ NAN, 0.0, 0, 0 }, { NAN, 0.49, 0, 0 }, { NAN, 0.5, 1, 1 }, { NAN, 1.0, 1, 1 },
		{ NAN, NAN, NAN, -1 }, { 1, 0.0, 1, -1 }, { 0, 1.0, 0, -1 },
	};
	for (size_t i = 0; i < BT_ARRAY_SIZE(cases); i++) {
		double k[BT_CONST_COUNT], out[BT_CONST_COUNT];
		struct bt_smt_decision d;

		for (int j = 0; j < BT_CONST_COUNT; j++)
			k[j] = (double)j + 0.25;
		k[BT_C_HYPERTHREADING_ON] = cases[i].ht;
		k[BT_C_SMT_SIBLING_ACTIVE] = cases[i].f;
		bt_smt_decide(k, &d);
		bt_smt_decided_constants(k, out);
		CHECK_EQ_INT(d.formulas, cases[i].formulas);
		double got = out[BT_C_HYPERTHREADING_ON];
		CHECK_MSG(isnan(cases[i].want_ht) ? isnan(got) : got == cases[i].want_ht,
			  "case %zu: HYPERTHREADING_ON %g, want %g", i, got, cases[i].want_ht);
		for (int j = 0; j < BT_CONST_COUNT; j++)
			if (j != BT_C_HYPERTHREADING_ON)
				CHECK(out[j] == k[j] || (isnan(out[j]) && isnan(k[j])));
	}
}
