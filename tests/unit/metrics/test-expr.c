/* SPDX-License-Identifier: MIT */
/*
 * The formula grammar: expression -> value tables in the style of perf's
 * tests/expr.c, with the vendor semantics (x/0 invalid, lazy if, Python
 * precedence, perfmon's "> =", perf's d_ratio), and the canonical printer
 * (reading its text back gives the same tree).
 */
#include <math.h>
#include <stdlib.h>

#include "metrics/builtin.h"
#include "base/array.h"
#include "metrics/expr.h"
#include "metrics/model.h"
#include "metrics/model-def.h"
#include "tests/unit/lib/test.h"

/* Evaluates canonical text as the single node of a tiny model with events
 * A=6, B=2, Z=0 and constant HYPERTHREADING_ON = 1. */
static double eval_canon(const char *formula, int *ok)
{
	static const struct bt_event events[] = {
		{ .name = "A", .fixed = -1 }, { .name = "B", .fixed = -1 }, { .name = "Z", .fixed = -1 },
	};
	struct bt_node_def node = { .name = "X", .kind = BT_NODE_INFO, .formula = formula };
	struct bt_model_def def = { .id = "T", .n_nodes = 1, .nodes = &node, .n_events = 3,
				    .events = events };
	struct bt_model *m;
	struct bt_diag d;
	*ok = bt_model_open(&def, &m, &d) == BT_OK;
	if (!*ok)
		return NAN;
	struct bt_counts *c = bt_counts_new(m);
	struct bt_result *r = bt_result_new(m);
	bt_counts_set_event(c, "A", 6);
	bt_counts_set_event(c, "B", 2);
	bt_counts_set_event(c, "Z", 0);
	bt_counts_set_constant(c, "HYPERTHREADING_ON", 1);
	bt_evaluate(m, c, r);
	double v = r->value[0];
	bt_result_free(r);
	bt_counts_free(c);
	bt_model_close(m);
	return v;
}

TEST(evaluates_formulas)
{
	static const struct {
		const char *f;
		double v;
	} cases[] = {
		{ "1 + 2 * 3", 7 },
		{ "(1 + 2) * 3", 9 },
		{ "10 - 4 - 3", 3 },
		{ "48 / 4 / 2", 6 },
		{ "-A + 10", 4 },
		{ "- - A", 6 },
		{ "A / B", 3 },
		{ "A / Z", NAN },                       /* division by zero: invalid */
		{ "Z / Z", NAN },
		{ "A / -0.0", NAN },
		{ "A if B > 1 else A / Z", 6 },         /* the untaken branch may be invalid */
		{ "A / Z if B < 1 else B", 2 },
		{ "1 if A / Z > 0 else 2", NAN },       /* an invalid condition: invalid */
		{ "1 if #HYPERTHREADING_ON else 2", 1 },
		{ "3 if 0 else 4 if 0 else 5", 5 },     /* if-else is right associative */
		{ "min(A, B, 7)", 2 },
		{ "max(A, B, 7)", 7 },
		{ "max(A / Z, 1)", NAN },               /* min/max evaluate all arguments */
		{ "min(1, 2 if 1 else A / Z)", 1 },
		{ "d_ratio(A, Z)", 0 },                 /* perf: 0 if b == 0 else a / b */
		{ "d_ratio(A, B)", 3 },
		{ "A > B and B > 1", 1 },
		{ "A < B or B < 1", 0 },
		{ "not A < B", 1 },
		{ "A >= 6", 1 },
		{ "A == 6", 1 },
		{ "A != 6", 0 },
		{ "1e3 + .5", 1000.5 },
		{ "2.5e-1 * 4", 1 },
		{ "#NA if 0 > 2 else 7", 7 },           /* perfmon's "not available" in a dead branch */
		{ "#NA", NAN },
	};
	for (size_t i = 0; i < BT_ARRAY_SIZE(cases); i++) {
		int ok;
		double v = eval_canon(cases[i].f, &ok);
		CHECK_MSG(ok, "does not compile: %s", cases[i].f);
		CHECK_MSG(bt_test_near(v, cases[i].v, 0, 0), "%s = %.17g, expected %.17g", cases[i].f, v,
			  cases[i].v);
	}
}

TEST(vendor_dialect_quirks)
{
	struct bt_arena a = { 0 };
	struct bt_diag d;
	struct bt_expr *e;
	/* perfmon writes ">=" with a space */
	CHECK(bt_expr_parse(&a, BT_DIALECT_PERFMON, "( y > = 0 )", &e, &d) == BT_OK);
	CHECK(e->op == BT_X_GE);
	/* perfmon "#NA" and aliases */
	CHECK(bt_expr_parse(&a, BT_DIALECT_PERFMON, "#NA if 0 > 2 else 1000 * a / ( b )", &e, &d) == BT_OK);
	CHECK(e->op == BT_X_IF && e->args[0]->op == BT_X_NA);
	/* thresholds: & and && below the comparisons */
	CHECK(bt_expr_parse(&a, BT_DIALECT_PERFMON, "a > 10 & b > 5 | c < 1", &e, &d) == BT_OK);
	CHECK(e->op == BT_X_OR && e->args[0]->op == BT_X_AND && e->args[0]->args[0]->op == BT_X_GT);
	CHECK(bt_expr_parse(&a, BT_DIALECT_PERFMON, "a >0.20 && b >0.15 || c", &e, &d) == BT_OK);
	CHECK(e->op == BT_X_OR);
	/* perf event syntax is one token */
	CHECK(bt_expr_parse(&a, BT_DIALECT_PERF,
			    "d_ratio(cpu@UOPS_EXECUTED.CORE\\,inv\\,cmask\\=1@ / 2, msr@tsc\\,cpu=cpu_atom@)",
			    &e, &d) == BT_OK);
	CHECK(e->op == BT_X_DRATIO && e->args[1]->op == BT_X_IDENT);
	CHECK_STR(e->args[0]->args[0]->name, "cpu@UOPS_EXECUTED.CORE\\,inv\\,cmask\\=1@");
	CHECK_STR(e->args[1]->name, "msr@tsc\\,cpu=cpu_atom@");
	CHECK(bt_expr_parse(&a, BT_DIALECT_PERF, "cpu_atom@CPU_CLK_UNHALTED.CORE_P@k / #SMT_on", &e, &d) ==
	      BT_OK);
	CHECK(e->args[1]->sigil == '#');
	bt_arena_free(&a);
}

TEST(reports_errors_with_column)
{
	static const struct {
		const char *f, *msg;
	} bad[] = {
		{ "1 +", "column 4: unexpected end of formula" },
		{ "(1 + 2", "column 7: ')' expected" },
		{ "1 + * 2", "column 5: operand expected" },
		{ "A if B", "column 7: 'else' expected" },
		{ "1 < 2 < 3", "column 7: chained comparison: add parentheses" },
		{ "A = 2", "column 3: '=' is not an operator (use '==')" },
		{ "d_ratio(A)", "column 1: d_ratio takes two arguments" },
		{ "1 2", "column 3: unexpected text after the formula" },
		{ "A ~ B", "column 3: unexpected character '~'" },
		{ "1e999", "column 1: number out of range" },
		{ "else", "column 1: unexpected 'else'" },
	};
	for (size_t i = 0; i < BT_ARRAY_SIZE(bad); i++) {
		struct bt_arena a = { 0 };
		struct bt_diag d = { "" };
		struct bt_expr *e;
		CHECK_MSG(bt_expr_parse(&a, BT_DIALECT_CANON, bad[i].f, &e, &d) != BT_OK, "accepted %s",
			  bad[i].f);
		CHECK_STR(d.text, bad[i].msg);
		bt_arena_free(&a);
	}
}

TEST(rejects_deep_nesting)
{
	char f[4000];
	size_t n = 0;
	for (int i = 0; i < 1500; i++)
		f[n++] = '(';
	f[n++] = '1';
	for (int i = 0; i < 1500; i++)
		f[n++] = ')';
	f[n] = 0;
	struct bt_arena a = { 0 };
	struct bt_diag d = { "" };
	struct bt_expr *e;
	CHECK(bt_expr_parse(&a, BT_DIALECT_CANON, f, &e, &d) == BT_ERR_INVALID);
	CHECK(strstr(d.text, "nested too deeply") != NULL);
	/* a long flat chain builds a tall tree: limited too (recursion elsewhere) */
	n = 0;
	for (int i = 0; i < 300; i++)
		n += (size_t)snprintf(f + n, sizeof(f) - n, "%s1", i ? "+" : "");
	CHECK(bt_expr_parse(&a, BT_DIALECT_CANON, f, &e, &d) == BT_ERR_INVALID);
	CHECK(strstr(d.text, "too deeply nested") != NULL);
	/* the vendor formulas stay far below both limits */
	char ok[400] = "";
	for (int i = 0; i < 40; i++)
		strcat(ok, "(");
	strcat(ok, "1");
	for (int i = 0; i < 40; i++)
		strcat(ok, ")");
	CHECK(bt_expr_parse(&a, BT_DIALECT_CANON, ok, &e, &d) == BT_OK);
	bt_arena_free(&a);
}

static int same_tree(const struct bt_expr *x, const struct bt_expr *y)
{
	if (x->op != y->op || x->nargs != y->nargs || x->is_float != y->is_float)
		return 0;
	if (x->op == BT_X_NUM && x->num != y->num)
		return 0;
	if ((x->name || y->name) && (!x->name || !y->name || strcmp(x->name, y->name)))
		return 0;
	for (int i = 0; i < x->nargs; i++)
		if (!same_tree(x->args[i], y->args[i]))
			return 0;
	return 1;
}

TEST(printer_round_trips)
{
	static const char *const f[] = {
		"a - (b - c)", "(a - b) - c", "a / (b * c)", "(a + b) + c", "a + (b + c)",
		"-(a * b)", "(-a) * b", "a if (b if c else d) else e", "(a if b else c) + 1",
		"not (a and b)", "(a < b) == (c < d)", "max(a, b) / min(c, d, e)",
		"retire_latency(MEM_LOAD_RETIRED.L3_HIT) * 2", "$Frontend_Bound / 100 > 0.2",
		"'power@energy-pkg@' * 15.6", "OCR.DEMAND_RFO.L3_MISS:ocr_msr_val=0x103b800002 + 1",
		"1e9 + 1000000000 + 0.0001 + 4.4 + 2.5e-10", "#HYPERTHREADING_ON * 2", "$'odd name' + 1",
	};
	for (size_t i = 0; i < BT_ARRAY_SIZE(f); i++) {
		struct bt_arena a = { 0 };
		struct bt_diag d = { "" };
		struct bt_expr *e1, *e2;
		CHECK_MSG(bt_expr_parse(&a, BT_DIALECT_CANON, f[i], &e1, &d) == BT_OK, "%s: %s", f[i], d.text);
		char *text = bt_expr_print(&a, e1);
		CHECK_MSG(bt_expr_parse(&a, BT_DIALECT_CANON, text, &e2, &d) == BT_OK, "%s: %s", text, d.text);
		CHECK_MSG(same_tree(e1, e2), "%s printed as %s", f[i], text);
		bt_arena_free(&a);
	}
}

TEST(float_literals_stay_floats)
{
	struct bt_arena a = { 0 };
	struct bt_diag d;
	struct bt_expr *e;
	CHECK(bt_expr_parse(&a, BT_DIALECT_PERF, "1e9", &e, &d) == BT_OK);
	CHECK(e->is_float);
	CHECK_STR(bt_expr_print(&a, e), "1000000000.0");
	CHECK(bt_expr_parse(&a, BT_DIALECT_PERFMON, "1000000000", &e, &d) == BT_OK);
	CHECK(!e->is_float);
	CHECK_STR(bt_expr_print(&a, e), "1000000000");
	bt_arena_free(&a);
}

TEST(shortest_round_trip_numbers)
{
	static const double v[] = { 0.1, 0.0001, 4.4, 1.0 / 3, 1e-300, 6.02214076e23, 123456789.125 };
	for (size_t i = 0; i < BT_ARRAY_SIZE(v); i++) {
		char buf[40];
		bt_format_double(buf, sizeof(buf), v[i]);
		CHECK_MSG(strtod(buf, NULL) == v[i], "%.17g printed as %s", v[i], buf);
	}
	char buf[40];
	bt_format_double(buf, sizeof(buf), 0.0001);
	CHECK_STR(buf, "0.0001");
}
