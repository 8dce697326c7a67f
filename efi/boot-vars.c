/* SPDX-License-Identifier: MIT */
/*
 * The platform's boot-time services for unattended runs (app/platform.h):
 * baretop's NVRAM variables under its vendor GUID, the watchdog, BootNext
 * deleted (a reset or a power-off is efi_main's to carry out).
 */
#include <stdio.h>
#include <string.h>

#include "app/boot-state.h"
#include "efi/boot-vars-efi.h"
#include "efi/efi-state.h"

/* BT_VENDOR_GUID_TEXT, 6c1f6e3a-8d2b-4f5e-9a47-b7e2c0d41a93, as EFI_GUID
 * (the first three fields little-endian in memory, the last 8 bytes as written). */
static EFI_GUID vendor_guid = { 0x6c1f6e3a, 0x8d2b, 0x4f5e,
				{ 0x9a, 0x47, 0xb7, 0xe2, 0xc0, 0xd4, 0x1a, 0x93 } };

static bool ucs2_name(const char *name, CHAR16 *out, size_t cap)
{
	size_t i = 0;

	for (; name[i]; i++) {
		if (i + 1 >= cap)
			return false;
		out[i] = (CHAR16)(unsigned char)name[i];
	}
	out[i] = 0;
	return true;
}

static bt_status nv_read(const char *name, void *buf, size_t *len, struct bt_diag *d)
{
	CHAR16 wname[64];
	UINT32 attr = 0;
	UINTN size = *len;
	EFI_STATUS st;

	if (!ucs2_name(name, wname, 64)) {
		bt_diag_set(d, "variable name too long");
		return BT_ERR_INVALID;
	}
	st = bt_efi.rs->GetVariable(wname, &vendor_guid, &attr, &size, buf);
	if (st == EFI_NOT_FOUND)
		return BT_ERR_NOT_FOUND;
	if (st != EFI_SUCCESS) {
		bt_diag_set(d, "GetVariable %s: %s", name, bt_efi_status_name(st));
		return bt_efi_status(st);
	}
	*len = size;
	return BT_OK;
}

static bt_status nv_write(const char *name, const void *buf, size_t len, struct bt_diag *d)
{
	CHAR16 wname[64];
	EFI_STATUS st;

	if (!ucs2_name(name, wname, 64)) {
		bt_diag_set(d, "variable name too long");
		return BT_ERR_INVALID;
	}
	st = bt_efi.rs->SetVariable(wname, &vendor_guid, BT_BOOT_STATE_ATTRIBUTES, len,
				    (void *)buf);
	if (st != EFI_SUCCESS) {
		bt_diag_set(d, "SetVariable %s: %s", name, bt_efi_status_name(st));
		/* the store is full (not memory): app/boot-run.c stops writing */
		return st == EFI_OUT_OF_RESOURCES ? BT_ERR_FULL : bt_efi_status(st);
	}
	return BT_OK;
}

static bt_status boot_next_delete(struct bt_diag *d)
{
	EFI_STATUS st = bt_efi.rs->SetVariable(L"BootNext", &gEfiGlobalVariableGuid, 0, 0, NULL);

	if (st != EFI_SUCCESS && st != EFI_NOT_FOUND) {
		bt_diag_set(d, "deleting it failed (%s)", bt_efi_status_name(st));
		return bt_efi_status(st);
	}
	return BT_OK;
}

/* UEFI 7.5.1 SetWatchdogTimer: on expiry the firmware resets the platform
 * (EDK2: ResetSystem EfiResetCold). The code is ours to choose above
 * 0x10000 (0 to 0xFFFF are reserved for the firmware). */
static bt_status set_watchdog(uint32_t seconds)
{
	/* static: the firmware keeps the pointer (WatchdogData) while the timer runs. */
	static CHAR16 why[] = L"baretop: watchdog (a hang)";
	EFI_STATUS st = bt_efi.bs->SetWatchdogTimer(seconds, 0x10000 + 0xb7, sizeof(why), why);
	return bt_efi_status(st);
}

void bt_efi_boot_vars_init(struct bt_platform *p)
{
	p->nv_read = nv_read;
	p->nv_write = nv_write;
	p->set_watchdog = set_watchdog;
	p->boot_next_delete = boot_next_delete;
}
