/* SPDX-License-Identifier: MIT */
/*
 * What `report` and `diff` share: loading results files into a report
 * page (analysis/page.h) and writing it in the formats asked for.
 */
#ifndef TOOLS_BARETOP_HOST_PAGE_OUT_H
#define TOOLS_BARETOP_HOST_PAGE_OUT_H

#include <stddef.h>
#include <stdio.h>

#include "base/arena.h"
#include "analysis/page.h"
#include "analysis/results-diff.h"
#include "tools/baretop-host/host-args.h"

/* The command line `report` and `diff` share: FILE... [--text [FILE]]
 * [--html [FILE]] [--csv [FILE]] (host-args.h), and with allow_diff also
 * --diff. */
struct bt_page_args {
	const char *text, *html, *csv;  /* the text defaults to "-" when no format is given */
	char **files;                   /* room for max_files, filled in order */
	size_t n_files, max_files;
	int want_diff;
};

/* cmd's options are, in this order: text, html, csv (HOST_OUTPUT) and,
 * for `report`, diff (HOST_FLAG); each command words their help. */
/* Returns 0 when the arguments are good, 1 after printing the help (-h),
 * -1 after a usage error (printed). */
int bt_host_page_args(int argc, char **argv, int allow_diff, struct bt_page_args *o,
		      const struct host_cmd_args *cmd);

/* The views of p's two documents compared node by node (A: docs[0]'s
 * views, B: docs[1]'s) into df, which p then shows. Returns -1 on failure. */
int bt_host_page_diff(struct bt_arena *a, struct bt_page *p, struct bt_diff *df);

/* Loads the results files paths[0..n) and the views of their counted
 * workloads into p. Prints the reason and returns -1 on failure. */
int bt_host_page_load(struct bt_arena *a, char *const *paths, size_t n, struct bt_page *p);

/* Writes p as text, HTML and CSV to the files named (NULL: not that format,
 * "-": standard output), each file whole or not at all (host_write_whole).
 * Returns 0, or -1 after saying (as command cmd) what failed. */
int bt_host_page_write(const char *cmd, const struct bt_page *p, const char *text, const char *html, const char *csv);

#endif
