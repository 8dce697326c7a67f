/* SPDX-License-Identifier: MIT */
/*
 * The expression DAG of a model: every distinct operation once (hash-consed),
 * in an order where operands come before their users, so evaluation is one
 * pass over an array. Operations on constants are folded at build time with
 * the same code that evaluates them (bt_op_apply), so folding changes no bit.
 * Commutative + and * have their operands ordered: a+b and b+a are the same
 * IEEE operation and share one entry; (a+b)+c and a+(b+c) stay distinct.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/model-internal.h"

struct dag {
	struct bt_op *ops;
	uint32_t n, cap;
	uint32_t *table;   /* open addressing: op index + 1, 0 = empty */
	uint32_t table_size;
};

static uint64_t hash_op(const struct bt_op *o)
{
	uint64_t kb;
	memcpy(&kb, &o->k, sizeof(kb));
	uint64_t h = 1469598103934665603ull;
	uint64_t parts[5] = { o->code, o->a, o->b, o->c, kb };
	for (int i = 0; i < 5; i++) {
		h ^= parts[i];
		h *= 1099511628211ull;
		h ^= h >> 29;
	}
	return h;
}

static int same_op(const struct bt_op *x, const struct bt_op *y)
{
	return x->code == y->code && x->a == y->a && x->b == y->b && x->c == y->c &&
	       memcmp(&x->k, &y->k, sizeof(x->k)) == 0;
}

struct dag *bt_dag_new(void)
{
	return calloc(1, sizeof(struct dag));
}

void bt_dag_free(struct dag *g)
{
	if (!g)
		return;
	free(g->ops);
	free(g->table);
	free(g);
}

static int rehash(struct dag *g)
{
	uint32_t size = g->table_size ? g->table_size * 2 : 1024;
	uint32_t *t = calloc(size, sizeof(*t));
	if (!t)
		return -1;
	for (uint32_t i = 0; i < g->n; i++) {
		uint32_t h = (uint32_t)hash_op(&g->ops[i]) & (size - 1);
		while (t[h])
			h = (h + 1) & (size - 1);
		t[h] = i + 1;
	}
	free(g->table);
	g->table = t;
	g->table_size = size;
	return 0;
}

static int is_imm(const struct dag *g, uint32_t i)
{
	return i != NO_OP && g->ops[i].code == OP_IMM;
}

static int arity(uint8_t code)
{
	switch (code) {
	case OP_EVENT: case OP_RL: case OP_CONST: case OP_IMM:
		return 0;
	case OP_NEG: case OP_NOT:
		return 1;
	case OP_IF:
		return 3;
	default:
		return 2;
	}
}

uint32_t bt_dag_op(struct dag *g, uint8_t code, uint32_t a, uint32_t b, uint32_t c, double k)
{
	int n = arity(code);
	if ((n >= 1 && a == NO_OP) || (n >= 2 && b == NO_OP) || (n >= 3 && c == NO_OP))
		return NO_OP;
	/* unused fields are zero so equal operations hash equal (leaves keep
	 * their index in a) */
	if (n < 3)
		c = 0;
	if (n < 2)
		b = 0;
	if (code == OP_IMM)
		a = 0;
	if (code != OP_IMM)
		k = 0;
	if ((code == OP_ADD || code == OP_MUL) && a > b) {
		uint32_t t = a;
		a = b;
		b = t;
	}
	/* fold operations whose operands are all constants */
	if (n > 0) {
		if (code == OP_IF && is_imm(g, b)) {
			double cond = g->ops[b].k;
			if (isnan(cond))
				return bt_dag_op(g, OP_IMM, 0, 0, 0, NAN);
			return cond != 0 ? a : c;
		}
		if (is_imm(g, a) && (n < 2 || is_imm(g, b)) && (n < 3 || is_imm(g, c))) {
			double v[3] = { g->ops[a].k, n > 1 ? g->ops[b].k : 0, n > 2 ? g->ops[c].k : 0 };
			struct bt_op tmp = { .code = code, .a = 0, .b = 1, .c = 2 };
			return bt_dag_op(g, OP_IMM, 0, 0, 0, bt_op_apply(&tmp, v));
		}
	}
	struct bt_op op = { .code = code, .a = a, .b = b, .c = c, .k = k };
	if (g->n * 2 >= g->table_size && rehash(g) < 0)
		return NO_OP;
	uint32_t h = (uint32_t)hash_op(&op) & (g->table_size - 1);
	while (g->table[h]) {
		if (same_op(&g->ops[g->table[h] - 1], &op))
			return g->table[h] - 1;
		h = (h + 1) & (g->table_size - 1);
	}
	if (g->n == g->cap) {
		uint32_t cap = g->cap ? g->cap * 2 : 1024;
		struct bt_op *ops = realloc(g->ops, cap * sizeof(*ops));
		if (!ops)
			return NO_OP;
		g->ops = ops;
		g->cap = cap;
	}
	g->ops[g->n] = op;
	g->table[h] = g->n + 1;
	return g->n++;
}

int bt_dag_finish(struct dag *g, struct bt_arena *a, struct bt_op **ret_ops, uint32_t *ret_n)
{
	struct bt_op *ops = bt_arena_alloc(a, (g->n + 1) * sizeof(*ops));
	if (!ops)
		return -1;
	if (g->n)
		memcpy(ops, g->ops, g->n * sizeof(*ops));
	*ret_ops = ops;
	*ret_n = g->n;
	return 0;
}

static double cmp(uint8_t code, double x, double y)
{
	switch (code) {
	case OP_LT: case OP_TLT: return x < y;
	case OP_GT: case OP_TGT: return x > y;
	case OP_LE: case OP_TLE: return x <= y;
	case OP_GE: case OP_TGE: return x >= y;
	case OP_EQ: case OP_TEQ: return x == y;
	default: return x != y;
	}
}

double bt_op_apply(const struct bt_op *o, const double *v)
{
	double x = v[o->a], y = v[o->b];
	switch (o->code) {
	case OP_IMM: return o->k;
	case OP_NEG: return -x;
	case OP_NOT: return isnan(x) ? x : (double)(x == 0);
	case OP_ADD: return x + y;
	case OP_SUB: return x - y;
	case OP_MUL: return x * y;
	case OP_DIV: return y == 0 ? NAN : x / y;
	case OP_LT: case OP_GT: case OP_LE: case OP_GE: case OP_EQ: case OP_NE:
		return isnan(x) || isnan(y) ? NAN : cmp(o->code, x, y);
	case OP_TLT: case OP_TGT: case OP_TLE: case OP_TGE: case OP_TEQ: case OP_TNE:
		return isnan(x) || isnan(y) ? 0 : cmp(o->code, x, y); /* invalid compares false */
	case OP_AND: return isnan(x) || x == 0 ? x : y;
	case OP_OR: return isnan(x) || x != 0 ? x : y;
	case OP_IF: return isnan(y) ? y : y != 0 ? x : v[o->c];
	case OP_MIN: return isnan(x) || isnan(y) ? NAN : y < x ? y : x;
	case OP_MAX: return isnan(x) || isnan(y) ? NAN : y > x ? y : x;
	case OP_DRATIO: return isnan(y) ? y : y == 0 ? 0 : x / y;
	default: return NAN;
	}
}
