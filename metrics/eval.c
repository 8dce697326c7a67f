/* SPDX-License-Identifier: MIT */
/*
 * Counts in, node values, flags, bottleneck path and CPI stack out.
 * See metrics/model.h for why eager NaN evaluation of the shared DAG gives
 * exactly the vendor oracles' lazy results.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/model-internal.h"

struct bt_counts *bt_counts_new(const struct bt_model *m)
{
	struct bt_counts *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->model = m;
	c->events = malloc((m->def->n_events + 1) * sizeof(double));
	c->retire_latency = malloc((m->n_rl + 1) * sizeof(double));
	c->retire_latency_default = malloc(m->n_rl + 1);
	if (!c->events || !c->retire_latency || !c->retire_latency_default) {
		bt_counts_free(c);
		return NULL;
	}
	bt_counts_reset(c);
	return c;
}

void bt_counts_free(struct bt_counts *c)
{
	if (!c)
		return;
	free(c->events);
	free(c->retire_latency);
	free(c->retire_latency_default);
	free(c);
}

void bt_counts_reset(struct bt_counts *c)
{
	const struct bt_model *m = c->model;
	for (unsigned i = 0; i < m->def->n_events; i++)
		c->events[i] = NAN;
	/* perf's "not measured" retire latency, which the vendor formulas test with >= 0 */
	for (unsigned i = 0; i < m->n_rl; i++) {
		c->retire_latency[i] = -1;
		c->retire_latency_default[i] = 0;
	}
	for (int i = 0; i < BT_CONST_COUNT; i++)
		c->constants[i] = NAN;
}

bt_status bt_counts_set_event(struct bt_counts *c, const char *name, double value)
{
	int i = bt_model_event_find(c->model, name);
	if (i < 0)
		return BT_ERR_NOT_FOUND;
	c->events[i] = value;
	return BT_OK;
}

bt_status bt_counts_set_retire_latency(struct bt_counts *c, const char *event, double cycles)
{
	const struct bt_model *m = c->model;
	for (unsigned i = 0; i < m->n_rl; i++)
		if (!strcmp(m->rl_names[i], event)) {
			c->retire_latency[i] = cycles;
			c->retire_latency_default[i] = 0;
			return BT_OK;
		}
	return BT_ERR_NOT_FOUND;
}

bt_status bt_counts_set_constant(struct bt_counts *c, const char *name, double value)
{
	enum bt_constant k = bt_constant_find(name);
	if (k == BT_CONST_COUNT)
		return BT_ERR_NOT_FOUND;
	c->constants[k] = value;
	return BT_OK;
}

unsigned bt_counts_use_default_retire_latencies(struct bt_counts *c)
{
	const struct bt_model *m = c->model;
	const struct bt_model_def *def = m->def;
	unsigned filled = 0;
	for (unsigned i = 0; i < m->n_rl; i++) {
		if (c->retire_latency[i] >= 0)
			continue;
		for (unsigned k = 0; k < def->n_retire_latency; k++)
			if (!strcmp(def->retire_latency[k].event, m->rl_names[i])) {
				c->retire_latency[i] = def->retire_latency[k].cycles;
				c->retire_latency_default[i] = 1;
				filled++;
				break;
			}
	}
	return filled;
}

struct bt_result *bt_result_new(const struct bt_model *m)
{
	unsigned n = m->def->n_nodes;
	struct bt_result *r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->model = m;
	r->raw = malloc((n + 1) * sizeof(double));
	r->value = malloc((n + 1) * sizeof(double));
	r->cpi_share = malloc((n + 1) * sizeof(double));
	r->state = calloc(n + 1, 1);
	r->flag = calloc(n + 1, 1);
	r->has_flag = calloc(n + 1, 1);
	r->flag_literal = calloc(n + 1, 1);
	r->missing_events = malloc((m->def->n_events + 1) * sizeof(uint16_t));
	r->ops = malloc((m->n_ops + 1) * sizeof(double));
	r->taint = malloc(m->n_ops + 1);
	if (!r->raw || !r->value || !r->cpi_share || !r->state || !r->flag || !r->has_flag ||
	    !r->flag_literal || !r->missing_events || !r->ops || !r->taint) {
		bt_result_free(r);
		return NULL;
	}
	return r;
}

void bt_result_free(struct bt_result *r)
{
	if (!r)
		return;
	free(r->raw);
	free(r->value);
	free(r->cpi_share);
	free(r->state);
	free(r->flag);
	free(r->has_flag);
	free(r->flag_literal);
	free(r->missing_events);
	free(r->ops);
	free(r->taint);
	free(r);
}

/*
 * The program, in double precision: one tight loop per segment (operations
 * of one opcode whose operands are ready), so the branch on the opcode is
 * taken once per segment instead of once per operation.
 */
static void run(const struct bt_model *m, const struct bt_counts *c, double *restrict v)
{
	const uint32_t *restrict A = m->opa, *restrict B = m->opb, *restrict C = m->opc;
	for (uint32_t s = 0; s < m->n_segs; s++) {
		const uint32_t lo = m->segs[s].start, hi = m->segs[s].end;
		uint32_t i;
		switch (m->segs[s].code) {
		case OP_EVENT:
			for (i = lo; i < hi; i++)
				v[i] = c->events[A[i]];
			break;
		case OP_RL:
			for (i = lo; i < hi; i++)
				v[i] = c->retire_latency[A[i]];
			break;
		case OP_CONST:
			for (i = lo; i < hi; i++)
				v[i] = c->constants[A[i]];
			break;
		case OP_IMM:
		case OP_IMMI:
			for (i = lo; i < hi; i++)
				v[i] = m->imm[i];
			break;
		case OP_ADD:
			for (i = lo; i < hi; i++)
				v[i] = v[A[i]] + v[B[i]];
			break;
		case OP_SUB:
			for (i = lo; i < hi; i++)
				v[i] = v[A[i]] - v[B[i]];
			break;
		case OP_MUL:
			for (i = lo; i < hi; i++)
				v[i] = v[A[i]] * v[B[i]];
			break;
		case OP_DIV:
			for (i = lo; i < hi; i++) {
				double y = v[B[i]];
				v[i] = y == 0 ? NAN : v[A[i]] / y;
			}
			break;
		case OP_MIN:
			for (i = lo; i < hi; i++) {
				double x = v[A[i]], y = v[B[i]];
				v[i] = isnan(x) || isnan(y) ? NAN : y < x ? y : x;
			}
			break;
		case OP_MAX:
			for (i = lo; i < hi; i++) {
				double x = v[A[i]], y = v[B[i]];
				v[i] = isnan(x) || isnan(y) ? NAN : y > x ? y : x;
			}
			break;
		case OP_IF:
			for (i = lo; i < hi; i++) {
				double y = v[B[i]];
				v[i] = isnan(y) ? y : y != 0 ? v[A[i]] : v[C[i]];
			}
			break;
		case OP_NEG:
			for (i = lo; i < hi; i++)
				v[i] = -v[A[i]];
			break;
		case OP_AND: /* thresholds: "x and y" over comparisons */
			for (i = lo; i < hi; i++) {
				double x = v[A[i]];
				v[i] = isnan(x) || x == 0 ? x : v[B[i]];
			}
			break;
		case OP_OR:
			for (i = lo; i < hi; i++) {
				double x = v[A[i]];
				v[i] = isnan(x) || x != 0 ? x : v[B[i]];
			}
			break;
		/* threshold comparisons: an invalid operand compares false
		 * (C's ordered comparisons are false with a NaN already) */
		case OP_TGT:
			for (i = lo; i < hi; i++)
				v[i] = v[A[i]] > v[B[i]];
			break;
		case OP_TLT:
			for (i = lo; i < hi; i++)
				v[i] = v[A[i]] < v[B[i]];
			break;
		case OP_TGE:
			for (i = lo; i < hi; i++)
				v[i] = v[A[i]] >= v[B[i]];
			break;
		case OP_TLE:
			for (i = lo; i < hi; i++)
				v[i] = v[A[i]] <= v[B[i]];
			break;
		case OP_GT: /* formula comparisons: invalid in, invalid out */
			for (i = lo; i < hi; i++) {
				double x = v[A[i]], y = v[B[i]];
				v[i] = isnan(x) || isnan(y) ? NAN : x > y;
			}
			break;
		case OP_GE:
			for (i = lo; i < hi; i++) {
				double x = v[A[i]], y = v[B[i]];
				v[i] = isnan(x) || isnan(y) ? NAN : x >= y;
			}
			break;
		case OP_DRATIO:
			for (i = lo; i < hi; i++) {
				double y = v[B[i]];
				v[i] = isnan(y) ? y : y == 0 ? 0 : v[A[i]] / y;
			}
			break;
		default:
			for (i = lo; i < hi; i++)
				v[i] = bt_op_apply(&m->ops[i], v);
			break;
		}
	}
}

/* Python computes integer-valued operations exactly; doubles agree as long as
 * every such value stays within 2^53. */
static int doubles_exact(const struct bt_model *m, const double *v)
{
	for (uint32_t k = 0; k < m->n_int_ops; k++)
		if (fabs(v[m->int_ops[k]]) > 9007199254740992.0)
			return 0;
	return 1;
}

/* Second pass, only when inputs are missing: did a missing input reach the
 * value along the path actually evaluated? */
static void run_taint(const struct bt_model *m, const struct bt_counts *c, const double *v,
		      uint8_t *t)
{
	for (uint32_t i = 0; i < m->n_ops; i++) {
		const struct bt_op *o = &m->ops[i];
		switch (o->code) {
		case OP_EVENT: t[i] = isnan(c->events[o->a]); break;
		case OP_CONST: t[i] = isnan(c->constants[o->a]); break;
		case OP_RL: case OP_IMM: case OP_IMMI: t[i] = 0; break;
		case OP_NEG: case OP_NOT: t[i] = t[o->a]; break;
		case OP_IF:
			t[i] = t[o->b] | (isnan(v[o->b]) ? 0 : v[o->b] != 0 ? t[o->a] : t[o->c]);
			break;
		case OP_AND:
			t[i] = t[o->a] | (isnan(v[o->a]) || v[o->a] == 0 ? 0 : t[o->b]);
			break;
		case OP_OR:
			t[i] = t[o->a] | (isnan(v[o->a]) || v[o->a] != 0 ? 0 : t[o->b]);
			break;
		case OP_DRATIO:
			t[i] = t[o->b] | (v[o->b] == 0 ? 0 : t[o->a]);
			break;
		default:
			t[i] = t[o->a] | t[o->b];
			break;
		}
	}
}

/* Does any tree node of the model have a vendor threshold? */
static bool any_tree_threshold(const struct bt_model *m, const struct bt_result *r)
{
	for (unsigned i = 0; i < bt_model_node_count(m); i++)
		if (bt_model_node(m, i)->kind == BT_NODE_TREE && r->has_flag[i])
			return true;
	return false;
}

static void bottleneck_path(const struct bt_model *m, struct bt_result *r)
{
	/* From the root down through flagged nodes only, the largest flagged
	 * child at each level, to the deepest one. Where the vendor defines
	 * no threshold for any node (AMD's pipeline metrics), no node is ever
	 * flagged: the path then follows the largest share per level, among
	 * the nodes that have a value, and says so (path_largest_share). */
	const uint16_t *kids = m->roots;
	unsigned n_kids = m->n_roots;
	bool by_share = !any_tree_threshold(m, r);
	r->path_len = 0;
	r->path_largest_share = by_share;
	while (r->path_len < BT_PATH_MAX) {
		int best = -1;
		for (unsigned k = 0; k < n_kids; k++) {
			unsigned i = kids[k];
			bool candidate = by_share ? r->state[i] == BT_NODE_OK && !isnan(r->value[i])
						  : r->flag[i];
			if (candidate && (best < 0 || r->value[i] > r->value[best]))
				best = (int)i;
		}
		if (best < 0)
			break;
		r->path[r->path_len++] = (uint16_t)best;
		n_kids = m->n_children[best];
		kids = m->child_list + m->child_start[best];
	}
}

/* A usable stack component: a valid value, negatives counting as none. */
static double stack_weight(const struct bt_result *r, unsigned i)
{
	double v = r->value[i];
	return isnan(v) || r->state[i] != BT_NODE_OK ? NAN : v < 0 ? 0 : v;
}

/* Shares of `node`'s children: its share split in proportion to their
 * values, then theirs below them. All or none: when a child has no valid
 * value, or the children weigh nothing, the stack stops at `node` (a split
 * among some of them would hand them the others' cycles). */
static void split_share(const struct bt_model *m, struct bt_result *r, unsigned node, int depth)
{
	unsigned nc = m->n_children[node];
	const uint16_t *kids = m->child_list + m->child_start[node];
	double sum = 0;

	if (!nc || depth > 32 || isnan(r->cpi_share[node]))
		return;
	for (unsigned k = 0; k < nc; k++)
		sum += stack_weight(r, kids[k]);
	if (isnan(sum) || sum <= 0)
		return;
	for (unsigned k = 0; k < nc; k++) {
		r->cpi_share[kids[k]] = r->cpi_share[node] * (stack_weight(r, kids[k]) / sum);
		split_share(m, r, kids[k], depth + 1);
	}
}

/*
 * The CPI stack (Eyerman et al., "A Performance Counter Architecture for
 * Computing Accurate CPI Components": every cycle is counted in exactly one
 * component, so the components add up). Level-1 nodes are fractions of the
 * same issue slots: each one's share is its value x CPI. Below level 1 the
 * vendor formulas divide by different things (slots, clocks, stall
 * cycles: DRAM_Bound and its child MEM_Latency are each a fraction of all
 * clocks), so value x CPI is a share of nothing there and children would
 * exceed their parents. A child's share is therefore its parent's share
 * split among the parent's children in proportion to their values: the
 * children's shares sum to the parent's, and where the children are
 * fractions of the parent's own denominator (Backend_Bound = Memory_Bound +
 * Core_Bound) that is exactly value x CPI again.
 */
static void cpi_stack(const struct bt_model *m, struct bt_result *r)
{
	const struct bt_model_def *def = m->def;

	for (unsigned i = 0; i < def->n_nodes; i++)
		r->cpi_share[i] = NAN;
	if (isnan(r->cpi))
		return;
	for (unsigned k = 0; k < m->n_roots; k++) {
		unsigned i = m->roots[k];
		double w = stack_weight(r, i);
		if (def->nodes[i].kind != BT_NODE_TREE || isnan(w))
			continue;
		r->cpi_share[i] = w * r->cpi;
		split_share(m, r, i, 0);
	}
}

bt_status bt_evaluate(const struct bt_model *m, const struct bt_counts *c, struct bt_result *r)
{
	if (c->model != m || r->model != m)
		return BT_ERR_INVALID;
	double *v = r->ops;
	run(m, c, v);
	r->exact_int = !doubles_exact(m, v);
	if (r->exact_int)
		bt_run_exact(m, c, v);
	const struct bt_model_def *def = m->def;
	unsigned n = def->n_nodes;
	int missing = 0;
	for (unsigned e = 0; e < def->n_events && !missing; e++)
		missing = isnan(c->events[e]);
	for (int k = 0; k < BT_CONST_COUNT && !missing; k++)
		missing = (m->consts_used >> k & 1) && isnan(c->constants[k]);
	if (missing)
		run_taint(m, c, v, r->taint);
	for (unsigned i = 0; i < n; i++) {
		double raw = v[m->node_value[i]];
		r->raw[i] = raw;
		/* perfmon tree formulas are percentages: report fractions */
		r->value[i] = def->nodes[i].percent ? raw / 100 : raw;
		r->state[i] = !isnan(raw) ? BT_NODE_OK
			      : missing && r->taint[m->node_value[i]] ? BT_NODE_MISSING
								  : BT_NODE_INVALID;
		uint32_t t = m->node_thresh[i], tl = m->node_thresh_lit[i];
		r->has_flag[i] = t != NO_OP;
		/* the flag of an invalid node is false; an invalid comparison is false */
		r->flag[i] = t != NO_OP && !isnan(raw) && !isnan(v[t]) && v[t] != 0;
		r->flag_literal[i] = tl != NO_OP ? !isnan(raw) && !isnan(v[tl]) && v[tl] != 0 : r->flag[i];
	}
	bottleneck_path(m, r);
	r->cpi = m->cpi_node >= 0 ? r->value[m->cpi_node] : NAN;
	cpi_stack(m, r);
	r->n_missing_events = 0;
	r->missing_constants = 0;
	if (missing) {
		for (uint32_t i = 0; i < m->n_ops; i++) {
			const struct bt_op *o = &m->ops[i];
			if (o->code == OP_EVENT && isnan(c->events[o->a]))
				r->missing_events[r->n_missing_events++] = (uint16_t)o->a;
			else if (o->code == OP_CONST && isnan(c->constants[o->a]))
				r->missing_constants |= 1u << o->a;
		}
	}
	r->n_default_retire_latency = 0;
	for (unsigned i = 0; i < m->n_rl; i++)
		r->n_default_retire_latency += c->retire_latency_default[i];
	return BT_OK;
}
