/* SPDX-License-Identifier: MIT */
/*
 * What the vendor-file loaders share (metrics/load-internal.h): file paths,
 * notes, the node list, resolving identifiers in a parsed formula, the
 * events a model uses with their encodings, one formula from text to its
 * printed canonical form, and the TMA spelling of perf-JSON names. Called by
 * load.c and by both format loaders (load-perfmon.c, load-perf.c); it calls
 * neither, so the loaders and their dispatcher do not import each other.
 */
#include "metrics/load-internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *bt_ld_path(struct loader *ld, const char *rel)
{
	if (!ld->root)
		return rel;
	return bt_arena_printf(ld->a, "%s/%s", ld->root, rel);
}

void bt_ld_note(struct loader *ld, const char *fmt, ...)
{
	if (!ld->notes || ld->notes->n >= sizeof(ld->notes->lines) / sizeof(ld->notes->lines[0]))
		return;
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	const char *line = bt_arena_strdup(ld->a, buf);
	if (line)
		ld->notes->lines[ld->notes->n++] = line;
}

bt_status bt_ld_nomem(struct loader *ld)
{
	bt_diag_set(ld->d, "model %s: out of memory", ld->r->id);
	return BT_ERR_NOMEM;
}

static int grow(void **items, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return 0;
	size_t nc = *cap ? *cap * 2 : 64;
	void *p = realloc(*items, nc * size);
	if (!p)
		return -1;
	*items = p;
	*cap = nc;
	return 0;
}

bt_status bt_ld_add_node(struct loader *ld, const struct bt_node_def *n)
{
	if (bt_ld_find_node(ld, n->name)) {
		bt_diag_set(ld->d, "model %s: node %s defined twice", ld->r->id, n->name);
		return BT_ERR_INVALID;
	}
	if (grow((void **)&ld->nodes, &ld->cap_nodes, ld->n_nodes, sizeof(*ld->nodes)) < 0)
		return bt_ld_nomem(ld);
	ld->nodes[ld->n_nodes++] = *n;
	return BT_OK;
}

struct bt_node_def *bt_ld_find_node(struct loader *ld, const char *name)
{
	for (size_t i = 0; i < ld->n_nodes; i++)
		if (strcmp(ld->nodes[i].name, name) == 0)
			return &ld->nodes[i];
	return NULL;
}

static bt_status resolve(struct loader *ld, struct bt_expr **slot, bt_ld_resolve_fn *fn, void *ctx)
{
	struct bt_expr *e = *slot;
	if (e->op == BT_X_IDENT) {
		bt_status err = BT_OK;
		struct bt_expr *r = fn(ld, ctx, e, &err);
		if (!r)
			return err != BT_OK ? err : BT_ERR_INVALID;
		*slot = r;
		return BT_OK;
	}
	for (int i = 0; i < e->nargs; i++) {
		bt_status s = resolve(ld, &e->args[i], fn, ctx);
		if (s != BT_OK)
			return s;
	}
	return BT_OK;
}

bt_status bt_ld_resolve(struct loader *ld, struct bt_expr **e, bt_ld_resolve_fn *fn, void *ctx)
{
	return resolve(ld, e, fn, ctx);
}

static struct used_event *find_used(struct loader *ld, const char *name)
{
	for (size_t i = 0; i < ld->n_used; i++)
		if (strcmp(ld->used[i].ev.name, name) == 0)
			return &ld->used[i];
	return NULL;
}

bt_status bt_ld_events(struct loader *ld, const struct bt_expr *e, const char *node, uint8_t kind)
{
	if (e->op == BT_X_RL) {
		ld->uses_retire_latency = 1;
		return BT_OK;
	}
	if (e->op == BT_X_EVENT) {
		struct used_event *u = find_used(ld, e->name);
		if (!u) {
			if (grow((void **)&ld->used, &ld->cap_used, ld->n_used, sizeof(*ld->used)) < 0)
				return bt_ld_nomem(ld);
			u = &ld->used[ld->n_used];
			memset(u, 0, sizeof(*u));
			struct bt_diag why = { "" };
			u->status = bt_event_encode(ld->a, &ld->table, e->name, &u->ev, &why);
			if (u->status != BT_OK) {
				u->why = bt_arena_strdup(ld->a, why.text);
				u->ev = (struct bt_event){ .fixed = BT_EV_NO_FIXED, .source = BT_SRC_UNKNOWN };
				u->ev.name = bt_arena_strdup(ld->a, e->name);
				if (!u->why || !u->ev.name)
					return bt_ld_nomem(ld);
			}
			ld->n_used++;
			if (u->ev.source == BT_SRC_PERF_METRICS)
				ld->uses_perf_metrics = 1;
		}
		if (u->status != BT_OK) {
			/* Missing encodings are tolerated for helper metrics only, and only
			 * when the event is simply not in the files. */
			if (kind == BT_NODE_TREE || u->status != BT_ERR_NOT_FOUND) {
				bt_diag_set(ld->d, "model %s: node %s: %s", ld->r->id, node, u->why);
				return u->status;
			}
			if (!u->noted)
				bt_ld_note(ld, "model %s: event %s (first needed by %s) is not in the "
					   "vendor event files: no encoding, only count files can supply it",
					   ld->r->id, u->ev.name, node);
			u->noted = 1;
		}
		return BT_OK;
	}
	for (int i = 0; i < e->nargs; i++) {
		bt_status s = bt_ld_events(ld, e->args[i], node, kind);
		if (s != BT_OK)
			return s;
	}
	return BT_OK;
}

bt_status bt_ld_formula(struct loader *ld, enum bt_dialect dialect, const char *text,
			const char *node, uint8_t kind, const char *what, bt_ld_resolve_fn *fn,
			void *ctx, struct bt_expr **ret_tree, const char **ret_text)
{
	struct bt_expr *e;
	bt_status s = bt_expr_parse(ld->a, dialect, text, &e, ld->d);
	if (s != BT_OK) {
		bt_diag_prefix(ld->d, "model %s: node %s: %s \"%.60s%s\"", ld->r->id, node, what, text,
			       strlen(text) > 60 ? "..." : "");
		return s;
	}
	if (fn && (s = bt_ld_resolve(ld, &e, fn, ctx)) != BT_OK)
		return s;
	if ((s = bt_ld_events(ld, e, node, kind)) != BT_OK)
		return s;
	const char *out = bt_expr_print(ld->a, e);
	if (!out)
		return bt_ld_nomem(ld);
	if (ret_tree)
		*ret_tree = e;
	*ret_text = out;
	return BT_OK;
}

void bt_tma_spell(const struct bt_name_spelling *dict, unsigned n, int ecore, const char *lower,
		  char *out, size_t size)
{
	const char order[3] = { 'O', ecore ? 'E' : 'P', ecore ? 'P' : 'E' };
	for (int pass = 0; pass < 3; pass++)
		for (unsigned i = 0; i < n; i++)
			if (dict[i].family == order[pass] && strcmp(dict[i].lower, lower) == 0) {
				snprintf(out, size, "%s", dict[i].spelled);
				return;
			}
	/* Not a known TMA name: capitalise each '_'-separated part. */
	size_t j = 0;
	int start = 1;
	for (const char *p = lower; *p && j + 1 < size; p++) {
		char c = *p;
		if (start && c >= 'a' && c <= 'z')
			c = (char)(c - 'a' + 'A');
		start = c == '_';
		out[j++] = c;
	}
	out[j] = 0;
}
