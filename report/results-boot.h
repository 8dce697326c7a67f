/* SPDX-License-Identifier: MIT */
/*
 * The "boot" object of a results file's "result" section: the run policy
 * of an unattended boot-time run (app/boot-policy.h), the boot state it
 * read from NVRAM, the time budget and the steps it left out, and the
 * hand-over planned after the file is written.
 */
#ifndef REPORT_RESULTS_BOOT_H
#define REPORT_RESULTS_BOOT_H

#include <stdbool.h>
#include <stdint.h>

struct bt_jw;

#define BT_BOOT_MAX_NOT_RUN 64  /* app/boot-run.c and the schema say 64 */

struct bt_results_boot {
	const char *policy;         /* "once", "every-boot", "every=N"; NULL: no --run */
	const char *handover;       /* "chainload:\EFI\x.efi", "shutdown", "reboot", ... */
	const char *nvram;          /* "written", or why the state could not be kept */
	bool have_state;            /* the fields below come from the NVRAM state */
	uint32_t boot_count;        /* boots seen with a policy, this one included */
	uint32_t run_number;        /* this measurement's number */
	uint32_t hung_runs;         /* earlier measurements that never ended */
	const char *previous_status;/* the last measurement's status before this one */
	uint32_t previous_sequence; /* its results file's sequence number; 0 none */
	uint32_t budget_s;          /* 0: no budget */
	bool budget_ended;          /* the budget ended the measurement early */
	double elapsed_s;           /* from the entry point to the end of the measurement; <0 unknown */
	const char *const *not_run; /* "WORKLOAD on CPU N", in order: the first */
	int n_not_run;              /* BT_BOOT_MAX_NOT_RUN at most */
	int n_not_run_all;          /* how many in all */
	/* "WORKLOAD on CPU N: K of G counter groups not run": workloads the
	 * budget cut short between counter groups (pmu/measure.h) */
	const char *const *partial;
	int n_partial;
	int n_partial_all;
	/* SetVariable calls of this boot: those before the file and those the
	 * end decision plans after it */
	uint32_t nvram_writes;
	/* where the measurement's end is recorded: "results-note" (the
	 * results folder's sequence note), "nvram", NULL (no state) */
	const char *end_record;
	const char *parent;         /* what started baretop (app/boot-policy.h bt_parent_name) */
	const char *end_action;     /* the end decided (bt_end_action_name) */
	const char *end_why;        /* one line: the end and why */
	uint32_t resets_in_a_row;   /* baretop's resets just before this boot */
	uint32_t resets_max;        /* the cap (BT_BOOT_RESETS_MAX) */
	/* --then reboot: whether the restart is taken, and why (it is only
	 * where it cannot loop: app/boot-policy.h bt_boot_restart_allowed) */
	bool restart_decided;
	bool restart_taken;
	const char *restart_why;
};

/* Writes res as the object "boot" into the open object of j. */
void bt_results_boot_json(struct bt_jw *j, const struct bt_results_boot *b);

#endif
