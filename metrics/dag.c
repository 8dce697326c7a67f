/* SPDX-License-Identifier: MIT */
/*
 * The expression DAG of a model: every distinct operation once (hash-consed).
 * Operations on literals are folded at build time with the code that
 * evaluates them (bt_op_apply) and Python's int/float typing, so folding
 * changes no bit. Commutative + and * have their operands ordered: a+b and
 * b+a are the same IEEE operation and share one entry; (a+b)+c and a+(b+c)
 * stay distinct. bt_dag_finish orders the operations by depth and opcode so
 * that evaluation is a series of tight loops (see struct bt_segment).
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
	/* MurmurHash3's 64-bit finaliser: the table takes the low bits, and
	 * literals differ in their high bits (4.0 and 8.0 only in the
	 * exponent): without it, a file of distinct literals put them all in
	 * a few slots and hash-consing went quadratic */
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 33;
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

int bt_op_arity(uint8_t code)
{
	switch (code) {
	case OP_EVENT: case OP_RL: case OP_CONST: case OP_IMM: case OP_IMMI:
		return 0;
	case OP_NEG: case OP_NOT:
		return 1;
	case OP_IF:
		return 3;
	default:
		return 2;
	}
}

static int is_lit(const struct dag *g, uint32_t i)
{
	return g->ops[i].code == OP_IMM || g->ops[i].code == OP_IMMI;
}

static uint8_t join(uint8_t x, uint8_t y)
{
	if (x == T_BOOL && y == T_BOOL)
		return T_BOOL;
	x = x == T_BOOL ? T_INT : x;
	y = y == T_BOOL ? T_INT : y;
	return x == y ? x : T_MAYBE;
}

/* The static Python type of an operation's result (struct bt_op.type). */
static uint8_t result_type(const struct dag *g, uint8_t code, uint32_t a, uint32_t b, uint32_t c)
{
	const struct bt_op *o = g->ops;
	switch (code) {
	case OP_EVENT:
	case OP_IMMI:
		return T_INT;
	case OP_CONST:
		/* perfmon gives these as numbers with a fraction */
		return a == BT_C_DURATIONTIMEINMILLISECONDS || a == BT_C_TSC_HZ ? T_FLOAT : T_INT;
	case OP_RL:
	case OP_IMM:
	case OP_DIV:
		return T_FLOAT;
	case OP_NEG:
		return o[a].type == T_BOOL ? T_INT : o[a].type;
	case OP_ADD: case OP_SUB: case OP_MUL: {
		uint8_t x = o[a].type == T_BOOL ? T_INT : o[a].type;
		uint8_t y = o[b].type == T_BOOL ? T_INT : o[b].type;
		return x == T_FLOAT || y == T_FLOAT ? T_FLOAT : x == T_INT && y == T_INT ? T_INT : T_MAYBE;
	}
	case OP_IF:
		return join(o[a].type, o[c].type);
	case OP_MIN: case OP_MAX: case OP_AND: case OP_OR:
		return join(o[a].type, o[b].type);
	case OP_DRATIO:
		return T_MAYBE; /* the int 0, or a quotient */
	default:
		return T_BOOL;  /* comparisons and not */
	}
}

/* Folds an operation on literals; returns NO_OP when it cannot (or need not). */
static uint32_t fold(struct dag *g, uint8_t code, uint32_t a, uint32_t b, uint32_t c)
{
	int n = bt_op_arity(code);
	if (code == OP_IF && is_lit(g, b)) {
		double cond = g->ops[b].k;
		if (isnan(cond))
			return bt_dag_op(g, OP_IMM, 0, 0, 0, NAN);
		return cond != 0 ? a : c;
	}
	if (n == 0 || !is_lit(g, a) || (n > 1 && !is_lit(g, b)) || (n > 2 && !is_lit(g, c)))
		return NO_OP;
	double v[3] = { g->ops[a].k, n > 1 ? g->ops[b].k : 0, n > 2 ? g->ops[c].k : 0 };
	struct bt_op tmp = { .code = code, .a = 0, .b = 1, .c = 2 };
	double r = bt_op_apply(&tmp, v);
	uint8_t t = result_type(g, code, a, b, c);
	if (t == T_BOOL)
		t = T_INT;
	if (t == T_MAYBE) {
		/* the operand Python would return decides */
		uint32_t chosen = r == v[0] ? a : b;
		if (code == OP_DRATIO)
			t = v[1] == 0 ? T_INT : T_FLOAT;
		else
			t = g->ops[chosen].type == T_FLOAT ? T_FLOAT : T_INT;
	}
	if (t == T_INT && !(fabs(r) <= 9007199254740992.0))
		return NO_OP; /* beyond exact doubles: leave it to the evaluator */
	return bt_dag_op(g, t == T_INT ? OP_IMMI : OP_IMM, 0, 0, 0, r);
}

uint32_t bt_dag_op(struct dag *g, uint8_t code, uint32_t a, uint32_t b, uint32_t c, double k)
{
	int n = bt_op_arity(code);
	if ((n >= 1 && a == NO_OP) || (n >= 2 && b == NO_OP) || (n >= 3 && c == NO_OP))
		return NO_OP;
	/* unused fields are zero so equal operations hash equal (leaves keep
	 * their index in a) */
	if (n < 3)
		c = 0;
	if (n < 2)
		b = 0;
	if (code == OP_IMM || code == OP_IMMI)
		a = 0;
	else
		k = 0;
	if ((code == OP_ADD || code == OP_MUL) && a > b) {
		uint32_t t = a;
		a = b;
		b = t;
	}
	uint32_t folded = fold(g, code, a, b, c);
	if (folded != NO_OP)
		return folded;
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
	op.type = result_type(g, code, a, b, c);
	g->ops[g->n] = op;
	g->table[h] = g->n + 1;
	return g->n++;
}

struct order_key {
	uint32_t depth;
	uint8_t code;
	uint32_t index;
};

static int cmp_key(const void *x, const void *y)
{
	const struct order_key *p = x, *q = y;
	if (p->depth != q->depth)
		return p->depth < q->depth ? -1 : 1;
	if (p->code != q->code)
		return p->code < q->code ? -1 : 1;
	return p->index < q->index ? -1 : p->index > q->index;
}

int bt_dag_finish(struct dag *g, struct bt_model *m, uint32_t **ret_remap)
{
	uint32_t n = g->n;
	struct order_key *keys = malloc((n + 1) * sizeof(*keys));
	uint32_t *remap = malloc((n + 1) * sizeof(*remap));
	struct bt_arena *a = &m->arena;
	int rc = -1;
	if (!keys || !remap)
		goto out;
	/* depth: leaves 0, others one more than their deepest operand */
	uint32_t *depth = remap; /* reused as scratch before it becomes the remap */
	for (uint32_t i = 0; i < n; i++) {
		const struct bt_op *o = &g->ops[i];
		int ar = bt_op_arity(o->code);
		uint32_t d = 0;
		if (ar >= 1 && depth[o->a] + 1 > d)
			d = depth[o->a] + 1;
		if (ar >= 2 && depth[o->b] + 1 > d)
			d = depth[o->b] + 1;
		if (ar >= 3 && depth[o->c] + 1 > d)
			d = depth[o->c] + 1;
		depth[i] = d;
		keys[i] = (struct order_key){ .depth = d, .code = o->code, .index = i };
	}
	qsort(keys, n, sizeof(*keys), cmp_key);
	for (uint32_t i = 0; i < n; i++)
		remap[keys[i].index] = i;
	m->ops = bt_arena_alloc(a, (n + 1) * sizeof(*m->ops));
	m->opa = bt_arena_alloc(a, (n + 1) * sizeof(uint32_t));
	m->opb = bt_arena_alloc(a, (n + 1) * sizeof(uint32_t));
	m->opc = bt_arena_alloc(a, (n + 1) * sizeof(uint32_t));
	m->imm = bt_arena_alloc(a, (n + 1) * sizeof(double));
	m->segs = bt_arena_alloc(a, (n + 1) * sizeof(*m->segs));
	m->int_ops = bt_arena_alloc(a, (n + 1) * sizeof(uint32_t));
	if (!m->ops || !m->opa || !m->opb || !m->opc || !m->imm || !m->segs || !m->int_ops)
		goto out;
	m->n_segs = 0;
	m->n_int_ops = 0;
	for (uint32_t i = 0; i < n; i++) {
		struct bt_op o = g->ops[keys[i].index];
		int ar = bt_op_arity(o.code);
		if (ar >= 1)
			o.a = remap[o.a];
		if (ar >= 2)
			o.b = remap[o.b];
		if (ar >= 3)
			o.c = remap[o.c];
		m->ops[i] = o;
		m->opa[i] = o.a;
		m->opb[i] = o.b;
		m->opc[i] = o.c;
		m->imm[i] = o.k;
		if (o.type == T_INT || o.type == T_MAYBE)
			m->int_ops[m->n_int_ops++] = i;
		if (!m->n_segs || m->segs[m->n_segs - 1].code != o.code ||
		    keys[i].depth != keys[i - 1].depth) {
			m->segs[m->n_segs++] = (struct bt_segment){ .start = i, .end = i + 1, .code = o.code };
		} else {
			m->segs[m->n_segs - 1].end = i + 1;
		}
	}
	m->n_ops = n;
	*ret_remap = remap;
	remap = NULL;
	rc = 0;
out:
	free(keys);
	free(remap);
	return rc;
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
	case OP_IMM: case OP_IMMI: return o->k;
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
