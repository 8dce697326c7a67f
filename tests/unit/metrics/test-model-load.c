/* SPDX-License-Identifier: MIT */
/*
 * A built-in model and the same model loaded at run time from the vendor
 * files are the same: identical definitions (every node, formula, threshold,
 * event encoding, published retire latency) and bit-identical results on
 * every vector of that model. Skipped when ../shared/reference is absent.
 */
#include <math.h>

#include "metrics/builtin.h"
#include "metrics/counts-file.h"
#include "metrics/load.h"
#include "tests/unit/lib/vector-walk.h"

static int same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static void compare_defs(const struct bt_model_def *x, const struct bt_model_def *y)
{
	CHECK_STR(x->id, y->id);
	CHECK_STR(x->source, y->source);
	CHECK(same_str(x->cpi_node, y->cpi_node));
	CHECK_EQ_INT(x->flags, y->flags);
	CHECK_EQ_INT(x->pipeline_width, y->pipeline_width);
	CHECK_EQ_INT(x->n_nodes, y->n_nodes);
	for (unsigned i = 0; i < x->n_nodes && i < y->n_nodes; i++) {
		const struct bt_node_def *a = &x->nodes[i], *b = &y->nodes[i];
		CHECK_MSG(same_str(a->name, b->name) && same_str(a->parent, b->parent) &&
			  same_str(a->formula, b->formula) && same_str(a->threshold, b->threshold) &&
			  same_str(a->threshold_literal, b->threshold_literal) && a->kind == b->kind &&
			  a->level == b->level && a->percent == b->percent,
			  "%s: node %u (%s) differs", x->id, i, a->name);
	}
	CHECK_EQ_INT(x->n_events, y->n_events);
	for (unsigned i = 0; i < x->n_events && i < y->n_events; i++) {
		const struct bt_event *a = &x->events[i], *b = &y->events[i];
		CHECK_MSG(same_str(a->name, b->name) && a->source == b->source && a->flags == b->flags &&
			  a->code == b->code && a->code2 == b->code2 && a->umask == b->umask &&
			  a->umask_ext == b->umask_ext && a->cmask == b->cmask && a->fixed == b->fixed &&
			  a->pm_field == b->pm_field && a->counters == b->counters &&
			  a->counters_ht_off == b->counters_ht_off && a->msr_index == b->msr_index &&
			  a->msr_value == b->msr_value,
			  "%s: event %s differs", x->id, a->name);
	}
	CHECK_EQ_INT(x->n_retire_latency, y->n_retire_latency);
	for (unsigned i = 0; i < x->n_retire_latency && i < y->n_retire_latency; i++)
		CHECK(same_str(x->retire_latency[i].event, y->retire_latency[i].event) &&
		      x->retire_latency[i].cycles == y->retire_latency[i].cycles);
}

struct ctx {
	const char *id;
	struct bt_model *builtin, *loaded;
	unsigned cases, diffs;
};

/* the vector files and their model, read once */
static struct {
	char path[512];
	char model[16];
} files[4096];
static unsigned n_files;

static void list_case(const char *path, void *unused)
{
	(void)unused;
	struct bt_arena a = { 0 };
	struct bt_diag d;
	struct bt_count_file cf;
	if (n_files < 4096 && bt_count_file_read(&a, path, &cf, &d) == BT_OK && cf.model) {
		snprintf(files[n_files].path, sizeof(files[0].path), "%s", path);
		snprintf(files[n_files].model, sizeof(files[0].model), "%s", cf.model);
		n_files++;
	}
	bt_arena_free(&a);
}

static int same_double(double a, double b)
{
	return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof(a)) == 0;
}

static void one_case(const char *path, void *vctx)
{
	struct ctx *c = vctx;
	struct bt_arena a = { 0 };
	struct bt_diag d;
	struct bt_count_file cf;
	if (bt_count_file_read(&a, path, &cf, &d) != BT_OK || !cf.model || strcmp(cf.model, c->id)) {
		bt_arena_free(&a);
		return;
	}
	struct bt_model *ms[2] = { c->builtin, c->loaded };
	struct bt_result *r[2];
	for (int k = 0; k < 2; k++) {
		struct bt_counts *counts = bt_counts_new(ms[k]);
		r[k] = bt_result_new(ms[k]);
		bt_count_file_apply(&cf, counts, NULL, &d);
		bt_evaluate(ms[k], counts, r[k]);
		bt_counts_free(counts);
	}
	c->cases++;
	for (unsigned i = 0; i < bt_model_node_count(c->builtin); i++)
		if (!same_double(r[0]->value[i], r[1]->value[i]) || r[0]->flag[i] != r[1]->flag[i] ||
		    r[0]->state[i] != r[1]->state[i]) {
			c->diffs++;
			CHECK_MSG(0, "%s: node %s differs", path, bt_model_node(c->builtin, i)->name);
		}
	CHECK(r[0]->path_len == r[1]->path_len &&
	      !memcmp(r[0]->path, r[1]->path, r[0]->path_len * sizeof(r[0]->path[0])));
	bt_result_free(r[0]);
	bt_result_free(r[1]);
	bt_arena_free(&a);
}

TEST(builtin_equals_loaded_from_vendor_files)
{
	const char *ref = bt_reference_dir();
	if (!ref) {
		bt_test_skip("../shared/reference is absent: nothing to load");
		return;
	}
	int subset;
	const char *vectors = bt_vector_dir(&subset);
	CHECK_EQ_INT(bt_builtin_model_count, bt_model_recipe_count);
	bt_walk_json(vectors, list_case, NULL);
	unsigned total = 0;
	for (unsigned i = 0; i < bt_model_recipe_count; i++) {
		const struct bt_model_recipe *rcp = &bt_model_recipes[i];
		struct bt_arena a = { 0 };
		struct bt_diag d = { "" };
		struct bt_model_def *loaded;
		CHECK_MSG(bt_model_load(&a, rcp, ref, &loaded, &d) == BT_OK, "%s: %s", rcp->id, d.text);
		const struct bt_model_def *builtin = bt_builtin_find(rcp->id);
		CHECK(builtin != NULL);
		if (!builtin) {
			bt_arena_free(&a);
			continue;
		}
		compare_defs(builtin, loaded);
		struct ctx c = { .id = rcp->id };
		CHECK(bt_model_open(builtin, &c.builtin, &d) == BT_OK);
		CHECK(bt_model_open(loaded, &c.loaded, &d) == BT_OK);
		for (unsigned k = 0; k < n_files; k++)
			if (!strcmp(files[k].model, rcp->id))
				one_case(files[k].path, &c);
		printf("#   %-8s built-in == loaded from %s: %u vectors, %u differences\n", rcp->id,
		       rcp->metrics[0], c.cases, c.diffs);
		CHECK(c.cases > 0);
		total += c.cases;
		bt_model_close(c.builtin);
		bt_model_close(c.loaded);
		bt_arena_free(&a);
	}
	printf("# %u vectors evaluated both ways%s\n", total, subset ? " (subset)" : "");
}
