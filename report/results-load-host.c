/* SPDX-License-Identifier: MIT */
/* Reading a results file back: see results-load.h. */
#include <string.h>

#include "report/results-load.h"

bt_status bt_results_parse(struct bt_arena *a, const char *text, size_t len, const char *name,
			   struct bt_json **ret_root, struct bt_diag *d)
{
	struct bt_json *root;
	bt_status s = bt_json_parse(a, text, len, name, &root, d);
	if (s != BT_OK)
		return s;
	const char *format = root->type == BT_JSON_OBJECT ? bt_json_get_str(root, "format") : NULL;
	if (!format || strcmp(format, "baretop-results")) {
		bt_diag_set(d, "%s is not a baretop results file (no \"format\": \"baretop-results\")", name);
		return BT_ERR_INVALID;
	}
	*ret_root = root;
	return BT_OK;
}

bt_status bt_results_load(struct bt_arena *a, const char *path, struct bt_json **ret_root,
			  const char **ret_text, size_t *ret_len, struct bt_diag *d)
{
	char *text;
	size_t len;
	bt_status s = bt_file_read(a, path, &text, &len, d);
	if (s != BT_OK)
		return s;
	if (ret_text)
		*ret_text = text;
	if (ret_len)
		*ret_len = len;
	return bt_results_parse(a, text, len, path, ret_root, d);
}
