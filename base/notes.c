/* SPDX-License-Identifier: MIT */
#include "base/notes.h"

#include <stdio.h>

unsigned bt_notes_vadd(char *notes, size_t width, unsigned cap, unsigned n, unsigned *dropped,
		       const char *fmt, va_list ap)
{
	if (n < cap && width) {
		vsnprintf(notes + (size_t)n * width, width, fmt, ap);
		return n + 1;
	}
	if (cap == 0 || width == 0) {
		++*dropped;
		return n;
	}
	/* Full: the last slot's note joins the ones not kept, once. */
	if (*dropped == 0)
		*dropped = 1;
	++*dropped;
	snprintf(notes + (size_t)(cap - 1) * width, width, "... and %u more notes not kept",
		 *dropped);
	return cap;
}

unsigned bt_notes_add(char *notes, size_t width, unsigned cap, unsigned n, unsigned *dropped,
		      const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	n = bt_notes_vadd(notes, width, cap, n, dropped, fmt, ap);
	va_end(ap);
	return n;
}
