/* SPDX-License-Identifier: MIT */
/*
 * Every oracle vector of ../shared/testdata/tma (or the subset in
 * tests/data/tma when ../shared is absent), evaluated with the built-in
 * models: every tree node and every Info_/Bottleneck_ metric value within
 * 1e-9 relative or 1e-12 absolute (invalid = invalid), and every flag equal.
 * The thresh_literal of SRF is checked as well. Prints the figures per model.
 *
 * `expected` follows Intel's native file, defects included; where the case
 * says the two oracles disagree (`agree` false), pmu-tools' value and flag
 * (`oracle_p`, `oracle_p_thresh`) pass too, as in the shared check.py: a
 * node baretop corrects (metrics/corrections.c) matches that second form.
 * No expected value is rewritten; the count of such nodes is printed.
 * A corrected node that matches neither (pmu-tools' own value differs, e.g.
 * its 0 for a division by zero) is left to the steps that have Linux perf's
 * form to compare with (tests/oracle/second_form.py in the tma-vectors step,
 * forms.py in the formula-forms step): counted and printed, not passed here.
 */
#include <math.h>

#include "metrics/builtin.h"
#include "metrics/corrections.h"
#include "metrics/counts-file.h"
#include "tests/unit/lib/vector-walk.h"

struct stats {
	char model[16];
	unsigned cases, values, flags, bad, second, deferred;
};

static int corrected(const char *model, const char *node)
{
	for (unsigned i = 0; i < bt_correction_count; i++) {
		const char *id = bt_correction_model(&bt_corrections[i]);
		if (id && !strcmp(id, model) && !strcmp(bt_corrections[i].node, node))
			return 1;
	}
	return 0;
}

/* the case's second form of a node where the oracles disagree, or NULL */
struct second {
	const struct bt_json *agree, *value, *thresh;
};

struct ctx {
	struct stats s[64];
	int n;
	unsigned skipped;
};

static struct stats *stats_for(struct ctx *c, const char *model)
{
	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->s[i].model, model))
			return &c->s[i];
	struct stats *s = &c->s[c->n++];
	memset(s, 0, sizeof(*s));
	snprintf(s->model, sizeof(s->model), "%s", model);
	return s;
}

static int close_enough(double got, double exp)
{
	return fabs(got - exp) <= fmax(1e-12, 1e-9 * fmax(fabs(got), fabs(exp)));
}

static const struct bt_json *second_of(const struct bt_json *map, const struct second *sec,
				       const char *name)
{
	const struct bt_json *a = bt_json_get(sec->agree, name);
	return a && a->type == BT_JSON_FALSE ? bt_json_get(map, name) : NULL;
}

static void check_group(const char *path, const struct bt_json *grp, struct bt_model *m,
			struct bt_result *r, const struct second *sec, struct stats *st)
{
	for (size_t k = 0; grp && k < grp->u.obj.n; k++) {
		const char *name = grp->u.obj.keys[k];
		const struct bt_json *e = grp->u.obj.values[k];
		int i = bt_model_node_find(m, name);
		if (i < 0) {
			st->bad++;
			CHECK_MSG(0, "%s: node %s missing from model %s", path, name, bt_model_def(m)->id);
			continue;
		}
		const struct bt_json *v = bt_json_get(e, "value");
		st->values++;
		/* A node with a not-measured latency and no fallback has no value
		 * (BT_NODE_NO_RETIRE_LATENCY); the oracles compute the formula
		 * with perf's -1, which the evaluator keeps in raw: that number
		 * and that flag are checked. */
		int no_rl = r->state[i] == BT_NODE_NO_RETIRE_LATENCY;
		double got = !no_rl ? r->value[i]
				    : bt_model_node(m, (unsigned)i)->percent ? r->raw[i] / 100 : r->raw[i];
		int ok = v && v->type == BT_JSON_NUMBER ? !isnan(got) && close_enough(got, v->u.num.value)
							: isnan(got);
		const struct bt_json *p = second_of(sec->value, sec, name);
		if (!ok && p && p->type == BT_JSON_NUMBER && !isnan(got) &&
		    close_enough(got, p->u.num.value)) {
			ok = 1;
			st->second++;
		}
		if (!ok && corrected(bt_model_def(m)->id, name) && p) {
			st->deferred++;
			printf("#   %s: %s = %.17g: corrected node, neither the vector's value nor "
			       "pmu-tools' (left to Linux perf's form: second_form.py)\n", path, name, got);
			ok = 1;
		}
		if (!ok) {
			st->bad++;
			CHECK_MSG(0, "%s: %s = %.17g, expected %s", path, name, got,
				  v && v->type == BT_JSON_NUMBER ? v->u.num.text : "null");
		}
		const struct bt_json *t = bt_json_get(e, "thresh");
		if (t && (t->type == BT_JSON_TRUE || t->type == BT_JSON_FALSE)) {
			st->flags++;
			const struct bt_json *pt = second_of(sec->thresh, sec, name);
			int alt = pt && (pt->type == BT_JSON_TRUE || pt->type == BT_JSON_FALSE) &&
				  r->has_flag[i] && r->formula_flag[i] == (pt->type == BT_JSON_TRUE);
			if (!alt && (!r->has_flag[i] || r->formula_flag[i] != (t->type == BT_JSON_TRUE))) {
				st->bad++;
				CHECK_MSG(0, "%s: %s flag %d, expected %d", path, name, r->flag[i],
					  t->type == BT_JSON_TRUE);
			}
		}
		const struct bt_json *tl = bt_json_get(e, "thresh_literal");
		if (tl && (tl->type == BT_JSON_TRUE || tl->type == BT_JSON_FALSE)) {
			st->flags++;
			if (r->flag_literal[i] != (tl->type == BT_JSON_TRUE)) {
				st->bad++;
				CHECK_MSG(0, "%s: %s literal flag %d, expected %d", path, name,
					  r->flag_literal[i], tl->type == BT_JSON_TRUE);
			}
		}
	}
}

static void one_case(const char *path, void *vctx)
{
	struct ctx *c = vctx;
	struct bt_arena a = { 0 };
	struct bt_diag d = { "" };
	struct bt_json *root;
	if (bt_json_load_file(&a, path, &root, &d) != BT_OK || !bt_json_get(root, "expected")) {
		bt_arena_free(&a);
		return;
	}
	const char *src = bt_json_get_str(root, "expected_source");
	if (src && !strcmp(src, "pmu-tools")) {
		/* generic-counter path of PERF_METRICS models: pmu-tools formulas */
		c->skipped++;
		bt_arena_free(&a);
		return;
	}
	struct bt_count_file cf;
	char *text;
	size_t len;
	bt_file_read(&a, path, &text, &len, &d);
	CHECK(bt_count_file_parse(&a, text, len, path, &cf, &d) == BT_OK);
	const struct bt_model_def *def = cf.model ? bt_builtin_find(cf.model) : NULL;
	CHECK_MSG(def != NULL, "%s: no built-in model %s", path, cf.model ? cf.model : "?");
	struct bt_model *m;
	if (!def || bt_model_open(def, &m, &d) != BT_OK) {
		bt_arena_free(&a);
		return;
	}
	struct bt_counts *counts = bt_counts_new(m);
	struct bt_result *r = bt_result_new(m);
	bt_count_file_apply(&cf, counts, NULL, &d);
	bt_evaluate(m, counts, r);
	struct stats *st = stats_for(c, def->id);
	st->cases++;
	struct second sec = { bt_json_get(root, "agree"), bt_json_get(root, "oracle_p"),
			      bt_json_get(root, "oracle_p_thresh") };
	check_group(path, bt_json_get(root, "expected"), m, r, &sec, st);
	check_group(path, bt_json_get(root, "expected_info"), m, r, &sec, st);
	bt_result_free(r);
	bt_counts_free(counts);
	bt_model_close(m);
	bt_arena_free(&a);
}

TEST(all_vectors_reproduced)
{
	int subset;
	const char *dir = bt_vector_dir(&subset);
	static struct ctx c;
	int n = bt_walk_json(dir, one_case, &c);
	CHECK_MSG(n > 0, "no vectors in %s", dir);
	unsigned cases = 0, values = 0, flags = 0, bad = 0;
	printf("# vectors from %s%s\n", dir,
	       subset ? " (SUBSET: ../shared/testdata is absent)" : "");
	for (int i = 0; i < c.n; i++) {
		struct stats *s = &c.s[i];
		printf("#   %-8s %3u cases %6u values %5u flags: %u mismatches (%u values at pmu-tools' "
		       "where the oracles disagree, %u corrected values left to perf's form)\n", s->model,
		       s->cases, s->values, s->flags, s->bad, s->second, s->deferred);
		cases += s->cases;
		values += s->values;
		flags += s->flags;
		bad += s->bad;
	}
	printf("# total: %u cases, %u values, %u flags, %u mismatches\n", cases, values, flags, bad);
	CHECK(bad == 0);
	CHECK(cases > 0);
}
