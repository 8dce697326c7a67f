/* SPDX-License-Identifier: MIT */
/*
 * One boot under the run policy (--run, --then, --budget): the boot state
 * read from and written to NVRAM through the platform, the decision to
 * measure or hand over at once, the time budget checked before each
 * workload, the watchdog, and the "boot" object of the results file.
 * The decisions themselves are app/boot-policy.c's.
 */
#ifndef APP_BOOT_RUN_H
#define APP_BOOT_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "app/boot-policy.h"
#include "app/boot-state.h"
#include "app/options.h"
#include "app/platform.h"
#include "report/results-boot.h"

/* The watchdog fires this long after the budget: the budget stops the
 * workloads between steps, the watchdog only a step that never ends. */
#define BT_BUDGET_WATCHDOG_GRACE_S 5u

/*
 * The UEFI watchdog of an unattended boot (not a person's start from the
 * shell or hosted without --run, --then, --budget), one bound per phase:
 * the start (options, NVRAM, the results folder's note) until the state
 * is written; the measurement (--budget plus BT_BUDGET_WATCHDOG_GRACE_S,
 * or BT_WATCHDOG_RUN_S); the end (results file, state, the hand-over's
 * path expansion, connects and LoadImage) until the next stage starts,
 * which gets the 5 minutes EDK2's BDS gives a boot option (BmBoot.c
 * EfiBootManagerBoot). A reset by the watchdog in the measurement is a
 * hang the next boot records (the state says in progress); in the start
 * or end phase nothing was recorded, and the next boot starts as this
 * one did.
 */
#define BT_WATCHDOG_START_S 120u
#define BT_WATCHDOG_RUN_S 1800u
#define BT_WATCHDOG_HANDOVER_S 300u

/* A full variable store (SetVariable EFI_OUT_OF_RESOURCES) is recorded in
 * the results folder (BT_NVRAM_FULL_FILE, the monotonic count then) and no
 * write is tried again for this many boots: each try makes EDK2 reclaim
 * the store, an erase of its flash block, before it fails
 * (MdeModulePkg/Universal/Variable/RuntimeDxe/Variable.c UpdateVariable). */
#define BT_NVRAM_FULL_FILE "nvram-full"
#define BT_NVRAM_FULL_RETRY_BOOTS 32u

struct bt_boot_run {
	struct bt_platform *plat;
	const struct bt_options *opt;
	bool active;                 /* --run, --budget or a --then action given */
	bool unattended;             /* active, or not started by the shell (or hosted) */
	bool have_state;             /* a state is kept in NVRAM (--run, or unattended) */
	bool state_writable;         /* ... and may be written (not a full store) */
	struct bt_boot_state state;  /* as this boot has it */
	struct bt_boot_state before; /* as read */
	struct bt_boot_state stored; /* as NVRAM has it now */
	struct bt_boot_decision decision;
	struct bt_boot_end end;      /* the end, once decided */
	char nvram[160];             /* "written", or why not */
	char previous[160];          /* how the last run's end was found, "" */
	char policy[24];
	char handover[280];
	uint64_t t0;                 /* TSC at the start of the budget */
	uint64_t tsc_hz;             /* set after detection; 0 unknown */
	bool budget_ended;
	int n_steps;                 /* workloads the budget let start */
	uint64_t first_step_tsc;     /* TSC when the first of them started */
	bool watchdog_armed;
	bool ended;                  /* bt_boot_run_end ran */
	double elapsed_s;
	char *not_run[BT_BOOT_MAX_NOT_RUN];  /* the first ones, by name */
	int n_not_run;
	int n_not_run_all;           /* all of them (the list is bounded) */
	char *partial[BT_BOOT_MAX_NOT_RUN];  /* workloads cut short between groups */
	int n_partial;
	int n_partial_all;
};

/* Reads the state, decides, writes the state back before anything is
 * measured and arms the watchdog. Returns whether this boot measures; when
 * it does not, it has printed why and how long the boot took so far. */
bool bt_boot_run_begin(struct bt_boot_run *b, struct bt_platform *plat,
		       const struct bt_options *opt);
/* The TSC frequency detection found (the budget is counted in it). */
void bt_boot_run_set_tsc_hz(struct bt_boot_run *b, uint64_t tsc_hz);
/* Whether the time budget still allows a step (true without a budget);
 * says nothing and records nothing: the caller can clear its progress line
 * before bt_boot_run_step_allowed reports a step left out. */
bool bt_boot_run_budget_left(const struct bt_boot_run *b);

/* The budget's TSC ticks left now, for planning the counter groups of a
 * workload (pmu/measure.h budget_ticks); false without a budget or when
 * the TSC rate is unknown. */
bool bt_boot_run_ticks_left(const struct bt_boot_run *b, uint64_t *ret);
/* After a workload whose counter groups (`skipped` of `groups`) or
 * timed-PEBS windows (`pebs_skipped` of `pebs_windows`) the budget partly
 * left out: recorded (results "steps_partial"), said on the console, and
 * the budget counts as spent: no later workload starts. */
void bt_boot_run_partial(struct bt_boot_run *b, const char *name, uint32_t cpu, int skipped,
			 int groups, int pebs_skipped, int pebs_windows);

/* Before each workload: false when the budget is spent (the step is then
 * listed as not run, and said so on the console). */
bool bt_boot_run_step_allowed(struct bt_boot_run *b, const char *name, uint32_t cpu);
/* Before the options: BootNext still equal to BootCurrent is deleted
 * (app/boot-policy.h), and an unattended start arms the start phase's
 * watchdog. */
void bt_boot_run_settle(struct bt_platform *plat);

/* The end of a measuring boot as it will be decided, for its results file
 * (the end note written with it): `outcome` is BT_OUTCOME_MEASURED, or
 * BT_OUTCOME_CPUS_LEFT when CPUs baretop started never came back (the
 * platform's aps_unaccounted), as finish will decide it; *ret_note: the
 * note naming this measurement ("" when it keeps no state). */
void bt_boot_run_plan(struct bt_boot_run *b, enum bt_boot_outcome outcome, int exit_status,
		      char *ret_note, size_t len);

/* The end of the boot, whatever happened (b may never have begun: a usage
 * error, a crash before the policy): decided (app/boot-policy.h
 * bt_boot_decide_end), the state written when the decision says, the end
 * action set in plat, one line said, the hand-over's watchdog armed.
 * end_noted: the results file's note records the measurement's end. */
void bt_boot_run_finish(struct bt_boot_run *b, struct bt_platform *plat,
			const struct bt_options *opt, enum bt_boot_outcome outcome, int exit_status,
			uint32_t seq, bool end_noted);
/* The results file's "boot" object; NULL when the boot is a person's
 * (no policy, not unattended). */
const struct bt_results_boot *bt_boot_run_record(const struct bt_boot_run *b,
						 struct bt_results_boot *ret);
/* --test-hang: does not return. */
void bt_boot_run_hang(struct bt_boot_run *b);
void bt_boot_run_free(struct bt_boot_run *b);

#endif
