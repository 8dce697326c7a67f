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
#include "base/array.h"

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
	if (!ld->notes || ld->notes->n >= BT_ARRAY_SIZE(ld->notes->lines))
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

bt_status bt_ld_load_json(struct loader *ld, const char *path, struct bt_json **ret_root)
{
	char *text;
	size_t len;
	bt_status s = bt_file_read(ld->a, path, &text, &len, ld->d);
	if (s != BT_OK)
		return s;
	if (len > BT_LD_MAX_FILE_BYTES) {
		bt_diag_set(ld->d, "%s: %zu bytes: larger than the %u MB a metrics file may have "
			    "(Intel's largest is 0.56 MB)", path, len, BT_LD_MAX_FILE_BYTES >> 20);
		return BT_ERR_FULL;
	}
	return bt_json_parse(ld->a, text, len, path, ret_root, ld->d);
}

bt_status bt_ld_nomem(struct loader *ld)
{
	bt_diag_set(ld->d, "model %s: out of memory", ld->r->id);
	return BT_ERR_NOMEM;
}

static uint64_t hash(const char *key, size_t len)
{
	uint64_t h = 1469598103934665603ull;          /* FNV-1a, 64 bits */
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)key[i]) * 1099511628211ull;
	return h;
}

static struct bt_ld_slot *index_slot(struct bt_ld_slot *slot, size_t cap, const char *key, size_t len)
{
	size_t i = (size_t)hash(key, len) & (cap - 1);
	while (slot[i].key && !(slot[i].len == len && !memcmp(slot[i].key, key, len)))
		i = (i + 1) & (cap - 1);
	return &slot[i];
}

int bt_ld_index_put(struct bt_ld_index *x, const char *key, size_t len, uint32_t value)
{
	if (len > UINT32_MAX)
		return -1;
	if (2 * (x->n + 1) > x->cap) {
		/* at most half full: probes stay short */
		size_t nc = x->cap ? 2 * x->cap : 64;
		struct bt_ld_slot *ns = calloc(nc, sizeof(*ns));
		if (!ns)
			return -1;
		for (size_t i = 0; i < x->cap; i++)
			if (x->slot[i].key)
				*index_slot(ns, nc, x->slot[i].key, x->slot[i].len) = x->slot[i];
		free(x->slot);
		x->slot = ns;
		x->cap = nc;
	}
	struct bt_ld_slot *s = index_slot(x->slot, x->cap, key, len);
	if (s->key)
		return 1;
	*s = (struct bt_ld_slot){ key, (uint32_t)len, value };
	x->n++;
	return 0;
}

long bt_ld_index_get(const struct bt_ld_index *x, const char *key, size_t len)
{
	if (!x->cap)
		return -1;
	const struct bt_ld_slot *s = index_slot(x->slot, x->cap, key, len);
	return s->key ? (long)s->value : -1;
}

void bt_ld_index_free(struct bt_ld_index *x)
{
	free(x->slot);
	*x = (struct bt_ld_index){ 0 };
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

bt_status bt_ld_add_node_at(struct loader *ld, const struct bt_node_def *n, const char *file,
			    const struct bt_json *j)
{
	if (bt_ld_find_node(ld, n->name)) {
		bt_diag_set(ld->d, "model %s: node %s defined twice", ld->r->id, n->name);
		return BT_ERR_INVALID;
	}
	/* the limit is checked as each node comes, so a file too large is
	 * refused at its 65,536th node, never after the work of all of them */
	if (ld->n_nodes >= BT_LD_MAX_NODES) {
		bt_diag_set(ld->d, "%s%smodel %s: more than %u nodes (a model's nodes are numbered in "
			    "16 bits)", file ? file : "", file ? ": " : "", ld->r->id, BT_LD_MAX_NODES);
		return BT_ERR_FULL;
	}
	size_t cap = ld->cap_nodes;
	if (grow((void **)&ld->nodes, &ld->cap_nodes, ld->n_nodes, sizeof(*ld->nodes)) < 0)
		return bt_ld_nomem(ld);
	if (cap != ld->cap_nodes) {
		struct bt_ld_where *w = realloc(ld->where, ld->cap_nodes * sizeof(*w));
		if (!w)
			return bt_ld_nomem(ld);
		ld->where = w;
	}
	if (bt_ld_index_put(&ld->node_index, n->name, strlen(n->name), (uint32_t)ld->n_nodes) < 0)
		return bt_ld_nomem(ld);
	ld->where[ld->n_nodes] = (struct bt_ld_where){ file, j ? j->line : 0, j ? j->col : 0 };
	ld->nodes[ld->n_nodes++] = *n;
	return BT_OK;
}

bt_status bt_ld_add_node(struct loader *ld, const struct bt_node_def *n)
{
	return bt_ld_add_node_at(ld, n, NULL, NULL);
}

struct bt_node_def *bt_ld_find_node(struct loader *ld, const char *name)
{
	long i = bt_ld_index_get(&ld->node_index, name, strlen(name));
	return i < 0 ? NULL : &ld->nodes[i];
}

const char *bt_ld_where_text(struct loader *ld, size_t i, char *buf, size_t size)
{
	const struct bt_ld_where *w = i < ld->n_nodes ? &ld->where[i] : NULL;
	if (!w || !w->file)
		snprintf(buf, size, "%s", "");
	else
		snprintf(buf, size, "%s:%u:%u: ", w->file, (unsigned)w->line, (unsigned)w->col);
	return buf;
}

/*
 * Every chain of parents must end at a level-1 root: a node whose chain
 * loops (two nodes naming each other as ParentCategory) is measured but
 * under no root, so it is never shown (issue 33: the run printed an empty
 * tree, exit 0). Each node is walked once (states: 0 new, 1 on the walk,
 * 2 reaches a root), O(n).
 */
bt_status bt_ld_check_tree(struct loader *ld)
{
	size_t n = ld->n_nodes;
	uint8_t *state = calloc(n + 1, 1);
	uint8_t *depth = calloc(n + 1, 1);   /* of a node in state 2: 1 for a root */
	uint32_t *walk = malloc((n + 1) * sizeof(*walk));
	bt_status s = BT_OK;
	char at[300];
	if (!state || !depth || !walk) {
		s = bt_ld_nomem(ld);
		goto out;
	}
	for (size_t i = 0; i < n && s == BT_OK; i++) {
		size_t len = 0, k = i;
		int cycle = 0, at_root = 0;
		while (ld->nodes[k].kind == BT_NODE_TREE && state[k] == 0) {
			const struct bt_node_def *nd = &ld->nodes[k];
			state[k] = 1;
			walk[len++] = (uint32_t)k;
			if (nd->level < 1 || nd->level > BT_LD_MAX_LEVEL) {
				bt_diag_set(ld->d, "%smodel %s: node %s: level %u, not from 1 to %u",
					    bt_ld_where_text(ld, k, at, sizeof(at)), ld->r->id, nd->name,
					    nd->level, BT_LD_MAX_LEVEL);
				s = BT_ERR_INVALID;
				break;
			}
			if (!nd->parent) {
				if (nd->level != 1) {
					bt_diag_set(ld->d, "%smodel %s: node %s (level %u) has no parent: only "
						    "level-1 nodes are roots", bt_ld_where_text(ld, k, at, sizeof(at)),
						    ld->r->id, nd->name, nd->level);
					s = BT_ERR_INVALID;
				}
				at_root = 1;
				break;
			}
			const struct bt_node_def *p = bt_ld_find_node(ld, nd->parent);
			if (!p || p->kind != BT_NODE_TREE) {
				bt_diag_set(ld->d, "%smodel %s: node %s: parent %s is not a tree node",
					    bt_ld_where_text(ld, k, at, sizeof(at)), ld->r->id, nd->name,
					    nd->parent);
				s = BT_ERR_INVALID;
				break;
			}
			k = (size_t)(p - ld->nodes);
			if (state[k] == 1) {
				cycle = 1;
				break;
			}
		}
		if (s == BT_OK && cycle) {
			/* k was reached again on this walk: the walk from k on is a cycle */
			size_t from = 0;
			while (walk[from] != k)
				from++;
			char names[400];
			size_t used = 0;
			for (size_t c = from; c <= len && used + 1 < sizeof(names); c++) {
				const char *nm = ld->nodes[c < len ? walk[c] : k].name;
				int w = snprintf(names + used, sizeof(names) - used, "%s%s", c > from ? " -> " : "", nm);
				if (w < 0 || (size_t)w >= sizeof(names) - used) {
					snprintf(names + sizeof(names) - 5, 5, "...");
					break;
				}
				used += (size_t)w;
			}
			bt_diag_set(ld->d, "%smodel %s: node %s: its parents form a cycle (%s), which reaches "
				    "no level-1 root", bt_ld_where_text(ld, k, at, sizeof(at)), ld->r->id,
				    ld->nodes[k].name, names);
			s = BT_ERR_INVALID;
		}
		/* depths along the walk, from its end: a root's chain, or a node
		 * already done; no tree is deeper than the levels it may have (the
		 * report and the rules walk it recursively) */
		unsigned base = at_root || !len ? 0 : depth[k];
		for (size_t c = len; c-- > 0 && s == BT_OK;) {
			unsigned dep = base + (unsigned)(len - c);
			if (dep > BT_LD_MAX_LEVEL) {
				bt_diag_set(ld->d, "%smodel %s: node %s is %u parents below its root: deeper "
					    "than the %u levels a tree may have",
					    bt_ld_where_text(ld, walk[c], at, sizeof(at)), ld->r->id,
					    ld->nodes[walk[c]].name, dep - 1, BT_LD_MAX_LEVEL);
				s = BT_ERR_INVALID;
			}
			depth[walk[c]] = (uint8_t)dep;
		}
		for (size_t c = 0; c < len; c++)
			state[walk[c]] = 2;
	}
out:
	free(depth);
	free(state);
	free(walk);
	return s;
}

void bt_ld_free(struct loader *ld)
{
	free(ld->nodes);
	free(ld->where);
	free(ld->used);
	bt_ld_index_free(&ld->node_index);
	bt_ld_index_free(&ld->used_index);
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
	long i = bt_ld_index_get(&ld->used_index, name, strlen(name));
	return i < 0 ? NULL : &ld->used[i];
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
			if (ld->n_used >= BT_LD_MAX_NODES) {
				bt_diag_set(ld->d, "model %s: node %s: more than %u events (a model's "
					    "events are numbered in 16 bits)", ld->r->id, node,
					    BT_LD_MAX_NODES);
				return BT_ERR_FULL;
			}
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
			if (bt_ld_index_put(&ld->used_index, u->ev.name, strlen(u->ev.name),
					    (uint32_t)ld->n_used) < 0)
				return bt_ld_nomem(ld);
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
