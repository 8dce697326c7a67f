/* SPDX-License-Identifier: MIT */
/*
 * A streaming JSON writer into a bt_strbuf, indented two spaces per level.
 * Keys are given with each value inside objects and are NULL inside arrays:
 *
 *     bt_jw_object(j, NULL);
 *       bt_jw_str(j, "vendor", "GenuineIntel");
 *       bt_jw_array(j, "faults");  bt_jw_u64(j, NULL, 6);  bt_jw_end(j);
 *     bt_jw_end(j);
 *
 * Doubles are written with 17 significant digits (they round-trip);
 * NaN and infinities, which JSON cannot express, become null.
 */
#ifndef BASE_JSON_WRITE_H
#define BASE_JSON_WRITE_H

#include <stdbool.h>
#include <stdint.h>

#include <stdbool.h>

#include "base/strbuf.h"

#define BT_JW_MAX_DEPTH 32

struct bt_jw {
	struct bt_strbuf *out;
	int depth;
	bool first[BT_JW_MAX_DEPTH];
	bool is_array[BT_JW_MAX_DEPTH];
	bool overflow;    /* nesting deeper than BT_JW_MAX_DEPTH: a bug */
};

void bt_jw_init(struct bt_jw *j, struct bt_strbuf *out);
void bt_jw_object(struct bt_jw *j, const char *key);
void bt_jw_array(struct bt_jw *j, const char *key);
void bt_jw_end(struct bt_jw *j);
void bt_jw_str(struct bt_jw *j, const char *key, const char *value); /* NULL -> null */
void bt_jw_i64(struct bt_jw *j, const char *key, int64_t value);
void bt_jw_u64(struct bt_jw *j, const char *key, uint64_t value);
void bt_jw_hex(struct bt_jw *j, const char *key, uint64_t value); /* "0x5e" */
void bt_jw_bool(struct bt_jw *j, const char *key, bool value);
void bt_jw_double(struct bt_jw *j, const char *key, double value);
void bt_jw_null(struct bt_jw *j, const char *key);
/* A value that is already JSON text (another writer's document), inserted
 * as it is, trailing blanks removed. NULL -> null. */
void bt_jw_raw(struct bt_jw *j, const char *key, const char *json);
/* Escapes s as a JSON string body (no quotes) into out. */
void bt_jw_escape(struct bt_strbuf *out, const char *s);

#endif
