/* SPDX-License-Identifier: MIT */
#include "base/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void bt_diag_set(struct bt_diag *d, const char *fmt, ...)
{
	if (!d)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(d->text, sizeof(d->text), fmt, ap);
	va_end(ap);
}

void bt_diag_prefix(struct bt_diag *d, const char *fmt, ...)
{
	if (!d)
		return;
	char prefix[BT_DIAG_MAX], old[BT_DIAG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	memcpy(old, d->text, sizeof(old));
	/* truncation is acceptable for a message; build it piecewise so the
	 * compiler's truncation check has nothing to prove */
	size_t n = strlen(prefix);
	if (n > sizeof(d->text) - 3)
		n = sizeof(d->text) - 3;
	memcpy(d->text, prefix, n);
	d->text[n++] = ':';
	d->text[n++] = ' ';
	size_t m = strlen(old);
	if (m > sizeof(d->text) - 1 - n)
		m = sizeof(d->text) - 1 - n;
	memcpy(d->text + n, old, m);
	d->text[n + m] = 0;
}
