/* SPDX-License-Identifier: MIT */
/*
 * The fault-guard self-test: instructions that fault on purpose, each
 * executed through the guard, each reported with what it raised. baretop
 * must come back from every one of them and finish its run.
 */
#ifndef APP_FAULT_SELFTEST_H
#define APP_FAULT_SELFTEST_H

#include "base/json-write.h"
#include "app/platform.h"
#include "pmu/cpu-info.h"

#define BT_FAULT_PROBES 3

struct bt_fault_probe {
	const char *what;        /* "RDPMC ECX=0" */
	bool ran;
	bool faulted;
	uint8_t vector;
	uint64_t value;          /* when it did not fault */
	char note[160];
};

struct bt_fault_selftest {
	struct bt_fault_probe probe[BT_FAULT_PROBES];
	int n;
};

void bt_fault_selftest_run(struct bt_platform *p, const struct bt_cpu_info *ci,
			   struct bt_fault_selftest *ret);
void bt_fault_selftest_print(FILE *f, const struct bt_fault_selftest *t);
void bt_fault_selftest_json(struct bt_jw *j, const char *key, const struct bt_fault_selftest *t);

#endif
