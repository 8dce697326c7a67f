/* SPDX-License-Identifier: MIT */
/*
 * State of the UEFI platform layer. The firmware tables live here and only
 * here: nothing outside efi/ sees them.
 */
#ifndef EFI_EFI_STATE_H
#define EFI_EFI_STATE_H

#include <efi.h>
#include <efilib.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/status.h"

struct bt_efi_state {
	EFI_HANDLE image;
	EFI_SYSTEM_TABLE *st;
	EFI_BOOT_SERVICES *bs;
	EFI_RUNTIME_SERVICES *rs;
	EFI_LOADED_IMAGE *loaded_image;
	/* Root directory of the volume baretop.efi was loaded from (the ESP
	 * or USB stick), or NULL with the reason in root_status. */
	EFI_FILE_HANDLE root;
	EFI_STATUS root_status;
	/* Directory of baretop.efi on that volume, "\EFI\BOOT" style, UTF-8,
	 * without a trailing backslash ("" for the root). */
	char app_dir[256];
	char app_path[256];
};

extern struct bt_efi_state bt_efi;

bt_status bt_efi_status(EFI_STATUS s);
/* "EFI_WRITE_PROTECTED", ... */
const char *bt_efi_status_name(EFI_STATUS s);
/* base/log.h's bt_log_status for an EFI_STATUS: "baretop: <message>:
 * EFI_NOT_FOUND" on stderr; returns st. */
EFI_STATUS bt_efi_log_status(EFI_STATUS st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* errno value for a failed file operation. */
int bt_efi_errno(EFI_STATUS s);

/* efi/console.c: UTF-8 to the console, '\n' -> CR LF. */
void bt_efi_console_write(const char *s, size_t n);
/* The platform's console_style (ctx: the console's attribute at start, a
 * UINTN) and console_blocks (app/platform.h). */
#include <stdio.h>
#include "base/text-style.h"
void bt_efi_console_style(void *ctx, FILE *f, enum bt_text_style s);
bool bt_efi_console_blocks(void);

/* efi/files.c */
void bt_efi_files_init(void);
void bt_efi_files_close_all(void);
/* platform volume_free: EFI_FILE_SYSTEM_INFO.FreeSpace of the boot volume. */
bt_status bt_efi_volume_free(const char *path, uint64_t *ret_bytes);

/* efi/heap.c: releases the heap pages (after the last malloc use). */
void bt_efi_heap_release(void);

/* efi/fault-guard.c */
struct bt_fault_guard_state;
void bt_efi_fault_guard_install(struct bt_fault_guard_state *ret);
void bt_efi_fault_guard_remove(void);

/* An unexpected exception on an AP, recorded by the fault guard (the AP
 * is parked: it may not call the firmware). */
struct bt_efi_ap_fault {
	bool hit;
	uint8_t vector;
	uint32_t apic_id;
	uint64_t rip, cr2;
	uint64_t offset;    /* into baretop.efi, 0 if outside */
	bool cleanup_ran;   /* its park cleanup ran before it was parked */
	/* Not an exception but bt_efi_fatal (vector unused): what failed and
	 * its detail (or NULL). The AP never returns from bt_efi_fatal, so
	 * strings in its frame stay valid for the BSP to print. */
	const char *fatal, *fatal_detail;
};
bool bt_efi_ap_fault(struct bt_efi_ap_fault *ret);
/* The platform's set_park_cleanup: one slot, for the calling CPU's APIC ID. */
void bt_efi_set_park_cleanup(void (*fn)(void *), void *arg);
/* With --qemu-exit: where an unexpected fault reports its failure. */
void bt_efi_set_failure_exit_port(uint16_t port);
/* efi_main's exit path for a crash on the BSP (efi/fault-guard.c): longjmp
 * there with BT_EFI_JUMP_CRASH, or BT_EFI_JUMP_CRASH + 1 for a crash while
 * the first one's end is carried out. */
#include <setjmp.h>
enum { BT_EFI_JUMP_EXIT = 1, BT_EFI_JUMP_CRASH = 2 };
void bt_efi_set_recovery(jmp_buf *j);

/* efi/args.c: the load options as UTF-8 argv (argv[0] = program name). */
bt_status bt_efi_args(int *ret_argc, char ***ret_argv);

/* A function that must run without a stack-protector canary: it sets the
 * canary (efi/stack-guard.c) or is live while it changes (efi_main). GCC and
 * clang both know this attribute since version 11. */
#define BT_NO_STACK_PROTECTOR __attribute__((no_stack_protector))

/* efi/stack-guard.c: the canary from RDRAND, else from the entry TSC and
 * the image base; called first thing in efi_main. */
void bt_efi_stack_guard_init(uint64_t entry_tsc, const void *image_base);
/* The platform's stack_smash_test: overruns a protected local array; the
 * check reports it through bt_efi_fatal and stops the machine. */
void bt_efi_stack_smash_test(void);

/*
 * efi/fault-guard.c: the end of the program after a failure that is not an
 * exception (a stack-check failure, a failed BT_ASSERT): like an unexpected
 * exception, on the BSP the park cleanup registered for this CPU runs (an
 * open PMU session is closed, its MSRs restored), `what` and `detail` (may
 * be NULL) are printed with `rip` (0: not known) as an offset into
 * baretop.efi, and the program comes back to efi_main's exit path as for
 * an exception (a crashed run), telling QEMU it failed with --qemu-exit.
 * On an AP it is recorded for the
 * BSP and that CPU is parked after its cleanup, as for an exception.
 */
_Noreturn void bt_efi_fatal(const char *what, const char *detail, uint64_t rip);

/* efi/syscalls.c: _exit() longjmps back to efi_main through this. */
void bt_efi_set_exit_handler(void (*fn)(int status));

#endif
