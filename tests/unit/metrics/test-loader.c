/* SPDX-License-Identifier: MIT */
/*
 * The vendor-file loaders on small hand-written files (tests/data/loader/):
 * what they build, and the errors they give: file:line:column for malformed
 * JSON, model and node for an unknown event or alias.
 */
#include <math.h>

#include "metrics/load.h"
#include "metrics/model.h"
#include "tests/unit/lib/test.h"

#define DIR "tests/data/loader"

static struct bt_model_recipe perfmon(const char *metrics)
{
	struct bt_model_recipe r = { .id = "TEST", .vendor = "GenuineIntel", .uarch = "test",
				     .format = BT_FMT_PERFMON, .pipeline_width = 4 };
	r.metrics[0] = metrics;
	r.events[0] = "events.json";
	return r;
}

TEST(malformed_json_gives_file_line_column)
{
	struct bt_model_recipe r = perfmon("bad-syntax.json");
	struct bt_arena a = { 0 };
	struct bt_diag d = { "" };
	struct bt_model_def *def;
	CHECK(bt_model_load(&a, &r, DIR, &def, &d) == BT_ERR_INVALID);
	CHECK_STR(d.text, DIR "/bad-syntax.json:5:7: expected ',' or '}' in object");
	bt_arena_free(&a);
}

TEST(unknown_event_names_model_and_node)
{
	struct bt_model_recipe r = perfmon("unknown-event.json");
	struct bt_arena a = { 0 };
	struct bt_diag d = { "" };
	struct bt_model_def *def;
	CHECK(bt_model_load(&a, &r, DIR, &def, &d) == BT_ERR_NOT_FOUND);
	CHECK_STR(d.text, "model TEST: node Frontend_Bound: event NO_SUCH.EVENT is not in the event "
			  "file " DIR "/events.json");
	r = perfmon("unknown-alias.json");
	CHECK(bt_model_load(&a, &r, DIR, &def, &d) == BT_ERR_INVALID);
	CHECK_STR(d.text, "model TEST: node Retiring: formula names 'q', which is neither an event nor a "
			  "constant alias of the metric");
	bt_arena_free(&a);
}

TEST(helper_metric_without_encoding_is_a_note)
{
	struct bt_model_recipe r = perfmon("info-unknown-event.json");
	struct bt_arena a = { 0 };
	struct bt_diag d = { "" };
	struct bt_model_def *def;
	static struct bt_load_notes notes;
	CHECK(bt_model_load_noted(&a, &r, DIR, &def, &notes, &d) == BT_OK);
	CHECK_EQ_INT(notes.n, 1);
	CHECK(notes.n && strstr(notes.lines[0], "event NOT_HERE.EITHER (first needed by Info_Thing)") != NULL);
	CHECK(def->n_events == 2 && def->events[1].source == BT_SRC_UNKNOWN);
	bt_arena_free(&a);
}

TEST(perfmon_native_model)
{
	struct bt_model_recipe r = perfmon("good.json");
	struct bt_arena a = { 0 };
	struct bt_diag d = { "" };
	struct bt_model_def *def;
	CHECK(bt_model_load(&a, &r, DIR, &def, &d) == BT_OK);
	CHECK_STR(def->source, "good.json Version 2.0 TmaVersion 9.9");
	CHECK_EQ_INT(def->n_nodes, 3); /* Category "BW" is not a TMA metric */
	const struct bt_node_def *fb = &def->nodes[0], *fl = &def->nodes[1], *ipc = &def->nodes[2];
	CHECK_STR(fb->formula, "100 * (UOPS_ISSUED.ANY / (4 * (CPU_CLK_UNHALTED.THREAD if "
			       "#HYPERTHREADING_ON else CPU_CLK_UNHALTED.THREAD)))");
	/* TMA 3.x literal thresholds: percent metrics compared with fractions */
	CHECK_STR(fb->threshold, "$Frontend_Bound / 100 > 0.2");
	CHECK_STR(fb->threshold_literal, "$Frontend_Bound > 0.2");
	CHECK_STR(fl->threshold, "$Fetch_Latency / 100 > 0.1 and $Frontend_Bound / 100 > 0.2");
	CHECK_STR(fl->parent, "Frontend_Bound");
	CHECK(fl->level == 2 && fl->kind == BT_NODE_TREE && fl->percent);
	CHECK_STR(fl->formula, "100 * UOPS_ISSUED.ANY:c1:i1 / CPU_CLK_UNHALTED.THREAD");
	CHECK(ipc->kind == BT_NODE_INFO && ipc->threshold == NULL && !ipc->percent);
	CHECK(def->flags & BT_MODEL_THRESH_FRACTION);
	/* events: sorted, encoded, the modifiers applied */
	CHECK_EQ_INT(def->n_events, 4);
	CHECK_STR(def->events[0].name, "CPU_CLK_UNHALTED.THREAD");
	CHECK_STR(def->events[2].name, "UOPS_ISSUED.ANY");
	CHECK_STR(def->events[3].name, "UOPS_ISSUED.ANY:c1:i1");
	CHECK(def->events[3].cmask == 1 && (def->events[3].flags & BT_EVF_INV) && def->events[3].code == 0x0E);
	/* it compiles and evaluates */
	struct bt_model *m;
	CHECK(bt_model_open(def, &m, &d) == BT_OK);
	struct bt_counts *c = bt_counts_new(m);
	struct bt_result *res = bt_result_new(m);
	bt_counts_set_event(c, "UOPS_ISSUED.ANY", 300);
	bt_counts_set_event(c, "UOPS_ISSUED.ANY:c1:i1", 15);
	bt_counts_set_event(c, "CPU_CLK_UNHALTED.THREAD", 100);
	bt_counts_set_event(c, "INST_RETIRED.ANY", 50);
	bt_counts_set_constant(c, "HYPERTHREADING_ON", 0);
	bt_evaluate(m, c, res);
	CHECK_NEAR(res->value[0], 0.75, 1e-15, 0);
	CHECK(res->flag[0] && res->flag_literal[0]); /* 75 > 0.2 and 0.75 > 0.2 */
	CHECK_NEAR(res->value[1], 0.15, 1e-15, 0);
	CHECK(res->flag[1]);
	CHECK_NEAR(res->value[2], 0.5, 0, 0);
	bt_result_free(res);
	bt_counts_free(c);
	bt_model_close(m);
	bt_arena_free(&a);
}

TEST(perf_json_model)
{
	struct bt_model_recipe r = { .id = "PTEST", .vendor = "GenuineIntel", .uarch = "test",
				     .format = BT_FMT_PERF_JSON, .unit = "cpu_atom", .name_prefix = "tma_",
				     .ecore = 1 };
	r.metrics[0] = "perf.json";
	r.events[0] = "events.json";
	struct bt_arena a = { 0 };
	struct bt_diag d = { "" };
	struct bt_model_def *def;
	CHECK_MSG(bt_model_load(&a, &r, DIR, &def, &d) == BT_OK, "%s", d.text);
	CHECK_EQ_INT(def->n_nodes, 4);
	CHECK_STR(def->nodes[0].name, "Frontend_Bound");
	CHECK_STR(def->nodes[0].formula, "UOPS_ISSUED.ANY / (4 * $Info_Core_Clks)");
	CHECK_STR(def->nodes[1].name, "IFetch_Latency");
	CHECK_STR(def->nodes[1].parent, "Frontend_Bound");
	CHECK_STR(def->nodes[1].formula,
		  "d_ratio(UOPS_ISSUED.ANY:c1:i1, $Info_Core_Clks) if #HYPERTHREADING_ON else 0");
	CHECK_STR(def->nodes[1].threshold, "$IFetch_Latency > 0.15 and $Frontend_Bound > 0.2");
	CHECK_STR(def->nodes[3].name, "Info_System_Time");
	CHECK_STR(def->nodes[3].formula, "duration_time / 1000000000.0");
	bt_arena_free(&a);
}
