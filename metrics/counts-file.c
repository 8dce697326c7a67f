/* SPDX-License-Identifier: MIT */
#include "metrics/counts-file.h"

#include <string.h>

/* The largest double below 2^64: a count or latency above it is no
 * count, and the simulated PMU converts counts to uint64_t (synth/). */
#define MAX_COUNT 18446744073709549568.0

/* Every member a number in [min, max] (or true/false, 1/0), checked with
 * the one accessor of numbers in files (base/json-read.h). */
static bt_status check_numbers(const struct bt_json *obj, const char *what, const char *file,
			       double min, double max, struct bt_diag *d)
{
	if (!obj)
		return BT_OK;
	if (obj->type != BT_JSON_OBJECT) {
		bt_diag_set(d, "%s:%u:%u: \"%s\" must be an object", file, obj->line, obj->col, what);
		return BT_ERR_INVALID;
	}
	for (size_t i = 0; i < obj->u.obj.n; i++) {
		const struct bt_json *v = obj->u.obj.values[i];
		if (v->type != BT_JSON_NUMBER && v->type != BT_JSON_TRUE && v->type != BT_JSON_FALSE) {
			bt_diag_set(d, "%s:%u:%u: %s \"%s\" is not a number", file, v->line, v->col, what,
				    obj->u.obj.keys[i]);
			return BT_ERR_INVALID;
		}
		if (v->type == BT_JSON_NUMBER && bt_json_num_check(v, min, max, 0) != BT_JSON_NUM_OK) {
			bt_diag_set(d, "%s:%u:%u: %s \"%s\" is %s: a number from %g to %g expected", file,
				    v->line, v->col, what, obj->u.obj.keys[i], v->u.num.text, min, max);
			return BT_ERR_INVALID;
		}
	}
	return BT_OK;
}

static double number(const struct bt_json *v)
{
	return v->type == BT_JSON_NUMBER ? v->u.num.value : v->type == BT_JSON_TRUE ? 1 : 0;
}

/* A count file written by `baretop-host counts` says where its counts came
 * from three times: "kind", source.simulated and source.input. A file
 * where they disagree was edited, and replaying it would print whichever
 * label it read: refused, naming the fields (analysis/results-read.c does
 * the same for results files). Other count files (the test vectors) have
 * a free-form "kind" and no "source": nothing to compare. */
static int said_simulated(const char *s, const char *sim, const char *measured)
{
	if (!s)
		return -1;
	if (!strncmp(s, sim, strlen(sim)))
		return 1;
	return measured && !strncmp(s, measured, strlen(measured)) ? 0 : -1;
}

static bt_status check_provenance(const struct bt_json *root, const char *name, struct bt_diag *d)
{
	const struct bt_json *src = bt_json_get(root, "source");
	const struct bt_json *sim = bt_json_get(src, "simulated");
	const struct bt_json *at[3] = { bt_json_get(root, "kind"), sim, bt_json_get(src, "input") };
	static const char *const field[3] = { "\"kind\"", "source.simulated", "source.input" };
	int says[3] = {
		said_simulated(bt_json_str(at[0]), "baretop results: SIMULATED", "baretop results: measured"),
		sim && sim->type == BT_JSON_TRUE ? 1 : sim && sim->type == BT_JSON_FALSE ? 0 : -1,
		said_simulated(bt_json_str(at[2]), "SIMULATED", "counted by "),
	};
	for (int x = 0; x < 3; x++)
		for (int y = x + 1; y < 3; y++)
			if (says[x] >= 0 && says[y] >= 0 && says[x] != says[y]) {
				bt_diag_set(d, "%s:%u:%u: the file's provenance labels contradict each other: "
					    "%s says %s, %s (line %u) says %s; refused rather than "
					    "believe one of them", name, at[x]->line, at[x]->col, field[x],
					    says[x] ? "simulated" : "measured", field[y], at[y]->line,
					    says[y] ? "simulated" : "measured");
				return BT_ERR_INVALID;
			}
	return BT_OK;
}

bt_status bt_count_file_parse(struct bt_arena *a, const char *text, size_t len, const char *name,
			      struct bt_count_file *ret, struct bt_diag *d)
{
	struct bt_json *root;
	bt_status s = bt_json_parse(a, text, len, name, &root, d);
	if (s != BT_OK)
		return s;
	if (root->type != BT_JSON_OBJECT) {
		bt_diag_set(d, "%s:%u:%u: a count file is a JSON object", name, root->line, root->col);
		return BT_ERR_INVALID;
	}
	struct bt_count_file f = { .path = name };
	f.model = bt_json_get_str(root, "model");
	f.case_name = bt_json_get_str(root, "case");
	f.kind = bt_json_get_str(root, "kind");
	f.counts = bt_json_get(root, "counts");
	f.retire_latency = bt_json_get(root, "retire_latency");
	f.constants = bt_json_get(root, "constants");
	if (!f.counts) {
		bt_diag_set(d, "%s:%u:%u: no \"counts\" object", name, root->line, root->col);
		return BT_ERR_INVALID;
	}
	if ((s = check_provenance(root, name, d)) != BT_OK ||
	    (s = check_numbers(f.counts, "counts", name, 0, MAX_COUNT, d)) != BT_OK ||
	    (s = check_numbers(f.retire_latency, "retire_latency", name, 0, MAX_COUNT, d)) != BT_OK ||
	    (s = check_numbers(f.constants, "constants", name, -MAX_COUNT, MAX_COUNT, d)) != BT_OK)
		return s;
	*ret = f;
	return BT_OK;
}

bt_status bt_count_file_read(struct bt_arena *a, const char *path, struct bt_count_file *ret,
			     struct bt_diag *d)
{
	char *text;
	size_t len;
	bt_status s = bt_file_read(a, path, &text, &len, d);
	if (s != BT_OK)
		return s;
	return bt_count_file_parse(a, text, len, path, ret, d);
}

bt_status bt_count_file_apply(const struct bt_count_file *f, struct bt_counts *c,
			      unsigned *ret_unused, struct bt_diag *d)
{
	unsigned unused = 0;
	(void)d;
	bt_counts_reset(c);
	const struct bt_json *groups[3] = { f->counts, f->retire_latency, f->constants };
	for (int g = 0; g < 3; g++) {
		const struct bt_json *obj = groups[g];
		for (size_t i = 0; obj && i < obj->u.obj.n; i++) {
			const char *key = obj->u.obj.keys[i];
			double v = number(obj->u.obj.values[i]);
			bt_status s = g == 0 ? bt_counts_set_event(c, key, v)
				      : g == 1 ? bt_counts_set_retire_latency(c, key, v)
					       : bt_counts_set_constant(c, key, v);
			if (s != BT_OK)
				unused++;
		}
	}
	if (ret_unused)
		*ret_unused = unused;
	return BT_OK;
}
