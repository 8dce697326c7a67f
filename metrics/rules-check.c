/* SPDX-License-Identifier: MIT */
/*
 * Checking a model's consistency rules (rules.h) on one evaluated tree.
 * A rule whose inputs were not all given is "not applicable", never held:
 * a drill-down that did not measure a child proves nothing about its sum.
 *
 * A tree node is checked against [0, 1] as the formula computed it before
 * any clamp against a literal: the vendors write max(0, x) (SPR's
 * Fetch_Bandwidth, the architectural model's derived Bad_Speculation) to
 * keep counting noise from printing a negative share, and that clamp turns
 * a share far below 0 (an event that does not count as the formula
 * assumes) into a plausible 0 that the range and sum rules then accept.
 * Noise stays within the tolerance and passes as before; a clamp that hid
 * more is the finding. Only at levels 1 and 2, whose classes the hardware
 * counts as subsets of one another (a level-2 PERF_METRICS field or
 * Top-Down event is part of its level-1 class), so a parent minus a child
 * is not negative by the events' meaning. Deeper, the formulas estimate
 * shares from events that overlap, and their clamps fire by design: SKL's
 * Other_Light_Ops = max(0, Light_Operations - FP_Arith - Memory_Operations
 * - ...) counts an FP instruction with a memory operand in both FP_Arith
 * and Memory_Operations, so a load-heavy FP loop (multiply1) drives the
 * difference far below 0 on a healthy PMU.
 */
#define UNCLAMPED_MAX_LEVEL 2
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/model-internal.h"
#include "metrics/rules.h"

struct bt_consistency *bt_consistency_new(const struct bt_rule_set *rs)
{
	struct bt_consistency *cs = calloc(1, sizeof(*cs));
	if (!cs)
		return NULL;
	cs->rules = rs;
	cs->verdict = calloc(rs->n + 1, sizeof(*cs->verdict));
	if (!cs->verdict) {
		free(cs);
		return NULL;
	}
	return cs;
}

void bt_consistency_free(struct bt_consistency *cs)
{
	if (!cs)
		return;
	free(cs->verdict);
	free(cs);
}

static double tolerance(const struct bt_rule *x, double reference)
{
	double t = x->tol_rel * fabs(reference);
	return t > x->tol_abs ? t : x->tol_abs;
}

/* NaN when some term is not a value */
static double sum_of(const struct bt_result *r, const uint16_t *terms, unsigned n)
{
	double s = 0;
	for (unsigned k = 0; k < n; k++)
		s += r->value[terms[k]];
	return s;
}

static int literal(const struct bt_model *m, uint32_t i)
{
	return m->ops[i].code == OP_IMM || m->ops[i].code == OP_IMMI;
}

/*
 * u: every operation's value with each min/max against a literal replaced
 * by its other operand (the clamps of the vendor formulas), the rest as
 * evaluated. Operands precede their operations (model-internal.h).
 */
static void unclamped_ops(const struct bt_model *m, const struct bt_result *r, double *u)
{
	for (uint32_t i = 0; i < m->n_ops; i++) {
		const struct bt_op *o = &m->ops[i];
		int ar = bt_op_arity(o->code);

		if ((o->code == OP_MIN || o->code == OP_MAX) && literal(m, o->a) != literal(m, o->b))
			u[i] = literal(m, o->a) ? u[o->b] : u[o->a];
		else if (ar == 0)
			u[i] = r->ops[i];
		else
			u[i] = bt_op_apply(o, u);
	}
}

/* A node's value before its clamps, when one fired and the value stays a
 * number; NaN otherwise. */
static double unclamped_value(const struct bt_model *m, const struct bt_result *r,
			      const double *u, unsigned node)
{
	double raw = u && m->def->nodes[node].level <= UNCLAMPED_MAX_LEVEL
			     ? u[m->node_value[node]] : NAN;
	if (isnan(raw) || isinf(raw) || isnan(r->value[node]))
		return NAN;
	double v = m->def->nodes[node].percent ? raw / 100 : raw;
	return v != r->value[node] ? v : NAN;
}

static void check_one(const struct bt_rule *x, const struct bt_counts *c,
		      const struct bt_result *r, const double *u, struct bt_rule_verdict *v)
{
	const struct bt_model *m = r->model;
	double lhs = NAN, rhs = NAN, diff = NAN;

	switch (x->kind) {
	case BT_RULE_LEVEL1_SUM:
		lhs = sum_of(r, x->terms, x->n_terms);
		rhs = 1;
		diff = lhs - rhs;
		break;
	case BT_RULE_PARENT_SUM:
		lhs = r->value[x->node];
		rhs = sum_of(r, x->terms, x->n_terms);
		diff = lhs - rhs;
		break;
	case BT_RULE_FRACTION:
		lhs = r->value[x->node];
		v->unclamped = 0;
		double w = unclamped_value(m, r, u, (unsigned)x->node);
		if (!isnan(w)) {
			double wb = w < 0 ? 0 : w > 1 ? 1 : w;
			if (fabs(w - wb) > fabs(lhs - (lhs < 0 ? 0 : lhs > 1 ? 1 : lhs)) + 1e-9) {
				lhs = w;
				v->unclamped = 1;
			}
		}
		rhs = lhs < 0 ? 0 : lhs > 1 ? 1 : lhs; /* the bound it is nearest to, or itself */
		diff = lhs - rhs;
		break;
	case BT_RULE_IPC_WIDTH:
		/* CPI 0 is instructions retired in no cycles: an infinite IPC
		 * that no CPU gives (a dead cycle counter), not "not applicable" */
		lhs = r->value[x->node] > 0 ? 1 / r->value[x->node]
		      : r->value[x->node] == 0 && r->state[x->node] == BT_NODE_OK ? INFINITY : NAN;
		rhs = x->bound;
		diff = lhs > rhs ? lhs - rhs : 0;
		break;
	case BT_RULE_FIXED_GENERAL:
		lhs = c->events[x->event_a];
		rhs = c->events[x->event_b];
		diff = lhs - rhs;
		break;
	case BT_RULE_CROSS_CHECK:
		lhs = r->value[x->node];
		rhs = r->value[x->node_b];
		diff = lhs - rhs;
		break;
	case BT_RULE_SLOTS_COUNTED:
		/* the slots against the largest count that says the core ran:
		 * violated only when the slots are 0 and it is not */
		lhs = c->events[x->event_a];
		rhs = NAN;
		for (unsigned k = 0; k < x->n_evidence; k++) {
			double e = c->events[x->evidence[k]];
			if (!isnan(e) && (isnan(rhs) || e > rhs))
				rhs = e;
		}
		diff = lhs == 0 && rhs > 0 ? -rhs : 0;
		break;
	}
	if (x->kind != BT_RULE_FRACTION)
		v->unclamped = 0;
	v->undefined = 0;
	v->lhs = lhs;
	v->rhs = rhs;
	v->diff = diff;
	v->tol = x->kind == BT_RULE_SLOTS_COUNTED ? 0
		 : tolerance(x, x->kind == BT_RULE_PARENT_SUM || x->kind == BT_RULE_FIXED_GENERAL ? lhs : rhs);
	v->no_retire_latency = 0;
	if (x->node >= 0 && x->kind != BT_RULE_IPC_WIDTH)
		v->no_retire_latency |= r->state[x->node] == BT_NODE_NO_RETIRE_LATENCY;
	if (x->node_b >= 0)
		v->no_retire_latency |= r->state[x->node_b] == BT_NODE_NO_RETIRE_LATENCY;
	for (unsigned k = 0; k < x->n_terms; k++)
		v->no_retire_latency |= r->state[x->terms[k]] == BT_NODE_NO_RETIRE_LATENCY;
	v->undefined = 0;
	if (isnan(lhs) || isnan(rhs) || isnan(diff) || isnan(v->tol))
		v->state = BT_RULE_NA;
	else
		v->state = fabs(diff) <= v->tol ? BT_RULE_HELD : BT_RULE_VIOLATED;
	/* Every level-1 node a division by zero with all its counts given:
	 * the slots (or cycles) they share counted 0 while the workload ran,
	 * which no working counter does (a dead cycle counter). Not "not
	 * applicable": nothing was missing. */
	if (x->kind == BT_RULE_LEVEL1_SUM && v->state == BT_RULE_NA) {
		unsigned k = 0;
		while (k < x->n_terms && r->state[x->terms[k]] == BT_NODE_INVALID)
			k++;
		if (x->n_terms && k == x->n_terms) {
			v->state = BT_RULE_VIOLATED;
			v->undefined = 1;
		}
	}
	/* CPI a division by zero with its counts given: no cycles or no
	 * instructions over a workload that ran, which no working counter
	 * gives (the same finding for the IPC rule). */
	if (x->kind == BT_RULE_IPC_WIDTH && v->state == BT_RULE_NA &&
	    r->state[x->node] == BT_NODE_INVALID) {
		v->state = BT_RULE_VIOLATED;
		v->undefined = 1;
	}
}

void bt_consistency_check(struct bt_consistency *cs, const struct bt_counts *c,
			  const struct bt_result *r)
{
	const struct bt_rule_set *rs = cs->rules;
	const struct bt_model *m = rs->model;
	/* without memory the range rules read the clamped values, as before */
	double *u = malloc((m->n_ops + 1) * sizeof(*u));

	if (u)
		unclamped_ops(m, r, u);
	cs->n_held = cs->n_violated = cs->n_na = cs->n_na_no_retire_latency = 0;
	for (unsigned i = 0; i < rs->n; i++) {
		struct bt_rule_verdict *v = &cs->verdict[i];
		check_one(&rs->rules[i], c, r, u, v);
		cs->n_held += v->state == BT_RULE_HELD;
		cs->n_violated += v->state == BT_RULE_VIOLATED;
		cs->n_na += v->state == BT_RULE_NA;
		cs->n_na_no_retire_latency += v->state == BT_RULE_NA && v->no_retire_latency;
	}
	free(u);
}

/* The event leaves of node values, along the branches the evaluation took. */
static void mark_events(const struct bt_model *m, const double *v, uint32_t root, uint8_t *seen,
			uint32_t *stack, uint8_t *used)
{
	uint32_t sp = 0;

	if (seen[root])
		return;
	seen[root] = 1;
	stack[sp++] = root;
	while (sp) {
		const struct bt_op *o = &m->ops[stack[--sp]];
		uint32_t next[3];
		int k = 0, ar = bt_op_arity(o->code);

		if (o->code == OP_EVENT) {
			used[o->a] = 1;
			continue;
		}
		if (o->code == OP_IF && !isnan(v[o->b])) {
			next[k++] = o->b;
			next[k++] = v[o->b] != 0 ? o->a : o->c;
		} else {
			if (ar >= 1)
				next[k++] = o->a;
			if (ar >= 2)
				next[k++] = o->b;
			if (ar >= 3)
				next[k++] = o->c;
		}
		for (int j = 0; j < k; j++)
			if (!seen[next[j]]) {
				seen[next[j]] = 1;
				stack[sp++] = next[j];
			}
	}
}

unsigned bt_rule_events(const struct bt_rule_set *rs, unsigned i, const struct bt_result *r,
			uint16_t *ret)
{
	const struct bt_model *m = rs->model;
	const struct bt_rule *x = &rs->rules[i];
	unsigned ne = m->def->n_events, n = 0;
	uint8_t *used = calloc(ne + 1, 1), *seen = calloc(m->n_ops + 1, 1);
	uint32_t *stack = malloc((m->n_ops + 1) * sizeof(*stack));

	if (!used || !seen || !stack)
		goto out;
	if (x->kind == BT_RULE_FIXED_GENERAL) {
		used[x->event_a] = used[x->event_b] = 1;
	} else if (x->kind == BT_RULE_SLOTS_COUNTED) {
		used[x->event_a] = 1;
		for (unsigned k = 0; k < x->n_evidence; k++)
			used[x->evidence[k]] = 1;
	} else {
		if (x->node >= 0)
			mark_events(m, r->ops, m->node_value[x->node], seen, stack, used);
		if (x->node_b >= 0)
			mark_events(m, r->ops, m->node_value[x->node_b], seen, stack, used);
		for (unsigned k = 0; k < x->n_terms; k++)
			mark_events(m, r->ops, m->node_value[x->terms[k]], seen, stack, used);
	}
	for (unsigned e = 0; e < ne; e++)
		if (used[e])
			ret[n++] = (uint16_t)e;
out:
	free(used);
	free(seen);
	free(stack);
	return n;
}

/*
 * Below 0 a share's numerator is below 0: a divisor that is positive (the
 * cycles, the slots: it was, or the share would be n/a) scales the share
 * but cannot give it its sign. So the events a share below 0 points at are
 * those of its numerator: down the node's formula through the clamps
 * against literals (the unclamped value is what the rule judged), products
 * with a positive literal (100 * x) and divisions by a positive value, the
 * numerator's events. SPR's L3_Bound = (MEMORY_ACTIVITY.STALLS_L2_MISS -
 * MEMORY_ACTIVITY.STALLS_L3_MISS) / CPU_CLK_UNHALTED.THREAD below 0 points
 * at the two stall events, not at the cycles every node divides by.
 */
static uint32_t numerator_of(const struct bt_model *m, const struct bt_result *r, uint32_t i)
{
	for (int depth = 0; depth < 64; depth++) {
		const struct bt_op *o = &m->ops[i];

		if ((o->code == OP_MIN || o->code == OP_MAX) && literal(m, o->a) != literal(m, o->b))
			i = literal(m, o->a) ? o->b : o->a;
		else if (o->code == OP_MUL && literal(m, o->a) && m->imm[o->a] > 0)
			i = o->b;
		else if (o->code == OP_MUL && literal(m, o->b) && m->imm[o->b] > 0)
			i = o->a;
		else if ((o->code == OP_DIV || o->code == OP_DRATIO) && r->ops[o->b] > 0)
			i = o->a;
		else
			break;
	}
	return i;
}

unsigned bt_rule_suspects(const struct bt_rule_set *rs, unsigned i, const struct bt_consistency *cs,
			  const struct bt_counts *c, const struct bt_result *r, uint16_t *ret)
{
	const struct bt_model *m = rs->model;
	const struct bt_rule *x = &rs->rules[i];
	const struct bt_rule_verdict *v = &cs->verdict[i];
	unsigned ne = m->def->n_events, n = 0;

	if (v->state != BT_RULE_VIOLATED)
		return 0;
	if (x->kind == BT_RULE_SLOTS_COUNTED) {
		/* the slots, and the PERF_METRICS fields that are shares of
		 * them (level 1 reads them): not the cycles, which counted */
		uint8_t *used = calloc(ne + 1, 1);
		if (!used)
			return 0;
		used[x->event_a] = 1;
		for (unsigned k = 0; k < x->n_evidence; k++)
			if (m->def->events[x->evidence[k]].source == BT_SRC_PERF_METRICS)
				used[x->evidence[k]] = 1;
		for (unsigned e = 0; e < ne; e++)
			if (used[e])
				ret[n++] = (uint16_t)e;
		free(used);
		return n;
	}
	if (v->undefined) {
		/* a division by zero with every count given: the events of
		 * the rule that counted 0 while the workload ran (a dead
		 * instruction counter: INST_RETIRED.ANY, not the cycles) */
		unsigned k = bt_rule_events(rs, i, r, ret);
		for (unsigned e = 0; e < k; e++)
			if (c->events[ret[e]] == 0)
				ret[n++] = ret[e];
		return n ? n : k;
	}
	if (x->kind != BT_RULE_FRACTION || !(v->diff < 0) || x->node < 0)
		return bt_rule_events(rs, i, r, ret);
	uint8_t *used = calloc(ne + 1, 1), *seen = calloc(m->n_ops + 1, 1);
	uint32_t *stack = malloc((m->n_ops + 1) * sizeof(*stack));
	if (used && seen && stack) {
		mark_events(m, r->ops, numerator_of(m, r, m->node_value[x->node]), seen, stack, used);
		for (unsigned e = 0; e < ne; e++)
			if (used[e])
				ret[n++] = (uint16_t)e;
	}
	free(used);
	free(seen);
	free(stack);
	/* a numerator of literals alone (no event): then every event of the
	 * rule, as for any other violation */
	return n ? n : bt_rule_events(rs, i, r, ret);
}
