/* SPDX-License-Identifier: MIT */
/*
 * The run phase: the workloads (built-in, or an EFI application with -x),
 * each counted group by group when there is a PMU (or the simulated one),
 * timed otherwise, with its checksum; their outcomes feed the console report
 * and the results file.
 */
#ifndef APP_RUN_H
#define APP_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "pmu/measure.h"
#include "app/console-ui.h"
#include "app/options.h"
#include "app/platform.h"
#include "report/results.h"
#include "arch/xstate.h"
#include "pmu/cpu-info.h"
#include "workloads/workload.h"

struct bt_count_ctx;
struct bt_boot_run;

#define BT_RUN_MAX_CORE_KINDS 4
/* CPUs whose count context is remembered (count_ctx_for in run.c). */
#define BT_RUN_CPU_CACHE 256

struct bt_run_phase {
	struct bt_platform *plat;
	const struct bt_options *opt;
	const struct bt_cpu_info *cpu;
	struct bt_xstate xstate;
	bool xstate_done;
	/* Counting: possible or not, and why not. One context per kind of core
	 * (hybrid parts: each (core type, native model ID) has its own model
	 * and counters; Arrow Lake H has three). */
	bool can_count;
	struct bt_count_ctx *count;       /* the kind of core baretop runs on */
	struct bt_count_ctx *count_other[BT_RUN_MAX_CORE_KINDS - 1]; /* others, when used */
	struct bt_cpu_info other_cpu[BT_RUN_MAX_CORE_KINDS - 1];     /* what they detected */
	int n_other;
	/* The context each CPU counts with, decided on that CPU (its kind of
	 * core, its IA32_PERF_CAPABILITIES), once known. */
	struct bt_count_ctx *ctx_of[BT_RUN_CPU_CACHE];
	bool ctx_known[BT_RUN_CPU_CACHE];
	const struct bt_cpu_census *census;
	char no_count_reason[320];
	unsigned reps, warmups;
	uint32_t self_cpu;       /* the CPU baretop runs on */
	struct bt_outcome *outcomes;
	int n_outcomes;
	int n_failed;
	/* counted workloads whose tree has untrusted nodes (a violated
	 * consistency rule, a cross-check, a validation FAIL): the run's
	 * status is 1 (app-main.c) */
	int n_untrusted;
	struct bt_console_ui ui;  /* styling and the progress line */
	struct bt_boot_run *boot;  /* the time budget (--budget); NULL: none */
};

/* Validates the workload specs (-w) against the registry without running
 * anything: errors are usage errors. */
bt_status bt_run_check_specs(const struct bt_options *opt, struct bt_diag *d);

/* --cpu naming baretop's own CPU for a -w that needs other CPUs at the same
 * time (a two-core workload, --copies): a configuration that cannot be
 * measured, refused before the boot policy starts (a usage error: under
 * --run it is recorded as config-error, and `once` is not used up). */
bt_status bt_run_check_team(const struct bt_options *opt, struct bt_platform *plat,
			    struct bt_diag *d);

/* Runs the workloads. Returns BT_OK even when some failed (n_failed). */
bt_status bt_run_phase_run(struct bt_run_phase *r);
void bt_run_phase_free(struct bt_run_phase *r);

/* The phase as the results take it (report/results.h): pointers into r,
 * and the count setup into *count, which must outlive *ret. */
void bt_run_phase_record(const struct bt_run_phase *r, struct bt_run_record *ret,
			 struct bt_count_setup *count);

/* --list-workloads */
void bt_list_workloads(FILE *f);
/* --list-models */
void bt_list_models(FILE *f);

#endif
