/* SPDX-License-Identifier: MIT */
/*
 * The run policy of unattended boot-time runs (--run, --then, --budget):
 * given the configuration and the boot state remembered in NVRAM
 * (app/boot-state.h), whether this boot measures, and how the state
 * changes. Pure functions: the NVRAM is read and written by the caller
 * through the platform (app/boot-run.c).
 */
#ifndef APP_BOOT_POLICY_H
#define APP_BOOT_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "app/boot-state.h"
#include "base/diag.h"
#include "base/status.h"

enum bt_run_policy {
	BT_RUN_ALWAYS = 0,   /* no --run: measure, keep no state (as before --run existed) */
	BT_RUN_ONCE,         /* measure on the first boot only */
	BT_RUN_EVERY_BOOT,   /* measure on every boot */
	BT_RUN_EVERY_N,      /* measure on the first boot, then on every N-th */
};

/* What happens after the run (--then). chainload and shutdown are kept in
 * the options' older fields (then_boot, shutdown), which --then-boot and
 * --shutdown set too. */
enum bt_then {
	BT_THEN_DEFAULT = 0,      /* not given: --then-boot / --shutdown / return */
	BT_THEN_NEXT_BOOT_ENTRY,  /* the BootOrder entry after BootCurrent */
	BT_THEN_REBOOT,
	BT_THEN_RETURN,           /* back to the boot manager */
};

struct bt_boot_config {
	enum bt_run_policy run;
	uint32_t every_n;         /* BT_RUN_EVERY_N: N >= 1 */
	enum bt_then then;
	uint32_t budget_s;        /* 0: no budget */
};

#define BT_BUDGET_MAX_S 86400u

/* --run VALUE: "once", "every-boot", "every=N" (N 1..65535). */
bt_status bt_boot_parse_run(const char *v, struct bt_boot_config *c, struct bt_diag *d);
/* "once", "every-boot", "every=3", or "" for BT_RUN_ALWAYS. */
void bt_boot_run_str(const struct bt_boot_config *c, char *buf, size_t len);
/* --budget SECONDS: 1..BT_BUDGET_MAX_S. */
bt_status bt_boot_parse_budget(const char *v, struct bt_boot_config *c, struct bt_diag *d);

/* What this boot does, decided by bt_boot_begin. */
struct bt_boot_decision {
	bool measure;
	bool previous_hung;       /* the last boot's measurement never ended */
	char reason[160];         /* one line: why it measures or not */
};

/*
 * The start of a boot under a policy other than BT_RUN_ALWAYS. `have`
 * says whether a state was read (false: the first boot, or an unreadable
 * one, which then starts again from zero). Updates *s to what must be
 * written BEFORE anything is measured: the boot counted, and, when this
 * boot measures, the run counted and marked in progress. A state marked in
 * progress means the previous boot never finished its measurement (the
 * watchdog reset the machine, it crashed, or lost power): that run is
 * recorded as hung and this boot does not measure, it hands over.
 */
void bt_boot_begin(const struct bt_boot_config *c, bool have, struct bt_boot_state *s,
		   struct bt_boot_decision *ret);

/*
 * Whether the state bt_boot_begin made (after) must be written at the
 * start of this boot: only when something a later boot needs changed
 * (NVRAM wear: every SetVariable is a flash write). Needed are the flags
 * (in progress, the BootNext attempt), runs (once, every=N), the last
 * run's record (completed, hung, status, sequence) and, for every=N only,
 * boots_since_run. The boot count alone is not worth a write: a boot that
 * changes nothing else (once after its run, every-boot never) leaves the
 * variable as it was, and `boots` counts the boots that wrote it. A state
 * that was not there (have false) is always written.
 */
bool bt_boot_state_must_write(const struct bt_boot_config *c, bool have,
			      const struct bt_boot_state *before,
			      const struct bt_boot_state *after);

/*
 * --budget's plan: whether a step (a workload) may start at `elapsed_s`
 * into the budget, when the `n_steps` before it took `steps_s` seconds in
 * all. Its estimate (*ret_est_s) is their mean; it fits when elapsed plus
 * the estimate stays below the budget. With no step before it there is
 * nothing to go by (estimate 0): it needs only time left. A step runs with
 * interrupts masked and cannot be stopped once started, so it is planned.
 */
bool bt_boot_budget_fits(uint32_t budget_s, double elapsed_s, double steps_s, int n_steps,
			 double *ret_est_s);

/* The end of a measurement: the mark cleared, its status and results
 * sequence number (0: none written) kept. */
void bt_boot_end(struct bt_boot_state *s, enum bt_boot_status status, uint32_t seq);

/* The status of a finished measurement from its exit status and whether the
 * budget ended it early. */
enum bt_boot_status bt_boot_status_of(int exit_status, bool budget_ended);

#endif
