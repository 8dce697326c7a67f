/* SPDX-License-Identifier: MIT */
/* A growable string. On allocation failure it stays valid and remembers
 * the failure (bt_strbuf_ok() is false), so writers need not check every
 * append. */
#ifndef APP_STRBUF_H
#define APP_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

struct bt_strbuf {
	char *data;   /* always NUL-terminated once anything was appended */
	size_t len, cap;
	bool failed;
};

void bt_strbuf_init(struct bt_strbuf *sb);
void bt_strbuf_free(struct bt_strbuf *sb);
void bt_strbuf_putn(struct bt_strbuf *sb, const char *s, size_t n);
void bt_strbuf_puts(struct bt_strbuf *sb, const char *s);
void bt_strbuf_printf(struct bt_strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline bool bt_strbuf_ok(const struct bt_strbuf *sb)
{
	return !sb->failed;
}
/* The text, "" for an empty buffer. */
const char *bt_strbuf_str(const struct bt_strbuf *sb);

#endif
