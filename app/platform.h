/* SPDX-License-Identifier: MIT */
/*
 * What the portable program needs from the environment beyond the C
 * library. Files, console and time go through libc (newlib's system calls
 * are implemented over UEFI in efi/syscalls.c), so they are not here.
 * Implemented by efi/platform.c (UEFI) and host/platform-host.c (Linux, for
 * tests and baretop-host).
 */
#ifndef APP_PLATFORM_H
#define APP_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "app/boot-policy.h"
#include "base/diag.h"
#include "base/status.h"
#include "base/text-style.h"
#include "arch/arch.h"
#include "arch/paging.h"
#include "firmware/machine.h"
#include "pmu/cpu-info.h"
#include "report/results.h"
#include "workloads/workload.h"

struct bt_sim_machine;

/* What an AP runs for baretop (platform.h run_on_cpu, run_on_aps). */
typedef void bt_ap_proc(void *arg, uint64_t entry_sp);

struct bt_cpu_location {
	uint64_t apic_id;
	uint32_t package, core, thread;
	bool is_bsp;
	bool enabled;
};

/* How the fault guard came up; reported in every results file. */
struct bt_fault_guard_state {
	bool installed;          /* #GP and #UD handlers registered */
	char detail[128];        /* how, or why not */
};

struct bt_platform {
	const char *name;        /* "UEFI" or "hosted" */
	char firmware_vendor[64];
	uint32_t firmware_revision;
	uint32_t uefi_revision;  /* (major << 16) | minor, 0 when hosted */

	/* Where the program was loaded from ("\EFI\BOOT\BOOTX64.EFI"), and
	 * the configuration file read when present (relative paths are taken
	 * from the program's directory); NULL when there is none. */
	char program_path[256];
	const char *config_path;
	/* Where results go without --results-dir; NULL: BT_DEFAULT_RESULTS_DIR
	 * (the ESP's \baretop\results). Hosted, a path relative to the
	 * working directory, so a run never writes to the file system's root. */
	const char *default_results_dir;
	/* Why files cannot be written at all (no file system on the boot
	 * device...), or "" if they can be tried. */
	char files_unavailable[128];

	/* The backend for privileged instructions: hardware under UEFI. The
	 * simulated one is chosen by the program, never by the platform. */
	struct bt_arch *arch;
	/* A simulated machine's PMUs, one per logical CPU (the hosted machine
	 * double, host/machine-double.h): --sim counts on them
	 * (synth/sim-run.h). NULL on a real machine. */
	const struct bt_sim_machine *sim_machine;
	/*
	 * Counting through the operating system's PMU driver instead of
	 * baretop's registers (--backend=perf; hosted: Linux perf_event,
	 * host/perf-pmu.c). Fills *ret (an arch for CPUID and the TSC, the
	 * PMU's capabilities as CPUID enumerates them, the driver) and
	 * counted_by: the provenance every output of such a run carries. Or
	 * returns why not (no PMU exposed to the OS...). NULL: there is no OS
	 * (UEFI).
	 */
	bt_status (*os_pmu)(const struct bt_cpu_info *cpu, struct bt_pmu *ret, char *counted_by,
			    size_t len, struct bt_diag *why);
	struct bt_fault_guard_state fault_guard;
	/* Executes UD2 through the fault guard and returns the vector that was
	 * caught (6 when the guard works); NULL where there is no guard. */
	uint8_t (*fault_guard_selftest)(void);
	/* On baretop's own CPU: should an unexpected exception end the run
	 * there, fn(arg) runs first, once, before the fault is reported (and
	 * before the recovery: efi/fault-guard.c): an open PMU session is
	 * closed that way, so a crashed workload does not leave that CPU
	 * counting with baretop's registers. fn must not call the firmware. fn
	 * NULL removes it. NULL where there is no fault guard (hosted). A job
	 * on an AP registers its cleanups with the job instead (app/on-cpu.h
	 * bt_cpu_job_set_cleanup). */
	void (*set_park_cleanup)(void (*fn)(void *), void *arg);
	/* An unguarded UD2 on this CPU: on baretop's own it does not return
	 * (report, then the end of a crashed run: bt_app_crash_end); in a job
	 * on an AP it is recovered (--fault-selftest-ap: app/on-cpu.h
	 * bt_cpu_fault_selftest). */
	void (*crash_test)(void);
	/* Overruns a local array in a function built with the stack protector:
	 * its check must report it through the fault reporter and power off,
	 * as a failure; does not return. NULL where the build has no stack
	 * protector of its own (hosted). */
	void (*stack_smash_test)(void);

	/*
	 * The console (stdout). console_interactive: a screen or terminal a
	 * person watches (UEFI: always; hosted: stdout is a tty): a progress
	 * line may be rewritten in place with '\r', and --color=auto turns
	 * highlighting on. console_style(ctx, f, s) switches the attribute of
	 * what is written to f next (UEFI: SIMPLE_TEXT_OUTPUT.SetAttribute,
	 * f flushed first; hosted: ANSI SGR escapes written to f); NULL where
	 * there is none. console_blocks: U+2588 FULL BLOCK and U+2591 LIGHT
	 * SHADE can be shown (UEFI: SIMPLE_TEXT_OUTPUT.TestString accepts
	 * them; hosted: a UTF-8 locale).
	 */
	bool console_interactive;
	bool console_blocks;
	void (*console_style)(void *ctx, FILE *f, enum bt_text_style s);
	void *console_style_ctx;

	/* Busy-wait (UEFI: BootServices->Stall). */
	void (*stall_us)(uint64_t us);
	/* Wall-clock time as "YYYY-MM-DDTHH:MM:SSZ" or "" if unknown. The
	 * firmware RTC has no time zone guarantee; it is labelled as such. */
	void (*wallclock)(char *buf, size_t len);

	/* The machine's identity and firmware facts (SMBIOS, ACPI FPDT, Boot
	 * Loader Interface variables; firmware/ parses them). NULL: none. */
	void (*machine_facts)(struct bt_machine *ret);

	/* rename() that never replaces an existing file (errno EEXIST). */
	int (*rename_noreplace)(const char *from, const char *to);

	/*
	 * Logical CPUs (UEFI: EFI_MP_SERVICES_PROTOCOL), as the PI
	 * specification allows them after ReadyToBoot, when baretop always
	 * runs: blocking calls only. app/on-cpu.h builds every multi-CPU
	 * action on these; nothing else calls run_on_cpu or run_on_aps.
	 */
	bt_status (*cpu_count)(uint32_t *ret_total, uint32_t *ret_enabled);
	bt_status (*cpu_location)(uint32_t cpu, struct bt_cpu_location *ret);
	/* The logical CPU the caller runs on (WhoAmI, which APs may call). */
	uint32_t (*current_cpu)(void);
	/* Blocking StartupThisAP: fn(arg, entry_sp) on AP `cpu`; BT_OK when
	 * it returned, BT_ERR_TIMEOUT when timeout_us (never 0) passed first
	 * and the firmware terminated it. entry_sp is the stack pointer the
	 * firmware called the platform's procedure with, which fn measures
	 * its use of the firmware's AP stack from. fn must not call the
	 * firmware but WhoAmI. */
	bt_status (*run_on_cpu)(uint32_t cpu, bt_ap_proc *fn, void *arg, uint64_t timeout_us);
	/* Blocking StartupAllAPs: fn(arg, entry_sp) on every enabled AP at
	 * once (each asks current_cpu which it is); BT_ERR_TIMEOUT with
	 * *ret_n_failed terminated. */
	bt_status (*run_on_aps)(bt_ap_proc *fn, void *arg, uint64_t timeout_us,
				uint32_t *ret_n_failed);

	/* The pages that map [addr, addr + len) of baretop's own memory
	 * (arch/paging.h): UEFI walks the page tables through the arch seam
	 * (bt_page_span_read on the hardware backend, also under --sim: the
	 * memory is real); hosted, /proc/self/smaps (host/pages-host.c). NULL:
	 * unknown. The known-count kernels' expectations that depend on the
	 * page size (dtlb-walk) are taken from it. */
	void (*memory_pages)(const void *addr, uint64_t len, struct bt_page_span *ret);

	/* What the workloads need from the platform: code and data memory, and
	 * where the platform can start work beside a running caller (hosted
	 * Linux: a thread) a partner CPU; without that (UEFI after ReadyToBoot)
	 * the partner is the program's (app/on-cpu.h). env.cpu is filled by
	 * the program after detection. */
	struct bt_wl_env workload_env;

	/*
	 * Another EFI application as the workload (-x). image_load reads FILE
	 * from the boot volume and loads it with `args` as its load options
	 * (argv[0] included, as the UEFI shell passes them); image_start runs
	 * it (the measured body: StartImage only) and unloads it when it
	 * returns; the exit status and its exit data (when text) are kept.
	 * An image runs once per load, so each run loads it again.
	 */
	bt_status (*image_load)(const char *path, int argc, char *const *argv, void **ret_image,
				struct bt_diag *d);
	bt_status (*image_prepare)(void *image, struct bt_diag *d); /* before each run */
	void (*image_start)(void *image);   /* bt_window_fn-compatible */
	/* d gets one line either way: the exit status (and exit data), or why none. */
	bt_status (*image_result)(void *image, uint64_t *ret_status, struct bt_diag *d);
	void (*image_free)(void *image);

	/* After the program returns: how it ends (app/boot-policy.h
	 * bt_boot_decide_end), carried out once the platform has undone its
	 * own changes; chainload is BT_END_CHAINLOAD's file. Set by the
	 * program. */
	enum bt_end_action end_action;
	char chainload[256];

	/* Where an unexpected fault reports failure (QEMU's isa-debug-exit):
	 * set when the options ask for --qemu-exit. May be NULL. */
	void (*set_failure_exit_port)(uint16_t port);
	/* Report `code` to QEMU's isa-debug-exit device at `port`; QEMU then
	 * exits with status (code << 1) | 1. Returns only if nothing happened. */
	bt_status (*qemu_debug_exit)(uint16_t port, uint32_t code);

	/*
	 * Unattended boot-time runs (app/boot-run.c). NULL / 0 where the
	 * platform has none; the program then says so.
	 *
	 * baretop's own non-volatile variables, under BT_VENDOR_GUID_TEXT
	 * (app/boot-state.h): UEFI GetVariable / SetVariable with
	 * NON_VOLATILE | BOOTSERVICE_ACCESS | RUNTIME_ACCESS; hosted, files in
	 * efivarfs format in the folder $BARETOP_HOST_NVRAM (a stand-in for
	 * tests). nv_read: *len is the buffer's size in, the variable's out;
	 * BT_ERR_NOT_FOUND when there is no such variable.
	 */
	bt_status (*nv_read)(const char *name, void *buf, size_t *len, struct bt_diag *d);
	bt_status (*nv_write)(const char *name, const void *buf, size_t len, struct bt_diag *d);
	/* Arms the firmware's watchdog: the machine is reset `seconds` from
	 * now unless it is called again (0 disarms). UEFI SetWatchdogTimer. */
	bt_status (*set_watchdog)(uint32_t seconds);
	/* Deletes BootNext (app/boot-policy.h bt_boot_start_stale_boot_next);
	 * NULL where there is none. */
	bt_status (*boot_next_delete)(struct bt_diag *d);
	/* The TSC when the platform's entry point started (0: unknown): the
	 * start of the time budget and of the hand-over time. */
	uint64_t entry_tsc;
	/* Set by the platform before the program starts: what started it,
	 * BootCurrent, BootOrder, BootNext, the monotonic count. */
	struct bt_boot_start boot_start;
	/* Set by the program with the end action: --then next-boot-entry may
	 * make an entry BootNext and reset (app/boot-policy.h). */
	bool bootnext_may_reset;
	/* Free bytes on the volume that holds `path` (the results folder):
	 * UEFI EFI_FILE_SYSTEM_INFO.FreeSpace of the boot volume, hosted
	 * statvfs. BT_OK or why not. NULL: not known. */
	bt_status (*volume_free)(const char *path, uint64_t *ret_bytes);
	/* Set by the program: NVRAM writes it made through nv_write (and the
	 * platform's own, e.g. BootNext, counted by the platform). */
	uint32_t nv_writes;
	/* Set by the platform: logical CPUs baretop started work on that
	 * never came back (an AP that faulted and is parked inside baretop's
	 * image, or one that timed out), and why, in one line. Handing over
	 * with such a CPU can hang the next stage (EDK2's
	 * MpInitChangeApLoopCallback waits for every AP at ExitBootServices),
	 * so the program resets the machine instead (app/boot-policy.h). */
	uint32_t aps_unaccounted;
	char aps_unaccounted_why[160];
	/* Set by app/on-cpu.c: the exceptions on APs in baretop's jobs, the
	 * first BT_MAX_AP_FAULT_RECORDS of n_ap_faults, for the results. */
	struct bt_ap_fault_record ap_faults[BT_MAX_AP_FAULT_RECORDS];
	unsigned n_ap_faults;
};

#endif
