/* SPDX-License-Identifier: MIT */
/*
 * "Did you mean": the known name nearest to one a user typed. Offer every
 * candidate in turn, then ask for the hint. A name that differs only in
 * case is the nearest of all (every event, node and model name in baretop
 * is case-sensitive, so a wrong case is a mistake worth naming); otherwise
 * the Damerau-Levenshtein distance (an adjacent swap costs one), accepted
 * up to about a third of the typed name's length, so "STALS" finds
 * "STALLS" while an unrelated name finds nothing.
 */
#ifndef BASE_NEAR_NAME_H
#define BASE_NEAR_NAME_H

#include <stddef.h>

/* The Damerau-Levenshtein distance of a[0..alen) and b[0..blen) (an
 * adjacent swap costs one), compared without case; 255 for names longer
 * than any baretop knows. */
unsigned bt_edit_distance(const char *a, size_t alen, const char *b, size_t blen);

/* For option and command names (lower case, typed fast): whether
 * `candidate` is near enough to `word` to be suggested: one edit for words
 * of up to 4 characters, two for longer ones, or `word` is a prefix of
 * three or more characters. */
int bt_suggest_near(const char *word, size_t wlen, const char *candidate);

struct bt_near_name {
	const char *typed;
	const char *best;     /* NULL until a candidate is near enough */
	unsigned distance;    /* 0: the same name in another case */
};

void bt_near_name_init(struct bt_near_name *n, const char *typed);
void bt_near_name_offer(struct bt_near_name *n, const char *candidate);
/* "; did you mean 'NAME'?" (or "" with no near name) into buf. */
const char *bt_near_name_hint(const struct bt_near_name *n, char *buf, size_t size);

#endif
