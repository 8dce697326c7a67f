/* SPDX-License-Identifier: MIT */
/*
 * "did you mean": the known name nearest to a misspelled one, for the
 * option parsers (app/options.c, tools/baretop-host/host-args.c) and the
 * name lookups that refuse a word (perf-stat --constant).
 */
#ifndef BASE_SUGGEST_H
#define BASE_SUGGEST_H

#include <stddef.h>

/* Levenshtein distance of a[0..alen) and b[0..blen), compared without
 * case; saturates at 255 (names are short, and anything that far is no
 * suggestion). */
unsigned bt_edit_distance(const char *a, size_t alen, const char *b, size_t blen);

/* Whether `candidate` is near enough to `word` to be suggested: at most
 * one edit for words of up to 4 characters, two for longer ones, or one of
 * them is a prefix of the other (--res for --results-dir). */
int bt_suggest_near(const char *word, size_t wlen, const char *candidate);

#endif
