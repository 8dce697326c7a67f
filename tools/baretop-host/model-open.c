/* SPDX-License-Identifier: MIT */
#include <stdio.h>

#include "metrics/builtin.h"
#include "metrics/load.h"
#include "metrics/select.h"
#include "tools/baretop-host/model-open-host.h"

int host_open_model(const char *id, const char *load_root, struct bt_arena *a,
		    struct bt_model **ret)
{
	struct bt_diag d = { "" };
	const struct bt_model_def *def = NULL;
	if (load_root) {
		const struct bt_model_recipe *r = bt_recipe_find(id);
		struct bt_model_def *loaded;
		if (!r) {
			fprintf(stderr, "baretop-host: no recipe for model \"%s\"\n", id);
			return -1;
		}
		if (bt_model_load(a, r, load_root, &loaded, &d) != BT_OK) {
			fprintf(stderr, "baretop-host: %s\n", d.text);
			return -1;
		}
		def = loaded;
	} else if (bt_model_select(NULL, id, &def, &d) != BT_OK) {
		fprintf(stderr, "baretop-host: %s\n", d.text);
		return -1;
	}
	if (bt_model_open(def, ret, &d) != BT_OK) {
		fprintf(stderr, "baretop-host: %s\n", d.text);
		return -1;
	}
	return 0;
}
