/* SPDX-License-Identifier: MIT */
/*
 * The packed tables of metrics/model-pack.h from the loaded models: one
 * string pool, one hash-consed expression DAG, one event table and one node
 * table for all models, built in model order, node order, formula before
 * thresholds, each formula bottom-up (operands first), so the same input
 * gives the same tables.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/expr.h"
#include "tools/gen-models/gen.h"

/* Open addressing over record indices (slot = index + 1, 0 = empty). */
struct htab {
	uint32_t *slot;
	uint32_t cap; /* power of two */
	uint32_t n;
};

static void oom(void)
{
	fprintf(stderr, "gen-models: out of memory\n");
	exit(1);
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdull;
}

static uint64_t hash_bytes(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

typedef int (*same_fn)(const struct gen_pack *p, uint32_t idx, const void *key);

/* Index of the record equal to key, or UINT32_MAX; *at is where to insert. */
static uint32_t ht_find(const struct gen_pack *p, const struct htab *h, uint64_t hash, same_fn same,
			const void *key, uint32_t *at)
{
	uint32_t i = (uint32_t)hash & (h->cap - 1);
	while (h->slot[i]) {
		if (same(p, h->slot[i] - 1, key))
			return h->slot[i] - 1;
		i = (i + 1) & (h->cap - 1);
	}
	*at = i;
	return UINT32_MAX;
}

static void ht_init(struct htab *h)
{
	h->cap = 1u << 17;
	h->n = 0;
	h->slot = calloc(h->cap, sizeof(*h->slot));
	if (!h->slot)
		oom();
}

/* The table is sized for the data (a few 10 000 records): growing it is
 * not needed, running out is an error. */
static void ht_add(struct htab *h, uint32_t at, uint32_t idx)
{
	if (++h->n > h->cap / 2) {
		fprintf(stderr, "gen-models: packing hash table full\n");
		exit(1);
	}
	h->slot[at] = idx + 1;
}

/* A table of fixed-size records, each distinct record once. Records are
 * compared as bytes: they are built zeroed, field by field. */
struct table {
	unsigned char *data;
	size_t size;          /* of one record */
	uint32_t n, cap, max; /* max: the largest index the packed format holds */
	const char *what;
	struct htab h;
};

struct gen_pack {
	char *strings;
	uint32_t n_strings, cap_strings;
	struct htab h_strings;
	uint16_t *args;
	uint32_t n_args, cap_args;
	struct htab h_args;
	struct table exprs, numbers, msr_values, events, nodes;
	struct bt_arena a; /* parsed formulas */
	struct bt_pack_tables tables;
};

static void table_init(struct table *t, size_t size, uint32_t max, const char *what)
{
	t->size = size;
	t->max = max;
	t->what = what;
	ht_init(&t->h);
}

static int same_record(const struct gen_pack *p, uint32_t idx, const void *key)
{
	const struct table *t = *(const struct table *const *)key;
	return !memcmp(t->data + idx * t->size, ((const void *const *)key)[1], t->size);
}

static uint32_t intern(struct gen_pack *p, struct table *t, const void *rec)
{
	const void *key[2] = { t, rec };
	uint32_t at, idx = ht_find(p, &t->h, hash_bytes(rec, t->size), same_record, key, &at);
	if (idx != UINT32_MAX)
		return idx;
	if (t->n > t->max) {
		fprintf(stderr, "gen-models: more than %u %s: widen the field in metrics/model-pack.h\n",
			t->max + 1, t->what);
		exit(1);
	}
	if (t->n == t->cap) {
		t->cap = 2 * t->cap + 256;
		t->data = xrealloc(t->data, t->cap * t->size);
	}
	idx = t->n++;
	memcpy(t->data + idx * t->size, rec, t->size);
	ht_add(&t->h, at, idx);
	return idx;
}

struct gen_pack *gen_pack_new(void)
{
	struct gen_pack *p = calloc(1, sizeof(*p));
	if (!p)
		oom();
	ht_init(&p->h_strings);
	ht_init(&p->h_args);
	table_init(&p->exprs, sizeof(struct bt_pack_expr), BT_PACK_MAX_INDEX, "expression records");
	table_init(&p->numbers, sizeof(double), UINT32_MAX - 1, "numbers");
	table_init(&p->msr_values, sizeof(uint64_t), UINT16_MAX, "MSR values");
	table_init(&p->events, sizeof(struct bt_pack_event), UINT16_MAX, "events");
	table_init(&p->nodes, sizeof(struct bt_pack_node), UINT16_MAX, "nodes");
	bt_arena_init(&p->a);
	return p;
}

/* ---------------------------------------------------------------- strings */

static int same_string(const struct gen_pack *p, uint32_t off, const void *key)
{
	return !strcmp(p->strings + off, key);
}

uint32_t gen_pack_string(struct gen_pack *p, const char *s)
{
	size_t n = strlen(s);
	uint64_t h = hash_bytes(s, n);
	uint32_t at, off = ht_find(p, &p->h_strings, h, same_string, s, &at);
	if (off != UINT32_MAX)
		return off;
	if (p->n_strings + n + 1 > p->cap_strings) {
		p->cap_strings = (uint32_t)(2 * (p->cap_strings + n + 1));
		p->strings = xrealloc(p->strings, p->cap_strings);
	}
	off = p->n_strings;
	memcpy(p->strings + off, s, n + 1);
	p->n_strings += (uint32_t)n + 1;
	ht_add(&p->h_strings, at, off);
	return off;
}

static uint32_t opt_string(struct gen_pack *p, const char *s)
{
	return s ? gen_pack_string(p, s) : BT_PACK_NONE;
}

/* ---------------------------------------------------------------- expressions */

struct arg_key {
	const uint16_t *v;
	uint32_t n;
};

/* An argument list is identified by its offset; its length is in the record,
 * so only lists of the same length compare. */
static int same_args(const struct gen_pack *p, uint32_t off, const void *key)
{
	const struct arg_key *k = key;
	return off + k->n <= p->n_args && !memcmp(p->args + off, k->v, k->n * sizeof(*k->v));
}

static uint32_t intern_args(struct gen_pack *p, const uint16_t *v, uint32_t n)
{
	struct arg_key k = { v, n };
	uint64_t h = mix(hash_bytes((const char *)v, n * sizeof(*v)), n);
	uint32_t at, off = ht_find(p, &p->h_args, h, same_args, &k, &at);
	if (off != UINT32_MAX)
		return off;
	if (p->n_args + n > p->cap_args) {
		p->cap_args = 2 * (p->cap_args + n);
		p->args = xrealloc(p->args, p->cap_args * sizeof(*p->args));
	}
	off = p->n_args;
	memcpy(p->args + off, v, n * sizeof(*v));
	p->n_args += n;
	ht_add(&p->h_args, at, off);
	return off;
}

/* The record of e, its operands first (so they get the lower indices). */
static uint16_t intern_expr(struct gen_pack *p, const struct bt_expr *e)
{
	struct bt_pack_expr r;
	memset(&r, 0, sizeof(r));
	r.op = e->op;
	switch (e->op) {
	case BT_X_NUM: {
		double v = e->num;
		if (!isfinite(v)) {
			fprintf(stderr, "gen-models: number %g in a formula\n", v);
			exit(1);
		}
		r.b = intern(p, &p->numbers, &v); /* by its bits: -0.0 stays -0.0 */
		r.is_float = e->is_float;
		break;
	}
	case BT_X_EVENT: case BT_X_RL: case BT_X_CONST: case BT_X_REF:
		r.b = gen_pack_string(p, e->name);
		break;
	case BT_X_NA:
		break;
	case BT_X_IDENT:
		fprintf(stderr, "gen-models: unresolved name %s in canonical text\n", e->name);
		exit(1);
	case BT_X_NEG: case BT_X_NOT:
		r.a = intern_expr(p, e->args[0]);
		break;
	case BT_X_IF: case BT_X_MIN: case BT_X_MAX: {
		uint16_t *v = xrealloc(NULL, e->nargs * sizeof(*v));
		for (unsigned k = 0; k < e->nargs; k++)
			v[k] = intern_expr(p, e->args[k]);
		r.a = e->nargs;
		r.b = intern_args(p, v, e->nargs);
		free(v);
		break;
	}
	default:
		if (e->nargs != 2) {
			fprintf(stderr, "gen-models: %s with %u operands\n", bt_expr_op_name(e->op),
				e->nargs);
			exit(1);
		}
		r.a = intern_expr(p, e->args[0]);
		r.b = intern_expr(p, e->args[1]);
	}
	return (uint16_t)intern(p, &p->exprs, &r);
}

static uint16_t intern_formula(struct gen_pack *p, const char *id, const char *node,
			       const char *text)
{
	if (!text)
		return BT_PACK_NO_EXPR;
	struct bt_expr *e;
	struct bt_diag d;
	if (bt_expr_parse(&p->a, BT_DIALECT_CANON, text, &e, &d) != BT_OK) {
		fprintf(stderr, "gen-models: %s: %s: %s\n", id, node, d.text);
		exit(1);
	}
	return intern_expr(p, e);
}

/* ---------------------------------------------------------------- models */

static uint16_t intern_event(struct gen_pack *p, const struct bt_event *ev)
{
	struct bt_pack_event r;
	memset(&r, 0, sizeof(r));
	uint64_t msr = ev->msr_value;
	r.name = gen_pack_string(p, ev->name);
	r.counters = ev->counters;
	r.counters_ht_off = ev->counters_ht_off;
	r.flags = ev->flags;
	r.code = ev->code;
	r.code2 = ev->code2;
	r.msr_index = ev->msr_index;
	r.msr_value = (uint16_t)intern(p, &p->msr_values, &msr);
	r.source = ev->source;
	r.umask = ev->umask;
	r.umask_ext = ev->umask_ext;
	r.cmask = ev->cmask;
	r.fixed = ev->fixed;
	r.pm_field = ev->pm_field;
	return (uint16_t)intern(p, &p->events, &r);
}

static uint16_t intern_node(struct gen_pack *p, const char *id, const struct bt_node_def *n)
{
	struct bt_pack_node r;
	memset(&r, 0, sizeof(r));
	r.name = gen_pack_string(p, n->name);
	r.parent = opt_string(p, n->parent);
	r.formula = intern_formula(p, id, n->name, n->formula);
	r.threshold = intern_formula(p, id, n->name, n->threshold);
	r.threshold_literal = intern_formula(p, id, n->name, n->threshold_literal);
	r.kind = n->kind;
	r.level = n->level;
	r.percent = n->percent;
	return (uint16_t)intern(p, &p->nodes, &r);
}

void gen_pack_model(struct gen_pack *p, const struct bt_model_def *def,
		    struct gen_packed_model *out)
{
	uint16_t *nodes = xrealloc(NULL, (def->n_nodes + 1u) * sizeof(*nodes));
	uint16_t *events = xrealloc(NULL, (def->n_events + 1u) * sizeof(*events));
	for (unsigned i = 0; i < def->n_nodes; i++)
		nodes[i] = intern_node(p, def->id, &def->nodes[i]);
	for (unsigned i = 0; i < def->n_events; i++)
		events[i] = intern_event(p, &def->events[i]);
	out->def = *def;
	out->def.nodes = NULL;
	out->def.events = NULL;
	/* the published retire latencies are a table of their own
	 * (metrics/rl-published.h, tools/gen-retlat), set when unpacking */
	out->def.retire_latency = NULL;
	out->def.n_retire_latency = 0;
	out->def.retire_latency_source = NULL;
	out->def.pack = &out->pack;
	out->pack = (struct bt_model_pack){ .tables = &p->tables, .nodes = nodes, .events = events };
	gen_pack_tables(p);
}

const struct bt_pack_tables *gen_pack_tables(struct gen_pack *p)
{
	p->tables = (struct bt_pack_tables){
		.strings = p->strings, .strings_size = p->n_strings,
		.exprs = (const struct bt_pack_expr *)p->exprs.data, .n_exprs = p->exprs.n,
		.args = p->args, .n_args = p->n_args,
		.numbers = (const double *)p->numbers.data, .n_numbers = p->numbers.n,
		.msr_values = (const uint64_t *)p->msr_values.data, .n_msr_values = p->msr_values.n,
		.events = (const struct bt_pack_event *)p->events.data, .n_events = p->events.n,
		.nodes = (const struct bt_pack_node *)p->nodes.data, .n_nodes = p->nodes.n,
	};
	return &p->tables;
}

/* ---------------------------------------------------------------- check */

static int same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

int gen_pack_check(const struct gen_packed_model *pm, const struct bt_model_def *def)
{
	struct bt_arena a;
	bt_arena_init(&a);
	struct bt_model_def *u;
	struct bt_diag d;
	int bad = 0;
	if (bt_model_unpack(&a, &pm->def, &u, &d) != BT_OK) {
		fprintf(stderr, "gen-models: %s: unpacking: %s\n", def->id, d.text);
		bt_arena_free(&a);
		return -1;
	}
	for (unsigned i = 0; i < def->n_nodes; i++) {
		const struct bt_node_def *x = &def->nodes[i], *y = &u->nodes[i];
		if (!same_str(x->name, y->name) || !same_str(x->parent, y->parent) ||
		    !same_str(x->formula, y->formula) || !same_str(x->threshold, y->threshold) ||
		    !same_str(x->threshold_literal, y->threshold_literal) || x->kind != y->kind ||
		    x->level != y->level || x->percent != y->percent) {
			fprintf(stderr, "gen-models: %s: node %s does not unpack to itself\n", def->id,
				x->name);
			bad = 1;
		}
	}
	for (unsigned i = 0; i < def->n_events; i++) {
		const struct bt_event *x = &def->events[i], *y = &u->events[i];
		bad |= !same_str(x->name, y->name) || x->source != y->source || x->flags != y->flags ||
		       x->code != y->code || x->code2 != y->code2 || x->umask != y->umask ||
		       x->umask_ext != y->umask_ext || x->cmask != y->cmask || x->fixed != y->fixed ||
		       x->pm_field != y->pm_field || x->counters != y->counters ||
		       x->counters_ht_off != y->counters_ht_off || x->msr_index != y->msr_index ||
		       x->msr_value != y->msr_value;
	}
	for (unsigned i = 0; i < def->n_retire_latency; i++)
		bad |= !same_str(def->retire_latency[i].event, u->retire_latency[i].event) ||
		       def->retire_latency[i].cycles != u->retire_latency[i].cycles;
	bad |= u->n_nodes != def->n_nodes || u->n_events != def->n_events ||
	       u->n_retire_latency != def->n_retire_latency;
	if (bad)
		fprintf(stderr, "gen-models: %s: the packed model differs from the loaded one\n", def->id);
	bt_arena_free(&a);
	return bad ? -1 : 0;
}
