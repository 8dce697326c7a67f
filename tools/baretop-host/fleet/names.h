/* SPDX-License-Identifier: MIT */
/*
 * The dictionary ids an import has seen (store.h: node and event names
 * are stored once and referenced by id): an open-addressing table of
 * "D\x1fkey..." -> id, so a name already stored costs no round trip.
 */
#ifndef TOOLS_BARETOP_HOST_FLEET_NAMES_H
#define TOOLS_BARETOP_HOST_FLEET_NAMES_H

#include <stdint.h>

#include "base/status.h"

struct bt_fleet_name_cache;

/* The cache key of a node's (dict BT_FLEET_DICT_NODE: node, kind, level,
 * parent) or an event's (BT_FLEET_DICT_EVENT: k[0]) name; NULL when out of
 * memory. */
char *bt_fleet_name_key(int dict, const char *const k[4]);

/* The id stored for key, or NULL when the cache has none (*c may be NULL:
 * an empty cache). */
int64_t *bt_fleet_names_find(struct bt_fleet_name_cache *c, const char *key);

/* Sets key's id (the cache made or grown as needed). */
bt_status bt_fleet_names_put(struct bt_fleet_name_cache **c, const char *key, int64_t id);

void bt_fleet_names_free(struct bt_fleet_name_cache *c);

#endif
