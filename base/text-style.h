/* SPDX-License-Identifier: MIT */
/*
 * Text styles for console output: what the portable formatters (report/)
 * ask for, and what a console (efi/: SetAttribute; host/: ANSI SGR escapes
 * on a terminal) turns into attributes. In base/ so that report/, app/ and
 * the platforms all name the same styles without depending on each other.
 */
#ifndef BASE_TEXT_STYLE_H
#define BASE_TEXT_STYLE_H

#include <stdbool.h>
#include <stdio.h>

enum bt_text_style {
	BT_STYLE_NORMAL,    /* the console's own attribute */
	BT_STYLE_HEADING,   /* column headings: bright white */
	BT_STYLE_FLAGGED,   /* a node over its vendor threshold: yellow */
	BT_STYLE_PATH,      /* a node on the bottleneck path: light red */
	BT_STYLE_PROGRESS,  /* the progress status line: cyan */
};

/*
 * A console's styling. set(ctx, f, s) switches the attribute of the text
 * written to f from now on; an implementation that calls the firmware
 * flushes f first, so text already buffered keeps the style it had.
 * set NULL: plain text, no attributes. blocks: the console can show the
 * block elements U+2588 FULL BLOCK and U+2591 LIGHT SHADE (UEFI:
 * SIMPLE_TEXT_OUTPUT.TestString accepted them); otherwise bars are drawn
 * with '#' and '.'.
 */
struct bt_text_styler {
	void (*set)(void *ctx, FILE *f, enum bt_text_style s);
	void *ctx;
	bool blocks;
};

/* Switches to s when a styler is given (NULL or no set(): nothing). */
static inline void bt_text_style_set(const struct bt_text_styler *t, FILE *f,
				     enum bt_text_style s)
{
	if (t && t->set)
		t->set(t->ctx, f, s);
}

#endif
