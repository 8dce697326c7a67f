/* SPDX-License-Identifier: MIT */
/*
 * A string literal for JSON, and a CSV field, written straight to a FILE by
 * the host tools (baretop-host plan --json, workloads --json; export
 * --toplev-csv, fleet --csv). baretop's own documents, the tree report and
 * the results file, go through base/json-write.c.
 */
#include <stdio.h>
#include <string.h>

#include "analysis/json-file.h"

void bt_json_put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

void bt_csv_put_field(FILE *f, const char *s, int last)
{
	if (strpbrk(s, ",\"\r\n")) {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	} else {
		fputs(s, f);
	}
	fputc(last ? '\n' : ',', f);
}
