/* SPDX-License-Identifier: MIT */
/*
 * Lexer and recursive-descent parser for formula text (see expr.h for the
 * grammar). No generator tools: the grammar is small and the error messages
 * say which column went wrong.
 */
#include "metrics/expr.h"
#include "base/array.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH BT_EXPR_MAX_NESTING
#define MAX_IDENT 512

enum tok {
	T_END,
	T_NUM,
	T_IDENT,
	T_OP,       /* + - * / < > <= >= == != ! & | && || */
	T_LPAREN,
	T_RPAREN,
	T_COMMA,
};

struct lexer {
	struct bt_arena *a;
	enum bt_dialect dialect;
	const char *text, *p;
	struct bt_diag *d;
	bt_status err;
	int depth;
	/* current token */
	enum tok tok;
	const char *start;
	size_t len;
	char sigil;
	char *ident;   /* decoded identifier (arena) */
	double num;
	int num_is_float;
};

static void fail(struct lexer *lx, const char *at, const char *fmt, const char *arg)
{
	if (lx->err != BT_OK)
		return;
	lx->err = BT_ERR_INVALID;
	char msg[200];
	snprintf(msg, sizeof(msg), fmt, arg ? arg : "");
	bt_diag_set(lx->d, "column %u: %s", (unsigned)(at - lx->text) + 1, msg);
}

static void nomem(struct lexer *lx)
{
	if (lx->err != BT_OK)
		return;
	lx->err = BT_ERR_NOMEM;
	bt_diag_set(lx->d, "out of memory");
}

static int is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_alnum(char c)
{
	return is_alpha(c) || is_digit(c);
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* A number: digits [. digits] [e [+-] digits], or . digits ... */
static int lex_number(struct lexer *lx)
{
	const char *q = lx->p;
	while (is_digit(*q))
		q++;
	if (*q == '.') {
		q++;
		while (is_digit(*q))
			q++;
	}
	if ((*q == 'e' || *q == 'E') &&
	    (is_digit(q[1]) || ((q[1] == '+' || q[1] == '-') && is_digit(q[2])))) {
		q += 2;
		while (is_digit(*q))
			q++;
	}
	if (is_alpha(*q)) {
		fail(lx, lx->p, "malformed number", NULL);
		return -1;
	}
	char buf[400];
	size_t n = (size_t)(q - lx->p);
	if (n >= sizeof(buf) || n == 0 || (n == 1 && *lx->p == '.')) {
		fail(lx, lx->p, "malformed number", NULL);
		return -1;
	}
	memcpy(buf, lx->p, n);
	buf[n] = 0;
	lx->num = strtod(buf, NULL);
	lx->num_is_float = strpbrk(buf, ".eE") != NULL;
	if (!(lx->num <= 1.7976931348623157e308)) {
		fail(lx, lx->p, "number out of range", NULL);
		return -1;
	}
	lx->tok = T_NUM;
	lx->p = q;
	return 0;
}

/* Identifier bodies per dialect; the decoded text goes to lx->ident. */
static int lex_ident(struct lexer *lx)
{
	const char *q = lx->p;
	/* room for a whole identifier plus one escape pair; checked below */
	char out[MAX_IDENT + 4];
	size_t n = 0;
#define PUT(c) do { if (n >= MAX_IDENT) goto too_long; out[n++] = (c); } while (0)
	lx->sigil = 0;
	switch (lx->dialect) {
	case BT_DIALECT_CANON:
		if (*q == '$' || *q == '#') {
			lx->sigil = *q++;
			if (lx->sigil == '$' && *q == '\'') {
				const char *e = strchr(q + 1, '\'');
				if (!e) {
					fail(lx, lx->p, "unterminated quoted name", NULL);
					return -1;
				}
				if (e - q - 1 > MAX_IDENT)
					goto too_long;
				memcpy(out, q + 1, (size_t)(e - q - 1));
				n = (size_t)(e - q - 1);
				q = e + 1;
				break;
			}
			while (is_alnum(*q) || (lx->sigil == '$' && (*q == '%' || *q == '.')))
				PUT(*q++);
		} else if (*q == '\'') {
			lx->sigil = '\'';
			const char *e = strchr(q + 1, '\'');
			if (!e) {
				fail(lx, lx->p, "unterminated quoted name", NULL);
				return -1;
			}
			if (e - q - 1 > MAX_IDENT)
				goto too_long;
			memcpy(out, q + 1, (size_t)(e - q - 1));
			n = (size_t)(e - q - 1);
			q = e + 1;
		} else {
			while (is_alnum(*q) || *q == '.')
				PUT(*q++);
			/* event modifiers: ":c1", ":ocr_msr_val=0x..." */
			while (*q == ':' && (is_alnum(q[1]))) {
				PUT(*q++);
				while (is_alnum(*q) || *q == '=' || *q == '.')
					PUT(*q++);
			}
		}
		break;
	case BT_DIALECT_PERFMON:
		if (*q == '#')
			lx->sigil = *q++;
		while (is_alnum(*q))
			PUT(*q++);
		break;
	case BT_DIALECT_PERF:
		if (*q == '#') {
			lx->sigil = *q++;
			while (is_alnum(*q))
				PUT(*q++);
			break;
		}
		for (;;) {
			if (is_alnum(*q) || *q == '.' || *q == ':' || *q == '?') {
				PUT(*q++);
			} else if (*q == '\\' && q[1]) {
				PUT(*q++);
				PUT(*q++);
			} else if (*q == '@') {
				/* pmu@term\,term@: everything up to the closing '@' */
				PUT(*q++);
				while (*q && *q != '@') {
					if (*q == '\\' && q[1])
						PUT(*q++);
					PUT(*q++);
				}
				if (*q != '@') {
					fail(lx, lx->p, "unterminated '@' event", NULL);
					return -1;
				}
				PUT(*q++);
			} else {
				break;
			}
		}
		break;
	}
	if (n == 0) {
		fail(lx, lx->p, "empty name", NULL);
		return -1;
	}
	lx->ident = bt_arena_strndup(lx->a, out, n);
	if (!lx->ident) {
		nomem(lx);
		return -1;
	}
	lx->tok = T_IDENT;
	lx->p = q;
	return 0;
too_long:
	fail(lx, lx->p, "name too long", NULL);
	return -1;
#undef PUT
}

static int next(struct lexer *lx)
{
	while (is_space(*lx->p))
		lx->p++;
	lx->start = lx->p;
	char c = *lx->p;
	if (c == 0) {
		lx->tok = T_END;
		return 0;
	}
	if (is_digit(c) || (c == '.' && is_digit(lx->p[1])))
		return lex_number(lx);
	if (is_alpha(c) || c == '#' || (lx->dialect == BT_DIALECT_CANON && (c == '$' || c == '\'')) ||
	    (lx->dialect == BT_DIALECT_PERF && c == '@'))
		return lex_ident(lx);
	lx->p++;
	switch (c) {
	case '(': lx->tok = T_LPAREN; return 0;
	case ')': lx->tok = T_RPAREN; return 0;
	case ',': lx->tok = T_COMMA; return 0;
	case '+': case '-': case '*': case '/':
		lx->tok = T_OP;
		lx->len = 1;
		return 0;
	case '<': case '>': case '!': case '=': {
		/* perfmon writes ">=" as "> =" */
		const char *q = lx->p;
		while (*q == ' ')
			q++;
		lx->tok = T_OP;
		if (*q == '=') {
			lx->p = q + 1;
			lx->len = 2;  /* op_is() rebuilds "c=" from the first character */
			return 0;
		}
		if (c == '=') {
			fail(lx, lx->start, "'=' is not an operator (use '==')", NULL);
			return -1;
		}
		lx->len = 1;
		return 0;
	}
	case '&': case '|':
		lx->tok = T_OP;
		if (*lx->p == c) {
			lx->p++;
			lx->len = 2;
		} else {
			lx->len = 1;
		}
		return 0;
	default:
		fail(lx, lx->start, "unexpected character '%s'", (char[]){ c, 0 });
		return -1;
	}
}

/* The current operator token as a string: "<", "<=", "&&" ... */
static int op_is(const struct lexer *lx, const char *op)
{
	if (lx->tok != T_OP)
		return 0;
	char c = *lx->start;
	if (lx->len == 2 && (c == '<' || c == '>' || c == '!' || c == '='))
		return op[0] == c && op[1] == '=' && op[2] == 0;
	if (strlen(op) != lx->len)
		return 0;
	return memcmp(lx->start, op, lx->len) == 0;
}

static int kw_is(const struct lexer *lx, const char *kw)
{
	return lx->tok == T_IDENT && lx->sigil == 0 && strcmp(lx->ident, kw) == 0;
}

struct bt_expr *bt_expr_new(struct bt_arena *a, enum bt_expr_op op, uint16_t nargs)
{
	struct bt_expr *e = bt_arena_alloc(a, sizeof(*e));
	if (!e)
		return NULL;
	e->op = (uint8_t)op;
	e->nargs = nargs;
	if (nargs) {
		e->args = bt_arena_alloc(a, nargs * sizeof(*e->args));
		if (!e->args)
			return NULL;
	}
	return e;
}

struct bt_expr *bt_expr_leaf(struct bt_arena *a, enum bt_expr_op op, const char *name)
{
	struct bt_expr *e = bt_expr_new(a, op, 0);
	if (e && name) {
		e->name = bt_arena_strdup(a, name);
		if (!e->name)
			return NULL;
	}
	return e;
}

struct bt_expr *bt_expr_num(struct bt_arena *a, double v)
{
	struct bt_expr *e = bt_expr_new(a, BT_X_NUM, 0);
	if (e)
		e->num = v;
	return e;
}

struct bt_expr *bt_expr_float(struct bt_arena *a, double v)
{
	struct bt_expr *e = bt_expr_num(a, v);
	if (e)
		e->is_float = 1;
	return e;
}

static struct bt_expr *node(struct lexer *lx, enum bt_expr_op op, uint16_t nargs, const char *at)
{
	struct bt_expr *e = bt_expr_new(lx->a, op, nargs);
	if (!e) {
		nomem(lx);
		return NULL;
	}
	e->pos = (uint32_t)(at - lx->text);
	e->depth = 1;
	return e;
}

/* Sets e's height from its arguments; fails when the tree gets too high. */
static struct bt_expr *grown(struct lexer *lx, struct bt_expr *e, const char *at)
{
	if (!e)
		return NULL;
	unsigned h = 0;
	for (int i = 0; i < e->nargs; i++)
		if (e->args[i]->depth > h)
			h = e->args[i]->depth;
	if (h + 1 > BT_EXPR_MAX_HEIGHT) {
		fail(lx, at, "formula too deeply nested (more than %s levels)", "256");
		return NULL;
	}
	e->depth = (uint16_t)(h + 1);
	return e;
}

static struct bt_expr *binary(struct lexer *lx, enum bt_expr_op op, struct bt_expr *l,
			      struct bt_expr *r, const char *at)
{
	if (!l || !r)
		return NULL;
	struct bt_expr *e = node(lx, op, 2, at);
	if (!e)
		return NULL;
	e->args[0] = l;
	e->args[1] = r;
	return grown(lx, e, at);
}

static struct bt_expr *parse_expr(struct lexer *lx);

static int expect(struct lexer *lx, enum tok t, const char *what)
{
	if (lx->err != BT_OK)
		return -1;
	if (lx->tok != t) {
		fail(lx, lx->start, "%s expected", what);
		return -1;
	}
	return next(lx);
}

/* min(...), max(...), d_ratio(a, b), retire_latency(EVENT) */
struct arg_list {
	struct bt_expr *e;
	struct arg_list *next;
};

static struct bt_expr *parse_call(struct lexer *lx, enum bt_expr_op op, const char *at)
{
	struct arg_list *head = NULL, **tail = &head;
	int n = 0;
	if (next(lx) < 0 || expect(lx, T_LPAREN, "'('") < 0)
		return NULL;
	for (;;) {
		if (n == 1000) {
			fail(lx, lx->start, "too many arguments", NULL);
			return NULL;
		}
		struct arg_list *a = bt_arena_alloc(lx->a, sizeof(*a));
		if (!a) {
			nomem(lx);
			return NULL;
		}
		a->e = parse_expr(lx);
		if (!a->e)
			return NULL;
		*tail = a;
		tail = &a->next;
		n++;
		if (lx->tok == T_COMMA) {
			if (next(lx) < 0)
				return NULL;
			continue;
		}
		if (expect(lx, T_RPAREN, "',' or ')'") < 0)
			return NULL;
		break;
	}
	if (op == BT_X_DRATIO && n != 2) {
		fail(lx, at, "d_ratio takes two arguments", NULL);
		return NULL;
	}
	if (op == BT_X_RL) {
		if (n != 1 || head->e->op != BT_X_EVENT) {
			fail(lx, at, "retire_latency takes one event", NULL);
			return NULL;
		}
		head->e->op = BT_X_RL;
		return head->e;
	}
	struct bt_expr *e = node(lx, op, (uint16_t)n, at);
	if (!e)
		return NULL;
	int i = 0;
	for (struct arg_list *a = head; a; a = a->next)
		e->args[i++] = a->e;
	return grown(lx, e, at);
}

static struct bt_expr *parse_primary(struct lexer *lx)
{
	const char *at = lx->start;
	if (lx->err != BT_OK)
		return NULL;
	switch (lx->tok) {
	case T_NUM: {
		struct bt_expr *e = node(lx, BT_X_NUM, 0, at);
		if (!e)
			return NULL;
		e->num = lx->num;
		e->is_float = (uint8_t)lx->num_is_float;
		return next(lx) < 0 ? NULL : e;
	}
	case T_LPAREN: {
		if (next(lx) < 0)
			return NULL;
		struct bt_expr *e = parse_expr(lx);
		if (!e || expect(lx, T_RPAREN, "')'") < 0)
			return NULL;
		return e;
	}
	case T_IDENT:
		break;
	case T_END:
		fail(lx, at, "unexpected end of formula", NULL);
		return NULL;
	default:
		fail(lx, at, "operand expected", NULL);
		return NULL;
	}
	if (lx->sigil == 0) {
		if (strcmp(lx->ident, "min") == 0)
			return parse_call(lx, BT_X_MIN, at);
		if (strcmp(lx->ident, "max") == 0)
			return parse_call(lx, BT_X_MAX, at);
		if (strcmp(lx->ident, "d_ratio") == 0)
			return parse_call(lx, BT_X_DRATIO, at);
		if (lx->dialect == BT_DIALECT_CANON && strcmp(lx->ident, "retire_latency") == 0)
			return parse_call(lx, BT_X_RL, at);
		static const char *const reserved[] = { "if", "else", "and", "or", "not" };
		for (size_t i = 0; i < BT_ARRAY_SIZE(reserved); i++)
			if (strcmp(lx->ident, reserved[i]) == 0) {
				fail(lx, at, "unexpected '%s'", reserved[i]);
				return NULL;
			}
	}
	struct bt_expr *e = node(lx, BT_X_IDENT, 0, at);
	if (!e)
		return NULL;
	e->name = lx->ident;
	e->sigil = lx->sigil;
	if (lx->sigil == '#' && strcmp(lx->ident, "NA") == 0 && lx->dialect != BT_DIALECT_PERF) {
		e->op = BT_X_NA;
		e->name = NULL;
	} else if (lx->dialect == BT_DIALECT_CANON) {
		e->op = lx->sigil == '$' ? BT_X_REF : lx->sigil == '#' ? BT_X_CONST : BT_X_EVENT;
		e->sigil = 0;
	}
	return next(lx) < 0 ? NULL : e;
}

static struct bt_expr *parse_unary(struct lexer *lx)
{
	const char *at = lx->start;
	if (!op_is(lx, "-") && !op_is(lx, "+"))
		return parse_primary(lx);
	/* a chain of unary operators nests like parentheses */
	if (++lx->depth > MAX_DEPTH) {
		fail(lx, at, "formula nested too deeply", NULL);
		return NULL;
	}
	int neg = op_is(lx, "-");
	struct bt_expr *e = NULL;
	if (next(lx) == 0) {
		struct bt_expr *arg = parse_unary(lx);
		if (arg && !neg) {
			e = arg;
		} else if (arg) {
			e = node(lx, BT_X_NEG, 1, at);
			if (e)
				e->args[0] = arg;
			e = grown(lx, e, at);
		}
	}
	lx->depth--;
	return e;
}

static struct bt_expr *parse_mul(struct lexer *lx)
{
	struct bt_expr *e = parse_unary(lx);
	while (e && (op_is(lx, "*") || op_is(lx, "/"))) {
		const char *at = lx->start;
		enum bt_expr_op op = op_is(lx, "*") ? BT_X_MUL : BT_X_DIV;
		if (next(lx) < 0)
			return NULL;
		e = binary(lx, op, e, parse_unary(lx), at);
	}
	return e;
}

static struct bt_expr *parse_add(struct lexer *lx)
{
	struct bt_expr *e = parse_mul(lx);
	while (e && (op_is(lx, "+") || op_is(lx, "-"))) {
		const char *at = lx->start;
		enum bt_expr_op op = op_is(lx, "+") ? BT_X_ADD : BT_X_SUB;
		if (next(lx) < 0)
			return NULL;
		e = binary(lx, op, e, parse_mul(lx), at);
	}
	return e;
}

static enum bt_expr_op cmp_op(const struct lexer *lx)
{
	if (op_is(lx, "<"))
		return BT_X_LT;
	if (op_is(lx, ">"))
		return BT_X_GT;
	if (op_is(lx, "<="))
		return BT_X_LE;
	if (op_is(lx, ">="))
		return BT_X_GE;
	if (op_is(lx, "=="))
		return BT_X_EQ;
	if (op_is(lx, "!="))
		return BT_X_NE;
	return BT_X_OP_COUNT;
}

static struct bt_expr *parse_cmp(struct lexer *lx)
{
	struct bt_expr *e = parse_add(lx);
	enum bt_expr_op op = cmp_op(lx);
	if (!e || op == BT_X_OP_COUNT)
		return e;
	const char *at = lx->start;
	if (next(lx) < 0)
		return NULL;
	e = binary(lx, op, e, parse_add(lx), at);
	if (e && cmp_op(lx) != BT_X_OP_COUNT) {
		fail(lx, lx->start, "chained comparison: add parentheses", NULL);
		return NULL;
	}
	return e;
}

static struct bt_expr *parse_not(struct lexer *lx)
{
	if (kw_is(lx, "not") || op_is(lx, "!")) {
		const char *at = lx->start;
		if (++lx->depth > MAX_DEPTH) {
			fail(lx, at, "formula nested too deeply", NULL);
			return NULL;
		}
		if (next(lx) < 0)
			return NULL;
		struct bt_expr *arg = parse_not(lx);
		lx->depth--;
		if (!arg)
			return NULL;
		struct bt_expr *e = node(lx, BT_X_NOT, 1, at);
		if (e)
			e->args[0] = arg;
		return grown(lx, e, at);
	}
	return parse_cmp(lx);
}

static struct bt_expr *parse_and(struct lexer *lx)
{
	struct bt_expr *e = parse_not(lx);
	while (e && (kw_is(lx, "and") || op_is(lx, "&") || op_is(lx, "&&"))) {
		const char *at = lx->start;
		if (next(lx) < 0)
			return NULL;
		e = binary(lx, BT_X_AND, e, parse_not(lx), at);
	}
	return e;
}

static struct bt_expr *parse_or(struct lexer *lx)
{
	struct bt_expr *e = parse_and(lx);
	while (e && (kw_is(lx, "or") || op_is(lx, "|") || op_is(lx, "||"))) {
		const char *at = lx->start;
		if (next(lx) < 0)
			return NULL;
		e = binary(lx, BT_X_OR, e, parse_and(lx), at);
	}
	return e;
}

static struct bt_expr *parse_expr(struct lexer *lx)
{
	const char *at = lx->start;
	if (++lx->depth > MAX_DEPTH) {
		fail(lx, at, "formula nested too deeply", NULL);
		return NULL;
	}
	struct bt_expr *e = parse_or(lx);
	if (e && kw_is(lx, "if")) {
		const char *if_at = lx->start;
		if (next(lx) < 0)
			return NULL;
		struct bt_expr *cond = parse_or(lx);
		if (!cond)
			return NULL;
		if (!kw_is(lx, "else")) {
			fail(lx, lx->start, "'else' expected", NULL);
			return NULL;
		}
		if (next(lx) < 0)
			return NULL;
		struct bt_expr *other = parse_expr(lx);
		if (!other)
			return NULL;
		struct bt_expr *x = node(lx, BT_X_IF, 3, if_at);
		if (!x)
			return NULL;
		x->args[0] = e;
		x->args[1] = cond;
		x->args[2] = other;
		e = grown(lx, x, if_at);
	}
	lx->depth--;
	return e;
}

bt_status bt_expr_parse(struct bt_arena *a, enum bt_dialect dialect, const char *text,
			struct bt_expr **ret, struct bt_diag *d)
{
	struct lexer lx = { .a = a, .dialect = dialect, .text = text, .p = text, .d = d };
	struct bt_expr *e = NULL;
	if (next(&lx) == 0) {
		e = parse_expr(&lx);
		if (e && lx.tok != T_END) {
			fail(&lx, lx.start, "unexpected text after the formula", NULL);
			e = NULL;
		}
	}
	if (!e)
		return lx.err != BT_OK ? lx.err : BT_ERR_INVALID;
	*ret = e;
	return BT_OK;
}
