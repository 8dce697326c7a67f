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
 * recorded as hung and this boot does not measure, it hands over; so does
 * a boot after baretop's reset for a crash or CPUs left behind
 * (BT_BOOT_STATE_HAND_OVER_NEXT). BT_RUN_ALWAYS (no --run) keeps the
 * record as every-boot does when the platform keeps one (an unattended
 * start: app/boot-run.c).
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
 * The monotonic count (UEFI 2.10 8.5.2 GetNextMonotonicCount): its high 32
 * bits are non-volatile and grow by one at every reset (EDK2
 * MonotonicCounterRuntimeDxe MonotonicCounterDriverInit), its low 32 bits
 * count calls within a boot. How a boot whose count is `now` relates to
 * the one that recorded `then` (0: none recorded):
 */
enum bt_boot_gap {
	BT_GAP_UNKNOWN,     /* no count now, or none recorded */
	BT_GAP_SAME_BOOT,   /* high halves equal, low grew: baretop ran again in that boot */
	BT_GAP_NEXT_BOOT,   /* the boot right after it */
	BT_GAP_LATER_BOOT,  /* two or more boots after it: some boot in between was not its */
	/* the high half did not grow across a reset (or went back): the
	 * firmware's count cannot tell boots apart */
	BT_GAP_STUCK,
};
enum bt_boot_gap bt_boot_gap(bool have_now, uint64_t now, uint64_t then);
const char *bt_boot_gap_name(enum bt_boot_gap g);

/* What started baretop (the platform finds it out: efi/boot-vars.c). */
enum bt_parent {
	BT_PARENT_BOOT_MANAGER, /* the firmware's boot manager, from a Boot#### option */
	/* the firmware without a boot option: EDK2's PlatformRecovery####
	 * (BdsEntry.c ProcessLoadOptions) or its default file path; no
	 * BootCurrent, and a failure status makes it try the next candidate */
	BT_PARENT_RECOVERY,
	BT_PARENT_SHELL,        /* the UEFI shell (a person or startup.nsh) */
	BT_PARENT_SHIM,         /* shim, which runs its second stage as itself */
	BT_PARENT_SYSTEMD_BOOT, /* systemd-boot, as one of its menu entries */
	BT_PARENT_LOADER,       /* another loader (GRUB's chainloader, rEFInd, ...) */
	/* a loader baretop restarted to hand back to it (BT_END_RESTART_PARENT)
	 * started baretop again: baretop is that loader's default entry, a
	 * configuration that cannot reach the OS */
	BT_PARENT_SELF,
	BT_PARENT_HOSTED,       /* baretop-host */
};
const char *bt_parent_name(enum bt_parent p);

/* What the boot knew when baretop started (read once, before the options). */
struct bt_boot_start {
	enum bt_parent parent;
	bool have_boot_current;
	uint16_t boot_current;
	/* BootOrder read whole (present, and within the 256 entries baretop
	 * reads): only then is "BootCurrent is not in BootOrder" evidence */
	bool boot_order_read;
	bool current_in_order;
	/* BootNext as found at the start, and whether baretop deleted it
	 * (bt_boot_start_stale_boot_next) */
	bool have_boot_next;
	uint16_t boot_next;
	bool boot_next_deleted;
	bool have_count;        /* the monotonic count could be read */
	uint64_t count;
};

/* BootNext still equal to BootCurrent: the firmware kept it (EDK2's BDS
 * deletes it before it starts that entry, BdsEntry.c "Delete BootNext NV
 * variable before transferring control to it to prevent loops"; others
 * keep it, e.g. rhboot/fwupdate #70), so every boot would start baretop
 * again. It is deleted, whatever the policy. */
bool bt_boot_start_stale_boot_next(const struct bt_boot_start *s);

/* How the boot ended for the program. */
enum bt_boot_outcome {
	BT_OUTCOME_MEASURED,    /* measured (a failed workload or unwritten file included) */
	BT_OUTCOME_NOT_NOW,     /* the policy or the state said not to measure */
	BT_OUTCOME_USAGE_ERROR, /* the configuration could not be used: nothing ran */
	BT_OUTCOME_CRASH,       /* an exception or a fatal check on baretop's CPU */
	/* measured, but CPUs it started never came back (platform
	 * aps_unaccounted): a hand-over can hang in the firmware (EDK2
	 * MpInitChangeApLoopCallback waits for every AP at ExitBootServices) */
	BT_OUTCOME_CPUS_LEFT,
	BT_OUTCOME_INFO,        /* --help, --version, a listing: no boot's run */
};

/* The end of a run, carried out by the platform after its clean-up. */
enum bt_end_action {
	BT_END_RETURN,              /* return the exit status (0: EFI_SUCCESS) */
	/* return EFI_NOT_STARTED: EDK2's BDS goes on with BootOrder (after
	 * EFI_SUCCESS it stops at its menu: BdsEntry.c BootBootOptions) */
	BT_END_RETURN_NOT_STARTED,
	BT_END_NEXT_BOOT_ENTRY,     /* start the BootOrder entry after BootCurrent */
	BT_END_CHAINLOAD,           /* start --then-boot FILE */
	/* start the loader that started baretop again, from its file: it
	 * boots its default entry (systemd-boot, another loader) */
	BT_END_RESTART_PARENT,
	BT_END_RESET,
	BT_END_POWER_OFF,
};
const char *bt_end_action_name(enum bt_end_action a);

/*
 * The status a return to the parent carries; efi/efi-main.c turns it into
 * an EFI_STATUS. Every hand-over by returning is EFI_NOT_STARTED, whatever
 * the exit status (the results and the state record that): EDK2's BDS
 * goes on past any error (BdsEntry.c BootBootOptions stops only at
 * EFI_SUCCESS), but shim 16.1 starts its default loader, \grubx64.efi,
 * after EFI_INVALID_PARAMETER, EFI_NOT_FOUND and the TFTP/HTTP errors
 * (shim.c init_grub, "falling back to default loader") — baretop itself
 * when it is shim's second stage, so it would run twice in one boot. Only
 * a person's run (BT_END_RETURN) gets its real status.
 */
enum bt_return_status {
	BT_RETURN_SUCCESS,
	BT_RETURN_NOT_STARTED,
	BT_RETURN_INVALID_PARAMETER, /* a usage error, to a person */
	BT_RETURN_ABORTED,           /* a failed run, to a person */
};
enum bt_return_status bt_boot_return_status(enum bt_end_action a, int exit_status);

/* baretop never resets the machine in two boots in a row: the boot after
 * its reset hands over. */
#define BT_BOOT_RESETS_MAX 1u

/* Everything the end of a boot knows. */
struct bt_boot_end_in {
	const struct bt_boot_config *cfg;
	bool chainload;             /* --then chainload:FILE / --then-boot */
	bool shutdown;              /* --then shutdown / --shutdown */
	bool active;                /* --run, --then or --budget given */
	/* the NVRAM state was read and can be written (false: none, or
	 * writes are failing): without it a reset cannot be counted */
	bool state_kept;
	struct bt_boot_state stored; /* as NVRAM has it now */
	struct bt_boot_state state;  /* as this boot has it (bt_boot_begin's) */
	bool measuring;             /* bt_boot_begin said measure */
	enum bt_boot_outcome outcome;
	int exit_status;
	bool budget_ended;
	uint32_t seq;               /* the results file written; 0 none */
	/* the end of this measurement is recorded with its results (the
	 * results folder's note, bt_boot_end_note): NVRAM needs no write
	 * for it */
	bool end_noted;
	struct bt_boot_start start;
};

struct bt_boot_end {
	enum bt_end_action action;
	struct bt_boot_state state; /* to keep */
	bool write_state;           /* state differs from stored in what a later boot needs */
	uint32_t resets_in_a_row;   /* before this boot's */
	/* --then next-boot-entry may make an entry BootNext and reset (a path
	 * only the boot manager resolves, started from a shell) */
	bool bootnext_may_reset;
	char why[640];              /* one line: the action and why */
};

/*
 * The end of every boot, decided in one place; the platform carries it
 * out. Invariants (README.md, "The OS always boots"):
 *  (a) a boot that did not measure never resets or powers off: it hands
 *      over (a usage error, "not now", the boot after a hang or a crash);
 *  (b) resets in a row are capped at BT_BOOT_RESETS_MAX by the count kept
 *      in the state and the monotonic count: a boot that cannot show that
 *      some boot came between it and baretop's last reset (no count, one
 *      that does not advance, no state) counts as in a row;
 *  (c) BootNext still equal to BootCurrent is deleted at the start
 *      (bt_boot_start_stale_boot_next), and while it cannot be, the start
 *      is no one-shot;
 *  (d) a crash or CPUs left behind end in a reset only within (b) and
 *      where the next boot is told not to measure (or does not start
 *      baretop), otherwise in the hand-over;
 *  (f) under a loader (systemd-boot, another one) the hand-over is back to
 *      it: a measuring boot resets (within (b)), so the loader boots its
 *      default entry; any other boot starts the loader again; started
 *      again by it (it is that loader's default) baretop refuses.
 * --help, --version and the listings are no boot's run: they hand back,
 * or power off with --shutdown.
 * --then reboot restarts only where the next boot cannot measure and
 * restart again: a one-shot start (BootCurrent present, BootOrder read
 * whole and without it, BootNext not still pointing at it: EDK2's BDS
 * pass starts only BootOrder's entries, BootBootOptions over
 * EfiBootManagerGetLoadOptions, so such an entry came from BootNext, a
 * hotkey or a person's menu choice), or a policy that does not measure on
 * every boot (once, every=N with N > 1) with the state to record it.
 */
void bt_boot_decide_end(const struct bt_boot_end_in *in, struct bt_boot_end *ret);

/*
 * The end of a measurement recorded with its results, in the results
 * folder's sequence note (report/results-file.h), "run=TAG status=S",
 * which names the file written just before it (sequence `seq`). A boot
 * that finds its state in progress and the note naming the same run_tag
 * knows that measurement ended (bt_boot_note_resolve), so the measuring
 * boot needs no NVRAM write at its end. A note of another run (an older
 * state, a cleared variable) resolves nothing; without one the run is
 * hung.
 */
void bt_boot_end_note(const struct bt_boot_state *s, enum bt_boot_status status, char *buf,
		      size_t len);
bool bt_boot_note_resolve(struct bt_boot_state *s, const char *note, uint32_t seq);

/*
 * --then next-boot-entry's BootNext attempt (efi/boot-entry.c) for an entry
 * only the firmware's boot manager can resolve (a URI, a USB class or WWID
 * path...), when baretop was not started by the boot manager (which
 * reaches that entry itself after baretop returns), kept in BaretopState:
 * BT_BOOT_STATE_BOOTNEXT_TRIED with the entry in bits 16-31 and the
 * monotonic count of the boot it was made in (bootnext_count). What a
 * boot that meets that entry decides:
 */
enum bt_bootnext_verdict {
	BT_BOOTNEXT_TRY,          /* BootNext and reset (this boot may reset) */
	BT_BOOTNEXT_SKIP,         /* not now: no reset allowed, or no way to tell boots apart */
	/* The attempt's very next boot comes back to baretop: the firmware
	 * did not reach the entry (a network failure may be transient). It
	 * is skipped now and tried again on a later boot that may reset, up
	 * to BT_BOOTNEXT_TRIES attempts, then marked unreached. */
	BT_BOOTNEXT_FAILED,
	BT_BOOTNEXT_UNREACHED,    /* BT_BOOTNEXT_TRIES attempts came back: skipped for good */
	/* Boots passed without baretop since the attempt: the entry was
	 * reached; the record is cleared and the entry tried as BootNext
	 * again where this boot may reset. */
	BT_BOOTNEXT_REACHED,
};
#define BT_BOOTNEXT_TRIES 3u
/* Updates s (the record) as the verdict says; *ret_gap: how this boot
 * relates to the attempt's. */
enum bt_bootnext_verdict bt_bootnext_decide(struct bt_boot_state *s, uint16_t entry,
					    bool have_count, uint64_t count, bool may_reset,
					    enum bt_boot_gap *ret_gap);
/* The state with an attempt for `entry` in the boot of `count` recorded
 * (and counted as a reset: the attempt is one). */
void bt_bootnext_mark(struct bt_boot_state *s, uint16_t entry, uint64_t count);
/* No attempt recorded, failures forgotten. */
void bt_bootnext_clear(struct bt_boot_state *s);

/* The status of a finished measurement from its exit status and whether the
 * budget ended it early. */
enum bt_boot_status bt_boot_status_of(int exit_status, bool budget_ended);

#endif
