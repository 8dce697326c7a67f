/* SPDX-License-Identifier: MIT */
/*
 * The counted part of a run, as data: how the run counts (the model and
 * the PMU, struct bt_count_setup) and, per counted workload, the steps that
 * measured it and the evaluated tree (struct bt_tree_outcome). app/count*.c
 * fill them; report/ writes them (console.c for the console, results-json.c
 * for the results file).
 */
#ifndef REPORT_COUNTED_H
#define REPORT_COUNTED_H

#include <stdbool.h>
#include <stdint.h>

#include "metrics/model.h"
#include "metrics/rules.h"
#include "pmu/measure.h"
#include "pmu/run-freq.h"
#include "pmu/sibling.h"
#include "report/tree.h"

struct bt_counter_health;

/* How this run counts: the same for every workload of a core type. */
struct bt_count_setup {
	const char *model_id, *uarch, *model_source;
	const char *how;              /* how the model was chosen */
	bool simulated;
	const char *pmu;              /* the simulated PMU's brand, or the PMU kind */
	const char *source_label;     /* simulated: what it counts */
	/* Counted by an operating system's driver (--backend=perf): "counted by
	 * Linux perf_event (...), kernel VERSION[; under a hypervisor ...]";
	 * NULL or "" when baretop's own driver (or the simulated PMU) counts. */
	const char *counted_by;
	unsigned general_counters;
	uint32_t fixed_mask;
	bool perf_metrics;
	unsigned level;               /* 0 = drill-down */
	unsigned warmups, reps, calibration_runs, max_retries;
	double tolerance;
	double max_window_ms;         /* the window cap; 0: none (TSC rate unknown) */
	bool exec_mode;               /* -x: the window keeps interrupts enabled */
	const char (*notes)[320];     /* about the count source */
	int n_notes;
	/* The counter health check before the first counted workload (NULL:
	 * nothing counted yet); pmu/counter-health.h. */
	const struct bt_counter_health *health;
};

#define BT_MAX_STEPS 8

/*
 * One retire-latency input of a workload's tree (EVENT:R), as every output
 * states it: the value the formulas used and where it came from
 * (enum bt_rl_source, metrics/model.h). Unknown statistics are NaN / -1:
 * published defaults and files carry a mean (a file perhaps min and max),
 * only sampling gives a median, a sample count and saturated records.
 */
struct bt_rl_stat {
	double mean, median, min, max;  /* cycles; mean NaN when not measured */
	int64_t samples, saturated;     /* -1: not sampled */
	uint8_t source;                 /* enum bt_rl_source */
	const char *detail;             /* "graniterapids_retire_latency.json (MEAN; TMA 5.01)",
					 * the file's path, ...; NULL when none */
	bool budget_skipped;            /* its timed-PEBS window was left out by --budget
					 * ("not measured (budget)"); another source may
					 * still have given a value */
};

/* One planning-and-measuring step (a level in drill-down). */
struct bt_tree_step {
	unsigned level;          /* deepest level of the nodes measured */
	unsigned n_nodes;
	int n_events;            /* new events counted in this step */
	int groups, bound, unmeasurable;
	int groups_skipped;      /* groups the time budget left out (the last ones) */
	unsigned windows_per_run; /* the window cap split each run into this many (1: whole) */
	bool over_cap_whole;     /* runs over the cap that cannot be split ran whole */
	uint64_t whole_window_ticks; /* the window of the whole run the cap was decided on */
	int runs, retried, flagged;
	bool has_inst;           /* fixed counter 0 counted (Intel) */
	bool smm_frozen;         /* counters frozen while in SMM (IA32_DEBUGCTL bit 14) */
	uint64_t inst_median, inst_min, inst_max;
	uint64_t cycles_median, cycles_min, cycles_max;
	uint64_t tsc_median;
	struct bt_run_freq freq;  /* from APERF/MPERF; freq.n_runs = 0 without them */
	struct bt_measure_run *run_log; /* every kept run of this step (malloc'd) */
	int n_run_log;
};

struct bt_tree_outcome {
	const struct bt_model *model;
	struct bt_counts *counts;
	struct bt_result *result;
	char input_label[720];   /* where the counts come from: "counted by the ... PMU" */
	bool simulated;
	/* The clock its TSC ticks (tsc_median ...) are at: when simulated, the
	 * simulated CPU's stated clock, and a time from it is a simulated time
	 * (the workload model's cycles), never a wall time. 0: unknown. */
	uint64_t tsc_hz;
	int n_steps;
	struct bt_tree_step steps[BT_MAX_STEPS];
	int total_groups;
	/* per model event: its statistics when counted (NULL entries when not) */
	struct bt_measure_stat *stat;   /* bt_model_event_count() entries */
	bool *counted;
	/* per model node: 1 = measured by this run (drill-down leaves the
	 * children of unflagged nodes out) */
	unsigned char *targeted;
	char untargeted_why[120];
	char notes[6][320];
	int n_notes;
	unsigned notes_dropped;  /* not kept: the last note says how many (base/notes.h) */
	bool latency_noted;
	/* --budget left counter groups out (pmu/measure.h): how many over all
	 * steps, the events they would have counted and the measured nodes that
	 * needed them ("not measured (budget)"), ", "-separated and cut with
	 * "..." past the room. 0 / "": the workload was measured whole. */
	unsigned chunks_hint;    /* windows per run of the steps so far (the window cap) */
	int budget_groups_skipped;
	double budget_est_s, budget_left_s; /* the first group left out: its estimate, the time left */
	char budget_events[640];
	char budget_nodes[640];
	bool *budget_skipped_ev; /* per model event: in a group left out (NULL: none) */
	/* Timed PEBS (app/count-run.c), planned with the groups against the
	 * same budget: the windows (one run of the workload each, split like
	 * the counting runs under --max-window-ms) run and left out, the
	 * inputs left out ("EVENT:R, ..."; "not measured (budget)") and the
	 * first one's estimate and the time left then. The wall times, in
	 * seconds of the budget's clock (the platform's TSC, real time also
	 * under --sim; NaN when its rate is unknown): the counting steps and
	 * the sampling windows. */
	int pebs_windows_run, budget_pebs_skipped;
	unsigned pebs_windows_per_run;
	char budget_latencies[640];
	double budget_pebs_est_s, budget_pebs_left_s;
	uint64_t groups_wall_ticks, pebs_wall_ticks;
	uint64_t run_ticks_max;  /* the longest counting run (pmu/measure.h run_ticks) */
	double groups_wall_s, pebs_wall_s;
	/* With --budget: seconds from the budget's start (baretop's) when the
	 * workload's last counting run or sampling ended -- what the plan
	 * keeps within the budget (the evaluation, report and results after
	 * it are not planned); NaN without a budget. */
	double measure_end_s;
	/* per retire-latency input of the model (bt_model_retire_latency_count) */
	struct bt_rl_stat *rl;
	/* the evaluated tree against the model's consistency rules
	 * (metrics/rules.h); NULL when they were not derived */
	struct bt_consistency *consistency;
	/* per model node, why it is not trusted (report/tree.h; NULL: no
	 * check judged it: no violated rule and no --bring-up validation) */
	struct bt_untrust *untrusted;
	/* The SMT sibling probe over every run of every step (pmu/sibling.h,
	 * app/count-run.c), and the reference clock REF_XCLK was derived at;
	 * probed false: no run counted it. */
	bool probed, xclk_counted;
	struct bt_sibling_sums sibling;
	struct bt_xclk_ratio xclk;
};

#endif
