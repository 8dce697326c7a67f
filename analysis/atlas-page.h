/* SPDX-License-Identifier: MIT */
/*
 * The event atlas of a results file (its "atlas" section) or of
 * `baretop-host atlas --json` output, read back as untrusted input and
 * written as one self-contained HTML page (the invariant violations first,
 * then every event in a table sortable by any column, with a search box)
 * or as CSV (one row per event). `baretop-host report` uses it for a file
 * that holds an atlas.
 */
#ifndef ANALYSIS_ATLAS_PAGE_H
#define ANALYSIS_ATLAS_PAGE_H

#include <stdbool.h>
#include <stdio.h>

#include "base/diag.h"
#include "base/status.h"

/* Whether the file at path is JSON with an "atlas" object (false when it
 * cannot be read: the caller's own reader reports that). */
bool bt_atlas_page_is_atlas(const char *path);

/* Writes the page (html), the CSV (csv) or the text summary (text) to f.
 * BT_ERR_INVALID with file:line:col when the atlas is malformed. */
enum bt_atlas_page_kind { BT_ATLAS_PAGE_TEXT, BT_ATLAS_PAGE_HTML, BT_ATLAS_PAGE_CSV };
bt_status bt_atlas_page_write(const char *path, enum bt_atlas_page_kind kind, FILE *f,
			      struct bt_diag *d);

/* What changed between two atlases (a: before, b: after), as text: events
 * whose class, slope or matched counts differ, events only one has, and
 * invariants whose state differs. *n_changed gets their number. */
bt_status bt_atlas_page_diff(const char *a, const char *b, FILE *f, int *n_changed,
			     struct bt_diag *d);

#endif
