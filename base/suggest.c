/* SPDX-License-Identifier: MIT */
/* The nearest known name: suggest.h. */
#include "base/suggest.h"

#include <ctype.h>
#include <string.h>

#define MAX_NAME 63

unsigned bt_edit_distance(const char *a, size_t alen, const char *b, size_t blen)
{
	unsigned row[MAX_NAME + 2];

	if (alen > MAX_NAME || blen > MAX_NAME)
		return 255;
	/* One row of the Wagner-Fischer table at a time. */
	for (size_t j = 0; j <= blen; j++)
		row[j] = (unsigned)j;
	for (size_t i = 1; i <= alen; i++) {
		unsigned diag = row[0];
		row[0] = (unsigned)i;
		for (size_t j = 1; j <= blen; j++) {
			unsigned up = row[j];
			unsigned same = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]);
			unsigned best = diag + !same;
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[blen] > 255 ? 255 : row[blen];
}

int bt_suggest_near(const char *word, size_t wlen, const char *candidate)
{
	size_t clen = strlen(candidate);
	unsigned limit = wlen <= 4 ? 1 : 2;

	if (wlen >= 3 && wlen < clen && strncmp(candidate, word, wlen) == 0)
		return 1;
	return bt_edit_distance(word, wlen, candidate, clen) <= limit;
}
