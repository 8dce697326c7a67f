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

static void indent(struct bt_jw *j)
{
	bt_sb_putn(j->out, "\n", 1);
	for (int i = 0; i < j->depth; i++)
		bt_sb_putn(j->out, "  ", 2);
}

void bt_jw_escape(struct bt_strbuf *out, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':  bt_sb_puts(out, "\\\""); break;
		case '\\': bt_sb_puts(out, "\\\\"); break;
		case '\n': bt_sb_puts(out, "\\n"); break;
		case '\r': bt_sb_puts(out, "\\r"); break;
		case '\t': bt_sb_puts(out, "\\t"); break;
		default:
			if (*p < 0x20)
				bt_sb_printf(out, "\\u%04x", *p);
			else
				bt_sb_putn(out, (const char *)p, 1);
		}
	}
}

/* Separator, indentation and key before a value. */
static void lead(struct bt_jw *j, const char *key)
{
	if (j->depth > 0) {
		if (!j->first[j->depth])
			bt_sb_putn(j->out, ",", 1);
		indent(j);
	}
	j->first[j->depth] = false;
	if (key && j->depth > 0 && !j->is_array[j->depth]) {
		bt_sb_putn(j->out, "\"", 1);
		bt_jw_escape(j->out, key);
		bt_sb_puts(j->out, "\": ");
	}
}

static void open_container(struct bt_jw *j, const char *key, bool array)
{
	lead(j, key);
	bt_sb_putn(j->out, array ? "[" : "{", 1);
	if (j->depth + 1 >= BT_JW_MAX_DEPTH) {
		j->overflow = true;
		return;
	}
	j->depth++;
	j->first[j->depth] = true;
	j->is_array[j->depth] = array;
}

void bt_jw_object(struct bt_jw *j, const char *key)
{
	open_container(j, key, false);
}

void bt_jw_array(struct bt_jw *j, const char *key)
{
	open_container(j, key, true);
}

void bt_jw_end(struct bt_jw *j)
{
	if (j->depth == 0)
		return;
	bool array = j->is_array[j->depth], empty = j->first[j->depth];
	j->depth--;
	if (!empty)
		indent(j);
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
	bt_sb_putn(j->out, "\"", 1);
	bt_jw_escape(j->out, value);
	bt_sb_putn(j->out, "\"", 1);
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
