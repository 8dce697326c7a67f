/* SPDX-License-Identifier: MIT */
/*
 * What a Linux release programs for a core PMU beyond its format files,
 * by release and by stable backport, from arch/x86/events/intel/core.c as
 * each release had it:
 *
 *   - the extra-register table x86_pmu_extra_regs (arch/x86/events/core.c)
 *     looks an event's config1 up in: an entry matches umask << 8 | event
 *     select (INTEL_ARCH_EVENT_MASK); config1 outside its valid_mask is
 *     EINVAL; an event with no entry has its config1 ignored (it counts
 *     without the extra MSR: another event);
 *   - the rows of the model's event constraint table that restrict an
 *     event to fewer counters than Intel's event list says (the planner
 *     takes the list's counters from the model), which validate_group
 *     enforces with EINVAL.
 *
 * The releases known, each with the commit that changed a table:
 *   Meteor Lake P-core   glc's table until a6742cb90b56 ("Fix the
 *                        FRONTEND encoding on GNR and MTL", v6.4) gave it
 *                        0x02c6/0x03c6 (intel_gnr_extra_regs, later
 *                        intel_rwc_extra_regs); MTL support came in 6.3
 *   Lunar/Arrow Lake     intel_rwc_extra_regs (OCR at 0x3fffffffff) from
 *   P-core (Lion Cove)   a932aa0e868f (6.11) until aa5d2ca7c179 ("Fix
 *                        bitmask of OCR and FRONTEND events for LNC", 6.13,
 *                        6.12.8): intel_lnc_extra_regs, OCR 0xfffffffffff;
 *                        intel_lnc_event_constraints with "event codes <
 *                        0x90 on counters 0-3" and 0xce on counter 0 until
 *                        782cffeec9ad ("Fix event constraints for LNC",
 *                        6.14, 6.12.17, 6.13.5)
 *   Arrow Lake H         d3fe6f0a4372 (6.13): cpu_core Lion Cove, cpu_atom
 *                        Skymont, cpu_lowpower Crestmont (hybrid_tiny:
 *                        intel_pmu_init_grt with intel_cmt_extra_regs)
 * When the release's stable level is unknown (a distribution's X.Y.0-N
 * without an upstream version) and a backport decides, both tables apply:
 * an event is planned only as both releases take it.
 */
#ifndef HOST_PERF_KTABLES_H
#define HOST_PERF_KTABLES_H

#include <stdbool.h>
#include <stdint.h>

#include "host/perf-kernel.h"

struct bt_pk_xreg {
	uint16_t event;          /* umask << 8 | event select */
	uint32_t msr;
	uint64_t valid;          /* valid_mask of config1 */
};

struct bt_pk_xtable {
	const char *name;        /* "intel_rwc_extra_regs" */
	const struct bt_pk_xreg *rows;
	int n;
};

enum bt_pk_ckind { BT_PK_C_EVENT, BT_PK_C_UEVENT, BT_PK_C_RANGE };

/* INTEL_EVENT_CONSTRAINT (event select), INTEL_UEVENT_CONSTRAINT (umask
 * << 8 | event select) and INTEL_EVENT_CONSTRAINT_RANGE (event selects
 * code..last); the first row that matches decides, as the kernel walks
 * its table. */
struct bt_pk_crow {
	uint8_t kind;
	uint16_t code, last;
	uint32_t counters;
};

struct bt_pk_ctable {
	const char *name;
	const struct bt_pk_crow *rows;
	int n;
};

struct bt_pk_tables {
	bool known;                           /* a model whose tables are here */
	const struct bt_pk_xtable *xr[2];     /* [1]: the other release's, or NULL */
	const struct bt_pk_ctable *cons[2];
	char why[320];                        /* which release rule chose them */
};

/* The tables of PMU p of kernel k (p's caps/pmu_name and name, k's
 * release). known false: a model not listed here (its format files are
 * all that is checked). */
void bt_pk_tables_for(const struct bt_perf_kernel *k, const struct bt_pk_pmu *p,
		      struct bt_pk_tables *ret);

/* The entry of table t for umask << 8 | event select, or NULL. */
const struct bt_pk_xreg *bt_pk_xreg_find(const struct bt_pk_xtable *t, uint16_t event);

/* The counters row-matching config allows (0xFFFFFFFF: no row). */
uint32_t bt_pk_cons_mask(const struct bt_pk_ctable *t, uint64_t config);

#endif
