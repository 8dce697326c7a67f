/* SPDX-License-Identifier: MIT */
/* Packed built-in model -> struct bt_model_def (see model-pack.h). */
#include "metrics/model-pack.h"
#include "metrics/rl-published.h"

#include <stdlib.h>
#include <string.h>

#include "metrics/expr.h"

struct unpacker {
	const struct bt_pack_tables *t;
	const char *id;
	struct bt_arena tmp;     /* expression trees, dropped once printed */
	struct bt_expr **memo;   /* per DAG record: its tree, built once per model */
	struct bt_diag *d;
	bt_status err;
};

static void *bad(struct unpacker *u, const char *what, uint32_t i)
{
	if (u->err == BT_OK) {
		bt_diag_set(u->d, "built-in model %s: packed tables inconsistent: %s %u", u->id, what,
			    (unsigned)i);
		u->err = BT_ERR_INVALID;
	}
	return NULL;
}

static void *nomem(struct unpacker *u)
{
	if (u->err == BT_OK) {
		bt_diag_set(u->d, "out of memory");
		u->err = BT_ERR_NOMEM;
	}
	return NULL;
}

/* The string at offset off; the pool ends with a NUL (checked once). */
static const char *str(struct unpacker *u, uint32_t off)
{
	if (off >= u->t->strings_size)
		return bad(u, "string offset", off);
	return u->t->strings + off;
}

static const char *opt_str(struct unpacker *u, uint32_t off, int *ok)
{
	if (off == BT_PACK_NONE)
		return NULL;
	const char *s = str(u, off);
	*ok &= s != NULL;
	return s;
}

/* Operand count of a record: 0, 1, 2, or (if, min, max) the count in a. */
static int operands(const struct bt_pack_expr *p)
{
	switch (p->op) {
	case BT_X_NUM: case BT_X_EVENT: case BT_X_RL: case BT_X_CONST: case BT_X_REF: case BT_X_NA:
		return 0;
	case BT_X_NEG: case BT_X_NOT:
		return 1;
	case BT_X_IF:
		return p->a == 3 ? 3 : -1;
	case BT_X_MIN: case BT_X_MAX:
		return p->a >= 1 ? p->a : -1;
	case BT_X_IDENT:
		return -1;
	default:
		return p->op < BT_X_OP_COUNT ? 2 : -1; /* binary operators, d_ratio */
	}
}

/*
 * The tree of DAG record i. Operands are records below i, so the recursion
 * ends; it is as deep as the formula is high, which the generator's parse
 * bounded by BT_EXPR_MAX_HEIGHT (checked again here).
 */
static struct bt_expr *tree(struct unpacker *u, uint32_t i, unsigned height)
{
	if (i >= u->t->n_exprs)
		return bad(u, "expression record", i);
	if (u->memo[i])
		return u->memo[i];
	if (height > BT_EXPR_MAX_HEIGHT)
		return bad(u, "expression too high at record", i);
	const struct bt_pack_expr *p = &u->t->exprs[i];
	int n = operands(p);
	if (n < 0)
		return bad(u, "operator or operand count of record", i);
	struct bt_expr *e = bt_expr_new(&u->tmp, (enum bt_expr_op)p->op, (uint16_t)n);
	if (!e)
		return nomem(u);
	e->depth = 1;
	const uint16_t *ops = NULL;
	uint16_t pair[2] = { p->a, (uint16_t)p->b };
	if (p->op == BT_X_IF || p->op == BT_X_MIN || p->op == BT_X_MAX) {
		if (p->b > u->t->n_args || u->t->n_args - p->b < (uint32_t)n)
			return bad(u, "argument list of record", i);
		ops = u->t->args + p->b;
	} else if (n > 0) {
		if (p->b > UINT16_MAX)
			return bad(u, "operand of record", i);
		ops = pair;
	} else if (p->op == BT_X_NUM) {
		if (p->b >= u->t->n_numbers)
			return bad(u, "number of record", i);
		e->num = u->t->numbers[p->b];
		e->is_float = p->is_float;
	} else if (p->op != BT_X_NA && !(e->name = str(u, p->b))) {
		return NULL;
	}
	for (int k = 0; k < n; k++) {
		if (ops[k] >= i)
			return bad(u, "forward operand in record", i);
		struct bt_expr *x = tree(u, ops[k], height + 1);
		if (!x)
			return NULL;
		e->args[k] = x;
		if (x->depth + 1u > e->depth)
			e->depth = (uint16_t)(x->depth + 1u);
	}
	u->memo[i] = e;
	return e;
}

/* Canonical text of record i (NO_EXPR: NULL, *ok unchanged). */
static const char *text(struct unpacker *u, struct bt_arena *a, uint16_t i, int *ok)
{
	if (i == BT_PACK_NO_EXPR)
		return NULL;
	struct bt_expr *e = tree(u, i, 1);
	char *s = e ? bt_expr_print(a, e) : NULL;
	if (e && !s)
		nomem(u);
	*ok &= s != NULL;
	return s;
}

bt_status bt_model_unpack(struct bt_arena *a, const struct bt_model_def *def,
			  struct bt_model_def **ret, struct bt_diag *d)
{
	const struct bt_model_pack *pk = def->pack;
	struct unpacker u = { .t = pk ? pk->tables : NULL, .id = def->id, .d = d };
	if (!u.t || !u.t->strings_size || u.t->strings[u.t->strings_size - 1] != 0) {
		bt_diag_set(d, "built-in model %s: no packed tables", def->id);
		return BT_ERR_INVALID;
	}
	struct bt_model_def *out = bt_arena_alloc(a, sizeof(*out));
	struct bt_node_def *nodes = bt_arena_alloc(a, (def->n_nodes + 1u) * sizeof(*nodes));
	struct bt_event *events = bt_arena_alloc(a, (def->n_events + 1u) * sizeof(*events));
	u.memo = calloc(u.t->n_exprs + 1u, sizeof(*u.memo));
	bt_arena_init(&u.tmp);
	if (!out || !nodes || !events || !u.memo) {
		nomem(&u);
		goto done;
	}
	*out = *def;
	int ok = 1;
	for (unsigned i = 0; i < def->n_nodes && ok; i++) {
		if (pk->nodes[i] >= u.t->n_nodes) {
			bad(&u, "node index", pk->nodes[i]);
			break;
		}
		const struct bt_pack_node *p = &u.t->nodes[pk->nodes[i]];
		struct bt_node_def *n = &nodes[i];
		n->name = str(&u, p->name);
		n->parent = opt_str(&u, p->parent, &ok);
		n->formula = text(&u, a, p->formula, &ok);
		n->threshold = text(&u, a, p->threshold, &ok);
		n->threshold_literal = text(&u, a, p->threshold_literal, &ok);
		n->kind = p->kind;
		n->level = p->level;
		n->percent = p->percent;
		n->cross_check = NULL; /* only ARCH's (built at run time) have one */
		ok &= n->name != NULL;
	}
	for (unsigned i = 0; i < def->n_events && ok; i++) {
		uint16_t k = pk->events[i];
		if (k >= u.t->n_events) {
			bad(&u, "event index", k);
			break;
		}
		const struct bt_pack_event *p = &u.t->events[k];
		if (p->msr_value >= u.t->n_msr_values) {
			bad(&u, "MSR value of event", k);
			break;
		}
		events[i] = (struct bt_event){
			.name = str(&u, p->name), .source = p->source, .flags = p->flags,
			.code = p->code, .code2 = p->code2, .umask = p->umask,
			.umask_ext = p->umask_ext, .cmask = p->cmask, .fixed = p->fixed,
			.pm_field = p->pm_field, .counters = p->counters,
			.counters_ht_off = p->counters_ht_off, .msr_index = p->msr_index,
			.msr_value = u.t->msr_values[p->msr_value],
		};
		ok &= events[i].name != NULL;
	}
	out->nodes = nodes;
	out->events = events;
	if (ok && bt_rl_published_set(a, out) != BT_OK)
		nomem(&u);
done:
	free(u.memo);
	bt_arena_free(&u.tmp);
	if (u.err != BT_OK)
		return u.err;
	*ret = out;
	return BT_OK;
}
