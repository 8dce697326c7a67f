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

/* How this run counts: the same for every workload of a core type. */
struct bt_count_setup {
	const char *model_id, *uarch, *model_source;
	const char *how;              /* how the model was chosen */
	bool simulated;
	const char *pmu;              /* the simulated PMU's brand, or the PMU kind */
	const char *source_label;     /* simulated: what it counts */
	unsigned general_counters;
	uint32_t fixed_mask;
	bool perf_metrics;
	unsigned level;               /* 0 = drill-down */
	unsigned warmups, reps, calibration_runs, max_retries;
	double tolerance;
	bool exec_mode;               /* -x: the window keeps interrupts enabled */
	const char (*notes)[320];     /* about the count source */
	int n_notes;
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
};

/* One planning-and-measuring step (a level in drill-down). */
struct bt_tree_step {
	unsigned level;          /* deepest level of the nodes measured */
	unsigned n_nodes;
	int n_events;            /* new events counted in this step */
	int groups, bound, unmeasurable;
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
	/* per retire-latency input of the model (bt_model_retire_latency_count) */
	struct bt_rl_stat *rl;
	/* the evaluated tree against the model's consistency rules
	 * (metrics/rules.h); NULL when they were not derived */
	struct bt_consistency *consistency;
};

#endif
