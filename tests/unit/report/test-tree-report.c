/* SPDX-License-Identifier: MIT */
/* Count files in, reports out: the JSON report reads back with the metric
 * core's own JSON reader and carries what check.py needs. */
#include <math.h>
#include <stdlib.h>

#include "metrics/builtin.h"
#include "base/array.h"
#include "metrics/counts-file.h"
#include "report/tree.h"
#include "tests/unit/lib/test.h"

static const char count_file[] =
	"{\"model\": \"ZEN4\", \"case\": \"t\", \"counts\": {"
	"\"ls_not_halted_cyc\": 1000, \"de_no_dispatch_per_slot.no_ops_from_frontend\": 1200,"
	"\"de_no_dispatch_per_slot.no_ops_from_frontend:c6\": 100,"
	"\"de_src_op_disp.all\": 3000, \"ex_ret_ops\": 2400,"
	"\"de_no_dispatch_per_slot.backend_stalls\": 1800, \"de_no_dispatch_per_slot.smt_contention\": 0,"
	"\"ex_ret_brn_misp\": 10, \"resyncs_or_nc_redirects\": 30,"
	"\"ex_no_retire.load_not_complete\": 50, \"ex_no_retire.not_complete\": 200,"
	"\"ex_ret_ucode_ops\": 240, \"ex_ret_instr\": 2000, \"not_an_event\": 5},"
	"\"constants\": {\"HYPERTHREADING_ON\": 0}}";

TEST(count_file_to_json_report)
{
	struct bt_arena a = { 0 };
	struct bt_diag d = { "" };
	struct bt_count_file cf;
	CHECK(bt_count_file_parse(&a, count_file, sizeof(count_file) - 1, "t.json", &cf, &d) == BT_OK);
	CHECK_STR(cf.model, "ZEN4");
	struct bt_model *m;
	CHECK(bt_model_open(bt_builtin_find("ZEN4"), &m, &d) == BT_OK);
	struct bt_counts *c = bt_counts_new(m);
	struct bt_result *r = bt_result_new(m);
	unsigned unused;
	bt_count_file_apply(&cf, c, &unused, &d);
	CHECK_EQ_INT(unused, 1);
	bt_evaluate(m, c, r);
	/* amdzen4 pipeline.json: frontend_bound = d_ratio(no_ops_from_frontend, 6 * cycles) */
	CHECK_NEAR(r->value[bt_model_node_find(m, "frontend_bound")], 0.2, 1e-15, 0);
	CHECK_NEAR(r->value[bt_model_node_find(m, "backend_bound")], 0.3, 1e-15, 0);
	CHECK_NEAR(r->value[bt_model_node_find(m, "retiring")], 0.4, 1e-15, 0);
	CHECK_NEAR(r->value[bt_model_node_find(m, "bad_speculation")], 0.1, 1e-15, 0);
	CHECK_NEAR(r->value[bt_model_node_find(m, "backend_bound_memory")], 0.075, 1e-15, 0);
	CHECK_NEAR(r->cpi, 0.5, 0, 0);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct bt_report_opts o = { .input_label = "test \"counts\"" };
	CHECK(bt_report_json(f, m, r, &o) == BT_OK);
	fclose(f);
	struct bt_json *root;
	CHECK_MSG(bt_json_parse(&a, buf, len, "report", &root, &d) == BT_OK, "%s", d.text);
	CHECK_STR(bt_json_get_str(root, "input"), "test \"counts\"");
	const struct bt_json *v = bt_json_get(bt_json_get(root, "values"), "retiring");
	CHECK(v && v->type == BT_JSON_NUMBER && fabs(v->u.num.value - 0.4) < 1e-15);
	const struct bt_json *node = bt_json_get(bt_json_get(root, "nodes"), "retiring_microcode");
	CHECK_STR(bt_json_get_str(node, "parent"), "retiring");
	CHECK(bt_json_get(node, "level")->u.num.value == 2);
	const struct bt_json *path = bt_json_get(root, "bottleneck_path");
	CHECK(path && path->type == BT_JSON_ARRAY);
	free(buf);
	/* the text report names the input and the path */
	buf = NULL;
	f = open_memstream(&buf, &len);
	CHECK(bt_report_text(f, m, r, &o) == BT_OK);
	fclose(f);
	CHECK(strstr(buf, "input:    test \"counts\"") != NULL);
	CHECK(strstr(buf, "frontend_bound") != NULL);
	free(buf);
	bt_result_free(r);
	bt_counts_free(c);
	bt_model_close(m);
	bt_arena_free(&a);
}

TEST(count_file_errors)
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{ "[]", "c.json:1:1: a count file is a JSON object" },
		{ "{\"model\": \"X\"}", "c.json:1:1: no \"counts\" object" },
		{ "{\"counts\": {\"A\": \"7\"}}", "c.json:1:18: counts \"A\" is not a number" },
		{ "{\"counts\": {\"A\": -3}}", "c.json:1:18: counts \"A\" is -3: a number from 0 to 1.84467e+19 expected" },
		{ "{\"counts\": {\"A\": 1.9e85}}", "c.json:1:18: counts \"A\" is 1.9e85: a number from 0 to 1.84467e+19 expected" },
		{ "{\"counts\": 3}", "c.json:1:12: \"counts\" must be an object" },
	};
	for (size_t i = 0; i < BT_ARRAY_SIZE(bad); i++) {
		struct bt_arena a = { 0 };
		struct bt_diag d = { "" };
		struct bt_count_file cf;
		CHECK(bt_count_file_parse(&a, bad[i].text, strlen(bad[i].text), "c.json", &cf, &d) != BT_OK);
		CHECK_STR(d.text, bad[i].msg);
		bt_arena_free(&a);
	}
}
