/* SPDX-License-Identifier: MIT */
/*
 * The measurement engine: runs a workload once per counter group of a plan,
 * with warm-ups and repetitions, and turns the runs into one count per
 * event with its spread. It knows events and plans, not Top-Down models.
 *
 * For each group:
 *   1. calibration: the window around an empty body, `calib_runs` times; the
 *      median count per counter is the overhead subtracted from every run
 *      (the call, the reloads of ECX/EDX/EAX and, on some parts, the WRMSRs
 *      themselves: see arch/x86-guarded.S);
 *   2. `warmups` runs whose counts are discarded (caches, branch predictors,
 *      page walks of the workload's first touch);
 *   3. `reps` measured runs, each with interrupts masked around the window.
 * With a time budget (opts.budget_ticks), each group is planned before it
 * starts: its estimate is the longest run of this workload so far (the
 * first group's: its warm-up) times the runs it still has; a group that
 * does not fit is not run, nor any after it (they would take as long), and
 * the measurement says which (n_groups_run, n_groups_skipped). A window runs
 * with interrupts masked and cannot be stopped once started: the budget is
 * kept by planning, never by interrupting.
 * Every run also counts the fixed counters (AMD: retired instructions on a
 * general counter every group reserves, pmu/plan.h), so the runs can be
 * checked against each other: a bare-metal re-run retires the same
 * instructions.
 * A run whose corrected instruction count differs from the median of all
 * runs by more than `tolerance` (relative), or in whose window an SMI landed
 * while the counters were not frozen in SMM (or with no instruction count to
 * judge it), is repeated (at most `max_retries` times per run); if it still
 * disagrees it is kept and flagged, and the report says so. An SMI in a
 * window frozen by IA32_DEBUGCTL.FREEZE_WHILE_SMM is only counted; one
 * outside the window but between the run's programming and its reads
 * (counts.smi_outside, see pmu-session.h) always repeats the run, and the
 * run's record says so ("SMI outside the window").
 */
#ifndef PMU_MEASURE_H
#define PMU_MEASURE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/event.h"
#include "arch/arch.h"
#include "pmu/plan.h"
#include "pmu/pmu-session.h"

/* Tunables, each with its default (cf. nanoBench's *_DEFAULT). */
#define BT_MEASURE_WARMUPS_DEFAULT 1
#define BT_MEASURE_REPS_DEFAULT 5
#define BT_MEASURE_CALIB_RUNS_DEFAULT 5
#define BT_MEASURE_TOLERANCE_DEFAULT 0.001 /* 0.1 % of instructions retired */
#define BT_MEASURE_MAX_RETRIES_DEFAULT 3
#define BT_MEASURE_MAX_REPS 64
#define BT_MEASURE_MAX_CHUNKS 4096 /* windows per run under --max-window-ms */

/* The workload as the engine sees it. */
struct bt_measure_workload {
	bt_window_fn *run;        /* the measured body */
	void *arg;
	/* Outside the window, before and after each run (may be NULL). */
	bt_status (*before)(void *ctx, struct bt_diag *d);
	bt_status (*after)(void *ctx, struct bt_diag *d);
	void *ctx;
	/* A body whose iteration space can be split exactly (workloads/
	 * workload.h set_range): `iterations` > 0, and set_range(ctx, b, e)
	 * makes the next runs do iterations [b, e) only; (0, iterations) is
	 * the whole run again. 0 / NULL: the body runs whole. */
	uint64_t iterations;
	void (*set_range)(void *ctx, uint64_t begin, uint64_t end);
};

struct bt_measurement;

struct bt_measure_opts {
	unsigned warmups;
	unsigned reps;            /* 1..BT_MEASURE_MAX_REPS */
	unsigned calib_runs;      /* 0: no calibration */
	double tolerance;
	unsigned max_retries;
	bool mask_interrupts;
	struct bt_pmu_session_opts pmu;
	/* Called with the PMU session right after it is opened and with NULL
	 * right before it is closed, on the measuring CPU: the caller can
	 * arrange for the session to be closed should that CPU be lost in
	 * mid-run (count-run.c: the platform's park cleanup). May be NULL. */
	void (*session_hook)(void *ctx, struct bt_pmu_session *s);
	void *session_hook_ctx;
	/* Called before group g (0-based) of n_groups is calibrated and run,
	 * on the measuring CPU, outside any window: the caller's progress
	 * display (app/console-ui.c, only when that CPU may print). May be NULL. */
	void (*group_hook)(void *ctx, int g, int n_groups);
	void *group_hook_ctx;
	/* The body of the calibration window (NULL: a C function that returns
	 * at once). --validate passes the `empty` kernel (RET only, file-scope
	 * asm), so the subtracted overhead is the window plus exactly one RET
	 * on every compiler: corrected = declared(kernel) - declared(empty). */
	bt_window_fn *calib_body;
	/* --budget: the TSC ticks left of the time budget when bt_measure
	 * starts, counted from its own first RDTSC of `clock` (NULL: the PMU's
	 * arch; the app passes the platform's, so a simulated PMU is planned
	 * in real time too); 0: no budget. */
	uint64_t budget_ticks;
	struct bt_arch *clock;
	/* --max-window-ms: the longest a window may run with interrupts
	 * masked, in TSC ticks of the PMU's arch; 0: no cap. When the first
	 * run of the workload (its first warm-up; with no warm-up, one extra
	 * run whose counts are discarded) shows a whole run is longer, every
	 * later run of a body that can be split (wl.iterations) is split into
	 * `chunks` windows (its ticks plus a quarter, over the cap), each with
	 * the counters started and stopped by the usual single writes and
	 * interrupts open between them; the counters are programmed and
	 * cleared once per run and read once after its last window, so a run's
	 * counts are the sum of its windows (the calibration runs split the
	 * same way, so the overhead subtracted is that of as many windows;
	 * the body's own entry, repeated per window, a few instructions, is
	 * not). A body that cannot be split runs whole (over_cap_whole). */
	uint64_t max_window_ticks;
	/* The SMT sibling probe's check of the reference clock
	 * (pmu/sibling.h): the REF_XCLK event the caller planned among
	 * `events` (matched by address), whose raw count each run of its group
	 * records next to fixed counter 2. NULL: none. */
	const struct bt_event *xclk_event;
	/* Windows per run to start with (a previous step's measurement.chunks);
	 * 0 or 1: decided from the first run as above. */
	unsigned chunks;
};

void bt_measure_opts_defaults(struct bt_measure_opts *o);

/* One kept run. */
struct bt_measure_run {
	int16_t group;
	uint8_t rep;
	uint8_t attempts;         /* 1 + retries */
	bool flagged;             /* still disagreed after the retries */
	char why[80];             /* what made it retry: "instructions +0.4%, SMI" */
	bool has_inst;
	uint64_t inst;            /* fixed counter 0 (AMD: 0xC0 on the reserved counter), corrected */
	bool has_cycles;
	uint64_t cycles;          /* fixed counter 1, corrected */
	uint64_t tsc;
	bool has_aperf_mperf;
	uint64_t aperf, mperf;
	bool has_smi;
	uint64_t smi;
	/* The SMT sibling probe (plan.h sibling_gp; pmu/sibling.h), raw:
	 * ONE_THREAD_ACTIVE and fixed counter 2 (CPU_CLK_UNHALTED.REF_TSC,
	 * has_ref_tsc) of the run, and REF_XCLK where it was counted (its own
	 * reserved counter, or opts.xclk_event in this run's group). */
	bool has_sibling, has_ref_tsc, has_xclk;
	uint64_t one_thread_active, ref_tsc, ref_xclk;
};

struct bt_measure_stat {
	bool measured;
	uint64_t min, median, max;    /* corrected: raw minus the group's overhead */
	uint64_t raw_median;
	uint64_t overhead;            /* calibration median, 0 without calibration */
	bool clamped;                 /* some run counted less than the overhead */
	int16_t group;                /* where it was counted; -1 = every group */
};

struct bt_measurement {
	int n_events;
	struct bt_measure_stat ev[BT_PLAN_MAX_EVENTS];
	struct bt_measure_run *runs;  /* n_runs, malloc'd; free with bt_measurement_free */
	int n_runs;
	/* Cross-run consistency over every kept run of every group. */
	uint64_t inst_min, inst_median, inst_max;
	uint64_t cycles_min, cycles_median, cycles_max;
	uint64_t tsc_median;
	int n_retried, n_flagged, n_smi_runs;
	uint64_t calib_inst;          /* instructions of the empty window (median) */
	bool smm_frozen;              /* IA32_DEBUGCTL.FREEZE_WHILE_SMM held the counters in SMM */
	char pmu_warning[512];        /* the PMU session's caveats ("" = none) */
	/* The budget's plan (opts.budget_ticks): groups 0..n_groups_run-1 were
	 * measured, the n_groups_skipped after them were not (their events are
	 * not measured); the first skipped group's estimate and what was left
	 * of the budget then, in TSC ticks. Retries the budget left out keep
	 * their run flagged (n_retries_skipped). */
	int n_groups_run, n_groups_skipped;
	uint64_t budget_est_ticks, budget_left_ticks;
	/* The longest workload run (programming, window(s), reads, the
	 * workload's before/after) in ticks of the budget's clock (opts.clock):
	 * what the caller plans more runs of this workload with (count-run.c:
	 * the timed-PEBS windows). */
	uint64_t run_ticks;
	int n_retries_skipped;
	/* The window cap (opts.max_window_ticks): windows per run (1: whole),
	 * the window ticks of the whole run that decided it, and whether a run
	 * over the cap ran whole because its body cannot be split. */
	unsigned chunks;
	uint64_t whole_window_ticks;
	bool over_cap_whole;
	char error[400];              /* set when BT_OK is not returned */
};

/* Measures every group of `plan`. The PMU session is opened and closed here
 * (every MSR restored, also on failure). */
bt_status bt_measure(const struct bt_pmu *pmu, const struct bt_plan *plan,
		     const struct bt_event *const *events, const struct bt_measure_workload *wl, const struct bt_measure_opts *opts,
		     struct bt_measurement *ret);
void bt_measurement_free(struct bt_measurement *m);

/*
 * The budget's plan for one group (or one retry): `runs` windows of at most
 * `run_ticks` each (the longest this workload had so far) plus
 * `calib_runs` calibration windows of `calib_ticks`. *ret_est is their sum;
 * the group fits when it is at most `left_ticks`. An estimate that
 * overflows does not fit.
 */
bool bt_measure_group_fits(uint64_t left_ticks, uint64_t run_ticks, unsigned runs,
			   uint64_t calib_ticks, unsigned calib_runs, uint64_t *ret_est);

/* Median of n values (sorted copy; n <= BT_MEASURE_MAX_REPS * groups). For
 * even n, the lower of the two middle values: a count that was observed. */
uint64_t bt_median_u64(const uint64_t *v, int n);

/*
 * Times the workload without counters: `reps` runs (after `warmups`) with
 * interrupts masked around RDTSC / body / RDTSC. Used when there is no PMU.
 */
struct bt_timing {
	uint64_t min, median, max;    /* TSC ticks */
	unsigned runs;
};
bt_status bt_time_workload(struct bt_arch *arch, const struct bt_measure_workload *wl,
			   unsigned warmups, unsigned reps, bool mask_interrupts,
			   struct bt_timing *ret, struct bt_diag *d);

#endif
