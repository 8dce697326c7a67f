/* SPDX-License-Identifier: MIT */
/*
 * The dictionary ids an import has seen: names.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "tools/baretop-host/fleet/names.h"
#include "tools/baretop-host/fleet/store.h"

struct bt_fleet_name_cache {
	char **key;
	int64_t *id;
	size_t cap, n;          /* cap a power of two, n <= cap / 2 */
};

char *bt_fleet_name_key(int dict, const char *const k[4])
{
	size_t len = 8;
	for (int i = 0; i < 4; i++)
		len += (k[i] ? strlen(k[i]) : 0) + 1;
	char *s = malloc(len);
	if (!s)
		return NULL;
	if (dict == BT_FLEET_DICT_EVENT)
		snprintf(s, len, "E\x1f%s", k[0]);
	else
		snprintf(s, len, "N\x1f%s\x1f%s\x1f%s\x1f%s", k[0], k[1], k[2], k[3]);
	return s;
}

static size_t slot_of(const struct bt_fleet_name_cache *c, const char *key)
{
	size_t j = (size_t)bt_fnv1a64_str(key, BT_FNV1A64_INIT) & (c->cap - 1);
	while (c->key[j] && strcmp(c->key[j], key))
		j = (j + 1) & (c->cap - 1);
	return j;
}

int64_t *bt_fleet_names_find(struct bt_fleet_name_cache *c, const char *key)
{
	if (!c || !c->cap)
		return NULL;
	size_t j = slot_of(c, key);
	return c->key[j] ? &c->id[j] : NULL;
}

/* Twice the room (from 1024 slots), every key moved over. */
static bt_status grow(struct bt_fleet_name_cache *c)
{
	struct bt_fleet_name_cache g = { NULL, NULL, c->cap ? 2 * c->cap : 1024, 0 };
	g.key = calloc(g.cap, sizeof(*g.key));
	g.id = calloc(g.cap, sizeof(*g.id));
	if (!g.key || !g.id) {
		free(g.key);
		free(g.id);
		return BT_ERR_NOMEM;
	}
	for (size_t i = 0; i < c->cap; i++)
		if (c->key[i]) {
			size_t j = slot_of(&g, c->key[i]);
			g.key[j] = c->key[i];
			g.id[j] = c->id[i];
			g.n++;
		}
	free(c->key);
	free(c->id);
	*c = g;
	return BT_OK;
}

bt_status bt_fleet_names_put(struct bt_fleet_name_cache **cp, const char *key, int64_t id)
{
	if (!*cp && !(*cp = calloc(1, sizeof(**cp))))
		return BT_ERR_NOMEM;
	struct bt_fleet_name_cache *c = *cp;
	if (2 * (c->n + 1) > c->cap && grow(c) != BT_OK)
		return BT_ERR_NOMEM;
	size_t j = slot_of(c, key);
	if (!c->key[j]) {
		if (!(c->key[j] = strdup(key)))
			return BT_ERR_NOMEM;
		c->n++;
	}
	c->id[j] = id;
	return BT_OK;
}

void bt_fleet_names_free(struct bt_fleet_name_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->cap; i++)
		free(c->key[i]);
	free(c->key);
	free(c->id);
	free(c);
}
