/* SPDX-License-Identifier: MIT */
/*
 * Counting a workload and evaluating its Top-Down tree.
 *
 * A count context holds what does not change from one workload to the
 * next: the model (chosen from CPUID, forced with --model, or loaded from
 * vendor files with --model-files), the PMU backend (the hardware, or the
 * simulated PMU when asked for with --sim, optionally fed from a count
 * file) and its capabilities, and the constants the formulas need.
 *
 * For each workload the nodes to measure are chosen (all nodes up to
 * --level N, or, by default, drill-down: level 1 first, then only the
 * children of flagged nodes, level by level), their events are planned into
 * counter groups and measured (pmu/measure.c), and the tree is evaluated.
 */
#ifndef APP_COUNT_H
#define APP_COUNT_H

#include <stdio.h>

#include "base/json-write.h"
#include "pmu/measure.h"
#include "app/options.h"
#include "app/platform.h"
#include "report/report-detect.h"
#include "pmu/run-freq.h"
#include "metrics/model.h"
#include "pmu/cpu-info.h"

#define BT_MAX_STEPS 8

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
	bool latency_noted;
};

struct bt_count_ctx;

/*
 * Decides whether and how this run counts. Returns BT_OK with *ret set, or
 * an error with `why` saying why there will be no counts (no PMU, no model
 * for this CPU, a bad --counts file...). BT_ERR_INVALID means the user's
 * options are wrong (usage error).
 */
bt_status bt_count_prepare(struct bt_platform *p, const struct bt_options *opt,
			   const struct bt_cpu_info *cpu, const struct bt_cpu_census *census,
			   struct bt_count_ctx **ret, char *why, size_t whylen);
void bt_count_free(struct bt_count_ctx *c);
/* One line: the model and the backend ("model SKL (selected from CPUID ...) on ..."). */
const char *bt_count_describe(const struct bt_count_ctx *c);
/* Console summary of the model and plan sizes, printed once. */
void bt_count_print_header(FILE *f, const struct bt_count_ctx *c);
void bt_count_json(struct bt_jw *j, const struct bt_count_ctx *c);

/* Counts one workload on `cpu`. On failure *ret is NULL and err says why. */
bt_status bt_count_workload(struct bt_count_ctx *c, struct bt_platform *p, uint32_t cpu,
			    const struct bt_measure_workload *mw, bool mask_interrupts,
			    struct bt_tree_outcome **ret, char *err, size_t errlen);

void bt_tree_outcome_print(FILE *f, const struct bt_tree_outcome *t, bool verbose);
void bt_tree_outcome_json(struct bt_jw *j, const struct bt_tree_outcome *t);
void bt_tree_outcome_free(struct bt_tree_outcome *t);

#endif
