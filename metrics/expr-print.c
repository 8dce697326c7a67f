/* SPDX-License-Identifier: MIT */
/*
 * Canonical text of a formula tree. Parentheses appear only where the
 * grammar needs them, so reading the text back gives exactly the same tree
 * (same grouping, hence the same floating-point result).
 */
#include "metrics/expr.h"
#include "base/array.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"

void bt_format_double(char *buf, size_t size, double v)
{
	if (v == floor(v) && fabs(v) < 1e15) {
		snprintf(buf, size, "%.0f", v);
		if (strcmp(buf, "-0") == 0)
			snprintf(buf, size, "0");
		return;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, size, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

const char *bt_expr_op_name(enum bt_expr_op op)
{
	static const char *const names[BT_X_OP_COUNT] = {
		[BT_X_NUM] = "number", [BT_X_IDENT] = "name", [BT_X_EVENT] = "event",
		[BT_X_RL] = "retire_latency", [BT_X_CONST] = "constant", [BT_X_REF] = "reference",
		[BT_X_NA] = "#NA", [BT_X_NEG] = "-", [BT_X_NOT] = "not", [BT_X_ADD] = "+",
		[BT_X_SUB] = "-", [BT_X_MUL] = "*", [BT_X_DIV] = "/", [BT_X_LT] = "<",
		[BT_X_GT] = ">", [BT_X_LE] = "<=", [BT_X_GE] = ">=", [BT_X_EQ] = "==",
		[BT_X_NE] = "!=", [BT_X_AND] = "and", [BT_X_OR] = "or", [BT_X_IF] = "if",
		[BT_X_MIN] = "min", [BT_X_MAX] = "max", [BT_X_DRATIO] = "d_ratio",
	};
	return op < BT_X_OP_COUNT && names[op] ? names[op] : "?";
}

static int level(const struct bt_expr *e)
{
	switch (e->op) {
	case BT_X_IF: return 1;
	case BT_X_OR: return 2;
	case BT_X_AND: return 3;
	case BT_X_NOT: return 4;
	case BT_X_LT: case BT_X_GT: case BT_X_LE: case BT_X_GE: case BT_X_EQ: case BT_X_NE:
		return 5;
	case BT_X_ADD: case BT_X_SUB: return 6;
	case BT_X_MUL: case BT_X_DIV: return 7;
	case BT_X_NEG: return 8;
	default: return 9;
	}
}

static int is_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (c >= '0' && c <= '9');
}

/* Can the event name be written bare (and read back as an event)? */
static int bare_event(const char *s)
{
	static const char *const kw[] = { "if", "else", "and", "or", "not", "min", "max",
					  "d_ratio", "retire_latency" };
	for (size_t i = 0; i < BT_ARRAY_SIZE(kw); i++)
		if (strcmp(s, kw[i]) == 0)
			return 0;
	if (!is_alnum(*s) || (*s >= '0' && *s <= '9'))
		return 0;
	while (is_alnum(*s) || *s == '.')
		s++;
	while (*s == ':') {
		s++;
		if (!is_alnum(*s))
			return 0;
		while (is_alnum(*s) || *s == '=' || *s == '.')
			s++;
	}
	return *s == 0;
}

static int bare_ref(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!is_alnum(*s) && *s != '%' && *s != '.')
			return 0;
	return 1;
}

static void print(struct bt_strbuf *sb, const struct bt_expr *e);

static void print_sub(struct bt_strbuf *sb, const struct bt_expr *e, int parens)
{
	if (parens)
		bt_sb_putc(sb, '(');
	print(sb, e);
	if (parens)
		bt_sb_putc(sb, ')');
}

static void print_event(struct bt_strbuf *sb, const char *name)
{
	if (bare_event(name)) {
		bt_sb_puts(sb, name);
	} else {
		bt_sb_putc(sb, '\'');
		bt_sb_puts(sb, name);
		bt_sb_putc(sb, '\'');
	}
}

static void print(struct bt_strbuf *sb, const struct bt_expr *e)
{
	char num[400];
	int l = level(e);
	switch (e->op) {
	case BT_X_NUM:
		if (!e->is_float && e->num == floor(e->num) && isfinite(e->num))
			snprintf(num, sizeof(num), "%.0f", e->num);
		else
			bt_format_double(num, sizeof(num), e->num);
		bt_sb_puts(sb, num);
		/* keep a float literal a float when read back: "1e9" -> "1000000000.0" */
		if (e->is_float && !strpbrk(num, ".eEn"))
			bt_sb_puts(sb, ".0");
		return;
	case BT_X_EVENT:
		print_event(sb, e->name);
		return;
	case BT_X_RL:
		bt_sb_puts(sb, "retire_latency(");
		print_event(sb, e->name);
		bt_sb_putc(sb, ')');
		return;
	case BT_X_CONST:
		bt_sb_putc(sb, '#');
		bt_sb_puts(sb, e->name);
		return;
	case BT_X_REF:
		bt_sb_putc(sb, '$');
		if (bare_ref(e->name)) {
			bt_sb_puts(sb, e->name);
		} else {
			bt_sb_putc(sb, '\'');
			bt_sb_puts(sb, e->name);
			bt_sb_putc(sb, '\'');
		}
		return;
	case BT_X_NA:
		bt_sb_puts(sb, "#NA");
		return;
	case BT_X_IDENT:
		bt_sb_puts(sb, "<unresolved:");
		bt_sb_puts(sb, e->name);
		bt_sb_putc(sb, '>');
		return;
	case BT_X_NEG:
		bt_sb_putc(sb, '-');
		print_sub(sb, e->args[0], level(e->args[0]) < l);
		return;
	case BT_X_NOT:
		bt_sb_puts(sb, "not ");
		print_sub(sb, e->args[0], level(e->args[0]) < l);
		return;
	case BT_X_IF:
		print_sub(sb, e->args[0], level(e->args[0]) <= l);
		bt_sb_puts(sb, " if ");
		print_sub(sb, e->args[1], level(e->args[1]) <= l);
		bt_sb_puts(sb, " else ");
		print_sub(sb, e->args[2], 0);
		return;
	case BT_X_MIN:
	case BT_X_MAX:
	case BT_X_DRATIO:
		bt_sb_puts(sb, bt_expr_op_name(e->op));
		bt_sb_putc(sb, '(');
		for (int i = 0; i < e->nargs; i++) {
			if (i)
				bt_sb_puts(sb, ", ");
			print(sb, e->args[i]);
		}
		bt_sb_putc(sb, ')');
		return;
	default:
		break;
	}
	/* binary operators; comparisons do not chain, so their left side needs
	 * parentheses at the same level too */
	int left_parens = l == 5 ? level(e->args[0]) <= l : level(e->args[0]) < l;
	print_sub(sb, e->args[0], left_parens);
	bt_sb_putc(sb, ' ');
	bt_sb_puts(sb, bt_expr_op_name(e->op));
	bt_sb_putc(sb, ' ');
	print_sub(sb, e->args[1], level(e->args[1]) <= l);
}

char *bt_expr_print(struct bt_arena *a, const struct bt_expr *e)
{
	struct bt_strbuf sb = { 0 };
	print(&sb, e);
	char *out = sb.oom ? NULL : bt_arena_strdup(a, bt_sb_str(&sb));
	bt_sb_free(&sb);
	return out;
}
