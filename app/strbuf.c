/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/strbuf.h"

void bt_strbuf_init(struct bt_strbuf *sb)
{
	memset(sb, 0, sizeof(*sb));
}

void bt_strbuf_free(struct bt_strbuf *sb)
{
	free(sb->data);
	bt_strbuf_init(sb);
}

static bool reserve(struct bt_strbuf *sb, size_t extra)
{
	if (sb->failed)
		return false;
	if (sb->len + extra + 1 <= sb->cap)
		return true;
	size_t cap = sb->cap ? sb->cap : 256;
	while (cap < sb->len + extra + 1)
		cap *= 2;
	char *p = realloc(sb->data, cap);
	if (!p) {
		sb->failed = true;
		return false;
	}
	sb->data = p;
	sb->cap = cap;
	return true;
}

void bt_strbuf_putn(struct bt_strbuf *sb, const char *s, size_t n)
{
	if (!reserve(sb, n))
		return;
	memcpy(sb->data + sb->len, s, n);
	sb->len += n;
	sb->data[sb->len] = '\0';
}

void bt_strbuf_puts(struct bt_strbuf *sb, const char *s)
{
	bt_strbuf_putn(sb, s, strlen(s));
}

void bt_strbuf_printf(struct bt_strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !reserve(sb, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

const char *bt_strbuf_str(const struct bt_strbuf *sb)
{
	return sb->data ? sb->data : "";
}
