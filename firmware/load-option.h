/* SPDX-License-Identifier: MIT */
/*
 * UEFI boot options as the boot manager keeps them (UEFI spec 2.10,
 * 3.1.3 "Load Options"): the BootOrder list and one Boot#### variable's
 * EFI_LOAD_OPTION. Parsed here, portably, so that --then next-boot-entry
 * (efi/boot-entry.c) starts the entry the boot manager would have started
 * after baretop's.
 */
#ifndef FIRMWARE_LOAD_OPTION_H
#define FIRMWARE_LOAD_OPTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/status.h"

#define BT_LOAD_OPTION_ACTIVE 0x1u /* LOAD_OPTION_ACTIVE */
/* LOAD_OPTION_CATEGORY (UEFI 2.10, 3.1.3): bits 8-12. 0 is BOOT (part of
 * the normal boot), 0x100 APP (an application the boot manager offers in
 * its menu, e.g. OVMF's UiApp, which sits in BootOrder); other values are
 * reserved. EDK2's BDS starts only active BOOT entries from BootOrder
 * (MdeModulePkg/Universal/BdsDxe/BdsEntry.c BootBootOptions). */
#define BT_LOAD_OPTION_CATEGORY 0x1F00u
#define BT_LOAD_OPTION_CATEGORY_BOOT 0x0u
#define BT_LOAD_OPTION_CATEGORY_APP 0x100u

/*
 * EFI_LOAD_OPTION: UINT32 Attributes, UINT16 FilePathListLength, CHAR16
 * Description[] (NUL-terminated), EFI_DEVICE_PATH_PROTOCOL
 * FilePathList[FilePathListLength bytes], UINT8 OptionalData[rest].
 * Offsets into the variable's bytes; the description as ASCII ('?' for
 * other characters).
 */
struct bt_load_option {
	uint32_t attributes;
	char description[80];
	size_t file_path_offset, file_path_length;
	size_t optional_offset, optional_length;
};

/* BT_ERR_INVALID with one line in d when the bytes are not a load option
 * (too short, no NUL after the description, a file path list running past
 * the end or without an end node where its length says it ends). */
bt_status bt_load_option_parse(const uint8_t *buf, size_t len, struct bt_load_option *ret,
			       struct bt_diag *d);

/* The index in BootOrder (order[0..n)) where the search for the next entry
 * starts: the one after `current` (BootCurrent), or 0 when `current` is not
 * in the list (a one-shot BootNext entry, say). n when current is last. */
size_t bt_boot_order_after(const uint16_t *order, size_t n, uint16_t current);

/* Whether the boot manager would start this entry from BootOrder: active
 * and of category BOOT. Otherwise *why says which it is not. */
bool bt_load_option_bootable(uint32_t attributes, const char **why);

/*
 * Device paths (UEFI 2.10, 10.3): nodes of Type, SubType, UINT16 Length,
 * ending with an end node (Type 0x7F). A short-form "hard drive" path, as
 * efibootmgr and bcdboot write them, starts with a HD() node (Type 4 Media,
 * SubType 1, 42 bytes: PartitionNumber, start, size, Signature[16],
 * PartitionFormat, SignatureType) and names no controller: LoadImage
 * cannot resolve it, the boot manager expands it first
 * (MdeModulePkg/Library/UefiBootManagerLib/BmBoot.c
 * BmExpandPartitionDevicePath: the device path of a partition whose HD()
 * node has the same partition number, format, signature type and signature,
 * BmMatchPartitionDevicePathNode, followed by the rest of the short form).
 */
#define BT_DP_HD_LENGTH 42u

/* Length of the device path's first instance, its end node included; 0
 * when it has none within len or a node is malformed. */
size_t bt_dp_length(const uint8_t *dp, size_t len);
/* Whether dp (len bytes) starts with a HD() node. */
bool bt_dp_is_short_hd(const uint8_t *dp, size_t len);
/*
 * Expands a short-form HD() path against one partition's full device
 * path (a handle's): when part's last node before its end is a HD() node
 * that matches short_dp's first one, writes part's nodes (without its end)
 * then short_dp's nodes after the HD() one (with its end) into out and
 * returns BT_OK with the length in *ret_len. BT_ERR_NOT_FOUND when the
 * partition does not match; BT_ERR_INVALID for a malformed path or a
 * result larger than cap.
 */
bt_status bt_dp_expand_hd(const uint8_t *part, size_t part_len, const uint8_t *short_dp,
			  size_t short_len, uint8_t *out, size_t cap, size_t *ret_len);

/*
 * How EDK2's boot manager resolves a boot option's path before LoadImage
 * (MdeModulePkg/Library/UefiBootManagerLib/BmBoot.c
 * BmGetNextLoadOptionDevicePath), by its nodes alone. Whether a path names
 * only a device (a BlockIo or file-system handle, expanded with
 * \EFI\BOOT\BOOTX64.EFI by BmExpandMediaDevicePath) needs the handles:
 * efi/boot-entry.c asks the firmware first.
 */
enum bt_dp_form {
	BT_DP_FULL,          /* starts at a hardware, ACPI or media (FV, CD-ROM...) node */
	BT_DP_SHORT_HD,      /* HD()/...: BmExpandPartitionDevicePath */
	BT_DP_SHORT_FILE,    /* \path\file.efi alone: BmExpandFileDevicePath, every file
			      * system (removable media first, then fixed, then others) */
	/* Forms only the boot manager resolves (a URI: BmExpandUriDevicePath,
	 * which may create a RAM disk; a USB class or WWID node:
	 * BmExpandUsbDevicePath; a messaging node first, a MAC() for a
	 * LoadFile, BmExpandLoadFiles; a BBS legacy path). */
	BT_DP_FIRMWARE_ONLY,
};
enum bt_dp_form bt_dp_form(const uint8_t *dp, size_t len);

/* Writes the nodes of dev (its end node dropped) then one Media / File
 * Path node of `path` (ASCII, as UCS-2) and an end node into out (cap
 * bytes): EDK2's FileDevicePath (DevicePathLib) of a handle's path.
 * BT_ERR_INVALID for a malformed dev or a result larger than cap. */
bt_status bt_dp_append_file(const uint8_t *dev, size_t dev_len, const char *path, uint8_t *out,
			    size_t cap, size_t *ret_len);
/* Whether `prefix`'s nodes (its end node dropped) are the first bytes of
 * dp's: BmExpandMediaDevicePath's test that a file system lies on the
 * device a device-only boot option names. */
bool bt_dp_has_prefix(const uint8_t *dp, size_t len, const uint8_t *prefix, size_t prefix_len);

/* The removable-media default file on x86-64 (UEFI 2.10, 3.5.1.1;
 * EDK2 EFI_REMOVABLE_MEDIA_FILE_NAME_X64). */
#define BT_REMOVABLE_MEDIA_FILE "\\EFI\\BOOT\\BOOTX64.EFI"

/*
 * The optional data EDK2 gives the boot options it creates itself
 * (BmBoot.c EfiBootManagerRefreshAllBootOption: mBmAutoCreateBootOptionGuid,
 * 8108ac4e-9f11-4d59-850e-e21a522c59b2, exactly 16 bytes). It marks the
 * option; it is not for the image: EfiBootManagerBoot passes no load
 * options when BmIsAutoCreateBootOption says an option carries it.
 */
bool bt_load_option_auto_created(const uint8_t *optional, size_t len);

#endif
