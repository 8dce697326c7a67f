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
#include "base/diag.h"
#include "base/status.h"

#define BT_DUMP_MAX_NOTES 12

struct bt_dump_decision {
	char cpus[256];              /* "0,1,10-13" */
	struct bt_cpu_info ci;       /* as bt_cpu_detect() found it */
	const char *model;           /* built-in model id, NULL when none */
	unsigned general_counters;   /* general counters baretop uses */
	/* IA32_PERF_CAPABILITIES is not in a CPUID dump: the value assumed. */
	bool perf_cap_assumed;
	uint64_t perf_cap;
	/* Top-Down: where the tree comes from (model id, "ARCH", or NULL with
	 * td_reason), the events level 1 counts (with what its thresholds
	 * need), and the slot facts of the core. */
	const char *td_source;
	char td_reason[600];
	char td_level1[64];          /* "published model", "PERF_METRICS", "architectural events",
				      * or TNT's name, BT_TNT_MODEL_NAME */
	const char *td_slots;        /* ARCH and TNT: where the slots come from, else NULL */
	bool td_bad_spec_derived;    /* ARCH: Bad Speculation derived, not counted */
	uint8_t slots_per_cycle;     /* CPUID.23H.00H:ECX[7:0] */
	struct { const char *name; uint16_t code; uint8_t umask; } td_events[32];
	unsigned n_td_events;
	char notes[BT_DUMP_MAX_NOTES][200];
	unsigned n_notes;
	unsigned notes_dropped;      /* not kept: the last note says how many */
};

void bt_detect_dump_group(const struct bt_cpuid_dump_group *g, struct bt_dump_decision *ret);

/*
 * One CPU of a dump: SPEC = FILE@CPU (plan --backend=perf --cpuid). The
 * decision for its group (ci as bt_cpu_detect() finds it there, the
 * built-in model), its leaf 0AH and the CPU number. Errors name the file
 * (and the dump's line) in d.
 */
bt_status bt_detect_dump_cpu(const char *spec, struct bt_dump_decision *ret, struct bt_cpuid *l0a,
			     unsigned *cpu, struct bt_diag *d);

#endif
