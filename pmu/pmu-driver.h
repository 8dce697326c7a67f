/* SPDX-License-Identifier: MIT */
/*
 * One PMU driver per register interface, behind one ops table (as Linux
 * perf's struct x86_pmu): the session (pmu-session.c) does what every PMU
 * shares - argument and counter checks, per-run TSC/APERF/MPERF/SMI,
 * turning counter values into per-event counts - and calls the driver for
 * the vendor's registers. The driver is chosen once, at bt_pmu_open, from
 * caps.kind (bt_pmu_driver_for, pmu-drivers.c).
 *
 * A driver programs only through pmu-regs.h (save-before-touch MSR access,
 * failure messages, the counting window) and reads and writes the session's
 * per-group state (s->plan, s->group, s->gp_used, s->fixed_used, s->pm,
 * s->evtsel, s->gp_start, s->fixed_start, s->saved_status). Adding a
 * vendor or a PMU version with its own registers: see pmu/README.md.
 */
#ifndef PMU_PMU_DRIVER_H
#define PMU_PMU_DRIVER_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/pmu-session.h"

struct bt_pmu_driver {
	const char *name;
	/* The caps.kind values (enum bt_pmu_kind) this driver serves: bit k
	 * for kind k. */
	uint32_t kinds;
	/* Facts the session needs about the vendor. */
	bool fixed_counters;   /* fixed counters, carried by every group (plan.fixed_mask) */
	bool smi_count;        /* MSR_SMI_COUNT exists (read per run when asked) */
	/* Stop every counter (saving what it touches) and set up the session
	 * for counting; the session is already marked open. */
	bt_status (*open)(struct bt_pmu_session *s);
	/* Program group s->group of s->plan: selectors, fixed control, extra
	 * MSRs, start values, overflow status. The session has checked every
	 * counter the group names exists and set gp_used / fixed_used / pm. */
	bt_status (*program)(struct bt_pmu_session *s);
	/* The counting window around fn(arg), through bt_pmu_window. */
	bt_status (*run)(struct bt_pmu_session *s, bt_window_fn *fn, void *arg);
	/* Counter values after the window: gp_* and fixed_* (start, end,
	 * delta), PERF_METRICS. */
	bt_status (*read)(struct bt_pmu_session *s, struct bt_pmu_counts *c);
	/* Put back every saved register, the global control last. Returns the
	 * first failure. */
	bt_status (*restore)(struct bt_pmu_session *s);
};

extern const struct bt_pmu_driver bt_pmu_intel_driver; /* intel-pmu.c */
extern const struct bt_pmu_driver bt_pmu_amd_driver;   /* amd-pmu.c */

/* The driver for caps->kind, or NULL (BT_PMU_NONE, or a kind no driver
 * serves). */
const struct bt_pmu_driver *bt_pmu_driver_for(const struct bt_pmu_caps *caps);

#endif
