/* SPDX-License-Identifier: MIT */
/*
 * Linux perf metrics JSON: Intel's perf-format files (IVB, and the E-cores of
 * hybrid parts under "Unit": "cpu_atom") and AMD's pipeline.json /
 * recommended.json.
 *
 * Tree nodes carry "TopdownL<n>" (Intel) or "PipelineL<n>" (AMD) in
 * MetricGroup and name their parent with "<parent>_group"; other metrics are
 * helpers. MetricExpr and MetricThreshold refer to other metrics by name
 * (the loader keeps them as $references), to events in perf syntax
 * (cpu_atom@EV@, cpu@EV\,cmask\=0x6@, EV:k, msr@tsc@) and to "#" literals.
 * perf's duration_time in a metric is seconds; the count is nanoseconds.
 * Intel perf names are lower case (tma_ifetch_latency); the node takes the
 * TMA spelling (IFetch_Latency) from bt_tma_names.
 */
#include "metrics/load-internal.h"
#include "base/array.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pf_metric {
	const struct bt_json *j;
	const char *path;        /* its file */
	const char *perf_name;   /* as in the file */
	const char *name;        /* node name */
	const char *groups;
	int level;
	int selected, queued;
	uint8_t kind;
};

struct pf_ctx {
	struct pf_metric *m;
	size_t n;
	struct pf_metric *cur;
	struct bt_ld_index names;  /* perf_name -> m[] */
};

static struct pf_metric *find(struct pf_ctx *c, const char *perf_name)
{
	long i = bt_ld_index_get(&c->names, perf_name, strlen(perf_name));
	return i < 0 ? NULL : &c->m[i];
}

/* Is `group` one of the ';'-separated entries of list? */
static int in_list(const char *list, const char *group)
{
	size_t n = strlen(group);
	for (const char *p = list; p && *p;) {
		const char *e = strchr(p, ';');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len == n && !strncmp(p, group, n))
			return 1;
		p = e ? e + 1 : NULL;
	}
	return 0;
}

/*
 * The level a metric's groups give: "TopdownL<n>" (Intel) or "PipelineL<n>"
 * (AMD), n decimal from 1 to BT_LD_MAX_LEVEL; 0 when there is none; -1 and
 * the entry in *bad when one is malformed (atoi took "TopdownL256" as 256,
 * stored as 0 in a uint8_t, and "PipelineL4294967298" as 2).
 */
static int group_level(const char *groups, const char **bad, size_t *bad_len)
{
	for (const char *p = groups; p && *p;) {
		const char *e = strchr(p, ';');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		size_t pre = !strncmp(p, "TopdownL", 8) ? 8 : !strncmp(p, "PipelineL", 9) ? 9 : 0;
		if (pre && len > pre) {
			int level = 0;
			size_t i = pre;
			for (; i < len && i < pre + 3 && p[i] >= '0' && p[i] <= '9'; i++)
				level = level * 10 + (p[i] - '0');
			if (i != len || level < 1 || level > BT_LD_MAX_LEVEL) {
				*bad = p;
				*bad_len = len;
				return -1;
			}
			return level;
		}
		p = e ? e + 1 : NULL;
	}
	return 0;
}

static const struct {
	const char *perf, *constant;
} perf_constants[] = {
	{ "SMT_on", "HYPERTHREADING_ON" },
	{ "core_wide", "CORE_WIDE" },
	{ "num_cpus_online", "NUM_CPUS" },
	{ "system_tsc_freq", "TSC_HZ" },
	{ "SYSTEM_TSC_FREQ", "TSC_HZ" },
};

static struct bt_expr *resolve(struct loader *ld, void *vctx, struct bt_expr *id, bt_status *err)
{
	struct pf_ctx *c = vctx;
	const char *node = c->cur->name;
	struct bt_expr *e = NULL;
	if (id->sigil == '#') {
		for (size_t i = 0; i < BT_ARRAY_SIZE(perf_constants); i++)
			if (!strcmp(id->name, perf_constants[i].perf))
				e = bt_expr_leaf(ld->a, BT_X_CONST, perf_constants[i].constant);
		if (!e && !*err) {
			bt_diag_set(ld->d, "model %s: node %s: unknown literal #%s", ld->r->id, node,
				    id->name);
			*err = BT_ERR_UNSUPPORTED;
			return NULL;
		}
	} else if (find(c, id->name)) {
		struct pf_metric *m = find(c, id->name);
		if (!m->selected && !m->queued) {
			m->queued = 1; /* a helper that only this formula needs */
			m->kind = BT_NODE_HELPER;
		}
		e = bt_expr_leaf(ld->a, BT_X_REF, m->name);
	} else if (!strcmp(id->name, "duration_time")) {
		/* seconds in perf metrics; the count is nanoseconds */
		e = bt_expr_new(ld->a, BT_X_DIV, 2);
		if (e) {
			e->args[0] = bt_expr_leaf(ld->a, BT_X_EVENT, "duration_time");
			e->args[1] = bt_expr_float(ld->a, 1e9);
			if (!e->args[0] || !e->args[1])
				e = NULL;
		}
	} else {
		char canon[BT_EVENT_NAME_MAX];
		bt_status s = bt_event_from_perf(id->name, canon, sizeof(canon), ld->d);
		if (s != BT_OK) {
			bt_diag_prefix(ld->d, "model %s: node %s", ld->r->id, node);
			*err = s;
			return NULL;
		}
		e = bt_expr_leaf(ld->a, BT_X_EVENT, canon);
	}
	if (!e)
		*err = bt_ld_nomem(ld);
	return e;
}

/* perf's generic hardware events as AMD Zen counts them (Linux
 * arch/x86/events/amd/core.c, amd_zen*_perfmon_event_map: instructions =
 * PMCx0C0 retired instructions, cycles = PMCx076 core cycles not halted). */
static bt_status add_generic_aliases(struct loader *ld)
{
	static const struct {
		const char *generic, *vendor;
	} map[] = { { "instructions", "ex_ret_instr" }, { "cycles", "ls_not_halted_cyc" } };
	for (size_t i = 0; i < BT_ARRAY_SIZE(map); i++) {
		const struct bt_event *e = bt_events_find(&ld->table, map[i].vendor);
		if (!e || bt_events_find(&ld->table, map[i].generic))
			continue;
		struct bt_event *ev = bt_arena_alloc(ld->a, (ld->table.n + 1) * sizeof(*ev));
		if (!ev)
			return bt_ld_nomem(ld);
		if (ld->table.n)
			memcpy(ev, ld->table.events, ld->table.n * sizeof(*ev));
		ev[ld->table.n] = *e;
		ev[ld->table.n].name = map[i].generic;
		ld->table.events = ev;
		ld->table.n++;
		if (bt_events_reindex(ld->a, &ld->table) != BT_OK)
			return bt_ld_nomem(ld);
	}
	return BT_OK;
}

static bt_status load_node(struct loader *ld, struct pf_ctx *c, struct pf_metric *m)
{
	c->cur = m;
	struct bt_node_def n = { .name = m->name, .kind = m->kind, .level = (uint8_t)m->level };
	const char *expr = bt_json_get_str(m->j, "MetricExpr");
	if (!expr) {
		bt_diag_set(ld->d, "model %s: metric %s has no MetricExpr", ld->r->id, m->perf_name);
		return BT_ERR_INVALID;
	}
	bt_status s = bt_ld_formula(ld, BT_DIALECT_PERF, expr, m->name, m->kind, "formula", resolve,
				    c, NULL, &n.formula);
	if (s != BT_OK)
		return s;
	const char *th = bt_json_get_str(m->j, "MetricThreshold");
	if (th && *th) {
		s = bt_ld_formula(ld, BT_DIALECT_PERF, th, m->name, m->kind, "threshold", resolve, c,
				  NULL, &n.threshold);
		if (s != BT_OK)
			return s;
	}
	if (m->level > 1) {
		/* "<parent>_group" names the parent: each such group of the metric
		 * looked up by name (a metric of the level above) */
		const char *parent = NULL;
		for (const char *g = m->groups; g && *g;) {
			const char *e = strchr(g, ';');
			size_t len = e ? (size_t)(e - g) : strlen(g);
			long i = len > 6 && !strncmp(g + len - 6, "_group", 6)
					 ? bt_ld_index_get(&c->names, g, len - 6) : -1;
			struct pf_metric *p = i >= 0 ? &c->m[i] : NULL;
			if (p && p->level == m->level - 1 && parent != p->name) {
				if (parent) {
					bt_diag_set(ld->d, "model %s: node %s has two parents", ld->r->id,
						    m->name);
					return BT_ERR_INVALID;
				}
				parent = p->name;
			}
			g = e ? e + 1 : NULL;
		}
		if (!parent) {
			bt_diag_set(ld->d, "model %s: node %s (level %d) names no parent group",
				    ld->r->id, m->name, m->level);
			return BT_ERR_INVALID;
		}
		n.parent = parent;
	}
	return bt_ld_add_node_at(ld, &n, m->path, m->j);
}

static bt_status load_perf(struct loader *ld, struct pf_ctx *c)
{
	const struct bt_model_recipe *r = ld->r;
	size_t cap = 0;
	bt_status s = add_generic_aliases(ld);
	if (s != BT_OK)
		return s;
	const char *source = NULL;
	for (int f = 0; f < BT_RECIPE_MAX_FILES && r->metrics[f]; f++) {
		const char *path = bt_ld_path(ld, r->metrics[f]);
		struct bt_json *root;
		if ((s = bt_ld_load_json(ld, path, &root)) != BT_OK)
			return s;
		if (root->type != BT_JSON_ARRAY) {
			bt_diag_set(ld->d, "%s:%u:%u: expected an array of metrics", path, root->line,
				    root->col);
			return BT_ERR_INVALID;
		}
		source = source ? bt_arena_printf(ld->a, "%s, %s", source, r->metrics[f]) : r->metrics[f];
		struct pf_metric *m = bt_arena_alloc(ld->a, (cap + root->u.arr.n + 1) * sizeof(*m));
		if (!m || !source)
			return bt_ld_nomem(ld);
		if (c->n)
			memcpy(m, c->m, c->n * sizeof(*m));
		c->m = m;
		cap += root->u.arr.n;
		for (size_t i = 0; i < root->u.arr.n; i++) {
			const struct bt_json *j = root->u.arr.items[i];
			const char *name = bt_json_get_str(j, "MetricName");
			const char *unit = bt_json_get_str(j, "Unit");
			if (!name)
				continue; /* event definitions can sit in metric files */
			if (r->unit ? !unit || strcmp(unit, r->unit) : unit != NULL)
				continue;
			if (find(c, name))
				continue; /* first definition wins */
			if (c->n >= BT_LD_MAX_NODES) {
				bt_diag_set(ld->d, "%s:%u:%u: more than %u metrics: a model holds at most "
					    "%u nodes", path, j->line, j->col, BT_LD_MAX_NODES, BT_LD_MAX_NODES);
				return BT_ERR_FULL;
			}
			if (bt_ld_index_put(&c->names, name, strlen(name), (uint32_t)c->n) < 0)
				return bt_ld_nomem(ld);
			struct pf_metric *pm = &c->m[c->n++];
			pm->j = j;
			pm->path = path;
			pm->perf_name = name;
			pm->groups = bt_json_get_str(j, "MetricGroup");
			const char *bad = NULL;
			size_t bad_len = 0;
			pm->level = group_level(pm->groups, &bad, &bad_len);
			if (pm->level < 0) {
				const struct bt_json *g = bt_json_get(j, "MetricGroup");
				bt_diag_set(ld->d, "%s:%u:%u: metric %s: MetricGroup \"%.*s\": a level from 1 "
					    "to %d expected", path, g->line, g->col, name,
					    (int)(bad_len > 40 ? 40 : bad_len), bad, BT_LD_MAX_LEVEL);
				return BT_ERR_INVALID;
			}
			pm->kind = pm->level > 0 ? BT_NODE_TREE : BT_NODE_INFO;
			pm->selected = 1;
			if (r->name_prefix && strncmp(name, r->name_prefix, strlen(r->name_prefix)))
				pm->selected = 0;
			for (const char *p = pm->groups; pm->selected && r->exclude_groups && p && *p;) {
				const char *e = strchr(p, ';');
				char g[128];
				snprintf(g, sizeof(g), "%.*s", (int)(e ? e - p : (long)strlen(p)), p);
				if (in_list(r->exclude_groups, g))
					pm->selected = 0;
				p = e ? e + 1 : NULL;
			}
			const char *bare = name;
			if (r->name_prefix && !strncmp(name, r->name_prefix, strlen(r->name_prefix)))
				bare = name + strlen(r->name_prefix);
			if (!strcmp(r->vendor, "GenuineIntel")) {
				char spelled[256];
				bt_tma_spell(ld->names, ld->n_names, r->ecore, bare, spelled, sizeof(spelled));
				pm->name = bt_arena_strdup(ld->a, spelled);
			} else {
				pm->name = bare;
			}
			if (!pm->name)
				return bt_ld_nomem(ld);
		}
	}
	ld->source = source;
	for (size_t i = 0; i < c->n; i++)
		if (c->m[i].selected && (s = load_node(ld, c, &c->m[i])) != BT_OK)
			return s;
	/* helpers that selected formulas reference (they may reference more) */
	for (int again = 1; again;) {
		again = 0;
		for (size_t i = 0; i < c->n; i++) {
			struct pf_metric *m = &c->m[i];
			if (m->queued && !m->selected) {
				m->selected = 1;
				m->level = 0;
				again = 1;
				if ((s = load_node(ld, c, m)) != BT_OK)
					return s;
			}
		}
	}
	return BT_OK;
}

bt_status bt_ld_perf(struct loader *ld)
{
	struct pf_ctx c = { 0 };
	bt_status s = load_perf(ld, &c);
	bt_ld_index_free(&c.names);
	return s;
}
