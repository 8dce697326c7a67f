/* SPDX-License-Identifier: MIT */
/*
 * Reading a baretop results file back (host tools: `export`, `fleet`):
 * the JSON reader (base/json-read.h) plus the check that the document is
 * one (an object whose "format" is "baretop-results"). Hosted only
 * (results-load-host.c): the EFI app writes results files, never reads them.
 */
#ifndef REPORT_RESULTS_LOAD_H
#define REPORT_RESULTS_LOAD_H

#include <stddef.h>

#include "base/json-read.h"

/* Parses text[0..len) (named name in messages) and checks it is a results document. */
bt_status bt_results_parse(struct bt_arena *a, const char *text, size_t len, const char *name,
			   struct bt_json **ret_root, struct bt_diag *d);

/* Reads path into the arena and parses it (bt_results_parse). The file's
 * bytes are returned too (ret_text/ret_len may be NULL), for a content hash. */
bt_status bt_results_load(struct bt_arena *a, const char *path, struct bt_json **ret_root,
			  const char **ret_text, size_t *ret_len, struct bt_diag *d);

#endif
