/* SPDX-License-Identifier: MIT */
/*
 * Formula expressions: one recursive-descent grammar for the three spellings
 * baretop reads,
 *   BT_DIALECT_CANON   the canonical text of baretop's model tables
 *                      (events by canonical name, $Node references,
 *                      #CONSTANTS, retire_latency(EVENT));
 *   BT_DIALECT_PERFMON Intel perfmon "Formula" / "Threshold.Formula" text,
 *                      written in per-metric aliases (a, b, a_c, smt_on ...);
 *   BT_DIALECT_PERF    Linux perf "MetricExpr" / "MetricThreshold" text
 *                      (cpu_atom@EV@, #SMT_on, d_ratio, metric references).
 * Identifiers of the vendor dialects come out as BT_X_IDENT nodes that the
 * loaders resolve (metrics/load-*.c); canonical text resolves directly.
 *
 * Precedence, lowest first (Python's, with perf's placement of & and |):
 *   A if C else B  <  or | ||  <  and & &&  <  not !  <  < > <= >= == !=
 *   <  + -  <  * /  <  unary -  <  atoms, min(), max(), d_ratio(), ( )
 * Comparisons do not chain. Binary operators associate to the left, and the
 * tree keeps the vendor's grouping exactly: (a+b)+c is not a+(b+c) in
 * floating point.
 *
 * Limits keep recursion (here and in the compiler) small enough for the EFI
 * stack: parentheses nest at most BT_EXPR_MAX_NESTING deep and a tree is at
 * most BT_EXPR_MAX_HEIGHT high. The vendor formulas reach 17 and about 40.
 */
#define BT_EXPR_MAX_NESTING 64
#define BT_EXPR_MAX_HEIGHT 256
#ifndef METRICS_EXPR_H
#define METRICS_EXPR_H

#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/status.h"

enum bt_dialect {
	BT_DIALECT_CANON,
	BT_DIALECT_PERFMON,
	BT_DIALECT_PERF,
};

enum bt_expr_op {
	BT_X_NUM,      /* num */
	BT_X_IDENT,    /* unresolved identifier: name, sigil */
	BT_X_EVENT,    /* name = canonical event name */
	BT_X_RL,       /* retire latency of the event "name" (-1 when not measured) */
	BT_X_CONST,    /* name = constant (HYPERTHREADING_ON ...) */
	BT_X_REF,      /* name = another node of the model */
	BT_X_NA,       /* "not available" literal (#NA): invalid when evaluated */
	BT_X_NEG,
	BT_X_NOT,
	BT_X_ADD,
	BT_X_SUB,
	BT_X_MUL,
	BT_X_DIV,
	BT_X_LT,
	BT_X_GT,
	BT_X_LE,
	BT_X_GE,
	BT_X_EQ,
	BT_X_NE,
	BT_X_AND,
	BT_X_OR,
	BT_X_IF,       /* args[0] if args[1] else args[2] */
	BT_X_MIN,      /* n-ary */
	BT_X_MAX,      /* n-ary */
	BT_X_DRATIO,   /* perf d_ratio(a, b): 0 if b == 0 else a / b */
	BT_X_OP_COUNT,
};

struct bt_expr {
	uint8_t op;          /* enum bt_expr_op */
	char sigil;          /* BT_X_IDENT: '$', '#', '\'' (quoted) or 0 */
	uint8_t is_float;    /* BT_X_NUM: written as a float ("2.4", "1e9", "100.0"); an
			      * integer literal is a Python int, which matters for exactness */
	uint16_t nargs;
	uint16_t depth;      /* height of the tree below (1 for a leaf) */
	uint32_t pos;        /* offset of the token in the source text */
	double num;
	const char *name;
	struct bt_expr **args;
};

/* Parses text into a tree allocated in a. Errors: "column N: message". */
bt_status bt_expr_parse(struct bt_arena *a, enum bt_dialect dialect, const char *text,
			struct bt_expr **ret, struct bt_diag *d);

/* Node constructors (NULL on allocation failure). */
struct bt_expr *bt_expr_new(struct bt_arena *a, enum bt_expr_op op, uint16_t nargs);
struct bt_expr *bt_expr_leaf(struct bt_arena *a, enum bt_expr_op op, const char *name);
struct bt_expr *bt_expr_num(struct bt_arena *a, double v);       /* integer literal */
struct bt_expr *bt_expr_float(struct bt_arena *a, double v);     /* float literal */

/* Canonical text of a resolved tree (no BT_X_IDENT left), in the arena. */
char *bt_expr_print(struct bt_arena *a, const struct bt_expr *e);

/* Shortest decimal spelling of v that reads back to exactly v. buf >= 32 bytes. */
void bt_format_double(char *buf, size_t size, double v);

/* Name of an operator for messages ("+", "min", ...). */
const char *bt_expr_op_name(enum bt_expr_op op);

#endif
