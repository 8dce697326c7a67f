/* SPDX-License-Identifier: MIT */
/*
 * Intel perfmon native metrics (<uarch>/metrics/<name>_metrics.json).
 *
 * Every metric of Category "TMA" is taken: Info_* and Bottleneck_* as helper
 * metrics, the others as tree nodes (Level, ParentCategory). A Formula is
 * written in per-metric aliases: Events [{Name, Alias}] and Constants
 * [{Name, Alias}]; the loader substitutes the canonical event names. Tree
 * formulas are percentages ("100 * (...)"). A Threshold.Formula names other
 * metrics through ThresholdMetrics [{Alias, Value = LegacyName}] and compares
 * their raw (percent) values. TMA 3.x files (SRF) instead write the
 * LegacyNames into the threshold text and compare percent values with
 * fractions ("metric_TMA_Frontend_Bound(%) >0.20"); the intended threshold
 * uses the fraction and the literal one is kept for reference.
 */
#include "metrics/corrections.h"
#include "base/array.h"
#include "metrics/load-internal.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pm_metric {
	const struct bt_json *j;
	const char *name, *legacy, *parent;
	uint8_t kind;
	int level;
	int percent;
};

struct pm_ctx {
	struct pm_metric *m;     /* all TMA metrics */
	size_t n;
	struct pm_metric *cur;
	const struct bt_json *aliases[2]; /* Events, Constants of the current metric */
	const struct bt_json *tmetrics;   /* ThresholdMetrics of the current metric */
	int fraction;            /* literal-name thresholds: compare percent metrics as fractions */
	int literal;             /* ... but this pass keeps them literal */
	struct bt_ld_index names, legacies; /* MetricName, LegacyName -> m[] (first wins) */
	size_t *legacy_lens;     /* the lengths LegacyNames have, longest first */
	size_t n_lens;
};

static struct pm_metric *by_legacy(struct pm_ctx *c, const char *legacy)
{
	long i = bt_ld_index_get(&c->legacies, legacy, strlen(legacy));
	return i < 0 ? NULL : &c->m[i];
}

static struct pm_metric *by_name(struct pm_ctx *c, const char *name)
{
	long i = bt_ld_index_get(&c->names, name, strlen(name));
	return i < 0 ? NULL : &c->m[i];
}

static int cmp_len_desc(const void *x, const void *y)
{
	size_t a = *(const size_t *)x, b = *(const size_t *)y;
	return a < b ? 1 : a > b ? -1 : 0;
}

/* The indexes of c->m[0..n) and the distinct LegacyName lengths. */
static bt_status index_metrics(struct loader *ld, struct pm_ctx *c)
{
	c->legacy_lens = bt_arena_alloc(ld->a, (c->n + 1) * sizeof(*c->legacy_lens));
	if (!c->legacy_lens)
		return bt_ld_nomem(ld);
	for (size_t i = 0; i < c->n; i++) {
		const char *l = c->m[i].legacy;
		if (bt_ld_index_put(&c->names, c->m[i].name, strlen(c->m[i].name), (uint32_t)i) < 0 ||
		    (l && *l && bt_ld_index_put(&c->legacies, l, strlen(l), (uint32_t)i) < 0))
			return bt_ld_nomem(ld);
		if (l && *l)
			c->legacy_lens[c->n_lens++] = strlen(l);
	}
	qsort(c->legacy_lens, c->n_lens, sizeof(*c->legacy_lens), cmp_len_desc);
	size_t u = 0;
	for (size_t i = 0; i < c->n_lens; i++)
		if (!u || c->legacy_lens[u - 1] != c->legacy_lens[i])
			c->legacy_lens[u++] = c->legacy_lens[i];
	c->n_lens = u;
	return BT_OK;
}

/* perfmon constant names -> baretop constants (FORMAT.md "Constants") */
static struct bt_expr *constant(struct loader *ld, const char *name, const char *node, bt_status *err)
{
	static const char *const known[] = {
		"HYPERTHREADING_ON", "THREADS_PER_CORE", "SYSTEM_TSC_FREQ", "TSC_HZ",
		"DURATIONTIMEINMILLISECONDS", "SOCKET_COUNT", "CORES_PER_SOCKET", "CHAS_PER_SOCKET",
		"NUM_CPUS", "CORE_WIDE",
	};
	/* the dependent-loads weight is a constant literally named "20" */
	if (!strcmp(name, "20"))
		return bt_expr_num(ld->a, 20);
	if (!strcmp(name, "system.sockets[0].cpus.count * system.socket_count"))
		name = "NUM_CPUS";
	for (size_t i = 0; i < BT_ARRAY_SIZE(known); i++)
		if (!strcmp(name, known[i]))
			return bt_expr_leaf(ld->a, BT_X_CONST, name);
	bt_diag_set(ld->d, "model %s: node %s: unknown constant \"%s\"", ld->r->id, node, name);
	*err = BT_ERR_UNSUPPORTED;
	return NULL;
}

static struct bt_expr *resolve_formula(struct loader *ld, void *vctx, struct bt_expr *id,
				       bt_status *err)
{
	struct pm_ctx *c = vctx;
	const char *node = c->cur->name;
	if (id->sigil) {
		bt_diag_set(ld->d, "model %s: node %s: unexpected '%c%s' in formula", ld->r->id, node,
			    id->sigil, id->name);
		*err = BT_ERR_INVALID;
		return NULL;
	}
	for (int k = 0; k < 2; k++) {
		const struct bt_json *list = c->aliases[k];
		for (size_t i = 0; list && list->type == BT_JSON_ARRAY && i < list->u.arr.n; i++) {
			const struct bt_json *item = list->u.arr.items[i];
			const char *alias = bt_json_get_str(item, "Alias");
			const char *name = bt_json_get_str(item, "Name");
			if (!alias || !name || strcmp(alias, id->name) != 0)
				continue;
			if (k == 1)
				return constant(ld, name, node, err);
			char canon[BT_EVENT_NAME_MAX];
			struct bt_event_mods m;
			bt_status s = bt_event_canonical(name, canon, sizeof(canon), &m, ld->d);
			if (s != BT_OK) {
				bt_diag_prefix(ld->d, "model %s: node %s", ld->r->id, node);
				*err = s;
				return NULL;
			}
			struct bt_expr *e = bt_expr_leaf(ld->a, m.retire_latency ? BT_X_RL : BT_X_EVENT, canon);
			if (!e)
				*err = bt_ld_nomem(ld);
			return e;
		}
	}
	bt_diag_set(ld->d, "model %s: node %s: formula names '%s', which is neither an event nor a "
		    "constant alias of the metric", ld->r->id, node, id->name);
	*err = BT_ERR_INVALID;
	return NULL;
}

static struct bt_expr *ref_to(struct loader *ld, struct pm_ctx *c, struct pm_metric *m)
{
	struct bt_expr *r = bt_expr_leaf(ld->a, BT_X_REF, m->name);
	if (!r || !c->fraction || c->literal || !m->percent)
		return r;
	struct bt_expr *div = bt_expr_new(ld->a, BT_X_DIV, 2);
	if (!div)
		return NULL;
	div->args[0] = r;
	div->args[1] = bt_expr_num(ld->a, 100);
	return div->args[1] ? div : NULL;
}

static struct bt_expr *resolve_threshold(struct loader *ld, void *vctx, struct bt_expr *id,
					 bt_status *err)
{
	struct pm_ctx *c = vctx;
	const char *node = c->cur->name;
	const char *legacy = NULL;
	if (!strncmp(id->name, "bt__m", 5)) {
		/* literal LegacyName replaced before parsing (see substitute_legacy) */
		size_t i = strtoul(id->name + 5, NULL, 10);
		if (i < c->n)
			legacy = c->m[i].legacy;
	} else {
		const struct bt_json *tm = c->tmetrics;
		for (size_t i = 0; tm && tm->type == BT_JSON_ARRAY && i < tm->u.arr.n; i++) {
			const char *alias = bt_json_get_str(tm->u.arr.items[i], "Alias");
			if (alias && !strcmp(alias, id->name))
				legacy = bt_json_get_str(tm->u.arr.items[i], "Value");
		}
	}
	struct pm_metric *m = legacy ? by_legacy(c, legacy) : NULL;
	if (!m) {
		bt_diag_set(ld->d, "model %s: node %s: threshold names '%s'%s%s%s, not a TMA metric",
			    ld->r->id, node, id->name, legacy ? " (" : "", legacy ? legacy : "",
			    legacy ? ")" : "");
		*err = BT_ERR_INVALID;
		return NULL;
	}
	struct bt_expr *e = ref_to(ld, c, m);
	if (!e)
		*err = bt_ld_nomem(ld);
	return e;
}

/* Replaces every LegacyName in a literal threshold (longest match first) by
 * "bt__m<index>": LegacyNames contain '(', '%', '.' and even spaces. Each
 * position tries the lengths LegacyNames have, longest first, in the index:
 * O(text x distinct lengths), not O(text x metrics). */
static char *substitute_legacy(struct loader *ld, struct pm_ctx *c, const char *text)
{
	size_t cap = strlen(text) * 2 + 64, n = 0, left = strlen(text);
	char *out = bt_arena_alloc(ld->a, cap);
	if (!out)
		return NULL;
	for (const char *p = text; *p;) {
		size_t best = 0;
		long best_i = -1;
		for (size_t k = 0; k < c->n_lens && best_i < 0; k++)
			if (c->legacy_lens[k] <= left &&
			    (best_i = bt_ld_index_get(&c->legacies, p, c->legacy_lens[k])) >= 0)
				best = c->legacy_lens[k];
		if (best) {
			n += (size_t)snprintf(out + n, cap - n, " bt__m%ld ", best_i);
			p += best;
			left -= best;
		} else {
			out[n++] = *p++;
			left--;
		}
		if (n + 32 >= cap)
			return NULL;
	}
	out[n] = 0;
	return out;
}

/* Level: a whole number (or its decimal digits as a string, as some
 * files write it) from 1 to BT_LD_MAX_LEVEL; -1 for anything else, which is
 * refused (atoi took "2abc" as 2 and "" as 0). */
static int json_level(const struct bt_json *v)
{
	double x;
	if (!v)
		return -1;
	if (v->type == BT_JSON_NUMBER)
		return bt_json_value_in(v, "Level", 1, BT_LD_MAX_LEVEL, 1, -1, &x, NULL) == BT_OK ? (int)x : -1;
	if (v->type != BT_JSON_STRING || v->u.str.len < 1 || v->u.str.len > 2)
		return -1;
	int level = 0;
	for (size_t i = 0; i < v->u.str.len; i++) {
		char ch = v->u.str.s[i];
		if (ch < '0' || ch > '9')
			return -1;
		level = level * 10 + (ch - '0');
	}
	return level >= 1 && level <= BT_LD_MAX_LEVEL ? level : -1;
}

/* A tree node without ParentCategory: its parent is the one metric of the
 * level above that its threshold requires (the hierarchical-safety chain). */
static bt_status infer_parent(struct loader *ld, struct pm_ctx *c, struct pm_metric *m,
			      const struct bt_expr *t, const char **ret)
{
	if (!t)
		return BT_ERR_NOT_FOUND;
	if (t->op == BT_X_REF) {
		struct pm_metric *p = by_name(c, t->name);
		if (p && p != m && p->kind == BT_NODE_TREE && p->level == m->level - 1) {
			if (*ret && strcmp(*ret, p->name)) {
				bt_diag_set(ld->d, "model %s: node %s: no ParentCategory and its "
					    "threshold names two possible parents", ld->r->id, m->name);
				return BT_ERR_INVALID;
			}
			*ret = p->name;
		}
		return BT_OK;
	}
	for (int i = 0; i < t->nargs; i++) {
		bt_status s = infer_parent(ld, c, m, t->args[i], ret);
		if (s != BT_OK)
			return s;
	}
	return BT_OK;
}

/* A vendor-file defect of metrics/corrections.c: the exact defective text
 * of this file and node is read corrected, with a note; *fixed lists the
 * nodes for the model's source text. */
static bt_status correct(struct loader *ld, const char *node, const char **text, const char **fixed)
{
	const struct bt_correction *fix = bt_correction_find(ld->r->metrics[0], node, *text);
	if (!fix)
		return BT_OK;
	const char *why = NULL, *out = bt_correction_apply(ld->a, fix, *text, &why);
	if (!out)
		return bt_ld_nomem(ld);
	if (why) {
		bt_ld_note(ld, "model %s: node %s: correction not applied: %s", ld->r->id, node, why);
		return BT_OK;
	}
	bt_ld_note(ld, "model %s: node %s corrected (%s)", ld->r->id, node, fix->reason);
	*text = out;
	*fixed = *fixed ? bt_arena_printf(ld->a, "%s, %s", *fixed, node) : node;
	return *fixed ? BT_OK : bt_ld_nomem(ld);
}

static bt_status load_perfmon(struct loader *ld, struct pm_ctx *c)
{
	const char *path = bt_ld_path(ld, ld->r->metrics[0]);
	struct bt_json *root;
	bt_status s = bt_ld_load_json(ld, path, &root);
	if (s != BT_OK)
		return s;
	const struct bt_json *hdr = bt_json_get(root, "Header");
	const struct bt_json *list = bt_json_get(root, "Metrics");
	if (!list || list->type != BT_JSON_ARRAY) {
		bt_diag_set(ld->d, "%s:%u:%u: no \"Metrics\" array", path, root->line, root->col);
		return BT_ERR_INVALID;
	}
	const char *ver = bt_json_get_str(hdr, "Version"), *tma = bt_json_get_str(hdr, "TmaVersion");
	ld->source = bt_arena_printf(ld->a, "%s Version %s TmaVersion %s", ld->r->metrics[0],
				     ver ? ver : "?", tma ? tma : "?");
	c->m = bt_arena_alloc(ld->a, (list->u.arr.n + 1) * sizeof(*c->m));
	if (!c->m || !ld->source)
		return bt_ld_nomem(ld);
	/* A file without any TMA metric (Intel's first file for new silicon,
	 * e.g. clearwaterforest_metrics.json v1.0, TmaVersion empty): its
	 * other metrics are taken as Info, so that they are kept beside a tree
	 * from elsewhere (app/count.c); one whose formula cannot be read here
	 * (an unknown constant) is left out with a note. Files with TMA
	 * metrics are read as before: only those. */
	bool info_only = true;
	for (size_t i = 0; i < list->u.arr.n && info_only; i++) {
		const char *cat = bt_json_get_str(list->u.arr.items[i], "Category");
		info_only = !cat || strcmp(cat, "TMA") != 0;
	}
	for (size_t i = 0; i < list->u.arr.n; i++) {
		const struct bt_json *j = list->u.arr.items[i];
		const char *cat = bt_json_get_str(j, "Category");
		const char *name = bt_json_get_str(j, "MetricName");
		if (info_only && name && bt_json_get_str(j, "Formula")) {
			struct pm_metric *m = &c->m[c->n++];
			m->j = j;
			m->name = name;
			m->legacy = bt_json_get_str(j, "LegacyName");
			m->kind = BT_NODE_INFO;
			continue;
		}
		if (!cat || strcmp(cat, "TMA") != 0)
			continue;
		if (!name || !bt_json_get_str(j, "Formula")) {
			bt_diag_set(ld->d, "%s:%u:%u: TMA metric without MetricName or Formula", path,
				    j->line, j->col);
			return BT_ERR_INVALID;
		}
		struct pm_metric *m = &c->m[c->n++];
		m->j = j;
		m->name = name;
		m->legacy = bt_json_get_str(j, "LegacyName");
		m->parent = bt_json_get_str(j, "ParentCategory");
		if (m->parent && !*m->parent)
			m->parent = NULL;
		m->kind = !strncmp(name, "Info_", 5)         ? BT_NODE_INFO
			  : !strncmp(name, "Bottleneck_", 11) ? BT_NODE_BOTTLENECK
							      : BT_NODE_TREE;
		m->level = m->kind == BT_NODE_TREE ? json_level(bt_json_get(j, "Level")) : 0;
		const char *unit = bt_json_get_str(j, "UnitOfMeasure");
		m->percent = unit && !strcmp(unit, "percent");
		if (m->kind == BT_NODE_TREE && (m->level < 1 || m->level > BT_LD_MAX_LEVEL)) {
			const struct bt_json *lv = bt_json_get(j, "Level");
			bt_diag_set(ld->d, "%s:%u:%u: tree metric %s has no valid Level (a whole number "
				    "from 1 to %d expected)", path, lv ? lv->line : j->line,
				    lv ? lv->col : j->col, name, BT_LD_MAX_LEVEL);
			return BT_ERR_INVALID;
		}
	}
	/* before any formula is read: a file with more metrics than a model can
	 * number is refused at once, by its size */
	if (c->n > BT_LD_MAX_NODES) {
		bt_diag_set(ld->d, "%s: %zu TMA metrics: a model holds at most %u nodes", path, c->n,
			    BT_LD_MAX_NODES);
		return BT_ERR_FULL;
	}
	if ((s = index_metrics(ld, c)) != BT_OK)
		return s;
	const char *fixed = NULL; /* the nodes corrected, for the source text */
	for (size_t i = 0; i < c->n; i++) {
		struct pm_metric *m = &c->m[i];
		c->cur = m;
		c->aliases[0] = bt_json_get(m->j, "Events");
		c->aliases[1] = bt_json_get(m->j, "Constants");
		struct bt_node_def n = { .name = m->name, .kind = m->kind, .level = (uint8_t)m->level,
					 .percent = (uint8_t)(m->kind == BT_NODE_TREE && m->percent) };
		const char *formula = bt_json_get_str(m->j, "Formula");
		if ((s = correct(ld, m->name, &formula, &fixed)) != BT_OK)
			return s;
		s = bt_ld_formula(ld, BT_DIALECT_PERFMON, formula, m->name,
				  m->kind, "formula", resolve_formula, c, NULL, &n.formula);
		if (s != BT_OK && info_only && s != BT_ERR_NOMEM) {
			bt_ld_note(ld, "model %s: metric %s left out: %s", ld->r->id, m->name,
				   ld->d ? ld->d->text : "its formula cannot be read");
			continue;
		}
		if (s != BT_OK)
			return s;
		if (info_only) {
			if ((s = bt_ld_add_node_at(ld, &n, path, m->j)) != BT_OK)
				return s;
			continue;
		}
		const struct bt_json *th = bt_json_get(m->j, "Threshold");
		const char *tf = bt_json_get_str(th, "Formula");
		struct bt_expr *tree = NULL;
		if (tf && *tf) {
			c->tmetrics = bt_json_get(th, "ThresholdMetrics");
			const char *text = tf;
			c->fraction = !c->tmetrics;
			c->literal = 0;
			if (c->fraction && !(text = substitute_legacy(ld, c, tf)))
				return bt_ld_nomem(ld);
			s = bt_ld_formula(ld, BT_DIALECT_PERFMON, text, m->name, m->kind, "threshold",
					  resolve_threshold, c, &tree, &n.threshold);
			if (s != BT_OK)
				return s;
			if (c->fraction) {
				c->literal = 1;
				s = bt_ld_formula(ld, BT_DIALECT_PERFMON, text, m->name, m->kind,
						  "threshold", resolve_threshold, c, NULL,
						  &n.threshold_literal);
				if (s != BT_OK)
					return s;
				if (!strcmp(n.threshold_literal, n.threshold))
					n.threshold_literal = NULL;
				else
					ld->def->flags |= BT_MODEL_THRESH_FRACTION;
			}
		}
		if (m->kind == BT_NODE_TREE && m->level > 1) {
			const char *parent = m->parent;
			if (!parent) {
				if ((s = infer_parent(ld, c, m, tree, &parent)) != BT_OK && s != BT_ERR_NOT_FOUND)
					return s;
				if (!parent) {
					bt_diag_set(ld->d, "model %s: node %s (level %d) has no "
						    "ParentCategory and none can be inferred",
						    ld->r->id, m->name, m->level);
					return BT_ERR_INVALID;
				}
				bt_ld_note(ld, "model %s: node %s: parent %s inferred from its threshold",
					   ld->r->id, m->name, parent);
			}
			struct pm_metric *p = by_name(c, parent);
			if (!p || p->kind != BT_NODE_TREE) {
				bt_diag_set(ld->d, "model %s: node %s: parent %s is not a tree node",
					    ld->r->id, m->name, parent);
				return BT_ERR_INVALID;
			}
			/* Kept as the vendor wrote it (the vectors do too), but worth knowing. */
			if (p->level != m->level - 1)
				bt_ld_note(ld, "model %s: node %s has Level %d but its parent %s has "
					   "Level %d", ld->r->id, m->name, m->level, parent, p->level);
			n.parent = parent;
		}
		if ((s = bt_ld_add_node_at(ld, &n, path, m->j)) != BT_OK)
			return s;
	}
	if (fixed && !(ld->source = bt_arena_printf(ld->a, "%s; corrected: %s (baretop-host models "
						    "--corrections)", ld->source, fixed)))
		return bt_ld_nomem(ld);
	return BT_OK;
}

bt_status bt_ld_perfmon(struct loader *ld)
{
	struct pm_ctx c = { 0 };
	bt_status s = load_perfmon(ld, &c);
	bt_ld_index_free(&c.names);
	bt_ld_index_free(&c.legacies);
	return s;
}
