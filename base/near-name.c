/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "base/near-name.h"

/* Names longer than this are compared on their first LONGEST bytes only:
 * the event and node names baretop knows are shorter. */
#define LONGEST 96

static unsigned min3(unsigned a, unsigned b, unsigned c)
{
	unsigned m = a < b ? a : b;
	return m < c ? m : c;
}

/* Optimal string alignment distance (Damerau-Levenshtein with adjacent
 * transpositions), case-insensitive: the case is judged separately. Three
 * rows (the EFI stack is small): two before the current one. */
unsigned bt_edit_distance(const char *a, size_t la, const char *b, size_t lb)
{
	unsigned rows[3][LONGEST + 1];

	if (la > LONGEST || lb > LONGEST)
		return 255;   /* no name is that long: nothing to suggest */
	for (size_t j = 0; j <= lb; j++)
		rows[0][j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		unsigned *cur = rows[i % 3], *up = rows[(i - 1) % 3], *up2 = rows[(i + 1) % 3];
		int ca = tolower((unsigned char)a[i - 1]);

		cur[0] = (unsigned)i;
		for (size_t j = 1; j <= lb; j++) {
			int cb = tolower((unsigned char)b[j - 1]);
			unsigned v = min3(up[j] + 1, cur[j - 1] + 1, up[j - 1] + (ca != cb));

			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && v > up2[j - 2] + 1)
				v = up2[j - 2] + 1;
			cur[j] = v;
		}
	}
	return rows[la % 3][lb];
}

int bt_suggest_near(const char *word, size_t wlen, const char *candidate)
{
	size_t clen = strlen(candidate);
	unsigned limit = wlen <= 4 ? 1 : 2;

	/* a prefix of three or more letters: --res for --results-dir */
	if (wlen >= 3 && wlen < clen && strncmp(candidate, word, wlen) == 0)
		return 1;
	return bt_edit_distance(word, wlen, candidate, clen) <= limit;
}

void bt_near_name_init(struct bt_near_name *n, const char *typed)
{
	n->typed = typed;
	n->best = NULL;
	n->distance = 0;
}

/* An abbreviation: every letter of a typed name at least 3 long appears in
 * order in the candidate, starting with the same letter ("instrs" of
 * "instructions"). */
static bool abbreviates(const char *typed, const char *cand)
{
	if (strlen(typed) < 3 || tolower((unsigned char)*typed) != tolower((unsigned char)*cand))
		return false;
	for (; *cand && *typed; cand++)
		if (tolower((unsigned char)*cand) == tolower((unsigned char)*typed))
			typed++;
	return *typed == '\0';
}

void bt_near_name_offer(struct bt_near_name *n, const char *candidate)
{
	if (!n->typed || !candidate || !*candidate || strcmp(n->typed, candidate) == 0)
		return;
	unsigned dist = bt_edit_distance(n->typed, strlen(n->typed), candidate, strlen(candidate));
	size_t len = strlen(n->typed);
	/* A third of the typed length, at least one and at most four edits. */
	unsigned limit = (unsigned)(len / 3);

	if (limit < 1)
		limit = 1;
	if (limit > 4)
		limit = 4;
	if (dist > limit) {
		/* Ranked after every name within the edit limit. */
		if (!abbreviates(n->typed, candidate))
			return;
		dist = limit + 1 + dist;
	}
	if (!n->best || dist < n->distance) {
		n->best = candidate;
		n->distance = dist;
	}
}

const char *bt_near_name_hint(const struct bt_near_name *n, char *buf, size_t size)
{
	if (!size)
		return buf;
	if (!n->best)
		buf[0] = '\0';
	else if (n->distance == 0)
		snprintf(buf, size, "; did you mean '%s'? (names are case-sensitive)", n->best);
	else
		snprintf(buf, size, "; did you mean '%s'?", n->best);
	return buf;
}
