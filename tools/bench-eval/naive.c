/* SPDX-License-Identifier: MIT */
/*
 * The baseline for bench-eval: a plain tree-walking interpreter that
 * evaluates each node's formula on its own, as the oracles do (lazy
 * "if", an "invalid" flag for division by zero, a reference to another node
 * evaluates that node's formula again). Names are resolved to indexes once,
 * so the comparison measures evaluation, not string lookups.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/expr.h"
#include "tools/bench-eval/naive.h"

struct tnode {
	uint8_t op;
	int idx;                 /* event / constant / retire latency / node */
	double num;
	struct tnode **args;
	int nargs;
};

struct naive {
	struct bt_arena arena;
	const struct bt_model *m;
	struct tnode **formula;  /* per node */
};

static struct tnode *convert(struct naive *nv, const struct bt_expr *e)
{
	struct tnode *t = bt_arena_alloc(&nv->arena, sizeof(*t));
	if (!t)
		return NULL;
	t->op = e->op;
	t->num = e->num;
	t->nargs = e->nargs;
	switch (e->op) {
	case BT_X_EVENT:
		t->idx = bt_model_event_find(nv->m, e->name);
		break;
	case BT_X_CONST:
		t->idx = (int)bt_constant_find(e->name);
		break;
	case BT_X_REF:
		t->idx = bt_model_node_find(nv->m, e->name);
		break;
	case BT_X_RL:
		for (unsigned i = 0; i < bt_model_retire_latency_count(nv->m); i++)
			if (!strcmp(bt_model_retire_latency_name(nv->m, i), e->name))
				t->idx = (int)i;
		break;
	default:
		break;
	}
	if (e->nargs) {
		t->args = bt_arena_alloc(&nv->arena, (size_t)e->nargs * sizeof(*t->args));
		if (!t->args)
			return NULL;
		for (int i = 0; i < e->nargs; i++)
			if (!(t->args[i] = convert(nv, e->args[i])))
				return NULL;
	}
	return t;
}

struct naive *naive_new(const struct bt_model *m)
{
	struct naive *nv = calloc(1, sizeof(*nv));
	if (!nv)
		return NULL;
	nv->m = m;
	unsigned n = bt_model_node_count(m);
	nv->formula = bt_arena_alloc(&nv->arena, (n + 1) * sizeof(*nv->formula));
	for (unsigned i = 0; nv->formula && i < n; i++) {
		struct bt_expr *e;
		struct bt_diag d;
		if (bt_expr_parse(&nv->arena, BT_DIALECT_CANON, bt_model_node(m, i)->formula, &e, &d) !=
			    BT_OK ||
		    !(nv->formula[i] = convert(nv, e))) {
			naive_free(nv);
			return NULL;
		}
	}
	return nv;
}

void naive_free(struct naive *nv)
{
	if (!nv)
		return;
	bt_arena_free(&nv->arena);
	free(nv);
}

/* Returns 0 and sets *ok = 0 when the value is invalid (division by zero). */
static double ev(const struct naive *nv, const struct tnode *t, const struct bt_counts *c, int *ok)
{
	if (!*ok)
		return 0;
	double x, y;
	switch (t->op) {
	case BT_X_NUM: return t->num;
	case BT_X_NA: *ok = 0; return 0;
	case BT_X_EVENT:
		x = c->events[t->idx];
		if (isnan(x))
			*ok = 0;
		return x;
	case BT_X_RL: return c->retire_latency[t->idx];
	case BT_X_CONST: return c->constants[t->idx];
	case BT_X_REF: return ev(nv, nv->formula[t->idx], c, ok);
	case BT_X_NEG: return -ev(nv, t->args[0], c, ok);
	case BT_X_NOT: return ev(nv, t->args[0], c, ok) == 0;
	case BT_X_ADD: x = ev(nv, t->args[0], c, ok); return x + ev(nv, t->args[1], c, ok);
	case BT_X_SUB: x = ev(nv, t->args[0], c, ok); return x - ev(nv, t->args[1], c, ok);
	case BT_X_MUL: x = ev(nv, t->args[0], c, ok); return x * ev(nv, t->args[1], c, ok);
	case BT_X_DIV:
		x = ev(nv, t->args[0], c, ok);
		y = ev(nv, t->args[1], c, ok);
		if (y == 0)
			*ok = 0;
		return *ok ? x / y : 0;
	case BT_X_LT: x = ev(nv, t->args[0], c, ok); return x < ev(nv, t->args[1], c, ok);
	case BT_X_GT: x = ev(nv, t->args[0], c, ok); return x > ev(nv, t->args[1], c, ok);
	case BT_X_LE: x = ev(nv, t->args[0], c, ok); return x <= ev(nv, t->args[1], c, ok);
	case BT_X_GE: x = ev(nv, t->args[0], c, ok); return x >= ev(nv, t->args[1], c, ok);
	case BT_X_EQ: x = ev(nv, t->args[0], c, ok); return x == ev(nv, t->args[1], c, ok);
	case BT_X_NE: x = ev(nv, t->args[0], c, ok); return x != ev(nv, t->args[1], c, ok);
	case BT_X_AND: x = ev(nv, t->args[0], c, ok); return x == 0 ? x : ev(nv, t->args[1], c, ok);
	case BT_X_OR: x = ev(nv, t->args[0], c, ok); return x != 0 ? x : ev(nv, t->args[1], c, ok);
	case BT_X_IF:
		return ev(nv, t->args[1], c, ok) != 0 ? ev(nv, t->args[0], c, ok) : ev(nv, t->args[2], c, ok);
	case BT_X_MIN:
	case BT_X_MAX:
		x = ev(nv, t->args[0], c, ok);
		for (int i = 1; i < t->nargs; i++) {
			y = ev(nv, t->args[i], c, ok);
			if (t->op == BT_X_MIN ? y < x : y > x)
				x = y;
		}
		return x;
	case BT_X_DRATIO:
		x = ev(nv, t->args[0], c, ok);
		y = ev(nv, t->args[1], c, ok);
		return y == 0 ? 0 : x / y;
	default:
		*ok = 0;
		return 0;
	}
}

void naive_eval(const struct naive *nv, const struct bt_counts *c, double *values)
{
	unsigned n = bt_model_node_count(nv->m);
	for (unsigned i = 0; i < n; i++) {
		int ok = 1;
		double v = ev(nv, nv->formula[i], c, &ok);
		values[i] = ok ? v : NAN;
	}
}
