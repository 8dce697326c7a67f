/* SPDX-License-Identifier: MIT */
/*
 * Where each built-in model comes from: the vendor files (paths relative to
 * the reference root, ../shared/reference) and how to read them.
 * tools/gen-models turns every recipe into metrics/gen/model-<id>.c; the
 * same recipe, pointed at the same files, is how a model is loaded at run
 * time (tests/unit/metrics/test-model-load.c checks both give identical results).
 * The recipes are the rows of base/model-rows.h (see metrics/README.md).
 */
#include <string.h>

#include "metrics/load.h"
#include "base/array.h"

/* A row of base/model-rows.h with vendor files is a recipe; a model written
 * by hand (fmt HAND) is not. */
#define BT_RECIPE_PERFMON BT_FMT_PERFMON
#define BT_RECIPE_PERF_JSON BT_FMT_PERF_JSON
#define BT_UNPAREN(...) __VA_ARGS__
#define RECIPE_PERFMON(id_, vendor_, name_, w_, fmt_, files_)                        \
	{ .id = id_, .vendor = vendor_, .uarch = name_, .format = BT_RECIPE_##fmt_,       \
	  .pipeline_width = w_, BT_UNPAREN files_ },
#define RECIPE_PERF_JSON RECIPE_PERFMON
#define RECIPE_HAND(...)
#define BT_MODEL_ROW(id_, vendor_, name_, w_, sig_, core_, uarch_, fmt_, files_, sim_, mem_,  \
		     atlas_)                                                               \
	RECIPE_##fmt_(id_, vendor_, name_, w_, fmt_, files_)

const struct bt_model_recipe bt_model_recipes[] = {
#include "base/model-rows.h"
};

const unsigned bt_model_recipe_count = BT_ARRAY_SIZE(bt_model_recipes);

const struct bt_model_recipe *bt_recipe_find(const char *id)
{
	for (unsigned i = 0; i < bt_model_recipe_count; i++)
		if (strcmp(bt_model_recipes[i].id, id) == 0)
			return &bt_model_recipes[i];
	return NULL;
}
