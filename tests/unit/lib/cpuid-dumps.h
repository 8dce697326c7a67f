/* SPDX-License-Identifier: MIT */
/*
 * The CPUID dumps of real parts in ../shared/reference/cpuid/ (or
 * $BT_SHARED_CPUID), for the tests that check detection and the simulated
 * CPUs against them. Tests skip when the directory is absent.
 */
#ifndef TESTS_UNIT_LIB_CPUID_DUMPS_H
#define TESTS_UNIT_LIB_CPUID_DUMPS_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "arch/cpuid-dump.h"

static inline const char *cpuid_dump_dir(void)
{
	const char *env = getenv("BT_SHARED_CPUID");
	struct stat st;

	if (env && *env)
		return stat(env, &st) == 0 ? env : NULL;
	return stat("../shared/reference/cpuid", &st) == 0 ? "../shared/reference/cpuid" : NULL;
}

/* Reads and parses DIR/NAME.cpuid; false (err says why) on failure. */
static inline bool cpuid_dump_load(const char *dir, const char *name, struct bt_cpuid_dump *ret,
				   struct bt_diag *diag)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s.cpuid", dir, name);
	FILE *f = fopen(path, "rb");
	if (!f) {
		bt_diag_set(diag, "cannot open %.200s", path);
		return false;
	}
	size_t cap = 1 << 20, n = 0;
	char *buf = malloc(cap);
	size_t got;
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			char *nb = realloc(buf, cap *= 2);
			if (!nb) {
				free(buf);
				buf = NULL;
			}
			buf = nb;
		}
	}
	fclose(f);
	if (!buf) {
		bt_diag_set(diag, "out of memory");
		return false;
	}
	bt_status st = bt_cpuid_dump_parse(buf, n, ret, diag);
	free(buf);
	return st == BT_OK;
}

/* The group that lists `cpu`, or NULL. */
static inline const struct bt_cpuid_dump_group *cpuid_dump_group_of(const struct bt_cpuid_dump *d,
								     uint32_t cpu)
{
	for (size_t i = 0; i < d->n_groups; i++)
		for (size_t k = 0; k < d->groups[i].n_cpus; k++)
			if (d->groups[i].cpus[k] == cpu)
				return &d->groups[i];
	return NULL;
}

#endif
