/* SPDX-License-Identifier: MIT */
/*
 * Which events a set of nodes needs: the event leaves reachable from their
 * value and threshold operations. With known constants (SMT on/off ...), an
 * "A if C else B" whose condition depends on constants only is followed one
 * way, so the planner does not count events that cannot matter.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/model-internal.h"

static bt_status events_of(const struct bt_model *m, const unsigned *nodes, unsigned n_nodes,
			   const double *constants, bool value_only, uint16_t *ret_events,
			   unsigned *ret_n)
{
	bt_status s = BT_ERR_NOMEM;
	uint32_t n = m->n_ops;
	uint8_t *seen = calloc(n + 1, 1);
	uint32_t *stack = malloc((n + 1) * sizeof(*stack));
	double *cv = constants ? malloc((n + 1) * sizeof(*cv)) : NULL;
	uint8_t *known = constants ? calloc(n + 1, 1) : NULL;
	uint8_t *used = calloc(m->def->n_events + 1, 1);
	unsigned count = 0;
	if (!seen || !stack || !used || (constants && (!cv || !known)))
		goto out;
	if (constants) {
		/* values of the operations that depend on constants only */
		for (uint32_t i = 0; i < n; i++) {
			const struct bt_op *o = &m->ops[i];
			int k = bt_op_arity(o->code);
			if (o->code == OP_IMM || o->code == OP_IMMI) {
				known[i] = 1;
				cv[i] = o->k;
			} else if (o->code == OP_CONST) {
				known[i] = !isnan(constants[o->a]);
				cv[i] = constants[o->a];
			} else if (k > 0 && known[o->a] && (k < 2 || known[o->b]) && (k < 3 || known[o->c])) {
				known[i] = 1;
				cv[i] = bt_op_apply(o, cv);
			}
		}
	}
	uint32_t sp = 0;
	for (unsigned j = 0; j < n_nodes; j++) {
		unsigned i = nodes[j];
		if (i >= m->def->n_nodes)
			continue;
		uint32_t roots[3] = { m->node_value[i], m->node_thresh[i], m->node_thresh_lit[i] };
		for (int r = 0; r < (value_only ? 1 : 3); r++)
			if (roots[r] != NO_OP && !seen[roots[r]]) {
				seen[roots[r]] = 1;
				stack[sp++] = roots[r];
			}
	}
	while (sp) {
		const struct bt_op *o = &m->ops[stack[--sp]];
		if (o->code == OP_EVENT) {
			used[o->a] = 1;
			continue;
		}
		uint32_t next[3];
		int k = 0, a = bt_op_arity(o->code);
		if (o->code == OP_IF && constants && known[o->b]) {
			double c = cv[o->b];
			if (!isnan(c))
				next[k++] = c != 0 ? o->a : o->c;
		} else {
			if (a >= 1)
				next[k++] = o->a;
			if (a >= 2)
				next[k++] = o->b;
			if (a >= 3)
				next[k++] = o->c;
		}
		for (int i = 0; i < k; i++)
			if (!seen[next[i]]) {
				seen[next[i]] = 1;
				stack[sp++] = next[i];
			}
	}
	for (unsigned e = 0; e < m->def->n_events; e++)
		if (used[e])
			ret_events[count++] = (uint16_t)e;
	*ret_n = count;
	s = BT_OK;
out:
	free(seen);
	free(stack);
	free(cv);
	free(known);
	free(used);
	return s;
}

bt_status bt_model_events_for_nodes(const struct bt_model *m, const unsigned *nodes, unsigned n_nodes,
				    const double *constants, uint16_t *ret_events, unsigned *ret_n)
{
	return events_of(m, nodes, n_nodes, constants, false, ret_events, ret_n);
}

bt_status bt_model_node_value_events(const struct bt_model *m, unsigned node, const double *constants,
				     uint16_t *ret_events, unsigned *ret_n)
{
	return events_of(m, &node, 1, constants, true, ret_events, ret_n);
}

bool bt_model_has_smt_branches(const struct bt_model *m, const double *constants)
{
	unsigned total = m->def->n_events, n0 = 0, n1 = 0;
	uint16_t *e0 = malloc((total + 1) * sizeof(*e0)), *e1 = malloc((total + 1) * sizeof(*e1));
	double k[BT_CONST_COUNT];
	bool differ = false;

	for (int i = 0; i < BT_CONST_COUNT; i++)
		k[i] = constants ? constants[i] : NAN;
	k[BT_C_HYPERTHREADING_ON] = 0;
	unsigned max = 0;
	for (unsigned i = 0; i < m->def->n_nodes; i++)
		max = m->def->nodes[i].level > max ? m->def->nodes[i].level : max;
	if (e0 && e1 && bt_model_events_up_to_level(m, max, k, e0, &n0) == BT_OK) {
		k[BT_C_HYPERTHREADING_ON] = 1;
		differ = bt_model_events_up_to_level(m, max, k, e1, &n1) == BT_OK &&
			 (n0 != n1 || memcmp(e0, e1, n0 * sizeof(*e0)) != 0);
	}
	free(e0);
	free(e1);
	return differ;
}

bt_status bt_model_events_up_to_level(const struct bt_model *m, unsigned level,
				      const double *constants, uint16_t *ret_events, unsigned *ret_n)
{
	unsigned n = m->def->n_nodes, k = 0;
	unsigned *nodes = malloc((n + 1) * sizeof(*nodes));
	if (!nodes)
		return BT_ERR_NOMEM;
	for (unsigned i = 0; i < n; i++)
		if (m->def->nodes[i].kind == BT_NODE_TREE && m->def->nodes[i].level <= level)
			nodes[k++] = i;
	k = bt_model_add_cross_checks(m, nodes, k);
	bt_status s = bt_model_events_for_nodes(m, nodes, k, constants, ret_events, ret_n);
	free(nodes);
	return s;
}
