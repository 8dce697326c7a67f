/* SPDX-License-Identifier: MIT */
/*
 * Programming and reading the core PMU, group by group, without
 * multiplexing. The harness calls:
 *
 *     bt_pmu_open(&s, arch, &caps, &opts);      saves GLOBAL_CTRL, stops everything
 *     for each group g of a plan:
 *         bt_pmu_program(&s, plan, g, events);  selectors, fixed control, extra
 *                                               MSRs, counters cleared, status cleared
 *         bt_pmu_run(&s, workload, arg);        one write starts, one write stops
 *         bt_pmu_read(&s, &counts);             counters, PERF_METRICS with SLOTS,
 *                                               TSC, APERF/MPERF, SMI count
 *     bt_pmu_close(&s);                         restores every MSR it touched
 *
 * Every MSR is saved before it is first written. A fault (#GP) in any step
 * marks the session failed with a message naming the access; later steps
 * return BT_ERR_ABORTED, and bt_pmu_close() still restores everything.
 * bt_pmu_program() first checks that every counter the group names exists
 * (caps.gp_mask / fixed_mask) and refuses the plan before touching any MSR:
 * a missing counter is not relied on to fault. When something could not be
 * put back exactly (a restore write failed, GLOBAL_STATUS differs after the
 * restore, a counter value 32-bit writes cannot hold), s.warning says what.
 *
 * GLOBAL_STATUS: on v4+ the overflow bits and CTR_Frz/LBR_Frz left by
 * firmware are cleared for the runs (CTR_Frz stops every counter) and set
 * back through STATUS_SET at close; on v2/v3 (no STATUS_SET) bits set at
 * open are never cleared. Perfmon v6 counters are programmed through the
 * 0x19xx MSR range (pmu/msr.h).
 *
 * Intel: IA32_PERF_GLOBAL_CTRL = 0 first; start and stop are single writes
 * of GLOBAL_CTRL (via arch->run_window). AMD with PerfMonV2: the same with
 * PerfCntrGlobalCtl. AMD legacy / core extension have no global control:
 * the counters are enabled one PerfEvtSel write at a time, the last one by
 * run_window, and disabled likewise, so counter k also counts the other
 * enable/disable WRMSRs (see amd-pmu.c); calibrate with an empty workload.
 */
#ifndef PMU_PMU_SESSION_H
#define PMU_PMU_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "metrics/event.h"
#include "metrics/status.h"
#include "pmu/arch.h"
#include "pmu/cpu-info.h"
#include "pmu/plan.h"

/* TEST ONLY: programming mistakes the tests inject to prove that the
 * simulated PMU catches each of them. All false in real use. */
struct bt_pmu_mutation {
	bool rdpmc_no_fixed_bit;     /* read fixed counter i with ECX = i (bit 30 missing) */
	bool pmc_write_assume_full;  /* IA32_PMCx write assumed stored as is (no sign extension) */
	bool fixed_ctrl_3bit_stride; /* FIXED_CTR_CTRL field i at bit 3i instead of 4i */
	bool enable_before_program;  /* GLOBAL_CTRL start value written before programming */
	bool slots_reset_without_pm; /* FIXED_CTR3 reset, PERF_METRICS left as it was */
	bool amd_drop_event_hi;      /* PerfEvtSel[35:32] (EventSelect[11:8]) left 0 */
	bool no_stop_first;          /* open without writing GLOBAL_CTRL = 0 */
	bool no_restore;             /* close without restoring */
};

struct bt_pmu_session_opts {
	uint64_t counter_start;      /* counters start here (mod 2^width; default 0); with
				      * PERF_METRICS, FIXED_CTR3 always starts at 0 */
	bool use_rdmsr;              /* read counters with RDMSR instead of RDPMC */
	bool read_aperf_mperf;       /* CPUID.06H:ECX[0] */
	bool read_smi_count;         /* Intel MSR_SMI_COUNT exists (Nehalem and later) */
	uint64_t tsc_hz;             /* for duration_time (ns); 0 = not derived */
	const struct bt_pmu_mutation *mutation; /* TEST ONLY */
};

/* What one run of one group measured. */
struct bt_pmu_counts {
	int group;
	uint32_t gp_used;
	uint64_t gp_start[BT_PMU_MAX_GP], gp_end[BT_PMU_MAX_GP], gp_delta[BT_PMU_MAX_GP];
	uint32_t fixed_used;
	uint64_t fixed_start[BT_PMU_MAX_FIXED], fixed_end[BT_PMU_MAX_FIXED],
		fixed_delta[BT_PMU_MAX_FIXED];
	bool has_perf_metrics;
	uint64_t perf_metrics_raw;   /* MSR_PERF_METRICS after the window */
	uint64_t slots;              /* FIXED_CTR3 read together with it */
	uint64_t pm_slots[8];        /* floor(slots * byte / 255) per field */
	uint64_t tsc_delta;
	bool has_aperf_mperf;
	uint64_t aperf_delta, mperf_delta;
	bool has_smi_count;
	uint64_t smi_delta;
	uint64_t duration_ns;        /* from tsc_hz, 0 if unknown */
	int n_events;
	bool measured[BT_PLAN_MAX_EVENTS]; /* counted in this run */
	uint64_t count[BT_PLAN_MAX_EVENTS];
};

#define BT_PMU_MAX_SAVED 64

struct bt_pmu_session {
	struct bt_arch *arch;
	struct bt_pmu_caps caps;
	struct bt_pmu_session_opts opts;
	bool open, failed, programmed, ran;
	int n_saved;
	struct { uint32_t msr; uint64_t value; } saved[BT_PMU_MAX_SAVED];
	uint64_t saved_status;       /* GLOBAL_STATUS at open */
	bool status_saved;
	/* the programmed group */
	const struct bt_plan *plan;
	const struct bt_event *const *events;
	int group;
	uint32_t gp_used, fixed_used;
	bool pm;
	uint64_t evtsel[BT_PMU_MAX_GP];
	uint64_t gp_start[BT_PMU_MAX_GP], fixed_start[BT_PMU_MAX_FIXED];
	uint64_t tsc0, tsc1, aperf0, aperf1, mperf0, mperf1, smi0, smi1;
	bool have_aperf, have_smi;
	char msg[320];               /* what failed */
	char warning[256];           /* restore caveats (e.g. a value 32-bit writes cannot hold) */
};

bt_status bt_pmu_open(struct bt_pmu_session *s, struct bt_arch *arch,
		      const struct bt_pmu_caps *caps, const struct bt_pmu_session_opts *opts);
bt_status bt_pmu_program(struct bt_pmu_session *s, const struct bt_plan *plan, int group,
			 const struct bt_event *const *events);
bt_status bt_pmu_run(struct bt_pmu_session *s, bt_window_fn *fn, void *arg);
bt_status bt_pmu_read(struct bt_pmu_session *s, struct bt_pmu_counts *ret);
/* Restore every saved MSR (GLOBAL_CTRL last). Returns the first failure. */
bt_status bt_pmu_close(struct bt_pmu_session *s);
/* The message of the first failure, or "". */
const char *bt_pmu_error(const struct bt_pmu_session *s);

/* Convenience: program, run and read one group. */
bt_status bt_pmu_measure_group(struct bt_pmu_session *s, const struct bt_plan *plan, int group,
			       const struct bt_event *const *events, bt_window_fn *fn, void *arg,
			       struct bt_pmu_counts *ret);

/* floor(slots * field / 255): a PERF_METRICS byte as a slot count (the
 * convention of perf's topdown-* events, the metric core and the test
 * vectors, FORMAT.md). */
uint64_t bt_perf_metrics_slots(uint64_t slots, uint8_t field);

#endif
