/* SPDX-License-Identifier: MIT */
/*
 * perf stat import (analysis/perf-stat.h). The inputs are written by hand in
 * the field order tools/perf/Documentation/perf-stat.txt documents (-x,:
 * counter-value, unit, event, run-time, percent-running, metric-value,
 * metric-unit; -j: "counter-value" as a string, "event-runtime",
 * "pcnt-running"), with multiplexed rows, "<not counted>" and
 * "<not supported>". The expectation: the tree is bit-for-bit the tree of
 * the same counts given as a count file, the unreadable events missing.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/builtin.h"
#include "base/array.h"
#include "metrics/counts-file.h"
#include "metrics/select.h"
#include "analysis/perf-smt.h"
#include "analysis/perf-stat.h"
#include "pmu/event-encode.h"
#include "tests/unit/lib/test.h"

/* perf's encoded spellings are read by pmu/'s event parser */
static const struct bt_perf_match perf_match = { bt_event_parse_encoding };

/* SKL level 1-2 inputs; MACHINE_CLEARS.COUNT is <not supported> and
 * EXE_ACTIVITY.2_PORTS_UTIL <not counted>, so they are left out here. */
static const char count_file[] =
	"{\"counts\": {"
	"\"CPU_CLK_UNHALTED.THREAD\": 472735475, \"CPU_CLK_UNHALTED.THREAD_P\": 472735475,"
	"\"INST_RETIRED.ANY\": 368470256, \"CPU_CLK_UNHALTED.THREAD_ANY\": 472735475,"
	"\"IDQ_UOPS_NOT_DELIVERED.CORE\": 304201197, \"INT_MISC.RECOVERY_CYCLES\": 35499652,"
	"\"INT_MISC.RECOVERY_CYCLES_ANY\": 35499652, \"UOPS_ISSUED.ANY\": 556981252,"
	"\"UOPS_RETIRED.MACRO_FUSED\": 35330734, \"UOPS_RETIRED.RETIRE_SLOTS\": 425526477,"
	"\"BR_MISP_RETIRED.ALL_BRANCHES\": 719766, \"CYCLE_ACTIVITY.STALLS_MEM_ANY\": 94052601,"
	"\"CYCLE_ACTIVITY.STALLS_TOTAL\": 159886652, \"EXE_ACTIVITY.1_PORTS_UTIL\": 53417432,"
	"\"EXE_ACTIVITY.BOUND_ON_STORES\": 962085,"
	"\"IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE\": 53565788},"
	"\"constants\": {\"HYPERTHREADING_ON\": 0, \"NUM_CPUS\": 4}}";

/* Names, cpu/event=../ terms (commas inside the event field) and raw rUUEE. */
static const char csv[] =
	"# started on Tue Nov 24 15:20:00 2026\n"
	"\n"
	"472735475,,cycles,232701736,100.00,,\n"
	"368470256,,instructions,232701736,100.00,0.78,insn per cycle\n"
	"472735475,,cpu_clk_unhalted.thread_any,232701736,100.00,,\n"
	"304201197,,idq_uops_not_delivered.core,116350868,50.00,,\n"
	"35499652,,cpu/event=0x0d,umask=0x01/,116350868,50.00,,\n"
	"35499652,,INT_MISC.RECOVERY_CYCLES_ANY,116350868,50.00,,\n"
	"556981252,,r010e,232701736,100.00,,\r\n"
	"35330734,,uops_retired.macro_fused,232701736,100.00,,\n"
	"425526477,,uops_retired.retire_slots,232701736,100.00,,\n"
	"719766,,br_misp_retired.all_branches,174526302,75.00,,\n"
	"94052601,,cpu/event=0xa3,umask=0x14,cmask=20/,174526302,75.00,,\n"
	"159886652,,cycle_activity.stalls_total,174526302,75.00,,\n"
	"53417432,,exe_activity.1_ports_util,232701736,100.00,,\n"
	"<not counted>,,exe_activity.2_ports_util,0,100.00,,\n"
	"962085,,exe_activity.bound_on_stores,232701736,100.00,,\n"
	"53565788,,idq_uops_not_delivered.cycles_0_uops_deliv.core,232701736,100.00,,\n"
	"<not supported>,,r10401c3,0,100.00,,\n"
	",,,,,1.28,CPI\n"
	"1.23,msec,task-clock,1230000,100.00,0.998,CPUs utilized\n";

#define J(v, ev, rt, pc) \
	"{\"counter-value\" : \"" v "\", \"unit\" : \"\", \"event\" : \"" ev \
	"\", \"event-runtime\" : " rt ", \"pcnt-running\" : " pc "}\n"
static const char json[] =
	"{\"counter-value\" : \"1.230000\", \"unit\" : \"msec\", \"event\" : \"task-clock\", "
	"\"event-runtime\" : 1230000, \"pcnt-running\" : 100.00, \"metric-value\" : 0.998, "
	"\"metric-unit\" : \"CPUs utilized\"}\n"
	J("472735475.000000", "cycles", "232701736", "100.00")
	J("368470256.000000", "instructions", "232701736", "100.00")
	J("472735475.000000", "cpu_clk_unhalted.thread_any", "232701736", "100.00")
	J("304201197.000000", "idq_uops_not_delivered.core", "116350868", "50.00")
	J("35499652.000000", "cpu/event=0x0d,umask=0x01/", "116350868", "50.00")
	J("35499652.000000", "INT_MISC.RECOVERY_CYCLES_ANY", "116350868", "50.00")
	J("556981252.000000", "r010e", "232701736", "100.00")
	J("35330734.000000", "uops_retired.macro_fused", "232701736", "100.00")
	J("425526477.000000", "uops_retired.retire_slots", "232701736", "100.00")
	J("719766.000000", "br_misp_retired.all_branches", "174526302", "75.00")
	J("94052601.000000", "cpu/event=0xa3,umask=0x14,cmask=20/", "174526302", "75.00")
	J("159886652.000000", "cycle_activity.stalls_total", "174526302", "75.00")
	J("53417432.000000", "exe_activity.1_ports_util", "232701736", "100.00")
	J("<not counted>", "exe_activity.2_ports_util", "0", "100.00")
	J("962085.000000", "exe_activity.bound_on_stores", "232701736", "100.00")
	J("53565788.000000", "idq_uops_not_delivered.cycles_0_uops_deliv.core", "232701736", "100.00")
	J("<not supported>", "r10401c3", "0", "100.00")
	"{\"metric-value\" : 1.282978, \"metric-unit\" : \"CPI\"}\n";

static struct bt_model *open_model(const char *id)
{
	struct bt_model *m = NULL;
	struct bt_diag d = { "" };
	const struct bt_model_def *def = bt_builtin_find(id);
	if (!def || bt_model_open(def, &m, &d) != BT_OK)
		return NULL;
	return m;
}

static struct bt_model *skl(void)
{
	return open_model("SKL");
}

/* Evaluates text as perf output and as the count file; the trees must agree. */
static void check_same_tree(const char *text, bool want_json)
{
	struct bt_model *m = skl();
	CHECK(m != NULL);
	if (!m)
		return;
	struct bt_counts *c1 = bt_counts_new(m), *c2 = bt_counts_new(m);
	struct bt_result *r1 = bt_result_new(m), *r2 = bt_result_new(m);
	struct bt_arena a;
	bt_arena_init(&a);
	struct bt_diag d = { "" };
	struct bt_perf_stat f;
	struct bt_count_file cf;
	CHECK_MSG(bt_perf_stat_parse(&a, text, strlen(text), "t", &f, &d) == BT_OK, "%s", d.text);
	CHECK(f.json == want_json);
	CHECK_EQ_INT((int)f.n, 18); /* 17 events + task-clock; the metric-only line skipped */
	struct bt_perf_row_use uses[32];
	CHECK_MSG(bt_perf_stat_apply(&f, &perf_match, c1, uses, &d) == BT_OK, "%s", d.text);
	CHECK(bt_count_file_parse(&a, count_file, strlen(count_file), "cf", &cf, &d) == BT_OK);
	bt_count_file_apply(&cf, c2, NULL, &d);
	bt_counts_set_constant(c1, "HYPERTHREADING_ON", 0);
	bt_counts_set_constant(c1, "NUM_CPUS", 4);

	unsigned mux = 0, missing = 0, unused = 0;
	for (size_t i = 0; i < f.n; i++) {
		mux += f.rows[i].pcnt_running < 100;
		missing += f.rows[i].state != BT_PERF_COUNTED;
		unused += uses[i].first_event < 0;
	}
	CHECK_EQ_INT(mux, 6);
	CHECK_EQ_INT(missing, 2);
	CHECK_EQ_INT(unused, 1); /* task-clock */
	const struct bt_perf_stat_row *r4 = &f.rows[want_json ? 4 : 3]; /* idq_uops_not_delivered.core */
	CHECK_EQ_INT(r4->line, want_json ? 5 : 6);
	CHECK(r4->runtime == 116350868 && r4->pcnt_running == 50 && r4->value == 304201197);

	for (unsigned i = 0; i < bt_model_event_count(m); i++) {
		double x = c1->events[i], y = c2->events[i];
		CHECK_MSG((isnan(x) && isnan(y)) || x == y, "%s: %g vs %g", bt_model_event(m, i)->name, x, y);
	}
	bt_evaluate(m, c1, r1);
	bt_evaluate(m, c2, r2);
	unsigned computed = 0, missing_nodes = 0;
	for (unsigned i = 0; i < bt_model_node_count(m); i++) {
		double x = r1->value[i], y = r2->value[i];
		CHECK_MSG((isnan(x) && isnan(y)) || !memcmp(&x, &y, sizeof(x)), "%s",
			  bt_model_node(m, i)->name);
		CHECK(r1->state[i] == r2->state[i] && r1->flag[i] == r2->flag[i]);
		if (bt_model_node(m, i)->kind == BT_NODE_TREE && bt_model_node(m, i)->level <= 2) {
			computed += r1->state[i] == BT_NODE_OK;
			missing_nodes += r1->state[i] == BT_NODE_MISSING;
		}
	}
	/* not a vacuous match: level 1 is computed, the nodes of the two unread events are not */
	CHECK(computed >= 6);
	CHECK(missing_nodes >= 2);
	CHECK_EQ_INT(r1->path_len, r2->path_len);
	bt_arena_free(&a);
	bt_result_free(r1);
	bt_result_free(r2);
	bt_counts_free(c1);
	bt_counts_free(c2);
	bt_model_close(m);
}

TEST(csv_tree_equals_count_file_tree)
{
	check_same_tree(csv, false);
}

TEST(json_tree_equals_count_file_tree)
{
	check_same_tree(json, true);
}

static void expect_error(const char *text, const char *want)
{
	struct bt_arena a;
	bt_arena_init(&a);
	struct bt_diag d = { "" };
	struct bt_perf_stat f;
	bt_status s = bt_perf_stat_parse(&a, text, strlen(text), "in.csv", &f, &d);
	if (s == BT_OK) {
		/* a malformed encoding is found when the events are matched */
		struct bt_model *m = skl();
		struct bt_counts *c = m ? bt_counts_new(m) : NULL;
		struct bt_perf_row_use uses[8];
		if (c && f.n <= 8)
			s = bt_perf_stat_apply(&f, &perf_match, c, uses, &d);
		bt_counts_free(c);
		bt_model_close(m);
	}
	CHECK_MSG(s != BT_OK, "accepted: %s", text);
	CHECK_MSG(strstr(d.text, want) != NULL, "'%s' lacks '%s'", d.text, want);
	bt_arena_free(&a);
}

TEST(malformed_lines_name_their_line)
{
	expect_error("1,,cycles,1,100.00\nabc,,instructions,1,100.00\n", "in.csv:2: counter value 'abc'");
	expect_error("1,,cycles,1,100.00\n\n5,,\n", "in.csv:3: no event name");
	expect_error("1,,cycles\n2,,instructions,x,100\n", "in.csv:2: counter run time 'x'");
	expect_error("1,,cycles,1,100.00\n1,,instructions,1,140.00\n", "in.csv:2: percent running");
	expect_error("1,,cycles,1,100\n7\n", "in.csv:2: 1 field");
	expect_error("1,,cpu/event=0x3c,umask=0x0,1,100\n", "in.csv:1: event 'cpu/event=0x3c");
	expect_error("1,,cpu/event=0x3c,umask=0x100/,1,100\n", "in.csv:1: 'cpu/event=0x3c,umask=0x100/': umask=0x100: unit mask is 8 bits");
	expect_error("1,,cpu/umask=0x1/,1,100\n", "in.csv:1: 'cpu/umask=0x1/': cpu/umask=0x1/: no event= term");
	expect_error("{\"counter-value\" : \"1\", \"event\" : \"cycles\"}\n{\"counter-value\" : \"1\"\n",
		     "in.csv:2: not a JSON object");
	expect_error("{\"counter-value\" : \"1\", \"event\" : \"cycles\"}\n1,,cycles,1,100\n",
		     "in.csv:2: a CSV (-x,) line in a JSON (-j) file");
	expect_error("{\"counter-value\" : \"x\", \"event\" : \"cycles\"}\n", "in.csv:1: \"counter-value\"");
	expect_error("{\"counter-value\" : \"1\", \"event\" : \"cycles\", \"pcnt-running\" : \"a\"}\n",
		     "in.csv:1: \"pcnt-running\"");
	/* -I: every row of a file has a timestamp, or none has */
	expect_error("{\"interval\" : \"1.0\", \"counter-value\" : \"1\", \"event\" : \"cycles\"}\n",
		     "in.csv:1: \"interval\" is not a number");
	expect_error("{\"interval\" : 1.0, \"counter-value\" : \"1\", \"event\" : \"cycles\"}\n"
		     "{\"counter-value\" : \"1\", \"event\" : \"instructions\"}\n",
		     "in.csv:2: no interval timestamp, unlike line 1");
	expect_error("1.000,5,,cycles,1,100\nx,6,,cycles,1,100\n", "in.csv:2: interval output (perf stat -I) without a timestamp");
	expect_error("{\"cpu\" : \"0\", \"counter-value\" : \"1\", \"event\" : \"cycles\"}\n",
		     "in.csv:1: \"cpu\": a row of perf stat -A (--no-aggr: one row per CPU); only perf "
		     "stat's default aggregation");
	expect_error("{\"thread\" : \"app-1001\", \"counter-value\" : \"1\", \"event\" : \"cycles\"}\n",
		     "in.csv:1: \"thread\": a row of perf stat --per-thread; only perf stat's default aggregation");
	/* -x, rows of perf stat -A, --per-thread, --per-socket, --per-core (also under -I):
	 * named by the option, not "no event name (third field)" */
	expect_error("CPU0,5,,cycles,1,100\n", "in.csv:1: 'CPU0': a row of perf stat -A (--no-aggr");
	expect_error("app-1001,5e8,,cycles,1,100\n", "in.csv:1: 'app-1001': a row of perf stat --per-thread");
	expect_error("S0,8,5,,cycles,1,100\n", "in.csv:1: 'S0': a row of perf stat --per-socket");
	expect_error("1.000,S0-D0-C1,2,5,,cycles,1,100\n", "in.csv:1: 'S0-D0-C1': a row of perf stat --per-core");
	expect_error("{\"counter-value\" : \"1\"}\n", "in.csv:1: an event row needs");
	expect_error("# only a comment\n\n", "no event rows");
	/* per-CPU output: one event, two values */
	expect_error("1,,cycles,1,100\n2,,cycles,1,100\n", "in.csv:2: cycles gives CPU_CLK_UNHALTED");
}

/* perf stat -I: "TIME,COUNT,UNIT,EVENT,..." (-x,) or "interval" (-j); each
 * interval's rows are its own counts, an event once per interval. */
TEST(interval_output_one_set_of_counts_per_interval)
{
	const char *t = "#           time             counts unit events\n"
			"     1.001000000,100,,cycles,1000,100.00,,\n"
			"     1.001000000,50,,instructions,1000,100.00,0.50,insn per cycle\n"
			"     2.002000000,300,,cycles,1000,100.00,,\n"
			"     2.002000000,<not counted>,,instructions,0,100.00,,\n";
	const char *j = "{\"interval\" : 1.001, \"counter-value\" : \"100\", \"event\" : \"cycles\"}\n"
			"{\"interval\" : 2.002, \"counter-value\" : \"300\", \"event\" : \"cycles\"}\n";
	struct bt_arena a;
	bt_arena_init(&a);
	struct bt_diag d = { "" };
	struct bt_perf_stat f, fj;
	CHECK_MSG(bt_perf_stat_parse(&a, t, strlen(t), "t", &f, &d) == BT_OK, "%s", d.text);
	CHECK_EQ_INT((int)f.n, 4);
	CHECK_EQ_INT((int)f.n_intervals, 2);
	CHECK(f.intervals[0] == 1.001 && f.intervals[1] == 2.002);
	CHECK(f.rows[1].value == 50 && f.rows[3].state == BT_PERF_NOT_COUNTED);
	CHECK_MSG(bt_perf_stat_parse(&a, j, strlen(j), "j", &fj, &d) == BT_OK, "%s", d.text);
	CHECK_EQ_INT((int)fj.n_intervals, 2);
	const struct bt_model_def *def;
	struct bt_model *m = NULL;
	CHECK(bt_model_select(NULL, "SKL", &def, &d) == BT_OK && bt_model_open(def, &m, &d) == BT_OK);
	struct bt_counts *c = bt_counts_new(m);
	struct bt_perf_row_use uses[4];
	int th = bt_model_event_find(m, "CPU_CLK_UNHALTED.THREAD"), ir = bt_model_event_find(m, "INST_RETIRED.ANY");
	CHECK(bt_perf_stat_apply_interval(&f, &perf_match, 1, c, uses, &d) == BT_OK);
	CHECK(c->events[th] == 300 && isnan(c->events[ir]));
	CHECK(bt_perf_stat_apply_interval(&f, &perf_match, 0, c, uses, &d) == BT_OK);
	CHECK(c->events[th] == 100 && c->events[ir] == 50);
	CHECK(bt_perf_stat_apply_interval(&f, &perf_match, 2, c, uses, &d) != BT_OK);
	bt_counts_free(c);
	bt_model_close(m);
	bt_arena_free(&a);
}

/* Which formulas perf ran, from the AnyThread events it counted (SKL). */
TEST(smt_inferred_from_anythread_events)
{
	const struct bt_model_def *def;
	struct bt_model *m = NULL;
	struct bt_diag d = { "" };
	char why[200];
	CHECK(bt_model_select(NULL, "SKL", &def, &d) == BT_OK && bt_model_open(def, &m, &d) == BT_OK);
	struct bt_counts *c = bt_counts_new(m);
	CHECK(bt_counts_set_event(c, "CPU_CLK_UNHALTED.THREAD", 10) == BT_OK);
	CHECK_EQ_INT(bt_perf_smt_inferred(c, why, sizeof(why)), 0);
	CHECK(strstr(why, "SMT off") == why);
	CHECK(bt_counts_set_event(c, "CPU_CLK_UNHALTED.THREAD_ANY", 20) == BT_OK);
	CHECK_EQ_INT(bt_perf_smt_inferred(c, why, sizeof(why)), 1);
	CHECK(strstr(why, "CPU_CLK_UNHALTED.THREAD_ANY") != NULL);
	bt_counts_free(c);
	bt_model_close(m);
	/* a perfmon v5 core has no AnyThread event: nothing to infer */
	CHECK(bt_model_select(NULL, "ICL", &def, &d) == BT_OK && bt_model_open(def, &m, &d) == BT_OK);
	c = bt_counts_new(m);
	CHECK_EQ_INT(bt_perf_smt_inferred(c, why, sizeof(why)), -1);
	bt_counts_free(c);
	bt_model_close(m);
}

/* The SMT sibling a file measured: 1 - ONE_THREAD_ACTIVE / REF_XCLK, by
 * name in either case or by encoding (3CH/02H, 3CH/01H), per interval;
 * nothing from an AnyThread or ring-filtered spelling, a missing row or one
 * perf did not count. */
TEST(sibling_active_from_the_probe_rows)
{
	const char *t = "     1.0,250,,CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE,1000,100.00,,\n"
			"     1.0,1000,,cpu_clk_unhalted.ref_xclk,1000,100.00,,\n"
			"     2.0,900,,cpu/event=0x3c,umask=0x2/,1000,100.00,,\n"
			"     2.0,1000,,r013c,1000,100.00,,\n"
			"     3.0,900,,cpu/event=0x3c,umask=0x2,any/,1000,100.00,,\n"
			"     3.0,1000,,CPU_CLK_UNHALTED.REF_XCLK,1000,100.00,,\n"
			"     4.0,900,,cpu/event=0x3c,umask=0x2/u,1000,100.00,,\n"
			"     4.0,1000,,CPU_CLK_UNHALTED.REF_XCLK,1000,100.00,,\n"
			"     5.0,<not counted>,,CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE,0,100.00,,\n"
			"     5.0,1000,,CPU_CLK_UNHALTED.REF_XCLK,1000,100.00,,\n"
			"     6.0,1000,,CPU_CLK_UNHALTED.REF_XCLK,1000,100.00,,\n";
	struct bt_arena a;
	struct bt_diag d = { "" };
	struct bt_perf_stat f;
	double ota, xclk;

	bt_arena_init(&a);
	CHECK_MSG(bt_perf_stat_parse(&a, t, strlen(t), "t", &f, &d) == BT_OK, "%s", d.text);
	CHECK_EQ_INT((int)f.n_intervals, 6);
	CHECK(bt_perf_sibling_active(&f, &perf_match, &f.intervals[0], &ota, &xclk) == 0.75);
	CHECK(ota == 250 && xclk == 1000);
	CHECK(bt_perf_sibling_active(&f, &perf_match, &f.intervals[1], NULL, NULL) == 1 - 0.9);
	for (int k = 2; k < 6; k++)
		CHECK_MSG(isnan(bt_perf_sibling_active(&f, &perf_match, &f.intervals[k], NULL, NULL)),
			  "interval %d", k + 1);
	/* without an encoding parser only the names are read */
	CHECK(isnan(bt_perf_sibling_active(&f, NULL, &f.intervals[1], NULL, NULL)));
	bt_arena_free(&a);
}

TEST(variance_column_and_old_short_rows)
{
	/* -r puts "x.xx%" after the event; perf before run times printed three fields */
	const char *t = "100,,cycles,3.20%,5000,40.00,,\n200,,instructions\n";
	struct bt_arena a;
	bt_arena_init(&a);
	struct bt_diag d = { "" };
	struct bt_perf_stat f;
	CHECK_MSG(bt_perf_stat_parse(&a, t, strlen(t), "t", &f, &d) == BT_OK, "%s", d.text);
	CHECK_EQ_INT((int)f.n, 2);
	CHECK(f.rows[0].runtime == 5000 && f.rows[0].pcnt_running == 40);
	CHECK(f.rows[1].runtime == -1 && f.rows[1].pcnt_running == 100);
	bt_arena_free(&a);
}

TEST(event_spellings_match_the_model)
{
	struct bt_model *m = skl();
	CHECK(m != NULL);
	if (!m)
		return;
	uint16_t idx[256];
	unsigned n;
	struct bt_diag d = { "" };
	struct {
		const char *perf, *want;
	} cases[] = {
		{ "inst_retired.any", "INST_RETIRED.ANY" },
		{ "INST_RETIRED.ANY", "INST_RETIRED.ANY" },
		{ "cpu_clk_unhalted.thread_p:k", "CPU_CLK_UNHALTED.THREAD_P:SUP" },
		{ "cpu/event=0x3c,umask=0x0/k", "CPU_CLK_UNHALTED.THREAD_P:SUP" },
		{ "cpu/cpu_clk_unhalted.thread_p/", "CPU_CLK_UNHALTED.THREAD_P" },
		{ "cpu/event=0xc3,umask=0x1,cmask=1,edge/", "MACHINE_CLEARS.COUNT" },
		{ "r10401c3", "MACHINE_CLEARS.COUNT" },
		{ "cpu/config=0x10401c3/", "MACHINE_CLEARS.COUNT" },
		{ "ref-cycles", "CPU_CLK_UNHALTED.REF_TSC" },
		{ "cpu/event=0x3c,umask=0x0,name=clk/", "CPU_CLK_UNHALTED.THREAD_P" },
		{ "cpu/config=0x3c/k", "CPU_CLK_UNHALTED.THREAD_P:SUP" },
		{ "r3c:k", "CPU_CLK_UNHALTED.THREAD_P:SUP" },
	};
	for (size_t k = 0; k < BT_ARRAY_SIZE(cases); k++) {
		CHECK(bt_perf_event_match(m, &perf_match, cases[k].perf, idx, &n, &d) == BT_OK);
		bool found = false;
		for (unsigned i = 0; i < n; i++)
			found |= !strcmp(bt_model_event(m, idx[i])->name, cases[k].want);
		CHECK_MSG(found, "%s -> %s not found (%u matches; %s)", cases[k].perf, cases[k].want, n,
			  d.text);
	}
	/* "cycles" is the fixed counter and its general-counter twin */
	CHECK(bt_perf_event_match(m, &perf_match, "cycles", idx, &n, &d) == BT_OK);
	CHECK_EQ_INT(n, 2);
	/* not the model's: no match, and a reason */
	CHECK(bt_perf_event_match(m, &perf_match, "task-clock", idx, &n, &d) == BT_OK);
	CHECK_EQ_INT(n, 0);
	CHECK(strstr(d.text, "task-clock") != NULL);
	CHECK(bt_perf_event_match(m, &perf_match, "uncore_imc/event=0x4/", idx, &n, &d) == BT_OK);
	CHECK_EQ_INT(n, 0);
	/* a term perf prints but no core encoding uses: the row is unused, with the reason */
	CHECK(bt_perf_event_match(m, &perf_match, "cpu/event=0xb7,umask=0x1,config1=0x10001/", idx,
				  &n, &d) == BT_OK);
	CHECK_EQ_INT(n, 0);
	CHECK_MSG(strstr(d.text, "config1") != NULL, "%s", d.text);
	/* raw USR/OS bits (perf drops them): unused with the parser's reason, not an error */
	CHECK(bt_perf_event_match(m, &perf_match, "r5300c0", idx, &n, &d) == BT_OK);
	CHECK_EQ_INT(n, 0);
	CHECK_MSG(strstr(d.text, "bit 16") != NULL, "%s", d.text);
	/* without a parser only names match */
	CHECK(bt_perf_event_match(m, NULL, "cpu/event=0x3c,umask=0x0/", idx, &n, &d) == BT_OK);
	CHECK_EQ_INT(n, 0);
	CHECK(bt_perf_event_match(m, NULL, "cycles", idx, &n, &d) == BT_OK);
	CHECK_EQ_INT(n, 2);
	bt_model_close(m);
}

TEST(amd_raw_configs_carry_the_high_event_bits)
{
	/* AMD APM vol. 2, PerfEvtSel: EventSelect[11:8] sit in bits 35:32, so
	 * de_no_dispatch_per_slot.backend_stalls (event 0x1A0, umask 0x1E) is
	 * perf's r100001ea0; the same low 32 bits without them are event 0xA0. */
	struct bt_model *m = open_model("ZEN4");
	CHECK(m != NULL);
	if (!m)
		return;
	uint16_t idx[256];
	unsigned n;
	struct bt_diag d = { "" };
	CHECK(bt_perf_event_match(m, &perf_match, "r100001ea0", idx, &n, &d) == BT_OK);
	CHECK_EQ_INT(n, 1);
	if (n == 1)
		CHECK(!strcmp(bt_model_event(m, idx[0])->name, "de_no_dispatch_per_slot.backend_stalls"));
	CHECK(bt_perf_event_match(m, &perf_match, "cpu/event=0x1a0,umask=0x1e/", idx, &n, &d) == BT_OK);
	CHECK_EQ_INT(n, 1);
	CHECK(bt_perf_event_match(m, &perf_match, "r1ea0", idx, &n, &d) == BT_OK);
	CHECK_EQ_INT(n, 0);
	bt_model_close(m);
}

/*
 * Retire latencies as perf stat prints them with --record-tpebs: the value
 * of an event with perf's R modifier is the mean retire latency its `perf
 * record` sampled (tools/perf/util/intel-tpebs.c, evsel__tpebs_read). Hand
 * written for the Lunar Lake P-core model; the expected node values are
 * Intel's formulas (lunarlake_metrics_lioncove_core.json), worked by hand:
 *   Code_L2_Miss    = L2_MISS * L2_MISS:R / CLKS         = 1000 * 60 / 1e6 = 0.06
 *   Code_L2_Hit     = max(0, L1I_MISS * L1I_MISS:R / CLKS - Code_L2_Miss)
 *                   = 5000 * 20 / 1e6 - 0.06             = 0.04
 *   Ret_Mispredicts = RET_COST * RET_COST:R / CLKS       = 2000 * 15 / 1e6 = 0.03
 * (the file's "100 *" is the percent the JSON prints; results are fractions).
 * Without the R rows no latency is given: the nodes without a fallback are
 * not measured.
 */
static const char rl_csv[] =
	"1000000,,cpu_core/CPU_CLK_UNHALTED.THREAD/,1000000,100.00,,\n"
	"5000,,cpu_core/FRONTEND_RETIRED.L1I_MISS/,1000000,100.00,,\n"
	"20,,cpu_core/FRONTEND_RETIRED.L1I_MISS/R,1000000,100.00,,\n"
	"1000,,cpu_core/FRONTEND_RETIRED.L2_MISS/,1000000,100.00,,\n"
	"60,,FRONTEND_RETIRED.L2_MISS:R,1000000,100.00,,\n"
	"2000,,cpu_core/BR_MISP_RETIRED.RET_COST/,1000000,100.00,,\n"
	"15,,cpu_core@br_misp_retired.ret_cost@R,1000000,100.00,,\n"
	"<not counted>,,BR_MISP_RETIRED.COND_NTAKEN_COST:R,0,100.00,,\n"
	"7,,BR_MISP_RETIRED.NO_SUCH_THING:R,1000000,100.00,,\n";

static void rl_eval(const char *text, bool with_r, const char *want_source)
{
	struct bt_model *m = open_model("LNL-LNC");
	CHECK(m != NULL);
	if (!m)
		return;
	struct bt_counts *c = bt_counts_new(m);
	struct bt_result *r = bt_result_new(m);
	struct bt_arena a;
	bt_arena_init(&a);
	struct bt_diag d = { "" };
	struct bt_perf_stat f;
	struct bt_perf_row_use uses[16];
	bool parsed = bt_perf_stat_parse(&a, text, strlen(text), "t", &f, &d) == BT_OK;
	CHECK_MSG(parsed && f.n <= 16, "%s", d.text);
	if (!parsed || f.n > 16)
		f.n = 0;
	CHECK_MSG(bt_perf_stat_apply(&f, &perf_match, c, uses, &d) == BT_OK, "%s", d.text);
	bt_evaluate(m, c, r);
	static const struct {
		const char *node;
		double want;
	} v[] = { { "Code_L2_Miss", 0.06 }, { "Code_L2_Hit", 0.04 }, { "Ret_Mispredicts", 0.03 } };
	for (unsigned k = 0; k < 3; k++) {
		int i = bt_model_node_find(m, v[k].node);
		CHECK(i >= 0);
		if (i < 0)
			continue;
		if (with_r)
			CHECK_NEAR(r->value[i], v[k].want, 0, 1e-12);
		else
			CHECK_MSG(isnan(r->value[i]), "%s = %g without a latency", v[k].node, r->value[i]);
	}
	unsigned measured = 0;
	for (unsigned i = 0; i < bt_model_retire_latency_count(m); i++) {
		const char *name = bt_model_retire_latency_name(m, i);
		if (c->retire_latency_source[i] == BT_RL_NONE) {
			CHECK_MSG(c->retire_latency[i] == -1, "%s: %g", name, c->retire_latency[i]);
			continue;
		}
		measured++;
		CHECK_STR(bt_rl_source_name((enum bt_rl_source)c->retire_latency_source[i]), want_source);
		if (!strcmp(name, "FRONTEND_RETIRED.L1I_MISS"))
			CHECK_NEAR(c->retire_latency[i], 20, 0, 0);
	}
	CHECK_EQ_INT(measured, with_r ? 3 : 0);
	if (with_r) {
		/* the last two R rows are unused, each with its reason */
		CHECK(uses[7].rl < 0 && strstr(uses[7].why, "not measured") != NULL);
		CHECK_MSG(uses[8].rl < 0 && strstr(uses[8].why, "no retire-latency input") != NULL, "%s",
			  uses[8].why);
		CHECK(uses[2].rl >= 0 && uses[2].n_events == 1);
	}
	bt_result_free(r);
	bt_counts_free(c);
	bt_model_close(m);
	bt_arena_free(&a);
}

TEST(perf_tpebs_retire_latencies_feed_the_formulas)
{
	rl_eval(rl_csv, true, "measured");
	/* the same file without its R rows (a line is an R row when its event
	 * field ends in R: ":R," "/R," or "@R,") */
	char plain[sizeof(rl_csv)];
	size_t o = 0;
	for (const char *l = rl_csv; *l;) {
		const char *e = strchr(l, '\n') + 1;
		char line[200];
		snprintf(line, sizeof(line), "%.*s", (int)(e - l), l);
		if (!strstr(line, "/R,") && !strstr(line, ":R,") && !strstr(line, "@R,")) {
			memcpy(plain + o, l, (size_t)(e - l));
			o += (size_t)(e - l);
		}
		l = e;
	}
	plain[o] = 0;
	rl_eval(plain, false, "measured");
	/* -j, as baretop's export writes a latency with its source */
	static const char js[] =
		J("1000000.000000", "CPU_CLK_UNHALTED.THREAD", "1", "100.00")
		J("5000.000000", "FRONTEND_RETIRED.L1I_MISS", "1", "100.00")
		"{\"counter-value\" : \"20.000000\", \"unit\" : \"\", \"event\" : "
		"\"FRONTEND_RETIRED.L1I_MISS:R\", \"retire-latency\" : {\"source\" : \"published\"}}\n"
		J("1000.000000", "FRONTEND_RETIRED.L2_MISS", "1", "100.00")
		"{\"counter-value\" : \"60\", \"event\" : \"FRONTEND_RETIRED.L2_MISS:R\", "
		"\"retire-latency\" : {\"source\" : \"published\"}}\n"
		J("2000.000000", "BR_MISP_RETIRED.RET_COST", "1", "100.00")
		"{\"counter-value\" : \"15\", \"event\" : \"BR_MISP_RETIRED.RET_COST:R\", "
		"\"retire-latency\" : {\"source\" : \"published\"}}\n";
	struct bt_model *m = open_model("LNL-LNC");
	struct bt_counts *c = m ? bt_counts_new(m) : NULL;
	struct bt_result *r = m ? bt_result_new(m) : NULL;
	struct bt_arena a;
	bt_arena_init(&a);
	struct bt_diag d = { "" };
	struct bt_perf_stat f;
	struct bt_perf_row_use uses[8];
	CHECK(c != NULL);
	if (c) {
		CHECK_MSG(bt_perf_stat_parse(&a, js, strlen(js), "t", &f, &d) == BT_OK, "%s", d.text);
		CHECK_MSG(bt_perf_stat_apply(&f, &perf_match, c, uses, &d) == BT_OK, "%s", d.text);
		bt_evaluate(m, c, r);
		int i = bt_model_node_find(m, "Code_L2_Hit");
		CHECK(i >= 0 && fabs(r->value[i] - 0.04) < 1e-12);
		unsigned pub = 0;
		for (unsigned k = 0; k < bt_model_retire_latency_count(m); k++)
			pub += c->retire_latency_source[k] == BT_RL_PUBLISHED;
		CHECK_EQ_INT(pub, 3);
	}
	bt_result_free(r);
	bt_counts_free(c);
	bt_model_close(m);
	bt_arena_free(&a);
}

TEST(retire_latency_spellings_and_conflicts)
{
	struct bt_model *m = open_model("LNL-LNC");
	CHECK(m != NULL);
	if (!m)
		return;
	bool is_rl;
	int want = -1;
	for (unsigned i = 0; i < bt_model_retire_latency_count(m); i++)
		if (!strcmp(bt_model_retire_latency_name(m, i), "FRONTEND_RETIRED.L1I_MISS"))
			want = (int)i;
	CHECK(want >= 0);
	static const char *const yes[] = {
		"FRONTEND_RETIRED.L1I_MISS:R", "frontend_retired.l1i_miss:R", "cpu_core/FRONTEND_RETIRED.L1I_MISS/R",
		"cpu/frontend_retired.l1i_miss/uR", "cpu_core@FRONTEND_RETIRED.L1I_MISS@R",
		"cpu_core/FRONTEND_RETIRED.L1I_MISS,name=x/R",
	};
	for (unsigned k = 0; k < BT_ARRAY_SIZE(yes); k++) {
		CHECK_MSG(bt_perf_rl_match(m, yes[k], &is_rl) == want && is_rl, "%s", yes[k]);
	}
	/* counts, not latencies */
	static const char *const no[] = { "FRONTEND_RETIRED.L1I_MISS", "FRONTEND_RETIRED.L1I_MISS:u",
					  "cpu_core/FRONTEND_RETIRED.L1I_MISS/", "UOPS_RETIRED.MS:c1",
					  "cpu/event=0xc6,umask=0x3/R" };
	for (unsigned k = 0; k < BT_ARRAY_SIZE(no); k++)
		CHECK_MSG(bt_perf_rl_match(m, no[k], &is_rl) < 0 && !is_rl, "%s", no[k]);
	CHECK(bt_perf_rl_match(m, "INST_RETIRED.ANY:R", &is_rl) < 0 && is_rl); /* no such input */
	bt_model_close(m);
	/* two rows, two latencies for one input: an error naming both lines */
	struct bt_model *lnl = open_model("LNL-LNC");
	struct bt_counts *c = lnl ? bt_counts_new(lnl) : NULL;
	struct bt_arena a;
	bt_arena_init(&a);
	struct bt_diag d = { "" };
	struct bt_perf_stat f;
	struct bt_perf_row_use uses[4];
	const char *t = "20,,FRONTEND_RETIRED.L1I_MISS:R,1,100\n21,,cpu_core/FRONTEND_RETIRED.L1I_MISS/R,1,100\n";
	CHECK(c && bt_perf_stat_parse(&a, t, strlen(t), "in.csv", &f, &d) == BT_OK);
	if (c) {
		CHECK(bt_perf_stat_apply(&f, &perf_match, c, uses, &d) == BT_ERR_INVALID);
		CHECK_MSG(strstr(d.text, "in.csv:2:") && strstr(d.text, "line 1"), "%s", d.text);
	}
	/* an unknown source in baretop's latency line */
	const char *j = "{\"counter-value\" : \"2\", \"event\" : \"X:R\", \"retire-latency\" : {\"source\" : \"guess\"}}\n";
	CHECK(bt_perf_stat_parse(&a, j, strlen(j), "in.json", &f, &d) != BT_OK);
	CHECK_MSG(strstr(d.text, "in.json:1: \"retire-latency\"") != NULL, "%s", d.text);
	bt_counts_free(c);
	bt_model_close(lnl);
	bt_arena_free(&a);
}
