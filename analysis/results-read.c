/* SPDX-License-Identifier: MIT */
/* Reading a results document back: results-read.h. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "analysis/results-read.h"
#include "base/array.h"

double bt_json_num(const struct bt_json *obj, const char *key, double dflt)
{
	const struct bt_json *v = bt_json_get(obj, key);
	return v && v->type == BT_JSON_NUMBER ? v->u.num.value : dflt;
}

const struct bt_json *bt_json_member(const struct bt_json *obj, const char *key, int type)
{
	const struct bt_json *v = bt_json_get(obj, key);
	return v && v->type == type ? v : NULL;
}

static const char *str_or(const struct bt_json *obj, const char *key, const char *dflt)
{
	const char *s = bt_json_get_str(obj, key);
	return s ? s : dflt;
}

const char *bt_results_tma_version(struct bt_arena *a, const char *model_source)
{
	const char *p = model_source ? strstr(model_source, "TmaVersion ") : NULL;
	if (!p)
		return NULL;
	p += strlen("TmaVersion ");
	size_t n = strcspn(p, " ,;)");
	return n ? bt_arena_strndup(a, p, n) : NULL;
}

/* The whole numbers the readers convert to C integers (page-common.c,
 * report-view.c), checked once here so that a damaged or hostile file is
 * refused with the place of the bad number instead of converted
 * (bt_json_num_in). */
static bt_status check_counted(const char *path, const struct bt_results_workload *o, struct bt_diag *d)
{
	static const char *const step_keys[] = { "level", "nodes", "events", "groups", "lower_bound",
						  "runs", "retried", "flagged" };
	double x;
	for (size_t i = 0; o->steps && i < o->steps->u.arr.n; i++) {
		const struct bt_json *s = o->steps->u.arr.items[i];
		for (size_t k = 0; k < BT_ARRAY_SIZE(step_keys); k++)
			if (bt_json_num_in(s, step_keys[k], 0, UINT_MAX, 1, 0, &x, d) != BT_OK)
				goto bad;
		const struct bt_json *log = bt_json_member(s, "run_log", BT_JSON_ARRAY);
		for (size_t k = 0; log && k < log->u.arr.n; k++)
			if (bt_json_num_in(log->u.arr.items[k], "smi", 0, UINT_MAX, 1, 0, &x, d) != BT_OK)
				goto bad;
	}
	const struct bt_json *nodes = bt_json_member(o->tree, "nodes", BT_JSON_OBJECT);
	for (size_t i = 0; nodes && i < nodes->u.obj.n; i++)
		if (bt_json_num_in(nodes->u.obj.values[i], "level", 0, BT_RESULTS_MAX_LEVEL, 1, 0, &x, d) != BT_OK)
			goto bad;
	for (size_t i = 0; o->events && i < o->events->u.obj.n; i++)
		if (bt_json_num_in(o->events->u.obj.values[i], "group", -1, INT_MAX, 1, 0, &x, d) != BT_OK)
			goto bad;
	return BT_OK;
bad:
	bt_diag_prefix(d, "%s: workload %s", path, o->label);
	return BT_ERR_INVALID;
}

/*
 * Provenance is a property of the data, not of one flag: a results file
 * says how it was counted in several places (results-json.c writes them
 * all), and a reader takes the most cautious of them -- but a file whose
 * places disagree was edited or damaged, and is refused with the fields
 * that disagree, instead of one of them being believed.
 *
 *   "simulated"                          true: simulated, false: measured
 *   run.counting.simulated               the same
 *   validation.simulated                 the same (a --validate run)
 *   run.counting.simulated_counts        present only when simulated
 *   run.counting.pmu                     "baretop sim: ..." only when simulated
 *   run.counting.counted_by              present only for an OS driver (perf)
 *   run.workloads[i].counted.simulated   true/false
 *   run.workloads[i].counted.input       "SIMULATED PMU ...", "counted by Linux
 *                                        perf_event ...", "counted by the ... PMU"
 *   run.workloads[i].counted.time        "simulated: ..." or "measured: ..."
 */
enum prov { PROV_NONE, PROV_SIM, PROV_MEASURED, PROV_PERF, PROV_HW };

struct prov_seen {
	const char *field[5];            /* the first field that said each kind */
	const struct bt_json *at[5];
};

static void prov_note(struct prov_seen *p, enum prov k, const char *field, const struct bt_json *at)
{
	if (k != PROV_NONE && !p->field[k]) {
		p->field[k] = field;
		p->at[k] = at;
	}
}

static void prov_bool(struct prov_seen *p, const struct bt_json *obj, const char *key, const char *field)
{
	const struct bt_json *v = bt_json_get(obj, key);
	if (v && (v->type == BT_JSON_TRUE || v->type == BT_JSON_FALSE))
		prov_note(p, v->type == BT_JSON_TRUE ? PROV_SIM : PROV_MEASURED, field, v);
}

static enum prov prov_of_input(const char *s)
{
	if (!s)
		return PROV_NONE;
	if (!strncmp(s, "SIMULATED", 9))
		return PROV_SIM;
	if (!strncmp(s, "counted by Linux perf_event", 27))
		return PROV_PERF;
	if (!strncmp(s, "counted by the ", 15))
		return PROV_HW;
	return PROV_NONE;
}

/* Two kinds that cannot both be true of one file. */
static bool prov_clash(enum prov a, enum prov b)
{
	if (a == b)
		return false;
	if (a == PROV_SIM || b == PROV_SIM)
		return true;
	/* measured (by either) is no clash with perf or hardware; those two are */
	return (a == PROV_PERF && b == PROV_HW) || (a == PROV_HW && b == PROV_PERF);
}

static bt_status check_provenance(struct bt_arena *a, const char *path, const struct bt_json *root,
				  const struct bt_json *counting,
				  const struct bt_json *wls, bool *ret_sim, struct bt_diag *d)
{
	struct prov_seen p = { { 0 }, { 0 } };
	prov_bool(&p, root, "simulated", "\"simulated\"");
	prov_bool(&p, counting, "simulated", "run.counting.simulated");
	prov_bool(&p, bt_json_get(root, "validation"), "simulated", "validation.simulated");
	const struct bt_json *sc = bt_json_get(counting, "simulated_counts");
	if (sc && sc->type != BT_JSON_NULL)
		prov_note(&p, PROV_SIM, "run.counting.simulated_counts", sc);
	const char *pmu = bt_json_get_str(counting, "pmu");
	if (pmu && !strncmp(pmu, "baretop sim", 11))
		prov_note(&p, PROV_SIM, "run.counting.pmu", bt_json_get(counting, "pmu"));
	const char *by = bt_json_get_str(counting, "counted_by");
	if (by && by[0])
		prov_note(&p, PROV_PERF, "run.counting.counted_by", bt_json_get(counting, "counted_by"));
	for (size_t i = 0; wls && i < wls->u.arr.n; i++) {
		const struct bt_json *c = bt_json_member(wls->u.arr.items[i], "counted", BT_JSON_OBJECT);
		if (!c)
			continue;
		const struct bt_json *v = bt_json_get(c, "simulated");
		if (v && (v->type == BT_JSON_TRUE || v->type == BT_JSON_FALSE))
			prov_note(&p, v->type == BT_JSON_TRUE ? PROV_SIM : PROV_MEASURED,
				  bt_arena_printf(a, "run.workloads[%zu].counted.simulated", i), v);
		prov_note(&p, prov_of_input(bt_json_get_str(c, "input")),
			  bt_arena_printf(a, "run.workloads[%zu].counted.input", i), bt_json_get(c, "input"));
		const char *t = bt_json_get_str(c, "time");
		enum prov tk = !t ? PROV_NONE : !strncmp(t, "simulated:", 10) ? PROV_SIM
				 : !strncmp(t, "measured:", 9) ? PROV_MEASURED : PROV_NONE;
		prov_note(&p, tk, bt_arena_printf(a, "run.workloads[%zu].counted.time", i), bt_json_get(c, "time"));
	}
	static const char *const said[] = { "", "simulated", "measured", "counted by Linux perf_event",
					    "counted by baretop on bare metal" };
	for (int x = PROV_SIM; x <= PROV_HW; x++)
		for (int y = x + 1; y <= PROV_HW; y++)
			if (p.field[x] && p.field[y] && prov_clash((enum prov)x, (enum prov)y)) {
				bt_diag_set(d, "%s:%u:%u: the file's provenance labels contradict each other: "
					    "%s says %s, %s (line %u) says %s; refused rather than "
					    "believe one of them", path, p.at[x]->line, p.at[x]->col,
					    p.field[x], said[x], p.field[y], p.at[y]->line, said[y]);
				return BT_ERR_INVALID;
			}
	*ret_sim = p.field[PROV_SIM] != NULL;
	return BT_OK;
}

bt_status bt_results_doc_from_json(struct bt_arena *a, const char *path, const struct bt_json *root,
				   struct bt_results_doc *doc, struct bt_diag *d)
{
	memset(doc, 0, sizeof(*doc));
	doc->path = path;
	const char *format = bt_json_get_str(root, "format");
	if (!format || strcmp(format, "baretop-results") != 0) {
		bt_diag_set(d, "%s is not a baretop results file (no \"format\": \"baretop-results\")", path);
		return BT_ERR_INVALID;
	}
	doc->root = root;
	doc->run = bt_json_member(root, "run", BT_JSON_OBJECT);
	doc->counting = bt_json_member(doc->run, "counting", BT_JSON_OBJECT);
	if (check_provenance(a, path, root, doc->counting,
			     bt_json_member(doc->run, "workloads", BT_JSON_ARRAY), &doc->simulated, d) != BT_OK)
		return BT_ERR_INVALID;
	doc->model = bt_json_get_str(doc->counting, "model");
	doc->uarch = bt_json_get_str(doc->counting, "uarch");
	doc->model_source = bt_json_get_str(doc->counting, "model_source");
	doc->not_counted_reason = bt_json_get_str(doc->run, "not_counted_reason");
	const struct bt_json *wls = bt_json_member(doc->run, "workloads", BT_JSON_ARRAY);
	if (!wls)
		return BT_OK;
	doc->workloads = bt_arena_alloc(a, (wls->u.arr.n + 1) * sizeof(*doc->workloads));
	if (!doc->workloads)
		return BT_ERR_NOMEM;
	for (size_t i = 0; i < wls->u.arr.n; i++) {
		const struct bt_json *w = wls->u.arr.items[i];
		struct bt_results_workload *o = &doc->workloads[doc->n_workloads++];
		const struct bt_json *cpu = bt_json_get(w, "cpu");
		memset(o, 0, sizeof(*o));
		o->index = i;
		o->entry = w;
		o->name = str_or(w, "name", "");
		o->params = str_or(w, "params", "");
		o->cpu = cpu && cpu->type == BT_JSON_NUMBER ? cpu->u.num.text : "?";
		o->label = o->name;
		o->state = str_or(w, "state", "");
		o->reason = str_or(w, "reason", "");
		const struct bt_json *pt = bt_json_member(w, "perturbed", BT_JSON_OBJECT);
		const char *place = bt_json_get_str(w, "placement");
		o->perturbed = pt ? str_or(pt, "reason", "PERTURBED")
			     : place && !strncmp(place, "PERTURBED", 9) ? place : NULL;
		o->counted = bt_json_member(w, "counted", BT_JSON_OBJECT);
		if (!o->counted)
			continue;
		doc->n_counted++;
		/* the file's labels agree (check_provenance): the most cautious */
		o->simulated = doc->simulated;
		o->tree = bt_json_member(o->counted, "tree", BT_JSON_OBJECT);
		o->events = bt_json_member(o->counted, "events", BT_JSON_OBJECT);
		o->steps = bt_json_member(o->counted, "steps", BT_JSON_ARRAY);
		o->consistency = bt_json_member(o->counted, "consistency", BT_JSON_ARRAY);
		o->model = str_or(o->tree, "model", doc->model);
		o->model_source = str_or(o->tree, "model_source", doc->model_source);
	}
	/* A name run on several CPUs (--cpu all) is told apart by its CPU. */
	for (size_t i = 0; i < doc->n_workloads; i++) {
		struct bt_results_workload *o = &doc->workloads[i];
		for (size_t k = 0; k < doc->n_workloads; k++) {
			if (k != i && !strcmp(doc->workloads[k].name, o->name)) {
				o->label = bt_arena_printf(a, "%s@cpu%s", o->name, o->cpu);
				break;
			}
		}
		if (!o->label)
			return BT_ERR_NOMEM;
		if (o->counted && check_counted(path, o, d) != BT_OK)
			return BT_ERR_INVALID;
	}
	return BT_OK;
}

/* A `replay --json` document as a results document of one workload. */
static bt_status from_replay(struct bt_arena *a, const char *path, const struct bt_json *root,
			     struct bt_results_doc *doc)
{
	memset(doc, 0, sizeof(*doc));
	doc->path = path;
	doc->root = root;
	doc->replayed = true;
	doc->input = bt_json_get_str(root, "input");
	doc->simulated = strstr(doc->input, "SIMULATED") != NULL;
	doc->model = bt_json_get_str(root, "model");
	doc->model_source = bt_json_get_str(root, "model_source");
	doc->workloads = bt_arena_alloc(a, sizeof(*doc->workloads));
	if (!doc->workloads)
		return BT_ERR_NOMEM;
	struct bt_results_workload *o = &doc->workloads[0];
	memset(o, 0, sizeof(*o));
	/* the case the count file names, else the file's own name */
	const char *c = strstr(doc->input, ", case ");
	const char *base = strrchr(path, '/');
	if (c) {
		c += strlen(", case ");
		o->name = bt_arena_strndup(a, c, strcspn(c, ","));
	} else {
		o->name = bt_arena_strdup(a, base ? base + 1 : path);
	}
	if (!o->name)
		return BT_ERR_NOMEM;
	o->label = o->name;
	o->params = "";
	o->cpu = "?";
	o->entry = root;
	o->counted = root;
	o->tree = root;
	o->consistency = bt_json_member(root, "consistency", BT_JSON_ARRAY);
	o->model = doc->model;
	o->model_source = doc->model_source;
	o->simulated = doc->simulated;
	doc->n_workloads = doc->n_counted = 1;
	return BT_OK;
}

bt_status bt_results_doc_from_json_any(struct bt_arena *a, const char *path, const struct bt_json *root,
				       struct bt_results_doc *doc, struct bt_diag *d)
{
	const char *input = bt_json_get_str(root, "input");
	if (!bt_json_get(root, "format") && input && !strncmp(input, "replayed counts from", 20) &&
	    bt_json_member(root, "nodes", BT_JSON_OBJECT))
		return from_replay(a, path, root, doc);
	return bt_results_doc_from_json(a, path, root, doc, d);
}

bt_status bt_results_doc_load_any(struct bt_arena *a, const char *path, struct bt_results_doc *doc,
				  struct bt_diag *d)
{
	struct bt_json *root;
	bt_status st = bt_json_load_file(a, path, &root, d);
	if (st != BT_OK)
		return st;
	return bt_results_doc_from_json_any(a, path, root, doc, d);
}

bt_status bt_results_doc_load(struct bt_arena *a, const char *path, struct bt_results_doc *doc,
			      struct bt_diag *d)
{
	struct bt_json *root;
	bt_status st = bt_json_load_file(a, path, &root, d);
	if (st != BT_OK)
		return st;
	return bt_results_doc_from_json(a, path, root, doc, d);
}

bt_status bt_results_doc_parse(struct bt_arena *a, const char *text, size_t len, const char *path,
			       struct bt_results_doc *doc, struct bt_diag *d)
{
	struct bt_json *root;
	bt_status st = bt_json_parse(a, text, len, path, &root, d);
	if (st != BT_OK)
		return st;
	return bt_results_doc_from_json(a, path, root, doc, d);
}

const struct bt_results_workload *bt_results_doc_counted(const struct bt_results_doc *doc,
							 const char *name, struct bt_diag *d)
{
	const struct bt_results_workload *found = NULL;
	for (size_t i = 0; i < doc->n_workloads; i++) {
		const struct bt_results_workload *w = &doc->workloads[i];
		if (!w->counted)
			continue;
		if (name ? !strcmp(w->label, name) || !strcmp(w->name, name) : !found) {
			if (found && name) {
				bt_diag_set(d, "%s: workload %s ran on several CPUs: name one as %s", doc->path,
					    name, w->label);
				return NULL;
			}
			found = w;
		}
	}
	if (!doc->n_counted)
		bt_diag_set(d, "%s: no counted workload", doc->path);
	else if (!name && doc->n_counted > 1)
		bt_diag_set(d, "%s: several counted workloads: name one with --workload NAME", doc->path);
	else if (!found)
		bt_diag_set(d, "%s: no counted workload of that name (--workload)", doc->path);
	return doc->n_counted && (name || doc->n_counted == 1) ? found : NULL;
}
