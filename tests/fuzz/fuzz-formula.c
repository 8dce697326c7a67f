/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer: formula text in all three dialects. A canonical formula that
 * parses must print to text that parses to the same tree; compiled into a
 * one-node model it must evaluate (also on the exact-integer path) without
 * crashing.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/expr.h"
#include "metrics/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int same_tree(const struct bt_expr *x, const struct bt_expr *y)
{
	if (x->op != y->op || x->nargs != y->nargs || x->is_float != y->is_float)
		return 0;
	if (x->op == BT_X_NUM && !(x->num == y->num))
		return 0;
	if ((x->name || y->name) && (!x->name || !y->name || strcmp(x->name, y->name)))
		return 0;
	for (int i = 0; i < x->nargs; i++)
		if (!same_tree(x->args[i], y->args[i]))
			return 0;
	return 1;
}

static const struct bt_event events[] = {
	{ .name = "A", .fixed = -1 }, { .name = "B", .fixed = -1 }, { .name = "C", .fixed = -1 },
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 4096)
		return 0;
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	struct bt_arena a;
	bt_arena_init(&a);
	struct bt_diag d;
	struct bt_expr *e, *e2;
	bt_expr_parse(&a, BT_DIALECT_PERFMON, text, &e, &d);
	bt_expr_parse(&a, BT_DIALECT_PERF, text, &e, &d);
	if (bt_expr_parse(&a, BT_DIALECT_CANON, text, &e, &d) == BT_OK) {
		char *printed = bt_expr_print(&a, e);
		if (printed) {
			if (bt_expr_parse(&a, BT_DIALECT_CANON, printed, &e2, &d) != BT_OK || !same_tree(e, e2))
				abort();
		}
		struct bt_node_def nodes[2] = {
			{ .name = "X", .kind = BT_NODE_TREE, .level = 1, .formula = text,
			  .threshold = "$X > 0.5" },
			{ .name = "Y", .kind = BT_NODE_INFO, .formula = "A + 1" },
		};
		struct bt_model_def def = { .id = "F", .n_nodes = 2, .nodes = nodes, .n_events = 3,
					    .events = events, .cpi_node = "Y" };
		struct bt_model *m;
		if (bt_model_open(&def, &m, &d) == BT_OK) {
			struct bt_counts *c = bt_counts_new(m);
			struct bt_result *r = bt_result_new(m);
			static const double sets[3][3] = {
				{ 3, 0, 7 }, { 281474976710655.0, 281474976710653.0, 34 }, { NAN, 1, 2 } };
			for (int k = 0; c && r && k < 3; k++) {
				bt_counts_reset(c);
				bt_counts_set_event(c, "A", sets[k][0]);
				bt_counts_set_event(c, "B", sets[k][1]);
				bt_counts_set_event(c, "C", sets[k][2]);
				bt_counts_set_constant(c, "HYPERTHREADING_ON", k & 1);
				bt_evaluate(m, c, r);
			}
			uint16_t ev[4];
			unsigned n;
			bt_model_events_up_to_level(m, 1, NULL, ev, &n);
			bt_result_free(r);
			bt_counts_free(c);
			bt_model_close(m);
		}
	}
	bt_arena_free(&a);
	free(text);
	return 0;
}
