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
#include "base/array.h"

struct bt_counts *bt_counts_new(const struct bt_model *m)
{
	struct bt_counts *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->model = m;
	c->events = malloc((m->def->n_events + 1) * sizeof(double));
	c->retire_latency = malloc((m->n_rl + 1) * sizeof(double));
	c->retire_latency_default = malloc(m->n_rl + 1);
	c->retire_latency_source = malloc(m->n_rl + 1);
	if (!c->events || !c->retire_latency || !c->retire_latency_default ||
	    !c->retire_latency_source) {
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
	free(c->retire_latency_source);
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
		c->retire_latency_source[i] = BT_RL_NONE;
	}
	for (int i = 0; i < BT_CONST_COUNT; i++)
		c->constants[i] = NAN;
}

const char *bt_rl_source_name(enum bt_rl_source s)
{
	static const char *const names[] = { "not_measured", "given", "measured", "published", "file" };
	return (unsigned)s < BT_ARRAY_SIZE(names) ? names[s] : "?";
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
			c->retire_latency_source[i] = cycles >= 0 ? BT_RL_GIVEN : BT_RL_NONE;
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
				c->retire_latency_source[i] = BT_RL_PUBLISHED;
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
	r->formula_flag = calloc(n + 1, 1);
	r->exclude = calloc(n + 1, 1);
	r->missing_events = malloc((m->def->n_events + 1) * sizeof(uint16_t));
	r->ops = malloc((m->n_ops + 1) * sizeof(double));
	r->taint = malloc(m->n_ops + 1);
	r->latency = calloc(n + 1, 1);
	r->rl_mask = m->n_rl ? malloc((m->n_ops + 1) * sizeof(*r->rl_mask)) : NULL;
	if (!r->raw || !r->value || !r->cpi_share || !r->state || !r->flag || !r->has_flag ||
	    !r->flag_literal || !r->formula_flag || !r->exclude || !r->missing_events || !r->ops || !r->taint ||
	    !r->latency || (m->n_rl && !r->rl_mask)) {
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
	free(r->formula_flag);
	free(r->exclude);
	free(r->missing_events);
	free(r->ops);
	free(r->taint);
	free(r->latency);
	free(r->rl_mask);
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

/*
 * Second pass, only when inputs are missing or a retire latency was not
 * measured. Bit TAINT_MISSING: did a missing input reach the value along the
 * path actually evaluated? Bit TAINT_NO_RL: did a not-measured retire
 * latency (-1, perf's marker) enter the value's arithmetic along that path?
 * A latency that only reaches a comparison is the formula testing for it
 * (the vendor fallback "X if (rl >= 0) else default"): the branch taken then
 * decides, so comparisons and an IF's condition do not pass TAINT_NO_RL on;
 * nor does a product with an exact 0 (a count of an event that did not
 * occur times its latency).
 */
#define TAINT_MISSING 1u
#define TAINT_NO_RL 2u

static int is_comparison(uint8_t code)
{
	return (code >= OP_LT && code <= OP_NE) || (code >= OP_TLT && code <= OP_TNE) ||
	       code == OP_NOT;
}

static void run_taint(const struct bt_model *m, const struct bt_counts *c, const double *v,
		      uint8_t *t)
{
	for (uint32_t i = 0; i < m->n_ops; i++) {
		const struct bt_op *o = &m->ops[i];
		uint8_t x;
		switch (o->code) {
		case OP_EVENT: x = isnan(c->events[o->a]) ? TAINT_MISSING : 0; break;
		case OP_CONST: x = isnan(c->constants[o->a]) ? TAINT_MISSING : 0; break;
		case OP_RL: x = c->retire_latency[o->a] < 0 ? TAINT_NO_RL : 0; break;
		case OP_IMM: case OP_IMMI: x = 0; break;
		case OP_NEG: x = t[o->a]; break;
		case OP_IF:
			x = (t[o->b] & TAINT_MISSING) |
			    (isnan(v[o->b]) ? 0 : v[o->b] != 0 ? t[o->a] : t[o->c]);
			break;
		case OP_AND:
			x = t[o->a] | (isnan(v[o->a]) || v[o->a] == 0 ? 0 : t[o->b]);
			break;
		case OP_OR:
			x = t[o->a] | (isnan(v[o->a]) || v[o->a] != 0 ? 0 : t[o->b]);
			break;
		case OP_DRATIO:
			x = t[o->b] | (v[o->b] == 0 ? 0 : t[o->a]);
			break;
		case OP_MUL:
			x = t[o->a] | t[o->b];
			/* a count of 0 times a latency not measured is 0 whatever the
			 * latency (perf's -1 included): an event that did not occur
			 * needs no latency */
			if ((v[o->a] == 0 && !(t[o->a] & TAINT_NO_RL)) ||
			    (v[o->b] == 0 && !(t[o->b] & TAINT_NO_RL)))
				x &= (uint8_t)~TAINT_NO_RL;
			break;
		default:
			x = t[o->a] | (bt_op_arity(o->code) >= 2 ? t[o->b] : 0);
			break;
		}
		if (is_comparison(o->code))
			x &= TAINT_MISSING;
		t[i] = x;
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
	 * the nodes that have a value, and says so (path_largest_share).
	 * A node the caller excluded (r->exclude: its inputs are not
	 * trusted, or the run did not measure it) is never a candidate, so
	 * the path ends above it or goes through a trusted, measured
	 * sibling. Nor is a node without a value (not computed, or needing
	 * a retire latency not measured): its flag is false then. */
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
			if (r->exclude[i])
				candidate = false;
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

/* A usable stack component: a valid value of a node the run measured,
 * negatives counting as none. A node not measured (BT_EXCLUDE_NOT_MEASURED)
 * is no component even when its value could be computed from events
 * counted for others: the stack stops where measurement stopped. */
static double stack_weight(const struct bt_result *r, unsigned i)
{
	double v = r->value[i];
	if (r->exclude[i] & BT_EXCLUDE_NOT_MEASURED)
		return NAN;
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

void bt_smt_decide(const double *k, struct bt_smt_decision *ret)
{
	double f = k[BT_C_SMT_SIBLING_ACTIVE];
	ret->formulas = -1;
	ret->sibling_active = f;
	ret->error = NAN;
	ret->flagged = 0;
	if (!isnan(k[BT_C_HYPERTHREADING_ON]) || isnan(f))
		return;
	f = f < 0 ? 0 : f > 1 ? 1 : f;
	ret->formulas = f >= 0.5;
	ret->error = ret->formulas ? (1 - f) / (2 - f) : f / (2 - f);
	ret->flagged = ret->error > BT_SMT_FORMULA_ERROR_MAX;
}

void bt_smt_decided_constants(const double *k, double *ret)
{
	struct bt_smt_decision d;

	memcpy(ret, k, BT_CONST_COUNT * sizeof(*ret));
	bt_smt_decide(k, &d);
	if (d.formulas >= 0)
		ret[BT_C_HYPERTHREADING_ON] = d.formulas;
}

bt_status bt_evaluate(const struct bt_model *m, const struct bt_counts *given, struct bt_result *r)
{
	if (given->model != m || r->model != m)
		return BT_ERR_INVALID;
	/* HYPERTHREADING_ON decided by the measured sibling, on a copy of
	 * the constants (the events are shared, not copied). */
	struct bt_counts view = *given;
	const struct bt_counts *c = &view;
	bt_smt_decide(given->constants, &r->smt);
	if (r->smt.formulas >= 0)
		view.constants[BT_C_HYPERTHREADING_ON] = r->smt.formulas;
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
	int no_rl = 0;
	for (unsigned i = 0; i < m->n_rl && !no_rl; i++)
		no_rl = c->retire_latency[i] < 0;
	if (missing || no_rl)
		run_taint(m, c, v, r->taint);
	for (unsigned i = 0; i < n; i++) {
		double raw = v[m->node_value[i]];
		uint8_t t_node = missing || no_rl ? r->taint[m->node_value[i]] : 0;
		r->raw[i] = raw;
		/* perfmon tree formulas are percentages: report fractions */
		r->value[i] = def->nodes[i].percent ? raw / 100 : raw;
		r->state[i] = !isnan(raw) ? (t_node & TAINT_NO_RL ? BT_NODE_NO_RETIRE_LATENCY : BT_NODE_OK)
			      : t_node & TAINT_MISSING ? BT_NODE_MISSING
						       : BT_NODE_INVALID;
		uint32_t t = m->node_thresh[i], tl = m->node_thresh_lit[i];
		r->has_flag[i] = t != NO_OP;
		/* the flag of an invalid node is false; an invalid comparison is false */
		r->flag[i] = t != NO_OP && !isnan(raw) && !isnan(v[t]) && v[t] != 0;
		r->flag_literal[i] = tl != NO_OP ? !isnan(raw) && !isnan(v[tl]) && v[tl] != 0 : r->flag[i];
		r->formula_flag[i] = r->flag[i];
		if (def->nodes[i].kind == BT_NODE_TREE && fabs(r->value[i]) < BT_SHARE_ROUNDING)
			r->value[i] = 0; /* also -0.0: "-0.00%" nowhere */
		if (r->state[i] == BT_NODE_NO_RETIRE_LATENCY) {
			/* the formula's number is kept in raw (what perf would print
			 * with -1); the node has no value and no flag */
			r->value[i] = NAN;
			r->flag[i] = r->flag_literal[i] = 0;
		}
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
	memset(r->n_rl_source, 0, sizeof(r->n_rl_source));
	for (unsigned i = 0; i < m->n_rl; i++) {
		r->n_default_retire_latency += c->retire_latency_default[i];
		if (c->retire_latency_source[i] <= BT_RL_FILE)
			r->n_rl_source[c->retire_latency_source[i]]++;
	}
	bt_eval_latency(m, c, r);
	return BT_OK;
}

unsigned bt_result_node_latencies(const struct bt_result *r, unsigned node, uint16_t *ret)
{
	const struct bt_model *m = r->model;
	unsigned n = 0;

	if (node >= m->def->n_nodes || r->state[node] != BT_NODE_NO_RETIRE_LATENCY)
		return 0;
	uint8_t *seen = calloc(m->n_ops + 1, 1), *used = calloc(m->n_rl + 1, 1);
	uint32_t *stack = malloc((m->n_ops + 1) * sizeof(*stack)), sp = 0;
	if (!seen || !used || !stack)
		goto out;
	/* Down the operations the not-measured latency reached (TAINT_NO_RL),
	 * the branch taken only: the same walk run_taint made upwards. */
	stack[sp++] = m->node_value[node];
	seen[m->node_value[node]] = 1;
	while (sp) {
		uint32_t i = stack[--sp], next[2];
		const struct bt_op *o = &m->ops[i];
		int k = 0;
		if (!(r->taint[i] & TAINT_NO_RL))
			continue;
		if (o->code == OP_RL) {
			used[o->a] = 1;
			continue;
		}
		if (o->code == OP_IF) {
			next[k++] = r->ops[o->b] != 0 ? o->a : o->c;
		} else {
			int ar = bt_op_arity(o->code);
			if (ar >= 1)
				next[k++] = o->a;
			if (ar >= 2)
				next[k++] = o->b;
		}
		for (int j = 0; j < k; j++)
			if (!seen[next[j]]) {
				seen[next[j]] = 1;
				stack[sp++] = next[j];
			}
	}
	for (unsigned i = 0; i < m->n_rl; i++)
		if (used[i])
			ret[n++] = (uint16_t)i;
out:
	free(seen);
	free(used);
	free(stack);
	return n;
}
