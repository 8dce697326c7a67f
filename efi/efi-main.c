/* SPDX-License-Identifier: MIT */
/*
 * The UEFI entry point: set up the platform layer (console, heap, files on
 * the boot volume, fault guard, the boot's facts), run the portable
 * program, and carry out the end it decided (app/boot-policy.h
 * bt_boot_decide_end): return, next-boot-entry, chainload, the loader
 * started again, reset or power-off, with the fault guard installed until
 * the next stage starts. A crash on this CPU comes back here too
 * (efi/fault-guard.c) and ends as the program decides for a crash.
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app-main.h"
#include "app/cmdline.h"
#include "base/log.h"
#include "efi/boot-vars-efi.h"
#include "efi/efi-state.h"
#include "efi/image-efi.h"
#include "efi/mp.h"
#include "efi/platform-efi.h"
#include "arch/arch-hw.h"

struct bt_efi_state bt_efi;

static jmp_buf exit_jump;
static int exit_status;
static struct bt_fault_guard_state *guard_state;

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st);

/* exit() anywhere in the program (or abort()) comes back here. */
static void on_exit_call(int status)
{
	exit_status = status;
	longjmp(exit_jump, 1);
}

/* The loaded image's file path ("\EFI\BOOT\BOOTX64.EFI"): the media file
 * path nodes of LoadedImage->FilePath, concatenated. */
static void find_app_path(void)
{
	EFI_DEVICE_PATH *dp = bt_efi.loaded_image->FilePath;
	size_t n = 0;

	while (dp && !(dp->Type == END_DEVICE_PATH_TYPE && dp->SubType == 0xff)) {
		size_t len = dp->Length[0] | (size_t)dp->Length[1] << 8;

		if (len < 4)
			break;
		if (dp->Type == MEDIA_DEVICE_PATH && dp->SubType == MEDIA_FILEPATH_DP) {
			const CHAR16 *name = (const CHAR16 *)((const uint8_t *)dp + 4);

			/* A path may be split over several nodes ("EFI", "BOOT", ...;
			 * UEFI spec 10.3.5.4): they join with a backslash. */
			if (n && bt_efi.app_path[n - 1] != '\\' && name[0] != L'\\' &&
			    n + 1 < sizeof(bt_efi.app_path))
				bt_efi.app_path[n++] = '\\';
			for (size_t i = 0; i < (len - 4) / 2 && name[i]; i++) {
				char c = name[i] < 0x80 ? (char)name[i] : '?';
				if (c == '\\' && n && bt_efi.app_path[n - 1] == '\\')
					continue;
				if (n + 1 < sizeof(bt_efi.app_path))
					bt_efi.app_path[n++] = c;
			}
		}
		dp = (EFI_DEVICE_PATH *)((uint8_t *)dp + len);
	}
	bt_efi.app_path[n] = '\0';
	char *slash = strrchr(bt_efi.app_path, '\\');
	size_t dir_len = slash ? (size_t)(slash - bt_efi.app_path) : 0;
	memcpy(bt_efi.app_dir, bt_efi.app_path, dir_len);
	bt_efi.app_dir[dir_len] = '\0';
}

static void open_boot_volume(struct bt_platform *p)
{
	EFI_SIMPLE_FILE_SYSTEM_PROTOCOL *fs;
	EFI_STATUS st;

	st = bt_efi.bs->HandleProtocol(bt_efi.loaded_image->DeviceHandle, &gEfiSimpleFileSystemProtocolGuid,
				       (void **)&fs);
	if (st == EFI_SUCCESS)
		st = fs->OpenVolume(fs, &bt_efi.root);
	if (st != EFI_SUCCESS) {
		bt_efi.root = NULL;
		bt_efi.root_status = st;
		snprintf(p->files_unavailable, sizeof(p->files_unavailable),
			 "the boot device has no file system UEFI can open (%s)",
			 bt_efi_status_name(st));
	}
}

static uint8_t guard_selftest(void)
{
	return bt_arch_hw_guarded() ? (uint8_t)bt_hw_ud2() : 0;
}

static int efi_rename_noreplace(const char *from, const char *to)
{
	return rename(from, to); /* efi/files.c: never replaces */
}

/*
 * --then-boot: everything baretop changed is undone (fault guard removed,
 * vector state and PMU registers restored by the program, files closed);
 * now start the next application from the boot volume. An OS loader does
 * not come back; if it does, its status is baretop's.
 */
static EFI_STATUS chainload(struct bt_platform *p)
{
	void *image = NULL;
	struct bt_diag d = { "" };
	uint64_t status = EFI_LOAD_ERROR;

	/* No load options: the boot manager would pass the boot option's
	 * optional data, which baretop does not have. */
	if (bt_efi_image_load(p->chainload, 0, NULL, &image, &d) != BT_OK) {
		printf("baretop: --then-boot: %s\n", d.text);
		return EFI_LOAD_ERROR;
	}
	bt_efi_before_next_stage();
	bt_efi_image_start(image);
	bt_efi_after_next_stage();
	bt_efi_image_result(image, &status, &d);
	printf("baretop: %s returned: %s\n", p->chainload, d.text);
	bt_efi_image_free(image);
	return (EFI_STATUS)status;
}

void bt_efi_before_next_stage(void)
{
	fflush(stdout);
	/* EDK2's boot manager arms a 5-minute watchdog before it starts a
	 * boot option (BmBoot.c EfiBootManagerBoot; UEFI spec,
	 * SetWatchdogTimer) and disarms it when the option returns. */
	bt_efi.bs->SetWatchdogTimer(300, 0, 0, NULL);
	bt_efi_fault_guard_remove();
}

void bt_efi_after_next_stage(void)
{
	bt_efi.bs->SetWatchdogTimer(0, 0, 0, NULL);
	bt_efi_fault_guard_install(guard_state);
}

/* The status of a return (app/boot-policy.h bt_boot_return_status: a
 * hand-over is always "not started", so that shim does not start its
 * default loader, baretop again, after it). */
static EFI_STATUS status_of(enum bt_end_action a, int status)
{
	switch (bt_boot_return_status(a, status)) {
	case BT_RETURN_SUCCESS:           return EFI_SUCCESS;
	case BT_RETURN_INVALID_PARAMETER: return EFI_INVALID_PARAMETER;
	case BT_RETURN_ABORTED:           return EFI_ABORTED;
	default:                          return BT_EFI_HANDOVER_STATUS;
	}
}

/* The end the program decided. A hand-over by returning to the boot manager
 * must not be EFI_SUCCESS: EDK2's BDS then stops BootOrder and starts its
 * menu (MdeModulePkg/Universal/BdsDxe/BdsEntry.c BootBootOptions, and
 * BdsEntry after a BootNext boot); any error makes it go on. */
static EFI_STATUS carry_out(struct bt_platform *p)
{
	EFI_STATUS est;

	switch (p->end_action) {
	case BT_END_CHAINLOAD:
		return chainload(p); /* reads through bt_efi.root */
	case BT_END_NEXT_BOOT_ENTRY:
		return bt_efi_start_next_boot_entry(p);
	case BT_END_RESTART_PARENT:
		est = bt_efi_restart_parent();
		return est == EFI_SUCCESS ? EFI_SUCCESS : BT_EFI_HANDOVER_STATUS;
	case BT_END_RESET:
		fflush(stdout);
		bt_efi.rs->ResetSystem(EfiResetCold, EFI_SUCCESS, 0, NULL);
		return EFI_DEVICE_ERROR;
	case BT_END_POWER_OFF:
		fflush(stdout);
		bt_efi.rs->ResetSystem(EfiResetShutdown, EFI_SUCCESS, 0, NULL);
		return EFI_DEVICE_ERROR;
	case BT_END_RETURN_NOT_STARTED:
	case BT_END_RETURN:
	default:
		return status_of(p->end_action, exit_status);
	}
}

/* Unprotected: the stack-protector canary changes while this frame is live
 * (efi/stack-guard.c). */
BT_NO_STACK_PROTECTOR EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	/* The platform lives for the whole program and is reached from exit()
	 * (through the cleanup path), so it is a singleton, not on the stack. */
	static struct bt_platform plat;
	/* static: changed between setjmp and a longjmp from exit() (C11 7.13.2.1) */
	static int argc;
	static char **argv; /* as argc */
	EFI_STATUS est;
	/* The start of --budget and of the hand-over time. */
	uint64_t entry_tsc = bt_rdtsc(bt_arch_hw());

	/* First, before any protected function has a frame that outlives it. */
	bt_efi_stack_guard_init(entry_tsc, image);

	bt_efi.image = image;
	bt_efi.st = st;
	bt_efi.bs = st->BootServices;
	bt_efi.rs = st->RuntimeServices;
	/* The watchdog is the program's: each phase arms its own bound (the
	 * start phase first thing, app/boot-run.h). */

	est = bt_efi.bs->HandleProtocol(image, &gEfiLoadedImageProtocolGuid,
					(void **)&bt_efi.loaded_image);
	if (est != EFI_SUCCESS) {
		st->ConOut->OutputString(st->ConOut, L"baretop: no EFI_LOADED_IMAGE_PROTOCOL\r\n");
		return est;
	}
	find_app_path();
	bt_efi_files_init();
	bt_efi_platform_init(&plat);
	bt_efi_boot_vars_init(&plat);
	bt_efi_boot_facts(&plat);
	plat.entry_tsc = entry_tsc;
	snprintf(plat.program_path, sizeof(plat.program_path), "%s", bt_efi.app_path);
	static char config_path[300]; /* plat keeps the pointer: program lifetime */
	snprintf(config_path, sizeof(config_path), "%s\\baretop.cfg", bt_efi.app_dir);
	plat.config_path = config_path;
	plat.rename_noreplace = efi_rename_noreplace;
	plat.fault_guard_selftest = guard_selftest;
	plat.set_park_cleanup = bt_efi_set_park_cleanup;
	plat.crash_test = bt_hw_ud2_unguarded;
	plat.stack_smash_test = bt_efi_stack_smash_test;
	open_boot_volume(&plat);
	guard_state = &plat.fault_guard;
	bt_efi_fault_guard_install(&plat.fault_guard);
	bt_efi_set_exit_handler(on_exit_call);
	bt_efi_set_recovery(&exit_jump);

	/* static: read after a longjmp (C11 7.13.2.1) */
	static int jump;
	static bool handing_over; /* static: read after a longjmp, as jump */
	jump = setjmp(exit_jump);
	if (jump == 0) {
		bt_status ast = bt_efi_args(&argc, &argv);
		if (ast != BT_OK) {
			bt_log_status(ast, "cannot read the load options");
			exit_status = BT_EXIT_FAILED;
			plat.end_action = plat.boot_start.parent == BT_PARENT_SHELL
						  ? BT_END_RETURN : BT_END_RETURN_NOT_STARTED;
		} else {
			exit_status = bt_app_main(argc, argv, &plat);
		}
	} else if (jump == BT_EFI_JUMP_CRASH && !handing_over) {
		/* A crash on this CPU, recovered: the end of a crashed run. */
		exit_status = bt_app_crash_end(&plat);
	}
	if (jump > BT_EFI_JUMP_CRASH || (jump == BT_EFI_JUMP_CRASH && handing_over)) {
		/* A crash while the end was carried out: to the firmware, which
		 * goes on (with BootOrder), as fast as possible. */
		bt_efi_fault_guard_remove();
		bt_efi.bs->SetWatchdogTimer(0, 0, 0, NULL);
		return EFI_ABORTED;
	}
	/* Back from the program, by returning, exit() or a crash. */
	fflush(NULL);
	bt_efi_files_close_all();
	if (jump < BT_EFI_JUMP_CRASH)
		bt_cmdline_free(argc, argv);
	handing_over = true;
	est = carry_out(&plat);
	bt_efi_fault_guard_remove();
	/* as the boot manager does when a boot option returns */
	bt_efi.bs->SetWatchdogTimer(0, 0, 0, NULL);
	/* The one way out: what a chainloaded image printed or opened through
	 * baretop's files is flushed and closed, then the boot volume. UEFI
	 * does not free an application's pages when it exits: give the heap
	 * back, as nothing runs after this point (no stdio either). */
	fflush(stdout);
	bt_efi_files_close_all();
	if (bt_efi.root)
		bt_efi.root->Close(bt_efi.root);
	bt_efi_heap_release();
	return est;
}
