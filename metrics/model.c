/* SPDX-License-Identifier: MIT */
/* bt_model_open: canonical formulas -> one DAG per model; node and event queries. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/builtin.h"
#include "metrics/model-internal.h"

static const char *const constant_names[BT_CONST_COUNT] = {
	"HYPERTHREADING_ON", "THREADS_PER_CORE", "SYSTEM_TSC_FREQ", "TSC_HZ",
	"DURATIONTIMEINMILLISECONDS", "SOCKET_COUNT", "CORES_PER_SOCKET", "CHAS_PER_SOCKET",
	"NUM_CPUS", "CORE_WIDE", "SMT_SIBLING_ACTIVE",
};

const char *bt_constant_name(enum bt_constant c)
{
	return c < BT_CONST_COUNT ? constant_names[c] : "?";
}

enum bt_constant bt_constant_find(const char *name)
{
	for (int i = 0; i < BT_CONST_COUNT; i++)
		if (!strcmp(constant_names[i], name))
			return (enum bt_constant)i;
	return BT_CONST_COUNT;
}

/* Compiling a reference compiles the named formula inside the caller's
 * (recursion as deep as its tree), so a chain of references nests the
 * heights of its formulas: bounded in total as one formula is bounded
 * (BT_EXPR_MAX_HEIGHT, 256), for the EFI stack. The built-in models nest
 * at most 38 (ICX). */
#define BT_MODEL_MAX_NESTED_HEIGHT BT_EXPR_MAX_HEIGHT

struct compiler {
	struct bt_model *m;
	struct dag *g;
	struct bt_diag *d;
	struct bt_arena tmp;        /* formula trees */
	struct bt_expr **formula;   /* per node */
	uint8_t *state;             /* 0 new, 1 compiling, 2 done */
	unsigned cur;               /* node being compiled, for messages */
	unsigned nested;            /* heights of the formulas being compiled, summed */
	int threshold;              /* compiling a threshold: comparisons are T-comparisons */
};

static const struct bt_node_def *node_def(const struct bt_model *m, unsigned i)
{
	return &m->def->nodes[i];
}

static int cmp_name_idx(const struct bt_model *m, unsigned i, const char *name)
{
	return strcmp(node_def(m, i)->name, name);
}

int bt_model_node_find(const struct bt_model *m, const char *name)
{
	unsigned lo = 0, hi = m->def->n_nodes;
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;
		int c = cmp_name_idx(m, m->name_order[mid], name);
		if (c == 0)
			return m->name_order[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

int bt_model_event_find(const struct bt_model *m, const char *name)
{
	unsigned lo = 0, hi = m->def->n_events;
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;
		int c = strcmp(m->def->events[mid].name, name);
		if (c == 0)
			return (int)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static int rl_find(const struct bt_model *m, const char *name)
{
	for (unsigned i = 0; i < m->n_rl; i++)
		if (!strcmp(m->rl_names[i], name))
			return (int)i;
	return -1;
}

static uint32_t compile_node(struct compiler *c, unsigned i, bt_status *err);

static uint32_t fail(struct compiler *c, bt_status *err, bt_status s, const char *fmt, const char *arg)
{
	char msg[300];
	snprintf(msg, sizeof(msg), fmt, arg);
	bt_diag_set(c->d, "model %s: node %s: %s", c->m->def->id, node_def(c->m, c->cur)->name, msg);
	*err = s;
	return NO_OP;
}

static uint32_t compile(struct compiler *c, const struct bt_expr *e, bt_status *err)
{
	struct bt_model *m = c->m;
	uint32_t a = 0, b = 0, x = 0;
	switch (e->op) {
	case BT_X_NUM:
		return bt_dag_op(c->g, e->is_float ? OP_IMM : OP_IMMI, 0, 0, 0, e->num);
	case BT_X_NA:
		return bt_dag_op(c->g, OP_IMM, 0, 0, 0, NAN);
	case BT_X_EVENT: {
		int i = bt_model_event_find(m, e->name);
		if (i < 0)
			return fail(c, err, BT_ERR_NOT_FOUND, "event %s is not in the model's event table",
				    e->name);
		return bt_dag_op(c->g, OP_EVENT, (uint32_t)i, 0, 0, 0);
	}
	case BT_X_RL: {
		int i = rl_find(m, e->name);
		if (i < 0) {
			const char **names = bt_arena_alloc(&m->arena, (m->n_rl + 1) * sizeof(*names));
			if (!names)
				return fail(c, err, BT_ERR_NOMEM, "%s", "out of memory");
			if (m->n_rl)
				memcpy(names, m->rl_names, m->n_rl * sizeof(*names));
			names[m->n_rl] = bt_arena_strdup(&m->arena, e->name);
			if (!names[m->n_rl])
				return fail(c, err, BT_ERR_NOMEM, "%s", "out of memory");
			m->rl_names = names;
			i = (int)m->n_rl++;
		}
		return bt_dag_op(c->g, OP_RL, (uint32_t)i, 0, 0, 0);
	}
	case BT_X_CONST: {
		enum bt_constant k = bt_constant_find(e->name);
		if (k == BT_CONST_COUNT)
			return fail(c, err, BT_ERR_NOT_FOUND, "unknown constant #%s", e->name);
		m->consts_used |= 1u << k;
		return bt_dag_op(c->g, OP_CONST, k, 0, 0, 0);
	}
	case BT_X_REF: {
		int i = bt_model_node_find(m, e->name);
		if (i < 0)
			return fail(c, err, BT_ERR_NOT_FOUND, "reference to unknown node %s", e->name);
		unsigned saved = c->cur;
		int saved_t = c->threshold;
		c->threshold = 0;
		uint32_t r = compile_node(c, (unsigned)i, err);
		c->cur = saved;
		c->threshold = saved_t;
		return r;
	}
	case BT_X_IDENT:
		return fail(c, err, BT_ERR_INVALID, "unresolved name %s", e->name);
	default:
		break;
	}
	if (e->op == BT_X_MIN || e->op == BT_X_MAX) {
		/* Python min/max over n arguments: a running min/max, first wins ties */
		x = compile(c, e->args[0], err);
		for (int i = 1; i < e->nargs && x != NO_OP; i++) {
			b = compile(c, e->args[i], err);
			x = bt_dag_op(c->g, e->op == BT_X_MIN ? OP_MIN : OP_MAX, x, b, 0, 0);
		}
		return x;
	}
	if (e->nargs >= 1 && (a = compile(c, e->args[0], err)) == NO_OP)
		return NO_OP;
	if (e->nargs >= 2 && (b = compile(c, e->args[1], err)) == NO_OP)
		return NO_OP;
	if (e->nargs >= 3 && (x = compile(c, e->args[2], err)) == NO_OP)
		return NO_OP;
	int t = c->threshold ? OP_TLT - OP_LT : 0;
	switch (e->op) {
	case BT_X_NEG: return bt_dag_op(c->g, OP_NEG, a, 0, 0, 0);
	case BT_X_NOT: return bt_dag_op(c->g, OP_NOT, a, 0, 0, 0);
	case BT_X_ADD: return bt_dag_op(c->g, OP_ADD, a, b, 0, 0);
	case BT_X_SUB: return bt_dag_op(c->g, OP_SUB, a, b, 0, 0);
	case BT_X_MUL: return bt_dag_op(c->g, OP_MUL, a, b, 0, 0);
	case BT_X_DIV: return bt_dag_op(c->g, OP_DIV, a, b, 0, 0);
	case BT_X_LT: return bt_dag_op(c->g, (uint8_t)(OP_LT + t), a, b, 0, 0);
	case BT_X_GT: return bt_dag_op(c->g, (uint8_t)(OP_GT + t), a, b, 0, 0);
	case BT_X_LE: return bt_dag_op(c->g, (uint8_t)(OP_LE + t), a, b, 0, 0);
	case BT_X_GE: return bt_dag_op(c->g, (uint8_t)(OP_GE + t), a, b, 0, 0);
	case BT_X_EQ: return bt_dag_op(c->g, (uint8_t)(OP_EQ + t), a, b, 0, 0);
	case BT_X_NE: return bt_dag_op(c->g, (uint8_t)(OP_NE + t), a, b, 0, 0);
	case BT_X_AND: return bt_dag_op(c->g, OP_AND, a, b, 0, 0);
	case BT_X_OR: return bt_dag_op(c->g, OP_OR, a, b, 0, 0);
	case BT_X_IF: return bt_dag_op(c->g, OP_IF, a, b, x, 0);
	case BT_X_DRATIO: return bt_dag_op(c->g, OP_DRATIO, a, b, 0, 0);
	default:
		return fail(c, err, BT_ERR_INTERNAL, "unexpected operator %s", bt_expr_op_name(e->op));
	}
}

static uint32_t compile_node(struct compiler *c, unsigned i, bt_status *err)
{
	struct bt_model *m = c->m;
	if (c->state[i] == 2)
		return m->node_value[i];
	c->cur = i;
	if (c->state[i] == 1)
		return fail(c, err, BT_ERR_INVALID, "%s", "formula refers to itself (a cycle)");
	c->state[i] = 1;
	if (c->nested + c->formula[i]->depth > BT_MODEL_MAX_NESTED_HEIGHT)
		return fail(c, err, BT_ERR_INVALID, "%s", "references to other metrics nest its formula "
			    "deeper than 256 operators in all (a chain of formulas each naming the next)");
	c->nested += c->formula[i]->depth;
	uint32_t r = compile(c, c->formula[i], err);
	c->nested -= c->formula[i]->depth;
	if (r == NO_OP) {
		if (*err == BT_OK) {
			bt_diag_set(c->d, "model %s: out of memory", m->def->id);
			*err = BT_ERR_NOMEM;
		}
		return NO_OP;
	}
	c->state[i] = 2;
	m->node_value[i] = r;
	return r;
}

struct name_idx {
	const char *name;
	uint16_t i;
};

static int cmp_name(const void *x, const void *y)
{
	const struct name_idx *a = x, *b = y;
	int c = strcmp(a->name, b->name);
	return c ? c : (a->i > b->i) - (a->i < b->i);
}

/* node indexes by name: O(n log n) (an insertion sort took seconds on the
 * 40,000 nodes of a file on the ESP) */
static bt_status sort_by_name(struct bt_model *m, struct bt_arena *tmp)
{
	unsigned n = m->def->n_nodes;
	struct name_idx *v = bt_arena_alloc(tmp, (n + 1) * sizeof(*v));
	if (!v)
		return BT_ERR_NOMEM;
	for (unsigned i = 0; i < n; i++)
		v[i] = (struct name_idx){ node_def(m, i)->name, (uint16_t)i };
	qsort(v, n, sizeof(*v), cmp_name);
	for (unsigned i = 0; i < n; i++)
		m->name_order[i] = v[i].i;
	return BT_OK;
}

static bt_status build_tree(struct bt_model *m, struct bt_diag *d)
{
	unsigned n = m->def->n_nodes;
	m->parent = bt_arena_alloc(&m->arena, (n + 1) * sizeof(*m->parent));
	m->child_start = bt_arena_alloc(&m->arena, (n + 1) * sizeof(*m->child_start));
	m->n_children = bt_arena_alloc(&m->arena, (n + 1) * sizeof(*m->n_children));
	m->child_list = bt_arena_alloc(&m->arena, (n + 1) * sizeof(*m->child_list));
	m->roots = bt_arena_alloc(&m->arena, (n + 1) * sizeof(*m->roots));
	if (!m->parent || !m->child_start || !m->n_children || !m->child_list || !m->roots)
		return BT_ERR_NOMEM;
	for (unsigned i = 0; i < n; i++) {
		const struct bt_node_def *nd = node_def(m, i);
		m->parent[i] = -1;
		if (nd->kind != BT_NODE_TREE)
			continue;
		if (nd->level > m->max_level)
			m->max_level = nd->level;
		if (!nd->parent) {
			m->roots[m->n_roots++] = (uint16_t)i;
			continue;
		}
		int p = bt_model_node_find(m, nd->parent);
		if (p < 0 || node_def(m, (unsigned)p)->kind != BT_NODE_TREE) {
			bt_diag_set(d, "model %s: node %s: parent %s is not a tree node", m->def->id,
				    nd->name, nd->parent);
			return BT_ERR_INVALID;
		}
		m->parent[i] = p;
		m->n_children[p]++;
	}
	/* Every chain of parents ends at a root (loaders say where in the file;
	 * this guards every other definition): a cycle would be measured under
	 * no root and never shown. Each node is walked once. */
	uint8_t *state = bt_arena_alloc(&m->arena, n + 1);
	if (!state)
		return BT_ERR_NOMEM;
	memset(state, 0, n + 1);
	for (unsigned i = 0; i < n; i++) {
		int k = (int)i;
		while (k >= 0 && state[k] == 0) {
			state[k] = 1;
			k = m->parent[k];
		}
		if (k >= 0 && state[k] == 1) {
			bt_diag_set(d, "model %s: node %s: its parents form a cycle (%s -> %s ...), which "
				    "reaches no root", m->def->id, node_def(m, (unsigned)k)->name,
				    node_def(m, (unsigned)k)->name,
				    node_def(m, (unsigned)m->parent[k])->name);
			return BT_ERR_INVALID;
		}
		for (k = (int)i; k >= 0 && state[k] == 1; k = m->parent[k])
			state[k] = 2;
	}
	unsigned pos = 0;
	for (unsigned i = 0; i < n; i++) {
		m->child_start[i] = pos;
		pos += m->n_children[i];
		m->n_children[i] = 0;
	}
	for (unsigned i = 0; i < n; i++)
		if (m->parent[i] >= 0) {
			unsigned p = (unsigned)m->parent[i];
			m->child_list[m->child_start[p] + m->n_children[p]++] = (uint16_t)i;
		}
	return BT_OK;
}

bt_status bt_model_open(const struct bt_model_def *def, struct bt_model **ret, struct bt_diag *d)
{
	/* a packed built-in entry (bt_builtin_models[]): its full definition */
	bt_status us = bt_builtin_full(def, &def, d);
	if (us != BT_OK)
		return us;
	struct bt_model *m = calloc(1, sizeof(*m));
	if (!m) {
		bt_diag_set(d, "out of memory");
		return BT_ERR_NOMEM;
	}
	m->def = def;
	m->cpi_node = -1;
	bt_arena_init(&m->arena);
	struct compiler c = { .m = m, .d = d };
	bt_arena_init(&c.tmp);
	bt_status s = BT_ERR_NOMEM;
	unsigned n = def->n_nodes;
	m->node_value = bt_arena_alloc(&m->arena, (n + 1) * sizeof(uint32_t));
	m->node_thresh = bt_arena_alloc(&m->arena, (n + 1) * sizeof(uint32_t));
	m->node_thresh_lit = bt_arena_alloc(&m->arena, (n + 1) * sizeof(uint32_t));
	m->name_order = bt_arena_alloc(&m->arena, (n + 1) * sizeof(uint16_t));
	c.formula = bt_arena_alloc(&c.tmp, (n + 1) * sizeof(*c.formula));
	c.state = bt_arena_alloc(&c.tmp, n + 1);
	c.g = bt_dag_new();
	if (!m->node_value || !m->node_thresh || !m->node_thresh_lit || !m->name_order || !c.formula ||
	    !c.state || !c.g) {
		bt_diag_set(d, "out of memory");
		goto out;
	}
	for (unsigned i = 1; i < def->n_events; i++)
		if (strcmp(def->events[i - 1].name, def->events[i].name) >= 0) {
			bt_diag_set(d, "model %s: event table not sorted at %s", def->id,
				    def->events[i].name);
			s = BT_ERR_INVALID;
			goto out;
		}
	if ((s = sort_by_name(m, &c.tmp)) != BT_OK) {
		bt_diag_set(d, "out of memory");
		goto out;
	}
	s = BT_ERR_INVALID;
	for (unsigned i = 1; i < n; i++)
		if (!strcmp(node_def(m, m->name_order[i - 1])->name, node_def(m, m->name_order[i])->name)) {
			bt_diag_set(d, "model %s: node %s defined twice", def->id,
				    node_def(m, m->name_order[i])->name);
			s = BT_ERR_INVALID;
			goto out;
		}
	if ((s = build_tree(m, d)) != BT_OK) {
		if (s == BT_ERR_NOMEM)
			bt_diag_set(d, "out of memory");
		goto out;
	}
	for (unsigned i = 0; i < n; i++) {
		const struct bt_node_def *nd = node_def(m, i);
		s = bt_expr_parse(&c.tmp, BT_DIALECT_CANON, nd->formula ? nd->formula : "", &c.formula[i], d);
		if (s != BT_OK) {
			bt_diag_prefix(d, "model %s: node %s: formula", def->id, nd->name);
			goto out;
		}
	}
	for (unsigned i = 0; i < n; i++) {
		bt_status err = BT_OK;
		if (compile_node(&c, i, &err) == NO_OP) {
			s = err != BT_OK ? err : BT_ERR_INTERNAL;
			goto out;
		}
	}
	for (unsigned i = 0; i < n; i++) {
		const struct bt_node_def *nd = node_def(m, i);
		const char *texts[2] = { nd->threshold, nd->threshold_literal };
		uint32_t *slots[2] = { &m->node_thresh[i], &m->node_thresh_lit[i] };
		for (int k = 0; k < 2; k++) {
			*slots[k] = NO_OP;
			if (!texts[k])
				continue;
			struct bt_expr *e;
			s = bt_expr_parse(&c.tmp, BT_DIALECT_CANON, texts[k], &e, d);
			if (s != BT_OK) {
				bt_diag_prefix(d, "model %s: node %s: threshold", def->id, nd->name);
				goto out;
			}
			c.cur = i;
			c.threshold = 1;
			bt_status err = BT_OK;
			*slots[k] = compile(&c, e, &err);
			c.threshold = 0;
			if (*slots[k] == NO_OP) {
				s = err != BT_OK ? err : BT_ERR_NOMEM;
				goto out;
			}
		}
	}
	if (def->cpi_node)
		m->cpi_node = bt_model_node_find(m, def->cpi_node);
	uint32_t *remap;
	if (bt_dag_finish(c.g, m, &remap) < 0) {
		bt_diag_set(d, "out of memory");
		s = BT_ERR_NOMEM;
		goto out;
	}
	for (unsigned i = 0; i < n; i++) {
		m->node_value[i] = remap[m->node_value[i]];
		if (m->node_thresh[i] != NO_OP)
			m->node_thresh[i] = remap[m->node_thresh[i]];
		if (m->node_thresh_lit[i] != NO_OP)
			m->node_thresh_lit[i] = remap[m->node_thresh_lit[i]];
	}
	free(remap);
	s = BT_OK;
out:
	bt_dag_free(c.g);
	bt_arena_free(&c.tmp);
	if (s != BT_OK) {
		bt_model_close(m);
		return s;
	}
	*ret = m;
	return BT_OK;
}

void bt_model_close(struct bt_model *m)
{
	if (!m)
		return;
	bt_arena_free(&m->arena);
	free(m);
}

const struct bt_model_def *bt_model_def(const struct bt_model *m)
{
	return m->def;
}

unsigned bt_model_node_count(const struct bt_model *m)
{
	return m->def->n_nodes;
}

const struct bt_node_def *bt_model_node(const struct bt_model *m, unsigned i)
{
	return i < m->def->n_nodes ? &m->def->nodes[i] : NULL;
}

int bt_model_node_parent(const struct bt_model *m, unsigned i)
{
	return i < m->def->n_nodes ? m->parent[i] : -1;
}

unsigned bt_model_node_children(const struct bt_model *m, unsigned i, const uint16_t **ret)
{
	if (i >= m->def->n_nodes)
		return 0;
	*ret = m->child_list + m->child_start[i];
	return m->n_children[i];
}

unsigned bt_model_roots(const struct bt_model *m, const uint16_t **ret)
{
	*ret = m->roots;
	return m->n_roots;
}

unsigned bt_model_max_level(const struct bt_model *m)
{
	return m->max_level;
}

int bt_model_cross_check_of(const struct bt_model *m, unsigned i)
{
	const struct bt_node_def *nd = i < m->def->n_nodes ? node_def(m, i) : NULL;
	if (!nd || !nd->cross_check || nd->kind == BT_NODE_TREE)
		return -1;
	int t = bt_model_node_find(m, nd->cross_check);
	return t >= 0 && node_def(m, (unsigned)t)->kind == BT_NODE_TREE ? t : -1;
}

unsigned bt_model_add_cross_checks(const struct bt_model *m, unsigned *nodes, unsigned n)
{
	unsigned n0 = n;
	for (unsigned i = 0; i < m->def->n_nodes; i++) {
		int t = bt_model_cross_check_of(m, i);
		bool listed = false, target = false;
		if (t < 0)
			continue;
		for (unsigned k = 0; k < n && !listed; k++)
			listed = nodes[k] == i;
		for (unsigned k = 0; k < n0 && !target; k++)
			target = nodes[k] == (unsigned)t;
		if (target && !listed)
			nodes[n++] = i;
	}
	return n;
}

unsigned bt_model_event_count(const struct bt_model *m)
{
	return m->def->n_events;
}

const struct bt_event *bt_model_event(const struct bt_model *m, unsigned i)
{
	return i < m->def->n_events ? &m->def->events[i] : NULL;
}

unsigned bt_model_retire_latency_count(const struct bt_model *m)
{
	return m->n_rl;
}

const char *bt_model_retire_latency_name(const struct bt_model *m, unsigned i)
{
	return i < m->n_rl ? m->rl_names[i] : NULL;
}

double bt_model_retire_latency_published(const struct bt_model *m, unsigned i)
{
	if (i >= m->n_rl)
		return NAN;
	for (unsigned k = 0; k < m->def->n_retire_latency; k++)
		if (!strcmp(m->def->retire_latency[k].event, m->rl_names[i]))
			return m->def->retire_latency[k].cycles;
	return NAN;
}

unsigned bt_model_op_count(const struct bt_model *m)
{
	return m->n_ops;
}
