/* SPDX-License-Identifier: MIT */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/json-write.h"

void bt_jw_init(struct bt_jw *j, struct bt_strbuf *out)
{
	*j = (struct bt_jw){ .out = out };
	j->first[0] = true;
}

/* A new line and `levels` steps of two spaces. */
static void indent(struct bt_jw *j, int levels)
{
	bt_sb_putn(j->out, "\n", 1);
	for (int i = 0; i < levels; i++)
		bt_sb_putn(j->out, "  ", 2);
}

/* u_only: control characters as \u00XX only, not as \n \r \t. */
static void escape(struct bt_strbuf *out, const char *s, bool u_only)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		const char *short_form = NULL;

		switch (*p) {
		case '"':  short_form = "\\\""; break;
		case '\\': short_form = "\\\\"; break;
		case '\n': short_form = u_only ? NULL : "\\n"; break;
		case '\r': short_form = u_only ? NULL : "\\r"; break;
		case '\t': short_form = u_only ? NULL : "\\t"; break;
		}
		if (short_form)
			bt_sb_puts(out, short_form);
		else if (*p < 0x20)
			bt_sb_printf(out, "\\u%04x", *p);
		else
			bt_sb_putn(out, (const char *)p, 1);
	}
}

void bt_jw_escape(struct bt_strbuf *out, const char *s)
{
	escape(out, s, false);
}

/* A string literal, escaped as the current container says. */
static void quoted(struct bt_jw *j, const char *s)
{
	bt_sb_putn(j->out, "\"", 1);
	escape(j->out, s, j->style[j->depth] & BT_JW_ESCAPE_U);
	bt_sb_putn(j->out, "\"", 1);
}

/* Separator, indentation and key before a value. */
static void lead(struct bt_jw *j, const char *key)
{
	int d = j->depth;
	bool in_line = j->style[d] & BT_JW_INLINE;

	if (d > 0) {
		if (!j->first[d])
			bt_sb_puts(j->out, in_line ? ", " : ",");
		if (!in_line)
			indent(j, d - j->margin[d]);
	}
	j->first[d] = false;
	if (key && d > 0 && !j->is_array[d]) {
		quoted(j, key);
		bt_sb_puts(j->out, ": ");
	}
}

static void open_container(struct bt_jw *j, const char *key, bool array, unsigned style)
{
	int d = j->depth;

	lead(j, key);
	bt_sb_putn(j->out, array ? "[" : "{", 1);
	if (d + 1 >= BT_JW_MAX_DEPTH) {
		j->overflow = true;
		return;
	}
	j->depth++;
	j->first[d + 1] = true;
	j->is_array[d + 1] = array;
	j->style[d + 1] = (unsigned char)((j->style[d] & (BT_JW_INLINE | BT_JW_ESCAPE_U)) | style);
	j->margin[d + 1] = (unsigned char)(style & BT_JW_DOCUMENT ? d : j->margin[d]);
}

void bt_jw_object(struct bt_jw *j, const char *key)
{
	open_container(j, key, false, 0);
}

void bt_jw_array(struct bt_jw *j, const char *key)
{
	open_container(j, key, true, 0);
}

void bt_jw_object_styled(struct bt_jw *j, const char *key, unsigned style)
{
	open_container(j, key, false, style);
}

void bt_jw_array_styled(struct bt_jw *j, const char *key, unsigned style)
{
	open_container(j, key, true, style);
}

void bt_jw_end(struct bt_jw *j)
{
	int d = j->depth;

	if (d == 0)
		return;
	bool array = j->is_array[d], empty = j->first[d];
	unsigned style = j->style[d];

	j->depth--;
	if (!(style & BT_JW_INLINE) && (!empty || style & BT_JW_BREAK_EMPTY))
		indent(j, j->depth - j->margin[d]);
	bt_sb_putn(j->out, array ? "]" : "}", 1);
	if (j->depth == 0)
		bt_sb_putn(j->out, "\n", 1);
}

void bt_jw_str(struct bt_jw *j, const char *key, const char *value)
{
	lead(j, key);
	if (!value) {
		bt_sb_puts(j->out, "null");
		return;
	}
	quoted(j, value);
}

void bt_jw_i64(struct bt_jw *j, const char *key, int64_t value)
{
	lead(j, key);
	bt_sb_printf(j->out, "%" PRId64, value);
}

void bt_jw_u64(struct bt_jw *j, const char *key, uint64_t value)
{
	lead(j, key);
	bt_sb_printf(j->out, "%" PRIu64, value);
}

void bt_jw_hex(struct bt_jw *j, const char *key, uint64_t value)
{
	lead(j, key);
	bt_sb_printf(j->out, "\"0x%" PRIx64 "\"", value);
}

void bt_jw_bool(struct bt_jw *j, const char *key, bool value)
{
	lead(j, key);
	bt_sb_puts(j->out, value ? "true" : "false");
}

void bt_jw_double(struct bt_jw *j, const char *key, double value)
{
	lead(j, key);
	if (isnan(value) || isinf(value))
		bt_sb_puts(j->out, "null");
	else
		bt_sb_printf(j->out, "%.17g", value);
}

void bt_jw_null(struct bt_jw *j, const char *key)
{
	lead(j, key);
	bt_sb_puts(j->out, "null");
}

void bt_jw_raw(struct bt_jw *j, const char *key, const char *json)
{
	size_t n;

	lead(j, key);
	if (!json) {
		bt_sb_puts(j->out, "null");
		return;
	}
	n = strlen(json);
	while (n && (json[n - 1] == '\n' || json[n - 1] == ' ' || json[n - 1] == '\r'))
		n--;
	bt_sb_putn(j->out, json, n);
}
