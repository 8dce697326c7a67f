/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/json-read.h"
#include "validate/expect.h"
#include "validate/spec.h"

void bt_vspec_init(struct bt_vspec *s, const char *file)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->file, sizeof(s->file), "%s", file ? file : "");
}

void bt_vspec_free(struct bt_vspec *s)
{
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

bt_status bt_vspec_add(struct bt_vspec *s, const struct bt_vspec_entry *e)
{
	if (s->n >= BT_VSPEC_MAX_ENTRIES)
		return BT_ERR_FULL;
	struct bt_vspec_entry *v = realloc(s->v, (size_t)(s->n + 1) * sizeof(*v));
	if (!v)
		return BT_ERR_NOMEM;
	s->v = v;
	s->v[s->n++] = *e;
	return BT_OK;
}

/* Where an error is: file, entry, field. */
struct loc {
	const char *file;
	int index;
	uint32_t line;
	const char *field;
};

__attribute__((format(printf, 3, 4)))
static bt_status bad(struct bt_diag *d, const struct loc *l, const char *fmt, ...)
{
	char msg[240];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (l->index < 0 && l->field)
		bt_diag_set(d, "%s: \"%s\": %s", l->file, l->field, msg);
	else if (l->index < 0)
		bt_diag_set(d, "%s: %s", l->file, msg);
	else
		bt_diag_set(d, "%s: checks[%d] (line %u): \"%s\": %s", l->file, l->index,
			    (unsigned)l->line, l->field ? l->field : "", msg);
	return BT_ERR_INVALID;
}

static bt_status get_text(const struct bt_json *v, const struct loc *l, char *out, size_t len,
			  struct bt_diag *d)
{
	if (!v || v->type != BT_JSON_STRING)
		return bad(d, l, "expected a string");
	if (v->u.str.len == 0)
		return bad(d, l, "is empty");
	if (v->u.str.len >= len)
		return bad(d, l, "longer than %zu characters", len - 1);
	if (memchr(v->u.str.s, '\0', v->u.str.len))
		return bad(d, l, "contains a NUL character");
	memcpy(out, v->u.str.s, v->u.str.len + 1);
	return BT_OK;
}

static bt_status get_expr(const struct bt_json *v, const struct loc *l, char *out, size_t len,
			  struct bt_diag *d)
{
	struct bt_diag e = { "" };
	bt_status st = get_text(v, l, out, len, d);

	if (st != BT_OK)
		return st;
	if (bt_vexpr_check(out, &e) != BT_OK)
		return bad(d, l, "'%s': %s", out, e.text);
	return BT_OK;
}

static bt_status get_num(const struct bt_json *v, const struct loc *l, double lo, double hi,
			 double *ret, struct bt_diag *d)
{
	switch (bt_json_num_check(v, lo, hi, 0)) {
	case BT_JSON_NUM_NOT_NUMBER:
		return bad(d, l, "expected a number");
	case BT_JSON_NUM_OK:
		*ret = v->u.num.value;
		return BT_OK;
	default:
		return bad(d, l, "%s is outside %g..%g", v->u.num.text, lo, hi);
	}
}

static bt_status get_size(const struct bt_json *v, const struct loc *l, uint64_t *ret,
			  struct bt_diag *d)
{
	double x = 0;
	bt_status st = get_num(v, l, 1, 1e15, &x, d);

	if (st != BT_OK)
		return st;
	if (bt_json_num_check(v, 1, 1e15, 1) != BT_JSON_NUM_OK)
		return bad(d, l, "%s is not a whole number", v->u.num.text);
	*ret = (uint64_t)x;
	return BT_OK;
}

/* "relation" / "le": {"of": EVENT, "k": K, "tol_pct": T} ("le" also takes a bare EVENT). */
static bt_status get_relation(const struct bt_json *v, struct loc *l, bool le,
			      struct bt_vspec_entry *e, struct bt_diag *d)
{
	const char *outer = l->field;
	bt_status st;

	e->k = 1.0;
	if (le && v && v->type == BT_JSON_STRING)
		return get_text(v, l, e->of, sizeof(e->of), d);
	if (!v || v->type != BT_JSON_OBJECT)
		return bad(d, l, le ? "expected an event name or {\"of\": EVENT, \"k\": K}"
				    : "expected {\"of\": EVENT, \"k\": K, \"tol_pct\": T}");
	for (size_t i = 0; i < v->u.obj.n; i++) {
		const char *key = v->u.obj.keys[i];
		const struct bt_json *x = v->u.obj.values[i];
		char field[48];
		snprintf(field, sizeof(field), "%s.%s", outer, key);
		l->field = field;
		if (strcmp(key, "of") == 0)
			st = get_text(x, l, e->of, sizeof(e->of), d);
		else if (strcmp(key, "k") == 0)
			st = get_num(x, l, 1e-9, 1e9, &e->k, d);
		else if (strcmp(key, "tol_pct") == 0 && !le)
			st = get_num(x, l, 0, 1000, &e->tolerance_pct, d);
		else
			st = bad(d, l, "unknown field");
		l->field = outer;
		if (st != BT_OK)
			return st;
	}
	if (!e->of[0])
		return bad(d, l, "\"of\" (the other event) is missing");
	return BT_OK;
}

static bt_status get_expect(const struct bt_json *v, struct loc *l, struct bt_vspec_entry *e,
			    struct bt_diag *d)
{
	if (!v || v->type != BT_JSON_OBJECT || v->u.obj.n != 1)
		return bad(d, l, "expected an object with one of \"exact\", \"range\", "
				 "\"relation\", \"le\"");
	const char *key = v->u.obj.keys[0];
	const struct bt_json *x = v->u.obj.values[0];
	char field[32];
	snprintf(field, sizeof(field), "expect.%.20s", key);
	l->field = field;
	bt_status st;
	if (strcmp(key, "exact") == 0) {
		e->kind = BT_VEXP_EXACT;
		st = get_expr(x, l, e->expr[0], sizeof(e->expr[0]), d);
	} else if (strcmp(key, "range") == 0) {
		e->kind = BT_VEXP_RANGE;
		if (!x || x->type != BT_JSON_ARRAY || x->u.arr.n != 2)
			st = bad(d, l, "expected [LOW, HIGH]");
		else if ((st = get_expr(x->u.arr.items[0], l, e->expr[0], sizeof(e->expr[0]), d)) == BT_OK)
			st = get_expr(x->u.arr.items[1], l, e->expr[1], sizeof(e->expr[1]), d);
	} else if (strcmp(key, "relation") == 0) {
		e->kind = BT_VEXP_RELATION;
		st = get_relation(x, l, false, e, d);
	} else if (strcmp(key, "le") == 0) {
		e->kind = BT_VEXP_LE;
		st = get_relation(x, l, true, e, d);
	} else {
		st = bad(d, l, "unknown kind (exact, range, relation, le)");
	}
	l->field = "expect";
	return st;
}

static bt_status get_entry(const struct bt_json *v, struct loc *l, struct bt_vspec_entry *e,
			   struct bt_diag *d)
{
	bool has_expect = false, has_tol = false, has_warn = false;
	bt_status st = BT_OK;

	memset(e, 0, sizeof(*e));
	e->index = l->index;
	e->line = l->line;
	e->k = 1.0;
	l->field = "";
	if (v->type != BT_JSON_OBJECT)
		return bad(d, l, "an entry must be an object");
	for (size_t i = 0; i < v->u.obj.n && st == BT_OK; i++) {
		const char *key = v->u.obj.keys[i];
		const struct bt_json *x = v->u.obj.values[i];
		l->field = key;
		if (strcmp(key, "event") == 0)
			st = get_text(x, l, e->event, sizeof(e->event), d);
		else if (strcmp(key, "kernel") == 0)
			st = get_text(x, l, e->kernel, sizeof(e->kernel), d);
		else if (strcmp(key, "n") == 0)
			st = get_size(x, l, &e->n, d);
		else if (strcmp(key, "n_quick") == 0)
			st = get_size(x, l, &e->n_quick, d);
		else if (strcmp(key, "expect") == 0) {
			has_expect = true;
			st = get_expect(x, l, e, d);
		} else if (strcmp(key, "tolerance_pct") == 0) {
			has_tol = true;
			st = get_num(x, l, 0, 1000, &e->tolerance_pct, d);
		} else if (strcmp(key, "warn_pct") == 0) {
			has_warn = true;
			st = get_num(x, l, 0, 1000, &e->warn_pct, d);
		} else if (strcmp(key, "plausibility") == 0) {
			if (!x || (x->type != BT_JSON_TRUE && x->type != BT_JSON_FALSE))
				st = bad(d, l, "expected true or false");
			else
				e->plausibility = x->type == BT_JSON_TRUE;
		} else if (strcmp(key, "note") == 0)
			st = get_text(x, l, e->note, sizeof(e->note), d);
		else
			st = bad(d, l, "unknown field (event, kernel, n, n_quick, expect, "
				       "tolerance_pct, warn_pct, plausibility, note)");
	}
	if (st != BT_OK)
		return st;
	static const char *const required[] = { "event", "kernel" };
	const char *have[] = { e->event, e->kernel };
	for (int i = 0; i < 2; i++)
		if (!have[i][0]) {
			l->field = required[i];
			return bad(d, l, "missing");
		}
	l->field = "expect";
	if (!has_expect)
		return bad(d, l, "missing");
	(void)has_tol;
	if (!has_warn)
		e->warn_pct = e->tolerance_pct;
	if (e->warn_pct < e->tolerance_pct) {
		l->field = "warn_pct";
		return bad(d, l, "%g is below tolerance_pct %g", e->warn_pct, e->tolerance_pct);
	}
	return BT_OK;
}

bt_status bt_vspec_parse(const char *text, size_t len, const char *file, struct bt_vspec *s,
			 struct bt_diag *d)
{
	struct bt_arena a;
	struct bt_json *root = NULL;
	struct loc l = { file, -1, 0, NULL };
	int n0 = s->n;
	bt_status st;

	bt_arena_init(&a);
	st = bt_json_parse(&a, text, len, file, &root, d);
	if (st != BT_OK) {
		bt_arena_free(&a);
		return BT_ERR_INVALID;
	}
	const struct bt_json *fmt = bt_json_get(root, "format");
	const struct bt_json *checks = bt_json_get(root, "checks");
	if (root->type != BT_JSON_OBJECT) {
		st = bad(d, &l, "a spec is an object {\"format\": \"baretop-validate-spec\", "
				"\"checks\": [...]}");
		goto out;
	}
	for (size_t i = 0; i < root->u.obj.n; i++)
		if (strcmp(root->u.obj.keys[i], "format") && strcmp(root->u.obj.keys[i], "checks") &&
		    strcmp(root->u.obj.keys[i], "comment")) {
			l.field = root->u.obj.keys[i];
			st = bad(d, &l, "unknown field (format, checks, comment)");
			goto out;
		}
	l.field = "format";
	if (!fmt || fmt->type != BT_JSON_STRING || strcmp(fmt->u.str.s, "baretop-validate-spec")) {
		st = bad(d, &l, "must be \"baretop-validate-spec\"");
		goto out;
	}
	l.field = "checks";
	if (!checks || checks->type != BT_JSON_ARRAY) {
		st = bad(d, &l, "expected an array of entries");
		goto out;
	}
	if (checks->u.arr.n == 0) {
		st = bad(d, &l, "no entries");
		goto out;
	}
	for (size_t i = 0; i < checks->u.arr.n; i++) {
		struct bt_vspec_entry e;
		l.index = (int)i;
		l.line = checks->u.arr.items[i]->line;
		if ((st = get_entry(checks->u.arr.items[i], &l, &e, d)) != BT_OK)
			goto out;
		if (bt_vspec_add(s, &e) != BT_OK) {
			l.field = "";
			st = bad(d, &l, "more than %d checks, a spec's limit (docs/validate-spec.md): "
				 "split it into several specs", BT_VSPEC_MAX_ENTRIES);
			goto out;
		}
	}
out:
	if (st != BT_OK)
		s->n = n0;
	bt_arena_free(&a);
	return st;
}

bt_status bt_vspec_load(const char *path, struct bt_vspec *s, struct bt_diag *d)
{
	struct bt_arena a;
	char *text;
	size_t len;
	bt_status st;

	bt_arena_init(&a);
	st = bt_file_read(&a, path, &text, &len, d);
	if (st == BT_OK)
		st = bt_vspec_parse(text, len, path, s, d);
	bt_arena_free(&a);
	return st;
}

void bt_vspec_expected_text(const struct bt_vspec_entry *e, char *buf, size_t len)
{
	switch (e->kind) {
	case BT_VEXP_EXACT:
		snprintf(buf, len, "= %s", e->expr[0]);
		break;
	case BT_VEXP_RANGE:
		snprintf(buf, len, "%s .. %s", e->expr[0], e->expr[1]);
		break;
	case BT_VEXP_RELATION:
		snprintf(buf, len, "= %g x %s", e->k, e->of);
		break;
	case BT_VEXP_LE:
		snprintf(buf, len, "<= %g x %s", e->k, e->of);
		break;
	}
}
