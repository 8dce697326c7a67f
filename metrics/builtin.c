/* SPDX-License-Identifier: MIT */
#include "metrics/builtin.h"
#include "base/array.h"

#include <ctype.h>
#include <stddef.h>

#include "metrics/model-pack.h"
#include "metrics/tremont-model.h"

static int same_id(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
			return 0;
	return *a == *b;
}

/*
 * Unpacked built-in models, made on first use and kept for the life of the
 * program (the EFI app and the host tools open a model many times; a model
 * is unpacked once). Not thread-safe: models are opened from one thread.
 */
static struct bt_arena unpacked_arena;
static const struct bt_model_def *unpacked[64];

bt_status bt_builtin_full(const struct bt_model_def *def, const struct bt_model_def **ret,
			 struct bt_diag *d)
{
	*ret = def;
	if (!def || def->nodes || !def->pack)
		return BT_OK;
	for (unsigned i = 0; i < bt_builtin_model_count && i < BT_ARRAY_SIZE(unpacked);
	     i++) {
		if (bt_builtin_models[i] != def)
			continue;
		if (!unpacked[i]) {
			struct bt_model_def *full;
			bt_status s = bt_model_unpack(&unpacked_arena, def, &full, d);
			if (s != BT_OK)
				return s;
			unpacked[i] = full;
		}
		*ret = unpacked[i];
		return BT_OK;
	}
	bt_diag_set(d, "model %s: packed, but not one of the built-in models", def->id);
	return BT_ERR_INVALID;
}

const struct bt_model_def *bt_builtin_find(const char *id)
{
	/* TNT is written by hand (metrics/tremont-model.c), not generated
	 * from vendor files: it is found by id but is not one of the packed
	 * bt_builtin_models[]. */
	if (id && same_id(BT_TNT_MODEL_ID, id))
		return bt_tremont_model();
	for (unsigned i = 0; i < bt_builtin_model_count; i++)
		if (same_id(bt_builtin_models[i]->id, id)) {
			const struct bt_model_def *full;
			struct bt_diag d;
			return bt_builtin_full(bt_builtin_models[i], &full, &d) == BT_OK ? full : NULL;
		}
	return NULL;
}
