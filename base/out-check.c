/* SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "base/out-check.h"
#include "base/array.h"

/* Markers in a file's first bytes: the kinds of file whose loss a later
 * command must not cause. Results files, atlases and specs carry their
 * "format"; count files (metrics/counts-file.h) hold "counts"; vendor
 * event lists "EventCode" and metrics files "MetricExpr" (Intel perfmon,
 * Linux perf JSON); replayed counts their banner (analysis/). */
static const struct {
	const char *marker, *kind;
} kinds[] = {
	{ "\"baretop-results\"", "a baretop results file" },
	{ "replayed counts from", "a file of replayed counts" },
	{ "\"baretop-atlas\"", "an event atlas" },
	{ "\"baretop-validate-spec\"", "a validation spec" },
	{ "\"counts\"", "a count file" },
	{ "\"EventCode\"", "an event list" },
	{ "\"MetricExpr\"", "a model's metrics file" },
};

static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	if (!strcmp(a, b))
		return true;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_ino != 0 &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

bt_status bt_output_check(const char *path, const char *const *inputs, struct bt_diag *d)
{
	struct stat st;
	char head[4096];

	if (!strcmp(path, "-"))
		return BT_OK;
	if (!path[0]) {
		bt_diag_set(d, "an empty output name");
		return BT_ERR_INVALID;
	}
	for (size_t i = 0; inputs && inputs[i]; i++)
		if (same_file(path, inputs[i])) {
			bt_diag_set(d, "will not write over %s: this command also reads it (or writes it twice)", path);
			return BT_ERR_INVALID;
		}
	if (stat(path, &st) != 0)
		return BT_OK; /* a new file: its folder is the writer's to check */
	if (S_ISDIR(st.st_mode)) {
		bt_diag_set(d, "will not write over %s: it is a folder", path);
		return BT_ERR_INVALID;
	}
	if (!S_ISREG(st.st_mode))
		return BT_OK; /* a pipe or a terminal: nothing kept is lost */
	FILE *f = fopen(path, "rb");
	if (!f)
		return BT_OK; /* the write will say why it cannot */
	size_t n = fread(head, 1, sizeof(head) - 1, f);
	fclose(f);
	head[n] = '\0';
	for (size_t k = 0; k < BT_ARRAY_SIZE(kinds); k++)
		if (strstr(head, kinds[k].marker)) {
			bt_diag_set(d, "will not write over %s: it is %s", path, kinds[k].kind);
			return BT_ERR_INVALID;
		}
	return BT_OK;
}
