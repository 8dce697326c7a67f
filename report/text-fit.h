/* SPDX-License-Identifier: MIT */
/*
 * Fitting text to an 80-column console. The console report keeps every line
 * at most BT_CONSOLE_COLS columns: a UEFI text console is 80 columns wide,
 * and writing the 80th column moves the cursor to the next line on some
 * firmware (then CR LF adds an empty line), so 79 is the last column used.
 * Words are wrapped at spaces, never cut: a word longer than a line (a
 * path, a number) gets a line of its own and may overrun it.
 */
#ifndef REPORT_TEXT_FIT_H
#define REPORT_TEXT_FIT_H

#include <stddef.h>
#include <stdio.h>

#define BT_CONSOLE_COLS 79

/* Display columns of UTF-8 text: one per code point (the console's
 * characters, block elements included, are one column wide). */
size_t bt_text_cols(const char *s);
size_t bt_text_cols_n(const char *s, size_t n);

/* Writes `text` wrapped at spaces to `width` columns: the first line starts
 * with `first`, the others with `rest` (usually as many spaces). Ends with
 * a newline. */
void bt_text_wrap(FILE *f, size_t width, const char *first, const char *rest, const char *text);

#endif
