/* SPDX-License-Identifier: MIT */
/*
 * The fault-guard self-test: instructions that fault on purpose, each
 * executed through the guard, each reported with what it raised. baretop
 * must come back from every one of them and finish its run.
 */
#ifndef APP_FAULT_SELFTEST_H
#define APP_FAULT_SELFTEST_H

#include "app/platform.h"
#include "pmu/cpu-info.h"
#include "report/results.h"     /* struct bt_fault_selftest: what the report takes */

void bt_fault_selftest_run(struct bt_platform *p, const struct bt_cpu_info *ci,
			   struct bt_fault_selftest *ret);

#endif
