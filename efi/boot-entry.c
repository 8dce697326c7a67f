/* SPDX-License-Identifier: MIT */
/*
 * --then next-boot-entry: start the boot option the boot manager would
 * have started after baretop's. BootCurrent names baretop's entry (UEFI
 * 3.3, Globally Defined Variables); the next one is the first active entry
 * after it in BootOrder (from the start of BootOrder when BootCurrent is
 * not in it, as for a one-shot BootNext entry: the firmware deletes
 * BootNext before it starts that entry, UEFI 3.1.2). Its FilePathList is
 * loaded with LoadImage and started with its OptionalData as load options.
 * A short-form device path (a HD() or file-path node first, as efibootmgr
 * writes) may not be one LoadImage can resolve: then that entry is made
 * BootNext and the machine is reset, so the boot manager, which expands
 * short forms, starts it.
 */
#include <stdio.h>
#include <string.h>

#include "firmware/load-option.h"
#include "efi/boot-vars-efi.h"
#include "efi/efi-state.h"

static EFI_STATUS get_global(const CHAR16 *name, void *buf, UINTN *size)
{
	UINT32 attr;
	return bt_efi.rs->GetVariable((CHAR16 *)name, &gEfiGlobalVariableGuid, &attr, size, buf);
}

static EFI_STATUS boot_via_bootnext(uint16_t num)
{
	UINT16 v = num;
	EFI_STATUS st = bt_efi.rs->SetVariable(L"BootNext", &gEfiGlobalVariableGuid,
					       EFI_VARIABLE_NON_VOLATILE |
						       EFI_VARIABLE_BOOTSERVICE_ACCESS |
						       EFI_VARIABLE_RUNTIME_ACCESS,
					       sizeof(v), &v);
	if (st != EFI_SUCCESS)
		return bt_efi_log_status(st, "next-boot-entry: SetVariable BootNext");
	printf("baretop: next-boot-entry: BootNext=Boot%04X set; resetting\n", num);
	fflush(stdout);
	bt_efi.rs->ResetSystem(EfiResetCold, EFI_SUCCESS, 0, NULL);
	return EFI_DEVICE_ERROR;
}

EFI_STATUS bt_efi_start_next_boot_entry(void)
{
	UINT16 current = 0, order[256];
	UINTN size = sizeof(current);
	/* static: 4 KiB off the firmware's small stack, and the started image's
	 * LoadOptions point into it while it runs. */
	static uint8_t opt[4096];
	EFI_STATUS st;

	if (get_global(L"BootCurrent", &current, &size) != EFI_SUCCESS) {
		printf("baretop: next-boot-entry: no BootCurrent (not started by the boot "
		       "manager); returning to the firmware\n");
		return EFI_NOT_FOUND;
	}
	size = sizeof(order);
	if ((st = get_global(L"BootOrder", order, &size)) != EFI_SUCCESS) {
		printf("baretop: next-boot-entry: no BootOrder (%s); returning\n",
		       bt_efi_status_name(st));
		return EFI_NOT_FOUND;
	}
	size_t n = size / sizeof(UINT16);
	for (size_t i = bt_boot_order_after(order, n, current); i < n; i++) {
		CHAR16 name[16];
		struct bt_load_option lo;
		struct bt_diag d = { "" };
		UINTN osize = sizeof(opt);

		if (order[i] == current)
			continue;
		char aname[16];
		snprintf(aname, sizeof(aname), "Boot%04X", order[i]);
		for (int k = 0; k < 9; k++)
			name[k] = (CHAR16)aname[k];
		st = get_global(name, opt, &osize);
		if (st != EFI_SUCCESS)
			bt_diag_set(&d, "GetVariable: %s", bt_efi_status_name(st));
		if (st != EFI_SUCCESS || bt_load_option_parse(opt, osize, &lo, &d) != BT_OK) {
			printf("baretop: next-boot-entry: %s unreadable: %s; skipped\n", aname, d.text);
			continue;
		}
		if (!(lo.attributes & BT_LOAD_OPTION_ACTIVE))
			continue;
		printf("baretop: next-boot-entry: Boot%04X \"%s\" (after Boot%04X in BootOrder)\n",
		       order[i], lo.description, current);
		fflush(stdout);
		EFI_HANDLE h = NULL;
		st = bt_efi.bs->LoadImage(FALSE, bt_efi.image,
					  (EFI_DEVICE_PATH *)(opt + lo.file_path_offset), NULL, 0, &h);
		if (st != EFI_SUCCESS) {
			bt_efi_log_status(st, "next-boot-entry: LoadImage");
			return boot_via_bootnext(order[i]);
		}
		EFI_LOADED_IMAGE *li = NULL;
		if (lo.optional_length &&
		    bt_efi.bs->HandleProtocol(h, &gEfiLoadedImageProtocolGuid, (void **)&li) ==
			    EFI_SUCCESS) {
			li->LoadOptions = opt + lo.optional_offset;
			li->LoadOptionsSize = (UINT32)lo.optional_length;
		}
		/* As the boot manager does before it starts a boot option. */
		bt_efi.bs->SetWatchdogTimer(300, 0, 0, NULL);
		st = bt_efi.bs->StartImage(h, NULL, NULL);
		bt_efi.bs->SetWatchdogTimer(0, 0, 0, NULL);
		return bt_efi_log_status(st, "Boot%04X returned", order[i]);
	}
	printf("baretop: next-boot-entry: no active entry after Boot%04X in BootOrder; "
	       "returning to the boot manager\n", current);
	return EFI_NOT_FOUND;
}
