/* SPDX-License-Identifier: MIT */
/*
 * What started baretop (app/boot-policy.h enum bt_parent), and the
 * hand-back to a loader: start it again from its own file.
 *
 * - shim 16.1 runs its second stage as itself: it reads the file, checks
 *   and relocates it and calls its entry point with shim's own image
 *   handle (shim.c start_image; the LoadedImage's FilePath is changed to
 *   the second stage's). Its SHIM_LOCK protocol is installed on a handle
 *   of its own (shim.c install_shim_protocols: a static shim_lock_handle,
 *   NULL at first) for as long as the second stage runs, and uninstalled
 *   when it returns (efi_main, uninstall_shim_protocols): so SHIM_LOCK is
 *   located, not looked up on baretop's handle. A loader that shim
 *   started (GRUB) and that started baretop sees SHIM_LOCK too; baretop's
 *   parent is then that loader, an image loaded from a file, where under
 *   shim itself the parent is the boot manager (none, or BdsDxe from a
 *   firmware volume). When the second stage
 *   returns, shim returns its status to the boot manager after a 2 s pause
 *   (shim.c init_grub; EFI_NOT_FOUND, EFI_INVALID_PARAMETER and TFTP/HTTP
 *   errors first start its default loader, grubx64.efi: baretop never
 *   returns those as a hand-over).
 * - the UEFI shell installs EFI_SHELL_PARAMETERS_PROTOCOL on the images it
 *   starts (UEFI Shell 2.2, 2.3).
 * - EDK2's boot manager clears ParentHandle of the image it starts from a
 *   Boot#### option ("loaded directly from the firmware's boot manager",
 *   BmBoot.c EfiBootManagerBoot); it does not for PlatformRecovery####
 *   (BmLoadOption.c EfiBootManagerProcessLoadOption: LoadImage with
 *   BdsDxe's handle as parent), and no boot option is current then
 *   (EfiBootManagerBoot deletes BootCurrent when an option returns).
 * - systemd-boot sets the volatile LoaderInfo variable ("systemd-boot
 *   VERSION", the Boot Loader Interface; boot.c export_variables) before it
 *   starts an entry with LoadImage(FALSE, its own handle, ...).
 * - a loader that baretop started again to hand back to it (below) and
 *   that started baretop again: an ancestor image is baretop's own file.
 */
#include <stdio.h>
#include <string.h>

#include "app/platform.h"
#include "firmware/load-option.h"
#include "efi/boot-vars-efi.h"
#include "efi/efi-state.h"

/* shim.h SHIM_LOCK_GUID; systemd's LOADER_GUID (Boot Loader Interface). */
static EFI_GUID shim_lock_guid = { 0x605dab50, 0xe046, 0x4300,
				   { 0xab, 0xb6, 0x3d, 0xd8, 0x10, 0xdd, 0x8b, 0x23 } };
static EFI_GUID loader_guid = { 0x4a67b082, 0x0a4c, 0x41cf,
				{ 0xb6, 0xc7, 0x44, 0x0b, 0x29, 0xbb, 0x8c, 0x4f } };
static EFI_GUID shell_parameters_guid = EFI_SHELL_PARAMETERS_PROTOCOL_GUID;

#define DP_MAX 4096

static bool has_protocol(EFI_HANDLE h, EFI_GUID *guid)
{
	void *p = NULL;
	return bt_efi.bs->HandleProtocol(h, guid, &p) == EFI_SUCCESS;
}

static EFI_LOADED_IMAGE *loaded_image(EFI_HANDLE h)
{
	EFI_LOADED_IMAGE *li = NULL;
	if (!h || bt_efi.bs->HandleProtocol(h, &gEfiLoadedImageProtocolGuid, (void **)&li) !=
		      EFI_SUCCESS)
		return NULL;
	return li;
}

static bool same_path(const EFI_DEVICE_PATH *a, const EFI_DEVICE_PATH *b)
{
	size_t la = a ? bt_dp_length((const uint8_t *)a, DP_MAX) : 0;
	return la && b && la == bt_dp_length((const uint8_t *)b, DP_MAX) && !memcmp(a, b, la);
}

/* An ancestor of baretop's image is baretop's own file. */
static bool started_under_self(void)
{
	EFI_LOADED_IMAGE *me = bt_efi.loaded_image, *li = loaded_image(me->ParentHandle);

	for (int depth = 0; li && depth < 16; depth++) {
		if (li->DeviceHandle == me->DeviceHandle && same_path(li->FilePath, me->FilePath))
			return true;
		li = loaded_image(li->ParentHandle);
	}
	return false;
}

/* shim is running its second stage somewhere above baretop. */
static bool shim_running(void)
{
	void *p = NULL;
	return bt_efi.bs->LocateProtocol(&shim_lock_guid, NULL, &p) == EFI_SUCCESS;
}

/* baretop's parent is an image loaded from a file (a loader such as GRUB),
 * not the boot manager: no parent (a Boot#### option), or BdsDxe, whose
 * path is a firmware-volume file (UEFI 10.3.5.7 PIWG firmware file, media
 * subtype 6) for PlatformRecovery####. */
static bool parent_is_file_loader(void)
{
	EFI_LOADED_IMAGE *li = loaded_image(bt_efi.loaded_image->ParentHandle);
	const EFI_DEVICE_PATH *fp = li ? li->FilePath : NULL;

	return fp && bt_dp_length((const uint8_t *)fp, DP_MAX) &&
	       !(fp->Type == MEDIA_DEVICE_PATH && fp->SubType == 6);
}

static bool systemd_boot(void)
{
	CHAR16 info[64];
	UINTN size = sizeof(info);
	UINT32 attr;
	static const CHAR16 name[] = u"systemd-boot";

	return bt_efi.rs->GetVariable(L"LoaderInfo", &loader_guid, &attr, &size, info) ==
		       EFI_SUCCESS &&
	       size >= sizeof(name) - 2 && !memcmp(info, name, sizeof(name) - 2);
}

void bt_efi_boot_parent(struct bt_platform *p)
{
	struct bt_boot_start *s = &p->boot_start;

	if (started_under_self())
		s->parent = BT_PARENT_SELF;
	else if (shim_running() && !parent_is_file_loader())
		s->parent = BT_PARENT_SHIM;
	else if (has_protocol(bt_efi.image, &shell_parameters_guid))
		s->parent = BT_PARENT_SHELL;
	else if (!bt_efi.loaded_image->ParentHandle)
		s->parent = BT_PARENT_BOOT_MANAGER;
	else if (systemd_boot())
		s->parent = BT_PARENT_SYSTEMD_BOOT;
	else if (!s->have_boot_current)
		s->parent = BT_PARENT_RECOVERY;
	else
		s->parent = BT_PARENT_LOADER;
}

/*
 * BT_END_RESTART_PARENT: the loader that started baretop, loaded again
 * from its device and file with its own load options, and started. A
 * loader starts afresh and boots its default entry (systemd-boot: a
 * one-shot entry, LoaderEntryOneShot, was deleted when it was read, boot.c
 * config_load_defaults). Should it start baretop again, baretop is its
 * default and refuses (BT_PARENT_SELF). Returns only when the loader
 * could not be started or returned.
 */
EFI_STATUS bt_efi_restart_parent(void)
{
	EFI_LOADED_IMAGE *parent = loaded_image(bt_efi.loaded_image->ParentHandle);
	EFI_DEVICE_PATH *dev = NULL;
	uint8_t *path = NULL;
	EFI_HANDLE h = NULL;
	EFI_STATUS st;

	if (!parent || !parent->FilePath ||
	    bt_efi.bs->HandleProtocol(parent->DeviceHandle, &gEfiDevicePathProtocolGuid,
				      (void **)&dev) != EFI_SUCCESS)
		return EFI_NOT_FOUND;
	size_t dl = bt_dp_length((const uint8_t *)dev, DP_MAX),
	       fl = bt_dp_length((const uint8_t *)parent->FilePath, DP_MAX);
	if (dl < 4 || !fl ||
	    bt_efi.bs->AllocatePool(EfiLoaderData, dl - 4 + fl, (void **)&path) != EFI_SUCCESS)
		return EFI_NOT_FOUND;
	memcpy(path, dev, dl - 4);
	memcpy(path + dl - 4, parent->FilePath, fl);
	printf("baretop: handing back: starting the loader that started baretop again\n");
	st = bt_efi.bs->LoadImage(FALSE, bt_efi.image, (EFI_DEVICE_PATH *)path, NULL, 0, &h);
	bt_efi.bs->FreePool(path);
	if (st != EFI_SUCCESS) {
		if (st == EFI_SECURITY_VIOLATION && h)
			bt_efi.bs->UnloadImage(h);
		return bt_efi_log_status(st, "restarting the loader that started baretop");
	}
	EFI_LOADED_IMAGE *li = loaded_image(h);
	if (li) {
		li->LoadOptions = parent->LoadOptions;
		li->LoadOptionsSize = parent->LoadOptionsSize;
	}
	bt_efi_before_next_stage();
	st = bt_efi.bs->StartImage(h, NULL, NULL);
	bt_efi.bs->SetWatchdogTimer(0, 0, 0, NULL);
	return st;
}
