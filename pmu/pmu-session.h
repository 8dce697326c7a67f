/* SPDX-License-Identifier: MIT */
/*
 * Programming and reading the core PMU, group by group, without
 * multiplexing. The harness calls:
 *
 *     bt_pmu_open(&s, arch, &caps, &opts);      saves GLOBAL_CTRL, stops everything,
 *                                               freezes counting in SMM, probes
 *                                               MSR_SMI_COUNT
 *     for each group g of a plan:
 *         bt_pmu_program(&s, plan, g, events);  SMI count, selectors, fixed control,
 *                                               extra MSRs, counters cleared, status
 *                                               cleared
 *         bt_pmu_run(&s, workload, arg);        TSC, one write starts, one write
 *                                               stops, TSC (APERF/MPERF/SMI outside)
 *         bt_pmu_read(&s, &counts);             counters, PERF_METRICS with SLOTS,
 *                                               TSC, APERF/MPERF, SMI counts (in the
 *                                               window, and in the rest of the run)
 *     bt_pmu_close(&s);                         restores every MSR it touched
 *
 * Every MSR is saved before it is first written. A fault (#GP) in any step
 * marks the session failed with a message naming the access; later steps
 * return BT_ERR_ABORTED, and bt_pmu_close() still restores everything.
 * bt_pmu_program() first checks that every counter the group names exists
 * (caps.gp_mask / fixed_mask) and refuses the plan before touching any MSR:
 * a missing counter is not relied on to fault. When something could not be
 * put back exactly (a restore write failed, GLOBAL_STATUS differs after the
 * restore, a counter value 32-bit writes cannot hold), or an optional
 * facility could not be used (MSR_SMI_COUNT unreadable, FREEZE_WHILE_SMM
 * refused), bt_pmu_session_warnings() says what ("; "-separated when
 * several).
 *
 * SMM (Intel): when IA32_PERF_CAPABILITIES[12] says IA32_DEBUGCTL bit 14
 * FREEZE_WHILE_SMM exists, open sets it (read-modify-write; DEBUGCTL is
 * saved and put back at close like every other MSR), so an SMI landing in
 * a window does not add the SMI handler's work to the counts (SDM vol. 3B
 * "Filtering of SMM Handler Overhead"); bt_pmu_session_smm_frozen() and
 * counts.smm_frozen say so. opts.count_in_smm leaves DEBUGCTL alone. If the
 * bit is refused (#GP: a VMM that advertises it without emulating it), the
 * session goes on without it and says so in its warnings. The TSC still
 * runs during SMM: counts.tsc_delta includes an SMI's time even when the
 * counters froze.
 *
 * MSR_SMI_COUNT is not architectural (VMMs often lack it): with
 * opts.read_smi_count, open reads it once; if that faults, SMI counts are
 * dropped for the session (s.smi_count_unreadable, counts.has_smi_count
 * false) with a warning, instead of every window aborting.
 *
 * An SMI can also land outside the window, between the programming and the
 * start write or between the stop write and the reads. With the freeze,
 * RSM then sets the enable bits of IA32_PERF_GLOBAL_CTRL to 1 (SDM vol. 3B
 * "Filtering of SMM Handler Overhead" and the IA32_DEBUGCTL flag list, read
 * literally: whatever they were before), and every armed selector counts
 * the session's own instructions until GLOBAL_CTRL is written again. So:
 *   - with opts.read_smi_count, MSR_SMI_COUNT is also read before the first
 *     programming write and after the last counter read: counts.smi_outside
 *     says how many SMIs the run had outside its window but inside that
 *     span (pmu/measure.c repeats such a run);
 *   - the window's own SMI count (read around the TSC pair) cannot tell an
 *     SMI just after the stop write from one in the window: with the freeze
 *     the driver reads GLOBAL_CTRL after the counters, and finding it
 *     nonzero (counts.smm_restarted) stops the counters again;
 *   - an SMI after that, or between runs, is seen at the next program step
 *     (MSR_SMI_COUNT moved since the read right after the last window, or
 *     since open), which then writes GLOBAL_CTRL = 0 before touching a
 *     counter.
 * What remains unseen: an SMI between the last MSR_SMI_COUNT read before the
 * window and the start write (an RDTSC apart) is taken as one in the
 * window, and the few instructions between its RSM and the start write are
 * counted; without MSR_SMI_COUNT only the GLOBAL_CTRL check is left.
 *
 * The per-run TSC brackets the window as tightly as the session can: its
 * last read before the window and its first read after, with only the start
 * and stop writes between them and the window; APERF/MPERF/SMI_COUNT are
 * read outside that pair, so their window contains the TSC's.
 *
 * GLOBAL_STATUS: on v4+ the overflow bits and CTR_Frz/LBR_Frz left by
 * firmware are cleared for the runs (CTR_Frz stops every counter) and set
 * back through STATUS_SET at close; on v2/v3 (no STATUS_SET) bits set at
 * open are never cleared. Perfmon v6 counters are programmed through the
 * 0x19xx MSR range (pmu/msr.h).
 *
 * The vendor's registers are programmed by a driver chosen at open from
 * caps.kind (pmu-driver.h; intel-pmu.c, amd-pmu.c). Outside pmu/, read a
 * session only through the functions below, never its fields.
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

#include "base/event.h"
#include "base/status.h"
#include "arch/arch.h"
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
	bool read_smi_count;         /* read Intel MSR_SMI_COUNT per run (probed at open) */
	bool count_in_smm;           /* do not set IA32_DEBUGCTL.FREEZE_WHILE_SMM */
	uint64_t tsc_hz;             /* for duration_time (ns); 0 = not derived */
	/* The driver instead of the one for caps.kind: an operating system's
	 * (hosted, Linux perf_event: host/perf-pmu.c), never baretop's own
	 * registers. NULL: chosen from caps.kind (pmu-drivers.c). */
	const struct bt_pmu_driver *driver;
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
	/* Retired instructions of the window: Intel fixed counter 0 where the
	 * plan carries it, AMD 0xC0 on the plan's reserved general counter
	 * (plan.h inst_gp). What pmu/measure.c judges a run by. */
	bool has_inst;
	uint64_t inst_delta;
	/* SMIs in the window: Intel MSR_SMI_COUNT (read around the window),
	 * AMD PMCx02B "SMIs received" on the plan's reserved counter (plan.h
	 * smi_gp; it counts only while enabled, so AMD has no smi_outside). */
	bool has_smi_count;
	uint64_t smi_delta;
	/* SMIs in the rest of the run: between MSR_SMI_COUNT read before the
	 * first programming write and read after the last counter read, outside
	 * the window (with has_smi_count). With FREEZE_WHILE_SMM, RSM sets the
	 * GLOBAL_CTRL enables there and the armed counters count the driver. */
	uint64_t smi_outside;
	/* The SMT sibling probe (plan.h sibling_gp): ONE_THREAD_ACTIVE of the
	 * window, and REF_XCLK where the plan reserves a counter for it (no
	 * fixed counter 2), raw (the calibration's few reference clocks are
	 * not subtracted: only their ratio is used). */
	bool has_sibling, has_xclk;
	uint64_t one_thread_active, ref_xclk;
	/* IA32_PERF_GLOBAL_CTRL read nonzero after the counter reads (Intel,
	 * with FREEZE_WHILE_SMM): an SMI after the stop write set its enables
	 * at RSM and the counters counted the reads. The session stopped them
	 * again. Such an SMI may be in smi_delta: it came before smi1's read. */
	bool smm_restarted;
	/* IA32_DEBUGCTL.FREEZE_WHILE_SMM was set for this run: counters did
	 * not count while an SMI handler ran (the TSC did). */
	bool smm_frozen;
	uint64_t duration_ns;        /* from tsc_hz, 0 if unknown */
	int n_events;
	bool measured[BT_PLAN_MAX_EVENTS]; /* counted in this run */
	uint64_t count[BT_PLAN_MAX_EVENTS];
};

/* One run's SMIs as its bracket (above) saw them: the session's runs have
 * them in struct bt_pmu_counts (bt_pmu_smi_of), the conformance checks'
 * raw runs from bt_pmu_raw_smi_end (pmu-raw.h). */
struct bt_pmu_smi {
	bool has_count;              /* an SMI count was read (MSR_SMI_COUNT, AMD PMCx02B) */
	uint64_t in_window;          /* SMIs in the window */
	uint64_t outside;            /* SMIs in the run outside the window */
	bool restarted;              /* GLOBAL_CTRL found set after the reads (counts.smm_restarted) */
	bool frozen;                 /* FREEZE_WHILE_SMM held the counters in SMM */
};

/* What the SMIs did to a run: one rule for pmu/measure.c and the
 * conformance checks (validate/conformance-measure.c). */
enum bt_smi_verdict {
	BT_SMI_NONE = 0,             /* none seen */
	BT_SMI_OUTSIDE,              /* between programming and reading, outside the
				      * window, or GLOBAL_CTRL restarted by RSM: the armed
				      * counters counted the driver; always repeat */
	BT_SMI_COUNTED,              /* in the window, counters not frozen: every counter
				      * counted the handler; always repeat */
	BT_SMI_FROZEN,               /* in the window, counters frozen: counts are the
				      * body's, the TSC is not (it runs through SMM) and RSM
				      * set the GLOBAL_CTRL enables; an instruction count
				      * that agrees keeps the run (measure.c), nothing else */
};
enum bt_smi_verdict bt_pmu_smi_verdict(const struct bt_pmu_smi *smi);
/* The run's retried_because text for a verdict ("" for BT_SMI_NONE). */
const char *bt_pmu_smi_why(enum bt_smi_verdict v);

#define BT_PMU_MAX_SAVED 64

struct bt_pmu_driver;

/* The session's state. Its fields belong to pmu-session.c, pmu-regs.c and
 * the drivers; everyone else uses the functions below. */
struct bt_pmu_session {
	struct bt_arch *arch;
	const struct bt_pmu_driver *driver; /* chosen at open from caps.kind */
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
	/* Sums over the windows of the programmed group: a run may be split
	 * into several windows (bt_pmu_run called again before the read, the
	 * counters stopped, not cleared, in between); its TSC, APERF/MPERF
	 * and in-window SMIs are those of its windows together. */
	uint64_t win_tsc, win_aperf, win_mperf, win_smi;
	uint64_t smi_program;        /* MSR_SMI_COUNT before the group was programmed */
	uint64_t smi_stopped;        /* MSR_SMI_COUNT at open / right after the last window */
	bool smi_since_stop;         /* smi_program differs: an SMI may have restarted them */
	bool have_aperf, have_smi;
	bool smm_frozen;             /* IA32_DEBUGCTL.FREEZE_WHILE_SMM set for the session */
	bool smi_count_unreadable;   /* MSR_SMI_COUNT faulted at open: SMIs not counted */
	bool restore_warned;         /* a restore caveat is already in warning */
	bool tfa_set;                /* MSR_TSX_FORCE_ABORT[0] checked or set (counter 3) */
	char msg[320];               /* what failed */
	/* Caveats, "; "-separated: restore (e.g. a value 32-bit writes cannot
	 * hold) and facilities not available here (MSR_SMI_COUNT, SMM freeze). */
	char warning[512];
	/* What a driver keeps between its calls beyond the fields above (the
	 * perf_event driver's file descriptors); its open sets it, its restore
	 * frees it. */
	void *driver_state;
};

bt_status bt_pmu_open(struct bt_pmu_session *s, struct bt_arch *arch,
		      const struct bt_pmu_caps *caps, const struct bt_pmu_session_opts *opts);
bt_status bt_pmu_program(struct bt_pmu_session *s, const struct bt_plan *plan, int group,
			 const struct bt_event *const *events);
/* One window of the programmed group. Called again before bt_pmu_read,
 * it runs another window on the same counters (stopped, not cleared, in
 * between): the read gives the sum of the windows (pmu/measure.c splits a
 * long run so). */
bt_status bt_pmu_run(struct bt_pmu_session *s, bt_window_fn *fn, void *arg);
/* Fills *ret (which the caller owns: the session keeps no buffer of its
 * own); on failure *ret holds nothing meaningful. */
bt_status bt_pmu_read(struct bt_pmu_session *s, struct bt_pmu_counts *ret);
/* Restore every saved MSR (GLOBAL_CTRL last). Returns the first failure. */
bt_status bt_pmu_close(struct bt_pmu_session *s);
/* The message of the first failure, or "". */
const char *bt_pmu_error(const struct bt_pmu_session *s);
/* IA32_DEBUGCTL.FREEZE_WHILE_SMM was set at open: counters do not count
 * while an SMI handler runs. */
bool bt_pmu_session_smm_frozen(const struct bt_pmu_session *s);
/* The session's caveats so far ("; "-separated, "" if none): facilities not
 * available here, registers that could not be put back exactly. */
const char *bt_pmu_session_warnings(const struct bt_pmu_session *s);

/* The SMIs of a session run, from its counts. */
void bt_pmu_smi_of(const struct bt_pmu_counts *c, struct bt_pmu_smi *ret);

/* Convenience: program, run and read one group. */
bt_status bt_pmu_measure_group(struct bt_pmu_session *s, const struct bt_plan *plan, int group,
			       const struct bt_event *const *events, bt_window_fn *fn, void *arg,
			       struct bt_pmu_counts *ret);

/* floor(slots * field / 255): a PERF_METRICS byte as a slot count (the
 * convention of perf's topdown-* events, the metric core and the test
 * vectors, FORMAT.md). Defined with the Intel driver (intel-pmu.c). */
uint64_t bt_perf_metrics_slots(uint64_t slots, uint8_t field);

#endif
