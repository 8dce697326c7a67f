/* SPDX-License-Identifier: MIT */
/*
 * Text into HTML: every string that comes from a file (workload names,
 * parameters, model sources, event names, paths) goes into the report page
 * through these, so a name like "<script>" or "a\"b" stays text.
 */
#ifndef ANALYSIS_HTML_ESCAPE_H
#define ANALYSIS_HTML_ESCAPE_H

#include "base/strbuf.h"

/* s as HTML text or attribute value (inside double or single quotes):
 * & < > " ' become character references; control characters other than
 * tab and newline become U+FFFD. NULL writes nothing. */
void bt_html_escape(struct bt_strbuf *sb, const char *s);
/* printf, then the result escaped. */
void bt_html_printf(struct bt_strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
