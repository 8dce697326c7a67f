/* SPDX-License-Identifier: MIT */
/*
 * What `report` and `diff` share: loading results files into a report
 * page (report/page.h) and writing it in the formats asked for.
 */
#ifndef TOOLS_BARETOP_HOST_PAGE_OUT_H
#define TOOLS_BARETOP_HOST_PAGE_OUT_H

#include <stddef.h>

#include "base/arena.h"
#include "report/page.h"

/* Loads the results files paths[0..n) and the views of their counted
 * workloads into p. Prints the reason and returns -1 on failure. */
int bt_host_page_load(struct bt_arena *a, char *const *paths, size_t n, struct bt_page *p);

/* Writes p as text, HTML and CSV to the files named (NULL: not that format,
 * "-": standard output). Returns 0, or -1 after saying what failed. */
int bt_host_page_write(const struct bt_page *p, const char *text, const char *html, const char *csv);

#endif
