/* SPDX-License-Identifier: MIT */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/json-read.h"
#include "validate/report.h"

static void row(FILE *f, const char *verdict, const char *id, bool has, uint64_t med,
		uint64_t min, uint64_t max, const char *expected, const char *tol,
		const char *detail)
{
	char meas[64];

	if (!verdict[0])
		snprintf(meas, sizeof(meas), "measured median [min..max]");
	else if (has)
		snprintf(meas, sizeof(meas), "%" PRIu64 " [%" PRIu64 "..%" PRIu64 "]", med, min, max);
	else
		snprintf(meas, sizeof(meas), "-");
	fprintf(f, "  %-4s  %-48s  %-28s  %-28s  %-10s  %s\n", verdict, id, meas, expected, tol,
		detail);
}

void bt_validation_summary(const struct bt_validation_record *r, char *buf, size_t len)
{
	int c[4] = { 0, 0, 0, 0 };

	bt_check_list_tally(r->checks, c);
	snprintf(buf, len, "validate: %d PASS, %d WARN, %d FAIL, %d SKIP%s", c[BT_VERDICT_PASS],
		 c[BT_VERDICT_WARN], c[BT_VERDICT_FAIL], c[BT_VERDICT_SKIP],
		 r->simulated ? " (SIMULATED PMU)" : "");
}

void bt_validation_print(FILE *f, const struct bt_validation_record *r)
{
	char sum[160];

	fprintf(f, "validation    %s%s, spec %s%s\n", r->simulated ? "SIMULATED: " : "", r->pmu,
		r->spec, r->quick ? ", quick sizes" : "");
	if (r->defects && r->defects[0])
		fprintf(f, "  injected defects: %s (--sim-defect: the simulated PMU is broken on "
			   "purpose)\n", r->defects);
	if (r->miscount && r->miscount[0])
		fprintf(f, "  injected miscount: %s (--sim-miscount: one event of the simulated PMU "
			   "counts wrong on purpose)\n", r->miscount);
	if (r->no_pmu_reason) {
		fprintf(f, "validate: nothing validated: %s\n", r->no_pmu_reason);
		return;
	}
	row(f, "", "check", false, 0, 0, 0, "expected", "tolerance", "detail");
	for (int i = 0; i < r->checks->n; i++) {
		const struct bt_check_result *c = &r->checks->v[i];
		char detail[sizeof(c->detail) + sizeof(c->pages) + 16];
		snprintf(detail, sizeof(detail), "%s%s%s%s", c->detail,
			 c->pages[0] && c->detail[0] ? "; " : "", c->pages[0] ? "pages: " : "",
			 c->pages);
		row(f, bt_verdict_name(c->verdict), c->id, c->has_measured, c->median, c->min, c->max,
		    c->expected, c->tolerance, detail);
	}
	bt_validation_summary(r, sum, sizeof(sum));
	fprintf(f, "%s\n", sum);
}

void bt_validation_json(struct bt_jw *j, const struct bt_validation_record *r)
{
	int c[4] = { 0, 0, 0, 0 };

	bt_check_list_tally(r->checks, c);
	bt_jw_object(j, "validation");
	bt_jw_bool(j, "simulated", r->simulated);
	bt_jw_str(j, "pmu", r->pmu);
	bt_jw_str(j, "spec", r->spec);
	bt_jw_bool(j, "quick", r->quick);
	bt_jw_str(j, "no_pmu_reason", r->no_pmu_reason);
	if (r->defects && r->defects[0])
		bt_jw_str(j, "injected_defects", r->defects);
	if (r->miscount && r->miscount[0])
		bt_jw_str(j, "injected_miscount", r->miscount);
	bt_jw_object(j, "summary");
	for (int v = 0; v < 4; v++)
		bt_jw_u64(j, bt_verdict_name((enum bt_verdict)v), (uint64_t)c[v]);
	bt_jw_end(j);
	bt_jw_array(j, "checks");
	for (int i = 0; i < r->checks->n; i++) {
		const struct bt_check_result *x = &r->checks->v[i];
		bt_jw_object(j, NULL);
		bt_jw_str(j, "id", x->id);
		bt_jw_str(j, "verdict", bt_verdict_name(x->verdict));
		bt_jw_str(j, "event", x->event);
		bt_jw_str(j, "kernel", x->kernel);
		bt_jw_u64(j, "n", x->n);
		if (x->has_measured) {
			bt_jw_u64(j, "median", x->median);
			bt_jw_u64(j, "min", x->min);
			bt_jw_u64(j, "max", x->max);
			bt_jw_u64(j, "runs", x->runs);
			bt_jw_u64(j, "overhead", x->overhead);
		}
		bt_jw_str(j, "expected", x->expected);
		bt_jw_str(j, "tolerance", x->tolerance);
		bt_jw_str(j, "detail", x->detail);
		if (x->pages[0])
			bt_jw_str(j, "pages", x->pages);
		bt_jw_end(j);
	}
	bt_jw_end(j);
	bt_jw_end(j);
}

static const char *str_or(const struct bt_json *o, const char *key, const char *dflt)
{
	const char *s = bt_json_get_str(o, key);
	return s ? s : dflt;
}

static uint64_t num_or0(const struct bt_json *o, const char *key)
{
	double x;
	/* checked first: a double beyond uint64_t converted to it is undefined */
	return bt_json_num_in(o, key, 0, 9223372036854775808.0 / 2, 1, 0, &x, NULL) == BT_OK ? (uint64_t)x : 0;
}

bt_status bt_validation_show(FILE *f, const char *path, bool *any_fail, struct bt_diag *d)
{
	struct bt_arena a;
	struct bt_json *root;
	bt_status st;

	*any_fail = false;
	bt_arena_init(&a);
	if ((st = bt_json_load_file(&a, path, &root, d)) != BT_OK)
		goto out;
	const struct bt_json *v = bt_json_get(root, "validation");
	const struct bt_json *checks = bt_json_get(v, "checks");
	if (!v || !checks || checks->type != BT_JSON_ARRAY) {
		bt_diag_set(d, "%s: no \"validation\" section (not a --validate run's results)", path);
		st = BT_ERR_NOT_FOUND;
		goto out;
	}
	const struct bt_json *sim = bt_json_get(v, "simulated");
	const struct bt_json *seq = bt_json_get(root, "sequence");
	struct bt_check_list list;
	bt_check_list_init(&list);
	for (size_t i = 0; i < checks->u.arr.n; i++) {
		const struct bt_json *c = checks->u.arr.items[i];
		struct bt_check_result r;
		memset(&r, 0, sizeof(r));
		snprintf(r.id, sizeof(r.id), "%s", str_or(c, "id", "?"));
		const char *vd = str_or(c, "verdict", "?");
		r.verdict = strcmp(vd, "PASS") == 0 ? BT_VERDICT_PASS : strcmp(vd, "WARN") == 0 ?
			    BT_VERDICT_WARN : strcmp(vd, "SKIP") == 0 ? BT_VERDICT_SKIP : BT_VERDICT_FAIL;
		r.has_measured = bt_json_get(c, "median") != NULL;
		r.median = num_or0(c, "median");
		r.min = num_or0(c, "min");
		r.max = num_or0(c, "max");
		snprintf(r.expected, sizeof(r.expected), "%s", str_or(c, "expected", ""));
		snprintf(r.tolerance, sizeof(r.tolerance), "%s", str_or(c, "tolerance", ""));
		snprintf(r.detail, sizeof(r.detail), "%s", str_or(c, "detail", ""));
		snprintf(r.pages, sizeof(r.pages), "%s", str_or(c, "pages", ""));
		if (r.verdict == BT_VERDICT_FAIL)
			*any_fail = true;
		if (bt_check_list_add(&list, &r) != BT_OK) {
			bt_check_list_free(&list);
			bt_diag_set(d, "out of memory");
			st = BT_ERR_NOMEM;
			goto out;
		}
	}
	struct bt_validation_record rec = {
		.simulated = sim && sim->type == BT_JSON_TRUE,
		.pmu = str_or(v, "pmu", "?"),
		.spec = str_or(v, "spec", "?"),
		.quick = bt_json_get(v, "quick") && bt_json_get(v, "quick")->type == BT_JSON_TRUE,
		.no_pmu_reason = bt_json_get_str(v, "no_pmu_reason"),
		.defects = bt_json_get_str(v, "injected_defects"),
		.miscount = bt_json_get_str(v, "injected_miscount"),
		.checks = &list,
	};
	fprintf(f, "%s: results #%" PRIu64 "%s\n", path, num_or0(root, "sequence"),
		seq ? "" : " (no sequence)");
	bt_validation_print(f, &rec);
	bt_check_list_free(&list);
out:
	bt_arena_free(&a);
	return st;
}
