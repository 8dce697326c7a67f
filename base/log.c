/* SPDX-License-Identifier: MIT */
#include "base/log.h"

#include <stdio.h>

void bt_log_vtext(const char *status_text, int ignoring, const char *fmt, va_list ap)
{
	/* One buffer and one write, so the line is not split between other
	 * output on a console without line buffering. */
	char line[640];
	int n;

	fflush(stdout);
	n = snprintf(line, sizeof(line), "baretop: ");
	n += vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	/* A message cut short still ends with its status. */
	if (n < 0 || n > (int)sizeof(line) - 64)
		n = n < 0 ? 0 : (int)sizeof(line) - 64;
	snprintf(line + n, sizeof(line) - (size_t)n, ": %s%s\n", status_text,
		 ignoring ? ", ignoring" : "");
	fputs(line, stderr);
	fflush(stderr);
}

bt_status bt_log_status(bt_status st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bt_log_vtext(bt_status_str(st), 0, fmt, ap);
	va_end(ap);
	return st;
}

bt_status bt_log_status_ignoring(bt_status st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bt_log_vtext(bt_status_str(st), 1, fmt, ap);
	va_end(ap);
	return st;
}
