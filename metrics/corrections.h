/* SPDX-License-Identifier: MIT */
/*
 * Corrections of vendor-file defects, applied wherever the file is loaded
 * (tools/gen-models for the built-in tables, --model-files at run time).
 *
 * A correction is keyed by the metrics file's name, the node and the exact
 * defective Formula text (its length and 64-bit FNV-1a hash): a file in
 * which Intel fixed the text, or changed it otherwise, is read as it is and
 * never "corrected" twice. Each entry cites both published forms and says
 * why; tests/oracle/forms.py (tests/suite/19-formula-forms.sh) proves every corrected node
 * equal to the second published form (Linux perf's conversion) and
 * `baretop-host models --corrections` lists the table.
 */
#ifndef METRICS_CORRECTIONS_H
#define METRICS_CORRECTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"

enum bt_fix_kind {
	/* "x * ( N * F ) - ( M * F )" -> "x * ( ( N * F ) - ( M * F ) )": a
	 * latency cap of N - M cycles (F = core GHz) written without its
	 * parentheses, so only N * F is multiplied by the count and M * F is
	 * subtracted once from the whole product */
	BT_FIX_CAP_PARENS = 1,
	/* `from` -> `to` at exactly `sites` places of the text (literal, no
	 * pattern): a term the expanded Formula got wrong, written out in the
	 * table so that a reader sees both */
	BT_FIX_REPLACE = 2,
};

struct bt_correction {
	const char *file;      /* vendor metrics file name, without folders */
	const char *node;      /* MetricName */
	size_t len;            /* length of the exact defective Formula text */
	uint64_t fnv1a;        /* its 64-bit FNV-1a hash */
	uint8_t kind;          /* enum bt_fix_kind */
	unsigned sites;        /* places the fix rewrites in that text */
	const char *second;    /* the second published form (file: metric) */
	const char *reason;    /* one line: what is wrong, what was meant */
	const char *from, *to; /* BT_FIX_REPLACE: the defective text and its fix */
};

extern const struct bt_correction bt_corrections[];
extern const unsigned bt_correction_count;

uint64_t bt_fnv1a64(const char *s, size_t n);

/* The correction for this file (a path: its last component is compared),
 * node and exact text, or NULL. */
const struct bt_correction *bt_correction_find(const char *path, const char *node, const char *text);

/* The corrected text in a (NULL: out of memory; or the fix did not rewrite
 * exactly c->sites places, which a hash match makes impossible short of a
 * collision: then the text is left as published and *why says so). */
const char *bt_correction_apply(struct bt_arena *a, const struct bt_correction *c, const char *text,
				const char **why);

/* The model id of the built-in recipe reading c->file, or NULL. */
const char *bt_correction_model(const struct bt_correction *c);

#endif
