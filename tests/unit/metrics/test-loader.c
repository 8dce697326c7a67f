/* SPDX-License-Identifier: MIT */
/*
 * The vendor-file loaders on small hand-written files (tests/data/loader/):
 * what they build, and the errors they give: file:line:column for malformed
 * JSON, model and node for an unknown event or alias.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "metrics/event-name.h"
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

/* ---- structure (issue 33 items 11, 13, 14) */

static bt_status load_file(struct bt_arena *a, const char *dir, const char *file,
			   struct bt_diag *d)
{
	struct bt_model_recipe r = perfmon(file);
	struct bt_model_def *def;
	return bt_model_load(a, &r, dir, &def, d);
}

TEST(parent_cycle_refused_with_names_and_location)
{
	struct bt_arena a = { 0 };
	struct bt_diag d = { "" };
	CHECK(load_file(&a, DIR, "cycle.json", &d) == BT_ERR_INVALID);
	CHECK_STR(d.text, DIR "/cycle.json:6:5: model TEST: node Loop_A: its parents form a cycle "
			  "(Loop_A -> Loop_B -> Loop_A), which reaches no level-1 root");
	bt_arena_free(&a);
}

TEST(levels_are_whole_numbers_in_range)
{
	struct bt_arena a = { 0 };
	struct bt_diag d = { "" };
	/* atoi took "2abc" as 2 */
	CHECK(load_file(&a, DIR, "level-text.json", &d) == BT_ERR_INVALID);
	CHECK_STR(d.text, DIR "/level-text.json:5:66: tree metric Fetch_Latency has no valid Level (a "
			  "whole number from 1 to 20 expected)");
	/* perf JSON: atoi took TopdownL256 as 256, stored as 0 in a uint8_t */
	struct bt_model_recipe r = { .id = "PTEST", .vendor = "GenuineIntel", .uarch = "test",
				     .format = BT_FMT_PERF_JSON, .unit = "cpu_atom", .name_prefix = "tma_",
				     .ecore = 1 };
	r.metrics[0] = "perf-level.json";
	r.events[0] = "events.json";
	struct bt_model_def *def;
	CHECK(bt_model_load(&a, &r, DIR, &def, &d) == BT_ERR_INVALID);
	CHECK_STR(d.text, DIR "/perf-level.json:4:56: metric tma_ifetch_latency: MetricGroup "
			  "\"TopdownL256\": a level from 1 to 20 expected");
	bt_arena_free(&a);
}

/* A generated perfmon file of n metrics: 4 level-1 roots, then each
 * metric the child of the one `stride` before it (a chain for stride 1),
 * of level `level`; formulas read an event, or are "1" without `events`. */
static void write_tree(const char *path, unsigned n, unsigned stride, unsigned level, int events)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return;
	fprintf(f, "{\"Metrics\": [\n");
	for (unsigned i = 0; i < n; i++) {
		unsigned lv = i < 4 ? 1 : level ? level : 2;
		fprintf(f, "%s{\"MetricName\": \"N%u\", \"Category\": \"TMA\", \"Level\": %u, %s",
			i ? ",\n" : "", i, lv, events ? "\"Events\": [{\"Name\": \"UOPS_ISSUED.ANY\", "
			"\"Alias\": \"a\"}], \"Formula\": \"a\"" : "\"Formula\": \"1\"");
		if (i >= 4)
			fprintf(f, ", \"ParentCategory\": \"N%u\"", i - stride);
		fprintf(f, "}");
	}
	fprintf(f, "]}\n");
	fclose(f);
}

TEST(sizes_refused_at_once_and_deep_chains)
{
	char dir[] = "/tmp/bt-loader-XXXXXX", path[64];
	struct bt_arena a = { 0 };
	struct bt_diag d = { "" };
	CHECK(mkdtemp(dir) != NULL);
	/* the events file beside the generated ones */
	snprintf(path, sizeof(path), "%s/events.json", dir);
	FILE *in = fopen(DIR "/events.json", "r"), *out = fopen(path, "w");
	CHECK(in && out);
	for (int ch; in && out && (ch = fgetc(in)) != EOF;)
		fputc(ch, out);
	if (in)
		fclose(in);
	if (out)
		fclose(out);
	/* a node 20 parents below its root (each of level 2: levels may
	 * disagree with depth, as in Intel's SKX file) is deeper than 20 levels */
	snprintf(path, sizeof(path), "%s/deep.json", dir);
	write_tree(path, 4 + 20, 1, 2, 1);
	CHECK(load_file(&a, dir, "deep.json", &d) == BT_ERR_INVALID);
	CHECK_MSG(strstr(d.text, "deep.json:25:1: model TEST: node N23 is 20 parents below its root: "
				 "deeper than the 20 levels a tree may have") != NULL, "%s", d.text);
	write_tree(path, 4 + 19, 1, 2, 1);
	CHECK_MSG(load_file(&a, dir, "deep.json", &d) == BT_OK, "%s", d.text);
	/* 65,536 metrics: refused before any formula is read */
	snprintf(path, sizeof(path), "%s/many.json", dir);
	write_tree(path, 65536, 4, 2, 0);
	CHECK(load_file(&a, dir, "many.json", &d) == BT_ERR_FULL);
	CHECK_MSG(strstr(d.text, "65536 TMA metrics: a model holds at most 65535 nodes") != NULL, "%s", d.text);
	/* a file larger than 8 MB: refused by its size, before it is parsed */
	FILE *f = fopen(path, "w");
	if (f) {
		fputc('[', f);
		for (unsigned i = 0; i < (8u << 20); i++)
			fputc(' ', f);
		fputs("]\n", f);
		fclose(f);
	}
	CHECK(load_file(&a, dir, "many.json", &d) == BT_ERR_FULL);
	CHECK_MSG(strstr(d.text, "many.json: 8388611 bytes: larger than the 8 MB") != NULL, "%s", d.text);
	remove(path);
	snprintf(path, sizeof(path), "%s/deep.json", dir);
	remove(path);
	snprintf(path, sizeof(path), "%s/events.json", dir);
	remove(path);
	remove(dir);
	bt_arena_free(&a);
}

/* bt_model_open checks any definition (built-in, packed, loaded): a parent
 * cycle, and references nesting formulas deeper than one formula may be. */
TEST(model_open_refuses_cycles_and_deep_reference_chains)
{
	static const struct bt_event ev[] = { { .name = "A", .fixed = BT_EV_NO_FIXED } };
	static const struct bt_node_def cyc[] = {
		{ .name = "Top", .kind = BT_NODE_TREE, .level = 1, .formula = "A" },
		{ .name = "X", .kind = BT_NODE_TREE, .level = 2, .parent = "Y", .formula = "A" },
		{ .name = "Y", .kind = BT_NODE_TREE, .level = 2, .parent = "X", .formula = "A" },
	};
	struct bt_model_def def = { .id = "T", .n_nodes = 3, .nodes = cyc, .n_events = 1, .events = ev };
	struct bt_model *m = NULL;
	struct bt_diag d = { "" };
	CHECK(bt_model_open(&def, &m, &d) == BT_ERR_INVALID);
	CHECK_STR(d.text, "model T: node X: its parents form a cycle (X -> Y ...), which reaches no root");
	/* H0 = A + $H1, H1 = A + $H2, ..., the last = A: formulas 2 high
	 * (the last 1); 128 nodes nest 255 deep (accepted), 130 nest 259 */
	static struct bt_node_def chain[130];
	static char names[130][8], formulas[130][16];
	for (unsigned n = 128; n <= 130; n += 2) {
		for (unsigned i = 0; i < n; i++) {
			snprintf(names[i], sizeof(names[i]), "H%u", i);
			snprintf(formulas[i], sizeof(formulas[i]), i + 1 < n ? "A + $H%u" : "A", i + 1);
			chain[i] = (struct bt_node_def){ .name = names[i], .kind = BT_NODE_HELPER,
							 .formula = formulas[i] };
		}
		def = (struct bt_model_def){ .id = "T", .n_nodes = (uint16_t)n, .nodes = chain,
					     .n_events = 1, .events = ev };
		bt_status s = bt_model_open(&def, &m, &d);
		if (n == 128) {
			CHECK_MSG(s == BT_OK, "%s", d.text);
			if (s == BT_OK)
				bt_model_close(m);
		} else {
			CHECK(s == BT_ERR_INVALID);
			CHECK_MSG(strstr(d.text, "deeper than 256 operators in all") != NULL, "%s", d.text);
		}
	}
}

/* The events table's index: first definition wins, across files too, and
 * every one of many events is found (an events file of 40,000 events took
 * seconds with a linear search per event). */
TEST(events_index_first_definition_wins)
{
	char dir[] = "/tmp/bt-events-XXXXXX", p1[64], p2[64];
	CHECK(mkdtemp(dir) != NULL);
	snprintf(p1, sizeof(p1), "%s/a.json", dir);
	snprintf(p2, sizeof(p2), "%s/b.json", dir);
	FILE *f = fopen(p1, "w");
	if (!f)
		return;
	fprintf(f, "{\"Events\": [");
	for (unsigned i = 0; i < 5000; i++)
		fprintf(f, "%s{\"EventName\": \"EV_%u.X\", \"EventCode\": \"0x%02x\", \"UMask\": \"0x01\", "
			"\"Counter\": \"0,1,2,3\"}", i ? "," : "", i, i % 256);
	/* a second definition of EV_7.X in the same file: the first stays */
	fprintf(f, ",{\"EventName\": \"EV_7.X\", \"EventCode\": \"0x99\", \"UMask\": \"0x01\", \"Counter\": \"0\"}]}");
	fclose(f);
	f = fopen(p2, "w");
	if (!f)
		return;
	fprintf(f, "{\"Events\": [{\"EventName\": \"EV_9.X\", \"EventCode\": \"0x98\", \"UMask\": \"0x01\", "
		"\"Counter\": \"0\"}, {\"EventName\": \"NEW.ONE\", \"EventCode\": \"0x97\", \"UMask\": \"0x02\", "
		"\"Counter\": \"0\"}]}");
	fclose(f);
	struct bt_arena a = { 0 };
	struct bt_diag d = { "" };
	struct bt_event_table t = { 0 };
	CHECK(bt_events_load_intel(&a, p1, &t, &d) == BT_OK);
	CHECK(bt_events_load_intel(&a, p2, &t, &d) == BT_OK);
	CHECK_EQ_INT(t.n, 5001);
	unsigned found = 0;
	char name[32];
	for (unsigned i = 0; i < 5000; i++) {
		snprintf(name, sizeof(name), "EV_%u.X", i);
		const struct bt_event *e = bt_events_find(&t, name);
		found += e && e->code == i % 256;
	}
	CHECK_EQ_INT(found, 5000);
	const struct bt_event *e = bt_events_find(&t, "NEW.ONE");
	CHECK(e && e->code == 0x97 && e->umask == 2);
	CHECK(bt_events_find(&t, "EV_5000.X") == NULL && bt_events_find(&t, "ev_7.x") == NULL);
	remove(p1);
	remove(p2);
	remove(dir);
	bt_arena_free(&a);
}
