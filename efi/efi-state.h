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
};
bool bt_efi_ap_fault(struct bt_efi_ap_fault *ret);
/* The platform's set_park_cleanup: one slot, for the calling CPU's APIC ID. */
void bt_efi_set_park_cleanup(void (*fn)(void *), void *arg);
/* With --qemu-exit: where an unexpected fault reports its failure. */
void bt_efi_set_failure_exit_port(uint16_t port);
/* The platform's set_crash_reset: reset instead of powering off. */
void bt_efi_set_crash_reset(bool reset);

/* efi/args.c: the load options as UTF-8 argv (argv[0] = program name). */
bt_status bt_efi_args(int *ret_argc, char ***ret_argv);

/* efi/syscalls.c: _exit() longjmps back to efi_main through this. */
void bt_efi_set_exit_handler(void (*fn)(int status));

#endif
