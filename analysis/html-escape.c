/* SPDX-License-Identifier: MIT */
/* Text into HTML: html-escape.h. */
#include <stdarg.h>
#include <stdio.h>

#include "analysis/html-escape.h"

void bt_html_escape(struct bt_strbuf *sb, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		switch (c) {
		case '&': bt_sb_puts(sb, "&amp;"); break;
		case '<': bt_sb_puts(sb, "&lt;"); break;
		case '>': bt_sb_puts(sb, "&gt;"); break;
		case '"': bt_sb_puts(sb, "&quot;"); break;
		case '\'': bt_sb_puts(sb, "&#39;"); break;
		default:
			if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
				bt_sb_puts(sb, "&#xFFFD;");
			else
				bt_sb_putc(sb, (char)c);
		}
	}
}

void bt_html_printf(struct bt_strbuf *sb, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	bt_html_escape(sb, buf);
}
