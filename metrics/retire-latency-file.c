/* SPDX-License-Identifier: MIT */
/* Retire-latency tables from a file: retire-latency-file.h. */
#include <math.h>
#include <string.h>

#include "base/json-read.h"
#include "metrics/retire-latency-file.h"

static const char *canonical(struct bt_arena *a, const char *key)
{
	size_t n = strlen(key);
	static const char *const suffix[] = { ":retire_latency", ":R" };
	for (size_t k = 0; k < sizeof(suffix) / sizeof(suffix[0]); k++) {
		size_t s = strlen(suffix[k]);
		if (n > s && !strcmp(key + n - s, suffix[k]))
			return bt_arena_strndup(a, key, n - s);
	}
	return key;
}

static double num(const struct bt_json *v)
{
	return v && v->type == BT_JSON_NUMBER ? v->u.num.value : NAN;
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
		if (intel) {
			e->mean = num(bt_json_get(v, "MEAN"));
			e->min = num(bt_json_get(v, "MIN"));
			e->max = num(bt_json_get(v, "MAX"));
		} else {
			e->mean = num(v);
			e->min = e->max = NAN;
		}
		if (isnan(e->mean) || e->mean < 0) {
			bt_diag_set(d, "%s: %s: the latency is not a number of cycles >= 0%s", name, key,
				    intel ? " (\"MEAN\")" : "");
			return BT_ERR_INVALID;
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
