/* SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include <string.h>

#include "base/arena.h"
#include "base/array.h"
#include "metrics/expr.h"
#include "validate/expect.h"

/* What a parsed expression is evaluated against (k NULL: syntax only). */
struct env {
	const struct bt_kernel *k, *empty;
	uint64_t n;
	const struct bt_page_span *pages; /* mapping k's buffer; NULL: unknown */
};

/* Counts to which `empty`'s only instruction, RET, adds nothing by their
 * definitions (kernels/kernel.h): 0 in the calibration window even where
 * `empty` does not declare them. Loads and stores are not here: RET reads
 * the return address from the stack, and whether a load event counts it
 * is the event's business. */
static bool ret_has_none(const char *count)
{
	static const char *const none[] = {
		BT_KC_COND, BT_KC_COND_TAKEN, BT_KC_COND_NOT_TAKEN, BT_KC_JMP_DIRECT,
		BT_KC_NEAR_CALLS, BT_KC_INDIRECT, BT_KC_RANDOM_COND, BT_KC_DIVIDES,
		/* RET reads the stack slot its CALL has just written: a line
		 * and a page touched a moment ago. */
		BT_KC_LINE_LOADS, BT_KC_PAGE_LOADS,
	};
	for (size_t i = 0; i < BT_ARRAY_SIZE(none); i++)
		if (strcmp(count, none[i]) == 0)
			return true;
	return false;
}

static bt_status ident(const struct env *v, const char *name, double *ret, struct bt_diag *d)
{
	if (strcmp(name, "n") == 0) {
		*ret = (double)v->n;
		return BT_OK;
	}
	if (strncmp(name, "k.", 2) != 0 || !name[2]) {
		bt_diag_set(d, "unknown name '%s' (use k.COUNT or n)", name);
		return BT_ERR_INVALID;
	}
	for (const char *p = name + 2; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_')) {
			bt_diag_set(d, "'%s': a count name has only a-z, 0-9 and _", name);
			return BT_ERR_INVALID;
		}
	if (!v->k) {
		*ret = 1.0;
		return BT_OK;
	}
	int64_t c, c0;
	if (!bt_kernel_count_on(v->k, name + 2, v->n, v->pages, &c)) {
		if (bt_kernel_count_per_page(v->k, name + 2)) {
			char sz[40];

			if (v->pages)
				bt_page_span_sizes(v->pages, sz, sizeof(sz));
			bt_diag_set(d, "kernel %s declares '%s' per page size, and its buffer's "
				       "pages are %s (%s)", v->k->name, name + 2,
				    v->pages ? sz : "unknown", v->pages ? v->pages->source : "not read");
			return BT_ERR_UNSUPPORTED;
		}
		bt_diag_set(d, "kernel %s declares no count '%s'", v->k->name, name + 2);
		return BT_ERR_UNSUPPORTED;
	}
	if (!v->empty || !bt_kernel_count(v->empty, name + 2, v->empty->n_default, &c0)) {
		if (ret_has_none(name + 2)) {
			*ret = (double)c;
			return BT_OK;
		}
		bt_diag_set(d, "kernel empty declares no count '%s', so the calibration "
			       "window's share of it is unknown", name + 2);
		return BT_ERR_UNSUPPORTED;
	}
	*ret = (double)(c - c0);
	return BT_OK;
}

static bt_status eval(const struct env *v, const struct bt_expr *e, double *ret, struct bt_diag *d)
{
	double a = 0, b = 0;
	bt_status st;

	switch (e->op) {
	case BT_X_NUM:
		*ret = e->num;
		return BT_OK;
	case BT_X_IDENT:
	case BT_X_EVENT:
		if (e->sigil) {
			bt_diag_set(d, "column %u: quoted or sigil names are not expected counts",
				    (unsigned)e->pos + 1);
			return BT_ERR_INVALID;
		}
		return ident(v, e->name, ret, d);
	case BT_X_NEG:
		if ((st = eval(v, e->args[0], &a, d)) != BT_OK)
			return st;
		*ret = -a;
		return BT_OK;
	case BT_X_ADD:
	case BT_X_SUB:
	case BT_X_MUL:
	case BT_X_DIV:
		if ((st = eval(v, e->args[0], &a, d)) != BT_OK ||
		    (st = eval(v, e->args[1], &b, d)) != BT_OK)
			return st;
		switch (e->op) {
		case BT_X_ADD: *ret = a + b; break;
		case BT_X_SUB: *ret = a - b; break;
		case BT_X_MUL: *ret = a * b; break;
		default:
			if (b == 0) {
				if (!v->k) {  /* syntax check: names stand for 1, so n-n is 0 */
					*ret = 0;
					return BT_OK;
				}
				bt_diag_set(d, "column %u: division by zero", (unsigned)e->pos + 1);
				return BT_ERR_INVALID;
			}
			*ret = a / b;
		}
		return BT_OK;
	default:
		bt_diag_set(d, "column %u: '%s' is not allowed in an expected count (only "
			       "numbers, k.COUNT, n, + - * / and parentheses)",
			    (unsigned)e->pos + 1, bt_expr_op_name((enum bt_expr_op)e->op));
		return BT_ERR_INVALID;
	}
}

static bt_status run(const char *text, const struct env *v, double *ret, struct bt_diag *d)
{
	struct bt_arena a;
	struct bt_expr *e = NULL;
	bt_status st;

	bt_arena_init(&a);
	st = bt_expr_parse(&a, BT_DIALECT_CANON, text, &e, d);
	if (st == BT_OK)
		st = eval(v, e, ret, d);
	bt_arena_free(&a);
	return st;
}

bt_status bt_vexpr_check(const char *text, struct bt_diag *d)
{
	struct env v = { NULL, NULL, 1, NULL };
	double x;

	return run(text, &v, &x, d);
}

bt_status bt_vexpr_eval_on(const char *text, const struct bt_kernel *k, uint64_t n,
			   const struct bt_page_span *pages, double *ret, struct bt_diag *d)
{
	struct env v = { k, bt_kernel_find("empty"), n, pages };

	return run(text, &v, ret, d);
}

bt_status bt_vexpr_eval(const char *text, const struct bt_kernel *k, uint64_t n, double *ret,
			struct bt_diag *d)
{
	return bt_vexpr_eval_on(text, k, n, NULL, ret, d);
}
