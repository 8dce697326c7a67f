/* SPDX-License-Identifier: MIT */
/*
 * Writers of one JSON string literal or one CSV field straight to a FILE,
 * for the host tools' outputs (plan --json, workloads --json, export
 * --toplev-csv, fleet --csv). baretop's own documents go through
 * base/json-write.c.
 */
#ifndef ANALYSIS_JSON_FILE_H
#define ANALYSIS_JSON_FILE_H

#include <stdio.h>

/* A JSON string literal with escapes. */
void bt_json_put_string(FILE *f, const char *s);
/* One CSV field, quoted when it holds a separator, a quote or a line break
 * (RFC 4180), then ',' or, when last, '\n'. */
void bt_csv_put_field(FILE *f, const char *s, int last);

#endif
