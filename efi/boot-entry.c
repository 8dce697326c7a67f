/* SPDX-License-Identifier: MIT */
/*
 * --then next-boot-entry: start the boot option the boot manager would
 * have started after baretop's. BootCurrent names baretop's entry (UEFI
 * 3.3, Globally Defined Variables); the next one is the first entry after
 * it in BootOrder that the boot manager would start: active and of
 * category BOOT (EDK2 MdeModulePkg/Universal/BdsDxe/BdsEntry.c
 * BootBootOptions skips the others; OVMF's UiApp sits in BootOrder with
 * category APP). From the start of BootOrder when BootCurrent is not in it,
 * as for a one-shot BootNext entry: the firmware deletes BootNext before it
 * starts that entry (UEFI 3.1.2). Its FilePathList is loaded with LoadImage
 * and started with its OptionalData as load options.
 *
 * A short-form HD() path (efibootmgr, bcdboot) is expanded first, as the
 * boot manager does (BmBoot.c BmExpandPartitionDevicePath), so LoadImage
 * can start it in this boot. When LoadImage still fails (a file that is
 * gone, a network or USB-class path only the boot manager resolves), that
 * entry is made BootNext and the machine reset, once: the attempt is kept
 * in BaretopState (BT_BOOT_STATE_BOOTNEXT_TRIED), and a boot that comes
 * back to baretop and finds it does not reset again. It returns to the boot
 * manager with a status other than EFI_SUCCESS, and the boot manager tries
 * the remaining BootOrder entries itself, in this boot.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/boot-state.h"
#include "firmware/load-option.h"
#include "efi/boot-vars-efi.h"
#include "efi/efi-state.h"
#include "efi/image-efi.h"

static EFI_STATUS get_global(const CHAR16 *name, void *buf, UINTN *size)
{
	UINT32 attr;
	return bt_efi.rs->GetVariable((CHAR16 *)name, &gEfiGlobalVariableGuid, &attr, size, buf);
}

/* The state as app/boot-run.c left it; false when there is none that can
 * be read (a BootNext attempt could then not be remembered). */
static bool read_state(struct bt_platform *p, struct bt_boot_state *s, bool *have)
{
	uint8_t buf[256];
	size_t len = sizeof(buf);
	struct bt_diag d = { "" };

	*have = false;
	memset(s, 0, sizeof(*s));
	if (!p->nv_read || !p->nv_write)
		return false;
	bt_status st = p->nv_read(BT_BOOT_STATE_NAME, buf, &len, &d);
	if (st == BT_ERR_NOT_FOUND)
		return true;
	if (st != BT_OK || bt_boot_state_decode(buf, len, s, &d) != BT_OK)
		return false;
	*have = true;
	return true;
}

/* Makes `num` BootNext and resets, after recording the attempt; returns
 * only when either write failed. */
static EFI_STATUS boot_via_bootnext(struct bt_platform *p, struct bt_boot_state *s, uint16_t num)
{
	uint8_t buf[BT_BOOT_STATE_SIZE];
	struct bt_diag d = { "" };

	s->flags = (s->flags & 0xffffu) | BT_BOOT_STATE_BOOTNEXT_TRIED |
		   (uint32_t)num << BT_BOOT_STATE_BOOTNEXT_SHIFT;
	bt_boot_state_encode(s, buf);
	if (p->nv_write(BT_BOOT_STATE_NAME, buf, sizeof(buf), &d) != BT_OK) {
		printf("baretop: next-boot-entry: the attempt cannot be recorded (%s): no BootNext, "
		       "returning to the boot manager\n", d.text);
		return BT_EFI_HANDOVER_STATUS;
	}
	p->nv_writes++;
	UINT16 v = num;
	EFI_STATUS st = bt_efi.rs->SetVariable(L"BootNext", &gEfiGlobalVariableGuid,
					       EFI_VARIABLE_NON_VOLATILE |
						       EFI_VARIABLE_BOOTSERVICE_ACCESS |
						       EFI_VARIABLE_RUNTIME_ACCESS,
					       sizeof(v), &v);
	if (st != EFI_SUCCESS) {
		bt_efi_log_status(st, "next-boot-entry: SetVariable BootNext (returning to the boot "
				  "manager)");
		return BT_EFI_HANDOVER_STATUS;
	}
	p->nv_writes++;
	printf("baretop: next-boot-entry: BootNext=Boot%04X set (recorded in %s: not again); "
	       "resetting\n", num, BT_BOOT_STATE_NAME);
	fflush(stdout);
	bt_efi.rs->ResetSystem(EfiResetCold, EFI_SUCCESS, 0, NULL);
	return EFI_DEVICE_ERROR;
}

/*
 * The full path of a short-form HD() path: the partition with the same
 * HD() node among the handles with BlockIo (BmExpandPartitionDevicePath
 * searches the same after connecting every controller when its cache
 * misses). Pool memory the caller frees; NULL when no partition matches.
 */
static EFI_DEVICE_PATH *expand_hd(const uint8_t *short_dp, size_t short_len)
{
	for (int pass = 0; pass < 2; pass++) {
		EFI_HANDLE *handles = NULL;
		UINTN n = 0;

		if (pass == 1) {
			/* Not found among the connected devices: connect every
			 * controller, as EfiBootManagerConnectAll does for
			 * BmExpandPartitionDevicePath, and look again. */
			if (bt_efi.bs->LocateHandleBuffer(AllHandles, NULL, NULL, &n, &handles) !=
			    EFI_SUCCESS)
				return NULL;
			for (UINTN i = 0; i < n; i++)
				bt_efi.bs->ConnectController(handles[i], NULL, NULL, TRUE);
			bt_efi.bs->FreePool(handles);
			handles = NULL;
		}
		if (bt_efi.bs->LocateHandleBuffer(ByProtocol, &gEfiBlockIoProtocolGuid, NULL, &n,
						  &handles) != EFI_SUCCESS)
			continue;
		for (UINTN i = 0; i < n; i++) {
			EFI_DEVICE_PATH *dp = NULL;
			if (bt_efi.bs->HandleProtocol(handles[i], &gEfiDevicePathProtocolGuid,
						      (void **)&dp) != EFI_SUCCESS || !dp)
				continue;
			/* A handle's device path is well-formed; 4 KiB bounds the walk. */
			size_t plen = bt_dp_length((const uint8_t *)dp, 4096);
			size_t cap = plen + short_len, len = 0;
			uint8_t *out = NULL;
			if (!plen || bt_efi.bs->AllocatePool(EfiLoaderData, cap, (void **)&out) !=
					     EFI_SUCCESS)
				continue;
			if (bt_dp_expand_hd((const uint8_t *)dp, plen, short_dp, short_len, out, cap,
					    &len) == BT_OK) {
				bt_efi.bs->FreePool(handles);
				return (EFI_DEVICE_PATH *)out;
			}
			bt_efi.bs->FreePool(out);
		}
		bt_efi.bs->FreePool(handles);
	}
	return NULL;
}

/* LoadImage of the entry's path, the HD() short form expanded first. An
 * image refused by Secure Boot (EFI_SECURITY_VIOLATION) was loaded and has
 * a handle: it is unloaded (BmBoot.c EfiBootManagerBoot does the same,
 * "to avoid resource leak"). */
static EFI_STATUS load_entry(const uint8_t *dp, size_t dp_len, EFI_HANDLE *h)
{
	EFI_DEVICE_PATH *full = NULL;
	EFI_STATUS st;

	*h = NULL;
	if (bt_dp_is_short_hd(dp, dp_len)) {
		full = expand_hd(dp, dp_len);
		if (!full) {
			printf("baretop: next-boot-entry: no partition matches its short-form HD() "
			       "path\n");
			return EFI_NOT_FOUND;
		}
		printf("baretop: next-boot-entry: short-form HD() path expanded to its partition\n");
	}
	st = bt_efi.bs->LoadImage(FALSE, bt_efi.image, full ? full : (EFI_DEVICE_PATH *)dp, NULL, 0,
				  h);
	if (full)
		bt_efi.bs->FreePool(full);
	if (st == EFI_SECURITY_VIOLATION && *h) {
		bt_efi.bs->UnloadImage(*h);
		*h = NULL;
	}
	return st;
}

EFI_STATUS bt_efi_start_next_boot_entry(struct bt_platform *p)
{
	UINT16 current = 0, order[256];
	UINTN size = sizeof(current);
	/* static: 4 KiB off the firmware's small stack, and the started image's
	 * LoadOptions point into it while it runs. */
	static uint8_t opt[4096];
	struct bt_boot_state state;
	bool have_state;
	/* A BootNext attempt is allowed only when it can be remembered, and
	 * none of an earlier boot is pending: see the file comment. */
	bool can_remember = read_state(p, &state, &have_state);
	bool tried = have_state && (state.flags & BT_BOOT_STATE_BOOTNEXT_TRIED);
	uint16_t tried_num = (uint16_t)(state.flags >> BT_BOOT_STATE_BOOTNEXT_SHIFT);
	bool bootnext_ok = can_remember;
	EFI_STATUS st;

	if (get_global(L"BootCurrent", &current, &size) != EFI_SUCCESS) {
		printf("baretop: next-boot-entry: no BootCurrent (not started by the boot "
		       "manager); returning to the firmware\n");
		return BT_EFI_HANDOVER_STATUS;
	}
	size = sizeof(order);
	if ((st = get_global(L"BootOrder", order, &size)) != EFI_SUCCESS) {
		bt_efi_log_status(st, "next-boot-entry: no BootOrder; returning");
		return BT_EFI_HANDOVER_STATUS;
	}
	size_t n = size / sizeof(UINT16);
	for (size_t i = bt_boot_order_after(order, n, current); i < n; i++) {
		CHAR16 name[16];
		struct bt_load_option lo;
		struct bt_diag d = { "" };
		UINTN osize = sizeof(opt);
		const char *why;

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
		if (!bt_load_option_bootable(lo.attributes, &why)) {
			printf("baretop: next-boot-entry: %s \"%s\" skipped: %s\n", aname,
			       lo.description, why);
			continue;
		}
		printf("baretop: next-boot-entry: Boot%04X \"%s\" (after Boot%04X in BootOrder)\n",
		       order[i], lo.description, current);
		fflush(stdout);
		EFI_HANDLE h = NULL;
		st = load_entry(opt + lo.file_path_offset, lo.file_path_length, &h);
		if (st == EFI_SECURITY_VIOLATION || st == EFI_ACCESS_DENIED) {
			bt_efi_sb_refusal(&d, aname, st);
			printf("baretop: next-boot-entry: %s\n", d.text);
		}
		if (st != EFI_SUCCESS) {
			bt_efi_log_status(st, "next-boot-entry: LoadImage");
			if (tried && tried_num == order[i]) {
				printf("baretop: next-boot-entry: Boot%04X was made BootNext by an earlier "
				       "boot and baretop runs again: not again; trying the next entry\n",
				       order[i]);
				bootnext_ok = false;
				continue;
			}
			if (bootnext_ok)
				return boot_via_bootnext(p, &state, order[i]);
			printf("baretop: next-boot-entry: Boot%04X skipped (%s)\n", order[i],
			       can_remember ? "one BootNext attempt is enough"
					    : "a BootNext attempt could not be remembered in NVRAM");
			continue;
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
		bt_efi_log_status(st, "Boot%04X returned (back to the boot manager)", order[i]);
		return st == EFI_SUCCESS ? BT_EFI_HANDOVER_STATUS : st;
	}
	printf("baretop: next-boot-entry: no entry after Boot%04X in BootOrder could be started: "
	       "returning to the boot manager, which goes on with BootOrder\n", current);
	return BT_EFI_HANDOVER_STATUS;
}
