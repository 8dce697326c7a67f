/* SPDX-License-Identifier: MIT */
/*
 * A growable string for building formula text and reports. Allocation
 * failures are sticky: the builder records them in oom and ignores later
 * appends, so callers check once at the end.
 */
#ifndef BASE_STRBUF_H
#define BASE_STRBUF_H

#include <stddef.h>

struct bt_strbuf {
	char *buf;     /* NUL-terminated when n > 0 */
	size_t n, cap;
	int oom;
};

void bt_sb_putc(struct bt_strbuf *sb, char c);
void bt_sb_puts(struct bt_strbuf *sb, const char *s);
void bt_sb_putn(struct bt_strbuf *sb, const char *s, size_t n);
void bt_sb_printf(struct bt_strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The text ("" when empty); stays owned by the builder. */
const char *bt_sb_str(const struct bt_strbuf *sb);
void bt_sb_free(struct bt_strbuf *sb);

#endif
