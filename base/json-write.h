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
 *
 * A container can be laid out otherwise (bt_jw_object_styled): the tree
 * report (report/tree-json.c) writes one node per line, and is embedded in
 * the results file as the standalone document `baretop-host replay --json`
 * prints, from column 0. One writer serves both, so the styles below say
 * exactly how those bytes look.
 */
#ifndef BASE_JSON_WRITE_H
#define BASE_JSON_WRITE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/strbuf.h"

#define BT_JW_MAX_DEPTH 32

/* Container styles, or-ed; 0 = the default block layout. */
enum {
	/* Members on one line, ", " between them: {"a": 1, "b": [2, 3]}.
	 * Containers inside it are inline too. */
	BT_JW_INLINE = 1u << 0,
	/* Empty: opened and closed on two lines ("{\n  }"), not "{}". */
	BT_JW_BREAK_EMPTY = 1u << 1,
	/* Members indented from column 0, as a document of its own would be,
	 * whatever the depth it is written at; so is everything inside it. */
	BT_JW_DOCUMENT = 1u << 2,
	/* Strings and keys inside: every control character as \u00XX (no
	 * \n, \t short forms). Containers inside it inherit it. */
	BT_JW_ESCAPE_U = 1u << 3,
};

struct bt_jw {
	struct bt_strbuf *out;
	int depth;
	bool first[BT_JW_MAX_DEPTH];
	bool is_array[BT_JW_MAX_DEPTH];
	unsigned char style[BT_JW_MAX_DEPTH];  /* BT_JW_* of the container at each depth */
	unsigned char margin[BT_JW_MAX_DEPTH]; /* depth whose members sit at column 0 + 2 */
	bool overflow;    /* nesting deeper than BT_JW_MAX_DEPTH: a bug */
};

void bt_jw_init(struct bt_jw *j, struct bt_strbuf *out);
void bt_jw_object(struct bt_jw *j, const char *key);
void bt_jw_array(struct bt_jw *j, const char *key);
void bt_jw_object_styled(struct bt_jw *j, const char *key, unsigned style);
void bt_jw_array_styled(struct bt_jw *j, const char *key, unsigned style);
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
