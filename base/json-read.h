/* SPDX-License-Identifier: MIT */
/*
 * A small strict JSON reader (RFC 8259) for the vendor files and the count
 * files. It builds a tree in an arena and reports the first error as
 * "file:line:column: message". Depth is limited (BT_JSON_MAX_DEPTH) so a
 * hostile file cannot exhaust the stack.
 */
#ifndef BASE_JSON_READ_H
#define BASE_JSON_READ_H

#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/status.h"

#define BT_JSON_MAX_DEPTH 64 /* vendor and count files nest 4 deep */

enum bt_json_type {
	BT_JSON_NULL,
	BT_JSON_FALSE,
	BT_JSON_TRUE,
	BT_JSON_NUMBER,
	BT_JSON_STRING,
	BT_JSON_ARRAY,
	BT_JSON_OBJECT,
};

struct bt_json {
	uint8_t type;            /* enum bt_json_type */
	uint32_t line, col;      /* where the value starts (1-based) */
	union {
		struct {
			double value;
			const char *text;   /* the number exactly as written */
		} num;
		struct {
			const char *s;      /* NUL-terminated (may also contain NULs) */
			size_t len;
		} str;
		struct {
			size_t n;
			struct bt_json **items;
		} arr;
		struct {
			size_t n;
			const char **keys;
			struct bt_json **values;
		} obj;
	} u;
};

/* Parses text[0..len) (need not be NUL-terminated). file names the source in messages. */
bt_status bt_json_parse(struct bt_arena *a, const char *text, size_t len, const char *file,
			struct bt_json **ret_root, struct bt_diag *d);

/* Reads a whole file with stdio (works hosted and in the EFI app) into the arena.
 * The buffer is NUL-terminated; *ret_len excludes the NUL. */
bt_status bt_file_read(struct bt_arena *a, const char *path, char **ret_text, size_t *ret_len,
		       struct bt_diag *d);
/* bt_file_read + bt_json_parse. */
bt_status bt_json_load_file(struct bt_arena *a, const char *path, struct bt_json **ret_root,
			    struct bt_diag *d);

/* Member of an object by key (first match), or NULL (also when v is not an object). */
const struct bt_json *bt_json_get(const struct bt_json *v, const char *key);
/* The string value, or NULL if v is NULL or not a string. */
const char *bt_json_str(const struct bt_json *v);
/* String member of an object, or NULL. */
const char *bt_json_get_str(const struct bt_json *obj, const char *key);

/*
 * The one way a reader takes a number out of a document it did not write
 * (results, count, spec and config files): the member `key` of obj, checked
 * against [min, max] and, with `integer`, for having no fraction, before any
 * C conversion. A number outside a C type's range converted to it is
 * undefined behaviour (C11 6.3.1.4), so callers convert only what passed.
 *
 * Absent or null: *ret = dflt and BT_OK (the caller decides whether absent
 * is allowed, e.g. by giving a dflt outside [min, max] and checking).
 * Not a number, out of range or not whole: BT_ERR_INVALID and
 * "line L column C: "key" is X: a whole number from MIN to MAX expected" in
 * d (the caller prefixes its file name). obj may be NULL (then absent).
 */
/* What bt_json_num_in judges, for readers with messages of their own
 * (validate/spec.c): v must be a number in [min, max], whole if asked. */
enum bt_json_num_check { BT_JSON_NUM_OK, BT_JSON_NUM_NOT_NUMBER, BT_JSON_NUM_OUT_OF_RANGE, BT_JSON_NUM_NOT_WHOLE };
enum bt_json_num_check bt_json_num_check(const struct bt_json *v, double min, double max, int integer);
bt_status bt_json_num_in(const struct bt_json *obj, const char *key, double min, double max,
			 int integer, double dflt, double *ret, struct bt_diag *d);
/* The same for a value already taken out of its object (array items);
 * `what` names it in the message. v may be NULL (then absent). */
bt_status bt_json_value_in(const struct bt_json *v, const char *what, double min, double max,
			   int integer, double dflt, double *ret, struct bt_diag *d);

#endif
