/* SPDX-License-Identifier: MIT */
/*
 * What baretop would decide on a machine, from a CPUID dump of it: per kind
 * of core (one dump group), the detected PMU (with the part-specific
 * corrections of pmu/pmu-caps.c), the built-in model, and notes. Used by
 * `baretop-host detect --cpuid FILE` and by the tests over the reference
 * dumps of real parts.
 */
#ifndef ANALYSIS_DETECT_DUMP_H
#define ANALYSIS_DETECT_DUMP_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/cpu-info.h"
#include "arch/cpuid-dump.h"

#define BT_DUMP_MAX_NOTES 12

struct bt_dump_decision {
	char cpus[256];              /* "0,1,10-13" */
	struct bt_cpu_info ci;       /* as bt_cpu_detect() found it */
	const char *model;           /* built-in model id, NULL when none */
	unsigned general_counters;   /* general counters baretop uses */
	/* IA32_PERF_CAPABILITIES is not in a CPUID dump: the value assumed. */
	bool perf_cap_assumed;
	uint64_t perf_cap;
	char notes[BT_DUMP_MAX_NOTES][200];
	unsigned n_notes;
	unsigned notes_dropped;      /* not kept: the last note says how many */
};

void bt_detect_dump_group(const struct bt_cpuid_dump_group *g, struct bt_dump_decision *ret);

#endif
