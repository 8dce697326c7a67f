/* SPDX-License-Identifier: MIT */
/*
 * A fixed array of one-line notes that never loses one silently. Notes are
 * kept in order while there is room; past that, the last slot is given over
 * to a count: "... and 3 more notes not kept", the note it held counted
 * among them. The array stays a plain `char notes[N][W]` plus its count (the
 * results file and the console print it as is); `dropped` is the caller's
 * counter of notes not kept, 0 at start.
 */
#ifndef BASE_NOTES_H
#define BASE_NOTES_H

#include <stdarg.h>

#include "base/array.h"
#include <stddef.h>

/* Adds the note; returns the new count (n, or n + 1). A note cut to the
 * slot's width is kept cut, not dropped. */
unsigned bt_notes_add(char *notes, size_t width, unsigned cap, unsigned n, unsigned *dropped,
		      const char *fmt, ...) __attribute__((format(printf, 6, 7)));
unsigned bt_notes_vadd(char *notes, size_t width, unsigned cap, unsigned n, unsigned *dropped,
		       const char *fmt, va_list ap) __attribute__((format(printf, 6, 0)));

/* The same for an array `char arr[N][W]` with count `n` (int or unsigned)
 * and counter `dropped` (unsigned lvalues). */
#define BT_NOTES_ADD(arr, n, dropped, ...)                                              \
	((n) = bt_notes_add((arr)[0], sizeof((arr)[0]), BT_ARRAY_SIZE(arr), \
			    (unsigned)(n), &(dropped), __VA_ARGS__))
#define BT_NOTES_VADD(arr, n, dropped, fmt, ap)                                          \
	((n) = bt_notes_vadd((arr)[0], sizeof((arr)[0]), BT_ARRAY_SIZE(arr), \
			     (unsigned)(n), &(dropped), fmt, ap))

#endif
