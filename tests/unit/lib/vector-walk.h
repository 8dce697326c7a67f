/* SPDX-License-Identifier: MIT */
/* Test helper (header only): the case files under a directory, and where the
 * shared vectors and the vendor reference are. */
#ifndef TESTS_UNIT_LIB_VECTOR_WALK_H
#define TESTS_UNIT_LIB_VECTOR_WALK_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/unit/lib/test.h"

#define BT_UNUSED __attribute__((unused))

static int bt_cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Calls fn(path, ctx) for each *.json file below dir (recursively, sorted).
 * Returns the number of files, or -1 if dir cannot be read. */
static BT_UNUSED int bt_walk_json(const char *dir, void (*fn)(const char *path, void *ctx), void *ctx)
{
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			char **nn = realloc(names, cap * sizeof(*names));
			if (!nn)
				break;
			names = nn;
		}
		names[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), bt_cmp_str);
	int count = 0;
	for (size_t i = 0; i < n; i++) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		struct stat st;
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			int k = bt_walk_json(path, fn, ctx);
			if (k > 0)
				count += k;
		} else if (strlen(names[i]) > 5 && !strcmp(names[i] + strlen(names[i]) - 5, ".json")) {
			fn(path, ctx);
			count++;
		}
		free(names[i]);
	}
	free(names);
	return count;
}

/* ../shared/testdata/tma, or the subset tests/data/tma (*subset = 1). */
static BT_UNUSED const char *bt_vector_dir(int *subset)
{
	static char path[4096];
	const char *shared = bt_test_shared_dir();
	struct stat st;
	if (shared) {
		snprintf(path, sizeof(path), "%s/tma", shared);
		if (stat(path, &st) == 0) {
			*subset = 0;
			return path;
		}
	}
	*subset = 1;
	return "tests/data/tma";
}

/* ../shared/reference, or NULL when absent */
static BT_UNUSED const char *bt_reference_dir(void)
{
	static char path[4096];
	const char *shared = bt_test_shared_dir();
	struct stat st;
	if (!shared)
		return NULL;
	snprintf(path, sizeof(path), "%s/../reference", shared);
	return stat(path, &st) == 0 ? path : NULL;
}

#endif
