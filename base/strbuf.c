/* SPDX-License-Identifier: MIT */
#include "base/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int reserve(struct bt_strbuf *sb, size_t more)
{
	if (sb->oom)
		return -1;
	if (sb->n + more + 1 <= sb->cap)
		return 0;
	size_t cap = sb->cap ? sb->cap : 64;
	while (cap < sb->n + more + 1)
		cap *= 2;
	char *b = realloc(sb->buf, cap);
	if (!b) {
		sb->oom = 1;
		return -1;
	}
	sb->buf = b;
	sb->cap = cap;
	return 0;
}

void bt_sb_putn(struct bt_strbuf *sb, const char *s, size_t n)
{
	if (reserve(sb, n) < 0)
		return;
	memcpy(sb->buf + sb->n, s, n);
	sb->n += n;
	sb->buf[sb->n] = 0;
}

void bt_sb_putc(struct bt_strbuf *sb, char c)
{
	bt_sb_putn(sb, &c, 1);
}

void bt_sb_puts(struct bt_strbuf *sb, const char *s)
{
	bt_sb_putn(sb, s, strlen(s));
}

void bt_sb_printf(struct bt_strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || reserve(sb, (size_t)n) < 0)
		return;
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->n, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->n += (size_t)n;
}

const char *bt_sb_str(const struct bt_strbuf *sb)
{
	return sb->n ? sb->buf : "";
}

void bt_sb_free(struct bt_strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->n = sb->cap = 0;
	sb->oom = 0;
}
