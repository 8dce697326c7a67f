/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "validate/verdict.h"

const char *bt_verdict_name(enum bt_verdict v)
{
	switch (v) {
	case BT_VERDICT_PASS: return "PASS";
	case BT_VERDICT_WARN: return "WARN";
	case BT_VERDICT_FAIL: return "FAIL";
	case BT_VERDICT_SKIP: return "SKIP";
	}
	return "?";
}

void bt_check_list_init(struct bt_check_list *l)
{
	memset(l, 0, sizeof(*l));
}

bt_status bt_check_list_add(struct bt_check_list *l, const struct bt_check_result *r)
{
	if (l->n == l->cap) {
		int cap = l->cap ? 2 * l->cap : 32;
		struct bt_check_result *v = realloc(l->v, (size_t)cap * sizeof(*v));
		if (!v)
			return BT_ERR_NOMEM;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = *r;
	return BT_OK;
}

void bt_check_list_free(struct bt_check_list *l)
{
	free(l->v);
	bt_check_list_init(l);
}

void bt_check_list_tally(const struct bt_check_list *l, int counts[4])
{
	memset(counts, 0, 4 * sizeof(int));
	for (int i = 0; i < l->n; i++)
		if ((unsigned)l->v[i].verdict < 4)
			counts[l->v[i].verdict]++;
}
