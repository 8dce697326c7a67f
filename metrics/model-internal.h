/* SPDX-License-Identifier: MIT */
/* The compiled form of a model (model.c builds it, eval.c runs it). */
#ifndef METRICS_MODEL_INTERNAL_H
#define METRICS_MODEL_INTERNAL_H

#include "metrics/arena.h"
#include "metrics/expr.h"
#include "metrics/model.h"

enum bt_opcode {
	OP_EVENT,     /* a = event index */
	OP_RL,        /* a = retire-latency index */
	OP_CONST,     /* a = enum bt_constant */
	OP_IMM,       /* k */
	OP_NEG,
	OP_NOT,
	OP_ADD,
	OP_SUB,
	OP_MUL,
	OP_DIV,       /* NaN when b == 0 */
	OP_LT, OP_GT, OP_LE, OP_GE, OP_EQ, OP_NE,       /* formula: NaN in, NaN out */
	OP_TLT, OP_TGT, OP_TLE, OP_TGE, OP_TEQ, OP_TNE, /* threshold: NaN compares false */
	OP_AND,       /* Python: a if not a else b */
	OP_OR,        /* Python: a if a else b */
	OP_IF,        /* a = then, b = cond, c = else */
	OP_MIN,       /* Python min(a, b): b if b < a else a */
	OP_MAX,
	OP_DRATIO,    /* 0 if b == 0 else a / b */
	OP_COUNT,
};

struct bt_op {
	uint8_t code;
	uint32_t a, b, c;
	double k;
};

#define NO_OP UINT32_MAX

struct bt_model {
	const struct bt_model_def *def;
	struct bt_arena arena;
	struct bt_op *ops;
	uint32_t n_ops;
	uint32_t *node_value;      /* per node: op of its value */
	uint32_t *node_thresh;     /* per node: op of its threshold, NO_OP if none */
	uint32_t *node_thresh_lit; /* per node: op of the literal threshold, NO_OP if none */
	int16_t *parent;
	uint16_t *child_list;      /* children of node i: child_list[child_start[i] .. +n_children[i]] */
	uint32_t *child_start;
	uint16_t *n_children;
	uint16_t *roots;
	unsigned n_roots, max_level;
	uint16_t *name_order;      /* node indexes sorted by name */
	const char **rl_names;     /* retire-latency inputs */
	unsigned n_rl;
	int cpi_node;              /* -1 if none */
	unsigned consts_used;      /* bit c: some formula names constant c */
};

/* Compiles canonical formula trees into ops (dag.c). */
struct dag;
struct dag *bt_dag_new(void);
void bt_dag_free(struct dag *g);
/* NO_OP on allocation failure */
uint32_t bt_dag_op(struct dag *g, uint8_t code, uint32_t a, uint32_t b, uint32_t c, double k);
/* Moves the ops into the model's arena. */
int bt_dag_finish(struct dag *g, struct bt_arena *a, struct bt_op **ret_ops, uint32_t *ret_n);

/* One evaluation step, shared by bt_evaluate and the constant folder. */
double bt_op_apply(const struct bt_op *o, const double *v);

#endif
