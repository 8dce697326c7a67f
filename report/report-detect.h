/* SPDX-License-Identifier: MIT */
/* The identification part of the console report and of the results file. */
#ifndef REPORT_REPORT_DETECT_H
#define REPORT_REPORT_DETECT_H

#include <stdio.h>

#include "base/json-write.h"
#include "app/platform.h"
#include "pmu/cpu-info.h"

struct bt_cpu_census {
	uint32_t total, enabled;   /* 0 = unknown */
	uint32_t packages;         /* distinct package numbers seen */
	uint32_t threads_per_core; /* max thread index + 1 seen, 0 = unknown */
	char note[128];            /* why unknown */
};

/* Counts logical CPUs, packages and threads per core through the
 * platform's MP services. */
void bt_cpu_census_take(struct bt_platform *p, struct bt_cpu_census *ret);

/* "2.7", "2.3.1" from a UEFI revision word. */
void bt_uefi_revision_str(uint32_t rev, char *buf, size_t len);

void bt_report_detect_print(FILE *f, const struct bt_platform *p, const struct bt_cpu_info *ci,
			    const struct bt_cpu_census *census);
void bt_report_detect_json(struct bt_jw *j, const struct bt_platform *p,
			   const struct bt_cpu_info *ci, const struct bt_cpu_census *census);

#endif
