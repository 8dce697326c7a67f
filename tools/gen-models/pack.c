/* SPDX-License-Identifier: MIT */
/*
 * The packed tables of metrics/model-pack.h from the loaded models: one
 * string pool, one hash-consed expression DAG and one event table for all
 * models, built in model order, node order, formula before thresholds, each
 * formula bottom-up, so the same input gives the same tables.
 */
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
	h->cap = 1u << 16;
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

struct gen_pack {
	char *strings;
	uint32_t n_strings, cap_strings;
	struct htab h_strings;
	struct bt_pack_expr *exprs;
	uint32_t n_exprs, cap_exprs;
	struct htab h_exprs;
	uint32_t *args;
	uint32_t n_args, cap_args;
	struct htab h_args;
	struct bt_pack_event *events;
	uint32_t n_events, cap_events;
	struct htab h_events;
	struct bt_arena a; /* parsed formulas */
	struct bt_pack_tables tables;
};

struct gen_pack *gen_pack_new(void)
{
	struct gen_pack *p = calloc(1, sizeof(*p));
	if (!p)
		oom();
	ht_init(&p->h_strings);
	ht_init(&p->h_exprs);
	ht_init(&p->h_args);
	ht_init(&p->h_events);
	bt_arena_init(&p->a);
	return p;
}

/* ---------------------------------------------------------------- strings */

static int same_string(const struct gen_pack *p, uint32_t off, const void *key)
{
	return !strcmp(p->strings + off, key);
}

static uint32_t intern_string(struct gen_pack *p, const char *s)
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
	return s ? intern_string(p, s) : BT_PACK_NONE;
}

/* ---------------------------------------------------------------- expressions */

static uint64_t hash_expr(const struct bt_pack_expr *r)
{
	uint64_t h = mix(mix(r->op, r->is_float), r->nargs);
	return mix(mix(h, r->a), r->b);
}

static int same_expr(const struct gen_pack *p, uint32_t idx, const void *key)
{
	const struct bt_pack_expr *x = &p->exprs[idx], *y = key;
	return x->op == y->op && x->is_float == y->is_float && x->nargs == y->nargs && x->a == y->a &&
	       x->b == y->b;
}

struct arg_key {
	const uint32_t *v;
	uint32_t n;
};

/* An argument list is identified by its offset; its length is in the record,
 * so only lists of the same length compare. */
static int same_args(const struct gen_pack *p, uint32_t off, const void *key)
{
	const struct arg_key *k = key;
	return off + k->n <= p->n_args && !memcmp(p->args + off, k->v, k->n * sizeof(*k->v));
}

static uint32_t intern_args(struct gen_pack *p, const uint32_t *v, uint32_t n)
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

static uint32_t intern_record(struct gen_pack *p, const struct bt_pack_expr *r)
{
	uint32_t at, idx = ht_find(p, &p->h_exprs, hash_expr(r), same_expr, r, &at);
	if (idx != UINT32_MAX)
		return idx;
	if (p->n_exprs == p->cap_exprs) {
		p->cap_exprs = 2 * p->cap_exprs + 1024;
		p->exprs = xrealloc(p->exprs, p->cap_exprs * sizeof(*p->exprs));
	}
	idx = p->n_exprs++;
	p->exprs[idx] = *r;
	ht_add(&p->h_exprs, at, idx);
	return idx;
}

/* The record of e, its operands first (so they get the lower indices). */
static uint32_t intern_expr(struct gen_pack *p, const struct bt_expr *e)
{
	struct bt_pack_expr r = { .op = e->op, .nargs = e->nargs };
	switch (e->op) {
	case BT_X_NUM: {
		uint64_t bits;
		memcpy(&bits, &e->num, sizeof(bits));
		r.a = (uint32_t)bits;
		r.b = (uint32_t)(bits >> 32);
		r.is_float = e->is_float;
		break;
	}
	case BT_X_EVENT: case BT_X_RL: case BT_X_CONST: case BT_X_REF:
		r.a = intern_string(p, e->name);
		break;
	case BT_X_NA:
		break;
	case BT_X_IDENT:
		fprintf(stderr, "gen-models: unresolved name %s in canonical text\n", e->name);
		exit(1);
	default: {
		uint32_t *v = xrealloc(NULL, e->nargs * sizeof(*v));
		for (unsigned k = 0; k < e->nargs; k++)
			v[k] = intern_expr(p, e->args[k]);
		if (e->nargs <= 2) {
			r.a = e->nargs > 0 ? v[0] : 0;
			r.b = e->nargs > 1 ? v[1] : 0;
		} else {
			r.a = intern_args(p, v, e->nargs);
		}
		free(v);
	}
	}
	return intern_record(p, &r);
}

static uint32_t intern_formula(struct gen_pack *p, const char *id, const char *node, const char *text)
{
	if (!text)
		return BT_PACK_NONE;
	struct bt_expr *e;
	struct bt_diag d;
	if (bt_expr_parse(&p->a, BT_DIALECT_CANON, text, &e, &d) != BT_OK) {
		fprintf(stderr, "gen-models: %s: %s: %s\n", id, node, d.text);
		exit(1);
	}
	return intern_expr(p, e);
}

/* ---------------------------------------------------------------- events */

static uint64_t hash_event(const struct bt_pack_event *e)
{
	uint64_t h = mix(e->msr_value, e->name);
	h = mix(mix(h, e->counters), e->counters_ht_off);
	h = mix(mix(mix(mix(h, e->flags), e->code), e->code2), e->msr_index);
	h = mix(mix(mix(mix(h, e->source), e->umask), e->umask_ext), e->cmask);
	return mix(mix(h, (uint8_t)e->fixed), e->pm_field);
}

static int same_event(const struct gen_pack *p, uint32_t idx, const void *key)
{
	const struct bt_pack_event *x = &p->events[idx], *y = key;
	return x->msr_value == y->msr_value && x->name == y->name && x->counters == y->counters &&
	       x->counters_ht_off == y->counters_ht_off && x->flags == y->flags &&
	       x->code == y->code && x->code2 == y->code2 && x->msr_index == y->msr_index &&
	       x->source == y->source && x->umask == y->umask && x->umask_ext == y->umask_ext &&
	       x->cmask == y->cmask && x->fixed == y->fixed && x->pm_field == y->pm_field;
}

static uint32_t intern_event(struct gen_pack *p, const struct bt_event *ev)
{
	struct bt_pack_event r = {
		.msr_value = ev->msr_value, .name = intern_string(p, ev->name),
		.counters = ev->counters, .counters_ht_off = ev->counters_ht_off,
		.flags = ev->flags, .code = ev->code, .code2 = ev->code2, .msr_index = ev->msr_index,
		.source = ev->source, .umask = ev->umask, .umask_ext = ev->umask_ext,
		.cmask = ev->cmask, .fixed = ev->fixed, .pm_field = ev->pm_field,
	};
	uint32_t at, idx = ht_find(p, &p->h_events, hash_event(&r), same_event, &r, &at);
	if (idx != UINT32_MAX)
		return idx;
	if (p->n_events == p->cap_events) {
		p->cap_events = 2 * p->cap_events + 256;
		p->events = xrealloc(p->events, p->cap_events * sizeof(*p->events));
	}
	idx = p->n_events++;
	p->events[idx] = r;
	ht_add(&p->h_events, at, idx);
	return idx;
}

/* ---------------------------------------------------------------- models */

void gen_pack_model(struct gen_pack *p, const struct bt_model_def *def, struct gen_packed_model *out)
{
	struct bt_pack_node *nodes = xrealloc(NULL, (def->n_nodes + 1u) * sizeof(*nodes));
	uint16_t *events = xrealloc(NULL, (def->n_events + 1u) * sizeof(*events));
	struct bt_pack_retire_latency *rl =
		xrealloc(NULL, (def->n_retire_latency + 1u) * sizeof(*rl));
	for (unsigned i = 0; i < def->n_nodes; i++) {
		const struct bt_node_def *n = &def->nodes[i];
		nodes[i] = (struct bt_pack_node){
			.name = intern_string(p, n->name),
			.parent = opt_string(p, n->parent),
			.formula = intern_formula(p, def->id, n->name, n->formula),
			.threshold = intern_formula(p, def->id, n->name, n->threshold),
			.threshold_literal = intern_formula(p, def->id, n->name, n->threshold_literal),
			.kind = n->kind, .level = n->level, .percent = n->percent,
		};
	}
	for (unsigned i = 0; i < def->n_events; i++) {
		uint32_t k = intern_event(p, &def->events[i]);
		if (k > UINT16_MAX) {
			fprintf(stderr, "gen-models: more than 65536 distinct events\n");
			exit(1);
		}
		events[i] = (uint16_t)k;
	}
	for (unsigned i = 0; i < def->n_retire_latency; i++)
		rl[i] = (struct bt_pack_retire_latency){
			.event = intern_string(p, def->retire_latency[i].event),
			.cycles = def->retire_latency[i].cycles,
		};
	out->def = *def;
	out->def.nodes = NULL;
	out->def.events = NULL;
	out->def.retire_latency = NULL;
	out->def.pack = &out->pack;
	out->pack = (struct bt_model_pack){ .tables = &p->tables, .nodes = nodes, .events = events,
					    .retire_latency = rl };
	gen_pack_tables(p);
}

const struct bt_pack_tables *gen_pack_tables(struct gen_pack *p)
{
	p->tables = (struct bt_pack_tables){
		.strings = p->strings, .strings_size = p->n_strings,
		.exprs = p->exprs, .n_exprs = p->n_exprs,
		.args = p->args, .n_args = p->n_args,
		.events = p->events, .n_events = p->n_events,
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
