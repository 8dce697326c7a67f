/* SPDX-License-Identifier: MIT */
#include "metrics/builtin.h"

#include <ctype.h>
#include <stddef.h>

static int same_id(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
			return 0;
	return *a == *b;
}

const struct bt_model_def *bt_builtin_find(const char *id)
{
	for (unsigned i = 0; i < bt_builtin_model_count; i++)
		if (same_id(bt_builtin_models[i]->id, id))
			return bt_builtin_models[i];
	return NULL;
}
