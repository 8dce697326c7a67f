/* SPDX-License-Identifier: MIT */
/* Fitting text to the console's columns (text-fit.h). */
#include <string.h>

#include "report/text-fit.h"

size_t bt_text_cols_n(const char *s, size_t n)
{
	size_t cols = 0;

	/* UTF-8 continuation bytes (10xxxxxx) do not start a character. */
	for (size_t i = 0; i < n && s[i]; i++)
		cols += ((unsigned char)s[i] & 0xc0) != 0x80;
	return cols;
}

size_t bt_text_cols(const char *s)
{
	return bt_text_cols_n(s, strlen(s));
}

void bt_text_wrap(FILE *f, size_t width, const char *first, const char *rest, const char *text)
{
	const char *prefix = first, *p = text;
	size_t col = 0;
	int line_has_word = 0;

	fputs(prefix, f);
	col = bt_text_cols(prefix);
	while (*p) {
		size_t sp = strspn(p, " ");
		const char *w = p + sp;
		size_t wlen = strcspn(w, " ");

		if (!wlen)
			break;
		size_t wcols = bt_text_cols_n(w, wlen);
		if (line_has_word && col + 1 + wcols > width) {
			fputc('\n', f);
			fputs(rest, f);
			col = bt_text_cols(rest);
			line_has_word = 0;
		}
		if (line_has_word) {
			fputc(' ', f);
			col++;
		}
		fwrite(w, 1, wlen, f);
		col += wcols;
		line_has_word = 1;
		p = w + wlen;
	}
	fputc('\n', f);
}
