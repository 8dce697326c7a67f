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

/*
 * Whether an end action that restarts the machine (--then reboot) may be
 * taken: only on a boot that measured, or when baretop was started one-shot.
 * Anything else loops: the next boot starts baretop again, which does not
 * measure and restarts again, forever (issue 31: 108 boots in 7 minutes
 * from removable media under --run once). A one-shot start is one the next
 * boot does not repeat: EDK2's BDS deletes BootNext before it starts that
 * entry and sets BootCurrent to its number (MdeModulePkg/Universal/BdsDxe/
 * BdsEntry.c BdsEntry; BmBoot.c EfiBootManagerBoot, "2. Set BootCurrent"),
 * so baretop cannot read the BootNext it came from; but BDS's own pass
 * over the boot options starts only BootOrder's entries (BootBootOptions
 * over EfiBootManagerGetLoadOptions), so a BootCurrent that is not in
 * BootOrder came from BootNext (or a hotkey, or a person's choice in the
 * boot menu), and the next boot follows BootOrder without it. A BootCurrent
 * in BootOrder (a BootOrder entry, or the removable-media entry BDS creates
 * and adds to BootOrder) is reached again by the next boot; no BootCurrent
 * (started from a shell, or hosted) cannot be told apart from it.
 * A measuring boot is no guard where every boot measures (no --run,
 * --run every-boot, every=1): reached again through BootOrder it would
 * measure and restart again, forever; there the restart is taken only
 * one-shot (every_boot_measures).
 * boot_current: BootCurrent, or -1 when there is none. *why: one line.
 */
bool bt_boot_restart_allowed(bool measured, bool every_boot_measures, int32_t boot_current,
			     bool current_in_boot_order, char *why, size_t len);

/*
 * --then next-boot-entry's BootNext attempt (efi/boot-entry.c) for an entry
 * only the firmware's boot manager can resolve (a URI, a USB class or WWID
 * path...), kept in BaretopState's flags: BT_BOOT_STATE_BOOTNEXT_TRIED with
 * the entry in bits 16-31, and the boot it was made in (the low 12 bits of
 * the high 32 bits of the platform's monotonic counter, which UEFI 2.10
 * 8.5.2 GetNextHighMonotonicCount increments at every reset: EDK2
 * MonotonicCounterRuntimeDxe MonotonicCounterDriverInit) in bits 4-15.
 * What a later boot that meets that entry again decides:
 */
enum bt_bootnext_verdict {
	BT_BOOTNEXT_TRY,          /* no attempt recorded for it: BootNext and reset */
	/* The attempt's very next boot comes back to baretop: the firmware
	 * did not reach the entry either (or it returned); skip it, and mark
	 * it BT_BOOT_STATE_BOOTNEXT_UNREACHED so later boots skip it without
	 * a reset. */
	BT_BOOTNEXT_FAILED,
	BT_BOOTNEXT_SKIP,         /* marked unreached, or no boot number to tell: skip */
	/* Boots passed without baretop since the attempt: the entry was
	 * reached. The mark is cleared and the attempt made again (it is how
	 * this entry is reached), so every boot follows BootOrder as before. */
	BT_BOOTNEXT_REACHED,
};
enum bt_bootnext_verdict bt_bootnext_decide(uint32_t flags, uint16_t entry, bool have_boot_id,
					    uint32_t boot_id);
/* The flags with an attempt for `entry` in the boot `boot_id` recorded. */
uint32_t bt_bootnext_mark(uint32_t flags, uint16_t entry, uint32_t boot_id);
/* The flags with no attempt recorded. */
uint32_t bt_bootnext_clear(uint32_t flags);

/* The status of a finished measurement from its exit status and whether the
 * budget ended it early. */
enum bt_boot_status bt_boot_status_of(int exit_status, bool budget_ended);

#endif
