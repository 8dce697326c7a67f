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

#include "pmu/measure.h"
#include "app/options.h"
#include "app/platform.h"
#include "report/counted.h"
#include "report/results.h"
#include "metrics/model.h"
#include "pmu/cpu-info.h"

struct bt_count_ctx;

/*
 * Decides whether and how this run counts. Returns BT_OK with *ret set, or
 * an error with `why` saying why there will be no counts (no PMU, no model
 * for this CPU, a bad --counts file...). BT_ERR_INVALID means the user's
 * options are wrong (usage error).
 */
bt_status bt_count_prepare(struct bt_platform *p, const struct bt_options *opt,
			   const struct bt_cpu_info *cpu, const struct bt_cpu_census *census,
			   struct bt_count_ctx **ret, struct bt_diag *why);
void bt_count_free(struct bt_count_ctx *c);
/* One line: the model and the backend ("model SKL (selected from CPUID ...) on ..."). */
const char *bt_count_describe(const struct bt_count_ctx *c);
/* How this context counts, as the report takes it (report/counted.h); it
 * points into c. */
void bt_count_setup_of(const struct bt_count_ctx *c, struct bt_count_setup *ret);

/* Counts one workload on `cpu`. On failure *ret is NULL and d says why. */
/* With the simulated PMU and no count file: count the workload model of
 * cfg's workload (its profile, synth/workload-profiles.c) from now on.
 * No-op otherwise, or for a workload without a profile. */
struct bt_wl_config;
bt_status bt_count_sim_workload(struct bt_count_ctx *c, const struct bt_wl_config *cfg,
				struct bt_diag *why);

bt_status bt_count_workload(struct bt_count_ctx *c, struct bt_platform *p, uint32_t cpu,
			    const struct bt_measure_workload *mw, bool mask_interrupts,
			    struct bt_tree_outcome **ret, struct bt_diag *d);

/* The counter health check (count-health.c), run at the first call for
 * each `cpu` (its own counters, not baretop's CPU's nor those of the first
 * CPU of its kind), and printed; later calls for that CPU only repeat its
 * verdict and make it the current one. A counter that fails is left out of
 * every plan counted on that CPU.
 * BT_ERR_FAULT (d says why) when no general counter is left to count with;
 * BT_OK otherwise, also when the check is off or could not run. */
bt_status bt_count_health(struct bt_count_ctx *c, struct bt_platform *p, uint32_t cpu,
			  struct bt_diag *d);
/* The workload about to be counted runs beside a busy SMT sibling (the
 * one of baretop's waiting CPU): the simulated PMU sees it so when it
 * cannot tell CPUs apart (count.c); false after it. */
void bt_count_sim_sibling_busy(struct bt_count_ctx *c, bool busy);
/* The check of the CPU of the last bt_count_health call (NULL: none). */
const struct bt_counter_health *bt_count_health_current(const struct bt_count_ctx *c);
/* What a tree says about the check ("" when every counter passed). */
void bt_count_health_note(const struct bt_count_ctx *c, char *buf, size_t len);
/* The caps the planner plans with: c's, less the counters that failed on
 * the CPU of the last bt_count_health call. */
void bt_count_plan_caps(const struct bt_count_ctx *c, struct bt_pmu_caps *ret);

void bt_tree_outcome_free(struct bt_tree_outcome *t);
/* How many nodes of t are untrusted by a check that failed (a violated
 * rule, a cross-check, a validation FAIL; not a validation SKIP, which
 * found nothing wrong): the run's status is then 1 (app-main.c). */
unsigned bt_tree_outcome_untrusted(const struct bt_tree_outcome *t);

/* Where the counter groups' progress is shown (NULL: nowhere). Shown only
 * when the groups run on the CPU baretop runs on: an AP may not print. */
struct bt_console_ui;
void bt_count_set_console_ui(struct bt_count_ctx *c, struct bt_console_ui *ui);
/* The time budget the counter groups are planned against (NULL: none). */
struct bt_boot_run;
void bt_count_set_boot(struct bt_count_ctx *c, const struct bt_boot_run *b);
/* The CPUs the current workload keeps busy and what its jobs used
 * (app/on-cpu.h); NULL: none. Every job of c names it. */
struct bt_cpu_team;
void bt_count_set_team(struct bt_count_ctx *c, struct bt_cpu_team *t);

#endif
