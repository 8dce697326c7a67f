/* SPDX-License-Identifier: MIT */
/*
 * What each node's value rests on where its formula reads retire latencies
 * (enum bt_node_latency, metrics/model.h): one pass over the evaluated
 * program, after bt_evaluate has the values, carries per operation the set
 * of latencies its value depends on along the path actually taken:
 *  - an IF depends on its condition and on the branch it took (the
 *    vendor's fallback `X if rl >= 0 else CAP`: with rl not given the
 *    condition reads rl and the cap decides, so the node rests on "cap");
 *  - AND / OR on what they evaluated (Python's short circuit);
 *  - a product with an exact 0 on that operand only (a count of an event
 *    that did not occur times its latency: 0 whatever the latency), as the
 *    not-measured taint of eval.c; d_ratio(a, 0) on its divisor only;
 *  - anything else on all its operands (min / max: the latency decides
 *    which one, so both count).
 * A node's kind is then the weakest source among the latencies of its set.
 */
#include <math.h>
#include <string.h>

#include "metrics/model-internal.h"

const char *bt_node_latency_name(enum bt_node_latency k)
{
	static const char *const names[BT_LAT_COUNT] = {
		"", "measured", "given", "file", "published", "cap", "not_measured",
	};
	return (unsigned)k < BT_LAT_COUNT ? names[k] : "?";
}

static uint64_t bit(uint32_t rl)
{
	return 1ull << (rl < 63 ? rl : 63);
}

static void masks(const struct bt_model *m, const double *v, uint64_t *mk)
{
	for (uint32_t i = 0; i < m->n_ops; i++) {
		const struct bt_op *o = &m->ops[i];
		uint64_t x;
		switch (o->code) {
		case OP_RL: x = bit(o->a); break;
		case OP_EVENT: case OP_CONST: case OP_IMM: case OP_IMMI: x = 0; break;
		case OP_IF:
			x = mk[o->b] | (isnan(v[o->b]) ? 0 : v[o->b] != 0 ? mk[o->a] : mk[o->c]);
			break;
		case OP_AND:
			x = mk[o->a] | (isnan(v[o->a]) || v[o->a] == 0 ? 0 : mk[o->b]);
			break;
		case OP_OR:
			x = mk[o->a] | (isnan(v[o->a]) || v[o->a] != 0 ? 0 : mk[o->b]);
			break;
		case OP_MUL:
			x = v[o->a] == 0 ? mk[o->a] : v[o->b] == 0 ? mk[o->b] : mk[o->a] | mk[o->b];
			break;
		case OP_DRATIO:
			x = v[o->b] == 0 ? mk[o->b] : mk[o->a] | mk[o->b];
			break;
		default:
			x = mk[o->a] | (bt_op_arity(o->code) >= 2 ? mk[o->b] : 0);
			break;
		}
		mk[i] = x;
	}
}

/* The latency kind of one input (NONE: not given) */
static enum bt_node_latency of_source(uint8_t src)
{
	switch (src) {
	case BT_RL_MEASURED: return BT_LAT_MEASURED;
	case BT_RL_GIVEN: return BT_LAT_GIVEN;
	case BT_RL_FILE: return BT_LAT_FILE;
	case BT_RL_PUBLISHED: return BT_LAT_PUBLISHED;
	default: return BT_LAT_CAP;
	}
}

void bt_eval_latency(const struct bt_model *m, const struct bt_counts *c, struct bt_result *r)
{
	unsigned n = m->def->n_nodes;
	memset(r->n_latency, 0, sizeof(r->n_latency));
	memset(r->latency, 0, n);
	if (!m->n_rl || !r->rl_mask)
		return;
	masks(m, r->ops, r->rl_mask);
	/* the kind of each bit: the weakest input behind it (bit 63 may
	 * stand for several inputs of a model with more than 63) */
	uint8_t kind[64] = { 0 };
	for (unsigned k = 0; k < m->n_rl; k++) {
		unsigned b = k < 63 ? k : 63;
		enum bt_node_latency x = of_source(c->retire_latency_source[k]);
		if (x > kind[b])
			kind[b] = (uint8_t)x;
	}
	for (unsigned i = 0; i < n; i++) {
		uint64_t mk = r->rl_mask[m->node_value[i]];
		uint8_t x = BT_LAT_NONE;
		for (unsigned b = 0; mk; b++, mk >>= 1)
			if ((mk & 1) && kind[b] > x)
				x = kind[b];
		if (r->state[i] == BT_NODE_NO_RETIRE_LATENCY)
			x = BT_LAT_MISSING;
		else if (r->state[i] != BT_NODE_OK)
			x = BT_LAT_NONE; /* no value: nothing rests on it */
		r->latency[i] = x;
		if (x != BT_LAT_NONE && m->def->nodes[i].kind == BT_NODE_TREE &&
		    !(r->exclude[i] & BT_EXCLUDE_NOT_MEASURED))
			r->n_latency[x]++;
	}
}
