/* SPDX-License-Identifier: MIT */
/*
 * A streaming JSON writer into a bt_strbuf, indented two spaces per level.
 * Keys are given with each value inside objects and are NULL inside arrays:
 *
 *     bt_json_object(j, NULL);
 *       bt_json_str(j, "vendor", "GenuineIntel");
 *       bt_json_array(j, "faults");  bt_json_u64(j, NULL, 6);  bt_json_end(j);
 *     bt_json_end(j);
 *
 * Doubles are written with 17 significant digits (they round-trip);
 * NaN and infinities, which JSON cannot express, become null.
 */
#ifndef APP_JSON_OUT_H
#define APP_JSON_OUT_H

#include <stdbool.h>
#include <stdint.h>

#include "app/strbuf.h"

#define BT_JSON_MAX_DEPTH 32

struct bt_json {
	struct bt_strbuf *out;
	int depth;
	bool first[BT_JSON_MAX_DEPTH];
	bool is_array[BT_JSON_MAX_DEPTH];
	bool overflow;    /* nesting deeper than BT_JSON_MAX_DEPTH: a bug */
};

void bt_json_init(struct bt_json *j, struct bt_strbuf *out);
void bt_json_object(struct bt_json *j, const char *key);
void bt_json_array(struct bt_json *j, const char *key);
void bt_json_end(struct bt_json *j);
void bt_json_str(struct bt_json *j, const char *key, const char *value); /* NULL -> null */
void bt_json_i64(struct bt_json *j, const char *key, int64_t value);
void bt_json_u64(struct bt_json *j, const char *key, uint64_t value);
void bt_json_hex(struct bt_json *j, const char *key, uint64_t value); /* "0x5e" */
void bt_json_bool(struct bt_json *j, const char *key, bool value);
void bt_json_double(struct bt_json *j, const char *key, double value);
void bt_json_null(struct bt_json *j, const char *key);
/* Escapes s as a JSON string body (no quotes) into out. */
void bt_json_escape(struct bt_strbuf *out, const char *s);

#endif
