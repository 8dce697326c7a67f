/* SPDX-License-Identifier: MIT */
/* Retire-latency tables from a file: retire-latency-file.h. */
#include <math.h>
#include <string.h>

#include "base/json-read.h"
#include "base/array.h"
#include "base/near-name.h"
#include "metrics/retire-latency-file.h"

static const char *canonical(struct bt_arena *a, const char *key)
{
	size_t n = strlen(key);
	static const char *const suffix[] = { ":retire_latency", ":R" };
	for (size_t k = 0; k < BT_ARRAY_SIZE(suffix); k++) {
		size_t s = strlen(suffix[k]);
		if (n > s && !strcmp(key + n - s, suffix[k]))
			return bt_arena_strndup(a, key, n - s);
	}
	return key;
}

/*
 * A latency is cycles a retiring instruction waited, as Timed PEBS records
 * it: a 16-bit field of the record's basic group (bits 47:32, saturating at
 * 65535: pmu/pebs.h, BT_PEBS_LAT_MAX; Intel SDM vol. 3B "Timed Processor
 * Event Based Sampling"), so no measured mean, minimum or maximum can be
 * above 65535 or below 0; a value outside that range (1e300, 1e999 read as
 * infinity) cannot be a latency anyone measured and is refused.
 */
#define RL_MAX_CYCLES 65535.0

/* v (the member `what` of EVENT, or the flat value) as cycles in
 * [0, RL_MAX_CYCLES]; NaN with `optional` and v absent (v is present
 * unless optional). */
static bt_status cycles(const struct bt_json *v, const char *name, const char *key,
			const char *what, int optional, double *ret, struct bt_diag *d)
{
	*ret = NAN;
	if (!v && optional)
		return BT_OK;
	switch (bt_json_num_check(v, 0, RL_MAX_CYCLES, 0)) {
	case BT_JSON_NUM_OK:
		*ret = v->u.num.value;
		return BT_OK;
	case BT_JSON_NUM_NOT_NUMBER:
		bt_diag_set(d, "%s:%u:%u: %s%s%s%s: not a number of cycles (a number from 0 to 65535 "
			    "expected)", name, (unsigned)v->line, (unsigned)v->col, key,
			    *what ? " \"" : "", what, *what ? "\"" : "");
		return BT_ERR_INVALID;
	default:
		bt_diag_set(d, "%s:%u:%u: %s%s%s%s is %s: a number of cycles from 0 to 65535 expected "
			    "(Timed PEBS records a retire latency in 16 bits; -1 is perf's \"not "
			    "measured\")", name, (unsigned)v->line, (unsigned)v->col, key,
			    *what ? " \"" : "", what, *what ? "\"" : "",
			    v->u.num.text ? v->u.num.text : "?");
		return BT_ERR_INVALID;
	}
}

bt_status bt_rl_file_parse(struct bt_arena *a, const char *text, size_t len, const char *name,
			   struct bt_rl_file *ret, struct bt_diag *d)
{
	struct bt_json *root;
	bt_status s = bt_json_parse(a, text, len, name, &root, d);
	if (s != BT_OK)
		return s;
	memset(ret, 0, sizeof(*ret));
	ret->path = name;
	const struct bt_json *data = bt_json_get(root, "Data");
	int intel = data && data->type == BT_JSON_OBJECT;
	if (!intel) {
		data = bt_json_get(root, "retire_latency");
		if (!data || data->type != BT_JSON_OBJECT)
			data = root;
	}
	if (!data || data->type != BT_JSON_OBJECT) {
		bt_diag_set(d, "%s: not a retire-latency table (an object: Intel's \"Data\" "
			    "{EVENT: {\"MEAN\": ...}} or {EVENT: cycles})", name);
		return BT_ERR_INVALID;
	}
	ret->layout = intel ? "Intel retire-latency JSON" : "flat";
	ret->entries = bt_arena_alloc(a, (data->u.obj.n + 1) * sizeof(*ret->entries));
	if (!ret->entries)
		return BT_ERR_NOMEM;
	for (size_t i = 0; i < data->u.obj.n; i++) {
		const char *key = data->u.obj.keys[i];
		const struct bt_json *v = data->u.obj.values[i];
		struct bt_rl_entry *e = &ret->entries[ret->n];
		e->event = canonical(a, key);
		if (!e->event)
			return BT_ERR_NOMEM;
		e->line = v->line;
		e->col = v->col;
		if (intel) {
			if (v->type != BT_JSON_OBJECT) {
				bt_diag_set(d, "%s:%u:%u: %s: an object {\"MEAN\": cycles, \"MIN\": ..., "
					    "\"MAX\": ...} expected", name, v->line, v->col, key);
				return BT_ERR_INVALID;
			}
			if (!bt_json_get(v, "MEAN")) {
				bt_diag_set(d, "%s:%u:%u: %s: no \"MEAN\" (the mean latency in cycles)", name,
					    v->line, v->col, key);
				return BT_ERR_INVALID;
			}
			if ((s = cycles(bt_json_get(v, "MEAN"), name, key, "MEAN", 0, &e->mean, d)) != BT_OK ||
			    (s = cycles(bt_json_get(v, "MIN"), name, key, "MIN", 1, &e->min, d)) != BT_OK ||
			    (s = cycles(bt_json_get(v, "MAX"), name, key, "MAX", 1, &e->max, d)) != BT_OK)
				return s;
			/* a mean outside its own minimum and maximum is no statistic of
			 * one set of samples */
			if ((!isnan(e->min) && e->min > e->mean) || (!isnan(e->max) && e->mean > e->max) ||
			    (!isnan(e->min) && !isnan(e->max) && e->min > e->max)) {
				bt_diag_set(d, "%s:%u:%u: %s: MIN %.17g, MEAN %.17g, MAX %.17g: MIN <= MEAN <= "
					    "MAX expected", name, v->line, v->col, key, e->min, e->mean,
					    e->max);
				return BT_ERR_INVALID;
			}
		} else {
			if ((s = cycles(v, name, key, "", 0, &e->mean, d)) != BT_OK)
				return s;
			e->min = e->max = NAN;
		}
		ret->n++;
	}
	return BT_OK;
}

bt_status bt_rl_file_read(struct bt_arena *a, const char *path, struct bt_rl_file *ret,
			  struct bt_diag *d)
{
	char *text;
	size_t len;
	bt_status s = bt_file_read(a, path, &text, &len, d);
	if (s != BT_OK)
		return s;
	return bt_rl_file_parse(a, text, len, path, ret, d);
}

const struct bt_rl_entry *bt_rl_file_find(const struct bt_rl_file *f, const char *event)
{
	for (unsigned i = 0; f && i < f->n; i++)
		if (!strcmp(f->entries[i].event, event))
			return &f->entries[i];
	return NULL;
}

unsigned bt_rl_file_apply(const struct bt_rl_file *f, struct bt_counts *c)
{
	const struct bt_model *m = c->model;
	unsigned filled = 0;
	for (unsigned i = 0; i < bt_model_retire_latency_count(m); i++) {
		if (c->retire_latency_source[i] != BT_RL_NONE)
			continue;
		const struct bt_rl_entry *e = bt_rl_file_find(f, bt_model_retire_latency_name(m, i));
		if (!e)
			continue;
		c->retire_latency[i] = e->mean;
		c->retire_latency_source[i] = BT_RL_FILE;
		filled++;
	}
	return filled;
}

/*
 * Every name must be one the model knows: a retire-latency input of its
 * formulas, or an event of its published table (Intel's own file lists a few
 * latencies the TMA formulas do not use, e.g. GNR's BR_MISP_RETIRED.*_COST,
 * and must load). Anything else is a misspelling or another model's event,
 * and would be ignored silently: refused, with the nearest input named.
 * A model without inputs or a published table has nothing to check against.
 */
bt_status bt_rl_file_check(const struct bt_rl_file *f, const struct bt_model *m, struct bt_diag *d)
{
	unsigned nrl = bt_model_retire_latency_count(m);
	const struct bt_model_def *def = bt_model_def(m);
	if (!nrl && !def->n_retire_latency)
		return BT_OK;
	for (unsigned i = 0; i < f->n; i++) {
		const char *ev = f->entries[i].event;
		int known = 0;
		for (unsigned k = 0; k < nrl && !known; k++)
			known = !strcmp(bt_model_retire_latency_name(m, k), ev);
		for (unsigned k = 0; k < def->n_retire_latency && !known; k++)
			known = !strcmp(def->retire_latency[k].event, ev);
		if (known)
			continue;
		struct bt_near_name near;
		char hint[200];
		bt_near_name_init(&near, ev);
		for (unsigned k = 0; k < nrl; k++)
			bt_near_name_offer(&near, bt_model_retire_latency_name(m, k));
		for (unsigned k = 0; k < def->n_retire_latency; k++)
			bt_near_name_offer(&near, def->retire_latency[k].event);
		bt_diag_set(d, "%s:%u:%u: %s is not a retire-latency input of model %s (%u inputs, "
			    "%u published)%s", f->path, f->entries[i].line, f->entries[i].col, ev,
			    def->id, nrl, (unsigned)def->n_retire_latency,
			    bt_near_name_hint(&near, hint, sizeof(hint)));
		return BT_ERR_INVALID;
	}
	return BT_OK;
}
