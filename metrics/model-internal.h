/* SPDX-License-Identifier: MIT */
/* The compiled form of a model (model.c builds it, eval*.c run it). */
#ifndef METRICS_MODEL_INTERNAL_H
#define METRICS_MODEL_INTERNAL_H

#include "base/arena.h"
#include "metrics/expr.h"
#include "metrics/model.h"

enum bt_opcode {
	OP_EVENT,     /* a = event index */
	OP_RL,        /* a = retire-latency index */
	OP_CONST,     /* a = enum bt_constant */
	OP_IMM,       /* k, a float literal */
	OP_IMMI,      /* k, an integer literal (a Python int) */
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

/* What Python would hold in an operation's result when counts are ints. */
enum bt_optype {
	T_FLOAT = 0,
	T_INT = 1,    /* always an int (exact arithmetic in Python) */
	T_MAYBE = 2,  /* int or float depending on the values (min, max, if ...) */
	T_BOOL = 3,   /* a comparison's 0/1 (a Python bool, which is an int) */
};

struct bt_op {
	uint8_t code;
	uint8_t type;  /* enum bt_optype */
	uint32_t a, b, c;
	double k;
};

#define NO_OP UINT32_MAX

/* A run of operations with the same opcode whose operands are all computed
 * before the run starts: evaluated by one tight loop. */
struct bt_segment {
	uint32_t start, end;
	uint8_t code;
};

struct bt_model {
	const struct bt_model_def *def;
	struct bt_arena arena;
	struct bt_op *ops;         /* by depth, then opcode */
	uint32_t n_ops;
	uint32_t *opa, *opb, *opc; /* the operands again, as arrays, for the fast loops */
	double *imm;               /* literal values (OP_IMM, OP_IMMI), else 0 */
	struct bt_segment *segs;
	uint32_t n_segs;
	uint32_t *int_ops;         /* ops of type T_INT/T_MAYBE: doubles are exact while
				    * these stay within 2^53 */
	uint32_t n_int_ops;
	uint32_t *node_value;      /* per node: op of its value */
	uint32_t *node_thresh;     /* per node: op of its threshold, NO_OP if none */
	uint32_t *node_thresh_lit; /* per node: op of the literal threshold, NO_OP if none */
	int32_t *parent;           /* -1: a root or not a tree node (up to 65,535 nodes) */
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

/* The DAG under construction (dag.c). */
struct dag;
struct dag *bt_dag_new(void);
void bt_dag_free(struct dag *g);
/* NO_OP on allocation failure; k is the literal of OP_IMM/OP_IMMI */
uint32_t bt_dag_op(struct dag *g, uint8_t code, uint32_t a, uint32_t b, uint32_t c, double k);
/* Orders the ops by depth then opcode, builds the segments and moves
 * everything into the model's arena. remap[old] = new index (caller frees). */
int bt_dag_finish(struct dag *g, struct bt_model *m, uint32_t **ret_remap);

/* One evaluation step on doubles, shared by the evaluators and the folder. */
double bt_op_apply(const struct bt_op *o, const double *v);
int bt_op_arity(uint8_t code);

/* The retire-latency kind of every node after an evaluation
 * (eval-latency.c): r->latency, r->n_latency. */
void bt_eval_latency(const struct bt_model *m, const struct bt_counts *c, struct bt_result *r);

/* Exact evaluation with Python int semantics (eval-exact.c): used when some
 * integer-valued operation leaves the range where doubles are exact. */
void bt_run_exact(const struct bt_model *m, const struct bt_counts *c, double *v);

#endif
