/* SPDX-License-Identifier: MIT */
/*
 * A double of the firmware around baretop's boot (SIMULATED): EDK2's boot
 * manager as its source has it (MdeModulePkg/Universal/BdsDxe/BdsEntry.c
 * BdsEntry, BootBootOptions, ProcessLoadOptions for PlatformRecovery;
 * UefiBootManagerLib/BmBoot.c EfiBootManagerBoot), the UEFI shell's
 * startup.nsh, shim 16.1 (shim.c init_grub) and systemd-boot 252
 * (src/boot/efi/boot.c efi_main, config_load_defaults, image_start), each
 * with the firmware behaviours machines vary in. A program under test
 * (baretop: the real policy code through an adapter) is started where the
 * start path puts it; the double runs 12 boots of every combination of
 * start path x firmware behaviour x run policy x end action x fault, and
 * checks the invariants of README.md "The OS always boots" over each.
 * The program's side of --then next-boot-entry (efi/boot-entry.c) is an
 * adapter's, written from that file.
 */
#ifndef TESTS_UNIT_LIB_BOOT_PATH_DOUBLE_H
#define TESTS_UNIT_LIB_BOOT_PATH_DOUBLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum bpd_path {
	BPD_BOOTORDER_FIRST,  /* BootOrder [baretop, OS] */
	BPD_BOOTORDER_LATER,  /* BootOrder [PXE that finds no server, baretop, OS] */
	BPD_BOOTNEXT,         /* BootOrder [OS]; the OS sets BootNext=baretop before each reboot */
	BPD_REMOVABLE,        /* the entry BDS makes for a disk: \EFI\BOOT\BOOTX64.EFI = baretop */
	/* BootOrder [an OS loader Secure Boot refuses]: BDS's PlatformRecovery
	 * starts \EFI\BOOT\BOOTX64.EFI (baretop, then a rescue system) with no
	 * BootCurrent */
	BPD_RECOVERY,
	/* BootOrder [shell, the OS over the network (below), OS]: startup.nsh
	 * runs baretop, then the OS loader */
	BPD_SHELL,
	BPD_SHIM,             /* BootOrder [shim with baretop as second stage, OS] */
	/* BootOrder [systemd-boot]: entries OS (default) and baretop, which
	 * the OS makes the one-shot entry (LoaderEntryOneShot) before each reboot */
	BPD_SDBOOT_ONESHOT,
	BPD_SDBOOT_DEFAULT,   /* as above, baretop the default entry: cannot reach the OS */
	/* BootOrder [baretop, the OS over the network (a URI path only the
	 * firmware resolves; its first attempt in the series fails), the OS
	 * on disk] */
	BPD_NETWORK_OS,
	BPD_N_PATHS
};

enum bpd_fw {
	BPD_FW_EDK2,          /* deletes BootNext, sets BootCurrent, HLT AP loop, count advances */
	BPD_FW_KEEPS_BOOTNEXT,
	BPD_FW_NO_BOOTCURRENT,
	BPD_FW_MWAIT,         /* APs in an MWAIT loop: a CPU left behind hangs ExitBootServices */
	BPD_FW_STORE_FULL,    /* every non-volatile SetVariable: EFI_OUT_OF_RESOURCES */
	BPD_FW_COUNT_STUCK,   /* the monotonic count's high half does not grow across resets */
	BPD_FW_NO_COUNT,      /* GetNextMonotonicCount fails */
	/* Secure Boot: an unsigned loader right after baretop's entry is refused */
	BPD_FW_SECURE_BOOT,
	BPD_N_FW
};

enum bpd_policy { BPD_RUN_NONE, BPD_RUN_ONCE, BPD_RUN_EVERY_BOOT, BPD_RUN_EVERY_2, BPD_N_POLICY };
enum bpd_then {
	BPD_THEN_DEFAULT, BPD_THEN_RETURN, BPD_THEN_REBOOT, BPD_THEN_SHUTDOWN,
	BPD_THEN_NEXT_BOOT_ENTRY, BPD_THEN_CHAINLOAD, BPD_N_THEN
};
/* What a boot that measures meets: nothing (it measures), a configuration
 * that cannot be used (every boot), or a fault on its first measuring
 * boot only or on every one. */
enum bpd_fault {
	BPD_MEASURED, BPD_USAGE_ERROR, BPD_CRASH_ONCE, BPD_CRASH_ALWAYS, BPD_HANG_ONCE,
	BPD_HANG_ALWAYS, BPD_CPUS_LEFT_ONCE, BPD_CPUS_LEFT_ALWAYS, BPD_N_FAULT
};

enum bpd_parent {
	BPD_PARENT_BOOT_MANAGER, BPD_PARENT_RECOVERY, BPD_PARENT_SHELL, BPD_PARENT_SHIM,
	BPD_PARENT_SYSTEMD_BOOT, BPD_PARENT_SELF,
};

/* One start of the program under test. */
struct bpd_model;
struct bpd_run_in {
	struct bpd_model *m;
	enum bpd_parent parent;
	bool have_boot_current;
	uint16_t boot_current;
	bool boot_order_read, current_in_order;
	bool have_boot_next;
	uint16_t boot_next;
	bool have_count;
	uint64_t count;
	enum bpd_policy policy;
	enum bpd_then then;
	enum bpd_fault fault;
	bool fault_now;        /* a measuring boot of this start meets the fault */
	const char *results_dir;
	uint64_t entry_tsc;
};

enum bpd_act {
	BPD_ACT_RETURN_SUCCESS,  /* EFI_SUCCESS to its parent */
	BPD_ACT_RETURN_ERROR,    /* any other status (EFI_NOT_STARTED...) */
	/* EFI_INVALID_PARAMETER: an error to BDS; shim falls back to its
	 * default loader (shim.c init_grub) */
	BPD_ACT_RETURN_INVALID,
	BPD_ACT_CHAINLOAD,       /* starts the OS loader file (--then chainload) */
	BPD_ACT_RESTART_PARENT,
	BPD_ACT_RESET,
	BPD_ACT_POWER_OFF,
	BPD_ACT_HANG,            /* spins; the watchdog resets if armed (watchdog_armed) */
	BPD_ACT_OVER,            /* the boot ended inside (an entry it started: OS, reset) */
};
struct bpd_run_out {
	enum bpd_act act;
	bool measured;           /* measured, or tried to (crashed, hung, CPUs left) */
	bool watchdog_armed;     /* when it hangs */
	bool cpus_left;          /* CPUs it started are left behind at the hand-over */
	bool refused;            /* said why this configuration cannot reach the OS */
	bool record_wrong;       /* its results file records another end than it took */
};
typedef void bpd_run_fn(const struct bpd_run_in *in, struct bpd_run_out *out);

/* The firmware's services to the program (as UEFI gives them). */
enum { BPD_NV_OK, BPD_NV_NOT_FOUND, BPD_NV_FULL };
int bpd_nv_read(struct bpd_model *m, void *buf, size_t *len);
int bpd_nv_write(struct bpd_model *m, const void *buf, size_t len);
bool bpd_boot_next_delete(struct bpd_model *m);
bool bpd_boot_next_set(struct bpd_model *m, uint16_t num);
/* BootOrder and its entries, for next-boot-entry */
size_t bpd_boot_order(struct bpd_model *m, const uint16_t **ret);
enum bpd_entry_kind { BPD_ENTRY_LOADABLE, BPD_ENTRY_FIRMWARE_ONLY, BPD_ENTRY_REFUSED };
enum bpd_entry_kind bpd_entry_kind(struct bpd_model *m, uint16_t num);
/* Starts entry num's image as a boot option would be (no BootCurrent
 * change: baretop leaves it): true when the boot is over (the OS reached,
 * a reset...); otherwise *ret_success says how its image returned. */
bool bpd_start_entry(struct bpd_model *m, uint16_t num, bool *ret_success);

/* The invariants, checked over each combination's 12 boots. */
enum bpd_invariant {
	/* within 2 boots after every boot that measured (a power-off is no
	 * OS: a fleet's power-on must reach it) */
	BPD_INV_OS_REACHED,
	BPD_INV_RESETS,        /* baretop's resets <= its measuring boots */
	BPD_INV_POWER_OFF,     /* only on a measuring boot, and only with --then shutdown */
	BPD_INV_NV_WRITES,     /* NVRAM writes per boot <= BPD_NV_WRITES_MAX */
	BPD_INV_RESULTS,       /* no results file overwritten; each records the end taken */
	BPD_INV_RESET_CAP,     /* no two boots in a row ended by baretop's reset or power-off */
	BPD_INV_STALE_BOOTNEXT,/* BootNext equal to baretop's BootCurrent gone after its boot */
	BPD_INV_ONCE,          /* baretop started at most once per boot (but by its own child) */
	BPD_N_INV
};
#define BPD_NV_WRITES_MAX 3u
#define BPD_BOOTS 12       /* 10 boots, and 2 after them for the last one's hand-over */
#define BPD_CHECKED_BOOTS 10

struct bpd_totals {
	unsigned long combos, boots, measured;
	unsigned long fail[BPD_N_INV];           /* combinations that broke it */
	unsigned long fail_by_path[BPD_N_PATHS][BPD_N_INV];
	unsigned long fail_by_fw[BPD_N_FW][BPD_N_INV];
	unsigned long fail_by_policy[BPD_N_POLICY][BPD_N_INV];
	unsigned long fail_by_then[BPD_N_THEN][BPD_N_INV];
	unsigned long fail_by_fault[BPD_N_FAULT][BPD_N_INV];
	unsigned max_nv_writes;
	unsigned long refused;                   /* systemd-boot default: said why */
	unsigned long person;                    /* a person's start at the shell */
	unsigned long ends[6];                   /* boots by how they ended (all 12) */
	unsigned long bootnext_resets;           /* resets after making an entry BootNext */
	char first_fail[BPD_N_INV][200];         /* the first combination that broke it */
	/* NVRAM writes per boot, by policy (no fault, EDK2 firmware,
	 * BootOrder first, --then default) */
	double nv_per_boot[BPD_N_POLICY];
};

/* Runs every combination (or those whose index bits match `only`; NULL:
 * all) of run_fn; results folders under scratch_dir. */
void bpd_run_all(bpd_run_fn *run_fn, const char *scratch_dir, struct bpd_totals *t);
/* One combination, for tests: returns the invariants broken as a bit mask. */
unsigned bpd_run_one(bpd_run_fn *run_fn, const char *scratch_dir, enum bpd_path p,
		     enum bpd_fw f, enum bpd_policy pol, enum bpd_then then, enum bpd_fault fault);
/* The table: start path x firmware rows, invariant columns. */
void bpd_print(FILE *out, const struct bpd_totals *t, const char *title);

/* The shell with no --run, --then or --budget: a person's start. */
bool bpd_person_at_shell(enum bpd_path p, enum bpd_policy pol, enum bpd_then then);
const char *bpd_path_name(enum bpd_path p);
const char *bpd_fw_name(enum bpd_fw f);
const char *bpd_invariant_name(enum bpd_invariant i);

#endif
