/* SPDX-License-Identifier: MIT */
/* libFuzzer: the JSON reader must reject or accept any input without crashing,
 * and an accepted document's strings must be NUL-terminated. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/json-read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t walk(const struct bt_json *v)
{
	size_t n = 1;
	switch (v->type) {
	case BT_JSON_STRING:
		n += strlen(v->u.str.s) <= v->u.str.len;
		break;
	case BT_JSON_ARRAY:
		for (size_t i = 0; i < v->u.arr.n; i++)
			n += walk(v->u.arr.items[i]);
		break;
	case BT_JSON_OBJECT:
		for (size_t i = 0; i < v->u.obj.n; i++)
			n += strlen(v->u.obj.keys[i]) + walk(v->u.obj.values[i]);
		break;
	default:
		break;
	}
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bt_arena a;
	bt_arena_init(&a);
	struct bt_diag d;
	struct bt_json *root;
	if (bt_json_parse(&a, (const char *)data, size, "fuzz", &root, &d) == BT_OK)
		(void)walk(root);
	bt_arena_free(&a);
	return 0;
}
